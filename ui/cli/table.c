/*
 * The table of one-shot commands: cli_run dispatches on it, and the
 * commands part of --help, the usage errors and the list given for an
 * unknown command are all generated from it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "http.h"
#include "kind.h"

#include "cli.h"

/* --help: summaries start at this column; lines end before the width. */
#define CLI_HELP_COLUMN		25
#define CLI_HELP_WIDTH		79

/*
 * The kinds each command takes (cli_refuses_cb): cli_run refuses the
 * others before anything else, and `completion` offers only these.
 */
/* Where a refusal sends the user. */
#define CLI_SEE_KINDS	" (see edgetui kinds)"

static const char *
cli_refuses_get(const struct kind *k)
{
	if ((k->verbs & (KIND_VERB_LIST | KIND_VERB_GET)) == 0)
		return ("cannot be listed or read" CLI_SEE_KINDS);
	return (NULL);
}

static const char *
cli_refuses_create(const struct kind *k)
{
	if ((k->verbs & KIND_VERB_CREATE) == 0)
		return ("cannot be created" CLI_SEE_KINDS);
	return (NULL);
}

/* update and edit */
static const char *
cli_refuses_update(const struct kind *k)
{
	if ((k->verbs & KIND_VERB_UPDATE) == 0 ||
	    k->update_method == KIND_METHOD_NONE)
		return ("cannot be updated" CLI_SEE_KINDS);
	return (NULL);
}

static const char *
cli_refuses_delete(const struct kind *k)
{
	if ((k->verbs & KIND_VERB_DELETE) == 0)
		return ("cannot be deleted" CLI_SEE_KINDS);
	return (NULL);
}

static const char *
cli_refuses_set(const struct kind *k)
{
	if ((k->verbs & KIND_VERB_SET) == 0 || k->set_field == NULL)
		return ("cannot be set: set is not one of its verbs"
		    CLI_SEE_KINDS);
	return (NULL);
}

static const char *
cli_refuses_clear(const struct kind *k)
{
	if ((k->verbs & KIND_VERB_CLEAR) == 0 || k->set_field == NULL)
		return ("cannot be cleared: clear is not one of its verbs"
		    CLI_SEE_KINDS);
	return (NULL);
}

/*
 * enable and disable send {"enabled": ...} alone by the kind's update
 * method; a rate limiting rule is PATCHed whole instead (rules.c).
 */
static const char *
cli_refuses_enable(const struct kind *k)
{
	const struct kind_field	*f = kind_field_find(k, "enabled");

	if (f == NULL || f->type != KIND_TYPE_BOOL ||
	    (f->flags & KIND_F_READONLY) || !(k->verbs & KIND_VERB_UPDATE))
		return ("has no enabled flag to change" CLI_SEE_KINDS);
	return (NULL);
}

