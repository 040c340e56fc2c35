/*
 * Integration test support: fields of an API result read by path, failing
 * the test (with what was there) when one is missing or of another type.
 */
#ifndef JSONGET_H
#define JSONGET_H

#include <cjson/cJSON.h>

/* path is a key, or keys joined by dots ("status.state"). */
const cJSON	*jget(const cJSON *, const char *);
const char	*jstr(const cJSON *, const char *);
double		 jnum(const cJSON *, const char *);
/* Fails showing both when a and b differ (keys' case counts). */
void		 assert_json_equal(const cJSON *, const cJSON *);

#endif
