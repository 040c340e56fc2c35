/* Small helpers over cJSON values that both programs share. */
#include "config.h"

#include <cjson/cJSON.h>

#include "jsonutil.h"

const char *
jsonutil_type_name(const cJSON *v)
{
	if (cJSON_IsString(v))
		return ("a string");
	if (cJSON_IsNumber(v))
		return ("a number");
	if (cJSON_IsBool(v))
		return ("a boolean");
	if (cJSON_IsArray(v))
		return ("an array");
	if (cJSON_IsObject(v))
		return ("an object");
	return ("null");
}
