/*
 * Unit tests for the request log's PATH column (ui/pathshort.c): a path
 * that fits is whole; a longer one loses the digits of its ids, then its
 * middle, never its end, so what differs between two requests shows.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "text.h"
#include "pathshort.h"

#define ZONE	"7b4c2e9f1a3d4c8e9f0b6a5d3c2e1f40"
#define ACCT	"e1d9a0c6b3f24e7a9c5d8b2f4a6e0c31"
#define VIDEO	"9e0c67e0a2f4e37aa63d36321e7644b1"
#define EP	"/zones/" ZONE "/rulesets/phases/http_ratelimit/entrypoint"

static void
expect(const char *path, size_t width, const char *want)
{
	char	*got = pathshort(path, width);

	assert_string_equal(got, want);
	assert_true(text_width(got) <= width);
	free(got);
}

static void
test_fits(void **state)
{
	(void)state;
	expect(EP, 200, EP);
	expect(EP, strlen(EP), EP);
	expect("/user/tokens/verify", 19, "/user/tokens/verify");
}

static void
test_ids(void **state)
{
	(void)state;
	/* The request log at 80 columns leaves the path 39. */
	expect("/accounts/" ACCT "/stream/" VIDEO, 39,
	    "/accounts/e1d9…/stream/9e0c…");
	expect("/zones/" ZONE "/api_gateway/operations", 39,
	    "/zones/7b4c…/api_gateway/operations");
	/* A UUID is an id; a short hex word ("cafe") is not. */
	expect("/accounts/" ACCT "/stream/live_inputs/"
	    "88a9306c-7246-4c2e-8770-853234dfc849/outputs/cafe", 60,
	    "/accounts/e1d9…/stream/live_inputs/88a9…/outputs/cafe");
}

static void
test_middle(void **state)
{
	(void)state;
	/* The entry point: its tail, which tells it from the others. */
	expect(EP, 39, "…/phases/http_ratelimit/entrypoint");
	expect(EP, 45, "/zones/7b4c…/…/http_ratelimit/entrypoint");
	expect(EP, 47, "/zones/7b4c…/…/phases/http_ratelimit/entrypoint");
	expect(EP, 54, "/zones/7b4c…/rulesets/phases/http_ratelimit/entrypoint");
	expect("/zones/" ZONE "/schema_validation/settings/operations", 39,
	    "/zones/7b4c…/…/settings/operations");
	expect(EP, 20, "…/entrypoint");
	/* Not even the last segment: its last columns. */
	expect(EP, 8, "…rypoint");
	expect(EP, 1, "…");
	expect(EP, 0, "");
}

static void
test_query(void **state)
{
	char	*got;

	(void)state;
	/* The path first; the query gets what is left, cut at its end. */
	expect("/accounts/" ACCT "/stream?include_counts=true&limit=100", 39,
	    "/accounts/e1d9…/stream?include_counts=…");
	expect("/zones/" ZONE "/schema_validation/settings/operations"
	    "?per_page=50&page=1", 39,
	    "/zones/7b4c…/…/settings/operations?per…");
	/* No room for it: the path alone. */
	got = pathshort("/zones/" ZONE "/api_gateway/operations?page=1", 36);
	assert_string_equal(got, "/zones/7b4c…/api_gateway/operations");
	free(got);
}

static void
test_url(void **state)
{
	(void)state;
	/* An upload's URL: the scheme and host stay with the head. */
	expect("https://upload.example.com/tus/" VIDEO "?tusv2=true", 40,
	    "https://upload.example.com/tus/9e0c…?tu…");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_middle),
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_url),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
