/*
 * config init: a first config file from a few questions (base URL,
 * account, zone, plan, where the token comes from), asked on standard
 * error and answered on standard input. The config names where the token
 * is, never the token: a token file chosen that is not there yet is made
 * (mode 0600) with the token asked for, not echoed. Written mode 0600,
 * atomically, and never over an existing file; then the token is checked
 * with the API (GET /user/tokens/verify) and what it said is printed.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <termios.h>

#include "buf.h"
#include "compat.h"
#include "config_options.h"
#include "configfile.h"
#include "edge_session.h"
#include "http.h"
#include "log.h"
#include "xmalloc.h"

#include "cli.h"

/* Wrong answers to one question before giving up. */
#define CONFIG_INIT_TRIES	3

enum config_init_source {
	CONFIG_INIT_ENV = 1,
	CONFIG_INIT_FILE,
	CONFIG_INIT_COMMAND
};

struct config_init {
	char	*base_url;
	char	*account;	/* NULL: not set */
	char	*zone;
	char	*plan;		/* NULL: not set */
	int	 source;	/* enum config_init_source */
	char	*where;		/* the token_file or the token_command */
};

/* One line of standard input, without its newline; NULL at the end. */
static char *
config_init_read(const char *prompt)
{
	char	*line = NULL;
	size_t	 size = 0;
	ssize_t	 n;

	fputs(prompt, stderr);
	fflush(stderr);
	if ((n = getline(&line, &size, stdin)) == -1) {
		free(line);
		return (NULL);
	}
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	return (line);
}

/*
 * The answer for profile key name, checked as the config loader checks it
 * (dflt for an empty answer; NULL there leaves it unset). -1 at the end of
 * the input or after CONFIG_INIT_TRIES wrong answers.
 */
static int
config_init_ask(const char *prompt, const char *name, const char *dflt,
    char **out)
{
	const struct config_option	*o;
	struct config_profile		 scratch;
	char				*line, *why = NULL;
	int				 tries;

	o = config_options_find(config_options_profile,
	    CONFIG_NPROFILE_OPTIONS, name);
	for (tries = 0; tries < CONFIG_INIT_TRIES; tries++) {
		if ((line = config_init_read(prompt)) == NULL)
			return (-1);
		if (*line == '\0') {
			free(line);
			*out = dflt != NULL ? xstrdup(dflt) : NULL;
			return (0);
		}
		memset(&scratch, 0, sizeof scratch);
		if (o == NULL || config_options_value(o, &scratch, line,
		    strlen(line), 1, NULL, NULL, &why) == 0) {
			config_options_free_fields(config_options_profile,
			    CONFIG_NPROFILE_OPTIONS, &scratch);
			*out = line;
			return (0);
		}
		fprintf(stderr, "edgetui: %s: %s\n", name, why);
		free(why);
		why = NULL;
		free(line);
	}
	return (-1);
}

/* Which of the three the token comes from; -1 as for config_init_ask. */
static int
config_init_source(int *source)
{
	char	*line;
	int	 tries;

	for (tries = 0; tries < CONFIG_INIT_TRIES; tries++) {
		line = config_init_read("Where does the API token come from?\n"
		    "  1  the environment variable CLOUDFLARE_API_TOKEN\n"
		    "  2  a file whose first line is the token (token_file)\n"
		    "  3  a command that prints it (token_command)\n"
		    "Choice [1]: ");
		if (line == NULL)
			return (-1);
		if (*line == '\0' || strcmp(line, "1") == 0 ||
		    strcmp(line, "env") == 0)
			*source = CONFIG_INIT_ENV;
		else if (strcmp(line, "2") == 0 ||
		    strcmp(line, "token_file") == 0)
			*source = CONFIG_INIT_FILE;
		else if (strcmp(line, "3") == 0 ||
		    strcmp(line, "token_command") == 0)
			*source = CONFIG_INIT_COMMAND;
		else {
			fprintf(stderr, "edgetui: answer 1, 2 or 3\n");
			free(line);
			continue;
		}
		free(line);
		return (0);
	}
	return (-1);
}

