/* Byte encodings both programs share: hex digits and base64 (OpenSSL's). */
#ifndef EDGE_ENCODE_H
#define EDGE_ENCODE_H

#include <stddef.h>

/* The value of one hex digit (either case), or -1. */
int		 encode_hexval(int);
/* len bytes in padded standard base64, one line, allocated. */
char		*encode_base64(const void *, size_t);
/*
 * n characters of padded standard base64 (nothing else: no blanks, no
 * line breaks) decoded, NUL-terminated (the bytes may hold NULs: *lenp
 * tells), allocated; NULL if they are not.
 */
char		*encode_base64_decode(const char *, size_t, size_t *);
/*
 * The same of text that may be wrapped, as the API's base64 is when it
 * was pasted (the API's own is one line): blanks and line breaks are
 * skipped; NULL when nothing else is there. The copy made is scrubbed.
 */
char		*encode_base64_decode_text(const char *, size_t, size_t *);

#endif
