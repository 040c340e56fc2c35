/*
 * RS256 JSON Web Signatures in compact form: base64url, keys from PEM,
 * signing and checking with OpenSSL's EVP interface.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "buf.h"
#include "encode.h"
#include "jwt.h"
#include "log.h"
#include "xmalloc.h"

#define JWT_PART_MAX	(64 * 1024)	/* a token part, decoded */

char *
jwt_b64url(const void *p, size_t len)
{
	char	*s = encode_base64(p, len), *c;

	for (c = s; *c != '\0'; c++) {
		if (*c == '+')
			*c = '-';
		else if (*c == '/')
			*c = '_';
		else if (*c == '=') {
			*c = '\0';
			break;
		}
	}
	return (s);
}

char *
jwt_b64url_decode(const char *s, size_t n, size_t *lenp)
{
	char	*std, *out;
	size_t	 i, padded;

	/* One character over a multiple of four is never base64. */
	if (n % 4 == 1 || n > JWT_PART_MAX * 2)
		return (NULL);
	padded = (n + 3) / 4 * 4;
	std = xmalloc(padded + 1);
	for (i = 0; i < n; i++) {
		if (s[i] == '-')
			std[i] = '+';
		else if (s[i] == '_')
			std[i] = '/';
		else if (s[i] == '+' || s[i] == '/' || s[i] == '=') {
			free(std);
			return (NULL);
		} else
			std[i] = s[i];
	}
	for (; i < padded; i++)
		std[i] = '=';
	std[padded] = '\0';
	out = encode_base64_decode(std, padded, lenp);
	free(std);
	return (out);
}

/* OpenSSL's first error as the cause; its queue is left empty. */
static void
jwt_ssl_cause(char **cause, const char *what)
{
	unsigned long	e = ERR_peek_error();
	char		buf[256];

	if (e == 0)
		snprintf(buf, sizeof buf, "unknown error");
	else
		ERR_error_string_n(e, buf, sizeof buf);
	ERR_clear_error();
	*cause = xprintf("%s (%s)", what, buf);
}

static struct evp_pkey_st *
jwt_key_read(const char *pem, size_t len, int private, char **cause)
{
	EVP_PKEY	*pk;
	BIO		*bio;

	if (len > INT_MAX || memmem(pem, len, "-----BEGIN ", 11) == NULL) {
		*cause = xstrdup("not a PEM key: no -----BEGIN line");
		return (NULL);
	}
	if ((bio = BIO_new_mem_buf(pem, (int)len)) == NULL)
		fatalx("jwt: out of memory");
	/* No passphrase callback: an encrypted key is refused, not prompted. */
	pk = private ? PEM_read_bio_PrivateKey(bio, NULL, NULL, (void *)"") :
	    PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
	BIO_free(bio);
	if (pk == NULL) {
		jwt_ssl_cause(cause, private ? "not a usable PEM private key" :
		    "not a usable PEM public key");
		return (NULL);
	}
	if (EVP_PKEY_get_base_id(pk) != EVP_PKEY_RSA) {
		EVP_PKEY_free(pk);
		*cause = xstrdup("not an RSA key: RS256 needs one");
		return (NULL);
	}
	return (pk);
}

struct evp_pkey_st *
jwt_key_private(const char *pem, size_t len, char **cause)
{
	return (jwt_key_read(pem, len, 1, cause));
}

struct evp_pkey_st *
jwt_key_public(const char *pem, size_t len, char **cause)
{
	return (jwt_key_read(pem, len, 0, cause));
}

void
jwt_key_free(struct evp_pkey_st *pk)
{
	EVP_PKEY_free(pk);
}

char *
jwt_key_public_pem(struct evp_pkey_st *pk)
{
	BIO	*bio;
	char	*data, *out = NULL;
	long	 n;

	if ((bio = BIO_new(BIO_s_mem())) == NULL)
		fatalx("jwt: out of memory");
	if (PEM_write_bio_PUBKEY(bio, pk) == 1 &&
	    (n = BIO_get_mem_data(bio, &data)) > 0)
		out = xstrndup(data, (size_t)n);
	ERR_clear_error();
	BIO_free(bio);
	return (out);
}

static char *
jwt_part(const cJSON *v)
{
	char	*text, *s;

	if ((text = cJSON_PrintUnformatted(v)) == NULL)
		fatalx("jwt: out of memory");
	s = jwt_b64url(text, strlen(text));
	cJSON_free(text);
	return (s);
}

