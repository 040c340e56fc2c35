/*
 * Retry decisions for API requests, after the official SDKs' rules
 * (tus-and-reliability section 4) with three changes for a console: a
 * create (POST) is only sent again when it cannot have reached the server
 * (or the server answered 429, which says it did nothing), a wait longer
 * than a minute is reported with its end time instead of slept through,
 * and a 429 without Retry-After backs off longer than other failures.
 *
 * Jitter: the backoff is shortened by up to 25 % (delay * (1 - u / 4)),
 * as the SDKs do; waits the server asks for are used exactly.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "retry.h"

#define RETRY_BASE_MS		500L
#define RETRY_CAP_MS		8000L
/* 429 without Retry-After: 2 s, 4 s... up to 30 s, then report. */
#define RETRY_429_BASE_MS	2000L
#define RETRY_429_CAP_MS	30000L
#define RETRY_MAX_WAIT_MS	(86400L * 1000)

static long
retry_exp_ms(long base, long cap, int n, double u)
{
	long	d = base;

	if (u < 0 || u >= 1)
		u = 0;
	while (n-- > 0 && d < cap)
		d *= 2;
	if (d > cap)
		d = cap;
	return ((long)((double)d * (1.0 - u / 4)));
}

long
retry_backoff_ms(int n, double u)
{
	return (retry_exp_ms(RETRY_BASE_MS, RETRY_CAP_MS, n, u));
}

/*
 * Not 409: a conflict (a caption still being generated, a rule changed
 * meanwhile) stays until something else happens; another attempt a second
 * later only says it again, later.
 */
static int
retry_retryable_status(long status)
{
	return (status == 408 || status == 429 ||
	    (status >= 500 && status <= 599));
}

/* Whether request bytes may have been seen by the server. */
static int
retry_reached(const struct retry_input *in)
{
	if (in->reached || in->http_status != 0)
		return (1);
	return (in->net == RETRY_NET_SEND || in->net == RETRY_NET_RECV ||
	    in->net == RETRY_NET_TIMEOUT);
}

/* A final answer, before the attempt count and delays matter. */
static const char *
retry_refusal(const struct retry_input *in)
{
	int	forced = 0;

	if (in->net == RETRY_NET_CANCELLED)
		return ("cancelled");
	if (in->net == RETRY_NET_OTHER)
		return ("a failure that another attempt cannot fix");
	if (in->http_status == 0 && in->net == RETRY_NET_NONE)
		return ("no failure to retry");
	if (in->should_retry != NULL) {
		if (strcasecmp(in->should_retry, "false") == 0)
			return ("the server said not to retry");
		forced = strcasecmp(in->should_retry, "true") == 0;
	}
	if (in->http_status != 0 && !forced &&
	    !retry_retryable_status(in->http_status))
		return ("the status is final");
	if (in->method != NULL && strcasecmp(in->method, "POST") == 0 &&
	    retry_reached(in) && in->http_status != 429)
		return ("a create that may have reached the server");
	return (NULL);
}

static void
retry_report(struct retry_decision *d, time_t now, long ms, const char *why)
{
	d->action = RETRY_REPORT;
	d->delay_ms = ms;
	d->until = now + (time_t)((ms + 999) / 1000);
	d->why = why;
}

void
retry_decide(const struct retry_input *in, struct retry_decision *d)
{
	long	ms;
	int	max, told;
	double	u;

	memset(d, 0, sizeof *d);
	d->action = RETRY_NO;
	if ((d->why = retry_refusal(in)) != NULL)
		return;
	max = in->max_retries < 0 ? RETRY_DEFAULT_MAX : in->max_retries;
	told = retry_server_delay(in->retry_after, in->retry_after_ms, in->now,
	    &ms) == 0;
	if (told && ms > RETRY_AFTER_CAP_MS) {
		retry_report(d, in->now, ms, "the server asked for a long wait");
		return;
	}
	if (in->attempt >= max) {
		if (in->http_status != 429)
			d->why = "retries used up";
		else if (told)
			retry_report(d, in->now, ms, "rate-limited");
		else {
			retry_report(d, in->now, RETRY_BLOCK_SECONDS * 1000L,
			    "rate-limited; assuming the 5-minute block");
		}
		return;
	}
	d->action = RETRY_AFTER;
	if (told) {
		d->delay_ms = ms;
		d->why = "the server asked to wait";
		return;
	}
	u = in->jitter != NULL ? in->jitter(in->jitter_arg) : 0;
	if (in->http_status == 429) {
		d->delay_ms = retry_exp_ms(RETRY_429_BASE_MS, RETRY_429_CAP_MS,
		    in->attempt, u);
		d->why = "rate-limited";
	} else {
		d->delay_ms = retry_backoff_ms(in->attempt, u);
		d->why = "backoff";
	}
}

