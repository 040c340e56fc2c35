/*
 * Stream's account assets: live inputs, watermark profiles and signing keys.
 * The checks and builders are exposed for unit tests; the loaders for the
 * other Stream files (a video's watermark, a token's signing key).
 */
#ifndef EDGEMU_ASSETS_H
#define EDGEMU_ASSETS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "util.h"

struct multipart;
struct store;

/* ---- live inputs (live.c) ---------------------------------------------- */

/* Check a create or update body; on failure say which field and why. */
int	 live_validate(const cJSON *, char **);
/*
 * A new live input with its endpoints and fresh secrets (from rng, or the
 * system's randomness when rng is NULL) and every setting at its default.
 */
cJSON	*live_build(const char *, const char *, const char *,
	     struct util_rng *);
/* Apply a body that passed live_validate: given fields replace, null resets. */
void	 live_apply(cJSON *, const cJSON *);
/* The list form of a live input: no endpoints, so no secrets. */
cJSON	*live_summary(const cJSON *);

/* ---- watermark profiles (watermark.c) ---------------------------------- */

enum watermark_format {
	WATERMARK_PNG,
	WATERMARK_JPEG,
	WATERMARK_GIF,
	WATERMARK_WEBP
};

struct watermark_image {
	enum watermark_format	 format;
	long			 width;
	long			 height;
};

/* What an upload asked for, checked, with the defaults filled in. */
struct watermark_upload {
	const char		*data;		/* the image part's bytes */
	size_t			 len;
	struct watermark_image	 image;
	char			*name;
	double			 opacity;
	double			 padding;
	double			 scale;
	const char		*position;	/* static */
};

/* Sniff an image from its first bytes; -1 and a cause when it is none. */
int	 watermark_probe(const void *, size_t, struct watermark_image *,
	     char **);
const char *watermark_format_name(enum watermark_format);
int	 watermark_number(const char *, const char *, double, double *,
	     char **);
int	 watermark_validate(const struct multipart *,
	     struct watermark_upload *, char **);
void	 watermark_upload_free(struct watermark_upload *);
/* A profile as the API shows it (for a video's watermark), or NULL. */
cJSON	*watermark_load(struct store *, const char *, const char *);

/* ---- signing keys (keys.c) --------------------------------------------- */

#define KEYS_PER_ACCOUNT	1000
#define KEYS_RSA_BITS		2048

/* A fresh key's secret forms, as the create call returns them once. */
struct keys_material {
	char	*pem;		/* base64 of the PKCS#1 PEM private key */
	char	*jwk;		/* base64 of the private JWK (JSON) */
	char	*public_pem;	/* SubjectPublicKeyInfo PEM, kept */
};

int	 keys_generate(const char *, struct keys_material *, char **);
void	 keys_material_free(struct keys_material *);
/*
 * The public key (PEM) of an account's signing key, to check tokens with;
 * NULL when there is no such key or it has none (the demo keys).
 */
char	*keys_public_pem(struct store *, const char *, const char *);

#endif
