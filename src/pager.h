/*
 * List cursors: the query of each next request and the new records of each
 * response, for the three ways the API pages a list.
 */
#ifndef EDGE_PAGER_H
#define EDGE_PAGER_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "api.h"
#include "buf.h"

enum pager_style {
	/* page=N&per_page=M, result_info (API Shield, rate limits). */
	PAGER_PAGES,
	/*
	 * Stream videos: newest first, each next request bounded by the
	 * oldest created time seen (end=; with PAGER_ASC, start=).
	 */
	PAGER_CREATED,
	/* One call: result is the array, or an object holding it (key). */
	PAGER_SINGLE,
	/*
	 * cursor= from the last result_info.cursor, until one comes without
	 * (the zone's rulesets); per_page= when one is given.
	 */
	PAGER_CURSOR
};

/* Flags in pager_opts. */
#define PAGER_ASC	0x1	/* PAGER_CREATED oldest first (asc=true) */
#define PAGER_SEND_LIMIT 0x2	/* PAGER_CREATED: send limit=per_page */

/* Stream's batch when no limit is sent. */
#define PAGER_STREAM_BATCH 1000
/*
 * A list stops after this many requests, whatever the server says of
 * more (a server claiming endless pages): past the API's budget of 1,200
 * requests per 5 minutes anyway. pager_bound_hit then says so.
 */
#define PAGER_MAX_REQUESTS 1000

struct pager_opts {
	int		 flags;
	const char	*key;		/* PAGER_SINGLE: "liveInputs" */
	const char	*id_field;	/* PAGER_CREATED: default "uid" */
	const char	*time_field;	/* PAGER_CREATED: default "created" */
	long		 max_items;	/* stop after this many; 0: all */
};

struct pager;

/*
 * per_page is the page size (PAGER_PAGES; 0 sends none and learns it from
 * result_info) or the batch the server returns (PAGER_CREATED; 0 means
 * PAGER_STREAM_BATCH). opts may be NULL.
 */
struct pager	*pager_new(enum pager_style, long, const struct pager_opts *);
void		 pager_free(struct pager *);

/*
 * Append the parameters of the next request to query ("&" first unless it
 * is empty or ends in '?' or '&'). Returns 1, or 0 once the list is done.
 * Until pager_feed, calling again appends the same parameters (a retry).
 */
int		 pager_next_query(struct pager *, struct buf *);

/*
 * Take one successful response: *items gets the records not returned
 * before (pointers into the response's result, in server order; the array
 * belongs to the pager and lasts until the next feed). Returns 0, or -1
 * with *cause when the response cannot be a page of this list.
 */
int		 pager_feed(struct pager *, const struct api_response *,
		     cJSON ***, size_t *, char **);
int		 pager_done(const struct pager *);

/*
 * The batch of the next requests (PAGER_CREATED and PAGER_CURSOR; page
 * numbers would shift under PAGER_PAGES): a small first page shows
 * sooner, larger next ones cost fewer requests.
 */
void		 pager_set_per_page(struct pager *, long);
long		 pager_per_page(const struct pager *);

/*
 * Requests the rest of the list takes at page records each, from the
 * total the server reported: 0 when done, -1 when the total is unknown.
 * A console loads a list whole while this is at most PAGER_EAGER_REQUESTS
 * (about 8% of the API's 1,200 requests per 5 minutes), else on demand.
 */
#define PAGER_EAGER_REQUESTS	100
long		 pager_rest_requests(const struct pager *, long);

/* Records returned so far and the expected total (-1 if unknown). */
void		 pager_progress(const struct pager *, long *, long *);

/*
 * Why the list may be incomplete even though it is done (more records
 * share one created time than fit a batch, a server repeating a page), or
 * NULL.
 */
const char	*pager_warning(const struct pager *);

/*
 * Why the list was stopped short at PAGER_MAX_REQUESTS (also the
 * warning), or NULL: the caller should report it as an error.
 */
const char	*pager_bound_hit(const struct pager *);

/* Ids the created-date cursor remembers (those at its boundary time). */
size_t		 pager_boundary_size(const struct pager *);

#endif
