/*
 * The Stream webhook: one notification URL per account, and signed, retried
 * deliveries of a video that finished processing. The checks are exposed for
 * the unit tests and for other areas that take URLs.
 */
#ifndef EDGEMU_WEBHOOK_H
#define EDGEMU_WEBHOOK_H

#include <stddef.h>

#include <cjson/cJSON.h>

#define WEBHOOK_ATTEMPTS	5
#define WEBHOOK_SIG_LEN		64	/* hex of HMAC-SHA256 */

struct store;

/*
 * Queue a notification for a video that finished processing (ready or
 * error). Never blocks on the network; does nothing without a webhook.
 * Opens no transaction of its own, so it may be called inside the caller's.
 */
void	 webhook_notify(struct store *, const char *, const cJSON *);

/* hex(HMAC-SHA256(secret, "<time>.<body>")) into out. */
void	 webhook_sign(const char *, long long, const void *, size_t,
	     char out[WEBHOOK_SIG_LEN + 1]);

/* An absolute http or https URL with a host; otherwise cause says why. */
int	 webhook_url_check(const char *, char **);

/* Seconds to wait after a failed attempt (1-based), or -1: give up. */
int	 webhook_retry_delay(int);

#endif
