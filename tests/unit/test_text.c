/*
 * Unit tests for text.c: what server text may hold that must not reach
 * the terminal (escape sequences, C0 and C1 controls, broken UTF-8, bidi
 * overrides), display widths, cutting, and the filter's search.
 */
#include "config.h"

#include <locale.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common.h"
#include "text.h"

#define CLEAN(in, want) do {						\
	char	*c_ = text_clean(in);				\
	assert_string_equal(c_, want);					\
	free(c_);							\
} while (0)

/* ---- wrapping and ellipsis -------------------------------------------- */

static void
test_wrap(void **state)
{
	const char	*q = "Delete video 'Launch teaser.mp4'? (y/n)";

	(void)state;
	/* Broken after the last space that fits, the space kept. */
	assert_int_equal(text_wrap(q, 20), strlen("Delete video "));
	assert_int_equal(text_wrap(q, 100), strlen(q));
	/* A word longer than the row is cut; at least one character. */
	assert_int_equal(text_wrap("abcdefgh", 3), 3);
	assert_int_equal(text_wrap("\xe2\x80\xa6x", 0), 3);
	/* Columns, not bytes: three 3-byte characters in 3 columns. */
	assert_int_equal(text_wrap("\xc3\xa9\xc3\xa9\xc3\xa9 x", 3), 6);
}

static void
test_ellipsize(void **state)
{
	char	*s;

	(void)state;
	s = text_ellipsize("Launch teaser.mp4", 10, "\xe2\x80\xa6");
	assert_string_equal(s, "Launch te\xe2\x80\xa6");
	assert_int_equal(text_width(s), 10);
	free(s);
	s = text_ellipsize("short", 10, "~");
	assert_string_equal(s, "short");
	free(s);
	s = text_ellipsize("abcdef", 5, "...");
	assert_string_equal(s, "ab...");
	free(s);
}

/* A table cell: cleaned, cut with "...", padded to its columns. */
static void
test_cell(void **state)
{
	char	*s;

	(void)state;
	s = text_cell("ab", 5, NULL);
	assert_string_equal(s, "ab   ");
	free(s);
	s = text_cell("abcdefgh", 5, NULL);
	assert_string_equal(s, "ab...");
	free(s);
	s = text_cell("a\x1b[31mred", 6, NULL);
	assert_string_equal(s, "ared  ");
	free(s);
	s = text_cell("abcdefgh", 5, "\xe2\x80\xa6");
	assert_string_equal(s, "abcd\xe2\x80\xa6");
	free(s);
	s = text_cell("\xc3\xa9t\xc3\xa9", 4, NULL);
	assert_string_equal(s, "\xc3\xa9t\xc3\xa9 ");
	assert_int_equal(text_width(s), 4);
	free(s);
}

/* ---- cleaning ----------------------------------------------------------- */

