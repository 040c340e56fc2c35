/*
 * The journal view: the change journal read from its end, this profile's
 * records only. Undo goes through the kind's panel, so the request, its
 * answer, the list and the journal entry of the undo are the ones any
 * change gets; updates reuse the diff and confirmation of E.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "configfile.h"
#include "edit.h"
#include "journal.h"
#include "journalview.h"
#include "kind.h"
#include "log.h"
#include "redact.h"
#include "screen.h"
#include "tui.h"
#include "xmalloc.h"
#include "yamljson.h"

/* Records read from the journal's end; this profile's are among them. */
#define JOURNALVIEW_READ	1000

struct journalview {
	struct modal		 m;
	struct journal_record	*r;		/* newest first */
	size_t			 n;
	size_t			 sel;
	size_t			 top;
	char			*error;
	off_t			 size;		/* the journal's, when read */
	time_t			 mtime;
};

/* ---- reading ------------------------------------------------------------------ */

static int
journalview_mine(struct tui *t, const struct journal_record *r)
{
	if (t->session.profile == NULL || r->profile == NULL)
		return (t->session.profile == r->profile);
	return (strcmp(t->session.profile, r->profile) == 0);
}

static void
journalview_read(struct tui *t, struct journalview *v)
{
	struct journal_record	*all = NULL;
	struct stat		 sb;
	char			*dir, *path, *cause = NULL;
	size_t			 n = 0, i;

	journal_records_free(v->r, v->n);
	v->r = NULL;
	v->n = 0;
	free(v->error);
	v->error = NULL;
	if ((dir = edge_session_state_dir(&t->session, &cause)) == NULL) {
		v->error = cause;
		return;
	}
	path = xprintf("%s/%s", dir, JOURNAL_FILE);
	if (stat(path, &sb) == 0) {
		v->size = sb.st_size;
		v->mtime = sb.st_mtime;
	}
	free(path);
	if (journal_read_last(dir, JOURNALVIEW_READ, &all, &n, &cause) != 0)
		v->error = cause;
	free(dir);
	v->r = xcalloc(n + 1, sizeof *v->r);
	for (i = 0; i < n; i++) {
		if (!journalview_mine(t, &all[i]))
			continue;
		v->r[v->n++] = all[i];
		memset(&all[i], 0, sizeof all[i]);
	}
	journal_records_free(all, n);
	if (v->sel >= v->n)
		v->sel = v->n > 0 ? v->n - 1 : 0;
}

/* Read again when the journal grew (an undo, a change elsewhere). */
static void
journalview_reread(struct tui *t, struct journalview *v)
{
	struct stat	 sb;
	char		*dir, *path, *cause = NULL;

	if ((dir = edge_session_state_dir(&t->session, &cause)) == NULL) {
		free(cause);
		return;
	}
	path = xprintf("%s/%s", dir, JOURNAL_FILE);
	if (stat(path, &sb) == 0 && (sb.st_size != v->size ||
	    sb.st_mtime != v->mtime)) {
		v->sel = 0;
		v->top = 0;
		journalview_read(t, v);
	}
	free(path);
	free(dir);
}

static void
journalview_time(const char *rfc3339, char *out, size_t size)
{
	int64_t		 secs;
	time_t		 when;
	struct tm	 tm;

	if (kind_parse_time(rfc3339, &secs) != 0) {
		snprintf(out, size, "%.19s", rfc3339);
		return;
	}
	when = (time_t)secs;
	localtime_r(&when, &tm);
	strftime(out, size, "%Y-%m-%d %H:%M:%S", &tm);
}

static void
journalview_line(const struct journal_record *r, struct buf *b)
{
	struct journal_target	 tg;
	const char		*id = NULL, *kind = "?";
	char			 when[32], *what;

	journalview_time(r->time, when, sizeof when);
	if (journal_target(r->path, &tg) == 0) {
		kind = tg.kind->name;
		id = tg.id;
		if (id == NULL && r->after != NULL)
			id = kind_record_id(tg.kind, r->after);
		/* A video's one object (its downloads): the video. */
		if (id == NULL && !tg.list)
			id = tg.video;
	}
	what = journal_change_text(r);
	buf_addf(b, "%-19s  %-15.15s %-32.32s  %s", when, kind,
	    id != NULL ? id : "-", what);
	if (r->status < 200 || r->status > 299)
		buf_addf(b, " (failed: HTTP %d)", r->status);
	free(what);
	journal_target_free(&tg);
}

/* ---- one record --------------------------------------------------------------- */

