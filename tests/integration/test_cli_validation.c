/*
 * Integration tests: the current Schema Validation kinds of the one-shot
 * commands (validation-schemas, validation-settings, operation-validation
 * with set and clear) against edgemu's demo zone, each result checked on
 * the server; and the classic kind marked deprecated.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "clitest.h"
#include "itest.h"
#include "testdir.h"

static const char openapi_yaml[] =
	"openapi: 3.0.0\n"
	"info: {title: Cart, version: \"1\"}\n"
	"servers:\n"
	"  - url: https://cart.example.com\n"
	"paths:\n"
	"  /cart:\n"
	"    get: {}\n";

static char *
file_in(struct fixture *f, const char *name, const char *text)
{
	char	*path = itest_printf("%s/%s", f->home, name);

	spill(path, text, 0600);
	return (path);
}

static int
has(const char *s, const char *what)
{
	return (strstr(s, what) != NULL);
}

/* GET /zones/ZONE/rest through the API; the result (caller frees). */
static cJSON *
api_get(struct fixture *f, const char *rest)
{
	char	*path = itest_printf("/zones/%s/%s", f->emu.zone, rest);
	cJSON	*r = api_ok(&f->emu, "GET", path, NULL);

	free(path);
	return (r);
}

static int
schema_count(struct fixture *f)
{
	cJSON	*r = api_get(f, "schema_validation/schemas?omit_source=true");
	int	 n = cJSON_GetArraySize(r);

	cJSON_Delete(r);
	return (n);
}

/* The operation's own action as the classic API reads it, or NULL. */
static char *
op_action(struct fixture *f, const char *id)
{
	char	*rest, *a = NULL;
	cJSON	*r;

	rest = itest_printf("api_gateway/operations/%s/schema_validation", id);
	r = api_get(f, rest);
	if (cJSON_IsString(cJSON_GetObjectItem(r, "mitigation_action")))
		a = strdup(cJSON_GetObjectItem(r,
		    "mitigation_action")->valuestring);
	cJSON_Delete(r);
	free(rest);
	return (a);
}

static void
assert_action(struct fixture *f, const char *id, const char *want)
{
	char	*a = op_action(f, id);

	if (want == NULL)
		assert_null(a);
	else {
		assert_non_null(a);
		assert_string_equal(a, want);
	}
	free(a);
}

static void
test_validation_schemas(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*file, *bad, *off, *rest, *id;
	cJSON		*v;
	int		 before;

	file = file_in(f, "cart.yaml", openapi_yaml);
	before = schema_count(f);
	/* The route takes JSON only: a multipart body would be refused. */
	RUN(f, &r, "create", "validation-schemas", "-f", file, "--name",
	    "cart api", "--enable", "-o", "json");
	assert_int_equal(r.status, 0);
	v = cJSON_Parse(r.out);
	assert_non_null(v);
	id = strdup(cJSON_GetObjectItem(v, "schema_id")->valuestring);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v,
	    "validation_enabled")));
	assert_string_equal(cJSON_GetObjectItem(v, "source")->valuestring,
	    openapi_yaml);
	cJSON_Delete(v);
	run_free(&r);
	assert_int_equal(schema_count(f), before + 1);

	RUN(f, &r, "get", "validation-schemas");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, id));
	assert_true(has(r.out, "cart api"));
	assert_true(has(r.out, "VALIDATION"));
	run_free(&r);

	/* Off, which the classic API cannot do; read back via the classic. */
	off = file_in(f, "off.yaml", "validation_enabled: false\n");
	RUN(f, &r, "update", "validation-schemas", id, "-f", off);
	assert_int_equal(r.status, 0);
	run_free(&r);
	rest = itest_printf("api_gateway/user_schemas/%s", id);
	v = api_get(f, rest);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(v,
	    "validation_enabled")));
	cJSON_Delete(v);
	free(rest);

	/* Without --enable the flag is sent as false. */
	RUN(f, &r, "create", "validation-schemas", "-f", file, "--name",
	    "cart off", "-o", "json");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "\"validation_enabled\":\tfalse"));
	run_free(&r);
	assert_int_equal(schema_count(f), before + 2);

	RUN(f, &r, "delete", "validation-schemas", id);
	assert_int_equal(r.status, 0);
	run_free(&r);
	assert_int_equal(schema_count(f), before + 1);

	/* Refusals: the server's (1), and ours before sending (2). */
	bad = file_in(f, "bad.yaml", "openapi: 3.0.3\ninfo: {title: t, "
	    "version: \"1\"}\npaths: {pets: {get: {}}}\n");
	RUN(f, &r, "create", "validation-schemas", "-f", bad, "--name", "b");
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "not a valid OpenAPI 3 document"));
	run_free(&r);
	free(bad);
	/* OpenAPI 3.1 is not taken (the docs): said before sending. */
	bad = file_in(f, "v31.yaml", "openapi: 3.1.0\ninfo: {title: t, "
	    "version: \"1\"}\npaths: {/pets: {get: {}}}\n");
	RUN(f, &r, "create", "validation-schemas", "-f", bad, "--name", "b");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "openapi: 3.1.0 is not supported: Schema "
	    "Validation takes OpenAPI 3.0.x documents"));
	assert_true(has(r.err, "nothing was sent"));
	run_free(&r);
	RUN(f, &r, "create", "user-schemas", "-f", bad, "--name", "b");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "openapi: 3.1.0 is not supported"));
	run_free(&r);
	RUN(f, &r, "create", "validation-schemas", "-f", file);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "--name is required: name of the schema"));
	run_free(&r);
	free(bad);
	bad = file_in(f, "latin1.yaml",
	    "openapi: 3.0.0\ninfo: {title: \xe9}\n");
	RUN(f, &r, "create", "validation-schemas", "-f", bad, "--name", "b");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "not UTF-8 text"));
	run_free(&r);
	RUN(f, &r, "create", "validation-schemas", "-f", file, "--name", "b",
	    "--validation");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "--validation is not one of its fields"));
	run_free(&r);
	assert_int_equal(schema_count(f), before + 1);
	free(bad);
	free(off);
	free(file);
	free(id);
}

