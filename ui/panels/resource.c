/*
 * The generic resource panel: any kind, driven by its descriptor. Lists
 * load page by page in the background into a row store; details, forms,
 * $EDITOR edits with a diff, deletes one or marked. Panels for particular
 * kinds add their keys through struct panel_ops hooks.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edit.h"
#include "form_model.h"
#include "http.h"
#include "log.h"
#include "pager.h"
#include "redact.h"
#include "screen.h"
#include "text.h"
#include "tui.h"
#include "widgets/line.h"
#include "xmalloc.h"
#include "yamljson.h"

#define PANEL_FLEX_MIN		32
#define PANEL_SECRET_MASK	"********"

static struct kind_column panel_id_column = {
	.header = "ID", .format = KIND_FMT_TEXT
};

/* ---- setting up -------------------------------------------------------- */

static void
panel_columns(struct panel *p)
{
	const struct kind		*k = p->kind;
	const struct kind_column	*col;
	int				 has_id = 0;

	p->ncols = 0;
	for (col = k->columns; col != NULL && col->header != NULL; col++) {
		if ((col->flags & KIND_COL_DEFAULT) == 0 ||
		    p->ncols == ROWS_MAX_COLUMNS - 1)
			continue;
		if (k->id_field != NULL && strcmp(col->path, k->id_field) == 0)
			has_id = 1;
		p->cols[p->ncols++] = col;
	}
	if (k->id_field != NULL && !has_id) {
		col = kind_column_find(k, k->id_field);
		if (col == NULL) {
			col = &panel_id_column;
			panel_id_column.width = 36;
		}
		p->cols[p->ncols++] = col;
	}
}

struct panel *
panel_new(struct tui *t, const struct kind *k, const char *video)
{
	struct panel	*p;

	p = xcalloc(1, sizeof *p);
	p->tui = t;
	p->kind = k;
	p->video = video != NULL ? xstrdup(video) : NULL;
	p->vars[0] = t->vars[0];
	p->vars[1] = t->vars[1];
	p->vars[2].name = "video";
	p->vars[2].value = p->video;
	p->ops = panel_ops_for(k);
	panel_columns(p);
	p->rows = rows_new(k, p->cols, p->ncols);
	p->sort_col = -1;
	p->detail.cursor = 1;
	if (k->shape == KIND_SHAPE_OBJECT)
		p->view = PANEL_DETAIL;
	if (p->ops != NULL && p->ops->opened != NULL)
		p->ops->opened(p);
	return (p);
}

void
panel_free(struct panel *p)
{
	if (p == NULL)
		return;
	rows_free(p->rows);
	free(p->video);
	free(p->upload_file);
	free(p->filter_pending);
	if (p->pager != NULL)
		pager_free(p->pager);
	textview_clear(&p->detail);
	cJSON_Delete(p->record);
	free(p->cursor_id);
	free(p->filter);
	free(p->query);
	free(p->error);
	free(p->banner);
	free(p->priv);
	free(p);
}

/* ---- the cursor ------------------------------------------------------- */

static void
panel_remember(struct panel *p)
{
	const char	*id = NULL;

	if (p->cursor < rows_count(p->rows))
		id = rows_id(p->rows, p->cursor);
	free(p->cursor_id);
	p->cursor_id = id != NULL ? xstrdup(id) : NULL;
}

/* Put the cursor back on its record after the rows changed. */
static void
panel_restore(struct panel *p)
{
	size_t	n = rows_count(p->rows);
	long	i;

	if (p->cursor_id != NULL &&
	    (i = rows_find(p->rows, p->cursor_id)) >= 0)
		p->cursor = (size_t)i;
	if (n == 0)
		p->cursor = 0;
	else if (p->cursor >= n)
		p->cursor = n - 1;
	if (p->cursor_id == NULL)
		panel_remember(p);
}

static void
panel_move(struct panel *p, long delta)
{
	size_t	n = rows_count(p->rows);
	long	c = (long)p->cursor + delta;

	if (n == 0)
		return;
	if (c < 0)
		c = 0;
	if (c >= (long)n)
		c = (long)n - 1;
	p->cursor = (size_t)c;
	panel_remember(p);
}

const char *
panel_current_id(struct panel *p)
{
	if (p->kind->shape == KIND_SHAPE_OBJECT ||
	    p->cursor >= rows_count(p->rows))
		return (NULL);
	return (rows_id(p->rows, p->cursor));
}

cJSON *
panel_current_record(struct panel *p)
{
	if (p->kind->shape == KIND_SHAPE_OBJECT)
		return (p->record != NULL ? cJSON_Duplicate(p->record, 1) :
		    NULL);
	if (p->cursor >= rows_count(p->rows))
		return (NULL);
	return (rows_record(p->rows, p->cursor));
}

const char **
panel_targets(struct panel *p, size_t *n)
{
	const char	**ids, *id;

	if (rows_mark_count(p->rows) > 0)
		return (rows_marked_ids(p->rows, n));
	*n = 0;
	if ((id = panel_current_id(p)) == NULL)
		return (NULL);
	ids = xcalloc(1, sizeof *ids);
	ids[0] = id;
	*n = 1;
	return (ids);
}

char *
panel_item_path(struct panel *p, const char *id)
{
	char	*path, *cause = NULL;

	path = kind_item_path(p->kind, p->vars, id, &cause);
	if (path == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
	}
	return (path);
}

/* ---- naming records in questions --------------------------------------- */

#define PANEL_LABEL_MAX		40	/* columns of a name in a question */
#define PANEL_SHORT_ID		8
#define PANEL_NAMES_SHOWN	3	/* a bulk question lists this many */

const char *
panel_noun(const struct panel *p)
{
	return (p->kind->noun != NULL ? p->kind->noun : p->kind->name);
}

/* Record id's label ("Launch teaser.mp4"), cleaned and cut; or NULL. */
static char *
panel_record_label(struct panel *p, const char *id)
{
	const cJSON	*v = NULL;
	cJSON		*rec = NULL;
	char		*clean, *cut = NULL;
	long		 i;

	if (p->kind->label != NULL && id != NULL &&
	    (i = rows_find(p->rows, id)) >= 0 &&
	    (rec = rows_record(p->rows, (size_t)i)) != NULL)
		v = kind_json_get(rec, p->kind->label);
	if (cJSON_IsString(v) && *v->valuestring != '\0') {
		clean = text_clean(v->valuestring);
		cut = text_ellipsize(clean, PANEL_LABEL_MAX, screen_ellipsis());
		free(clean);
	}
	cJSON_Delete(rec);
	return (cut);
}

/* "'Launch teaser.mp4' (7d05ce87…)": the record's label and short id. */
void
panel_name_record(struct panel *p, const char *id, struct buf *b)
{
	char	*label;

	if (id == NULL)
		return;
	if ((label = panel_record_label(p, id)) == NULL) {
		buf_adds(b, id);
		return;
	}
	buf_addf(b, "'%s'", label);
	if (strlen(id) > PANEL_SHORT_ID)
		buf_addf(b, " (%.*s%s)", PANEL_SHORT_ID, id, screen_ellipsis());
	else
		buf_addf(b, " (%s)", id);
	free(label);
}

static int
panel_cursor_marked(struct panel *p)
{
	return (p->cursor < rows_count(p->rows) &&
	    rows_marked(p->rows, p->cursor));
}

const char *
panel_marks_note(struct panel *p)
{
	if (rows_mark_count(p->rows) == 0)
		return ("");
	if (panel_cursor_marked(p))
		return ("the marked ones");
	return ("the marked ones, not the one under the cursor");
}

/* The first few of ids, one per line, and how many more. */
void
panel_name_targets(struct panel *p, const char *const *ids, size_t n,
    struct buf *b)
{
	size_t	i;

	for (i = 0; i < n && i < PANEL_NAMES_SHOWN; i++) {
		buf_adds(b, "\n  ");
		panel_name_record(p, ids[i], b);
	}
	if (n > PANEL_NAMES_SHOWN)
		buf_addf(b, "\n  and %zu more", n - PANEL_NAMES_SHOWN);
}

/* ---- loading ------------------------------------------------------------ */

