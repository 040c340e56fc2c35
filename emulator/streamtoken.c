/*
 * Signed-URL tokens: the token call signs RS256 with the signing key given
 * in the body (checked against the account's registered public half) or
 * with edgemu's own key, writing exp and nbf as decimal strings as the
 * service does; a token on a delivery URL is checked against the same keys
 * (a deleted signing key is gone from the store, so its tokens fail).
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "apirules.h"
#include "assets.h"
#include "encode.h"
#include "jwt.h"
#include "log.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "streamrules.h"
#include "streamtoken.h"
#include "xmalloc.h"

#define STREAMTOKEN_KV_SCOPE	"stream-token"
#define STREAMTOKEN_KV_KEY	"own-key"	/* "ID\nPEM" */

/* ---- edgemu's own key --------------------------------------------------- */

/* 1 with the id and key, 0 when none was made yet, -1 on a failure. */
static int
streamtoken_own_load(struct store *store, char id[HEX32_LEN + 1],
    EVP_PKEY **pk)
{
	char	*text, *nl, *cause = NULL;

	if ((text = store_kv_get(store, STREAMTOKEN_KV_SCOPE,
	    STREAMTOKEN_KV_KEY)) == NULL)
		return (0);
	if ((nl = strchr(text, '\n')) == NULL || nl - text != HEX32_LEN ||
	    (*pk = jwt_key_private(nl + 1, strlen(nl + 1), &cause)) == NULL) {
		log_warn("edgemu's token key is unreadable: %s",
		    cause != NULL ? cause : "bad record");
		free(cause);
		free(text);
		return (-1);
	}
	memcpy(id, text, HEX32_LEN);
	id[HEX32_LEN] = '\0';
	explicit_bzero(text, strlen(text));
	free(text);
	return (1);
}

/* Made on first use and kept, so its tokens outlive a restart. */
static int
streamtoken_own_key(struct store *store, char id[HEX32_LEN + 1],
    EVP_PKEY **pk, char **cause)
{
	BIO	*bio;
	char	*data, *rec;
	long	 n;
	int	 rc;

	if ((rc = streamtoken_own_load(store, id, pk)) != 0)
		return (rc > 0 ? 0 : util_fail(cause, "edgemu's token key is "
		    "unreadable"));
	if ((*pk = EVP_RSA_gen(KEYS_RSA_BITS)) == NULL ||
	    (bio = BIO_new(BIO_s_mem())) == NULL) {
		ERR_clear_error();
		EVP_PKEY_free(*pk);
		return (util_fail(cause, "cannot make edgemu's token key"));
	}
	PEM_write_bio_PrivateKey(bio, *pk, NULL, NULL, 0, NULL, NULL);
	n = BIO_get_mem_data(bio, &data);
	util_hex32(id);
	rec = xprintf("%s\n%.*s", id, (int)n, data);
	BIO_free(bio);
	rc = store_kv_put(store, STREAMTOKEN_KV_SCOPE, STREAMTOKEN_KV_KEY, rec);
	explicit_bzero(rec, strlen(rec));
	free(rec);
	if (rc != 0) {
		EVP_PKEY_free(*pk);
		return (util_fail(cause, "cannot keep edgemu's token key: %s",
		    store_errmsg(store)));
	}
	return (0);
}

/* ---- access rules -------------------------------------------------------- */

static int
streamtoken_strings(const cJSON *a, const char *what, int country,
    char **cause)
{
	const cJSON	*v;
	unsigned char	 addr[16];
	int		 v6, bits;

	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) == 0)
		return (util_fail(cause, "%s: must be a non-empty array",
		    what));
	cJSON_ArrayForEach(v, a) {
		if (!cJSON_IsString(v))
			return (util_fail(cause, "%s: every item must be a "
			    "string", what));
		if (country ? !streamrules_country_ok(v->valuestring) :
		    streamrules_cidr(v->valuestring, addr, &v6, &bits) != 0)
			return (util_fail(cause, "%s: '%.64s' is not %s", what,
			    v->valuestring, country ? "a two-letter country "
			    "code" : "an IPv4 or IPv6 address or CIDR"));
	}
	return (0);
}

