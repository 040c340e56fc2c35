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
#include "shieldrules.h"
#include "text.h"

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
	    !apirules_in(shieldrules_auth_types, type))
		return (util_fail(cause, "auth_id_characteristics[%d].type: "
		    "must be header, cookie or jwt", i));
	if (util_jstring(item, "name", &name) != UTIL_JOK || *name == '\0')
		return (util_fail(cause, "auth_id_characteristics[%d].name: "
		    "required, a non-empty string", i));
	if (text_chars(name) > SHIELDRULES_NAME_MAX)
		return (util_fail(cause, "auth_id_characteristics[%d].name: "
		    "%zu characters is over the limit of %d", i,
		    text_chars(name), SHIELDRULES_NAME_MAX));
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
	const cJSON	*list, *item;
	int		 i = 0, j;

	if (!cJSON_IsObject(body))
		return (util_fail(cause, "the body must be a JSON object"));
	list = cJSON_GetObjectItemCaseSensitive(body,
	    "auth_id_characteristics");
	if (!cJSON_IsArray(list))
		return (util_fail(cause, "auth_id_characteristics: required, "
		    "an array"));
	if (cJSON_GetArraySize(list) > SHIELDRULES_CHARACTERISTICS_MAX)
		return (util_fail(cause, "auth_id_characteristics: at most "
		    "%d items", SHIELDRULES_CHARACTERISTICS_MAX));
	cJSON_ArrayForEach(item, list) {
		if (shield_check_characteristic(item, i, cause) != 0)
			return (-1);
		if ((j = shieldrules_repeat(list, item)) >= 0)
			return (util_fail(cause, "auth_id_characteristics[%d]: "
			    "repeats item %d", i, j));
		i++;
	}
	return (0);
}

char *
shield_normalize_method(const char *s, char **cause)
{
	size_t	i;

	for (i = 0; shieldrules_methods[i] != NULL; i++) {
		if (strcasecmp(s, shieldrules_methods[i]) == 0)
			return (xstrdup(shieldrules_methods[i]));
	}
	util_fail(cause, "method: '%.*s' is not one of %s",
	    text_quote_len(s), s, SHIELDRULES_METHODS_TEXT);
	return (NULL);
}

/*
 * A host is an RFC 3986 reg-name (IPv4 addresses are reg-names too) or a
 * bracketed IPv6 address; no port. Stored in lower case.
 */
char *
shield_normalize_host(const char *s, char **cause)
{
	char		 why[APIRULES_WHY_MAX], *out;
	const char	*bad;
	size_t		 i;

	if (*s == '\0') {
		util_fail(cause, "host: must not be empty");
		return (NULL);
	}
	if (text_chars(s) > APIRULES_HOST_MAX) {
		util_fail(cause, "host: %zu characters is over the limit of "
		    "%d", text_chars(s), APIRULES_HOST_MAX);
		return (NULL);
	}
	if ((bad = apirules_host_why(s, why, sizeof why)) != NULL) {
		util_fail(cause, "host: '%.*s' %s", text_quote_len(s), s, bad);
		return (NULL);
	}
	out = xstrdup(s);
	for (i = 0; out[i] != '\0'; i++)
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

/*
 * One %XX escape (apirules_endpoint_why saw both digits): unreserved
 * characters decoded, the rest upper case.
 */
static void
shield_percent(struct buf *b, const char *p)
{
	int	d;

	d = encode_hexval((unsigned char)p[1]) << 4 |
	    encode_hexval((unsigned char)p[2]);
	if (d != 0 && (isalnum(d) || strchr("-._~", d) != NULL))
		buf_addc(b, (char)d);
	else
		buf_addf(b, "%%%02X", d);
}

/*
 * The service's normal form of an endpoint, once it is one (apirules):
 * each {template} renamed {var1}, {var2}, ... from left to right, then
 * Cloudflare's URL normalisation: backslashes become slashes, runs of
 * slashes merge, unreserved characters are percent-decoded and other
 * escapes upper-cased, and dot segments are removed.
 */
char *
shield_normalize_endpoint(const char *s, char **cause)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*p, *bad;
	char		 why[APIRULES_WHY_MAX], *out;
	int		 var = 0, c;

	if (*s != '/') {
		util_fail(cause, "endpoint: '%.*s' must start with '/'",
		    text_quote_len(s), s);
		return (NULL);
	}
	if ((bad = apirules_endpoint_why(s, why, sizeof why)) != NULL) {
		util_fail(cause, "endpoint: %s", bad);
		return (NULL);
	}
	for (p = s; *p != '\0'; p++) {
		c = (unsigned char)*p;
		if (c == '{') {
			buf_addf(&b, "{var%d}", ++var);
			p = strchr(p, '}');
			continue;
		}
		if (c == '%') {
			shield_percent(&b, p);
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
	if (text_chars(out) > APIRULES_ENDPOINT_MAX) {
		util_fail(cause, "endpoint: %zu characters once normalised "
		    "is over the limit of %d", text_chars(out),
		    APIRULES_ENDPOINT_MAX);
		free(out);
		return (NULL);
	}
	return (out);
}

static const char *
shield_key_field(const cJSON *item, const char *key, char **cause)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(item, key);

	if (v == NULL || cJSON_IsNull(v)) {
		util_fail(cause, "%s: required, %s", key,
		    strcmp(key, "method") == 0 ?
		    "one of " SHIELDRULES_METHODS_TEXT :
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
