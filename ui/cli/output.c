/*
 * The output printers: a record or a list as a table from the kind's
 * columns, as JSON or as YAML.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "kind.h"
#include "log.h"
#include "text.h"
#include "xmalloc.h"
#include "yamljson.h"

#include "cli.h"

/* A column of width 0 ("what is left") in a streamed table. */
#define CLI_WIDE_COLUMN		40
#define CLI_CELL_MAX		4096

/*
 * The default columns, with the id first when they do not show it; not
 * those the list's answer lacks (KIND_COL_PER_RECORD), which would be a
 * column of "-".
 */
void
cli_table_init(struct cli_table *t, const struct kind *k)
{
	const struct kind_column	*col;
	int				 has_id = 0;

	memset(t, 0, sizeof *t);
	t->kind = k;
	for (col = k->columns; col != NULL && col->header != NULL; col++)
		if (k->id_field != NULL && strcmp(col->path, k->id_field) == 0 &&
		    (col->flags & KIND_COL_DEFAULT))
			has_id = 1;
	if (k->id_field != NULL && !has_id) {
		t->id_col.header = "ID";
		t->id_col.path = k->id_field;
		t->id_col.format = KIND_FMT_TEXT;
		t->cols[t->ncols] = &t->id_col;
		t->widths[t->ncols++] = 36;
		col = kind_column_find(k, k->id_field);
		if (col != NULL && col->width > 0)
			t->widths[t->ncols - 1] = col->width;
		t->id_col.width = t->widths[t->ncols - 1];
	}
	for (col = k->columns; col != NULL && col->header != NULL; col++) {
		if ((col->flags & KIND_COL_DEFAULT) == 0 ||
		    (col->flags & KIND_COL_PER_RECORD) ||
		    t->ncols == nitems(t->cols))
			continue;
		t->cols[t->ncols] = col;
		t->widths[t->ncols++] = col->width > 0 ? col->width :
		    CLI_WIDE_COLUMN;
	}
	if (t->ncols == 0 && k->columns != NULL && k->columns[0].header) {
		t->cols[0] = &k->columns[0];
		t->widths[t->ncols++] = CLI_WIDE_COLUMN;
	}
}

static void
cli_table_cell(const struct cli_table *t, size_t i, const char *text)
{
	const struct kind_column	*col = t->cols[i];
	size_t				 w = (size_t)t->widths[i], n;
	int				 last = i + 1 == t->ncols;
	char				 cell[CLI_CELL_MAX], *cut;

	snprintf(cell, sizeof cell, "%s", text);
	/* Cut, a cell says so, as rules simulate's table does. */
	if (t->cut && text_width(cell) > w) {
		cut = text_ellipsize(cell, w, "...");
		snprintf(cell, sizeof cell, "%s", cut);
		free(cut);
	}
	n = text_width(cell);
	if (i != 0)
		fputs("  ", stdout);
	if ((col->flags & KIND_COL_RIGHT) && n < w)
		printf("%*s", (int)(w - n), "");
	fputs(cell, stdout);
	if (!last && !(col->flags & KIND_COL_RIGHT) && n < w)
		printf("%*s", (int)(w - n), "");
}

void
cli_table_header(struct cli_table *t)
{
	size_t	i;

	if (!t->fitted)
		cli_table_fit(t, NULL, 0);
	for (i = 0; i < t->ncols; i++)
		cli_table_cell(t, i, t->cols[i]->header);
	fputc('\n', stdout);
}

void
cli_table_row(const struct cli_table *t, const cJSON *record)
{
	char	cell[CLI_CELL_MAX];
	size_t	i;

	for (i = 0; i < t->ncols; i++) {
		kind_column_value(t->kind, t->cols[i], record, cell,
		    sizeof cell);
		cli_table_cell(t, i, cell);
	}
	fputc('\n', stdout);
}

void
cli_print_json(const cJSON *v)
{
	char	*text;

	if ((text = cJSON_Print(v)) == NULL)
		fatalx("out of memory");
	printf("%s\n", text);
	cJSON_free(text);
}

void
cli_print_yaml(const cJSON *v)
{
	char	*text;

	text = yamljson_emit(v);
	fputs(text, stdout);
	free(text);
}

/*
 * The record a create or get returned, for a table: the result itself, or
 * the object in it that holds the id ({schema: {...}, upload_details}).
 */
static const cJSON *
cli_record_of(const struct kind *k, const cJSON *result)
{
	const cJSON	*m;

	if (k->id_field == NULL || kind_record_id(k, result) != NULL ||
	    !cJSON_IsObject(result))
		return (result);
	cJSON_ArrayForEach(m, result)
		if (cJSON_IsObject(m) && kind_record_id(k, m) != NULL)
			return (m);
	return (result);
}

/* One record (get ID, create, update) in the chosen format. */
void
cli_print_record(struct cli *c, const struct kind *k, const cJSON *result)
{
	struct cli_table	 t;
	const cJSON		*rec;

	switch (c->out) {
	case CLI_OUT_JSON:
		cli_print_json(result);
		break;
	case CLI_OUT_YAML:
		cli_print_yaml(result);
		break;
	case CLI_OUT_TABLE:
		cli_table_init(&t, k);
		rec = cli_record_of(k, result);
		cli_table_fit(&t, &rec, 1);
		cli_table_header(&t);
		cli_table_row(&t, rec);
		break;
	}
	fflush(stdout);
}

void
cli_print_json_item(const cJSON *v)
{
	char	*text;

	if ((text = cJSON_Print(v)) == NULL)
		fatalx("out of memory");
	fputs(text, stdout);
	cJSON_free(text);
}