char *
jwt_sign(struct evp_pkey_st *pk, const cJSON *header, const cJSON *payload,
    char **cause)
{
	EVP_MD_CTX	*md;
	struct buf	 b = BUF_INITIALIZER;
	unsigned char	*sig = NULL;
	size_t		 siglen = 0;
	char		*h, *p, *s;
	int		 ok;

	h = jwt_part(header);
	p = jwt_part(payload);
	buf_addf(&b, "%s.%s", h, p);
	free(h);
	free(p);
	if ((md = EVP_MD_CTX_new()) == NULL)
		fatalx("jwt: out of memory");
	ok = EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, pk) == 1 &&
	    EVP_DigestSign(md, NULL, &siglen, (unsigned char *)b.data,
	    b.len) == 1;
	if (ok) {
		sig = xmalloc(siglen);
		ok = EVP_DigestSign(md, sig, &siglen, (unsigned char *)b.data,
		    b.len) == 1;
	}
	EVP_MD_CTX_free(md);
	if (!ok) {
		jwt_ssl_cause(cause, "signing failed");
		free(sig);
		buf_free(&b);
		return (NULL);
	}
	s = jwt_b64url(sig, siglen);
	buf_addf(&b, ".%s", s);
	free(s);
	free(sig);
	return (buf_detach(&b, NULL));
}

/* One of the first two parts as a JSON object, or NULL. */
static cJSON *
jwt_json_part(const char *s, size_t n)
{
	cJSON	*v;
	char	*text;
	size_t	 len;

	if ((text = jwt_b64url_decode(s, n, &len)) == NULL)
		return (NULL);
	v = strlen(text) == len ? cJSON_Parse(text) : NULL;
	free(text);
	if (v != NULL && !cJSON_IsObject(v)) {
		cJSON_Delete(v);
		v = NULL;
	}
	return (v);
}

int
jwt_decode(const char *token, cJSON **header, cJSON **payload, char **cause)
{
	const char	*d1, *d2;

	*header = *payload = NULL;
	if ((d1 = strchr(token, '.')) == NULL ||
	    (d2 = strchr(d1 + 1, '.')) == NULL || strchr(d2 + 1, '.') != NULL) {
		*cause = xstrdup("the token is not three parts joined by dots");
		return (-1);
	}
	if ((*header = jwt_json_part(token, (size_t)(d1 - token))) == NULL) {
		*cause = xstrdup("the token's header is not base64url JSON");
		return (-1);
	}
	if ((*payload = jwt_json_part(d1 + 1, (size_t)(d2 - d1 - 1))) ==
	    NULL) {
		cJSON_Delete(*header);
		*header = NULL;
		*cause = xstrdup("the token's claims are not base64url JSON");
		return (-1);
	}
	return (0);
}

int
jwt_verify(struct evp_pkey_st *pk, const char *token, char **cause)
{
	EVP_MD_CTX	*md;
	const cJSON	*alg;
	const char	*d2;
	cJSON		*header, *payload;
	char		*sig;
	size_t		 siglen;
	int		 ok;

	if (jwt_decode(token, &header, &payload, cause) != 0)
		return (-1);
	alg = cJSON_GetObjectItemCaseSensitive(header, "alg");
	ok = cJSON_IsString(alg) && strcmp(alg->valuestring, "RS256") == 0;
	cJSON_Delete(header);
	cJSON_Delete(payload);
	if (!ok) {
		*cause = xstrdup("the token's alg is not RS256");
		return (-1);
	}
	d2 = strrchr(token, '.');
	if ((sig = jwt_b64url_decode(d2 + 1, strlen(d2 + 1), &siglen)) ==
	    NULL) {
		*cause = xstrdup("the token's signature is not base64url");
		return (-1);
	}
	if ((md = EVP_MD_CTX_new()) == NULL)
		fatalx("jwt: out of memory");
	ok = EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, pk) == 1 &&
	    EVP_DigestVerify(md, (unsigned char *)sig, siglen,
	    (const unsigned char *)token, (size_t)(d2 - token)) == 1;
	EVP_MD_CTX_free(md);
	ERR_clear_error();
	free(sig);
	if (!ok) {
		*cause = xstrdup("the token's signature does not match its key");
		return (-1);
	}
	return (0);
}
