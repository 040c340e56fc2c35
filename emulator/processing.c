/*
 * The processing clock of Stream videos. An upload's bytes are recorded as
 * they become durable; when the last lands, the outcome (ready, or error with
 * its code) is decided from the bytes and stored with the time it becomes
 * visible. Reads derive queued -> inprogress -> final from that clock
 * (video.c); a thread makes the final state durable at that moment and sends
 * the webhook, whether or not anyone reads. At start-up, uploads left
 * pending adopt what their files hold.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "media.h"
#include "processing.h"
#include "server.h"
#include "store.h"
#include "util.h"
#include "video.h"
#include "webhook.h"
#include "xmalloc.h"

/* The processing clock's thread. */
static struct {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	pthread_t	 thread;
	struct store	*store;
	int		 running;
	int		 stopping;
	int		 kicked;
	int		 seconds;
} stream_proc = {
	.mu = PTHREAD_MUTEX_INITIALIZER,
	.cv = PTHREAD_COND_INITIALIZER,
	.seconds = 5
};

static void
processing_kick(void)
{
	pthread_mutex_lock(&stream_proc.mu);
	stream_proc.kicked = 1;
	pthread_cond_signal(&stream_proc.cv);
	pthread_mutex_unlock(&stream_proc.mu);
}

int
stream_processing_seconds(void)
{
	return (stream_proc.seconds);
}

/* ---- an upload's bytes --------------------------------------------------- */

/* How processing will end, decided from the bytes when the last arrives. */
struct stream_outcome {
	const char	*state;		/* ready or error */
	const char	*code;
	char		*text;
};

static void
stream_decide(enum media_result r, const struct media_info *mi,
    const char *why, long max_duration, struct stream_outcome *o)
{
	o->state = "error";
	o->code = NULL;
	o->text = NULL;
	if (r == MEDIA_NOT_VIDEO) {
		o->code = "ERR_NON_VIDEO";
		o->text = xstrdup("The file was not recognized as a valid "
		    "video file.");
	} else if (r == MEDIA_MALFORMED) {
		o->code = "ERR_MALFORMED_VIDEO";
		o->text = xprintf("The video is a valid file but contains "
		    "corrupt data that cannot be recovered: %s", why);
	} else if (mi->duration >= 0 && max_duration > 0 &&
	    mi->duration > (double)max_duration) {
		o->code = "ERR_DURATION_EXCEED_CONSTRAINT";
		o->text = xprintf("The video's duration (%.3f s) exceeds its "
		    "maxDurationSeconds of %ld s.", mi->duration,
		    max_duration);
	} else if (mi->duration >= 0 && mi->duration < 0.1) {
		o->code = "ERR_DURATION_TOO_SHORT";
		o->text = xprintf("The video's duration (%.3f s) is shorter "
		    "than 0.1 seconds.", mi->duration);
	} else
		o->state = "ready";
}

static int
stream_max_duration(struct store *store, const char *account,
    const char *uid, long *out)
{
	sqlite3_int64	v;
	int		rc;

	rc = store_get_int(store, "SELECT max_duration FROM stream_video"
	    " WHERE account = ?1 AND uid = ?2 AND state = 'pendingupload'",
	    &v, account, uid, NULL);
	if (rc == 1)
		*out = (long)v;
	return (rc);
}

static int
stream_set_offset(struct store *store, const char *account, const char *uid,
    int64_t offset, int64_t now)
{
	static const char	 sql[] =
	    "UPDATE stream_video SET upload_offset = ?3, modified = ?4"
	    " WHERE account = ?1 AND uid = ?2 AND state = 'pendingupload'";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, offset);
	sqlite3_bind_int64(st, 4, now);
	rc = sqlite3_step(st);
	store_done(st);
	if (rc != SQLITE_DONE)
		return (-1);
	return (sqlite3_changes(store_db(store)) != 0);
}

