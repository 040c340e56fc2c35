/*
 * libFuzzer target: uploaded user-schema sources (JSON or YAML) checked as
 * OpenAPI 3.x, then turned into operations.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "shield.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cJSON	*doc, *failure = NULL, *warnings, *ops;

	doc = shield_openapi_load((const char *)data, size, &failure);
	if (doc == NULL) {
		cJSON_Delete(failure);
		return (0);
	}
	warnings = cJSON_CreateArray();
	ops = shield_openapi_operations(doc, warnings);
	cJSON_Delete(ops);
	cJSON_Delete(warnings);
	cJSON_Delete(doc);
	return (0);
}
