/*
 * libFuzzer target: watermark uploads. The image sniffer reads headers of
 * untrusted files; the number parser reads multipart text fields.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assets.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct watermark_image	 img;
	char			*cause = NULL, *text;
	double			 v;

	if (watermark_probe(data, size, &img, &cause) != 0)
		free(cause);
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	if (watermark_number("opacity", text, 1.0, &v, &cause) != 0)
		free(cause);
	free(text);
	return (0);
}
