/*
 * The rate limiting rules panel (:rules): the rules of the zone's
 * http_ratelimit entry point in evaluation order, numbered, under a line
 * naming the entry point's version and the plan lint uses. K and J move a
 * rule one place, { and } to the top or the bottom (a PATCH of only its
 * position), t enables or disables it or the marked ones (a PATCH of the
 * whole rule: the API's PATCH is not a merge), d deletes, v opens the
 * entry point's versions (rlversions.c). Writes go one after the other,
 * each from the entry point read just before (a rule's change made since
 * the list is kept: merge.h), each journaled; the list then reloads. A
 * change asked for while one is under way waits its turn.
 * A rule the profile's plan forbids is marked ! (why is said above the
 * list when the cursor is on it), and so is a zone over the plan's quota.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "configfile.h"
#include "log.h"
#include "merge.h"
#include "rlrule.h"
#include "rulesets.h"
#include "screen.h"
#include "text.h"
#include "tui.h"
#include "xmalloc.h"

#include "panels/rlform.h"
#include "panels/rlrules.h"
#include "panels/rltest.h"

#define RLRULES_SUB_READ	0x726c	/* the entry point before a write */
#define RLRULES_SUB_WRITE	0x726d	/* the write */

enum rlrules_op {
	RLRULES_ENABLE,
	RLRULES_DISABLE,
	RLRULES_UP,
	RLRULES_DOWN,
	RLRULES_FIRST,
	RLRULES_LAST,
	RLRULES_DELETE
};

extern const struct panel_ops panel_rate_limit_rules_ops;

/* One write of a batch and, once answered, how it went. */
struct rlrules_call {
	enum rlrules_op	 op;
	char		*id;
	cJSON		*base;		/* the rule as listed */
	int		 at;		/* a move: its place as listed */
	char		*name;		/* "'Login form' (0c4f12ab…)" */
	char		*error;		/* NULL: done */
	char		*note;		/* nothing to send: why */
	char		*moved;		/* "up to #2": a move's */
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
	int			 queued;	/* waited for another */
	struct rlrules_batch	*later;		/* the queue's next */
};

/* A rule the plan forbids, as last listed. */
struct rlrules_mark {
	char			*id;
	char			*why;		/* "field: message" */
};

struct rlrules {
	cJSON			*ep;		/* as last listed; or NULL */
	int			 absent;	/* 404: no entry point yet */
	struct rlrules_batch	*batch;		/* under way */
	struct rlrules_batch	*queue;		/* waiting, in order */
	/* Where the last move put a rule: a queued move starts there. */
	char			*place_id;
	int			 place_at;
	struct rlrules_mark	*marks;
	size_t			 nmarks;
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
		free(b->calls[i].id);
		cJSON_Delete(b->calls[i].base);
		free(b->calls[i].name);
		free(b->calls[i].error);
		free(b->calls[i].note);
		free(b->calls[i].moved);
	}
	free(b->calls);
	free(b->cursor_id);
	free(b);
}

static void
rlrules_marks_free(struct rlrules *s)
{
	size_t	i;

	for (i = 0; i < s->nmarks; i++) {
		free(s->marks[i].id);
		free(s->marks[i].why);
	}
	free(s->marks);
	s->marks = NULL;
	s->nmarks = 0;
}

static void
rlrules_closed(struct panel *p)
{
	struct rlrules		*s = p->priv;
	struct rlrules_batch	*b;

	cJSON_Delete(s->ep);
	rlrules_batch_free(s->batch);
	while ((b = s->queue) != NULL) {
		s->queue = b->later;
		rlrules_batch_free(b);
	}
	free(s->place_id);
	rlrules_marks_free(s);
}

enum expr_plan
rlrules_plan(struct tui *t)
{
	const struct config_profile	*pr;

	pr = config_profile(t->cfg, t->session.profile);
	return (pr != NULL ? (enum expr_plan)pr->plan : EXPR_PLAN_NONE);
}

/* ---- what the plan forbids --------------------------------------------- */

