/*
 * The versions of the rate limiting rules' entry point (v in :rules, or
 * :rule-versions): the list, each version's rule count read in the
 * background, Enter shows one, a field diff of a version against the
 * current rules (src/rulediff.c), and restoring a version: one PUT of the
 * entry point with that version's rules, asked first (saying what would
 * change), journaled. Diff and restore read the version and the current
 * entry point afresh, so the question is about the rules as they are.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rulediff.h"
#include "rulesets.h"
#include "tui.h"
#include "xmalloc.h"

#include "panels/rlrules.h"

#define RLVERSIONS_COUNT	0x7276	/* a version read for its count */
#define RLVERSIONS_VERSION	0x7277	/* the version to diff or restore */
#define RLVERSIONS_CURRENT	0x7278	/* the entry point now */
#define RLVERSIONS_RESTORE	0x7279	/* the PUT */
#define RLVERSIONS_FRESH	0x727a	/* the entry point just before it */

/*
 * Versions whose rules are read for their count, newest first; the rest
 * show "-" (each is a request of the API's budget). A version never
 * changes: what was read is kept for the next reload.
 */
#define RLVERSIONS_COUNT_MAX	50
/* Lines of the diff a restore question shows. */
#define RLVERSIONS_QUESTION_LINES 12

struct rlversions {
	/* The versions' rules read so far, by version. */
	cJSON		 *known;
	/* The versions still to count, and the next one. */
	char		**queue;
	size_t		  nqueue;
	size_t		  next;

	/* A diff or restore under way: the version and what is done. */
	char		 *version;
	int		  restore;
	cJSON		 *vdoc;
	cJSON		 *current;
	int		  busy;
	int		  sent;		/* the PUT is on its way */
	char		 *note;		/* the title's: the current version */
};

static struct rlversions *
rlversions_state(struct panel *p)
{
	if (p->priv == NULL)
		p->priv = xcalloc(1, sizeof(struct rlversions));
	return (p->priv);
}

static void
rlversions_queue_clear(struct rlversions *s)
{
	size_t	i;

	for (i = 0; i < s->nqueue; i++)
		free(s->queue[i]);
	free(s->queue);
	s->queue = NULL;
	s->nqueue = s->next = 0;
}

static void
rlversions_op_clear(struct rlversions *s)
{
	free(s->version);
	s->version = NULL;
	cJSON_Delete(s->vdoc);
	s->vdoc = NULL;
	cJSON_Delete(s->current);
	s->current = NULL;
	s->busy = 0;
	s->sent = 0;
}

static void
rlversions_closed(struct panel *p)
{
	struct rlversions	*s = p->priv;

	rlversions_queue_clear(s);
	rlversions_op_clear(s);
	cJSON_Delete(s->known);
	p->title_note = NULL;
	free(s->note);
	s->note = NULL;
}

static char *
rlversions_entry_path(struct panel *p)
{
	char	*path, *cause = NULL;

	if ((path = kind_list_path(&kind_rate_limit_rules, p->vars,
	    &cause)) == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s", cause);
		free(cause);
	}
	return (path);
}

static struct tui_req *
rlversions_get(struct panel *p, const char *path, int sub, const char *id)
{
	struct tui_req	*r;

	r = tui_submit(p->tui, p, TUI_REQ_OTHER, "GET", path, NULL);
	if (r != NULL) {
		r->sub = sub;
		r->id = id != NULL ? xstrdup(id) : NULL;
	}
	return (r);
}

/* ---- the rule counts ---------------------------------------------------- */

static void
rlversions_count_next(struct panel *p)
{
	struct rlversions	*s = p->priv;
	char			*path;
	const char		*v;

	while (s->next < s->nqueue) {
		v = s->queue[s->next++];
		path = panel_item_path(p, v);
		if (path != NULL &&
		    rlversions_get(p, path, RLVERSIONS_COUNT, v) != NULL) {
			free(path);
			return;
		}
		free(path);
	}
}

/*
 * The versions listed (oldest first), put newest first before the list
 * takes them, the current one (the newest) named in the title: those read
 * before get their rules back; the newest others are read.
 */
