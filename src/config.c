/*
 * The user's config file: profiles, preferences and credentials, read from
 * YAML with every problem collected (file and line) instead of stopping at
 * the first, so the console can start and show them.
 *
 * One table per level drives parsing, validation, defaults and the help
 * text; defaults are written as they would be in the file and parsed by the
 * same code. The file is read with libyaml's document API rather than
 * yamljson because messages need each value's line, and because an option's
 * type, not YAML's guess, decides how a scalar reads: an all-digit account
 * id is text, not a number too big for a double.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <yaml.h>

#include "buf.h"
#include "configfile.h"
#include "log.h"
#include "xmalloc.h"

extern char **environ;

/* A token file or a command's output: only the first line matters. */
#define CONFIG_TOKEN_READ	(64 * 1024)
/* A command's stderr kept for the message, and read at most. */
#define CONFIG_STDERR_KEEP	1024
#define CONFIG_STDERR_READ	(1024 * 1024)
/*
 * A token_command that has not exited by then is killed with its process
 * group (a hung password manager must not hang the program). The
 * environment variable shortens it for tests.
 */
#define CONFIG_COMMAND_TIMEOUT_MS	10000L
#define CONFIG_COMMAND_TIMEOUT_ENV	"EDGETUI_TOKEN_COMMAND_TIMEOUT_MS"
/* How much of a user's value or key a message quotes. */
#define CONFIG_EXCERPT		40
#define CONFIG_NAME_MAX		64

#define CONFIG_KIB		1024LL
#define CONFIG_MIB		(1024LL * 1024)

enum config_type {
	CONFIG_STRING,		/* any text without control characters */
	CONFIG_NAME,		/* letters, digits, . _ - (file and profile names) */
	CONFIG_BOOL,
	CONFIG_INT,		/* min..max, a multiple of step */
	CONFIG_ENUM,		/* one of choices; stored as its index */
	CONFIG_HEX32,		/* an account or zone id; stored lowercase */
	CONFIG_URL,		/* http(s), stored without a trailing slash */
	CONFIG_PATH,		/* ~ expanded; relative to the file's directory */
	CONFIG_TOKEN		/* a credential: never quoted, wiped when freed */
};

#define CONFIG_F_BYTES		0x1	/* a size: messages say KiB and MiB */
#define CONFIG_F_CREDENTIAL	0x2	/* one of the exclusive token sources */

struct config_option {
	const char		*name;
	enum config_type	 type;
	size_t			 offset;
	const char		*dflt;	/* as written in the file; NULL: unset */
	long long		 min;
	long long		 max;
	long long		 step;
	const char *const	*choices;
	int			 flags;
	const char		*help;
};

static const char *const config_output_choices[] = {
	"table", "json", "yaml", NULL
};
static const char *const config_confirm_quit_choices[] = {
	"always", "transfers", "never", NULL
};

/* Everything outside profiles:; a dot names a section. */
static const struct config_option config_options[] = {
	{ .name = "default_profile", .type = CONFIG_NAME,
	  .offset = offsetof(struct config, default_profile),
	  .help = "the profile used without -p; else \"default\", else the"
	  " first one" },
	{ .name = "preferences.theme", .type = CONFIG_NAME,
	  .offset = offsetof(struct config, prefs.theme), .dflt = "default",
	  .help = "colour theme: a name from themes/ (built in: default)" },
	{ .name = "preferences.output", .type = CONFIG_ENUM,
	  .offset = offsetof(struct config, prefs.output), .dflt = "table",
	  .choices = config_output_choices,
	  .help = "how one-shot commands print records (-o)" },
	{ .name = "preferences.ascii", .type = CONFIG_BOOL,
	  .offset = offsetof(struct config, prefs.ascii), .dflt = "false",
	  .help = "draw lines with ASCII characters only" },
	{ .name = "preferences.mouse", .type = CONFIG_BOOL,
	  .offset = offsetof(struct config, prefs.mouse), .dflt = "false",
	  .help = "use the mouse (off keeps the terminal's text selection)" },
	{ .name = "preferences.chunk_size", .type = CONFIG_INT,
	  .offset = offsetof(struct config, prefs.chunk_size),
	  .dflt = "52428800", .min = 5 * CONFIG_MIB, .max = 200 * CONFIG_MIB,
	  .step = 256 * CONFIG_KIB, .flags = CONFIG_F_BYTES,
	  .help = "upload chunk size in bytes" },
	{ .name = "preferences.poll_interval", .type = CONFIG_INT,
	  .offset = offsetof(struct config, prefs.poll_interval), .dflt = "1",
	  .min = 1, .max = 3600,
	  .help = "seconds between polls of a video that is processing" },
	{ .name = "preferences.confirm_quit", .type = CONFIG_ENUM,
	  .offset = offsetof(struct config, prefs.confirm_quit),
	  .dflt = "transfers", .choices = config_confirm_quit_choices,
	  .help = "ask before the console quits: always, while transfers"
	  " run, never" },
};

/* The keys of one entry under profiles:. */
static const struct config_option config_profile_options[] = {
	{ .name = "base_url", .type = CONFIG_URL,
	  .offset = offsetof(struct config_profile, base_url),
	  .dflt = CONFIG_DEFAULT_BASE_URL,
	  .help = "the API's base URL (CLOUDFLARE_BASE_URL overrides)" },
	{ .name = "account", .type = CONFIG_HEX32,
	  .offset = offsetof(struct config_profile, account),
	  .help = "account id (CLOUDFLARE_ACCOUNT_ID overrides)" },
	{ .name = "zone", .type = CONFIG_HEX32,
	  .offset = offsetof(struct config_profile, zone),
	  .help = "zone id (CLOUDFLARE_ZONE_ID overrides)" },
	{ .name = "readonly", .type = CONFIG_BOOL,
	  .offset = offsetof(struct config_profile, readonly), .dflt = "false",
	  .help = "send no request that changes anything" },
	{ .name = "budget", .type = CONFIG_INT,
	  .offset = offsetof(struct config_profile, budget), .dflt = "1200",
	  .min = 1, .max = 100000,
	  .help = "requests allowed per 5 minutes" },
	{ .name = "token", .type = CONFIG_TOKEN,
	  .offset = offsetof(struct config_profile, token),
	  .flags = CONFIG_F_CREDENTIAL,
	  .help = "the API token itself; the file must then be mode 600" },
	{ .name = "token_file", .type = CONFIG_PATH,
	  .offset = offsetof(struct config_profile, token_file),
	  .flags = CONFIG_F_CREDENTIAL,
	  .help = "a file (mode 600) whose first line is the token" },
	{ .name = "token_command", .type = CONFIG_STRING,
	  .offset = offsetof(struct config_profile, token_command),
	  .flags = CONFIG_F_CREDENTIAL,
	  .help = "a command, run by /bin/sh -c, whose first output line is"
	  " the token" },
};

/* The environment's overrides of a profile, checked as the keys are. */
static const struct {
	const char	*variable;
	const char	*key;
} config_env_overrides[] = {
	{ "CLOUDFLARE_BASE_URL", "base_url" },
	{ "CLOUDFLARE_ACCOUNT_ID", "account" },
	{ "CLOUDFLARE_ZONE_ID", "zone" },
};

/* One file being read. */
struct config_parse {
	struct config	*cfg;
	const char	*file;		/* as messages name it */
	char		*dir;		/* where relative paths start */
	char *const	*env;
	mode_t		 mode;
	yaml_document_t	*doc;
	int		 stop;		/* too many problems */
	int		 lines[nitems(config_options)];
	int		 token_line;	/* the first token: */
	int		 command_line;	/* the first token_command: */
};

#ifndef HAVE_EXPLICIT_BZERO
static void
explicit_bzero(void *p, size_t n)
{
	volatile unsigned char	*v = p;

	while (n-- > 0)
		*v++ = 0;
}
#endif

/* ---- small helpers -------------------------------------------------------- */

static const char *
config_getenv(char *const *env, const char *name)
{
	const char	*v = NULL;
	size_t		 len = strlen(name);

	if (env == NULL)
		v = getenv(name);
	else {
		for (; *env != NULL; env++) {
			if (strncmp(*env, name, len) == 0 &&
			    (*env)[len] == '=') {
				v = *env + len + 1;
				break;
			}
		}
	}
	if (v == NULL || *v == '\0')
		return (NULL);
	return (v);
}