/* A non-negative decimal ("30", "0.1", " 2.5 ") times scale, capped. */
static int
retry_number(const char *s, double scale, long *ms)
{
	double	v = 0, f = 1;
	int	digits = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	for (; isdigit((unsigned char)*s); s++, digits++) {
		if (v < 1e12)
			v = v * 10 + (*s - '0');
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++, digits++) {
			f /= 10;
			v += (*s - '0') * f;
		}
	}
	while (*s == ' ' || *s == '\t')
		s++;
	if (digits == 0 || *s != '\0')
		return (-1);
	v *= scale;
	*ms = v >= RETRY_MAX_WAIT_MS ? RETRY_MAX_WAIT_MS : (long)v;
	return (0);
}

int
retry_server_delay(const char *after, const char *after_ms, time_t now,
    long *ms)
{
	time_t	t;

	if (after_ms != NULL && retry_number(after_ms, 1, ms) == 0)
		return (0);
	if (after == NULL)
		return (-1);
	if (retry_number(after, 1000, ms) == 0)
		return (0);
	if (retry_parse_http_date(after, &t) != 0 || t < now)
		return (-1);
	*ms = t - now >= RETRY_MAX_WAIT_MS / 1000 ? RETRY_MAX_WAIT_MS :
	    (long)(t - now) * 1000;
	return (0);
}

/* ---- HTTP dates -------------------------------------------------------- */

static int
retry_month(const char *s)
{
	static const char	 months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	int			 i;

	for (i = 0; i < 12; i++) {
		if (strncmp(s, months + 3 * i, 3) == 0)
			return (i);
	}
	return (-1);
}

/* Up to max digits (at least min) into *v. */
static int
retry_int(const char **sp, int min, int max, int *v)
{
	const char	*s = *sp;
	int		 n = 0;

	*v = 0;
	while (n < max && isdigit((unsigned char)*s)) {
		*v = *v * 10 + (*s++ - '0');
		n++;
	}
	if (n < min)
		return (-1);
	*sp = s;
	return (0);
}

static int
retry_clock(const char **sp, struct tm *tm)
{
	const char	*s = *sp;

	if (retry_int(&s, 2, 2, &tm->tm_hour) != 0 || *s++ != ':' ||
	    retry_int(&s, 2, 2, &tm->tm_min) != 0 || *s++ != ':' ||
	    retry_int(&s, 2, 2, &tm->tm_sec) != 0)
		return (-1);
	*sp = s;
	return (0);
}

/* "06 Nov 1994 08:49:37 GMT" or "06-Nov-94 08:49:37 GMT". */
static int
retry_date_dmy(const char *s, struct tm *tm)
{
	char	sep;
	int	y, two;

	if (retry_int(&s, 1, 2, &tm->tm_mday) != 0)
		return (-1);
	sep = *s++;
	if ((sep != ' ' && sep != '-') || (tm->tm_mon = retry_month(s)) < 0)
		return (-1);
	s += 3;
	if (*s++ != sep)
		return (-1);
	two = sep == '-';
	if (retry_int(&s, two ? 2 : 4, two ? 2 : 4, &y) != 0)
		return (-1);
	if (two)
		y += y < 70 ? 2000 : 1900;
	tm->tm_year = y - 1900;
	if (*s++ != ' ' || retry_clock(&s, tm) != 0)
		return (-1);
	return (strcmp(s, " GMT") == 0 ? 0 : -1);
}

