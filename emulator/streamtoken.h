/*
 * Stream signed-URL tokens in edgemu: the token call (POST .../{uid}/token)
 * that signs with a given signing key or edgemu's own, and the check of a
 * token put in a video's uid place on a delivery URL.
 */
#ifndef EDGEMU_STREAMTOKEN_H
#define EDGEMU_STREAMTOKEN_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "util.h"

struct req;
struct reply;
struct store;

/* What a checked token grants. */
struct streamtoken {
	char	 account[HEX32_LEN + 1];
	char	 uid[HEX32_LEN + 1];	/* sub */
	char	 kid[HEX32_LEN + 1];
	int	 downloadable;
	cJSON	*rules;			/* accessRules, or NULL */
};

/* The token call's handler. */
void	 streamtoken_create(struct req *, struct reply *);
/*
 * Check a token at now (Unix seconds): its form, its key (an account's
 * registered signing key, or edgemu's own), the signature, exp and nbf
 * (numbers or decimal strings). 0 and *t filled (free with
 * streamtoken_free), or -1 with *cause and the HTTP status to answer (401,
 * 404 for a video that is not there, 500 for a store failure).
 */
int	 streamtoken_check(struct store *, const char *, int64_t,
	     struct streamtoken *, unsigned int *, char **);
void	 streamtoken_free(struct streamtoken *);
/* The accessRules of a body or a token: -1 with *cause when malformed. */
int	 streamtoken_rules_valid(const cJSON *, char **);
/*
 * The rules against a client: its address (text, v4 or v6) and country
 * (NULL: unknown). 1 allowed, 0 blocked with *which the rule's index.
 */
int	 streamtoken_rules_allow(const cJSON *, const char *, const char *,
	     int *);

#endif