const struct cli_command cli_commands[] = {
	{
		.name = "get",
		.synopsis = "get KIND [ID] [--limit N] [--filter NAME=VALUE]...",
		.summary = "list (every page, or --limit N) or show one record",
		.flags = CLI_OPT_LIMIT | CLI_OPT_FILTER,
		.min_args = 1,
		.max_args = 2,
		.refuses = cli_refuses_get,
		.run = cli_cmd_get
	},
	{
		.name = "create",
		.synopsis = "create KIND [-f FILE]",
		.summary = "YAML or JSON body ('-' = stdin); multipart kinds\n"
		    "take the file with -f and their fields as options:",
		.more_help = cli_create_help,
		.flags = CLI_OPT_FILE | CLI_OPT_NAME | CLI_OPT_FIELD,
		.mutates = 1,
		.min_args = 1,
		.max_args = 1,
		.refuses = cli_refuses_create,
		.run = cli_cmd_create
	},
	{
		.name = "update",
		.synopsis = "update KIND ID -f FILE",
		.summary = "with the method the API defines for that kind",
		.flags = CLI_OPT_FILE,
		.mutates = 1,
		.min_args = 1,
		.max_args = 2,
		.refuses = cli_refuses_update,
		.run = cli_cmd_update
	},
	{
		.name = "edit",
		.synopsis = "edit KIND ID [--yes]",
		.summary = "$EDITOR on the record as YAML; applies on save",
		.flags = CLI_OPT_YES,
		.mutates = 1,
		.min_args = 1,
		.max_args = 2,
		.refuses = cli_refuses_update,
		.run = cli_cmd_edit
	},
	{
		.name = "delete",
		.synopsis = "delete KIND ID...",
		.summary = "several ids use the bulk call where the API has one",
		.mutates = 1,
		.min_args = 1,
		.max_args = -1,
		.refuses = cli_refuses_delete,
		.run = cli_cmd_delete
	},
	{
		.name = "set",
		.synopsis = "set KIND ID... --action ACTION",
		.summary = "an operation's schema validation action (none, log,\n"
		    "block); several ids go in one bulk call",
		.flags = CLI_OPT_FIELD,
		.mutates = 1,
		.min_args = 1,
		.max_args = -1,
		.refuses = cli_refuses_set,
		.run = cli_cmd_set
	},
	{
		.name = "clear",
		.synopsis = "clear KIND ID...",
		.summary = "back to the zone's default; several ids in one call",
		.mutates = 1,
		.min_args = 1,
		.max_args = -1,
		.refuses = cli_refuses_clear,
		.run = cli_cmd_clear
	},
	{
		.name = "enable",
		.synopsis = "enable KIND ID...",
		.summary = "turn on (disable: off) a live input's outputs,\n"
		    "rate limiting rules (sent whole)",
		.mutates = 1,
		.min_args = 1,
		.max_args = -1,
		.refuses = cli_refuses_enable,
		.run = cli_cmd_enable
	},
	{
		.name = "disable",
		.synopsis = "disable KIND ID...",
		.summary = "stop sending to them, keeping them",
		.mutates = 1,
		.min_args = 1,
		.max_args = -1,
		.refuses = cli_refuses_enable,
		.run = cli_cmd_disable
	},
	{
		.name = "upload",
		.synopsis = "upload FILE|--from-url URL [--name N] [--creator C] "
		    "[--require-signed-urls] [--chunk-size BYTES] [--again]",
		.summary = "TUS upload; prints the video's uid; a re-run resumes\n"
		    "--chunk-size: 5 MiB..200 MiB, in 256 KiB steps\n"
		    "--from-url: the server fetches the video from URL\n"
		    "--again: a file uploaded before, once more",
		.flags = CLI_OPT_NAME | CLI_OPT_UPLOAD,
		.mutates = 1,
		.min_args = 0,
		.max_args = 1,
		.run = cli_cmd_upload
	},
	{
		.name = "download",
		.synopsis = "download VIDEO_ID [--type default|audio] [--wait] "
		    "[--delete]",
		.summary = "request the MP4 (or --type audio: M4A) download;\n"
		    "--wait polls until it is ready and prints its URL;\n"
		    "--delete removes it",
		.flags = CLI_OPT_WAIT | CLI_OPT_DOWNLOAD,
		.mutates = 1,
		.min_args = 0,
		.max_args = 1,
		.run = cli_cmd_download
	},
	{
		.name = "clip",
		.synopsis = "clip VIDEO_ID --start T --end T [--name N]",
		.summary = "a new video cut from a ready one; T in seconds or\n"
		    "[h:]m:s; prints the new video's uid",
		.flags = CLI_OPT_NAME | CLI_OPT_CLIP,
		.mutates = 1,
		.min_args = 1,
		.max_args = 1,
		.no_kind = 1,
		.run = cli_cmd_clip
	},
	{
		.name = "embed",
		.synopsis = "embed VIDEO_ID",
		.summary = "the HTML snippet that plays the video",
		.min_args = 1,
		.max_args = 1,
		.no_kind = 1,
		.run = cli_cmd_embed
	},
	{
		.name = "caption upload",
		.synopsis = "caption upload VIDEO_ID LANG FILE.vtt",
		.summary = "add or replace the captions in LANG (WebVTT, 10 MB)",
		.mutates = 1,
		.min_args = 3,
		.max_args = 3,
		.no_kind = 1,
		.run = cli_cmd_caption_upload
	},
	{
		.name = "caption generate",
		.synopsis = "caption generate VIDEO_ID LANG",
		.summary = "captions by speech recognition (the video must be\n"
		    "ready; cs de en es fr it ja ko nl pl pt ru)",
		.mutates = 1,
		.min_args = 2,
		.max_args = 2,
		.no_kind = 1,
		.run = cli_cmd_caption_generate
	},
	{
		.name = "caption vtt",
		.synopsis = "caption vtt VIDEO_ID LANG",
		.summary = "print the WebVTT text of the captions in LANG",
		.min_args = 2,
		.max_args = 2,
		.no_kind = 1,
		.run = cli_cmd_caption_vtt
	},
	{
		.name = "token",
		.synopsis = "token VIDEO_ID [--key-id ID --pem FILE] "
		    "[--expires 1h] [--downloadable] [--allow-ip CIDR]... "
		    "[--block-country CC]...",
		.summary = "a signed-URL token and the URLs it opens; signed\n"
		    "locally with --pem, the remembered key --key-id\n"
		    "names or the only one of this server and account,\n"
		    "else by the server",
		.flags = CLI_OPT_TOKEN,
		.min_args = 1,
		.max_args = 1,
		.no_kind = 1,
		.run = cli_cmd_token
	},
	{
		.name = "migrate",
		.synopsis = "migrate rate-limits [ID...] [--plan P] [--apply] "
		    "[--disable-legacy]",
		.summary = "legacy rate limits as rate limiting rules (YAML,\n"
		    "warnings as comments); --apply adds them to the entry\n"
		    "point, --disable-legacy then disables the legacy ones",
		.flags = CLI_OPT_PLAN | CLI_OPT_MIGRATE,
		.min_args = 1,
		.max_args = -1,
		.run = cli_cmd_migrate
	},
	{
		.name = "expr check",
		.synopsis = "expr check EXPR [--plan P] [--counting]",
		.summary = "check a rules expression; exit 2 with the line\n"
		    "and column when refused, warnings (exit 0) for what\n"
		    "never matches; --plan free, pro, business or\n"
		    "enterprise (default: the profile's plan)",
		.flags = CLI_OPT_PLAN,
		.min_args = 1,
		.max_args = 1,
		.no_kind = 1,
		.run = cli_cmd_expr_check
	},
	{
		.name = "expr fmt",
		.synopsis = "expr fmt EXPR",
		.summary = "the expression's canonical text",
		.min_args = 1,
		.max_args = 1,
		.no_kind = 1,
		.run = cli_cmd_expr_fmt
	},
	{
		.name = "expr eval",
		.synopsis = "expr eval EXPR --request 'METHOD URL' [--ip IP] "
		    "[-H 'Name: value']... [--country CC] [--status CODE] "
		    "[--counting] [--explain]",
		.summary = "true or false for that request (unknown when it\n"
		    "depends on a list, which is not read); --explain\n"
		    "shows each comparison's value",
		.flags = CLI_OPT_PLAN | CLI_OPT_REQUEST | CLI_OPT_STATUS |
		    CLI_OPT_EXPLAIN,
		.min_args = 1,
		.max_args = 1,
		.no_kind = 1,
		.run = cli_cmd_expr_eval
	},
	{
		.name = "rules test",
		.synopsis = "rules test --request 'METHOD URL' [--ip IP] "
		    "[-H 'Name: value']... [--country CC] [--status CODE]",
		.summary = "each rate limiting rule's verdict on that request,\n"
		    "in order: every matching rule counts it, and the first\n"
		    "that blocks or challenges acts once over its rate;\n"
		    "--status gives counting expressions the response;\n"
		    "changes nothing",
		.flags = CLI_OPT_REQUEST | CLI_OPT_STATUS,
		.min_args = 0,
		.max_args = 0,
		.run = cli_cmd_rules_test
	},
	{
		.name = "rules simulate",
		.synopsis = "rules simulate --log FILE [--format logpush|combined] "
		    "[--rules FILE] [--host H] [--scheme S]",
		.summary = "what the zone's rate limiting rules (or --rules FILE)\n"
		    "would have done to an access log ('-' = stdin)",
		.flags = CLI_OPT_SIMULATE,
		.min_args = 0,
		.max_args = 0,
		.run = cli_cmd_rules_simulate
	},
	{
		.name = "completion",
		.synopsis = "completion bash|zsh",
		.summary = "the shell completion script, for bash or zsh",
		.min_args = 1,
		.max_args = 1,
		.no_kind = 1,
		.no_setup = 1,
		.run = cli_cmd_completion
	},
	{
		.name = "config init",
		.synopsis = "config init [--profile NAME]",
		.summary = "ask for the settings and write a first config file",
		.min_args = 0,
		.max_args = 0,
		.no_setup = 1,
		.run = cli_cmd_config_init
	},
	{
		.name = "__complete",
		.synopsis = "__complete profiles|themes",
		.summary = "names for the completion script",
		.min_args = 1,
		.max_args = 1,
		.no_kind = 1,
		.no_setup = 1,
		.hidden = 1,
		.run = cli_cmd_complete
	},
	{
		.name = "kinds",
		.synopsis = "kinds",
		.summary = "every KIND, its aliases and verbs",
		.min_args = 0,
		.max_args = 0,
		.run = cli_cmd_kinds
	},
};
const size_t cli_ncommands = nitems(cli_commands);