static void
test_validation_settings(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*put, *bad;
	cJSON		*v;

	put = file_in(f, "settings.yaml",
	    "validation_default_mitigation_action: block\n"
	    "validation_override_mitigation_action: none\n");
	RUN(f, &r, "update", "validation-settings", "-f", put);
	assert_int_equal(r.status, 0);
	run_free(&r);
	v = api_get(f, "api_gateway/settings/schema_validation");
	assert_string_equal(cJSON_GetObjectItem(v,
	    "validation_default_mitigation_action")->valuestring, "block");
	assert_string_equal(cJSON_GetObjectItem(v,
	    "validation_override_mitigation_action")->valuestring, "none");
	cJSON_Delete(v);
	RUN(f, &r, "get", "validation-settings");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "DEFAULT ACTION"));
	assert_true(has(r.out, "block"));
	run_free(&r);

	bad = file_in(f, "bad-settings.yaml",
	    "validation_default_mitigation_action: log\n"
	    "validation_override_mitigation_action: disable_override\n");
	RUN(f, &r, "update", "validation-settings", "-f", bad);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "validation_override_mitigation_action"));
	run_free(&r);
	v = api_get(f, "schema_validation/settings");
	assert_string_equal(cJSON_GetObjectItem(v,
	    "validation_default_mitigation_action")->valuestring, "block");
	cJSON_Delete(v);
	free(bad);
	free(put);
}

/* Runs of blanks made one (a table's padding depends on its values). */
static void
squeeze(char *s)
{
	char	*w = s, *start = s;

	for (; *s != '\0'; s++)
		if (*s != ' ' || w == start || w[-1] != ' ')
			*w++ = *s;
	*w = '\0';
}

static void
test_operation_validation(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	cJSON		*ops, *list;
	char		*a, *b, *text, *row, *line;

	ops = api_get(f, "api_gateway/operations?per_page=5");
	assert_true(cJSON_GetArraySize(ops) >= 2);
	a = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(ops, 0),
	    "operation_id")->valuestring);
	b = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(ops, 1),
	    "operation_id")->valuestring);
	/* How a's row names its operation: method, host, endpoint. */
	row = itest_printf(" block %s %s %s",
	    cJSON_GetObjectItem(cJSON_GetArrayItem(ops, 0),
	    "method")->valuestring,
	    cJSON_GetObjectItem(cJSON_GetArrayItem(ops, 0),
	    "host")->valuestring,
	    cJSON_GetObjectItem(cJSON_GetArrayItem(ops, 0),
	    "endpoint")->valuestring);
	cJSON_Delete(ops);

	RUN(f, &r, "set", "operation-validation", a, "--action", "block");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, a));
	assert_true(has(r.out, "block"));
	run_free(&r);
	assert_action(f, a, "block");
	/* The list shows whose action each is; JSON stays the server's. */
	RUN(f, &r, "get", "operation-validation");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "METHOD"));
	assert_true(has(r.out, "ENDPOINT"));
	line = strstr(r.out, a);
	assert_non_null(line);
	line = strndup(line, strcspn(line, "\n"));
	squeeze(line);
	if (!has(line, row))
		fail_msg("no '%s' in '%s'", row, line);
	free(line);
	run_free(&r);
	RUN(f, &r, "get", "operation-validation", "-o", "json");
	assert_int_equal(r.status, 0);
	assert_false(has(r.out, "endpoint"));
	run_free(&r);
	free(row);

	/* Two ids: one bulk call, both set. */
	RUN(f, &r, "set", "operation-validation", a, b, "--action", "log");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, b));
	run_free(&r);
	assert_action(f, a, "log");
	assert_action(f, b, "log");

	RUN(f, &r, "get", "operation-validation");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, a));
	assert_true(has(r.out, b));
	run_free(&r);

	RUN(f, &r, "clear", "operation-validation", a, b);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "default"));
	run_free(&r);
	assert_action(f, a, NULL);
	assert_action(f, b, NULL);
	list = api_get(f, "schema_validation/settings/operations?per_page=50");
	text = cJSON_PrintUnformatted(list);
	assert_false(has(text, a));
	free(text);
	cJSON_Delete(list);

	RUN(f, &r, "set", "operation-validation", b, "--action", "none");
	assert_int_equal(r.status, 0);
	run_free(&r);
	RUN(f, &r, "clear", "operation-validation", b);
	assert_int_equal(r.status, 0);
	run_free(&r);
	assert_action(f, b, NULL);
	RUN(f, &r, "get", "operation-validation", b);
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "default"));
	run_free(&r);

	/* Refused before anything is sent. */
	RUN(f, &r, "set", "operation-validation", a, "--action", "warn");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "'warn' is not one of none, log, block"));
	run_free(&r);
	RUN(f, &r, "set", "operation-validation", a);
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "needs --action"));
	run_free(&r);
	RUN(f, &r, "set", "operation-validation", "pets", "--action", "log");
	assert_int_equal(r.status, 2);
	run_free(&r);
	RUN(f, &r, "set", "videos", a, "--action", "log");
	assert_int_equal(r.status, 2);
	assert_true(has(r.err, "set is not one of its verbs"));
	run_free(&r);
	assert_action(f, a, NULL);
	/* The server's refusal: an operation that is not there. */
	RUN(f, &r, "set", "operation-validation", a,
	    "00000000-0000-4000-8000-000000000000", "--action", "block");
	assert_int_equal(r.status, 1);
	run_free(&r);
	assert_action(f, a, NULL);
	free(a);
	free(b);
}

