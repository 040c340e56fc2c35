/*
 * Rules of the API that the client checks before sending and edgemu checks
 * on receipt: one copy, so both refuse the same things.
 */
#ifndef EDGE_APIRULES_H
#define EDGE_APIRULES_H

/* An API Shield JWT claim name: "<token configuration id>:$<JSONPath>". */
int	 apirules_jwt_claim_ok(const char *);

#endif
