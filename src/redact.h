/*
 * Secret redaction, in one place: which fields of the API's records hold
 * secrets (the kinds' KIND_F_SECRET marks, and a few names no descriptor
 * covers), and copies of records and response bodies without them. The
 * journal, the request log, -v and the console's masking all use it.
 */
#ifndef EDGE_REDACT_H
#define EDGE_REDACT_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* What a secret becomes where no other mask is asked for. */
#define REDACT_MASK	"[redacted]"

/*
 * Whether the member at a dotted path of keys ("result.webRTC.url"; array
 * steps left out) holds a secret: the path ends with a field a kind marks
 * KIND_F_SECRET ("webRTC.url", "rtmps.streamKey", "pem"), or its last key
 * ends, ignoring case, in a secret's name (secret, streamKey, passphrase,
 * pem, jwk, token: outputs' keys and tokens no kind describes).
 */
int	 redact_path_is_secret(const char *);

/*
 * Replace every secret in v, at any depth, by mask (NULL: REDACT_MASK).
 * A null stays null: there is nothing to hide. Returns how many it hid.
 */
size_t	 redact_json(cJSON *, const char *);

/*
 * A response or request body as text to keep or show: JSON is parsed,
 * redacted and printed indented; other text is kept as it is, binary data
 * is described by its size. At most max bytes (0: no limit), cut on a
 * character boundary with a note of what was left out. REDACT_LINE:
 * JSON printed on one line (a log line). Allocated.
 */
#define REDACT_LINE	0x1
char	*redact_body(const char *, size_t, size_t, int);

#endif
