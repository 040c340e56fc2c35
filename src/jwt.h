/*
 * RS256 JSON Web Signatures in compact form (RFC 7515), as Stream's
 * signed-URL tokens are: edgetui signs them, edgemu signs and checks them.
 */
#ifndef EDGE_JWT_H
#define EDGE_JWT_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct evp_pkey_st;

/* len bytes in base64url without padding, allocated. */
char	*jwt_b64url(const void *, size_t);
/*
 * n characters of base64url (no padding) decoded and NUL-terminated
 * (*lenp, when not NULL, says how many bytes), allocated; NULL if they are
 * not base64url.
 */
char	*jwt_b64url_decode(const char *, size_t, size_t *);

/*
 * An RSA key from PEM text: private (PKCS#1 "RSA PRIVATE KEY" or PKCS#8)
 * or public (SubjectPublicKeyInfo). NULL with *cause. Free with
 * jwt_key_free.
 */
struct evp_pkey_st *jwt_key_private(const char *, size_t, char **);
struct evp_pkey_st *jwt_key_public(const char *, size_t, char **);
void	 jwt_key_free(struct evp_pkey_st *);
/* The public half of a private key as SubjectPublicKeyInfo PEM, or NULL. */
char	*jwt_key_public_pem(struct evp_pkey_st *);

/* header.payload.signature, each JSON printed compact; NULL with *cause. */
char	*jwt_sign(struct evp_pkey_st *, const cJSON *, const cJSON *,
	     char **);
/*
 * A token's header and payload (both JSON objects), unchecked; -1 with
 * *cause when it is not three base64url parts of which the first two are
 * JSON objects.
 */
int	 jwt_decode(const char *, cJSON **, cJSON **, char **);
/* 0 when the RS256 signature is the key's, else -1 with *cause. */
int	 jwt_verify(struct evp_pkey_st *, const char *, char **);

#endif
