/* In-process requests to edgemu's route table on a scratch store, no socket. */
#ifndef EDGE_ROUTETEST_H
#define EDGE_ROUTETEST_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "server.h"

/* A scratch store in a testdir, holding the schemas of the areas routed. */
struct routetest {
	char			 *dir;
	struct store		 *store;
	const struct area *const *areas;
	size_t			  nareas;
};

/* What one request answered. */
struct routetest_call {
	unsigned int	 status;
	cJSON		*result;	/* owned */
	cJSON		*top;		/* members beside result, owned */
	char		*message;	/* errors[0].message, owned */
	int		 code;		/* errors[0].code */
	long		 page, per_page, total_count;
};

/* A new store in $TMPDIR/edgetui-NAME-XXXXXX for the areas (kept, not
 * copied); fails the test on error. */
struct routetest *routetest_open(const char *, const struct area *const *,
		    size_t);
void		  routetest_close(struct routetest *);

/*
 * Route and run one request as the server would: query string or NULL, body
 * JSON text or NULL, form a multipart body or NULL (owned by the call).
 */
void		  routetest_call(struct routetest *, enum http_method,
		    const char *, const char *, const char *,
		    struct multipart *, struct routetest_call *);
void		  routetest_call_free(struct routetest_call *);

#endif
