/*
 * API Shield's checks and normal forms: configuration bodies, methods,
 * hosts, endpoints and the operation keys made of them.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "apirules.h"
#include "encode.h"
#include "internal.h"
#include "jsonutil.h"

static const char *const shield_methods[] = {
	"GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "CONNECT", "PATCH",
	"TRACE", NULL
};
#define SHIELD_METHODS_TEXT \
	"GET, POST, HEAD, OPTIONS, PUT, DELETE, CONNECT, PATCH or TRACE"

/* ---- checks ------------------------------------------------------------ */

/* Unlike elsewhere, the OpenAPI checks tell an absent member from null. */
const char *
shield_type_name(const cJSON *v)
{
	return (v == NULL ? "absent" : jsonutil_type_name(v));
}


static int
shield_check_characteristic(const cJSON *item, int i, char **cause)
{
	const char	*type, *name;

	if (!cJSON_IsObject(item))
		return (util_fail(cause, "auth_id_characteristics[%d]: must "
		    "be an object with type and name", i));
	if (util_jstring(item, "type", &type) != UTIL_JOK ||
	    (strcmp(type, "header") != 0 && strcmp(type, "cookie") != 0 &&
	    strcmp(type, "jwt") != 0))
		return (util_fail(cause, "auth_id_characteristics[%d].type: "
		    "must be header, cookie or jwt", i));
	if (util_jstring(item, "name", &name) != UTIL_JOK || *name == '\0')
		return (util_fail(cause, "auth_id_characteristics[%d].name: "
		    "required, a non-empty string", i));
	if (util_chars(name) > SHIELD_MAX_NAME)
		return (util_fail(cause, "auth_id_characteristics[%d].name: "
		    "%zu characters is over the limit of %d", i,
		    util_chars(name), SHIELD_MAX_NAME));
	if (strcmp(type, "jwt") == 0 && !apirules_jwt_claim_ok(name))
		return (util_fail(cause, "auth_id_characteristics[%d].name: "
		    "a jwt claim is named TOKEN_CONFIG_ID:$JSONPATH, such as "
		    "e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:$.sub", i));
	return (0);
}

/*
 * Check a configuration body; on failure say which characteristic and why.
 * The spec wants the items unique, so a repeated one is refused.
 */
int
shield_validate_config(const cJSON *body, char **cause)
{
	const cJSON	*list, *item, *prev;
	int		 i = 0, j;

	if (!cJSON_IsObject(body))
		return (util_fail(cause, "the body must be a JSON object"));
	list = cJSON_GetObjectItemCaseSensitive(body,
	    "auth_id_characteristics");
	if (!cJSON_IsArray(list))
		return (util_fail(cause, "auth_id_characteristics: required, "
		    "an array"));
	if (cJSON_GetArraySize(list) > SHIELD_MAX_CHARACTERISTICS)
		return (util_fail(cause, "auth_id_characteristics: at most "
		    "%d items", SHIELD_MAX_CHARACTERISTICS));
	cJSON_ArrayForEach(item, list) {
		if (shield_check_characteristic(item, i, cause) != 0)
			return (-1);
		j = 0;
		cJSON_ArrayForEach(prev, list) {
			if (prev == item)
				break;
			if (cJSON_Compare(prev, item, 1))
				return (util_fail(cause, "auth_id_"
				    "characteristics[%d]: repeats item %d", i,
				    j));
			j++;
		}
		i++;
	}
	return (0);
}

char *
shield_normalize_method(const char *s, char **cause)
{
	size_t	i;

	for (i = 0; shield_methods[i] != NULL; i++) {
		if (strcasecmp(s, shield_methods[i]) == 0)
			return (xstrdup(shield_methods[i]));
	}
	util_fail(cause, "method: '%.*s' is not one of %s",
	    util_quote_len(s), s, SHIELD_METHODS_TEXT);
	return (NULL);
}

