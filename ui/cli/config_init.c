/*
 * config init: a first config file from a few questions (base URL,
 * account, zone, where the token comes from), asked on standard error and
 * answered on standard input. The token itself is never asked for: the
 * file names where it is. Written mode 0600, atomically, and never over an
 * existing file.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "config_options.h"
#include "configfile.h"
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
	    "anything\n"
	    "    # plan: pro          # free, pro, business or enterprise\n"
	    "\npreferences:\n"
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

int
cli_cmd_config_init(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	struct config_init	 ci;
	struct config		*check;
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
		config_free(check);
		goto out;
	}
	config_free(check);
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
	if (ci.source == CONFIG_INIT_ENV)
		printf("set CLOUDFLARE_API_TOKEN before running edgetui\n");
	rv = 0;
out:
	buf_free(&text);
	free(ci.base_url);
	free(ci.account);
	free(ci.zone);
	free(ci.where);
	free(path);
	return (rv);
}
