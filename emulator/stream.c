/*
 * The Stream videos routes under /accounts/{account}/stream: list (the
 * created-date cursor), get, edit, delete and storage usage. The records
 * are video.c's, the processing clock processing.c's, the demo library
 * stream_demo.c's; uploads are tus.c's and direct.c's.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonutil.h"
#include "processing.h"
#include "query.h"
#include "server.h"
#include "store.h"
#include "stream_demo.h"
#include "streamrules.h"
#include "util.h"
#include "video.h"
#include "xmalloc.h"

#define STREAM_PATH		STREAM_ACCOUNT "/stream"
#define STREAM_STORAGE_LIMIT	100000	/* minutes */
#define STREAM_RESERVE_DEFAULT	14400	/* seconds held for a direct upload */

/* ---- get ----------------------------------------------------------------- */

static void
stream_not_found(struct reply *rep, const char *uid)
{
	reply_error(rep, 404, ERR_NOT_FOUND, "video %s was not found", uid);
}

static void
stream_video_reply(struct req *req, struct reply *rep)
{
	const char	*uid = req_param(req, "uid");
	cJSON		*v;

	switch (video_lookup(req->store, req_param(req, "account"), uid,
	    &v)) {
	case 1:
		reply_ok(rep, v);
		break;
	case 0:
		stream_not_found(rep, uid);
		break;
	default:
		reply_store_error(req, rep);
		break;
	}
}

/* ---- list ---------------------------------------------------------------- */

struct stream_filter {
	const char	*creator;
	const char	*search;
	const char	*status;
	const char	*type;
	int		 asc;
	int		 counts;
	int64_t		 start;		/* 0: none */
	int64_t		 end;
	long		 limit;		/* at most this many rows */
};

static int
stream_filter_time(const struct query *q, const char *key, int64_t *out,
    char **cause)
{
	const char	*s = query_get(q, key);

	*out = 0;
	if (s == NULL)
		return (0);
	if (stream_parse_time(s, out) != 0) {
		*cause = xprintf("%s: '%.64s' is not an RFC 3339 date-time "
		    "such as 2014-01-02T02:20:00Z", key, s);
		return (-1);
	}
	return (0);
}

static int
stream_filter_parse(const struct query *q, struct stream_filter *f,
    char **cause)
{
	int64_t	after, before;

	memset(f, 0, sizeof *f);
	f->creator = query_get(q, "creator");
	f->search = query_get(q, "search");
	if (f->search != NULL && *f->search == '\0')
		f->search = NULL;
	if (query_enum(q, "status", streamrules_video_states, &f->status,
	    cause) != 0 ||
	    query_enum(q, "type", streamrules_video_types, &f->type,
	    cause) != 0 ||
	    query_bool(q, "asc", 0, &f->asc, cause) != 0 ||
	    query_bool(q, "include_counts", 0, &f->counts, cause) != 0 ||
	    stream_filter_time(q, "start", &f->start, cause) != 0 ||
	    stream_filter_time(q, "end", &f->end, cause) != 0 ||
	    stream_filter_time(q, "after", &after, cause) != 0 ||
	    stream_filter_time(q, "before", &before, cause) != 0 ||
	    query_long(q, "limit", 1, STREAMRULES_LIST_MAX,
	    STREAMRULES_LIST_MAX, &f->limit, cause) != 0)
		return (-1);
	/* after and before are the older names of start and end. */
	if (after != 0 && after > f->start)
		f->start = after;
	if (before != 0 && (f->end == 0 || before < f->end))
		f->end = before;
	return (0);
}

/*
 * The state a video shows at ?8 (video_view's clock, in SQL): a stored
 * "queued" with a processing end is queued for its first fifth, then
 * inprogress, then its outcome.
 */
#define STREAM_STATE_SQL \
	"(CASE WHEN state = 'queued' AND coalesce(process_end, 0) > 0 THEN" \
	" CASE WHEN ?8 >= process_end THEN coalesce(outcome, 'ready')" \
	" WHEN ?8 < coalesce(process_start, 0) + (process_end -" \
	" coalesce(process_start, 0)) / 5 THEN 'queued'" \
	" ELSE 'inprogress' END ELSE state END)"