static const char *
config_home(char *const *env)
{
	const char	*home;
	struct passwd	*pw;

	if ((home = config_getenv(env, "HOME")) != NULL)
		return (home);
	if ((pw = getpwuid(getuid())) != NULL && pw->pw_dir != NULL)
		return (pw->pw_dir);
	return (NULL);
}

/* An XDG base directory: the variable if absolute (the spec), else HOME/rest. */
static char *
config_xdg(char *const *env, const char *variable, const char *rest)
{
	const char	*v, *home;

	if ((v = config_getenv(env, variable)) != NULL && *v == '/')
		return (xprintf("%s/edgetui", v));
	if ((home = config_home(env)) == NULL)
		home = "";
	return (xprintf("%s/%s/edgetui", home, rest));
}

void
config_secret_free(char *s)
{
	if (s != NULL) {
		explicit_bzero(s, strlen(s));
		free(s);
	}
}

/* A short, printable excerpt of text for a message, in double quotes. */
static char *
config_quote(const char *text, size_t len)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i, n = len;
	unsigned char	c;

	if (n > CONFIG_EXCERPT) {
		n = CONFIG_EXCERPT;
		while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
			n--;
	}
	buf_addc(&b, '"');
	for (i = 0; i < n; i++) {
		c = (unsigned char)text[i];
		if (c < 0x20 || c == 0x7f)
			buf_addf(&b, "\\x%02x", c);
		else if (c == '"' || c == '\\')
			buf_addf(&b, "\\%c", c);
		else
			buf_addc(&b, (char)c);
	}
	buf_adds(&b, n < len ? "...\"" : "\"");
	return (buf_detach(&b, NULL));
}

/* A size as messages say it: 5 MiB, 256 KiB, else the number. */
static char *
config_number(const struct config_option *o, long long v)
{
	if (o->flags & CONFIG_F_BYTES) {
		if (v != 0 && v % CONFIG_MIB == 0)
			return (xprintf("%lld MiB", v / CONFIG_MIB));
		if (v != 0 && v % CONFIG_KIB == 0)
			return (xprintf("%lld KiB", v / CONFIG_KIB));
	}
	return (xprintf("%lld", v));
}

static int
config_token_chars(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		if (s[i] <= ' ' || s[i] >= 0x7f)
			return (0);
	}
	return (len != 0);
}

/* Who a mode lets in, for messages about files that should be private. */
static const char *
config_exposure(mode_t mode)
{
	if (mode & S_IROTH)
		return ("readable by others");
	if (mode & S_IRGRP)
		return ("readable by group");
	if (mode & S_IWOTH)
		return ("writable by others");
	if (mode & S_IWGRP)
		return ("writable by group");
	return ("open to group or others");
}

/* ---- values --------------------------------------------------------------- */

static const char *
config_type_name(const struct config_option *o)
{
	switch (o->type) {
	case CONFIG_BOOL:
		return ("true or false");
	case CONFIG_INT:
		return ("a whole number");
	case CONFIG_ENUM:
		return ("one of its choices");
	case CONFIG_HEX32:
		return ("32 hexadecimal digits");
	case CONFIG_URL:
		return ("a URL");
	case CONFIG_PATH:
		return ("a path");
	case CONFIG_NAME:
		return ("a name");
	case CONFIG_TOKEN:
		return ("a token");
	case CONFIG_STRING:
		break;
	}
	return ("text");
}

static int
config_parse_bool(const char *s, size_t len, int plain, int *out, char **why)
{
	static const char *const truths[] = { "true", "True", "TRUE" };
	static const char *const lies[] = { "false", "False", "FALSE" };
	char	*q;
	size_t	 i;

	for (i = 0; plain && i < nitems(truths); i++) {
		if (len == strlen(truths[i]) && memcmp(s, truths[i], len) == 0) {
			*out = 1;
			return (0);
		}
		if (len == strlen(lies[i]) && memcmp(s, lies[i], len) == 0) {
			*out = 0;
			return (0);
		}
	}
	q = config_quote(s, len);
	xasprintf(why, "expected true or false%s, not %s",
	    plain ? "" : " without quotes", q);
	free(q);
	return (-1);
}

static int
config_parse_int(const struct config_option *o, const char *s, size_t len,
    int plain, long long *out, char **why)
{
	char		 digits[32], *q, *a, *b;
	long long	 v;
	size_t		 i = 0;

	if (len > 0 && (s[0] == '-' || s[0] == '+'))
		i = 1;
	if (!plain || len == i || len >= sizeof digits)
		goto bad;
	for (; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			goto bad;
	}
	memcpy(digits, s, len);
	digits[len] = '\0';
	errno = 0;
	v = strtoll(digits, NULL, 10);
	if (errno == ERANGE || v < o->min || v > o->max) {
		a = config_number(o, o->min);
		b = config_number(o, o->max);
		xasprintf(why, "%s is out of range (%s to %s)", digits, a, b);
		free(a);
		free(b);
		return (-1);
	}
	if (o->step != 0 && v % o->step != 0) {
		a = config_number(o, o->step);
		xasprintf(why, "%lld is not a multiple of %s", v, a);
		free(a);
		return (-1);
	}
	*out = v;
	return (0);

bad:
	q = config_quote(s, len);
	xasprintf(why, "expected a whole number%s, not %s",
	    plain ? "" : " without quotes", q);
	free(q);
	return (-1);
}

static int
config_parse_enum(const struct config_option *o, const char *s, size_t len,
    int *out, char **why)
{
	struct buf	 b = BUF_INITIALIZER;
	char		*q;
	int		 i;

	for (i = 0; o->choices[i] != NULL; i++) {
		if (len == strlen(o->choices[i]) &&
		    memcmp(s, o->choices[i], len) == 0) {
			*out = i;
			return (0);
		}
	}
	q = config_quote(s, len);
	buf_addf(&b, "%s is not one of ", q);
	for (i = 0; o->choices[i] != NULL; i++)
		buf_addf(&b, "%s%s", i == 0 ? "" : ", ", o->choices[i]);
	*why = buf_detach(&b, NULL);
	free(q);
	return (-1);
}

static int
config_check_url(const char *s, size_t len, char **why)
{
	const char	*host;
	size_t		 i;

	if (len > 8 && strncasecmp(s, "https://", 8) == 0)
		host = s + 8;
	else if (len > 7 && strncasecmp(s, "http://", 7) == 0)
		host = s + 7;
	else {
		*why = xstrdup("is not an http:// or https:// URL");
		return (-1);
	}
	if (*host == '/' || *host == '\0') {
		*why = xstrdup("has no host");
		return (-1);
	}
	for (i = 0; i < len; i++) {
		if (s[i] <= ' ' || s[i] == 0x7f) {
			*why = xstrdup("holds a space or control character");
			return (-1);
		}
		if (s[i] == '?' || s[i] == '#') {
			*why = xstrdup("has a query or fragment; a base URL"
			    " takes neither");
			return (-1);
		}
	}
	return (0);
}

static int
config_check_name(const char *s, size_t len)
{
	size_t	i;

	if (len == 0 || len > CONFIG_NAME_MAX || s[0] == '.')
		return (0);
	for (i = 0; i < len; i++) {
		if (!isalnum((unsigned char)s[i]) && strchr("._-", s[i]) == NULL)
			return (0);
	}
	return (1);
}

/* ~, ~/rest, ~user/rest, and relative paths under dir. */
static int
config_expand_path(const char *s, char *const *env, const char *dir,
    char **out, char **why)
{
	const char	*home, *rest;
	char		*user;
	struct passwd	*pw;

	if (s[0] != '~') {
		if (s[0] == '/' || dir == NULL)
			*out = xstrdup(s);
		else
			*out = xprintf("%s/%s", dir, s);
		return (0);
	}
	rest = s + strcspn(s, "/");
	if (rest == s + 1) {
		if ((home = config_home(env)) == NULL) {
			*why = xstrdup("has ~ but there is no home directory");
			return (-1);
		}
	} else {
		user = xstrndup(s + 1, rest - s - 1);
		pw = getpwnam(user);
		free(user);
		if (pw == NULL || pw->pw_dir == NULL) {
			*why = xprintf("names an unknown user (%.*s)",
			    (int)MINIMUM(rest - s, CONFIG_NAME_MAX), s);
			return (-1);
		}
		home = pw->pw_dir;
	}
	*out = xprintf("%s%s", home, rest);
	return (0);
}

