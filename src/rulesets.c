/*
 * Rate limiting rules in the zone's http_ratelimit entry point: positions,
 * write bodies, finding rules in a ruleset and the lint before a write.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "apirules.h"
#include "buf.h"
#include "common.h"
#include "kind.h"
#include "log.h"
#include "rlrule.h"
#include "rulesets.h"
#include "xmalloc.h"

/* ---- positions ---------------------------------------------------------- */

int
rulesets_position_parse(const char *s, struct rulesets_position *p,
    char **cause)
{
	const char	*id = NULL;
	char		*end;
	long		 n;

	memset(p, 0, sizeof *p);
	if (s == NULL || *s == '\0') {
		*cause = xstrdup("--position: empty (first, last, before:ID, "
		    "after:ID or a number from 1)");
		return (-1);
	}
	if (strcmp(s, "first") == 0) {
		p->where = RULESETS_FIRST;
		return (0);
	}
	if (strcmp(s, "last") == 0) {
		p->where = RULESETS_LAST;
		return (0);
	}
	if (strncmp(s, "before:", 7) == 0) {
		p->where = RULESETS_BEFORE;
		id = s + 7;
	} else if (strncmp(s, "after:", 6) == 0) {
		p->where = RULESETS_AFTER;
		id = s + 6;
	}
	if (id != NULL) {
		if (!apirules_hex32_ok(id)) {
			*cause = xprintf("--position: '%.40s' is not a rule id "
			    "(32 hex digits)", id);
			return (-1);
		}
		snprintf(p->id, sizeof p->id, "%s", id);
		return (0);
	}
	if (isdigit((unsigned char)*s)) {
		errno = 0;
		n = strtol(s, &end, 10);
		if (*end == '\0' && errno == 0 && n >= 1 && n <= 100000) {
			p->where = RULESETS_INDEX;
			p->index = n;
			return (0);
		}
	}
	*cause = xprintf("--position: '%.40s' is not first, last, before:ID, "
	    "after:ID or a number from 1", s);
	return (-1);
}

cJSON *
rulesets_position_json(const struct rulesets_position *p)
{
	cJSON	*o = cJSON_CreateObject();

	/* An empty id is the API's own way to say first and last. */
	switch (p->where) {
	case RULESETS_FIRST:
		cJSON_AddStringToObject(o, "before", "");
		break;
	case RULESETS_LAST:
		cJSON_AddStringToObject(o, "after", "");
		break;
	case RULESETS_BEFORE:
		cJSON_AddStringToObject(o, "before", p->id);
		break;
	case RULESETS_AFTER:
		cJSON_AddStringToObject(o, "after", p->id);
		break;
	case RULESETS_INDEX:
		cJSON_AddNumberToObject(o, "index", (double)p->index);
		break;
	}
	return (o);
}

int
rulesets_position_check(const struct rulesets_position *p,
    const cJSON *rules, char **cause)
{
	const cJSON	*r, *id;
	int		 n = cJSON_GetArraySize(rules);

	switch (p->where) {
	case RULESETS_FIRST:
	case RULESETS_LAST:
		return (0);
	case RULESETS_INDEX:
		if (p->index <= (long)n + 1)
			return (0);
		*cause = xprintf("--position %ld is out of range: give a "
		    "number from 1 to %d", p->index, n + 1);
		return (-1);
	case RULESETS_BEFORE:
	case RULESETS_AFTER:
		cJSON_ArrayForEach(r, rules) {
			id = cJSON_GetObjectItemCaseSensitive(r, "id");
			if (cJSON_IsString(id) &&
			    strcasecmp(id->valuestring, p->id) == 0)
				return (0);
		}
		*cause = xprintf("--position %s:%s: the zone has no such rate "
		    "limiting rule", p->where == RULESETS_BEFORE ? "before" :
		    "after", p->id);
		return (-1);
	}
	return (0);
}

/* ---- rules in a ruleset ------------------------------------------------- */

const cJSON *
rulesets_rules(const cJSON *ruleset)
{
	const cJSON	*rules;

	rules = cJSON_GetObjectItemCaseSensitive(ruleset, "rules");
	return (cJSON_IsArray(rules) ? rules : NULL);
}

static const char *
rulesets_rule_id(const cJSON *rule)
{
	const cJSON	*id = cJSON_GetObjectItemCaseSensitive(rule, "id");

	return (cJSON_IsString(id) ? id->valuestring : NULL);
}

