/*
 * The rules tester's logic (ruletest.h): the request from typed inputs,
 * the verdict of each rule, the explained tree, and the rules with one
 * being edited in its place.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "common.h"
#include "rlrule.h"
#include "ruletest.h"
#include "xmalloc.h"

/* ---- the request -------------------------------------------------------- */

static int
ruletest_fail(struct ruletest_error *err, enum ruletest_field field,
    size_t header, const char *what, const char *text)
{
	err->field = field;
	err->header = header;
	snprintf(err->message, sizeof err->message, "'%.200s' %s", text,
	    what);
	return (-1);
}

/* "Name: value" into the request; -1 when there is no name. */
static int
ruletest_header(struct expr_request *rq, const char *line)
{
	const char	*colon = strchr(line, ':'), *v;
	char		*name;

	if (colon == NULL || colon == line)
		return (-1);
	name = xstrndup(line, (size_t)(colon - line));
	for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
		continue;
	expr_request_add_header(rq, name, v);
	free(name);
	return (0);
}

static int
ruletest_given(const char *s)
{
	return (s != NULL && *s != '\0');
}

struct expr_request *
ruletest_request(const struct ruletest_input *in, struct ruletest_error *err)
{
	struct expr_request	*rq;
	const char		*method;
	char			 cc[3];
	size_t			 i;
	int			 bad = 0;

	memset(err, 0, sizeof *err);
	method = ruletest_given(in->method) ? in->method : "GET";
	rq = expr_request_new();
	if (in->url == NULL || expr_request_set(rq, method, in->url) != 0)
		bad = ruletest_fail(err, RULETEST_URL, 0, "is not an absolute "
		    "http or https URL", in->url != NULL ? in->url : "");
	else if (ruletest_given(in->ip) && expr_request_set_ip(rq, in->ip) != 0)
		bad = ruletest_fail(err, RULETEST_IP, 0, "is not an IPv4 or "
		    "IPv6 address", in->ip);
	for (i = 0; !bad && i < in->nheaders; i++)
		if (ruletest_header(rq, in->headers[i]) != 0)
			bad = ruletest_fail(err, RULETEST_HEADER, i, "is not "
			    "'Name: value'", in->headers[i]);
	if (!bad && ruletest_given(in->country)) {
		if (strlen(in->country) != 2 ||
		    !isalpha((unsigned char)in->country[0]) ||
		    !isalpha((unsigned char)in->country[1]))
			bad = ruletest_fail(err, RULETEST_COUNTRY, 0, "is not a "
			    "two-letter country code", in->country);
		else {
			/* As the edge writes ip.src.country: upper case. */
			cc[0] = (char)toupper((unsigned char)in->country[0]);
			cc[1] = (char)toupper((unsigned char)in->country[1]);
			cc[2] = '\0';
			expr_request_set_country(rq, cc);
		}
	}
	if (bad) {
		expr_request_free(rq);
		return (NULL);
	}
	if (in->status != 0)
		expr_request_set_status(rq, in->status);
	return (rq);
}

/* ---- verdicts ----------------------------------------------------------- */

const char *
ruletest_verdict_name(enum ruletest_verdict v)
{
	switch (v) {
	case RULETEST_MATCH:
		return ("match");
	case RULETEST_DISABLED:
		return ("disabled");
	case RULETEST_INVALID:
		return ("invalid");
	case RULETEST_UNKNOWN:
		return ("unknown");
	case RULETEST_NO_MATCH:
		break;
	}
	return ("no match");
}

static const char *
ruletest_string(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	return (cJSON_IsString(v) ? v->valuestring : "");
}

static const char *
ruletest_expression(const cJSON *rule)
{
	return (ruletest_string(rule, "expression"));
}

/* "list $a is not known here", "lists $a and $b are ...". */
static void
ruletest_lists_why(const struct expr *e, char *why, size_t size)
{
	const char	*names[3];
	size_t		 n;

	n = expr_lists(e, names, nitems(names));
	if (n == 1)
		snprintf(why, size, "list $%s is not known here", names[0]);
	else if (n == 2)
		snprintf(why, size, "lists $%s and $%s are not known here",
		    names[0], names[1]);
	else
		snprintf(why, size, "lists $%s, $%s... are not known here",
		    names[0], names[1]);
}

/* The expression's error where it is, as the command line says it. */
static void
ruletest_invalid(const char *field, const char *text,
    const struct expr_error *err, char *why, size_t size)
{
	int	line, col;

	expr_error_place(text, err, &line, &col);
	snprintf(why, size, "%s:%d:%d: %s", field, line, col, err->message);
}

