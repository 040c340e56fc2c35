/*
 * edgemu's SQLite store: one database in WAL mode under --data, a connection
 * per thread, cached prepared statements, and durable commits.
 */
#ifndef EDGEMU_STORE_H
#define EDGEMU_STORE_H

#include <sqlite3.h>

#include <cjson/cJSON.h>

struct store;

struct store	*store_open(const char *, const char *const *, char **);
void		 store_close(struct store *);
const char	*store_dir(const struct store *);
sqlite3		*store_db(struct store *);

/*
 * A cached statement for this thread, reset and unbound. Call store_done()
 * when finished so that no read transaction stays open.
 */
sqlite3_stmt	*store_stmt(struct store *, const char *);
void		 store_done(sqlite3_stmt *);

int		 store_begin(struct store *);
int		 store_commit(struct store *);
void		 store_rollback(struct store *);
int		 store_exec(struct store *, const char *);
const char	*store_errmsg(struct store *);

/* Small settings: (scope, key) -> text. */
char		*store_kv_get(struct store *, const char *, const char *);
int		 store_kv_put(struct store *, const char *, const char *,
		     const char *);
int		 store_kv_delete(struct store *, const char *, const char *);

/*
 * Rows keyed by (scope, id), most of them one JSON document each. sql is
 * the caller's static statement, so the statement cache keeps it, with ?1
 * the scope, ?2 the id and, to write, ?3 the body.
 *
 * put and delete: 1 if a row changed, 0 if none did, -1 on failure.
 * get: 1 with *out, 0 when absent, -1 on failure, -2 when the body is not
 * JSON.
 */
int		 store_doc_put(struct store *, const char *, const char *,
		     const char *, const cJSON *);
int		 store_doc_get(struct store *, const char *, const char *,
		     const char *, cJSON **);
int		 store_doc_delete(struct store *, const char *, const char *,
		     const char *);

/*
 * One value: the first column of the first row of sql (the caller's static
 * statement) with ?1, ?2, ... the texts after out, up to a NULL. 1 with
 * *out, 0 when there is no row, -1 on failure. store_get_text's *out is
 * allocated, NULL for an SQL NULL.
 */
int		 store_get_text(struct store *, const char *, char **, ...)
		     __attribute__((__sentinel__));
int		 store_get_int(struct store *, const char *, sqlite3_int64 *,
		     ...) __attribute__((__sentinel__));

#endif
