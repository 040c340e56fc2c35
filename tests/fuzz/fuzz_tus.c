/*
 * libFuzzer target: what a tus client controls. Every input goes through
 * the Upload-Metadata parser and what its keys set, the size and version
 * header parsers, the chunk rules, and the MP4 box walk (as the bytes of
 * an upload).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "media.h"
#include "tus.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static volatile size_t	fuzz_sink;

static void
fuzz_metadata(const char *s)
{
	struct tus_meta		 m;
	struct tus_fields	 f;
	char			*cause = NULL;
	size_t			 i, sum = 0;

	if (tus_meta_parse(s, &m, &cause) != 0) {
		free(cause);
		return;
	}
	/* Touch every decoded byte: ASan checks the lengths. */
	for (i = 0; i < m.npairs; i++) {
		size_t j;

		for (j = 0; j <= m.pairs[i].len; j++)
			sum += (unsigned char)m.pairs[i].value[j];
		sum += strlen(m.pairs[i].key);
	}
	if (tus_meta_get(&m, "name") != NULL)
		sum++;
	/* A fixed clock: 2027-01-15. */
	if (tus_meta_fields(&m, (int64_t)1800000000 * 1000000, &f,
	    &cause) == 0)
		tus_fields_free(&f);
	else
		free(cause);
	tus_meta_free(&m);
	fuzz_sink = sum;
}

static void
fuzz_headers(const char *s)
{
	uint64_t	 a = 0, b = 0, c = 0;
	char		*cause = NULL, *copy, *p, *q;

	(void)tus_version_ok(s);
	if (tus_parse_size(s, &a) == 0)
		fuzz_sink = (size_t)a;
	/* Three numbers on three lines: offset, chunk, length. */
	copy = strdup(s);
	p = strchr(copy, '\n');
	if (p != NULL) {
		*p++ = '\0';
		q = strchr(p, '\n');
		if (q != NULL) {
			*q++ = '\0';
			if (tus_parse_size(copy, &a) == 0 &&
			    tus_parse_size(p, &b) == 0 &&
			    tus_parse_size(q, &c) == 0) {
				(void)tus_chunk_status(tus_chunk_check(a, b,
				    c, &cause));
				free(cause);
			}
		}
	}
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct media_info	 mi;
	char			*s, *cause = NULL, *out;
	size_t			 len;

	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	fuzz_metadata(s);
	fuzz_headers(s);
	if (tus_base64_decode(s, strlen(s), &out, &len) == 0)
		free(out);
	free(s);

	if (media_probe_buf(data, size, &mi, &cause) != MEDIA_OK)
		free(cause);
	else
		fuzz_sink = (size_t)mi.width + (size_t)mi.units;
	return (0);
}
