/* Calendar dates (proleptic Gregorian, UTC) to days and back. */
#ifndef EDGE_CIVIL_H
#define EDGE_CIVIL_H

#include <stdint.h>

/* Days since 1970-01-01 of y-m-d (m 1..12, d 1..31). */
int64_t		 civil_days(int64_t, int, int);
/* The date of a day counted from 1970-01-01. */
void		 civil_from_days(int64_t, int64_t *, int *, int *);

#endif
