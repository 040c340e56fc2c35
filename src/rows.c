/*
 * The row store behind every list in the console. Each record is one
 * allocation: its sort keys, its formatted cells and its JSON text. An id
 * index finds a record, an array holds every row in the sort order, and a
 * second one the rows the filter keeps.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "kind.h"
#include "log.h"
#include "rows.h"
#include "text.h"
#include "xmalloc.h"

#define ROWS_CELL_MAX	512	/* a cell's bytes, its NUL included */
#define ROWS_AHEAD	8	/* rows read ahead of their turn */
#define ROWS_NO_ID	0xffff

/* row flags */
#define ROW_MARKED	0x1
#define ROW_STALE	0x2	/* not put since rows_begin: going */

/*
 * After the keys (one per column that sorts by number) comes the text: the
 * cells, each NUL-terminated, the id unless a cell holds it already, and
 * the JSON. Nothing else is kept: 100 000 rows fit in little more than
 * their JSON and cells.
 */
struct row {
	uint32_t	seq;		/* arrival: the server's order */
	uint32_t	rseq;		/* its place in the last refresh */
	uint32_t	gen;		/* the refresh that last put it */
	uint32_t	hash;		/* of the id */
	uint32_t	nokey;		/* a bit per column without value */
	uint16_t	cells_len;	/* the cells' bytes, NULs included */
	uint16_t	id;		/* offset of the id, or ROWS_NO_ID */
	uint8_t		flags;
	double		keys[];
};

/*
 * The filter's narrowing steps while one types: for each needle, the
 * positions in order of the rows it kept, one bit each. Deleting a
 * character goes back a step without searching. Any change to the rows
 * or their order drops them.
 */
#define ROWS_LEVELS_MAX	32

struct rows_level {
	char		*needle;
	uint64_t	*bits;
};

struct rows {
	const struct kind		 *kind;
	const struct kind_column	 *cols[ROWS_MAX_COLUMNS];
	int				  key[ROWS_MAX_COLUMNS]; /* or -1 */
	size_t				  ncols;
	size_t				  nkeys;

	struct row			**order;	/* all, sorted */
	size_t				  total;
	size_t				  cap;
	struct row			**view;		/* filtered */
	size_t				  nview;
	int				  filtered;

	struct row			**index;	/* by id */
	size_t				  index_size;	/* power of 2 */
	size_t				  index_used;

	char				 *filter;
	char				 *needle;	/* lowercase */
	size_t				  needle_len;
	struct text_needle		  find;
	int				  invert;
	struct rows_level		  levels[ROWS_LEVELS_MAX];
	size_t				  nlevels;

	int				  sort_col;
	int				  sort_desc;
	uint32_t			  seq;
	uint32_t			  gen;
	uint32_t			  rseq;		/* puts since rows_begin */
	int				  refreshing;
	size_t				  fresh;	/* new rows in it */
	size_t				  before;	/* rows when it began */
	size_t				  marked;
	size_t				  bytes;	/* of the rows */
	struct buf			  json;		/* scratch */
};

/* ---- one row ------------------------------------------------------------ */

static const char *
rows_row_text(const struct rows *r, const struct row *row)
{
	return ((const char *)(row->keys + r->nkeys));
}

/* Cells are short and few: the walk to one costs less than offsets would. */
static const char *
rows_row_cell(const struct rows *r, const struct row *row, size_t col)
{
	const char	*s = rows_row_text(r, row);

	while (col-- > 0)
		s += strlen(s) + 1;
	return (s);
}

static const char *
rows_row_id(const struct rows *r, const struct row *row)
{
	if (row->id == ROWS_NO_ID)
		return (NULL);
	return (rows_row_text(r, row) + row->id);
}

static const char *
rows_row_json(const struct rows *r, const struct row *row)
{
	const char	*s = rows_row_text(r, row) + row->cells_len;

	/* After the id, when no cell holds it. */
	if (row->id == row->cells_len)
		s += strlen(s) + 1;
	return (s);
}

/* What a row costs, with the allocator's header and rounding. */
static size_t
rows_row_size(const struct rows *r, const struct row *row)
{
	size_t	n;

	n = rows_row_json(r, row) - (const char *)row;
	n += strlen(rows_row_json(r, row)) + 1;
	return ((n + sizeof (size_t) + 15) & ~(size_t)15);
}

static uint32_t
rows_hash(const char *s)
{
	uint32_t	h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return (h);
}

