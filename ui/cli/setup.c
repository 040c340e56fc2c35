/*
 * What every command shares before it talks to the server: the config file,
 * the settings and the client, the error messages, and cli_run, which
 * checks a command's arguments against its table entry and runs it.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "configfile.h"
#include "http.h"
#include "journal.h"
#include "log.h"
#include "xmalloc.h"

#include "cli.h"

int
cli_usage_error(const char *fmt, ...)
{
	va_list	ap;

	fputs("edgetui: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'edgetui --help' for more information.\n", stderr);
	return (HTTP_EXIT_USAGE);
}

int
cli_error(int status, const char *fmt, ...)
{
	va_list	ap;

	fputs("edgetui: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return (status);
}

static int
cli_output_parse(const char *s, enum cli_output *out)
{
	if (strcmp(s, "table") == 0)
		*out = CLI_OUT_TABLE;
	else if (strcmp(s, "json") == 0)
		*out = CLI_OUT_JSON;
	else if (strcmp(s, "yaml") == 0)
		*out = CLI_OUT_YAML;
	else
		return (-1);
	return (0);
}

/* The config file and the settings, without the server. */
int
cli_setup(struct cli *c)
{
	const struct cli_opts	*o = c->o;
	char			*cause = NULL;
	size_t			 i;

	c->cfg = config_load(o->config, NULL, &cause);
	if (c->cfg == NULL) {
		cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	for (i = 0; i < c->cfg->nproblems; i++)
		log_warn("%s", c->cfg->problems[i].message);
	c->over.profile = o->profile;
	c->over.base_url = o->base_url;
	c->over.account = o->account;
	c->over.zone = o->zone;
	c->over.video = o->video;
	c->over.readonly = o->readonly;
	c->over.no_token = 1;
	if (edge_session_resolve(c->cfg, &c->over, &c->session, &cause) != 0) {
		cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	c->out = (enum cli_output)c->cfg->prefs.output;
	if (o->output != NULL && cli_output_parse(o->output, &c->out) != 0)
		return (cli_usage_error("-o: '%s' is not table, json or yaml",
		    o->output));
	edge_scope_vars(&c->session.scope, NULL, c->vars);
	return (0);
}

/* A client on the settings; budget NULL makes a new one. */
static int
cli_client(struct cli *c, struct budget *budget, struct http_client **out)
{
	struct http_options	 ho;
	char			*cause = NULL;

	edge_session_http_options(&c->session, &ho);
	ho.budget = budget;
	ho.log_entries_only = 1;
	if ((*out = http_client_new(&ho, &cause)) == NULL) {
		cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	return (0);
}

int
cli_connect(struct cli *c)
{
	char	*cause = NULL;

	if (c->http != NULL)
		return (0);	/* connected already */
	if (edge_session_token(c->cfg, &c->over, &c->session, &cause) != 0) {
		cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	return (cli_client(c, NULL, &c->http));
}

/*
 * The main client and a second one for a blocking upload, sharing its
 * budget (the main one goes to the worker thread).
 */
int
cli_connect_upload(struct cli *c, struct http_client **upload)
{
	int	rv;

	if ((rv = cli_connect(c)) != 0)
		return (rv);
	return (cli_client(c, http_client_budget(c->http), upload));
}

void
cli_teardown(struct cli *c)
{
	if (c->journal != NULL)
		journal_close(c->journal);
	if (c->http != NULL)
		http_client_free(c->http);
	edge_session_free(&c->session);
	if (c->cfg != NULL)
		config_free(c->cfg);
}

int
cli_run(const struct cli_opts *o, int argc, char **argv)
{
	const struct cli_command	*cmd;
	const struct kind		*k = NULL;
	const char			*why;
	struct cli			 c;
	cli_run_cb			 run;
	int				 rv, nargs, words;

	if ((cmd = cli_command_lookup(argc, argv, &words)) == NULL)
		return (cli_unknown_subcommand(argv[0], argc > 1 ? argv[1] :
		    NULL));
	/* A two-word command starts at its second word. */
	argc -= words - 1;
	argv += words - 1;
	nargs = argc - 1;
	if (o->seen & ~cmd->flags)
		return (cli_usage_error("%s: an option was given that it does "
		    "not take (usage: edgetui %s)", cmd->name, cmd->synopsis));
	if (nargs < cmd->min_args || (cmd->max_args >= 0 &&
	    nargs > cmd->max_args))
		return (cli_usage_error("usage: edgetui %s", cmd->synopsis));
	if (cmd->min_args > 0 && !cmd->no_kind &&
	    (k = kind_find(argv[1])) == NULL)
		return (cli_usage_error("unknown kind '%s' (see edgetui "
		    "kinds)", argv[1]));
	if (k != NULL && cmd->refuses != NULL &&
	    (why = cmd->refuses(k)) != NULL)
		return (cli_usage_error("%s: %s %s", cmd->name, k->name, why));

	memset(&c, 0, sizeof c);
	c.o = o;
	if (!cmd->no_setup && (rv = cli_setup(&c)) != 0)
		goto out;
	if (cmd->mutates && c.session.readonly) {
		rv = cli_error(HTTP_EXIT_USAGE, "read-only: %s refused, "
		    "nothing sent (--readonly or a read-only profile)",
		    cmd->name);
		goto out;
	}
	/* Rules of an entry point are read and written through it. */
	run = k != NULL ? cli_rules_run(cmd, k) : NULL;
	if (run == NULL)
		run = cmd->run;
	rv = k != NULL ? run(&c, k, argc - 1, argv + 1) : run(&c, k, argc,
	    argv);
out:
	cli_teardown(&c);
	return (rv);
}
