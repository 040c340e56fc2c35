/*
 * expr check, expr fmt and expr eval: the Rules language on the command
 * line, with no server; and the request that eval and `rules test` build
 * from --request, --ip, -H, --country and --status.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "configfile.h"
#include "expr.h"
#include "http.h"
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
	struct expr_options	opts;
	struct expr_error	err;
	int			rv;

	(void)unused_k;
	(void)argc;
	memset(&opts, 0, sizeof opts);
	if ((rv = cli_expr_plan(c, &opts.plan)) != 0)
		return (rv);
	opts.counting = c->o->counting;
	if (expr_check(argv[1], &opts, &err) != 0) {
		cli_expr_error(argv[1], &err);
		return (HTTP_EXIT_USAGE);
	}
	return (0);
}

int
cli_cmd_expr_fmt(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	struct expr_options	 opts;
	struct expr_error	 err;
	struct expr		*e;
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
	text = expr_format(e);
	printf("%s\n", text);
	fflush(stdout);
	free(text);
	expr_free(e);
	return (0);
}

/* "Name: value" into the request; -1 after the message. */
static int
cli_expr_header(struct expr_request *rq, const char *arg)
{
	const char	*colon = strchr(arg, ':'), *v;
	char		*name;

	if (colon == NULL || colon == arg)
		return (cli_usage_error("-H: '%s' is not 'Name: value'", arg));
	name = xstrndup(arg, (size_t)(colon - arg));
	for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
		continue;
	expr_request_add_header(rq, name, v);
	free(name);
	return (0);
}

/* "METHOD URL" into the request; -1 after the message. */
static int
cli_expr_method_url(struct expr_request *rq, const char *arg)
{
	const char	*sp = strchr(arg, ' '), *url;
	char		*method;
	int		 rv;

	if (sp == NULL || sp == arg)
		return (cli_usage_error("--request: '%s' is not 'METHOD URL' "
		    "(GET https://example.com/login)", arg));
	for (url = sp; *url == ' '; url++)
		continue;
	method = xstrndup(arg, (size_t)(sp - arg));
	rv = expr_request_set(rq, method, url);
	free(method);
	if (rv != 0)
		return (cli_usage_error("--request: '%s' is not an absolute "
		    "http or https URL", url));
	return (0);
}

struct expr_request *
cli_expr_request(struct cli *c, int *rv)
{
	const struct cli_opts	*o = c->o;
	struct expr_request	*rq;
	char			 cc[3];
	size_t			 i;

	*rv = HTTP_EXIT_USAGE;
	if (o->request == NULL) {
		cli_usage_error("--request 'METHOD URL' is needed");
		return (NULL);
	}
	rq = expr_request_new();
	if (cli_expr_method_url(rq, o->request) != 0)
		goto fail;
	if (o->ip != NULL && expr_request_set_ip(rq, o->ip) != 0) {
		cli_usage_error("--ip: '%s' is not an IPv4 or IPv6 address",
		    o->ip);
		goto fail;
	}
	for (i = 0; i < o->nheaders; i++)
		if (cli_expr_header(rq, o->headers[i]) != 0)
			goto fail;
	if (o->country != NULL) {
		if (strlen(o->country) != 2 ||
		    !isalpha((unsigned char)o->country[0]) ||
		    !isalpha((unsigned char)o->country[1])) {
			cli_usage_error("--country: '%s' is not a two-letter "
			    "country code", o->country);
			goto fail;
		}
		/* As the edge writes ip.src.country: upper case. */
		cc[0] = (char)toupper((unsigned char)o->country[0]);
		cc[1] = (char)toupper((unsigned char)o->country[1]);
		cc[2] = '\0';
		expr_request_set_country(rq, cc);
	}
	if (o->status != 0)
		expr_request_set_status(rq, o->status);
	*rv = 0;
	return (rq);
fail:
	expr_request_free(rq);
	return (NULL);
}

static const char *
cli_expr_value_name(enum expr_value v)
{
	switch (v) {
	case EXPR_TRUE:
		return ("true");
	case EXPR_MISSING:
		return ("missing");
	case EXPR_FALSE:
		break;
	}
	return ("false");
}

/* One node of --explain: its value, its text indented by depth. */
static void
cli_expr_step(const struct expr_step *s, void *arg)
{
	(void)arg;
	printf("%*s%-7s %s", 2 * s->depth, "", cli_expr_value_name(s->value),
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
	int			 rv, v;

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
	if (c->o->explain)
		v = expr_explain(e, rq, cli_expr_step, NULL);
	else {
		v = expr_eval(e, rq);
		printf("%s\n", v == 1 ? "true" : "false");
	}
	fflush(stdout);
	expr_request_free(rq);
	expr_free(e);
	return (0);
}
