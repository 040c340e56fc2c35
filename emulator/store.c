/*
 * edgemu's SQLite store. Each thread gets its own connection (WAL lets
 * readers run beside the one writer) with a cache of prepared statements
 * keyed by the SQL text's address, so handlers pass string literals.
 * synchronous=FULL: a commit is on disk before the response goes out.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store.h"
#include "util.h"
#include "xmalloc.h"

#define STORE_STMT_SLOTS 128

struct store_conn {
	struct store		*store;
	sqlite3			*db;
	const char		*sql[STORE_STMT_SLOTS];
	sqlite3_stmt		*stmt[STORE_STMT_SLOTS];
	struct store_conn	*next;
};

struct store {
	char			*dir;
	char			*path;
	pthread_key_t		 key;
	pthread_mutex_t		 lock;
	struct store_conn	*conns;
};

static const char store_schema[] =
	"CREATE TABLE IF NOT EXISTS kv ("
	" scope TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
	" PRIMARY KEY (scope, key)) WITHOUT ROWID;";

static void
store_conn_close(struct store_conn *c)
{
	size_t	i;

	for (i = 0; i < STORE_STMT_SLOTS; i++) {
		if (c->stmt[i] != NULL)
			sqlite3_finalize(c->stmt[i]);
	}
	if (sqlite3_close(c->db) != SQLITE_OK)
		log_warn("closing the database: %s", sqlite3_errmsg(c->db));
	free(c);
}

static void
store_unlink_conn(struct store *s, struct store_conn *c)
{
	struct store_conn	**pp;

	pthread_mutex_lock(&s->lock);
	for (pp = &s->conns; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	pthread_mutex_unlock(&s->lock);
}

/* Runs when a thread that used the store exits. */
static void
store_thread_exit(void *arg)
{
	struct store_conn	*c = arg;

	store_unlink_conn(c->store, c);
	store_conn_close(c);
}

static sqlite3 *
store_connect(const char *path, char **cause)
{
	sqlite3		*db;
	char		*err = NULL;
	static const char pragmas[] =
	    "PRAGMA journal_mode=WAL;"
	    "PRAGMA synchronous=FULL;"
	    "PRAGMA foreign_keys=ON;"
	    "PRAGMA temp_store=MEMORY;";

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		*cause = xprintf("%s: %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return (NULL);
	}
	sqlite3_busy_timeout(db, 30000);
	if (sqlite3_exec(db, pragmas, NULL, NULL, &err) != SQLITE_OK) {
		*cause = xprintf("%s: %s", path, err);
		sqlite3_free(err);
		sqlite3_close(db);
		return (NULL);
	}
	return (db);
}

static struct store_conn *
store_conn(struct store *s)
{
	struct store_conn	*c;
	char			*cause;

	if ((c = pthread_getspecific(s->key)) != NULL)
		return (c);
	c = xcalloc(1, sizeof *c);
	c->store = s;
	if ((c->db = store_connect(s->path, &cause)) == NULL)
		fatalx("opening the store: %s", cause);
	pthread_mutex_lock(&s->lock);
	c->next = s->conns;
	s->conns = c;
	pthread_mutex_unlock(&s->lock);
	pthread_setspecific(s->key, c);
	return (c);
}

/* mkdir -p, each new directory 0700; the last mkdir tells the outcome. */
static int
store_mkdirs(const char *dir)
{
	char	*p, *s;
	int	 rc;

	s = xstrdup(dir);
	for (p = strchr(s + 1, '/'); p != NULL; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(s, 0700);
		*p = '/';
	}
	rc = mkdir(s, 0700) == 0 || errno == EEXIST ? 0 : -1;
	free(s);
	return (rc);
}

/*
 * Open (creating if needed) the store in dir and apply every area's schema.
 * schemas is a NULL-terminated list of SQL scripts of CREATE ... IF NOT
 * EXISTS statements.
 */
