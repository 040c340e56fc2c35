/*
 * MP4 downloads of a Stream video: the pieces exposed for unit tests, and
 * for captions.c and audio.c, which share the downloads area.
 */
#ifndef EDGEMU_DOWNLOADS_H
#define EDGEMU_DOWNLOADS_H

#include <stdint.h>

/*
 * Where a ready download is served, outside API_PREFIX and without the API
 * token; {ref} is the uid or a signed token (delivery.c checks it).
 */
#define DOWNLOADS_MEDIA_PATH	"/media/{ref}/downloads/default.mp4"

enum downloads_range {
	DOWNLOADS_RANGE_NONE,	/* none, or one to ignore: 200, whole */
	DOWNLOADS_RANGE_OK,	/* one satisfiable range: 206 */
	DOWNLOADS_RANGE_UNSATISFIABLE	/* 416 */
};

/*
 * Read a Range header for a file of size bytes. Only a single bytes range is
 * served (a-b, a-, -n); several ranges, another unit or bad syntax are
 * ignored (RFC 9110 14.2 allows that), so the whole file goes out.
 */
enum downloads_range downloads_range(const char *, uint64_t, uint64_t *,
	     uint64_t *);

struct req;
struct reply;

/*
 * Answer with a file's size bytes from fd (which it closes): the range the
 * request asks for (206 or 416), else the whole file; a request with
 * If-Range gets the whole file.
 */
void		 downloads_send_fd(struct req *, struct reply *, int, uint64_t,
		     const char *);

/* The video in the path exists; if not, the reply says so (404). */
int		 downloads_video_exists(struct req *, struct reply *);
/*
 * The reply to a list of the path's video's rows: sql binds ?1 the
 * account and ?2 the video; row makes each row's object.
 */
struct cJSON;
struct sqlite3_stmt;
void		 downloads_list(struct req *, struct reply *, const char *,
		     struct cJSON *(*)(struct sqlite3_stmt *));
/* Unix seconds, fractional. */
double		 downloads_now(void);

#endif