static int
config_init_questions(struct config_init *ci)
{
	if (config_init_ask("API base URL [" CONFIG_DEFAULT_BASE_URL "]: ",
	    "base_url", CONFIG_DEFAULT_BASE_URL, &ci->base_url) != 0 ||
	    config_init_ask("Account id (32 hex digits; empty: none): ",
	    "account", NULL, &ci->account) != 0 ||
	    config_init_ask("Zone id (32 hex digits; empty: none): ",
	    "zone", NULL, &ci->zone) != 0 ||
	    config_init_ask("The zone's plan (free, pro, business or "
	    "enterprise; empty: not set): ", "plan", NULL, &ci->plan) != 0 ||
	    config_init_source(&ci->source) != 0)
		return (-1);
	if (ci->source == CONFIG_INIT_FILE)
		return (config_init_ask("Token file (mode 600): ",
		    "token_file", NULL, &ci->where) != 0 || ci->where == NULL ?
		    -1 : 0);
	if (ci->source == CONFIG_INIT_COMMAND)
		return (config_init_ask("Token command (run by /bin/sh -c): ",
		    "token_command", NULL, &ci->where) != 0 ||
		    ci->where == NULL ? -1 : 0);
	return (0);
}

/* text as a double-quoted YAML scalar (the answers have no controls). */
static void
config_init_quoted(struct buf *b, const char *text)
{
	buf_addc(b, '"');
	for (; *text != '\0'; text++) {
		if (*text == '"' || *text == '\\')
			buf_addc(b, '\\');
		buf_addc(b, *text);
	}
	buf_addc(b, '"');
}

static void
config_init_text(struct buf *b, const char *profile,
    const struct config_init *ci)
{
	buf_adds(b, "# edgetui's configuration, written by `edgetui config "
	    "init`.\n# Every key is described in edgetui(1), section "
	    "CONFIGURATION.\n");
	buf_addf(b, "default_profile: %s\n\nprofiles:\n  %s:\n", profile,
	    profile);
	buf_adds(b, "    # The API; CLOUDFLARE_BASE_URL overrides it.\n"
	    "    base_url: ");
	config_init_quoted(b, ci->base_url);
	buf_adds(b, "\n    # 32 hex digits each; CLOUDFLARE_ACCOUNT_ID and "
	    "CLOUDFLARE_ZONE_ID\n    # override them.\n");
	buf_addf(b, "    %saccount: %s\n", ci->account != NULL ? "" : "# ",
	    ci->account != NULL ? ci->account : "ACCOUNT_ID");
	buf_addf(b, "    %szone: %s\n", ci->zone != NULL ? "" : "# ",
	    ci->zone != NULL ? ci->zone : "ZONE_ID");
	buf_adds(b, "    # The token: CLOUDFLARE_API_TOKEN, else one of "
	    "token_file (a file,\n    # mode 600, whose first line is the "
	    "token) or token_command (its\n    # first output line).\n");
	switch (ci->source) {
	case CONFIG_INIT_FILE:
		buf_adds(b, "    token_file: ");
		config_init_quoted(b, ci->where);
		buf_addc(b, '\n');
		break;
	case CONFIG_INIT_COMMAND:
		buf_adds(b, "    token_command: ");
		config_init_quoted(b, ci->where);
		buf_addc(b, '\n');
		break;
	default:
		buf_adds(b, "    # token_file: ~/.config/edgetui/token\n"
		    "    # token_command: \"pass show cloudflare/api-token\"\n");
		break;
	}
	buf_adds(b, "    # readonly: true     # send nothing that changes "
	    "anything\n");
	if (ci->plan != NULL)
		buf_addf(b, "    # The zone's plan (free, pro, business or "
		    "enterprise): rules are\n    # checked against its "
		    "limits.\n    plan: %s\n", ci->plan);
	else
		buf_adds(b, "    # plan: pro          # free, pro, business or "
		    "enterprise\n");
	buf_adds(b, "\npreferences:\n"
	    "  # theme: light         # a theme's name: see edgetui(1), "
	    "Themes\n"
	    "  # output: table        # table, json or yaml\n");
}