int
streamtoken_rules_valid(const cJSON *rules, char **cause)
{
	const cJSON	*r;
	const char	*type, *action;
	char		 what[64];
	int		 i = 0;

	if (!cJSON_IsArray(rules))
		return (util_fail(cause, "accessRules: must be an array"));
	if (cJSON_GetArraySize(rules) > STREAMRULES_TOKEN_RULES_MAX)
		return (util_fail(cause, "accessRules: at most %d rules",
		    STREAMRULES_TOKEN_RULES_MAX));
	cJSON_ArrayForEach(r, rules) {
		if (!cJSON_IsObject(r) ||
		    util_jstring(r, "type", &type) != UTIL_JOK ||
		    util_jstring(r, "action", &action) != UTIL_JOK)
			return (util_fail(cause, "accessRules[%d]: must be an "
			    "object with a type and an action", i));
		if (strcmp(action, "allow") != 0 &&
		    strcmp(action, "block") != 0)
			return (util_fail(cause, "accessRules[%d].action: "
			    "'%.32s' is not allow or block", i, action));
		if (strcmp(type, "ip.src") == 0) {
			snprintf(what, sizeof what, "accessRules[%d].ip", i);
			if (streamtoken_strings(cJSON_GetObjectItemCaseSensitive(
			    r, "ip"), what, 0, cause) != 0)
				return (-1);
		} else if (strcmp(type, "ip.geoip.country") == 0) {
			snprintf(what, sizeof what, "accessRules[%d].country",
			    i);
			if (streamtoken_strings(cJSON_GetObjectItemCaseSensitive(
			    r, "country"), what, 1, cause) != 0)
				return (-1);
		} else if (strcmp(type, "any") != 0)
			return (util_fail(cause, "accessRules[%d].type: "
			    "'%.32s' is not any, ip.src or ip.geoip.country",
			    i, type));
		i++;
	}
	return (0);
}

/* An IPv4-mapped IPv6 address is its IPv4 address. */
static int
streamtoken_client(const char *s, unsigned char addr[16], int *v6)
{
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0, 0xff, 0xff };

	*v6 = strchr(s, ':') != NULL;
	if (inet_pton(*v6 ? AF_INET6 : AF_INET, s, addr) != 1)
		return (-1);
	if (*v6 && memcmp(addr, mapped, 12) == 0) {
		memmove(addr, addr + 12, 4);
		*v6 = 0;
	}
	return (0);
}

static int
streamtoken_in_cidr(const unsigned char *ip, int ip6, const char *cidr)
{
	unsigned char	net[16];
	int		v6, bits, full, rest;

	if (streamrules_cidr(cidr, net, &v6, &bits) != 0 || v6 != ip6)
		return (0);
	full = bits / 8;
	rest = bits % 8;
	if (memcmp(ip, net, (size_t)full) != 0)
		return (0);
	return (rest == 0 || ((ip[full] ^ net[full]) &
	    (0xff << (8 - rest))) == 0);
}

static int
streamtoken_rule_matches(const cJSON *r, const unsigned char *ip, int v6,
    int have_ip, const char *country)
{
	const cJSON	*v;
	const char	*type = "";

	util_jstring(r, "type", &type);
	if (strcmp(type, "any") == 0)
		return (1);
	if (strcmp(type, "ip.src") == 0 && have_ip) {
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(r, "ip"))
			if (cJSON_IsString(v) &&
			    streamtoken_in_cidr(ip, v6, v->valuestring))
				return (1);
	}
	if (strcmp(type, "ip.geoip.country") == 0 && country != NULL) {
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(r,
		    "country"))
			if (cJSON_IsString(v) &&
			    strcasecmp(v->valuestring, country) == 0)
				return (1);
	}
	return (0);
}

int
streamtoken_rules_allow(const cJSON *rules, const char *client,
    const char *country, int *which)
{
	const cJSON	*r;
	const char	*action = "";
	unsigned char	 ip[16];
	int		 v6 = 0, have_ip, i = 0;

	have_ip = client != NULL && streamtoken_client(client, ip, &v6) == 0;
	cJSON_ArrayForEach(r, rules) {
		if (streamtoken_rule_matches(r, ip, v6, have_ip, country)) {
			util_jstring(r, "action", &action);
			*which = i;
			return (strcmp(action, "block") != 0);
		}
		i++;
	}
	return (1);
}

/* ---- the token call ------------------------------------------------------ */

struct streamtoken_body {
	const char	*id;
	const char	*pem;
	int64_t		 exp;
	int64_t		 nbf;
	int		 downloadable;
	const cJSON	*rules;
};

