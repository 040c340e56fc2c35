/*
 * Operations (API Shield endpoint management): details with every
 * feature, and bulk create from a file: a YAML or JSON array of
 * {method, host, endpoint}, or lines "METHOD host endpoint".
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "tui.h"
#include "validate.h"
#include "xmalloc.h"
#include "yamljson.h"

#define OPERATIONS_FEATURES \
	"?feature=thresholds&feature=parameter_schemas&feature=schema_info"

enum {
	OPERATIONS_BULK = 1
};

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

static int
operations_action(struct panel *p, enum action a)
{
	if (p->view != PANEL_LIST)
		return (0);
	switch (a) {
	case ACTION_DETAILS:
		operations_details(p);
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
	cJSON	*op;
	size_t	 n = 0;

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
	cJSON_ArrayForEach(op, ev->result) {
		rows_put(p->rows, op);
		n++;
	}
	panel_after_change(p);
	tui_message(p->tui, TUI_MSG_OK, "%zu operations saved (%zu sent; "
	    "duplicates come back as the existing ones)", n, r->count);
	return (1);
}

const struct panel_ops panel_operations_ops = {
	.kind = "operations",
	.action = operations_action,
	.event = operations_event,
	.hints = (const struct panel_hint[]){
		{ ACTION_NEW, "new" },
		{ ACTION_BULK_CREATE, "bulk create" },
		{ ACTION_DELETE, "delete" },
		{ ACTION_MARK, "mark" },
		{ ACTION_QUERY, "server filter" },
		{ ACTION_NONE, NULL }
	},
};
