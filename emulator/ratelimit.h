/*
 * Legacy zone rate limits: the rule checks and the rule as stored, exposed
 * for unit tests and the fuzzer.
 */
#ifndef EDGEMU_RATELIMIT_H
#define EDGEMU_RATELIMIT_H

#include <cjson/cJSON.h>

#define RATELIMIT_THRESHOLD_MAX		1000000

int	 ratelimit_validate(const cJSON *, char **);
cJSON	*ratelimit_normalise(const cJSON *, const char *);

#endif
