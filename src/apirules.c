/* Rules of the API both edgetui and edgemu check (see apirules.h). */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "apirules.h"
#include "jsonutil.h"
#include "xmalloc.h"
#include "yamljson.h"
#include "common.h"
#include "encode.h"
#include "text.h"

int
apirules_in(const char *const *values, const char *s)
{
	for (; *values != NULL; values++) {
		if (strcmp(*values, s) == 0)
			return (1);
	}
	return (0);
}

int
apirules_hex32_ok(const char *s)
{
	size_t	i;

	for (i = 0; i < 32; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return (0);
	}
	return (s[32] == '\0');
}

int
apirules_uuid_ok(const char *s)
{
	size_t	i;

	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return (0);
		} else if (!isxdigit((unsigned char)s[i]))
			return (0);
	}
	return (s[36] == '\0');
}

int
apirules_jwt_claim_ok(const char *name)
{
	const char	*colon = strchr(name, ':');
	size_t		 n, i;

	if (colon == NULL)
		return (0);
	n = (size_t)(colon - name);
	if (n < 32 || n > 36)
		return (0);
	for (i = 0; i < n; i++) {
		if (!islower((unsigned char)name[i]) &&
		    !isdigit((unsigned char)name[i]) && name[i] != '-')
			return (0);
	}
	return (colon[1] == '$');
}

/* "3.0.<patch>", digits only. */
static int
apirules_openapi_30(const char *v)
{
	const char	*p = v + 4;

	if (strncmp(v, "3.0.", 4) != 0 || !isdigit((unsigned char)*p))
		return (0);
	while (isdigit((unsigned char)*p))
		p++;
	return (*p == '\0');
}

int
apirules_openapi_version(const cJSON *doc, const char **member, char *msg,
    size_t len)
{
	const cJSON	*v;

	*member = ".swagger";
	v = cJSON_GetObjectItemCaseSensitive(doc, "swagger");
	if (v != NULL) {
		snprintf(msg, len, "swagger %.32s (OpenAPI 2) documents are not "
		    "supported: upload an OpenAPI 3.0.x document",
		    cJSON_IsString(v) ? v->valuestring : "2.0");
		return (-1);
	}
	*member = ".openapi";
	v = cJSON_GetObjectItemCaseSensitive(doc, "openapi");
	if (v == NULL)
		snprintf(msg, len, "openapi: required, the OpenAPI version such "
		    "as \"3.0.3\"");
	else if (!cJSON_IsString(v))
		snprintf(msg, len, "openapi: must be a string such as "
		    "\"3.0.3\", not %s", jsonutil_type_name(v));
	else if (strncmp(v->valuestring, "3.1", 3) == 0 &&
	    (v->valuestring[3] == '.' || v->valuestring[3] == '\0'))
		snprintf(msg, len, "openapi: %.32s is not supported: Schema "
		    "Validation takes OpenAPI 3.0.x documents (3.1 is not "
		    "supported yet)", v->valuestring);
	else if (!apirules_openapi_30(v->valuestring))
		snprintf(msg, len, "openapi: '%.32s' is not a supported version "
		    "(3.0.x, such as \"3.0.3\")", v->valuestring);
	else
		return (0);
	return (-1);
}

int
apirules_openapi_text(const char *text, size_t len, char **cause)
{
	const char	*member;
	char		 msg[256], *why = NULL;
	cJSON		*doc;
	int		 rv = 0;

	if ((doc = cJSON_ParseWithLength(text, len)) == NULL &&
	    (doc = yamljson_parse(text, len, &why)) == NULL) {
		free(why);
		return (0);
	}
	if (cJSON_IsObject(doc) &&
	    apirules_openapi_version(doc, &member, msg, sizeof msg) != 0) {
		*cause = xstrdup(msg);
		rv = -1;
	}
	cJSON_Delete(doc);
	return (rv);
}

/* ---- hosts ------------------------------------------------------------- */

/* An RFC 3986 IP-literal: only IPv6 addresses are taken, not IPvFuture. */
static int
apirules_ip_literal_ok(const char *s, size_t len)
{
	struct in6_addr	addr;
	char		tmp[64];

	if (len < 3 || s[len - 1] != ']' || len - 2 >= sizeof tmp)
		return (0);
	memcpy(tmp, s + 1, len - 2);
	tmp[len - 2] = '\0';
	return (inet_pton(AF_INET6, tmp, &addr) == 1);
}

/* An RFC 3986 reg-name: unreserved, sub-delims and %XX escapes. */
static const char *
apirules_reg_name_why(const char *s, char *why, size_t size)
{
	const char	*p;
	int		 c;

	for (p = s; *p != '\0'; p++) {
		c = (unsigned char)*p;
		if (isalnum(c) || strchr("-._~!$&'()*+,;=", c) != NULL)
			continue;
		if (c == '%' && encode_hexval((unsigned char)p[1]) >= 0 &&
		    encode_hexval((unsigned char)p[2]) >= 0) {
			p += 2;
			continue;
		}
		if (c == ':')
			return ("has a ':'; give the host without a port");
		if (c == ' ')
			return ("has a space: spaces are not allowed in a host");
		if (c > 0x20 && c < 0x7f)
			snprintf(why, size, "has '%c', which is not allowed in "
			    "an RFC 3986 host", c);
		else
			snprintf(why, size, "has byte 0x%02x, which is not "
			    "allowed in an RFC 3986 host", c);
		return (why);
	}
	return (NULL);
}

