/*
 * The row store behind every list in the console: records kept compactly
 * (their JSON text and formatted cells in one arena per row), an id index,
 * a view (filter, sort) over them, and marks. It knows nothing of curses:
 * the list widget asks it for cells of the rows on screen only.
 */
#ifndef EDGE_ROWS_H
#define EDGE_ROWS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "kind.h"

struct rows;

/*
 * A store for records of kind k shown in the given columns (pointers into
 * the kind's table, or columns of the caller's that outlive the store).
 * ncols is at most ROWS_MAX_COLUMNS.
 */
#define ROWS_MAX_COLUMNS	32
struct rows	*rows_new(const struct kind *,
		     const struct kind_column *const *, size_t);
void		 rows_free(struct rows *);
void		 rows_clear(struct rows *);

/*
 * Add a record, or replace the one with the same id (a record without an
 * id is always added). The record is copied as compact JSON text and its
 * cells are formatted (kind_column_value: terminal-safe, secrets masked)
 * once, here. The view is updated: a new row that passes the filter is
 * placed by the sort order.
 */
void		 rows_put(struct rows *, const cJSON *);
/* Remove the record with this id; 0, or -1 if there is none. */
int		 rows_remove(struct rows *, const char *);

/*
 * A refresh: rows_begin, then rows_put for each record the server sent,
 * then rows_end removes every row not put since rows_begin (a record
 * deleted elsewhere) and returns how many it removed.
 */
void		 rows_begin(struct rows *);
size_t		 rows_end(struct rows *);

/* Records stored, and rows in the view (after the filter). */
size_t		 rows_total(const struct rows *);
size_t		 rows_count(const struct rows *);

/*
 * The view's row i (0 <= i < rows_count): a cell (never NULL; "-" for a
 * missing value), the id (NULL without one), the record parsed anew
 * (the caller frees it) and the JSON text as stored.
 */
const char	*rows_cell(const struct rows *, size_t, size_t);
const char	*rows_id(const struct rows *, size_t);
cJSON		*rows_record(const struct rows *, size_t);
const char	*rows_json(const struct rows *, size_t);
/* The view index of the record with this id, or -1. */
long		 rows_find(const struct rows *, const char *);
/* Whether a record with this id is stored, in the view or filtered out. */
int		 rows_has(const struct rows *, const char *);

/*
 * Filter the view: rows whose cells contain text (case-insensitive, any
 * column); "!text" keeps the rows that do not; "" or NULL shows all. A
 * filter that extends the previous one only searches the rows it kept.
 */
void		 rows_filter(struct rows *, const char *);
const char	*rows_filter_text(const struct rows *);

/*
 * Sort the view by column col, ascending or not (desc); numbers, sizes,
 * durations and times compare by value, text without case; ties keep the
 * server's order. col -1: the server's order.
 */
void		 rows_sort(struct rows *, int, int);
int		 rows_sort_column(const struct rows *, int *);

/* Marks, by id, so they survive refreshes, filters and sorts. */
int		 rows_marked(const struct rows *, size_t);
void		 rows_mark(struct rows *, size_t, int);
void		 rows_mark_toggle(struct rows *, size_t);
void		 rows_mark_all(struct rows *, int);	/* the view's rows */
size_t		 rows_mark_count(const struct rows *);
/* The marked ids (an allocated array of pointers into the store). */
const char	**rows_marked_ids(const struct rows *, size_t *);

/* Bytes the store holds (for benchmarks and the debug line). */
size_t		 rows_memory(const struct rows *);

#endif
