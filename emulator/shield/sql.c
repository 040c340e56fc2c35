/*
 * API Shield's SQL helpers: replies for bad input, run-time bindings, one
 * page of a filtered list, and the rank cache that makes deep pages of a
 * zone's operations cheap.
 */
#include "config.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "internal.h"

/* ---- storage helpers --------------------------------------------------- */

void
shield_bad(struct reply *rep, char *cause)
{
	reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
	free(cause);
}

/*
 * Ids are stored in lower case as generated; a client may send them in
 * either case, as UUIDs compare case-insensitively.
 */
void
shield_lower_id(const char *in, char out[UUID_LEN + 1])
{
	size_t	i;

	for (i = 0; i < UUID_LEN && in[i] != '\0'; i++)
		out[i] = (char)tolower((unsigned char)in[i]);
	out[i] = '\0';
}

static int
shield_id_cmp(const void *a, const void *b)
{
	return (strcmp(a, b));
}

/*
 * A map keyed by ids (a bulk PATCH's body), every key a UUID: an id given
 * twice in different case would name one record twice, the last silently
 * winning, as cJSON keeps both keys. Returns 0, or -1 with *cause naming
 * the first such id.
 */
int
shield_map_ids_once(const cJSON *map, char **cause)
{
	const cJSON	*entry;
	char		(*ids)[UUID_LEN + 1];
	size_t		 n = 0, i;
	int		 rc = 0;

	ids = xreallocarray(NULL, (size_t)cJSON_GetArraySize(map) + 1,
	    sizeof *ids);
	cJSON_ArrayForEach(entry, map)
		shield_lower_id(entry->string, ids[n++]);
	qsort(ids, n, sizeof *ids, shield_id_cmp);
	for (i = 1; i < n && rc == 0; i++) {
		if (strcmp(ids[i - 1], ids[i]) == 0)
			rc = util_fail(cause, "%s is given twice (ids are the "
			    "same in any case): each may appear once",
			    ids[i]);
	}
	free(ids);
	return (rc);
}

const char *
shield_col_text(sqlite3_stmt *st, int col)
{
	const unsigned char	*s = sqlite3_column_text(st, col);

	return (s != NULL ? (const char *)s : "");
}

/* Add a value and return its parameter number, for "?N" in the SQL. */
int
shield_bind_text(struct shield_binds *b, const char *s)
{
	if ((size_t)b->n == nitems(b->v))
		fatalx("%s: too many parameters", __func__);
	b->v[b->n].text = s;
	b->v[b->n].num = 0;
	return (++b->n);
}

int
shield_bind_num(struct shield_binds *b, sqlite3_int64 num)
{
	if ((size_t)b->n == nitems(b->v))
		fatalx("%s: too many parameters", __func__);
	b->v[b->n].text = NULL;
	b->v[b->n].num = num;
	return (++b->n);
}

void
shield_bind_all(sqlite3_stmt *st, const struct shield_binds *b)
{
	int	i;

	for (i = 0; i < b->n; i++) {
		if (b->v[i].text != NULL)
			sqlite3_bind_text(st, i + 1, b->v[i].text, -1,
			    SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, i + 1, b->v[i].num);
	}
}

/* " AND col IN (?a, ?b, ...)" for a filter with values. */
void
shield_where_in(struct buf *w, struct shield_binds *b, const char *col,
    const char *const *values, size_t n)
{
	size_t	i;

	if (n == 0)
		return;
	buf_addf(w, " AND %s IN (", col);
	for (i = 0; i < n; i++)
		buf_addf(w, "%s?%d", i == 0 ? "" : ", ",
		    shield_bind_text(b, values[i]));
	buf_addc(w, ')');
}

/*
 * One page of a list whose filters were decided at run time: from_where is
 * "FROM ... WHERE ...", the values it names are in b. The count stays open
 * until the page is read, so both see one snapshot and total_count matches
 * the page; a caller that knows the count (in its own open snapshot) passes
 * it in *totalp, else -1. Returns -1 on a store failure, with SQLite's
 * message kept.
 */
int
shield_run_page(struct req *req, const char *cols, const char *from_where,
    const char *order, struct shield_binds *b, const struct paging *p,
    shield_row_cb row, void *arg, cJSON **listp, long *totalp)
{
	sqlite3		*db = store_db(req->store);
	sqlite3_stmt	*cst = NULL, *pst = NULL;
	char		*sql;
	cJSON		*list = NULL, *item;
	int		 rc = -1, step, lim, off;

	if (*totalp < 0) {
		sql = xprintf("SELECT count(*) %s", from_where);
		step = sqlite3_prepare_v2(db, sql, -1, &cst, NULL);
		free(sql);
		if (step != SQLITE_OK)
			goto out;
		shield_bind_all(cst, b);
		if (sqlite3_step(cst) != SQLITE_ROW)
			goto out;
		*totalp = (long)sqlite3_column_int64(cst, 0);
	}
	lim = shield_bind_num(b, p->per_page);
	off = shield_bind_num(b, (sqlite3_int64)(p->page - 1) * p->per_page);
	sql = xprintf("SELECT %s %s ORDER BY %s LIMIT ?%d OFFSET ?%d", cols,
	    from_where, order, lim, off);
	step = sqlite3_prepare_v2(db, sql, -1, &pst, NULL);
	free(sql);
	if (step != SQLITE_OK)
		goto out;
	shield_bind_all(pst, b);
	list = cJSON_CreateArray();
	while ((step = sqlite3_step(pst)) == SQLITE_ROW) {
		if ((item = row(req, pst, arg)) != NULL)
			cJSON_AddItemToArray(list, item);
	}
	if (step != SQLITE_DONE)
		goto out;
	*listp = list;
	list = NULL;
	rc = 0;
out:
	cJSON_Delete(list);
	/* Finalizing a failed statement keeps its message on the handle. */
	sqlite3_finalize(pst);
	sqlite3_finalize(cst);
	return (rc);
}

