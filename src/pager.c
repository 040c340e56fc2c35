/*
 * List cursors for the API's three paging styles. The caller streams each
 * page out; the pager keeps only what the next request needs, so memory
 * does not grow with the list.
 *
 * Stream's created-date cursor (api-map section 8) has no tie-breaker:
 * several videos can share one created time, and a batch can end in the
 * middle of them. What the cursor relies on from the service: a batch is
 * the first records of the filtered list in created order, and end= keeps
 * the records created before it (start= after it), strictly or not.
 *
 * So each next request overlaps the last: end = boundary + one unit of the
 * time's own precision (1 s for "...:00Z", 1 us for "...:00.123456Z"), and
 * every record at the boundary time comes again; the ids already returned
 * at that time are skipped, as is anything newer (all of it was returned).
 * A record newer than the boundary in the answer shows that the server's
 * end= is inclusive; from then on end = boundary is overlap enough. Nothing
 * is missed or repeated while fewer records than a batch share one created
 * time. When more do, a batch brings nothing new: the cursor then steps
 * past that time (end = boundary, or one unit before it on an inclusive
 * server), and pager_warning says that some records may be missing.
 */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "civil.h"
#include "jsonutil.h"
#include "pager.h"
#include "percent.h"
#include "xmalloc.h"

/* A created time: seconds since the epoch, nanoseconds, precision. */
struct pager_time {
	int64_t	sec;
	long	nsec;
	int	digits;			/* of the fraction as sent, at most 9 */
};

struct pager {
	enum pager_style	 style;
	long			 per_page;
	int			 flags;
	char			*key;
	char			*id_field;
	char			*time_field;
	long			 max_items;

	int			 done;
	int			 bound_hit;
	long			 requests;	/* pages fed */
	long			 have;
	long			 total;		/* -1: unknown */
	char			*warning;
	cJSON			**items;
	size_t			 itemscap;

	long			 page;		/* PAGER_PAGES: next page */
	char			*cursor;	/* PAGER_CURSOR: next cursor */
	uint64_t		 last_hash;	/* of the previous page */

	int			 has_bound;	/* PAGER_CREATED */
	struct pager_time	 bound;
	char			**seen;		/* ids returned at bound */
	size_t			 nseen;
	size_t			 seencap;
	int			 inclusive;	/* the server's end= includes */
	int			 step_past;	/* skip the rest of bound */
};

static void
pager_warn(struct pager *p, const char *fmt, ...) printflike(2, 3);

static void
pager_warn(struct pager *p, const char *fmt, ...)
{
	va_list	ap;

	free(p->warning);
	va_start(ap, fmt);
	xvasprintf(&p->warning, fmt, ap);
	va_end(ap);
}

struct pager *
pager_new(enum pager_style style, long per_page, const struct pager_opts *o)
{
	struct pager	*p;

	p = xcalloc(1, sizeof *p);
	p->style = style;
	p->per_page = per_page > 0 ? per_page : 0;
	if (style == PAGER_CREATED && p->per_page == 0)
		p->per_page = PAGER_STREAM_BATCH;
	p->total = -1;
	p->page = 1;
	p->id_field = xstrdup("uid");
	p->time_field = xstrdup("created");
	if (o != NULL) {
		p->flags = o->flags;
		p->max_items = o->max_items > 0 ? o->max_items : 0;
		if (o->key != NULL)
			p->key = xstrdup(o->key);
		if (o->id_field != NULL) {
			free(p->id_field);
			p->id_field = xstrdup(o->id_field);
		}
		if (o->time_field != NULL) {
			free(p->time_field);
			p->time_field = xstrdup(o->time_field);
		}
	}
	return (p);
}

static void
pager_seen_clear(struct pager *p)
{
	size_t	i;

	for (i = 0; i < p->nseen; i++)
		free(p->seen[i]);
	p->nseen = 0;
}

void
pager_free(struct pager *p)
{
	if (p == NULL)
		return;
	pager_seen_clear(p);
	free(p->seen);
	free(p->items);
	free(p->warning);
	free(p->cursor);
	free(p->key);
	free(p->id_field);
	free(p->time_field);
	free(p);
}

