/*
 * The verbs of rate-limit-rules and rule-versions, which the API reaches
 * through the zone's http_ratelimit entry point (api-map-next 11): a 404
 * there means no rules yet, one rule is read from the list, writes go
 * under the entry point's id and answer with the whole ruleset. Every rule
 * sent is linted first (rulesets_lint); `rules test` evaluates the rules
 * against a request without changing anything.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "edit.h"
#include "expr.h"
#include "http.h"
#include "kind.h"
#include "log.h"
#include "merge.h"
#include "rlrule.h"
#include "rulesets.h"
#include "ruletest.h"
#include "text.h"
#include "validate.h"
#include "xmalloc.h"
#include "yamljson.h"

#include "cli.h"

/* ---- the entry point ---------------------------------------------------- */

/* The entry point's path, or NULL after the usage error (no zone). */
static char *
rules_entrypoint_path(struct cli *c, int *rv)
{
	char	*path, *cause = NULL;

	if ((path = kind_list_path(&kind_rate_limit_rules, c->vars,
	    &cause)) == NULL) {
		*rv = cli_usage_error("%s", cause);
		free(cause);
	}
	return (path);
}

/* The zone's entry point: *ep NULL when it does not exist yet. */
static int
rules_entrypoint(struct cli *c, const char *path, cJSON **ep)
{
	struct http_response	resp;
	int			rv, absent = 0;

	*ep = NULL;
	rv = cli_get_absent(c, path, &resp, &absent);
	if (rv == 0 && !absent) {
		if (cJSON_IsObject(resp.api.result))
			*ep = cJSON_Duplicate(resp.api.result, 1);
		else
			rv = cli_error(HTTP_EXIT_REFUSED, "%s: the server sent "
			    "no ruleset", kind_rate_limit_rules.name);
	}
	http_response_free(&resp);
	return (rv);
}

/* A path below the entry point's ruleset; NULL after the message. */
static char *
rules_path(struct cli *c, const char *tmpl, const cJSON *ep, const char *id,
    int *rv)
{
	struct api_var	 vars[EDGE_SCOPE_NVARS + 2];
	const cJSON	*rsid = cJSON_GetObjectItemCaseSensitive(ep, "id");
	char		*path, *cause = NULL;
	size_t		 n = 0;

	if (!cJSON_IsString(rsid)) {
		*rv = cli_error(HTTP_EXIT_REFUSED, "%s: the entry point the "
		    "server sent has no id", kind_rate_limit_rules.name);
		return (NULL);
	}
	vars[n].name = "ruleset";
	vars[n++].value = rsid->valuestring;
	if (id != NULL) {
		vars[n].name = "id";
		vars[n++].value = id;
	}
	memcpy(vars + n, c->vars, sizeof c->vars);
	if ((path = api_path(tmpl, vars, &cause)) == NULL) {
		*rv = cli_error(HTTP_EXIT_REFUSED, "%s: %s",
		    kind_rate_limit_rules.name, cause);
		free(cause);
	}
	return (path);
}

/* The rule with id in the entry point; NULL after the message. */
static const cJSON *
rules_find(const cJSON *ep, const char *id, int *rv)
{
	const cJSON	*rule;

	if ((rule = rulesets_rule_find(ep, id, NULL)) == NULL)
		*rv = cli_error(HTTP_EXIT_REFUSED, "%s: no rule %s in the "
		    "zone's rate limiting rules%s", kind_rate_limit_rules.name,
		    id, ep == NULL ? " (it has none yet)" : "");
	return (rule);
}

static int
rules_check_id(const char *id)
{
	char	*cause = NULL;
	int	 rv;

	if (kind_id_check(&kind_rate_limit_rules, id, &cause) == 0)
		return (0);
	rv = cli_usage_error("%s", cause);
	free(cause);
	return (rv);
}

/* ---- lint --------------------------------------------------------------- */

/*
 * A rule from the user before it is sent: an expression the service would
 * refuse (rendered with its column), the fields' checks, then the rest of
 * what the service checks on the profile's plan. 0, or the exit status.
 */
static int
rules_lint(struct cli *c, const cJSON *rule, const cJSON *orig)
{
	struct rulesets_lint	 l;
	struct validate_error	*errs;
	enum expr_plan		 plan;
	size_t			 n, i;
	int			 rv, bad;

	if (!cJSON_IsObject(rule))
		return (cli_error(HTTP_EXIT_USAGE, "%s: a rule is a mapping "
		    "(action, expression, ratelimit...); nothing was sent",
		    kind_rate_limit_rules.name));
	if ((rv = cli_expr_plan(c, &plan)) != 0)
		return (rv);
	bad = rulesets_lint(rule, plan, &l) != 0;
	if (bad && l.text != NULL) {
		cli_expr_error(l.text, &l.err);
		return (cli_error(HTTP_EXIT_USAGE, "%s: refused; nothing was "
		    "sent", l.field));
	}
	/* An edit checks only what changed; a file is checked whole. */
	if (validate_changes(&kind_rate_limit_rules, rule, orig,
	    VALIDATE_CREATE, &errs, &n) != 0) {
		for (i = 0; i < n; i++)
			cli_error(-1, "%s: %s", *errs[i].field != '\0' ?
			    errs[i].field : "(body)", errs[i].message);
		validate_errors_free(errs, n);
		return (cli_error(HTTP_EXIT_USAGE, "%zu problem%s; nothing "
		    "was sent", n, n == 1 ? "" : "s"));
	}
	/* The service's messages name the plan when it is the cause. */
	if (bad)
		return (cli_error(HTTP_EXIT_USAGE, "%s: %s; nothing was sent",
		    l.field, l.err.message));
	return (0);
}