static int
stream_set_processing(struct store *store, const char *account,
    const char *uid, int64_t size, int64_t now, const struct media_info *mi,
    const struct stream_outcome *o)
{
	static const char	 sql[] =
	    "UPDATE stream_video SET upload_offset = ?3, upload_length = ?3,"
	    " size = ?3, uploaded = ?4, modified = ?4, state = 'queued',"
	    " process_start = ?4, process_end = ?5, outcome = ?6,"
	    " error_code = ?7, error_text = ?8, duration = ?9, width = ?10,"
	    " height = ?11"
	    " WHERE account = ?1 AND uid = ?2 AND state = 'pendingupload'";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, size);
	sqlite3_bind_int64(st, 4, now);
	sqlite3_bind_int64(st, 5, now +
	    (int64_t)stream_proc.seconds * 1000000);
	sqlite3_bind_text(st, 6, o->state, -1, SQLITE_STATIC);
	if (o->code != NULL) {
		sqlite3_bind_text(st, 7, o->code, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 8, o->text, -1, SQLITE_STATIC);
	}
	sqlite3_bind_double(st, 9, mi->duration);
	sqlite3_bind_int(st, 10, mi->width);
	sqlite3_bind_int(st, 11, mi->height);
	rc = sqlite3_step(st);
	store_done(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

int
stream_upload_record(struct store *store, const char *account,
    const char *uid, int64_t offset, int complete, char **cause)
{
	struct media_info	 mi;
	struct stream_outcome	 o = { NULL, NULL, NULL };
	enum media_result	 r = MEDIA_OK;
	char			*path, *why = NULL;
	long			 max = -1;
	int64_t			 now = stream_now();
	int			 found;

	/* The bytes are read before the write lock is taken. */
	if (complete) {
		path = stream_video_file(store, account, uid);
		r = media_probe_file(path, &mi, &why);
		free(path);
	}
	if (store_begin(store) != 0)
		goto fail;
	if (!complete)
		found = stream_set_offset(store, account, uid, offset, now);
	else if ((found = stream_max_duration(store, account, uid,
	    &max)) == 1) {
		stream_decide(r, &mi, why, max, &o);
		if (stream_set_processing(store, account, uid, offset, now, &mi,
		    &o) != 0)
			found = -1;
	}
	if (found < 0)
		goto fail;
	if (found == 0) {
		store_rollback(store);
		*cause = xprintf("video %s was deleted or has finished "
		    "uploading", uid);
		free(o.text);
		free(why);
		return (1);
	}
	if (store_commit(store) != 0)
		goto fail;
	if (complete)
		processing_kick();
	free(o.text);
	free(why);
	return (0);

fail:
	*cause = xprintf("store: %s", store_errmsg(store));
	store_rollback(store);
	free(o.text);
	free(why);
	return (-1);
}

/* ---- the processing clock ------------------------------------------------ */

#define STREAM_DUE_BATCH	64

struct stream_key {
	char	account[HEX32_LEN + 1];
	char	uid[HEX32_LEN + 1];
};

/* Make one due outcome durable; 1 if this call did it. */
static int
stream_finish_one(struct store *store, const struct stream_key *k)
{
	static const char	 sql[] =
	    "UPDATE stream_video SET state = coalesce(outcome, 'ready'),"
	    " modified = max(modified, process_end)"
	    " WHERE account = ?1 AND uid = ?2 AND state = 'queued'"
	    " AND process_end IS NOT NULL";
	sqlite3_stmt		*st;
	int			 rc, changed;

	if (store_begin(store) != 0)
		return (-1);
	st = store_stmt(store, sql);
	sqlite3_bind_text(st, 1, k->account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, k->uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	changed = sqlite3_changes(store_db(store)) != 0;
	if (rc != SQLITE_DONE || store_commit(store) != 0) {
		store_rollback(store);
		return (-1);
	}
	return (changed);
}

/*
 * Videos whose processing time is up become ready or error for good, and
 * the webhook hears of each once. Returns how many were due, or -1.
 */
static int
stream_finish_due(struct store *store, int64_t now)
{
	static const char	 sql[] =
	    "SELECT account, uid FROM stream_video WHERE state = 'queued'"
	    " AND process_end IS NOT NULL AND process_end <= ?1"
	    " ORDER BY process_end LIMIT ?2";
	struct stream_key	 due[STREAM_DUE_BATCH];
	sqlite3_stmt		*st = store_stmt(store, sql);
	cJSON			*v;
	int			 n = 0, i, rc;

	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int(st, 2, STREAM_DUE_BATCH);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < STREAM_DUE_BATCH) {
		snprintf(due[n].account, sizeof due[n].account, "%s",
		    video_col_text(st, 0));
		snprintf(due[n].uid, sizeof due[n].uid, "%s",
		    video_col_text(st, 1));
		n++;
	}
	store_done(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return (-1);
	for (i = 0; i < n; i++) {
		rc = stream_finish_one(store, &due[i]);
		if (rc < 0)
			return (-1);
		if (rc == 0)
			continue;
		if ((v = stream_video_load(store, due[i].account,
		    due[i].uid)) != NULL) {
			webhook_notify(store, due[i].account, v);
			cJSON_Delete(v);
		}
	}
	return (n);
}

/* When the next video is due, 0 if none is, -1 on a store failure. */
static int64_t
stream_next_due(struct store *store)
{
	static const char	 sql[] =
	    "SELECT min(process_end) FROM stream_video WHERE state = 'queued'"
	    " AND process_end IS NOT NULL";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int64_t			 next = -1;

	if (sqlite3_step(st) == SQLITE_ROW)
		next = video_col_time(st, 0);
	store_done(st);
	return (next);
}

static void *
stream_proc_main(void *arg)
{
	struct store	*store = arg;
	struct timespec	 ts;
	int64_t		 now, next, wake;
	int		 n;

	pthread_mutex_lock(&stream_proc.mu);
	while (!stream_proc.stopping) {
		stream_proc.kicked = 0;
		pthread_mutex_unlock(&stream_proc.mu);
		now = stream_now();
		while ((n = stream_finish_due(store, now)) == STREAM_DUE_BATCH)
			;
		next = n < 0 ? -1 : stream_next_due(store);
		if (n < 0 || next < 0)
			log_warn("stream processing: %s", store_errmsg(store));
		/* Wake when the next video is due; look again now and then. */
		wake = now + (next < 0 ? 1000000 : 60000000);
		if (next > 0 && next < wake)
			wake = next;
		ts.tv_sec = (time_t)(wake / 1000000);
		ts.tv_nsec = (long)(wake % 1000000) * 1000;
		pthread_mutex_lock(&stream_proc.mu);
		if (stream_proc.stopping || stream_proc.kicked)
			continue;
		pthread_cond_timedwait(&stream_proc.cv, &stream_proc.mu, &ts);
	}
	pthread_mutex_unlock(&stream_proc.mu);
	return (NULL);
}

/* ---- start-up: what the disk holds --------------------------------------- */

struct stream_pending {
	struct stream_key	key;
	int			kind;
	int64_t			length;
	int64_t			offset;
};

/*
 * An upload's bytes after a restart or a kill. A tus upload adopts what its
 * file holds (synced first, so it is durable now; never past its length): a
 * PATCH cut short by a crash keeps what reached the disk, as one cut short
 * by the client does. A multipart body cut short is of no use: emptied.
 */
static void
stream_reconcile_one(struct store *store, const struct stream_pending *p)
{
	struct stat	 sb;
	char		*path, *cause = NULL;
	int64_t		 keep;
	int		 fd;

	path = stream_video_file(store, p->key.account, p->key.uid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd == -1 && errno == ENOENT &&
	    video_create_file(store, p->key.account, p->key.uid, 1,
	    &cause) == 0)
		fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd == -1 || fstat(fd, &sb) != 0) {
		log_warn("%s: %s", path, cause != NULL ? cause :
		    strerror(errno));
		goto out;
	}
	keep = p->kind == STREAM_UPLOAD_DIRECT ? 0 :
	    MINIMUM((int64_t)sb.st_size, p->length);
	if ((keep != (int64_t)sb.st_size && ftruncate(fd, keep) != 0) ||
	    fsync(fd) != 0) {
		log_warn("%s: %s", path, strerror(errno));
		goto out;
	}
	if (keep == p->offset)
		goto out;
	log_info("upload %s: %lld bytes on disk, %lld recorded: keeping %lld",
	    p->key.uid, (long long)sb.st_size, (long long)p->offset,
	    (long long)keep);
	if (stream_upload_record(store, p->key.account, p->key.uid, keep,
	    p->kind != STREAM_UPLOAD_DIRECT && keep == p->length,
	    &cause) != 0)
		log_warn("upload %s: %s", p->key.uid, cause);
out:
	if (fd != -1)
		close(fd);
	free(cause);
	free(path);
}

static int
stream_reconcile(struct store *store, char **cause)
{
	static const char	 sql[] =
	    "SELECT account, uid, upload_kind, upload_length, upload_offset"
	    " FROM stream_video WHERE state = 'pendingupload'"
	    " AND upload_kind != 0";
	sqlite3_stmt		*st = store_stmt(store, sql);
	struct stream_pending	*v = NULL;
	size_t			 n = 0, i;
	int			 rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = xreallocarray(v, n + 1, sizeof *v);
		snprintf(v[n].key.account, sizeof v[n].key.account, "%s",
		    video_col_text(st, 0));
		snprintf(v[n].key.uid, sizeof v[n].key.uid, "%s",
		    video_col_text(st, 1));
		v[n].kind = sqlite3_column_int(st, 2);
		v[n].length = sqlite3_column_int64(st, 3);
		v[n].offset = sqlite3_column_int64(st, 4);
		n++;
	}
	store_done(st);
	if (rc != SQLITE_DONE) {
		*cause = xprintf("stream uploads: %s", store_errmsg(store));
		free(v);
		return (-1);
	}
	for (i = 0; i < n; i++)
		stream_reconcile_one(store, &v[i]);
	free(v);
	return (0);
}

int
processing_start(struct server *srv, char **cause)
{
	struct store	*store = server_store(srv);
	int		 rc;

	stream_proc.seconds = server_options(srv)->processing_seconds;
	stream_proc.store = store;
	if (stream_reconcile(store, cause) != 0)
		return (-1);
	stream_proc.stopping = 0;
	stream_proc.kicked = 1;
	if ((rc = pthread_create(&stream_proc.thread, NULL, stream_proc_main,
	    store)) != 0) {
		*cause = xprintf("stream processing thread: %s", strerror(rc));
		return (-1);
	}
	stream_proc.running = 1;
	return (0);
}

void
processing_stop(struct server *srv)
{
	(void)srv;
	pthread_mutex_lock(&stream_proc.mu);
	stream_proc.stopping = 1;
	pthread_cond_signal(&stream_proc.cv);
	pthread_mutex_unlock(&stream_proc.mu);
	if (stream_proc.running)
		pthread_join(stream_proc.thread, NULL);
	stream_proc.running = 0;
}