const struct cli_command *
cli_command_find(const char *name)
{
	size_t	i;

	for (i = 0; i < nitems(cli_commands); i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return (&cli_commands[i]);
	return (NULL);
}

/* Whether the command's name is group and a second word ("expr check"). */
static int
cli_in_group(const struct cli_command *cmd, const char *group)
{
	size_t	n = strlen(group);

	return (strncmp(cmd->name, group, n) == 0 && cmd->name[n] == ' ');
}

/*
 * The command argv starts with: its one word, or two ("rules test",
 * given as two arguments or as one); *words says how many arguments it
 * took. NULL when there is none.
 */
const struct cli_command *
cli_command_lookup(int argc, char **argv, int *words)
{
	const struct cli_command	*cmd;
	size_t				 i;

	*words = 1;
	if ((cmd = cli_command_find(argv[0])) != NULL)
		return (cmd);
	for (i = 0; argc > 1 && i < nitems(cli_commands); i++) {
		cmd = &cli_commands[i];
		if (cli_in_group(cmd, argv[0]) &&
		    strcmp(cmd->name + strlen(argv[0]) + 1, argv[1]) == 0) {
			*words = 2;
			return (cmd);
		}
	}
	return (NULL);
}

/* "expr check, expr fmt, expr eval" for a group that lacks word. */
int
cli_unknown_subcommand(const char *group, const char *word)
{
	struct buf	names = BUF_INITIALIZER;
	size_t		i;
	int		rv;

	for (i = 0; i < nitems(cli_commands); i++)
		if (cli_in_group(&cli_commands[i], group))
			buf_addf(&names, "%s%s", names.len != 0 ? ", " : "",
			    cli_commands[i].name);
	if (word == NULL)
		rv = cli_usage_error("%s: which one? (%s)", group,
		    buf_str(&names));
	else
		rv = cli_usage_error("%s: unknown command '%s' (%s)", group,
		    word, buf_str(&names));
	buf_free(&names);
	return (rv);
}

int
cli_is_command(const char *name)
{
	size_t	i;

	if (cli_command_find(name) != NULL)
		return (1);
	for (i = 0; i < nitems(cli_commands); i++)
		if (cli_in_group(&cli_commands[i], name))
			return (1);
	return (0);
}

int
cli_unknown_command(const char *name)
{
	struct buf	names = BUF_INITIALIZER;
	size_t		i;
	int		rv;

	for (i = 0; i < nitems(cli_commands); i++) {
		if (cli_commands[i].hidden)
			continue;
		if (names.len != 0)
			buf_addc(&names, ' ');
		buf_adds(&names, cli_commands[i].name);
	}
	rv = cli_usage_error("unknown command '%s' (commands: %s)", name,
	    buf_str(&names));
	buf_free(&names);
	return (rv);
}

/*
 * The words of text from column *col, wrapped before CLI_HELP_WIDTH to
 * column indent. A bracketed group ("[--name N]") is one word.
 */
static void
cli_help_words(FILE *fp, const char *text, size_t len, int indent, int *col)
{
	const char	*w, *end = text + len;
	int		 depth, n, first = 1;

	for (w = text; w < end; ) {
		while (w < end && *w == ' ')
			w++;
		if (w == end)
			break;
		for (n = 0, depth = 0; w + n < end; n++) {
			if (w[n] == ' ' && depth == 0)
				break;
			if (w[n] == '[')
				depth++;
			else if (w[n] == ']' && depth > 0)
				depth--;
		}
		if (!first && *col + 1 + n > CLI_HELP_WIDTH) {
			*col = fprintf(fp, "\n%*s", indent, "") - 1;
			first = 1;
		}
		*col += fprintf(fp, "%s%.*s", first ? "" : " ", n, w);
		first = 0;
		w += n;
	}
}

/* The summary's lines from CLI_HELP_COLUMN, the first at *col. */
static void
cli_help_lines(FILE *fp, const char *text, int *col)
{
	const char	*nl;
	size_t		 len;

	while (*text != '\0') {
		if (*col >= CLI_HELP_COLUMN) {
			fputc('\n', fp);
			*col = 0;
		}
		*col += fprintf(fp, "%*s", CLI_HELP_COLUMN - *col, "");
		nl = strchr(text, '\n');
		len = nl != NULL ? (size_t)(nl - text) : strlen(text);
		cli_help_words(fp, text, len, CLI_HELP_COLUMN + 2, col);
		text += len;
		if (*text == '\n')
			text++;
	}
}

void
cli_usage_commands(FILE *fp)
{
	const struct cli_command	*cmd;
	struct buf			 more = BUF_INITIALIZER;
	size_t				 i;
	int				 col;

	fputs("Commands:\n", fp);
	for (i = 0; i < nitems(cli_commands); i++) {
		cmd = &cli_commands[i];
		if (cmd->hidden)
			continue;
		col = fprintf(fp, "  ");
		cli_help_words(fp, cmd->synopsis, strlen(cmd->synopsis), 6,
		    &col);
		cli_help_lines(fp, cmd->summary, &col);
		if (cmd->more_help != NULL) {
			buf_reset(&more);
			cmd->more_help(&more);
			cli_help_lines(fp, buf_str(&more), &col);
		}
		fputc('\n', fp);
	}
	buf_free(&more);
}
