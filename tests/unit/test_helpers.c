/*
 * Unit tests for the small helpers in libbase that replace copies once
 * kept in each module: jsonutil, encode, civil, compat and UTF-8 decoding.
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

#include "civil.h"
#include "compat.h"
#include "encode.h"
#include "buf.h"
#include "jsonutil.h"
#include "percent.h"
#include "text.h"

static void
test_json_type_names(void **state)
{
	cJSON	*v;

	(void)state;
	assert_string_equal(jsonutil_type_name(NULL), "null");
	v = cJSON_Parse("[\"s\", 1.5, true, false, null, [], {}]");
	assert_non_null(v);
	assert_string_equal(jsonutil_type_name(v), "an array");
	assert_string_equal(jsonutil_type_name(cJSON_GetArrayItem(v, 0)),
	    "a string");
	assert_string_equal(jsonutil_type_name(cJSON_GetArrayItem(v, 1)),
	    "a number");
	assert_string_equal(jsonutil_type_name(cJSON_GetArrayItem(v, 2)),
	    "a boolean");
	assert_string_equal(jsonutil_type_name(cJSON_GetArrayItem(v, 3)),
	    "a boolean");
	assert_string_equal(jsonutil_type_name(cJSON_GetArrayItem(v, 4)),
	    "null");
	assert_string_equal(jsonutil_type_name(cJSON_GetArrayItem(v, 5)),
	    "an array");
	assert_string_equal(jsonutil_type_name(cJSON_GetArrayItem(v, 6)),
	    "an object");
	cJSON_Delete(v);
}

static void
test_hexval(void **state)
{
	const char	*digits = "0123456789abcdef", *upper = "ABCDEF";
	int		 i;

	(void)state;
	for (i = 0; i < 16; i++)
		assert_int_equal(encode_hexval(digits[i]), i);
	for (i = 0; i < 6; i++)
		assert_int_equal(encode_hexval(upper[i]), 10 + i);
	assert_int_equal(encode_hexval('g'), -1);
	assert_int_equal(encode_hexval('G'), -1);
	assert_int_equal(encode_hexval('/'), -1);
	assert_int_equal(encode_hexval(':'), -1);
	assert_int_equal(encode_hexval('\0'), -1);
	assert_int_equal(encode_hexval(0xe9), -1);
}

static void
test_base64(void **state)
{
	/* RFC 4648, section 10, and bytes past 0x7f. */
	static const struct {
		const char	*in, *out;
	} v[] = {
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" },
		{ "foo", "Zm9v" }, { "foob", "Zm9vYg==" },
		{ "fooba", "Zm9vYmE=" }, { "foobar", "Zm9vYmFy" },
		{ "\xff\xfe\xfd", "//79" },
	};
	char	*s, big[200];
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		s = encode_base64(v[i].in, strlen(v[i].in));
		assert_string_equal(s, v[i].out);
		free(s);
	}
	/* One line however long: no newline every 64 characters. */
	memset(big, 'a', sizeof big);
	s = encode_base64(big, sizeof big);
	assert_int_equal(strlen(s), (sizeof big + 2) / 3 * 4);
	assert_null(strchr(s, '\n'));
	free(s);
}

static void
test_base64_decode(void **state)
{
	static const char *const bad[] = {
		"Zg=", "Zg", "Z", "Zg=a", "Z===", "Zm9v Zg==", " Zg==",
		"Zg==\n",
		"Zm9v\nZm9v", "Zg==Zg==", "Zm-v", "Zm_v", "Zm9\x80",
	};
	size_t	 i, len;
	char	*s;

	(void)state;
	s = encode_base64_decode("", 0, &len);
	assert_non_null(s);
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	free(s);
	s = encode_base64_decode("Zm9vYmE=", 8, &len);
	assert_string_equal(s, "fooba");
	assert_int_equal(len, 5);
	free(s);
	s = encode_base64_decode("Zg==", 4, NULL);
	assert_string_equal(s, "f");
	free(s);
	/* NULs inside come through: len tells. */
	s = encode_base64_decode("AGEA//79", 8, &len);
	assert_int_equal(len, 6);
	assert_memory_equal(s, "\0a\0\xff\xfe\xfd", 6);
	free(s);
	/* n bounds it: what follows is not read. */
	s = encode_base64_decode("Zg==garbage", 4, &len);
	assert_string_equal(s, "f");
	free(s);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if ((s = encode_base64_decode(bad[i], strlen(bad[i]),
		    &len)) != NULL)
			fail_msg("took \"%s\" as \"%s\"", bad[i], s);
	}
}

