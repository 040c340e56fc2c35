/* Unit tests for the multipart/form-data parser. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "multipart.h"

#define CT "multipart/form-data; boundary=XyZ"

static void
test_boundary_parameter(void **state)
{
	char	*b;

	(void)state;
	b = multipart_boundary("multipart/form-data; boundary=abc123");
	assert_string_equal(b, "abc123");
	free(b);
	b = multipart_boundary("multipart/form-data;charset=utf-8; "
	    "BOUNDARY=\"with space\"");
	assert_string_equal(b, "with space");
	free(b);
	assert_null(multipart_boundary("multipart/form-data"));
	assert_null(multipart_boundary("multipart/form-data; boundary="));
	assert_null(multipart_boundary("multipart/form-data; boundary=\"open"));
	assert_null(multipart_boundary(NULL));
}

static void
test_parts_and_files(void **state)
{
	static const char	 body[] =
	    "--XyZ\r\n"
	    "Content-Disposition: form-data; name=\"kind\"\r\n"
	    "\r\n"
	    "openapi_v3\r\n"
	    "--XyZ\r\n"
	    "Content-Disposition: form-data; name=\"file\"; "
	    "filename=\"api \\\"v1\\\".yaml\"\r\n"
	    "Content-Type: application/yaml\r\n"
	    "\r\n"
	    "openapi: 3.0.0\r\n--X not a boundary\r\n"
	    "--XyZ--\r\n";
	struct multipart		*mp;
	const struct multipart_part	*p;
	char				*cause = NULL, *kind;

	(void)state;
	mp = multipart_parse(CT, body, sizeof body - 1, &cause);
	assert_non_null(mp);
	assert_int_equal(mp->nparts, 2);
	kind = multipart_text(mp, "kind");
	assert_string_equal(kind, "openapi_v3");
	free(kind);
	p = multipart_get(mp, "file");
	assert_non_null(p);
	assert_string_equal(p->filename, "api \"v1\".yaml");
	assert_string_equal(p->content_type, "application/yaml");
	/* The data keeps its CRLFs and look-alike lines, not the delimiter's. */
	assert_int_equal(p->len, strlen("openapi: 3.0.0\r\n--X not a boundary"));
	assert_memory_equal(p->data, "openapi: 3.0.0\r\n--X not a boundary",
	    p->len);
	assert_null(multipart_get(mp, "name"));
	assert_null(multipart_get(mp, "kind")->filename);
	multipart_free(mp);
}

static void
test_binary_data_and_preamble(void **state)
{
	char			 body[256];
	size_t			 n = 0;
	struct multipart	*mp;
	char			*cause = NULL;
	static const char	 bin[] = { 0, 1, '\r', '\n', '-', '-', 0x7f };

	(void)state;
	n += (size_t)sprintf(body + n, "preamble to ignore\r\n--XyZ\r\n"
	    "Content-Disposition: form-data; name=file; filename=x.png\r\n\r\n");
	memcpy(body + n, bin, sizeof bin);
	n += sizeof bin;
	n += (size_t)sprintf(body + n, "\r\n--XyZ--");
	mp = multipart_parse(CT, body, n, &cause);
	assert_non_null(mp);
	assert_int_equal(mp->parts[0].len, sizeof bin);
	assert_memory_equal(mp->parts[0].data, bin, sizeof bin);
	assert_string_equal(mp->parts[0].filename, "x.png");
	multipart_free(mp);
}

static void
expect_refusal(const char *ct, const char *body, const char *needle)
{
	struct multipart	*mp;
	char			*cause = NULL;

	mp = multipart_parse(ct, body, strlen(body), &cause);
	assert_null(mp);
	assert_non_null(cause);
	if (strstr(cause, needle) == NULL)
		fail_msg("'%s' does not mention '%s'", cause, needle);
	free(cause);
}

