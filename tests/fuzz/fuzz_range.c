/* libFuzzer target: HTTP Range headers against files of any size. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "video.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t	 len = 0, first, last;
	char		*text;

	/* The first 8 bytes choose the file size, the rest is the header. */
	if (size >= 8) {
		memcpy(&len, data, 8);
		data += 8;
		size -= 8;
	}
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	if (video_range(text, len, &first, &last) == VIDEO_RANGE_OK &&
	    (first > last || last >= len))
		abort();
	free(text);
	return (0);
}
