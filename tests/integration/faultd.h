/*
 * faultd: a small HTTP/1.1 server for tests, run as threads inside the test
 * process on 127.0.0.1. It answers each request from a script of canned
 * replies and faults (a connection closed mid-body, a stall, a slow drip,
 * a body of any size generated on the fly) and records what it received.
 */
#ifndef FAULTD_H
#define FAULTD_H

#include <stddef.h>

/*
 * REPLY: status, headers and body. CLOSE: read the request, close without
 * a word. CUT: announce the body, send cut bytes of it, close. STALL: send
 * cut bytes of the body, then nothing until the client leaves. DRIP: the
 * body a byte at a time, drip_ms apart. HUGE: huge bytes of body made on
 * the fly, with a Content-Length or chunked.
 */
enum faultd_act {
	FAULTD_REPLY,
	FAULTD_CLOSE,
	FAULTD_CUT,
	FAULTD_STALL,
	FAULTD_DRIP,
	FAULTD_HUGE
};

/* headers are whole lines, each ending "\r\n"; status 0 is 200. */
struct faultd_reply {
	enum faultd_act		 act;
	int			 status;
	const char		*headers;
	const char		*body;		/* NULL: "" */
	size_t			 len;		/* 0: strlen(body) */
	size_t			 cut;
	unsigned long long	 huge;
	int			 chunked;
	int			 drip_ms;
	int			 close;		/* then close */
};

/*
 * One request as received: body is NUL-terminated and cut at 4 MiB (len
 * counts every byte), conn numbers connections from 1, sent counts the
 * response bytes written.
 */
struct faultd_request {
	char			*method;
	char			*path;
	char			*headers;	/* the header lines, raw */
	char			*body;
	size_t			 len;
	int			 conn;
	unsigned long long	 sent;
};

struct faultd;

/* Listen on 127.0.0.1:port (0: any free port); NULL if it cannot. */
struct faultd	*faultd_start(int);
/*
 * A free port held but not listened on: connections are refused, and no
 * other server can take it meanwhile. faultd_listen then serves on it.
 */
struct faultd	*faultd_reserve(void);
int		 faultd_listen(struct faultd *);
/* Replies in order of the requests; the last repeats. Copied. */
void		 faultd_script(struct faultd *, const struct faultd_reply *,
		     size_t);
/*
 * Or each request answered by a function (a proxy to a real server that
 * acts between two requests): it fills the reply; a body it allocates
 * goes in owned as well, freed once sent. Called on the connection's
 * thread, one request at a time.
 */
typedef void	(*faultd_handler_cb)(const struct faultd_request *,
		     struct faultd_reply *, char **, void *);
void		 faultd_handler(struct faultd *, faultd_handler_cb, void *);
int		 faultd_port(struct faultd *);
/* "http://127.0.0.1:PORT"; static to the faultd. */
const char	*faultd_url(struct faultd *);
size_t		 faultd_count(struct faultd *);
int		 faultd_connections(struct faultd *);
/*
 * A copy of request i (free with faultd_request_free); its sent count is
 * final once faultd_stop has returned.
 */
int		 faultd_request(struct faultd *, size_t,
		     struct faultd_request *);
void		 faultd_request_free(struct faultd_request *);
/* A request header's value (allocated), or NULL. */
char		*faultd_header(const struct faultd_request *, const char *);
/* Stop listening and end every connection; the records stay. */
void		 faultd_stop(struct faultd *);
void		 faultd_free(struct faultd *);

#endif
