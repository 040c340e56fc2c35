/*
 * The demo library of Stream videos (--demo-data): fifty videos in every
 * state with their bytes, and what the other areas' demo data needs of them.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "media.h"
#include "store.h"
#include "stream_demo.h"
#include "streamrules.h"
#include "tus.h"
#include "util.h"
#include "video.h"
#include "xmalloc.h"

static const char *const stream_demo_names[] = {
	"Product launch keynote.mp4", "Quarterly all-hands.mp4",
	"Onboarding part 1 - welcome.mov", "Onboarding part 2 - tools.mov",
	"Customer story: Acme Logistics.mp4", "Drone flyover, harbour.mp4",
	"Recipe: sourdough in 10 steps.mp4", "Webinar - zero trust basics.mp4",
	"Conference talk: caching at the edge.mp4", "Trailer (final cut).mov",
	"Behind the scenes - day 3.mp4", "Podcast episode 42 (video).mp4",
	"Tutorial: setting up DNS.mp4", "Sales demo - enterprise plan.mp4",
	"Support: resetting your password.mp4", "Holiday greetings 2025.mp4",
	"Intern project showcase.mp4", "Lecture 07 - graph algorithms.mp4",
	"Lecture 08 - dynamic programming.mp4", "Town hall Q&A.mp4",
	"Ad spot 15s - spring sale.mp4", "Ad spot 30s - spring sale.mp4",
	"Unboxing the new headset.mp4", "Timelapse: city at night.mov",
	"Interview with the CTO.mp4", "Release notes walkthrough v4.2.mp4",
	"Warehouse safety training.mp4", "Yoga for developers.mp4",
	"Game stream highlights.mp4", "Wedding film - Ana & Luis.mov",
	"Físchen im Aquarium.mp4", "Hackathon kickoff.mp4",
	"Screen recording 2025-09-14.mov", "Bug repro - upload stalls.mp4",
	"Partner summit opening.mp4", "Brand film - 60s.mp4",
	"Mountain bike descent (GoPro).mp4", "Classroom: intro to SQL.mp4",
	"Annual report video.mp4", "Kids' science show ep. 3.mp4",
	"Live concert - encore.mp4", "Cooking stream VOD.mp4",
	"Security awareness 2026.mp4", "Museum tour (4K).mp4",
	"Vertical short - tips #12.mp4", "Customer webinar recording.mp4",
	"draft_cut_v3.mov", "raw_footage_cam_b.mov",
	"Launch teaser.mp4", "Keynote rehearsal.mp4"
};

static const char *const stream_demo_creators[] = {
	"marketing", "creator-alice", "creator-bob", "support-team",
	"studio-7", NULL
};

static const int stream_demo_sizes[][2] = {
	{ 1920, 1080 }, { 1280, 720 }, { 3840, 2160 }, { 1080, 1920 },
	{ 640, 360 }, { 1920, 1080 }
};

/* One demo video, decided from its index: the newest are still moving. */
struct stream_demo {
	const char	*state;
	double		 pct;
	const char	*code;
	const char	*text;
	int		 kind;
	int		 mp4;		/* its file is an MP4, else text */
	int64_t		 created, modified, uploaded, start, end;
	int64_t		 size, length, expiry;
	const char	*creator;
	char		 token[HEX32_LEN + 1];
	cJSON		*meta;
	cJSON		*origins;
	double		 duration, thumb;
	int		 width, height, require_signed;
	long		 max_duration;
	char		 deletion[ISO_TIME_LEN];
};

static void
stream_demo_state(int i, int n, struct stream_demo *d)
{
	static const int	pending_kinds[] = {
		STREAM_UPLOAD_TUS, STREAM_UPLOAD_TUS_DIRECT,
		STREAM_UPLOAD_DIRECT, STREAM_UPLOAD_TUS
	};
	static const double	pcts[] = { 12, 37, 64, 88 };

	d->state = "ready";
	d->mp4 = 1;
	if (i >= n - 4) {
		d->state = "pendingupload";
		d->kind = pending_kinds[n - 1 - i];
		d->mp4 = 0;
	} else if (i >= n - 7)
		d->state = "queued";
	else if (i >= n - 11) {
		d->state = "inprogress";
		d->pct = pcts[n - 8 - i];
	} else if (i == 5 || i == 17 || i == 29) {
		d->state = "error";
		d->code = "ERR_NON_VIDEO";
		d->text = "The file was not recognized as a valid video file.";
		d->mp4 = 0;
	} else if (i == 11 || i == 23) {
		d->state = "error";
		d->code = "ERR_DURATION_EXCEED_CONSTRAINT";
		d->text = "The video's duration exceeds its "
		    "maxDurationSeconds.";
	}
}

