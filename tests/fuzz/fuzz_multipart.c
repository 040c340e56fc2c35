/*
 * libFuzzer target: multipart/form-data bodies. The first line of the input
 * is the Content-Type, the rest the body.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "multipart.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static volatile size_t	fuzz_sink;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t		*nl = memchr(data, '\n', size);
	struct multipart	*mp;
	char			*ct, *cause = NULL, *text;
	size_t			 ctlen, i, sum = 0;

	ctlen = nl != NULL ? (size_t)(nl - data) : size;
	ct = malloc(ctlen + 1);
	memcpy(ct, data, ctlen);
	ct[ctlen] = '\0';
	mp = multipart_parse(ct, (const char *)data + ctlen + (nl != NULL),
	    size - ctlen - (nl != NULL), &cause);
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
	free(ct);
	fuzz_sink = sum;
	return (0);
}
