/*
 * Rules of the http_ratelimit entry point: the rule as the service answers
 * it, the checks every write runs (rlrule_check with the --plan, the rule
 * count, refs), positions, dry_run, and the one-rule routes.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jsonutil.h"
#include "internal.h"
#include "text.h"

/* A member; null counts as absent. */
const cJSON *
rs_member(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	return (cJSON_IsNull(v) ? NULL : v);
}

enum expr_plan
rs_plan(const struct req *req)
{
	if (req->server == NULL)
		return (EXPR_PLAN_ENTERPRISE);
	return ((enum expr_plan)server_options(req->server)->plan);
}

/* "rules[2].ratelimit.characteristics[0]" -> "/rules/2/ratelimit/...". */
static void
rs_pointer(const char *field, char *out, size_t len)
{
	size_t	n = 0;

	for (; *field != '\0' && n + 2 < len; field++) {
		if (*field == '.' || *field == '[') {
			out[n++] = '/';
			continue;
		}
		if (*field == ']')
			continue;
		out[n++] = *field;
	}
	out[n] = '\0';
}

/*
 * A 400 whose message starts with the field, with the field also as a
 * JSON pointer in the error's source, as the service gives it.
 */
void
rs_invalid(struct reply *rep, const char *field, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, ptr[128];
	cJSON	*err, *src;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	reply_error(rep, 400, RS_ERR_INVALID, "%s: %s", field, msg);
	free(msg);
	ptr[0] = '/';
	rs_pointer(field, ptr + 1, sizeof ptr - 1);
	err = cJSON_GetArrayItem(rep->errors,
	    cJSON_GetArraySize(rep->errors) - 1);
	src = cJSON_AddObjectToObject(err, "source");
	cJSON_AddStringToObject(src, "pointer", ptr);
}

/* A rule's problem; an expression's also names the column. */
void
rs_invalid_problem(struct reply *rep, const char *field,
    const struct rlrule_problem *p)
{
	if (p->column > 0)
		rs_invalid(rep, field, "column %d: %s", p->column, p->message);
	else
		rs_invalid(rep, field, "%s", p->message);
}

/* dry_run=true|false; anything else is refused. */
int
rs_dry_run(struct req *req, struct reply *rep, int *dry)
{
	const char	*s = query_get(&req->query, "dry_run");

	*dry = 0;
	if (s == NULL || strcmp(s, "false") == 0)
		return (0);
	if (strcmp(s, "true") == 0) {
		*dry = 1;
		return (0);
	}
	reply_error(rep, 400, ERR_BAD_REQUEST, "dry_run: '%.*s' must be true "
	    "or false", text_quote_len(s), s);
	return (-1);
}

/* One rule through rlrule_check; prefix "rules[2]" or "" for a body. */
static int
rs_rule_check(struct req *req, struct reply *rep, const cJSON *rule,
    const char *prefix)
{
	struct rlrule_problem	p;
	char			field[160];

	if (rlrule_check(rule, rs_plan(req), &p) == 0)
		return (0);
	if (*prefix != '\0' && strcmp(p.field, "rule") == 0)
		snprintf(field, sizeof field, "%s", prefix);
	else
		snprintf(field, sizeof field, "%s%s%s", prefix,
		    *prefix != '\0' ? "." : "", p.field);
	rs_invalid_problem(rep, field, &p);
	return (-1);
}

static void
rs_copy(cJSON *to, const cJSON *from, const char *key)
{
	const cJSON	*v = rs_member(from, key);

	if (v != NULL)
		cJSON_AddItemToObject(to, key, cJSON_Duplicate(v, 1));
}

/*
 * The rule as stored and answered, from a checked body: known fields only,
 * defaults filled in; version and last_updated are set by rs_rule_stamp.
 */
