/*
 * Rulesets of a zone and its http_ratelimit entry point: create, list, get,
 * replace (PUT: the rule list replaces the old one, kept ids keep their
 * identity), and the versions every write leaves behind.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "apirules.h"
#include "jsonutil.h"
#include "internal.h"
#include "text.h"

static const char rs_versions_sql[] =
	"SELECT body FROM rs_version WHERE zone = ?1 AND id = ?2"
	" ORDER BY version";
static const char rs_seq_sql[] =
	"SELECT seq FROM rs_ruleset WHERE zone = ?1 AND id = ?2";
static const char rs_page_sql[] =
	"SELECT v.body FROM rs_ruleset r JOIN rs_version v"
	" ON v.zone = r.zone AND v.id = r.id AND v.version = r.version"
	" WHERE r.zone = ?1 AND r.seq > ?2 ORDER BY r.seq LIMIT ?3";

/* A ruleset before its first write: version 0, no rules. */
cJSON *
rs_new_ruleset(const char *id, const char *name, const char *description)
{
	cJSON	*doc = cJSON_CreateObject();

	cJSON_AddStringToObject(doc, "id", id);
	cJSON_AddStringToObject(doc, "name", name);
	cJSON_AddStringToObject(doc, "description", description);
	cJSON_AddStringToObject(doc, "kind", RS_KIND);
	cJSON_AddStringToObject(doc, "version", "0");
	cJSON_AddArrayToObject(doc, "rules");
	cJSON_AddStringToObject(doc, "last_updated", "");
	cJSON_AddStringToObject(doc, "phase", RS_PHASE);
	return (doc);
}

/* Lists and version lists leave the rules out. */
cJSON *
rs_without_rules(const cJSON *doc)
{
	cJSON	*c = cJSON_Duplicate(doc, 1);

	cJSON_DeleteItemFromObjectCaseSensitive(c, "rules");
	return (c);
}

/* name, description, kind and phase of a PUT or POST body. */
static int
rs_ruleset_fields(struct reply *rep, const cJSON *body, int create)
{
	const cJSON	*v;

	v = rs_member(body, "name");
	if (create && v == NULL) {
		rs_invalid(rep, "name", "required: the ruleset's name");
		return (-1);
	}
	if (v != NULL && (!cJSON_IsString(v) || *v->valuestring == '\0' ||
	    strlen(v->valuestring) > RS_NAME_MAX)) {
		rs_invalid(rep, "name", "must be a non-empty string of at "
		    "most %d bytes", RS_NAME_MAX);
		return (-1);
	}
	v = rs_member(body, "description");
	if (v != NULL && (!cJSON_IsString(v) ||
	    text_chars(v->valuestring) > RS_DESC_MAX)) {
		rs_invalid(rep, "description", "must be a string of at most "
		    "%d characters", RS_DESC_MAX);
		return (-1);
	}
	v = rs_member(body, "kind");
	if (create && v == NULL) {
		rs_invalid(rep, "kind", "required: \"zone\" for a zone's "
		    "entry point");
		return (-1);
	}
	if (v != NULL && (!cJSON_IsString(v) ||
	    strcmp(v->valuestring, RS_KIND) != 0)) {
		rs_invalid(rep, "kind", "must be \"zone\" (the zone's entry "
		    "point)");
		return (-1);
	}
	v = rs_member(body, "phase");
	if (create && v == NULL) {
		rs_invalid(rep, "phase", "required: \"http_ratelimit\"");
		return (-1);
	}
	if (v != NULL && (!cJSON_IsString(v) ||
	    strcmp(v->valuestring, RS_PHASE) != 0)) {
		rs_invalid(rep, "phase", "must be \"http_ratelimit\" (the "
		    "only phase edgemu serves)");
		return (-1);
	}
	v = rs_member(body, "rules");
	if (v != NULL && !cJSON_IsArray(v)) {
		rs_invalid(rep, "rules", "must be an array of rules, not %s",
		    jsonutil_type_name(v));
		return (-1);
	}
	return (0);
}

/*
 * The rule list of a PUT or POST: each rule checked; a rule that names an
 * id of old keeps its identity (and version when unchanged), the others
 * are new. NULL when refused.
 */
