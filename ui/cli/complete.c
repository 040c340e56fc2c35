/*
 * completion bash|zsh: a shell completion script generated from the
 * command table, the kind table, main.c's options and the config options'
 * choices, so it cannot drift from them; and the hidden __complete, which
 * the script calls for what only the user's files know (profiles, themes).
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accesslog.h"
#include "buf.h"
#include "config_options.h"
#include "configfile.h"
#include "expr.h"
#include "kind.h"
#include "streamrules.h"
#include "streamx.h"
#include "xmalloc.h"

#include "cli.h"

/*
 * The long options each CLI_OPT_* bit stands for (main.c sets the bit);
 * an option of main.c in none of them is one every command takes.
 */
const struct cli_complete_group cli_complete_groups[] = {
	{ CLI_OPT_FILE,		"file" },
	{ CLI_OPT_LIMIT,	"limit" },
	{ CLI_OPT_FILTER,	"filter" },
	{ CLI_OPT_NAME,		"name" },
	{ CLI_OPT_FIELD,	"opacity padding scale position validation "
				"enable action" },
	{ CLI_OPT_YES,		"yes" },
	{ CLI_OPT_UPLOAD,	"creator require-signed-urls chunk-size from-url "
	    "again" },
	{ CLI_OPT_WAIT,		"wait" },
	{ CLI_OPT_MIGRATE,	"apply disable-legacy" },
	{ CLI_OPT_PLAN,		"plan counting" },
	{ CLI_OPT_REQUEST,	"request ip header country" },
	{ CLI_OPT_STATUS,	"status" },
	{ CLI_OPT_EXPLAIN,	"explain" },
	{ CLI_OPT_SIMULATE,	"log format rules host scheme" },
	{ CLI_OPT_CLIP,		"start end" },
	{ CLI_OPT_DOWNLOAD,	"type delete" },
	{ CLI_OPT_TOKEN,	"key-id pem expires downloadable allow-ip "
				"block-country" },
};
const size_t cli_complete_ngroups = nitems(cli_complete_groups);

/* rules simulate --format: those accesslog_format_parse takes. */
static const char *const cli_complete_formats[] = { "logpush", "combined" };

/* Options whose value is a file name. */
static const char *const cli_complete_file_options[] = {
	"config", "file", "log", "rules", "pem"
};

/* Whether word is one of the spaced words of list. */
static int
cli_complete_in(const char *list, const char *word)
{
	size_t	n = strlen(word);

	while (*list != '\0') {
		if (strncmp(list, word, n) == 0 &&
		    (list[n] == ' ' || list[n] == '\0'))
			return (1);
		list += strcspn(list, " ");
		list += strspn(list, " ");
	}
	return (0);
}

/* The CLI_OPT_* bit of a long option; 0: every command takes it. */
static unsigned
cli_complete_bit(const char *name)
{
	size_t	i;

	for (i = 0; i < nitems(cli_complete_groups); i++)
		if (cli_complete_in(cli_complete_groups[i].names, name))
			return (cli_complete_groups[i].flag);
	return (0);
}

static int
cli_complete_is_file(const char *name)
{
	size_t	i;

	for (i = 0; i < nitems(cli_complete_file_options); i++)
		if (strcmp(cli_complete_file_options[i], name) == 0)
			return (1);
	return (0);
}

/* "-p --profile" (sep ' ') or "-p|--profile": the option's spellings. */
static void
cli_complete_spell(struct buf *b, const struct option *opt, char sep)
{
	if (opt->val > 0 && opt->val < 128 && isalpha(opt->val)) {
		if (b->len != 0)
			buf_addc(b, sep);
		buf_addf(b, "-%c", opt->val);
	}
	if (b->len != 0)
		buf_addc(b, sep);
	buf_addf(b, "--%s", opt->name);
}

/* The options every command takes (global), or those of mask's bits. */
static void
cli_complete_options(struct buf *b, const struct option *opts, int global,
    unsigned mask)
{
	unsigned	bit;

	for (; opts != NULL && opts->name != NULL; opts++) {
		bit = cli_complete_bit(opts->name);
		if (global ? bit == 0 : (bit & mask) != 0)
			cli_complete_spell(b, opts, ' ');
	}
}

/* The words of a NULL-terminated choices array, spaced. */
static void
cli_complete_choices(struct buf *b, const struct config_option *table,
    size_t n, const char *name)
{
	const struct config_option	*o;
	size_t				 i;

	if ((o = config_options_find(table, n, name)) == NULL ||
	    o->choices == NULL)
		return;
	for (i = 0; o->choices[i] != NULL; i++)
		buf_addf(b, "%s%s", i != 0 ? " " : "", o->choices[i]);
}

