/*
 * --demo-videos N: a large library for the demo account, seeded fast (one
 * transaction, one prepared statement) to try lists of a million videos.
 * The videos are ready, older than every other video of the account, and
 * have no bytes on disk: they are listed, searched, shown and edited, not
 * played or downloaded.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "store.h"
#include "video.h"
#include "xmalloc.h"

/* Seven seconds apart: a million span about 81 days. */
#define DEMO_VIDEOS_STEP	(7LL * 1000000)
/*
 * The page cache while seeding, in KiB: the transaction's pages stay in
 * memory until the commit writes each once (spilling them to the WAL as
 * it goes is what makes a large insert slow).
 */
#define DEMO_VIDEOS_CACHE	"PRAGMA cache_size = -524288"
#define DEMO_VIDEOS_CACHE_END	"PRAGMA cache_size = -2000"
/*
 * The secondary indexes are dropped, then made again in one sort each
 * (video_schema's statements): faster than a million inserts into each.
 * So is the trigger that counts videos: the count is added once.
 */
#define DEMO_VIDEOS_DROP \
	"DROP TRIGGER IF EXISTS stream_video_counted;" \
	"DROP INDEX IF EXISTS stream_video_uid;" \
	"DROP INDEX IF EXISTS stream_video_due;" \
	"DROP INDEX IF EXISTS stream_video_creator;" \
	"DROP INDEX IF EXISTS stream_video_name;"

static const char *const demo_videos_topics[] = {
	"Keynote", "Webinar", "Tutorial", "Interview", "Trailer", "Lecture",
	"Podcast", "Town hall", "Product demo", "Training", "Highlights",
	"Behind the scenes", "Recap", "Teaser", "Q&A", "Livestream VOD"
};

static const char *const demo_videos_subjects[] = {
	"caching", "DNS", "zero trust", "onboarding", "pricing", "security",
	"analytics", "mobile", "design", "support", "sales", "hiring",
	"roadmap", "networking", "storage", "workers", "billing", "edge",
	"video", "AI"
};

static const char *const demo_videos_creators[] = {
	"marketing", "creator-alice", "creator-bob", "support-team",
	"studio-7", "academy", "events", "partners"
};

/* Videos the store already seeded this way (the kv entry), or 0. */
static long
demo_videos_seeded(struct store *store)
{
	char	*v;
	long	 n = 0;

	if ((v = store_kv_get(store, "demo", "videos")) != NULL) {
		n = strtol(v, NULL, 10);
		free(v);
	}
	return (n);
}

/* The oldest created time of the account, or now when it has none. */
static int64_t
demo_videos_base(struct store *store)
{
	static const char	 sql[] =
	    "SELECT min(created) FROM stream_video WHERE account = ?1";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int64_t			 base = stream_now();

	sqlite3_bind_text(st, 1, DEMO_ACCOUNT, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		base = sqlite3_column_int64(st, 0);
	store_done(st);
	return (base);
}

/* The account's video count, kept by a trigger the seeding went without. */
static int
demo_videos_count(struct store *store, long added)
{
	static const char	 sql[] =
	    "INSERT INTO stream_video_count (account, n) VALUES (?1, ?2)"
	    " ON CONFLICT (account) DO UPDATE SET n = n + excluded.n";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, DEMO_ACCOUNT, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, added);
	rc = sqlite3_step(st);
	store_done(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

static int
demo_videos_insert(sqlite3_stmt *st, long i, int64_t created)
{
	char	uid[HEX32_LEN + 1], name[128], meta[160];
	double	duration = 20 + (double)((i * 7919) % 3600);
	size_t	nt = nitems(demo_videos_topics);
	size_t	ns = nitems(demo_videos_subjects);
	int	rc;

	/* Ascending ids append to the primary key: no random page writes. */
	snprintf(uid, sizeof uid, "5eed%028lx", (unsigned long)i);
	snprintf(name, sizeof name, "%s: %s #%ld.mp4",
	    demo_videos_topics[(size_t)i % nt],
	    demo_videos_subjects[(size_t)(i / (long)nt) % ns], i);
	snprintf(meta, sizeof meta, "{\"name\":\"%s\"}", name);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, created);
	sqlite3_bind_int64(st, 4, created + 60 * 1000000LL);
	sqlite3_bind_int64(st, 5, created + 5 * 1000000LL);
	sqlite3_bind_text(st, 6, demo_videos_creators[(size_t)i %
	    nitems(demo_videos_creators)], -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, meta, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 8, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 9, (int64_t)(duration * 400000));
	sqlite3_bind_double(st, 10, duration);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

int
demo_videos_seed(struct store *store, long n, char **cause)
{
	static const char	 sql[] =
	    "INSERT INTO stream_video (account, uid, created, modified,"
	    " uploaded, creator, meta, name, size, state, pct, process_start,"
	    " process_end, outcome, duration, width, height)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'ready', 100, ?5,"
	    " ?4, 'ready', ?10, 1920, 1080)";
	sqlite3_stmt		*st;
	char			 count[32];
	long			 i, done = demo_videos_seeded(store);
	int64_t			 base;

	if (done >= n)
		return (0);
	if (store_exec(store, DEMO_VIDEOS_CACHE) != 0 ||
	    store_begin(store) != 0 || store_exec(store, DEMO_VIDEOS_DROP) != 0) {
		*cause = xprintf("demo videos: %s", store_errmsg(store));
		return (-1);
	}
	base = demo_videos_base(store);
	st = store_stmt(store, sql);
	sqlite3_bind_text(st, 1, DEMO_ACCOUNT, -1, SQLITE_STATIC);
	for (i = done; i < n; i++) {
		if (demo_videos_insert(st, i, base - (i - done + 1) *
		    DEMO_VIDEOS_STEP) != 0)
			goto fail;
	}
	store_done(st);
	snprintf(count, sizeof count, "%ld", n);
	if (demo_videos_count(store, n - done) != 0 ||
	    store_exec(store, video_schema) != 0 || store_kv_put(store, "demo", "videos", count) != 0 ||
	    store_commit(store) != 0)
		goto fail;
	store_exec(store, DEMO_VIDEOS_CACHE_END);
	return (0);

fail:
	*cause = xprintf("demo videos: %s", store_errmsg(store));
	store_done(st);
	store_rollback(store);
	store_exec(store, DEMO_VIDEOS_CACHE_END);
	return (-1);
}