/*
 * The rule of -f FILE, linted, then the zone's entry point as it is (NULL
 * when absent). 0, or the exit status after the message.
 */
static int
rules_read(struct cli *c, const char *path, cJSON **rule, cJSON **ep)
{
	char	*cause = NULL;
	int	 rv;

	*ep = NULL;
	if ((*rule = cli_read_body(c->o->file, &cause)) == NULL) {
		rv = cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		return (rv);
	}
	if ((rv = rules_lint(c, *rule, NULL)) != 0 ||
	    (rv = cli_connect(c)) != 0)
		return (rv);
	return (rules_entrypoint(c, path, ep));
}

/* ---- output ------------------------------------------------------------- */

/* The rules of a ruleset (NULL: none) as a table, JSON or YAML. */
static void
rules_print_list(struct cli *c, const cJSON *rules, long limit)
{
	struct cli_table	 t;
	const cJSON		*r;
	cJSON			*list, *numbered;
	long			 n = 0;

	list = cJSON_CreateArray();
	cJSON_ArrayForEach(r, rules) {
		if (limit > 0 && n++ >= limit)
			break;
		cJSON_AddItemReferenceToArray(list, (cJSON *)r);
	}
	switch (c->out) {
	case CLI_OUT_TABLE:
		/* The table numbers them (the # column); the data stays. */
		numbered = cJSON_Duplicate(list, 1);
		rulesets_number(numbered);
		cli_table_init(&t, &kind_rate_limit_rules);
		cli_table_fit_list(&t, numbered);
		cli_table_header(&t);
		cJSON_ArrayForEach(r, numbered)
			cli_table_row(&t, r);
		cJSON_Delete(numbered);
		break;
	case CLI_OUT_JSON:
		cli_print_json(list);
		break;
	case CLI_OUT_YAML:
		if (cJSON_GetArraySize(list) == 0)
			fputs("[]\n", stdout);
		else
			cli_print_yaml(list);
		break;
	}
	cJSON_Delete(list);
	fflush(stdout);
}

/* After a write: the rule as the answer's ruleset has it. */
static void
rules_print_written(struct cli *c, const cJSON *rule)
{
	if (rule == NULL) {
		log_warn("%s: the answer did not hold the rule",
		    kind_rate_limit_rules.name);
		return;
	}
	cli_print_record(c, &kind_rate_limit_rules, rule);
}

/* ---- get ---------------------------------------------------------------- */

static int
rules_get(struct cli *c, const struct kind *k, int argc, char **argv)
{
	const cJSON	*rule;
	cJSON		*ep = NULL;
	char		*path;
	int		 rv = 0;

	if (c->o->seen & CLI_OPT_FILTER)
		return (cli_usage_error("--filter: %s has no server-side "
		    "filters", k->name));
	if (argc > 1 && (c->o->seen & CLI_OPT_LIMIT))
		return (cli_usage_error("--limit is for lists"));
	if (argc > 1 && (rv = rules_check_id(argv[1])) != 0)
		return (rv);
	if ((path = rules_entrypoint_path(c, &rv)) == NULL)
		return (rv);
	if ((rv = cli_connect(c)) != 0 ||
	    (rv = rules_entrypoint(c, path, &ep)) != 0)
		goto out;
	if (argc < 2)
		rules_print_list(c, rulesets_rules(ep), c->o->limit);
	else if ((rule = rules_find(ep, argv[1], &rv)) != NULL)
		cli_print_record(c, k, rule);
out:
	cJSON_Delete(ep);
	free(path);
	return (rv);
}

/* ---- create ------------------------------------------------------------- */

/*
 * Room for one more rule on the profile's plan, before anything is sent:
 * the service refuses a rule past its quota. 0, or the exit status.
 */
static int
rules_quota(struct cli *c, const cJSON *ep)
{
	struct rlrule_problem	 p;
	enum expr_plan		 plan;
	int			 n, rv;

	if ((rv = cli_expr_plan(c, &plan)) != 0)
		return (rv);
	n = cJSON_GetArraySize(rulesets_rules(ep));
	if (rlrule_quota(n + 1, plan, &p) == 0)
		return (0);
	return (cli_error(HTTP_EXIT_USAGE, "%s: the zone has %d rule%s: with "
	    "this one, %s (delete one first, or check the profile's plan:); "
	    "nothing was sent", kind_rate_limit_rules.name, n, n == 1 ? "" :
	    "s", p.message));
}

/* --position, the one form option a rule takes; -1 after the message. */
static int
rules_position(struct cli *c, struct rulesets_position *pos, int *given)
{
	const struct cli_opts	*o = c->o;
	char			*cause = NULL;
	size_t			 i;

	*given = 0;
	memset(pos, 0, sizeof *pos);
	if (o->seen & CLI_OPT_NAME)
		return (cli_usage_error("create %s: --name is for multipart "
		    "creates; the rule's fields go in -f FILE",
		    kind_rate_limit_rules.name));
	for (i = 0; i < o->nfields; i++) {
		if (strcmp(o->fields[i].option, "position") != 0)
			return (cli_usage_error("create %s: --%s is not one of "
			    "its options (--position)",
			    kind_rate_limit_rules.name, o->fields[i].option));
		if (rulesets_position_parse(o->fields[i].value, pos,
		    &cause) != 0) {
			cli_usage_error("%s", cause);
			free(cause);
			return (-1);
		}
		*given = 1;
	}
	return (0);
}

