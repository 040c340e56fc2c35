/*
 * Operations (API Shield endpoint management): details with every
 * feature, and bulk create from a file: a YAML or JSON array of
 * {method, host, endpoint}, or lines "METHOD host endpoint". A column
 * shows each operation's schema validation action (its own, or
 * "default"), read from /schema_validation after each load; V sets or
 * clears it on one or the marked operations in one bulk PATCH (the
 * classic API's, on a server without the current one).
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "edit.h"
#include "resource.h"
#include "tui.h"
#include "validate.h"
#include "xmalloc.h"
#include "yamljson.h"

#define OPERATIONS_FEATURES \
	"?feature=thresholds&feature=parameter_schemas&feature=schema_info"

/* The settings list is read this many pages at most. */
#define OPERATIONS_SV_PAGES	200
#define OPERATIONS_SV_PER_PAGE	50
#define OPERATIONS_NO_ROUTE	7003	/* the API's "No route for the URI" */

enum {
	OPERATIONS_BULK = 1,
	OPERATIONS_SV_LIST,
	OPERATIONS_SV_SET,
	OPERATIONS_SV_SET_CLASSIC
};

/* V's choices: the action sent (NULL clears) and what it does. */
static const struct {
	const char	*action;
	const char	*text;
} operations_sv_choices[] = {
	{ "block", "block    deny a request that breaks the schema" },
	{ "log", "log      log it, and let it pass" },
	{ "none", "none     no validation for the operation" },
	{ NULL, "default  clear: the zone's default action applies" },
};

/* The set in progress: the operations and the choice. */
struct operations_sv {
	char	**ids;
	size_t	  n;
	size_t	  choice;
};

static void
operations_sv_clear(struct operations_sv *sv)
{
	size_t	i;

	for (i = 0; i < sv->n; i++)
		free(sv->ids[i]);
	free(sv->ids);
	sv->ids = NULL;
	sv->n = 0;
}

/*
 * Lines "METHOD host endpoint" (blank lines and # comments skipped); the
 * line of each operation into *lines, for the messages.
 */
static cJSON *
operations_parse_lines(const char *text, int **lines, char **cause)
{
	cJSON		*arr, *op;
	char		*copy, *line, *save = NULL, *w[4], *s2;
	int		 n, lineno = 0;

	arr = cJSON_CreateArray();
	copy = xstrdup(text);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		while (isspace((unsigned char)*line))
			line++;
		if (*line == '\0' || *line == '#')
			continue;
		n = 0;
		s2 = NULL;
		for (w[n] = strtok_r(line, " \t\r", &s2); w[n] != NULL && n < 3;
		    w[n] = strtok_r(NULL, " \t\r", &s2))
			n++;
		if (n != 3 || w[3] != NULL) {
			*cause = xprintf("line %d: write METHOD HOST ENDPOINT",
			    lineno);
			cJSON_Delete(arr);
			free(copy);
			free(*lines);
			*lines = NULL;
			return (NULL);
		}
		*lines = xreallocarray(*lines, (size_t)cJSON_GetArraySize(arr) +
		    1, sizeof **lines);
		(*lines)[cJSON_GetArraySize(arr)] = lineno;
		op = cJSON_CreateObject();
		cJSON_AddStringToObject(op, "method", w[0]);
		cJSON_AddStringToObject(op, "host", w[1]);
		cJSON_AddStringToObject(op, "endpoint", w[2]);
		cJSON_AddItemToArray(arr, op);
	}
	free(copy);
	return (arr);
}

/*
 * "[3].endpoint" of the fourth operation as "line 7: endpoint" when the
 * file was lines: the user counts lines, not list items.
 */
static void
operations_error_lines(struct validate_error *errs, size_t n,
    const int *lines, int count)
{
	char	*end, *field;
	long	 i;
	size_t	 k;

	for (k = 0; k < n; k++) {
		if (errs[k].field[0] != '[')
			continue;
		i = strtol(errs[k].field + 1, &end, 10);
		if (end[0] != ']' || i < 0 || i >= count)
			continue;
		if (end[1] == '.')
			field = xprintf("line %d: %s", lines[i], end + 2);
		else
			field = xprintf("line %d", lines[i]);
		free(errs[k].field);
		errs[k].field = field;
	}
}