/* Text options: checks by type, then the stored form. */
static int
config_parse_text_value(const struct config_option *o, const char *s,
    size_t len, char *const *env, const char *dir, char **out, char **why)
{
	char	*q, *bad;
	size_t	 i;

	if (o->type == CONFIG_TOKEN) {
		if (!config_token_chars(s, len)) {
			*why = xstrdup("is not a token: empty, or holds a space"
			    " or a control character");
			return (-1);
		}
		*out = xstrndup(s, len);
		return (0);
	}
	if (len == 0) {
		*why = xstrdup("is empty");
		return (-1);
	}
	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			*why = xstrdup("holds a control character");
			return (-1);
		}
	}
	q = config_quote(s, len);
	switch (o->type) {
	case CONFIG_NAME:
		if (!config_check_name(s, len)) {
			xasprintf(why, "%s is not a name (up to %d letters,"
			    " digits, '.', '_' and '-', not starting with '.')",
			    q, CONFIG_NAME_MAX);
			goto fail;
		}
		break;
	case CONFIG_HEX32:
		for (i = 0; i < len; i++) {
			if (!isxdigit((unsigned char)s[i]))
				break;
		}
		if (len != 32 || i != len) {
			xasprintf(why, "%s is not 32 hexadecimal digits", q);
			goto fail;
		}
		*out = xstrndup(s, len);
		for (i = 0; i < len; i++)
			(*out)[i] = (char)tolower((unsigned char)(*out)[i]);
		free(q);
		return (0);
	case CONFIG_URL:
		if (config_check_url(s, len, &bad) != 0) {
			xasprintf(why, "%s %s", q, bad);
			free(bad);
			goto fail;
		}
		while (len > 0 && s[len - 1] == '/')
			len--;
		break;
	case CONFIG_PATH:
		free(q);
		q = xstrndup(s, len);
		if (config_expand_path(q, env, dir, out, why) != 0)
			goto fail;
		free(q);
		return (0);
	default:
		break;
	}
	free(q);
	*out = xstrndup(s, len);
	return (0);

fail:
	free(q);
	return (-1);
}

/*
 * Set o in base from text (plain: it was not quoted, so it may be a bool or
 * a number); on error *why says what is wrong, without the option's name.
 */
static int
config_value(const struct config_option *o, void *base, const char *s,
    size_t len, int plain, char *const *env, const char *dir, char **why)
{
	void	*field = (char *)base + o->offset;
	char	*text = NULL, **sp = field;

	if (memchr(s, '\0', len) != NULL) {
		*why = xstrdup("holds a NUL byte");
		return (-1);
	}
	switch (o->type) {
	case CONFIG_BOOL:
		return (config_parse_bool(s, len, plain, field, why));
	case CONFIG_INT:
		return (config_parse_int(o, s, len, plain, field, why));
	case CONFIG_ENUM:
		return (config_parse_enum(o, s, len, field, why));
	default:
		if (config_parse_text_value(o, s, len, env, dir, &text,
		    why) != 0)
			return (-1);
		if (o->type == CONFIG_TOKEN)
			config_secret_free(*sp);
		else
			free(*sp);
		*sp = text;
		return (0);
	}
}

static void
config_defaults(const struct config_option *table, size_t n, void *base)
{
	char	*why = NULL;
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (table[i].dflt == NULL)
			continue;
		if (config_value(&table[i], base, table[i].dflt,
		    strlen(table[i].dflt), 1, NULL, NULL, &why) != 0)
			fatalx("config: default of %s: %s", table[i].name, why);
	}
}

static void
config_free_fields(const struct config_option *table, size_t n, void *base)
{
	char	**sp;
	size_t	  i;

	for (i = 0; i < n; i++) {
		if (table[i].type == CONFIG_BOOL || table[i].type == CONFIG_INT ||
		    table[i].type == CONFIG_ENUM)
			continue;
		sp = (char **)((char *)base + table[i].offset);
		if (table[i].type == CONFIG_TOKEN)
			config_secret_free(*sp);
		else
			free(*sp);
		*sp = NULL;
	}
}

static const struct config_option *
config_find(const struct config_option *table, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (strcmp(table[i].name, name) == 0)
			return (&table[i]);
	}
	return (NULL);
}

/* ---- problems ------------------------------------------------------------- */

static void printflike(5, 0)
config_vproblem(struct config_parse *p, int line, int column, int showcol,
    const char *fmt, va_list ap)
{
	struct config		*cfg = p->cfg;
	struct config_problem	*pr;
	char			*msg;

	if (p->stop)
		return;
	xvasprintf(&msg, fmt, ap);
	if (cfg->nproblems == CONFIG_MAX_PROBLEMS - 1) {
		free(msg);
		msg = xprintf("too many problems; the rest of the file was"
		    " not checked");
		p->stop = 1;
	}
	cfg->problems = xreallocarray(cfg->problems, cfg->nproblems + 1,
	    sizeof *cfg->problems);
	pr = &cfg->problems[cfg->nproblems++];
	pr->file = xstrdup(p->file);
	pr->line = line;
	pr->column = column;
	if (line == 0)
		pr->message = xprintf("%s: %s", p->file, msg);
	else if (showcol && column != 0)
		pr->message = xprintf("%s:%d:%d: %s", p->file, line, column, msg);
	else
		pr->message = xprintf("%s:%d: %s", p->file, line, msg);
	free(msg);
}

static void printflike(4, 5)
config_problem(struct config_parse *p, int line, int column,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	config_vproblem(p, line, column, 0, fmt, ap);
	va_end(ap);
}

/* The same with the column in the message, where it helps (syntax). */
static void printflike(4, 5)
config_problem_column(struct config_parse *p, int line, int column,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	config_vproblem(p, line, column, 1, fmt, ap);
	va_end(ap);
}

static int
config_line(const yaml_node_t *n)
{
	return ((int)MINIMUM(n->start_mark.line + 1, (size_t)INT_MAX));
}

static int
config_column(const yaml_node_t *n)
{
	return ((int)MINIMUM(n->start_mark.column + 1, (size_t)INT_MAX));
}

/* Line and column (from 1, in bytes) of an offset, for libyaml's reader. */
static void
config_offset_position(const char *text, size_t len, size_t off, int *line,
    int *column)
{
	size_t	i, l = 1, c = 1;

	for (i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else
			c++;
	}
	*line = (int)MINIMUM(l, (size_t)INT_MAX);
	*column = (int)MINIMUM(c, (size_t)INT_MAX);
}

static void
config_syntax_problem(struct config_parse *p, const yaml_parser_t *parser,
    const char *text, size_t len)
{
	const char	*problem = parser->problem;
	int		 line, column;

	if (parser->error == YAML_MEMORY_ERROR)
		fatalx("config: out of memory");
	if (problem == NULL)
		problem = "invalid YAML";
	if (parser->error == YAML_READER_ERROR) {
		config_offset_position(text, len, parser->problem_offset, &line,
		    &column);
	} else {
		line = (int)MINIMUM(parser->problem_mark.line + 1,
		    (size_t)INT_MAX);
		column = (int)MINIMUM(parser->problem_mark.column + 1,
		    (size_t)INT_MAX);
	}
	if (parser->context != NULL && parser->error != YAML_READER_ERROR) {
		config_problem_column(p, line, column, "YAML syntax error: %s"
		    " (%s on line %zu)", problem, parser->context,
		    parser->context_mark.line + 1);
	} else {
		config_problem_column(p, line, column, "YAML syntax error: %s",
		    problem);
	}
}

/* ---- walking the document -------------------------------------------------- */

static int
config_is_null(const yaml_node_t *n)
{
	const char	*s = (const char *)n->data.scalar.value;
	size_t		 len = n->data.scalar.length;

	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return (0);
	return (len == 0 || (len == 1 && *s == '~') || (len == 4 &&
	    (memcmp(s, "null", 4) == 0 || memcmp(s, "Null", 4) == 0 ||
	    memcmp(s, "NULL", 4) == 0)));
}