static void
journalview_add_yaml(struct buf *b, const char *title, const cJSON *v)
{
	cJSON	*copy;
	char	*yaml;

	if (v == NULL)
		return;
	/* Journals written before redaction by marks may hold secrets. */
	if ((copy = cJSON_Duplicate(v, 1)) == NULL)
		fatalx("out of memory");
	redact_json(copy, NULL);
	yaml = yamljson_emit(copy);
	buf_addf(b, "\n%s:\n%s", title, yaml);
	free(yaml);
	cJSON_Delete(copy);
}

static void
journalview_show(struct tui *t, const struct journal_record *r)
{
	struct buf	 b = BUF_INITIALIZER;
	cJSON		*before, *after;
	char		*title;

	buf_addf(&b, "%s %s -> HTTP %d\nprofile %s, %s\n", r->method,
	    r->path, r->status, r->profile != NULL ? r->profile : "(none)",
	    r->time);
	/* A create or a delete is its record: the diff would repeat it. */
	if (r->before != NULL && r->after != NULL) {
		buf_adds(&b, "\nChanges:\n");
		before = cJSON_Duplicate(r->before, 1);
		after = cJSON_Duplicate(r->after, 1);
		redact_json(before, NULL);
		redact_json(after, NULL);
		if (edit_diff(&b, before, after) == 0)
			buf_adds(&b, "  (none)\n");
		cJSON_Delete(before);
		cJSON_Delete(after);
	}
	journalview_add_yaml(&b, "Before", r->before);
	journalview_add_yaml(&b, "After", r->after);
	title = xprintf("journal: %s %s", r->method, r->path);
	tui_push(t, textview_modal(title, buf_str(&b)));
	free(title);
	buf_free(&b);
}

/* ---- undo --------------------------------------------------------------------- */

struct journalview_undo {
	const struct kind	*kind;
	char			*video;
	char			*id;
	enum journal_undo_op	 op;
	cJSON			*body;
	cJSON			*after;	/* the record the create made */
	int			 object_delete;
};

static void
journalview_undo_free(void *arg)
{
	struct journalview_undo	*u = arg;

	free(u->video);
	free(u->id);
	cJSON_Delete(u->body);
	cJSON_Delete(u->after);
	free(u);
}

static struct panel *
journalview_panel(struct tui *t, const struct kind *k, const char *video)
{
	if (k->scope == KIND_SCOPE_VIDEO)
		return (tui_open_video_kind(t, k, video));
	return (tui_open_kind(t, k));
}

static void
journalview_undo_yes(struct tui *t, void *arg, const char *answer)
{
	struct journalview_undo	*u = arg;
	struct panel		*p;
	struct tui_req		*r = NULL;
	char			*path, *cause = NULL;

	(void)answer;
	p = journalview_panel(t, u->kind, u->video);
	switch (u->op) {
	case JOURNAL_UNDO_CREATE:
		if ((path = kind_create_path(u->kind, p->vars, &cause)) ==
		    NULL) {
			tui_message(t, TUI_MSG_ERROR, "%s", cause);
			free(cause);
			return;
		}
		r = tui_submit(t, p, TUI_REQ_CREATE, "POST", path, u->body);
		if (r != NULL)
			tui_message(t, TUI_MSG_INFO, "creating %s...",
			    u->kind->name);
		break;
	case JOURNAL_UNDO_UPDATE:
		if ((path = panel_item_path(p, NULL)) == NULL)
			return;
		r = tui_submit(t, p, TUI_REQ_UPDATE,
		    kind_method_name(u->kind->update_method), path, u->body);
		break;
	case JOURNAL_UNDO_DELETE:
		if ((path = panel_item_path(p, u->id)) == NULL)
			return;
		r = tui_submit(t, p, TUI_REQ_DELETE, "DELETE", path, NULL);
		if (r != NULL) {
			r->id = xstrdup(u->id);
			r->before = u->after;
			u->after = NULL;
		}
		break;
	default:
		return;
	}
	free(path);
}

/* What a diff's fetch carries, as E's does: the record to apply. */
static cJSON *
journalview_edit(struct journal_undo *plan)
{
	cJSON	*data = cJSON_CreateObject();

	if (data == NULL)
		fatalx("out of memory");
	cJSON_AddItemToObject(data, "record", plan->body);
	plan->body = NULL;
	return (data);
}

/*
 * The update's diff against the record as the server has it now (E's):
 * merged into it, from the record as the change left it, so that what
 * was changed since is kept, and a field changed since is asked about.
 */
