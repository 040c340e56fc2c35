/*
 * One API request through libcurl: the token, the read-only guard, the
 * request budget, retries with Retry-After, the envelope, response headers,
 * and a log of what was sent that never holds the token.
 */
#ifndef EDGE_HTTP_H
#define EDGE_HTTP_H

#include <stddef.h>
#include <time.h>

#include <curl/curl.h>

#include "api.h"
#include "budget.h"
#include "status.h"

#define HTTP_CONNECT_TIMEOUT_MS	10000L
/* The whole request, for bodies in memory only: uploads have none. */
#define HTTP_TIMEOUT_MS		60000L
/*
 * Below HTTP_LOW_SPEED_LIMIT bytes/s for HTTP_LOW_SPEED_TIME s aborts an
 * upload (a body streamed from a file or multipart); any other request
 * gives a silent server HTTP_IDLE_TIME s, so with its retries it is given
 * up on in about 1.5 minutes, not 3.
 */
#define HTTP_LOW_SPEED_LIMIT	1L
#define HTTP_LOW_SPEED_TIME	60L
#define HTTP_IDLE_TIME		30L
/* A blocking call sleeps at most this long for the budget; else reports. */
#define HTTP_BUDGET_WAIT_MS	(300L * 1000)
#define HTTP_LOG_DEFAULT	200	/* entries in the request-log ring */
#define HTTP_LOG_PATH_MAX	256	/* longer paths are cut there */
#define HTTP_LOG_BODY_MAX	(64 * 1024)	/* of each response kept */
#define HTTP_VERBOSE_BODY_MAX	4096	/* of a response -v shows */
#define HTTP_LOG_BYTES_MAX	(4 * 1024 * 1024) /* bodies, then dropped */
#define HTTP_HEADERS_MAX	64	/* response headers kept */
/* Shown instead of the token wherever text could hold it. */
#define HTTP_REDACTED		"[REDACTED]"
#define HTTP_TOKEN_ENV		"CLOUDFLARE_API_TOKEN"

/*
 * Time and waiting, injectable so tests never sleep: clock is monotonic
 * seconds (the budget's clock), wall is time(3) (Retry-After dates and
 * "until" times), sleep waits ms, jitter is uniform in [0, 1). Any of them
 * NULL takes the real one.
 */
struct http_hooks {
	double		 (*clock)(void *);
	time_t		 (*wall)(void *);
	void		 (*sleep)(long, void *);
	double		 (*jitter)(void *);
	void		*arg;
};

/*
 * A client: base_url is "https://api.cloudflare.com/client/v4" or the
 * like; token is copied (NULL or "": none is sent); readonly refuses all
 * but GET, HEAD and OPTIONS. budget is the process-wide one, not owned;
 * NULL makes the client its own of budget_capacity requests per 5 minutes
 * (0: the default). Zero for the rest takes the defaults above;
 * timeout_ms < 0 is no total timeout; max_retries < 0 RETRY_DEFAULT_MAX.
 */
struct http_options {
	const char		*base_url;
	const char		*token;
	int			 readonly;
	int			 max_retries;
	struct budget		*budget;
	long long		 budget_capacity;
	long			 connect_timeout_ms;
	long			 timeout_ms;
	long			 low_speed_time;	/* seconds, uploads */
	long			 idle_time;		/* seconds, the rest */
	long			 budget_wait_ms;
	size_t			 log_size;
	/*
	 * The request log without answers and curl commands (nothing shows
	 * them: a one-shot command), so a long list is neither held nor
	 * parsed twice on its way out.
	 */
	int			 log_entries_only;
	struct http_client	*log_with;	/* share its request log */
	const struct http_hooks	*hooks;		/* copied */
};

/*
 * One part of a multipart/form-data body: a text field (value) or the
 * contents of a file; filename NULL is the file's last component, type
 * NULL is guessed from the name.
 */
