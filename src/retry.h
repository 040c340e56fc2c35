/*
 * Whether and when to send a failed request again: pure decisions from the
 * method, the outcome, the server's Retry-After and an injected clock and
 * jitter, so every rule is testable without a network.
 */
#ifndef EDGE_RETRY_H
#define EDGE_RETRY_H

#include <time.h>

#define RETRY_DEFAULT_MAX	2	/* so at most 3 attempts */
#define RETRY_AFTER_CAP_MS	60000L	/* longer waits are reported */
/* Cloudflare blocks every call for 5 minutes once the budget is gone. */
#define RETRY_BLOCK_SECONDS	300
#define RETRY_UNTIL_LEN		9	/* "HH:MM:SS" */

/*
 * What went wrong below HTTP, as the HTTP layer maps curl's codes:
 * RESOLVE  CURLE_COULDNT_RESOLVE_HOST (and _PROXY)
 * CONNECT  CURLE_COULDNT_CONNECT; CURLE_OPERATION_TIMEDOUT before the
 *          connection was made
 * TLS      CURLE_SSL_CONNECT_ERROR (handshake; a certificate that fails
 *          verification is OTHER: trying again cannot fix it)
 * SEND     CURLE_SEND_ERROR
 * RECV     CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE
 * TIMEOUT  CURLE_OPERATION_TIMEDOUT once connected
 * CANCELLED CURLE_ABORTED_BY_CALLBACK (the user's cancel)
 * OTHER    anything else (bad URL, out of memory...)
 */
enum retry_net {
	RETRY_NET_NONE,			/* an HTTP response arrived */
	RETRY_NET_RESOLVE,
	RETRY_NET_CONNECT,
	RETRY_NET_TLS,
	RETRY_NET_SEND,
	RETRY_NET_RECV,
	RETRY_NET_TIMEOUT,
	RETRY_NET_CANCELLED,
	RETRY_NET_OTHER
};

/* A uniform number in [0, 1). */
typedef double (*retry_jitter_cb)(void *);

struct retry_input {
	const char	*method;	/* "GET", "POST"... */
	/*
	 * Request bytes may have reached the server (curl got past the
	 * connect: CURLINFO_PRETRANSFER_TIME_T > 0). An HTTP response, SEND,
	 * RECV and TIMEOUT imply it.
	 */
	int		 reached;
	int		 attempt;	/* retries already made: 0 after the first */
	int		 max_retries;	/* < 0: RETRY_DEFAULT_MAX */
	long		 http_status;	/* 0 without a response */
	enum retry_net	 net;
	const char	*retry_after;	/* headers as received, or NULL */
	const char	*retry_after_ms;
	const char	*should_retry;	/* x-should-retry: true/false */
	time_t		 now;
	retry_jitter_cb	 jitter;	/* NULL: no jitter */
	void		*jitter_arg;
};

enum retry_action {
	RETRY_NO,			/* fail now */
	RETRY_AFTER,			/* send again after delay_ms */
	RETRY_REPORT			/* fail now; the server is back at until */
};

struct retry_decision {
	enum retry_action	 action;
	long			 delay_ms;
	time_t			 until;		/* RETRY_REPORT; else 0 */
	const char		*why;		/* static text for the log */
};

void		 retry_decide(const struct retry_input *,
		     struct retry_decision *);

/* min(0.5 * 2^n, 8) s less up to 25 % (u in [0, 1)), in ms. */
long		 retry_backoff_ms(int, double);

/*
 * The server's wait in ms from retry-after-ms (ms, may be fractional) or
 * else Retry-After (seconds, may be fractional, or an HTTP-date). Returns
 * 0, or -1 if neither header holds one (or it is a date in the past).
 * Waits are capped at one day.
 */
int		 retry_server_delay(const char *, const char *, time_t, long *);

/* IMF-fixdate, RFC 850 or asctime date; 0 or -1. */
int		 retry_parse_http_date(const char *, time_t *);

/* "14:05:10" in local time. Returns buf. */
const char	*retry_until_text(time_t, char [RETRY_UNTIL_LEN]);

/*
 * The Ratelimit header ("default";r=50;t=30): the remaining quota and the
 * seconds until it resets, of the most constrained item. Returns 0, or -1
 * if no item carries r=.
 */
int		 retry_parse_ratelimit(const char *, long *, long *);

#endif