const cJSON *
rulesets_rule_find(const cJSON *ruleset, const char *id, int *pos)
{
	const cJSON	*r;
	const char	*rid;
	int		 i = 0;

	cJSON_ArrayForEach(r, rulesets_rules(ruleset)) {
		i++;
		rid = rulesets_rule_id(r);
		if (rid != NULL && id != NULL && strcasecmp(rid, id) == 0) {
			if (pos != NULL)
				*pos = i;
			return (r);
		}
	}
	return (NULL);
}

const cJSON *
rulesets_rule_added(const cJSON *before, const cJSON *after)
{
	const cJSON	*r;
	const char	*id;

	cJSON_ArrayForEach(r, rulesets_rules(after)) {
		id = rulesets_rule_id(r);
		if (id != NULL && rulesets_rule_find(before, id, NULL) == NULL)
			return (r);
	}
	return (NULL);
}

void
rulesets_number(cJSON *rules)
{
	cJSON	*r;
	int	 i = 0;

	if (!cJSON_IsArray(rules))
		return;
	cJSON_ArrayForEach(r, rules) {
		if (!cJSON_IsObject(r))
			continue;
		cJSON_DeleteItemFromObjectCaseSensitive(r, "position");
		cJSON_AddNumberToObject(r, "position", ++i);
	}
}

/* A version's number ("12"), or -1 for one that is not. */
static long long
rulesets_version_number(const cJSON *v)
{
	const cJSON	*n = cJSON_GetObjectItemCaseSensitive(v, "version");
	const char	*s;
	long long	 x = 0;

	if (cJSON_IsNumber(n))
		return (n->valuedouble >= 0 ? (long long)n->valuedouble : -1);
	if (!cJSON_IsString(n) || *n->valuestring == '\0')
		return (-1);
	for (s = n->valuestring; *s >= '0' && *s <= '9'; s++) {
		if (x > (LLONG_MAX - 9) / 10)
			return (-1);
		x = x * 10 + (*s - '0');
	}
	return (*s == '\0' ? x : -1);
}

struct rulesets_ver {
	cJSON		*item;
	long long	 n;
	size_t		 at;
};

static int
rulesets_ver_cmp(const void *a0, const void *b0)
{
	const struct rulesets_ver	*a = a0, *b = b0;

	if (a->n != b->n)
		return (a->n > b->n ? -1 : 1);
	return (a->at < b->at ? -1 : a->at > b->at);
}

void
rulesets_versions_newest_first(cJSON *list)
{
	struct rulesets_ver	*v;
	cJSON			*item;
	size_t			 n = 0, i;

	if (!cJSON_IsArray(list))
		return;
	v = xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof *v);
	while ((item = cJSON_DetachItemFromArray(list, 0)) != NULL) {
		v[n].item = item;
		v[n].n = rulesets_version_number(item);
		v[n].at = n;
		n++;
	}
	qsort(v, n, sizeof *v, rulesets_ver_cmp);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(list, v[i].item);
	free(v);
}

/* ---- bodies ------------------------------------------------------------- */

cJSON *
rulesets_rule_body(const cJSON *rule)
{
	static const char *const server_set[] = {
		"id", "version", "last_updated", "position"
	};
	cJSON	*body;
	size_t	 i;

	if ((body = cJSON_Duplicate(rule, 1)) == NULL)
		fatalx("out of memory");
	for (i = 0; i < nitems(server_set); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(body, server_set[i]);
	return (body);
}

int
rulesets_rule_enabled(const cJSON *rule)
{
	return (!cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(rule,
	    "enabled")));
}

cJSON *
rulesets_rule_enable_body(const cJSON *rule, int enable)
{
	cJSON	*body = rulesets_rule_body(rule);

	cJSON_DeleteItemFromObjectCaseSensitive(body, "enabled");
	cJSON_AddBoolToObject(body, "enabled", enable);
	return (body);
}

cJSON *
rulesets_entrypoint_body(const cJSON *rule)
{
	cJSON	*body = cJSON_CreateObject(), *rules;

	/* The docs require all three; the SDK types them optional. */
	cJSON_AddStringToObject(body, "name", RULESETS_ENTRYPOINT_NAME);
	cJSON_AddStringToObject(body, "kind", "zone");
	cJSON_AddStringToObject(body, "phase", RULESETS_PHASE);
	rules = cJSON_AddArrayToObject(body, "rules");
	cJSON_AddItemToArray(rules, rulesets_rule_body(rule));
	return (body);
}