static int
streamtoken_time(const cJSON *b, const char *key, int64_t *out, char **cause)
{
	double	d;

	switch (util_jnumber(b, key, &d)) {
	case UTIL_JABSENT:
		return (0);
	case UTIL_JOK:
		if (d == floor(d) && d >= 0 && d < 1e12) {
			*out = (int64_t)d;
			return (0);
		}
		/* FALLTHROUGH */
	default:
		return (util_fail(cause, "%s: must be a time in Unix seconds",
		    key));
	}
}

static int
streamtoken_parse(const cJSON *b, int64_t now, struct streamtoken_body *t,
    char **cause)
{
	const cJSON	*flags;
	enum util_jtype	 id, pem;

	memset(t, 0, sizeof *t);
	t->exp = now + 3600;
	t->nbf = now - 3600;
	if (b == NULL)
		return (0);
	if (!cJSON_IsObject(b))
		return (util_fail(cause, "the body must be a JSON object"));
	id = util_jstring(b, "id", &t->id);
	pem = util_jstring(b, "pem", &t->pem);
	if (id == UTIL_JWRONG || pem == UTIL_JWRONG)
		return (util_fail(cause, "id and pem: must be strings"));
	if ((id == UTIL_JOK) != (pem == UTIL_JOK))
		return (util_fail(cause, "id and pem: give both (a signing "
		    "key) or neither"));
	if (streamtoken_time(b, "exp", &t->exp, cause) != 0 ||
	    streamtoken_time(b, "nbf", &t->nbf, cause) != 0)
		return (-1);
	if (t->exp <= now || t->exp > now + STREAMRULES_TOKEN_EXP_MAX)
		return (util_fail(cause, "exp: must be in the next 24 hours"));
	if (util_jbool(b, "downloadable", &t->downloadable) == UTIL_JWRONG)
		return (util_fail(cause, "downloadable: must be a boolean"));
	t->rules = cJSON_GetObjectItemCaseSensitive(b, "accessRules");
	if (t->rules != NULL && streamtoken_rules_valid(t->rules, cause) != 0)
		return (-1);
	flags = cJSON_GetObjectItemCaseSensitive(b, "flags");
	if (flags != NULL && !cJSON_IsObject(flags))
		return (util_fail(cause, "flags: must be an object"));
	return (0);
}

/* The body's key, if it is one of the account's: its private half. */
static EVP_PKEY *
streamtoken_given_key(struct store *store, const char *account,
    const struct streamtoken_body *t, char **cause)
{
	EVP_PKEY	*pk, *pub;
	char		*stored, *pem, *why = NULL;
	size_t		 len;
	int		 same;

	if (!apirules_hex32_ok(t->id) ||
	    (stored = keys_public_pem(store, account, t->id)) == NULL) {
		util_fail(cause, "id: '%.40s' is not a signing key of this "
		    "account", t->id);
		return (NULL);
	}
	pem = encode_base64_decode(t->pem, strlen(t->pem), &len);
	pk = pem != NULL ? jwt_key_private(pem, len, &why) : NULL;
	if (pem != NULL) {
		explicit_bzero(pem, len);
		free(pem);
	}
	if (pk == NULL) {
		util_fail(cause, "pem: not the base64 of a PEM private key%s%s",
		    why != NULL ? ": " : "", why != NULL ? why : "");
		free(why);
		free(stored);
		return (NULL);
	}
	pub = jwt_key_public(stored, strlen(stored), &why);
	free(stored);
	same = pub != NULL && EVP_PKEY_eq(pk, pub) == 1;
	ERR_clear_error();
	EVP_PKEY_free(pub);
	free(why);
	if (!same) {
		EVP_PKEY_free(pk);
		util_fail(cause, "pem: not the private key of signing key %s",
		    t->id);
		return (NULL);
	}
	return (pk);
}

static cJSON *
streamtoken_claims(const char *uid, const char *kid,
    const struct streamtoken_body *t)
{
	cJSON	*c = cJSON_CreateObject();
	char	 n[32];

	cJSON_AddStringToObject(c, "sub", uid);
	cJSON_AddStringToObject(c, "kid", kid);
	snprintf(n, sizeof n, "%lld", (long long)t->exp);
	cJSON_AddStringToObject(c, "exp", n);
	snprintf(n, sizeof n, "%lld", (long long)t->nbf);
	cJSON_AddStringToObject(c, "nbf", n);
	cJSON_AddBoolToObject(c, "downloadable", t->downloadable);
	if (t->rules != NULL)
		cJSON_AddItemToObject(c, "accessRules",
		    cJSON_Duplicate(t->rules, 1));
	return (c);
}

