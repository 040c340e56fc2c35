/*
 * The rate limiting rules panel (:rules): the rules of the zone's
 * http_ratelimit entry point in evaluation order, numbered, under a line
 * naming the entry point's version and the plan lint uses. K and J move a
 * rule (a PATCH of only its position), t enables or disables it or the
 * marked ones (a PATCH of the whole rule: the API's PATCH is not a merge),
 * d deletes, v opens the entry point's versions (rlversions.c). A rule's
 * calls need the entry point's id, kept from the last list. Writes go one
 * after the other, each journaled; the list then reloads.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "configfile.h"
#include "rulesets.h"
#include "screen.h"
#include "tui.h"
#include "xmalloc.h"

#include "panels/rlform.h"
#include "panels/rlrules.h"
#include "panels/rltest.h"

#define RLRULES_SUB	0x726c		/* the panel's writes */

/* One write of a batch and, once answered, how it went. */
struct rlrules_call {
	const char	*method;
	char		*path;
	cJSON		*body;
	cJSON		*before;	/* the rule, for the journal */
	char		*name;		/* "'Login form' (0c4f12ab…)" */
	char		*error;		/* NULL: done */
	int		 answered;
};

/* Writes sent one after the other, then one message and a reload. */
struct rlrules_batch {
	const char		*done_verb;	/* "disabled" */
	const char		*undone_note;	/* "still enabled" */
	struct rlrules_call	*calls;
	size_t			 n;
	size_t			 next;
	char			*cursor_id;	/* the cursor's rule after */
	char			*moved;		/* "up to #2": a move's */
};

struct rlrules {
	cJSON			*ep;		/* as last listed; or NULL */
	int			 absent;	/* 404: no entry point yet */
	struct rlrules_batch	*batch;
};

static struct rlrules *
rlrules_state(struct panel *p)
{
	if (p->priv == NULL)
		p->priv = xcalloc(1, sizeof(struct rlrules));
	return (p->priv);
}

static void
rlrules_batch_free(struct rlrules_batch *b)
{
	size_t	i;

	if (b == NULL)
		return;
	for (i = 0; i < b->n; i++) {
		free(b->calls[i].path);
		cJSON_Delete(b->calls[i].body);
		cJSON_Delete(b->calls[i].before);
		free(b->calls[i].name);
		free(b->calls[i].error);
	}
	free(b->calls);
	free(b->cursor_id);
	free(b->moved);
	free(b);
}

static void
rlrules_closed(struct panel *p)
{
	struct rlrules	*s = p->priv;

	cJSON_Delete(s->ep);
	rlrules_batch_free(s->batch);
}

enum expr_plan
rlrules_plan(struct tui *t)
{
	const struct config_profile	*pr;

	pr = config_profile(t->cfg, t->session.profile);
	return (pr != NULL ? (enum expr_plan)pr->plan : EXPR_PLAN_NONE);
}

/* ---- the header ------------------------------------------------------- */

static int
rlrules_draw(struct panel *p, int y, int h, int w)
{
	struct rlrules	*s = p->priv;
	const cJSON	*v = NULL;
	enum expr_plan	 plan = rlrules_plan(p->tui);
	struct buf	 b;

	if (p->view != PANEL_LIST || h < 3)
		return (0);
	buf_init(&b);
	if (s != NULL && s->ep != NULL)
		v = cJSON_GetObjectItemCaseSensitive(s->ep, "version");
	if (cJSON_IsString(v))
		buf_addf(&b, " entry point version %s", v->valuestring);
	else if (s != NULL && s->absent)
		buf_adds(&b, " no entry point yet");
	else
		buf_adds(&b, " entry point version -");
	if (plan == EXPR_PLAN_NONE)
		buf_adds(&b, "   plan unknown: language-only lint, the server "
		    "decides");
	else
		buf_addf(&b, "   plan %s (lint uses its limits)",
		    expr_plan_name(plan));
	screen_fill(y, 0, w, screen_role(THEME_ROLE_DIM));
	screen_put(y, 0, w, buf_str(&b), screen_role(THEME_ROLE_DIM));
	buf_free(&b);
	return (1);
}

/* ---- the list's answer -------------------------------------------------- */