static void
rlversions_listed(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlversions	*s = rlversions_state(p);
	const cJSON		*v, *rules;
	cJSON			*item;
	int			 n = 0;

	if (r->gen != p->gen || ev->kind != JOBS_EVENT_DONE ||
	    !cJSON_IsArray(ev->result))
		return;
	rlversions_queue_clear(s);
	rulesets_versions_newest_first(ev->result);
	free(s->note);
	s->note = NULL;
	v = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ev->result, 0),
	    "version");
	if (cJSON_IsString(v))
		s->note = xprintf("current: %s", v->valuestring);
	p->title_note = s->note;
	cJSON_ArrayForEach(item, ev->result) {
		v = cJSON_GetObjectItemCaseSensitive(item, "version");
		if (!cJSON_IsString(v) || cJSON_HasObjectItem(item, "rules"))
			continue;
		rules = cJSON_GetObjectItemCaseSensitive(s->known,
		    v->valuestring);
		if (rules != NULL)
			cJSON_AddItemToObject(item, "rules",
			    cJSON_Duplicate(rules, 1));
		else if (n++ < RLVERSIONS_COUNT_MAX) {
			s->queue = xreallocarray(s->queue, s->nqueue + 1,
			    sizeof *s->queue);
			s->queue[s->nqueue++] = xstrdup(v->valuestring);
		}
	}
	rlversions_count_next(p);
}

static void
rlversions_counted(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlversions	*s = p->priv;
	const cJSON		*rules;
	cJSON			*fields;

	if (r->gen != p->gen || s == NULL)
		return;
	if (ev->kind == JOBS_EVENT_DONE && r->id != NULL) {
		rules = cJSON_GetObjectItemCaseSensitive(ev->result, "rules");
		fields = cJSON_CreateObject();
		cJSON_AddItemToObject(fields, "rules", cJSON_IsArray(rules) ?
		    cJSON_Duplicate(rules, 1) : cJSON_CreateArray());
		panel_merge(p, r->id, fields);
		if (s->known == NULL)
			s->known = cJSON_CreateObject();
		cJSON_DeleteItemFromObjectCaseSensitive(s->known, r->id);
		cJSON_AddItemToObject(s->known, r->id,
		    cJSON_DetachItemFromObject(fields, "rules"));
		cJSON_Delete(fields);
	}
	rlversions_count_next(p);
}

/* ---- diff and restore --------------------------------------------------- */

/* The version under the cursor, or the one shown. */
static const char *
rlversions_current_version(struct panel *p)
{
	if (p->view == PANEL_DETAIL)
		return (kind_record_id(p->kind, p->record));
	return (panel_current_id(p));
}

/* Read version and then the entry point; the diff or question after. */
static void
rlversions_start(struct panel *p, int restore)
{
	struct rlversions	*s = rlversions_state(p);
	const char		*v;
	char			*path;

	if (restore && tui_refuse_readonly(p->tui, "restore"))
		return;
	if ((v = rlversions_current_version(p)) == NULL)
		return;
	if (s->busy) {
		tui_message(p->tui, TUI_MSG_WARN, "a diff or restore is "
		    "already under way");
		return;
	}
	if ((path = panel_item_path(p, v)) == NULL)
		return;
	rlversions_op_clear(s);
	s->version = xstrdup(v);
	s->restore = restore;
	if (rlversions_get(p, path, RLVERSIONS_VERSION, v) != NULL) {
		s->busy = 1;
		tui_message(p->tui, TUI_MSG_INFO, "reading version %s and the "
		    "current rules...", v);
	}
	free(path);
}

static const char *
rlversions_version_of(const cJSON *doc)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(doc, "version");

	return (cJSON_IsString(v) ? v->valuestring : "?");
}

static void
rlversions_show_diff(struct panel *p)
{
	struct rlversions	*s = p->priv;
	struct rulediff		 d;
	struct buf		 text, title;

	/* What changed from that version to now. */
	rulediff_compute(rulesets_rules(s->vdoc), rulesets_rules(s->current),
	    &d);
	buf_init(&text);
	buf_init(&title);
	buf_addf(&title, "rules of version %s -> current (version %s): ",
	    s->version, rlversions_version_of(s->current));
	rulediff_summary(&d, &title);
	buf_addf(&text, "From version %s to the current rules (version %s), "
	    "rule by rule (old -> new):\n\n", s->version,
	    rlversions_version_of(s->current));
	rulediff_text(&d, &text);
	tui_push(p->tui, textview_modal(buf_str(&title), buf_str(&text)));
	tui_message(p->tui, TUI_MSG_INFO, "version %s against the current "
	    "rules", s->version);
	buf_free(&text);
	buf_free(&title);
	rulediff_free(&d);
	rlversions_op_clear(s);
}