/*
 * Whether a matching rule counts the request: its counting expression
 * decides when it has one (it may read the response, which is known only
 * when the request gives a status), else the expression that matched.
 */
static void
ruletest_count(const cJSON *rule, struct expr_request *rq,
    struct ruletest_result *res)
{
	struct expr_options	 opts = { EXPR_PLAN_NONE, 1 };
	struct expr_error	 err;
	struct expr		*e;
	const char		*text;

	text = ruletest_string(cJSON_GetObjectItemCaseSensitive(rule,
	    "ratelimit"), "counting_expression");
	if (*text == '\0') {
		res->count = RULETEST_COUNTED;
		return;
	}
	if ((e = expr_parse(text, &opts, &err)) == NULL) {
		res->count = RULETEST_MAY_COUNT;
		ruletest_invalid("counting_expression", text, &err, res->why,
		    sizeof res->why);
		return;
	}
	if (expr_reads_response(e) && !expr_request_has_response(rq)) {
		res->count = RULETEST_MAY_COUNT;
		snprintf(res->why, sizeof res->why, "its counting expression "
		    "reads the response, which the request does not give");
	} else {
		switch (expr_eval_lists(e, rq)) {
		case EXPR_TRUE:
			res->count = RULETEST_COUNTED;
			break;
		case EXPR_UNKNOWN:
			res->count = RULETEST_MAY_COUNT;
			ruletest_lists_why(e, res->why, sizeof res->why);
			break;
		default:
			res->count = RULETEST_NOT_COUNTED;
			snprintf(res->why, sizeof res->why, "not counted: its "
			    "counting expression does not match");
			break;
		}
	}
	expr_free(e);
}

static void
ruletest_judge(const cJSON *rule, struct expr_request *rq,
    struct ruletest_result *res)
{
	struct expr_error	 err;
	struct expr		*e;

	res->count = RULETEST_NOT_COUNTED;
	res->terminates = rlrule_action_terminates(ruletest_string(rule,
	    "action"));
	if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(rule, "enabled"))) {
		res->verdict = RULETEST_DISABLED;
		return;
	}
	/* The service's language, no plan: the rule is already there. */
	if ((e = expr_parse(ruletest_expression(rule), NULL, &err)) == NULL) {
		res->verdict = RULETEST_INVALID;
		ruletest_invalid("expression", ruletest_expression(rule), &err,
		    res->why, sizeof res->why);
		return;
	}
	switch (expr_eval_lists(e, rq)) {
	case EXPR_TRUE:
		res->verdict = RULETEST_MATCH;
		ruletest_count(rule, rq, res);
		break;
	case EXPR_UNKNOWN:
		res->verdict = RULETEST_UNKNOWN;
		res->count = RULETEST_MAY_COUNT;
		if (expr_lists(e, NULL, 0) > 0)
			ruletest_lists_why(e, res->why, sizeof res->why);
		else
			snprintf(res->why, sizeof res->why, "%s",
			    RULETEST_UNKNOWN_WHY);
		break;
	default:
		res->verdict = RULETEST_NO_MATCH;
		break;
	}
	expr_free(e);
}

struct ruletest_result *
ruletest_run(const cJSON *rules, struct expr_request *rq, size_t *n,
    int *acts)
{
	struct ruletest_result	*res;
	const cJSON		*r;
	size_t			 i = 0;

	*acts = -1;
	res = xcalloc((size_t)cJSON_GetArraySize(rules) + 1, sizeof *res);
	cJSON_ArrayForEach(r, rules) {
		res[i].position = (int)i + 1;
		res[i].rule = r;
		ruletest_judge(r, rq, &res[i]);
		if (*acts < 0 && res[i].verdict == RULETEST_MATCH &&
		    res[i].terminates)
			*acts = (int)i;
		i++;
	}
	*n = i;
	return (res);
}

/* " #1, #4" for the results whose count is c. */
static int
ruletest_positions(struct buf *b, const struct ruletest_result *res,
    size_t n, enum ruletest_count c)
{
	size_t	i;
	int	k = 0;

	for (i = 0; i < n; i++)
		if (res[i].count == c)
			buf_addf(b, "%s#%d", k++ == 0 ? "" : ", ",
			    res[i].position);
	return (k);
}