/* The case arms of _edgetui_valued and _edgetui_values. */
static void
cli_complete_values(FILE *fp, const struct option *opts)
{
	struct buf	b = BUF_INITIALIZER;

	fputs("_edgetui_valued()\t# whether option $1 takes a value\n{\n"
	    "\tcase $1 in\n", fp);
	for (; opts != NULL && opts->name != NULL; opts++) {
		if (opts->has_arg != required_argument)
			continue;
		buf_reset(&b);
		cli_complete_spell(&b, opts, '|');
		fprintf(fp, "\t%s) return 0 ;;\n", buf_str(&b));
	}
	fputs("\tesac\n\treturn 1\n}\n\n", fp);
	buf_free(&b);
}

static void
cli_complete_value_lists(FILE *fp, const struct option *opts)
{
	struct buf		b = BUF_INITIALIZER;
	enum expr_plan		plan;
	enum accesslog_format	fmt;
	size_t			i;

	fputs("_edgetui_values()\t# the values of option $1 (@files: file "
	    "names)\n{\n\tcase $1 in\n"
	    "\t-p|--profile) _edgetui_call profiles ;;\n"
	    "\t--theme) _edgetui_call themes ;;\n", fp);
	cli_complete_choices(&b, config_options, CONFIG_NOPTIONS,
	    "preferences.output");
	fprintf(fp, "\t-o|--output) echo '%s' ;;\n", buf_str(&b));
	/* What expr_plan_parse takes: the plans, not "any". */
	buf_reset(&b);
	for (plan = EXPR_PLAN_FREE; plan <= EXPR_PLAN_ENTERPRISE; plan++)
		buf_addf(&b, "%s%s", b.len != 0 ? " " : "",
		    expr_plan_name(plan));
	fprintf(fp, "\t--plan) echo '%s' ;;\n", buf_str(&b));
	buf_reset(&b);
	for (i = 0; i < nitems(cli_complete_formats); i++)
		if (accesslog_format_parse(cli_complete_formats[i], &fmt) == 0)
			buf_addf(&b, "%s%s", b.len != 0 ? " " : "",
			    cli_complete_formats[i]);
	fprintf(fp, "\t--format) echo '%s' ;;\n", buf_str(&b));
	buf_reset(&b);
	for (i = 0; streamrules_download_types[i] != NULL; i++)
		buf_addf(&b, "%s%s", i != 0 ? " " : "",
		    streamrules_download_types[i]);
	fprintf(fp, "\t--type) echo '%s' ;;\n", buf_str(&b));
	for (; opts != NULL && opts->name != NULL; opts++) {
		if (!cli_complete_is_file(opts->name))
			continue;
		buf_reset(&b);
		cli_complete_spell(&b, opts, '|');
		fprintf(fp, "\t%s) echo @files ;;\n", buf_str(&b));
	}
	fputs("\tesac\n}\n\n", fp);
	buf_free(&b);
}

/* The commands' first words, each once, and each group's second words. */
static void
cli_complete_commands(FILE *fp)
{
	struct buf	 first = BUF_INITIALIZER, word = BUF_INITIALIZER;
	const char	*name;
	size_t		 i, j, len;

	for (i = 0; i < cli_ncommands; i++) {
		if (cli_commands[i].hidden)
			continue;
		name = cli_commands[i].name;
		len = strcspn(name, " ");
		buf_reset(&word);
		buf_add(&word, name, len);
		if (!cli_complete_in(buf_str(&first), buf_str(&word)))
			buf_addf(&first, "%s%s", first.len != 0 ? " " : "",
			    buf_str(&word));
	}
	fprintf(fp, "_edgetui_commands='%s'\n\n", buf_str(&first));
	fputs("_edgetui_group()\t# the second words of command group $1\n"
	    "{\n\tcase $1 in\n", fp);
	for (i = 0; i < cli_ncommands; i++) {
		name = cli_commands[i].name;
		len = strcspn(name, " ");
		if (cli_commands[i].hidden || name[len] != ' ')
			continue;
		/* Once per group: at its first command. */
		for (j = 0; j < i; j++)
			if (strncmp(cli_commands[j].name, name, len + 1) == 0)
				break;
		if (j < i)
			continue;
		fprintf(fp, "\t%.*s) echo '", (int)len, name);
		for (j = i; j < cli_ncommands; j++)
			if (!cli_commands[j].hidden &&
			    strncmp(cli_commands[j].name, name, len + 1) == 0)
				fprintf(fp, "%s%s", j != i ? " " : "",
				    cli_commands[j].name + len + 1);
		fputs("' ;;\n", fp);
	}
	fputs("\t*) return 1 ;;\n\tesac\n}\n\n", fp);
	buf_free(&first);
	buf_free(&word);
}

