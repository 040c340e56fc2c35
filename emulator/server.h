/*
 * edgemu's HTTP side: requests, replies in the API envelope, and the routing
 * table that each area of the API contributes to.
 */
#ifndef EDGEMU_SERVER_H
#define EDGEMU_SERVER_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "common.h"
#include "query.h"

#define API_PREFIX		"/client/v4"
#define ROUTE_MAX_PARAMS	4
#define SERVER_JSON_MAX		(1024 * 1024)
#define SERVER_MAX_CONNECTIONS	1024	/* open at once, by default */
#define SERVER_MULTIPART_MAX	(10 * 1024 * 1024)

/* Error codes carried in envelopes. */
#define ERR_NO_ROUTE		7003
#define ERR_METHOD		7001
#define ERR_AUTH_MISSING	10000
#define ERR_AUTH_INVALID	9109
#define ERR_BAD_REQUEST		10400
#define ERR_VALIDATION		10001
#define ERR_NOT_FOUND		10404
#define ERR_TOO_LARGE		10413
#define ERR_MEDIA_TYPE		10415
#define ERR_CONFLICT		10409
#define ERR_INTERNAL		10500
#define ERR_GONE		10000	/* a retired API (--legacy-gone) */

enum http_method {
	HTTP_GET,
	HTTP_HEAD,
	HTTP_POST,
	HTTP_PUT,
	HTTP_PATCH,
	HTTP_DELETE,
	HTTP_OPTIONS,
	HTTP_OTHER
};

enum route_body {
	ROUTE_BODY_NONE,	/* a body is read and ignored (up to the JSON cap) */
	ROUTE_BODY_JSON,	/* parsed into req->json; empty body: NULL */
	ROUTE_BODY_MULTIPART,	/* parsed into req->parts */
	ROUTE_BODY_RAW,		/* buffered up to the multipart cap */
	ROUTE_BODY_STREAM	/* handed to the route's stream callbacks */
};

#define ROUTE_NOAUTH	0x1	/* credentials not required (one-time URLs) */
#define ROUTE_ROOT	0x2	/* pattern is the whole path, not below API_PREFIX */
#define ROUTE_LEGACY	0x4	/* retired on the cloud: 410 with legacy_gone */
/*
 * The handler writes: it runs in a store transaction that its reply
 * decides, a success (2xx, no errors) commits and anything else rolls
 * back. Not for ROUTE_BODY_STREAM routes.
 */
#define ROUTE_WRITE	0x8

struct server;
struct store;
struct multipart;
struct MHD_Connection;

struct req {
	struct server		*server;
	struct store		*store;
	struct MHD_Connection	*conn;
	enum http_method	 method;
	const char		*path;		/* below API_PREFIX (ROUTE_ROOT: whole) */
	struct query		 query;
	const char		*param_name[ROUTE_MAX_PARAMS];
	size_t			 param_len[ROUTE_MAX_PARAMS];
	char			*param[ROUTE_MAX_PARAMS];
	size_t			 nparams;
	struct buf		 body;
	cJSON			*json;
	struct multipart	*parts;
	void			*state;		/* for stream routes */
};

struct reply_header {
	char	*name;
	char	*value;
};

struct reply {
	unsigned int		 status;
	cJSON			*result;	/* NULL: "result": null */
	cJSON			*errors;
	cJSON			*top;		/* extra top-level members */
	int			 paged;
	long			 page, per_page, total_count;
	struct reply_header	*headers;
	size_t			 nheaders;
	int			 raw;		/* body below, not an envelope */
	char			*raw_body;
	size_t			 raw_len;
	void			*response;	/* a ready MHD_Response */
};

typedef void (*route_cb)(struct req *, struct reply *);
typedef int (*route_stream_begin_cb)(struct req *, struct reply *);
typedef int (*route_stream_data_cb)(struct req *, const char *, size_t,
		     struct reply *);
