/*
 * Unit tests for accesslog.c: Logpush JSON lines (escapes, nested values
 * skipped, each timestamp form), the combined log format, lines that are
 * no request, and the reader (gzip, stdin, CRLF, empty and over-long
 * lines). Expected times are worked out by hand in the comments.
 */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <zlib.h>

#include "accesslog.h"
#include "common.h"
#include "testdir.h"

/* 2023-11-14T22:13:20Z: 19675 days * 86400 + 22 h 13 min 20 s. */
#define T0	1700000000LL
#define NS	1000000000LL

static const struct accesslog_options opts_none;

/* Parse one line (copied: the parser writes into it). */
static int
parse(enum accesslog_format f, const struct accesslog_options *o,
    const char *text, struct accesslog_record *r, char *why, size_t whylen)
{
	static char	 line[4096];
	size_t		 len = strlen(text);

	assert_true(len < sizeof line);
	memcpy(line, text, len + 1);
	return (accesslog_parse_line(f, o, line, len, r, why, whylen));
}

static void
bad(enum accesslog_format f, const char *text, const char *want)
{
	struct accesslog_record	r;
	char			why[192];

	assert_int_equal(parse(f, &opts_none, text, &r, why, sizeof why), -1);
	if (strstr(why, want) == NULL)
		fail_msg("'%s': '%s' does not say '%s'", text, why, want);
}

static int64_t
time_of(const char *json_value)
{
	struct accesslog_record	r;
	char			line[256], why[192];

	snprintf(line, sizeof line, "{\"EdgeStartTimestamp\":%s}",
	    json_value);
	if (parse(ACCESSLOG_LOGPUSH, &opts_none, line, &r, why,
	    sizeof why) != 0)
		fail_msg("%s: %s", json_value, why);
	return (r.time_ns);
}

/* ---- Logpush ------------------------------------------------------------ */

static void
test_logpush_fields(void **state)
{
	struct accesslog_record	r;
	char			why[192];

	(void)state;
	assert_int_equal(parse(ACCESSLOG_LOGPUSH, &opts_none,
	    "{\"ClientIP\":\"192.0.2.7\",\"ClientRequestHost\":\"a.example\","
	    "\"Unknown\":{\"x\":[1,{\"y\":\"}]\\\"\"}],\"z\":null},"
	    "\"ClientRequestMethod\":\"POST\",\"ClientRequestURI\":"
	    "\"/login?next=%2F\",\"ClientRequestScheme\":\"https\","
	    "\"ClientRequestUserAgent\":\"say \\\"hi\\\" \\\\ caf\\u00e9 "
	    "\\ud83d\\ude00\\/\",\"ClientRequestReferer\":null,"
	    "\"ClientCountry\":\"fr\",\"EdgeResponseStatus\":401,"
	    "\"ClientASN\":64500,\"EdgeColoCode\":\"CDG\","
	    "\"ClientRequestProtocol\":\"HTTP/2\",\"Other\":[true,false,-1.5e3],"
	    "\"JA3Hash\":\"e7d7\",\"JA4\":\"t13d\",\"JA4x\":\"no\","
	    "\"RequestHeaders\":{\"x-api-key\":\"k1\",\"n\":7},"
	    "\"Cookies\":{\"session\":\"s=1\"},"
	    "\"EdgeStartTimestamp\":1700000000}", &r, why, sizeof why), 0);
	assert_string_equal(r.ip, "192.0.2.7");
	assert_string_equal(r.host, "a.example");
	assert_string_equal(r.method, "POST");
	assert_string_equal(r.uri, "/login?next=%2F");
	assert_string_equal(r.scheme, "https");
	/* é is C3 A9; U+1F600 is F0 9F 98 80. */
	assert_string_equal(r.user_agent,
	    "say \"hi\" \\ caf\xc3\xa9 \xf0\x9f\x98\x80/");
	assert_null(r.referer);
	assert_string_equal(r.country, "fr");
	assert_int_equal(r.status, 401);
	assert_int_equal(r.asnum, 64500);
	assert_string_equal(r.colo, "CDG");
	assert_string_equal(r.version, "HTTP/2");
	assert_string_equal(r.ja3, "e7d7");
	assert_string_equal(r.ja4, "t13d");
	/* The number-valued header is not a header. */
	assert_int_equal(r.nheaders, 1);
	assert_string_equal(r.headers[0].name, "x-api-key");
	assert_string_equal(r.headers[0].value, "k1");
	assert_int_equal(r.ncookies, 1);
	assert_string_equal(r.cookies[0].name, "session");
	assert_string_equal(r.cookies[0].value, "s=1");
	assert_int_equal(r.time_ns, T0 * NS);

	/* Only the path: it stands for the URI; nothing else is needed. */
	assert_int_equal(parse(ACCESSLOG_LOGPUSH, &opts_none,
	    " { \"ClientRequestPath\" : \"/p\" , \"EdgeStartTimestamp\" : "
	    "\"1700000000\" } ", &r, why, sizeof why), 0);
	assert_string_equal(r.uri, "/p");
	assert_null(r.ip);
	assert_int_equal(r.status, 0);
	assert_int_equal(r.asnum, -1);
	assert_int_equal(r.nheaders, 0);
}