/* Every kind, spaced, and every alias. */
static void
cli_complete_kinds(FILE *fp)
{
	const struct kind *const	*all;
	const char			*sep;
	size_t				 n, i;

	all = kind_all(&n);
	fputs("_edgetui_kinds='", fp);
	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s", i != 0 ? " " : "", all[i]->name);
	fputs("'\n_edgetui_aliases='", fp);
	for (i = 0, sep = ""; i < n; i++) {
		if (all[i]->aliases != NULL && *all[i]->aliases != '\0') {
			fprintf(fp, "%s%s", sep, all[i]->aliases);
			sep = " ";
		}
	}
	fputs("'\n\n", fp);
}

/*
 * "_edgetui_kind 'KINDS' 'ALIASES'": the kinds the command takes (its
 * refuses hook, which cli_run checks too) and their aliases.
 */
static void
cli_complete_taken(FILE *fp, const struct cli_command *cmd)
{
	const struct kind *const	*all;
	struct buf			 kinds = BUF_INITIALIZER;
	struct buf			 aliases = BUF_INITIALIZER;
	size_t				 n, i;

	if (cmd->refuses == NULL) {
		fprintf(fp, "\t'%s') _edgetui_kind \"$_edgetui_kinds\" "
		    "\"$_edgetui_aliases\" ;;\n", cmd->name);
		return;
	}
	all = kind_all(&n);
	for (i = 0; i < n; i++) {
		if (cmd->refuses(all[i]) != NULL)
			continue;
		buf_addf(&kinds, "%s%s", kinds.len != 0 ? " " : "",
		    all[i]->name);
		if (all[i]->aliases != NULL && *all[i]->aliases != '\0')
			buf_addf(&aliases, "%s%s", aliases.len != 0 ? " " : "",
			    all[i]->aliases);
	}
	fprintf(fp, "\t'%s') _edgetui_kind '%s' '%s' ;;\n", cmd->name,
	    buf_str(&kinds), buf_str(&aliases));
	buf_free(&kinds);
	buf_free(&aliases);
}

/*
 * What a command's first argument completes to, from its synopsis: a
 * literal word there ("migrate rate-limits", "completion bash|zsh") is
 * offered as written, a KIND gives the kinds the command takes, a FILE
 * file names; ids and expressions nothing.
 */
static void
cli_complete_first_arg(FILE *fp, const struct cli_command *cmd)
{
	const char	*s = cmd->synopsis + strlen(cmd->name);
	size_t		 len, i;

	s += strspn(s, " ");
	len = strcspn(s, " ");
	if (len > 0 && islower((unsigned char)*s)) {
		fprintf(fp, "\t'%s') echo '", cmd->name);
		for (i = 0; i < len; i++)
			fputc(s[i] == '|' ? ' ' : s[i], fp);
		fputs("' ;;\n", fp);
	} else if (cmd->min_args > 0 && !cmd->no_kind)
		cli_complete_taken(fp, cmd);
	else if (len >= 4 && strncmp(s, "FILE", 4) == 0)
		fprintf(fp, "\t'%s') echo @files ;;\n", cmd->name);
}

static void
cli_complete_per_command(FILE *fp, const struct option *opts)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;

	fputs("_edgetui_flags()\t# the options of command $1\n{\n"
	    "\tcase $1 in\n", fp);
	for (i = 0; i < cli_ncommands; i++) {
		if (cli_commands[i].hidden || cli_commands[i].flags == 0)
			continue;
		buf_reset(&b);
		cli_complete_options(&b, opts, 0, cli_commands[i].flags);
		fprintf(fp, "\t'%s') echo '%s' ;;\n", cli_commands[i].name,
		    buf_str(&b));
	}
	fputs("\tesac\n}\n\n", fp);
	fputs("_edgetui_arg()\t# what the first argument of command $1 is\n"
	    "{\n\tcase $1 in\n", fp);
	for (i = 0; i < cli_ncommands; i++)
		if (!cli_commands[i].hidden)
			cli_complete_first_arg(fp, &cli_commands[i]);
	fputs("\tesac\n}\n\n", fp);
	buf_free(&b);
}