static int
rlrules_same_order(const cJSON *a, const cJSON *b)
{
	const cJSON	*x, *y;
	const char	*ix, *iy;

	if (cJSON_GetArraySize(a) != cJSON_GetArraySize(b))
		return (0);
	for (x = a != NULL ? a->child : NULL, y = b != NULL ? b->child : NULL;
	    x != NULL && y != NULL; x = x->next, y = y->next) {
		ix = kind_record_id(&kind_rate_limit_rules, x);
		iy = kind_record_id(&kind_rate_limit_rules, y);
		if (ix == NULL || iy == NULL || strcmp(ix, iy) != 0)
			return (0);
	}
	return (1);
}

/*
 * Keep the entry point (its id and the rules' order) and number the rules
 * before the generic list takes them.
 */
static void
rlrules_listed(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlrules	*s = rlrules_state(p);

	if (r->gen != p->gen)
		return;
	if (ev->kind == JOBS_EVENT_FAILED) {
		if (ev->http_status == 404) {
			cJSON_Delete(s->ep);
			s->ep = NULL;
			s->absent = 1;
		}
		return;
	}
	if (ev->kind != JOBS_EVENT_DONE || !cJSON_IsObject(ev->result))
		return;
	/* A refresh keeps rows where they are: a new order starts anew. */
	if (!rlrules_same_order(rulesets_rules(s->ep),
	    rulesets_rules(ev->result)))
		rows_clear(p->rows);
	rulesets_number(cJSON_GetObjectItemCaseSensitive(ev->result,
	    "rules"));
	cJSON_Delete(s->ep);
	s->ep = cJSON_Duplicate(ev->result, 1);
	s->absent = 0;
}

/* ---- writes, one after the other ---------------------------------------- */

/* A path under the entry point's ruleset (id: a rule's); NULL said why. */
char *
rlrules_path(struct panel *p, const cJSON *ep, const char *tmpl,
    const char *id)
{
	struct api_var	 vars[EDGE_SCOPE_NVARS + 2];
	const cJSON	*rsid = cJSON_GetObjectItemCaseSensitive(ep, "id");
	char		*path, *cause = NULL;
	size_t		 n = 0;

	if (!cJSON_IsString(rsid)) {
		tui_message(p->tui, TUI_MSG_ERROR, "the rules' entry point is "
		    "not known yet: refresh (r) first; nothing was sent");
		return (NULL);
	}
	vars[n].name = "ruleset";
	vars[n++].value = rsid->valuestring;
	if (id != NULL) {
		vars[n].name = "id";
		vars[n++].value = id;
	}
	memcpy(vars + n, p->vars, sizeof p->vars);
	if ((path = api_path(tmpl, vars, &cause)) == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
	}
	return (path);
}

static struct rlrules_batch *
rlrules_batch_new(const char *verb, const char *undone)
{
	struct rlrules_batch	*b = xcalloc(1, sizeof *b);

	b->done_verb = verb;
	b->undone_note = undone;
	return (b);
}

/* Add a write on rule rec (taken). Returns -1 when no path (said why). */
static int
rlrules_batch_add(struct panel *p, struct rlrules_batch *b,
    const char *method, cJSON *rec, cJSON *body)
{
	struct rlrules		*s = rlrules_state(p);
	struct rlrules_call	*c;
	const char		*id = kind_record_id(p->kind, rec);
	struct buf		 name;
	char			*path;

	if (id == NULL || (path = rlrules_path(p, s->ep, RULESETS_RULE_PATH,
	    id)) == NULL) {
		cJSON_Delete(rec);
		cJSON_Delete(body);
		return (-1);
	}
	b->calls = xreallocarray(b->calls, b->n + 1, sizeof *b->calls);
	c = &b->calls[b->n++];
	memset(c, 0, sizeof *c);
	c->method = method;
	c->path = path;
	c->body = body;
	buf_init(&name);
	panel_name_record(p, id, &name);
	c->name = buf_detach(&name, NULL);
	/* With its position as listed: the journal shows a move. */
	c->before = rec;
	return (0);
}

static void rlrules_batch_end(struct panel *);

static void
rlrules_batch_next(struct panel *p)
{
	struct rlrules		*s = p->priv;
	struct rlrules_batch	*b = s->batch;
	struct rlrules_call	*c;
	struct tui_req		*r;

	while (b->next < b->n) {
		c = &b->calls[b->next];
		r = tui_submit(p->tui, p, TUI_REQ_OTHER, c->method, c->path,
		    c->body);
		if (r != NULL) {
			r->sub = RLRULES_SUB;
			r->before = cJSON_Duplicate(c->before, 1);
			return;
		}
		c->answered = 1;
		c->error = xstrdup("not sent");
		b->next++;
	}
	rlrules_batch_end(p);
}

