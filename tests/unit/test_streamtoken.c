/*
 * Unit tests for edgemu's token checks that need no server: access rules
 * (first match wins, IPv4 and IPv6 prefixes, an IPv4-mapped client, the
 * country), their validation, and a token cut out of a logged path.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "common.h"
#include "delivery.h"
#include "server.h"
#include "streamtoken.h"
#include "video.h"

static void
test_rules_allow(void **state)
{
	cJSON	*r;
	int	 which = -1;

	(void)state;
	r = cJSON_Parse("[{\"type\":\"ip.geoip.country\",\"action\":\"block\","
	    "\"country\":[\"DE\"]},{\"type\":\"ip.src\",\"action\":\"allow\","
	    "\"ip\":[\"192.0.2.0/24\",\"2001:db8::/32\",\"198.51.100.7\"]},"
	    "{\"type\":\"any\",\"action\":\"block\"}]");
	assert_non_null(r);
	assert_int_equal(streamtoken_rules_allow(r, "192.0.2.200", NULL,
	    &which), 1);
	assert_int_equal(which, 1);
	assert_int_equal(streamtoken_rules_allow(r, "192.0.3.1", NULL,
	    &which), 0);
	assert_int_equal(which, 2);
	assert_int_equal(streamtoken_rules_allow(r, "2001:db8:ffff::1", NULL,
	    &which), 1);
	assert_int_equal(streamtoken_rules_allow(r, "2001:db9::1", NULL,
	    &which), 0);
	/* A v4 client on a v6 socket is its v4 address. */
	assert_int_equal(streamtoken_rules_allow(r, "::ffff:198.51.100.7",
	    NULL, &which), 1);
	assert_int_equal(streamtoken_rules_allow(r, "198.51.100.8", NULL,
	    &which), 0);
	/* The first match wins: the country before the allowed range. */
	assert_int_equal(streamtoken_rules_allow(r, "192.0.2.1", "de",
	    &which), 0);
	assert_int_equal(which, 0);
	assert_int_equal(streamtoken_rules_allow(r, "192.0.2.1", "FR",
	    &which), 1);
	cJSON_Delete(r);
	/* No rule matches: allowed. */
	r = cJSON_Parse("[{\"type\":\"ip.src\",\"action\":\"block\",\"ip\":"
	    "[\"10.0.0.0/8\"]}]");
	assert_int_equal(streamtoken_rules_allow(r, "127.0.0.1", NULL,
	    &which), 1);
	assert_int_equal(streamtoken_rules_allow(r, "10.1.2.3", NULL, &which),
	    0);
	cJSON_Delete(r);
}

static void
test_rules_valid(void **state)
{
	static const char *const bad[][2] = {
		{ "{}", "must be an array" },
		{ "[1]", "type and an action" },
		{ "[{\"type\":\"any\",\"action\":\"deny\"}]", "allow or block" },
		{ "[{\"type\":\"ip\",\"action\":\"block\"}]", "is not any" },
		{ "[{\"type\":\"ip.src\",\"action\":\"block\"}]",
		  "non-empty array" },
		{ "[{\"type\":\"ip.src\",\"action\":\"block\",\"ip\":"
		  "[\"10.0.0.0/40\"]}]", "10.0.0.0/40" },
		{ "[{\"type\":\"ip.geoip.country\",\"action\":\"block\","
		  "\"country\":[\"DEU\"]}]", "two-letter" },
		{ "[{\"type\":\"any\",\"action\":\"allow\"},{\"type\":\"any\","
		  "\"action\":\"allow\"},{\"type\":\"any\",\"action\":\"allow\"},"
		  "{\"type\":\"any\",\"action\":\"allow\"},{\"type\":\"any\","
		  "\"action\":\"allow\"},{\"type\":\"any\",\"action\":"
		  "\"allow\"}]", "at most 5" },
	};
	cJSON	*r;
	char	*cause;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		r = cJSON_Parse(bad[i][0]);
		cause = NULL;
		assert_int_equal(streamtoken_rules_valid(r, &cause), -1);
		if (strstr(cause, bad[i][1]) == NULL)
			fail_msg("%s: '%s' lacks '%s'", bad[i][0], cause,
			    bad[i][1]);
		free(cause);
		cJSON_Delete(r);
	}
	r = cJSON_Parse("[{\"type\":\"ip.src\",\"action\":\"allow\",\"ip\":"
	    "[\"::1\",\"127.0.0.1/32\"]},{\"type\":\"any\",\"action\":"
	    "\"block\"}]");
	assert_int_equal(streamtoken_rules_valid(r, &cause), 0);
	cJSON_Delete(r);
}

static void
test_log_path(void **state)
{
	char	out[256];

	(void)state;
	delivery_log_path("/media/eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.sig"
	    "/manifest/video.m3u8", out, sizeof out);
	assert_string_equal(out, "/media/eyJhbGciOiJS.../manifest/video.m3u8");
	delivery_log_path("/media/0123456789abcdef0123456789abcdef/watch", out,
	    sizeof out);
	assert_string_equal(out, "/media/0123456789abcdef0123456789abcdef/"
	    "watch");
	delivery_log_path("/accounts/x/stream", out, sizeof out);
	assert_string_equal(out, "/accounts/x/stream");
}

extern const struct area delivery_area;
extern const struct area downloads_area;

/*
 * Every route whose {ref} may be a token logs through delivery_log_path,
 * and so does a path under the media root that no route takes.
 */
static void
test_log_hooks(void **state)
{
	const struct area *const	 areas[] = {
		&delivery_area, &downloads_area
	};
	const struct route		*table[32];
	size_t				 i, j, n = 0;

	(void)state;
	for (i = 0; i < nitems(areas); i++) {
		for (j = 0; j < areas[i]->nroutes; j++) {
			const struct route	*r = &areas[i]->routes[j];

			if (strstr(r->pattern, "{ref}") != NULL &&
			    r->log_path != delivery_log_path)
				fail_msg("%s logs a token whole", r->pattern);
			if ((r->flags & ROUTE_ROOT) && n < nitems(table))
				table[n++] = r;
		}
	}
	assert_true(n > 0 && n < nitems(table));
	assert_ptr_equal(route_log_hook(NULL, table, n, VIDEO_MEDIA_ROOT
	    "/eyJhbGciOiJSUzI1NiJ9.e30.sig/nothing"), delivery_log_path);
	assert_null(route_log_hook(NULL, table, n, "/mediax/y"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_allow),
		cmocka_unit_test(test_rules_valid),
		cmocka_unit_test(test_log_path),
		cmocka_unit_test(test_log_hooks),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
