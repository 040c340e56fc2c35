/*
 * What http.c and http_log.c share and no other file sees: a client's and
 * a call's state, and the transport's helpers the log uses.
 */
#ifndef EDGE_HTTP_INTERNAL_H
#define EDGE_HTTP_INTERNAL_H

#include <stdint.h>
#include <time.h>

#include <curl/curl.h>

#include "buf.h"
#include "http.h"
#include "retry.h"
#include "status.h"

/* Idle easy handles kept for reuse (their connections stay open). */
#define HTTP_IDLE_MAX		8
#define HTTP_HEADER_LINE_MAX	8192

struct http_client {
	char			*base_url;	/* no trailing slash */
	char			*origin;	/* "https://host:443" */
	char			*token;		/* NULL: none */
	int			 readonly;
	int			 max_retries;
	struct budget		*budget;
	int			 own_budget;
	long			 connect_timeout_ms;
	long			 timeout_ms;
	long			 low_speed_time;
	long			 idle_time;
	long			 budget_wait_ms;
	double			 penalty_until;	/* after a 429 */
	struct http_hooks	 hooks;
	uint64_t		 rng;

	CURL			*idle[HTTP_IDLE_MAX];
	size_t			 nidle;

	struct http_ring	*ring;
};

enum http_body {
	HTTP_BODY_NONE,
	HTTP_BODY_JSON,
	HTTP_BODY_PARTS,
	HTTP_BODY_READ
};

struct http_call {
	struct http_client	*c;

	/* The request, copied. */
	char			*method;
	char			*path;
	char			*url;
	int			 send_token;
	char			**headers;
	size_t			 nheaders;
	enum http_body		 body;
	char			*json;
	size_t			 json_len;
	struct http_part	*parts;
	size_t			 nparts;
	http_read_cb		 read;
	http_seek_cb		 seek;
	void			*read_arg;
	long long		 read_len;
	char			*content_type;
	int			 raw;
	int			 no_retry;
	http_progress_cb	 progress;
	void			*progress_arg;

	/* The attempt under way. */
	int			 attempt;	/* attempts started */
	int			 sending;
	int			 read_used;	/* the body was read */
	CURL			*easy;
	struct curl_slist	*hlist;
	curl_mime		*mime;
	char			 errbuf[CURL_ERROR_SIZE];
	struct buf		 in;
	int			 too_big;
	struct http_header	*rh;
	size_t			 nrh;
	long			 budget_left;

	/* The outcome. */
	int			 done;
	enum status		 status;
	char			*cause;
	char			*detail;	/* cause without "METHOD /path: " */
	struct http_response	 resp;
};

/* What one attempt brought back. */
struct http_outcome {
	CURLcode	 rc;
	long		 code;		/* 0: no (whole) response */
	long		 latency_ms;
	int		 reached;
	int		 connected;
	enum retry_net	 net;
	enum status	 status;
	char		*text;		/* the failure, for *cause */
};

/* Seconds since the epoch, from the client's hooks. */
time_t		 http_wall(const struct http_client *);
/* "scheme://host:port" of an http(s) URL, lowercased; NULL if it is none. */
char		*http_origin(const char *);
int		 http_is_absolute(const char *);

#endif
