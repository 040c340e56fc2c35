/*
 * Legacy zone rate limits: the rule checks and the rule as stored, exposed
 * for unit tests and the fuzzer.
 */
#ifndef EDGEMU_RATELIMIT_H
#define EDGEMU_RATELIMIT_H

#include <cjson/cJSON.h>

#define RATELIMIT_THRESHOLD_MAX		1000000
#define RATELIMIT_PERIOD_MIN		10
#define RATELIMIT_PERIOD_MAX		86400
#define RATELIMIT_TIMEOUT_MAX		86400
#define RATELIMIT_DESCRIPTION_MAX	1024	/* characters */
#define RATELIMIT_URL_MAX		1024	/* characters */
#define RATELIMIT_BODY_MAX		10240	/* characters */

int	 ratelimit_validate(const cJSON *, char **);
cJSON	*ratelimit_normalise(const cJSON *, const char *);

#endif
