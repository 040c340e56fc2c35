/*
 * Stream signed-URL tokens made locally with a signing key (RS256, the
 * claims of the service's token call), the access rules of the CLI's and
 * the console's options, the URLs a token opens, and the signing keys
 * remembered in the state directory for that.
 */
#ifndef EDGE_STREAMSIGN_H
#define EDGE_STREAMSIGN_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define STREAMSIGN_EXP_DEFAULT	3600
#define STREAMSIGN_NBF_BEFORE	3600		/* nbf: an hour back */

struct streamsign {
	const char	*video;		/* sub */
	const char	*key_id;	/* kid */
	int64_t		 exp;		/* Unix seconds */
	int64_t		 nbf;		/* Unix seconds; 0: none */
	int		 downloadable;
	const cJSON	*access_rules;	/* array, or NULL: none */
};

/*
 * A signing key's PEM as text: the API's pem field (base64 of a PEM) is
 * decoded, a PEM is taken as it is. NULL with *cause when it is neither.
 */
char	*streamsign_pem(const char *, size_t, char **);
/*
 * The token for s, signed with the private key in pem (PKCS#1 or PKCS#8,
 * or the API's base64 of one). NULL with *cause: a bad key says so.
 */
char	*streamsign_token(const char *, size_t, const struct streamsign *,
	     char **);

/*
 * Access rules for the given lists: blocked countries first, then the
 * allowed addresses followed by a rule blocking any other. NULL when both
 * are empty; NULL with *cause when a CIDR or a country code is not one.
 */
cJSON	*streamsign_rules(const char *const *, size_t, const char *const *,
	     size_t, char **);
/* "90", "30s", "15m", "1h", "1d": seconds, or -1 with *cause. */
long	 streamsign_duration(const char *, char **);
/* url with the path segment that is uid replaced by token; NULL if none. */
char	*streamsign_url(const char *, const char *, const char *);
/*
 * The MP4 download's URL beside an HLS manifest's (.../manifest/video.m3u8
 * -> .../downloads/default.mp4), allocated; NULL if hls is not one.
 */
char	*streamsign_download_url(const char *);
/* A token shortened for logs and screens: its start, an ellipsis. */
char	*streamsign_token_short(const char *);

/*
 * Remembered keys, per owner (the API's base URL and the account), so
 * that a profile of another account or server never picks a key of the
 * wrong one by itself (a key kept before keys had owners is used only
 * when named): STATE/signing-keys/OWNER/ID.pem, the decoded PEM, mode
 * 0600 (directories 0700). Save refuses an id that is not 32 hex digits;
 * it replaces an older file of that id.
 */
struct streamsign_owner {
	const char	*base_url;	/* a trailing '/' is not part of it */
	const char	*account;	/* NULL: none */
};

int	 streamsign_key_save(const char *, const struct streamsign_owner *,
	     const char *, const char *, char **, char **);
/*
 * The remembered PEM of an id (allocated): the owner's, else one
 * remembered by id alone (STATE/signing-keys/ID.pem, as before keys were
 * kept per owner). NULL with *cause.
 */
char	*streamsign_key_load(const char *, const struct streamsign_owner *,
	     const char *, char **);
/* Whether streamsign_key_load would find a key of that id. */
int	 streamsign_key_known(const char *, const struct streamsign_owner *,
	     const char *);
/* The owner's ids, sorted (allocated, NULL-terminated; may be empty). */
char	**streamsign_key_list(const char *, const struct streamsign_owner *);
/* The ids remembered by id alone, the old way (same form). */
char	**streamsign_key_list_old(const char *);
void	 streamsign_key_list_free(char **);

#endif
