/*
 * The Rulesets API's storage: every version of a ruleset is kept whole
 * (rules included), so an old version reads back exactly as it was; the
 * ruleset row names the newest. Every write ends here (rs_write).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char rs_entry_sql[] =
	"SELECT id FROM rs_ruleset WHERE zone = ?1 AND kind = 'zone'"
	" AND phase = 'http_ratelimit'";
static const char rs_latest_sql[] =
	"SELECT v.body FROM rs_ruleset r JOIN rs_version v"
	" ON v.zone = r.zone AND v.id = r.id AND v.version = r.version"
	" WHERE r.zone = ?1 AND r.id = ?2";
static const char rs_version_sql[] =
	"SELECT body FROM rs_version WHERE zone = ?1 AND id = ?2"
	" AND version = CAST(?3 AS INTEGER)";
static const char rs_insert_version_sql[] =
	"INSERT INTO rs_version (zone, id, version, body)"
	" VALUES (?1, ?2, ?3, ?4)";
static const char rs_upsert_sql[] =
	"INSERT INTO rs_ruleset (zone, id, kind, phase, version)"
	" VALUES (?1, ?2, ?3, ?4, ?5)"
	" ON CONFLICT (zone, id) DO UPDATE SET version = excluded.version";

/* The zone's http_ratelimit entry point: 1 with *id, 0 none, -1 failed. */
int
rs_entry_id(struct store *store, const char *zone, char **id)
{
	return (store_get_text(store, rs_entry_sql, id, zone, NULL));
}

/*
 * One version of a ruleset (0: the newest): 1 with *out, 0 absent, -1
 * failed, -2 not JSON.
 */
int
rs_load(struct store *store, const char *zone, const char *id, long version,
    cJSON **out)
{
	char	*text, num[32];
	int	 rc;

	*out = NULL;
	if (version <= 0)
		rc = store_get_text(store, rs_latest_sql, &text, zone, id,
		    NULL);
	else {
		snprintf(num, sizeof num, "%ld", version);
		rc = store_get_text(store, rs_version_sql, &text, zone, id,
		    num, NULL);
	}
	if (rc != 1)
		return (rc);
	*out = text != NULL ? cJSON_Parse(text) : NULL;
	free(text);
	if (!cJSON_IsObject(*out)) {
		cJSON_Delete(*out);
		*out = NULL;
		return (-2);
	}
	return (1);
}

static int
rs_step(struct store *store, sqlite3_stmt *st)
{
	int	rc = sqlite3_step(st);

	store_done(st);
	(void)store;
	return (rc == SQLITE_DONE ? 0 : -1);
}

/* A new version (doc's version) of ruleset doc; in the caller's transaction. */
int
rs_save(struct store *store, const char *zone, const cJSON *doc)
{
	const char	*id, *version, *kind, *phase;
	sqlite3_stmt	*st;
	char		*text;
	int		 rc;

	if (util_jstring(doc, "id", &id) != UTIL_JOK ||
	    util_jstring(doc, "version", &version) != UTIL_JOK ||
	    util_jstring(doc, "kind", &kind) != UTIL_JOK ||
	    util_jstring(doc, "phase", &phase) != UTIL_JOK)
		return (-1);
	text = util_jprint(doc);
	st = store_stmt(store, rs_insert_version_sql);
	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, strtoll(version, NULL, 10));
	sqlite3_bind_text(st, 4, text, -1, SQLITE_STATIC);
	rc = rs_step(store, st);
	free(text);
	if (rc != 0)
		return (-1);
	st = store_stmt(store, rs_upsert_sql);
	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, phase, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, strtoll(version, NULL, 10));
	return (rs_step(store, st));
}

/* A load or save that did not answer 1: say why. */
void
rs_store_reply(struct req *req, struct reply *rep, int rc)
{
	if (rc == -2)
		reply_error(rep, 500, ERR_INTERNAL, "store: a stored ruleset "
		    "is not JSON");
	else
		reply_error(rep, 500, ERR_INTERNAL, "store: %s",
		    store_errmsg(req->store));
}

/*
 * The end of every write: with dry_run nothing is stored and the result is
 * null; else doc becomes the next version and is the answer. Takes doc.
 */
int
rs_write(struct req *req, struct reply *rep, cJSON *doc, int dry)
{
	const char	*v = NULL;
	char		 num[32], now[ISO_TIME_LEN];

	if (dry) {
		cJSON_Delete(doc);
		reply_ok(rep, NULL);
		return (0);
	}
	util_jstring(doc, "version", &v);
	snprintf(num, sizeof num, "%lld", (v != NULL ? strtoll(v, NULL, 10) :
	    0) + 1);
	util_now_iso(now);
	cJSON_ReplaceItemInObjectCaseSensitive(doc, "version",
	    cJSON_CreateString(num));
	cJSON_ReplaceItemInObjectCaseSensitive(doc, "last_updated",
	    cJSON_CreateString(now));
	if (rs_save(req->store, req_param(req, "zone"), doc) != 0) {
		cJSON_Delete(doc);
		rs_store_reply(req, rep, -1);
		return (-1);
	}
	reply_ok(rep, doc);
	return (0);
}