/* The API's base64 as pasted: wrapped and indented, it decodes the same. */
static void
test_base64_decode_text(void **state)
{
	static const char *const bad[] = {
		"", " \n\t", "Zg=", "Zm9v Zg", "Zg==Zg==", "Zm-v",
	};
	size_t	 i, len;
	char	*s;

	(void)state;
	s = encode_base64_decode_text(" Zm9v\r\n  YmE=\n", 14, &len);
	assert_string_equal(s, "fooba");
	assert_int_equal(len, 5);
	free(s);
	s = encode_base64_decode_text("Zm9v\vYmE=\f", 10, &len);
	assert_string_equal(s, "fooba");
	free(s);
	/* len bounds it. */
	s = encode_base64_decode_text("Zg==Zg==", 4, NULL);
	assert_string_equal(s, "f");
	free(s);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if ((s = encode_base64_decode_text(bad[i], strlen(bad[i]),
		    &len)) != NULL)
			fail_msg("took \"%s\" as \"%s\"", bad[i], s);
	}
}

/* Hinnant's days_from_civil, as the helpers' copies computed it. */
static int64_t
ref_days(int64_t y, int m, int d)
{
	int64_t	era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (era * 146097 + doe - 719468);
}

static void
test_civil_days(void **state)
{
	static const int	mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31,
				    30, 31, 30, 31 };
	static const int	years[] = { 0, 1, 4, 100, 1600, 1899, 1900,
				    1969, 1970, 1972, 2000, 2024, 2100, 9999 };
	int64_t			y2;
	size_t			i;
	int			m, d, m2, d2;

	(void)state;
	assert_int_equal(civil_days(1970, 1, 1), 0);
	assert_int_equal(civil_days(1969, 12, 31), -1);
	assert_int_equal(civil_days(2000, 3, 1), 11017);
	for (i = 0; i < sizeof years / sizeof years[0]; i++) {
		for (m = 1; m <= 12; m++) {
			for (d = 1; d <= mdays[m - 1]; d++) {
				assert_int_equal(civil_days(years[i], m, d),
				    ref_days(years[i], m, d));
				civil_from_days(ref_days(years[i], m, d),
				    &y2, &m2, &d2);
				/* Feb 29 of a common year is Mar 1. */
				if (m == 2 && d == 29 && ref_days(years[i], 3,
				    1) == ref_days(years[i], 2, 29))
					continue;
				assert_int_equal(y2, years[i]);
				assert_int_equal(m2 * 100 + d2, m * 100 + d);
			}
		}
	}
}

static void
test_rfc3339(void **state)
{
	static const char *const bad[] = {
		"", "2014-01-02", "2014-01-02T02:20:00",
		" 2014-01-02T02:20:00Z",
		"2014-1-02T02:20:00Z", "2014-01-2T02:20:00Z",
		"2014-01-02T2:20:00Z", "+014-01-02T02:20:00Z",
		"2014-01-02X02:20:00Z", "2014/01/02T02:20:00Z",
		"2014-00-02T02:20:00Z", "2014-13-02T02:20:00Z",
		"2014-01-00T02:20:00Z", "2014-01-32T02:20:00Z",
		"2014-02-30T02:20:00Z", "2023-02-29T00:00:00Z",
		"1900-02-29T00:00:00Z", "2014-04-31T00:00:00Z",
		"2014-01-02T24:00:00Z", "2014-01-02T02:60:00Z",
		"2014-01-02T02:20:61Z", "2014-01-02T02:20:00.Z",
		"2014-01-02T02:20:00Zx", "2014-01-02T02:20:00+1:00",
		"2014-01-02T02:20:00+01", "2014-01-02T02:20:00+0100",
		"2014-01-02T02:20:00+24:00", "2014-01-02T02:20:00+01:60",
		"2014-01-02T02:20:00+01:00x", "2014-01-02T02:20:00 Z",
	};
	int64_t	sec = 7;
	long	nsec = 7;
	size_t	i;
	int	digits = 7;

	(void)state;
	assert_int_equal(civil_parse_rfc3339(NULL, &sec, &nsec, &digits), -1);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (civil_parse_rfc3339(bad[i], &sec, &nsec, &digits) != -1)
			fail_msg("took \"%s\"", bad[i]);
	}
	/* Nothing is set on failure. */
	assert_int_equal(sec, 7);
	assert_int_equal(nsec, 7);
	assert_int_equal(digits, 7);

	assert_int_equal(civil_parse_rfc3339("1970-01-01T00:00:00Z", &sec,
	    &nsec, &digits), 0);
	assert_int_equal(sec, 0);
	assert_int_equal(nsec, 0);
	assert_int_equal(digits, 0);
	assert_int_equal(civil_parse_rfc3339("2014-01-02t02:20:00.5z", &sec,
	    &nsec, &digits), 0);
	assert_int_equal(sec, 1388629200);
	assert_int_equal(nsec, 500000000);
	assert_int_equal(digits, 1);
	assert_int_equal(civil_parse_rfc3339("2014-01-02 03:20:00.123456+01:00",
	    &sec, &nsec, &digits), 0);
	assert_int_equal(sec, 1388629200);
	assert_int_equal(nsec, 123456000);
	assert_int_equal(digits, 6);
	/* More than nine digits: the first nine count. */
	assert_int_equal(civil_parse_rfc3339("2014-01-02T01:50:00.1234567891"
	    "-00:30", &sec, &nsec, &digits), 0);
	assert_int_equal(sec, 1388629200);
	assert_int_equal(nsec, 123456789);
	assert_int_equal(digits, 9);
	assert_int_equal(civil_parse_rfc3339("2016-12-31T23:59:60Z", &sec,
	    &nsec, &digits), 0);
	assert_int_equal(sec, 1483228800);
	assert_int_equal(civil_parse_rfc3339("2024-02-29T00:00:00Z", &sec,
	    &nsec, &digits), 0);
	assert_int_equal(sec, 1709164800);
	assert_int_equal(civil_parse_rfc3339("2000-02-29T00:00:00Z", &sec,
	    &nsec, &digits), 0);
	assert_int_equal(civil_parse_rfc3339("0000-01-01T00:00:00Z", &sec,
	    &nsec, &digits), 0);
	assert_int_equal(sec, -62167219200LL);
	assert_int_equal(civil_parse_rfc3339("9999-12-31T23:59:59Z", &sec,
	    &nsec, &digits), 0);
	assert_int_equal(sec, 253402300799LL);
}

