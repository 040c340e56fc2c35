/*
 * expr check, expr fmt and expr eval: the Rules language on the command
 * line, with no server; and the request that eval and `rules test` build
 * from --request, --ip, -H, --country and --status.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "configfile.h"
#include "expr.h"
#include "http.h"
#include "ruletest.h"
#include "xmalloc.h"

#include "cli.h"

void
cli_expr_error(const char *text, const struct expr_error *err)
{
	char	*msg;

	msg = expr_error_render(text, err);
	fputs(msg, stderr);
	if (*msg != '\0' && msg[strlen(msg) - 1] != '\n')
		fputc('\n', stderr);
	free(msg);
}

/* Each warning of a valid expression on stderr, rendered as an error is. */
static void
cli_expr_warnings(const char *text, const struct expr *e)
{
	struct expr_warning	 w[16];
	struct expr_error	 err;
	size_t			 n, i;

	n = expr_warnings(e, w, nitems(w));
	for (i = 0; i < n && i < nitems(w); i++) {
		memset(&err, 0, sizeof err);
		err.column = w[i].column;
		err.length = w[i].length;
		snprintf(err.message, sizeof err.message, "warning: %s",
		    w[i].message);
		cli_expr_error(text, &err);
	}
}

/* That the lists an expression names are not known here, on stderr. */
static void
cli_expr_lists_note(const struct expr *e)
{
	const char	*names[8];
	size_t		 n, i;

	n = expr_lists(e, names, nitems(names));
	for (i = 0; i < n && i < nitems(names); i++)
		cli_error(-1, "note: list $%s is not known here (lists are "
		    "kept in the account and not read): what depends on it "
		    "is unknown, not false", names[i]);
}

int
cli_expr_plan(struct cli *c, enum expr_plan *plan)
{
	const struct config_profile	*prof;

	*plan = EXPR_PLAN_NONE;
	if (c->o->plan != NULL) {
		if (expr_plan_parse(c->o->plan, plan) != 0)
			return (cli_usage_error("--plan: '%s' is not free, pro, "
			    "business or enterprise", c->o->plan));
		return (0);
	}
	prof = config_profile(c->cfg, c->session.profile);
	if (prof != NULL && prof->plan > EXPR_PLAN_NONE &&
	    prof->plan <= EXPR_PLAN_ENTERPRISE)
		*plan = (enum expr_plan)prof->plan;
	return (0);
}

int
cli_cmd_expr_check(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	struct expr_options	 opts;
	struct expr_error	 err;
	struct expr		*e;
	int			 rv;

	(void)unused_k;
	(void)argc;
	memset(&opts, 0, sizeof opts);
	if ((rv = cli_expr_plan(c, &opts.plan)) != 0)
		return (rv);
	opts.counting = c->o->counting;
	if ((e = expr_parse(argv[1], &opts, &err)) == NULL) {
		cli_expr_error(argv[1], &err);
		return (HTTP_EXIT_USAGE);
	}
	/* Valid: what it most likely gets wrong is said, and it passes. */
	cli_expr_warnings(argv[1], e);
	expr_free(e);
	return (0);
}

int
cli_cmd_expr_fmt(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	struct expr_options	 opts;
	struct expr_error	 err;
	struct expr		*e;
	enum expr_fmt_form	 form;
	char			*text;

	(void)c;
	(void)unused_k;
	(void)argc;
	/* Any field formats, response fields included. */
	memset(&opts, 0, sizeof opts);
	opts.counting = 1;
	if ((e = expr_parse(argv[1], &opts, &err)) == NULL) {
		cli_expr_error(argv[1], &err);
		return (HTTP_EXIT_USAGE);
	}
	text = expr_format_fit(e, &form);
	printf("%s\n", text);
	fflush(stdout);
	if (form != EXPR_FMT_CANONICAL)
		fprintf(stderr, "edgetui: note: %s\n",
		    expr_fmt_form_note(form));
	free(text);
	expr_free(e);
	return (0);
}

struct expr_request *
cli_expr_request(struct cli *c, int *rv)
{
	static const char *const	 opts[] = {
		[RULETEST_URL] = "--request", [RULETEST_IP] = "--ip",
		[RULETEST_HEADER] = "-H", [RULETEST_COUNTRY] = "--country"
	};
	const struct cli_opts		*o = c->o;
	struct ruletest_input		 in;
	struct ruletest_error		 err;
	struct expr_request		*rq;
	const char			*sp, *url;
	char				*method;

	*rv = HTTP_EXIT_USAGE;
	if (o->request == NULL) {
		cli_usage_error("--request 'METHOD URL' is needed");
		return (NULL);
	}
	if ((sp = strchr(o->request, ' ')) == NULL || sp == o->request) {
		cli_usage_error("--request: '%s' is not 'METHOD URL' "
		    "(GET https://example.com/login)", o->request);
		return (NULL);
	}
	for (url = sp; *url == ' '; url++)
		continue;
	method = xstrndup(o->request, (size_t)(sp - o->request));
	memset(&in, 0, sizeof in);
	in.method = method;
	in.url = url;
	in.ip = o->ip;
	in.headers = o->headers;
	in.nheaders = o->nheaders;
	in.country = o->country;
	in.status = o->status;
	if ((rq = ruletest_request(&in, &err)) == NULL)
		cli_usage_error("%s: %s", opts[err.field], err.message);
	else
		*rv = 0;
	free(method);
	return (rq);
}

/* One node of --explain: its value, its text indented by depth. */
static void
cli_expr_step(const struct expr_step *s, void *arg)
{
	(void)arg;
	printf("%*s%-7s %s", 2 * s->depth, "", ruletest_value_name(s->value),
	    s->text != NULL ? s->text : "");
	if (s->seen != NULL)
		printf("    (left: %s)", s->seen);
	fputc('\n', stdout);
}

int
cli_cmd_expr_eval(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	struct expr_options	 opts;
	struct expr_error	 err;
	struct expr_request	*rq;
	struct expr		*e;
	enum expr_value		 v;
	int			 rv;

	(void)unused_k;
	(void)argc;
	/* The plan only when asked: eval is about the language. */
	memset(&opts, 0, sizeof opts);
	if (c->o->plan != NULL && (rv = cli_expr_plan(c, &opts.plan)) != 0)
		return (rv);
	opts.counting = c->o->counting || c->o->status != 0;
	if ((e = expr_parse(argv[1], &opts, &err)) == NULL) {
		cli_expr_error(argv[1], &err);
		/* eval has no counting flag of its own to suggest. */
		opts.counting = 1;
		if (c->o->status == 0 && expr_check(argv[1], &opts, &err) == 0)
			cli_error(-1, "expr eval: give --status CODE to evaluate "
			    "the response's fields");
		return (HTTP_EXIT_USAGE);
	}
	if ((rq = cli_expr_request(c, &rv)) == NULL) {
		expr_free(e);
		return (rv);
	}
	cli_expr_warnings(argv[1], e);
	if (c->o->explain)
		v = expr_explain_lists(e, rq, cli_expr_step, NULL);
	else {
		v = expr_eval_lists(e, rq);
		printf("%s\n", ruletest_value_name(v));
	}
	fflush(stdout);
	cli_expr_lists_note(e);
	if (v == EXPR_UNKNOWN && expr_lists(e, NULL, 0) == 0)
		cli_error(-1, "note: %s", RULETEST_UNKNOWN_WHY);
	expr_request_free(rq);
	expr_free(e);
	return (0);
}