/*
 * The list's conditions, only those given, so that SQLite picks the index
 * that serves them ((account, created), (account, creator, created), or
 * (account, name, created) for a search): counting a million videos reads
 * an index, not the table. start and end are strict: a page's oldest
 * created is the next page's end.
 */
static void
stream_list_where(const struct stream_filter *f, struct buf *b)
{
	buf_adds(b, " FROM stream_video WHERE account = ?1");
	if (f->creator != NULL)
		buf_adds(b, " AND creator = ?2");
	if (f->search != NULL)
		buf_adds(b, " AND name LIKE ?3 ESCAPE '\\'");
	if (f->start != 0)
		buf_adds(b, " AND created > ?4");
	if (f->end != 0)
		buf_adds(b, " AND created < ?5");
	if (f->type != NULL)
		buf_adds(b, " AND (live_input IS NOT NULL) = ?6");
	if (f->status != NULL)
		buf_adds(b, " AND " STREAM_STATE_SQL " = ?7");
}

/* search as a LIKE pattern: a substring, without case (ASCII). */
static char *
stream_list_like(const char *search)
{
	struct buf	b = BUF_INITIALIZER;
	const char	*s;

	buf_addc(&b, '%');
	for (s = search; *s != '\0'; s++) {
		if (*s == '%' || *s == '_' || *s == '\\')
			buf_addc(&b, '\\');
		buf_addc(&b, *s);
	}
	buf_addc(&b, '%');
	return (buf_detach(&b, NULL));
}

static sqlite3_stmt *
stream_list_prepare(struct req *req, const struct stream_filter *f,
    const char *like, const char *sql, int64_t now)
{
	sqlite3_stmt	*st;

	if (sqlite3_prepare_v2(store_db(req->store), sql, -1, &st,
	    NULL) != SQLITE_OK)
		return (NULL);
	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	if (f->creator != NULL)
		sqlite3_bind_text(st, 2, f->creator, -1, SQLITE_STATIC);
	if (like != NULL)
		sqlite3_bind_text(st, 3, like, -1, SQLITE_STATIC);
	if (f->start != 0)
		sqlite3_bind_int64(st, 4, f->start);
	if (f->end != 0)
		sqlite3_bind_int64(st, 5, f->end);
	if (f->type != NULL)
		sqlite3_bind_int(st, 6, strcmp(f->type, "live") == 0);
	if (f->status != NULL) {
		sqlite3_bind_text(st, 7, f->status, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 8, now);
	}
	return (st);
}

