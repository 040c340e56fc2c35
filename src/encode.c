/* Byte encodings both programs share: hex digits and base64 (OpenSSL's). */
#include "config.h"

#include <limits.h>
#include <stddef.h>

#include <openssl/evp.h>

#include "encode.h"
#include "log.h"
#include "xmalloc.h"

int
encode_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

char *
encode_base64(const void *data, size_t len)
{
	unsigned char	*out;

	/* EVP_EncodeBlock counts in int; it writes 4 per 3 and a NUL. */
	if (len > (size_t)INT_MAX / 4 * 3)
		fatalx("encode_base64: %zu bytes is too long", len);
	out = xmalloc((len + 2) / 3 * 4 + 1);
	EVP_EncodeBlock(out, data, (int)len);
	return ((char *)out);
}