struct store *
store_open(const char *dir, const char *const *schemas, char **cause)
{
	struct store	*s;
	sqlite3		*db;
	char		*err = NULL;
	size_t		 i;

	if (store_mkdirs(dir) != 0) {
		*cause = xprintf("%s: %s", dir, strerror(errno));
		return (NULL);
	}
	s = xcalloc(1, sizeof *s);
	s->dir = xstrdup(dir);
	s->path = xprintf("%s/edgemu.db", dir);
	if (pthread_key_create(&s->key, store_thread_exit) != 0)
		fatalx("pthread_key_create failed");
	pthread_mutex_init(&s->lock, NULL);

	if ((db = store_connect(s->path, cause)) == NULL)
		goto fail;
	/* A store made before files were private becomes private. */
	if (chmod(s->path, 0600) != 0)
		log_warn("%s: %s", s->path, strerror(errno));
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &err) != SQLITE_OK)
		goto sqlfail;
	if (sqlite3_exec(db, store_schema, NULL, NULL, &err) != SQLITE_OK)
		goto sqlfail;
	for (i = 0; schemas != NULL && schemas[i] != NULL; i++) {
		if (sqlite3_exec(db, schemas[i], NULL, NULL, &err) != SQLITE_OK)
			goto sqlfail;
	}
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, &err) != SQLITE_OK)
		goto sqlfail;
	sqlite3_close(db);
	return (s);

sqlfail:
	*cause = xprintf("%s: %s", s->path, err);
	sqlite3_free(err);
	sqlite3_close(db);
fail:
	pthread_key_delete(s->key);
	pthread_mutex_destroy(&s->lock);
	free(s->path);
	free(s->dir);
	free(s);
	return (NULL);
}

/* Every other thread that used the store must have exited or be idle. */
void
store_close(struct store *s)
{
	struct store_conn	*c;

	if (s == NULL)
		return;
	pthread_setspecific(s->key, NULL);
	while ((c = s->conns) != NULL) {
		s->conns = c->next;
		store_conn_close(c);
	}
	pthread_key_delete(s->key);
	pthread_mutex_destroy(&s->lock);
	free(s->path);
	free(s->dir);
	free(s);
}

const char *
store_dir(const struct store *s)
{
	return (s->dir);
}

sqlite3 *
store_db(struct store *s)
{
	return (store_conn(s)->db);
}

sqlite3_stmt *
store_stmt(struct store *s, const char *sql)
{
	struct store_conn	*c = store_conn(s);
	size_t			 i, h;

	h = ((size_t)(uintptr_t)sql >> 3) % STORE_STMT_SLOTS;
	for (i = 0; i < STORE_STMT_SLOTS; i++) {
		size_t	slot = (h + i) % STORE_STMT_SLOTS;

		if (c->sql[slot] == sql) {
			sqlite3_reset(c->stmt[slot]);
			sqlite3_clear_bindings(c->stmt[slot]);
			return (c->stmt[slot]);
		}
		if (c->sql[slot] == NULL) {
			if (sqlite3_prepare_v3(c->db, sql, -1,
			    SQLITE_PREPARE_PERSISTENT, &c->stmt[slot],
			    NULL) != SQLITE_OK)
				fatalx("preparing \"%s\": %s", sql,
				    sqlite3_errmsg(c->db));
			c->sql[slot] = sql;
			return (c->stmt[slot]);
		}
	}
	fatalx("store: more than %d distinct statements", STORE_STMT_SLOTS);
}

void
store_done(sqlite3_stmt *st)
{
	if (st != NULL)
		sqlite3_reset(st);
}

int
store_exec(struct store *s, const char *sql)
{
	char	*err = NULL;

	if (sqlite3_exec(store_db(s), sql, NULL, NULL, &err) != SQLITE_OK) {
		log_warn("store: %s: %s", sql, err);
		sqlite3_free(err);
		return (-1);
	}
	return (0);
}

/* Writers take the lock up front, so two writers never deadlock. */
int
store_begin(struct store *s)
{
	return (store_exec(s, "BEGIN IMMEDIATE"));
}

int
store_commit(struct store *s)
{
	if (store_exec(s, "COMMIT") != 0) {
		store_rollback(s);
		return (-1);
	}
	return (0);
}

