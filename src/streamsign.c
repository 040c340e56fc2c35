/*
 * Signed-URL tokens made locally: the claims Stream's token call puts in
 * its own (sub, kid, exp, nbf, downloadable, accessRules), signed RS256
 * with a signing key, so that signing many URLs spends no API requests.
 */
#include "config.h"

#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "apirules.h"
#include "buf.h"
#include "encode.h"
#include "jwt.h"
#include "log.h"
#include "streamrules.h"
#include "streamsign.h"
#include "xmalloc.h"

#define STREAMSIGN_DIR		"signing-keys"
#define STREAMSIGN_PEM_MAX	(64 * 1024)

/* ---- keys -------------------------------------------------------------- */

static int
streamsign_is_pem(const char *s, size_t len)
{
	while (len > 0 && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	return (len >= 11 && memcmp(s, "-----BEGIN ", 11) == 0);
}

char *
streamsign_pem(const char *text, size_t len, char **cause)
{
	char		*out;
	size_t		 n;

	if (len > STREAMSIGN_PEM_MAX) {
		*cause = xprintf("%zu bytes is too long for a signing key",
		    len);
		return (NULL);
	}
	if (streamsign_is_pem(text, len))
		return (xstrndup(text, len));
	/* The API's form: base64, perhaps wrapped. */
	out = encode_base64_decode_text(text, len, &n);
	if (out != NULL && (strlen(out) != n || !streamsign_is_pem(out, n))) {
		explicit_bzero(out, n);
		free(out);
		out = NULL;
	}
	if (out == NULL)
		*cause = xstrdup("not a signing key: neither a PEM nor the "
		    "base64 of one (the API's pem field)");
	return (out);
}

char *
streamsign_token(const char *text, size_t len, const struct streamsign *s,
    char **cause)
{
	struct evp_pkey_st	*pk;
	cJSON			*header, *claims;
	char			*pem, *token, *why = NULL;

	if ((pem = streamsign_pem(text, len, cause)) == NULL)
		return (NULL);
	pk = jwt_key_private(pem, strlen(pem), &why);
	explicit_bzero(pem, strlen(pem));
	free(pem);
	if (pk == NULL) {
		*cause = xprintf("the signing key: %s", why);
		free(why);
		return (NULL);
	}
	header = cJSON_CreateObject();
	cJSON_AddStringToObject(header, "alg", "RS256");
	cJSON_AddStringToObject(header, "kid", s->key_id);
	claims = cJSON_CreateObject();
	cJSON_AddStringToObject(claims, "sub", s->video);
	cJSON_AddStringToObject(claims, "kid", s->key_id);
	cJSON_AddNumberToObject(claims, "exp", (double)s->exp);
	if (s->nbf != 0)
		cJSON_AddNumberToObject(claims, "nbf", (double)s->nbf);
	cJSON_AddBoolToObject(claims, "downloadable", s->downloadable);
	if (s->access_rules != NULL)
		cJSON_AddItemToObject(claims, "accessRules",
		    cJSON_Duplicate(s->access_rules, 1));
	token = jwt_sign(pk, header, claims, cause);
	cJSON_Delete(header);
	cJSON_Delete(claims);
	jwt_key_free(pk);
	return (token);
}

/* ---- options ------------------------------------------------------------ */

static cJSON *
streamsign_rule(const char *type, const char *action, const char *member,
    const char *const *values, size_t n)
{
	cJSON	*r = cJSON_CreateObject(), *a;
	char	*v;
	size_t	 i;

	cJSON_AddStringToObject(r, "type", type);
	cJSON_AddStringToObject(r, "action", action);
	if (member != NULL) {
		a = cJSON_AddArrayToObject(r, member);
		for (i = 0; i < n; i++) {
			v = xstrdup(values[i]);
			if (strcmp(member, "country") == 0) {
				v[0] = (char)toupper((unsigned char)v[0]);
				v[1] = (char)toupper((unsigned char)v[1]);
			}
			cJSON_AddItemToArray(a, cJSON_CreateString(v));
			free(v);
		}
	}
	return (r);
}

cJSON *
streamsign_rules(const char *const *allow_ips, size_t nips,
    const char *const *block_countries, size_t ncountries, char **cause)
{
	unsigned char	 addr[16];
	cJSON		*rules;
	size_t		 i;
	int		 v6, bits;

	for (i = 0; i < nips; i++) {
		if (streamrules_cidr(allow_ips[i], addr, &v6, &bits) != 0) {
			*cause = xprintf("'%s' is not an IPv4 or IPv6 address "
			    "or CIDR (192.0.2.0/24, 2001:db8::/32)",
			    allow_ips[i]);
			return (NULL);
		}
	}
	for (i = 0; i < ncountries; i++) {
		if (!streamrules_country_ok(block_countries[i])) {
			*cause = xprintf("'%s' is not a two-letter country "
			    "code (ISO 3166-1 alpha-2, such as DE)",
			    block_countries[i]);
			return (NULL);
		}
	}
	if (nips == 0 && ncountries == 0)
		return (NULL);
	rules = cJSON_CreateArray();
	if (ncountries > 0)
		cJSON_AddItemToArray(rules, streamsign_rule("ip.geoip.country",
		    "block", "country", block_countries, ncountries));
	if (nips > 0) {
		cJSON_AddItemToArray(rules, streamsign_rule("ip.src", "allow",
		    "ip", allow_ips, nips));
		cJSON_AddItemToArray(rules, streamsign_rule("any", "block",
		    NULL, NULL, 0));
	}
	return (rules);
}

long
streamsign_duration(const char *s, char **cause)
{
	char	*end;
	long	 n, unit = 1;

	n = strtol(s, &end, 10);
	if (end != s && *end != '\0' && end[1] == '\0') {
		switch (*end) {
		case 's': unit = 1; end++; break;
		case 'm': unit = 60; end++; break;
		case 'h': unit = 3600; end++; break;
		case 'd': unit = 86400; end++; break;
		}
	}
	if (end == s || *end != '\0' || !isdigit((unsigned char)*s) ||
	    n <= 0 || n > STREAMRULES_TOKEN_EXP_MAX / unit) {
		*cause = xprintf("'%s' is not a duration from 1s to 24h "
		    "(such as 90, 30m, 1h)", s);
		return (-1);
	}
	return (n * unit);
}

char *
streamsign_url(const char *url, const char *uid, const char *token)
{
	const char	*p, *host;
	size_t		 n = strlen(uid);

	/* Only in the path: after the scheme's "//" and the host. */
	host = strstr(url, "//");
	p = strchr(host != NULL ? host + 2 : url, '/');
	for (; p != NULL; p = strchr(p + 1, '/')) {
		if (strncmp(p + 1, uid, n) == 0 &&
		    (p[1 + n] == '/' || p[1 + n] == '\0' || p[1 + n] == '?'))
			return (xprintf("%.*s/%s%s", (int)(p - url), url, token,
			    p + 1 + n));
	}
	return (NULL);
}

char *
streamsign_download_url(const char *hls)
{
	const char	*p = strstr(hls, "/manifest/video.m3u8");

	if (p == NULL)
		return (NULL);
	return (xprintf("%.*s/downloads/default.mp4", (int)(p - hls), hls));
}

char *
streamsign_token_short(const char *token)
{
	return (xprintf("%.12s...", token));
}

/* ---- remembered keys ------------------------------------------------------ */

/*
 * STATE/signing-keys/OWNER/ID.pem, OWNER the first 16 bytes (in hex) of
 * the SHA-256 of the base URL (without a trailing '/'), a newline and the
 * account; OWNER/owner says whose in words. Keys remembered before keys
 * were kept per owner are STATE/signing-keys/ID.pem: read, never listed
 * as an owner's.
 */
#define STREAMSIGN_OWNER_FILE	"owner"
#define STREAMSIGN_OWNER_BYTES	16

/* The base URL as the owner's name takes it: no trailing '/'. */
static size_t
streamsign_url_len(const char *url)
{
	size_t	n = strlen(url);

	while (n > 0 && url[n - 1] == '/')
		n--;
	return (n);
}

/* STATE/signing-keys/OWNER, allocated. */
static char *
streamsign_owner_dir(const char *state, const struct streamsign_owner *o)
{
	unsigned char	 md[EVP_MAX_MD_SIZE];
	unsigned int	 mdlen = 0;
	struct buf	 b = BUF_INITIALIZER;
	const char	*url = o->base_url != NULL ? o->base_url : "";
	char		 hex[2 * STREAMSIGN_OWNER_BYTES + 1];
	size_t		 i;

	buf_add(&b, url, streamsign_url_len(url));
	buf_addc(&b, '\n');
	buf_adds(&b, o->account != NULL ? o->account : "");
	if (EVP_Digest(b.data, b.len, md, &mdlen, EVP_sha256(), NULL) != 1 ||
	    mdlen < STREAMSIGN_OWNER_BYTES)
		fatalx("streamsign: SHA-256 failed");
	buf_free(&b);
	for (i = 0; i < STREAMSIGN_OWNER_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return (xprintf("%s/" STREAMSIGN_DIR "/%s", state, hex));
}

/* Makes dir (0700) if it is not there. */
static int
streamsign_mkdir(const char *dir, char **cause)
{
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		*cause = xprintf("%s: %s", dir, strerror(errno));
		return (-1);
	}
	return (0);
}

/* text into path, replacing it at once; mode 0600 (mkstemp's). */
static int
streamsign_write(const char *path, const char *text, char **cause)
{
	char	*tmp;
	size_t	 len = strlen(text), off = 0;
	ssize_t	 n;
	int	 fd, rv = -1;

	tmp = xprintf("%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		*cause = xprintf("%s: %s", tmp, strerror(errno));
		goto out;
	}
	while (off < len) {
		if ((n = write(fd, text + off, len - off)) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		off += (size_t)n;
	}
	if (off < len || fsync(fd) != 0 || close(fd) != 0) {
		*cause = xprintf("%s: %s", tmp, strerror(errno));
		if (off < len)
			close(fd);
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) != 0) {
		*cause = xprintf("%s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rv = 0;
out:
	free(tmp);
	return (rv);
}

/* The owner's directory, made with its owner file when it is new. */
static char *
streamsign_owner_make(const char *state, const struct streamsign_owner *o,
    char **cause)
{
	const char	*url = o->base_url != NULL ? o->base_url : "";
	char		*top, *dir, *file, *text;
	int		 rv;

	top = xprintf("%s/" STREAMSIGN_DIR, state);
	rv = streamsign_mkdir(top, cause);
	free(top);
	if (rv != 0)
		return (NULL);
	dir = streamsign_owner_dir(state, o);
	if (streamsign_mkdir(dir, cause) != 0) {
		free(dir);
		return (NULL);
	}
	file = xprintf("%s/" STREAMSIGN_OWNER_FILE, dir);
	if (access(file, F_OK) != 0) {
		text = xprintf("base_url %.*s\naccount %s\n",
		    (int)streamsign_url_len(url), url,
		    o->account != NULL ? o->account : "");
		rv = streamsign_write(file, text, cause);
		free(text);
		if (rv != 0) {
			free(file);
			free(dir);
			return (NULL);
		}
	}
	free(file);
	return (dir);
}

int
streamsign_key_save(const char *state, const struct streamsign_owner *o,
    const char *id, const char *pem, char **path_out, char **cause)
{
	char	*dir, *path;

	if (!apirules_hex32_ok(id)) {
		*cause = xprintf("'%.40s' is not a signing key id (32 hex "
		    "digits)", id);
		return (-1);
	}
	if (!streamsign_is_pem(pem, strlen(pem))) {
		*cause = xstrdup("not a PEM key: nothing was saved");
		return (-1);
	}
	if ((dir = streamsign_owner_make(state, o, cause)) == NULL)
		return (-1);
	path = xprintf("%s/%s.pem", dir, id);
	free(dir);
	if (streamsign_write(path, pem, cause) != 0) {
		free(path);
		return (-1);
	}
	if (path_out != NULL)
		*path_out = path;
	else
		free(path);
	return (0);
}

/* The PEM in path: 1 read, 0 no such file, -1 with *cause. */
static int
streamsign_read(const char *path, char **text, char **cause)
{
	struct stat	 sb;
	ssize_t		 n;
	int		 fd, rv = -1;

	*text = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			return (0);
		*cause = xprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_size > STREAMSIGN_PEM_MAX) {
		*cause = xprintf("%s: not a key file", path);
		goto out;
	}
	*text = xmalloc((size_t)sb.st_size + 1);
	n = read(fd, *text, (size_t)sb.st_size);
	if (n != (ssize_t)sb.st_size) {
		*cause = xprintf("%s: %s", path, n < 0 ? strerror(errno) :
		    "short read");
		free(*text);
		*text = NULL;
		goto out;
	}
	(*text)[n] = '\0';
	rv = 1;
out:
	close(fd);
	return (rv);
}

char *
streamsign_key_load(const char *state, const struct streamsign_owner *o,
    const char *id, char **cause)
{
	char	*dir, *path, *text;
	int	 rv;

	if (!apirules_hex32_ok(id)) {
		*cause = xprintf("'%.40s' is not a signing key id (32 hex "
		    "digits)", id);
		return (NULL);
	}
	dir = streamsign_owner_dir(state, o);
	path = xprintf("%s/%s.pem", dir, id);
	rv = streamsign_read(path, &text, cause);
	free(path);
	if (rv == 0) {
		/* Remembered the old way, by id alone: asked for by id. */
		path = xprintf("%s/" STREAMSIGN_DIR "/%s.pem", state, id);
		rv = streamsign_read(path, &text, cause);
		free(path);
	}
	if (rv == 0)
		*cause = xprintf("no signing key %s is remembered for this "
		    "server and account (%s)", id, dir);
	free(dir);
	return (text);
}

int
streamsign_key_known(const char *state, const struct streamsign_owner *o,
    const char *id)
{
	char	*dir, *path;
	int	 ok;

	if (!apirules_hex32_ok(id))
		return (0);
	dir = streamsign_owner_dir(state, o);
	path = xprintf("%s/%s.pem", dir, id);
	ok = access(path, R_OK) == 0;
	free(path);
	free(dir);
	if (!ok) {
		path = xprintf("%s/" STREAMSIGN_DIR "/%s.pem", state, id);
		ok = access(path, R_OK) == 0;
		free(path);
	}
	return (ok);
}

static int
streamsign_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* The ids of dir's ID.pem files, sorted. */
static char **
streamsign_ids(const char *dir)
{
	struct dirent	 *de;
	DIR		 *d;
	char		 **ids, id[33];
	size_t		  n = 0, len;

	ids = xcalloc(1, sizeof *ids);
	if ((d = opendir(dir)) == NULL)
		return (ids);
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len != 36 || strcmp(de->d_name + 32, ".pem") != 0)
			continue;
		memcpy(id, de->d_name, 32);
		id[32] = '\0';
		if (!apirules_hex32_ok(id))
			continue;
		ids = xreallocarray(ids, n + 2, sizeof *ids);
		ids[n++] = xstrdup(id);
		ids[n] = NULL;
	}
	closedir(d);
	qsort(ids, n, sizeof *ids, streamsign_cmp);
	return (ids);
}

char **
streamsign_key_list(const char *state, const struct streamsign_owner *o)
{
	char	*dir, **ids;

	dir = streamsign_owner_dir(state, o);
	ids = streamsign_ids(dir);
	free(dir);
	return (ids);
}

char **
streamsign_key_list_old(const char *state)
{
	char	*dir, **ids;

	dir = xprintf("%s/" STREAMSIGN_DIR, state);
	ids = streamsign_ids(dir);
	free(dir);
	return (ids);
}

void
streamsign_key_list_free(char **ids)
{
	size_t	i;

	for (i = 0; ids != NULL && ids[i] != NULL; i++)
		free(ids[i]);
	free(ids);
}
