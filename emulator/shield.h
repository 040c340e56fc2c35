/* API Shield: the checks and normalisation, exposed for unit tests. */
#ifndef EDGEMU_SHIELD_H
#define EDGEMU_SHIELD_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* An operation's identity once normalised: what makes two the same. */
struct shield_op_key {
	char	*method;	/* upper case */
	char	*host;		/* lower case */
	char	*endpoint;	/* variables renamed {var1}, {var2}, ... */
};

int	 shield_validate_config(const cJSON *, char **);

/*
 * Each checks a value and returns its allocated normal form, or NULL and a
 * cause that names the field and the rule it broke.
 */
char	*shield_normalize_method(const char *, char **);
char	*shield_normalize_host(const char *, char **);
char	*shield_normalize_endpoint(const char *, char **);

/* {method, host, endpoint} from a request body item. */
int	 shield_op_key_parse(const cJSON *, struct shield_op_key *, char **);
void	 shield_op_key_free(struct shield_op_key *);

/*
 * An uploaded schema source (JSON, else YAML) checked as OpenAPI 3.x. On
 * failure returns NULL and *failure is {"errors":[...],"critical":[...]},
 * each event {code, message, locations[]}.
 */
cJSON	*shield_openapi_load(const char *, size_t, cJSON **);
/*
 * The operations a loaded document describes, [{method, host, endpoint}],
 * normalised and without duplicates; what cannot be used is added to the
 * warnings array as events.
 */
cJSON	*shield_openapi_operations(const cJSON *, cJSON *);

/* Upload event codes (the upload_details code of each event). */
#define SHIELD_EV_PARSE		1	/* critical: not JSON or YAML */
#define SHIELD_EV_DOCUMENT	2	/* critical: not an object */
#define SHIELD_EV_VERSION	3	/* openapi/swagger version */
#define SHIELD_EV_INFO		4
#define SHIELD_EV_PATHS		5
#define SHIELD_EV_OPERATION	6
#define SHIELD_EV_SERVERS	7
#define SHIELD_EV_NO_HOST	20	/* warning: no server names a host */
#define SHIELD_EV_SERVER_URL	21	/* warning: a server URL is unusable */
#define SHIELD_EV_ENDPOINT	22	/* warning: a path is no endpoint */

#endif