void
store_rollback(struct store *s)
{
	sqlite3	*db = store_db(s);

	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

const char *
store_errmsg(struct store *s)
{
	return (sqlite3_errmsg(store_db(s)));
}

char *
store_kv_get(struct store *s, const char *scope, const char *key)
{
	static const char	 sql[] =
	    "SELECT value FROM kv WHERE scope = ?1 AND key = ?2";
	sqlite3_stmt		*st = store_stmt(s, sql);
	char			*v = NULL;

	sqlite3_bind_text(st, 1, scope, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	store_done(st);
	return (v);
}

int
store_kv_put(struct store *s, const char *scope, const char *key,
    const char *value)
{
	static const char	 sql[] =
	    "INSERT INTO kv (scope, key, value) VALUES (?1, ?2, ?3)"
	    " ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value";
	sqlite3_stmt		*st = store_stmt(s, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, scope, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, value, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

int
store_kv_delete(struct store *s, const char *scope, const char *key)
{
	static const char	 sql[] =
	    "DELETE FROM kv WHERE scope = ?1 AND key = ?2";

	return (store_doc_delete(s, sql, scope, key) < 0 ? -1 : 0);
}

/* A statement that changes rows: 1 if any changed, 0 if not, -1. */
static int
store_changed(struct store *s, sqlite3_stmt *st)
{
	int	rc;

	rc = sqlite3_step(st);
	store_done(st);
	if (rc != SQLITE_DONE)
		return (-1);
	return (sqlite3_changes(store_db(s)) != 0);
}

int
store_doc_put(struct store *s, const char *sql, const char *scope,
    const char *id, const cJSON *body)
{
	sqlite3_stmt	*st = store_stmt(s, sql);
	char		*text = util_jprint(body);
	int		 rc;

	sqlite3_bind_text(st, 1, scope, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
	rc = store_changed(s, st);
	free(text);
	return (rc);
}

int
store_doc_get(struct store *s, const char *sql, const char *scope,
    const char *id, cJSON **out)
{
	sqlite3_stmt	*st = store_stmt(s, sql);
	int		 rc;

	*out = NULL;
	sqlite3_bind_text(st, 1, scope, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = cJSON_Parse((const char *)sqlite3_column_text(st, 0));
	store_done(st);
	if (rc == SQLITE_ROW)
		return (*out != NULL ? 1 : -2);
	return (rc == SQLITE_DONE ? 0 : -1);
}

int
store_doc_delete(struct store *s, const char *sql, const char *scope,
    const char *id)
{
	sqlite3_stmt	*st = store_stmt(s, sql);

	sqlite3_bind_text(st, 1, scope, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	return (store_changed(s, st));
}

/*
 * Step a cached statement whose parameters are the texts in ap, up to the
 * NULL; returns SQLite's step result with the statement left open.
 */
static int
store_get_step(sqlite3_stmt *st, va_list ap)
{
	const char	*arg;
	int		 i = 1;

	while ((arg = va_arg(ap, const char *)) != NULL)
		sqlite3_bind_text(st, i++, arg, -1, SQLITE_STATIC);
	return (sqlite3_step(st));
}

int
store_get_text(struct store *s, const char *sql, char **out, ...)
{
	sqlite3_stmt		*st = store_stmt(s, sql);
	const unsigned char	*v;
	va_list			 ap;
	int			 rc;

	*out = NULL;
	va_start(ap, out);
	rc = store_get_step(st, ap);
	va_end(ap);
	if (rc == SQLITE_ROW && (v = sqlite3_column_text(st, 0)) != NULL)
		*out = xstrdup((const char *)v);
	store_done(st);
	if (rc == SQLITE_ROW)
		return (1);
	return (rc == SQLITE_DONE ? 0 : -1);
}

int
store_get_int(struct store *s, const char *sql, sqlite3_int64 *out, ...)
{
	sqlite3_stmt	*st = store_stmt(s, sql);
	va_list		 ap;
	int		 rc;

	*out = 0;
	va_start(ap, out);
	rc = store_get_step(st, ap);
	va_end(ap);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	store_done(st);
	if (rc == SQLITE_ROW)
		return (1);
	return (rc == SQLITE_DONE ? 0 : -1);
}
