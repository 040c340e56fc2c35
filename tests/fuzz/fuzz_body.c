/*
 * libFuzzer target: request bodies through JSON parsing and every body
 * validator edgemu has.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ratelimit.h"
#include "shield.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* An operation body ({method, host, endpoint}) through its checks. */
static void
shield_fuzz_operation(const cJSON *v)
{
	struct shield_op_key	 key;
	char			*cause = NULL;

	if (shield_op_key_parse(v, &key, &cause) != 0)
		free(cause);
	else
		shield_op_key_free(&key);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cJSON	*body, *norm;
	char	*cause = NULL;

	body = util_jparse((const char *)data, size, &cause);
	if (body == NULL) {
		free(cause);
		return (0);
	}
	if (shield_validate_config(body, &cause) != 0)
		free(cause);
	shield_fuzz_operation(body);
	if (cJSON_IsArray(body)) {
		const cJSON	*item;

		cJSON_ArrayForEach(item, body)
			shield_fuzz_operation(item);
	}
	if (ratelimit_validate(body, &cause) != 0)
		free(cause);
	else {
		norm = ratelimit_normalise(body, "0123456789abcdef0123456789abcdef");
		cJSON_Delete(norm);
	}
	cJSON_Delete(body);
	return (0);
}
