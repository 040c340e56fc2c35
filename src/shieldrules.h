/*
 * API Shield's rules as the service applies them (api-map section 6):
 * the values its fields and filters take and its limits. edgetui checks
 * and offers them, edgemu refuses with them: one copy, so the two agree.
 */
#ifndef EDGE_SHIELDRULES_H
#define EDGE_SHIELDRULES_H

#include <cjson/cJSON.h>

#define SHIELDRULES_PER_PAGE_MIN	5	/* every paged list */
#define SHIELDRULES_PER_PAGE_MAX	50	/* but operations' */
#define SHIELDRULES_CHARACTERISTICS_MAX	10	/* auth_id_characteristics */
#define SHIELDRULES_NAME_MAX		128	/* a characteristic's name */

/* Each list ends with NULL. */
/* HTTP methods of an operation, upper case (the service takes any case). */
extern const char *const shieldrules_methods[];
/* "GET, POST, ... or TRACE", for messages. */
#define SHIELDRULES_METHODS_TEXT \
	"GET, POST, HEAD, OPTIONS, PUT, DELETE, CONNECT, PATCH or TRACE"
/* What identifies a session: header, cookie, jwt. */
extern const char *const shieldrules_auth_types[];
/* A discovered operation's states, and those a client may set. */
extern const char *const shieldrules_disc_states[];
extern const char *const shieldrules_disc_settable[];
/* The engines that discover operations: ML, SessionIdentifier. */
extern const char *const shieldrules_disc_origins[];
/* The orders of discovered operations and of operations. */
extern const char *const shieldrules_disc_orders[];
extern const char *const shieldrules_op_orders[];
/* An operation's features (feature=). */
extern const char *const shieldrules_features[];
/* asc, desc. */
extern const char *const shieldrules_directions[];
/* A schema validation mitigation action: none, log, block. */
extern const char *const shieldrules_actions[];
/* A schema's kinds: openapi_v3. */
extern const char *const shieldrules_schema_kinds[];

/*
 * The list's items must differ: the index of the first item before item
 * that equals it, or -1.
 */
int	 shieldrules_repeat(const cJSON *, const cJSON *);

#endif
