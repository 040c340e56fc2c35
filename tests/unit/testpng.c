/* Tiny PNG images built in memory, for the image sniffing and upload tests. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "testpng.h"

static uint32_t
testpng_crc32(const unsigned char *p, size_t n)
{
	uint32_t	c = 0xffffffffU;
	size_t		i;
	int		k;

	for (i = 0; i < n; i++) {
		c ^= p[i];
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0xedb88320U : c >> 1;
	}
	return (~c);
}

static void
testpng_put_be32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

size_t
testpng_make(unsigned char *p, uint32_t w, uint32_t h)
{
	static const unsigned char sig[8] = {
		0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'
	};
	static const unsigned char tail[] = {
		0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xaf, 0x06, 0x1e,
		0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82
	};

	memcpy(p, sig, 8);
	testpng_put_be32(p + 8, 13);
	memcpy(p + 12, "IHDR", 4);
	testpng_put_be32(p + 16, w);
	testpng_put_be32(p + 20, h);
	p[24] = 8;
	p[25] = 6;
	p[26] = p[27] = p[28] = 0;
	testpng_put_be32(p + 29, testpng_crc32(p + 12, 17));
	memcpy(p + 33, tail, sizeof tail);
	return (33 + sizeof tail);
}