/* Start a batch (taken); refused while one is under way. */
static void
rlrules_batch_start(struct panel *p, struct rlrules_batch *b)
{
	struct rlrules	*s = rlrules_state(p);

	if (b->n == 0) {
		rlrules_batch_free(b);
		return;
	}
	if (s->batch != NULL) {
		tui_message(p->tui, TUI_MSG_WARN, "a change to the rules is "
		    "still under way: nothing was sent");
		rlrules_batch_free(b);
		return;
	}
	s->batch = b;
	rlrules_batch_next(p);
}

/*
 * One message for the batch: what was done, and for a failure which rules
 * were changed and which were not (and why).
 */
static void
rlrules_batch_end(struct panel *p)
{
	struct rlrules		*s = p->priv;
	struct rlrules_batch	*b = s->batch;
	struct buf		 m;
	size_t			 i, ok = 0;

	for (i = 0; i < b->n; i++)
		if (b->calls[i].answered && b->calls[i].error == NULL)
			ok++;
	buf_init(&m);
	if (ok == b->n) {
		if (b->n == 1)
			buf_addf(&m, "%s %s %s%s%s", b->done_verb,
			    panel_noun(p), b->calls[0].name,
			    b->moved != NULL ? " " : "",
			    b->moved != NULL ? b->moved : "");
		else
			buf_addf(&m, "%s %zu %ss", b->done_verb, b->n,
			    panel_noun(p));
		tui_message(p->tui, TUI_MSG_OK, "%s", buf_str(&m));
	} else {
		buf_addf(&m, "%zu of %zu not %s (%s):", b->n - ok, b->n,
		    b->done_verb, b->undone_note);
		for (i = 0; i < b->n; i++)
			if (b->calls[i].error != NULL)
				buf_addf(&m, " %s: %s;", b->calls[i].name,
				    b->calls[i].error);
		if (ok > 0) {
			buf_addf(&m, " %s:", b->done_verb);
			for (i = 0; i < b->n; i++)
				if (b->calls[i].error == NULL)
					buf_addf(&m, " %s", b->calls[i].name);
		} else
			buf_truncate(&m, strlen(buf_str(&m)) - 1);
		tui_message(p->tui, TUI_MSG_ERROR, "%s", buf_str(&m));
	}
	buf_free(&m);
	if (b->cursor_id != NULL) {
		free(p->cursor_id);
		p->cursor_id = xstrdup(b->cursor_id);
	}
	s->batch = NULL;
	rlrules_batch_free(b);
	/* The server's order and versions; marks stay when nothing was done. */
	if (ok > 0) {
		rows_mark_all(p->rows, 0);
		panel_load(p);
	}
}

/* The rule as the answer (the ruleset) has it, numbered; none deleted. */
static void
rlrules_journal(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*rule = NULL;
	const char	*id;
	cJSON		*rules;

	id = kind_record_id(p->kind, r->before);
	if (strcmp(r->method, "DELETE") != 0 && id != NULL &&
	    cJSON_IsObject(ev->result)) {
		rules = cJSON_GetObjectItemCaseSensitive(ev->result, "rules");
		rulesets_number(rules);
		rule = rulesets_rule_find(ev->result, id, NULL);
	}
	tui_journal(p->tui, r, ev->http_status, rule);
}

static int
rlrules_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlrules		*s = p->priv;
	struct rlrules_call	*c;

	if (r->type == TUI_REQ_LIST) {
		rlrules_listed(p, r, ev);
		return (0);
	}
	/* The form's and the YAML editor's writes (rlform.c). */
	if (rlform_event(p, r, ev))
		return (1);
	if (r->type != TUI_REQ_OTHER || r->sub != RLRULES_SUB)
		return (0);
	if (s == NULL || s->batch == NULL ||
	    (ev->kind != JOBS_EVENT_DONE && ev->kind != JOBS_EVENT_FAILED))
		return (1);
	c = &s->batch->calls[s->batch->next];
	c->answered = 1;
	/* s->ep stays as listed: the reload compares the order with it. */
	if (ev->kind == JOBS_EVENT_DONE)
		rlrules_journal(p, r, ev);
	else
		c->error = xstrdup(tui_cause(r, ev));
	s->batch->next++;
	rlrules_batch_next(p);
	return (1);
}