/* The rules of the entry point the plan forbids, as the linter says. */
static void
rlrules_marks_set(struct panel *p, struct rlrules *s)
{
	struct rlrule_problem	 pb;
	enum expr_plan		 plan = rlrules_plan(p->tui);
	const cJSON		*r;
	const char		*id;

	rlrules_marks_free(s);
	cJSON_ArrayForEach(r, rulesets_rules(s->ep)) {
		if ((id = kind_record_id(&kind_rate_limit_rules, r)) == NULL ||
		    rlrule_plan_check(r, plan, &pb) == 0)
			continue;
		s->marks = xreallocarray(s->marks, s->nmarks + 1,
		    sizeof *s->marks);
		s->marks[s->nmarks].id = xstrdup(id);
		if (pb.column > 0)
			s->marks[s->nmarks++].why = xprintf("%s: column %d: "
			    "%s", pb.field, pb.column, pb.message);
		else
			s->marks[s->nmarks++].why = xprintf("%s: %s",
			    pb.field, pb.message);
	}
}

static const char *
rlrules_mark_of(const struct rlrules *s, const char *id)
{
	size_t	i;

	for (i = 0; s != NULL && id != NULL && i < s->nmarks; i++)
		if (strcmp(s->marks[i].id, id) == 0)
			return (s->marks[i].why);
	return (NULL);
}

/* '!' in the gutter of a rule the plan forbids (a '*' mark wins). */
static void
rlrules_row_mark(struct panel *p, size_t i, int y, attr_t a)
{
	if (rows_marked(p->rows, i) ||
	    rlrules_mark_of(p->priv, rows_id(p->rows, i)) == NULL)
		return;
	screen_put(y, 1, 1, "!", i == p->cursor ? a | A_BOLD :
	    screen_role(THEME_ROLE_WARNING) | A_BOLD);
}

int
rlrules_count(struct panel *p)
{
	struct rlrules	*s = p->priv;

	if (p->ops != &panel_rate_limit_rules_ops || s == NULL)
		return (-1);
	if (s->ep == NULL)
		return (s->absent ? 0 : -1);
	return (cJSON_GetArraySize(rulesets_rules(s->ep)));
}

/*
 * Under the header, when the plan is broken: the quota (the service then
 * refuses a new rule and every edit), how many rules are marked, and why
 * the one under the cursor is. Returns the lines drawn.
 */