cJSON *
rs_rule_build(const cJSON *in, const char *id, const char *ref)
{
	const cJSON	*rl = rs_member(in, "ratelimit"), *v, *ap;
	cJSON		*r, *out, *resp;

	r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "id", id);
	cJSON_AddStringToObject(r, "version", "1");
	rs_copy(r, in, "action");
	rs_copy(r, in, "expression");
	v = rs_member(in, "description");
	cJSON_AddStringToObject(r, "description", v != NULL ?
	    v->valuestring : "");
	cJSON_AddStringToObject(r, "last_updated", "");
	cJSON_AddStringToObject(r, "ref", ref);
	v = rs_member(in, "enabled");
	cJSON_AddBoolToObject(r, "enabled", v == NULL || cJSON_IsTrue(v));
	if ((v = rs_member(in, "logging")) != NULL) {
		out = cJSON_AddObjectToObject(r, "logging");
		cJSON_AddBoolToObject(out, "enabled",
		    !cJSON_IsFalse(rs_member(v, "enabled")));
	}
	ap = rs_member(in, "action_parameters");
	if ((v = rs_member(ap, "response")) != NULL) {
		out = cJSON_AddObjectToObject(r, "action_parameters");
		resp = cJSON_AddObjectToObject(out, "response");
		rs_copy(resp, v, "status_code");
		rs_copy(resp, v, "content_type");
		rs_copy(resp, v, "content");
	}
	out = cJSON_AddObjectToObject(r, "ratelimit");
	rs_copy(out, rl, "characteristics");
	rs_copy(out, rl, "period");
	rs_copy(out, rl, "requests_per_period");
	rs_copy(out, rl, "score_per_period");
	rs_copy(out, rl, "score_response_header_name");
	v = rs_member(rl, "mitigation_timeout");
	cJSON_AddNumberToObject(out, "mitigation_timeout", v != NULL ?
	    v->valuedouble : 0);
	v = rs_member(rl, "counting_expression");
	if (v != NULL && *v->valuestring != '\0')
		rs_copy(out, rl, "counting_expression");
	v = rs_member(rl, "requests_to_origin");
	cJSON_AddBoolToObject(out, "requests_to_origin", cJSON_IsTrue(v));
	return (r);
}

static void
rs_set_string(cJSON *o, const char *key, const char *value)
{
	cJSON_ReplaceItemInObjectCaseSensitive(o, key,
	    cJSON_CreateString(value));
}

/*
 * A built rule's version: the old one's when nothing changed, else one up
 * (1 for a new rule) with last_updated now.
 */