/* The PUT (body taken) over fresh, the entry point as just read. */
static void
rlversions_put(struct panel *p, cJSON *body, const cJSON *fresh)
{
	struct rlversions	*s = p->priv;
	struct tui_req		*r = NULL;
	char			*path;

	if ((path = rlversions_entry_path(p)) != NULL)
		r = tui_submit(p->tui, p, TUI_REQ_OTHER, "PUT", path, body);
	if (r != NULL) {
		r->sub = RLVERSIONS_RESTORE;
		r->id = xstrdup(s->version);
		s->sent = 1;
		r->before = fresh != NULL ? cJSON_Duplicate(fresh, 1) : NULL;
		tui_message(p->tui, TUI_MSG_INFO, "restoring version %s...",
		    s->version);
	} else
		rlversions_op_clear(s);
	cJSON_Delete(body);
	free(path);
}

/* y: the entry point read again first, for what changed since asking. */
static void
rlversions_restore_yes(struct tui *t, void *arg, const char *answer)
{
	struct panel		*p = arg;
	struct rlversions	*s = p->priv;
	char			*path;

	(void)t;
	(void)answer;
	if (s == NULL || s->vdoc == NULL ||
	    (path = rlversions_entry_path(p)) == NULL) {
		if (s != NULL)
			rlversions_op_clear(s);
		return;
	}
	if (rlversions_get(p, path, RLVERSIONS_FRESH, s->version) != NULL)
		s->sent = 1;
	else
		rlversions_op_clear(s);
	free(path);
}

/* A restore that met changes made since the question. */
struct rlversions_conflict {
	struct panel		*p;
	cJSON			*fresh;
	struct rulediff_restore	 rm;
};

static void
rlversions_conflict_free(void *arg)
{
	struct rlversions_conflict	*c = arg;

	cJSON_Delete(c->fresh);
	rulediff_restore_free(&c->rm);
	free(c);
}

static void rlversions_ask_restore(struct panel *);

static void
rlversions_conflict_answer(struct tui *t, void *arg, enum conflict_answer a)
{
	struct rlversions_conflict	*c = arg;
	struct rlversions		*s = c->p->priv;
	cJSON				*body;

	(void)t;
	if (s == NULL || s->vdoc == NULL)
		return;
	switch (a) {
	case CONFLICT_THEIRS:
	case CONFLICT_MINE:
		body = a == CONFLICT_MINE ? c->rm.mine_body :
		    c->rm.theirs_body;
		rlversions_put(c->p, cJSON_Duplicate(body, 1), c->fresh);
		break;
	case CONFLICT_EDIT:
		/* The question again, about the rules as they are now. */
		cJSON_Delete(s->current);
		s->current = cJSON_Duplicate(c->fresh, 1);
		s->sent = 0;
		rlversions_ask_restore(c->p);
		break;
	case CONFLICT_CANCEL:
		rlversions_op_clear(s);
		break;
	}
}

/*
 * The entry point as it is just before the PUT: unchanged since the
 * question, the restore goes as asked; else it is merged rule by rule
 * with what changed meanwhile, and a rule both changed asks first.
 */