/* The page: the first limit videos in created order. */
static int
stream_list_rows(struct req *req, const struct stream_filter *f,
    const char *like, int64_t now, cJSON *list, long *count)
{
	struct buf	 sql = BUF_INITIALIZER, where = BUF_INITIALIZER;
	sqlite3_stmt	*st;
	int		 rc;

	stream_list_where(f, &where);
	buf_addf(&sql, "SELECT " VIDEO_COLS "%s ORDER BY created %s LIMIT %ld",
	    buf_str(&where), f->asc ? "ASC" : "DESC", f->limit);
	st = stream_list_prepare(req, f, like, buf_str(&sql), now);
	buf_free(&sql);
	buf_free(&where);
	if (st == NULL)
		return (-1);
	*count = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		cJSON_AddItemToArray(list, video_row_json(st, now));
		(*count)++;
	}
	sqlite3_finalize(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

/*
 * A search (without creator or status, which have their own index or need
 * the table): one pass over the name index counts the matches and keeps
 * their rowid and created time while there are fewer than
 * STREAM_SEARCH_FEW pages of them; the page is then read by rowid. With
 * more, *few is 0 and the caller walks the table in created order, where
 * a page of common matches comes sooner.
 */
#define STREAM_SEARCH_FEW	10

struct stream_hit {
	int64_t	rowid;
	int64_t	created;
};

static int
stream_hit_cmp(const void *a, const void *b)
{
	const struct stream_hit	*x = a, *y = b;

	return (x->created < y->created ? -1 : x->created > y->created);
}

static int
stream_list_search(struct req *req, const struct stream_filter *f,
    const char *like, int64_t now, cJSON *list, long *total, long *count,
    int *few)
{
	static const char	 one_sql[] = "SELECT " VIDEO_COLS
	    " FROM stream_video WHERE rowid = ?1";
	struct buf		 sql = BUF_INITIALIZER, where = BUF_INITIALIZER;
	struct stream_hit	*hits;
	sqlite3_stmt		*st;
	size_t			 max = (size_t)(STREAM_SEARCH_FEW * f->limit);
	size_t			 n = 0, i, k;
	int			 rc;

	stream_list_where(f, &where);
	buf_addf(&sql, "SELECT rowid, created FROM stream_video INDEXED BY"
	    " stream_video_name%s", strstr(buf_str(&where), " WHERE"));
	st = stream_list_prepare(req, f, like, buf_str(&sql), now);
	buf_free(&sql);
	buf_free(&where);
	if (st == NULL)
		return (-1);
	hits = xcalloc(max, sizeof *hits);
	*total = *count = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n < max) {
			hits[n].rowid = sqlite3_column_int64(st, 0);
			hits[n].created = sqlite3_column_int64(st, 1);
		}
		n++;
	}
	sqlite3_finalize(st);
	*total = (long)n;
	*few = n < max;
	if (rc != SQLITE_DONE || !*few) {
		free(hits);
		return (rc == SQLITE_DONE ? 0 : -1);
	}
	qsort(hits, n, sizeof *hits, stream_hit_cmp);
	st = store_stmt(req->store, one_sql);
	for (k = 0; k < n && k < (size_t)f->limit; k++) {
		i = f->asc ? k : n - 1 - k;
		sqlite3_bind_int64(st, 1, hits[i].rowid);
		if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			cJSON_AddItemToArray(list, video_row_json(st, now));
			(*count)++;
		}
		store_done(st);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			break;
	}
	free(hits);
	return (rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1);
}

/* One count: ?1 the account, ?4 and ?5 times. */
static int
stream_list_count_sql(struct req *req, const char *sql, int64_t start,
    int64_t end, long *n)
{
	sqlite3_stmt	*st = store_stmt(req->store, sql);
	int		 rc;

	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, start);
	sqlite3_bind_int64(st, 5, end);
	*n = 0;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*n = (long)sqlite3_column_int64(st, 0);
	store_done(st);
	return (rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1);
}

/*
 * Only times as filters (a page of the unfiltered list): the account's
 * count less the videos outside the window, which are those already
 * listed, a few pages' worth, rather than the million still to come.
 */
static int
stream_list_count_window(struct req *req, const struct stream_filter *f,
    long *total)
{
	static const char	 all_sql[] =
	    "SELECT n FROM stream_video_count WHERE account = ?1";
	static const char	 newer_sql[] = "SELECT count(*) FROM"
	    " stream_video WHERE account = ?1 AND created >= ?5";
	static const char	 older_sql[] = "SELECT count(*) FROM"
	    " stream_video WHERE account = ?1 AND created <= ?4";
	long			 out;

	if (f->start != 0 && f->end != 0 && f->start >= f->end) {
		*total = 0;
		return (0);
	}
	if (stream_list_count_sql(req, all_sql, 0, 0, total) != 0)
		return (-1);
	if (f->end != 0) {
		if (stream_list_count_sql(req, newer_sql, 0, f->end, &out) != 0)
			return (-1);
		*total -= out;
	}
	if (f->start != 0) {
		if (stream_list_count_sql(req, older_sql, f->start, 0,
		    &out) != 0)
			return (-1);
		*total -= out;
	}
	if (*total < 0)
		*total = 0;
	return (0);
}

static int
stream_list_count(struct req *req, const struct stream_filter *f,
    const char *like, int64_t now, long *total)
{
	struct buf	 sql = BUF_INITIALIZER;
	sqlite3_stmt	*st;
	int		 rc;

	if (f->creator == NULL && f->search == NULL && f->type == NULL &&
	    f->status == NULL)
		return (stream_list_count_window(req, f, total));
	buf_adds(&sql, "SELECT count(*)");
	stream_list_where(f, &sql);
	st = stream_list_prepare(req, f, like, buf_str(&sql), now);
	buf_free(&sql);
	if (st == NULL)
		return (-1);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*total = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return (rc == SQLITE_ROW ? 0 : -1);
}

