/* Percent-encoding of path segments and query values, by libcurl. */
#ifndef EDGE_PERCENT_H
#define EDGE_PERCENT_H

struct buf;

/*
 * Append s with every byte but A-Z a-z 0-9 - . _ ~ as %XX (RFC 3986's
 * unreserved set, upper-case hex, whatever the locale).
 */
void	 percent_encode(struct buf *, const char *);

#endif