static void
rlversions_fresh(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlversions		*s = p->priv;
	struct rlversions_conflict	*c;
	const cJSON			*fresh = NULL;
	char				*what;

	if (s == NULL || s->vdoc == NULL)
		return;
	if (ev->kind == JOBS_EVENT_FAILED && ev->http_status != 404) {
		tui_message(p->tui, TUI_MSG_ERROR, "version %s not restored: "
		    "the current rules could not be read again (%s); nothing "
		    "was sent", s->version, tui_cause(r, ev));
		rlversions_op_clear(s);
		return;
	}
	if (ev->kind == JOBS_EVENT_DONE)
		fresh = ev->result;
	if ((s->current == NULL && fresh == NULL) || (s->current != NULL &&
	    fresh != NULL && strcmp(rlversions_version_of(s->current),
	    rlversions_version_of(fresh)) == 0)) {
		rlversions_put(p, rulediff_restore_body(s->vdoc, fresh, NULL,
		    NULL), fresh);
		return;
	}
	c = xcalloc(1, sizeof *c);
	c->p = p;
	c->fresh = fresh != NULL ? cJSON_Duplicate(fresh, 1) : NULL;
	rulediff_restore_merge(s->vdoc, s->current, fresh, &c->rm);
	if (c->rm.m.nconflicts == 0) {
		rlversions_put(p, cJSON_Duplicate(c->rm.theirs_body, 1),
		    fresh);
		tui_message(p->tui, TUI_MSG_INFO, "restoring version %s, with "
		    "the changes made meanwhile to rules it leaves alone...",
		    s->version);
		rlversions_conflict_free(c);
		return;
	}
	what = xprintf("the rules restored from version %s (now version %s)",
	    s->version, rlversions_version_of(fresh));
	conflict_ask(p->tui, what, &c->rm.m, 1, rlversions_conflict_answer, c,
	    rlversions_conflict_free);
	free(what);
}

static void
rlversions_question_done(void *arg)
{
	struct panel		*p = arg;
	struct rlversions	*s = p->priv;

	/* After either answer: a PUT sent keeps the state for its answer. */
	if (s != NULL && !s->sent)
		rlversions_op_clear(s);
}

/* The question says what would change, in a few lines. */
static void
rlversions_ask_restore(struct panel *p)
{
	struct rlversions	*s = p->priv;
	struct rulediff		 d;
	struct buf		 q, text;
	const char		*line, *nl;
	size_t			 kept, renewed, shown = 0, more = 0;
	cJSON			*body;

	rulediff_compute(rulesets_rules(s->current), rulesets_rules(s->vdoc),
	    &d);
	if (d.n == 0) {
		tui_message(p->tui, TUI_MSG_INFO, "version %s has the same "
		    "rules as the current one: nothing to restore", s->version);
		rulediff_free(&d);
		rlversions_op_clear(s);
		return;
	}
	body = rulediff_restore_body(s->vdoc, s->current, &kept, &renewed);
	cJSON_Delete(body);
	buf_init(&q);
	buf_init(&text);
	buf_addf(&q, "Restore version %s? The entry point's rules (version "
	    "%s now) become the %d of version %s, in one PUT: ", s->version,
	    rlversions_version_of(s->current),
	    cJSON_GetArraySize(rulesets_rules(s->vdoc)), s->version);
	rulediff_summary(&d, &q);
	buf_adds(&q, ".");
	if (renewed > 0)
		buf_addf(&q, " %zu rule%s deleted since come%s back with a new "
		    "id.", renewed, renewed == 1 ? "" : "s",
		    renewed == 1 ? "s" : "");
	buf_adds(&q, "\n");
	rulediff_text(&d, &text);
	for (line = buf_str(&text); *line != '\0'; line = nl + 1) {
		if ((nl = strchr(line, '\n')) == NULL)
			break;
		if (shown < RLVERSIONS_QUESTION_LINES) {
			buf_addf(&q, "%.*s\n", (int)(nl - line), line);
			shown++;
		} else
			more++;
	}
	if (more > 0)
		buf_addf(&q, "(%zu more lines: the diff shows them all)\n",
		    more);
	buf_adds(&q, "(y/n)");
	dialog_confirm(p->tui, "restore", buf_str(&q), rlversions_restore_yes,
	    p, rlversions_question_done);
	tui_message(p->tui, TUI_MSG_INFO, "restore version %s?", s->version);
	buf_free(&text);
	buf_free(&q);
	rulediff_free(&d);
}

