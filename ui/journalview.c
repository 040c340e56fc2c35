/*
 * The journal view: the change journal read from its end, this profile's
 * records only, in a list view. Undo goes through the kind's panel, so the
 * request, its answer, the list and the journal entry of the undo are the
 * ones any change gets; updates reuse the diff and confirmation of E.
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
#include "widgets/listview.h"
#include "xmalloc.h"
#include "yamljson.h"

/* Records read from the journal's end; this profile's are among them. */
#define JOURNALVIEW_READ	1000

/* A record's columns, as the row shows them and o sorts them. */
struct journalview_row {
	char			 when[32];
	const char		*kind;
	char			*id;
	char			*what;
};

struct journalview {
	struct tui		*t;
	struct journal_record	*r;		/* newest first */
	struct journalview_row	*rows;		/* one a record */
	size_t			 n;
	char			*error;
	off_t			 size;		/* the journal's, when read */
	time_t			 mtime;
	struct listview		*lv;
};

static void	journalview_rows(struct journalview *);
static void	journalview_rows_free(struct journalview *);

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

	journalview_rows_free(v);
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
	journalview_rows(v);
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
		/* The cursor goes to the newest: the change just made. */
		journalview_read(t, v);
		listview_top(v->lv);
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

/* A record's columns, read once: the list draws, filters and sorts them. */
static void
journalview_row(const struct journal_record *r, struct journalview_row *row)
{
	struct journal_target	 tg;
	const char		*id = NULL;
	char			*what;

	journalview_time(r->time, row->when, sizeof row->when);
	row->kind = "?";
	if (journal_target(r->path, &tg) == 0) {
		row->kind = tg.kind->name;
		id = tg.id;
		if (id == NULL && r->after != NULL)
			id = kind_record_id(tg.kind, r->after);
		/* A video's one object (its downloads): the video. */
		if (id == NULL && !tg.list)
			id = tg.video;
	}
	row->id = xstrdup(id != NULL ? id : "-");
	what = journal_change_text(r);
	if (r->status < 200 || r->status > 299)
		row->what = xprintf("%s (failed: HTTP %d)", what, r->status);
	else
		row->what = xstrdup(what);
	free(what);
	journal_target_free(&tg);
}

static void
journalview_rows(struct journalview *v)
{
	size_t	i;

	v->rows = xcalloc(v->n + 1, sizeof *v->rows);
	for (i = 0; i < v->n; i++)
		journalview_row(&v->r[i], &v->rows[i]);
}