static const char *
config_node_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE:
		return ("a mapping");
	case YAML_SEQUENCE_NODE:
		return ("a list");
	default:
		return ("a scalar");
	}
}

/* A key as messages show it: as it is when short and plain, else quoted. */
static char *
config_keyname(const char *s, size_t len)
{
	size_t	i;

	if (len == 0 || len > CONFIG_NAME_MAX)
		return (config_quote(s, len));
	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f || s[i] == '"')
			return (config_quote(s, len));
	}
	return (xstrndup(s, len));
}

/*
 * The text of the key of pair in map, or NULL (with a problem) if it is
 * not usable: not text, holds a NUL, or repeats an earlier key.
 */
static char *
config_key(struct config_parse *p, const yaml_node_t *map,
    const yaml_node_pair_t *pair, const char *prefix)
{
	const yaml_node_pair_t	*earlier;
	yaml_node_t		*k, *e;
	const char		*s;
	char			*name;
	size_t			 len;

	k = yaml_document_get_node(p->doc, pair->key);
	if (k == NULL || k->type != YAML_SCALAR_NODE) {
		config_problem(p, k == NULL ? 0 : config_line(k),
		    k == NULL ? 0 : config_column(k), "%s: a key must be text,"
		    " not %s", *prefix == '\0' ? "top level" : prefix,
		    k == NULL ? "nothing" : config_node_kind(k));
		return (NULL);
	}
	s = (const char *)k->data.scalar.value;
	len = k->data.scalar.length;
	if (memchr(s, '\0', len) != NULL) {
		name = config_keyname(s, len);
		config_problem(p, config_line(k), config_column(k),
		    "%s%s: a key holds a NUL byte", prefix, name);
		free(name);
		return (NULL);
	}
	for (earlier = map->data.mapping.pairs.start; earlier < pair;
	    earlier++) {
		e = yaml_document_get_node(p->doc, earlier->key);
		if (e == NULL || e->type != YAML_SCALAR_NODE ||
		    e->data.scalar.length != len ||
		    memcmp(e->data.scalar.value, s, len) != 0)
			continue;
		name = config_keyname(s, len);
		config_problem(p, config_line(k), config_column(k),
		    "%s%s: a duplicate key (first on line %d)", prefix, name,
		    config_line(e));
		free(name);
		return (NULL);
	}
	return (xstrndup(s, len));
}

/* Edit distance, ignoring case; large for long strings. */
static size_t
config_distance(const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b), row[CONFIG_NAME_MAX + 1];
	size_t	i, j, prev, cur, best;

	if (la > CONFIG_NAME_MAX || lb > CONFIG_NAME_MAX)
		return (SIZE_MAX);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			best = MINIMUM(row[j], row[j - 1]) + 1;
			if (tolower((unsigned char)a[i - 1]) ==
			    tolower((unsigned char)b[j - 1]))
				best = MINIMUM(best, prev);
			else
				best = MINIMUM(best, prev + 1);
			row[j] = best;
			prev = cur;
		}
	}
	return (row[lb]);
}

/*
 * The name a mistyped key was probably meant to be: among the options of
 * table under prefix (their next dotted component), "profiles" at the top.
 */
static char *
config_suggest(const struct config_option *table, size_t n,
    const char *prefix, const char *key)
{
	if (table != config_options)
		prefix = "";
	const char	*name, *dot;
	char		*cand, *best = NULL;
	size_t		 i, d, bestd = 3, plen = strlen(prefix);

	if (strlen(key) < 3)
		return (NULL);
	for (i = 0; i <= n; i++) {
		if (i == n) {
			if (table != config_options || plen != 0)
				break;
			name = "profiles";
		} else if (strncmp(table[i].name, prefix, plen) == 0)
			name = table[i].name + plen;
		else
			continue;
		dot = strchr(name, '.');
		cand = dot == NULL ? xstrdup(name) : xstrndup(name, dot - name);
		if ((d = config_distance(key, cand)) < bestd) {
			free(best);
			best = cand;
			bestd = d;
		} else
			free(cand);
	}
	return (best);
}

static void
config_unknown(struct config_parse *p, const yaml_node_t *k,
    const struct config_option *table, size_t n, const char *prefix,
    const char *key)
{
	const struct config_option	*o;
	char				*q, *s;
	size_t				 i, klen = strlen(key);

	q = config_keyname(key, klen);
	if (table == config_options && *prefix == '\0') {
		/* Keys in the wrong place are the likely mistake. */
		if (config_find(config_profile_options,
		    nitems(config_profile_options), key) != NULL) {
			config_problem(p, config_line(k), config_column(k),
			    "%s: unknown option (profile keys go under"
			    " profiles.NAME)", q);
			free(q);
			return;
		}
		for (i = 0; i < n; i++) {
			o = &table[i];
			s = strrchr(o->name, '.');
			if (s != NULL && strcmp(s + 1, key) == 0) {
				config_problem(p, config_line(k),
				    config_column(k), "%s: unknown option (did"
				    " you mean %s?)", q, o->name);
				free(q);
				return;
			}
		}
	}
	if ((s = config_suggest(table, n, prefix, key)) != NULL) {
		config_problem(p, config_line(k), config_column(k),
		    "%s%s: unknown option (did you mean %s%s?)", prefix, q,
		    table == config_options ? prefix : "", s);
	} else {
		config_problem(p, config_line(k), config_column(k),
		    "%s%s: unknown option", prefix, q);
	}
	free(s);
	free(q);
}

/*
 * Set option o from node v, or say why not; path names it in messages.
 * Returns the value's line, or 0 if nothing was set.
 */
static int
config_apply(struct config_parse *p, const struct config_option *o,
    void *base, const yaml_node_t *v, const char *path)
{
	char	*why = NULL;
	int	 plain;

	if (v->type != YAML_SCALAR_NODE) {
		config_problem(p, config_line(v), config_column(v),
		    "%s: expected %s, not %s", path, config_type_name(o),
		    config_node_kind(v));
		return (0);
	}
	if (config_is_null(v))
		return (0);
	plain = v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	if (config_value(o, base, (char *)v->data.scalar.value,
	    v->data.scalar.length, plain, p->env, p->dir, &why) != 0) {
		config_problem(p, config_line(v), config_column(v), "%s: %s",
		    path, why);
		free(why);
		return (0);
	}
	return (config_line(v));
}

static struct config_profile *
config_add_profile(struct config *cfg, const char *name, int line)
{
	struct config_profile	*prof;

	cfg->profiles = xreallocarray(cfg->profiles, cfg->nprofiles + 1,
	    sizeof *cfg->profiles);
	prof = &cfg->profiles[cfg->nprofiles++];
	memset(prof, 0, sizeof *prof);
	prof->name = xstrdup(name);
	prof->line = line;
	config_defaults(config_profile_options, nitems(config_profile_options),
	    prof);
	return (prof);
}

static void
config_walk_profile(struct config_parse *p, struct config_profile *prof,
    const yaml_node_t *map)
{
	const struct config_option	*o;
	const yaml_node_pair_t		*pair;
	yaml_node_t			*k, *v;
	int				 lines[nitems(config_profile_options)];
	char				*key, *prefix, *path;
	size_t				 i, j;

	memset(lines, 0, sizeof lines);
	prefix = xprintf("profiles.%s.", prof->name);
	for (pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top && !p->stop; pair++) {
		if ((key = config_key(p, map, pair, prefix)) == NULL)
			continue;
		k = yaml_document_get_node(p->doc, pair->key);
		v = yaml_document_get_node(p->doc, pair->value);
		o = config_find(config_profile_options,
		    nitems(config_profile_options), key);
		if (o == NULL || v == NULL) {
			config_unknown(p, k, config_profile_options,
			    nitems(config_profile_options), prefix, key);
			free(key);
			continue;
		}
		i = o - config_profile_options;
		path = xprintf("%s%s", prefix, key);
		for (j = 0; j < nitems(lines); j++) {
			if ((o->flags & CONFIG_F_CREDENTIAL) && lines[j] != 0 &&
			    (config_profile_options[j].flags &
			    CONFIG_F_CREDENTIAL))
				break;
		}
		if (j != nitems(lines) && !config_is_null(v)) {
			config_problem(p, config_line(k), config_column(k),
			    "%s: only one of token, token_file and"
			    " token_command may be set (%s is on line %d)",
			    path, config_profile_options[j].name, lines[j]);
		} else
			lines[i] = config_apply(p, o, prof, v, path);
		if (lines[i] != 0 && o->type == CONFIG_TOKEN &&
		    p->token_line == 0)
			p->token_line = lines[i];
		if (lines[i] != 0 && strcmp(o->name, "token_command") == 0 &&
		    p->command_line == 0)
			p->command_line = lines[i];
		free(path);
		free(key);
	}
	free(prefix);

	if (prof->token != NULL)
		prof->token_source = CONFIG_TOKEN_INLINE;
	else if (prof->token_file != NULL)
		prof->token_source = CONFIG_TOKEN_FILE;
	else if (prof->token_command != NULL)
		prof->token_source = CONFIG_TOKEN_COMMAND;
}

