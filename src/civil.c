/*
 * Calendar dates (proleptic Gregorian, UTC) to days and back, on the C
 * library's timegm and gmtime_r so that no calendar arithmetic is ours.
 */
#include "config.h"

#include <stdint.h>
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