static void
test_logpush_times(void **state)
{
	(void)state;
	/* Seconds, with and without a fraction. */
	assert_int_equal(time_of("1700000000"), T0 * NS);
	assert_int_equal(time_of("1700000000.25"), T0 * NS + 250000000);
	/* Nanoseconds (the Logpush default), as a number and a string. */
	assert_int_equal(time_of("1700000000123456789"),
	    T0 * NS + 123456789);
	assert_int_equal(time_of("\"1700000000000000001\""), T0 * NS + 1);
	/* Milliseconds and microseconds, told apart by size. */
	assert_int_equal(time_of("1700000000042"), T0 * NS + 42000000);
	assert_int_equal(time_of("1700000000000042"), T0 * NS + 42000);
	/* RFC 3339: UTC, and 23:13:20.5 at +01:00 is 22:13:20.5Z. */
	assert_int_equal(time_of("\"2023-11-14T22:13:20Z\""), T0 * NS);
	assert_int_equal(time_of("\"2023-11-14T23:13:20.5+01:00\""),
	    T0 * NS + 500000000);
	/* JSON numbers with exponents, as some writers print them. */
	assert_int_equal(time_of("1.7e12"), T0 * NS);
	assert_int_equal(time_of("1.7E+12"), T0 * NS);
	assert_int_equal(time_of("17000000000000e-4"), T0 * NS);
	assert_int_equal(time_of("1.700000000123456789e18"),
	    T0 * NS + 123456789);
	assert_int_equal(time_of("0.17e10"), T0 * NS);
	assert_int_equal(time_of("17e8"), T0 * NS);
	assert_int_equal(time_of("1.70000000025e9"), T0 * NS + 250000000);
}

