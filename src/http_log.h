/*
 * The request log of http.c's clients: a ring of entries with their
 * commands and bodies, the redacted log lines and -v output.
 */
#ifndef EDGE_HTTP_LOG_H
#define EDGE_HTTP_LOG_H

#include <pthread.h>

#include "http.h"
#include "log.h"
#include "status.h"

struct http_call;
struct http_outcome;

/* One request-log line and what Enter and c show of it. */
struct http_ring_slot {
	struct http_log_entry	 e;
	char			*curl;		/* redacted, token as $VAR */
	char			*body;		/* redacted, capped */
};

/*
 * The request log, shared by the clients given log_with (the uploads'
 * with the console's), freed with the last of them.
 */
struct http_ring {
	pthread_mutex_t		 lock;
	int			 refs;
	struct http_ring_slot	*slots;
	size_t			 size;
	size_t			 next;
	size_t			 count;
	unsigned long		 total;
	size_t			 bytes;		/* of curl and body texts */
	int			 entries_only;	/* no curl nor body */
};

/*
 * Server text made safe to show: the token redacted, C0 and C1 controls
 * (escape sequences among them) and DEL as '?'.
 */
char		*http_log_clean(const struct http_client *, const char *);
/* A log line with the token redacted. */
void		 http_logf(const struct http_client *, enum log_level,
		     const char *, ...) printflike(3, 4);
/* One finished attempt of call, in the ring. */
void		 http_log_add(struct http_client *, const struct http_call *,
		     long, enum status, long);
/* One client fewer shares ring: the last frees it. */
void		 http_log_release(struct http_ring *);
/* One attempt's lines in the log; -v shows the headers and the answer. */
void		 http_log_attempt(struct http_call *,
		     const struct http_outcome *);

#endif