const char *
apirules_host_why(const char *s, char *why, size_t size)
{
	size_t	len = strlen(s);

	if (len == 0)
		return ("must not be empty");
	if (text_chars(s) > APIRULES_HOST_MAX) {
		snprintf(why, size, "%zu characters is over the limit of %d",
		    text_chars(s), APIRULES_HOST_MAX);
		return (why);
	}
	if (s[0] == '[')
		return (apirules_ip_literal_ok(s, len) ? NULL :
		    "is not a valid [IPv6] address");
	return (apirules_reg_name_why(s, why, size));
}

/* ---- endpoints --------------------------------------------------------- */

/* The '{' at p: NULL when its variable is named and closed. */
static const char *
apirules_variable_why(const char *s, const char *p, char *why, size_t size)
{
	const char	*close = p + 1;

	while (*close != '\0' && strchr("{}/", *close) == NULL)
		close++;
	if (*close != '}')
		snprintf(why, size, "'{' at byte %zu has no matching '}' in "
		    "its segment", (size_t)(p - s));
	else if (close == p + 1)
		snprintf(why, size, "'{}' at byte %zu names no variable",
		    (size_t)(p - s));
	else
		return (NULL);
	return (why);
}

const char *
apirules_endpoint_why(const char *s, char *why, size_t size)
{
	const char	*p;
	int		 c;

	if (*s != '/')
		return ("must start with '/'");
	if (text_chars(s) > APIRULES_ENDPOINT_MAX) {
		snprintf(why, size, "%zu characters is over the limit of %d",
		    text_chars(s), APIRULES_ENDPOINT_MAX);
		return (why);
	}
	for (p = s; *p != '\0'; p++) {
		c = (unsigned char)*p;
		if (c <= 0x20 || c == 0x7f)
			return ("must not contain spaces or control "
			    "characters");
		if (c == '?' || c == '#')
			return ("must be a path, without a query ('?') or "
			    "fragment ('#')");
		if (c == '}') {
			snprintf(why, size, "'}' at byte %zu has no matching "
			    "'{'", (size_t)(p - s));
			return (why);
		}
		if (c == '{') {
			if (apirules_variable_why(s, p, why, size) != NULL)
				return (why);
			p = strchr(p, '}');
			continue;
		}
		if (c == '%' && (encode_hexval((unsigned char)p[1]) < 0 ||
		    encode_hexval((unsigned char)p[2]) < 0)) {
			snprintf(why, size, "invalid percent-escape at byte "
			    "%zu", (size_t)(p - s));
			return (why);
		}
	}
	return (NULL);
}

/* ---- URLs -------------------------------------------------------------- */

/* The authority from auth to end: a host, and a port if any. */
static const char *
apirules_authority_why(const char *auth, const char *end)
{
	const char	*at, *host, *port;
	long		 n = 0;

	at = memchr(auth, '@', (size_t)(end - auth));
	host = at != NULL ? at + 1 : auth;
	if (*host == '[')
		port = memchr(host, ']', (size_t)(end - host));
	else
		port = host;
	port = port != NULL ? memchr(port, ':', (size_t)(end - port)) : NULL;
	if (host == end || host == port)
		return ("must name a host");
	if (port == NULL)
		return (NULL);
	for (port++; port < end; port++) {
		if (!isdigit((unsigned char)*port))
			return ("has a port that is not a number");
		if ((n = n * 10 + (*port - '0')) > 65535)
			return ("has a port over 65535");
	}
	return (NULL);
}

const char *
apirules_url_why(const char *s, const char *example, char *why, size_t size)
{
	const char	*sep, *auth;
	size_t		 i, n = strlen(s);

	if (n == 0)
		return ("must not be empty");
	if (n > APIRULES_URL_MAX) {
		snprintf(why, size, "%zu bytes is over the limit of %d", n,
		    APIRULES_URL_MAX);
		return (why);
	}
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return ("must be ASCII without spaces or control "
			    "characters (percent-encode them)");
	}
	if ((sep = strstr(s, "://")) == NULL) {
		snprintf(why, size, "must be an absolute URL such as %s",
		    example != NULL ? example : "https://example.com/path");
		return (why);
	}
	if (!((sep - s == 4 && strncasecmp(s, "http", 4) == 0) ||
	    (sep - s == 5 && strncasecmp(s, "https", 5) == 0))) {
		snprintf(why, size, "the scheme must be http or https, not "
		    "%.*s", (int)MINIMUM(sep - s, 16), s);
		return (why);
	}
	auth = sep + 3;
	return (apirules_authority_why(auth, auth + strcspn(auth, "/?#")));
}