static void
journalview_undo_update(struct tui *t, const struct journal_record *rec,
    struct journal_undo *plan)
{
	const struct kind	*k = plan->target.kind;
	struct panel		*p;
	struct tui_req		*r, local;
	struct jobs_event	 ev;
	const char		*id = plan->target.id;
	char			*path;

	p = journalview_panel(t, k, plan->target.video);
	if ((k->verbs & KIND_VERB_GET) == 0 && k->shape != KIND_SHAPE_OBJECT) {
		/* No GET: the journal's copy after the change stands in. */
		memset(&ev, 0, sizeof ev);
		memset(&local, 0, sizeof local);
		ev.kind = JOBS_EVENT_DONE;
		ev.result = rec->after;
		local.panel = p;
		local.type = TUI_REQ_FETCH_DIFF;
		local.id = id != NULL ? xstrdup(id) : NULL;
		local.data = journalview_edit(plan);
		local.before = cJSON_Duplicate(rec->after, 1);
		panel_event(p, &local, &ev);
		free(local.id);
		cJSON_Delete(local.data);
		cJSON_Delete(local.before);
		return;
	}
	/* A rule is read in its entry point (the panel knows where). */
	if (p->ops != NULL && p->ops->edit_fetch_path != NULL)
		path = p->ops->edit_fetch_path(p, id);
	else
		path = panel_item_path(p, id);
	if (path == NULL)
		return;
	r = tui_submit(t, p, TUI_REQ_FETCH_DIFF, "GET", path, NULL);
	free(path);
	if (r == NULL)
		return;
	r->id = id != NULL ? xstrdup(id) : NULL;
	r->data = journalview_edit(plan);
	r->before = cJSON_Duplicate(rec->after, 1);
	tui_message(t, TUI_MSG_INFO, "fetching %s %s to compare...", k->name,
	    id != NULL ? id : "");
}

static void
journalview_undo(struct tui *t, const struct journal_record *rec)
{
	const struct edge_scope	*scope = &t->session.scope;
	struct journal_undo	 plan;
	struct journalview_undo	*u;
	const struct kind	*k;
	struct buf		 b = BUF_INITIALIZER;
	cJSON			*empty;
	size_t			 n;

	journal_undo_plan(rec, &plan);
	k = plan.target.kind;
	if (plan.op == JOURNAL_UNDO_NONE) {
		tui_message(t, TUI_MSG_WARN, "cannot undo: %s", plan.why);
		goto out;
	}
	if (tui_refuse_readonly(t, "undo"))
		goto out;
	if ((plan.target.account != NULL && scope->account != NULL &&
	    strcmp(plan.target.account, scope->account) != 0) ||
	    (plan.target.zone != NULL && scope->zone != NULL &&
	    strcmp(plan.target.zone, scope->zone) != 0)) {
		tui_message(t, TUI_MSG_WARN, "cannot undo here: the change "
		    "was made in another account or zone");
		goto out;
	}
	if (plan.op == JOURNAL_UNDO_UPDATE && strcmp(rec->method, "DELETE")) {
		journalview_undo_update(t, rec, &plan);
		goto out;
	}

	u = xcalloc(1, sizeof *u);
	u->kind = k;
	u->op = plan.op;
	u->video = plan.target.video != NULL ? xstrdup(plan.target.video) :
	    NULL;
	u->id = plan.target.id != NULL ? xstrdup(plan.target.id) : NULL;
	u->body = plan.body;
	plan.body = NULL;
	if (plan.op == JOURNAL_UNDO_DELETE) {
		u->after = rec->after != NULL ? cJSON_Duplicate(rec->after, 1) :
		    NULL;
		buf_addf(&b, "Undo the create of %s %s: delete it.\n\n"
		    "Delete %s %s? (y/n)", k->name, u->id, k->name, u->id);
		dialog_confirm(t, "undo a create", buf_str(&b),
		    journalview_undo_yes, u, journalview_undo_free);
		goto out;
	}
	/* Back from nothing: the diff is against an empty record. */
	empty = cJSON_CreateObject();
	buf_addf(&b, "Undo the delete of %s%s%s: %s it as it was.\n\n",
	    k->name, u->id != NULL ? " " : "", u->id != NULL ? u->id : "",
	    plan.op == JOURNAL_UNDO_CREATE ? "re-create" : "set");
	n = edit_diff(&b, empty, u->body);
	cJSON_Delete(empty);
	if (plan.note != NULL)
		buf_addf(&b, "\nNote: %s.\n", plan.note);
	buf_addf(&b, "\n%s %s with %zu field%s? (y/n)",
	    plan.op == JOURNAL_UNDO_CREATE ? "Create" : "Set", k->name, n,
	    n == 1 ? "" : "s");
	dialog_confirm(t, "undo a delete", buf_str(&b), journalview_undo_yes,
	    u, journalview_undo_free);
out:
	buf_free(&b);
	journal_undo_free(&plan);
}

