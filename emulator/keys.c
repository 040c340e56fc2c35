/*
 * Stream signing keys under /accounts/{account}/stream/keys: real RSA keys
 * whose private half (PEM and JWK, both base64) is shown once, on creation,
 * and never kept; only the public half is stored, to check tokens with.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "assets.h"
#include "buf.h"
#include "encode.h"
#include "jwt.h"
#include "log.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "util.h"
#include "xmalloc.h"

#define KEYS_PATH	STREAM_ACCOUNT "/stream/keys"

/* public_pem is NULL for the demo keys, which never had a private half. */
static const char keys_schema[] =
	"CREATE TABLE IF NOT EXISTS signing_key ("
	" seq INTEGER PRIMARY KEY AUTOINCREMENT,"
	" account TEXT NOT NULL,"
	" id TEXT NOT NULL,"
	" created TEXT NOT NULL,"
	" public_pem TEXT,"
	" UNIQUE (account, id));";

/* ---- the key's forms --------------------------------------------------- */

/* OpenSSL's last error, for a cause; its queue is left empty. */
static int
keys_ssl_fail(char **cause, const char *what)
{
	unsigned long	e = ERR_get_error();
	char		buf[256];

	if (e == 0)
		snprintf(buf, sizeof buf, "unknown error");
	else
		ERR_error_string_n(e, buf, sizeof buf);
	ERR_clear_error();
	*cause = xprintf("%s: %s", what, buf);
	return (-1);
}

/* One form of the key as text: structure picks PKCS#1 or SPKI. */
static int
keys_encode(EVP_PKEY *pkey, int selection, const char *structure,
    char **out, char **cause)
{
	OSSL_ENCODER_CTX	*ctx;
	unsigned char		*data = NULL;
	size_t			 len = 0;
	int			 ok;

	ctx = OSSL_ENCODER_CTX_new_for_pkey(pkey, selection, "PEM", structure,
	    NULL);
	if (ctx == NULL)
		return (keys_ssl_fail(cause, "no PEM encoder for the key"));
	ok = OSSL_ENCODER_to_data(ctx, &data, &len);
	OSSL_ENCODER_CTX_free(ctx);
	if (!ok)
		return (keys_ssl_fail(cause, "encoding the key as PEM"));
	*out = xstrndup((char *)data, len);
	OPENSSL_free(data);
	return (0);
}

static int
keys_jwk_member(cJSON *jwk, EVP_PKEY *pkey, const char *param,
    const char *member, char **cause)
{
	BIGNUM		*bn = NULL;
	unsigned char	*bytes;
	char		*s;
	int		 n;

	if (!EVP_PKEY_get_bn_param(pkey, param, &bn))
		return (keys_ssl_fail(cause, "reading the key's parameters"));
	n = BN_num_bytes(bn);
	bytes = xmalloc(n > 0 ? (size_t)n : 1);
	BN_bn2bin(bn, bytes);
	s = jwt_b64url(bytes, (size_t)n);
	cJSON_AddStringToObject(jwk, member, s);
	free(s);
	free(bytes);
	BN_clear_free(bn);
	return (0);
}

/* The private JWK, members in the service's order (RFC 7518 names). */
static int
keys_jwk(EVP_PKEY *pkey, const char *id, char **out, char **cause)
{
	static const char *const params[][2] = {
		{ OSSL_PKEY_PARAM_RSA_N, "n" },
		{ OSSL_PKEY_PARAM_RSA_E, "e" },
		{ OSSL_PKEY_PARAM_RSA_D, "d" },
		{ OSSL_PKEY_PARAM_RSA_FACTOR1, "p" },
		{ OSSL_PKEY_PARAM_RSA_FACTOR2, "q" },
		{ OSSL_PKEY_PARAM_RSA_EXPONENT1, "dp" },
		{ OSSL_PKEY_PARAM_RSA_EXPONENT2, "dq" },
		{ OSSL_PKEY_PARAM_RSA_COEFFICIENT1, "qi" },
	};
	cJSON	*jwk = cJSON_CreateObject();
	size_t	 i;

	cJSON_AddStringToObject(jwk, "use", "sig");
	cJSON_AddStringToObject(jwk, "kty", "RSA");
	cJSON_AddStringToObject(jwk, "kid", id);
	cJSON_AddStringToObject(jwk, "alg", "RS256");
	for (i = 0; i < nitems(params); i++) {
		if (keys_jwk_member(jwk, pkey, params[i][0], params[i][1],
		    cause) != 0) {
			cJSON_Delete(jwk);
			return (-1);
		}
	}
	*out = util_jprint(jwk);
	cJSON_Delete(jwk);
	return (0);
}