int
pager_done(const struct pager *p)
{
	return (p->done);
}

void
pager_set_per_page(struct pager *p, long per_page)
{
	if (per_page > 0 && p->style != PAGER_PAGES)
		p->per_page = per_page;
}

long
pager_per_page(const struct pager *p)
{
	return (p->per_page);
}

long
pager_rest_requests(const struct pager *p, long page)
{
	if (p->done || (p->total >= 0 && p->total <= p->have))
		return (0);
	if (p->total < 0 || page <= 0)
		return (-1);
	return ((p->total - p->have + page - 1) / page);
}

void
pager_progress(const struct pager *p, long *have, long *total)
{
	*have = p->have;
	*total = p->total;
}

const char *
pager_warning(const struct pager *p)
{
	return (p->warning);
}

const char *
pager_bound_hit(const struct pager *p)
{
	return (p->bound_hit ? p->warning : NULL);
}

size_t
pager_boundary_size(const struct pager *p)
{
	return (p->nseen);
}

/* ---- times ------------------------------------------------------------- */

/* RFC 3339: 2014-01-02T02:20:00Z, 2014-01-02T02:20:00.123456+01:00. */
static int
pager_parse_time(const char *s, struct pager_time *t)
{
	return (civil_parse_rfc3339(s, &t->sec, &t->nsec, &t->digits));
}

static int
pager_time_cmp(const struct pager_time *a, const struct pager_time *b)
{
	if (a->sec != b->sec)
		return (a->sec < b->sec ? -1 : 1);
	if (a->nsec != b->nsec)
		return (a->nsec < b->nsec ? -1 : 1);
	return (0);
}

/* t moved by units of its precision (-1, 0 or 1), as UTC. */
static void
pager_add_time(struct buf *b, const struct pager_time *t, int units)
{
	int64_t	sec = t->sec, days, y;
	long	nsec = t->nsec, unit = 1;
	int	i, m, d, rem;

	for (i = t->digits; i < 9; i++)
		unit *= 10;
	if (units != 0) {
		nsec += units * unit;
		if (nsec >= 1000000000L) {
			sec++;
			nsec -= 1000000000L;
		} else if (nsec < 0) {
			sec--;
			nsec += 1000000000L;
		}
	}
	days = sec >= 0 ? sec / 86400 : -((-sec + 86399) / 86400);
	rem = (int)(sec - days * 86400);
	civil_from_days(days, &y, &m, &d);
	buf_addf(b, "%04lld-%02d-%02dT%02d:%02d:%02d", (long long)y, m, d,
	    rem / 3600, rem / 60 % 60, rem % 60);
	if (t->digits > 0)
		buf_addf(b, ".%0*ld", t->digits, nsec / unit);
	buf_addc(b, 'Z');
}

/* ---- queries ----------------------------------------------------------- */

static void
pager_sep(struct buf *q)
{
	char	last;

	if (q->len == 0)
		return;
	last = q->data[q->len - 1];
	if (last != '?' && last != '&')
		buf_addc(q, '&');
}

/*
 * How far past the boundary the next request reaches (towards the records
 * already returned): one unit to overlap a strict end=, none for an
 * inclusive one; when stepping past the boundary, none for a strict end=
 * and one unit back for an inclusive one.
 */
static int
pager_units(const struct pager *p)
{
	int	units;

	if (p->step_past)
		units = p->inclusive ? -1 : 0;
	else
		units = p->inclusive ? 0 : 1;
	return (p->flags & PAGER_ASC ? -units : units);
}