/* An RFC 3986 IP-literal: only IPv6 addresses are taken, not IPvFuture. */
static int
shield_ip_literal_ok(const char *s, size_t len)
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
static int
shield_reg_name_ok(const char *s, char **cause)
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
			util_fail(cause, "host: '%.*s' has a ':'; give the "
			    "host without a port", util_quote_len(s), s);
		else if (c > 0x20 && c < 0x7f)
			util_fail(cause, "host: '%.*s' has '%c', which is "
			    "not allowed in an RFC 3986 host",
			    util_quote_len(s), s, c);
		else
			util_fail(cause, "host: '%.*s' has byte 0x%02x, "
			    "which is not allowed in an RFC 3986 host",
			    util_quote_len(s), s, c);
		return (0);
	}
	return (1);
}

/*
 * A host is an RFC 3986 reg-name (IPv4 addresses are reg-names too) or a
 * bracketed IPv6 address; no port. Stored in lower case.
 */
char *
shield_normalize_host(const char *s, char **cause)
{
	size_t	 len = strlen(s), i;
	char	*out;

	if (len == 0) {
		util_fail(cause, "host: must not be empty");
		return (NULL);
	}
	if (len > SHIELD_MAX_HOST) {
		util_fail(cause, "host: %zu characters is over the limit of "
		    "%d", util_chars(s), SHIELD_MAX_HOST);
		return (NULL);
	}
	if (s[0] == '[') {
		if (!shield_ip_literal_ok(s, len)) {
			util_fail(cause, "host: '%.*s' is not a valid "
			    "[IPv6] address", util_quote_len(s), s);
			return (NULL);
		}
	} else if (!shield_reg_name_ok(s, cause))
		return (NULL);
	out = xstrdup(s);
	for (i = 0; i < len; i++)
		out[i] = (char)tolower((unsigned char)out[i]);
	return (out);
}

/*
 * RFC 3986 5.2.4 on a path that starts with '/': "." and ".." segments
 * go, ".." taking the segment before it along.
 */
static char *
shield_remove_dots(const char *in)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*next;
	char		*last;

	while (*in != '\0') {
		if (strncmp(in, "/./", 3) == 0)
			in += 2;
		else if (strcmp(in, "/.") == 0)
			in = "/";
		else if (strncmp(in, "/../", 4) == 0 ||
		    strcmp(in, "/..") == 0) {
			in = in[3] == '\0' ? "/" : in + 3;
			if (b.len != 0 && (last = strrchr(b.data, '/')) != NULL)
				buf_truncate(&b, (size_t)(last - b.data));
		} else {
			next = strchr(in + 1, '/');
			if (next == NULL)
				next = in + strlen(in);
			buf_add(&b, in, (size_t)(next - in));
			in = next;
		}
	}
	if (b.len == 0)
		buf_addc(&b, '/');
	return (buf_detach(&b, NULL));
}

/* One %XX escape: unreserved characters decoded, the rest upper case. */
static int
shield_percent(struct buf *b, const char *p)
{
	int	hi = encode_hexval((unsigned char)p[1]), lo, d;

	lo = hi >= 0 ? encode_hexval((unsigned char)p[2]) : -1;
	if (hi < 0 || lo < 0)
		return (-1);
	d = hi << 4 | lo;
	if (d != 0 && (isalnum(d) || strchr("-._~", d) != NULL))
		buf_addc(b, (char)d);
	else
		buf_addf(b, "%%%02X", d);
	return (0);
}

/*
 * The service's normal form of an endpoint: each {template} renamed
 * {var1}, {var2}, ... from left to right, then Cloudflare's URL
 * normalisation: backslashes become slashes, runs of slashes merge,
 * unreserved characters are percent-decoded and other escapes upper-cased,
 * and dot segments are removed.
 */