/* ---- K and J ------------------------------------------------------------ */

static void
rlrules_move(struct panel *p, int down)
{
	struct rlrules		*s = rlrules_state(p);
	struct rlrules_batch	*b;
	const cJSON		*rules, *other;
	const char		*id, *oid;
	cJSON			*rec, *body, *pos;
	int			 at, n;

	if (tui_refuse_readonly(p->tui, down ? "move down" : "move up"))
		return;
	if ((rec = panel_current_record(p)) == NULL ||
	    (id = kind_record_id(p->kind, rec)) == NULL) {
		cJSON_Delete(rec);
		return;
	}
	rules = rulesets_rules(s->ep);
	n = cJSON_GetArraySize(rules);
	if (rulesets_rule_find(s->ep, id, &at) == NULL) {
		tui_message(p->tui, TUI_MSG_WARN, "this rule is not in the "
		    "entry point as last read: refresh (r); nothing was sent");
		cJSON_Delete(rec);
		return;
	}
	if ((!down && at == 1) || (down && at == n)) {
		tui_message(p->tui, TUI_MSG_INFO, "the rule is already %s",
		    down ? "last" : "first");
		cJSON_Delete(rec);
		return;
	}
	/* Before the one above it, or after the one below it. */
	other = cJSON_GetArrayItem(rules, down ? at : at - 2);
	oid = kind_record_id(p->kind, other);
	if (oid == NULL) {
		cJSON_Delete(rec);
		return;
	}
	body = cJSON_CreateObject();
	pos = cJSON_AddObjectToObject(body, "position");
	cJSON_AddStringToObject(pos, down ? "after" : "before", oid);
	b = rlrules_batch_new("moved", "its place is unchanged");
	b->cursor_id = xstrdup(id);
	b->moved = xprintf("%s to #%d", down ? "down" : "up",
	    down ? at + 1 : at - 1);
	if (rlrules_batch_add(p, b, "PATCH", rec, body) != 0) {
		rlrules_batch_free(b);
		return;
	}
	rlrules_batch_start(p, b);
}

/* ---- t ------------------------------------------------------------------ */

struct rlrules_ids {
	struct panel	*p;
	char		**ids;
	size_t		 n;
	int		 enable;
};

static struct rlrules_ids *
rlrules_ids_new(struct panel *p, const char **ids, size_t n)
{
	struct rlrules_ids	*q = xcalloc(1, sizeof *q);
	size_t			 i;

	q->p = p;
	q->n = n;
	q->ids = xcalloc(n, sizeof *q->ids);
	for (i = 0; i < n; i++)
		q->ids[i] = xstrdup(ids[i]);
	return (q);
}

static void
rlrules_ids_free(void *arg)
{
	struct rlrules_ids	*q = arg;
	size_t			 i;

	for (i = 0; i < q->n; i++)
		free(q->ids[i]);
	free(q->ids);
	free(q);
}

static cJSON *
rlrules_record(struct panel *p, const char *id)
{
	long	i;

	if ((i = rows_find(p->rows, id)) < 0)
		return (NULL);
	return (rows_record(p->rows, (size_t)i));
}

/* The rules of q all set one way; those already so are left alone. */
static void
rlrules_enable_yes(struct tui *t, void *arg, const char *answer)
{
	struct rlrules_ids	*q = arg;
	struct panel		*p = q->p;
	struct rlrules_batch	*b;
	cJSON			*rec;
	size_t			 i;

	(void)t;
	(void)answer;
	b = rlrules_batch_new(q->enable ? "enabled" : "disabled",
	    q->enable ? "still disabled" : "still enabled");
	if (panel_current_id(p) != NULL)
		b->cursor_id = xstrdup(panel_current_id(p));
	for (i = 0; i < q->n; i++) {
		if ((rec = rlrules_record(p, q->ids[i])) == NULL)
			continue;
		if (rulesets_rule_enabled(rec) == q->enable) {
			cJSON_Delete(rec);
			continue;
		}
		rlrules_batch_add(p, b, "PATCH", rec,
		    rulesets_rule_enable_body(rec, q->enable));
	}
	if (b->n == 0)
		tui_message(p->tui, TUI_MSG_INFO, "all are %s already",
		    q->enable ? "enabled" : "disabled");
	rlrules_batch_start(p, b);
}