static int
rlrules_draw_plan(struct panel *p, int y, int h, int w)
{
	struct rlrules		*s = p->priv;
	struct rlrule_problem	 pb;
	enum expr_plan		 plan = rlrules_plan(p->tui);
	const char		*why;
	attr_t			 a = screen_role(THEME_ROLE_WARNING);
	struct buf		 b = BUF_INITIALIZER;
	int			 n = rlrules_count(p), used = 0;

	if (n > 0 && rlrule_quota(n, plan, &pb) != 0 && used < h) {
		buf_addf(&b, " ! %s: the service refuses a new rule, and any "
		    "change, until there are %d", pb.message,
		    rlrule_max_rules(plan));
		screen_fill(y + used, 0, w, a);
		screen_put(y + used++, 0, w, buf_str(&b), a);
	}
	if (s != NULL && s->nmarks > 0 && used < h) {
		buf_reset(&b);
		buf_addf(&b, " ! %zu rule%s the %s plan forbids", s->nmarks,
		    s->nmarks == 1 ? "" : "s", expr_plan_title(plan));
		if ((why = rlrules_mark_of(s, panel_current_id(p))) != NULL)
			buf_addf(&b, "; this one: %s", why);
		screen_fill(y + used, 0, w, a);
		screen_put(y + used++, 0, w, buf_str(&b), a);
	}
	buf_free(&b);
	return (used);
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
	return (1 + rlrules_draw_plan(p, y + 1, h - 3, w));
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
			rlrules_marks_free(s);
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
	rlrules_marks_set(p, s);
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

char *
rlrules_rule_label(const cJSON *rule, const char *id)
{
	const cJSON	*d = cJSON_GetObjectItemCaseSensitive(rule,
			    "description");
	char		*clean, *cut, *s;

	if (!cJSON_IsString(d) || *d->valuestring == '\0')
		return (xstrdup(id != NULL ? id : "?"));
	clean = text_clean(d->valuestring);
	cut = text_ellipsize(clean, 40, screen_ellipsis());
	s = xprintf("'%s' (%.8s%s)", cut, id != NULL ? id : "?",
	    screen_ellipsis());
	free(cut);
	free(clean);
	return (s);
}

static struct rlrules_batch *
rlrules_batch_new(const char *verb, const char *undone)
{
	struct rlrules_batch	*b = xcalloc(1, sizeof *b);

	b->done_verb = verb;
	b->undone_note = undone;
	return (b);
}

/* Add op on rule rec (taken), as listed at place at (moves). */
static void
rlrules_batch_add(struct panel *p, struct rlrules_batch *b,
    enum rlrules_op op, cJSON *rec, int at)
{
	struct rlrules_call	*c;
	const char		*id = kind_record_id(p->kind, rec);
	struct buf		 name;

	if (id == NULL) {
		cJSON_Delete(rec);
		return;
	}
	b->calls = xreallocarray(b->calls, b->n + 1, sizeof *b->calls);
	c = &b->calls[b->n++];
	memset(c, 0, sizeof *c);
	c->op = op;
	c->id = xstrdup(id);
	c->at = at;
	buf_init(&name);
	panel_name_record(p, id, &name);
	c->name = buf_detach(&name, NULL);
	/* With its position as listed: the journal shows a move. */
	c->base = rec;
}

static void rlrules_batch_end(struct panel *);
static void rlrules_batch_next(struct panel *);

/* The current call done (error or note, if any, already set): the next. */
static void
rlrules_call_done(struct panel *p)
{
	struct rlrules		*s = p->priv;
	struct rlrules_batch	*b = s->batch;

	b->calls[b->next].answered = 1;
	b->next++;
	rlrules_batch_next(p);
}

/*
 * The next call: a delete is sent at once; every other write reads the
 * entry point first, to start from the rule as the server has it now.
 */
static void
rlrules_batch_next(struct panel *p)
{
	struct rlrules		*s = p->priv;
	struct rlrules_batch	*b = s->batch;
	struct rlrules_call	*c;
	struct tui_req		*r = NULL;
	char			*path, *cause = NULL;

	while (b->next < b->n) {
		c = &b->calls[b->next];
		if (c->op == RLRULES_DELETE) {
			if ((path = rlrules_path(p, s->ep, RULESETS_RULE_PATH,
			    c->id)) != NULL)
				r = tui_submit(p->tui, p, TUI_REQ_OTHER,
				    "DELETE", path, NULL);
		} else {
			if ((path = kind_list_path(p->kind, p->vars,
			    &cause)) == NULL) {
				tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
				free(cause);
			} else
				r = tui_submit(p->tui, p, TUI_REQ_OTHER, "GET",
				    path, NULL);
		}
		free(path);
		if (r != NULL) {
			r->sub = c->op == RLRULES_DELETE ? RLRULES_SUB_WRITE :
			    RLRULES_SUB_READ;
			r->id = xstrdup(c->id);
			if (c->op == RLRULES_DELETE)
				r->before = cJSON_Duplicate(c->base, 1);
			return;
		}
		c->answered = 1;
		c->error = xstrdup("not sent");
		b->next++;
	}
	rlrules_batch_end(p);
}

/* Start a batch (taken); one under way: it waits its turn. */
static void
rlrules_batch_start(struct panel *p, struct rlrules_batch *b)
{
	struct rlrules		*s = rlrules_state(p);
	struct rlrules_batch	**pp;
	size_t			 n = 1;

	if (b->n == 0) {
		rlrules_batch_free(b);
		return;
	}
	if (s->batch != NULL) {
		b->queued = 1;
		for (pp = &s->queue; *pp != NULL; pp = &(*pp)->later)
			n++;
		*pp = b;
		tui_message(p->tui, TUI_MSG_INFO, "queued after the change "
		    "under way (%zu waiting)", n);
		return;
	}
	s->batch = b;
	rlrules_batch_next(p);
}

/* "enabled rate limiting rule 'x' (…)" or "enabled 3 rules". */
static void
rlrules_batch_done_text(struct panel *p, struct rlrules_batch *b,
    struct buf *m)
{
	size_t	i, noted = 0;

	for (i = 0; i < b->n; i++)
		if (b->calls[i].note != NULL)
			noted++;
	if (b->n == 1 && noted == 1) {
		buf_addf(m, "%s %s: %s; nothing was sent", panel_noun(p),
		    b->calls[0].name, b->calls[0].note);
		return;
	}
	if (b->n == 1)
		buf_addf(m, "%s %s %s%s%s", b->done_verb, panel_noun(p),
		    b->calls[0].name, b->calls[0].moved != NULL ? " " : "",
		    b->calls[0].moved != NULL ? b->calls[0].moved : "");
	else
		buf_addf(m, "%s %zu %ss", b->done_verb, b->n, panel_noun(p));
	if (noted > 0 && b->n > 1)
		buf_addf(m, " (%zu of them already so on the server: not "
		    "sent)", noted);
}

/*
 * One message for the batch: what was done, and for a failure which rules
 * were changed and which were not (and why). Then the next one queued.
 */
static void
rlrules_batch_end(struct panel *p)
{
	struct rlrules		*s = p->priv;
	struct rlrules_batch	*b = s->batch;
	struct buf		 m;
	size_t			 i, ok = 0, sent = 0;

	for (i = 0; i < b->n; i++) {
		if (b->calls[i].answered && b->calls[i].error == NULL)
			ok++;
		if (b->calls[i].error == NULL && b->calls[i].note == NULL)
			sent++;
	}
	buf_init(&m);
	if (ok == b->n) {
		rlrules_batch_done_text(p, b, &m);
		tui_message(p->tui, sent > 0 ? TUI_MSG_OK : TUI_MSG_INFO,
		    "%s", buf_str(&m));
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
	if (sent > 0) {
		rows_mark_all(p->rows, 0);
		panel_load(p);
	}
	if ((b = s->queue) != NULL) {
		s->queue = b->later;
		b->later = NULL;
		s->batch = b;
		rlrules_batch_next(p);
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

/* PATCH the rule (theirs: as the server has it, for the journal). */
static void
rlrules_send(struct panel *p, const cJSON *ep, const cJSON *theirs,
    cJSON *body)
{
	struct rlrules		*s = p->priv;
	struct rlrules_call	*c = &s->batch->calls[s->batch->next];
	struct tui_req		*r = NULL;
	char			*path;
	int			 pos;

	if ((path = rlrules_path(p, ep, RULESETS_RULE_PATH, c->id)) != NULL)
		r = tui_submit(p->tui, p, TUI_REQ_OTHER, "PATCH", path, body);
	free(path);
	cJSON_Delete(body);
	if (r == NULL) {
		c->error = xstrdup("not sent");
		rlrules_call_done(p);
		return;
	}
	r->sub = RLRULES_SUB_WRITE;
	r->id = xstrdup(c->id);
	r->before = cJSON_Duplicate(theirs, 1);
	/* Its place then, so that the journal shows a move. */
	if (rulesets_rule_find(ep, c->id, &pos) != NULL) {
		cJSON_DeleteItemFromObjectCaseSensitive(r->before, "position");
		cJSON_AddNumberToObject(r->before, "position", pos);
	}
}

/* t: enabled set in the rule as the server has it (theirs), or nothing. */
static void
rlrules_enable_fresh(struct panel *p, struct rlrules_call *c,
    const cJSON *ep, const cJSON *theirs)
{
	struct merge	 m;
	cJSON		*mine;
	int		 on = c->op == RLRULES_ENABLE;

	if (rulesets_rule_enabled(theirs) == on) {
		c->note = xprintf("%s already on the server", on ? "enabled" :
		    "disabled");
		rlrules_call_done(p);
		return;
	}
	if ((mine = cJSON_Duplicate(c->base, 1)) == NULL)
		fatalx("out of memory");
	cJSON_DeleteItemFromObjectCaseSensitive(mine, "enabled");
	cJSON_AddBoolToObject(mine, "enabled", on);
	merge_records(p->kind, c->base, mine, theirs, &m);
	cJSON_Delete(mine);
	if (m.nconflicts > 0) {
		c->error = xstrdup("changed on the server meanwhile");
		merge_free(&m);
		rlrules_call_done(p);
		return;
	}
	rlrules_send(p, ep, theirs, rulesets_rule_body(m.merged));
	merge_free(&m);
}

/* Where a move takes a rule now at place at (of n); 0: nowhere. */
static int
rlrules_move_target(enum rlrules_op op, int at, int n)
{
	switch (op) {
	case RLRULES_UP:
		return (at > 1 ? at - 1 : 0);
	case RLRULES_DOWN:
		return (at < n ? at + 1 : 0);
	case RLRULES_FIRST:
		return (at > 1 ? 1 : 0);
	case RLRULES_LAST:
		return (at < n ? n : 0);
	default:
		return (0);
	}
}

static const char *
rlrules_move_word(enum rlrules_op op)
{
	switch (op) {
	case RLRULES_UP:
		return ("up");
	case RLRULES_DOWN:
		return ("down");
	case RLRULES_FIRST:
		return ("first");
	default:
		return ("last");
	}
}

/*
 * Move the rule, now at place at in ep, to place to: before or after the
 * rule there now, first or last, or (by_index: where the user meant it to
 * go, from a place it has no longer) to that index.
 */
static void
rlrules_move_to(struct panel *p, const cJSON *ep, int at, int to,
    int by_index)
{
	struct rlrules		*s = p->priv;
	struct rlrules_call	*c = &s->batch->calls[s->batch->next];
	const cJSON		*theirs, *other;
	const char		*oid = NULL;
	cJSON			*body, *pos;

	if (to == 0 || to == at) {
		if (to == at)
			c->note = xprintf("already #%d on the server", at);
		else
			c->note = xprintf("already %s", c->op == RLRULES_UP ||
			    c->op == RLRULES_FIRST ? "first" : "last");
		rlrules_call_done(p);
		return;
	}
	theirs = rulesets_rule_find(ep, c->id, NULL);
	other = cJSON_GetArrayItem(rulesets_rules(ep), to - 1);
	if (c->op == RLRULES_UP || c->op == RLRULES_DOWN)
		oid = kind_record_id(p->kind, other);
	/* Only its position: the rule moves unchanged (api-map-next 11.2). */
	body = cJSON_CreateObject();
	pos = cJSON_AddObjectToObject(body, "position");
	if (by_index)
		cJSON_AddNumberToObject(pos, "index", to);
	else if (c->op == RLRULES_UP || c->op == RLRULES_FIRST)
		cJSON_AddStringToObject(pos, "before", oid != NULL ? oid : "");
	else
		cJSON_AddStringToObject(pos, "after", oid != NULL ? oid : "");
	free(c->moved);
	c->moved = xprintf("%s to #%d", rlrules_move_word(c->op), to);
	rlrules_send(p, ep, theirs, body);
}

/* A move met a rule that moved on the server meanwhile: ask. */
struct rlrules_moveq {
	struct panel	*p;
	cJSON		*ep;
	int		 at;		/* where it is on the server */
	int		 to;		/* where the user meant it to go */
};

static void
rlrules_moveq_free(void *arg)
{
	struct rlrules_moveq	*q = arg;

	cJSON_Delete(q->ep);
	free(q);
}

static void
rlrules_moveq_answer(struct tui *t, void *arg, enum conflict_answer a)
{
	struct rlrules_moveq	*q = arg;
	struct rlrules		*s = q->p->priv;
	struct rlrules_call	*c;

	(void)t;
	if (s == NULL || s->batch == NULL)
		return;
	c = &s->batch->calls[s->batch->next];
	if (a == CONFLICT_MINE) {
		rlrules_move_to(q->p, q->ep, q->at, q->to, 1);
		return;
	}
	c->note = xprintf("not moved: kept its place on the server, #%d",
	    q->at);
	rlrules_call_done(q->p);
}

static void
rlrules_move_conflict(struct panel *p, struct rlrules_call *c,
    const cJSON *ep, int at, int expected, int to)
{
	struct rlrules_moveq	*q;
	struct merge_conflict	*mc;
	struct merge		 m;
	char			*what;

	q = xcalloc(1, sizeof *q);
	q->p = p;
	q->ep = cJSON_Duplicate(ep, 1);
	q->at = at;
	q->to = to;
	/* The place is the one field a move changes. */
	memset(&m, 0, sizeof m);
	m.changed = m.nconflicts = 1;
	m.conflicts = mc = xcalloc(1, sizeof *mc);
	mc->path = xstrdup("position");
	mc->keys = xcalloc(2, sizeof *mc->keys);
	mc->keys[0] = xstrdup("position");
	mc->nkeys = 1;
	mc->base = cJSON_CreateNumber(expected);
	mc->theirs = cJSON_CreateNumber(at);
	mc->mine = cJSON_CreateNumber(to);
	what = xprintf("%s %s", panel_noun(p), c->name);
	conflict_ask(p->tui, what, &m, 0, rlrules_moveq_answer, q,
	    rlrules_moveq_free);
	free(what);
	merge_free(&m);
}

/*
 * K, J, { and }: from the rule's place on the server now. One the server
 * moved meanwhile (not where the list, or the move before, put it) asks.
 */
static void
rlrules_move_fresh(struct panel *p, struct rlrules_call *c,
    const cJSON *ep)
{
	struct rlrules	*s = p->priv;
	int		 at = 0, expected = c->at, n, to;

	n = cJSON_GetArraySize(rulesets_rules(ep));
	rulesets_rule_find(ep, c->id, &at);
	if (s->batch->queued && s->place_id != NULL &&
	    strcmp(s->place_id, c->id) == 0)
		expected = s->place_at;
	if (at != expected && expected > 0) {
		/* Where the user meant it to go, from where it was then. */
		if ((to = rlrules_move_target(c->op, expected, n)) == 0)
			to = expected;
		rlrules_move_conflict(p, c, ep, at, expected,
		    MAXIMUM(1, MINIMUM(n, to)));
		return;
	}
	rlrules_move_to(p, ep, at, rlrules_move_target(c->op, at, n), 0);
}

/* The entry point read before a write came: the write, from it. */
static void
rlrules_read(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlrules		*s = p->priv;
	struct rlrules_call	*c = &s->batch->calls[s->batch->next];
	const cJSON		*theirs;

	if (ev->kind == JOBS_EVENT_FAILED) {
		c->error = xstrdup(ev->http_status == 404 ? "the zone has no "
		    "rules on the server now" : tui_cause(r, ev));
		rlrules_call_done(p);
		return;
	}
	if ((theirs = rulesets_rule_find(ev->result, c->id, NULL)) == NULL) {
		c->error = xstrdup("not found on the server (deleted "
		    "meanwhile?)");
		rlrules_call_done(p);
		return;
	}
	switch (c->op) {
	case RLRULES_ENABLE:
	case RLRULES_DISABLE:
		rlrules_enable_fresh(p, c, ev->result, theirs);
		break;
	default:
		rlrules_move_fresh(p, c, ev->result);
		break;
	}
}

/* A write's answer: journaled; a move's new place kept for the next. */
static void
rlrules_written(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlrules		*s = p->priv;
	struct rlrules_call	*c = &s->batch->calls[s->batch->next];
	int			 at;

	if (ev->kind != JOBS_EVENT_DONE) {
		c->error = xstrdup(tui_cause(r, ev));
		rlrules_call_done(p);
		return;
	}
	/* s->ep stays as listed: the reload compares the order with it. */
	rlrules_journal(p, r, ev);
	if (c->moved != NULL &&
	    rulesets_rule_find(ev->result, c->id, &at) != NULL) {
		free(s->place_id);
		s->place_id = xstrdup(c->id);
		s->place_at = at;
	}
	rlrules_call_done(p);
}

static int
rlrules_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlrules	*s = p->priv;

	if (r->type == TUI_REQ_LIST) {
		rlrules_listed(p, r, ev);
		return (0);
	}
	/* The form's and the YAML editor's writes (rlform.c). */
	if (rlform_event(p, r, ev))
		return (1);
	if (r->type != TUI_REQ_OTHER || (r->sub != RLRULES_SUB_READ &&
	    r->sub != RLRULES_SUB_WRITE))
		return (0);
	if (s == NULL || s->batch == NULL ||
	    (ev->kind != JOBS_EVENT_DONE && ev->kind != JOBS_EVENT_FAILED))
		return (1);
	if (r->sub == RLRULES_SUB_READ)
		rlrules_read(p, r, ev);
	else
		rlrules_written(p, r, ev);
	return (1);
}

/* ---- K, J, { and } ------------------------------------------------------ */

static void
rlrules_move(struct panel *p, enum rlrules_op op)
{
	struct rlrules		*s = rlrules_state(p);
	struct rlrules_batch	*b;
	const char		*id;
	cJSON			*rec;
	int			 at;

	if (tui_refuse_readonly(p->tui, "move"))
		return;
	if ((rec = panel_current_record(p)) == NULL ||
	    (id = kind_record_id(p->kind, rec)) == NULL) {
		cJSON_Delete(rec);
		return;
	}
	if (rulesets_rule_find(s->ep, id, &at) == NULL) {
		tui_message(p->tui, TUI_MSG_WARN, "this rule is not in the "
		    "entry point as last read: refresh (r); nothing was sent");
		cJSON_Delete(rec);
		return;
	}
	/* Nowhere to go as listed (and nothing under way to change that). */
	if (s->batch == NULL && rlrules_move_target(op, at,
	    cJSON_GetArraySize(rulesets_rules(s->ep))) == 0) {
		tui_message(p->tui, TUI_MSG_INFO, "the rule is already %s",
		    op == RLRULES_UP || op == RLRULES_FIRST ? "first" : "last");
		cJSON_Delete(rec);
		return;
	}
	/* Where it is as listed: the move is checked against the server's. */
	b = rlrules_batch_new("moved", "its place is unchanged");
	b->cursor_id = xstrdup(id);
	rlrules_batch_add(p, b, op, rec, at);
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

/*
 * The rules of q all set one way; those already so as listed are left
 * alone, and each of the others is read afresh before it is changed.
 */
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
		rlrules_batch_add(p, b, q->enable ? RLRULES_ENABLE :
		    RLRULES_DISABLE, rec, 0);
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
			rlrules_batch_add(p, b, RLRULES_DELETE, rec, 0);
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

/* A move asked about, with rules marked. */
struct rlrules_moveask {
	struct panel	*p;
	enum rlrules_op	 op;
};

static void
rlrules_moveask_yes(struct tui *t, void *arg, const char *answer)
{
	struct rlrules_moveask	*q = arg;

	(void)t;
	(void)answer;
	rlrules_move(q->p, q->op);
}

/*
 * K, J, { or } with rules marked: a move is of one rule, the one under the
 * cursor; the question says so rather than leave the marks unsaid.
 */
static void
rlrules_move_marked(struct panel *p, enum rlrules_op op)
{
	struct rlrules_moveask	*q;
	struct buf		 m;
	size_t			 n = rows_mark_count(p->rows);

	if (n == 0) {
		rlrules_move(p, op);
		return;
	}
	if (tui_refuse_readonly(p->tui, "move") || panel_current_id(p) == NULL)
		return;
	q = xcalloc(1, sizeof *q);
	q->p = p;
	q->op = op;
	buf_init(&m);
	buf_addf(&m, "Move %s ", panel_noun(p));
	panel_name_record(p, panel_current_id(p), &m);
	buf_addf(&m, " %s? Only the rule under the cursor moves: the %zu "
	    "marked one%s stay%s where %s. (y/n)", rlrules_move_word(op), n,
	    n == 1 ? "" : "s", n == 1 ? "s" : "", n == 1 ? "it is" :
	    "they are");
	dialog_confirm(p->tui, "move", buf_str(&m), rlrules_moveask_yes, q,
	    free);
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
		rlrules_move_marked(p, RLRULES_UP);
		return (TUI_HANDLED);
	case ACTION_MOVE_DOWN:
		rlrules_move_marked(p, RLRULES_DOWN);
		return (TUI_HANDLED);
	case ACTION_MOVE_FIRST:
		rlrules_move_marked(p, RLRULES_FIRST);
		return (TUI_HANDLED);
	case ACTION_MOVE_LAST:
		rlrules_move_marked(p, RLRULES_LAST);
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
	.row_mark = rlrules_row_mark,
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