/*
 * The sort value of a column that sorts by number: the number at its path
 * (a string holding one counts), an array's length for a count, a time's
 * seconds. 0 when there is none: the row sorts after those with one.
 */
static int
rows_key(const struct kind_column *c, const cJSON *record, double *out)
{
	const cJSON	*v = kind_json_get(record, c->path);
	int64_t		 t;
	char		*end;

	if (c->format == KIND_FMT_TIME) {
		if (!cJSON_IsString(v) || kind_parse_time(v->valuestring,
		    &t) != 0)
			return (0);
		*out = (double)t;
		return (1);
	}
	if (c->format == KIND_FMT_PER_HOUR)
		return (kind_per_hour(c, record, out) == 0);
	if (c->format == KIND_FMT_COUNT && (cJSON_IsArray(v) ||
	    cJSON_IsObject(v))) {
		*out = cJSON_GetArraySize(v);
		return (1);
	}
	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return (isfinite(*out));
	}
	if (!cJSON_IsString(v) || *v->valuestring == '\0')
		return (0);
	*out = strtod(v->valuestring, &end);
	return (*end == '\0' && isfinite(*out));
}

static const char *
rows_print(struct rows *r, const cJSON *record)
{
	struct buf	*b = &r->json;

	/* The printer needs a few bytes to spare; grow until it fits. */
	if (b->size == 0)
		buf_reserve(b, 4096);
	while (!cJSON_PrintPreallocated((cJSON *)record, b->data,
	    (int)b->size - 5, 0))
		buf_reserve(b, b->size * 2);
	return (b->data);
}

/* A row for the record, in one allocation. */
static struct row *
rows_build(struct rows *r, const cJSON *record, const char *id)
{
	struct row	 head;
	double		 keys[ROWS_MAX_COLUMNS];
	char		 cells[ROWS_MAX_COLUMNS * ROWS_CELL_MAX], *text;
	const char	*json;
	size_t		 i, len = 0, idlen = 0, jsonlen, size;
	struct row	*row;
	int		 present;

	memset(&head, 0, sizeof head);
	head.id = ROWS_NO_ID;
	for (i = 0; i < r->ncols; i++) {
		present = kind_column_value(r->kind, r->cols[i], record,
		    cells + len, ROWS_CELL_MAX);
		if (r->key[i] >= 0 && (!present ||
		    !rows_key(r->cols[i], record, &keys[r->key[i]])))
			present = 0;
		if (!present)
			head.nokey |= 1u << i;
		if (id != NULL && head.id == ROWS_NO_ID &&
		    strcmp(cells + len, id) == 0)
			head.id = (uint16_t)len;
		len += strlen(cells + len) + 1;
	}
	head.cells_len = (uint16_t)len;
	if (id != NULL && head.id == ROWS_NO_ID) {
		head.id = (uint16_t)len;
		idlen = strlen(id) + 1;
	}
	json = rows_print(r, record);
	jsonlen = strlen(json) + 1;

	size = sizeof head + r->nkeys * sizeof keys[0] + len + idlen +
	    jsonlen;
	row = xmalloc(size);
	memcpy(row, &head, sizeof head);
	memcpy(row->keys, keys, r->nkeys * sizeof keys[0]);
	text = (char *)rows_row_text(r, row);
	memcpy(text, cells, len);
	if (idlen != 0)
		memcpy(text + len, id, idlen);
	memcpy(text + len + idlen, json, jsonlen);
	row->hash = id != NULL ? rows_hash(id) : 0;
	row->gen = r->gen;
	r->bytes += rows_row_size(r, row);
	return (row);
}

static void
rows_drop(struct rows *r, struct row *row)
{
	if (row->flags & ROW_MARKED)
		r->marked--;
	r->bytes -= rows_row_size(r, row);
	free(row);
}

/*
 * Searches and sorts read a few lines of each row (header, keys, cells),
 * in an order that has little to do with where the rows lie: ask for
 * those of the row ROWS_AHEAD on while this one is read. A macro, since
 * a function that only prefetches looks pure to GCC, which drops calls.
 */
#define ROWS_READ_AHEAD(a, n, i) do {					\
	if ((i) + ROWS_AHEAD < (n)) {					\
		const char *p_ = (const char *)(a)[(i) + ROWS_AHEAD];	\
		__builtin_prefetch(p_);					\
		__builtin_prefetch(p_ + 64);				\
		__builtin_prefetch(p_ + 128);				\
	}								\
} while (0)