typedef void (*route_stream_end_cb)(struct req *, struct reply *, int);
/*
 * The path as a log line shows it, written into out (size bytes): a
 * route whose path may hold a secret cuts it.
 */
typedef void (*route_log_path_cb)(const char *, char *, size_t);

struct route {
	enum http_method	 method;
	const char		*pattern;	/* /zones/{zone:hex32}/rate_limits */
	route_cb		 handler;
	enum route_body		 body;
	int			 flags;
	route_stream_begin_cb	 stream_begin;
	route_stream_data_cb	 stream_data;
	route_stream_end_cb	 stream_end;	/* on success and on abort */
	const char		*header;	/* NULL, or a header it needs */
	/*
	 * NULL: the path is logged as it is. It also speaks for paths no
	 * route takes that start as its pattern does, up to its first {.
	 */
	route_log_path_cb	 log_path;
};

/* One area of the API: its routes, its tables and its demo data. */
struct area {
	const char		*name;
	const struct route	*routes;
	size_t			 nroutes;
	const char		*schema;
	int			(*demo)(struct store *, const char *account,
				    const char *zone, char **cause);
	int			(*start)(struct server *, char **cause);
	void			(*stop)(struct server *);
};

struct server_options {
	/* What is served, NULL-ended: server_areas (areas.c). */
	const struct area *const *areas;
	const char	*listen_addr;
	int		 port;
	const char	*token;
	int		 processing_seconds;
	int		 threads;
	int		 verbose;
	int		 legacy_gone;	/* ROUTE_LEGACY routes answer 410 */
	int		 no_sv_api;	/* /schema_validation answers 404 */
	long long	 upload_rate;	/* tus PATCH bytes a second; 0: no cap */
	unsigned int	 max_connections; /* 0: SERVER_MAX_CONNECTIONS */
	int		 plan;		/* enum expr_plan: --plan's limits */
};

extern const struct area *const server_areas[];

struct server	*server_start(const struct server_options *, struct store *,
		     char **);
void		 server_stop(struct server *);
int		 server_port(const struct server *);
const char	*server_base_url(const struct server *);
const struct server_options *server_options(const struct server *);
struct store	*server_store(const struct server *);

/* Requests. */
const char	*req_param(const struct req *, const char *);
const char	*req_header(const struct req *, const char *);
size_t		 req_header_values(const struct req *, const char *,
		     const char **, size_t);
const char	*http_method_name(enum http_method);

/* Replies. */
void		 reply_ok(struct reply *, cJSON *);
void		 reply_status(struct reply *, unsigned int, cJSON *);
void		 reply_page(struct reply *, cJSON *, long, long, long);
void		 reply_error(struct reply *, unsigned int, int, const char *, ...)
		     printflike(4, 5);
void		 reply_add_error(struct reply *, int, const char *, ...)
		     printflike(3, 4);
void		 reply_header(struct reply *, const char *, const char *);
void		 reply_raw(struct reply *, unsigned int, const char *, size_t,
		     const char *);
void		 reply_store_error(struct req *, struct reply *);
void		 reply_free(struct reply *);
char		*reply_envelope(const struct reply *, size_t *);

/* Routing, exposed for tests. */
enum route_match {
	ROUTE_FOUND,
	ROUTE_NO_PATH,
	ROUTE_BAD_METHOD,
	ROUTE_BAD_PARAM
};
enum route_match route_lookup(const struct route *const *, size_t,
		     enum http_method, const char *, const struct route **,
		     struct req *);
/*
 * The hook a path is logged through: the route found's (NULL: none), or
 * when it has none that of the first route of the table whose pattern
 * starts as the path does, up to its first '{'; NULL: the path as it is.
 */
route_log_path_cb route_log_hook(const struct route *,
		     const struct route *const *, size_t, const char *);
void		 req_clear_params(struct req *);
void		 route_run(const struct route *, struct req *, struct reply *);
enum http_method http_method_parse(const char *);

#endif