static cJSON *
rs_build_rules(struct req *req, struct reply *rep, const cJSON *in,
    const cJSON *old)
{
	struct rlrule_problem	 p;
	const cJSON		*r, *v, *prev, *o;
	const char		*ref;
	cJSON			*out, *rule;
	char			 id[HEX32_LEN + 1], now[ISO_TIME_LEN];
	char			 field[128];
	int			 i = 0, j;

	util_now_iso(now);
	out = cJSON_CreateArray();
	cJSON_ArrayForEach(r, in) {
		snprintf(field, sizeof field, "rules[%d]", i);
		if (rlrule_check(r, rs_plan(req), &p) != 0) {
			if (strcmp(p.field, "rule") != 0)
				snprintf(field, sizeof field, "rules[%d].%s",
				    i, p.field);
			rs_invalid_problem(rep, field, &p);
			goto fail;
		}
		o = NULL;
		if ((v = rs_member(r, "id")) != NULL) {
			snprintf(field, sizeof field, "rules[%d].id", i);
			if (!cJSON_IsString(v) ||
			    !apirules_hex32_ok(v->valuestring)) {
				rs_invalid(rep, field, "must be a rule id (32 "
				    "hex digits)");
				goto fail;
			}
			snprintf(id, sizeof id, "%s", v->valuestring);
			util_lower(id);
			if ((o = rs_find_rule(old, id, NULL)) == NULL) {
				rs_invalid(rep, field, "no rule %s in the "
				    "entry point (leave id out to add a rule)",
				    id);
				goto fail;
			}
			j = 0;
			cJSON_ArrayForEach(prev, in) {
				if (j >= i)
					break;
				v = rs_member(prev, "id");
				if (cJSON_IsString(v) &&
				    strcasecmp(v->valuestring, id) == 0) {
					rs_invalid(rep, field, "rule %s is "
					    "listed twice (also rules[%d])", id,
					    j);
					goto fail;
				}
				j++;
			}
		} else
			util_hex32(id);
		ref = NULL;
		if (util_jstring(r, "ref", &ref) != UTIL_JOK && o != NULL)
			util_jstring(o, "ref", &ref);
		rule = rs_rule_build(r, id, ref != NULL ? ref : id);
		rs_rule_stamp(rule, o, now);
		cJSON_AddItemToArray(out, rule);
		i++;
	}
	return (out);

fail:
	cJSON_Delete(out);
	return (NULL);
}

/* Replace doc's rules and description from a checked body, then write. */
static void
rs_replace(struct req *req, struct reply *rep, cJSON *doc, int dry)
{
	const cJSON	*v;
	cJSON		*rules;
	cJSON		*empty = cJSON_CreateArray();

	v = rs_member(req->json, "rules");
	rules = rs_build_rules(req, rep, v != NULL ? v : empty,
	    cJSON_GetObjectItemCaseSensitive(doc, "rules"));
	cJSON_Delete(empty);
	if (rules == NULL || rs_rules_check(req, rep, rules) != 0) {
		cJSON_Delete(rules);
		cJSON_Delete(doc);
		return;
	}
	cJSON_ReplaceItemInObjectCaseSensitive(doc, "rules", rules);
	if ((v = rs_member(req->json, "description")) != NULL)
		cJSON_ReplaceItemInObjectCaseSensitive(doc, "description",
		    cJSON_CreateString(v->valuestring));
	rs_write(req, rep, doc, dry);
}

/* The entry point, newest version: 1, 0 (replied 404 when want), -1. */
static int
rs_entry_load(struct req *req, struct reply *rep, cJSON **doc, int want)
{
	char	*id = NULL;
	int	 rc;

	*doc = NULL;
	rc = rs_entry_id(req->store, req_param(req, "zone"), &id);
	if (rc == 1)
		rc = rs_load(req->store, req_param(req, "zone"), id, 0, doc);
	free(id);
	if (rc == 0 && want)
		reply_error(rep, 404, ERR_NOT_FOUND, "could not find the "
		    "entry point ruleset of phase http_ratelimit in this "
		    "zone");
	else if (rc < 0)
		rs_store_reply(req, rep, rc);
	return (rc);
}

void
rs_entry_get(struct req *req, struct reply *rep)
{
	cJSON	*doc;

	if (rs_entry_load(req, rep, &doc, 1) == 1)
		reply_ok(rep, doc);
}

