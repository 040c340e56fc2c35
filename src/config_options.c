/*
 * The typed option engine: one table per level (the top of the file and
 * each entry under profiles:) drives parsing, validation, defaults and the
 * help text. Defaults are written as they would be in the file and parsed
 * by the same code, and an option's type, not YAML's guess, decides how a
 * scalar reads: an all-digit account id is text, not a number too big for
 * a double.
 */
#include "config.h"

#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "config_env.h"
#include "config_options.h"
#include "configfile.h"
#include "credentials.h"
#include "log.h"
#include "xmalloc.h"

/* How much of a user's value or key a message quotes. */
#define CONFIG_EXCERPT		40

#define CONFIG_KIB		1024LL
#define CONFIG_MIB		(1024LL * 1024)

static const char *const config_output_choices[] = {
	"table", "json", "yaml", NULL
};
static const char *const config_confirm_quit_choices[] = {
	"always", "transfers", "never", NULL
};
/* In the order of enum expr_plan: the index is the plan. */
static const char *const config_plan_choices[] = {
	"any", "free", "pro", "business", "enterprise", NULL
};

/* Everything outside profiles:; a dot names a section. */
const struct config_option config_options[] = {
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
	  .offset = offsetof(struct config, prefs.poll_interval), .dflt = "5",
	  .min = 1, .max = 3600,
	  .help = "the console's longest wait between polls of a video that"
	  " is processing or a download being prepared" },
	{ .name = "preferences.list_refresh", .type = CONFIG_INT,
	  .offset = offsetof(struct config, prefs.list_refresh), .dflt = "5",
	  .min = 1, .max = 3600,
	  .help = "seconds between fetches of a list showing videos in"
	  " processing" },
	{ .name = "preferences.confirm_quit", .type = CONFIG_ENUM,
	  .offset = offsetof(struct config, prefs.confirm_quit),
	  .dflt = "transfers", .choices = config_confirm_quit_choices,
	  .help = "ask before the console quits: always, while transfers"
	  " run, never" },
};

/* The keys of one entry under profiles:. */
const struct config_option config_options_profile[] = {
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
	{ .name = "plan", .type = CONFIG_ENUM,
	  .offset = offsetof(struct config_profile, plan), .dflt = "any",
	  .choices = config_plan_choices,
	  .help = "the zone's plan, whose limits rate limiting rules are"
	  " checked against before they are sent" },
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
_Static_assert(nitems(config_options) == CONFIG_NOPTIONS,
    "CONFIG_NOPTIONS is not the size of config_options");
_Static_assert(nitems(config_options_profile) == CONFIG_NPROFILE_OPTIONS,
    "CONFIG_NPROFILE_OPTIONS is not the size of config_options_profile");

/* A short, printable excerpt of text for a message, in double quotes. */
char *
config_options_quote(const char *text, size_t len)
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

/* ---- values --------------------------------------------------------------- */

const char *
config_options_type_name(const struct config_option *o)
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
	q = config_options_quote(s, len);
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
	q = config_options_quote(s, len);
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
	q = config_options_quote(s, len);
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

int
config_options_check_name(const char *s, size_t len)
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
		if ((home = config_env_home(env)) == NULL) {
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
		if (!credentials_token_chars(s, len)) {
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
	q = config_options_quote(s, len);
	switch (o->type) {
	case CONFIG_NAME:
		if (!config_options_check_name(s, len)) {
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
int
config_options_value(const struct config_option *o, void *base, const char *s,
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

void
config_options_defaults(const struct config_option *table, size_t n, void *base)
{
	char	*why = NULL;
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (table[i].dflt == NULL)
			continue;
		if (config_options_value(&table[i], base, table[i].dflt,
		    strlen(table[i].dflt), 1, NULL, NULL, &why) != 0)
			fatalx("config: default of %s: %s", table[i].name, why);
	}
}

void
config_options_free_fields(const struct config_option *table, size_t n,
    void *base)
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

const struct config_option *
config_options_find(const struct config_option *table, size_t n,
    const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (strcmp(table[i].name, name) == 0)
			return (&table[i]);
	}
	return (NULL);
}

/* ---- help ----------------------------------------------- */

static void
config_help_option(struct buf *b, const struct config_option *o,
    const char *prefix)
{
	char	*a, *c;
	int	 i;

	buf_addf(b, "%s%s (%s", prefix, o->name, config_options_type_name(o));
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
	for (i = 0; i < nitems(config_options_profile); i++)
		config_help_option(&b, &config_options_profile[i],
		    "profiles.NAME.");
	return (buf_detach(&b, NULL));
}