/* mkdir -p dir, new directories 0700. */
static int
config_init_mkdir(const char *path)
{
	char	*dir = xstrdup(path), *p;
	int	 rv = 0;

	for (p = dir + 1; rv == 0 && (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			rv = -1;
		*p = '/';
	}
	free(dir);
	return (rv);
}

/* An empty regular file (touched, or saved empty) has nothing to lose. */
static int
config_init_empty(const char *path)
{
	struct stat	sb;

	return (lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    sb.st_size == 0);
}

static int
config_init_exists(const char *path)
{
	struct stat	sb;

	return (lstat(path, &sb) == 0 && !config_init_empty(path));
}

/*
 * text into path: a temporary file (0600) beside it, synced, then linked
 * to path, which fails rather than replace a file made meanwhile; an
 * empty one is replaced.
 */
static int
config_init_write(const char *path, const struct buf *text)
{
	char	*tmp = xprintf("%s.XXXXXX", path);
	int	 fd, rv = -1, saved;

	if (config_init_mkdir(path) != 0 || (fd = mkstemp(tmp)) == -1) {
		saved = errno;
		free(tmp);
		errno = saved;
		return (-1);
	}
	if (fchmod(fd, 0600) == 0 &&
	    write(fd, text->data, text->len) == (ssize_t)text->len &&
	    fsync(fd) == 0 && close(fd) == 0) {
		fd = -1;
		rv = config_init_empty(path) ? rename(tmp, path) :
		    link(tmp, path);
	}
	saved = errno;
	if (fd != -1)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = saved;
	return (rv);
}

/* ---- the token ----------------------------------------------------------- */

/* The terminal as it was, for a signal that comes while echo is off. */
static struct termios	config_init_tty;

static void
config_init_signal(int sig)
{
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &config_init_tty);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* One line of standard input, not echoed on a terminal; NULL at the end. */
static char *
config_init_secret(const char *prompt)
{
	static const int	 sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction	 sa, old[nitems(sigs)];
	struct termios		 quiet;
	char			*line;
	size_t			 i;
	int			 tty = isatty(STDIN_FILENO) &&
				     tcgetattr(STDIN_FILENO,
				     &config_init_tty) == 0;

	if (tty) {
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = config_init_signal;
		sigemptyset(&sa.sa_mask);
		for (i = 0; i < nitems(sigs); i++)
			sigaction(sigs[i], &sa, &old[i]);
		quiet = config_init_tty;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
	}
	line = config_init_read(prompt);
	if (tty) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &config_init_tty);
		for (i = 0; i < nitems(sigs); i++)
			sigaction(sigs[i], &old[i], NULL);
		fputc('\n', stderr);
	}
	return (line);
}

/*
 * A token file named that is not there yet: made, mode 0600, with the
 * token asked for (an empty answer leaves it to the user). 0, or -1 after
 * the message.
 */