/*
 * What a PUT of the entry point and a POST creating it check first:
 * dry_run, the body's ruleset fields; then the entry point as it is (*doc
 * NULL when there is none). 0, or -1 when replied.
 */
static int
rs_entry_begin(struct req *req, struct reply *rep, int create, int *dry,
    cJSON **doc)
{
	*doc = NULL;
	if (rs_dry_run(req, rep, dry) != 0)
		return (-1);
	if (!cJSON_IsObject(req->json)) {
		reply_error(rep, 400, ERR_BAD_REQUEST, "a JSON object is "
		    "required: {name, %sdescription, rules}", create ?
		    "kind, phase, " : "");
		return (-1);
	}
	if (rs_ruleset_fields(rep, req->json, create) != 0 ||
	    rs_entry_load(req, rep, doc, 0) < 0)
		return (-1);
	return (0);
}

/* PUT .../entrypoint: creates it when absent. */
void
rs_entry_put(struct req *req, struct reply *rep)
{
	const cJSON	*name, *desc;
	const char	*old;
	cJSON		*doc;
	char		 id[HEX32_LEN + 1];
	int		 dry;

	if (rs_entry_begin(req, rep, 0, &dry, &doc) != 0)
		return;
	name = rs_member(req->json, "name");
	if (doc == NULL) {
		desc = rs_member(req->json, "description");
		util_hex32(id);
		doc = rs_new_ruleset(id, name != NULL ? name->valuestring :
		    "default", desc != NULL ? desc->valuestring : "");
	} else if (name != NULL && util_jstring(doc, "name", &old) ==
	    UTIL_JOK && strcmp(old, name->valuestring) != 0) {
		rs_invalid(rep, "name", "cannot be changed (the entry point "
		    "is '%.*s')", text_quote_len(old), old);
		cJSON_Delete(doc);
		return;
	}
	rs_replace(req, rep, doc, dry);
}

/* POST /zones/{zone}/rulesets: the entry point, if the zone has none. */
void
rs_ruleset_create(struct req *req, struct reply *rep)
{
	const cJSON	*desc;
	cJSON		*doc;
	char		 id[HEX32_LEN + 1];
	int		 dry;

	if (rs_entry_begin(req, rep, 1, &dry, &doc) != 0)
		return;
	if (doc != NULL) {
		reply_error(rep, 409, RS_ERR_EXISTS, "the zone already has an "
		    "entry point for phase http_ratelimit (ruleset %s): "
		    "change it with PUT .../phases/http_ratelimit/entrypoint "
		    "or its rules", cJSON_GetObjectItemCaseSensitive(doc,
		    "id")->valuestring);
		cJSON_Delete(doc);
		return;
	}
	desc = rs_member(req->json, "description");
	util_hex32(id);
	doc = rs_new_ruleset(id, rs_member(req->json, "name")->valuestring,
	    desc != NULL ? desc->valuestring : "");
	rs_replace(req, rep, doc, dry);
}

/* GET .../entrypoint/versions: oldest first; [] without an entry point. */
void
rs_versions_list(struct req *req, struct reply *rep)
{
	sqlite3_stmt	*st;
	cJSON		*list, *doc;
	char		*id = NULL;
	int		 rc;

	list = cJSON_CreateArray();
	rc = rs_entry_id(req->store, req_param(req, "zone"), &id);
	if (rc <= 0) {
		free(id);
		if (rc < 0) {
			cJSON_Delete(list);
			rs_store_reply(req, rep, rc);
		} else
			reply_ok(rep, list);
		return;
	}
	st = store_stmt(req->store, rs_versions_sql);
	sqlite3_bind_text(st, 1, req_param(req, "zone"), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		doc = cJSON_Parse((const char *)sqlite3_column_text(st, 0));
		if (doc == NULL)
			break;
		cJSON_DeleteItemFromObjectCaseSensitive(doc, "rules");
		cJSON_AddItemToArray(list, doc);
	}
	store_done(st);
	free(id);
	if (rc != SQLITE_DONE) {
		cJSON_Delete(list);
		rs_store_reply(req, rep, rc == SQLITE_ROW ? -2 : -1);
		return;
	}
	reply_ok(rep, list);
}

