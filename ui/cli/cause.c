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
	if (resp != NULL && resp->detail != NULL)
		return (xprintf("%s %s: %s", resp->method, resp->path,
		    resp->detail));
	return (xstrdup(cause != NULL ? cause : status_message(st)));
}