void
streamtoken_create(struct req *req, struct reply *rep)
{
	const char		*account = req_param(req, "account");
	const char		*uid = req_param(req, "uid");
	struct streamtoken_body	 t;
	EVP_PKEY		*pk = NULL;
	cJSON			*video, *header, *claims, *o;
	char			 kid[HEX32_LEN + 1], *cause = NULL, *token;

	if ((video = stream_video_load(req->store, account, uid)) == NULL) {
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s was not found",
		    uid);
		return;
	}
	cJSON_Delete(video);
	if (streamtoken_parse(req->json, (int64_t)time(NULL), &t,
	    &cause) != 0) {
		reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
		free(cause);
		return;
	}
	if (t.id != NULL) {
		if ((pk = streamtoken_given_key(req->store, account, &t,
		    &cause)) == NULL) {
			reply_error(rep, 400, ERR_VALIDATION, "%s", cause);
			free(cause);
			return;
		}
		snprintf(kid, sizeof kid, "%s", t.id);
		util_lower(kid);
	} else if (streamtoken_own_key(req->store, kid, &pk, &cause) != 0) {
		reply_error(rep, 500, ERR_INTERNAL, "%s", cause);
		free(cause);
		return;
	}
	header = cJSON_CreateObject();
	cJSON_AddStringToObject(header, "alg", "RS256");
	cJSON_AddStringToObject(header, "kid", kid);
	claims = streamtoken_claims(uid, kid, &t);
	token = jwt_sign(pk, header, claims, &cause);
	cJSON_Delete(header);
	cJSON_Delete(claims);
	EVP_PKEY_free(pk);
	if (token == NULL) {
		reply_error(rep, 500, ERR_INTERNAL, "%s", cause);
		free(cause);
		return;
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "token", token);
	free(token);
	reply_ok(rep, o);
}

/* ---- checking a token ---------------------------------------------------- */

/* exp or nbf: a number or a decimal string; 1 read, 0 absent, -1 bad. */
static int
streamtoken_claim_time(const cJSON *claims, const char *key, int64_t *out)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(claims, key);
	const char	*p;
	long long	 n = 0;

	if (v == NULL)
		return (0);
	if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
	    fabs(v->valuedouble) < 1e15) {
		*out = (int64_t)v->valuedouble;
		return (1);
	}
	if (!cJSON_IsString(v) || *v->valuestring == '\0' ||
	    strlen(v->valuestring) > 15)
		return (-1);
	for (p = v->valuestring; *p != '\0'; p++) {
		if (!isdigit((unsigned char)*p))
			return (-1);
		n = n * 10 + (*p - '0');
	}
	*out = (int64_t)n;
	return (1);
}

/* The key named kid, for the video's account; NULL with *cause. */
static EVP_PKEY *
streamtoken_key_of(struct store *store, const char *account, const char *kid,
    char **cause)
{
	EVP_PKEY	*pk = NULL;
	char		*pem, own[HEX32_LEN + 1], *why = NULL;

	if ((pem = keys_public_pem(store, account, kid)) != NULL) {
		pk = jwt_key_public(pem, strlen(pem), &why);
		free(pem);
		if (pk == NULL) {
			util_fail(cause, "signing key %s is unusable: %s", kid,
			    why);
			free(why);
		}
		return (pk);
	}
	if (streamtoken_own_load(store, own, &pk) == 1) {
		if (strcmp(own, kid) == 0)
			return (pk);
		EVP_PKEY_free(pk);
	}
	util_fail(cause, "the token's key %s is not a signing key of the "
	    "video's account (never made, or deleted)", kid);
	return (NULL);
}

static int printflike(4, 5)
streamtoken_fail(unsigned int *status, unsigned int code, char **cause,
    const char *fmt, ...)
{
	va_list	ap;

	*status = code;
	va_start(ap, fmt);
	if (vasprintf(cause, fmt, ap) == -1)
		fatalx("streamtoken: out of memory");
	va_end(ap);
	return (-1);
}