static void
test_refusals(void **state)
{
	(void)state;
	expect_refusal("multipart/form-data", "--XyZ--", "boundary");
	expect_refusal(CT, "no delimiter at all", "no boundary line");
	expect_refusal(CT, "--XyZ\r\nContent-Disposition: form-data; "
	    "name=\"a\"\r\n\r\nnever closed", "no closing boundary");
	expect_refusal(CT, "--XyZ\r\nContent-Disposition: form-data; "
	    "name=\"a\"", "headers do not end");
	expect_refusal(CT, "--XyZ\r\nContent-Type: text/plain\r\n\r\nx\r\n"
	    "--XyZ--", "no Content-Disposition name");
	expect_refusal(CT, "--XyZ\r\nContent-Disposition: attachment; "
	    "name=\"a\"\r\n\r\nx\r\n--XyZ--", "not form-data");
	expect_refusal(CT, "--XyZ\r\nbroken header line\r\n\r\nx\r\n--XyZ--",
	    "no ':'");
	expect_refusal(CT, "--XyZjunk\r\n", "malformed boundary");
}

static void
test_too_many_parts(void **state)
{
	char	*body = malloc(64 * 80), *cause = NULL;
	size_t	 n = 0, i;

	(void)state;
	for (i = 0; i < MULTIPART_MAX_PARTS + 1; i++)
		n += (size_t)sprintf(body + n, "--XyZ\r\nContent-Disposition: "
		    "form-data; name=\"p%zu\"\r\n\r\nv\r\n", i);
	n += (size_t)sprintf(body + n, "--XyZ--\r\n");
	assert_null(multipart_parse(CT, body, n, &cause));
	assert_non_null(strstr(cause, "more than"));
	free(cause);
	free(body);
}

/* The body fed step bytes at a time, each piece gone once it is fed. */
static struct multipart *
parse_in_pieces(const char *ct, const char *body, size_t len, size_t step,
    char **cause)
{
	struct multipart_stream	*s = multipart_stream_new(ct);
	size_t			 off, n;
	char			*piece;

	for (off = 0; off < len; off += n) {
		n = len - off < step ? len - off : step;
		piece = malloc(n);
		memcpy(piece, body + off, n);
		multipart_stream_feed(s, piece, n);
		free(piece);
	}
	return (multipart_stream_end(s, cause));
}

/* Fed whole or in pieces of any size, a body gives the same parts. */
static void
assert_same_in_pieces(const char *ct, const char *body, size_t len)
{
	struct multipart	*whole, *mp;
	char			*wcause = NULL, *cause = NULL;
	size_t			 step, i;

	whole = multipart_parse(ct, body, len, &wcause);
	for (step = 1; step <= len + 1; step++) {
		mp = parse_in_pieces(ct, body, len, step, &cause);
		if (whole == NULL) {
			assert_null(mp);
			assert_string_equal(cause, wcause);
			free(cause);
			cause = NULL;
			continue;
		}
		assert_non_null(mp);
		assert_int_equal(mp->nparts, whole->nparts);
		for (i = 0; i < mp->nparts; i++) {
			assert_string_equal(mp->parts[i].name,
			    whole->parts[i].name);
			assert_int_equal(mp->parts[i].len, whole->parts[i].len);
			assert_memory_equal(mp->parts[i].data,
			    whole->parts[i].data, mp->parts[i].len);
		}
		multipart_free(mp);
	}
	multipart_free(whole);
	free(wcause);
}

static void
test_streamed_in_pieces(void **state)
{
	static const char *const bodies[] = {
		"--XyZ\r\nContent-Disposition: form-data; name=\"kind\"\r\n"
		    "\r\nopenapi_v3\r\n--XyZ\r\nContent-Disposition: "
		    "form-data; name=\"file\"; filename=\"a.yaml\"\r\n\r\n"
		    "x\r\n--X\r\n--XyZ\r\r\n--XyZ--\r\nepilogue",
		"preamble\r\n--Xy\r\n--XyZ \t\r\nContent-Disposition: "
		    "form-data; name=a\r\n\r\n\r\n--XyZ--",
		"--XyZ\r\n\r\nx\r\n--XyZ--",
		"--XyZ  --\r\n",
		"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n"
		    "never closed\r\n--Xy",
		"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n",
		"--XyZ-",
		"--Xy",
		"",
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof bodies / sizeof bodies[0]; i++)
		assert_same_in_pieces(CT, bodies[i], strlen(bodies[i]));
	assert_same_in_pieces("multipart/form-data", "--XyZ--", 7);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boundary_parameter),
		cmocka_unit_test(test_parts_and_files),
		cmocka_unit_test(test_binary_data_and_preamble),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_too_many_parts),
		cmocka_unit_test(test_streamed_in_pieces),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