/*
 * A fresh RSA key named id, in the forms the create call returns. The PEM
 * is PKCS#1 ("BEGIN RSA PRIVATE KEY"), as the service's is.
 */
int
keys_generate(const char *id, struct keys_material *m, char **cause)
{
	EVP_PKEY	*pkey;
	char		*pem = NULL, *jwk = NULL;
	int		 rc = -1;

	memset(m, 0, sizeof *m);
	if ((pkey = EVP_RSA_gen(KEYS_RSA_BITS)) == NULL)
		return (keys_ssl_fail(cause, "generating an RSA key"));
	if (keys_encode(pkey, OSSL_KEYMGMT_SELECT_KEYPAIR, "type-specific",
	    &pem, cause) != 0 ||
	    keys_jwk(pkey, id, &jwk, cause) != 0 ||
	    keys_encode(pkey, OSSL_KEYMGMT_SELECT_PUBLIC_KEY,
	    "SubjectPublicKeyInfo", &m->public_pem, cause) != 0)
		goto out;
	/* Standard base64 with padding, on one line, as the service's. */
	m->pem = encode_base64(pem, strlen(pem));
	m->jwk = encode_base64(jwk, strlen(jwk));
	rc = 0;
out:
	free(pem);
	free(jwk);
	EVP_PKEY_free(pkey);
	if (rc != 0)
		keys_material_free(m);
	return (rc);
}

void
keys_material_free(struct keys_material *m)
{
	free(m->pem);
	free(m->jwk);
	free(m->public_pem);
	memset(m, 0, sizeof *m);
}

/* ---- storage ----------------------------------------------------------- */

/* Call inside a write transaction. */
static int
keys_insert(struct store *store, const char *account, const char *id,
    const char *created, const char *public_pem)
{
	static const char	 sql[] =
	    "INSERT INTO signing_key (account, id, created, public_pem)"
	    " VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt		*st = store_stmt(store, sql);
	int			 rc;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, created, -1, SQLITE_STATIC);
	if (public_pem != NULL)
		sqlite3_bind_text(st, 4, public_pem, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_done(st);
	return (rc == SQLITE_DONE ? 0 : -1);
}

/* How many keys the account has, or -1. */
static long
keys_count(struct store *store, const char *account)
{
	static const char	 sql[] =
	    "SELECT count(*) FROM signing_key WHERE account = ?1";
	sqlite3_stmt		*st = store_stmt(store, sql);
	long			 n = -1;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(st, 0);
	store_done(st);
	return (n);
}

char *
keys_public_pem(struct store *store, const char *account, const char *id)
{
	static const char	 sql[] =
	    "SELECT public_pem FROM signing_key WHERE account = ?1 AND id = ?2";
	sqlite3_stmt		*st = store_stmt(store, sql);
	const char		*pem;
	char			*out = NULL;

	sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    (pem = (const char *)sqlite3_column_text(st, 0)) != NULL)
		out = xstrdup(pem);
	store_done(st);
	return (out);
}

/* ---- handlers ---------------------------------------------------------- */

static void
keys_list(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT id, created FROM signing_key WHERE account = ?1"
	    " ORDER BY seq";
	sqlite3_stmt		*st = store_stmt(req->store, sql);
	cJSON			*list, *key;
	int			 rc;

	sqlite3_bind_text(st, 1, req_param(req, "account"), -1,
	    SQLITE_STATIC);
	list = cJSON_CreateArray();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		key = cJSON_CreateObject();
		cJSON_AddStringToObject(key, "id",
		    (const char *)sqlite3_column_text(st, 0));
		cJSON_AddStringToObject(key, "created",
		    (const char *)sqlite3_column_text(st, 1));
		cJSON_AddItemToArray(list, key);
	}
	if (rc != SQLITE_DONE) {
		reply_store_error(req, rep);
		cJSON_Delete(list);
	} else
		reply_ok(rep, list);
	store_done(st);
}