static void
config_walk_profiles(struct config_parse *p, const yaml_node_t *map)
{
	const yaml_node_pair_t	*pair;
	struct config_profile	*prof;
	yaml_node_t		*k, *v;
	char			*name, *q;

	if (config_is_null(map))
		return;
	if (map->type != YAML_MAPPING_NODE) {
		config_problem(p, config_line(map), config_column(map),
		    "profiles: expected a mapping of profile names to their"
		    " settings, not %s", config_node_kind(map));
		return;
	}
	for (pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top && !p->stop; pair++) {
		if ((name = config_key(p, map, pair, "profiles.")) == NULL)
			continue;
		k = yaml_document_get_node(p->doc, pair->key);
		v = yaml_document_get_node(p->doc, pair->value);
		if (!config_check_name(name, strlen(name))) {
			q = config_quote(name, strlen(name));
			config_problem(p, config_line(k), config_column(k),
			    "profiles: %s is not a profile name (up to %d"
			    " letters, digits, '.', '_' and '-', not starting"
			    " with '.')", q, CONFIG_NAME_MAX);
			free(q);
			free(name);
			continue;
		}
		if (p->cfg->nprofiles == CONFIG_MAX_PROFILES) {
			config_problem(p, config_line(k), config_column(k),
			    "profiles: too many profiles (the limit is %d)",
			    CONFIG_MAX_PROFILES);
			free(name);
			break;
		}
		prof = config_add_profile(p->cfg, name, config_line(k));
		if (v != NULL && v->type == YAML_MAPPING_NODE)
			config_walk_profile(p, prof, v);
		else if (v != NULL && !config_is_null(v)) {
			config_problem(p, config_line(v), config_column(v),
			    "profiles.%s: expected a mapping of settings, not"
			    " %s", name, config_node_kind(v));
		}
		free(name);
	}
}

/* Whether some option lives under prefix (a section such as preferences). */
static int
config_is_section(const char *name)
{
	size_t	i, len = strlen(name);

	for (i = 0; i < nitems(config_options); i++) {
		if (strncmp(config_options[i].name, name, len) == 0 &&
		    config_options[i].name[len] == '.')
			return (1);
	}
	return (0);
}

/* A key's line, for problems found later by others (the keymap). */
static void
config_add_key_line(struct config *cfg, const char *path, int line)
{
	cfg->key_lines = xreallocarray(cfg->key_lines, cfg->nkey_lines + 1,
	    sizeof *cfg->key_lines);
	cfg->key_lines[cfg->nkey_lines].path = xstrdup(path);
	cfg->key_lines[cfg->nkey_lines++].line = line;
}

/*
 * keymap: is the console's to read (ui/keymap.c, from JSON without lines):
 * keep where each context and key is, so its problems can say.
 */
static void
config_keymap_lines(struct config_parse *p, const yaml_node_t *map,
    const char *prefix, int depth)
{
	const yaml_node_pair_t	*pair;
	yaml_node_t		*k, *v;
	char			*path;

	if (map->type != YAML_MAPPING_NODE)
		return;
	for (pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top; pair++) {
		k = yaml_document_get_node(p->doc, pair->key);
		v = yaml_document_get_node(p->doc, pair->value);
		if (k == NULL || k->type != YAML_SCALAR_NODE)
			continue;
		path = xprintf("%s.%s", prefix, (char *)k->data.scalar.value);
		config_add_key_line(p->cfg, path, config_line(k));
		if (v != NULL && depth == 0)
			config_keymap_lines(p, v, path, 1);
		free(path);
	}
}

static void
config_walk_section(struct config_parse *p, const yaml_node_t *map,
    const char *prefix)
{
	const struct config_option	*o;
	const yaml_node_pair_t		*pair;
	yaml_node_t			*k, *v;
	char				*key, *full, *sub;

	for (pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top && !p->stop; pair++) {
		if ((key = config_key(p, map, pair, prefix)) == NULL)
			continue;
		k = yaml_document_get_node(p->doc, pair->key);
		v = yaml_document_get_node(p->doc, pair->value);
		full = xprintf("%s%s", prefix, key);
		if (v == NULL)
			config_unknown(p, k, config_options,
			    nitems(config_options), prefix, key);
		else if (*prefix == '\0' && strcmp(key, "profiles") == 0)
			config_walk_profiles(p, v);
		else if (*prefix == '\0' && strcmp(key, "keymap") == 0) {
			config_add_key_line(p->cfg, "keymap", config_line(k));
			config_keymap_lines(p, v, "keymap", 0);
		}
		else if ((o = config_find(config_options,
		    nitems(config_options), full)) != NULL) {
			p->lines[o - config_options] =
			    config_apply(p, o, p->cfg, v, full);
		} else if (config_is_section(full)) {
			if (v->type == YAML_MAPPING_NODE) {
				sub = xprintf("%s.", full);
				config_walk_section(p, v, sub);
				free(sub);
			} else if (!config_is_null(v)) {
				config_problem(p, config_line(v),
				    config_column(v), "%s: expected a mapping,"
				    " not %s", full, config_node_kind(v));
			}
		} else
			config_unknown(p, k, config_options,
			    nitems(config_options), prefix, key);
		free(full);
		free(key);
	}
}

/* ---- after the walk --------------------------------------------------------- */

/*
 * A token in a file others can read is no longer a secret, and a command in
 * a file others can write is theirs to choose: refuse both, with the fix.
 */
static void
config_check_modes(struct config_parse *p)
{
	struct config		*cfg = p->cfg;
	struct config_profile	*prof;
	char			*token_why = NULL, *command_why = NULL;
	mode_t			 mode = p->mode & 07777;
	size_t			 i;

	if (p->token_line != 0 && (mode & 077)) {
		token_why = xprintf("%s is %s (mode %04o) and holds a token:"
		    " run chmod 600 %s", p->file, config_exposure(mode),
		    (unsigned int)mode, p->file);
		config_problem(p, p->token_line, 0, "%s", token_why);
	}
	if (p->command_line != 0 && (mode & 022)) {
		command_why = xprintf("%s is %s (mode %04o) and names a"
		    " token_command: run chmod go-w %s", p->file,
		    config_exposure(mode & 022), (unsigned int)mode, p->file);
		config_problem(p, p->command_line, 0, "%s", command_why);
	}
	for (i = 0; i < cfg->nprofiles; i++) {
		prof = &cfg->profiles[i];
		if (token_why != NULL && prof->token != NULL) {
			config_secret_free(prof->token);
			prof->token = NULL;
			prof->token_refusal = xstrdup(token_why);
		}
		if (command_why != NULL && prof->token_command != NULL)
			prof->token_refusal = xstrdup(command_why);
	}
	free(token_why);
	free(command_why);
}

static void
config_choose_default(struct config_parse *p)
{
	struct config	*cfg = p->cfg;
	const char	*name;
	char		*q;
	int		 line;

	line = p->lines[config_find(config_options, nitems(config_options),
	    "default_profile") - config_options];
	if (cfg->nprofiles == 0)
		config_add_profile(cfg, CONFIG_DEFAULT_PROFILE, 0);
	if (cfg->default_profile != NULL &&
	    config_profile(cfg, cfg->default_profile) == NULL) {
		q = config_quote(cfg->default_profile,
		    strlen(cfg->default_profile));
		config_problem(p, line, 0, "default_profile: no profile is"
		    " called %s", q);
		free(q);
		free(cfg->default_profile);
		cfg->default_profile = NULL;
	}
	if (cfg->default_profile != NULL)
		return;
	if (config_profile(cfg, CONFIG_DEFAULT_PROFILE) != NULL)
		name = CONFIG_DEFAULT_PROFILE;
	else
		name = cfg->profiles[0].name;
	cfg->default_profile = xstrdup(name);
}