/* The part both shells run: sh that bash and zsh read alike. */
static const char cli_complete_core[] =
"_edgetui_call()\t# the program's own list: profiles or themes\n"
"{\n"
"\tcase $prog in\n"
"\t'~/'*) prog=$HOME/${prog#'~/'} ;;\n"
"\tesac\n"
"\tcase $cfg in\n"
"\t'~/'*) cfg=$HOME/${cfg#'~/'} ;;\n"
"\tesac\n"
"\tif [ -n \"$cfg\" ]; then\n"
"\t\t\"$prog\" --config \"$cfg\" __complete \"$1\" 2>/dev/null\n"
"\telse\n"
"\t\t\"$prog\" __complete \"$1\" 2>/dev/null\n"
"\tfi\n"
"}\n"
"\n"
"# _edgetui_kind KINDS ALIASES: the kinds when one starts with $cur, else\n"
"# the aliases.\n"
"_edgetui_kind()\n"
"{\n"
"\tcase \" $1\" in\n"
"\t*\" $cur\"*) echo \"$1\" ;;\n"
"\t*) echo \"$2\" ;;\n"
"\tesac\n"
"}\n"
"\n"
"# _edgetui_candidates CURRENT PROGRAM WORDS...: the words CURRENT may\n"
"# become, spaced (@files: a file name), given the words before it.\n"
"_edgetui_candidates()\n"
"{\n"
"\tlocal cur=$1 prog=$2 w cmd= nargs=0 cfg= want=\n"
"\tshift 2\n"
"\tfor w in \"$@\"; do\n"
"\t\tif [ -n \"$want\" ]; then\n"
"\t\t\t[ \"$want\" = --config ] && cfg=$w\n"
"\t\t\twant=\n"
"\t\t\tcontinue\n"
"\t\tfi\n"
"\t\tcase $w in\n"
"\t\t--*=*) ;;\n"
"\t\t-*) _edgetui_valued \"$w\" && want=$w ;;\n"
"\t\t*)\n"
"\t\t\tif [ -z \"$cmd\" ]; then\n"
"\t\t\t\tcmd=$w\n"
"\t\t\telif [ \"$nargs\" = 0 ] && [ \"$cmd\" = \"${cmd% *}\" ] &&\n"
"\t\t\t    _edgetui_group \"$cmd\" >/dev/null; then\n"
"\t\t\t\tcmd=\"$cmd $w\"\n"
"\t\t\telse\n"
"\t\t\t\tnargs=$((nargs + 1))\n"
"\t\t\tfi\n"
"\t\t\t;;\n"
"\t\tesac\n"
"\tdone\n"
"\tif [ -n \"$want\" ]; then\n"
"\t\t_edgetui_values \"$want\"\n"
"\t\treturn\n"
"\tfi\n"
"\tcase $cur in\n"
"\t-*)\n"
"\t\techo \"$_edgetui_options\"\n"
"\t\t_edgetui_flags \"$cmd\"\n"
"\t\treturn\n"
"\t\t;;\n"
"\tesac\n"
"\tif [ -z \"$cmd\" ]; then\n"
"\t\techo \"$_edgetui_commands\"\n"
"\telif [ \"$cmd\" = \"${cmd% *}\" ] && _edgetui_group \"$cmd\"; then\n"
"\t\t:\n"
"\telif [ \"$nargs\" = 0 ]; then\n"
"\t\t_edgetui_arg \"$cmd\"\n"
"\tfi\n"
"}\n"
"\n";

static const char cli_complete_bash[] =
"_edgetui()\n"
"{\n"
"\tlocal cur=${COMP_WORDS[COMP_CWORD]} out\n"
"\tout=$(_edgetui_candidates \"$cur\" \"${COMP_WORDS[0]}\" \\\n"
"\t    \"${COMP_WORDS[@]:1:COMP_CWORD-1}\")\n"
"\tif [ \"$out\" = @files ]; then\n"
"\t\tcompopt -o filenames 2>/dev/null\n"
"\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
"\telse\n"
"\t\tCOMPREPLY=($(compgen -W \"$out\" -- \"$cur\"))\n"
"\tfi\n"
"}\n"
"complete -F _edgetui edgetui\n";

static const char cli_complete_zsh[] =
"_edgetui()\n"
"{\n"
"\tlocal out\n"
"\tout=$(_edgetui_candidates \"${words[CURRENT]}\" \"${words[1]}\" \\\n"
"\t    \"${(@)words[2,CURRENT-1]}\")\n"
"\tif [ \"$out\" = @files ]; then\n"
"\t\t_files\n"
"\telse\n"
"\t\tcompadd -- ${=out}\n"
"\tfi\n"
"}\n"
"\n"
"# Autoloaded from fpath, the file is _edgetui's body: run it; sourced,\n"
"# register it.\n"
"if [ \"${funcstack[1]:-}\" = _edgetui ]; then\n"
"\t_edgetui \"$@\"\n"
"else\n"
"\tcompdef _edgetui edgetui\n"
"fi\n";

