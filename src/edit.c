/*
 * Editing a record in the user's editor, for the one-shot `edit` and the
 * console alike: everything but the terminal, which the caller owns.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>


#include "compat.h"
#include "edit.h"
#include "encode.h"
#include "log.h"
#include "xmalloc.h"
#include "yamljson.h"

/* Words of $EDITOR kept; the rest are dropped. */
#define EDIT_ARGS	64

/* ---- the body and the diff ---------------------------------------------- */

cJSON *
edit_update_body(const struct kind *k, const cJSON *before,
    const cJSON *edited, const char *id)
{
	cJSON	*body, *m, *next;

	body = cJSON_Duplicate(edited, 1);
	if (body == NULL)
		fatalx("out of memory");
	if (k->update_method == KIND_METHOD_PUT && id != NULL &&
	    k->id_field != NULL && strchr(k->id_field, '.') == NULL &&
	    cJSON_IsObject(body) && !cJSON_HasObjectItem(body, k->id_field))
		cJSON_AddStringToObject(body, k->id_field, id);
	/*
	 * A POST edits like a PATCH (Stream's videos): a member sent back
	 * as the server gave it could be refused (maxDurationSeconds -1).
	 */
	if (k->update_method == KIND_METHOD_PUT || before == NULL ||
	    !cJSON_IsObject(body))
		return (body);
	for (m = body->child; m != NULL; m = next) {
		next = m->next;
		if (cJSON_Compare(m, cJSON_GetObjectItemCaseSensitive(before,
		    m->string), 1))
			cJSON_Delete(cJSON_DetachItemViaPointer(body, m));
	}
	return (body);
}

static void
edit_diff_value(struct buf *b, const cJSON *v)
{
	char	*text;

	if (v == NULL) {
		buf_adds(b, "(absent)");
		return;
	}
	if ((text = cJSON_PrintUnformatted(v)) == NULL)
		fatalx("out of memory");
	buf_adds(b, text);
	cJSON_free(text);
}

static size_t edit_diff_at(struct buf *, const char *, const cJSON *,
    const cJSON *);

static size_t
edit_diff_member(struct buf *out, const char *path, const char *name,
    const cJSON *a, const cJSON *b)
{
	char	*sub;
	size_t	 n;

	sub = *path != '\0' ? xprintf("%s.%s", path, name) : xstrdup(name);
	n = edit_diff_at(out, sub, a, b);
	free(sub);
	return (n);
}

static size_t
edit_diff_at(struct buf *out, const char *path, const cJSON *a,
    const cJSON *b)
{
	const cJSON	*m;
	char		*sub;
	size_t		 n = 0;
	int		 i, na, nb;

	if (a != NULL && b != NULL && cJSON_IsObject(a) && cJSON_IsObject(b)) {
		cJSON_ArrayForEach(m, a)
			n += edit_diff_member(out, path, m->string, m,
			    cJSON_GetObjectItemCaseSensitive(b, m->string));
		cJSON_ArrayForEach(m, b) {
			if (cJSON_GetObjectItemCaseSensitive(a, m->string) ==
			    NULL)
				n += edit_diff_member(out, path, m->string,
				    NULL, m);
		}
		return (n);
	}
	if (a != NULL && b != NULL && cJSON_IsArray(a) && cJSON_IsArray(b)) {
		na = cJSON_GetArraySize(a);
		nb = cJSON_GetArraySize(b);
		for (i = 0; i < MAXIMUM(na, nb); i++) {
			sub = xprintf("%s[%d]", path, i);
			n += edit_diff_at(out, sub, cJSON_GetArrayItem(a, i),
			    cJSON_GetArrayItem(b, i));
			free(sub);
		}
		return (n);
	}
	if (a != NULL && b != NULL && cJSON_Compare(a, b, 1))
		return (0);
	buf_addf(out, "  %s: ", *path != '\0' ? path : "(record)");
	edit_diff_value(out, a);
	buf_adds(out, " \xe2\x86\x92 ");
	edit_diff_value(out, b);
	buf_addc(out, '\n');
	return (1);
}

size_t
edit_diff(struct buf *out, const cJSON *before, const cJSON *after)
{
	return (edit_diff_at(out, "", before, after));
}

/* ---- files -------------------------------------------------------------- */

