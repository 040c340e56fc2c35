/*
 * libFuzzer target: multipart/form-data bodies. The first line of the input
 * is the Content-Type, the rest the body. The body is parsed whole and again
 * fed as the server feeds it, in pieces (their size from the input's last
 * byte): both must give the same parts or the same refusal.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "multipart.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static volatile size_t	fuzz_sink;

static struct multipart *
fuzz_in_pieces(const char *ct, const char *body, size_t len, size_t step,
    char **cause)
{
	struct multipart_stream	*s = multipart_stream_new(ct);
	size_t			 off, n;
	char			*piece;

	for (off = 0; off < len; off += n) {
		n = len - off < step ? len - off : step;
		/* A copy freed at once: parts must not point into a piece. */
		piece = malloc(n);
		memcpy(piece, body + off, n);
		multipart_stream_feed(s, piece, n);
		free(piece);
	}
	return (multipart_stream_end(s, cause));
}

static void
fuzz_compare(const struct multipart *a, const char *acause,
    const struct multipart *b, const char *bcause)
{
	size_t	i;

	if ((a == NULL) != (b == NULL))
		abort();
	if (a == NULL) {
		if (strcmp(acause, bcause) != 0)
			abort();
		return;
	}
	if (a->nparts != b->nparts)
		abort();
	for (i = 0; i < a->nparts; i++) {
		if (strcmp(a->parts[i].name, b->parts[i].name) != 0 ||
		    a->parts[i].len != b->parts[i].len ||
		    memcmp(a->parts[i].data, b->parts[i].data,
		    a->parts[i].len) != 0)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t		*nl = memchr(data, '\n', size);
	const char		*body;
	struct multipart	*mp, *pieces;
	char			*ct, *cause = NULL, *pcause = NULL, *text;
	size_t			 ctlen, blen, i, sum = 0;

	ctlen = nl != NULL ? (size_t)(nl - data) : size;
	ct = malloc(ctlen + 1);
	memcpy(ct, data, ctlen);
	ct[ctlen] = '\0';
	body = (const char *)data + ctlen + (nl != NULL);
	blen = size - ctlen - (nl != NULL);
	mp = multipart_parse(ct, body, blen, &cause);
	pieces = fuzz_in_pieces(ct, body, blen,
	    size != 0 ? (size_t)data[size - 1] % 17 + 1 : 1, &pcause);
	fuzz_compare(mp, cause, pieces, pcause);
	if (mp == NULL)
		free(cause);
	else {
		/* Touch every byte of every part: ASan checks the bounds. */
		for (i = 0; i < mp->nparts; i++) {
			const struct multipart_part *p = &mp->parts[i];
			size_t j;

			for (j = 0; j < p->len; j++)
				sum += (unsigned char)p->data[j];
		}
		if ((text = multipart_text(mp, "file")) != NULL)
			free(text);
		multipart_free(mp);
	}
	multipart_free(pieces);
	free(pcause);
	free(ct);
	fuzz_sink = sum;
	return (0);
}