/*
 * In the order of the file, as an editor would list them; checks made after
 * the walk added theirs last. "Too many problems" stays at the end.
 */
static void
config_sort_problems(struct config_parse *p)
{
	struct config_problem	*pr = p->cfg->problems, tmp;
	size_t			 i, j, n = p->cfg->nproblems;

	if (p->stop)
		n--;
	for (i = 1; i < n; i++) {
		tmp = pr[i];
		for (j = i; j > 0 && pr[j - 1].line > tmp.line; j--)
			pr[j] = pr[j - 1];
		pr[j] = tmp;
	}
}

/* libyaml keeps copies of what it read: wipe them, they may hold a token. */
static void
config_wipe_yaml(yaml_parser_t *parser, yaml_document_t *doc)
{
	yaml_node_t	*n;

	if (doc != NULL) {
		for (n = doc->nodes.start; n < doc->nodes.top; n++) {
			if (n->type == YAML_SCALAR_NODE)
				explicit_bzero(n->data.scalar.value,
				    n->data.scalar.length);
		}
	}
	if (parser->buffer.start != NULL)
		explicit_bzero(parser->buffer.start,
		    parser->buffer.end - parser->buffer.start);
	if (parser->raw_buffer.start != NULL)
		explicit_bzero(parser->raw_buffer.start,
		    parser->raw_buffer.end - parser->raw_buffer.start);
}

static void
config_read_yaml(struct config_parse *p, const char *text, size_t len)
{
	yaml_parser_t	 parser;
	yaml_document_t	 doc, extra;
	yaml_node_t	*root;
	int		 loaded, ok;

	if (!yaml_parser_initialize(&parser))
		fatalx("config: out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	if (!(loaded = yaml_parser_load(&parser, &doc))) {
		config_syntax_problem(p, &parser, text, len);
		config_wipe_yaml(&parser, NULL);
		yaml_parser_delete(&parser);
		return;
	}
	/* A second document is an error; so is a syntax error in it. */
	if (!(ok = yaml_parser_load(&parser, &extra)))
		config_syntax_problem(p, &parser, text, len);
	else {
		if ((root = yaml_document_get_root_node(&extra)) != NULL) {
			config_problem(p, config_line(root), config_column(root),
			    "a second YAML document; a config file holds one");
		}
		config_wipe_yaml(&parser, &extra);
		yaml_document_delete(&extra);
	}

	p->doc = &doc;
	root = yaml_document_get_root_node(&doc);
	if (ok && root != NULL && !config_is_null(root)) {
		if (root->type == YAML_MAPPING_NODE)
			config_walk_section(p, root, "");
		else {
			config_problem(p, config_line(root), config_column(root),
			    "expected a mapping of options at the top, not %s",
			    config_node_kind(root));
		}
	}
	p->doc = NULL;
	config_wipe_yaml(&parser, &doc);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
}

/* ---- entry points ------------------------------------------------------------ */

struct config *
config_parse_text(const char *name, const char *text, size_t len, mode_t mode,
    char *const *env)
{
	struct config_parse	 p;
	struct config		*cfg;
	const char		*slash;

	cfg = xcalloc(1, sizeof *cfg);
	config_defaults(config_options, nitems(config_options), cfg);

	memset(&p, 0, sizeof p);
	p.cfg = cfg;
	p.file = name != NULL ? name : "config.yaml";
	p.env = env;
	p.mode = mode;
	if ((slash = strrchr(p.file, '/')) == NULL)
		p.dir = xstrdup(".");
	else if (slash == p.file)
		p.dir = xstrdup("/");
	else
		p.dir = xstrndup(p.file, slash - p.file);
	if (name != NULL)
		cfg->file = xstrdup(name);

	if (len > CONFIG_MAX_SIZE)
		config_problem(&p, 0, 0, "larger than %d bytes; not read",
		    CONFIG_MAX_SIZE);
	else if (len != 0)
		config_read_yaml(&p, text, len);
	config_check_modes(&p);
	config_choose_default(&p);
	config_sort_problems(&p);
	free(p.dir);
	return (cfg);
}

char *
config_default_path(char *const *env)
{
	char	*dir, *path;

	dir = config_xdg(env, "XDG_CONFIG_HOME", ".config");
	path = xprintf("%s/config.yaml", dir);
	free(dir);
	return (path);
}