/* ---- the rank cache ---------------------------------------------------- */

/*
 * A page deep in a zone's default order would cost an OFFSET walk over
 * every row before it. Instead the zone's seqs in order are cached per
 * (store, zone, generation): a page is then a seq range read through the
 * index. The generation comes from shield_zone in the reader's own
 * snapshot, so a cache entry is used only for exactly the rows it saw.
 */
struct shield_rank {
	const struct store	*store;
	char			 zone[HEX32_LEN + 1];
	sqlite3_int64		 gen;
	sqlite3_int64		*seq;
	size_t			 n;
	unsigned long		 used;
};

static struct shield_rank	shield_ranks[SHIELD_RANK_SLOTS];
static unsigned long		shield_rank_tick;
static pthread_mutex_t		shield_rank_lock = PTHREAD_MUTEX_INITIALIZER;

/* The seqs at ranks lo and hi (hi < n); 0 when not cached. */
int
shield_rank_get(const struct store *store, const char *zone,
    sqlite3_int64 gen, size_t lo, size_t hi, sqlite3_int64 *slo,
    sqlite3_int64 *shi)
{
	struct shield_rank	*r;
	size_t			 i;
	int			 found = 0;

	pthread_mutex_lock(&shield_rank_lock);
	for (i = 0; i < SHIELD_RANK_SLOTS; i++) {
		r = &shield_ranks[i];
		if (r->store != store || r->gen != gen || hi >= r->n ||
		    strcmp(r->zone, zone) != 0)
			continue;
		*slo = r->seq[lo];
		*shi = r->seq[hi];
		r->used = ++shield_rank_tick;
		found = 1;
		break;
	}
	pthread_mutex_unlock(&shield_rank_lock);
	return (found);
}

/* Keep seq (taken over) in the zone's slot, else the least recently used. */
void
shield_rank_put(const struct store *store, const char *zone,
    sqlite3_int64 gen, sqlite3_int64 *seq, size_t n)
{
	struct shield_rank	*r, *victim = &shield_ranks[0];
	size_t			 i;

	pthread_mutex_lock(&shield_rank_lock);
	for (i = 0; i < SHIELD_RANK_SLOTS; i++) {
		r = &shield_ranks[i];
		if (r->store == store && strcmp(r->zone, zone) == 0) {
			victim = r;
			break;
		}
		if (r->used < victim->used)
			victim = r;
	}
	/* Another thread may have cached a newer generation meanwhile. */
	if (victim->store == store && strcmp(victim->zone, zone) == 0 &&
	    victim->gen > gen) {
		pthread_mutex_unlock(&shield_rank_lock);
		free(seq);
		return;
	}
	free(victim->seq);
	victim->store = store;
	snprintf(victim->zone, sizeof victim->zone, "%s", zone);
	victim->gen = gen;
	victim->seq = seq;
	victim->n = n;
	victim->used = ++shield_rank_tick;
	pthread_mutex_unlock(&shield_rank_lock);
}

void
shield_rank_clear(const struct store *store)
{
	size_t	i;

	pthread_mutex_lock(&shield_rank_lock);
	for (i = 0; i < SHIELD_RANK_SLOTS; i++) {
		if (shield_ranks[i].store != store)
			continue;
		free(shield_ranks[i].seq);
		memset(&shield_ranks[i], 0, sizeof shield_ranks[i]);
	}
	pthread_mutex_unlock(&shield_rank_lock);
}

/* Read every seq of the zone in order, in the caller's transaction. */
int
shield_rank_build(struct store *store, const char *zone,
    sqlite3_int64 **seqp, size_t *np)
{
	static const char	 sql[] =
	    "SELECT seq FROM shield_op WHERE zone = ?1 ORDER BY seq";
	sqlite3_stmt		*st = store_stmt(store, sql);
	sqlite3_int64		*seq = NULL;
	size_t			 n = 0, size = 0;
	int			 rc;

	sqlite3_bind_text(st, 1, zone, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == size) {
			size = size == 0 ? 1024 : size * 2;
			seq = xreallocarray(seq, size, sizeof *seq);
		}
		seq[n++] = sqlite3_column_int64(st, 0);
	}
	store_done(st);
	if (rc != SQLITE_DONE) {
		free(seq);
		return (-1);
	}
	*seqp = seq;
	*np = n;
	return (0);
}
