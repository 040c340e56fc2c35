/* Byte encodings both programs share: hex digits and base64 (OpenSSL's). */
#ifndef EDGE_ENCODE_H
#define EDGE_ENCODE_H

#include <stddef.h>

/* The value of one hex digit (either case), or -1. */
int		 encode_hexval(int);
/* len bytes in padded standard base64, one line, allocated. */
char		*encode_base64(const void *, size_t);

#endif