static void
journalview_rows_free(struct journalview *v)
{
	size_t	i;

	for (i = 0; v->rows != NULL && i < v->n; i++) {
		free(v->rows[i].id);
		free(v->rows[i].what);
	}
	free(v->rows);
	v->rows = NULL;
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

static size_t
journalview_count(struct listview *lv)
{
	return (((struct journalview *)listview_arg(lv))->n);
}

static attr_t
journalview_list_row(struct listview *lv, size_t i, int cols, struct buf *b)
{
	struct journalview	*v = listview_arg(lv);
	const struct journalview_row *r = &v->rows[i];

	(void)cols;
	buf_addf(b, "%-19s  %-15.15s %-32.32s  %s", r->when, r->kind, r->id,
	    r->what);
	return (screen_role(THEME_ROLE_NORMAL));
}

static void
journalview_header(struct listview *lv, int cols, struct buf *b)
{
	(void)lv;
	(void)cols;
	buf_addf(b, "%-21s%-16s%-34s%s", "TIME", "KIND", "RECORD", "CHANGE");
}

/* A record, whatever else the journal gains: when, what and where. */
static uint64_t
journalview_key(struct listview *lv, size_t i)
{
	struct journalview		*v = listview_arg(lv);
	const struct journal_record	*r = &v->r[i];
	const char			*parts[3] = { r->time, r->method,
					    r->path };
	uint64_t			 h = 14695981039346656037ULL;
	size_t				 k;
	const char			*c;

	for (k = 0; k < nitems(parts); k++) {
		for (c = parts[k] != NULL ? parts[k] : ""; *c != '\0'; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return (h);
}

static const char *const journalview_sorts[] = {
	"time", "kind", "record", "change", NULL
};

static int
journalview_compare(struct listview *lv, size_t a, size_t b, int sort)
{
	struct journalview		*v = listview_arg(lv);
	const struct journalview_row	*ra = &v->rows[a], *rb = &v->rows[b];

	switch (sort) {
	case 0:
		return (strcmp(v->r[a].time != NULL ? v->r[a].time : "",
		    v->r[b].time != NULL ? v->r[b].time : ""));
	case 1:
		return (strcmp(ra->kind, rb->kind));
	case 2:
		return (strcmp(ra->id, rb->id));
	default:
		return (strcmp(ra->what, rb->what));
	}
}

static void
journalview_enter(struct listview *lv, size_t i)
{
	struct journalview	*v = listview_arg(lv);

	journalview_show(v->t, &v->r[i]);
}

static int
journalview_action(struct listview *lv, enum action a)
{
	struct journalview	*v = listview_arg(lv);
	size_t			 i;

	switch (a) {
	case ACTION_UNDO:
		if (listview_current(lv, &i) == 0)
			journalview_undo(v->t, &v->r[i]);
		return (TUI_HANDLED);
	case ACTION_REFRESH:
		journalview_read(v->t, v);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

static const char *
journalview_empty(struct listview *lv, enum theme_role *role)
{
	struct journalview	*v = listview_arg(lv);

	if (v->error != NULL) {
		*role = THEME_ROLE_ERROR;
		return (v->error);
	}
	return ("No change made with this profile yet.");
}

static void
journalview_title(struct listview *lv, struct buf *b)
{
	struct journalview	*v = listview_arg(lv);

	buf_addf(b, "journal: %zu change%s of profile %s, newest first",
	    v->n, v->n == 1 ? "" : "s", v->t->session.profile != NULL ?
	    v->t->session.profile : "(none)");
}

static void
journalview_footer(struct listview *lv, struct buf *b)
{
	listview_hint(lv, b, ACTION_DETAILS, "show");
	listview_hint(lv, b, ACTION_UNDO, "undo");
	listview_hint(lv, b, ACTION_REFRESH, "reload");
	listview_hint(lv, b, ACTION_QUIT, "close");
}

static void
journalview_reread_lv(struct listview *lv)
{
	struct journalview	*v = listview_arg(lv);

	journalview_reread(v->t, v);
}

static void
journalview_free(void *arg)
{
	struct journalview	*v = arg;

	journalview_rows_free(v);
	journal_records_free(v->r, v->n);
	free(v->error);
	free(v);
}

static const struct listview_ops journalview_ops = {
	.name = "journal",
	.context = KEYMAP_JOURNAL,
	.keys = (const struct listview_key[]){
		{ ACTION_UNDO, NULL },
		{ ACTION_REFRESH, "read the journal again" },
		{ ACTION_NONE, NULL }
	},
	.enter_help = "the change: its request, what it changed, the "
	    "record before and after",
	.sorts = journalview_sorts,
	.count = journalview_count,
	.row = journalview_list_row,
	.header = journalview_header,
	.key = journalview_key,
	.compare = journalview_compare,
	.enter = journalview_enter,
	.action = journalview_action,
	.empty = journalview_empty,
	.title = journalview_title,
	.footer = journalview_footer,
	.reread = journalview_reread_lv,
	.free = journalview_free,
};

void
journalview_open(struct tui *t)
{
	struct journalview	*v;

	v = xcalloc(1, sizeof *v);
	v->t = t;
	journalview_read(t, v);
	v->lv = listview_open(t, &journalview_ops, v);
}
