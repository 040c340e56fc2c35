/*
 * Unit tests for edit.c: the update body by method, the field diff, the
 * error comment, the temporary file, the check of a saved text, the
 * reopen loop, and the editor run without a shell by small scripts.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "buf.h"
#include "common.h"
#include "edit.h"
#include "kind.h"
#include "testdir.h"
#include "yamljson.h"
#include "validate.h"
#include "xmalloc.h"

static const struct kind_field test_fields[] = {
	{ .path = "name", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY },
	{ .path = "period", .type = KIND_TYPE_INT, KIND_RANGE(10, 86400) },
	{ .path = "meta", .type = KIND_TYPE_MAP },
	{ .path = NULL }
};

static const struct kind kind_put = {
	.name = "things",
	.id_field = "id",
	.verbs = KIND_VERB_GET | KIND_VERB_UPDATE,
	.update_method = KIND_METHOD_PUT,
	.fields = test_fields,
};

static const struct kind kind_put_nested = {
	.name = "nested",
	.id_field = "result.id",
	.verbs = KIND_VERB_GET | KIND_VERB_UPDATE,
	.update_method = KIND_METHOD_PUT,
	.fields = test_fields,
};

static const struct kind kind_patch = {
	.name = "patched",
	.id_field = "id",
	.verbs = KIND_VERB_GET | KIND_VERB_UPDATE,
	.update_method = KIND_METHOD_PATCH,
	.fields = test_fields,
};

static const struct kind kind_post = {
	.name = "posted",
	.id_field = "uid",
	.verbs = KIND_VERB_GET | KIND_VERB_UPDATE,
	.update_method = KIND_METHOD_POST,
	.fields = test_fields,
};

static const char record_yaml[] = "id: abc\nname: first\nperiod: 60\n";

/* ---- helpers ------------------------------------------------------------ */

static cJSON *
parse(const char *json)
{
	cJSON	*j = cJSON_Parse(json);

	if (j == NULL)
		fail_msg("bad test JSON: %s", json);
	return (j);
}

/* The body as compact JSON, for comparing. */
static char *
print(const cJSON *v)
{
	char	*s = cJSON_PrintUnformatted(v), *copy;

	assert_non_null(s);
	copy = xstrdup(s);
	cJSON_free(s);
	return (copy);
}

static void
assert_body(const struct kind *k, const char *before, const char *edited,
    const char *id, const char *want)
{
	cJSON	*b = before != NULL ? parse(before) : NULL;
	cJSON	*e = parse(edited), *body;
	char	*got;

	body = edit_update_body(k, b, e, id);
	got = print(body);
	assert_string_equal(got, want);
	/* The edited record itself is left alone. */
	free(got);
	got = print(e);
	assert_string_equal(got, edited);
	free(got);
	cJSON_Delete(body);
	cJSON_Delete(e);
	cJSON_Delete(b);
}

