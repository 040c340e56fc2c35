/*
 * The generic panel's details: one record as YAML or JSON, secrets masked
 * until shown, and the value under the cursor copied or the text saved.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "redact.h"
#include "resource.h"
#include "tui.h"
#include "xmalloc.h"
#include "yamljson.h"

#define PANEL_SECRET_MASK	"********"

/* ---- details -------------------------------------------------------------- */

void
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

void
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

/* ---- what the details offer: y, w ---------------------------------------- */

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
			memmove(line, line + 2, len - 1);	/* its NUL too */
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
void
panel_detail_copy(struct panel *p)
{
	char	*v, *key, *k, *colon;
	char	 reveal[KEYMAP_KEY_NAME_MAX], copy[KEYMAP_KEY_NAME_MAX];

	if ((v = panel_line_value(p, p->detail.cur)) == NULL) {
		tui_message(p->tui, TUI_MSG_WARN, "no value on this line to "
		    "copy");
		return;
	}
	if (!p->reveal && strcmp(v, PANEL_SECRET_MASK) == 0) {
		if (status_key_name(p->tui, KEYMAP_DETAIL, ACTION_REVEAL,
		    reveal) != NULL && status_key_name(p->tui, KEYMAP_DETAIL,
		    ACTION_COPY, copy) != NULL)
			tui_message(p->tui, TUI_MSG_WARN, "a secret: %s shows "
			    "it, then %s copies it", reveal, copy);
		else
			tui_message(p->tui, TUI_MSG_WARN, "a secret: shown "
			    "masked, it is not copied");
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

void
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
