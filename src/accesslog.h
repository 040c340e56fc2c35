/*
 * Access logs read as requests, one line at a time: Cloudflare Logpush
 * http_requests JSON lines and the combined log format of nginx and
 * Apache, plain or gzip ("-" is stdin). Lines that are no request are
 * counted and skipped, never fatal; the first few are kept with the
 * reason. No cJSON on the hot path: a flat JSON line is scanned in place.
 */
#ifndef EDGE_ACCESSLOG_H
#define EDGE_ACCESSLOG_H

#include <stddef.h>
#include <stdint.h>

enum accesslog_format {
	ACCESSLOG_AUTO = 0,	/* that of the first line that reads as one */
	ACCESSLOG_LOGPUSH,
	ACCESSLOG_COMBINED
};

/* "logpush", "combined"; -1 when neither. */
int		 accesslog_format_parse(const char *, enum accesslog_format *);

struct accesslog_options {
	enum accesslog_format	 format;
	const char		*host;		/* combined: the site's host */
	const char		*scheme;	/* combined: NULL is "https" */
	/* Asked while a pipe keeps the reader waiting (src/logread.h);
	 * non-zero: accesslog_next fails, "cancelled". May be NULL. */
	int			(*cancelled)(void *);
	void			*cancel_arg;
};

/* A header or cookie of a Logpush line's RequestHeaders or Cookies. */
struct accesslog_pair {
	const char	*name;
	const char	*value;
};

#define ACCESSLOG_PAIRS_MAX	64	/* more in one object: a bad line */

/*
 * One request. Strings are NUL-terminated, NULL when the line did not
 * carry them, and valid until the next accesslog_next.
 */
struct accesslog_record {
	uint64_t		 line;		/* 1-based line number */
	int64_t			 time_ns;	/* since the epoch, UTC */
	const char		*ip;
	const char		*host;
	const char		*method;
	const char		*uri;		/* path and query as sent */
	const char		*scheme;
	const char		*user_agent;
	const char		*referer;
	const char		*country;
	const char		*colo;		/* EdgeColoCode */
	const char		*version;	/* ClientRequestProtocol */
	const char		*ja3;
	const char		*ja4;
	int			 status;	/* 0 when not carried */
	int64_t			 asnum;		/* -1 when not carried */
	struct accesslog_pair	 headers[ACCESSLOG_PAIRS_MAX];
	size_t			 nheaders;
	struct accesslog_pair	 cookies[ACCESSLOG_PAIRS_MAX];
	size_t			 ncookies;
};

/* A line that was no request. */
struct accesslog_bad {
	uint64_t	 line;
	char		 why[128];
	char		 text[81];	/* its start, control bytes as '?' */
};

#define ACCESSLOG_BAD_KEPT	5
#define ACCESSLOG_LINE_MAX	(1024 * 1024)	/* longer lines are bad */

struct accesslog;

/* Open path ("-": stdin); NULL with *cause when it cannot be read. */
struct accesslog *accesslog_open(const char *, const struct accesslog_options *,
		     char **);
void		 accesslog_close(struct accesslog *);

/*
 * The next request into *rec: 1, 0 at the end of the log, -1 with *cause
 * when reading failed (a damaged gzip stream, an I/O error).
 */
int		 accesslog_next(struct accesslog *,
		     const struct accesslog_record **, char **);

/*
 * The line of the request last returned as its scan left it (len bytes
 * and a NUL): the record's strings that are not constants point into it,
 * so a caller that keeps records longer copies it and moves them.
 */
const char	*accesslog_record_line(const struct accesslog *, size_t *);

/* The request last returned is no request after all (its URI cannot be
 * read, say): counted as a bad line for that reason. */
void		 accesslog_reject(struct accesslog *, const char *);

/* Lines read (empty ones left out) and lines that were no request. */
uint64_t	 accesslog_lines(const struct accesslog *);
uint64_t	 accesslog_bad_lines(const struct accesslog *);
/* The first ACCESSLOG_BAD_KEPT bad lines. */
const struct accesslog_bad *accesslog_bad(const struct accesslog *, size_t *);
/* The format read (AUTO until a line read as one). */
enum accesslog_format accesslog_format(const struct accesslog *);
/* Bytes of the file read so far and its size (0 when unknown), for a
 * progress bar. */
void		 accesslog_progress(const struct accesslog *, uint64_t *,
		     uint64_t *);

/*
 * One line (without its newline; it is changed in place) into *rec; 0, or
 * -1 with the reason in why. For the fuzz target and the unit tests.
 */
int		 accesslog_parse_line(enum accesslog_format,
		     const struct accesslog_options *, char *, size_t,
		     struct accesslog_record *, char *, size_t);

#endif
