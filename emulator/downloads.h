/*
 * MP4 downloads, captions and audio tracks of a Stream video: the pieces
 * exposed for unit tests.
 */
#ifndef EDGEMU_DOWNLOADS_H
#define EDGEMU_DOWNLOADS_H

#include <stdint.h>

/* Where a ready download is served, outside API_PREFIX and without a token. */
#define DOWNLOADS_MEDIA_PATH	"/media/{uid:hex32}/downloads/default.mp4"
#define DOWNLOADS_LABEL_MAX	256	/* characters in a track label */

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

#endif
