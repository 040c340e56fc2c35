/*
 * The v4 response envelope ({success, errors, messages, result, result_info})
 * read from whatever the server or a proxy sent, and path templates.
 */
#ifndef EDGE_API_H
#define EDGE_API_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "status.h"

/*
 * Bodies over API_BODY_MAX bytes, or JSON of more than API_VALUES_MAX values,
 * are not parsed: they become one synthetic error. The HTTP layer should
 * stop reading at API_BODY_MAX too.
 */
#define API_BODY_MAX	(32UL * 1024 * 1024)
#define API_VALUES_MAX	1000000UL
/* At most this many errors (and messages) are kept; the rest are counted. */
#define API_ERRORS_MAX	64

/* One item of errors[] or messages[]; code 0 marks a synthetic error. */
struct api_error {
	long	 code;
	char	*message;		/* never NULL */
};

struct api_response {
	int			 ok;
	long			 http_status;
	enum status		 status;	/* STATUS_OK or the failure's class */
	cJSON			*result;	/* owned; NULL if absent */

	struct api_error	*errors;	/* at least one when !ok */
	size_t			 nerrors;
	struct api_error	*messages;
	size_t			 nmessages;

	int			 has_info;	/* result_info was present */
	long			 page;		/* each -1 when absent */
	long			 per_page;
	long			 count;
	long			 total_count;
	long			 total_pages;	/* computed when absent */
	char			*cursor;	/* result_info.cursor; or NULL */

	int			 has_stream_counts; /* Stream's top level */
	long			 total;
	long			 range;

	int			 utf8_repaired;	/* bad bytes became U+FFFD */
};

/*
 * Read one response. Never fails: a body that is no envelope (HTML from a
 * proxy, truncated JSON, too large) gives !ok and one synthetic error that
 * says what arrived. Success is a 2xx status with success not false; an
 * empty 2xx body is success with no result. Invalid UTF-8 is repaired
 * (U+FFFD) so an error message still shows. Returns out->status: STATUS_OK,
 * or the class of the failure (AUTH for 401/403, NOT_FOUND, RATE_LIMITED,
 * GONE, PARSE for a 2xx that is no envelope, SERVER...).
 */
enum status	 api_parse(long, const char *, size_t, struct api_response *);
void		 api_response_free(struct api_response *);

/*
 * The user-facing text of a failed response: each error as "message [code]"
 * (synthetic errors without a code), joined by "; ". Allocated; never NULL.
 * The text is the server's: strip control characters before display.
 */
void		 api_error_text(const struct api_response *, char **);

/*
 * The explanation for HTTP 410 on a legacy rate-limit path (the cloud
 * retired that API for the Rulesets engine), or NULL if path is not one.
 * path may be a full URL and may carry a query.
 */
const char	*api_gone_message(const char *);
/*
 * If the response is a 410 on a rate-limit path, put api_gone_message first
 * in its errors (the server's own errors stay after it). Returns 1 if it did.
 */
int		 api_explain_gone(struct api_response *, const char *);

/* A value for a path template; lists end with { NULL, NULL }. */
struct api_var {
	const char	*name;
	const char	*value;
};

/*
 * Expand "/zones/{zone}/rate_limits/{id}": each {name} becomes its value,
 * percent-encoded. Refused, with *cause: a variable without a value, an
 * empty value, a value with '/' or that is "." or "..", a malformed
 * template. Variables the template does not use are ignored.
 */
char		*api_path(const char *, const struct api_var *, char **);

#endif