char *
shield_normalize_endpoint(const char *s, char **cause)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*p, *close;
	char		*out;
	int		 var = 0, c;

	if (*s != '/') {
		util_fail(cause, "endpoint: '%.*s' must start with '/'",
		    util_quote_len(s), s);
		return (NULL);
	}
	if (util_chars(s) > SHIELD_MAX_ENDPOINT) {
		util_fail(cause, "endpoint: %zu characters is over the limit "
		    "of %d", util_chars(s), SHIELD_MAX_ENDPOINT);
		return (NULL);
	}
	for (p = s; *p != '\0'; p++) {
		c = (unsigned char)*p;
		if (c <= 0x20 || c == 0x7f) {
			util_fail(cause, "endpoint: must not contain spaces "
			    "or control characters");
			goto fail;
		}
		if (c == '?' || c == '#') {
			util_fail(cause, "endpoint: must be a path, "
			    "without a query ('?') or fragment ('#')");
			goto fail;
		}
		if (c == '}') {
			util_fail(cause, "endpoint: '}' at byte %zu has no "
			    "matching '{'", (size_t)(p - s));
			goto fail;
		}
		if (c == '{') {
			close = p + 1;
			while (*close != '\0' && strchr("{}/", *close) == NULL)
				close++;
			if (*close != '}') {
				util_fail(cause, "endpoint: '{' at byte %zu "
				    "has no matching '}' in its segment",
				    (size_t)(p - s));
				goto fail;
			}
			if (close == p + 1) {
				util_fail(cause, "endpoint: '{}' at byte %zu "
				    "names no variable", (size_t)(p - s));
				goto fail;
			}
			buf_addf(&b, "{var%d}", ++var);
			p = close;
			continue;
		}
		if (c == '%') {
			if (shield_percent(&b, p) != 0) {
				util_fail(cause, "endpoint: invalid "
				    "percent-escape at byte %zu",
				    (size_t)(p - s));
				goto fail;
			}
			p += 2;
			continue;
		}
		if (c == '\\')
			c = '/';
		if (c == '/' && b.len != 0 && b.data[b.len - 1] == '/')
			continue;
		buf_addc(&b, (char)c);
	}
	out = shield_remove_dots(buf_str(&b));
	buf_free(&b);
	if (util_chars(out) > SHIELD_MAX_ENDPOINT) {
		util_fail(cause, "endpoint: %zu characters once normalised "
		    "is over the limit of %d", util_chars(out),
		    SHIELD_MAX_ENDPOINT);
		free(out);
		return (NULL);
	}
	return (out);

fail:
	buf_free(&b);
	return (NULL);
}

static const char *
shield_key_field(const cJSON *item, const char *key, char **cause)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(item, key);

	if (v == NULL || cJSON_IsNull(v)) {
		util_fail(cause, "%s: required, %s", key,
		    strcmp(key, "method") == 0 ? "one of " SHIELD_METHODS_TEXT :
		    strcmp(key, "host") == 0 ?
		    "a host such as api.example.com" :
		    "a path such as /api/v1/users/{id}");
		return (NULL);
	}
	if (!cJSON_IsString(v)) {
		util_fail(cause, "%s: must be a string, not %s", key,
		    shield_type_name(v));
		return (NULL);
	}
	return (v->valuestring);
}

int
shield_op_key_parse(const cJSON *item, struct shield_op_key *key,
    char **cause)
{
	const char	*s;

	memset(key, 0, sizeof *key);
	if (!cJSON_IsObject(item))
		return (util_fail(cause, "must be an object with method, "
		    "host and endpoint, not %s", shield_type_name(item)));
	if ((s = shield_key_field(item, "method", cause)) == NULL ||
	    (key->method = shield_normalize_method(s, cause)) == NULL)
		goto fail;
	if ((s = shield_key_field(item, "host", cause)) == NULL ||
	    (key->host = shield_normalize_host(s, cause)) == NULL)
		goto fail;
	if ((s = shield_key_field(item, "endpoint", cause)) == NULL ||
	    (key->endpoint = shield_normalize_endpoint(s, cause)) == NULL)
		goto fail;
	return (0);

fail:
	shield_op_key_free(key);
	return (-1);
}

void
shield_op_key_free(struct shield_op_key *key)
{
	free(key->method);
	free(key->host);
	free(key->endpoint);
	memset(key, 0, sizeof *key);
}