static void
assert_diff(const char *before, const char *after, size_t want_n,
    const char *want)
{
	struct buf	 out = BUF_INITIALIZER;
	cJSON		*a = parse(before), *b = parse(after);

	assert_int_equal(edit_diff(&out, a, b), want_n);
	assert_string_equal(buf_str(&out), want);
	buf_free(&out);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static void
spill(const char *path, const char *text, mode_t mode)
{
	FILE	*f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static char *
slurp(const char *path)
{
	char	*text, *cause = NULL;

	text = edit_read_file(path, NULL, &cause);
	if (text == NULL)
		fail_msg("%s", cause);
	return (text);
}

/* Each test gets its own $TMPDIR, removed after. */
static int
tmp_setup(void **state)
{
	char	*dir = testdir_new("edit");

	if (dir == NULL)
		fail_msg("cannot make a directory: %s", strerror(errno));
	setenv("TMPDIR", dir, 1);
	unsetenv("EDITOR");
	unsetenv("VISUAL");
	*state = dir;
	return (0);
}

static int
tmp_teardown(void **state)
{
	char	*dir = *state;
	int	 rv;

	rv = testdir_remove(dir);
	free(dir);
	unsetenv("TMPDIR");
	return (rv);
}

/* ---- the update body ---------------------------------------------------- */

static void
test_body_put(void **state)
{
	(void)state;
	/* The id goes into the body when it is missing... */
	assert_body(&kind_put, NULL, "{\"name\":\"a\"}", "abc",
	    "{\"name\":\"a\",\"id\":\"abc\"}");
	/* ...and the user's own is kept. */
	assert_body(&kind_put, NULL, "{\"id\":\"mine\",\"name\":\"a\"}", "abc",
	    "{\"id\":\"mine\",\"name\":\"a\"}");
	/* A PUT sends every field, changed or not. */
	assert_body(&kind_put, "{\"id\":\"abc\",\"name\":\"a\",\"period\":10}",
	    "{\"id\":\"abc\",\"name\":\"b\",\"period\":10}", "abc",
	    "{\"id\":\"abc\",\"name\":\"b\",\"period\":10}");
	/* No id (a one-object kind), or an id deeper than the top: none. */
	assert_body(&kind_put, NULL, "{\"name\":\"a\"}", NULL,
	    "{\"name\":\"a\"}");
	assert_body(&kind_put_nested, NULL, "{\"name\":\"a\"}", "abc",
	    "{\"name\":\"a\"}");
	/* Not an object: sent as it is. */
	assert_body(&kind_put, NULL, "[1,2]", "abc", "[1,2]");
}

static void
test_body_patch(void **state)
{
	(void)state;
	/* Only what changed; a nested object that changed goes whole. */
	assert_body(&kind_patch,
	    "{\"id\":\"x\",\"name\":\"a\",\"period\":10,\"meta\":{\"k\":1,"
	    "\"l\":2}}",
	    "{\"id\":\"x\",\"name\":\"a\",\"period\":20,\"meta\":{\"k\":1,"
	    "\"l\":3}}", "x",
	    "{\"period\":20,\"meta\":{\"k\":1,\"l\":3}}");
	/* A new member is sent; the id is never added. */
	assert_body(&kind_patch, "{\"name\":\"a\"}",
	    "{\"name\":\"a\",\"period\":30}", "x", "{\"period\":30}");
	/* Nothing changed: an empty body. */
	assert_body(&kind_patch, "{\"name\":\"a\"}", "{\"name\":\"a\"}", "x",
	    "{}");
	/* Without the server's copy, everything. */
	assert_body(&kind_patch, NULL, "{\"name\":\"a\",\"period\":30}", "x",
	    "{\"name\":\"a\",\"period\":30}");
}

static void
test_body_post(void **state)
{
	(void)state;
	/* Only what changed: the server's -1 is not sent back to it. */
	assert_body(&kind_post,
	    "{\"uid\":\"u\",\"name\":\"a\",\"max\":-1}",
	    "{\"uid\":\"u\",\"name\":\"b\",\"period\":10,\"max\":-1}",
	    "u", "{\"name\":\"b\",\"period\":10}");
	assert_body(&kind_post, "{\"uid\":\"u\",\"name\":\"a\"}",
	    "{\"name\":\"b\"}", NULL, "{\"name\":\"b\"}");
}

/* ---- the diff ----------------------------------------------------------- */

static void
test_diff_nested(void **state)
{
	(void)state;
	assert_diff("{\"a\":1,\"b\":{\"c\":\"x\",\"d\":{\"e\":true}}}",
	    "{\"a\":1,\"b\":{\"c\":\"y\",\"d\":{\"e\":false}}}", 2,
	    "  b.c: \"x\" \xe2\x86\x92 \"y\"\n"
	    "  b.d.e: true \xe2\x86\x92 false\n");
	assert_diff("{\"a\":1,\"b\":{\"c\":2}}", "{\"a\":1,\"b\":{\"c\":2}}", 0,
	    "");
}

static void
test_diff_arrays(void **state)
{
	(void)state;
	/* Item by item; the longer side shows as absent on the other. */
	assert_diff("{\"l\":[1,2,3]}", "{\"l\":[1,5]}", 2,
	    "  l[1]: 2 \xe2\x86\x92 5\n"
	    "  l[2]: 3 \xe2\x86\x92 (absent)\n");
	assert_diff("{\"l\":[{\"n\":\"a\"}]}",
	    "{\"l\":[{\"n\":\"b\"},{\"n\":\"c\"}]}", 2,
	    "  l[0].n: \"a\" \xe2\x86\x92 \"b\"\n"
	    "  l[1]: (absent) \xe2\x86\x92 {\"n\":\"c\"}\n");
}

static void
test_diff_added_removed(void **state)
{
	(void)state;
	/* Removed members first (in the old order), then added ones. */
	assert_diff("{\"a\":1,\"gone\":{\"x\":1},\"b\":2}",
	    "{\"new\":[1],\"b\":2,\"a\":1}", 2,
	    "  gone: {\"x\":1} \xe2\x86\x92 (absent)\n"
	    "  new: (absent) \xe2\x86\x92 [1]\n");
	/* A member that changes type is one leaf. */
	assert_diff("{\"a\":{\"b\":1}}", "{\"a\":null}", 1,
	    "  a: {\"b\":1} \xe2\x86\x92 null\n");
	/* Two scalars: the record itself. */
	assert_diff("1", "2", 1, "  (record): 1 \xe2\x86\x92 2\n");
}

/* ---- the text ----------------------------------------------------------- */

static void
test_with_comment(void **state)
{
	char	*once, *twice;

	(void)state;
	once = edit_with_comment(record_yaml,
	    "period: 5 is out of range\nname: must not be empty");
	assert_string_equal(once,
	    "# edgetui: the change was not applied:\n"
	    "#   period: 5 is out of range\n"
	    "#   name: must not be empty\n"
	    "# Fix it and save, or empty the file to cancel.\n"
	    "#\n"
	    "id: abc\nname: first\nperiod: 60\n");
	/* The next round replaces the block instead of stacking another. */
	twice = edit_with_comment(once, "YAML: line 1, column 3: oops");
	assert_string_equal(twice,
	    "# edgetui: the change was not applied:\n"
	    "#   YAML: line 1, column 3: oops\n"
	    "# Fix it and save, or empty the file to cancel.\n"
	    "#\n"
	    "id: abc\nname: first\nperiod: 60\n");
	free(twice);
	free(once);
}

/* The YAML error of text, or NULL when it parses. */
static char *
yaml_error(const char *text)
{
	cJSON	*v;
	char	*why = NULL;

	if ((v = yamljson_parse(text, strlen(text), &why)) != NULL) {
		cJSON_Delete(v);
		return (NULL);
	}
	return (why);
}

/*
 * The line numbers of a YAML error, once its comment is on top of the
 * text, are those of the file as reopened: saved again as it is, the same
 * error comes with the same numbers, round after round.
 */
static void
test_comment_lines_as_shown(void **state)
{
	static const char broken[] =
	    "meta:\n"
	    "  name: talk\n"
	    "allowedOrigins: [a.example,\n"
	    "  b.example\n"
	    "requireSignedURLs: true\n";
	char	*why, *marked, *again, *why2, *marked2, *cited;
	int	 round;

	(void)state;
	assert_non_null(why = yaml_error(broken));
	marked = edit_with_comment(broken, why);
	for (round = 0; round < 2; round++) {
		/* Saved as reopened: the parser says what the comment says. */
		assert_non_null(why2 = yaml_error(marked));
		cited = strstr(marked, "#   ");
		assert_non_null(cited);
		cited += 4;
		if (strncmp(cited, why2, strlen(why2)) != 0)
			fail_msg("the comment says '%.*s', the file's lines "
			    "'%s'", (int)strcspn(cited, "\n"), cited, why2);
		again = edit_with_comment(marked, why2);
		marked2 = again;
		free(why2);
		free(marked);
		marked = marked2;
	}
	/* The original numbers moved by the 4 lines of the block. */
	assert_non_null(strstr(why, "line 3"));
	assert_null(strstr(marked, "line 3,"));
	free(marked);
	free(why);
}

/* A reason that says "not applied" is the header's sentence, once. */
static void
test_comment_one_sentence(void **state)
{
	char	*marked;

	(void)state;
	marked = edit_with_comment(record_yaml,
	    "Not applied: nothing was sent.");
	assert_string_equal(marked,
	    "# edgetui: the change was not applied: nothing was sent.\n"
	    "# Fix it and save, or empty the file to cancel.\n"
	    "#\n"
	    "id: abc\nname: first\nperiod: 60\n");
	free(marked);
}

static void
test_blank(void **state)
{
	(void)state;
	assert_true(edit_blank(""));
	assert_true(edit_blank("  \n\t\r\n"));
	assert_true(edit_blank("# a comment\n  # another\n\n#"));
	assert_false(edit_blank("# a comment\nname: x\n"));
	assert_false(edit_blank("  x"));
}

static void
test_temp_file(void **state)
{
	const char	*dir = *state;
	struct stat	 sb;
	char		*path, *cause = NULL, *text, *base;

	path = edit_temp_file(&kind_put, record_yaml, &cause);
	assert_non_null(path);
	assert_null(cause);
	/* In $TMPDIR, named after the kind, ending in .yaml. */
	assert_int_equal(strncmp(path, dir, strlen(dir)), 0);
	base = strrchr(path, '/') + 1;
	assert_int_equal(strncmp(base, "edgetui-things-", 15), 0);
	assert_int_equal(strlen(base), strlen("edgetui-things-XXXXXX.yaml"));
	assert_string_equal(base + strlen(base) - 5, ".yaml");
	assert_int_equal(stat(path, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	assert_int_equal(sb.st_mode & 07777, 0600);
	text = slurp(path);
	assert_string_equal(text, record_yaml);
	free(text);
	assert_int_equal(unlink(path), 0);
	free(path);

	/* A $TMPDIR that does not exist: the path and why. */
	setenv("TMPDIR", "/nonexistent/edit-test", 1);
	assert_null(edit_temp_file(&kind_put, record_yaml, &cause));
	assert_non_null(strstr(cause, "/nonexistent/edit-test/edgetui-"));
	assert_non_null(strstr(cause, strerror(ENOENT)));
	free(cause);
}

static void
test_read_write_file(void **state)
{
	const char	*dir = *state;
	char		*path, *cause = NULL, *text;
	size_t		 len;

	path = xprintf("%s/f.yaml", dir);
	assert_null(edit_read_file(path, &len, &cause));
	assert_non_null(strstr(cause, path));
	free(cause);
	cause = NULL;
	assert_int_equal(edit_write_file(path, "a: 1\n", &cause), 0);
	assert_int_equal(edit_write_file(path, "b", &cause), 0);
	text = edit_read_file(path, &len, &cause);
	assert_string_equal(text, "b");
	assert_int_equal(len, 1);
	free(text);
	free(path);
}

/* ---- checking a saved text ---------------------------------------------- */

static enum edit_status
check(const char *text, const cJSON *orig, cJSON **rec, char **cause)
{
	*cause = NULL;
	return (edit_check(&kind_put, text, strlen(text), orig,
	    VALIDATE_UPDATE, rec, cause));
}

static void
test_check(void **state)
{
	cJSON	*orig = parse("{\"id\":\"abc\",\"name\":\"first\","
		    "\"period\":60}"), *rec;
	char	*cause, *got;

	(void)state;
	assert_int_equal(check("# only comments\n\n", orig, &rec, &cause),
	    EDIT_EMPTY);
	assert_null(rec);
	assert_int_equal(check(record_yaml, orig, &rec, &cause),
	    EDIT_UNCHANGED);
	assert_null(rec);

	assert_int_equal(check("id: abc\nname: second\nperiod: 60\n", orig,
	    &rec, &cause), EDIT_CHANGED);
	assert_null(cause);
	got = print(rec);
	assert_string_equal(got,
	    "{\"id\":\"abc\",\"name\":\"second\",\"period\":60}");
	free(got);
	cJSON_Delete(rec);

	/* Not YAML: where, and why. */
	assert_int_equal(check("id: abc\nname: [oops\n", orig, &rec, &cause),
	    EDIT_INVALID);
	assert_null(rec);
	assert_int_equal(strncmp(cause, "YAML: line ", 11), 0);
	free(cause);

	/* Every problem, one line each, field first. */
	assert_int_equal(check("id: abc\nname: ''\nperiod: 5\n", orig, &rec,
	    &cause), EDIT_INVALID);
	assert_null(rec);
	assert_string_equal(cause, "name: must not be empty\n"
	    "period: 5 is out of range (10 to 86400)");
	free(cause);
	cJSON_Delete(orig);
}

/*
 * A record the server sent breaks a local rule (period 5): saved as it
 * was it is unchanged, and an edit elsewhere is not refused for the
 * value the user left alone; changing that value checks it.
 */
static void
test_check_server_values(void **state)
{
	cJSON	*orig = parse("{\"id\":\"abc\",\"name\":\"first\","
		    "\"period\":5}"), *rec;
	char	*cause, *got;

	(void)state;
	assert_int_equal(check("id: abc\nname: first\nperiod: 5\n", orig,
	    &rec, &cause), EDIT_UNCHANGED);
	assert_null(rec);
	assert_int_equal(check("id: abc\nname: second\nperiod: 5\n", orig,
	    &rec, &cause), EDIT_CHANGED);
	got = print(rec);
	assert_string_equal(got,
	    "{\"id\":\"abc\",\"name\":\"second\",\"period\":5}");
	free(got);
	cJSON_Delete(rec);
	assert_int_equal(check("id: abc\nname: first\nperiod: 7\n", orig,
	    &rec, &cause), EDIT_INVALID);
	assert_string_equal(cause, "period: 7 is out of range (10 to 86400)");
	free(cause);
	cJSON_Delete(orig);
}

/* ---- base64 and paths --------------------------------------------------- */

static void
test_base64(void **state)
{
	char	*got, *cause = NULL;
	size_t	 len;

	(void)state;
	/* "-----BEGIN KEY-----\n", as the API sends a PEM. */
	got = edit_base64_decode("LS0tLS1CRUdJTiBLRVktLS0tLQo=", &len, &cause);
	assert_string_equal(got, "-----BEGIN KEY-----\n");
	assert_int_equal(len, 20);
	free(got);
	got = edit_base64_decode("YWI=\nY2Q=", &len, &cause);
	assert_null(got);
	free(cause);
	got = edit_base64_decode(" YWJj\r\nZGVm\n", &len, &cause);
	assert_string_equal(got, "abcdef");
	assert_int_equal(len, 6);
	free(got);
	got = edit_base64_decode("YWJjZA==", NULL, &cause);
	assert_string_equal(got, "abcd");
	free(got);
	assert_null(edit_base64_decode("YWJ", &len, &cause));
	assert_non_null(strstr(cause, "not base64"));
	free(cause);
	assert_null(edit_base64_decode("!!!!", &len, &cause));
	free(cause);
	assert_null(edit_base64_decode("", &len, &cause));
	free(cause);
}

static void
test_path_expand(void **state)
{
	static const struct {
		const char	*home;
		const char	*typed;
		const char	*want;
	} cases[] = {
		{ "/home/ann", "~/a.pem", "/home/ann/a.pem" },
		{ "/home/ann", "~", "/home/ann" },
		{ "/home/ann", "~/", "/home/ann/" },
		{ "/", "~/a.pem", "/a.pem" },
		{ "/home/ann", "~bob/a", "~bob/a" },
		{ "/home/ann", "a/~/b", "a/~/b" },
		{ "/home/ann", "/tmp/x", "/tmp/x" },
		{ "/home/ann", "", "" }
	};
	char	*got, *saved = getenv("HOME") != NULL ?
		    xstrdup(getenv("HOME")) : NULL;
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(cases); i++) {
		setenv("HOME", cases[i].home, 1);
		got = edit_path_expand(cases[i].typed);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
	if (saved != NULL) {
		setenv("HOME", saved, 1);
		free(saved);
	} else
		unsetenv("HOME");
}

/* ---- the reopen loop ---------------------------------------------------- */

static void
test_loop(void **state)
{
	struct edit	 e;
	cJSON		*orig = parse("{\"id\":\"abc\",\"name\":\"first\","
			    "\"period\":60}"), *rec;
	char		*cause = NULL, *text, *file, *got;

	(void)state;
	assert_int_equal(edit_open(&e, &kind_put, orig, VALIDATE_UPDATE,
	    &cause), 0);
	text = slurp(e.file);
	assert_string_equal(text, record_yaml);
	free(text);

	/* A YAML error: the file now opens with it. */
	spill(e.file, "id: abc\nname: [oops\nperiod: 60\n", 0600);
	assert_int_equal(edit_next(&e, &rec, &cause), EDIT_AGAIN);
	assert_null(rec);
	text = slurp(e.file);
	assert_int_equal(strncmp(text, "# edgetui: the change was not "
	    "applied:\n#   YAML: line ", 52), 0);
	assert_non_null(strstr(text, "#\nid: abc\nname: [oops\n"));
	free(text);

	/* Fixed, but now out of range: the new error replaces the old. */
	text = slurp(e.file);
	got = xprintf("%.*s", (int)(strstr(text, "name:") - text), text);
	free(text);
	text = xprintf("%sname: second\nperiod: 5\n", got);
	free(got);
	spill(e.file, text, 0600);
	free(text);
	assert_int_equal(edit_next(&e, &rec, &cause), EDIT_AGAIN);
	text = slurp(e.file);
	assert_non_null(strstr(text, "#   period: 5 is out of range"));
	assert_null(strstr(text, "YAML"));

	/* Saved again unfixed: give up with the error, not loop forever. */
	assert_int_equal(edit_next(&e, &rec, &cause), EDIT_FAILED);
	assert_null(rec);
	assert_non_null(strstr(cause, "period: 5 is out of range"));
	free(cause);
	cause = NULL;
	free(text);

	/* Fixed: the record, comments gone. */
	spill(e.file, "# edgetui: the change was not applied:\n"
	    "#   period: 5 is out of range\n#\n"
	    "id: abc\nname: second\nperiod: 50\n", 0600);
	assert_int_equal(edit_next(&e, &rec, &cause), EDIT_CHANGED);
	got = print(rec);
	assert_string_equal(got,
	    "{\"id\":\"abc\",\"name\":\"second\",\"period\":50}");
	free(got);
	cJSON_Delete(rec);

	/* Emptied: cancelled. */
	spill(e.file, "# nothing\n", 0600);
	assert_int_equal(edit_next(&e, &rec, &cause), EDIT_EMPTY);

	/* Closing removes the file, and closing again is harmless. */
	file = xstrdup(e.file);
	edit_close(&e);
	assert_int_equal(access(file, F_OK), -1);
	assert_int_equal(errno, ENOENT);
	edit_close(&e);
	free(file);
	cJSON_Delete(orig);
}

static void
test_loop_rounds(void **state)
{
	struct edit	 e;
	cJSON		*orig = parse("{\"name\":\"first\"}"), *rec;
	char		*cause = NULL, *text;
	int		 i;

	(void)state;
	assert_int_equal(edit_open(&e, &kind_put, orig, VALIDATE_UPDATE,
	    &cause), 0);
	for (i = 1; i <= EDIT_ROUNDS; i++) {
		/* A different mistake each time. */
		text = xprintf("name: first\nperiod: %d\n", 86400 + i);
		spill(e.file, text, 0600);
		free(text);
		if (i < EDIT_ROUNDS) {
			assert_int_equal(edit_next(&e, &rec, &cause),
			    EDIT_AGAIN);
			continue;
		}
		assert_int_equal(edit_next(&e, &rec, &cause), EDIT_FAILED);
	}
	text = xprintf("gave up after %d rounds: period: %d is out of range",
	    EDIT_ROUNDS, 86400 + EDIT_ROUNDS);
	assert_int_equal(strncmp(cause, text, strlen(text)), 0);
	free(text);
	free(cause);
	edit_close(&e);
	cJSON_Delete(orig);
}

/* A lint that refuses the name "bad", counting its calls. */
struct lint_state {
	int	calls;
};

static char *
lint_bad_name(const cJSON *rec, void *arg)
{
	struct lint_state	*ls = arg;
	const cJSON		*name;

	ls->calls++;
	name = cJSON_GetObjectItemCaseSensitive(rec, "name");
	if (cJSON_IsString(name) && strcmp(name->valuestring, "bad") == 0)
		return (xstrdup("name: column 1: refused\nbad\n^^^"));
	return (NULL);
}

static void
test_loop_lint(void **state)
{
	struct lint_state	 ls = { 0 };
	struct edit		 e;
	cJSON			*orig, *rec;
	char			*cause = NULL, *text, *got;

	(void)state;
	orig = parse("{\"name\":\"first\",\"period\":60}");
	assert_int_equal(edit_open(&e, &kind_patch, orig, VALIDATE_UPDATE,
	    &cause), 0);

	/* Saved as opened, or not YAML: edit_next's to say, no lint. */
	assert_int_equal(edit_next_lint(&e, lint_bad_name, &ls, &rec, &cause),
	    EDIT_UNCHANGED);
	spill(e.file, "name: [oops\n", 0600);
	assert_int_equal(edit_next_lint(&e, lint_bad_name, &ls, &rec, &cause),
	    EDIT_AGAIN);
	assert_int_equal(ls.calls, 0);

	/* Refused by the lint: why on top, the text kept under it. */
	spill(e.file, "name: bad\nperiod: 60\n", 0600);
	assert_int_equal(edit_next_lint(&e, lint_bad_name, &ls, &rec, &cause),
	    EDIT_AGAIN);
	assert_int_equal(ls.calls, 1);
	assert_null(rec);
	text = slurp(e.file);
	assert_string_equal(text, "# edgetui: the change was not applied:\n"
	    "#   name: column 1: refused\n#   bad\n#   ^^^\n"
	    "# Fix it and save, or empty the file to cancel.\n#\n"
	    "name: bad\nperiod: 60\n");
	free(text);

	/* Saved as reopened: give up with the lint's message. */
	assert_int_equal(edit_next_lint(&e, lint_bad_name, &ls, &rec, &cause),
	    EDIT_FAILED);
	assert_int_equal(ls.calls, 1);
	assert_string_equal(cause, "name: column 1: refused\nbad\n^^^");
	free(cause);
	cause = NULL;

	/* Fit for the lint, not for the kind: the kind's error on top. */
	spill(e.file, "name: good\nperiod: 5\n", 0600);
	assert_int_equal(edit_next_lint(&e, lint_bad_name, &ls, &rec, &cause),
	    EDIT_AGAIN);
	assert_int_equal(ls.calls, 2);
	text = slurp(e.file);
	assert_non_null(strstr(text, "#   period: 5 is out of range"));
	free(text);

	/* Fit for both: the record. */
	spill(e.file, "name: good\nperiod: 50\n", 0600);
	assert_int_equal(edit_next_lint(&e, lint_bad_name, &ls, &rec, &cause),
	    EDIT_CHANGED);
	assert_int_equal(ls.calls, 3);
	got = print(rec);
	assert_string_equal(got, "{\"name\":\"good\",\"period\":50}");
	free(got);
	cJSON_Delete(rec);

	/* No lint: edit_next alone takes what the lint refused. */
	spill(e.file, "name: bad\nperiod: 50\n", 0600);
	assert_int_equal(edit_next_lint(&e, NULL, &ls, &rec, &cause),
	    EDIT_CHANGED);
	assert_int_equal(ls.calls, 3);
	cJSON_Delete(rec);
	edit_close(&e);
	cJSON_Delete(orig);
}

static void
test_loop_lint_rounds(void **state)
{
	struct lint_state	 ls = { 0 };
	struct edit		 e;
	cJSON			*orig = parse("{\"name\":\"first\"}"), *rec;
	char			*cause = NULL, *text;
	int			 i;

	(void)state;
	assert_int_equal(edit_open(&e, &kind_patch, orig, VALIDATE_UPDATE,
	    &cause), 0);
	for (i = 1; i <= EDIT_ROUNDS; i++) {
		/* Refused each time, saved differently each time. */
		text = xprintf("name: bad\nperiod: %d\n", 10 + i);
		spill(e.file, text, 0600);
		free(text);
		assert_int_equal(edit_next_lint(&e, lint_bad_name, &ls, &rec,
		    &cause), i < EDIT_ROUNDS ? EDIT_AGAIN : EDIT_FAILED);
	}
	text = xprintf("gave up after %d rounds: name: column 1: refused",
	    EDIT_ROUNDS);
	assert_int_equal(strncmp(cause, text, strlen(text)), 0);
	free(text);
	free(cause);
	edit_close(&e);
	cJSON_Delete(orig);
}

/* ---- the editor --------------------------------------------------------- */

static volatile sig_atomic_t	got_sigint;

static void
on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
}

/* An executable script in the test's directory; returns its path. */
static char *
script(const char *dir, const char *name, const char *body)
{
	char	*path = xprintf("%s/%s", dir, name);

	spill(path, body, 0700);
	return (path);
}

static void
test_editor_runs(void **state)
{
	const char	*dir = *state;
	char		*ed, *env, *file, *cause = NULL, *text, *want, *args;

	ed = script(dir, "ed.sh", "#!/bin/sh\n"
	    "printf '%s|' \"$@\" > \"$(dirname \"$0\")/args\"\n"
	    "for last; do :; done\n"
	    "printf 'name: edited\\n' > \"$last\"\n");
	/* Split on blanks, no shell: the quote is an argument of its own. */
	env = xprintf("%s  --flag\t'x", ed);
	setenv("EDITOR", env, 1);
	file = xprintf("%s/record.yaml", dir);
	spill(file, record_yaml, 0600);
	assert_int_equal(edit_run_editor(file, &cause), 0);
	assert_null(cause);
	text = slurp(file);
	assert_string_equal(text, "name: edited\n");
	free(text);
	args = xprintf("%s/args", dir);
	text = slurp(args);
	want = xprintf("--flag|'x|%s|", file);
	assert_string_equal(text, want);
	free(want);
	free(text);

	/* Without EDITOR, VISUAL. */
	unsetenv("EDITOR");
	setenv("VISUAL", ed, 1);
	assert_int_equal(unlink(args), 0);
	assert_int_equal(edit_run_editor(file, &cause), 0);
	text = slurp(args);
	want = xprintf("%s|", file);
	assert_string_equal(text, want);
	free(want);
	free(text);
	free(args);
	free(file);
	free(env);
	free(ed);
}

static void
test_editor_signals(void **state)
{
	const char		*dir = *state;
	struct sigaction	 sa, now;
	char			*ed, *file, *cause = NULL;

	/* The editor's Ctrl-C and Ctrl-\ reach the caller's process too. */
	ed = script(dir, "ed.sh", "#!/bin/sh\n"
	    "kill -INT $PPID\nkill -QUIT $PPID\nexit 0\n");
	setenv("EDITOR", ed, 1);
	file = xprintf("%s/record.yaml", dir);
	spill(file, record_yaml, 0600);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGINT, &sa, NULL), 0);
	got_sigint = 0;

	assert_int_equal(edit_run_editor(file, &cause), 0);
	assert_int_equal(got_sigint, 0);
	/* The caller's handler is back (and SIGQUIT's default). */
	assert_int_equal(sigaction(SIGINT, NULL, &now), 0);
	assert_ptr_equal(now.sa_handler, on_sigint);
	assert_int_equal(sigaction(SIGQUIT, NULL, &now), 0);
	assert_ptr_equal(now.sa_handler, SIG_DFL);
	raise(SIGINT);
	assert_int_equal(got_sigint, 1);

	signal(SIGINT, SIG_DFL);
	free(file);
	free(ed);
}

static void
test_editor_fails(void **state)
{
	const char	*dir = *state;
	char		*ed, *file, *cause = NULL;

	ed = script(dir, "ed.sh", "#!/bin/sh\nexit 3\n");
	setenv("EDITOR", ed, 1);
	file = xprintf("%s/record.yaml", dir);
	assert_int_equal(edit_run_editor(file, &cause), -1);
	assert_non_null(strstr(cause, "the editor ("));
	assert_non_null(strstr(cause, "ed.sh) failed"));
	assert_non_null(strstr(cause, "nothing was changed"));
	free(cause);
	free(file);
	free(ed);
}

static void
test_editor_missing(void **state)
{
	const char	*dir = *state;
	char		*file, *cause = NULL, *ed;

	file = xprintf("%s/record.yaml", dir);
	setenv("EDITOR", "/nonexistent/no-such-editor --wait", 1);
	assert_int_equal(edit_run_editor(file, &cause), -1);
	assert_string_equal(cause, "cannot run the editor "
	    "/nonexistent/no-such-editor: No such file or directory (set "
	    "EDITOR); nothing was changed");
	free(cause);
	cause = NULL;

	/* A file that is not executable: named too. */
	ed = xprintf("%s/not-exec", dir);
	spill(ed, "#!/bin/sh\n", 0600);
	setenv("EDITOR", ed, 1);
	assert_int_equal(edit_run_editor(file, &cause), -1);
	assert_non_null(strstr(cause, ed));
	assert_non_null(strstr(cause, strerror(EACCES)));
	free(cause);
	free(ed);
	free(file);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_body_put),
		cmocka_unit_test(test_body_patch),
		cmocka_unit_test(test_body_post),
		cmocka_unit_test(test_diff_nested),
		cmocka_unit_test(test_diff_arrays),
		cmocka_unit_test(test_diff_added_removed),
		cmocka_unit_test(test_with_comment),
		cmocka_unit_test(test_comment_lines_as_shown),
		cmocka_unit_test(test_comment_one_sentence),
		cmocka_unit_test(test_blank),
		cmocka_unit_test_setup_teardown(test_temp_file, tmp_setup,
		    tmp_teardown),
		cmocka_unit_test_setup_teardown(test_read_write_file,
		    tmp_setup, tmp_teardown),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_check_server_values),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_path_expand),
		cmocka_unit_test_setup_teardown(test_loop, tmp_setup,
		    tmp_teardown),
		cmocka_unit_test_setup_teardown(test_loop_rounds, tmp_setup,
		    tmp_teardown),
		cmocka_unit_test_setup_teardown(test_loop_lint, tmp_setup,
		    tmp_teardown),
		cmocka_unit_test_setup_teardown(test_loop_lint_rounds,
		    tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_editor_runs, tmp_setup,
		    tmp_teardown),
		cmocka_unit_test_setup_teardown(test_editor_signals,
		    tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_editor_fails, tmp_setup,
		    tmp_teardown),
		cmocka_unit_test_setup_teardown(test_editor_missing,
		    tmp_setup, tmp_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
