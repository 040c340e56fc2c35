/*
 * Identifiers, clocks, randomness, text and JSON helpers shared by
 * edgemu's areas.
 */
#ifndef EDGEMU_UTIL_H
#define EDGEMU_UTIL_H

#include <stdint.h>
#include <stddef.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "common.h"

#define HEX32_LEN 32
#define UUID_LEN 36
#define ISO_TIME_LEN 32

void	 util_lower(char *);
void	 util_random_bytes(void *, size_t);
void	 util_hex32(char out[HEX32_LEN + 1]);
void	 util_uuid(char out[UUID_LEN + 1]);
void	 util_hex(const void *, size_t, char *);

/* A small deterministic generator for demo data. */
struct util_rng {
	uint64_t	s;
};
void	 util_rng_seed(struct util_rng *, uint64_t);
uint64_t util_rng_next(struct util_rng *);
uint32_t util_rng_below(struct util_rng *, uint32_t);
void	 util_rng_hex32(struct util_rng *, char out[HEX32_LEN + 1]);
void	 util_rng_uuid(struct util_rng *, char out[UUID_LEN + 1]);

/* Times are RFC 3339 UTC with microseconds: 2026-11-21T19:52:31.123456Z. */
void	 util_time_iso(const struct timespec *, char out[ISO_TIME_LEN]);
void	 util_now_iso(char out[ISO_TIME_LEN]);

int	 util_utf8_valid(const char *, size_t);
char	*util_strip_tags(const char *);
int	 util_streq_ct(const char *, const char *);

/* Sets *cause from a format and returns -1, so checks can return it. */
int	 util_fail(char **, const char *, ...) printflike(2, 3);

/* JSON helpers: typed getters that tell absent from wrong type. */
enum util_jtype {
	UTIL_JABSENT,
	UTIL_JOK,
	UTIL_JWRONG
};
enum util_jtype util_jstring(const cJSON *, const char *, const char **);
enum util_jtype util_jnumber(const cJSON *, const char *, double *);
enum util_jtype util_jbool(const cJSON *, const char *, int *);
int	 util_jis_integer(const cJSON *);
char	*util_jprint(const cJSON *);
cJSON	*util_jparse(const char *, size_t, char **);

#endif