/*
 * t: the rule under the cursor flipped; the marked ones all one way after
 * a question: disabled when any is enabled, else enabled.
 */
static void
rlrules_toggle(struct panel *p)
{
	struct rlrules_ids	*q;
	const char		**ids;
	cJSON			*rec;
	struct buf		 m;
	size_t			 n, i, on = 0;

	if (tui_refuse_readonly(p->tui, "toggle"))
		return;
	if ((ids = panel_targets(p, &n)) == NULL || n == 0) {
		free(ids);
		return;
	}
	q = rlrules_ids_new(p, ids, n);
	free(ids);
	for (i = 0; i < n; i++) {
		if ((rec = rlrules_record(p, q->ids[i])) != NULL &&
		    rulesets_rule_enabled(rec))
			on++;
		cJSON_Delete(rec);
	}
	q->enable = on == 0;
	if (rows_mark_count(p->rows) == 0) {
		rlrules_enable_yes(p->tui, q, "y");
		rlrules_ids_free(q);
		return;
	}
	buf_init(&m);
	buf_addf(&m, "%s all %zu %s%s (%s)? %zu enabled, %zu disabled now.",
	    q->enable ? "Enable" : "Disable", n, panel_noun(p),
	    n == 1 ? "" : "s", panel_marks_note(p), on, n - on);
	panel_name_targets(p, (const char *const *)q->ids, n, &m);
	buf_addf(&m, "\n%s (y/n)", q->enable ? "All are disabled: all will "
	    "be enabled." : "At least one is enabled: all will be disabled.");
	dialog_confirm(p->tui, q->enable ? "enable all" : "disable all",
	    buf_str(&m), rlrules_enable_yes, q, rlrules_ids_free);
	buf_free(&m);
}

/* ---- d ------------------------------------------------------------------ */

static void
rlrules_delete_yes(struct tui *t, void *arg, const char *answer)
{
	struct rlrules_ids	*q = arg;
	struct panel		*p = q->p;
	struct rlrules_batch	*b;
	cJSON			*rec;
	size_t			 i;

	(void)t;
	(void)answer;
	b = rlrules_batch_new("deleted", "still there");
	for (i = 0; i < q->n; i++)
		if ((rec = rlrules_record(p, q->ids[i])) != NULL)
			rlrules_batch_add(p, b, "DELETE", rec, NULL);
	if (p->view == PANEL_DETAIL)
		p->view = PANEL_LIST;
	rlrules_batch_start(p, b);
}

/* The question names each rule by its description. */
static void
rlrules_delete(struct panel *p)
{
	struct rlrules_ids	*q;
	const char		**ids, *id;
	char			 count[32];
	struct buf		 m;
	size_t			 n;

	if (tui_refuse_readonly(p->tui, "delete"))
		return;
	if (p->view == PANEL_DETAIL) {
		if ((id = kind_record_id(p->kind, p->record)) == NULL)
			return;
		q = rlrules_ids_new(p, &id, 1);
	} else {
		if ((ids = panel_targets(p, &n)) == NULL || n == 0) {
			free(ids);
			tui_message(p->tui, TUI_MSG_WARN, "nothing to delete");
			return;
		}
		q = rlrules_ids_new(p, ids, n);
		free(ids);
	}
	buf_init(&m);
	if (q->n == 1) {
		buf_addf(&m, "Delete %s%s ", rows_mark_count(p->rows) > 0 &&
		    p->view == PANEL_LIST ? "the marked " : "", panel_noun(p));
		panel_name_record(p, q->ids[0], &m);
		buf_adds(&m, "? (y/n)");
		dialog_confirm(p->tui, "delete", buf_str(&m),
		    rlrules_delete_yes, q, rlrules_ids_free);
	} else {
		snprintf(count, sizeof count, "%zu", q->n);
		buf_addf(&m, "Delete %zu %ss (%s)?", q->n, panel_noun(p),
		    panel_marks_note(p));
		panel_name_targets(p, (const char *const *)q->ids, q->n, &m);
		buf_addf(&m, "\nType %zu and Enter to confirm, Esc to cancel.",
		    q->n);
		dialog_confirm_typed(p->tui, "delete marked", buf_str(&m),
		    count, rlrules_delete_yes, q, rlrules_ids_free);
	}
	buf_free(&m);
}