static void
test_explicit_bzero(void **state)
{
	char	s[] = "secret";

	(void)state;
	explicit_bzero(s, sizeof s - 1);
	assert_memory_equal(s, "\0\0\0\0\0\0", sizeof s);
}

static void
test_utf8_decode(void **state)
{
	static const struct {
		const char	*s;
		size_t		 len;
		uint32_t	 cp;
	} v[] = {
		{ "a", 1, 'a' }, { "\xc3\xa9", 2, 0xe9 },
		{ "\xe2\x82\xac", 3, 0x20ac },
		{ "\xf0\x9f\x98\x80", 4, 0x1f600 },
		{ "\xf4\x8f\xbf\xbf", 4, 0x10ffff },
		{ "\xef\xbf\xbd", 3, 0xfffd },
		/* Not UTF-8: 0. */
		{ "\x80", 0, 0 }, { "\xc0\xaf", 0, 0 }, { "\xc1\xbf", 0, 0 },
		{ "\xe0\x80\xaf", 0, 0 }, { "\xf0\x80\x80\xaf", 0, 0 },
		{ "\xed\xa0\x80", 0, 0 }, { "\xf4\x90\x80\x80", 0, 0 },
		{ "\xf5\x80\x80\x80", 0, 0 }, { "\xff", 0, 0 },
		{ "\xc3", 0, 0 }, { "\xe2\x82", 0, 0 }, { "\xc3(", 0, 0 },
	};
	uint32_t	cp;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		cp = 0xdeadbeef;
		assert_int_equal(text_utf8_decode(v[i].s, strlen(v[i].s) + 1,
		    &cp), v[i].len);
		if (v[i].len != 0)
			assert_int_equal(cp, v[i].cp);
	}
	/* n bounds it even where the bytes go on. */
	assert_int_equal(text_utf8_decode("\xe2\x82\xac", 2, &cp), 0);
	assert_int_equal(text_utf8_decode("a", 0, &cp), 0);
	assert_int_equal(text_utf8_decode("", 1, &cp), 1);
	assert_int_equal(cp, 0);
}

static void
test_percent_encode(void **state)
{
	struct buf	b = BUF_INITIALIZER;

	(void)state;
	percent_encode(&b, "");
	assert_string_equal(buf_str(&b), "");
	percent_encode(&b, "AZaz09-._~");
	assert_string_equal(buf_str(&b), "AZaz09-._~");
	buf_truncate(&b, 0);
	/* Upper-case hex; bytes past 0x7f always encoded. */
	percent_encode(&b, "a b/?&=%+\xc3\xa9\xff");
	assert_string_equal(buf_str(&b), "a%20b%2F%3F%26%3D%25%2B%C3%A9%FF");
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_type_names),
		cmocka_unit_test(test_hexval),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_base64_decode),
		cmocka_unit_test(test_base64_decode_text),
		cmocka_unit_test(test_civil_days),
		cmocka_unit_test(test_rfc3339),
		cmocka_unit_test(test_explicit_bzero),
		cmocka_unit_test(test_utf8_decode),
		cmocka_unit_test(test_percent_encode),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
