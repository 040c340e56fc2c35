/*
 * M in the legacy rate-limits panel: the same preview as `edgetui migrate
 * rate-limits` (src/migrate.c) in a scrolling view, then on y (or d, which
 * also disables the legacy rules) the apply's requests sent one after the
 * other, each change journaled, and the report of where each rule is.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "configfile.h"
#include "migrate.h"
#include "screen.h"
#include "tui.h"
#include "xmalloc.h"

#include "panels/rlmigrate.h"
#include "panels/rlrules.h"

#define RLMIGRATE_SUB	0x6d67		/* the apply's requests */

/* The panel's priv while a migration is previewed or applied. */
struct rlmigrate {
	struct migrate_item	*items;
	size_t			 n;
	enum expr_plan		 plan;
	struct migrate_apply	*apply;
};

/* The preview: text to scroll, then apply it (y, d) or leave it (q). */
struct rlmigrate_view {
	struct modal	 m;
	struct textview	 tv;
	struct panel	*p;
};

static void
rlmigrate_free_state(struct panel *p)
{
	struct rlmigrate	*s = p->priv;

	if (s == NULL)
		return;
	migrate_apply_free(s->apply);
	migrate_items_free(s->items, s->n);
	free(s);
	p->priv = NULL;
}

void
rlmigrate_closed(struct panel *p)
{
	rlmigrate_free_state(p);
}

/* ---- applying ---------------------------------------------------------- */

static void
rlmigrate_finish(struct panel *p)
{
	struct rlmigrate	*s = p->priv;
	struct tui		*t = p->tui;
	char			*report;
	int			 failed;

	report = migrate_apply_report(s->apply);
	failed = migrate_apply_failed(s->apply);
	tui_push(t, textview_modal(failed ? "migration to rate limiting "
	    "rules: not all done" : "migration to rate limiting rules: done",
	    report));
	tui_message(t, failed ? TUI_MSG_ERROR : TUI_MSG_OK, "%s",
	    failed ? "migration: not all done (see the report)" :
	    "migration: done");
	free(report);
	rlmigrate_free_state(p);
	panel_load(p);
}

/* Send the apply's next request, or end with the report. */
static void
rlmigrate_next(struct panel *p)
{
	struct rlmigrate	*s = p->priv;
	struct migrate_call	 call;
	struct tui_req		*r;

	while (migrate_apply_next(s->apply, &call)) {
		r = tui_submit(p->tui, p, TUI_REQ_OTHER, call.method,
		    call.path, call.body);
		if (r != NULL) {
			r->sub = RLMIGRATE_SUB;
			if (call.before != NULL)
				r->before = cJSON_Duplicate(call.before, 1);
			tui_message(p->tui, TUI_MSG_INFO, "migration: %s %s...",
			    call.method, call.path);
			migrate_call_clear(&call);
			return;
		}
		migrate_apply_answer(s->apply, 0, NULL, "not sent");
		migrate_call_clear(&call);
	}
	rlmigrate_finish(p);
}

int
rlmigrate_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlmigrate	*s = p->priv;

	if (r->type != TUI_REQ_OTHER || r->sub != RLMIGRATE_SUB)
		return (0);
	if (s == NULL || s->apply == NULL ||
	    (ev->kind != JOBS_EVENT_DONE && ev->kind != JOBS_EVENT_FAILED))
		return (1);
	if (ev->kind == JOBS_EVENT_DONE) {
		if (strcmp(r->method, "GET") != 0)
			tui_journal(p->tui, r, ev->http_status, ev->result);
		migrate_apply_answer(s->apply, ev->http_status, ev->result,
		    NULL);
	} else
		migrate_apply_answer(s->apply, ev->http_status, NULL,
		    tui_cause(r, ev));
	rlmigrate_next(p);
	return (1);
}

static void
rlmigrate_apply(struct panel *p, int disable_legacy)
{
	struct rlmigrate	*s = p->priv;
	struct tui		*t = p->tui;

	if (t->session.scope.zone == NULL) {
		tui_message(t, TUI_MSG_ERROR, "migration: no zone");
		rlmigrate_free_state(p);
		return;
	}
	s->apply = migrate_apply_new(s->items, s->n, s->plan,
	    t->session.scope.zone, disable_legacy);
	rlmigrate_next(p);
}

/* ---- the preview ------------------------------------------------------- */

static int
rlmigrate_view_key(struct tui *t, struct modal *m, int key)
{
	struct rlmigrate_view	*v = (struct rlmigrate_view *)m;
	struct panel		*p = v->p;
	enum action		 a;

	a = keymap_lookup(t->keymap, KEYMAP_PREVIEW, key);
	if (t->msg != NULL && a == ACTION_MESSAGES) {
		tui_messages(t);
		return (TUI_HANDLED);
	}
	/* The footer shows what the last key did (found, saved), or keys. */
	free(t->msg);
	t->msg = NULL;
	if (a == ACTION_APPLY || a == ACTION_APPLY_DISABLE) {
		tui_pop(t);
		if (tui_refuse_readonly(t, "migrate")) {
			rlmigrate_free_state(p);
			return (TUI_HANDLED);
		}
		rlmigrate_apply(p, a == ACTION_APPLY_DISABLE);
		return (TUI_HANDLED);
	}
	if (a == ACTION_CANCEL || a == ACTION_QUIT || a == ACTION_BACK) {
		tui_pop(t);
		rlmigrate_free_state(p);
		tui_message(t, TUI_MSG_INFO, "migration: nothing was sent");
		return (TUI_HANDLED);
	}
	if (!textview_common(t, &v->tv, a))
		textview_action(&v->tv, a, LINES - 4);
	return (TUI_HANDLED);
}