/* GET .../entrypoint/versions/{ruleset_version}: rules as they were. */
void
rs_version_get(struct req *req, struct reply *rep)
{
	const char	*ver = req_param(req, "ruleset_version");
	char		*id = NULL;
	cJSON		*doc;
	int		 rc;

	rc = rs_entry_id(req->store, req_param(req, "zone"), &id);
	if (rc == 0) {
		reply_error(rep, 404, ERR_NOT_FOUND, "could not find the "
		    "entry point ruleset of phase http_ratelimit in this "
		    "zone");
		return;
	}
	if (rc < 0) {
		rs_store_reply(req, rep, rc);
		return;
	}
	rc = 0;
	if (strspn(ver, "0123456789") == strlen(ver) && strlen(ver) <= 9 &&
	    atol(ver) > 0)
		rc = rs_load(req->store, req_param(req, "zone"), id, atol(ver),
		    &doc);
	free(id);
	if (rc == 1)
		reply_ok(rep, doc);
	else if (rc == 0)
		reply_error(rep, 404, ERR_NOT_FOUND, "version '%.*s' of the "
		    "entry point not found", text_quote_len(ver), ver);
	else
		rs_store_reply(req, rep, rc);
}

/* GET /zones/{zone}/rulesets/{ruleset_id} */
void
rs_ruleset_get(struct req *req, struct reply *rep)
{
	const char	*id = req_param(req, "ruleset_id");
	cJSON		*doc;
	int		 rc;

	rc = rs_load(req->store, req_param(req, "zone"), id, 0, &doc);
	if (rc == 1)
		reply_ok(rep, doc);
	else if (rc == 0)
		reply_error(rep, 404, ERR_NOT_FOUND, "ruleset %s not found in "
		    "this zone", id);
	else
		rs_store_reply(req, rep, rc);
}

/*
 * GET /zones/{zone}/rulesets: without rules, in creation order; cursor
 * paging, result_info.cursor (the last id of the page) only when more
 * follow.
 */
void
rs_ruleset_list(struct req *req, struct reply *rep)
{
	const char	*cursor = query_get(&req->query, "cursor");
	sqlite3_stmt	*st;
	sqlite3_int64	 after = 0;
	cJSON		*list, *doc, *info;
	char		*cause = NULL, *last = NULL;
	const char	*id;
	long		 per_page, n = 0;
	int		 rc, more = 0;

	if (query_long(&req->query, "per_page", 1,
	    APIRULES_RULESETS_PER_PAGE_MAX, RS_PER_PAGE, &per_page,
	    &cause) != 0) {
		reply_error(rep, 400, ERR_BAD_REQUEST, "%s", cause);
		free(cause);
		return;
	}
	if (cursor != NULL && *cursor != '\0') {
		rc = store_get_int(req->store, rs_seq_sql, &after,
		    req_param(req, "zone"), cursor, NULL);
		if (rc == 0) {
			reply_error(rep, 400, ERR_BAD_REQUEST, "cursor: '%.*s' "
			    "is not a cursor of this list",
			    text_quote_len(cursor), cursor);
			return;
		}
		if (rc < 0) {
			rs_store_reply(req, rep, -1);
			return;
		}
	}
	list = cJSON_CreateArray();
	st = store_stmt(req->store, rs_page_sql);
	sqlite3_bind_text(st, 1, req_param(req, "zone"), -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, after);
	sqlite3_bind_int64(st, 3, per_page + 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == per_page) {
			more = 1;
			continue;
		}
		doc = cJSON_Parse((const char *)sqlite3_column_text(st, 0));
		if (doc == NULL)
			break;
		cJSON_DeleteItemFromObjectCaseSensitive(doc, "rules");
		if (util_jstring(doc, "id", &id) == UTIL_JOK) {
			free(last);
			last = xstrdup(id);
		}
		cJSON_AddItemToArray(list, doc);
		n++;
	}
	store_done(st);
	if (rc != SQLITE_DONE) {
		free(last);
		cJSON_Delete(list);
		rs_store_reply(req, rep, rc == SQLITE_ROW ? -2 : -1);
		return;
	}
	reply_ok(rep, list);
	rep->top = cJSON_CreateObject();
	info = cJSON_AddObjectToObject(rep->top, "result_info");
	cJSON_AddNumberToObject(info, "count", (double)n);
	cJSON_AddNumberToObject(info, "per_page", (double)per_page);
	if (more && last != NULL)
		cJSON_AddStringToObject(info, "cursor", last);
	free(last);
}