/* ---- the actions -------------------------------------------------------- */

static int
rlrules_action(struct panel *p, enum action a)
{
	cJSON	*rec;

	switch (a) {
	case ACTION_DETAILS:
		/* The list holds the whole rule: no fetch by id. */
		if (p->view != PANEL_LIST)
			return (0);
		if ((rec = panel_current_record(p)) != NULL) {
			panel_show_record(p, rec);
			p->detail.top = 0;
			p->detail.cur = 0;
			cJSON_Delete(rec);
		}
		return (TUI_HANDLED);
	case ACTION_TEST:
		rltest_open(p->tui, NULL);
		return (TUI_HANDLED);
	case ACTION_NEW:
		rlform_new(p);
		return (TUI_HANDLED);
	case ACTION_EDIT:
		rlform_edit(p);
		return (TUI_HANDLED);
	case ACTION_EDIT_YAML:
		rlyaml_edit(p);
		return (TUI_HANDLED);
	case ACTION_DELETE:
		rlrules_delete(p);
		return (TUI_HANDLED);
	case ACTION_TOGGLE:
		if (p->view != PANEL_LIST)
			return (0);
		rlrules_toggle(p);
		return (TUI_HANDLED);
	default:
		return (rlrules_kind_action(p, a));
	}
}

static void
rlrules_move_up_yes(struct tui *t, void *arg, const char *answer)
{
	(void)t;
	(void)answer;
	rlrules_move(arg, 0);
}

static void
rlrules_move_down_yes(struct tui *t, void *arg, const char *answer)
{
	(void)t;
	(void)answer;
	rlrules_move(arg, 1);
}

/*
 * K or J with rules marked: a move is of one rule, the one under the
 * cursor; the question says so rather than leave the marks unsaid.
 */
static void
rlrules_move_ask(struct panel *p, int down)
{
	struct buf	m;
	size_t		n = rows_mark_count(p->rows);

	if (tui_refuse_readonly(p->tui, down ? "move down" : "move up") ||
	    panel_current_id(p) == NULL)
		return;
	buf_init(&m);
	buf_addf(&m, "Move %s ", panel_noun(p));
	panel_name_record(p, panel_current_id(p), &m);
	buf_addf(&m, " %s? Only the rule under the cursor moves: the %zu "
	    "marked one%s stay%s where %s. (y/n)", down ? "down" : "up", n,
	    n == 1 ? "" : "s", n == 1 ? "s" : "", n == 1 ? "it is" :
	    "they are");
	dialog_confirm(p->tui, down ? "move down" : "move up", buf_str(&m),
	    down ? rlrules_move_down_yes : rlrules_move_up_yes, p, NULL);
	buf_free(&m);
}

/*
 * The actions of the rate-limit-rules key context (K, J, v); 0 for any
 * other.
 */
int
rlrules_kind_action(struct panel *p, enum action a)
{
	if (p->view != PANEL_LIST)
		return (0);
	switch (a) {
	case ACTION_MOVE_UP:
	case ACTION_MOVE_DOWN:
		if (rows_mark_count(p->rows) > 0)
			rlrules_move_ask(p, a == ACTION_MOVE_DOWN);
		else
			rlrules_move(p, a == ACTION_MOVE_DOWN);
		return (TUI_HANDLED);
	case ACTION_VERSIONS:
		rlversions_open(p);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

const struct panel_ops panel_rate_limit_rules_ops = {
	.kind = "rate-limit-rules",
	.action = rlrules_action,
	.event = rlrules_event,
	.draw = rlrules_draw,
	.closed = rlrules_closed,
	.edit_lint = rlyaml_lint,
	.edit_fetch_path = rlyaml_fetch_path,
	.edit_save = rlyaml_save,
	.hints = (const struct panel_hint[]){
		/* What fits in 120 columns; E (yaml) is in ? as in every list. */
		{ ACTION_NEW, "new" },
		{ ACTION_EDIT, "edit" },
		{ ACTION_TEST, "test" },
		{ ACTION_MOVE_UP, "up" },
		{ ACTION_MOVE_DOWN, "down" },
		{ ACTION_TOGGLE, "on/off" },
		{ ACTION_DELETE, "delete" },
		{ ACTION_VERSIONS, "versions" },
		{ ACTION_NONE, NULL }
	},
};