static void
rlmigrate_view_draw(struct tui *t, struct modal *m)
{
	struct rlmigrate_view	*v = (struct rlmigrate_view *)m;
	struct buf		 b = BUF_INITIALIZER;
	int			 y;

	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, screen_role(THEME_ROLE_NORMAL));
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	screen_put(1, 1, COLS - 1, v->tv.title, screen_role(THEME_ROLE_TITLE));
	textview_draw(t, &v->tv, 2, 0, LINES - 3, COLS);
	if (status_draw_message(t))
		return;
	/* Short enough for 80 columns; read-only offers no y or d. */
	if (tui_readonly(t) != NULL) {
		buf_adds(&b, "  read-only: a preview, nothing can be added");
		status_hint(t, &b, KEYMAP_PREVIEW, ACTION_QUIT, "close");
	} else {
		status_hint(t, &b, KEYMAP_PREVIEW, ACTION_APPLY, "add them");
		status_hint(t, &b, KEYMAP_PREVIEW, ACTION_APPLY_DISABLE,
		    "add them, disable the legacy rules");
		status_hint(t, &b, KEYMAP_PREVIEW, ACTION_QUIT, "cancel");
	}
	status_hint_pair(t, &b, KEYMAP_PREVIEW, ACTION_UP, ACTION_DOWN,
	    "scroll");
	status_draw_hints(t, &b, tui_readonly(t) != NULL ? THEME_ROLE_DIM :
	    THEME_ROLE_WARNING);
	buf_free(&b);
}

static void
rlmigrate_view_free(struct modal *m)
{
	struct rlmigrate_view	*v = (struct rlmigrate_view *)m;

	textview_clear(&v->tv);
	free(v);
}

/* The rules to migrate: the marked ones, else the one under the cursor. */
static cJSON *
rlmigrate_records(struct panel *p)
{
	const char	**ids;
	cJSON		 *list, *rec;
	size_t		  i, n;
	long		  at;

	if ((ids = panel_targets(p, &n)) == NULL)
		return (NULL);
	list = cJSON_CreateArray();
	for (i = 0; i < n; i++) {
		if ((at = rows_find(p->rows, ids[i])) >= 0 &&
		    (rec = rows_record(p->rows, (size_t)at)) != NULL)
			cJSON_AddItemToArray(list, rec);
	}
	free(ids);
	return (list);
}

void
rlmigrate_start(struct panel *p)
{
	struct tui		*t = p->tui;
	struct rlmigrate	*s;
	struct rlmigrate_view	*v;
	cJSON			*list;
	char			*text, *title;

	if (p->priv != NULL) {
		tui_message(t, TUI_MSG_WARN, "migration: one is already under "
		    "way");
		return;
	}
	if (p->banner != NULL) {
		tui_message(t, TUI_MSG_WARN, "this server retired the API (see "
		    "the notice above): there is nothing to migrate here");
		return;
	}
	if ((list = rlmigrate_records(p)) == NULL ||
	    cJSON_GetArraySize(list) == 0) {
		cJSON_Delete(list);
		tui_message(t, TUI_MSG_WARN, "migration: no rule to migrate");
		return;
	}
	s = xcalloc(1, sizeof *s);
	s->plan = rlrules_plan(t);
	s->items = migrate_rules(list, s->plan, &s->n);
	cJSON_Delete(list);
	p->priv = s;

	text = migrate_preview(s->items, s->n, s->plan);
	if (s->plan == EXPR_PLAN_NONE)
		title = xprintf("migrate %zu legacy rate limit%s (no plan: "
		    "set plan: in the profile)", s->n, s->n == 1 ? "" : "s");
	else
		title = xprintf("migrate %zu legacy rate limit%s to rate "
		    "limiting rules (plan %s)", s->n, s->n == 1 ? "" : "s",
		    expr_plan_name(s->plan));
	v = xcalloc(1, sizeof *v);
	v->m.key = rlmigrate_view_key;
	v->m.draw = rlmigrate_view_draw;
	v->m.free = rlmigrate_view_free;
	v->p = p;
	textview_set(&v->tv, title, text);
	tui_push(t, &v->m);
	free(title);
	free(text);
}

/* ---- the retired API's banner ------------------------------------------ */

void
rlmigrate_banner(struct panel *p)
{
	static const char	 mark[] = "Rate limiting rules:";
	const char		*where;
	char			*b;

	if (p->banner == NULL || strstr(p->banner, mark) != NULL)
		return;
	if (commands_find("rules") != NULL || kind_find("rules") != NULL)
		where = "open them with :rules.";
	else
		where = "see edgetui get rate-limit-rules.";
	b = xprintf("%s %s %s", p->banner, mark, where);
	free(p->banner);
	p->banner = b;
}
