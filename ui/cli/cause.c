/*
 * A failed request's message on stderr: libedge gives the bare reason with
 * the request's method and path as fields, and the commands name the
 * request first, as they always have ("GET /zones: HTTP 404: ...").
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "http.h"
#include "status.h"
#include "xmalloc.h"

#include "cli.h"

/* The API's code for a path it has no route for. */
#define CLI_NO_ROUTE_CODE	7003
#define CLI_SV_SEGMENT		"/schema_validation"

/*
 * Whether a failed answer says the current API is not there: a 404 for a
 * path under /zones/{zone}/schema_validation/ with the API's "no route"
 * (or no envelope at all), not one for a schema it does not have.
 */
int
cli_classic_no_route(const struct http_response *resp)
{
	size_t	i;

	if (resp == NULL || resp->http_status != 404 || resp->path == NULL ||
	    strstr(resp->path, CLI_SV_SEGMENT "/") == NULL ||
	    strstr(resp->path, "/api_gateway/") != NULL)
		return (0);
	for (i = 0; i < resp->api.nerrors; i++)
		if (resp->api.errors[i].code == CLI_NO_ROUTE_CODE)
			return (1);
	return (resp->api.nerrors == 0);
}

const char *
cli_classic_hint(const struct http_response *resp)
{
	if (!cli_classic_no_route(resp))
		return (NULL);
	return ("this server has no /schema_validation API: use "
	    "user-schemas, the classic one (get validation-schemas, set and "
	    "clear operation-validation use it themselves)");
}

/*
 * The line for a failure: "METHOD /path: detail" when the failure is about
 * the request as sent (resp->detail), else cause as it is (it names the
 * request its own way, or none), else the status's text.
 */
char *
cli_cause(const struct http_response *resp, const char *cause,
    enum status st)
{
	/* The console's long notice is for its panel: one line here. */
	if (resp != NULL && resp->http_status == 410 && resp->path != NULL &&
	    api_gone_message(resp->path) != NULL)
		return (xprintf("%s %.*s: HTTP 410 Gone: this server retired "
		    "the legacy rate limiting API; use edgetui get "
		    "rate-limit-rules", resp->method, (int)strcspn(resp->path,
		    "?"), resp->path));
	if (resp != NULL && resp->detail != NULL && cli_classic_hint(resp))
		return (xprintf("%s %s: %s; %s", resp->method, resp->path,
		    resp->detail, cli_classic_hint(resp)));
	if (resp != NULL && resp->detail != NULL)
		return (xprintf("%s %s: %s", resp->method, resp->path,
		    resp->detail));
	return (xstrdup(cause != NULL ? cause : status_message(st)));
}