/* A pending upload: nothing known yet, the one-time URL still open. */
static void
stream_demo_pending(struct util_rng *rng, int64_t now, struct stream_demo *d)
{
	d->modified = d->created;
	d->duration = -1;
	d->width = d->height = -1;
	if (d->kind == STREAM_UPLOAD_DIRECT)
		d->max_duration = 600;
	else
		d->size = d->length = 734003200;
	d->expiry = now + (int64_t)(d->kind == STREAM_UPLOAD_TUS ?
	    TUS_EXPIRY_DEFAULT : STREAMRULES_EXPIRY_MAX) * 1000000;
	if (d->kind != STREAM_UPLOAD_TUS)
		util_rng_hex32(rng, d->token);
}

static void
stream_demo_fill(struct util_rng *rng, int i, int64_t now,
    struct stream_demo *d)
{
	int	sz;

	d->creator = stream_demo_creators[util_rng_below(rng,
	    nitems(stream_demo_creators))];
	sz = (int)util_rng_below(rng, nitems(stream_demo_sizes));
	d->width = stream_demo_sizes[sz][0];
	d->height = stream_demo_sizes[sz][1];
	d->duration = 8 + util_rng_below(rng, 3600) +
	    util_rng_below(rng, 1000) / 1000.0;
	d->meta = cJSON_CreateObject();
	cJSON_AddStringToObject(d->meta, "name", stream_demo_names[i]);
	if (i % 6 == 1)
		cJSON_AddStringToObject(d->meta, "project", "spring-campaign");
	d->origins = cJSON_CreateArray();
	if (i % 5 == 2) {
		cJSON_AddItemToArray(d->origins,
		    cJSON_CreateString("example.com"));
		cJSON_AddItemToArray(d->origins,
		    cJSON_CreateString("*.example.net"));
	}
	d->require_signed = i % 7 == 3;
	d->thumb = i % 4 == 0 ? 0 : util_rng_below(rng, 1000) / 1000.0;
	if (i % 13 == 4)
		stream_time_iso(d->created + 120 * VIDEO_DAY, d->deletion);
	d->max_duration = i % 9 == 0 ? 7200 : -1;
	if (d->code != NULL && strcmp(d->code, "ERR_DURATION_EXCEED_"
	    "CONSTRAINT") == 0)
		d->max_duration = (long)floor(d->duration / 2);
	if (strcmp(d->state, "pendingupload") == 0) {
		stream_demo_pending(rng, now, d);
		return;
	}
	d->uploaded = d->created + 1000000 *
	    (1 + (int64_t)util_rng_below(rng, 60));
	d->start = d->uploaded;
	d->modified = d->uploaded;
	if (strcmp(d->state, "ready") == 0 || strcmp(d->state, "error") == 0)
		d->modified = d->end = d->uploaded + 1000000 *
		    (30 + (int64_t)util_rng_below(rng, 300));
	d->size = (int64_t)(d->duration * (250000 +
	    util_rng_below(rng, 750000)));
	if (!d->mp4) {
		d->size = 35;	/* the text file stream_demo_file writes */
		d->duration = -1;
		d->width = d->height = -1;
	}
}

static void
stream_bind_time(sqlite3_stmt *st, int i, int64_t v)
{
	if (v != 0)
		sqlite3_bind_int64(st, i, v);
}

static void
stream_bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v != NULL && *v != '\0')
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
}

static int
stream_demo_insert(struct store *store, const char *account,
    const char *uid, const struct stream_demo *d)
{
	static const char	 sql[] =
	    "INSERT INTO stream_video (account, uid, created, modified,"
	    " uploaded, creator, meta, name, size, state, pct, process_start,"
	    " process_end, outcome, error_code, error_text, duration, width,"
	    " height, thumb_pct, allowed_origins, require_signed,"
	    " scheduled_deletion, max_duration, upload_kind, upload_length,"
	    " upload_expiry, upload_token) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
	    " ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,"
	    " ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28)";
	sqlite3_stmt		*st = store_stmt(store, sql);
	char			*meta, *name, *origins;
	int			 rc, final;

	final = strcmp(d->state, "ready") == 0 ||
	    strcmp(d->state, "error") == 0;
	meta = video_meta_text(d->meta, &name);
	origins = util_jprint(d->origins);
	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, d->created);
	sqlite3_bind_int64(st, 4, d->modified);
	stream_bind_time(st, 5, d->uploaded);
	stream_bind_text(st, 6, d->creator);
	sqlite3_bind_text(st, 7, meta, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 9, d->size);
	sqlite3_bind_text(st, 10, d->state, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 11, d->pct);
	stream_bind_time(st, 12, d->start);
	stream_bind_time(st, 13, d->end);
	stream_bind_text(st, 14, final ? d->state : NULL);
	stream_bind_text(st, 15, d->code);
	stream_bind_text(st, 16, d->text);
	sqlite3_bind_double(st, 17, d->duration);
	sqlite3_bind_int(st, 18, d->width);
	sqlite3_bind_int(st, 19, d->height);
	sqlite3_bind_double(st, 20, d->thumb);
	sqlite3_bind_text(st, 21, origins, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 22, d->require_signed);
	stream_bind_text(st, 23, d->deletion);
	sqlite3_bind_int64(st, 24, d->max_duration);
	sqlite3_bind_int(st, 25, d->kind);
	sqlite3_bind_int64(st, 26, d->length > 0 ? d->length : -1);
	stream_bind_time(st, 27, d->expiry);
	stream_bind_text(st, 28, d->token);
	rc = sqlite3_step(st);
	store_done(st);
	free(meta);
	free(name);
	free(origins);
	return (rc == SQLITE_DONE ? 0 : -1);
}

