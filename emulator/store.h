/*
 * edgemu's SQLite store: one database in WAL mode under --data, a connection
 * per thread, cached prepared statements, and durable commits.
 */
#ifndef EDGEMU_STORE_H
#define EDGEMU_STORE_H

#include <sqlite3.h>

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

#endif