int
pager_next_query(struct pager *p, struct buf *q)
{
	if (p->done)
		return (0);
	switch (p->style) {
	case PAGER_PAGES:
		pager_sep(q);
		buf_addf(q, "page=%ld", p->page);
		if (p->per_page > 0)
			buf_addf(q, "&per_page=%ld", p->per_page);
		break;
	case PAGER_CREATED:
		/* The counts give an exact stop and the progress total. */
		pager_sep(q);
		buf_adds(q, "include_counts=true");
		if (p->flags & PAGER_ASC)
			buf_adds(q, "&asc=true");
		if (p->flags & PAGER_SEND_LIMIT)
			buf_addf(q, "&limit=%ld", p->per_page);
		if (p->has_bound) {
			buf_adds(q, p->flags & PAGER_ASC ? "&start=" : "&end=");
			pager_add_time(q, &p->bound, pager_units(p));
		}
		break;
	case PAGER_CURSOR:
		if (p->per_page > 0) {
			pager_sep(q);
			buf_addf(q, "per_page=%ld", p->per_page);
		}
		if (p->cursor != NULL) {
			pager_sep(q);
			buf_adds(q, "cursor=");
			percent_encode(q, p->cursor);
		}
		break;
	case PAGER_SINGLE:
		break;
	}
	return (1);
}

/* ---- pages ------------------------------------------------------------- */

static void
pager_emit(struct pager *p, cJSON *item, size_t *n)
{
	if (*n == p->itemscap) {
		p->itemscap = p->itemscap == 0 ? 64 : p->itemscap * 2;
		p->items = xreallocarray(p->items, p->itemscap,
		    sizeof *p->items);
	}
	p->items[(*n)++] = item;
}

/* Stop at max_items: the page is cut and the list is done. */
static void
pager_count(struct pager *p, size_t *n)
{
	if (p->max_items > 0 && (long)*n >= p->max_items - p->have) {
		*n = (size_t)(p->max_items - p->have);
		p->done = 1;
	}
	p->have += (long)*n;
}

/* FNV-1a over len bytes. */
static uint64_t
pager_fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char	*c = p;

	while (len-- > 0)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return (h);
}

/*
 * A value's hash from its tree (types, keys, strings, numbers), read in
 * place: printing each record again would cost as much as printing it.
 * cJSON's nesting limit bounds the recursion.
 */
static uint64_t
pager_hash_value(uint64_t h, const cJSON *v)
{
	const cJSON	*c;

	h = pager_fnv(h, &v->type, sizeof v->type);
	if (v->string != NULL)
		h = pager_fnv(h, v->string, strlen(v->string) + 1);
	if (cJSON_IsString(v) && v->valuestring != NULL)
		h = pager_fnv(h, v->valuestring, strlen(v->valuestring) + 1);
	else if (cJSON_IsNumber(v))
		h = pager_fnv(h, &v->valuedouble, sizeof v->valuedouble);
	for (c = v->child; c != NULL; c = c->next)
		h = pager_hash_value(h, c);
	return (pager_fnv(h, "", 1));
}

/*
 * A server that ignores page= would send the same page forever. A hash of
 * the page is all that is kept to notice that.
 */
static int
pager_repeated(struct pager *p, const cJSON *list)
{
	uint64_t	 h = pager_hash_value(0xcbf29ce484222325ULL, list);
	int		 same;

	same = p->page > 1 && h == p->last_hash;
	p->last_hash = h;
	return (same);
}

static void
pager_feed_pages(struct pager *p, const struct api_response *r,
    cJSON *list, size_t *n)
{
	cJSON	*item;
	long	 k, per_page, pages;

	if (cJSON_GetArraySize(list) > 0 && pager_repeated(p, list)) {
		pager_warn(p, "page %ld repeated page %ld: the list stops "
		    "there", p->page, p->page - 1);
		p->done = 1;
		return;
	}
	cJSON_ArrayForEach(item, list)
		pager_emit(p, item, n);
	k = (long)*n;
	/* The server may cap per_page below what was asked. */
	per_page = r->per_page > 0 ? r->per_page : p->per_page;
	if (r->total_count >= 0)
		p->total = r->total_count;
	pages = r->total_pages;
	if (pages < 0 && r->total_count >= 0 && per_page > 0)
		pages = r->total_count / per_page +
		    (r->total_count % per_page != 0);
	if (k == 0 || (per_page > 0 && k < per_page) ||
	    (pages >= 0 && p->page >= pages))
		p->done = 1;
	p->page++;
	pager_count(p, n);
}

/* ---- result_info.cursor ------------------------------------------------- */

