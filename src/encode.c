/* Byte encodings both programs share: hex digits and base64 (OpenSSL's). */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>

#include <openssl/evp.h>

#include "compat.h"
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

static int
encode_is_base64(int c)
{
	return ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '+' || c == '/');
}

char *
encode_base64_decode(const char *s, size_t n, size_t *lenp)
{
	unsigned char	*out;
	size_t		 pad = 0, i;
	int		 got;

	if (n % 4 != 0 || n > INT_MAX)
		return (NULL);
	if (n > 0 && s[n - 1] == '=')
		pad = n > 1 && s[n - 2] == '=' ? 2 : 1;
	/*
	 * EVP_DecodeBlock skips blanks around the text and takes '=' inside
	 * it: only the alphabet, with the padding at the end, gets there.
	 */
	for (i = 0; i < n - pad; i++) {
		if (!encode_is_base64((unsigned char)s[i]))
			return (NULL);
	}
	out = xmalloc(n / 4 * 3 + 1);
	got = EVP_DecodeBlock(out, (const unsigned char *)s, (int)n);
	/* It counts the padding as zero bytes. */
	if (got < 0 || (size_t)got < pad) {
		free(out);
		return (NULL);
	}
	got -= (int)pad;
	out[got] = '\0';
	if (lenp != NULL)
		*lenp = (size_t)got;
	return ((char *)out);
}

char *
encode_base64_decode_text(const char *text, size_t len, size_t *lenp)
{
	char	*clean, *out;
	size_t	 n = 0, i;

	clean = xmalloc(len + 1);
	for (i = 0; i < len; i++) {
		if (!isspace((unsigned char)text[i]))
			clean[n++] = text[i];
	}
	out = n > 0 ? encode_base64_decode(clean, n, lenp) : NULL;
	explicit_bzero(clean, n);
	free(clean);
	return (out);
}
