/* Calendar dates (proleptic Gregorian, UTC) and RFC 3339 times. */
#ifndef EDGE_CIVIL_H
#define EDGE_CIVIL_H

#include <stdint.h>

/* Days since 1970-01-01 of y-m-d (m 1..12, d 1..31). */
int64_t		 civil_days(int64_t, int, int);
/* The date of a day counted from 1970-01-01. */
void		 civil_from_days(int64_t, int64_t *, int *, int *);
/*
 * An RFC 3339 time: "2014-01-02T02:20:00Z", or with a fraction and an
 * offset, "2014-01-02t02:20:00.123456+01:00" (a space may stand for the
 * T). Sets the seconds since the epoch, the fraction in nanoseconds (its
 * first nine digits) and how many digits of it were sent (at most 9);
 * returns -1, setting nothing, for anything else.
 */
int		 civil_parse_rfc3339(const char *, int64_t *, long *, int *);

#endif