static void
pager_feed_cursor(struct pager *p, const struct api_response *r,
    cJSON *list, size_t *n)
{
	cJSON	*item;

	cJSON_ArrayForEach(item, list)
		pager_emit(p, item, n);
	if (r->cursor == NULL || cJSON_GetArraySize(list) == 0)
		p->done = 1;
	else if (p->cursor != NULL && strcmp(p->cursor, r->cursor) == 0) {
		/* The same cursor again would fetch the same page forever. */
		pager_warn(p, "the server sent cursor %.40s twice: the list "
		    "stops there", r->cursor);
		p->done = 1;
	} else {
		free(p->cursor);
		p->cursor = xstrdup(r->cursor);
	}
	pager_count(p, n);
}

/* ---- created-date cursor ------------------------------------------------ */

static int
pager_seen_has(const struct pager *p, const char *id)
{
	size_t	i;

	for (i = 0; i < p->nseen; i++) {
		if (strcmp(p->seen[i], id) == 0)
			return (1);
	}
	return (0);
}

static void
pager_seen_add(struct pager *p, const char *id)
{
	if (pager_seen_has(p, id))
		return;
	if (p->nseen == p->seencap) {
		p->seencap = p->seencap == 0 ? 16 : p->seencap * 2;
		p->seen = xreallocarray(p->seen, p->seencap, sizeof *p->seen);
	}
	p->seen[p->nseen++] = xstrdup(id);
}

static const char *
pager_item_id(const struct pager *p, const cJSON *item)
{
	const cJSON	*v;

	v = cJSON_GetObjectItemCaseSensitive(item, p->id_field);
	return (cJSON_IsString(v) ? v->valuestring : NULL);
}

static int
pager_item_time(const struct pager *p, const cJSON *item,
    struct pager_time *t)
{
	const cJSON	*v;

	v = cJSON_GetObjectItemCaseSensitive(item, p->time_field);
	if (!cJSON_IsString(v))
		return (-1);
	return (pager_parse_time(v->valuestring, t));
}

/* Where t is from the boundary: > 0 on the side already returned. */
static int
pager_side(const struct pager *p, const struct pager_time *t)
{
	int	c;

	if (!p->has_bound)
		return (-1);
	c = pager_time_cmp(t, &p->bound);
	return (p->flags & PAGER_ASC ? -c : c);
}

/*
 * The batch's far end becomes the boundary; its ids are what the next
 * request's overlap must skip. A boundary that did not move keeps its ids.
 */
static void
pager_move_bound(struct pager *p, const cJSON *list)
{
	const cJSON		*item;
	struct pager_time	 t, far;
	const char		*id;
	int			 found = 0, c;

	cJSON_ArrayForEach(item, list) {
		if (pager_item_time(p, item, &t) != 0)
			continue;
		if (!found) {
			far = t;
			found = 1;
			continue;
		}
		c = pager_time_cmp(&t, &far);
		if (p->flags & PAGER_ASC)
			c = -c;
		if (c < 0)
			far = t;
		else if (c == 0 && t.digits < far.digits)
			far.digits = t.digits;	/* the coarser unit is safe */
	}
	/* A batch inside the overlap (all newer) leaves the boundary. */
	if (!found || pager_side(p, &far) > 0)
		return;
	if (!p->has_bound || pager_time_cmp(&far, &p->bound) != 0) {
		pager_seen_clear(p);
		p->bound = far;
		p->has_bound = 1;
		p->step_past = 0;
	} else if (far.digits < p->bound.digits)
		p->bound.digits = far.digits;
	cJSON_ArrayForEach(item, list) {
		id = pager_item_id(p, item);
		if (id != NULL && pager_item_time(p, item, &t) == 0 &&
		    pager_time_cmp(&t, &p->bound) == 0)
			pager_seen_add(p, id);
	}
}

/* A batch without one new record: step past the boundary time. */
static void
pager_stalled(struct pager *p)
{
	struct buf	b = BUF_INITIALIZER;

	pager_add_time(&b, &p->bound, 0);
	if (!p->step_past) {
		pager_warn(p, "more than %ld records share the %s %s: some "
		    "of them may be missing", p->per_page, p->time_field,
		    buf_str(&b));
		p->step_past = 1;
	} else if (!p->inclusive) {
		/* end=boundary still brought it: the server includes end. */
		p->inclusive = 1;
	} else {
		pager_warn(p, "the list stops at %s %s: the server returned "
		    "nothing new", p->time_field, buf_str(&b));
		p->done = 1;
	}
	buf_free(&b);
}

