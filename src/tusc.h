/*
 * The TUS 1.0.0 upload client for Cloudflare Stream: creation, HEAD,
 * PATCH chunk by chunk from a file (never held in memory), and a resume
 * journal in the state directory so an interrupted upload continues.
 * Named tusc so it does not clash with edgemu's tus.h.
 */
#ifndef EDGE_TUSC_H
#define EDGE_TUSC_H

#include <stddef.h>
#include <time.h>

#include "http.h"
#include "status.h"
#include "tusc_journal.h"

#define TUSC_VERSION		"1.0.0"
#define TUSC_CHUNK_DEFAULT	(50LL * 1024 * 1024)
#define TUSC_CONTENT_TYPE	"application/offset+octet-stream"
/* Seconds to wait before each retry; the list restarts on progress. */
#define TUSC_RETRY_DELAYS	{ 0, 1, 3, 5 }
#define TUSC_RETRY_MAX		4
/*
 * 423: the server still holds the upload for a request of ours it has not
 * finished (a PATCH cut by a crash or a restart, until its read timeout).
 * Waits follow retry_backoff_ms, up to this many, apart from the list
 * above: about two minutes, past tusd's and edgemu's 60 s read timeout.
 */
#define TUSC_LOCKED_MAX		18

/*
 * What Upload-Metadata carries; NULL (0 for the numbers) leaves a key
 * out. Text is sent as given (thumbnail_pct "0.5", expiry and
 * scheduled_deletion RFC 3339).
 */
struct tusc_meta {
	const char	*name;
	int		 require_signed;	/* a flag without a value */
	const char	*allowed_origins;	/* "a.com,b.com" */
	const char	*thumbnail_pct;
	const char	*watermark;		/* a watermark profile's uid */
	const char	*scheduled_deletion;
	long		 max_duration;		/* seconds; 0: none */
	const char	*expiry;
};

/*
 * done bytes of total are stored on the server: done moves only when a
 * PATCH answer or a HEAD says so (Upload-Offset), never with the bytes
 * written into the socket, so a percentage or an ETA from it is true.
 * During a PATCH it is called again with the same done, so it can stop.
 * Returns non-zero to stop: the upload ends STATUS_CANCELLED and stays in
 * the journal.
 */
typedef int	(*tusc_progress_cb)(long long, long long, void *);
/*
 * Bytes written to the connection so far, of total: the chunk under way
 * counted as curl hands it over, so a bar moves within a long chunk. Not
 * what the server stored (progress says that), so no resume relies on it.
 */
typedef void	(*tusc_sent_cb)(long long, long long, void *);
/*
 * A line for the user on the upload's thread: why a resume was refused,
 * a stale upload dropped, a wait for the server. NULL: log_info.
 */
typedef void	(*tusc_notice_cb)(const char *, void *);
/* Waits that many seconds; tests pass one that does not. */
typedef void	(*tusc_sleep_cb)(long, void *);

/*
 * One upload. base_url is the client's (for the journal key); the upload
 * is created at /accounts/{account}/stream. chunk_size 0 is the default.
 * state_dir NULL keeps no journal (no resume across runs).
 */
struct tusc_options {
	const char		*file;
	const char		*base_url;
	const char		*account;
	const char		*creator;		/* Upload-Creator */
	struct tusc_meta	 meta;
	long long		 chunk_size;
	const char		*state_dir;
	tusc_progress_cb	 progress;
	void			*progress_arg;
	tusc_sent_cb		 sent;			/* NULL: none */
	void			*sent_arg;
	tusc_sleep_cb		 sleep;			/* NULL: sleep(3) */
	void			*sleep_arg;
	tusc_notice_cb		 notice;
	void			*notice_arg;
};

/* The outcome: uid and url are set once the upload exists. */
struct tusc_result {
	enum status	 status;
	long		 http_status;	/* of the last failed request */
	char		*uid;
	char		*url;
	long long	 size;
	long long	 resumed_from;	/* offset found by HEAD; -1: created */
	int		 patches;	/* PATCH requests sent */
	int		 retries;
};

/*
 * Create or resume, then PATCH until the server has every byte. Returns
 * result->status; on failure *cause says why. Free with tusc_result_free.
 */
enum status	 tusc_upload(struct http_client *, const struct tusc_options *,
		     struct tusc_result *, char **);
void		 tusc_result_free(struct tusc_result *);

/* ---- Steps, for a caller that drives the upload itself ------------------ */

/* 0, or -1 with *cause when the size breaks Stream's chunk rules. */
int		 tusc_chunk_check(long long, char **);
/* How many bytes the chunk at offset holds. */
long long	 tusc_chunk_len(long long, long long, long long);
/* The Upload-Metadata value, or NULL when there is nothing to send. */
char		*tusc_metadata(const struct tusc_meta *);
/* Standard base64 of len bytes, allocated. */
char		*tusc_base64(const void *, size_t);
/* A decimal count (a header's or the journal's), trailing blanks allowed. */
int		 tusc_parse_num(const char *, long long *);

/* POST: the upload URL (Location, resolved) and uid (stream-media-id). */
enum status	 tusc_create(struct http_client *, const struct tusc_options *,
		     long long, char **, char **, long *, char **);
/* DELETE (termination): 0, or -1 with *cause; a gone upload is no error. */
int		 tusc_terminate(struct http_client *, const char *, char **);
/* HEAD: the server's offset (and length, if not NULL). */
enum status	 tusc_head(struct http_client *, const char *, long long *,
		     long long *, long *, char **);
/*
 * PATCH the chunk [offset, offset + len) of fd; *new_offset is the
 * server's answer. progress and sent as in tusc_options (may be NULL).
 */
enum status	 tusc_patch(struct http_client *, const char *, int, long long,
		     long long, long long, tusc_progress_cb, void *,
		     tusc_sent_cb, void *, long long *, long *, char **);

/*
 * The retry schedule: tusc_retry_next gives the seconds to wait before
 * the next attempt, or -1 when the delays are used up; any offset above
 * the last one seen starts the list again.
 */
struct tusc_retry {
	int		 next;
	long long	 offset;
};
void		 tusc_retry_init(struct tusc_retry *, long long);
long		 tusc_retry_next(struct tusc_retry *, long long);

#endif