static void
test_classic_deprecated(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	const char	*line;
	char		*copy;

	RUN(f, &r, "kinds");
	assert_int_equal(r.status, 0);
	line = strstr(r.out, "\nuser-schemas ");
	assert_non_null(line);
	copy = strndup(line + 1, strcspn(line + 1, "\n"));
	assert_true(has(copy, "(deprecated: use validation-schemas)"));
	free(copy);
	assert_true(has(r.out, "validation-schemas "));
	assert_true(has(r.out, "operation-validation "));
	run_free(&r);
	RUN(f, &r, "kinds", "-o", "json");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "\"deprecated\":\t\"validation-schemas\""));
	assert_true(has(r.out, "Deprecated (classic API): use "
	    "validation-schemas"));
	run_free(&r);
}

/* edgemu with only the classic API, as an older server. */
static int
classic_setup(void **state)
{
	struct fixture	*f = calloc(1, sizeof *f);

	assert_non_null(f);
	edgemu_start(&f->emu, NULL, 1, "--no-schema-validation-api", NULL);
	assert_non_null(f->home = testdir_new("cli"));
	*state = f;
	return (0);
}

/* The first operation id of the demo zone (caller frees). */
static char *
first_operation(struct fixture *f)
{
	cJSON	*r = api_get(f, "api_gateway/operations?per_page=5");
	char	*id;

	id = strdup(cJSON_GetObjectItem(cJSON_GetArrayItem(r, 0),
	    "operation_id")->valuestring);
	cJSON_Delete(r);
	return (id);
}

/*
 * A server without /schema_validation: as the console does, get lists the
 * schemas by the classic API and set and clear use its bulk call; what
 * has no fallback names the classic kind, not just "No route".
 */
static void
test_classic_fallback(void **state)
{
	struct fixture	*f = *state;
	struct run	 r;
	char		*op = first_operation(f);

	RUN(f, &r, "get", "validation-schemas");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "Shop storefront"));
	assert_true(has(r.err, "user-schemas"));
	run_free(&r);
	RUN(f, &r, "set", "opval", op, "--action", "log");
	assert_int_equal(r.status, 0);
	assert_true(has(r.out, "log"));
	assert_true(has(r.err, "classic API"));
	run_free(&r);
	assert_action(f, op, "log");
	RUN(f, &r, "clear", "opval", op);
	assert_int_equal(r.status, 0);
	run_free(&r);
	assert_action(f, op, NULL);
	/* No fallback for these: the message says where to go. */
	RUN(f, &r, "get", "validation-settings");
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "No route"));
	assert_true(has(r.err, "use user-schemas"));
	run_free(&r);
	RUN(f, &r, "get", "opval");
	assert_int_equal(r.status, 1);
	assert_true(has(r.err, "use user-schemas"));
	run_free(&r);
	free(op);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_validation_schemas,
		    cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_validation_settings,
		    cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_operation_validation,
		    cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_classic_deprecated,
		    cli_setup, cli_teardown),
		cmocka_unit_test_setup_teardown(test_classic_fallback,
		    classic_setup, cli_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