/* ---- id index: open addressing, linear probing -------------------------- */

/* The bucket holding id, or the empty one where it would go. */
static size_t
rows_index_slot(const struct rows *r, const char *id, uint32_t hash)
{
	size_t		 mask = r->index_size - 1, i = hash & mask;
	struct row	*row;

	while ((row = r->index[i]) != NULL) {
		if (row->hash == hash && strcmp(rows_row_id(r, row), id) == 0)
			break;
		i = (i + 1) & mask;
	}
	return (i);
}

static struct row *
rows_index_find(const struct rows *r, const char *id)
{
	if (r->index_used == 0)
		return (NULL);
	return (r->index[rows_index_slot(r, id, rows_hash(id))]);
}

static void
rows_index_grow(struct rows *r)
{
	struct row	**old = r->index;
	size_t		  i, n = r->index_size;

	r->index_size = n == 0 ? 64 : n * 2;
	r->index = xcalloc(r->index_size, sizeof *r->index);
	for (i = 0; i < n; i++) {
		if (old[i] != NULL)
			r->index[rows_index_slot(r, rows_row_id(r, old[i]),
			    old[i]->hash)] = old[i];
	}
	free(old);
}

static void
rows_index_add(struct rows *r, struct row *row)
{
	/* At most half full: probes stay short, and each one reads a row. */
	if ((r->index_used + 1) * 2 > r->index_size)
		rows_index_grow(r);
	r->index[rows_index_slot(r, rows_row_id(r, row), row->hash)] = row;
	r->index_used++;
}

/* Empty the bucket, moving up any later one whose probe passed it. */
static void
rows_index_del(struct rows *r, const struct row *row)
{
	size_t	mask = r->index_size - 1, i, j, home;

	i = j = rows_index_slot(r, rows_row_id(r, row), row->hash);
	for (;;) {
		j = (j + 1) & mask;
		if (r->index[j] == NULL)
			break;
		home = r->index[j]->hash & mask;
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && home <= i && home > j)) {
			r->index[i] = r->index[j];
			i = j;
		}
	}
	r->index[i] = NULL;
	r->index_used--;
}

/* ---- order -------------------------------------------------------------- */

static int
rows_cmp_num(double a, double b)
{
	return ((a > b) - (a < b));
}

/*
 * The sort order: by the column's value, rows without one last whichever
 * the direction; ties (and col -1) by arrival.
 */
static int
rows_cmp(const struct rows *r, const struct row *a, const struct row *b)
{
	int		col = r->sort_col, c = 0;
	uint32_t	bit;

	if (col >= 0) {
		bit = 1u << col;
		if ((a->nokey & bit) != (b->nokey & bit))
			return ((a->nokey & bit) ? 1 : -1);
		if (!(a->nokey & bit) && r->key[col] >= 0)
			c = rows_cmp_num(a->keys[r->key[col]],
			    b->keys[r->key[col]]);
		else if (!(a->nokey & bit))
			c = text_casecmp(rows_row_cell(r, a, col),
			    rows_row_cell(r, b, col));
		if (r->sort_desc)
			c = -c;
		if (c != 0)
			return (c);
	}
	c = rows_cmp_num(a->seq, b->seq);
	return (col < 0 && r->sort_desc ? -c : c);
}