char *
rulesets_characteristics_text(const cJSON *list)
{
	struct buf	 b = BUF_INITIALIZER;
	const cJSON	*c;

	cJSON_ArrayForEach(c, list) {
		if (cJSON_IsString(c))
			buf_addf(&b, "%s%s", b.len > 0 ? ", " : "",
			    c->valuestring);
	}
	return (buf_detach(&b, NULL));
}

cJSON *
rulesets_characteristics_parse(const char *s)
{
	cJSON		*list = cJSON_CreateArray();
	const char	*p = s, *e, *end;
	char		*one;
	int		 quoted;

	while (*p != '\0') {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		for (quoted = 0, e = p; *e != '\0'; e++) {
			if (*e == '"')
				quoted = !quoted;
			else if (*e == ',' && !quoted)
				break;
		}
		for (end = e; end > p && end[-1] == ' '; end--)
			;
		one = xstrndup(p, (size_t)(end - p));
		if (!cJSON_AddItemToArray(list, cJSON_CreateString(one)))
			fatalx("out of memory");
		free(one);
		p = e;
	}
	return (list);
}

/* ---- lint --------------------------------------------------------------- */

static int
rulesets_lint_expr(const cJSON *rule, const char *field, int counting,
    enum expr_plan plan, struct rulesets_lint *l)
{
	struct expr_options	 opts;
	const cJSON		*v;

	v = counting ? cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(rule, "ratelimit"),
	    "counting_expression") : cJSON_GetObjectItemCaseSensitive(rule,
	    "expression");
	/* An empty counting expression means "the same as expression". */
	if (!cJSON_IsString(v) || (counting && *v->valuestring == '\0'))
		return (0);
	memset(&opts, 0, sizeof opts);
	opts.plan = plan;
	opts.counting = counting;
	if (expr_check(v->valuestring, &opts, &l->err) == 0)
		return (0);
	snprintf(l->field, sizeof l->field, "%s", field);
	l->text = v->valuestring;
	return (-1);
}

int
rulesets_lint(const cJSON *rule, enum expr_plan plan, struct rulesets_lint *l)
{
	struct rlrule_problem	 p;
	const cJSON		*v;

	memset(l, 0, sizeof *l);
	if (rulesets_lint_expr(rule, "expression", 0, plan, l) != 0 ||
	    rulesets_lint_expr(rule, "ratelimit.counting_expression", 1, plan,
	    l) != 0)
		return (-1);
	memset(&p, 0, sizeof p);
	if (rlrule_check(rule, plan, &p) == 0)
		return (0);
	snprintf(l->field, sizeof l->field, "%s", p.field);
	snprintf(l->err.message, sizeof l->err.message, "%s", p.message);
	l->err.column = p.column;
	l->err.length = 1;
	/* A column in an expression is shown under it. */
	if (p.column > 0 && strcmp(p.field, "expression") == 0)
		v = cJSON_GetObjectItemCaseSensitive(rule, "expression");
	else if (p.column > 0 &&
	    strcmp(p.field, "ratelimit.counting_expression") == 0)
		v = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(rule, "ratelimit"),
		    "counting_expression");
	else
		v = NULL;
	if (cJSON_IsString(v))
		l->text = v->valuestring;
	return (-1);
}

/*
 * A lint's problem as an edited file's comment says it: the field, line
 * and column, then the expression's line with a caret under the column.
 */
char *
rulesets_lint_comment(const struct rulesets_lint *l)
{
	char	*render, *nl, *s, *where;

	if (l->text == NULL || l->err.column <= 0)
		return (xprintf("%s: %s", l->field, l->err.message));
	render = expr_error_render(l->text, &l->err);
	nl = strchr(render, '\n');
	where = expr_error_where(l->text, &l->err);
	s = xprintf("%s: %s: %s\n%s", l->field, where, l->err.message,
	    nl != NULL ? nl + 1 : "");
	free(where);
	free(render);
	/* No empty comment line at the end. */
	if (*s != '\0' && s[strlen(s) - 1] == '\n')
		s[strlen(s) - 1] = '\0';
	return (s);
}
