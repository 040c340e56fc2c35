/* API Shield: the checks and normalisation, exposed for unit tests. */
#ifndef EDGEMU_SHIELD_H
#define EDGEMU_SHIELD_H

#include <cjson/cJSON.h>

#define SHIELD_MAX_CHARACTERISTICS 10

int	shield_validate_config(const cJSON *, char **);

#endif
