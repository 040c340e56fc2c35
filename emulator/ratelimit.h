/* Legacy zone rate limits: the rule checks, exposed for unit tests. */
#ifndef EDGEMU_RATELIMIT_H
#define EDGEMU_RATELIMIT_H

#include <cjson/cJSON.h>

int	ratelimit_validate(const cJSON *, char **);

#endif