/*
 * No entry point yet: POST /zones/{zone}/rulesets makes it with the rule.
 * Not PUT entrypoint: should someone create the entry point in between,
 * a PUT would replace their rules with this one; this POST is refused
 * (409, *exists) and the rule is then added to theirs.
 */
static int
rules_create_entrypoint(struct cli *c, const cJSON *rule,
    struct http_response *resp, char **path, int *exists)
{
	char	*cause = NULL;
	cJSON	*body;
	int	 rv;

	*exists = 0;
	if ((*path = api_path(RULESETS_LIST_PATH, c->vars, &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	body = rulesets_entrypoint_body(rule);
	rv = cli_send_json_quiet(c, "POST", *path, body, resp, 409, exists);
	cJSON_Delete(body);
	return (rv);
}

/* POST the rule (at pos when given) to the entry point's rules. */
static int
rules_add(struct cli *c, const cJSON *ep, const cJSON *rule,
    const struct rulesets_position *pos, int given,
    struct http_response *resp, char **path)
{
	cJSON	*body;
	char	*cause = NULL;
	int	 rv;

	if (given && rulesets_position_check(pos, rulesets_rules(ep),
	    &cause) != 0) {
		rv = cli_error(HTTP_EXIT_USAGE, "%s; nothing was changed",
		    cause);
		free(cause);
		return (rv);
	}
	if (ep == NULL)
		return (0);
	if ((*path = rules_path(c, RULESETS_RULES_PATH, ep, NULL, &rv)) ==
	    NULL)
		return (rv);
	body = rulesets_rule_body(rule);
	if (given)
		cJSON_AddItemToObject(body, "position",
		    rulesets_position_json(pos));
	rv = cli_send_json(c, "POST", *path, body, resp);
	cJSON_Delete(body);
	return (rv);
}

static int
rules_create(struct cli *c, const struct kind *k, int argc, char **argv)
{
	struct rulesets_position pos;
	struct http_response	 resp;
	cJSON			*rule = NULL, *ep = NULL;
	char			*path = NULL, *post = NULL;
	int			 rv, given, exists = 0;

	(void)argc;
	(void)argv;
	memset(&resp, 0, sizeof resp);
	if (rules_position(c, &pos, &given) != 0)
		return (HTTP_EXIT_USAGE);
	if (c->o->file == NULL)
		return (cli_usage_error("create %s needs -f FILE (YAML or "
		    "JSON, '-' for stdin)", k->name));
	if ((path = rules_entrypoint_path(c, &rv)) == NULL)
		return (rv);
	if ((rv = rules_read(c, path, &rule, &ep)) != 0 ||
	    (rv = rules_quota(c, ep)) != 0)
		goto out;
	/* Checked before the entry point is made, too. */
	if ((rv = rules_add(c, ep, rule, &pos, given, &resp, &post)) != 0)
		goto out;
	if (ep == NULL) {
		rv = rules_create_entrypoint(c, rule, &resp, &post, &exists);
		if (rv != 0 || !exists)
			goto done;
		log_warn("%s: the zone's entry point was made meanwhile: the "
		    "rule is added to it", k->name);
		http_response_free(&resp);
		free(post);
		post = NULL;
		if ((rv = rules_entrypoint(c, path, &ep)) != 0)
			goto out;
		if (ep == NULL) {
			rv = cli_error(HTTP_EXIT_REFUSED, "%s: the server says "
			    "the entry point exists, and that it does not",
			    k->name);
			goto out;
		}
		if ((rv = rules_add(c, ep, rule, &pos, given, &resp,
		    &post)) != 0)
			goto out;
	}
done:
	if (rv == 0) {
		cli_journal(c, "POST", post, resp.http_status, NULL,
		    rulesets_rule_added(ep, resp.api.result));
		rules_print_written(c, rulesets_rule_added(ep,
		    resp.api.result));
	}
out:
	http_response_free(&resp);
	cJSON_Delete(ep);
	cJSON_Delete(rule);
	free(post);
	free(path);
	return (rv);
}

/* ---- update and edit ---------------------------------------------------- */

/*
 * PATCH the rule whole (not a merge) and print what the answer has; theirs
 * is the rule as just read (the journal's before): one that already has
 * rule's values is not sent.
 */
static int
rules_patch(struct cli *c, const cJSON *ep, const char *id,
    const cJSON *theirs, const cJSON *rule)
{
	struct http_response	 resp;
	struct buf		 diff = BUF_INITIALIZER;
	cJSON			*body;
	char			*path;
	size_t			 n;
	int			 rv;

	n = merge_diff(&diff, &kind_rate_limit_rules, theirs, rule);
	buf_free(&diff);
	if (n == 0) {
		fprintf(c->out == CLI_OUT_TABLE ? stdout : stderr, "%s %s: the "
		    "server already has these values; nothing was sent\n",
		    kind_rate_limit_rules.name, id);
		if (c->out != CLI_OUT_TABLE)
			cli_print_record(c, &kind_rate_limit_rules, theirs);
		return (0);
	}
	if ((path = rules_path(c, RULESETS_RULE_PATH, ep, id, &rv)) == NULL)
		return (rv);
	body = rulesets_rule_body(rule);
	rv = cli_send_json(c, "PATCH", path, body, &resp);
	if (rv == 0) {
		cli_journal(c, "PATCH", path, resp.http_status, theirs,
		    rulesets_rule_find(resp.api.result, id, NULL));
		rules_print_written(c, rulesets_rule_find(resp.api.result, id,
		    NULL));
	}
	http_response_free(&resp);
	cJSON_Delete(body);
	free(path);
	return (rv);
}

/*
 * mine, a change of base (NULL: a whole rule from a file), merged into
 * theirs, the rule as just read. 0 with *rec to send (caller frees); -2
 * to edit again (can_edit; *text: the rule to reopen, with why on top);
 * -1 not applied (said); or the exit status.
 */
static int
rules_merge(struct cli *c, const char *id, const cJSON *base,
    const cJSON *mine, const cJSON *theirs, int can_edit, cJSON **rec,
    char **text)
{
	struct merge	 m;
	struct buf	 why = BUF_INITIALIZER;
	enum cli_pick	 pick;
	char		*what, *yaml;
	int		 rv = 0;

	*rec = NULL;
	if (text != NULL)
		*text = NULL;
	merge_records(&kind_rate_limit_rules, base, mine, theirs, &m);
	if (m.nconflicts == 0) {
		*rec = cJSON_Duplicate(m.merged, 1);
		merge_free(&m);
		return (0);
	}
	what = xprintf("%s %s", kind_rate_limit_rules.name, id);
	switch ((pick = cli_conflict(c, what, &m, can_edit))) {
	case CLI_PICK_THEIRS:
	case CLI_PICK_MINE:
		*rec = merge_resolve(&m, pick == CLI_PICK_MINE ? MERGE_MINE :
		    MERGE_THEIRS);
		break;
	case CLI_PICK_EDIT:
		*rec = merge_resolve(&m, MERGE_MINE);
		buf_adds(&why, "The server changed these since you read it "
		    "(theirs \xe2\x86\x92 yours, which this text has):\n");
		merge_conflicts_text(&m, &why);
		yaml = yamljson_emit(*rec);
		*text = edit_with_comment(yaml, buf_str(&why));
		free(yaml);
		cJSON_Delete(*rec);
		*rec = NULL;
		rv = -2;
		break;
	case CLI_PICK_QUIT:
		rv = -1;
		break;
	default:
		rv = HTTP_EXIT_REFUSED;
		break;
	}
	buf_free(&why);
	free(what);
	merge_free(&m);
	return (rv);
}

/*
 * The entry point read now, mine (a change of base; NULL: a whole rule)
 * merged into its rule id, and the PATCH. 0, or the exit status.
 */
static int
rules_write(struct cli *c, const char *path, const char *id,
    const cJSON *base, const cJSON *mine)
{
	const cJSON	*theirs;
	cJSON		*ep = NULL, *rec = NULL;
	int		 rv;

	if ((rv = rules_entrypoint(c, path, &ep)) != 0 ||
	    (theirs = rules_find(ep, id, &rv)) == NULL)
		goto out;
	rv = rules_merge(c, id, base, mine, theirs, 0, &rec, NULL);
	if (rv == 0)
		rv = rules_patch(c, ep, id, theirs, rec);
	else if (rv == -1)
		rv = 0;
out:
	cJSON_Delete(rec);
	cJSON_Delete(ep);
	return (rv);
}

/*
 * update -f FILE: the file is the whole rule (a field left out is
 * removed). It replaces the rule as the server has it now, unless its
 * version says that rule changed since the file was taken from it: then
 * the fields where they differ are asked about.
 */
static int
rules_update(struct cli *c, const struct kind *k, int argc, char **argv)
{
	cJSON		*rule = NULL, *ep = NULL;
	char		*path;
	int		 rv;

	if (argc < 2)
		return (cli_usage_error("update %s: an ID is needed",
		    k->name));
	if ((rv = rules_check_id(argv[1])) != 0)
		return (rv);
	if (c->o->file == NULL)
		return (cli_usage_error("update %s needs -f FILE: the whole "
		    "rule (a field left out is removed)", k->name));
	if ((path = rules_entrypoint_path(c, &rv)) == NULL)
		return (rv);
	if ((rv = rules_read(c, path, &rule, &ep)) != 0 ||
	    rules_find(ep, argv[1], &rv) == NULL)
		goto out;
	rv = rules_write(c, path, argv[1], NULL, rule);
out:
	cJSON_Delete(ep);
	cJSON_Delete(rule);
	free(path);
	return (rv);
}

/*
 * The edited rule (from orig) merged into a fresh copy: the conflicts
 * asked about, the diff, the question; then written (read again first).
 * 0, -2 to edit again (*fresh, *text), or the exit status.
 */
static int
rules_edit_apply(struct cli *c, const char *path, const char *id,
    const cJSON *orig, const cJSON *edited, cJSON **fresh, char **text)
{
	struct buf	 diff = BUF_INITIALIZER;
	const cJSON	*theirs;
	cJSON		*ep = NULL, *rec = NULL;
	size_t		 n;
	int		 rv, yes;

	if ((rv = rules_entrypoint(c, path, &ep)) != 0 ||
	    (theirs = rules_find(ep, id, &rv)) == NULL)
		goto out;
	*fresh = cJSON_Duplicate(theirs, 1);
	if ((rv = rules_merge(c, id, orig, edited, theirs, 1, &rec,
	    text)) != 0) {
		if (rv == -1)
			rv = 0;
		goto out;
	}
	if (!cJSON_Compare(theirs, orig, 1))
		log_warn("%s changed on the server while you edited it: "
		    "those changes are kept", kind_rate_limit_rules.name);
	if ((n = merge_diff(&diff, &kind_rate_limit_rules, theirs,
	    rec)) == 0) {
		printf("no change\n");
		goto out;
	}
	printf("%s: %zu field%s changed:\n%s", kind_rate_limit_rules.name, n,
	    n == 1 ? "" : "s", buf_str(&diff));
	fflush(stdout);
	if (!c->o->yes) {
		if ((yes = cli_confirm("apply?")) < 0) {
			rv = cli_error(HTTP_EXIT_USAGE, "no terminal to ask "
			    "on: use --yes to apply without asking; nothing "
			    "was changed");
			goto out;
		}
		if (!yes) {
			printf("not applied\n");
			goto out;
		}
	}
	rv = rules_write(c, path, id, theirs, rec);
out:
	buf_free(&diff);
	cJSON_Delete(rec);
	cJSON_Delete(ep);
	return (rv);
}

/* What the service would refuse on the plan (arg), as the file's comment. */
static char *
rules_edit_lint(const cJSON *rule, void *arg)
{
	struct rulesets_lint	l;

	if (rulesets_lint(rule, *(enum expr_plan *)arg, &l) == 0)
		return (NULL);
	return (rulesets_lint_comment(&l));
}

/*
 * cli_edit_loop, but what the service would refuse on the plan reopens the
 * editor with the problem on top, as the console's E does; given up, an
 * expression's problem is shown as create and update show it: the column,
 * the text, a caret.
 */
static int
rules_edit_loop(struct edit *e, enum expr_plan plan, cJSON **edited)
{
	struct rulesets_lint	 l;
	cJSON			*last = NULL;
	char			*cause = NULL, *why = NULL, *line, *nl;
	char			*comment;
	size_t			 flen;

	*edited = NULL;
	for (;;) {
		fflush(stdout);
		fflush(stderr);
		if (edit_run_editor(e->file, &cause) != 0)
			break;
		switch (edit_next_lint(e, rules_edit_lint, &plan, edited,
		    &cause)) {
		case EDIT_CHANGED:
			return (0);
		case EDIT_UNCHANGED:
		case EDIT_EMPTY:
			return (1);
		case EDIT_AGAIN:
			continue;
		case EDIT_INVALID:
		case EDIT_FAILED:
			break;
		}
		break;
	}
	if (e->last != NULL)
		last = yamljson_parse(e->last, strlen(e->last), &why);
	free(why);
	if (last == NULL || rulesets_lint(last, plan, &l) == 0 ||
	    l.text == NULL) {
		cli_error(-1, "%s", cause);
		goto out;
	}
	cli_expr_error(l.text, &l.err);
	/*
	 * The other problems, one per line, without the one just shown; the
	 * lint's own comment (the editor given up on it) is that one alone.
	 */
	comment = rulesets_lint_comment(&l);
	if (strstr(cause, comment) != NULL)
		*cause = '\0';
	free(comment);
	flen = strlen(l.field);
	for (line = cause; line != NULL && *line != '\0'; line = nl) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		if (strncmp(line, l.field, flen) != 0 || line[flen] != ':')
			cli_error(-1, "%s", line);
	}
	cli_error(-1, "%s: refused; nothing was sent", l.field);
out:
	cJSON_Delete(last);
	free(cause);
	return (-1);
}

static int
rules_edit(struct cli *c, const struct kind *k, int argc, char **argv)
{
	struct edit	 e;
	enum expr_plan	 plan;
	const cJSON	*rule;
	cJSON		*ep = NULL, *edited = NULL, *orig = NULL, *fresh;
	char		*path, *cause = NULL, *text = NULL;
	int		 rv, loop;

	memset(&e, 0, sizeof e);
	if (argc < 2)
		return (cli_usage_error("edit %s: an ID is needed", k->name));
	if ((rv = rules_check_id(argv[1])) != 0 ||
	    (rv = cli_expr_plan(c, &plan)) != 0)
		return (rv);
	if ((path = rules_entrypoint_path(c, &rv)) == NULL)
		return (rv);
	if ((rv = cli_connect(c)) != 0 ||
	    (rv = rules_entrypoint(c, path, &ep)) != 0 ||
	    (rule = rules_find(ep, argv[1], &rv)) == NULL)
		goto out;
	orig = cJSON_Duplicate(rule, 1);
	if (edit_open(&e, k, orig, VALIDATE_UPDATE, &cause) != 0)
		goto fail;
	for (;;) {
		loop = rules_edit_loop(&e, plan, &edited);
		if (loop < 0)
			rv = HTTP_EXIT_USAGE;
		else if (loop > 0)
			printf("no change\n");
		else if ((rv = rules_lint(c, edited, orig)) == 0) {
			fresh = NULL;
			rv = rules_edit_apply(c, path, argv[1], orig, edited,
			    &fresh, &text);
			cJSON_Delete(edited);
			edited = NULL;
			if (rv == -2) {
				/* e: again, on the server's copy with yours. */
				cJSON_Delete(orig);
				orig = fresh;
				edit_close(&e);
				rv = edit_open_text(&e, k, orig, text,
				    VALIDATE_UPDATE, &cause);
				free(text);
				text = NULL;
				if (rv != 0)
					goto fail;
				continue;
			}
			cJSON_Delete(fresh);
		}
		break;
	}
	goto out;
fail:
	rv = cli_error(HTTP_EXIT_USAGE, "%s", cause);
	free(cause);
out:
	edit_close(&e);
	cJSON_Delete(edited);
	cJSON_Delete(orig);
	cJSON_Delete(ep);
	free(path);
	fflush(stdout);
	return (rv);
}

/* ---- delete ------------------------------------------------------------- */

/*
 * The entry point (*ep, its path *path) once every id is well formed and
 * in it; otherwise an exit status, nothing sent. An id given twice is
 * acted on once: the later ones are dropped from argv (*argc). The caller
 * frees both.
 */
static int
rules_load_ids(struct cli *c, int *argc, char **argv, const char *done,
    char **path, cJSON **ep)
{
	int	i, j, n, rv;

	*path = NULL;
	*ep = NULL;
	for (i = 1; i < *argc; i++)
		if ((rv = rules_check_id(argv[i])) != 0)
			return (rv);
	for (i = n = 1; i < *argc; i++) {
		for (j = 1; j < n && strcmp(argv[j], argv[i]) != 0; j++)
			;
		if (j == n)
			argv[n++] = argv[i];
	}
	*argc = n;
	if ((*path = rules_entrypoint_path(c, &rv)) == NULL)
		return (rv);
	if ((rv = cli_connect(c)) != 0 ||
	    (rv = rules_entrypoint(c, *path, ep)) != 0)
		return (rv);
	for (i = 1; i < *argc; i++)
		if (rules_find(*ep, argv[i], &rv) == NULL)
			return (cli_error(rv, "nothing was %s", done));
	return (0);
}

static int
rules_delete(struct cli *c, const struct kind *k, int argc, char **argv)
{
	struct http_response	 resp;
	cJSON			*ep, *deleted;
	char			*path, *one;
	int			 i, rv = 0, r;

	if (argc < 2)
		return (cli_usage_error("delete %s: at least one ID",
		    k->name));
	if ((rv = rules_load_ids(c, &argc, argv, "deleted", &path, &ep)) != 0)
		goto out;
	deleted = cJSON_CreateArray();
	for (i = 1; i < argc; i++) {
		if ((one = rules_path(c, RULESETS_RULE_PATH, ep, argv[i],
		    &r)) != NULL) {
			r = cli_send_json(c, "DELETE", one, NULL, &resp);
			if (r == 0) {
				cli_journal(c, "DELETE", one, resp.http_status,
				    rulesets_rule_find(ep, argv[i], NULL),
				    NULL);
				cli_deleted(c, k, argv[i], rulesets_rule_find(
				    ep, argv[i], NULL), deleted);
			}
			http_response_free(&resp);
			free(one);
		}
		rv = MAXIMUM(rv, r);
	}
	if (cJSON_GetArraySize(deleted) > 0 || rv == 0)
		cli_deleted_print(c, deleted);
	cJSON_Delete(deleted);
out:
	cJSON_Delete(ep);
	free(path);
	fflush(stdout);
	return (rv);
}

/* ---- enable and disable ------------------------------------------------- */

/* One rule's enabled set, from the rule as the entry point has it now. */
static int
rules_enable_one(struct cli *c, const struct kind *k, const char *path,
    const char *id, int on)
{
	struct http_response	 resp;
	const cJSON		*rule;
	cJSON			*ep = NULL, *body;
	char			*one;
	const char		*done = on ? "enabled" : "disabled";
	int			 rv;

	/* Read right before: the PATCH replaces the rule whole. */
	if ((rv = rules_entrypoint(c, path, &ep)) != 0 ||
	    (rule = rules_find(ep, id, &rv)) == NULL)
		goto out;
	if (rulesets_rule_enabled(rule) == on) {
		/* -o json|yaml: the rule as it is, the note aside. */
		fprintf(c->out == CLI_OUT_TABLE ? stdout : stderr,
		    "%s %s is %s already: nothing sent\n", k->name, id, done);
		if (c->out != CLI_OUT_TABLE)
			cli_print_record(c, k, rule);
		goto out;
	}
	if ((one = rules_path(c, RULESETS_RULE_PATH, ep, id, &rv)) == NULL)
		goto out;
	body = rulesets_rule_enable_body(rule, on);
	rv = cli_send_json(c, "PATCH", one, body, &resp);
	if (rv == 0) {
		cli_journal(c, "PATCH", one, resp.http_status, rule,
		    rulesets_rule_find(resp.api.result, id, NULL));
		if (c->out == CLI_OUT_TABLE)
			printf("%s %s %s\n", done, k->name, id);
		else
			cli_print_record(c, k, rulesets_rule_find(
			    resp.api.result, id, NULL));
	}
	http_response_free(&resp);
	cJSON_Delete(body);
	free(one);
out:
	cJSON_Delete(ep);
	return (rv);
}

/*
 * Each rule PATCHed whole with enabled flipped, as t does in the console,
 * each from the rule as the server has it just before; one already so is
 * said and not sent. Every id is found first.
 */
static int
rules_enable_run(struct cli *c, const struct kind *k, int argc, char **argv,
    int on)
{
	cJSON			*ep;
	char			*path;
	const char		*done = on ? "enabled" : "disabled";
	int			 i, rv = 0, r;

	if (argc < 2)
		return (cli_usage_error("%s %s: at least one ID is needed",
		    on ? "enable" : "disable", k->name));
	if ((rv = rules_load_ids(c, &argc, argv, done, &path, &ep)) != 0)
		goto out;
	for (i = 1; i < argc; i++) {
		r = rules_enable_one(c, k, path, argv[i], on);
		rv = MAXIMUM(rv, r);
	}
out:
	cJSON_Delete(ep);
	free(path);
	fflush(stdout);
	return (rv);
}

static int
rules_enable(struct cli *c, const struct kind *k, int argc, char **argv)
{
	return (rules_enable_run(c, k, argc, argv, 1));
}

static int
rules_disable(struct cli *c, const struct kind *k, int argc, char **argv)
{
	return (rules_enable_run(c, k, argc, argv, 0));
}

/* ---- rule-versions N ---------------------------------------------------- */

/* A string member of the server's, safe for a terminal ("-": none). */
static const char *
rules_clean(const cJSON *o, const char *key, char *buf, size_t size)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	text_sanitize(cJSON_IsString(v) ? v->valuestring : "-", buf, size, 0);
	return (buf);
}

/* A version as a table: which ruleset, when and how many rules, then its
 * rules. */
static void
rules_version_print(struct cli *c, const cJSON *rs)
{
	char	v[32], name[128], id[40], when[64];
	int	n = cJSON_GetArraySize(rulesets_rules(rs));

	printf("version %s of ruleset %s (%s), updated %s, %d rule%s\n",
	    rules_clean(rs, "version", v, sizeof v),
	    rules_clean(rs, "name", name, sizeof name),
	    rules_clean(rs, "id", id, sizeof id),
	    rules_clean(rs, "last_updated", when, sizeof when), n,
	    n == 1 ? "" : "s");
	rules_print_list(c, rulesets_rules(rs), 0);
}

/* A list as a table of kind's columns, fitted to it. */
static void
rules_print_table(struct cli *c, const struct kind *k, const cJSON *list)
{
	struct cli_table	 t;
	const cJSON		*r;

	(void)c;
	cli_table_init(&t, k);
	cli_table_fit_list(&t, list);
	cli_table_header(&t);
	cJSON_ArrayForEach(r, list)
		cli_table_row(&t, r);
	fflush(stdout);
}

static void
rules_print_versions(struct cli *c, const cJSON *list)
{
	if (c->out == CLI_OUT_JSON)
		cli_print_json(list);
	else if (cJSON_GetArraySize(list) == 0)
		fputs("[]\n", stdout);
	else
		cli_print_yaml(list);
	fflush(stdout);
}

/*
 * The list of versions, newest first; a table marks the current one (the
 * newest), which the records do not say.
 */
static int
rules_version_list(struct cli *c, const struct kind *k)
{
	struct kind_column		 cols[16];
	struct kind			 marked = *k;
	struct http_response		 resp;
	cJSON				*list, *first;
	char				*path, *cause = NULL;
	size_t				 i;
	int				 rv;

	if (c->o->seen & CLI_OPT_FILTER)
		return (cli_usage_error("--filter: %s has no server-side "
		    "filters", k->name));
	if ((path = kind_list_path(k, c->vars, &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	if ((rv = cli_connect(c)) != 0 || (rv = cli_get(c, path, &resp)) != 0)
		goto out;
	list = cJSON_IsArray(resp.api.result) ?
	    cJSON_Duplicate(resp.api.result, 1) : cJSON_CreateArray();
	rulesets_versions_newest_first(list);
	while (c->o->limit > 0 && cJSON_GetArraySize(list) > c->o->limit)
		cJSON_DeleteItemFromArray(list, cJSON_GetArraySize(list) - 1);
	if (c->out != CLI_OUT_TABLE) {
		rules_print_versions(c, list);
		cJSON_Delete(list);
		goto out;
	}
	/* The kind's columns with CURRENT after VERSION. */
	cols[0] = k->columns[0];
	cols[1] = (struct kind_column){ .header = "CURRENT", .path =
	    "current", .width = 7, .format = KIND_FMT_BOOL, .none = "",
	    .flags = KIND_COL_DEFAULT };
	for (i = 1; k->columns[i].header != NULL && i + 2 < nitems(cols); i++)
		cols[i + 1] = k->columns[i];
	cols[i + 1].header = NULL;
	marked.columns = cols;
	if ((first = cJSON_GetArrayItem(list, 0)) != NULL)
		cJSON_AddTrueToObject(first, "current");
	rules_print_table(c, &marked, list);
	cJSON_Delete(list);
out:
	http_response_free(&resp);
	free(path);
	return (rv);
}

static int
rules_version_get(struct cli *c, const struct kind *k, int argc, char **argv)
{
	struct http_response	 resp;
	const char		*n = argv[1], *s;
	char			*path, *cause = NULL;
	int			 rv;

	if (argc < 2)
		return (rules_version_list(c, k));
	if (c->o->seen & (CLI_OPT_LIMIT | CLI_OPT_FILTER))
		return (cli_usage_error("--limit and --filter are for lists"));
	for (s = n; isdigit((unsigned char)*s); s++)
		continue;
	if (*n == '\0' || *s != '\0' || s - n > 18)
		return (cli_usage_error("%s: '%.40s' is not a version number",
		    k->name, n));
	if ((path = kind_item_path(k, c->vars, n, &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	if ((rv = cli_connect(c)) != 0)
		goto out;
	if ((rv = cli_get(c, path, &resp)) == 0) {
		if (c->out == CLI_OUT_TABLE)
			rules_version_print(c, resp.api.result);
		else
			cli_print_record(c, k, resp.api.result);
	}
	http_response_free(&resp);
out:
	free(path);
	return (rv);
}

/* ---- dispatch ----------------------------------------------------------- */

int
cli_rules_kind(const struct kind *k)
{
	return (k == &kind_rate_limit_rules || k == &kind_rule_versions);
}

cli_run_cb
cli_rules_run(const struct cli_command *cmd, const struct kind *k)
{
	if (k == &kind_rule_versions && cmd->run == cli_cmd_get)
		return (rules_version_get);
	if (k != &kind_rate_limit_rules)
		return (NULL);
	if (cmd->run == cli_cmd_get)
		return (rules_get);
	if (cmd->run == cli_cmd_create)
		return (rules_create);
	if (cmd->run == cli_cmd_update)
		return (rules_update);
	if (cmd->run == cli_cmd_edit)
		return (rules_edit);
	if (cmd->run == cli_cmd_delete)
		return (rules_delete);
	if (cmd->run == cli_cmd_enable)
		return (rules_enable);
	if (cmd->run == cli_cmd_disable)
		return (rules_disable);
	return (NULL);
}

/* ---- rules test --------------------------------------------------------- */

static const char *
rules_str(const cJSON *rule, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(rule, key);

	return (cJSON_IsString(v) ? v->valuestring : "");
}

/* "match, counted", "match, may count: ...", "no match", ... */
static void
rules_test_verdict(const struct ruletest_result *r, int acts, char *buf,
    size_t size)
{
	const char	*count;

	switch (r->count) {
	case RULETEST_COUNTED:
		count = ", counted";
		break;
	case RULETEST_MAY_COUNT:
		count = ", may count";
		break;
	default:
		count = r->verdict == RULETEST_MATCH ? ", not counted" : "";
		break;
	}
	snprintf(buf, size, "%s%s%s%s%s", ruletest_verdict_name(r->verdict),
	    count, acts ? ", acts first" : "", *r->why != '\0' ? ": " : "",
	    r->why);
}

static void
rules_test_table(const struct ruletest_result *vs, int n, int acts)
{
	char	desc[128], action[64], id[40], verdict[400], *sum;
	int	i;

	printf("%-3s  %-32s  %-24s  %-17s  %s\n", "#", "ID", "DESCRIPTION",
	    "ACTION", "VERDICT");
	for (i = 0; i < n; i++) {
		text_sanitize(rules_str(vs[i].rule, "id"), id, sizeof id, 0);
		text_sanitize(rules_str(vs[i].rule, "description"), desc,
		    sizeof desc, 0);
		text_cut(desc, 24);
		text_sanitize(rules_str(vs[i].rule, "action"), action,
		    sizeof action, 0);
		rules_test_verdict(&vs[i], i == acts, verdict, sizeof verdict);
		printf("%-3d  %-32s  %-24s  %-17s  %s\n", vs[i].position,
		    id, *desc != '\0' ? desc : "-", action, verdict);
	}
	sum = ruletest_summary(vs, (size_t)n, acts);
	printf("%s\n", sum);
	free(sum);
}

/* {position, id, description, action} of a result. */
static cJSON *
rules_test_ref(const struct ruletest_result *r)
{
	cJSON	*o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "position", r->position);
	cJSON_AddStringToObject(o, "id", rules_str(r->rule, "id"));
	cJSON_AddStringToObject(o, "description", rules_str(r->rule,
	    "description"));
	cJSON_AddStringToObject(o, "action", rules_str(r->rule, "action"));
	return (o);
}

static cJSON *
rules_test_json(const struct ruletest_result *vs, int n, int acts)
{
	cJSON	*o = cJSON_CreateObject(), *list, *counted, *may, *one;
	char	*sum;
	int	 i;

	list = cJSON_AddArrayToObject(o, "rules");
	counted = cJSON_CreateArray();
	may = cJSON_CreateArray();
	for (i = 0; i < n; i++) {
		one = rules_test_ref(&vs[i]);
		cJSON_AddStringToObject(one, "verdict",
		    ruletest_verdict_name(vs[i].verdict));
		/* null: it depends on what is not known here. */
		if (vs[i].count == RULETEST_MAY_COUNT)
			cJSON_AddNullToObject(one, "counted");
		else
			cJSON_AddBoolToObject(one, "counted",
			    vs[i].count == RULETEST_COUNTED);
		cJSON_AddBoolToObject(one, "ends_evaluation",
		    vs[i].terminates);
		if (vs[i].verdict == RULETEST_INVALID)
			cJSON_AddStringToObject(one, "error", vs[i].why);
		else if (*vs[i].why != '\0')
			cJSON_AddStringToObject(one, "note", vs[i].why);
		cJSON_AddItemToArray(list, one);
		if (vs[i].count == RULETEST_COUNTED)
			cJSON_AddItemToArray(counted, rules_test_ref(&vs[i]));
		else if (vs[i].count == RULETEST_MAY_COUNT)
			cJSON_AddItemToArray(may, rules_test_ref(&vs[i]));
	}
	cJSON_AddItemToObject(o, "counted_by", counted);
	cJSON_AddItemToObject(o, "may_count", may);
	if (acts < 0)
		cJSON_AddNullToObject(o, "acts_first");
	else
		cJSON_AddItemToObject(o, "acts_first",
		    rules_test_ref(&vs[acts]));
	sum = ruletest_summary(vs, (size_t)n, acts);
	cJSON_AddStringToObject(o, "summary", sum);
	free(sum);
	return (o);
}

int
cli_cmd_rules_test(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	struct ruletest_result	*vs = NULL;
	struct expr_request	*rq;
	cJSON			*ep = NULL, *out;
	char			*path;
	size_t			 nvs = 0;
	int			 rv, n, acts = -1;

	(void)unused_k;
	(void)argc;
	(void)argv;
	if ((rq = cli_expr_request(c, &rv)) == NULL)
		return (rv);
	if ((path = rules_entrypoint_path(c, &rv)) == NULL)
		goto out;
	if ((rv = cli_connect(c)) != 0 ||
	    (rv = rules_entrypoint(c, path, &ep)) != 0)
		goto out;
	vs = ruletest_run(rulesets_rules(ep), rq, &nvs, &acts);
	n = (int)nvs;
	if (c->out == CLI_OUT_TABLE) {
		if (n == 0)
			printf("the zone has no rate limiting rules\n");
		else
			rules_test_table(vs, n, acts);
	} else {
		out = rules_test_json(vs, n, acts);
		if (c->out == CLI_OUT_JSON)
			cli_print_json(out);
		else
			cli_print_yaml(out);
		cJSON_Delete(out);
	}
	fflush(stdout);
out:
	free(vs);
	cJSON_Delete(ep);
	free(path);
	expr_request_free(rq);
	return (rv);
}
