/*
 * libFuzzer target: arbitrary bytes as a response body, with an HTTP
 * status taken from the first byte, through envelope parsing, the error
 * text and the retired rate-limit explanation.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Statuses worth reaching often; other byte values give 100..599. */
static const long fuzz_statuses[] = {
	200, 201, 204, 400, 401, 403, 404, 409, 410, 413, 429, 500, 502, 503
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct api_response	 r;
	const cJSON		*item;
	char			*text;
	long			 status;
	size_t			 i;

	if (size == 0)
		return (0);
	if (data[0] < nitems(fuzz_statuses))
		status = fuzz_statuses[data[0]];
	else
		status = 100 + (long)data[0] * 2;
	api_parse(status, (const char *)data + 1, size - 1, &r);
	if (!r.ok && r.nerrors == 0)
		abort();		/* every failure has a message */
	for (i = 0; i < r.nerrors; i++) {
		if (r.errors[i].message == NULL)
			abort();
	}
	(void)api_explain_gone(&r, "/zones/z/rate_limits/x");
	api_error_text(&r, &text);
	if (!r.ok && *text == '\0')
		abort();
	free(text);
	/* Walk what a list would: the records' ids. */
	if (cJSON_IsArray(r.result)) {
		cJSON_ArrayForEach(item, r.result)
			(void)cJSON_GetObjectItemCaseSensitive(item, "id");
	}
	api_response_free(&r);
	return (0);
}