/* ---- the list ----------------------------------------------------------------- */

static int
journalview_key(struct tui *t, struct modal *m, int key)
{
	struct journalview	*v = (struct journalview *)m;
	enum action		 a = keymap_lookup(t->keymap, KEYMAP_LIST, key);
	size_t			 page = LINES > 5 ? LINES - 5 : 1;

	if (key == 033 || a == ACTION_QUIT) {
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (key == 'u') {
		if (v->n > 0)
			journalview_undo(t, &v->r[v->sel]);
		return (TUI_HANDLED);
	}
	switch (a) {
	case ACTION_UP:
		if (v->sel > 0)
			v->sel--;
		break;
	case ACTION_DOWN:
		if (v->sel + 1 < v->n)
			v->sel++;
		break;
	case ACTION_PAGE_UP:
		v->sel = v->sel > page ? v->sel - page : 0;
		break;
	case ACTION_PAGE_DOWN:
		v->sel = v->n > 0 ? MINIMUM(v->sel + page, v->n - 1) : 0;
		break;
	case ACTION_TOP:
		v->sel = 0;
		break;
	case ACTION_BOTTOM:
		v->sel = v->n > 0 ? v->n - 1 : 0;
		break;
	case ACTION_REFRESH:
		journalview_read(t, v);
		break;
	case ACTION_DETAILS:
		if (v->n > 0)
			journalview_show(t, &v->r[v->sel]);
		break;
	default:
		break;
	}
	return (TUI_HANDLED);
}

static void
journalview_draw(struct tui *t, struct modal *m)
{
	struct journalview	*v = (struct journalview *)m;
	struct buf		 b = BUF_INITIALIZER;
	size_t			 i, rows = LINES > 5 ? LINES - 5 : 1;
	int			 y;
	attr_t			 a;

	journalview_reread(t, v);
	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, screen_role(THEME_ROLE_NORMAL));
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	buf_addf(&b, "journal: %zu change%s of profile %s, newest first",
	    v->n, v->n == 1 ? "" : "s", t->session.profile != NULL ?
	    t->session.profile : "(none)");
	screen_put(1, 1, COLS - 1, buf_str(&b), screen_role(THEME_ROLE_TITLE));
	buf_reset(&b);
	buf_addf(&b, "%-21s%-16s%-34s%s", "TIME", "KIND", "RECORD", "CHANGE");
	screen_put(2, 1, COLS - 1, buf_str(&b), screen_role(THEME_ROLE_COLUMN));
	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + rows)
		v->top = v->sel - rows + 1;
	for (i = v->top, y = 3; i < v->n && y < LINES - 1; i++, y++) {
		buf_reset(&b);
		journalview_line(&v->r[i], &b);
		a = screen_role(i == v->sel ? THEME_ROLE_ROW_SELECTED :
		    THEME_ROLE_NORMAL);
		if (i == v->sel)
			screen_fill(y, 0, COLS, a);
		screen_put(y, 1, COLS - 1, buf_str(&b), a);
	}
	if (v->error != NULL)
		screen_put(3, 2, COLS - 2, v->error,
		    screen_role(THEME_ROLE_ERROR));
	else if (v->n == 0)
		screen_put(3, 2, COLS - 2, "No change made with this profile "
		    "yet.", screen_role(THEME_ROLE_DIM));
	buf_free(&b);
	if (status_draw_message(t))
		return;
	screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_STATUS));
	screen_put(LINES - 1, 0, COLS, tui_readonly(t) != NULL ?
	    " Enter show  r reload  q close" :
	    " Enter show  u undo  r reload  q close",
	    screen_role(THEME_ROLE_DIM));
}

static void
journalview_free(struct modal *m)
{
	struct journalview	*v = (struct journalview *)m;

	journal_records_free(v->r, v->n);
	free(v->error);
	free(v);
}

void
journalview_open(struct tui *t)
{
	struct journalview	*v;

	v = xcalloc(1, sizeof *v);
	v->m.key = journalview_key;
	v->m.draw = journalview_draw;
	v->m.free = journalview_free;
	v->m.flags = MODAL_VIEW;
	journalview_read(t, v);
	tui_push(t, &v->m);
}