static void
test_logpush_bad(void **state)
{
	const enum accesslog_format	lp = ACCESSLOG_LOGPUSH;

	(void)state;
	bad(lp, "127.0.0.1 - - [x]", "not a JSON object at column 1");
	bad(lp, "{\"ClientIP\":\"1.2.3.4", "an unterminated string");
	bad(lp, "{\"ClientIP\":\"a\\qb\",\"EdgeStartTimestamp\":1}",
	    "an unknown escape");
	bad(lp, "{\"ClientIP\":\"a\\u00\",\"EdgeStartTimestamp\":1}",
	    "four hex digits");
	bad(lp, "{\"ClientIP\":\"\\u0000\",\"EdgeStartTimestamp\":1}",
	    "\\u0000");
	bad(lp, "{\"ClientIP\":\"\\ud800x\",\"EdgeStartTimestamp\":1}",
	    "without its low half");
	bad(lp, "{\"ClientIP\":\"\\udc00\",\"EdgeStartTimestamp\":1}",
	    "lone low surrogate");
	bad(lp, "{\"ClientIP\":\"a\tb\",\"EdgeStartTimestamp\":1}",
	    "a control character");
	bad(lp, "{\"ClientIP\":7,\"EdgeStartTimestamp\":1}",
	    "ClientIP is not a string");
	bad(lp, "{\"EdgeResponseStatus\":\"4x\",\"EdgeStartTimestamp\":1}",
	    "EdgeResponseStatus is not a whole number");
	bad(lp, "{\"EdgeStartTimestamp\":1}{}", "text after the object");
	bad(lp, "{\"EdgeStartTimestamp\":1,}", "no key in the object");
	bad(lp, "{\"EdgeStartTimestamp\" 1}", "no ':' after a key");
	bad(lp, "{\"EdgeStartTimestamp\":1 \"a\":2}", "no ',' or '}'");
	bad(lp, "{\"x\":[1,2}", "a bracket that does not match");
	bad(lp, "{\"x\":[1,{\"a\":[]]}", "a bracket that does not match");
	bad(lp, "{\"x\":[1,2", "ends inside a value");
	bad(lp, "{\"ClientIP\":\"192.0.2.1\"}", "no EdgeStartTimestamp");
	/* A missing field is not at a column. */
	{
		struct accesslog_record	r;
		char			why[192];

		assert_int_equal(parse(lp, &opts_none,
		    "{\"ClientIP\":\"192.0.2.1\"}", &r, why, sizeof why), -1);
		assert_string_equal(why, "no EdgeStartTimestamp");
	}
	bad(lp, "{\"EdgeStartTimestamp\":\"yesterday\"}", "no RFC 3339 time");
	bad(lp, "{\"EdgeStartTimestamp\":-5}", "no time since the epoch");
	/* A number JSON does not allow, or one out of range, says so. */
	bad(lp, "{\"EdgeStartTimestamp\":1.7e}",
	    "EdgeStartTimestamp is not a JSON number at column 23");
	bad(lp, "{\"EdgeStartTimestamp\":.5}", "is not a JSON number");
	bad(lp, "{\"EdgeStartTimestamp\":1.}", "is not a JSON number");
	bad(lp, "{\"EdgeStartTimestamp\":1e999}",
	    "EdgeStartTimestamp is no time since the epoch at column 23");
	bad(lp, "{\"EdgeResponseStatus\":4.045e2,\"EdgeStartTimestamp\":1}",
	    "EdgeResponseStatus is not a whole number");
	bad(lp, "{\"EdgeResponseStatus\":-4,\"EdgeStartTimestamp\":1}",
	    "EdgeResponseStatus is negative or too large");
	bad(lp, "{\"ClientASN\":1e30,\"EdgeStartTimestamp\":1}",
	    "ClientASN is negative or too large");
	bad(lp, "{\"ClientASN\":0x10,\"EdgeStartTimestamp\":1}",
	    "no ',' or '}'");
	{
		struct accesslog_record	r;
		char			why[192];

		assert_int_equal(parse(lp, &opts_none,
		    "{\"EdgeResponseStatus\":4.04e2,\"ClientASN\":6.45E4,"
		    "\"EdgeStartTimestamp\":1}", &r, why, sizeof why), 0);
		assert_int_equal(r.status, 404);
		assert_int_equal(r.asnum, 64500);
		assert_int_equal(parse(lp, &opts_none,
		    "{\"EdgeResponseStatus\":404.000,\"EdgeStartTimestamp\":1}",
		    &r, why, sizeof why), 0);
		assert_int_equal(r.status, 404);
	}
	bad(lp, "{\"RequestHeaders\":[],\"EdgeStartTimestamp\":1}",
	    "RequestHeaders is not an object");
}

/* ---- combined ----------------------------------------------------------- */

/*
 * Strings are scanned sixteen bytes at a time: an escape, a quote or a
 * control byte at every offset from a block's start, in a value and in
 * a key, reads as it would one byte at a time.
 */