static cJSON *
operations_read(const char *file, char **cause)
{
	struct validate_error	*errs;
	cJSON			*arr;
	char			*text, *c2;
	const char		*s;
	size_t			 len, n;
	int			*lines = NULL;

	if ((text = edit_read_file(file, &len, cause)) == NULL)
		return (NULL);
	for (s = text; isspace((unsigned char)*s); s++)
		;
	if (*s == '[' || *s == '-' || *s == '{')
		arr = yamljson_parse(text, len, cause);
	else
		arr = operations_parse_lines(text, &lines, cause);
	free(text);
	if (arr == NULL)
		return (NULL);
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0) {
		*cause = xstrdup("the file holds no list of operations");
		cJSON_Delete(arr);
		free(lines);
		return (NULL);
	}
	if (validate_record(&kind_operations, arr, VALIDATE_CREATE, &errs,
	    &n) != 0) {
		if (lines != NULL)
			operations_error_lines(errs, n, lines,
			    cJSON_GetArraySize(arr));
		free(lines);
		c2 = validate_errors_text(errs, n, "; ");
		*cause = xprintf("nothing sent: %s", c2);
		free(c2);
		validate_errors_free(errs, n);
		cJSON_Delete(arr);
		return (NULL);
	}
	free(lines);
	return (arr);
}