struct http_part {
	const char	*name;
	const char	*value;
	const char	*file;
	const char	*filename;
	const char	*type;
};

/*
 * Upload callbacks: read fills up to len bytes and returns how many (0 at
 * the end, HTTP_READ_ABORT to abort); seek goes back to offset for a
 * rewind or a retry, 0 or -1 (without it, a body that was sent is not
 * sent again). progress returns non-zero to cancel the request.
 */
#define HTTP_READ_ABORT	CURL_READFUNC_ABORT
typedef size_t	(*http_read_cb)(char *, size_t, void *);
typedef int	(*http_seek_cb)(void *, long long);
typedef int	(*http_progress_cb)(void *, long long, long long, long long,
		    long long);

/*
 * A request. path is "/zones/..." (may end in a ?query) below base_url,
 * or an absolute http(s) URL such as a TUS Location; the token goes only
 * to base_url's origin (scheme, host, port), and never with noauth (a
 * one-time upload URL). headers are "Name: value", NULL-terminated; they
 * override the defaults (User-Agent, Accept, Content-Type) but may not set
 * Authorization. At most one body: json (json_len 0: strlen), parts, or
 * read with read_len bytes (< 0: chunked) of content_type (NULL:
 * application/octet-stream). raw: the response is no envelope, any 2xx is
 * success and the body is kept. no_retry: one attempt only. Everything is
 * copied by http_call_new but what the callbacks' arguments point to.
 */
struct http_request {
	const char		*method;
	const char		*path;
	const char *const	*headers;
	const char		*json;
	size_t			 json_len;
	const struct http_part	*parts;
	size_t			 nparts;
	http_read_cb		 read;
	http_seek_cb		 seek;
	void			*read_arg;
	long long		 read_len;
	const char		*content_type;
	int			 noauth;
	int			 raw;
	int			 no_retry;
	http_progress_cb	 progress;
	void			*progress_arg;
};

struct http_header {
	char	*name;
	char	*value;
};

/*
 * The outcome. http_status is 0 when no whole response arrived; api is
 * the parsed envelope (also for raw requests that failed); body and len
 * only for raw requests. headers are the final response's. attempts is 0
 * when the request was refused before sending. until is the end of a
 * reported rate-limit wait, else 0; ratelimit_remaining is the Ratelimit
 * header's r= (or -1). method and path are the request's (the path
 * redacted as in the log). A failure about the request as sent has its
 * bare reason in detail and in *cause, without the method and path: the
 * caller that shows it composes "METHOD /path: detail". Other failures
 * (refused before sending: read-only, a bad method or path, an unreadable
 * file) have no detail and say it all in *cause.
 */
struct http_response {
	enum status		 status;
	long			 http_status;
	struct api_response	 api;
	char			*body;
	size_t			 len;
	struct http_header	*headers;
	size_t			 nheaders;
	int			 attempts;
	long			 latency_ms;
	time_t			 until;
	long			 budget_left;
	long			 ratelimit_remaining;
	char			*method;
	char			*path;
	char			*detail;
};

/*
 * One line of the request-log ring, one per attempt (attempt from 1) or
 * per request refused unsent (attempt 0); http_status 0 without a
 * response. Text is cut to fit. seq numbers the entries from 1.
 */
struct http_log_entry {
	unsigned long	 seq;
	time_t		 time;
	char		 method[8];
	char		 path[HTTP_LOG_PATH_MAX];
	long		 http_status;
	enum status	 status;
	long		 latency_ms;
	int		 attempt;
	long		 budget_left;
};

struct http_client;
struct http_call;

/*
 * The program calls curl_global_init once before any client exists (and
 * before threads start); libedge never does. A client is used by one
 * thread at a time; its log ring and budget may be read from any thread.
 * NULL with *cause for a base URL that is not http(s).
 */
struct http_client *http_client_new(const struct http_options *, char **);
void		 http_client_free(struct http_client *);
struct budget	*http_client_budget(struct http_client *);
long		 http_budget_left(struct http_client *);