static int
config_init_token_file(const char *path)
{
	struct stat	 sb;
	char		*token;
	int		 fd, rv = -1;

	if (path == NULL || lstat(path, &sb) == 0 || errno != ENOENT)
		return (0);
	token = config_init_secret("The token, for the new file (not shown; "
	    "empty: I will write it there myself): ");
	if (token == NULL || *token == '\0') {
		printf("put the token on the first line of %s (mode 600)\n",
		    path);
		free(token);
		return (0);
	}
	if (config_init_mkdir(path) != 0 || (fd = open(path,
	    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) == -1)
		cli_error(-1, "config init: %s: %s", path, strerror(errno));
	else {
		if (write(fd, token, strlen(token)) == (ssize_t)strlen(token) &&
		    write(fd, "\n", 1) == 1 && fsync(fd) == 0)
			rv = 0;
		else
			cli_error(-1, "config init: %s: %s", path,
			    strerror(errno));
		if (close(fd) != 0 && rv == 0) {
			cli_error(-1, "config init: %s: %s", path,
			    strerror(errno));
			rv = -1;
		}
		if (rv != 0)
			unlink(path);
		else
			printf("wrote the token to %s (mode 600)\n", path);
	}
	explicit_bzero(token, strlen(token));
	free(token);
	return (rv);
}

/* What the API said of the token, or why it was not asked. */
static int
config_init_verify(const struct config *cfg, const char *profile)
{
	struct edge_overrides	 over;
	struct edge_session	 s;
	struct http_options	 ho;
	struct http_client	*http = NULL;
	struct http_request	 req;
	struct http_response	 resp;
	const cJSON		*st, *id;
	enum status		 rc;
	char			*cause = NULL;
	int			 rv = 0;

	memset(&over, 0, sizeof over);
	memset(&s, 0, sizeof s);
	memset(&resp, 0, sizeof resp);
	over.profile = profile;
	over.no_token = 1;
	if (edge_session_resolve(cfg, &over, &s, &cause) != 0 ||
	    edge_session_token(cfg, &over, &s, &cause) != 0) {
		printf("the token was not checked: %s\n", cause);
		goto out;
	}
	edge_session_http_options(&s, &ho);
	if ((http = http_client_new(&ho, &cause)) == NULL) {
		printf("the token was not checked: %s\n", cause);
		goto out;
	}
	memset(&req, 0, sizeof req);
	req.method = "GET";
	req.path = "/user/tokens/verify";
	if ((rc = http_perform(http, &req, &resp, &cause)) != STATUS_OK) {
		rv = cli_error(http_exit_status(rc, resp.http_status), "the "
		    "token did not pass %s/user/tokens/verify: %s", s.base_url,
		    cause);
		goto out;
	}
	st = cJSON_GetObjectItemCaseSensitive(resp.api.result, "status");
	id = cJSON_GetObjectItemCaseSensitive(resp.api.result, "id");
	if (cJSON_IsString(st) && strcmp(st->valuestring, "active") == 0)
		printf("the token is active (id %s) at %s\n",
		    cJSON_IsString(id) ? id->valuestring : "-", s.base_url);
	else
		rv = cli_error(HTTP_EXIT_REFUSED, "the token is %s (id %s) at "
		    "%s: the API will refuse it", cJSON_IsString(st) ?
		    st->valuestring : "of no known status", cJSON_IsString(id) ?
		    id->valuestring : "-", s.base_url);
out:
	http_response_free(&resp);
	if (http != NULL)
		http_client_free(http);
	edge_session_free(&s);
	free(cause);
	return (rv);
}

int
cli_cmd_config_init(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	struct config_init	 ci;
	const struct config_profile *prof;
	struct config		*check = NULL;
	struct buf		 text = BUF_INITIALIZER;
	const char		*profile = c->o->profile;
	char			*path;
	int			 rv = HTTP_EXIT_USAGE;

	(void)unused_k;
	(void)argc;
	(void)argv;
	memset(&ci, 0, sizeof ci);
	if (profile == NULL)
		profile = CONFIG_DEFAULT_PROFILE;
	if (!config_options_check_name(profile, strlen(profile)))
		return (cli_usage_error("config init: '%s' is not a profile "
		    "name (letters, digits, '.', '_' and '-')", profile));
	path = c->o->config != NULL ? xstrdup(c->o->config) :
	    config_default_path(NULL);
	if (config_init_exists(path)) {
		cli_error(rv, "config init: %s exists; nothing written (edit "
		    "it, or move it away first)", path);
		goto out;
	}
	if (config_init_questions(&ci) != 0) {
		cli_error(rv, "config init: no usable answer; nothing written");
		goto out;
	}
	config_init_text(&text, profile, &ci);
	/* What the loader would say of it: nothing, or this is a bug. */
	check = config_parse_text(path, buf_str(&text), text.len, 0600, NULL);
	if (check->nproblems != 0) {
		cli_error(rv, "config init: %s", check->problems[0].message);
		goto out;
	}
	if (config_init_write(path, &text) != 0) {
		if (errno == EEXIST)
			cli_error(rv, "config init: %s exists; nothing written "
			    "(edit it, or move it away first)", path);
		else
			cli_error(rv, "config init: %s: %s", path,
			    strerror(errno));
		goto out;
	}
	printf("wrote %s (mode 600), profile %s\n", path, profile);
	fflush(stdout);
	if (ci.source == CONFIG_INIT_FILE && (prof = config_profile(check,
	    profile)) != NULL && config_init_token_file(prof->token_file) != 0)
		rv = HTTP_EXIT_USAGE;
	else
		rv = config_init_verify(check, profile);
	if (ci.source == CONFIG_INIT_ENV && getenv("CLOUDFLARE_API_TOKEN") ==
	    NULL)
		printf("set CLOUDFLARE_API_TOKEN before running edgetui\n");
out:
	if (check != NULL)
		config_free(check);
	buf_free(&text);
	free(ci.base_url);
	free(ci.account);
	free(ci.zone);
	free(ci.plan);
	free(ci.where);
	free(path);
	return (rv);
}