/* The first position in a whose row does not sort before row. */
static size_t
rows_lower(const struct rows *r, struct row *const *a, size_t n,
    const struct row *row)
{
	size_t	lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (rows_cmp(r, a[mid], row) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

/* The position of row in a, or n when it is not there. */
static size_t
rows_locate(const struct rows *r, struct row *const *a, size_t n,
    const struct row *row)
{
	size_t	i = rows_lower(r, a, n, row);

	return (i < n && a[i] == row ? i : n);
}

static void
rows_insert_at(struct row **a, size_t *n, size_t i, struct row *row)
{
	memmove(a + i + 1, a + i, (*n - i) * sizeof *a);
	a[i] = row;
	(*n)++;
}

static void
rows_remove_at(struct row **a, size_t *n, size_t i)
{
	memmove(a + i, a + i + 1, (*n - i - 1) * sizeof *a);
	(*n)--;
}

/* Put row in place of a[i], where it sorts (in place if it stays). */
static void
rows_replace_at(const struct rows *r, struct row **a, size_t *n, size_t i,
    struct row *row)
{
	if ((i == 0 || rows_cmp(r, a[i - 1], row) < 0) &&
	    (i + 1 == *n || rows_cmp(r, row, a[i + 1]) < 0)) {
		a[i] = row;
		return;
	}
	rows_remove_at(a, n, i);
	rows_insert_at(a, n, rows_lower(r, a, *n, row), row);
}

static int
rows_match(const struct rows *r, const struct row *row)
{
	const char	*cells = rows_row_text(r, row);

	if (r->needle_len == 0)
		return (1);
	return ((text_needle_find(&r->find, cells, row->cells_len) != NULL) !=
	    r->invert);
}

static void
rows_grow(struct rows *r)
{
	if (r->total < r->cap)
		return;
	r->cap = r->cap == 0 ? 64 : r->cap * 2;
	r->order = xreallocarray(r->order, r->cap, sizeof *r->order);
	if (r->filtered)
		r->view = xreallocarray(r->view, r->cap, sizeof *r->view);
}

static void
rows_insert(struct rows *r, struct row *row)
{
	rows_grow(r);
	rows_insert_at(r->order, &r->total, rows_lower(r, r->order, r->total,
	    row), row);
	if (r->filtered && rows_match(r, row))
		rows_insert_at(r->view, &r->nview, rows_lower(r, r->view,
		    r->nview, row), row);
}

static void
rows_replace(struct rows *r, struct row *old, struct row *row)
{
	size_t	i;
	int	match;

	i = rows_locate(r, r->order, r->total, old);
	if (i == r->total)
		fatalx("%s: row not in order", __func__);
	rows_replace_at(r, r->order, &r->total, i, row);
	if (!r->filtered)
		return;
	i = rows_locate(r, r->view, r->nview, old);
	match = rows_match(r, row);
	if (i != r->nview && match)
		rows_replace_at(r, r->view, &r->nview, i, row);
	else if (i != r->nview)
		rows_remove_at(r->view, &r->nview, i);
	else if (match)
		rows_insert_at(r->view, &r->nview, rows_lower(r, r->view,
		    r->nview, row), row);
}

/* ---- the store ---------------------------------------------------------- */

/* The filter's steps hold positions in order: any change drops them. */
static void
rows_levels_drop(struct rows *r, size_t keep)
{
	while (r->nlevels > keep) {
		r->nlevels--;
		free(r->levels[r->nlevels].needle);
		free(r->levels[r->nlevels].bits);
	}
}

struct rows *
rows_new(const struct kind *k, const struct kind_column *const *cols,
    size_t ncols)
{
	const struct kind_field	*f;
	struct rows		*r;
	size_t			 i;

	if (ncols > ROWS_MAX_COLUMNS)
		fatalx("%s: %zu columns", __func__, ncols);
	r = xcalloc(1, sizeof *r);
	r->kind = k;
	r->ncols = ncols;
	r->sort_col = -1;
	buf_init(&r->json);
	for (i = 0; i < ncols; i++) {
		r->cols[i] = cols[i];
		r->key[i] = -1;
		/* A masked value has no order to give away. */
		f = kind_field_find(k, cols[i]->path);
		if (f != NULL && (f->flags & KIND_F_SECRET))
			continue;
		switch (cols[i]->format) {
		case KIND_FMT_TIME:
		case KIND_FMT_BYTES:
		case KIND_FMT_DURATION:
		case KIND_FMT_PCT:
		case KIND_FMT_COUNT:
		case KIND_FMT_NUMBER:
		case KIND_FMT_RATE:
		case KIND_FMT_RATE_SECONDS:
		case KIND_FMT_PER_HOUR:
			r->key[i] = (int)r->nkeys++;
			break;
		default:
			break;
		}
	}
	return (r);
}

void
rows_clear(struct rows *r)
{
	size_t	i;

	for (i = 0; i < r->total; i++)
		rows_drop(r, r->order[i]);
	r->total = r->nview = 0;
	if (r->index != NULL)
		memset(r->index, 0, r->index_size * sizeof *r->index);
	r->index_used = 0;
	r->seq = 0;
	rows_levels_drop(r, 0);
}

void
rows_free(struct rows *r)
{
	if (r == NULL)
		return;
	rows_clear(r);
	free(r->order);
	free(r->view);
	free(r->index);
	free(r->filter);
	free(r->needle);
	buf_free(&r->json);
	free(r);
}

void
rows_put(struct rows *r, const cJSON *record)
{
	const char	*id = kind_record_id(r->kind, record);
	struct row	*row, *old = NULL;
	size_t		 slot;

	rows_levels_drop(r, 0);
	row = rows_build(r, record, id);
	row->rseq = r->rseq++;
	if (id != NULL && r->index_used != 0) {
		slot = rows_index_slot(r, id, row->hash);
		old = r->index[slot];
	}
	if (old == NULL) {
		if (r->refreshing)
			r->fresh++;
		row->seq = r->seq++;
		if (id != NULL)
			rows_index_add(r, row);
		rows_insert(r, row);
		return;
	}
	/* The same record again: it keeps its place in arrival and mark. */
	row->seq = old->seq;
	row->flags = old->flags & ROW_MARKED;
	if (row->flags & ROW_MARKED)
		r->marked++;
	r->index[slot] = row;
	rows_replace(r, old, row);
	rows_drop(r, old);
}

int
rows_remove(struct rows *r, const char *id)
{
	struct row	*row;
	size_t		 i;

	if (id == NULL || (row = rows_index_find(r, id)) == NULL)
		return (-1);
	rows_levels_drop(r, 0);
	if ((i = rows_locate(r, r->order, r->total, row)) != r->total)
		rows_remove_at(r->order, &r->total, i);
	if (r->filtered &&
	    (i = rows_locate(r, r->view, r->nview, row)) != r->nview)
		rows_remove_at(r->view, &r->nview, i);
	rows_index_del(r, row);
	rows_drop(r, row);
	return (0);
}

void
rows_begin(struct rows *r)
{
	r->gen++;
	r->rseq = 0;
	r->fresh = 0;
	r->before = r->total;
	r->refreshing = 1;
}

static void	rows_sort_array(const struct rows *, struct row **, size_t);

/*
 * Records new in a refresh were numbered after the old ones while it
 * lasted (the arrays stay ordered); now every row takes its place in the
 * server's answer, so a new video sent first is listed first.
 */
static void
rows_renumber(struct rows *r)
{
	size_t	i;

	for (i = 0; i < r->total; i++)
		r->order[i]->seq = r->order[i]->rseq;
	r->seq = r->rseq;
	rows_levels_drop(r, 0);
	rows_sort_array(r, r->order, r->total);
	if (r->filtered)
		rows_sort_array(r, r->view, r->nview);
}

/* Drop the rows flagged ROW_STALE from a, keeping the order. */
static size_t
rows_sweep(struct row **a, size_t n)
{
	size_t	i, j = 0;

	for (i = 0; i < n; i++) {
		if (!(a[i]->flags & ROW_STALE))
			a[j++] = a[i];
	}
	return (j);
}

size_t
rows_end(struct rows *r)
{
	size_t		 i, j, n = 0;
	struct row	*row;
	/* A first load is in the server's order already. */
	int		 fresh = r->refreshing && r->fresh > 0 && r->before > 0;

	r->refreshing = 0;
	for (i = 0; i < r->total; i++) {
		row = r->order[i];
		if (row->gen != r->gen) {
			row->flags |= ROW_STALE;
			n++;
		}
	}
	if (n == 0) {
		if (fresh)
			rows_renumber(r);
		return (0);
	}
	rows_levels_drop(r, 0);
	if (r->filtered)
		r->nview = rows_sweep(r->view, r->nview);
	for (i = j = 0; i < r->total; i++) {
		row = r->order[i];
		if (!(row->flags & ROW_STALE)) {
			r->order[j++] = row;
			continue;
		}
		if (row->id != ROWS_NO_ID)
			rows_index_del(r, row);
		rows_drop(r, row);
	}
	r->total = j;
	if (fresh)
		rows_renumber(r);
	return (n);
}

size_t
rows_total(const struct rows *r)
{
	return (r->total);
}

size_t
rows_count(const struct rows *r)
{
	return (r->filtered ? r->nview : r->total);
}

/* The view's row i; past the end is a bug of the caller. */
static struct row *
rows_at(const struct rows *r, size_t i)
{
	if (i >= rows_count(r))
		fatalx("rows: row %zu of %zu", i, rows_count(r));
	return (r->filtered ? r->view[i] : r->order[i]);
}

const char *
rows_cell(const struct rows *r, size_t i, size_t col)
{
	if (col >= r->ncols)
		fatalx("%s: column %zu of %zu", __func__, col, r->ncols);
	return (rows_row_cell(r, rows_at(r, i), col));
}

const char *
rows_id(const struct rows *r, size_t i)
{
	return (rows_row_id(r, rows_at(r, i)));
}

cJSON *
rows_record(const struct rows *r, size_t i)
{
	return (cJSON_Parse(rows_json(r, i)));
}

const char *
rows_json(const struct rows *r, size_t i)
{
	return (rows_row_json(r, rows_at(r, i)));
}

long
rows_find(const struct rows *r, const char *id)
{
	struct row	*row;
	size_t		 i;

	if (id == NULL || (row = rows_index_find(r, id)) == NULL)
		return (-1);
	if (!r->filtered)
		i = rows_locate(r, r->order, r->total, row);
	else if ((i = rows_locate(r, r->view, r->nview, row)) == r->nview)
		return (-1);
	return ((long)i);
}

int
rows_has(const struct rows *r, const char *id)
{
	return (id != NULL && rows_index_find(r, id) != NULL);
}

/* ---- filter ------------------------------------------------------------- */

static void
rows_level_push(struct rows *r, const char *needle, uint64_t *bits)
{
	/* Full: forget the widest step, the one least likely to be back. */
	if (r->nlevels == ROWS_LEVELS_MAX) {
		free(r->levels[0].needle);
		free(r->levels[0].bits);
		memmove(r->levels, r->levels + 1,
		    (ROWS_LEVELS_MAX - 1) * sizeof r->levels[0]);
		r->nlevels--;
	}
	r->levels[r->nlevels].needle = xstrdup(needle);
	r->levels[r->nlevels].bits = bits;
	r->nlevels++;
}

static uint64_t *
rows_bits_new(const struct rows *r)
{
	return (xcalloc((r->total + 63) / 64 + 1, sizeof (uint64_t)));
}

/*
 * The step for the filter as it is, which a change dropped: the view is
 * a subsequence of order, so one walk over both finds its positions.
 */
static void
rows_level_from_view(struct rows *r)
{
	uint64_t	*bits = rows_bits_new(r);
	size_t		 i, j = 0;

	for (i = 0; i < r->total && j < r->nview; i++) {
		if (r->order[i] == r->view[j]) {
			bits[i / 64] |= (uint64_t)1 << (i % 64);
			j++;
		}
	}
	rows_level_push(r, r->needle, bits);
}

/* The view: the rows of order at the positions in bits. */
static void
rows_view_bits(struct rows *r, const uint64_t *bits)
{
	size_t		w;
	uint64_t	x;

	r->nview = 0;
	for (w = 0; w * 64 < r->total; w++) {
		for (x = bits[w]; x != 0; x &= x - 1)
			r->view[r->nview++] =
			    r->order[w * 64 + __builtin_ctzll(x)];
	}
}

/*
 * Search the rows of order at the positions in from (all rows without),
 * keep those that match in the view, and return their positions.
 */
static uint64_t *
rows_search(struct rows *r, const uint64_t *from)
{
	uint64_t	*bits = rows_bits_new(r), x;
	size_t		 w, i;

	r->nview = 0;
	for (w = 0; w * 64 < r->total; w++) {
		x = from != NULL ? from[w] : ~(uint64_t)0;
		for (; x != 0; x &= x - 1) {
			i = w * 64 + __builtin_ctzll(x);
			if (i >= r->total)
				break;
			ROWS_READ_AHEAD(r->order, r->total, i);
			if (rows_match(r, r->order[i])) {
				r->view[r->nview++] = r->order[i];
				bits[w] |= (uint64_t)1 << (i % 64);
			}
		}
	}
	return (bits);
}

/* The deepest step whose needle starts needle, or -1. */
static long
rows_level_find(const struct rows *r, const char *needle)
{
	size_t	i, len;

	for (i = r->nlevels; i > 0; i--) {
		len = strlen(r->levels[i - 1].needle);
		if (strncmp(needle, r->levels[i - 1].needle, len) == 0)
			return ((long)i - 1);
	}
	return (-1);
}

/* Set the filter, keeping the step it narrows down from. */
static void
rows_filter_set(struct rows *r, const char *text)
{
	char	*needle;
	size_t	 len;
	int	 invert = text[0] == '!', narrows;

	needle = xstrdup(text + invert);
	for (len = 0; needle[len] != '\0'; len++) {
		if (needle[len] >= 'A' && needle[len] <= 'Z')
			needle[len] |= 0x20;
	}
	/* Rows without "ab" are among those without "a", not those with. */
	narrows = r->filtered && !r->invert && !invert &&
	    strncmp(needle, r->needle, r->needle_len) == 0;
	if (narrows && r->nlevels == 0)
		rows_level_from_view(r);
	free(r->filter);
	r->filter = xstrdup(text);
	free(r->needle);
	r->needle = needle;
	r->needle_len = len;
	r->invert = invert;
	text_needle_init(&r->find, needle, len);
}

void
rows_filter(struct rows *r, const char *text)
{
	const uint64_t	*from = NULL;
	long		 k;

	if (text == NULL)
		text = "";
	rows_filter_set(r, text);
	if (r->invert || r->needle_len == 0)
		rows_levels_drop(r, 0);
	if (r->needle_len == 0) {
		r->filtered = 0;
		free(r->view);
		r->view = NULL;
		r->nview = 0;
		return;
	}
	if (!r->filtered)
		r->view = xreallocarray(NULL, MAXIMUM(r->cap, 1),
		    sizeof *r->view);
	r->filtered = 1;
	if (r->invert) {
		free(rows_search(r, NULL));
		return;
	}

	/* Back to a step, or on from the deepest one this extends. */
	k = rows_level_find(r, r->needle);
	rows_levels_drop(r, (size_t)(k + 1));
	if (k >= 0 && strcmp(r->levels[k].needle, r->needle) == 0) {
		rows_view_bits(r, r->levels[k].bits);
		return;
	}
	if (k >= 0)
		from = r->levels[k].bits;
	rows_level_push(r, r->needle, rows_search(r, from));
}

const char *
rows_filter_text(const struct rows *r)
{
	return (r->filter != NULL ? r->filter : "");
}

/* ---- sort --------------------------------------------------------------- */

/*
 * A sort runs over copies of what it compares, packed together: numbers,
 * or the first 8 bytes of lowercase text as one integer with the rest
 * beside it, so most comparisons touch no row.
 */
struct rows_ent {
	union {
		double		 num;
		uint64_t	 prefix;
	} k;
	union {
		const char	*s;
		size_t		 off;	/* while the text grows */
	} rest;
	struct row	*row;
	uint32_t	 seq;
};

static int
rows_ent_num(const void *a0, const void *b0)
{
	const struct rows_ent	*a = a0, *b = b0;
	int			 c;

	if ((c = rows_cmp_num(a->k.num, b->k.num)) != 0)
		return (c);
	return (rows_cmp_num(a->seq, b->seq));
}

static int
rows_ent_text(const struct rows_ent *a, const struct rows_ent *b)
{
	if (a->k.prefix != b->k.prefix)
		return (a->k.prefix < b->k.prefix ? -1 : 1);
	/* Equal prefixes with a NUL in them: equal strings. */
	if ((a->k.prefix & 0xff) == 0)
		return (0);
	return (strcmp(a->rest.s, b->rest.s));
}

static int
rows_ent_asc(const void *a0, const void *b0)
{
	const struct rows_ent	*a = a0, *b = b0;
	int			 c;

	if ((c = rows_ent_text(a, b)) != 0)
		return (c);
	return (rows_cmp_num(a->seq, b->seq));
}

static int
rows_ent_desc(const void *a0, const void *b0)
{
	const struct rows_ent	*a = a0, *b = b0;
	int			 c;

	if ((c = rows_ent_text(b, a)) != 0)
		return (c);
	return (rows_cmp_num(a->seq, b->seq));
}

/* Lowercase text onto b, its first 8 bytes into the prefix. */
static void
rows_ent_fill(struct rows_ent *e, const char *s, struct buf *b)
{
	size_t		start = b->len, i;
	const char	*t;

	buf_adds(b, s);
	buf_addc(b, '\0');
	for (i = start; i < b->len; i++) {
		if (b->data[i] >= 'A' && b->data[i] <= 'Z')
			b->data[i] |= 0x20;
	}
	t = b->data + start;
	e->k.prefix = 0;
	for (i = 0; i < 8; i++) {
		e->k.prefix = e->k.prefix << 8 | (unsigned char)*t;
		if (*t != '\0')
			t++;
	}
	e->rest.off = t - b->data;
}

/* Sort a, n rows, by rows_cmp's order. */
static void
rows_sort_array(const struct rows *r, struct row **a, size_t n)
{
	struct rows_ent	*e;
	struct buf	 text = BUF_INITIALIZER;
	size_t		 i, nk = 0, nn = 0;
	int		 col = r->sort_col, num, sign;
	uint32_t	 bit = col >= 0 ? 1u << col : 0;

	if (n < 2)
		return;
	num = col < 0 || r->key[col] >= 0;
	sign = r->sort_desc ? -1 : 1;
	e = xreallocarray(NULL, n, sizeof *e);
	/* Rows with a value from the front, the others from the back. */
	for (i = 0; i < n; i++) {
		ROWS_READ_AHEAD(a, n, i);
		if (a[i]->nokey & bit) {
			e[n - ++nn].row = a[i];
			e[n - nn].k.num = a[i]->seq;
			e[n - nn].seq = a[i]->seq;
			continue;
		}
		e[nk].row = a[i];
		e[nk].seq = a[i]->seq;
		if (col < 0)
			e[nk].k.num = sign * (double)a[i]->seq;
		else if (num)
			e[nk].k.num = sign * a[i]->keys[r->key[col]];
		else
			rows_ent_fill(&e[nk], rows_row_cell(r, a[i], col),
			    &text);
		nk++;
	}
	if (num)
		qsort(e, nk, sizeof *e, rows_ent_num);
	else {
		for (i = 0; i < nk; i++)
			e[i].rest.s = text.data + e[i].rest.off;
		qsort(e, nk, sizeof *e, r->sort_desc ? rows_ent_desc :
		    rows_ent_asc);
	}
	qsort(e + nk, nn, sizeof *e, rows_ent_num);
	for (i = 0; i < n; i++)
		a[i] = e[i].row;
	buf_free(&text);
	free(e);
}

void
rows_sort(struct rows *r, int col, int desc)
{
	if (col < -1 || col >= (int)r->ncols)
		fatalx("%s: column %d of %zu", __func__, col, r->ncols);
	r->sort_col = col;
	r->sort_desc = desc != 0;
	rows_levels_drop(r, 0);
	rows_sort_array(r, r->order, r->total);
	if (r->filtered)
		rows_sort_array(r, r->view, r->nview);
}

int
rows_sort_column(const struct rows *r, int *desc)
{
	if (desc != NULL)
		*desc = r->sort_desc;
	return (r->sort_col);
}

/* ---- marks -------------------------------------------------------------- */

int
rows_marked(const struct rows *r, size_t i)
{
	return ((rows_at(r, i)->flags & ROW_MARKED) != 0);
}

/* Only a row with an id can be marked: marks are kept by id. */
static void
rows_set_mark(struct rows *r, struct row *row, int on)
{
	if (row->id == ROWS_NO_ID || on == ((row->flags & ROW_MARKED) != 0))
		return;
	if (on) {
		row->flags |= ROW_MARKED;
		r->marked++;
	} else {
		row->flags &= ~ROW_MARKED;
		r->marked--;
	}
}

void
rows_mark(struct rows *r, size_t i, int on)
{
	rows_set_mark(r, rows_at(r, i), on != 0);
}

void
rows_mark_toggle(struct rows *r, size_t i)
{
	rows_mark(r, i, !rows_marked(r, i));
}

void
rows_mark_all(struct rows *r, int on)
{
	size_t	i, n = rows_count(r);

	for (i = 0; i < n; i++)
		rows_set_mark(r, rows_at(r, i), on != 0);
}

size_t
rows_mark_count(const struct rows *r)
{
	return (r->marked);
}

const char **
rows_marked_ids(const struct rows *r, size_t *n)
{
	const char	**ids;
	size_t		  i;

	ids = xcalloc(r->marked + 1, sizeof *ids);
	*n = 0;
	for (i = 0; i < r->total && *n < r->marked; i++) {
		if (r->order[i]->flags & ROW_MARKED)
			ids[(*n)++] = rows_row_id(r, r->order[i]);
	}
	return (ids);
}

size_t
rows_memory(const struct rows *r)
{
	size_t	n = sizeof *r + r->bytes + r->json.size, i;

	for (i = 0; i < r->nlevels; i++)
		n += ((r->total + 63) / 64 + 1) * sizeof (uint64_t);

	n += r->cap * sizeof *r->order;
	if (r->view != NULL)
		n += r->cap * sizeof *r->view;
	n += r->index_size * sizeof *r->index;
	return (n);
}