/*
 * The open edits' files and the editor running, for edit_signal_cleanup
 * in a signal handler: plain arrays and flags it can read at any moment.
 */
#define EDIT_LIVE_MAX	4
static char			 edit_live_path[EDIT_LIVE_MAX][PATH_MAX];
static volatile sig_atomic_t	 edit_live_used[EDIT_LIVE_MAX];
static volatile sig_atomic_t	 edit_editor_pid;

static void
edit_live_add(const char *path)
{
	size_t	i;

	if (strlen(path) >= PATH_MAX)
		return;
	for (i = 0; i < EDIT_LIVE_MAX; i++) {
		if (edit_live_used[i])
			continue;
		memcpy(edit_live_path[i], path, strlen(path) + 1);
		atomic_signal_fence(memory_order_seq_cst);
		edit_live_used[i] = 1;
		return;
	}
}

static void
edit_live_remove(const char *path)
{
	size_t	i;

	for (i = 0; i < EDIT_LIVE_MAX; i++) {
		if (edit_live_used[i] &&
		    strcmp(edit_live_path[i], path) == 0) {
			edit_live_used[i] = 0;
			return;
		}
	}
}

void
edit_signal_cleanup(void)
{
	pid_t	pid = (pid_t)edit_editor_pid;
	size_t	i;
	int	saved = errno;

	if (pid > 0)
		(void)kill(pid, SIGTERM);
	for (i = 0; i < EDIT_LIVE_MAX; i++) {
		if (edit_live_used[i])
			(void)unlink(edit_live_path[i]);
	}
	errno = saved;
}

static int
edit_write_fd(int fd, const char *text)
{
	size_t	 len = strlen(text);
	ssize_t	 n;

	while (len > 0) {
		n = write(fd, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return (-1);
		text += n;
		len -= (size_t)n;
	}
	return (0);
}

char *
edit_temp_file(const struct kind *k, const char *text, char **cause)
{
	const char	*dir = getenv("TMPDIR");
	char		*path;
	int		 fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	path = xprintf("%s/edgetui-%s-XXXXXX.yaml", dir, k->name);
	/* mkstemps makes it 0600 already; fchmod says so whatever the libc. */
	if ((fd = mkstemps(path, 5)) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		free(path);
		return (NULL);
	}
	if (fchmod(fd, 0600) != 0 || edit_write_fd(fd, text) != 0) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		goto fail;
	}
	if (close(fd) != 0) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		goto fail;
	}
	return (path);
fail:
	unlink(path);
	free(path);
	return (NULL);
}

char *
edit_read_file(const char *path, size_t *lenp, char **cause)
{
	struct buf	b = BUF_INITIALIZER;
	char		chunk[65536];
	ssize_t		n;
	int		fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (NULL);
	}
	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			xasprintf(cause, "%s: %s", path, strerror(errno));
		else if (b.len + (size_t)n > (size_t)EDIT_FILE_MAX)
			xasprintf(cause, "%s: larger than %ld bytes", path,
			    EDIT_FILE_MAX);
		else if (n > 0) {
			buf_add(&b, chunk, (size_t)n);
			continue;
		} else
			break;
		close(fd);
		buf_free(&b);
		return (NULL);
	}
	close(fd);
	if (b.data == NULL)
		buf_adds(&b, "");
	return (buf_detach(&b, lenp));
}

int
edit_write_file(const char *path, const char *text, char **cause)
{
	int	fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd == -1 || edit_write_fd(fd, text) != 0) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		if (fd != -1)
			close(fd);
		return (-1);
	}
	if (close(fd) != 0) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	return (0);
}

/* ---- the text ----------------------------------------------------------- */

/*
 * error with each "line N" of the text as saved (N past the dropped
 * block of dropped lines) moved by shift: the line in the file as shown.
 */
static void
edit_comment_lines(struct buf *b, const char *error, size_t len,
    size_t dropped, long shift)
{
	const char	*p = error, *end = error + len, *at;
	char		*num_end;
	unsigned long	 n;

	while (p < end && (at = memmem(p, (size_t)(end - p), "line ", 5)) !=
	    NULL) {
		at += 5;
		buf_add(b, p, (size_t)(at - p));
		p = at;
		if (at >= end || *at < '0' || *at > '9')
			continue;
		n = strtoul(at, &num_end, 10);
		if (num_end > end)
			num_end = (char *)end;
		if (n > dropped && (long)n + shift > 0)
			buf_addf(b, "%ld", (long)n + shift);
		else
			buf_add(b, at, (size_t)(num_end - at));
		p = num_end;
	}
	buf_add(b, p, (size_t)(end - p));
}