struct config *
config_load(const char *path, char *const *env, char **cause)
{
	struct config	*cfg = NULL;
	struct stat	 sb;
	char		*dflt = NULL, *text = NULL;
	const char	*file = path;
	size_t		 len = 0;
	ssize_t		 n;
	int		 fd = -1;

	if (file == NULL)
		file = dflt = config_default_path(env);
	if ((fd = open(file, O_RDONLY|O_CLOEXEC|O_NOCTTY)) == -1) {
		if (errno == ENOENT && path == NULL)
			cfg = config_parse_text(NULL, "", 0, 0600, env);
		else
			xasprintf(cause, "%s: %s", file, strerror(errno));
		goto out;
	}
	if (fstat(fd, &sb) != 0) {
		xasprintf(cause, "%s: %s", file, strerror(errno));
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file", file);
		goto out;
	}
	/* Read to the end, not to st_size: the file may change meanwhile. */
	text = xmalloc(CONFIG_MAX_SIZE + 1);
	while (len <= CONFIG_MAX_SIZE) {
		n = read(fd, text + len, CONFIG_MAX_SIZE + 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			xasprintf(cause, "%s: %s", file, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += n;
	}
	if (len > CONFIG_MAX_SIZE) {
		xasprintf(cause, "%s: larger than %d bytes", file,
		    CONFIG_MAX_SIZE);
		goto out;
	}
	cfg = config_parse_text(file, text, len, sb.st_mode, env);

out:
	if (text != NULL) {
		explicit_bzero(text, len);
		free(text);
	}
	if (fd != -1)
		close(fd);
	free(dflt);
	return (cfg);
}

void
config_free(struct config *cfg)
{
	struct config_profile	*prof;
	size_t			 i;

	if (cfg == NULL)
		return;
	for (i = 0; i < cfg->nprofiles; i++) {
		prof = &cfg->profiles[i];
		config_free_fields(config_profile_options,
		    nitems(config_profile_options), prof);
		free(prof->name);
		free(prof->token_refusal);
	}
	free(cfg->profiles);
	config_free_fields(config_options, nitems(config_options), cfg);
	for (i = 0; i < cfg->nproblems; i++) {
		free(cfg->problems[i].file);
		free(cfg->problems[i].message);
	}
	free(cfg->problems);
	for (i = 0; i < cfg->nkey_lines; i++)
		free(cfg->key_lines[i].path);
	free(cfg->key_lines);
	free(cfg->file);
	free(cfg);
}

int
config_key_line(const struct config *cfg, const char *path)
{
	size_t	i;

	for (i = 0; i < cfg->nkey_lines; i++)
		if (strcmp(cfg->key_lines[i].path, path) == 0)
			return (cfg->key_lines[i].line);
	return (0);
}

const struct config_profile *
config_profile(const struct config *cfg, const char *name)
{
	size_t	i;

	if (name == NULL)
		name = cfg->default_profile;
	if (name == NULL)
		return (NULL);
	for (i = 0; i < cfg->nprofiles; i++) {
		if (strcmp(cfg->profiles[i].name, name) == 0)
			return (&cfg->profiles[i]);
	}
	return (NULL);
}

static const struct config_profile *
config_profile_or_cause(const struct config *cfg, const char *name,
    char **cause)
{
	const struct config_profile	*prof;
	struct buf			 b = BUF_INITIALIZER;
	char				*q;
	size_t				 i;

	if ((prof = config_profile(cfg, name)) != NULL)
		return (prof);
	q = config_quote(name, strlen(name));
	buf_addf(&b, "no profile is called %s (there is ", q);
	for (i = 0; i < cfg->nprofiles && i < 10; i++) {
		buf_addf(&b, "%s%s", i == 0 ? "" : ", ",
		    cfg->profiles[i].name);
	}
	buf_adds(&b, i < cfg->nprofiles ? ", ...)" : ")");
	*cause = buf_detach(&b, NULL);
	free(q);
	return (NULL);
}

int
config_settings(const struct config *cfg, const char *name, char *const *env,
    struct config_settings *s, char **cause)
{
	const struct config_profile	*prof;
	const struct config_option	*o;
	struct config_profile		 tmp;
	const char			*v;
	char				*why = NULL, **field;
	size_t				 i;

	memset(s, 0, sizeof *s);
	if ((prof = config_profile_or_cause(cfg, name, cause)) == NULL)
		return (-1);
	s->profile = xstrdup(prof->name);
	s->base_url = xstrdup(prof->base_url);
	s->account = prof->account != NULL ? xstrdup(prof->account) : NULL;
	s->zone = prof->zone != NULL ? xstrdup(prof->zone) : NULL;
	s->readonly = prof->readonly;
	s->budget = prof->budget;
	s->token_source = prof->token_source;
	if (config_getenv(env, "CLOUDFLARE_API_TOKEN") != NULL)
		s->token_source = CONFIG_TOKEN_ENV;

	for (i = 0; i < nitems(config_env_overrides); i++) {
		v = config_getenv(env, config_env_overrides[i].variable);
		if (v == NULL)
			continue;
		o = config_find(config_profile_options,
		    nitems(config_profile_options), config_env_overrides[i].key);
		memset(&tmp, 0, sizeof tmp);
		if (config_value(o, &tmp, v, strlen(v), 0, env, NULL,
		    &why) != 0) {
			xasprintf(cause, "%s: %s", config_env_overrides[i].variable,
			    why);
			free(why);
			config_settings_free(s);
			return (-1);
		}
		field = (char **)((char *)&tmp + o->offset);
		if (strcmp(o->name, "base_url") == 0) {
			free(s->base_url);
			s->base_url = *field;
		} else if (strcmp(o->name, "account") == 0) {
			free(s->account);
			s->account = *field;
		} else {
			free(s->zone);
			s->zone = *field;
		}
	}
	return (0);
}

void
config_settings_free(struct config_settings *s)
{
	free(s->profile);
	free(s->base_url);
	free(s->account);
	free(s->zone);
	memset(s, 0, sizeof *s);
}

/* ---- tokens ------------------------------------------------------------------ */

/*
 * The first line of data, without surrounding blanks, as a token; what
 * names the source in messages.
 */
static int
config_first_line(const char *data, size_t len, const char *what,
    char **token, char **cause)
{
	size_t	start = 0, end;

	end = 0;
	while (end < len && data[end] != '\n')
		end++;
	while (start < end && strchr(" \t\r", data[start]) != NULL)
		start++;
	while (end > start && strchr(" \t\r", data[end - 1]) != NULL)
		end--;
	if (end == len && len >= CONFIG_TOKEN_READ) {
		xasprintf(cause, "%s: the first line is longer than %d bytes",
		    what, CONFIG_TOKEN_READ);
		return (-1);
	}
	if (end == start) {
		xasprintf(cause, "%s: no token on its first line", what);
		return (-1);
	}
	if (!config_token_chars(data + start, end - start)) {
		xasprintf(cause, "%s: the token holds a space or a control"
		    " character", what);
		return (-1);
	}
	*token = xstrndup(data + start, end - start);
	return (0);
}

static int
config_token_file(const struct config_profile *prof, char **token,
    char **cause)
{
	const char	*path = prof->token_file;
	struct stat	 sb;
	char		*data, *what;
	size_t		 len = 0;
	ssize_t		 n;
	int		 fd, rc = -1;

	what = xprintf("profiles.%s.token_file %s", prof->name, path);
	if ((fd = open(path, O_RDONLY|O_CLOEXEC|O_NOCTTY)) == -1) {
		xasprintf(cause, "%s: %s", what, strerror(errno));
		free(what);
		return (-1);
	}
	data = xmalloc(CONFIG_TOKEN_READ);
	if (fstat(fd, &sb) != 0) {
		xasprintf(cause, "%s: %s", what, strerror(errno));
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file", what);
		goto out;
	}
	if (sb.st_mode & 077) {
		xasprintf(cause, "%s is %s (mode %04o): run chmod 600 %s", path,
		    config_exposure(sb.st_mode), (unsigned int)sb.st_mode & 07777,
		    path);
		goto out;
	}
	while (len < CONFIG_TOKEN_READ) {
		n = read(fd, data + len, CONFIG_TOKEN_READ - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			xasprintf(cause, "%s: %s", what, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += n;
		if (memchr(data, '\n', len) != NULL)
			break;
	}
	rc = config_first_line(data, len, what, token, cause);

out:
	explicit_bzero(data, CONFIG_TOKEN_READ);
	free(data);
	close(fd);
	free(what);
	return (rc);
}

/* What a command wrote, kept in fixed buffers: no copy of a token is left. */
struct config_pipe {
	int		 fd;
	char		*data;
	size_t		 len;
	size_t		 keep;		/* bytes worth keeping */
	size_t		 total;
	size_t		 limit;		/* stop reading past it */
	int		 cut;		/* we closed it early */
};

/* A command run to its end: what it printed and how it ended. */
struct config_run {
	struct config_pipe	 out;
	struct config_pipe	 err;
	int			 status;
	int			 timed_out;	/* killed at the deadline */
	long			 timeout_ms;
};

static void
config_drain(struct config_pipe *o)
{
	char	chunk[4096];
	ssize_t	n;
	size_t	take;

	n = read(o->fd, chunk, sizeof chunk);
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0) {
		take = MINIMUM((size_t)n, o->keep - o->len);
		memcpy(o->data + o->len, chunk, take);
		o->len += take;
		o->total += n;
		explicit_bzero(chunk, sizeof chunk);
		if (o->total < o->limit)
			return;
		o->cut = 1;
	}
	close(o->fd);
	o->fd = -1;
}

static int
config_spawn(const char *command, char *const *env, int outfd, int errfd,
    pid_t *pid)
{
	posix_spawn_file_actions_t	 fa;
	posix_spawnattr_t		 attr;
	sigset_t			 none, dfl;
	char				 sh[] = "sh", dashc[] = "-c", *argv[4];
	int				 error;

	argv[0] = sh;
	argv[1] = dashc;
	argv[2] = xstrdup(command);
	argv[3] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
	    O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, outfd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, errfd, STDERR_FILENO);
	/* The caller's threads may block signals or ignore SIGPIPE. */
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	/* A group of its own, so a timeout can end all it started. */
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr,
	    POSIX_SPAWN_SETSIGMASK|POSIX_SPAWN_SETSIGDEF|POSIX_SPAWN_SETPGROUP);
	error = posix_spawn(pid, "/bin/sh", &fa, &attr, argv,
	    env != NULL ? env : environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	free(argv[2]);
	return (error);
}

static long
config_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Past the deadline: end the command's whole group, and its pipes. */
static void
config_kill(struct config_run *run, pid_t pid)
{
	run->timed_out = 1;
	(void)kill(-pid, SIGKILL);
	(void)kill(pid, SIGKILL);
	if (run->out.fd != -1)
		close(run->out.fd);
	if (run->err.fd != -1)
		close(run->err.fd);
	run->out.fd = run->err.fd = -1;
}

/* Collect both pipes until they close or the deadline passes. */
static void
config_collect(struct config_run *run, pid_t pid, long deadline)
{
	struct pollfd	pfd[2];
	long		left;
	int		n;

	while (run->out.fd != -1 || run->err.fd != -1) {
		if ((left = deadline - config_now_ms()) <= 0) {
			config_kill(run, pid);
			return;
		}
		pfd[0].fd = run->out.fd;
		pfd[1].fd = run->err.fd;
		pfd[0].events = pfd[1].events = POLLIN;
		if ((n = poll(pfd, 2, (int)left)) == -1) {
			if (errno == EINTR)
				continue;
			fatal("config: poll");
		}
		if (run->out.fd != -1 && pfd[0].revents != 0)
			config_drain(&run->out);
		if (run->err.fd != -1 && pfd[1].revents != 0)
			config_drain(&run->err);
	}
}

/*
 * Run command with /bin/sh -c, stdin from /dev/null, and collect its
 * output until it closes both pipes; then wait for it, killing its
 * process group if it is not over by the deadline (run->timed_out).
 * Fails only when the command could not be run or waited for (with *why).
 */
static int
config_run(const char *command, char *const *env, struct config_run *run,
    char **why)
{
	struct timespec	tick = { 0, 10 * 1000 * 1000 };
	const char	*v;
	long		deadline, timeout = CONFIG_COMMAND_TIMEOUT_MS;
	int		outp[2], errp[2], error, killed = 0;
	pid_t		pid, w;

	if ((v = config_getenv(env, CONFIG_COMMAND_TIMEOUT_ENV)) != NULL &&
	    atol(v) > 0)
		timeout = atol(v);
	memset(run, 0, sizeof *run);
	run->timeout_ms = timeout;
	run->out.keep = run->out.limit = CONFIG_TOKEN_READ;
	run->out.data = xmalloc(run->out.keep);
	run->err.keep = CONFIG_STDERR_KEEP;
	run->err.limit = CONFIG_STDERR_READ;
	run->err.data = xmalloc(run->err.keep);
	if (pipe2(outp, O_CLOEXEC) != 0) {
		xasprintf(why, "pipe: %s", strerror(errno));
		return (-1);
	}
	if (pipe2(errp, O_CLOEXEC) != 0) {
		xasprintf(why, "pipe: %s", strerror(errno));
		close(outp[0]);
		close(outp[1]);
		return (-1);
	}
	error = config_spawn(command, env, outp[1], errp[1], &pid);
	close(outp[1]);
	close(errp[1]);
	run->out.fd = outp[0];
	run->err.fd = errp[0];
	if (error != 0) {
		close(run->out.fd);
		close(run->err.fd);
		xasprintf(why, "cannot run /bin/sh: %s", strerror(error));
		return (-1);
	}

	deadline = config_now_ms() + timeout;
	config_collect(run, pid, deadline);
	/* It may close its output and still not exit. */
	for (;;) {
		w = waitpid(pid, &run->status, killed ? 0 : WNOHANG);
		if (w == pid)
			break;
		if (w == -1 && errno != EINTR) {
			xasprintf(why, "waitpid: %s", strerror(errno));
			return (-1);
		}
		if (w == 0 && config_now_ms() >= deadline) {
			config_kill(run, pid);
			killed = 1;
		} else if (w == 0)
			nanosleep(&tick, NULL);
	}
	if (run->timed_out)
		(void)kill(-pid, SIGKILL);	/* what it left behind */
	return (0);
}

/* The first line of a command's stderr, made printable, for a message. */
static char *
config_stderr_line(const struct config_pipe *e)
{
	size_t	n = 0, i;
	char	*s;

	while (n < e->len && e->data[n] != '\n' && n < 200)
		n++;
	if (n < e->len && e->data[n] != '\n') {
		while (n > 0 && ((unsigned char)e->data[n] & 0xc0) == 0x80)
			n--;
	}
	while (n > 0 && isspace((unsigned char)e->data[n - 1]))
		n--;
	s = xstrndup(e->data, n);
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = '?';
	}
	return (s);
}

static int
config_token_command(const struct config_profile *prof, char *const *env,
    char **token, char **cause)
{
	struct config_run	 run;
	char			*what, *why = NULL, *line;
	int			 status, rc = -1;

	what = xprintf("profiles.%s.token_command", prof->name);
	if (config_run(prof->token_command, env, &run, &why) != 0) {
		xasprintf(cause, "%s: %s", what, why);
		free(why);
		goto out;
	}
	if (run.timed_out) {
		xasprintf(cause, "%s did not exit within %ld s and was killed "
		    "(with the processes it started)", what,
		    (run.timeout_ms + 999) / 1000);
		goto out;
	}
	/*
	 * A command that kept printing dies when we stop reading: of SIGPIPE,
	 * or with 128 + SIGPIPE from the shell that ran it.
	 */
	status = run.status;
	if (run.out.cut && ((WIFSIGNALED(status) && WTERMSIG(status) ==
	    SIGPIPE) || (WIFEXITED(status) && WEXITSTATUS(status) ==
	    128 + SIGPIPE)))
		status = 0;
	if (WIFSIGNALED(status)) {
		xasprintf(cause, "%s was killed by signal %d (%s)", what,
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
		line = config_stderr_line(&run.err);
		xasprintf(cause, "%s exited with status %d%s%s", what,
		    WEXITSTATUS(status), *line == '\0' ? "" : ": ", line);
		free(line);
	} else if (run.out.len == 0)
		xasprintf(cause, "%s printed nothing", what);
	else {
		rc = config_first_line(run.out.data, run.out.len, what, token,
		    cause);
	}

out:
	explicit_bzero(run.out.data, run.out.keep);
	free(run.out.data);
	free(run.err.data);
	free(what);
	return (rc);
}

int
config_token(const struct config *cfg, const char *name, char *const *env,
    char **token, char **cause)
{
	const struct config_profile	*prof;
	const char			*v;

	*token = NULL;
	if ((v = config_getenv(env, "CLOUDFLARE_API_TOKEN")) != NULL) {
		if (!config_token_chars(v, strlen(v))) {
			*cause = xstrdup("CLOUDFLARE_API_TOKEN: the token holds"
			    " a space or a control character");
			return (-1);
		}
		*token = xstrdup(v);
		return (0);
	}
	if ((prof = config_profile_or_cause(cfg, name, cause)) == NULL)
		return (-1);
	if (prof->token_refusal != NULL) {
		*cause = xstrdup(prof->token_refusal);
		return (-1);
	}
	switch (prof->token_source) {
	case CONFIG_TOKEN_INLINE:
		*token = xstrdup(prof->token);
		return (0);
	case CONFIG_TOKEN_FILE:
		return (config_token_file(prof, token, cause));
	case CONFIG_TOKEN_COMMAND:
		return (config_token_command(prof, env, token, cause));
	default:
		break;
	}
	xasprintf(cause, "profile %s has no API token: set CLOUDFLARE_API_TOKEN,"
	    " or token_file, token_command or token under profiles.%s in %s",
	    prof->name, prof->name, cfg->file != NULL ? cfg->file :
	    "the config file");
	return (-1);
}

/* ---- state directory and help ----------------------------------------------- */

char *
config_state_dir(char *const *env, char **cause)
{
	struct stat	 sb;
	char		*dir, *p;

	dir = config_xdg(env, "XDG_STATE_HOME", ".local/state");
	/* Each missing parent too, as mkdir -p would, but private. */
	for (p = strchr(dir + 1, '/');; p = strchr(p + 1, '/')) {
		if (p != NULL)
			*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			xasprintf(cause, "cannot create %s: %s", dir,
			    strerror(errno));
			free(dir);
			return (NULL);
		}
		if (p == NULL)
			break;
		*p = '/';
	}
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		xasprintf(cause, "%s: not a directory", dir);
		free(dir);
		return (NULL);
	}
	return (dir);
}