char *
ruletest_summary(const struct ruletest_result *res, size_t n, int acts)
{
	struct buf	 b = BUF_INITIALIZER;
	size_t		 i;
	int		 k, matched = 0;

	buf_adds(&b, "counted by ");
	if ((k = ruletest_positions(&b, res, n, RULETEST_COUNTED)) == 0)
		buf_reset(&b);
	else if (k > 1)
		buf_adds(&b, " (each in its own counters)");
	for (i = 0; i < n; i++) {
		if (res[i].count == RULETEST_MAY_COUNT)
			buf_addf(&b, "%s#%d may count it (%s)", b.len > 0 ?
			    "; " : "", res[i].position, res[i].why);
		matched |= res[i].verdict == RULETEST_MATCH ||
		    res[i].verdict == RULETEST_UNKNOWN;
	}
	if (b.len == 0)
		buf_adds(&b, matched ? "no rule counts it" : "no rule matches");
	if (acts >= 0)
		buf_addf(&b, "; #%d (%s) acts first once over its rate, and "
		    "evaluation stops there", res[acts].position,
		    ruletest_string(res[acts].rule, "action"));
	else if (matched)
		buf_adds(&b, "; no matching rule would stop evaluation");
	/* A rule before it that may match may act before it. */
	for (i = 0; i < n && (acts < 0 || i < (size_t)acts); i++)
		if (res[i].verdict == RULETEST_UNKNOWN && res[i].terminates)
			buf_addf(&b, " (unless #%d, which may match, acts "
			    "before)", res[i].position);
	return (buf_detach(&b, NULL));
}

/* ---- the explained tree ------------------------------------------------- */

const char *
ruletest_value_name(enum expr_value v)
{
	switch (v) {
	case EXPR_TRUE:
		return ("true");
	case EXPR_MISSING:
		return ("missing");
	case EXPR_UNKNOWN:
		return ("unknown");
	case EXPR_FALSE:
		break;
	}
	return ("false");
}

struct ruletest_steps {
	struct ruletest_step	*s;
	size_t			 n;
	size_t			 size;
};

static void
ruletest_step_add(const struct expr_step *step, void *arg)
{
	struct ruletest_steps	*ss = arg;
	struct ruletest_step	*s;

	if (ss->n == ss->size) {
		ss->size = ss->size == 0 ? 16 : ss->size * 2;
		ss->s = xreallocarray(ss->s, ss->size, sizeof *ss->s);
	}
	s = &ss->s[ss->n++];
	s->depth = step->depth;
	s->value = step->value;
	s->text = xstrdup(step->text != NULL ? step->text : "");
	s->seen = step->seen != NULL ? xstrdup(step->seen) : NULL;
}

struct ruletest_step *
ruletest_explain(const cJSON *rule, struct expr_request *rq, size_t *n,
    struct expr_error *err)
{
	struct ruletest_steps	 ss;
	struct expr		*e;

	*n = 0;
	memset(&ss, 0, sizeof ss);
	if ((e = expr_parse(ruletest_expression(rule), NULL, err)) == NULL)
		return (NULL);
	/* A list's comparison, and what it decides, is unknown here. */
	expr_explain_lists(e, rq, ruletest_step_add, &ss);
	expr_free(e);
	*n = ss.n;
	/* An expression always has a node: never NULL on success. */
	return (ss.s != NULL ? ss.s : xcalloc(1, sizeof *ss.s));
}

void
ruletest_steps_free(struct ruletest_step *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(s[i].text);
		free(s[i].seen);
	}
	free(s);
}

/* ---- an edited rule in its place ---------------------------------------- */

cJSON *
ruletest_rules_with(const cJSON *rules, const cJSON *edited, int *position)
{
	const cJSON	*r, *id, *rid;
	cJSON		*out;
	int		 i = 0, at = -1;

	out = cJSON_CreateArray();
	id = cJSON_GetObjectItemCaseSensitive(edited, "id");
	cJSON_ArrayForEach(r, rules) {
		rid = cJSON_GetObjectItemCaseSensitive(r, "id");
		if (at < 0 && edited != NULL && cJSON_IsString(id) &&
		    cJSON_IsString(rid) &&
		    strcmp(id->valuestring, rid->valuestring) == 0) {
			cJSON_AddItemToArray(out, cJSON_Duplicate(edited, 1));
			at = i;
		} else
			cJSON_AddItemToArray(out, cJSON_Duplicate(r, 1));
		i++;
	}
	if (edited != NULL && at < 0) {
		cJSON_AddItemToArray(out, cJSON_Duplicate(edited, 1));
		at = i;
	}
	if (position != NULL)
		*position = at;
	return (out);
}