static int
stream_demo_file(struct store *store, const char *account, const char *uid,
    const struct stream_demo *d, char **cause)
{
	static const char	 text[] = "This is a text file, not a video.\n";
	char			*path;
	int			 fd, rc = -1;

	if (strcmp(d->state, "pendingupload") == 0)
		return (video_create_file(store, account, uid, 0, cause));
	if (video_account_dir(store, account, cause) != 0)
		return (-1);
	path = stream_video_file(store, account, uid);
	if (d->mp4)
		rc = media_mp4_write(path, d->duration, d->width, d->height,
		    2048, cause);
	else if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) != -1) {
		if (write(fd, text, sizeof text - 1) == sizeof text - 1)
			rc = 0;
		close(fd);
	}
	if (rc != 0 && !d->mp4)
		*cause = xprintf("%s: %s", path, strerror(errno));
	free(path);
	return (rc);
}

/*
 * Fifty videos spread over half a year up to now, in every state, with their
 * bytes. Runs in demo_seed's transaction; all but the dates comes from a
 * fixed seed.
 */
int
stream_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct util_rng		 rng;
	struct stream_demo	 d;
	char			 uid[HEX32_LEN + 1];
	int64_t			 now = stream_now();
	int			 i, n = (int)nitems(stream_demo_names), rc;

	(void)zone;
	util_rng_seed(&rng, 0x73747265616d3031ULL);
	for (i = 0; i < n; i++) {
		memset(&d, 0, sizeof d);
		util_rng_hex32(&rng, uid);
		stream_demo_state(i, n, &d);
		/* 88 hours apart, less up to 72: strictly increasing. */
		d.created = now - (int64_t)(n - i) * 88 * 3600 * 1000000 +
		    (int64_t)util_rng_below(&rng, 72 * 3600) * 1000000;
		stream_demo_fill(&rng, i, now, &d);
		rc = stream_demo_insert(store, account, uid, &d);
		cJSON_Delete(d.meta);
		cJSON_Delete(d.origins);
		if (rc != 0) {
			*cause = xprintf("demo videos: %s",
			    store_errmsg(store));
			return (-1);
		}
		if (stream_demo_file(store, account, uid, &d, cause) != 0)
			return (-1);
	}
	return (0);
}

int
stream_demo_ready_uids(struct store *store, const char *account,
    char uids[][HEX32_LEN + 1], int max)
{
	static const char	 sql[] =
	    "SELECT uid FROM stream_video WHERE account = ?1"
	    " AND state = 'ready' ORDER BY created LIMIT ?2";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 n = 0, rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max) {
		snprintf(uids[n], HEX32_LEN + 1, "%s", video_col_text(st, 0));
		n++;
	}
	store_done(st);
	return (rc == SQLITE_DONE || rc == SQLITE_ROW ? n : -1);
}

int
stream_video_write_mp4(struct store *store, const char *account,
    const char *uid, char **cause)
{
	static const char	 sql[] =
	    "SELECT duration, width, height FROM stream_video"
	    " WHERE account = ?1 AND uid = ?2";
	sqlite3_stmt		*st = store_stmt(store, sql);
	struct stat		 sb;
	char			*path;
	double			 duration = 10;
	int			 w = 1280, h = 720, rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_double(st, 0) > 0) {
		duration = sqlite3_column_double(st, 0);
		if (sqlite3_column_int(st, 1) > 0)
			w = sqlite3_column_int(st, 1);
		if (sqlite3_column_int(st, 2) > 0)
			h = sqlite3_column_int(st, 2);
	}
	store_done(st);
	if (rc != SQLITE_ROW) {
		*cause = xprintf("video %s was not found", uid);
		return (-1);
	}
	path = stream_video_file(store, account, uid);
	rc = 0;
	if (stat(path, &sb) != 0 || sb.st_size == 0) {
		if ((rc = video_account_dir(store, account, cause)) == 0)
			rc = media_mp4_write(path, duration, w, h, 2048, cause);
	}
	free(path);
	return (rc);
}