static void
pager_feed_created(struct pager *p, const struct api_response *r,
    cJSON *list, size_t *n)
{
	cJSON			*item;
	struct pager_time	 t;
	const char		*id;
	long			 k = cJSON_GetArraySize(list);
	int			 timed = 0, side, learned = 0;

	cJSON_ArrayForEach(item, list) {
		if (pager_item_time(p, item, &t) != 0) {
			pager_emit(p, item, n);	/* cannot be placed */
			continue;
		}
		timed = 1;
		side = pager_side(p, &t);
		id = pager_item_id(p, item);
		if (side > 0 && !p->inclusive && !p->step_past)
			learned = 1;
		if (side < 0 || (side == 0 && (id == NULL ||
		    !pager_seen_has(p, id))))
			pager_emit(p, item, n);
	}
	if (learned)
		p->inclusive = 1;
	pager_move_bound(p, list);
	if (r->has_stream_counts && r->range >= 0)
		p->total = p->have + (long)*n + r->range;
	if (k == 0 || (r->has_stream_counts && r->range == 0) ||
	    (!(r->has_stream_counts && r->range > 0) && k < p->per_page))
		p->done = 1;
	else if (!timed) {
		pager_warn(p, "the records have no %s time: the list stops "
		    "after one batch", p->time_field);
		p->done = 1;
	} else if (*n == 0 && !learned)
		pager_stalled(p);
	pager_count(p, n);
}

/* ---- feeding ----------------------------------------------------------- */

/* The array of records in a response, or NULL for none. */
static int
pager_list(const struct pager *p, const struct api_response *r,
    cJSON **list, char **cause)
{
	cJSON	*v = r->result;

	if (p->style == PAGER_SINGLE && p->key != NULL && v != NULL) {
		if (!cJSON_IsObject(v)) {
			*cause = xprintf("result is %s, not an object with "
			    "%s", jsonutil_type_name(v), p->key);
			return (-1);
		}
		v = cJSON_GetObjectItemCaseSensitive(v, p->key);
	}
	if (v != NULL && !cJSON_IsNull(v) && !cJSON_IsArray(v)) {
		*cause = xprintf("result%s%s is %s, not a list",
		    p->style == PAGER_SINGLE && p->key != NULL ? "." : "",
		    p->style == PAGER_SINGLE && p->key != NULL ? p->key : "",
		    jsonutil_type_name(v));
		return (-1);
	}
	*list = cJSON_IsArray(v) ? v : NULL;
	return (0);
}

int
pager_feed(struct pager *p, const struct api_response *r, cJSON ***items,
    size_t *n, char **cause)
{
	cJSON	*list, *item, empty = { 0 };

	*items = NULL;
	*n = 0;
	if (p->done) {
		*cause = xstrdup("the list is already complete");
		return (-1);
	}
	if (!r->ok) {
		*cause = xstrdup("a failed response is not a page");
		return (-1);
	}
	if (pager_list(p, r, &list, cause) != 0)
		return (-1);
	if (list == NULL) {
		empty.type = cJSON_Array;
		list = &empty;
	}
	switch (p->style) {
	case PAGER_PAGES:
		pager_feed_pages(p, r, list, n);
		break;
	case PAGER_CREATED:
		pager_feed_created(p, r, list, n);
		break;
	case PAGER_CURSOR:
		pager_feed_cursor(p, r, list, n);
		break;
	case PAGER_SINGLE:
		cJSON_ArrayForEach(item, list)
			pager_emit(p, item, n);
		p->done = 1;
		p->total = (long)*n;
		pager_count(p, n);
		break;
	}
	if (!p->done && ++p->requests >= PAGER_MAX_REQUESTS) {
		pager_warn(p, "the server still claims more after %d requests "
		    "(%ld records): the list stops there", PAGER_MAX_REQUESTS,
		    p->have);
		p->done = p->bound_hit = 1;
	}
	*items = p->items;
	return (0);
}