/*
 * The key is made before the write transaction: generating one takes a
 * tenth of a second or so, and other writers should not wait for it. The
 * count is checked inside, so two creates cannot both take the last place.
 */
static void
keys_create(struct req *req, struct reply *rep)
{
	const char		*account = req_param(req, "account");
	struct keys_material	 m;
	char			 id[HEX32_LEN + 1], now[ISO_TIME_LEN];
	char			*cause = NULL;
	cJSON			*key;
	long			 n;

	util_hex32(id);
	if (keys_generate(id, &m, &cause) != 0) {
		reply_error(rep, 500, ERR_INTERNAL, "%s", cause);
		free(cause);
		return;
	}
	util_now_iso(now);
	if (store_begin(req->store) != 0 ||
	    (n = keys_count(req->store, account)) < 0) {
		reply_store_error(req, rep);
		goto out;
	}
	if (n >= KEYS_PER_ACCOUNT) {
		store_rollback(req->store);
		reply_error(rep, 409, ERR_CONFLICT, "the account already has "
		    "%ld signing keys, the most it may have; delete one first",
		    n);
		goto out;
	}
	if (keys_insert(req->store, account, id, now, m.public_pem) != 0 ||
	    store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		goto out;
	}
	key = cJSON_CreateObject();
	cJSON_AddStringToObject(key, "id", id);
	cJSON_AddStringToObject(key, "pem", m.pem);
	cJSON_AddStringToObject(key, "jwk", m.jwk);
	cJSON_AddStringToObject(key, "created", now);
	reply_ok(rep, key);
out:
	keys_material_free(&m);
}

static void
keys_delete(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "DELETE FROM signing_key WHERE account = ?1 AND id = ?2";
	const char		*id = req_param(req, "identifier");
	int			 found;

	if (store_begin(req->store) != 0 ||
	    (found = store_doc_delete(req->store, sql, req_param(req,
	    "account"), id)) < 0) {
		reply_store_error(req, rep);
		return;
	}
	if (!found) {
		store_rollback(req->store);
		reply_error(rep, 404, ERR_NOT_FOUND, "signing key %s was not "
		    "found", id);
		return;
	}
	if (store_commit(req->store) != 0) {
		reply_store_error(req, rep);
		return;
	}
	reply_ok(rep, cJSON_CreateString("ok"));
}

/* ---- demo data --------------------------------------------------------- */

#define KEYS_DEMO_EPOCH	1772323200	/* 2026-03-01T00:00:00Z */
#define KEYS_DEMO_KEYS	2

/*
 * Two keys made "earlier": ids and dates only. Generating RSA keys at each
 * seeding would be slow, and nobody could have seen their private halves.
 */
static int
keys_demo(struct store *store, const char *account, const char *zone,
    char **cause)
{
	struct util_rng	 rng;
	struct timespec	 ts;
	char		 id[HEX32_LEN + 1], created[ISO_TIME_LEN];
	int		 i;

	(void)zone;
	util_rng_seed(&rng, 0x7369676e696e6b73ULL);
	for (i = 0; i < KEYS_DEMO_KEYS; i++) {
		util_rng_hex32(&rng, id);
		ts.tv_sec = KEYS_DEMO_EPOCH + (time_t)i * 40 * 86400 +
		    util_rng_below(&rng, 86400);
		ts.tv_nsec = (long)util_rng_below(&rng, 1000000) * 1000;
		util_time_iso(&ts, created);
		if (keys_insert(store, account, id, created, NULL) != 0) {
			*cause = xprintf("demo signing keys: %s",
			    store_errmsg(store));
			return (-1);
		}
	}
	return (0);
}

static const struct route keys_routes[] = {
	{ HTTP_GET, KEYS_PATH, keys_list, ROUTE_BODY_NONE },
	/* The spec wants a JSON body ({} will do); it carries nothing. */
	{ HTTP_POST, KEYS_PATH, keys_create, ROUTE_BODY_NONE },
	{ HTTP_DELETE, KEYS_PATH "/{identifier:hex32}", keys_delete,
	    ROUTE_BODY_NONE },
};

const struct area keys_area = {
	.name = "keys",
	.routes = keys_routes,
	.nroutes = nitems(keys_routes),
	.schema = keys_schema,
	.demo = keys_demo,
};