static void
rlversions_answer(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlversions	*s = p->priv;
	char			*path;

	if (s == NULL || s->version == NULL)
		return;
	if (ev->kind == JOBS_EVENT_FAILED) {
		/* No entry point now: restoring makes it again. */
		if (r->sub == RLVERSIONS_CURRENT && ev->http_status == 404)
			s->current = NULL;
		else {
			tui_message(p->tui, TUI_MSG_ERROR, "version %s: %s %s: "
			    "%s", s->version, r->method, r->path,
			    tui_cause(r, ev));
			rlversions_op_clear(s);
			return;
		}
	} else if (r->sub == RLVERSIONS_VERSION)
		s->vdoc = cJSON_Duplicate(ev->result, 1);
	else
		s->current = cJSON_Duplicate(ev->result, 1);
	if (r->sub == RLVERSIONS_VERSION) {
		if ((path = rlversions_entry_path(p)) == NULL ||
		    rlversions_get(p, path, RLVERSIONS_CURRENT, NULL) ==
		    NULL)
			rlversions_op_clear(s);
		free(path);
		return;
	}
	if (s->restore)
		rlversions_ask_restore(p);
	else
		rlversions_show_diff(p);
}

/* Reload the rules panel if open, and this list: a new version. */
static void
rlversions_restored(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlversions	*s = p->priv;
	struct tui		*t = p->tui;
	size_t			 i;

	if (s != NULL)
		rlversions_op_clear(s);
	if (ev->kind == JOBS_EVENT_FAILED) {
		tui_message(t, TUI_MSG_ERROR, "version %s not restored "
		    "(the rules are as they were): %s", r->id,
		    tui_cause(r, ev));
		return;
	}
	tui_journal(t, r, ev->http_status, ev->result);
	tui_message(t, TUI_MSG_OK, "restored the rules of version %s as "
	    "version %s", r->id, rlversions_version_of(ev->result));
	for (i = 0; i < t->npanels; i++)
		if (t->panels[i]->kind == &kind_rate_limit_rules)
			panel_load(t->panels[i]);
	panel_load(p);
}

static int
rlversions_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	if (r->type == TUI_REQ_LIST) {
		rlversions_listed(p, r, ev);
		return (0);
	}
	if (r->type != TUI_REQ_OTHER)
		return (0);
	if (ev->kind != JOBS_EVENT_DONE && ev->kind != JOBS_EVENT_FAILED)
		return (r->sub >= RLVERSIONS_COUNT &&
		    r->sub <= RLVERSIONS_FRESH);
	switch (r->sub) {
	case RLVERSIONS_COUNT:
		rlversions_counted(p, r, ev);
		return (1);
	case RLVERSIONS_VERSION:
	case RLVERSIONS_CURRENT:
		rlversions_answer(p, r, ev);
		return (1);
	case RLVERSIONS_RESTORE:
		rlversions_restored(p, r, ev);
		return (1);
	case RLVERSIONS_FRESH:
		rlversions_fresh(p, r, ev);
		return (1);
	default:
		return (0);
	}
}

static int
rlversions_action(struct panel *p, enum action a)
{
	switch (a) {
	case ACTION_NEW:
	case ACTION_EDIT:
	case ACTION_EDIT_YAML:
	case ACTION_DELETE:
		tui_message(p->tui, TUI_MSG_WARN, "a version cannot be "
		    "changed: restore one instead (nothing was sent)");
		return (TUI_HANDLED);
	default:
		return (rlversions_kind_action(p, a));
	}
}

/* The keys of the rule-versions key context; 0 for any other. */
int
rlversions_kind_action(struct panel *p, enum action a)
{
	switch (a) {
	case ACTION_VERSION_DIFF:
	case ACTION_VERSION_RESTORE:
		rlversions_start(p, a == ACTION_VERSION_RESTORE);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

/* v in the rules panel: the versions, q back to the rules. */
void
rlversions_open(struct panel *rules)
{
	struct panel	*p;

	p = tui_open_kind(rules->tui, &kind_rule_versions);
	if (p == NULL)
		return;
	p->parent = rules;
	if (p->loaded && !p->loading)
		panel_load(p);
}

const struct panel_ops panel_rule_versions_ops = {
	.kind = "rule-versions",
	.action = rlversions_action,
	.event = rlversions_event,
	.closed = rlversions_closed,
	.hints = (const struct panel_hint[]){
		{ ACTION_VERSION_DIFF, "diff" },
		{ ACTION_VERSION_RESTORE, "restore" },
		{ ACTION_NONE, NULL }
	},
	.readonly = 1,
};