static void
config_help_option(struct buf *b, const struct config_option *o,
    const char *prefix)
{
	char	*a, *c;
	int	 i;

	buf_addf(b, "%s%s (%s", prefix, o->name, config_type_name(o));
	if (o->type == CONFIG_ENUM) {
		buf_adds(b, ": ");
		for (i = 0; o->choices[i] != NULL; i++)
			buf_addf(b, "%s%s", i == 0 ? "" : ", ", o->choices[i]);
	}
	if (o->type == CONFIG_INT) {
		a = config_number(o, o->min);
		c = config_number(o, o->max);
		buf_addf(b, ", %s to %s", a, c);
		free(a);
		free(c);
		if (o->step != 0) {
			a = config_number(o, o->step);
			buf_addf(b, ", a multiple of %s", a);
			free(a);
		}
	}
	buf_addf(b, "; default %s)\n    %s\n", o->dflt != NULL ? o->dflt :
	    "none", o->help);
}

char *
config_help(void)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;

	for (i = 0; i < nitems(config_options); i++)
		config_help_option(&b, &config_options[i], "");
	for (i = 0; i < nitems(config_profile_options); i++)
		config_help_option(&b, &config_profile_options[i],
		    "profiles.NAME.");
	return (buf_detach(&b, NULL));
}