static void
stream_list(struct req *req, struct reply *rep)
{
	struct stream_filter	 f;
	cJSON			*list;
	char			*cause = NULL, *like = NULL;
	long			 total = 0, count = 0;
	int64_t			 now = stream_now();
	int			 rc = 0, few = 0;

	if (stream_filter_parse(&req->query, &f, &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	if (f.search != NULL)
		like = stream_list_like(f.search);
	list = cJSON_CreateArray();
	if (f.search != NULL && f.creator == NULL && f.status == NULL)
		rc = stream_list_search(req, &f, like, now, list, &total,
		    &count, &few);
	else if (f.counts)
		rc = stream_list_count(req, &f, like, now, &total);
	if (rc != 0 || (!few && stream_list_rows(req, &f, like, now, list,
	    &count) != 0)) {
		reply_store_error(req, rep);
		cJSON_Delete(list);
		free(like);
		return;
	}
	free(like);
	reply_ok(rep, list);
	if (f.counts) {
		rep->top = cJSON_CreateObject();
		cJSON_AddNumberToObject(rep->top, "total", (double)total);
		cJSON_AddNumberToObject(rep->top, "range",
		    (double)(total - count));
	}
}

/* ---- edit ---------------------------------------------------------------- */

struct stream_edit {
	int	 origins_set;
	char	*origins;
	int	 creator_set;
	char	*creator;		/* NULL clears */
	int	 max_set;
	long	 max_duration;
	int	 meta_set;
	char	*meta;
	char	*name;
	int	 signed_set;
	int	 require_signed;
	int	 deletion_set;
	int64_t	 deletion;		/* 0 clears */
	int	 thumb_set;
	double	 thumb_pct;
	int	 expiry_set;
	int64_t	 expiry;		/* 0 clears */
};

static const cJSON *
stream_member(const cJSON *o, const char *key, int *present)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	*present = v != NULL;
	return (cJSON_IsNull(v) ? NULL : v);
}

static int
stream_edit_parse(const cJSON *b, int64_t created, struct stream_edit *e,
    char **cause)
{
	const cJSON	*v;

	memset(e, 0, sizeof *e);
	if (!cJSON_IsObject(b))
		return (util_fail(cause, "the body must be a JSON object, "
		    "not %s", jsonutil_type_name(b)));
	if ((v = stream_member(b, "allowedOrigins", &e->origins_set)) != NULL) {
		if (stream_check_origins(v, cause) != 0)
			return (-1);
		e->origins = util_jprint(v);
	} else if (e->origins_set)
		e->origins = xstrdup("[]");
	if ((v = stream_member(b, "creator", &e->creator_set)) != NULL) {
		if (stream_check_creator(v, cause) != 0)
			return (-1);
		e->creator = xstrdup(v->valuestring);
	}
	e->max_duration = -1;
	if ((v = stream_member(b, "maxDurationSeconds", &e->max_set)) != NULL &&
	    stream_check_max_duration(v, &e->max_duration, cause) != 0)
		return (-1);
	if ((v = stream_member(b, "meta", &e->meta_set)) != NULL &&
	    !cJSON_IsObject(v))
		return (util_fail(cause, "meta: must be an object, not %s",
		    jsonutil_type_name(v)));
	if (e->meta_set)
		e->meta = video_meta_text(v, &e->name);
	if ((v = stream_member(b, "requireSignedURLs", &e->signed_set)) !=
	    NULL) {
		if (!cJSON_IsBool(v))
			return (util_fail(cause, "requireSignedURLs: must be "
			    "a boolean, not %s", jsonutil_type_name(v)));
		e->require_signed = cJSON_IsTrue(v);
	} else if (e->signed_set)
		return (util_fail(cause, "requireSignedURLs: must be a "
		    "boolean, not null"));
	if ((v = stream_member(b, "scheduledDeletion", &e->deletion_set)) !=
	    NULL && (stream_check_date(v, "scheduledDeletion", &e->deletion,
	    cause) != 0 || stream_check_deletion(e->deletion, created,
	    cause) != 0))
		return (-1);
	if ((v = stream_member(b, "thumbnailTimestampPct", &e->thumb_set)) !=
	    NULL) {
		if (stream_check_thumb(v, &e->thumb_pct, cause) != 0)
			return (-1);
	} else if (e->thumb_set)
		e->thumb_pct = 0;
	if ((v = stream_member(b, "uploadExpiry", &e->expiry_set)) != NULL &&
	    stream_check_date(v, "uploadExpiry", &e->expiry, cause) != 0)
		return (-1);
	return (0);
}

static void
stream_edit_free(struct stream_edit *e)
{
	free(e->origins);
	free(e->creator);
	free(e->meta);
	free(e->name);
}

/* 1 with the created time, 0 when there is no such video, -1 failure. */
static int
stream_created(struct store *store, const char *account, const char *uid,
    int64_t *out)
{
	sqlite3_int64	v = 0;
	int		rc;

	rc = store_get_int(store, "SELECT created FROM stream_video"
	    " WHERE account = ?1 AND uid = ?2", &v, account, uid, NULL);
	*out = v;
	return (rc);
}

static int
stream_edit_apply(struct store *store, const char *account, const char *uid,
    const struct stream_edit *e)
{
	static const char	 sql[] =
	    "UPDATE stream_video SET"
	    " allowed_origins = CASE WHEN ?3 THEN ?4 ELSE allowed_origins END,"
	    " creator = CASE WHEN ?5 THEN ?6 ELSE creator END,"
	    " max_duration = CASE WHEN ?7 THEN ?8 ELSE max_duration END,"
	    " meta = CASE WHEN ?9 THEN ?10 ELSE meta END,"
	    " name = CASE WHEN ?9 THEN ?11 ELSE name END,"
	    " require_signed = CASE WHEN ?12 THEN ?13 ELSE require_signed END,"
	    " scheduled_deletion = CASE WHEN ?14 THEN ?15"
	    "  ELSE scheduled_deletion END,"
	    " thumb_pct = CASE WHEN ?16 THEN ?17 ELSE thumb_pct END,"
	    " upload_expiry = CASE WHEN ?18 THEN ?19 ELSE upload_expiry END,"
	    " modified = ?20"
	    " WHERE account = ?1 AND uid = ?2";
	sqlite3_stmt		*st = store_stmt(store, sql);
	char			 iso[ISO_TIME_LEN];
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, e->origins_set);
	sqlite3_bind_text(st, 4, e->origins, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, e->creator_set);
	sqlite3_bind_text(st, 6, e->creator, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 7, e->max_set);
	sqlite3_bind_int64(st, 8, e->max_duration);
	sqlite3_bind_int(st, 9, e->meta_set);
	sqlite3_bind_text(st, 10, e->meta, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 11, e->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 12, e->signed_set);
	sqlite3_bind_int(st, 13, e->require_signed);
	sqlite3_bind_int(st, 14, e->deletion_set);
	if (e->deletion != 0) {
		stream_time_iso(e->deletion, iso);
		sqlite3_bind_text(st, 15, iso, -1, SQLITE_TRANSIENT);
	}
	sqlite3_bind_int(st, 16, e->thumb_set);
	sqlite3_bind_double(st, 17, e->thumb_pct);
	sqlite3_bind_int(st, 18, e->expiry_set);
	if (e->expiry != 0)
		sqlite3_bind_int64(st, 19, e->expiry);
	sqlite3_bind_int64(st, 20, stream_now());
	rc = sqlite3_step(st);
	store_done(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

static void
stream_edit(struct req *req, struct reply *rep)
{
	const char		*account = req_param(req, "account");
	const char		*uid = req_param(req, "uid");
	struct stream_edit	 e;
	char			*cause = NULL;
	int64_t			 created;
	int			 found;
	cJSON			*v;

	if (req->json == NULL) {
		reply_error(rep, 400, ERR_VALIDATION,
		    "a JSON body is required");
		return;
	}
	if (store_begin(req->store) != 0 ||
	    (found = stream_created(req->store, account, uid, &created)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (found == 0) {
		store_rollback(req->store);
		stream_not_found(rep, uid);
		return;
	}
	if (stream_edit_parse(req->json, created, &e, &cause) != 0) {
		store_rollback(req->store);
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		stream_edit_free(&e);
		return;
	}
	if (stream_edit_apply(req->store, account, uid, &e) != 0 ||
	    store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		stream_edit_free(&e);
		return;
	}
	stream_edit_free(&e);
	if (video_lookup(req->store, account, uid, &v) == 1)
		reply_ok(rep, v);
	else
		stream_not_found(rep, uid);
}

/* ---- delete, storage usage ----------------------------------------------- */

static void
stream_delete(struct req *req, struct reply *rep)
{
	const char	*uid = req_param(req, "uid");

	switch (stream_video_remove(req->store, req_param(req, "account"),
	    uid)) {
	case 1:
		reply_ok(rep, NULL);
		break;
	case 0:
		stream_not_found(rep, uid);
		break;
	default:
		reply_store_error(req, rep);
		break;
	}
}

/*
 * Minutes of stored video: the durations known, and for direct uploads not
 * yet made the time reserved for them (maxDurationSeconds, or Stream's
 * default reservation), as the service counts them.
 */
static void
stream_storage(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT count(*), coalesce(sum(CASE"
	    "  WHEN duration > 0 THEN duration"
	    "  WHEN state = 'pendingupload' AND upload_kind IN (?3, ?4) THEN"
	    "   CASE WHEN max_duration > 0 THEN max_duration ELSE ?5 END"
	    "  ELSE 0 END), 0)"
	    " FROM stream_video WHERE account = ?1"
	    " AND (?2 IS NULL OR creator = ?2)";
	const char		*creator = query_get(&req->query, "creator");
	sqlite3_stmt		*st = store_stmt(req->store, sql);
	cJSON			*o;
	int			 rc;

	sqlite3_bind_text(st, 1, req_param(req, "account"), -1, SQLITE_STATIC);
	if (creator != NULL)
		sqlite3_bind_text(st, 2, creator, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, STREAM_UPLOAD_DIRECT);
	sqlite3_bind_int(st, 4, STREAM_UPLOAD_TUS_DIRECT);
	sqlite3_bind_int(st, 5, STREAM_RESERVE_DEFAULT);
	if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		reply_store_error(req, rep);
		store_done(st);
		return;
	}
	o = cJSON_CreateObject();
	if (creator != NULL)
		cJSON_AddStringToObject(o, "creator", creator);
	else
		cJSON_AddNullToObject(o, "creator");
	cJSON_AddNumberToObject(o, "totalStorageMinutes",
	    ceil(sqlite3_column_double(st, 1) / 60.0));
	cJSON_AddNumberToObject(o, "totalStorageMinutesLimit",
	    STREAM_STORAGE_LIMIT);
	cJSON_AddNumberToObject(o, "videoCount",
	    (double)sqlite3_column_int64(st, 0));
	store_done(st);
	reply_ok(rep, o);
}

/* ---- the area ------------------------------------------------------------ */

static const struct route stream_routes[] = {
	{ HTTP_GET, STREAM_PATH, stream_list, ROUTE_BODY_NONE },
	{ HTTP_GET, STREAM_PATH "/storage-usage", stream_storage,
	    ROUTE_BODY_NONE },
	{ HTTP_GET, STREAM_PATH "/{uid:hex32}", stream_video_reply,
	    ROUTE_BODY_NONE },
	{ HTTP_POST, STREAM_PATH "/{uid:hex32}", stream_edit, ROUTE_BODY_JSON },
	/*
	 * The spec gives DELETE a body; whatever comes is read and ignored.
	 * With Tus-Resumable it is tus termination, tus.c's route.
	 */
	{ HTTP_DELETE, STREAM_PATH "/{uid:hex32}", stream_delete,
	    ROUTE_BODY_NONE },
};

const struct area stream_area = {
	.name = "stream",
	.routes = stream_routes,
	.nroutes = nitems(stream_routes),
	.schema = video_schema,
	.demo = stream_demo,
	.start = processing_start,
	.stop = processing_stop,
};
