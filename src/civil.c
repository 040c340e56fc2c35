/*
 * Calendar dates (proleptic Gregorian, UTC) and RFC 3339 times, on the C
 * library's strptime, timegm and gmtime_r so that no calendar arithmetic
 * is ours; only the fraction and the offset, which strptime does not
 * know, are read here.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "civil.h"
#include "log.h"

int64_t
civil_days(int64_t y, int m, int d)
{
	struct tm	tm = { 0 };
	time_t		t;

	tm.tm_year = (int)(y - 1900);
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	t = timegm(&tm);
	/* Midnight UTC: a whole number of days, negative ones included. */
	return ((int64_t)t / 86400);
}

void
civil_from_days(int64_t days, int64_t *y, int *m, int *d)
{
	struct tm	tm;
	time_t		t = (time_t)(days * 86400);

	if (gmtime_r(&t, &tm) == NULL)
		fatalx("civil_from_days: day %lld is out of range",
		    (long long)days);
	*y = (int64_t)tm.tm_year + 1900;
	*m = tm.tm_mon + 1;
	*d = tm.tm_mday;
}

/* The fraction and the zone after "YYYY-MM-DDTHH:MM:SS". */
static int
civil_parse_tail(const char *s, long *nsec, int *digits, int *offset)
{
	int	i, oh, om, sign;

	*nsec = 0;
	*digits = 0;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return (-1);
		for (; *s >= '0' && *s <= '9'; s++) {
			if (*digits == 9)
				continue;
			*nsec = *nsec * 10 + (*s - '0');
			(*digits)++;
		}
		for (i = *digits; i < 9; i++)
			*nsec *= 10;
	}
	*offset = 0;
	if (*s == 'Z' || *s == 'z')
		return (s[1] == '\0' ? 0 : -1);
	if (*s != '+' && *s != '-')
		return (-1);
	sign = *s++ == '-' ? -1 : 1;
	for (i = 0; i < 5; i++) {
		if (i == 2 ? s[i] != ':' : s[i] < '0' || s[i] > '9')
			return (-1);
	}
	if (s[5] != '\0')
		return (-1);
	oh = (s[0] - '0') * 10 + (s[1] - '0');
	om = (s[3] - '0') * 10 + (s[4] - '0');
	if (oh > 23 || om > 59)
		return (-1);
	*offset = sign * (oh * 3600 + om * 60);
	return (0);
}

int
civil_parse_rfc3339(const char *s, int64_t *sec, long *nsec, int *digits)
{
	static const char	 shape[] = "dddd-dd-ddTdd:dd:dd";
	char			 head[sizeof shape];
	struct tm		 tm;
	const char		*end;
	int64_t			 days, y;
	long			 ns;
	size_t			 i;
	int			 m, d, nd, offset;

	if (s == NULL)
		return (-1);
	/* strptime also takes fewer digits and blanks: the shape first. */
	for (i = 0; i < sizeof shape - 1; i++) {
		if (shape[i] == 'd') {
			if (s[i] < '0' || s[i] > '9')
				return (-1);
		} else if (shape[i] == 'T') {
			if (s[i] != 'T' && s[i] != 't' && s[i] != ' ')
				return (-1);
		} else if (s[i] != shape[i])
			return (-1);
	}
	memcpy(head, s, sizeof shape - 1);
	head[10] = 'T';
	head[sizeof shape - 1] = '\0';
	memset(&tm, 0, sizeof tm);
	end = strptime(head, "%Y-%m-%dT%H:%M:%S", &tm);
	/* A leap second (:60) is taken, as RFC 3339 does; :61 is not. */
	if (end == NULL || *end != '\0' || tm.tm_sec > 60)
		return (-1);
	if (civil_parse_tail(s + sizeof shape - 1, &ns, &nd, &offset) != 0)
		return (-1);
	/* strptime takes any day up to 31: February 30 comes back March. */
	days = civil_days((int64_t)tm.tm_year + 1900, tm.tm_mon + 1,
	    tm.tm_mday);
	civil_from_days(days, &y, &m, &d);
	if (m != tm.tm_mon + 1 || d != tm.tm_mday)
		return (-1);
	*sec = days * 86400 + tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec -
	    offset;
	*nsec = ns;
	*digits = nd;
	return (0);
}