static void
panel_next_page(struct panel *p)
{
	struct buf	 q;
	char		*base, *cause = NULL;
	int		 more;

	base = kind_list_path(p->kind, p->vars, &cause);
	if (base == NULL) {
		free(p->error);
		p->error = cause;
		p->loading = 0;
		return;
	}
	buf_init(&q);
	buf_adds(&q, base);
	buf_addc(&q, strchr(base, '?') != NULL ? '&' : '?');
	if (p->query != NULL && *p->query != '\0')
		buf_addf(&q, "%s&", p->query);
	if (p->filter != NULL && *p->filter != '\0' && *p->filter != '!' &&
	    kind_filter_text(p->kind) != NULL &&
	    kind_filter_add(p->kind, kind_filter_text(p->kind)->name,
	    p->filter, &q, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	more = pager_next_query(p->pager, &q);
	if (!more) {
		p->loading = 0;
		buf_free(&q);
		free(base);
		return;
	}
	if (q.len > 0 && (q.data[q.len - 1] == '&' || q.data[q.len - 1] == '?'))
		buf_truncate(&q, q.len - 1);
	if (tui_submit(p->tui, p, TUI_REQ_LIST, "GET", buf_str(&q),
	    NULL) == NULL)
		p->loading = 0;
	buf_free(&q);
	free(base);
}

void
panel_load(struct panel *p)
{
	struct pager_opts	 po;
	char			*path, *cause = NULL;

	p->gen++;
	free(p->error);
	p->error = NULL;
	p->loading = 1;
	if (p->kind->shape == KIND_SHAPE_OBJECT) {
		path = kind_item_path(p->kind, p->vars, NULL, &cause);
		if (path == NULL) {
			p->error = cause;
			p->loading = 0;
			return;
		}
		/* Server filters (F) apply to an object too: one creator's. */
		if (p->query != NULL && *p->query != '\0') {
			char *full = xprintf("%s%c%s", path,
			    strchr(path, '?') != NULL ? '&' : '?', p->query);
			free(path);
			path = full;
		}
		if (tui_submit(p->tui, p, TUI_REQ_LIST, "GET", path,
		    NULL) == NULL)
			p->loading = 0;
		free(path);
		return;
	}
	if (p->pager != NULL)
		pager_free(p->pager);
	kind_pager_opts(p->kind, &po);
	p->pager = pager_new(p->kind->paging, p->kind->per_page.max, &po);
	rows_begin(p->rows);
	panel_next_page(p);
}

static void
panel_banner(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const char	*gone;

	if (ev->http_status != 410 ||
	    (gone = api_gone_message(r->path)) == NULL)
		return;
	free(p->banner);
	p->banner = xstrdup(gone);
}

static void
panel_list_done(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	cJSON	**items;
	size_t	  n, i;
	char	 *cause = NULL;

	if (r->gen != p->gen)
		return;
	if (ev->kind == JOBS_EVENT_FAILED) {
		free(p->error);
		p->error = xstrdup(tui_cause(r, ev));
		p->loading = 0;
		panel_banner(p, r, ev);
		if (p->banner != NULL && ev->http_status == 410) {
			free(p->error);
			p->error = xstrdup("HTTP 410 Gone: this server retired "
			    "the API (see above)");
		}
		tui_message(p->tui, TUI_MSG_ERROR, "%s", p->error);
		return;
	}
	p->loaded = 1;
	p->loaded_at = time(NULL);
	free(p->banner);
	p->banner = NULL;
	if (p->kind->shape == KIND_SHAPE_OBJECT) {
		panel_show_record(p, ev->result);
		p->loading = 0;
		return;
	}
	/* The pager reads the whole response: give it its result back. */
	ev->resp.api.result = ev->result;
	ev->result = NULL;
	if (pager_feed(p->pager, &ev->resp.api, &items, &n, &cause) != 0) {
		free(p->error);
		p->error = cause;
		p->loading = 0;
		tui_message(p->tui, TUI_MSG_ERROR, "%s", p->error);
		return;
	}
	for (i = 0; i < n; i++)
		rows_put(p->rows, items[i]);
	if (pager_done(p->pager)) {
		rows_end(p->rows);
		p->loading = 0;
		if (pager_warning(p->pager) != NULL)
			tui_message(p->tui, TUI_MSG_WARN, "%s",
			    pager_warning(p->pager));
	} else
		panel_next_page(p);
	panel_restore(p);
}

/* ---- details -------------------------------------------------------------- */

static void
panel_detail_text(struct panel *p)
{
	cJSON	*copy;
	char	*text, *title;
	const char *id;

	if (p->record == NULL)
		return;
	copy = cJSON_Duplicate(p->record, 1);
	if (!p->reveal)
		redact_json(copy, PANEL_SECRET_MASK);
	if (p->detail_json) {
		if ((text = cJSON_Print(copy)) == NULL)
			fatalx("out of memory");
	} else
		text = yamljson_emit(copy);
	cJSON_Delete(copy);
	id = kind_record_id(p->kind, p->record);
	title = id != NULL ? xprintf("%s %s", p->kind->name, id) :
	    xstrdup(p->kind->name);
	textview_set(&p->detail, title, text);
	free(title);
	free(text);
}

void
panel_show_record(struct panel *p, const cJSON *rec)
{
	size_t	top = p->detail.top;
	int	same;

	same = p->record != NULL && rec != NULL &&
	    kind_record_id(p->kind, p->record) != NULL &&
	    kind_record_id(p->kind, rec) != NULL &&
	    strcmp(kind_record_id(p->kind, p->record),
	    kind_record_id(p->kind, rec)) == 0;
	cJSON_Delete(p->record);
	p->record = rec != NULL ? cJSON_Duplicate(rec, 1) : NULL;
	panel_detail_text(p);
	if (same && top < p->detail.nlines)
		p->detail.top = top;
	p->view = PANEL_DETAIL;
}

static void
panel_details(struct panel *p)
{
	cJSON	*rec;
	char	*path;
	const char *id;

	if ((rec = panel_current_record(p)) == NULL)
		return;
	panel_show_record(p, rec);
	p->detail.top = 0;
	p->detail.cur = 0;
	cJSON_Delete(rec);
	if ((p->kind->verbs & KIND_VERB_GET) == 0 ||
	    (id = panel_current_id(p)) == NULL)
		return;
	if ((path = panel_item_path(p, id)) == NULL)
		return;
	tui_submit(p->tui, p, TUI_REQ_GET, "GET", path, NULL);
	free(path);
}

/* ---- what the details offer: y, w, the footer ------------------------------ */

static size_t
panel_indent(const char *line)
{
	return (strspn(line, " \t"));
}

/*
 * The value on details line i: the line and the lines below it that are
 * indented deeper (a block, a map) read back as YAML or JSON. A scalar
 * is its text; anything else the text as shown. NULL: no value there.
 */
static char *
panel_line_value(struct panel *p, size_t i)
{
	struct textview	*tv = &p->detail;
	struct buf	 b;
	const cJSON	*v;
	cJSON		*doc;
	char		*line, *cause = NULL, *out = NULL;
	size_t		 ind, j, end, len;

	if (i >= tv->nlines)
		return (NULL);
	line = xstrdup(tv->lines[i] + panel_indent(tv->lines[i]));
	len = strlen(line);
	while (len > 0 && (line[len - 1] == ',' || line[len - 1] == ' '))
		line[--len] = '\0';
	buf_init(&b);
	if (p->detail_json) {
		/* "key": value, or an array's value: one line each. */
		buf_addf(&b, "%s%s%s", line[0] == '"' && strstr(line, "\":") !=
		    NULL ? "{" : "[", line, line[0] == '"' &&
		    strstr(line, "\":") != NULL ? "}" : "]");
		doc = cJSON_Parse(buf_str(&b));
	} else {
		/* "- key: v" is key: v in the list item; its block follows. */
		ind = panel_indent(tv->lines[i]);
		if (strncmp(line, "- ", 2) == 0) {
			memmove(line, line + 2, strlen(line + 2) + 1);
			ind += 2;
		}
		buf_addf(&b, "%s\n", line);
		for (end = i + 1; end < tv->nlines &&
		    (tv->lines[end][0] == '\0' ||
		    panel_indent(tv->lines[end]) > ind); end++)
			;
		for (j = i + 1; j < end; j++)
			buf_addf(&b, "%s\n", strlen(tv->lines[j]) > ind ?
			    tv->lines[j] + ind : "");
		doc = yamljson_parse(b.data, b.len, &cause);
		free(cause);
	}
	v = NULL;
	if (cJSON_IsObject(doc) || cJSON_IsArray(doc))
		v = doc->child;
	if (cJSON_IsString(v))
		out = xstrdup(v->valuestring);
	else if (cJSON_IsNumber(v) || cJSON_IsBool(v)) {
		if ((out = cJSON_PrintUnformatted(v)) == NULL)
			fatalx("out of memory");
	} else if (v != NULL && !cJSON_IsNull(v)) {
		if ((out = p->detail_json ? cJSON_Print(v) :
		    yamljson_emit(v)) == NULL)
			fatalx("out of memory");
	}
	cJSON_Delete(doc);
	buf_free(&b);
	free(line);
	return (out);
}

/* y in the details: the value on the cursor's line, by OSC 52. */
static void
panel_detail_copy(struct panel *p)
{
	char	*v, *key, *k, *colon;

	if ((v = panel_line_value(p, p->detail.cur)) == NULL) {
		tui_message(p->tui, TUI_MSG_WARN, "no value on this line to "
		    "copy");
		return;
	}
	if (!p->reveal && strcmp(v, PANEL_SECRET_MASK) == 0) {
		tui_message(p->tui, TUI_MSG_WARN, "a secret: x shows it, then "
		    "y copies it");
		free(v);
		return;
	}
	/* The message names the field: "- name:" and "\"name\":" as name. */
	key = xstrdup(p->detail.lines[p->detail.cur] +
	    panel_indent(p->detail.lines[p->detail.cur]));
	k = key + (strncmp(key, "- ", 2) == 0 ? 2 : 0);
	k += *k == '"';
	if ((colon = strchr(k, ':')) != NULL && colon != k &&
	    (colon[1] == ' ' || colon[1] == '\0')) {
		*colon = '\0';
		if (colon[-1] == '"')
			colon[-1] = '\0';
		tui_copy(p->tui, *k != '\0' ? k : "the value", v);
	} else
		tui_copy(p->tui, "the value", v);
	explicit_bzero(v, strlen(v));
	free(v);
	free(key);
}

static void
panel_detail_saved(struct tui *t, void *arg, const char *file)
{
	struct panel	*p = arg;
	char		*cause = NULL;

	if (*file == '\0')
		return;
	if (textview_save(&p->detail, file, &cause) != 0) {
		tui_message(t, TUI_MSG_ERROR, "save: %s", cause);
		free(cause);
		return;
	}
	tui_message(t, TUI_MSG_OK, "saved the details to %s (mode 0600%s)",
	    file, p->reveal ? ", secrets shown" : "; secrets masked");
}

/* ---- changes -------------------------------------------------------------- */

int
panel_merge(struct panel *p, const char *id, const cJSON *fields)
{
	const cJSON	*f;
	cJSON		*rec;
	long		 i;

	if (id == NULL || !cJSON_IsObject(fields) ||
	    (i = rows_find(p->rows, id)) < 0 ||
	    (rec = rows_record(p->rows, (size_t)i)) == NULL)
		return (-1);
	cJSON_ArrayForEach(f, fields) {
		cJSON_DeleteItemFromObjectCaseSensitive(rec, f->string);
		cJSON_AddItemToObject(rec, f->string, cJSON_Duplicate(f, 1));
	}
	rows_put(p->rows, rec);
	if (p->view == PANEL_DETAIL && p->record != NULL &&
	    kind_record_id(p->kind, p->record) != NULL &&
	    strcmp(kind_record_id(p->kind, p->record), id) == 0)
		panel_show_record(p, rec);
	cJSON_Delete(rec);
	return (0);
}

/*
 * The panel's copy of a record after the server changed it: the whole
 * record, or (an answer without the id, such as a PATCH's {state}) the
 * fields that changed in record id.
 */
static void
panel_changed_record(struct panel *p, const char *id, const cJSON *rec)
{
	if (rec == NULL || !cJSON_IsObject(rec))
		return;
	if (p->kind->shape != KIND_SHAPE_OBJECT &&
	    kind_record_id(p->kind, rec) == NULL) {
		if (panel_merge(p, id, rec) != 0)
			panel_load(p);
		panel_restore(p);
		return;
	}
	if (p->kind->shape == KIND_SHAPE_OBJECT) {
		panel_show_record(p, rec);
		return;
	}
	rows_put(p->rows, rec);
	if (p->view == PANEL_DETAIL && p->record != NULL &&
	    kind_record_id(p->kind, rec) != NULL &&
	    kind_record_id(p->kind, p->record) != NULL &&
	    strcmp(kind_record_id(p->kind, rec),
	    kind_record_id(p->kind, p->record)) == 0)
		panel_show_record(p, rec);
	panel_restore(p);
}

void
panel_after_change(struct panel *p)
{
	panel_restore(p);
	p->tui->dirty = 1;
}

static void
panel_send_update(struct panel *p, const char *id, const cJSON *before,
    const cJSON *edited, struct modal *form)
{
	struct tui_req	*r;
	cJSON		*body;
	char		*path;
	const char	*method = kind_method_name(p->kind->update_method);

	if ((path = panel_item_path(p, id)) == NULL)
		return;
	body = edit_update_body(p->kind, before, edited, id);
	r = tui_submit(p->tui, p, TUI_REQ_UPDATE, method, path, body);
	if (r != NULL) {
		r->id = id != NULL ? xstrdup(id) : NULL;
		r->before = before != NULL ? cJSON_Duplicate(before, 1) : NULL;
		r->modal = form;
		tui_message(p->tui, TUI_MSG_INFO, "saving %s...",
		    id != NULL ? id : p->kind->name);
	}
	cJSON_Delete(body);
	free(path);
}

static void
panel_form_submit(struct tui *t, struct panel *p, struct modal *m,
    cJSON *body, const char *id, const cJSON *before)
{
	struct tui_req	*r;
	char		*path, *cause = NULL;

	if (id != NULL || p->kind->shape == KIND_SHAPE_OBJECT) {
		panel_send_update(p, id, before, body, m);
		return;
	}
	if ((path = kind_create_path(p->kind, p->vars, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	r = tui_submit(t, p, TUI_REQ_CREATE, "POST", path, body);
	if (r != NULL) {
		r->modal = m;
		tui_message(t, TUI_MSG_INFO, "creating %s...", p->kind->name);
	}
	free(path);
}

void
panel_form_new(struct panel *p, const cJSON *rec, const char *id)
{
	struct form	*f;
	char		*title;

	f = form_new(p->kind, rec);
	if (f->nitems == 0) {
		form_free(f);
		tui_message(p->tui, TUI_MSG_WARN, "%s has no field to edit in "
		    "a form: use E", p->kind->name);
		return;
	}
	title = rec == NULL ? xprintf("new %s", p->kind->name) :
	    id != NULL ? xprintf("edit %s %s", p->kind->name, id) :
	    xprintf("edit %s", p->kind->name);
	formview_open(p->tui, p, f, title, panel_form_submit, id);
	free(title);
}

static int
panel_can(struct panel *p, unsigned verb, const char *what)
{
	if ((p->kind->verbs & verb) == 0) {
		tui_message(p->tui, TUI_MSG_WARN, "%s cannot be %s",
		    p->kind->name, what);
		return (0);
	}
	return (1);
}

static void	panel_reedit_offer(struct panel *, const char *,
		    const cJSON *, const char *, const char *);

/* What a fetch is for, as the wait and its failure say it. */
static const char *
panel_fetch_purpose(enum tui_req_type type)
{
	switch (type) {
	case TUI_REQ_FETCH_FORM:
		return ("no form was opened");
	case TUI_REQ_FETCH_EDIT:
		return ("no editor was opened");
	default:
		return ("your edit was not applied");
	}
}

/* The edited text and record a diff's fetch carries (r->data). */
static const char *
panel_edit_text_of(const struct tui_req *r)
{
	const cJSON	*text = cJSON_GetObjectItemCaseSensitive(r->data,
			    "text");

	return (cJSON_IsString(text) ? text->valuestring : NULL);
}

static void
panel_wait_cancel(struct tui *t, void *arg, const char *answer)
{
	struct tui_req	*r = arg, *x;

	(void)answer;
	for (x = t->reqs; x != NULL && x != r; x = x->next)
		;
	if (x == NULL)
		return;
	r->modal = NULL;
	if (r->type == TUI_REQ_FETCH_DIFF && panel_edit_text_of(r) != NULL)
		panel_reedit_offer(r->panel, r->id, r->before,
		    panel_edit_text_of(r), "Cancelled: your edit was not "
		    "applied.");
	else
		tui_message(t, TUI_MSG_INFO, "cancelled: %s",
		    panel_fetch_purpose(r->type));
	tui_cancel_req(t, r);
}

/*
 * While a record is fetched to edit, the keys typed for the form or the
 * editor are held rather than acted on by the list; Esc cancels.
 */
static struct modal *
panel_wait(struct panel *p, struct tui_req *r)
{
	struct modal	*m;
	char		*text;

	if (r->type != TUI_REQ_FETCH_FORM && r->type != TUI_REQ_FETCH_EDIT &&
	    r->type != TUI_REQ_FETCH_DIFF)
		return (NULL);
	text = xprintf("Fetching %s%s%s%s...\nEsc cancels.", p->kind->name,
	    r->id != NULL ? " " : "", r->id != NULL ? r->id : "",
	    r->type == TUI_REQ_FETCH_DIFF ? " to compare your edit" : "");
	m = dialog_wait(p->tui, "fetching", text, panel_wait_cancel, r);
	free(text);
	return (m);
}

/* A fetch to edit failed: why, in place of the wait, until a key. */
static void
panel_fetch_failed(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const char	*why = tui_cause(r, ev);
	char		*text;

	panel_banner(p, r, ev);
	text = xprintf("Could not fetch %s%s%s:\n%s\n\nSo %s.", p->kind->name,
	    r->id != NULL ? " " : "", r->id != NULL ? r->id : "", why,
	    panel_fetch_purpose(r->type));
	tui_message(p->tui, TUI_MSG_ERROR, "%s: %s", panel_fetch_purpose(
	    r->type), why);
	if (r->type == TUI_REQ_FETCH_DIFF && panel_edit_text_of(r) != NULL) {
		dialog_wait_done(p->tui, r->modal);
		panel_reedit_offer(p, r->id, r->before, panel_edit_text_of(r),
		    text);
	} else
		dialog_wait_failed(p->tui, r->modal, "fetch failed", text);
	r->modal = NULL;
	free(text);
}

/*
 * A copy of record id to work on (type says what for; data and before are
 * taken). Kinds with no call for one record use the listed copy, the
 * freshest there is, and are answered at once.
 */
static void
panel_fetch_as(struct panel *p, enum tui_req_type type, const char *id,
    cJSON *data, cJSON *before)
{
	struct jobs_event	 ev;
	struct tui_req		*r, local;
	char			*path;
	long			 i;

	if ((p->kind->verbs & KIND_VERB_GET) == 0 &&
	    p->kind->shape != KIND_SHAPE_OBJECT) {
		memset(&ev, 0, sizeof ev);
		memset(&local, 0, sizeof local);
		ev.kind = JOBS_EVENT_DONE;
		if (id != NULL && (i = rows_find(p->rows, id)) >= 0)
			ev.result = rows_record(p->rows, (size_t)i);
		local.panel = p;
		local.type = type;
		local.id = id != NULL ? xstrdup(id) : NULL;
		local.data = data;
		local.before = before;
		if (ev.result != NULL)
			panel_event(p, &local, &ev);
		else
			tui_message(p->tui, TUI_MSG_ERROR, "%s %s is no longer "
			    "listed", p->kind->name, id != NULL ? id : "");
		cJSON_Delete(ev.result);
		free(local.id);
		cJSON_Delete(local.data);
		cJSON_Delete(local.before);
		return;
	}
	r = NULL;
	if ((path = panel_item_path(p, id)) != NULL)
		r = tui_submit(p->tui, p, type, "GET", path, NULL);
	free(path);
	if (r == NULL) {
		cJSON_Delete(data);
		cJSON_Delete(before);
		return;
	}
	r->id = id != NULL ? xstrdup(id) : NULL;
	r->data = data;
	r->before = before;
	r->modal = panel_wait(p, r);
}

static void
panel_fetch(struct panel *p, enum tui_req_type type)
{
	const char	*id = panel_current_id(p);

	if (p->kind->shape != KIND_SHAPE_OBJECT && id == NULL)
		return;
	panel_fetch_as(p, type, id, NULL, NULL);
}

/* ---- edit as YAML ---------------------------------------------------------- */

struct panel_editor {
	struct edit	*e;
	char		*cause;
};

static int
panel_run_editor(void *arg)
{
	struct panel_editor	*pe = arg;

	return (edit_run_editor(pe->e->file, &pe->cause));
}

/*
 * The editor on the opened edit until it is valid or given up; then the
 * fresh copy is fetched to diff against, carrying the text as saved so
 * that an edit not applied can be taken up again.
 */
static void
panel_edit_run(struct panel *p, const char *id, struct edit *ep)
{
	struct edit		 e = *ep;
	struct panel_editor	 pe;
	enum edit_status	 st;
	cJSON			*edited = NULL, *data;
	char			*cause = NULL, *text;

	pe.e = &e;
	for (;;) {
		pe.cause = NULL;
		if (tui_suspend_run(p->tui, panel_run_editor, &pe) != 0) {
			tui_message(p->tui, TUI_MSG_ERROR, "edit: %s; nothing "
			    "changed", pe.cause);
			free(pe.cause);
			edit_close(&e);
			return;
		}
		st = edit_next(&e, &edited, &cause);
		if (st != EDIT_AGAIN)
			break;
	}
	switch (st) {
	case EDIT_CHANGED:
		break;
	case EDIT_UNCHANGED:
	case EDIT_EMPTY:
		tui_message(p->tui, TUI_MSG_INFO, "edit: no change");
		edit_close(&e);
		return;
	default:
		tui_message(p->tui, TUI_MSG_ERROR, "edit: %s", cause);
		free(cause);
		edit_close(&e);
		return;
	}
	data = cJSON_CreateObject();
	if (data == NULL || !cJSON_AddItemToObject(data, "record", edited))
		fatalx("out of memory");
	if ((text = edit_read_file(e.file, NULL, &cause)) != NULL) {
		if (cJSON_AddStringToObject(data, "text", text) == NULL)
			fatalx("out of memory");
		free(text);
	} else
		free(cause);
	/* Diff against a fresh copy: the record may have changed since. */
	panel_fetch_as(p, TUI_REQ_FETCH_DIFF, id, data,
	    cJSON_Duplicate(e.orig, 1));
	edit_close(&e);
}

static enum validate_mode
panel_edit_mode(struct panel *p, const char *id)
{
	return (p->kind->shape == KIND_SHAPE_OBJECT || id != NULL ?
	    VALIDATE_UPDATE : VALIDATE_CREATE);
}

/* The editor on the fetched record. */
static void
panel_edit_yaml(struct panel *p, const char *id, const cJSON *rec)
{
	struct edit	 e;
	char		*cause = NULL;

	if (edit_open(&e, p->kind, rec, panel_edit_mode(p, id), &cause) != 0) {
		tui_message(p->tui, TUI_MSG_ERROR, "edit: %s", cause);
		free(cause);
		edit_close(&e);
		return;
	}
	panel_edit_run(p, id, &e);
}

/* The editor again on a text not applied, against the original. */
static void
panel_edit_again(struct panel *p, const char *id, const cJSON *orig,
    const char *text)
{
	struct edit	 e;
	char		*cause = NULL;

	if (edit_open_text(&e, p->kind, orig, text, panel_edit_mode(p, id),
	    &cause) != 0) {
		tui_message(p->tui, TUI_MSG_ERROR, "edit: %s", cause);
		free(cause);
		edit_close(&e);
		return;
	}
	panel_edit_run(p, id, &e);
}

/* An edit not applied: offer the editor again, with the text as saved. */
struct panel_reedit {
	struct panel	*p;
	char		*id;
	cJSON		*orig;
	char		*text;
};

static void
panel_reedit_free(void *arg)
{
	struct panel_reedit	*a = arg;

	free(a->id);
	cJSON_Delete(a->orig);
	free(a->text);
	free(a);
}

static void
panel_reedit_answer(struct tui *t, void *arg, const char *answer)
{
	struct panel_reedit	*a = arg;

	if (strcmp(answer, "y") != 0) {
		tui_message(t, TUI_MSG_INFO, "edit: not applied; your text is "
		    "dropped");
		return;
	}
	panel_edit_again(a->p, a->id, a->orig, a->text);
}

static void
panel_reedit_offer(struct panel *p, const char *id, const cJSON *orig,
    const char *text, const char *why)
{
	struct panel_reedit	*a;
	char			*q;

	a = xcalloc(1, sizeof *a);
	a->p = p;
	a->id = id != NULL ? xstrdup(id) : NULL;
	if ((a->orig = cJSON_Duplicate(orig, 1)) == NULL)
		fatalx("out of memory");
	a->text = xstrdup(text);
	q = xprintf("%s\n\nReopen the editor with your text? (y/n)", why);
	dialog_ask(p->tui, "edit not applied", q, panel_reedit_answer, a,
	    panel_reedit_free);
	free(q);
}

struct panel_apply {
	struct panel	*p;
	char		*id;
	cJSON		*fresh;
	cJSON		*edited;
	cJSON		*orig;		/* as first fetched, to edit again */
	char		*text;		/* as saved, or NULL */
};

static void
panel_apply_free(void *arg)
{
	struct panel_apply	*a = arg;

	free(a->id);
	cJSON_Delete(a->fresh);
	cJSON_Delete(a->edited);
	cJSON_Delete(a->orig);
	free(a->text);
	free(a);
}

static void
panel_apply_answer(struct tui *t, void *arg, const char *answer)
{
	struct panel_apply	*a = arg;

	if (strcmp(answer, "y") == 0) {
		panel_send_update(a->p, a->id, a->fresh, a->edited, NULL);
		return;
	}
	if (a->text == NULL) {
		tui_message(t, TUI_MSG_INFO, "edit: not applied");
		return;
	}
	/* n is not the end of the edit: the text can be taken up again. */
	panel_reedit_offer(a->p, a->id, a->orig != NULL ? a->orig : a->fresh,
	    a->text, "Not applied: nothing was sent.");
}

/* The diff as shown: secrets masked on both sides (src/redact.c). */
static size_t
panel_diff_masked(struct buf *b, const cJSON *fresh, const cJSON *edited)
{
	cJSON	*f = cJSON_Duplicate(fresh, 1), *e = cJSON_Duplicate(edited, 1);
	size_t	 n;

	redact_json(f, NULL);
	redact_json(e, NULL);
	n = edit_diff(b, f, e);
	cJSON_Delete(f);
	cJSON_Delete(e);
	return (n);
}

static void
panel_diff_confirm(struct panel *p, struct tui_req *r, const cJSON *fresh)
{
	struct panel_apply	*a;
	struct buf		 b;
	size_t			 n;

	const cJSON		*edited;

	edited = cJSON_GetObjectItemCaseSensitive(r->data, "record");
	if (edited == NULL)
		return;
	buf_init(&b);
	if (r->before != NULL && !cJSON_Compare(r->before, fresh, 1))
		buf_adds(&b, "Warning: the record changed on the server while "
		    "you edited it;\nthe diff is against its current copy.\n\n");
	n = panel_diff_masked(&b, fresh, edited);
	if (n == 0) {
		tui_message(p->tui, TUI_MSG_INFO, "edit: the server copy "
		    "already holds these values; nothing to apply");
		buf_free(&b);
		return;
	}
	a = xcalloc(1, sizeof *a);
	a->p = p;
	a->id = r->id != NULL ? xstrdup(r->id) : NULL;
	a->fresh = cJSON_Duplicate(fresh, 1);
	a->edited = cJSON_DetachItemFromObjectCaseSensitive(r->data, "record");
	a->orig = r->before != NULL ? cJSON_Duplicate(r->before, 1) : NULL;
	a->text = panel_edit_text_of(r) != NULL ?
	    xstrdup(panel_edit_text_of(r)) : NULL;
	buf_addf(&b, "\nApply %zu change%s to %s%s%s? (y/n)", n,
	    n == 1 ? "" : "s", p->kind->name, a->id != NULL ? " " : "",
	    a->id != NULL ? a->id : "");
	dialog_ask(p->tui, "apply the edit", buf_str(&b),
	    panel_apply_answer, a, panel_apply_free);
	buf_free(&b);
}

/* ---- delete ------------------------------------------------------------------ */

struct panel_delete {
	struct panel	*p;
	char		**ids;
	size_t		 n;
};

static void
panel_delete_free(void *arg)
{
	struct panel_delete	*d = arg;
	size_t			 i;

	for (i = 0; i < d->n; i++)
		free(d->ids[i]);
	free(d->ids);
	free(d);
}

static void
panel_delete_yes(struct tui *t, void *arg, const char *answer)
{
	struct panel_delete	*d = arg;
	struct panel		*p = d->p;
	struct tui_req		*r;
	cJSON			*body, *ids;
	char			*path, *cause = NULL;
	size_t			 i;
	long			 j;

	(void)answer;
	if (p->kind->shape == KIND_SHAPE_OBJECT) {
		/* The one object of its kind: its path takes no id. */
		if ((path = panel_item_path(p, NULL)) == NULL)
			return;
		r = tui_submit(t, p, TUI_REQ_DELETE, "DELETE", path, NULL);
		if (r != NULL)
			r->before = panel_current_record(p);
		free(path);
		return;
	}
	if (d->n > 1 && (p->kind->verbs & KIND_VERB_BULK_DELETE) &&
	    p->kind->bulk_delete_key != NULL) {
		if ((path = kind_list_path(p->kind, p->vars, &cause)) ==
		    NULL) {
			tui_message(t, TUI_MSG_ERROR, "%s", cause);
			free(cause);
			return;
		}
		body = cJSON_CreateObject();
		ids = cJSON_AddArrayToObject(body, p->kind->bulk_delete_key);
		for (i = 0; i < d->n; i++)
			cJSON_AddItemToArray(ids, cJSON_CreateString(d->ids[i]));
		r = tui_submit(t, p, TUI_REQ_BULK_DELETE, "DELETE", path,
		    body);
		if (r != NULL) {
			r->data = cJSON_Duplicate(ids, 1);
			r->count = d->n;
		}
		cJSON_Delete(body);
		free(path);
		return;
	}
	for (i = 0; i < d->n; i++) {
		if ((path = panel_item_path(p, d->ids[i])) == NULL)
			continue;
		r = tui_submit(t, p, TUI_REQ_DELETE, "DELETE", path, NULL);
		if (r != NULL) {
			r->id = xstrdup(d->ids[i]);
			r->count = d->n;
			if ((j = rows_find(p->rows, d->ids[i])) >= 0)
				r->before = rows_record(p->rows, (size_t)j);
		}
		free(path);
	}
}

static void
panel_delete(struct panel *p)
{
	struct panel_delete	*d;
	const char		**ids, *warn;
	char			 count[32];
	struct buf		 q;
	size_t			 n, i;
	int			 marked;

	if (tui_refuse_readonly(p->tui, "delete"))
		return;
	if (!panel_can(p, KIND_VERB_DELETE | KIND_VERB_BULK_DELETE,
	    "deleted"))
		return;
	warn = p->ops != NULL && p->ops->delete_warning != NULL ?
	    p->ops->delete_warning : NULL;
	buf_init(&q);
	if (p->kind->shape == KIND_SHAPE_OBJECT && p->record != NULL) {
		d = xcalloc(1, sizeof *d);
		d->p = p;
		buf_addf(&q, "Delete the %s?%s%s (y/n)", panel_noun(p),
		    warn != NULL ? "\n" : "", warn != NULL ? warn : "");
		dialog_confirm(p->tui, "delete", buf_str(&q), panel_delete_yes,
		    d, panel_delete_free);
		buf_free(&q);
		return;
	}
	if ((ids = panel_targets(p, &n)) == NULL || n == 0) {
		free(ids);
		buf_free(&q);
		tui_message(p->tui, TUI_MSG_WARN, "nothing to delete");
		return;
	}
	d = xcalloc(1, sizeof *d);
	d->p = p;
	d->n = n;
	d->ids = xcalloc(n, sizeof *d->ids);
	for (i = 0; i < n; i++)
		d->ids[i] = xstrdup(ids[i]);
	free(ids);
	if (n == 1) {
		marked = rows_mark_count(p->rows) > 0;
		buf_addf(&q, "Delete %s%s ", marked ? "the marked " : "",
		    panel_noun(p));
		panel_name_record(p, d->ids[0], &q);
		buf_adds(&q, "?");
		if (marked && !panel_cursor_marked(p))
			buf_adds(&q, "\n(not the one under the cursor)");
		if (warn != NULL)
			buf_addf(&q, "\n%s", warn);
		buf_adds(&q, " (y/n)");
		dialog_confirm(p->tui, "delete", buf_str(&q), panel_delete_yes,
		    d, panel_delete_free);
	} else {
		snprintf(count, sizeof count, "%zu", n);
		buf_addf(&q, "Delete %zu %ss (%s)?", n, panel_noun(p),
		    panel_marks_note(p));
		panel_name_targets(p, (const char *const *)d->ids, n, &q);
		buf_addf(&q, "%s%s\nType %zu and Enter to confirm, Esc to "
		    "cancel.", warn != NULL ? "\n" : "", warn != NULL ? warn :
		    "", n);
		dialog_confirm_typed(p->tui, "delete marked", buf_str(&q),
		    count, panel_delete_yes, d, panel_delete_free);
	}
	buf_free(&q);
}

/* Whether other deletes of this panel are still on their way. */
static int
panel_deletes_pending(struct panel *p, struct tui_req *r)
{
	struct tui_req	*o;

	for (o = p->tui->reqs; o != NULL; o = o->next)
		if (o != r && o->panel == p && o->type == TUI_REQ_DELETE)
			return (1);
	return (0);
}

static void
panel_deleted(struct panel *p, struct tui_req *r)
{
	cJSON	*id;

	if (p->kind->shape == KIND_SHAPE_OBJECT) {
		cJSON_Delete(p->record);
		p->record = NULL;
		textview_set(&p->detail, p->kind->name, "(deleted)");
		return;
	}
	if (r->type == TUI_REQ_DELETE && r->id != NULL)
		rows_remove(p->rows, r->id);
	else if (r->data != NULL) {
		cJSON_ArrayForEach(id, r->data)
			if (cJSON_IsString(id))
				rows_remove(p->rows, id->valuestring);
	}
	if (p->view == PANEL_DETAIL && p->kind->shape != KIND_SHAPE_OBJECT)
		p->view = PANEL_LIST;
	panel_restore(p);
}

/* ---- answers ------------------------------------------------------------------ */

static void
panel_failed(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const char	*why = tui_cause(r, ev);

	panel_banner(p, r, ev);
	if (p->banner != NULL && ev->http_status == 410)
		why = "HTTP 410 Gone: this server retired the API (see above)";
	if (r->modal != NULL && formview_failed(p->tui, r->modal, why))
		return;
	tui_message(p->tui, TUI_MSG_ERROR, "%s", why);
}

void
panel_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct tui	*t = p->tui;
	const char	*name = p->kind->name;

	/* The wait for a record to edit ends first, whoever handles it. */
	if (r->modal != NULL && (r->type == TUI_REQ_FETCH_FORM ||
	    r->type == TUI_REQ_FETCH_EDIT || r->type == TUI_REQ_FETCH_DIFF)) {
		if (ev->kind == JOBS_EVENT_FAILED) {
			panel_fetch_failed(p, r, ev);
			return;
		}
		if (ev->kind == JOBS_EVENT_DONE) {
			dialog_wait_done(t, r->modal);
			r->modal = NULL;
		}
	}
	if (p->ops != NULL && p->ops->event != NULL && p->ops->event(p, r, ev))
		return;
	if (r->type == TUI_REQ_LIST) {
		panel_list_done(p, r, ev);
		return;
	}
	if (ev->kind == JOBS_EVENT_FAILED) {
		panel_failed(p, r, ev);
		return;
	}
	if (ev->kind != JOBS_EVENT_DONE)
		return;
	switch (r->type) {
	case TUI_REQ_GET:
		if (p->view == PANEL_DETAIL && ev->result != NULL)
			panel_changed_record(p, r->id, ev->result);
		break;
	case TUI_REQ_FETCH_FORM:
		panel_form_new(p, ev->result, r->id);
		break;
	case TUI_REQ_FETCH_EDIT:
		panel_edit_yaml(p, r->id, ev->result);
		break;
	case TUI_REQ_FETCH_DIFF:
		panel_diff_confirm(p, r, ev->result);
		break;
	case TUI_REQ_CREATE:
		tui_journal(t, r, ev->http_status, ev->result);
		if (r->modal != NULL)
			formview_close(t, r->modal);
		panel_changed_record(p, NULL, ev->result);
		if (kind_record_id(p->kind, ev->result) != NULL) {
			free(p->cursor_id);
			p->cursor_id = xstrdup(kind_record_id(p->kind,
			    ev->result));
			panel_restore(p);
		}
		tui_message(t, TUI_MSG_OK, "created %s %s", name,
		    kind_record_id(p->kind, ev->result) != NULL ?
		    kind_record_id(p->kind, ev->result) : "");
		break;
	case TUI_REQ_UPDATE:
		tui_journal(t, r, ev->http_status, ev->result);
		if (r->modal != NULL)
			formview_close(t, r->modal);
		panel_changed_record(p, r->id, ev->result);
		tui_message(t, TUI_MSG_OK, "saved %s %s", name,
		    r->id != NULL ? r->id : "");
		break;
	case TUI_REQ_DELETE:
	case TUI_REQ_BULK_DELETE:
		tui_journal(t, r, ev->http_status, NULL);
		panel_deleted(p, r);
		if (r->type == TUI_REQ_BULK_DELETE)
			rows_mark_all(p->rows, 0);
		else if (r->id != NULL) {
			long i = rows_find(p->rows, r->id);
			if (i >= 0)
				rows_mark(p->rows, (size_t)i, 0);
		}
		/* One message for a batch of single deletes, after the last. */
		if (r->type == TUI_REQ_DELETE && panel_deletes_pending(p, r))
			break;
		if (t->msg != NULL && t->msg_class == TUI_MSG_ERROR)
			break;
		if (r->count > 1)
			tui_message(t, TUI_MSG_OK, "deleted %zu %s", r->count,
			    name);
		else
			tui_message(t, TUI_MSG_OK, "deleted %s %s", name,
			    r->id != NULL ? r->id : "");
		break;
	default:
		break;
	}
}

/* ---- creating ---------------------------------------------------------------- */

static void
panel_create_plain(struct tui *t, void *arg, const char *answer)
{
	struct panel	*p = arg;
	char		*path, *cause = NULL;

	(void)answer;
	if ((path = kind_create_path(p->kind, p->vars, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	if (tui_submit(t, p, TUI_REQ_CREATE, "POST", path, NULL) != NULL)
		tui_message(t, TUI_MSG_INFO, "creating %s...", p->kind->name);
	free(path);
}

/* Multipart: the file chosen first, then a form for the other parts. */
struct panel_upload {
	struct panel	*p;
	char		*file;
};

static void
panel_multipart_submit(struct tui *t, struct panel *p, struct modal *m,
    cJSON *body, const char *id, const cJSON *before)
{
	struct http_request	 hr;
	struct http_part	*parts;
	struct tui_req		*r;
	const struct kind_field	*f;
	const cJSON		*v;
	char			*path, *cause = NULL, **texts;
	size_t			 n = 0, i, max = 1;

	(void)id;
	(void)before;
	if ((path = kind_create_path(p->kind, p->vars, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	cJSON_ArrayForEach(v, body)
		max++;
	parts = xcalloc(max, sizeof *parts);
	texts = xcalloc(max, sizeof *texts);
	for (f = p->kind->fields; f->path != NULL; f++) {
		if (f->type == KIND_TYPE_FILE) {
			parts[n].name = f->path;
			parts[n++].file = p->upload_file;
			break;
		}
	}
	cJSON_ArrayForEach(v, body) {
		if (n == max)
			break;
		if (cJSON_IsString(v))
			texts[n] = xstrdup(v->valuestring);
		else if ((texts[n] = cJSON_PrintUnformatted(v)) == NULL)
			fatalx("out of memory");
		parts[n].name = v->string;
		parts[n].value = texts[n];
		n++;
	}
	memset(&hr, 0, sizeof hr);
	hr.method = "POST";
	hr.path = path;
	hr.parts = parts;
	hr.nparts = n;
	if (!tui_refuse_readonly(t, "upload") &&
	    (r = tui_submit_request(t, p, TUI_REQ_CREATE, &hr)) != NULL) {
		r->modal = m;
		tui_message(t, TUI_MSG_INFO, "uploading %s...", p->upload_file);
	}
	for (i = 0; i < n; i++)
		if (texts[i] != NULL)
			free(texts[i]);
	free(texts);
	free(parts);
	free(path);
}

static void
panel_multipart_file(struct tui *t, void *arg, const char *file)
{
	struct panel	*p = arg;
	struct form	*f;
	char		*title;

	if (*file == '\0')
		return;
	if (access(file, R_OK) != 0) {
		tui_message(t, TUI_MSG_ERROR, "%s: %s", file, strerror(errno));
		return;
	}
	free(p->upload_file);
	p->upload_file = xstrdup(file);
	f = form_new(p->kind, NULL);
	title = xprintf("new %s from %s", p->kind->name, file);
	formview_open(t, p, f, title, panel_multipart_submit, NULL);
	free(title);
}

void
panel_create(struct panel *p)
{
	const struct kind_field	*f;
	char			*q;

	switch (p->kind->create_body) {
	case KIND_BODY_NONE:
		q = xprintf("Create a new %s? (y/n)", p->kind->name);
		dialog_confirm(p->tui, "new", q, panel_create_plain, p, NULL);
		free(q);
		return;
	case KIND_BODY_MULTIPART:
		for (f = p->kind->fields; f->path != NULL; f++)
			if (f->type == KIND_TYPE_FILE)
				break;
		dialog_prompt(p->tui, f->help != NULL ? f->help : "file", "",
		    1, panel_multipart_file, p, NULL);
		return;
	default:
		panel_form_new(p, NULL, NULL);
		return;
	}
}

/* ---- the filter line ------------------------------------------------------ */

struct panel_filter {
	struct modal	 m;
	struct panel	*p;
	struct line	 line;
	char		*orig;
};

static void
panel_filter_apply(struct panel *p, const char *text)
{
	free(p->filter);
	p->filter = text != NULL && *text != '\0' ? xstrdup(text) : NULL;
	rows_filter(p->rows, p->filter);
	panel_restore(p);
	if (p->cursor_id == NULL || rows_find(p->rows, p->cursor_id) < 0) {
		p->cursor = 0;
		panel_remember(p);
	}
}

void
panel_filter_flush(struct panel *p)
{
	char	*text;

	if ((text = p->filter_pending) == NULL)
		return;
	p->filter_pending = NULL;
	panel_filter_apply(p, text);
	free(text);
}

static int
panel_filter_key(struct tui *t, struct modal *m, int key)
{
	struct panel_filter	*f = (struct panel_filter *)m;
	struct panel		*p = f->p;
	int			 server;

	if (key == 033) {
		free(p->filter_pending);
		p->filter_pending = NULL;
		panel_filter_apply(p, f->orig);
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (key == '\r') {
		panel_filter_flush(p);
		server = kind_filter_text(p->kind) != NULL &&
		    (f->orig == NULL ? f->line.len > 0 :
		    strcmp(f->orig, f->line.buf) != 0) &&
		    !(p->pager != NULL && pager_done(p->pager) &&
		    p->kind->paging == PAGER_SINGLE);
		tui_pop(t);
		if (server)
			panel_load(p);
		return (TUI_HANDLED);
	}
	/* Applied once before the next draw, however many keys came. */
	if (line_key(&f->line, key) == LINE_CHANGED) {
		free(p->filter_pending);
		p->filter_pending = xstrdup(f->line.buf);
	}
	return (TUI_HANDLED);
}

static void
panel_filter_draw(struct tui *t, struct modal *m)
{
	struct panel_filter	*f = (struct panel_filter *)m;

	(void)t;
	screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_INPUT));
	screen_put(LINES - 1, 0, 1, "/", screen_role(THEME_ROLE_INPUT));
	line_draw(&f->line, LINES - 1, 1, COLS - 1,
	    screen_role(THEME_ROLE_INPUT), 1);
}

static void
panel_filter_free(struct modal *m)
{
	struct panel_filter	*f = (struct panel_filter *)m;

	free(f->orig);
	free(f);
}

static void
panel_filter_open(struct panel *p)
{
	struct panel_filter	*f;

	f = xcalloc(1, sizeof *f);
	f->m.key = panel_filter_key;
	f->m.draw = panel_filter_draw;
	f->m.free = panel_filter_free;
	f->p = p;
	f->orig = p->filter != NULL ? xstrdup(p->filter) : NULL;
	line_set(&f->line, p->filter);
	/* Typing starts a new filter; an arrow or Backspace edits this one. */
	line_select(&f->line);
	tui_push(p->tui, &f->m);
}

/* ---- server filters (F) -------------------------------------------------- */

/* The prompt's question: the form of the answer and the filters' names. */
static char *
panel_query_title(struct panel *p)
{
	const struct kind_filter	*f;
	struct buf			 b;

	buf_init(&b);
	buf_adds(&b, "server filters, NAME=VALUE ... (");
	for (f = p->kind->filters; f->name != NULL; f++)
		buf_addf(&b, "%s%s", f == p->kind->filters ? "" : " ",
		    f->name);
	buf_adds(&b, ")");
	return (buf_detach(&b, NULL));
}

/* NAME=VALUE words into an encoded query; -1 and *why on the first bad. */
static int
panel_query_parse(struct panel *p, const char *text, struct buf *q,
    char **why)
{
	char	*copy, *word, *save = NULL, *eq;
	int	 rc = -1;

	copy = xstrdup(text);
	for (word = strtok_r(copy, " ", &save); word != NULL;
	    word = strtok_r(NULL, " ", &save)) {
		if ((eq = strchr(word, '=')) == NULL) {
			*why = xprintf("'%s': write NAME=VALUE", word);
			goto out;
		}
		*eq++ = '\0';
		if (kind_filter_find(p->kind, word) == NULL) {
			*why = xprintf("%s has no filter '%s'", p->kind->name,
			    word);
			goto out;
		}
		if (kind_filter_add(p->kind, word, eq, q, why) != 0)
			goto out;
	}
	rc = 0;
out:
	free(copy);
	return (rc);
}

static void
panel_query_set(struct tui *t, void *arg, const char *text)
{
	struct panel	*p = arg;
	struct buf	 q;
	char		*why = NULL, *title;

	buf_init(&q);
	if (panel_query_parse(p, text, &q, &why) != 0) {
		/* Asked again with what was typed, and why it was refused. */
		title = panel_query_title(p);
		dialog_prompt_again(t, title, text, why, 0, panel_query_set,
		    p, NULL);
		tui_message(t, TUI_MSG_ERROR, "%s", why);
		free(title);
		free(why);
		buf_free(&q);
		return;
	}
	free(p->query);
	p->query = q.len > 0 ? xstrdup(buf_str(&q)) : NULL;
	panel_load(p);
	buf_free(&q);
}

/* The query as it is typed: "a=1&b=x%20y" is "a=1 b=x y". */
static char *
panel_query_typed(const char *query)
{
	struct buf	 b;
	const char	*s;
	char		 hex[3];

	buf_init(&b);
	for (s = query; s != NULL && *s != '\0'; s++) {
		if (*s == '&')
			buf_addc(&b, ' ');
		else if (*s == '%' && isxdigit((unsigned char)s[1]) &&
		    isxdigit((unsigned char)s[2])) {
			memcpy(hex, s + 1, 2);
			hex[2] = '\0';
			buf_addc(&b, (char)strtol(hex, NULL, 16));
			s += 2;
		} else
			buf_addc(&b, *s);
	}
	return (buf_detach(&b, NULL));
}

static void
panel_query(struct panel *p)
{
	char	*title, *typed;

	if (p->kind->filters == NULL || p->kind->filters[0].name == NULL) {
		tui_message(p->tui, TUI_MSG_WARN, "%s has no server filters",
		    p->kind->name);
		return;
	}
	title = panel_query_title(p);
	typed = panel_query_typed(p->query);
	dialog_prompt(p->tui, title, typed, 0, panel_query_set, p, NULL);
	free(typed);
	free(title);
}

/* ---- actions ------------------------------------------------------------------ */

/* ---- sorting ------------------------------------------------------------------ */

/* Picker item i: 0 the server's order, then the columns on screen. */
static int
panel_sort_column(struct panel *p, size_t item)
{
	size_t	c, k = 0;

	for (c = 0; c < p->ncols; c++)
		if (p->widths[c] != 0 && ++k == item)
			return ((int)c);
	return (-1);
}

static void
panel_sort_chosen(struct tui *t, void *arg, size_t item, int reverse)
{
	struct panel	*p = arg;

	(void)t;
	p->sort_col = panel_sort_column(p, item);
	p->sort_desc = reverse;
	rows_sort(p->rows, p->sort_col, p->sort_desc);
	panel_restore(p);
}

/* o: the columns on screen to choose from (Enter ascending, O not). */
static void
panel_sort_pick(struct panel *p)
{
	const char	**items;
	char		**texts;
	size_t		  c, n = 1, cur = 0;

	texts = xcalloc(p->ncols + 1, sizeof *texts);
	texts[0] = xstrdup("the server's order");
	for (c = 0; c < p->ncols; c++) {
		if (p->widths[c] == 0)
			continue;
		if ((int)c == p->sort_col) {
			cur = n;
			texts[n++] = xprintf("%s %s", p->cols[c]->header,
			    screen_arrow(p->sort_desc));
		} else
			texts[n++] = xstrdup(p->cols[c]->header);
	}
	items = xcalloc(n, sizeof *items);
	for (c = 0; c < n; c++)
		items[c] = texts[c];
	picker_open(p->tui, "sort by (Enter; O reversed)", items, n, cur,
	    panel_sort_chosen, p);
	for (c = 0; c < n; c++)
		free(texts[c]);
	free(texts);
	free(items);
}

static int
panel_list_action(struct panel *p, enum action a)
{
	int	page = MAXIMUM(1, LINES - 6);

	switch (a) {
	case ACTION_UP:		panel_move(p, -1); break;
	case ACTION_DOWN:	panel_move(p, 1); break;
	case ACTION_PAGE_UP:	panel_move(p, -page); break;
	case ACTION_PAGE_DOWN:	panel_move(p, page); break;
	case ACTION_TOP:	panel_move(p, -(long)rows_count(p->rows)); break;
	case ACTION_BOTTOM:	panel_move(p, (long)rows_count(p->rows)); break;
	case ACTION_FILTER:	panel_filter_open(p); break;
	case ACTION_SORT:	panel_sort_pick(p); break;
	case ACTION_SORT_REVERSE:
		p->sort_desc = !p->sort_desc;
		rows_sort(p->rows, p->sort_col, p->sort_desc);
		panel_restore(p);
		break;
	case ACTION_DETAILS:	panel_details(p); break;
	case ACTION_MARK:
		if (rows_count(p->rows) == 0 || panel_current_id(p) == NULL)
			break;
		rows_mark_toggle(p->rows, p->cursor);
		panel_move(p, 1);
		break;
	case ACTION_MARK_ALL:	rows_mark_all(p->rows, 1); break;
	case ACTION_UNMARK_ALL:	rows_mark_all(p->rows, 0); break;
	default:
		return (0);
	}
	return (TUI_HANDLED);
}

int
panel_action(struct panel *p, enum action a)
{
	int	rv;

	if (p->banner != NULL && (a == ACTION_NEW || a == ACTION_EDIT ||
	    a == ACTION_EDIT_YAML || a == ACTION_DELETE ||
	    a == ACTION_TOGGLE)) {
		tui_message(p->tui, TUI_MSG_WARN, "this server retired the "
		    "API (see the notice above): nothing was sent");
		return (TUI_HANDLED);
	}
	if (p->ops != NULL && p->ops->action != NULL &&
	    (rv = p->ops->action(p, a)) != 0)
		return (rv);
	if (p->view == PANEL_DETAIL) {
		if (a == ACTION_QUIT && p->kind->shape != KIND_SHAPE_OBJECT) {
			p->view = PANEL_LIST;
			p->reveal = 0;
			return (TUI_HANDLED);
		}
		if (a == ACTION_JSON) {
			p->detail_json = !p->detail_json;
			panel_detail_text(p);
			return (TUI_HANDLED);
		}
		if (a == ACTION_REVEAL) {
			p->reveal = !p->reveal;
			panel_detail_text(p);
			tui_message(p->tui, TUI_MSG_INFO, p->reveal ?
			    "secrets shown: x hides them" :
			    "secrets hidden");
			return (TUI_HANDLED);
		}
		if (a == ACTION_COPY) {
			panel_detail_copy(p);
			return (TUI_HANDLED);
		}
		if (a == ACTION_SAVE_FILE) {
			dialog_prompt(p->tui, "save the details to the file "
			    "(created 0600; never overwritten)", "", 1,
			    panel_detail_saved, p, NULL);
			return (TUI_HANDLED);
		}
		if (textview_common(p->tui, &p->detail, a) ||
		    textview_action(&p->detail, a, LINES - 4))
			return (TUI_HANDLED);
	} else if (panel_list_action(p, a))
		return (TUI_HANDLED);

	switch (a) {
	case ACTION_REFRESH:
		panel_load(p);
		tui_message(p->tui, TUI_MSG_INFO, "refreshing %s",
		    p->kind->name);
		return (TUI_HANDLED);
	case ACTION_QUERY:
		panel_query(p);
		return (TUI_HANDLED);
	case ACTION_NEW:
		if (tui_refuse_readonly(p->tui, "new"))
			return (TUI_HANDLED);
		if (panel_can(p, KIND_VERB_CREATE, "created here"))
			panel_create(p);
		return (TUI_HANDLED);
	case ACTION_EDIT:
		if (tui_refuse_readonly(p->tui, "edit"))
			return (TUI_HANDLED);
		if (panel_can(p, KIND_VERB_UPDATE, "edited"))
			panel_fetch(p, TUI_REQ_FETCH_FORM);
		return (TUI_HANDLED);
	case ACTION_EDIT_YAML:
		if (tui_refuse_readonly(p->tui, "edit"))
			return (TUI_HANDLED);
		if (panel_can(p, KIND_VERB_UPDATE, "edited"))
			panel_fetch(p, TUI_REQ_FETCH_EDIT);
		return (TUI_HANDLED);
	case ACTION_DELETE:
		panel_delete(p);
		return (TUI_HANDLED);
	case ACTION_COPY:
		if (panel_current_id(p) != NULL)
			tui_copy(p->tui, "the id", panel_current_id(p));
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

/* ---- drawing ------------------------------------------------------------------ */

void
panel_layout(struct panel *p, int w)
{
	int	used = 2, flex = 0, i, n = (int)p->ncols, width;

	for (i = 0; i < n; i++) {
		width = p->cols[i]->width;
		if (width == 0)
			flex++;
		else
			used += width + 1;
	}
	/* Drop columns from the right until the flexible ones fit. */
	while (n > 1 && used + flex * (PANEL_FLEX_MIN + 1) > w) {
		n--;
		if (p->cols[n]->width == 0)
			flex--;
		else
			used -= p->cols[n]->width + 1;
	}
	for (i = 0; i < (int)p->ncols; i++) {
		if (i >= n)
			p->widths[i] = 0;
		else if (p->cols[i]->width > 0)
			p->widths[i] = p->cols[i]->width;
		else
			p->widths[i] = MAXIMUM(PANEL_FLEX_MIN,
			    (w - used) / MAXIMUM(flex, 1) - 1);
	}
}

/* " of 'Launch teaser.mp4'" (a video's captions), from a videos list. */
static void
panel_video_name(struct panel *p, struct buf *b)
{
	struct tui	*t = p->tui;
	char		*name = NULL;
	size_t		 i;

	for (i = 0; i < t->npanels && name == NULL; i++)
		if (t->panels[i]->kind == &kind_videos)
			name = panel_record_label(t->panels[i], p->video);
	if (name != NULL)
		buf_addf(b, " of '%s'", name);
	else
		buf_addf(b, " of video %s", p->video);
	free(name);
}

static void
panel_draw_title(struct panel *p, int y, int w)
{
	struct buf	b;
	long		got, total;

	buf_init(&b);
	buf_addf(&b, " %s", p->kind->name);
	if (p->video != NULL)
		panel_video_name(p, &b);
	if (p->kind->shape != KIND_SHAPE_OBJECT) {
		if (p->filter != NULL)
			buf_addf(&b, "  %zu of %zu", rows_count(p->rows),
			    rows_total(p->rows));
		else
			buf_addf(&b, "  %zu", rows_total(p->rows));
		if (p->loading && p->pager != NULL) {
			pager_progress(p->pager, &got, &total);
			if (total >= 0)
				buf_addf(&b, " of ~%ld", total);
			buf_adds(&b, "  loading...");
		}
		if (rows_mark_count(p->rows) > 0)
			buf_addf(&b, "  %zu marked", rows_mark_count(p->rows));
		if (p->filter != NULL)
			buf_addf(&b, "  /%s", p->filter);
		if (p->query != NULL)
			buf_addf(&b, "  [%s]", p->query);
		if (p->sort_col >= 0)
			buf_addf(&b, "  sort %s %s",
			    p->cols[p->sort_col]->header,
			    p->sort_desc ? "desc" : "asc");
	} else if (p->loading)
		buf_adds(&b, "  loading...");
	if (p->view == PANEL_DETAIL && p->detail.title != NULL)
		buf_addf(&b, "  >  %s", p->detail.title);
	screen_fill(y, 0, w, screen_role(THEME_ROLE_TITLE));
	screen_put(y, 0, w, buf_str(&b), screen_role(THEME_ROLE_TITLE));
	buf_free(&b);
}

static int
panel_draw_banner(struct panel *p, int y, int w, int maxh)
{
	const char	*s = p->banner;
	char		 line[512];
	int		 n = 0;
	size_t		 len;

	while (s != NULL && *s != '\0' && n < maxh) {
		len = strlen(s);
		if (len > (size_t)w - 2)
			len = (size_t)w - 2;
		if (len > sizeof line - 1)
			len = sizeof line - 1;
		/* Break at a space when the line is cut. */
		if (len < strlen(s)) {
			size_t k = len;
			while (k > 0 && s[k] != ' ')
				k--;
			if (k > 0)
				len = k;
		}
		memcpy(line, s, len);
		line[len] = '\0';
		screen_fill(y + n, 0, w, screen_role(THEME_ROLE_BANNER));
		screen_put(y + n, 1, w - 1, line,
		    screen_role(THEME_ROLE_BANNER));
		s += len;
		while (*s == ' ')
			s++;
		n++;
	}
	return (n);
}

/* The column after the last cell on screen. */
static int
panel_row_end(const struct panel *p)
{
	int	x = 2, c, end = 2;

	for (c = 0; c < (int)p->ncols; c++) {
		if (p->widths[c] == 0)
			continue;
		end = x + p->widths[c];
		x = end + 1;
	}
	return (end);
}

static void
panel_draw_row(struct panel *p, size_t i, int y, int w)
{
	int	x = 2, c;
	attr_t	a = A_NORMAL;
	int	selected = i == p->cursor, marked = rows_marked(p->rows, i);

	/*
	 * The cursor row is a bar over cells and gaps, to the last cell's
	 * end. Its role is best a background colour: a terminal with bce
	 * erases in it, so a one-row move stays cheap (reverse video cannot
	 * be erased with).
	 */
	if (marked)
		a = screen_role(THEME_ROLE_ROW_MARKED);
	if (selected)
		a = screen_role(THEME_ROLE_ROW_SELECTED);
	if (marked || selected)
		screen_fill(y, 0, MINIMUM(panel_row_end(p), w), a);
	screen_put(y, 0, 2, selected ? (marked ? ">*" : "> ") :
	    marked ? "* " : "  ", a);
	for (c = 0; c < (int)p->ncols && x < w; c++) {
		if (p->widths[c] == 0)
			continue;
		screen_cell(y, x, MINIMUM(p->widths[c], w - x),
		    rows_cell(p->rows, i, (size_t)c), a);
		x += p->widths[c] + 1;
	}
}

/* "METHOD ▲", or "METHOD▲" or "METH▲" where the column is narrow. */
static char *
panel_sort_header(const char *header, int width, int desc)
{
	char	*h = xstrdup(header), *out;
	size_t	 hw = text_width(h);

	if ((int)hw + 2 <= width)
		out = xprintf("%s %s", h, screen_arrow(desc));
	else {
		text_cut(h, (size_t)MAXIMUM(width - 1, 0));
		out = xprintf("%s%s", h, screen_arrow(desc));
	}
	free(h);
	return (out);
}

static void
panel_draw_header(struct panel *p, int y, int w)
{
	char	*h;
	int	 x = 2, c;

	for (c = 0; c < (int)p->ncols && x < w; c++) {
		if (p->widths[c] == 0)
			continue;
		/* The sorted column says so, and which way: the arrow shows. */
		h = c == p->sort_col ? panel_sort_header(p->cols[c]->header,
		    p->widths[c], p->sort_desc) : xstrdup(p->cols[c]->header);
		screen_cell(y, x, MINIMUM(p->widths[c], w - x), h,
		    screen_role(THEME_ROLE_COLUMN));
		free(h);
		x += p->widths[c] + 1;
	}
}

static void
panel_draw_list(struct panel *p, int y, int h, int w)
{
	size_t	n = rows_count(p->rows), i;
	int	rows = h - 1;
	const char *empty;

	panel_layout(p, w);
	panel_draw_header(p, y, w);
	y++;
	if (n == 0) {
		empty = p->error != NULL ? p->error : p->loading ?
		    "loading..." : p->filter != NULL ? "no record matches "
		    "the filter" : "no records";
		screen_put(y + 1, 2, w - 2, empty, screen_role(p->error !=
		    NULL ? THEME_ROLE_ERROR : THEME_ROLE_DIM));
		return;
	}
	if (rows <= 0)
		return;
	/* Keep the cursor on screen; draw only the rows that show. */
	if (p->cursor < p->top)
		p->top = p->cursor;
	if (p->cursor >= p->top + (size_t)rows)
		p->top = p->cursor - (size_t)rows + 1;
	if (p->top + (size_t)rows > n)
		p->top = n > (size_t)rows ? n - (size_t)rows : 0;
	for (i = p->top; i < n && i < p->top + (size_t)rows; i++)
		panel_draw_row(p, i, y + (int)(i - p->top), w);
}

void
panel_draw(struct panel *p, int y, int x, int h, int w)
{
	int	b;

	(void)x;
	panel_filter_flush(p);
	panel_draw_title(p, y, w);
	y++;
	h--;
	b = panel_draw_banner(p, y, w, MAXIMUM(0, h / 3));
	y += b;
	h -= b;
	if (p->view == PANEL_DETAIL) {
		if (p->record == NULL) {
			screen_put(y + 1, 2, w - 2, p->error != NULL ?
			    p->error : p->loading ? "loading..." :
			    "nothing to show", screen_role(p->error != NULL ?
			    THEME_ROLE_ERROR : THEME_ROLE_DIM));
			return;
		}
		if (p->ops != NULL && p->ops->draw != NULL) {
			b = p->ops->draw(p, y, h, w);
			y += b;
			h -= b;
		}
		textview_draw(p->tui, &p->detail, y, 0, h, w);
		return;
	}
	panel_draw_list(p, y, h, w);
}
