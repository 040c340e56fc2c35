/*
 * Unit tests for apirules.c's OpenAPI version: what Schema Validation
 * takes (3.0.x), said the same way by edgemu and the client.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "apirules.h"

/* The version's verdict on a JSON document; msg holds why. */
static int
version(const char *json, const char **member, char *msg, size_t len)
{
	cJSON	*doc = cJSON_Parse(json);
	int	 rv;

	assert_non_null(doc);
	msg[0] = '\0';
	rv = apirules_openapi_version(doc, member, msg, len);
	cJSON_Delete(doc);
	return (rv);
}

static void
test_openapi_version(void **state)
{
	const char	*member;
	char		 msg[256];

	(void)state;
	assert_int_equal(version("{\"openapi\":\"3.0.0\"}", &member, msg,
	    sizeof msg), 0);
	assert_int_equal(version("{\"openapi\":\"3.0.3\"}", &member, msg,
	    sizeof msg), 0);
	assert_int_equal(version("{\"openapi\":\"3.1.0\"}", &member, msg,
	    sizeof msg), -1);
	assert_string_equal(member, ".openapi");
	assert_string_equal(msg, "openapi: 3.1.0 is not supported: Schema "
	    "Validation takes OpenAPI 3.0.x documents (3.1 is not supported "
	    "yet)");
	assert_int_equal(version("{\"openapi\":\"3.1\"}", &member, msg,
	    sizeof msg), -1);
	assert_non_null(strstr(msg, "3.1 is not supported yet"));
	assert_int_equal(version("{\"openapi\":\"3.10.0\"}", &member, msg,
	    sizeof msg), -1);
	assert_non_null(strstr(msg, "'3.10.0' is not a supported version"));
	assert_int_equal(version("{\"openapi\":\"3.0\"}", &member, msg,
	    sizeof msg), -1);
	assert_int_equal(version("{\"openapi\":\"4.0.0\"}", &member, msg,
	    sizeof msg), -1);
	assert_int_equal(version("{\"openapi\":3.0}", &member, msg,
	    sizeof msg), -1);
	assert_non_null(strstr(msg, "must be a string"));
	assert_int_equal(version("{\"info\":{}}", &member, msg, sizeof msg),
	    -1);
	assert_non_null(strstr(msg, "openapi: required"));
	assert_int_equal(version("{\"swagger\":\"2.0\"}", &member, msg,
	    sizeof msg), -1);
	assert_string_equal(member, ".swagger");
	assert_non_null(strstr(msg, "(OpenAPI 2) documents are not "
	    "supported"));
}

static void
test_openapi_text(void **state)
{
	static const char yaml31[] = "openapi: 3.1.0\ninfo:\n  title: t\n";
	static const char yaml30[] = "openapi: 3.0.3\ninfo:\n  title: t\n";
	static const char json31[] = "{\"openapi\":\"3.1.1\"}";
	char	*cause = NULL;

	(void)state;
	assert_int_equal(apirules_openapi_text(yaml30, strlen(yaml30),
	    &cause), 0);
	assert_null(cause);
	assert_int_equal(apirules_openapi_text(yaml31, strlen(yaml31),
	    &cause), -1);
	assert_non_null(strstr(cause, "3.1.0 is not supported"));
	free(cause);
	cause = NULL;
	assert_int_equal(apirules_openapi_text(json31, strlen(json31),
	    &cause), -1);
	free(cause);
	cause = NULL;
	/* Neither JSON nor YAML: the server says what it makes of it. */
	assert_int_equal(apirules_openapi_text("{not: [json", 11, &cause), 0);
	assert_null(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_openapi_version),
		cmocka_unit_test(test_openapi_text),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