static void
test_logpush_string_offsets(void **state)
{
	static const struct {
		const char	*json;
		const char	*text;
	} specials[] = {
		{ "\\\"", "\"" }, { "\\\\", "\\" }, { "\\/", "/" },
		{ "\\n", "\n" }, { "\\u00e9", "\xc3\xa9" },
		{ "\\ud83d\\ude00", "\xf0\x9f\x98\x80" }, { "", "" },
	};
	struct accesslog_record	 r;
	char			 line[512], want[128], why[192];
	size_t			 pad, i;
	int			 n;

	(void)state;
	for (pad = 0; pad < 40; pad++) {
		for (i = 0; i < nitems(specials); i++) {
			n = snprintf(line, sizeof line, "{\"%.*s\":\"x\","
			    "\"ClientRequestUserAgent\":\"%.*s%s%.*s\","
			    "\"EdgeStartTimestamp\":1700000000}", (int)pad,
			    "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", (int)pad,
			    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
			    specials[i].json, (int)(pad % 17),
			    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
			assert_true(n > 0 && (size_t)n < sizeof line);
			snprintf(want, sizeof want, "%.*s%s%.*s", (int)pad,
			    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
			    specials[i].text, (int)(pad % 17),
			    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
			if (parse(ACCESSLOG_LOGPUSH, &opts_none, line, &r, why,
			    sizeof why) != 0)
				fail_msg("%s: %s", line, why);
			assert_non_null(r.user_agent);
			assert_string_equal(r.user_agent, want);
			assert_int_equal(r.time_ns, T0 * NS);
		}
		/* A raw control byte or a line cut inside the string. */
		snprintf(line, sizeof line, "{\"ClientRequestUserAgent\":"
		    "\"%.*s\x01\",\"EdgeStartTimestamp\":1700000000}",
		    (int)pad, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
		bad(ACCESSLOG_LOGPUSH, line, "a control character in a string");
		snprintf(line, sizeof line, "{\"EdgeStartTimestamp\":1,"
		    "\"ClientIP\":\"%.*s", (int)pad,
		    "1111111111111111111111111111111111111111");
		bad(ACCESSLOG_LOGPUSH, line, "an unterminated string");
	}
}

/* Keys in any order, twice (the last wins), missing, escaped; and a
 * value far longer than a block. */
static void
test_logpush_keys(void **state)
{
	struct accesslog_record	 r;
	char			*line, why[192];
	size_t			 n = 200000;

	(void)state;
	assert_int_equal(parse(ACCESSLOG_LOGPUSH, &opts_none,
	    "{\"EdgeStartTimestamp\":1700000000,\"ClientRequestMethod\":\"GET\","
	    "\"ClientIP\":\"192.0.2.1\",\"ClientIP\":\"192.0.2.2\","
	    "\"Client\\u0049P\":\"192.0.2.3\",\"ClientRequestURI\":\"/a\"}",
	    &r, why, sizeof why), 0);
	/* An escaped key is the same key. */
	assert_string_equal(r.ip, "192.0.2.3");
	assert_string_equal(r.method, "GET");
	assert_string_equal(r.uri, "/a");
	assert_null(r.host);
	assert_null(r.user_agent);
	assert_int_equal(r.status, 0);
	assert_int_equal(r.asnum, -1);
	bad(ACCESSLOG_LOGPUSH, "{\"ClientIP\":\"192.0.2.1\"}",
	    "no EdgeStartTimestamp");

	/* 200 000 bytes of user agent, then the time. */
	line = malloc(n + 128);
	assert_non_null(line);
	memcpy(line, "{\"ClientRequestUserAgent\":\"", 27);
	memset(line + 27, 'u', n);
	memcpy(line + 27 + n, "\",\"EdgeStartTimestamp\":1700000000}", 35);
	assert_int_equal(accesslog_parse_line(ACCESSLOG_LOGPUSH, &opts_none,
	    line, strlen(line), &r, why, sizeof why), 0);
	assert_int_equal(strlen(r.user_agent), n);
	assert_int_equal(r.time_ns, T0 * NS);
	free(line);
}

static void
test_combined(void **state)
{
	struct accesslog_options	o = { ACCESSLOG_COMBINED, "www.example",
					    NULL };
	struct accesslog_record		r;
	char				why[192];

	(void)state;
	/* 14:13:20 at -08:00 is 22:13:20Z. */
	assert_int_equal(parse(ACCESSLOG_COMBINED, &o,
	    "2001:db8::1 - frank [14/Nov/2023:14:13:20 -0800] "
	    "\"GET /a/b?c=d HTTP/1.1\" 401 2326 \"https://ref.example/\" "
	    "\"Mozilla/5.0 \\\"x\\\" \\x41\" \"extra\"", &r, why, sizeof why),
	    0);
	assert_string_equal(r.ip, "2001:db8::1");
	assert_int_equal(r.time_ns, T0 * NS);
	assert_string_equal(r.method, "GET");
	assert_string_equal(r.uri, "/a/b?c=d");
	assert_string_equal(r.version, "HTTP/1.1");
	assert_int_equal(r.status, 401);
	assert_string_equal(r.referer, "https://ref.example/");
	assert_string_equal(r.user_agent, "Mozilla/5.0 \"x\" A");
	assert_string_equal(r.host, "www.example");
	assert_string_equal(r.scheme, "https");
	assert_null(r.colo);

	/* The common log format; an absolute target names scheme and host. */
	o.scheme = "http";
	assert_int_equal(parse(ACCESSLOG_COMBINED, &o,
	    "192.0.2.1 - - [15/Nov/2023:00:00:00 +0100] "
	    "\"POST http://other.example:8080/x HTTP/1.0\" 200 -",
	    &r, why, sizeof why), 0);
	/* 2023-11-15T00:00:00+01:00 = 2023-11-14T23:00:00Z = T0 + 2800. */
	assert_int_equal(r.time_ns, (T0 + 2800) * NS);
	assert_string_equal(r.scheme, "http");
	assert_string_equal(r.host, "other.example:8080");
	assert_string_equal(r.uri, "/x");
	assert_null(r.user_agent);
	assert_null(r.referer);

	bad(ACCESSLOG_COMBINED, "192.0.2.1 - - [14/Nov/2023:14:13:20 -0800] "
	    "\"-\" 408 0 \"-\" \"-\"", "not METHOD TARGET VERSION");
	bad(ACCESSLOG_COMBINED, "192.0.2.1 - - [14/Foo/2023:14:13:20 -0800] "
	    "\"GET / HTTP/1.1\" 200 1", "a time not like");
	bad(ACCESSLOG_COMBINED, "192.0.2.1 - - [14/Nov/2023:14:13:20 -0800] "
	    "\"GET / HTTP/1.1\" OK 1", "no status");
	/* Past 2262 nanoseconds overflow: refused, not wrapped. */
	bad(ACCESSLOG_COMBINED, "192.0.2.1 - - [14/Nov/4023:14:13:20 -0800] "
	    "\"GET / HTTP/1.1\" 200 1", "a time not like");
	bad(ACCESSLOG_COMBINED, "192.0.2.1", "not the combined log format");
	/* A client that is no address is a bad line, not a client. */
	bad(ACCESSLOG_COMBINED, "not-an-ip - - [14/Nov/2023:14:13:20 -0800] "
	    "\"GET / HTTP/1.1\" 200 1", "a client address that is not an "
	    "IPv4 or IPv6 address at column 1");
	bad(ACCESSLOG_COMBINED, "192.0.2.256 - - [14/Nov/2023:14:13:20 -0800] "
	    "\"GET / HTTP/1.1\" 200 1", "not an IPv4 or IPv6 address");
	bad(ACCESSLOG_COMBINED, "unix: - - [14/Nov/2023:14:13:20 -0800] "
	    "\"GET / HTTP/1.1\" 200 1", "not an IPv4 or IPv6 address");
	bad(ACCESSLOG_COMBINED, "192.0.2.1 - - 14/Nov/2023", "no [time]");
}

/* ---- the reader --------------------------------------------------------- */

static const char reader_text[] =
    "# a comment, not a request\n"
    "{\"ClientIP\":\"192.0.2.1\",\"EdgeStartTimestamp\":1700000000}\r\n"
    "\n"
    "not json\n"
    "   \n"
    "{\"ClientIP\":\"192.0.2.2\",\"EdgeStartTimestamp\":1700000001}\n"
    "{\"ClientIP\":\"192.0.2.3\",\"EdgeStartTimestamp\":\"x\"}\n"
    "{\"ClientIP\":\"192.0.2.4\",\"EdgeStartTimestamp\":1700000002}";

/* Read the log at path and check what reader_text holds. */
static void
check_reader(const char *path)
{
	struct accesslog_options	 o = { ACCESSLOG_AUTO, NULL, NULL };
	const struct accesslog_record	*r;
	const struct accesslog_bad	*b;
	struct accesslog		*l;
	char				*cause = NULL;
	const char			*ips[3] = { "192.0.2.1", "192.0.2.2",
					    "192.0.2.4" };
	const uint64_t			 lines[3] = { 2, 6, 8 };
	size_t				 n = 0, nb;

	l = accesslog_open(path, &o, &cause);
	assert_non_null(l);
	while (accesslog_next(l, &r, &cause) == 1) {
		assert_true(n < 3);
		assert_string_equal(r->ip, ips[n]);
		assert_int_equal(r->line, lines[n]);
		assert_int_equal(r->time_ns, (T0 + (int64_t)n) * NS);
		n++;
	}
	assert_null(cause);
	assert_int_equal(n, 3);
	assert_int_equal(accesslog_format(l), ACCESSLOG_LOGPUSH);
	/* Eight lines, of which two empty and three bad; the first, bad,
	 * does not make the format combined. */
	assert_int_equal(accesslog_lines(l), 6);
	assert_int_equal(accesslog_bad_lines(l), 3);
	b = accesslog_bad(l, &nb);
	assert_int_equal(nb, 3);
	assert_int_equal(b[0].line, 1);
	assert_int_equal(b[1].line, 4);
	assert_string_equal(b[1].text, "not json");
	assert_int_equal(b[2].line, 7);
	assert_non_null(strstr(b[2].why, "EdgeStartTimestamp"));
	/* The line as it was, not as the scan left it. */
	assert_string_equal(b[2].text,
	    "{\"ClientIP\":\"192.0.2.3\",\"EdgeStartTimestamp\":\"x\"}");
	accesslog_close(l);
}

static char *
write_file(const char *dir, const char *name, const char *text, int gzip)
{
	char	*path;
	FILE	*f;
	gzFile	 gz;

	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	if (gzip) {
		assert_non_null(gz = gzopen(path, "wb"));
		assert_int_equal(gzwrite(gz, text, (unsigned)strlen(text)),
		    (int)strlen(text));
		assert_int_equal(gzclose(gz), Z_OK);
	} else {
		assert_non_null(f = fopen(path, "w"));
		fputs(text, f);
		assert_int_equal(fclose(f), 0);
	}
	return (path);
}

static void
test_reader_plain_gzip_stdin(void **state)
{
	const char	*dir = *state;
	char		*plain, *gz;
	int		 saved, fd;

	plain = write_file(dir, "log.json", reader_text, 0);
	gz = write_file(dir, "log.json.gz", reader_text, 1);
	check_reader(plain);
	check_reader(gz);

	/* "-" is stdin, gzip or not. */
	saved = dup(STDIN_FILENO);
	assert_true((fd = open(gz, O_RDONLY)) >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	check_reader("-");
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	free(plain);
	free(gz);
}

static void
test_reader_errors(void **state)
{
	const char			*dir = *state;
	struct accesslog_options	 o = { ACCESSLOG_AUTO, NULL, NULL };
	const struct accesslog_record	*r;
	struct accesslog		*l;
	char				*path, *cut, *cause = NULL, *big;
	size_t				 len, i;
	FILE				*f;

	/* A file that is not there. */
	assert_true(asprintf(&path, "%s/none", dir) > 0);
	assert_null(accesslog_open(path, &o, &cause));
	assert_non_null(strstr(cause, "No such file"));
	free(cause);
	cause = NULL;
	free(path);

	/* A gzip stream cut short: an error, after the lines before it. */
	path = write_file(dir, "cut.gz", reader_text, 1);
	f = fopen(path, "r+");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	assert_int_equal(ftruncate(fileno(f), (off_t)(len - 12)), 0);
	fclose(f);
	assert_non_null(l = accesslog_open(path, &o, &cause));
	while (accesslog_next(l, &r, &cause) == 1)
		;
	assert_non_null(cause);
	assert_non_null(strstr(cause, "cut.gz"));
	free(cause);
	cause = NULL;
	accesslog_close(l);
	free(path);

	/* A line over the limit is one bad line; the next one reads. */
	big = malloc(ACCESSLOG_LINE_MAX + 200);
	assert_non_null(big);
	memset(big, 'x', ACCESSLOG_LINE_MAX + 100);
	len = ACCESSLOG_LINE_MAX + 100;
	memcpy(big + len, "\n{\"EdgeStartTimestamp\":1}\n", 27);
	cut = write_file(dir, "long.json", big, 0);
	assert_non_null(l = accesslog_open(cut, &o, &cause));
	i = 0;
	while (accesslog_next(l, &r, &cause) == 1) {
		assert_int_equal(r->line, 2);
		i++;
	}
	assert_null(cause);
	assert_int_equal(i, 1);
	assert_int_equal(accesslog_lines(l), 2);
	assert_int_equal(accesslog_bad_lines(l), 1);
	accesslog_close(l);
	free(cut);
	free(big);
}

static void
test_reader_keeps_five(void **state)
{
	const char			*dir = *state;
	struct accesslog_options	 o = { ACCESSLOG_LOGPUSH, NULL, NULL };
	const struct accesslog_record	*r;
	const struct accesslog_bad	*b;
	struct accesslog		*l;
	char				*path, *cause = NULL;
	size_t				 nb;

	path = write_file(dir, "bad.json", "a\nb\nc\nd\ne\nf\ng\n"
	    "{\"EdgeStartTimestamp\":1}\n", 0);
	assert_non_null(l = accesslog_open(path, &o, &cause));
	while (accesslog_next(l, &r, &cause) == 1)
		assert_int_equal(r->line, 8);
	assert_int_equal(accesslog_lines(l), 8);
	assert_int_equal(accesslog_bad_lines(l), 7);
	b = accesslog_bad(l, &nb);
	assert_int_equal(nb, ACCESSLOG_BAD_KEPT);
	assert_string_equal(b[4].text, "e");
	accesslog_close(l);
	free(path);
}

/*
 * The reader knows a key by its bytes where the last line had them: a key
 * that only starts like the last one's, one spelled with an escape, a
 * member added in front (every key one place on) or unknown keys there
 * are each read for what they are.
 */
static void
test_reader_keys_in_place(void **state)
{
	static const char text[] =
	    "{\"ClientIP\":\"192.0.2.1\",\"ClientRequestHost\":\"a\","
	    "\"EdgeStartTimestamp\":1}\n"
	    "{\"ClientIPx\":\"x\",\"ClientRequestHost\":\"b\","
	    "\"EdgeStartTimestamp\":2}\n"
	    "{\"Client\\u0049P\":\"192.0.2.3\",\"ClientRequestHost\":\"c\","
	    "\"EdgeStartTimestamp\":3}\n"
	    "{\"ClientIP\":\"192.0.2.4\",\"ClientRequestHost\":\"d\","
	    "\"EdgeStartTimestamp\":4}\n"
	    "{\"EdgeColoCode\":\"LHR\",\"ClientIP\":\"192.0.2.5\","
	    "\"ClientRequestHost\":\"e\",\"EdgeStartTimestamp\":5}\n"
	    "{\"ClientRequestHost\":\"f\",\"EdgeStartTimestamp\":6,"
	    "\"ClientRequestHos\":\"g\",\"ClientIP\":\"192.0.2.6\"}\n";
	static const struct {
		const char	*ip, *host, *colo;
	} want[] = {
		{ "192.0.2.1", "a", NULL },
		{ NULL, "b", NULL },
		{ "192.0.2.3", "c", NULL },
		{ "192.0.2.4", "d", NULL },
		{ "192.0.2.5", "e", "LHR" },
		{ "192.0.2.6", "f", NULL },
	};
	const char			*dir = *state;
	struct accesslog_options	 o = { ACCESSLOG_LOGPUSH, NULL, NULL };
	const struct accesslog_record	*r;
	struct accesslog		*l;
	char				*path, *cause = NULL;
	size_t				 n = 0;

	path = write_file(dir, "keys.json", text, 0);
	assert_non_null(l = accesslog_open(path, &o, &cause));
	while (accesslog_next(l, &r, &cause) == 1) {
		assert_true(n < sizeof want / sizeof want[0]);
		if (want[n].ip == NULL)
			assert_null(r->ip);
		else
			assert_string_equal(r->ip, want[n].ip);
		assert_string_equal(r->host, want[n].host);
		if (want[n].colo == NULL)
			assert_null(r->colo);
		else
			assert_string_equal(r->colo, want[n].colo);
		assert_int_equal(r->time_ns, (int64_t)(n + 1) * NS);
		n++;
	}
	assert_null(cause);
	assert_int_equal(n, sizeof want / sizeof want[0]);
	assert_int_equal(accesslog_bad_lines(l), 0);
	accesslog_close(l);
	free(path);
}

static int
setup(void **state)
{
	return (testdir_setup(state, "accesslog"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_logpush_fields),
		cmocka_unit_test(test_logpush_times),
		cmocka_unit_test(test_logpush_bad),
		cmocka_unit_test(test_logpush_string_offsets),
		cmocka_unit_test(test_logpush_keys),
		cmocka_unit_test(test_combined),
		cmocka_unit_test_setup_teardown(test_reader_plain_gzip_stdin,
		    setup, testdir_teardown),
		cmocka_unit_test_setup_teardown(test_reader_errors, setup,
		    testdir_teardown),
		cmocka_unit_test_setup_teardown(test_reader_keeps_five, setup,
		    testdir_teardown),
		cmocka_unit_test_setup_teardown(test_reader_keys_in_place,
		    setup, testdir_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