/* Lines of text: those its newlines end, and a last one without. */
static size_t
edit_count_lines(const char *text, size_t len)
{
	size_t	n = 0, i;

	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	return (n + (len > 0 && text[len - 1] != '\n'));
}

char *
edit_with_comment(const char *text, const char *error)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*p = text, *nl;
	size_t		 dropped = 0, lines, len;
	long		 shift;
	int		 folded = 0;

	/* Drop a leading block of our own comments from the last round. */
	while (strncmp(p, "# ", 2) == 0 || strncmp(p, "#\n", 2) == 0) {
		dropped++;
		if ((nl = strchr(p, '\n')) == NULL) {
			p += strlen(p);
			break;
		}
		p = nl + 1;
	}
	/* A reason that says "not applied" itself ends the header's line. */
	if (strncasecmp(error, "not applied", 11) == 0 &&
	    (error[11] == ':' || error[11] == ',')) {
		folded = 1;
		error += 11;
	}
	/* Its lines move by the block's: header, reason, the closing two. */
	lines = edit_count_lines(error, strlen(error));
	shift = (long)(1 + lines - (size_t)folded + 2) - (long)dropped;
	buf_adds(&b, "# edgetui: the change was not applied");
	if (!folded)
		buf_adds(&b, ":\n");
	for (; *error != '\0'; error = nl + 1) {
		nl = strchr(error, '\n');
		len = nl == NULL ? strlen(error) : (size_t)(nl - error);
		if (!folded)
			buf_adds(&b, "#   ");
		folded = 0;
		edit_comment_lines(&b, error, len, dropped, shift);
		buf_addc(&b, '\n');
		if (nl == NULL)
			break;
	}
	buf_adds(&b, "# Fix it and save, or empty the file to cancel.\n#\n");
	buf_adds(&b, p);
	return (buf_detach(&b, NULL));
}

int
edit_blank(const char *text)
{
	const char	*p = text;

	while (*p != '\0') {
		p += strspn(p, " \t\r\n");
		if (*p == '#')
			p += strcspn(p, "\n");
		else if (*p != '\0')
			return (0);
	}
	return (1);
}

enum edit_status
edit_check(const struct kind *k, const char *text, size_t len,
    const cJSON *orig, enum validate_mode mode, cJSON **record, char **cause)
{
	struct validate_error	*errs;
	size_t			 nerrs;
	char			*why = NULL;
	cJSON			*rec;

	*record = NULL;
	if (edit_blank(text))
		return (EDIT_EMPTY);
	if ((rec = yamljson_parse(text, len, &why)) == NULL) {
		xasprintf(cause, "YAML: %s", why);
		free(why);
		return (EDIT_INVALID);
	}
	/* Saved as fetched: nothing to check, nothing to send. */
	if (orig != NULL && cJSON_Compare(rec, orig, 1)) {
		cJSON_Delete(rec);
		return (EDIT_UNCHANGED);
	}
	if (validate_changes(k, rec, orig, mode, &errs, &nerrs) != 0) {
		*cause = validate_errors_text(errs, nerrs, "\n");
		validate_errors_free(errs, nerrs);
		cJSON_Delete(rec);
		return (EDIT_INVALID);
	}
	*record = rec;
	return (EDIT_CHANGED);
}

/* ---- the loop ----------------------------------------------------------- */

int
edit_open(struct edit *e, const struct kind *k, const cJSON *record,
    enum validate_mode mode, char **cause)
{
	char	*yaml;

	memset(e, 0, sizeof *e);
	e->kind = k;
	e->mode = mode;
	if ((e->orig = cJSON_Duplicate(record, 1)) == NULL)
		fatalx("out of memory");
	yaml = yamljson_emit(record);
	e->file = edit_temp_file(k, yaml, cause);
	free(yaml);
	if (e->file == NULL)
		return (-1);
	edit_live_add(e->file);
	return (0);
}