void
cli_complete_script(FILE *fp, const struct option *opts, int zsh)
{
	struct buf	b = BUF_INITIALIZER;

	if (zsh)
		fputs("#compdef edgetui\n", fp);
	fprintf(fp, "# %s completion for edgetui %s, generated by `edgetui "
	    "completion %s`\n# from its command and kind tables: "
	    "regenerate it rather than edit it.\n\n", zsh ? "zsh" : "bash",
	    PACKAGE_VERSION, zsh ? "zsh" : "bash");
	cli_complete_commands(fp);
	cli_complete_kinds(fp);
	cli_complete_options(&b, opts, 1, 0);
	fprintf(fp, "_edgetui_options='%s'\n\n", buf_str(&b));
	cli_complete_values(fp, opts);
	cli_complete_value_lists(fp, opts);
	cli_complete_per_command(fp, opts);
	fputs(cli_complete_core, fp);
	fputs(zsh ? cli_complete_zsh : cli_complete_bash, fp);
	buf_free(&b);
}

int
cli_cmd_completion(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	(void)unused_k;
	(void)argc;
	if (strcmp(argv[1], "bash") != 0 && strcmp(argv[1], "zsh") != 0)
		return (cli_usage_error("completion: '%s' is not bash or zsh",
		    argv[1]));
	cli_complete_script(stdout, c->o->options, strcmp(argv[1], "zsh") ==
	    0);
	return (fflush(stdout) == 0 ? 0 : HTTP_EXIT_USAGE);
}

static int
cli_complete_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* The themes: built in, the user's and the installed ones, each once. */
static void
cli_complete_themes(void)
{
	const char	*xdg, *home, *dirs[3];
	char		*user = NULL, **names = NULL, *dot;
	size_t		 n = 0, i, d = 0;
	struct dirent	*de;
	DIR		*dp;

	if ((xdg = getenv("XDG_CONFIG_HOME")) != NULL && *xdg != '\0')
		user = xprintf("%s/edgetui/themes", xdg);
	else if ((home = getenv("HOME")) != NULL && *home != '\0')
		user = xprintf("%s/.config/edgetui/themes", home);
	if (user != NULL)
		dirs[d++] = user;
	/* Where the console looks (ui/tui.c): installed, else the sources. */
#ifdef THEMES_DIR
	dirs[d++] = THEMES_DIR;
#endif
#ifdef THEMES_SRCDIR
	dirs[d++] = THEMES_SRCDIR;
#endif
	names = xreallocarray(names, n + 1, sizeof *names);
	names[n++] = xstrdup("default");
	for (i = 0; i < d; i++) {
		if ((dp = opendir(dirs[i])) == NULL)
			continue;
		while ((de = readdir(dp)) != NULL) {
			if ((dot = strrchr(de->d_name, '.')) == NULL ||
			    strcmp(dot, ".yaml") != 0 || dot == de->d_name ||
			    !config_options_check_name(de->d_name,
			    (size_t)(dot - de->d_name)))
				continue;
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = xstrndup(de->d_name,
			    (size_t)(dot - de->d_name));
		}
		closedir(dp);
	}
	qsort(names, n, sizeof *names, cli_complete_cmp);
	for (i = 0; i < n; i++) {
		if (i == 0 || strcmp(names[i], names[i - 1]) != 0)
			puts(names[i]);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(user);
}

/*
 * __complete profiles|themes: one name a line, for the completion script.
 * Quiet: a config file with problems still gives the profiles it has.
 */
int
cli_cmd_complete(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	struct config	*cfg;
	char		*cause = NULL;
	size_t		 i;

	(void)unused_k;
	(void)argc;
	if (strcmp(argv[1], "themes") == 0) {
		cli_complete_themes();
		return (0);
	}
	if (strcmp(argv[1], "profiles") != 0)
		return (cli_usage_error("__complete: '%s' is not profiles or "
		    "themes", argv[1]));
	if ((cfg = config_load(c->o->config, NULL, &cause)) == NULL) {
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	for (i = 0; i < cfg->nprofiles; i++)
		puts(cfg->profiles[i].name);
	config_free(cfg);
	return (0);
}