/* The seconds of silence after which req is given up (an attempt). */
long		 http_idle_seconds(const struct http_client *,
		     const struct http_request *);

/* 1 unless the method is GET, HEAD or OPTIONS. */
int		 http_method_mutates(const char *);

/*
 * Blocking: every attempt, sleeping (with the hooks) between them.
 * Returns resp->status; on failure *cause (if cause is not NULL) is the
 * bare reason (the server's errors or the transport's, the token redacted
 * and control characters replaced), resp->method and resp->path the
 * request it is about. Always free resp.
 */
enum status	 http_perform(struct http_client *,
		     const struct http_request *, struct http_response *,
		     char **);
void		 http_response_free(struct http_response *);
/* A response header (the last of that name, in any case), or NULL. */
const char	*http_response_header(const struct http_response *,
		     const char *);

/*
 * Non-blocking, for a curl-multi loop. http_call_next says what to do:
 * SEND: run *easy (add it to a multi handle, or curl_easy_perform), then
 *   call http_call_done with its result, after removing it from the multi;
 * WAIT: call http_call_next again after *wait_ms (budget or retry backoff);
 * DONE: take the outcome with http_call_result.
 * The easy handle belongs to the client: do not clean it up; its
 * CURLOPT_PRIVATE is the call. A call may be freed at any point (to
 * cancel it), once its handle is out of any multi handle.
 */
enum http_next {
	HTTP_NEXT_SEND,
	HTTP_NEXT_WAIT,
	HTTP_NEXT_DONE
};
struct http_call *http_call_new(struct http_client *,
		     const struct http_request *);
enum http_next	 http_call_next(struct http_call *, CURL **, long *);
enum http_next	 http_call_done(struct http_call *, CURLcode, long *);
/* Moves the outcome into resp and *cause (both as for http_perform). */
enum status	 http_call_result(struct http_call *, struct http_response *,
		     char **);
void		 http_call_free(struct http_call *);
/* While SEND: the full URL and the request headers that will be sent. */
const char	*http_call_url(const struct http_call *);
const struct curl_slist *http_call_headers(const struct http_call *);

/*
 * The request as a shell command for curl, the token replaced by
 * "$CLOUDFLARE_API_TOKEN" and the secrets of a JSON body by "[redacted]"
 * (redact.h): it is shown and logged, never run by libedge. Allocated.
 */
char		*http_curl_command(const struct http_client *,
		     const struct http_request *);
/*
 * A copy of text with the token as HTTP_REDACTED where it stands as a word
 * of its own, and, for a token of 8 characters or more, everywhere.
 */
char		*http_redact(const struct http_client *, const char *);

/*
 * The request-log ring, oldest first: copies the newest max entries (at
 * most) to out and returns how many. *total (if total is not NULL) counts
 * every entry ever added.
 */
size_t		 http_log_snapshot(struct http_client *,
		     struct http_log_entry *, size_t, unsigned long *);
/*
 * Entry seq as a curl command (the token as "$CLOUDFLARE_API_TOKEN") and
 * its response body, both without secrets (redact.h), the body at most
 * HTTP_LOG_BODY_MAX; the newest HTTP_LOG_BYTES_MAX of bodies are kept.
 * 0 with both allocated, or -1 when the entry has left the ring.
 */
int		 http_log_detail(struct http_client *, unsigned long, char **,
		     char **);

/*
 * The exit status of a one-shot command: 0 done; 1 the server refused
 * (any failure with an HTTP status, and rate limits); 2 usage or invalid
 * input found before sending; 3 transport failure (connect, TLS, timeout,
 * cut short). The arguments are a response's status and http_status.
 */
#define HTTP_EXIT_OK		0
#define HTTP_EXIT_REFUSED	1
#define HTTP_EXIT_USAGE		2
#define HTTP_EXIT_TRANSPORT	3
int		 http_exit_status(enum status, long);

#endif
