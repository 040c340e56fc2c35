/*
 * The classic Schema Validation API, for a server without the current one
 * (/zones/{zone}/schema_validation answers 404, no route), as the console
 * falls back to it: schemas are listed as user-schemas, an operation's
 * action is set by the classic bulk PATCH; the other commands' failures
 * name the classic kinds.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "http.h"
#include "kind.h"
#include "log.h"
#include "xmalloc.h"

#include "cli.h"

#define CLI_SV_SEGMENT		"/schema_validation"

/*
 * get validation-schemas: a quiet look at the list first; with no route,
 * user-schemas instead, said on stderr. 0, or the exit status.
 */
int
cli_classic_list_kind(struct cli *c, const struct kind **k)
{
	struct http_response	 resp;
	char			*path, *cause = NULL;
	int			 rv, absent = 0;

	if (*k != kind_find("validation-schemas"))
		return (0);
	if ((path = kind_list_path(*k, c->vars, &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	if ((rv = cli_connect(c)) == 0)
		rv = cli_get_absent(c, path, &resp, &absent);
	if (rv == 0 && absent && cli_classic_no_route(&resp)) {
		*k = kind_find("user-schemas");
		log_warn("no /schema_validation on this server (404): "
		    "listing %s (the classic API)", (*k)->name);
	} else if (rv == 0 && absent) {
		cause = cli_cause(&resp, NULL, resp.api.status);
		rv = cli_error(HTTP_EXIT_REFUSED, "%s", cause);
		free(cause);
	}
	http_response_free(&resp);
	free(path);
	return (rv);
}

/*
 * set/clear on a server with only the classic API: the same map by the
 * classic bulk PATCH. body is {"<id>": {field: value or null}}.
 */
int
cli_classic_set(struct cli *c, const cJSON *body, struct http_response *resp)
{
	char	*ops, *path, *cause = NULL;
	int	 rv;

	if ((ops = kind_list_path(kind_find("operations"), c->vars,
	    &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	path = xprintf("%s" CLI_SV_SEGMENT, ops);
	free(ops);
	log_warn("no /schema_validation on this server (404): using the "
	    "classic API");
	if ((rv = cli_send_json(c, "PATCH", path, body, resp)) == 0)
		cli_journal(c, "PATCH", path, resp->http_status, NULL,
		    resp->api.result);
	free(path);
	return (rv);
}