void
rs_rule_stamp(cJSON *rule, const cJSON *old, const char *now)
{
	cJSON		*a, *b;
	const char	*ov = NULL, *ot = NULL;
	char		 num[32];
	int		 same;

	if (old == NULL) {
		rs_set_string(rule, "version", "1");
		rs_set_string(rule, "last_updated", now);
		return;
	}
	a = cJSON_Duplicate(rule, 1);
	b = cJSON_Duplicate(old, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(a, "version");
	cJSON_DeleteItemFromObjectCaseSensitive(a, "last_updated");
	cJSON_DeleteItemFromObjectCaseSensitive(b, "version");
	cJSON_DeleteItemFromObjectCaseSensitive(b, "last_updated");
	same = cJSON_Compare(a, b, 1);
	cJSON_Delete(a);
	cJSON_Delete(b);
	util_jstring(old, "version", &ov);
	util_jstring(old, "last_updated", &ot);
	if (same && ov != NULL && ot != NULL) {
		rs_set_string(rule, "version", ov);
		rs_set_string(rule, "last_updated", ot);
		return;
	}
	snprintf(num, sizeof num, "%lld", (ov != NULL ? strtoll(ov, NULL,
	    10) : 0) + 1);
	rs_set_string(rule, "version", num);
	rs_set_string(rule, "last_updated", now);
}

/* The rule of that id (hex digits in either case) and its index, or NULL. */
cJSON *
rs_find_rule(const cJSON *rules, const char *id, int *at)
{
	cJSON		*r;
	const char	*rid;
	int		 i = 0;

	cJSON_ArrayForEach(r, rules) {
		if (util_jstring(r, "id", &rid) == UTIL_JOK &&
		    strcasecmp(rid, id) == 0) {
			if (at != NULL)
				*at = i;
			return (r);
		}
		i++;
	}
	return (NULL);
}

/*
 * What a whole list must satisfy once built: the plan's rule count and
 * refs told apart.
 */
int
rs_rules_check(struct req *req, struct reply *rep, const cJSON *rules)
{
	struct rlrule_problem	 p;
	const cJSON		*r, *o;
	const char		*ref, *oref;
	char			 field[64];
	int			 i = 0, j;

	if (rlrule_quota(cJSON_GetArraySize(rules), rs_plan(req), &p) != 0) {
		rs_invalid(rep, p.field, "%s", p.message);
		return (-1);
	}
	cJSON_ArrayForEach(r, rules) {
		if (util_jstring(r, "ref", &ref) != UTIL_JOK)
			continue;
		j = 0;
		cJSON_ArrayForEach(o, rules) {
			if (j >= i)
				break;
			if (util_jstring(o, "ref", &oref) == UTIL_JOK &&
			    strcmp(ref, oref) == 0) {
				snprintf(field, sizeof field, "rules[%d].ref",
				    i);
				rs_invalid(rep, field, "'%.*s' is already the "
				    "ref of rules[%d]", text_quote_len(ref),
				    ref, j);
				return (-1);
			}
			j++;
		}
		i++;
	}
	return (0);
}

/*
 * Where a position puts a rule in rules (which does not hold it): 0-based
 * in *at. self is the rule moved, NULL for a new one.
 */
static int
rs_position(struct reply *rep, const cJSON *pos, const cJSON *rules,
    const char *self, int *at)
{
	const cJSON	*v;
	const char	*key = NULL;
	int		 n = cJSON_GetArraySize(rules), keys = 0, i;
	double		 d;

	*at = n;
	if (pos == NULL)
		return (0);
	if (!cJSON_IsObject(pos)) {
		rs_invalid(rep, "position", "must be an object: {\"before\":"
		    "ID}, {\"after\":ID} or {\"index\":N}");
		return (-1);
	}
	cJSON_ArrayForEach(v, pos) {
		keys++;
		key = v->string;
	}
	if (keys != 1 || (strcmp(key, "before") != 0 &&
	    strcmp(key, "after") != 0 && strcmp(key, "index") != 0)) {
		rs_invalid(rep, "position", "takes exactly one of before, "
		    "after and index");
		return (-1);
	}
	v = cJSON_GetObjectItemCaseSensitive(pos, key);
	if (strcmp(key, "index") == 0) {
		d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
		if (!isfinite(d) || floor(d) != d) {
			rs_invalid(rep, "position.index", "must be an integer "
			    "(1 is first)");
			return (-1);
		}
		if (d < 1 || d > n + 1) {
			rs_invalid(rep, "position.index", "%.15g is out of "
			    "range (1 to %d)", d, n + 1);
			return (-1);
		}
		*at = (int)d - 1;
		return (0);
	}
	if (!cJSON_IsString(v)) {
		rs_invalid(rep, key[0] == 'b' ? "position.before" :
		    "position.after", "must be a rule id (\"\" for the %s)",
		    key[0] == 'b' ? "start" : "end");
		return (-1);
	}
	if (*v->valuestring == '\0') {
		*at = key[0] == 'b' ? 0 : n;
		return (0);
	}
	if (self != NULL && strcasecmp(v->valuestring, self) == 0) {
		rs_invalid(rep, key[0] == 'b' ? "position.before" :
		    "position.after", "a rule cannot be placed relative to "
		    "itself");
		return (-1);
	}
	if (rs_find_rule(rules, v->valuestring, &i) == NULL) {
		rs_invalid(rep, key[0] == 'b' ? "position.before" :
		    "position.after", "no rule '%.*s' in the ruleset",
		    text_quote_len(v->valuestring), v->valuestring);
		return (-1);
	}
	*at = key[0] == 'b' ? i : i + 1;
	return (0);
}

/*
 * Insert at a 0-based place. Not cJSON_InsertItemInArray: cJSON 1.7.15
 * refuses (and leaks) an insertion in the middle of an array.
 */
static void
rs_insert(cJSON *rules, int at, cJSON *rule)
{
	cJSON	*tail = cJSON_CreateArray(), *it;

	while (cJSON_GetArraySize(rules) > at) {
		it = cJSON_DetachItemFromArray(rules, at);
		cJSON_AddItemToArray(tail, it);
	}
	cJSON_AddItemToArray(rules, rule);
	while ((it = cJSON_DetachItemFromArray(tail, 0)) != NULL)
		cJSON_AddItemToArray(rules, it);
	cJSON_Delete(tail);
}

/* The ruleset named by the path, newest version; NULL when replied. */
static cJSON *
rs_path_ruleset(struct req *req, struct reply *rep)
{
	const char	*id = req_param(req, "ruleset_id");
	cJSON		*doc;
	int		 rc;

	rc = rs_load(req->store, req_param(req, "zone"), id, 0, &doc);
	if (rc == 1)
		return (doc);
	if (rc == 0)
		reply_error(rep, 404, ERR_NOT_FOUND, "ruleset %s not found in "
		    "this zone", id);
	else
		rs_store_reply(req, rep, rc);
	return (NULL);
}

static int
rs_body_object(struct req *req, struct reply *rep)
{
	if (cJSON_IsObject(req->json))
		return (0);
	reply_error(rep, 400, ERR_BAD_REQUEST, "a JSON object is required: "
	    "a rule%s", req->method == HTTP_PATCH ? " or {\"position\":...}" :
	    "");
	return (-1);
}

/* POST .../rulesets/{ruleset_id}/rules: one rule, at the end by default. */
void
rs_rule_post(struct req *req, struct reply *rep)
{
	cJSON		*doc, *rules, *rule;
	const char	*ref = NULL;
	char		 id[HEX32_LEN + 1], now[ISO_TIME_LEN];
	int		 dry, at;

	if (rs_dry_run(req, rep, &dry) != 0 || rs_body_object(req, rep) != 0)
		return;
	if ((doc = rs_path_ruleset(req, rep)) == NULL)
		return;
	rules = cJSON_GetObjectItemCaseSensitive(doc, "rules");
	if (rs_rule_check(req, rep, req->json, "") != 0 ||
	    rs_position(rep, rs_member(req->json, "position"), rules, NULL,
	    &at) != 0) {
		cJSON_Delete(doc);
		return;
	}
	util_hex32(id);
	util_jstring(req->json, "ref", &ref);
	util_now_iso(now);
	rule = rs_rule_build(req->json, id, ref != NULL ? ref : id);
	rs_rule_stamp(rule, NULL, now);
	rs_insert(rules, at, rule);
	if (rs_rules_check(req, rep, rules) != 0) {
		cJSON_Delete(doc);
		return;
	}
	rs_write(req, rep, doc, dry);
}

/* Only position (and the rule's own id): a move. */
static int
rs_move_only(const cJSON *body)
{
	const cJSON	*v;
	int		 pos = 0;

	cJSON_ArrayForEach(v, body) {
		if (strcmp(v->string, "position") == 0)
			pos = !cJSON_IsNull(v);
		else if (strcmp(v->string, "id") != 0)
			return (0);
	}
	return (pos);
}

/*
 * PATCH .../rules/{rule_id}: the body replaces the rule (not a merge; ref
 * stays when left out); a body of only position moves it unchanged.
 */
void
rs_rule_patch(struct req *req, struct reply *rep)
{
	const char	*rid = req_param(req, "rule_id"), *ref = NULL, *bid;
	cJSON		*doc, *rules, *old, *rule;
	char		 now[ISO_TIME_LEN];
	int		 dry, at, to;

	if (rs_dry_run(req, rep, &dry) != 0 || rs_body_object(req, rep) != 0)
		return;
	if ((doc = rs_path_ruleset(req, rep)) == NULL)
		return;
	rules = cJSON_GetObjectItemCaseSensitive(doc, "rules");
	if ((old = rs_find_rule(rules, rid, &at)) == NULL) {
		reply_error(rep, 404, ERR_NOT_FOUND, "rule %s not found in "
		    "ruleset %s", rid, req_param(req, "ruleset_id"));
		cJSON_Delete(doc);
		return;
	}
	if (util_jstring(req->json, "id", &bid) == UTIL_JOK &&
	    strcasecmp(bid, rid) != 0) {
		rs_invalid(rep, "id", "'%.*s' is not the rule in the path (%s)",
		    text_quote_len(bid), bid, rid);
		cJSON_Delete(doc);
		return;
	}
	cJSON_DetachItemViaPointer(rules, old);
	if (rs_move_only(req->json))
		rule = old;
	else {
		if (rs_rule_check(req, rep, req->json, "") != 0) {
			cJSON_Delete(old);
			cJSON_Delete(doc);
			return;
		}
		if (util_jstring(req->json, "ref", &ref) != UTIL_JOK)
			util_jstring(old, "ref", &ref);
		util_now_iso(now);
		rule = rs_rule_build(req->json, rid, ref != NULL ? ref : rid);
		rs_rule_stamp(rule, old, now);
		cJSON_Delete(old);
	}
	to = at;
	if (rs_member(req->json, "position") != NULL &&
	    rs_position(rep, rs_member(req->json, "position"), rules, rid,
	    &to) != 0) {
		cJSON_Delete(rule);
		cJSON_Delete(doc);
		return;
	}
	rs_insert(rules, to, rule);
	if (rs_rules_check(req, rep, rules) != 0) {
		cJSON_Delete(doc);
		return;
	}
	rs_write(req, rep, doc, dry);
}

/* DELETE .../rules/{rule_id}: the ruleset with the rules left. */
void
rs_rule_delete(struct req *req, struct reply *rep)
{
	const char	*rid = req_param(req, "rule_id");
	cJSON		*doc, *rules;
	int		 dry, at;

	if (rs_dry_run(req, rep, &dry) != 0)
		return;
	if ((doc = rs_path_ruleset(req, rep)) == NULL)
		return;
	rules = cJSON_GetObjectItemCaseSensitive(doc, "rules");
	if (rs_find_rule(rules, rid, &at) == NULL) {
		reply_error(rep, 404, ERR_NOT_FOUND, "rule %s not found in "
		    "ruleset %s", rid, req_param(req, "ruleset_id"));
		cJSON_Delete(doc);
		return;
	}
	cJSON_DeleteItemFromArray(rules, at);
	rs_write(req, rep, doc, dry);
}