int
edit_open_text(struct edit *e, const struct kind *k, const cJSON *record,
    const char *text, enum validate_mode mode, char **cause)
{
	memset(e, 0, sizeof *e);
	e->kind = k;
	e->mode = mode;
	if ((e->orig = cJSON_Duplicate(record, 1)) == NULL)
		fatalx("out of memory");
	e->file = edit_temp_file(k, text, cause);
	if (e->file == NULL)
		return (-1);
	edit_live_add(e->file);
	return (0);
}

enum edit_status
edit_next(struct edit *e, cJSON **record, char **cause)
{
	enum edit_status	 st;
	char			*text, *why = NULL, *marked;
	size_t			 len;

	*record = NULL;
	if ((text = edit_read_file(e->file, &len, cause)) == NULL)
		return (EDIT_FAILED);
	if (e->last != NULL && strcmp(text, e->last) == 0) {
		/* Saved as it was reopened: stop rather than loop forever. */
		*cause = xstrdup(e->error);
		free(text);
		return (EDIT_FAILED);
	}
	st = edit_check(e->kind, text, len, e->orig, e->mode, record, &why);
	if (st != EDIT_INVALID) {
		free(text);
		return (st);
	}
	free(e->error);
	e->error = why;
	marked = edit_with_comment(text, why);
	free(text);
	if (edit_write_file(e->file, marked, cause) != 0) {
		free(marked);
		return (EDIT_FAILED);
	}
	free(e->last);
	e->last = marked;
	if (++e->rounds >= EDIT_ROUNDS) {
		xasprintf(cause, "gave up after %d rounds: %s", EDIT_ROUNDS,
		    e->error);
		return (EDIT_FAILED);
	}
	return (EDIT_AGAIN);
}

/*
 * lint on the saved record when it parses, differs from the original and
 * was not saved as reopened (edit_next says what those are): 1 when it
 * refused it and the file now has why on top, 0 to go on, -1 (*cause).
 */
static int
edit_lint_round(struct edit *e, edit_lint_cb lint, void *arg, char **cause)
{
	cJSON	*rec;
	char	*text, *why = NULL, *marked;
	size_t	 len;
	int	 rv = 0;

	if ((text = edit_read_file(e->file, &len, cause)) == NULL)
		return (-1);
	if ((e->last != NULL && strcmp(text, e->last) == 0) ||
	    (rec = yamljson_parse(text, len, &why)) == NULL) {
		free(why);
		free(text);
		return (0);
	}
	if (!cJSON_IsObject(rec) || cJSON_Compare(rec, e->orig, 1) ||
	    (why = lint(rec, arg)) == NULL)
		goto out;
	marked = edit_with_comment(text, why);
	if (edit_write_file(e->file, marked, cause) != 0) {
		free(why);
		free(marked);
		rv = -1;
		goto out;
	}
	free(e->last);
	e->last = marked;
	free(e->error);
	e->error = why;
	rv = 1;
	if (++e->rounds >= EDIT_ROUNDS) {
		xasprintf(cause, "gave up after %d rounds: %s", EDIT_ROUNDS,
		    e->error);
		rv = -1;
	}
out:
	cJSON_Delete(rec);
	free(text);
	return (rv);
}

enum edit_status
edit_next_lint(struct edit *e, edit_lint_cb lint, void *arg, cJSON **record,
    char **cause)
{
	*record = NULL;
	switch (lint != NULL ? edit_lint_round(e, lint, arg, cause) : 0) {
	case 1:
		return (EDIT_AGAIN);
	case -1:
		return (EDIT_FAILED);
	default:
		return (edit_next(e, record, cause));
	}
}

void
edit_close(struct edit *e)
{
	if (e->file != NULL) {
		unlink(e->file);
		edit_live_remove(e->file);
	}
	free(e->file);
	cJSON_Delete(e->orig);
	free(e->last);
	free(e->error);
	memset(e, 0, sizeof *e);
}

/* ---- the editor --------------------------------------------------------- */

