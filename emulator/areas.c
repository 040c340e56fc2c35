/* The areas of the API that edgemu serves: one line each. */
#include "config.h"

#include "server.h"

extern const struct area shield_area;
extern const struct area ratelimit_area;

const struct area *const server_areas[] = {
	&shield_area,
	&ratelimit_area,
	NULL
};