/* The uid the token's claims name and the account that has that video. */
static int
streamtoken_video(struct store *store, const cJSON *claims,
    struct streamtoken *t, unsigned int *status, char **cause)
{
	static const char	 sql[] =
	    "SELECT account FROM stream_video WHERE uid = ?1 LIMIT 1";
	const char		*sub;
	char			*account = NULL;
	int			 rc;

	if (util_jstring(claims, "sub", &sub) != UTIL_JOK ||
	    !apirules_hex32_ok(sub))
		return (streamtoken_fail(status, 401, cause, "the token's sub "
		    "is not a video uid"));
	snprintf(t->uid, sizeof t->uid, "%s", sub);
	util_lower(t->uid);
	rc = store_get_text(store, sql, &account, t->uid, NULL);
	if (rc < 0)
		return (streamtoken_fail(status, 500, cause, "%s",
		    store_errmsg(store)));
	if (rc == 0 || account == NULL) {
		free(account);
		return (streamtoken_fail(status, 404, cause, "video %s was not "
		    "found", t->uid));
	}
	snprintf(t->account, sizeof t->account, "%s", account);
	free(account);
	return (0);
}

int
streamtoken_check(struct store *store, const char *token, int64_t now,
    struct streamtoken *t, unsigned int *status, char **cause)
{
	EVP_PKEY	*pk;
	cJSON		*header = NULL, *claims = NULL;
	const char	*kid;
	char		*why = NULL;
	int64_t		 exp = 0, nbf = 0;
	int		 rc = -1, has;

	memset(t, 0, sizeof *t);
	*status = 401;
	if (jwt_decode(token, &header, &claims, &why) != 0) {
		*cause = xprintf("not a uid or a signed token: %s", why);
		free(why);
		return (-1);
	}
	/*
	 * crit lists extensions a verifier must understand or refuse the
	 * token for (RFC 7515 4.1.11); none is understood here.
	 */
	if (cJSON_GetObjectItemCaseSensitive(header, "crit") != NULL) {
		*cause = xstrdup("the token's header has crit: it names "
		    "extensions that are not understood here");
		goto out;
	}
	if (streamtoken_video(store, claims, t, status, cause) != 0)
		goto out;
	if (util_jstring(header, "kid", &kid) != UTIL_JOK &&
	    util_jstring(claims, "kid", &kid) != UTIL_JOK) {
		*cause = xstrdup("the token names no key (kid)");
		goto out;
	}
	/* Whole: a longer one cut to a key's length would name that key. */
	if (!apirules_hex32_ok(kid)) {
		*cause = xstrdup("the token's kid is not a signing key's id "
		    "(32 hex digits)");
		goto out;
	}
	snprintf(t->kid, sizeof t->kid, "%s", kid);
	util_lower(t->kid);
	if ((pk = streamtoken_key_of(store, t->account, t->kid, cause)) ==
	    NULL)
		goto out;
	if (jwt_verify(pk, token, &why) != 0) {
		EVP_PKEY_free(pk);
		*cause = why;
		goto out;
	}
	EVP_PKEY_free(pk);
	if ((has = streamtoken_claim_time(claims, "exp", &exp)) <= 0) {
		*cause = xstrdup(has < 0 ? "the token's exp is not a time" :
		    "the token has no exp");
		goto out;
	}
	if (now >= exp) {
		streamtoken_fail(status, 401, cause, "the token expired (exp "
		    "%lld, now %lld)", (long long)exp, (long long)now);
		goto out;
	}
	if ((has = streamtoken_claim_time(claims, "nbf", &nbf)) < 0) {
		*cause = xstrdup("the token's nbf is not a time");
		goto out;
	}
	if (has > 0 && now < nbf) {
		streamtoken_fail(status, 401, cause, "the token is not valid "
		    "yet (nbf %lld, now %lld)", (long long)nbf, (long long)now);
		goto out;
	}
	t->downloadable = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(claims,
	    "downloadable"));
	t->rules = cJSON_DetachItemFromObjectCaseSensitive(claims,
	    "accessRules");
	if (t->rules != NULL && streamtoken_rules_valid(t->rules, &why) != 0) {
		*cause = xprintf("the token's %s", why);
		free(why);
		goto out;
	}
	rc = 0;
out:
	cJSON_Delete(header);
	cJSON_Delete(claims);
	if (rc != 0)
		streamtoken_free(t);
	return (rc);
}

void
streamtoken_free(struct streamtoken *t)
{
	cJSON_Delete(t->rules);
	t->rules = NULL;
}