/* asctime: "Nov  6 08:49:37 1994" (after the day name). */
static int
retry_date_asctime(const char *s, struct tm *tm)
{
	int	y;

	if ((tm->tm_mon = retry_month(s)) < 0)
		return (-1);
	s += 3;
	if (*s++ != ' ')
		return (-1);
	if (*s == ' ')
		s++;
	if (retry_int(&s, 1, 2, &tm->tm_mday) != 0 || *s++ != ' ' ||
	    retry_clock(&s, tm) != 0 || *s++ != ' ' ||
	    retry_int(&s, 4, 4, &y) != 0 || *s != '\0')
		return (-1);
	tm->tm_year = y - 1900;
	return (0);
}

int
retry_parse_http_date(const char *s, time_t *t)
{
	static const int	 mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31,
				    30, 31, 30, 31 };
	struct tm		 tm;
	int			 rc;

	memset(&tm, 0, sizeof tm);
	while (*s == ' ')
		s++;
	while (isalpha((unsigned char)*s))
		s++;			/* the day name is redundant */
	if (*s == ',') {
		s++;
		if (*s++ != ' ')
			return (-1);
		rc = retry_date_dmy(s, &tm);
	} else if (*s == ' ')
		rc = retry_date_asctime(s + 1, &tm);
	else
		return (-1);
	if (rc != 0 || tm.tm_mday < 1 || tm.tm_mday > mdays[tm.tm_mon] ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return (-1);
	*t = timegm(&tm);
	return (*t == (time_t)-1 ? -1 : 0);
}

const char *
retry_until_text(time_t t, char buf[RETRY_UNTIL_LEN])
{
	struct tm	tm;

	if (localtime_r(&t, &tm) == NULL ||
	    strftime(buf, RETRY_UNTIL_LEN, "%H:%M:%S", &tm) == 0)
		snprintf(buf, RETRY_UNTIL_LEN, "??:??:??");
	return (buf);
}

/* ---- Ratelimit header -------------------------------------------------- */

static const char *
retry_skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return (s);
}

/* Skip a structured-field item name: a quoted string or a token. */
static const char *
retry_skip_name(const char *s)
{
	if (*s == '"') {
		for (s++; *s != '\0' && *s != '"'; s++) {
			if (*s == '\\' && s[1] != '\0')
				s++;
		}
		return (*s == '"' ? s + 1 : s);
	}
	while (*s != '\0' && *s != ';' && *s != ',')
		s++;
	return (s);
}

/* One ";key=value" parameter; value is -1 unless a plain integer. */
static const char *
retry_param(const char *s, char *key, long *value)
{
	char	*end;

	s = retry_skip_ws(s);
	*key = '\0';
	*value = -1;
	if (s[0] != '\0' && s[1] == '=') {
		*key = s[0];
		s += 2;
		if (isdigit((unsigned char)*s)) {
			*value = strtol(s, &end, 10);
			s = end;
		}
	}
	while (*s != '\0' && *s != ';' && *s != ',')
		s++;
	return (s);
}

int
retry_parse_ratelimit(const char *s, long *remaining, long *reset)
{
	long	r, t, v;
	char	key;
	int	found = 0;

	*remaining = *reset = -1;
	if (s == NULL)
		return (-1);
	while (*s != '\0') {
		s = retry_skip_name(retry_skip_ws(s));
		r = t = -1;
		while (*s == ';') {
			s = retry_param(s + 1, &key, &v);
			if (key == 'r')
				r = v;
			else if (key == 't')
				t = v;
		}
		while (*s != '\0' && *s != ',')
			s++;
		if (*s == ',')
			s++;
		if (r < 0)
			continue;
		if (!found || r < *remaining ||
		    (r == *remaining && t > *reset)) {
			*remaining = r;
			*reset = t;
		}
		found = 1;
	}
	return (found ? 0 : -1);
}