/* Split the editor's command into argv (in copy) and add the file. */
static void
edit_argv(char *copy, char **argv, size_t size, const char *file)
{
	char	*word, *save = NULL;
	size_t	 n = 0;

	for (word = strtok_r(copy, " \t", &save); word != NULL &&
	    n < size - 2; word = strtok_r(NULL, " \t", &save))
		argv[n++] = word;
	if (n == 0)
		argv[n++] = (char *)"vi";
	argv[n++] = (char *)file;
	argv[n] = NULL;
}

static const char *
edit_editor(void)
{
	const char	*env;

	if ((env = getenv("EDITOR")) != NULL && *env != '\0')
		return (env);
	if ((env = getenv("VISUAL")) != NULL && *env != '\0')
		return (env);
	return ("vi");
}

/*
 * The child: the caller's signal handling back, then the editor. If exec
 * fails its errno goes up the close-on-exec pipe, which the parent reads.
 */
static __dead void
edit_child(char **argv, int fd, const struct sigaction *oint,
    const struct sigaction *oquit, const sigset_t *omask)
{
	int	err;

	sigaction(SIGINT, oint, NULL);
	sigaction(SIGQUIT, oquit, NULL);
	sigprocmask(SIG_SETMASK, omask, NULL);
	execvp(argv[0], argv);
	err = errno;
	while (write(fd, &err, sizeof err) == -1 && errno == EINTR)
		;
	_exit(127);
}

/* Wait for the child; 0, or -1 with *cause. */
static int
edit_wait(pid_t pid, int fd, const char *editor, const char *prog,
    char **cause)
{
	ssize_t	n;
	int	err, st, rv = 0;

	while ((n = read(fd, &err, sizeof err)) == -1 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof err) {
		xasprintf(cause, "cannot run the editor %s: %s (set EDITOR); "
		    "nothing was changed", prog, strerror(err));
		rv = -1;
	}
	while (waitpid(pid, &st, 0) == -1) {
		if (errno != EINTR) {
			if (rv == 0)
				xasprintf(cause, "waitpid: %s",
				    strerror(errno));
			return (-1);
		}
	}
	if (rv == 0 && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
		xasprintf(cause, "the editor (%s) failed; nothing was changed",
		    editor);
		rv = -1;
	}
	return (rv);
}

int
edit_run_editor(const char *file, char **cause)
{
	const char		*editor = edit_editor();
	struct sigaction	 ign, oint, oquit;
	sigset_t		 chld, omask;
	char			*copy, *argv[EDIT_ARGS];
	int			 fds[2], rv = -1;
	pid_t			 pid;

	copy = xstrdup(editor);
	edit_argv(copy, argv, nitems(argv), file);
	if (pipe2(fds, O_CLOEXEC) == -1) {
		xasprintf(cause, "pipe: %s", strerror(errno));
		free(copy);
		return (-1);
	}
	/* As system(3): the terminal's signals are for the editor now. */
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, &omask);

	if ((pid = fork()) == 0)
		edit_child(argv, fds[1], &oint, &oquit, &omask);
	close(fds[1]);
	if (pid == -1)
		xasprintf(cause, "fork: %s", strerror(errno));
	else {
		edit_editor_pid = pid;
		rv = edit_wait(pid, fds[0], editor, argv[0], cause);
		edit_editor_pid = 0;
	}
	close(fds[0]);

	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	pthread_sigmask(SIG_SETMASK, &omask, NULL);
	free(copy);
	return (rv);
}

/* ---- paths typed by the user -------------------------------------------- */

char *
edit_path_expand(const char *path)
{
	const char	*home;
	struct passwd	*pw;

	if (path[0] != '~' || (path[1] != '\0' && path[1] != '/'))
		return (xstrdup(path));
	if ((home = getenv("HOME")) == NULL || *home == '\0') {
		if ((pw = getpwuid(getuid())) == NULL || pw->pw_dir == NULL)
			return (xstrdup(path));
		home = pw->pw_dir;
	}
	/* "~/" on a home of "/" is "/", not "//". */
	if (path[1] == '/' && home[strlen(home) - 1] == '/')
		path++;
	return (xprintf("%s%s", home, path + 1));
}

/* ---- what the API sends as base64 --------------------------------------- */

char *
edit_base64_decode(const char *text, size_t *lenp, char **cause)
{
	char	*out;

	if ((out = encode_base64_decode_text(text, strlen(text),
	    lenp)) == NULL)
		*cause = xstrdup("not base64");
	return (out);
}