static void
test_escape_sequences(void **state)
{
	(void)state;
	/* CSI: colours, clearing the screen, moving the cursor. */
	CLEAN("a\x1b[31mred\x1b[0m b", "ared b");
	CLEAN("\x1b[2J\x1b[Hx", "x");
	CLEAN("\x1b[?1049hy", "y");
	/* OSC, to BEL or to ST: a window title, a hyperlink. */
	CLEAN("\x1b]0;pwned\x07title", "title");
	CLEAN("\x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\", "link");
	CLEAN("\x1b]2;t\xc2\x9cz", "z");
	/* DCS and APC strings. */
	CLEAN("\x1bPq#0;2;0;0;0\x1b\\after", "after");
	CLEAN("\x1b_payload\x07" "after", "after");
	/* Two-byte and charset sequences. */
	CLEAN("\x1b" "cx", "x");
	CLEAN("\x1b(0q", "q");
	CLEAN("\x1b" "7a\x1b" "8", "a");
	/* Cut short: nothing of them is left either. */
	CLEAN("end\x1b", "end");
	CLEAN("end\x1b[", "end");
	CLEAN("a\x1b]0;no end", "a");
	/* A control inside a CSI ends it and is shown as '?'. */
	CLEAN("\x1b[3\x01m", "?m");
}

static void
test_controls(void **state)
{
	(void)state;
	CLEAN("a\x01" "b\x7f" "c\x08" "d", "a?b?c?d");
	CLEAN("bell\x07", "bell?");
	/* Line breaks and tabs: one space for a run of them. */
	CLEAN("a\tb\r\nc\n\n\nd", "a b c d");
	/* C1 controls, U+0080..U+009F, CSI among them. */
	CLEAN("a\xc2\x9b" "31mb", "a?31mb");
	CLEAN("\xc2\x85\xc2\x80\xc2\x9f", "???");
	/* U+00A0 and after are text. */
	CLEAN("\xc2\xa0\xc2\xa9", "\xc2\xa0\xc2\xa9");
}

static void
test_invalid_utf8(void **state)
{
	(void)state;
	CLEAN("\xff" "ok", "?ok");
	CLEAN("ok\xc3", "ok?");
	CLEAN("\xe4\xb8", "??");
	/* Overlong forms, surrogates, past U+10FFFF. */
	CLEAN("\xc0\xaf", "??");
	CLEAN("\xe0\x80\xaf", "???");
	CLEAN("\xed\xa0\x80", "???");
	CLEAN("\xf4\x90\x80\x80", "????");
	/* A lead byte followed by ASCII keeps the ASCII. */
	CLEAN("\xe6" "abc", "?abc");
}

static void
test_bidi(void **state)
{
	(void)state;
	/* RLO would show "txt.exe" as "exe.txt". */
	CLEAN("a\xe2\x80\xae" "exe.txt", "a?exe.txt");
	CLEAN("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad", "????");
	CLEAN("\xe2\x81\xa6x\xe2\x81\xa7y\xe2\x81\xa8z\xe2\x81\xa9", "?x?y?z?");
	/* Neighbours of those ranges are ordinary text. */
	CLEAN("\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa",
	    "\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
}

static void
test_valid_text_kept(void **state)
{
	(void)state;
	CLEAN("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80 ~!",
	    "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80 ~!");
	CLEAN("", "");
}

/* What kind_column_value uses: every control one '?', ESC included. */
static void
test_sanitize_cells(void **state)
{
	char	out[8];

	(void)state;
	text_sanitize("a\x1b[31mb\x07\xc2\x9b", out, sizeof out, 0);
	assert_string_equal(out, "a?[31mb");
	text_sanitize("a\tb\nc", out, sizeof out, 0);
	assert_string_equal(out, "a?b?c");
	/* Cut to the buffer without halving a character. */
	assert_int_equal(text_sanitize("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
	    out, 4, 0), 2);
	assert_string_equal(out, "\xc3\xa9");
	assert_int_equal(text_sanitize("\xe6\x97\xa5\xe6\x9c\xac", out, 6, 0),
	    3);
	assert_string_equal(out, "\xe6\x97\xa5");
	assert_int_equal(text_sanitize("abc", out, 1, 0), 0);
	assert_string_equal(out, "");
	/* Dropped sequences take no room. */
	text_sanitize("\x1b[1m\x1b[4mabcdefg", out, sizeof out,
	    TEXT_DROP_ESC);
	assert_string_equal(out, "abcdefg");
}

/* ---- width -------------------------------------------------------------- */

static void
test_width(void **state)
{
	(void)state;
	assert_int_equal(text_width(""), 0);
	assert_int_equal(text_width("abc"), 3);
	assert_int_equal(text_width("caf\xc3\xa9"), 4);
	/* CJK takes two columns a character. */
	assert_int_equal(text_width("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"), 6);
	assert_int_equal(text_width("a\xe6\x97\xa5" "b"), 4);
	/* A combining accent takes none. */
	assert_int_equal(text_width("e\xcc\x81"), 1);
	/* A broken byte and a control count one each. */
	assert_int_equal(text_width("\xff" "a"), 2);
	assert_int_equal(text_width("\x01"), 1);
}

static void
test_cut(void **state)
{
	char	s[64];

	(void)state;
	snprintf(s, sizeof s, "%s", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e");
	/* Five columns hold two wide characters, not two and a half. */
	assert_int_equal(text_cut(s, 5), 4);
	assert_string_equal(s, "\xe6\x97\xa5\xe6\x9c\xac");
	assert_int_equal(text_cut(s, 1), 0);
	assert_string_equal(s, "");

	snprintf(s, sizeof s, "%s", "caf\xc3\xa9s");
	assert_int_equal(text_cut(s, 4), 4);
	assert_string_equal(s, "caf\xc3\xa9");

	snprintf(s, sizeof s, "%s", "short");
	assert_int_equal(text_cut(s, 80), 5);
	assert_string_equal(s, "short");
	assert_int_equal(text_cut(s, 0), 0);
	assert_string_equal(s, "");

	/* The accent stays with its letter. */
	snprintf(s, sizeof s, "%s", "e\xcc\x81x");
	assert_int_equal(text_cut(s, 1), 1);
	assert_string_equal(s, "e\xcc\x81");
}

/* ---- search ------------------------------------------------------------- */

static void
test_contains_nocase(void **state)
{
	(void)state;
	assert_true(text_contains_nocase("Hello World", "WORLD"));
	assert_true(text_contains_nocase("Hello World", "o w"));
	assert_true(text_contains_nocase("/API/v1/Users", "api/V1"));
	assert_true(text_contains_nocase("abc", ""));
	assert_true(text_contains_nocase("", ""));
	assert_true(text_contains_nocase("aaaaab", "AAAB"));
	assert_true(text_contains_nocase("xyz", "XYZ"));
	assert_false(text_contains_nocase("Hello", "help"));
	assert_false(text_contains_nocase("ab", "abc"));
	assert_false(text_contains_nocase("", "a"));
	/* Only ASCII folds; other bytes compare as they are. */
	assert_true(text_contains_nocase("CAF\xc3\xa9", "caf\xc3\xa9"));
	assert_false(text_contains_nocase("caf\xc3\x89", "caf\xc3\xa9"));
	assert_false(text_contains_nocase("a[b", "a{b"));
	assert_false(text_contains_nocase("a@", "a`"));
}

static void
test_find_nocase(void **state)
{
	const char	hay[] = "GET\0api.example.com\0/Users";
	const char	*p;

	(void)state;
	/* Cells side by side: no match runs across a NUL. */
	assert_null(text_find_nocase(hay, sizeof hay, "getapi", 6));
	p = text_find_nocase(hay, sizeof hay, "users", 5);
	assert_ptr_equal(p, hay + 21);
	p = text_find_nocase(hay, sizeof hay, "get", 3);
	assert_ptr_equal(p, hay);
	p = text_find_nocase(hay, sizeof hay, "e", 1);
	assert_ptr_equal(p, hay + 1);
	/* Within len only. */
	assert_null(text_find_nocase("abcdef", 3, "cd", 2));
	assert_non_null(text_find_nocase("abcdef", 4, "cd", 2));
}

/* A naive search to hold the fast one against. */
static char
lc(char c)
{
	return (c >= 'A' && c <= 'Z' ? c | 0x20 : c);
}

static int
naive_find(const char *h, size_t len, const char *n, size_t nlen)
{
	size_t	i, j;

	for (i = 0; i + nlen <= len; i++) {
		for (j = 0; j < nlen && lc(h[i + j]) == lc(n[j]); j++)
			/* nothing */;
		if (j == nlen)
			return ((int)i);
	}
	return (-1);
}

static void
test_find_random(void **state)
{
	static const char	 alphabet[] = "aAbB/._-1z";
	char			 h[64], n[6];
	uint32_t		 seed = 12345;
	size_t			 len, nlen, i, round;
	const char		*p;
	int			 want, got;

	(void)state;
	for (round = 0; round < 20000; round++) {
		len = round % 40;
		nlen = 1 + round % 5;
		for (i = 0; i < len; i++) {
			seed = seed * 1103515245 + 12345;
			h[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
		}
		for (i = 0; i < nlen; i++) {
			seed = seed * 1103515245 + 12345;
			n[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
		}
		want = naive_find(h, len, n, nlen);
		p = text_find_nocase(h, len, n, nlen);
		got = p == NULL ? -1 : (int)(p - h);
		if (got != want)
			fail_msg("\"%.*s\" in \"%.*s\": %d, want %d", (int)nlen,
			    n, (int)len, h, got, want);
	}
}

/* A quoted value: 64 characters at most, never half of one. */
static void
test_quote_len(void **state)
{
	char	s[3 * 70 + 1];
	size_t	i;

	(void)state;
	assert_int_equal(text_quote_len(""), 0);
	assert_int_equal(text_quote_len("abc"), 3);
	memset(s, 'a', 70);
	s[70] = '\0';
	assert_int_equal(text_quote_len(s), 64);
	for (i = 0; i < 70; i++)
		memcpy(s + 3 * i, "\xe2\x82\xac", 3);	/* EURO SIGN */
	s[3 * 70] = '\0';
	assert_int_equal(text_quote_len(s), 3 * 64);
	s[3 * 10] = '\0';
	assert_int_equal(text_quote_len(s), 3 * 10);
}

static void
test_casecmp(void **state)
{
	(void)state;
	assert_int_equal(text_casecmp("HeLLo", "hello"), 0);
	assert_true(text_casecmp("abc", "ABD") < 0);
	assert_true(text_casecmp("Zeta", "alpha") > 0);
	assert_true(text_casecmp("ab", "ABC") < 0);
	assert_true(text_casecmp("_", "A") < 0);
	assert_true(text_casecmp("\xc3\xa9", "z") > 0);
}

/* Length limits count characters: continuation bytes are not counted. */
static void
test_chars(void **state)
{
	(void)state;
	assert_int_equal(text_chars(""), 0);
	assert_int_equal(text_chars("abc"), 3);
	assert_int_equal(text_chars("caf\xc3\xa9"), 4);
	assert_int_equal(text_chars("\xe2\x82\xac\xf0\x9f\x98\x80"), 2);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_escape_sequences),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_bidi),
		cmocka_unit_test(test_valid_text_kept),
		cmocka_unit_test(test_sanitize_cells),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_contains_nocase),
		cmocka_unit_test(test_find_nocase),
		cmocka_unit_test(test_find_random),
		cmocka_unit_test(test_casecmp),
		cmocka_unit_test(test_chars),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_ellipsize),
		cmocka_unit_test(test_cell),
		cmocka_unit_test(test_quote_len),
	};

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		fail_msg("no C.UTF-8 locale");
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