static void
operations_bulk_file(struct tui *t, void *arg, const char *file)
{
	struct panel	*p = arg;
	struct tui_req	*r;
	cJSON		*arr;
	char		*path, *cause = NULL;

	if ((arr = operations_read(file, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s: %s", file, cause);
		free(cause);
		return;
	}
	if ((path = kind_list_path(p->kind, p->vars, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		cJSON_Delete(arr);
		return;
	}
	r = tui_submit(t, p, TUI_REQ_OTHER, "POST", path, arr);
	if (r != NULL) {
		r->sub = OPERATIONS_BULK;
		r->count = (size_t)cJSON_GetArraySize(arr);
		tui_message(t, TUI_MSG_INFO, "creating %zu operations...",
		    r->count);
	}
	free(path);
	cJSON_Delete(arr);
}

static void
operations_details(struct panel *p)
{
	struct tui_req	*r;
	cJSON		*rec;
	char		*path, *full;
	const char	*id = panel_current_id(p);

	if (id == NULL || (rec = panel_current_record(p)) == NULL)
		return;
	panel_show_record(p, rec);
	p->detail.top = 0;
	cJSON_Delete(rec);
	if ((path = panel_item_path(p, id)) == NULL)
		return;
	full = xprintf("%s%s", path, OPERATIONS_FEATURES);
	r = tui_submit(p->tui, p, TUI_REQ_GET, "GET", full, NULL);
	if (r != NULL)
		r->id = xstrdup(id);
	free(full);
	free(path);
}

/* One page of the operations that have their own action. */
static void
operations_sv_fetch(struct panel *p, size_t page)
{
	struct tui_req	*r;
	char		*path, *full, *cause = NULL;

	if ((path = kind_list_path(&kind_operation_validation, p->vars,
	    &cause)) == NULL) {
		free(cause);
		return;
	}
	full = xprintf("%s?per_page=%d&page=%zu", path,
	    OPERATIONS_SV_PER_PAGE, page);
	r = tui_submit(p->tui, p, TUI_REQ_OTHER, "GET", full, NULL);
	if (r != NULL) {
		r->sub = OPERATIONS_SV_LIST;
		r->count = page;
	}
	free(full);
	free(path);
}

/* {"<id>": {mitigation_action}} or [{operation_id, ...}] into the rows. */
static void
operations_sv_merge(struct panel *p, const cJSON *result)
{
	const cJSON	*e, *id, *v;
	cJSON		*fields;

	cJSON_ArrayForEach(e, result) {
		id = cJSON_GetObjectItemCaseSensitive(e, "operation_id");
		v = cJSON_GetObjectItemCaseSensitive(e, "mitigation_action");
		fields = cJSON_CreateObject();
		cJSON_AddItemToObject(fields, "mitigation_action", v != NULL ?
		    cJSON_Duplicate(v, 1) : cJSON_CreateNull());
		panel_merge(p, cJSON_IsString(id) ? id->valuestring :
		    e->string, fields);
		cJSON_Delete(fields);
	}
	panel_after_change(p);
}

/*
 * The bulk PATCH of the chosen action; classic: to the classic API's
 * bulk call, which takes the same map, for a server without the current.
 */
static void
operations_sv_patch(struct panel *p, int classic)
{
	struct operations_sv	*sv = p->priv;
	struct tui_req		*r;
	cJSON			*body, *e;
	char			*path, *cause = NULL;
	const char		*action;
	size_t			 i;

	if (sv == NULL || sv->n == 0)
		return;
	if ((path = kind_list_path(classic ? &kind_operations :
	    &kind_operation_validation, p->vars, &cause)) == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
		return;
	}
	if (classic) {
		cause = xprintf("%s/schema_validation", path);
		free(path);
		path = cause;
	}
	action = operations_sv_choices[sv->choice].action;
	body = cJSON_CreateObject();
	for (i = 0; i < sv->n; i++) {
		e = cJSON_AddObjectToObject(body, sv->ids[i]);
		if (action != NULL)
			cJSON_AddStringToObject(e, "mitigation_action", action);
		else
			cJSON_AddNullToObject(e, "mitigation_action");
	}
	r = tui_submit(p->tui, p, TUI_REQ_OTHER, "PATCH", path, body);
	if (r != NULL) {
		r->sub = classic ? OPERATIONS_SV_SET_CLASSIC :
		    OPERATIONS_SV_SET;
		r->count = sv->n;
		tui_message(p->tui, TUI_MSG_INFO, "setting validation of %zu "
		    "operation%s%s...", sv->n, sv->n == 1 ? "" : "s", classic ?
		    " (classic API)" : "");
	}
	cJSON_Delete(body);
	free(path);
}

static void
operations_sv_send(struct tui *t, void *arg, const char *answer)
{
	(void)t;
	(void)answer;
	operations_sv_patch(arg, 0);
}

static void
operations_sv_chosen(struct tui *t, void *arg, size_t choice, int other)
{
	struct panel		*p = arg;
	struct operations_sv	*sv = p->priv;
	const char		*action;
	char			 count[32];
	struct buf		 q;

	(void)other;
	if (sv == NULL || sv->n == 0 || choice >= nitems(operations_sv_choices))
		return;
	sv->choice = choice;
	action = operations_sv_choices[choice].action;
	buf_init(&q);
	if (sv->n == 1) {
		buf_addf(&q, "%s schema validation of operation ", action !=
		    NULL ? "Set" : "Clear");
		panel_name_record(p, sv->ids[0], &q);
		if (action != NULL)
			buf_addf(&q, " to %s", action);
		buf_adds(&q, "? (y/n)");
		dialog_confirm(t, "validation", buf_str(&q), operations_sv_send,
		    p, NULL);
	} else {
		snprintf(count, sizeof count, "%zu", sv->n);
		if (action != NULL)
			buf_addf(&q, "Set schema validation to %s on %zu "
			    "operations (%s)?", action, sv->n,
			    panel_marks_note(p));
		else
			buf_addf(&q, "Clear schema validation of %zu "
			    "operations (%s): the zone's default applies?",
			    sv->n, panel_marks_note(p));
		panel_name_targets(p, (const char *const *)sv->ids, sv->n, &q);
		buf_addf(&q, "\nOne bulk request. Type %zu and Enter to "
		    "confirm, Esc to cancel.", sv->n);
		dialog_confirm_typed(t, "validation", buf_str(&q), count,
		    operations_sv_send, p, NULL);
	}
	buf_free(&q);
}

/* V: the action for the operation under the cursor or the marked ones. */
static void
operations_sv_set(struct panel *p)
{
	struct operations_sv	*sv;
	const char		**ids, *items[nitems(operations_sv_choices)];
	size_t			 n, i;

	if (tui_refuse_readonly(p->tui, "set validation"))
		return;
	if ((ids = panel_targets(p, &n)) == NULL || n == 0) {
		free(ids);
		tui_message(p->tui, TUI_MSG_WARN, "no operation to set");
		return;
	}
	if (p->priv == NULL)
		p->priv = xcalloc(1, sizeof *sv);
	sv = p->priv;
	operations_sv_clear(sv);
	sv->ids = xcalloc(n, sizeof *sv->ids);
	for (i = 0; i < n; i++)
		sv->ids[i] = xstrdup(ids[i]);
	sv->n = n;
	free(ids);
	for (i = 0; i < nitems(operations_sv_choices); i++)
		items[i] = operations_sv_choices[i].text;
	picker_open(p->tui, n == 1 ? "schema validation of the operation "
	    "(Enter)" : "schema validation of the marked operations (Enter)",
	    items, nitems(operations_sv_choices), 0, operations_sv_chosen, p);
}

/*
 * A 404 for a path the server has no route for (code 7003, as the cloud
 * answers), not for an operation it does not know.
 */
static int
operations_no_route(const struct jobs_event *ev)
{
	return (ev->http_status == 404 && ev->resp.api.nerrors > 0 &&
	    ev->resp.api.errors[0].code == OPERATIONS_NO_ROUTE);
}

static int
operations_sv_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const struct api_response	*a = &ev->resp.api;

	if (ev->kind == JOBS_EVENT_FAILED) {
		if (r->sub == OPERATIONS_SV_SET && operations_no_route(ev))
			operations_sv_patch(p, 1);
		else if (r->sub != OPERATIONS_SV_LIST)
			tui_message(p->tui, TUI_MSG_ERROR, "validation: %s "
			    "(none was changed)", tui_cause(r, ev));
		else
			tui_message(p->tui, TUI_MSG_WARN, "the VALIDATION "
			    "column is unknown: %s", tui_cause(r, ev));
		return (1);
	}
	if (ev->kind != JOBS_EVENT_DONE)
		return (1);
	if (r->sub != OPERATIONS_SV_LIST) {
		tui_journal(p->tui, r, ev->http_status, ev->result);
		operations_sv_merge(p, ev->result);
		rows_mark_all(p->rows, 0);
		tui_message(p->tui, TUI_MSG_OK, "schema validation of %zu "
		    "operation%s set", r->count, r->count == 1 ? "" : "s");
		return (1);
	}
	if (r->gen != p->gen)
		return (1);
	operations_sv_merge(p, ev->result);
	if (cJSON_GetArraySize(ev->result) > 0 && a->total_pages >
	    (long)r->count && r->count < OPERATIONS_SV_PAGES)
		operations_sv_fetch(p, r->count + 1);
	return (1);
}

/*
 * The VALIDATION column, which the kind does not show: before LAST
 * UPDATED (else before the id), so that a narrow terminal, which drops
 * columns from the right, keeps it longest after the endpoint.
 */
static void
operations_opened(struct panel *p)
{
	const struct kind_column	*c;
	size_t				 at, i;

	c = kind_column_find(p->kind, "mitigation_action");
	if (c == NULL || p->ncols == 0 || p->ncols >= ROWS_MAX_COLUMNS)
		return;
	for (at = 0; at < p->ncols; at++)
		if (strcmp(p->cols[at]->path, "last_updated") == 0)
			break;
	if (at == p->ncols)
		at = p->ncols - 1;
	for (i = p->ncols; i > at; i--)
		p->cols[i] = p->cols[i - 1];
	p->cols[at] = c;
	p->ncols++;
	rows_free(p->rows);
	p->rows = rows_new(p->kind, p->cols, p->ncols);
}

static void
operations_closed(struct panel *p)
{
	operations_sv_clear(p->priv);
}

static int
operations_action(struct panel *p, enum action a)
{
	if (p->view != PANEL_LIST)
		return (0);
	switch (a) {
	case ACTION_DETAILS:
		operations_details(p);
		return (TUI_HANDLED);
	case ACTION_SET_VALIDATION:
		operations_sv_set(p);
		return (TUI_HANDLED);
	case ACTION_BULK_CREATE:
		if (tui_refuse_readonly(p->tui, "bulk create"))
			return (TUI_HANDLED);
		dialog_prompt(p->tui, "create operations from a file (YAML or "
		    "JSON array, or lines METHOD HOST ENDPOINT)", "", 1,
		    operations_bulk_file, p, NULL);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

static int
operations_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	cJSON		*op;
	const char	*id;
	size_t		 n = 0, old = 0;

	/* A finished load reads the actions for the VALIDATION column. */
	if (r->type == TUI_REQ_LIST) {
		panel_list_done(p, r, ev);
		if (r->gen == p->gen && !p->loading && p->error == NULL &&
		    ev->kind == JOBS_EVENT_DONE)
			operations_sv_fetch(p, 1);
		return (1);
	}
	if (r->type == TUI_REQ_OTHER && (r->sub == OPERATIONS_SV_LIST ||
	    r->sub == OPERATIONS_SV_SET || r->sub == OPERATIONS_SV_SET_CLASSIC))
		return (operations_sv_event(p, r, ev));
	if (r->type != TUI_REQ_OTHER || r->sub != OPERATIONS_BULK)
		return (0);
	if (ev->kind == JOBS_EVENT_FAILED) {
		tui_message(p->tui, TUI_MSG_ERROR, "bulk create: %s (none was "
		    "created)", tui_cause(r, ev));
		return (1);
	}
	if (ev->kind != JOBS_EVENT_DONE)
		return (1);
	tui_journal(p->tui, r, ev->http_status, ev->result);
	/* A duplicate comes back as the operation the list already has. */
	cJSON_ArrayForEach(op, ev->result) {
		id = kind_record_id(p->kind, op);
		if (id != NULL && rows_find(p->rows, id) >= 0)
			old++;
		else
			n++;
		rows_put(p->rows, op);
	}
	panel_after_change(p);
	tui_message(p->tui, TUI_MSG_OK, "%zu operations saved: %zu new, %zu "
	    "existing", n + old, n, old);
	return (1);
}

const struct panel_ops panel_operations_ops = {
	.kind = "operations",
	.action = operations_action,
	.event = operations_event,
	.opened = operations_opened,
	.closed = operations_closed,
	.hints = (const struct panel_hint[]){
		{ ACTION_NEW, "new" },
		{ ACTION_BULK_CREATE, "bulk create" },
		{ ACTION_SET_VALIDATION, "validation" },
		{ ACTION_DELETE, "delete" },
		{ ACTION_MARK, "mark" },
		{ ACTION_QUERY, "server filter" },
		{ ACTION_NONE, NULL }
	},
};
