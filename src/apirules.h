/*
 * Rules of the API that the client checks before sending and edgemu checks
 * on receipt: one copy, so both refuse the same things. Here the forms
 * every area shares (identifiers, hosts, paths, URLs); the rules of one
 * area are in streamrules.h, shieldrules.h, legacyrl.h and rlrule.h.
 *
 * A check answers NULL when the value is good, else why not, to follow
 * the value in a message ("'x:1' has a ':'; give the host without a
 * port"): a constant, or the why buffer it was written in.
 */
#ifndef EDGE_APIRULES_H
#define EDGE_APIRULES_H

#include <stddef.h>

#define APIRULES_HOST_MAX	255	/* characters */
#define APIRULES_ENDPOINT_MAX	4096	/* characters */
#define APIRULES_URL_MAX	2048	/* bytes */
#define APIRULES_WHY_MAX	160	/* a why buffer that always fits */
/* Rulesets and their versions, a page of them. */
#define APIRULES_RULESETS_PER_PAGE_MAX	100

/* 1 if s is one of the values of a NULL-ended list (an API's enum). */
int		 apirules_in(const char *const *, const char *);

/* Account and zone ids, video uids, keys: 32 hex digits (either case). */
int		 apirules_hex32_ok(const char *);
/* A UUID, 8-4-4-4-12 hex digits: API Shield's operation and schema ids. */
int		 apirules_uuid_ok(const char *);
#include <cjson/cJSON.h>

/* An API Shield JWT claim name: "<token configuration id>:$<JSONPath>". */
int		 apirules_jwt_claim_ok(const char *);

/*
 * An RFC 3986 host: a reg-name (IPv4 addresses are reg-names too) or a
 * bracketed IPv6 address, no port, at most APIRULES_HOST_MAX characters.
 */
const char	*apirules_host_why(const char *, char *, size_t);
/*
 * An API Shield endpoint, a path such as /api/v1/users/{id}: it starts
 * with '/', holds no blank, control character, query or fragment, each
 * {variable} is named and closed in its segment, each % escape is one,
 * and it is at most APIRULES_ENDPOINT_MAX characters.
 */
const char	*apirules_endpoint_why(const char *, char *, size_t);
/*
 * An absolute http or https URL naming a host, with a numeric port if
 * any, ASCII without blanks, at most APIRULES_URL_MAX bytes. example
 * (NULL: a generic one) is what the message for a relative URL shows.
 */
const char	*apirules_url_why(const char *, const char *, char *, size_t);

/*
 * The OpenAPI version Schema Validation takes: 3.0.x only (the docs:
 * 3.1 is not supported yet, 2.0 never will be). For a parsed document, 0,
 * or -1 with the member at fault (".openapi" or ".swagger") in *member and
 * why in msg.
 */
int	 apirules_openapi_version(const cJSON *, const char **, char *,
	     size_t);
/*
 * The same on a document's text (JSON or YAML): 0, or -1 with *cause
 * saying why. Text that does not parse as either is left to the server
 * (0): only the version is checked here.
 */
int	 apirules_openapi_text(const char *, size_t, char **);

#endif
