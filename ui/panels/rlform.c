/*
 * n and e in the rate limiting rules panel: a rule's form with pickers of
 * the values the profile's plan allows, the expression editor for both
 * expressions, V to validate with the server (dry_run) and S to save. The
 * form stays open while its request is on its way, and a refusal is shown
 * in it with everything typed still there.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "configfile.h"
#include "edit.h"
#include "exprtext.h"
#include "log.h"
#include "merge.h"
#include "rlrule.h"
#include "rulesets.h"
#include "screen.h"
#include "text.h"
#include "tui.h"
#include "widgets/exprview.h"
#include "widgets/line.h"
#include "xmalloc.h"
#include "yamljson.h"

#include "resource.h"
#include "panels/rlform.h"
#include "panels/rlrules.h"
#include "panels/rltest.h"

/* What a write's request is (struct tui_req's sub). */
#define RLFORM_SUB_EP		0x726c01	/* GET the entry point */
#define RLFORM_SUB_CREATE	0x726c02	/* POST rulesets: make it */
#define RLFORM_SUB_WRITE	0x726c03	/* POST or PATCH the rule */

enum rlform_type {
	RLFT_PICK,		/* one of a list: a picker */
	RLFT_TOGGLE,		/* yes or no */
	RLFT_TEXT,
	RLFT_NUMBER,
	RLFT_EXPR		/* the expression editor */
};

/* In the order the form shows them: the rule's name first. */
enum rlform_id {
	RLF_DESCRIPTION,
	RLF_ACTION,
	RLF_ENABLED,
	RLF_REQUESTS,
	RLF_PERIOD,
	RLF_TIMEOUT,
	RLF_CHARS,
	RLF_ORIGIN,
	RLF_STATUS,
	RLF_CTYPE,
	RLF_BODY,
	RLF_COUNTING,
	RLF_EXPR,
	RLF_N
};

static const struct rlform_field {
	const char		*label;
	enum rlform_type	 type;
	const char		*path;	/* lint's field name */
	const char		*help;
} rlform_fields[RLF_N] = {
	[RLF_ACTION] = { "action", RLFT_PICK, "action",
	    "What happens to a client over the rate" },
	[RLF_DESCRIPTION] = { "description", RLFT_TEXT, "description",
	    "What the rule is for" },
	[RLF_ENABLED] = { "enabled", RLFT_TOGGLE, "enabled",
	    "Whether the rule applies" },
	[RLF_REQUESTS] = { "requests per period", RLFT_NUMBER,
	    "ratelimit.requests_per_period",
	    "Requests in a period above which the action applies" },
	[RLF_PERIOD] = { "period", RLFT_PICK, "ratelimit.period",
	    "Seconds over which requests are counted (the plan's values)" },
	[RLF_TIMEOUT] = { "mitigation timeout", RLFT_PICK,
	    "ratelimit.mitigation_timeout",
	    "Seconds the action lasts; 0 throttles (only the requests over "
	    "the rate)" },
	[RLF_CHARS] = { "characteristics", RLFT_PICK,
	    "ratelimit.characteristics",
	    "What counters are kept per; cf.colo.id is required" },
	[RLF_ORIGIN] = { "requests to origin", RLFT_TOGGLE,
	    "ratelimit.requests_to_origin",
	    "Count only the requests that reach the origin (not cached ones)" },
	[RLF_STATUS] = { "block: status code", RLFT_NUMBER,
	    "action_parameters.response.status_code",
	    "The block's response status, 400 to 499; empty: the default "
	    "429 page" },
	[RLF_CTYPE] = { "block: content type", RLFT_PICK,
	    "action_parameters.response.content_type",
	    "The block's response type" },
	[RLF_BODY] = { "block: body", RLFT_TEXT,
	    "action_parameters.response.content",
	    "The block's response body" },
	[RLF_COUNTING] = { "counting expression", RLFT_EXPR,
	    "ratelimit.counting_expression",
	    "Which requests count, when not those the expression matches "
	    "(may use the response); empty: the expression" },
	[RLF_EXPR] = { "expression", RLFT_EXPR, "expression",
	    "Which requests the rule applies to, in the Rules language" },
};

#define RLFORM_PICKS	32
#define RLFORM_ANSWER_ROWS	3	/* past them, ! shows it all */

struct rlform {
	struct modal	 m;
	struct tui	*t;
	struct panel	*p;
	char		*id;		/* the rule's; NULL: a new one */
	cJSON		*orig;		/* the rule as listed, or NULL */
	enum expr_plan	 plan;
	char		*val[RLF_N];
	char		*initial[RLF_N];
	size_t		 focus;		/* an enum rlform_id */
	size_t		 top;		/* first shown, in visible order */
	int		 editing;	/* typing in val[focus] */
	struct line	 line;
	char		*answer;	/* the last word on the rule, or NULL */
	int		 answer_ok;
	struct tui_req	*req;		/* on its way, or NULL */
	int		 saving;	/* req is a save: the form may close */
	/* The picker open: the values its items stand for. */
	enum rlform_id	 pick_field;
	char		*picks[RLFORM_PICKS];
	size_t		 npicks;
};

static void	 rlform_keep_lint(struct rlform *);
static void	 rlform_focus(struct rlform *, size_t);
static int	 rlform_lint(const struct rlform *, enum rlform_id,
		     struct expr_error *);
static void	 rlform_answer(struct rlform *, int, const char *, ...)
		     __attribute__((__format__(__printf__, 3, 4)));

/* ---- values -------------------------------------------------------------- */

/* A value changed: the last answer was about the rule as it was. */
static void
rlform_set(struct rlform *f, enum rlform_id i, const char *s)
{
	free(f->val[i]);
	f->val[i] = xstrdup(s != NULL ? s : "");
	free(f->answer);
	f->answer = NULL;
}

static const cJSON *
rlform_get(const cJSON *o, const char *a, const char *b)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, a);

	return (b != NULL ? cJSON_GetObjectItemCaseSensitive(v, b) : v);
}

static void
rlform_set_string(struct rlform *f, enum rlform_id i, const cJSON *v)
{
	rlform_set(f, i, cJSON_IsString(v) ? v->valuestring : "");
}

static void
rlform_set_number(struct rlform *f, enum rlform_id i, const cJSON *v,
    const char *none)
{
	char	*s;

	if (!cJSON_IsNumber(v)) {
		rlform_set(f, i, none);
		return;
	}
	s = xprintf("%.15g", v->valuedouble);
	rlform_set(f, i, s);
	free(s);
}

static void
rlform_set_chars(struct rlform *f, const cJSON *list)
{
	free(f->val[RLF_CHARS]);
	f->val[RLF_CHARS] = rulesets_characteristics_text(list);
}

/*
 * Of the values the plan allows in a list, the largest up to prefer, else
 * the smallest; the list's first when it allows none.
 */
static int
rlform_first_ok(struct rlform *f, const int *list, size_t n, int period,
    int prefer)
{
	size_t	i;
	int	ok, best = -1;

	for (i = 0; i < n; i++) {
		ok = period ? rlrule_period_ok(list[i], f->plan) :
		    rlrule_timeout_ok(list[i], f->val[RLF_ACTION], f->plan);
		if (ok && (best < 0 || list[i] <= prefer))
			best = list[i];
	}
	return (best >= 0 ? best : list[0]);
}

/* A new rule: what the plan allows, counted per data centre and IP. */
static void
rlform_defaults(struct rlform *f)
{
	char	*s;

	rlform_set(f, RLF_ACTION, "block");
	rlform_set(f, RLF_DESCRIPTION, "");
	rlform_set(f, RLF_ENABLED, "yes");
	rlform_set(f, RLF_REQUESTS, "100");
	s = xprintf("%d", rlform_first_ok(f, rlrule_periods, rlrule_nperiods,
	    1, 60));
	rlform_set(f, RLF_PERIOD, s);
	free(s);
	s = xprintf("%d", rlform_first_ok(f, rlrule_timeouts,
	    rlrule_ntimeouts, 0, 600));
	rlform_set(f, RLF_TIMEOUT, s);
	free(s);
	rlform_set(f, RLF_CHARS, "cf.colo.id, ip.src");
	rlform_set(f, RLF_ORIGIN, "no");
	rlform_set(f, RLF_STATUS, "");
	rlform_set(f, RLF_CTYPE, "");
	rlform_set(f, RLF_BODY, "");
	rlform_set(f, RLF_COUNTING, "");
	rlform_set(f, RLF_EXPR, "");
}

static void
rlform_load(struct rlform *f, const cJSON *r)
{
	const cJSON	*resp;

	rlform_set_string(f, RLF_ACTION, rlform_get(r, "action", NULL));
	rlform_set_string(f, RLF_DESCRIPTION, rlform_get(r, "description",
	    NULL));
	rlform_set(f, RLF_ENABLED, cJSON_IsFalse(rlform_get(r, "enabled",
	    NULL)) ? "no" : "yes");
	rlform_set_number(f, RLF_REQUESTS, rlform_get(r, "ratelimit",
	    "requests_per_period"), "");
	rlform_set_number(f, RLF_PERIOD, rlform_get(r, "ratelimit", "period"),
	    "");
	/* Absent reads as 0 (api-map-next 11.4). */
	rlform_set_number(f, RLF_TIMEOUT, rlform_get(r, "ratelimit",
	    "mitigation_timeout"), "0");
	rlform_set_chars(f, rlform_get(r, "ratelimit", "characteristics"));
	rlform_set(f, RLF_ORIGIN, cJSON_IsTrue(rlform_get(r, "ratelimit",
	    "requests_to_origin")) ? "yes" : "no");
	resp = rlform_get(rlform_get(r, "action_parameters", NULL),
	    "response", NULL);
	rlform_set_number(f, RLF_STATUS, rlform_get(resp, "status_code",
	    NULL), "");
	rlform_set_string(f, RLF_CTYPE, rlform_get(resp, "content_type",
	    NULL));
	rlform_set_string(f, RLF_BODY, rlform_get(resp, "content", NULL));
	rlform_set_string(f, RLF_COUNTING, rlform_get(r, "ratelimit",
	    "counting_expression"));
	rlform_set_string(f, RLF_EXPR, rlform_get(r, "expression", NULL));
}

static int
rlform_changed(const struct rlform *f)
{
	size_t	i;

	for (i = 0; i < RLF_N; i++)
		if (strcmp(f->val[i], f->initial[i]) != 0)
			return (1);
	return (0);
}

/* The block's response fields show only for block. */
static int
rlform_visible(const struct rlform *f, size_t i)
{
	if (i == RLF_STATUS || i == RLF_CTYPE || i == RLF_BODY)
		return (strcmp(f->val[RLF_ACTION], "block") == 0);
	return (1);
}

/* ---- the rule ------------------------------------------------------------ */

/* A whole number typed in field i; -1 with *cause. */
static int
rlform_number(const struct rlform *f, enum rlform_id i, long *out,
    char **cause)
{
	const char	*s = f->val[i];
	char		*end;

	errno = 0;
	*out = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || *out < 0 ||
	    *out > INT_MAX) {
		*cause = xprintf("%s: '%.40s' is not a whole number",
		    rlform_fields[i].label, s);
		return (-1);
	}
	return (0);
}

static cJSON *
rlform_object(cJSON *o, const char *key)
{
	cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (cJSON_IsObject(v))
		return (v);
	cJSON_DeleteItemFromObjectCaseSensitive(o, key);
	return (cJSON_AddObjectToObject(o, key));
}

static void
rlform_put(cJSON *o, const char *key, cJSON *v)
{
	cJSON_DeleteItemFromObjectCaseSensitive(o, key);
	if (v != NULL)
		cJSON_AddItemToObject(o, key, v);
}

/* The block's response, or NULL (none: all three empty). */
static int
rlform_response(const struct rlform *f, cJSON *rule, char **cause)
{
	cJSON	*ap, *resp;
	long	 status;

	if (strcmp(f->val[RLF_ACTION], "block") != 0) {
		rlform_put(rule, "action_parameters", NULL);
		return (0);
	}
	if (*f->val[RLF_STATUS] == '\0' && *f->val[RLF_CTYPE] == '\0' &&
	    *f->val[RLF_BODY] == '\0') {
		if ((ap = cJSON_GetObjectItemCaseSensitive(rule,
		    "action_parameters")) != NULL) {
			cJSON_DeleteItemFromObjectCaseSensitive(ap, "response");
			if (cJSON_GetArraySize(ap) == 0)
				rlform_put(rule, "action_parameters", NULL);
		}
		return (0);
	}
	if (rlform_number(f, RLF_STATUS, &status, cause) != 0)
		return (-1);
	ap = rlform_object(rule, "action_parameters");
	resp = rlform_object(ap, "response");
	rlform_put(resp, "status_code", cJSON_CreateNumber((double)status));
	rlform_put(resp, "content_type", cJSON_CreateString(
	    f->val[RLF_CTYPE]));
	rlform_put(resp, "content", cJSON_CreateString(f->val[RLF_BODY]));
	return (0);
}

/*
 * The rule as typed, over the one edited (what the form does not show,
 * such as ref or logging, is kept: a PATCH replaces the rule). NULL with
 * *cause when a number is not one.
 */
static cJSON *
rlform_rule(const struct rlform *f, char **cause)
{
	cJSON	*rule, *rl;
	long	 n;

	rule = f->orig != NULL ? cJSON_Duplicate(f->orig, 1) :
	    cJSON_CreateObject();
	if (rule == NULL)
		fatalx("out of memory");
	rlform_put(rule, "action", cJSON_CreateString(f->val[RLF_ACTION]));
	rlform_put(rule, "description", cJSON_CreateString(
	    f->val[RLF_DESCRIPTION]));
	rlform_put(rule, "enabled", cJSON_CreateBool(
	    strcmp(f->val[RLF_ENABLED], "yes") == 0));
	rlform_put(rule, "expression", cJSON_CreateString(f->val[RLF_EXPR]));
	rl = rlform_object(rule, "ratelimit");
	rlform_put(rl, "characteristics", rulesets_characteristics_parse(
	    f->val[RLF_CHARS]));
	if (rlform_number(f, RLF_PERIOD, &n, cause) != 0)
		goto fail;
	rlform_put(rl, "period", cJSON_CreateNumber((double)n));
	if (*f->val[RLF_REQUESTS] == '\0' &&
	    cJSON_GetObjectItemCaseSensitive(rl, "score_per_period") != NULL)
		rlform_put(rl, "requests_per_period", NULL);
	else {
		if (rlform_number(f, RLF_REQUESTS, &n, cause) != 0)
			goto fail;
		rlform_put(rl, "requests_per_period",
		    cJSON_CreateNumber((double)n));
	}
	if (rlform_number(f, RLF_TIMEOUT, &n, cause) != 0)
		goto fail;
	rlform_put(rl, "mitigation_timeout", cJSON_CreateNumber((double)n));
	rlform_put(rl, "requests_to_origin", cJSON_CreateBool(
	    strcmp(f->val[RLF_ORIGIN], "yes") == 0));
	rlform_put(rl, "counting_expression", *f->val[RLF_COUNTING] != '\0' ?
	    cJSON_CreateString(f->val[RLF_COUNTING]) : NULL);
	if (rlform_response(f, rule, cause) != 0)
		goto fail;
	return (rule);
fail:
	cJSON_Delete(rule);
	return (NULL);
}

/*
 * The rule as the form started: its first values over the rule edited.
 * A save merges from it, so only the fields typed in count as changed
 * (a value the form always writes, such as requests_to_origin: false for
 * one left out, is no change of the user's).
 */
static cJSON *
rlform_initial_rule(struct rlform *f)
{
	char	*typed[RLF_N], *cause = NULL;
	cJSON	*rule;

	memcpy(typed, f->val, sizeof typed);
	memcpy(f->val, f->initial, sizeof typed);
	rule = rlform_rule(f, &cause);
	memcpy(f->val, typed, sizeof typed);
	free(cause);
	if (rule == NULL && f->orig != NULL &&
	    (rule = cJSON_Duplicate(f->orig, 1)) == NULL)
		fatalx("out of memory");
	return (rule);
}

/* The field a lint problem is about. */
static enum rlform_id
rlform_field_of(const char *path)
{
	size_t	i, n;

	for (i = 0; i < RLF_N; i++) {
		n = strlen(rlform_fields[i].path);
		if (strncmp(path, rlform_fields[i].path, n) == 0 &&
		    (path[n] == '\0' || path[n] == '[' || path[n] == '.'))
			return ((enum rlform_id)i);
	}
	if (strncmp(path, "action_parameters", 17) == 0)
		return (RLF_STATUS);
	return (RLF_EXPR);
}

/*
 * For a new rule: that the plan's quota has no room for it (the service
 * refuses it whole), or NULL. The rules are counted as last listed.
 */
static char *
rlform_quota(const struct rlform *f)
{
	struct rlrule_problem	p;
	int			n;

	if (f->id != NULL || (n = rlrules_count(f->p)) < 0 ||
	    rlrule_quota(n + 1, f->plan, &p) == 0)
		return (NULL);
	return (xprintf("the zone has %d rule%s: with a new one, %s (delete "
	    "one first, or set the profile's plan:)", n, n == 1 ? "" : "s",
	    p.message));
}

/* The rule to send, checked as the service would on the plan; or NULL. */
static cJSON *
rlform_checked(struct rlform *f)
{
	struct rulesets_lint	 l;
	cJSON			*rule;
	char			*cause = NULL, *where;

	if ((cause = rlform_quota(f)) != NULL) {
		rlform_answer(f, 0, "%s; nothing was sent", cause);
		free(cause);
		return (NULL);
	}
	if ((rule = rlform_rule(f, &cause)) == NULL) {
		rlform_answer(f, 0, "%s; nothing was sent", cause);
		free(cause);
		return (NULL);
	}
	if (rulesets_lint(rule, f->plan, &l) == 0)
		return (rule);
	cJSON_Delete(rule);
	rlform_focus(f, rlform_field_of(l.field));
	if (l.err.column > 0 && l.text != NULL) {
		where = expr_error_where(l.text, &l.err);
		rlform_answer(f, 0, "%s: %s: %s; nothing was sent", l.field,
		    where, l.err.message);
		free(where);
	} else if (l.err.column > 0)
		rlform_answer(f, 0, "%s: column %d: %s; nothing was sent",
		    l.field, l.err.column, l.err.message);
	else
		rlform_answer(f, 0, "%s: %s; nothing was sent", l.field,
		    l.err.message);
	return (NULL);
}

/* ---- the write ----------------------------------------------------------- */

static char *
rlform_path(struct panel *p, const char *tmpl, const char *ruleset,
    const char *id, int dry)
{
	struct api_var	 vars[EDGE_SCOPE_NVARS + 3];
	char		*path, *full, *cause = NULL;
	size_t		 n = 0;

	if (ruleset != NULL) {
		vars[n].name = "ruleset";
		vars[n++].value = ruleset;
	}
	if (id != NULL) {
		vars[n].name = "id";
		vars[n++].value = id;
	}
	memcpy(vars + n, p->vars, sizeof p->vars);
	vars[n + EDGE_SCOPE_NVARS].name = NULL;
	if ((path = api_path(tmpl, vars, &cause)) == NULL) {
		tui_message(p->tui, TUI_MSG_ERROR, "%s: %s", p->kind->name,
		    cause);
		free(cause);
		return (NULL);
	}
	if (!dry)
		return (path);
	full = xprintf("%s?dry_run=true", path);
	free(path);
	return (full);
}

static int
rlform_dry(const struct tui_req *r)
{
	return (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r->data,
	    "dry")));
}

static const cJSON *
rlform_data_rule(const struct tui_req *r)
{
	return (cJSON_GetObjectItemCaseSensitive(r->data, "rule"));
}

/* The next request of a write, carrying its state on. */
static struct tui_req *
rlform_next(struct panel *p, struct tui_req *from, int sub,
    const char *method, const char *path, const cJSON *body)
{
	struct tui_req	*r;

	if ((r = tui_submit(p->tui, p, TUI_REQ_OTHER, method, path,
	    body)) == NULL)
		return (NULL);
	r->sub = sub;
	r->id = from->id != NULL ? xstrdup(from->id) : NULL;
	r->before = from->before != NULL ? cJSON_Duplicate(from->before, 1) :
	    NULL;
	if ((r->data = cJSON_Duplicate(from->data, 1)) == NULL)
		fatalx("out of memory");
	r->modal = from->modal;
	if (r->modal != NULL)
		((struct rlform *)r->modal)->req = r;
	return (r);
}

struct tui_req *
rlform_write(struct panel *p, const char *id, const cJSON *rule,
    const cJSON *before, int dry, struct modal *form, const char *text)
{
	struct tui_req	*r;
	char		*path;

	if (!dry && tui_refuse_readonly(p->tui, "save"))
		return (NULL);
	if ((path = rlform_path(p, RULESETS_ENTRYPOINT_PATH, NULL, NULL,
	    0)) == NULL)
		return (NULL);
	r = tui_submit(p->tui, p, TUI_REQ_OTHER, "GET", path, NULL);
	free(path);
	if (r == NULL)
		return (NULL);
	r->sub = RLFORM_SUB_EP;
	r->id = id != NULL ? xstrdup(id) : NULL;
	r->before = before != NULL ? cJSON_Duplicate(before, 1) : NULL;
	r->data = cJSON_CreateObject();
	cJSON_AddItemToObject(r->data, "rule", cJSON_Duplicate(rule, 1));
	cJSON_AddBoolToObject(r->data, "dry", dry);
	if (text != NULL)
		cJSON_AddStringToObject(r->data, "text", text);
	r->modal = form;
	return (r);
}

void
rlform_forget(struct tui *t, struct tui_req *r)
{
	if (r != NULL && tui_req_known(t, r))
		r->modal = NULL;
}

/* A write refused or failed: in its form, else offered again as YAML. */
static void
rlform_refused(struct panel *p, struct tui_req *r, const char *why)
{
	struct rlform	*f = (struct rlform *)r->modal;
	const cJSON	*text;
	char		*msg;

	if (f != NULL) {
		f->req = NULL;
		rlform_answer(f, 0, "%s: %s", rlform_dry(r) ?
		    "the server refuses this rule" : "refused by the server",
		    why);
		tui_message(p->tui, TUI_MSG_ERROR, "%s: the form shows why; "
		    "nothing was changed", rlform_dry(r) ? "not valid" :
		    "not saved");
		return;
	}
	text = cJSON_GetObjectItemCaseSensitive(r->data, "text");
	if (cJSON_IsString(text)) {
		msg = xprintf("Refused by the server: %s", why);
		rlyaml_refused(p, r->id, r->before, text->valuestring, msg);
		free(msg);
		return;
	}
	tui_message(p->tui, TUI_MSG_ERROR, "%s: %s", p->kind->name, why);
}

/* Close a form wherever it is on the stack (a dialog may be on top). */
static void
rlform_close(struct tui *t, struct modal *m)
{
	struct modal	**pp;

	for (pp = &t->modal; *pp != NULL; pp = &(*pp)->below) {
		if (*pp == m) {
			*pp = m->below;
			m->free(m);
			t->dirty = 1;
			return;
		}
	}
}

static void
rlform_written(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	struct rlform	*f = (struct rlform *)r->modal;
	const cJSON	*rule, *id, *ep;
	const char	*desc;
	char		*cut;

	if (rlform_dry(r)) {
		if (f != NULL) {
			f->req = NULL;
			rlform_answer(f, 1, "the server accepts this rule "
			    "(dry run: nothing was saved)");
		} else
			tui_message(p->tui, TUI_MSG_OK, "the server accepts "
			    "this rule (dry run: nothing was saved)");
		return;
	}
	/* The answer is the whole ruleset: find the rule written in it. */
	ep = cJSON_GetObjectItemCaseSensitive(r->data, "ep");
	rule = r->id != NULL ? rulesets_rule_find(ev->result, r->id, NULL) :
	    rulesets_rule_added(ep, ev->result);
	tui_journal(p->tui, r, ev->http_status, rule);
	id = cJSON_GetObjectItemCaseSensitive(rule, "id");
	if (cJSON_IsString(id)) {
		free(p->cursor_id);
		p->cursor_id = xstrdup(id->valuestring);
	}
	desc = cJSON_IsString(rlform_get(rlform_data_rule(r), "description",
	    NULL)) ? rlform_get(rlform_data_rule(r), "description",
	    NULL)->valuestring : "";
	/* Cut by columns with an ellipsis: a byte cut may split a letter. */
	desc = cut = text_ellipsize(desc, 60, screen_ellipsis());
	tui_message(p->tui, TUI_MSG_OK, "%s rate limiting rule '%s'%s%s",
	    r->id != NULL ? "saved" : "created", desc,
	    cJSON_IsString(id) ? " " : "", cJSON_IsString(id) ?
	    id->valuestring : "");
	free(cut);
	if (f != NULL) {
		f->req = NULL;
		rlform_close(p->tui, &f->m);
	}
	/* Details opened on the rule show it as saved. */
	if (p->view == PANEL_DETAIL && rule != NULL)
		panel_show_record(p, rule);
	panel_load(p);
}

/*
 * The PATCH of rule (the whole rule: the API's PATCH is not a merge) into
 * ep, the entry point as just read; theirs, the rule there, is what the
 * journal keeps as before. A rule already so is not sent.
 */
static void
rlform_patch(struct panel *p, struct tui_req *r, const cJSON *ep,
    const cJSON *theirs, const cJSON *rule)
{
	const cJSON	*rsid = cJSON_GetObjectItemCaseSensitive(ep, "id");
	struct rlform	*f = (struct rlform *)r->modal;
	struct buf	 diff;
	cJSON		*body;
	char		*path;
	size_t		 n;

	buf_init(&diff);
	n = merge_diff(&diff, &kind_rate_limit_rules, theirs, rule);
	buf_free(&diff);
	if (n == 0) {
		tui_message(p->tui, TUI_MSG_INFO, "the rule on the server "
		    "already has these values: nothing was sent");
		if (f != NULL) {
			f->req = NULL;
			rlform_close(p->tui, &f->m);
		}
		return;
	}
	cJSON_Delete(r->before);
	if ((r->before = cJSON_Duplicate(theirs, 1)) == NULL)
		fatalx("out of memory");
	cJSON_DeleteItemFromObjectCaseSensitive(r->data, "ep");
	cJSON_AddItemToObject(r->data, "ep", cJSON_Duplicate(ep, 1));
	body = rulesets_rule_body(rule);
	path = rlform_path(p, RULESETS_RULE_PATH, rsid->valuestring, r->id, 0);
	if (path == NULL || rlform_next(p, r, RLFORM_SUB_WRITE, "PATCH", path,
	    body) == NULL)
		rlform_refused(p, r, "not sent");
	cJSON_Delete(body);
	free(path);
}

/* A save that met a change on the server: the question, then on. */
struct rlform_conflict {
	struct panel	*p;
	struct tui_req	 r;		/* what the write carries on */
	cJSON		*ep;
	cJSON		*theirs;
	struct merge	 m;
};

static void
rlform_conflict_free(void *arg)
{
	struct rlform_conflict	*c = arg;

	free(c->r.id);
	cJSON_Delete(c->r.before);
	cJSON_Delete(c->r.data);
	cJSON_Delete(c->ep);
	cJSON_Delete(c->theirs);
	merge_free(&c->m);
	free(c);
}

/* e: the form (or the editor) again, on the server's copy with yours. */
static void
rlform_conflict_edit(struct rlform_conflict *c, const cJSON *mine)
{
	struct rlform	*f = (struct rlform *)c->r.modal;
	const cJSON	*text = cJSON_GetObjectItemCaseSensitive(c->r.data,
			    "text");
	struct buf	 why;
	size_t		 i;
	char		*yaml, *marked, *note;

	buf_init(&why);
	merge_conflicts_text(&c->m, &why);
	if (f != NULL) {
		/* What the next save merges from is the server's copy. */
		cJSON_Delete(f->orig);
		if ((f->orig = cJSON_Duplicate(c->theirs, 1)) == NULL)
			fatalx("out of memory");
		rlform_load(f, c->theirs);
		for (i = 0; i < RLF_N; i++) {
			free(f->initial[i]);
			f->initial[i] = xstrdup(f->val[i]);
		}
		rlform_load(f, mine);
		rlform_answer(f, 0, "the server changed (theirs \xe2\x86\x92 "
		    "yours, which the form shows):\n%sS saves yours",
		    buf_str(&why));
	} else if (cJSON_IsString(text)) {
		/* The editor's diff is made against the server's copy now. */
		note = xprintf("The server changed these since you read it "
		    "(theirs \xe2\x86\x92 yours, which this text has):\n%s",
		    buf_str(&why));
		yaml = yamljson_emit(mine);
		marked = edit_with_comment(yaml, note);
		panel_edit_text(c->p, c->r.id, c->theirs, marked);
		free(marked);
		free(yaml);
		free(note);
	}
	buf_free(&why);
}

static void
rlform_conflict_answer(struct tui *t, void *arg, enum conflict_answer a)
{
	struct rlform_conflict	*c = arg;
	struct rlform		*f = (struct rlform *)c->r.modal;
	cJSON			*rec;

	(void)t;
	switch (a) {
	case CONFLICT_THEIRS:
	case CONFLICT_MINE:
		rec = merge_resolve(&c->m, a == CONFLICT_MINE ? MERGE_MINE :
		    MERGE_THEIRS);
		rlform_patch(c->p, &c->r, c->ep, c->theirs, rec);
		cJSON_Delete(rec);
		break;
	case CONFLICT_EDIT:
		rec = merge_resolve(&c->m, MERGE_MINE);
		rlform_conflict_edit(c, rec);
		cJSON_Delete(rec);
		break;
	case CONFLICT_CANCEL:
		if (f != NULL)
			rlform_answer(f, 0, "not saved: the rule changed on "
			    "the server (nothing was sent); S merges with its "
			    "new copy");
		break;
	}
}

/* Merge the rule written into the server's (theirs) and send, or ask. */
static void
rlform_merge(struct panel *p, struct tui_req *r, const cJSON *ep,
    const cJSON *theirs)
{
	struct rlform_conflict	*c;
	struct buf		 what;
	char			*label;

	c = xcalloc(1, sizeof *c);
	merge_records(&kind_rate_limit_rules, r->before, rlform_data_rule(r),
	    theirs, &c->m);
	if (c->m.nconflicts == 0) {
		rlform_patch(p, r, ep, theirs, c->m.merged);
		rlform_conflict_free(c);
		return;
	}
	c->p = p;
	c->r.panel = p;
	c->r.type = r->type;
	c->r.id = xstrdup(r->id);
	c->r.before = r->before != NULL ? cJSON_Duplicate(r->before, 1) : NULL;
	c->r.data = cJSON_Duplicate(r->data, 1);
	c->r.modal = r->modal;
	c->ep = cJSON_Duplicate(ep, 1);
	c->theirs = cJSON_Duplicate(theirs, 1);
	buf_init(&what);
	label = rlrules_rule_label(theirs, r->id);
	buf_addf(&what, "rate limiting rule %s", label);
	free(label);
	conflict_ask(p->tui, buf_str(&what), &c->m, r->modal != NULL ||
	    cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r->data, "text")),
	    rlform_conflict_answer, c, rlform_conflict_free);
	buf_free(&what);
}

/* The entry point came (NULL: the zone has none): send the write. */
static void
rlform_send(struct panel *p, struct tui_req *r, const cJSON *ep)
{
	const cJSON	*rsid = cJSON_GetObjectItemCaseSensitive(ep, "id");
	const cJSON	*rule = rlform_data_rule(r), *theirs = NULL;
	cJSON		*body;
	char		*path;
	int		 dry = rlform_dry(r);

	if (r->id != NULL &&
	    (theirs = rulesets_rule_find(ep, r->id, NULL)) == NULL) {
		rlform_refused(p, r, "the rule is no longer on the server "
		    "(deleted meanwhile?)");
		return;
	}
	if (ep != NULL && !cJSON_IsString(rsid)) {
		rlform_refused(p, r, "the entry point the server sent has no "
		    "id");
		return;
	}
	/* A save starts from the rule as the server has it now. */
	if (theirs != NULL && !dry) {
		rlform_merge(p, r, ep, theirs);
		return;
	}
	if (ep == NULL) {
		/* No entry point yet: it is made with the rule. */
		body = rulesets_entrypoint_body(rule);
		path = rlform_path(p, RULESETS_LIST_PATH, NULL, NULL, dry);
	} else {
		body = rulesets_rule_body(rule);
		path = rlform_path(p, r->id != NULL ? RULESETS_RULE_PATH :
		    RULESETS_RULES_PATH, rsid->valuestring, r->id, dry);
		cJSON_DeleteItemFromObjectCaseSensitive(r->data, "ep");
		cJSON_AddItemToObject(r->data, "ep", cJSON_Duplicate(ep, 1));
	}
	if (path == NULL ||
	    rlform_next(p, r, ep == NULL ? RLFORM_SUB_CREATE :
	    RLFORM_SUB_WRITE, ep == NULL ? "POST" : r->id != NULL ? "PATCH" :
	    "POST", path, body) == NULL)
		rlform_refused(p, r, "not sent");
	cJSON_Delete(body);
	free(path);
}

int
rlform_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const char	*why;
	char		*path;

	if (rlyaml_event(p, r, ev))
		return (1);
	if (r->type != TUI_REQ_OTHER || (r->sub != RLFORM_SUB_EP &&
	    r->sub != RLFORM_SUB_CREATE && r->sub != RLFORM_SUB_WRITE))
		return (0);
	if (ev->kind != JOBS_EVENT_DONE && ev->kind != JOBS_EVENT_FAILED)
		return (1);
	if (r->modal != NULL) {
		((struct rlform *)r->modal)->req = NULL;
		((struct rlform *)r->modal)->saving = 0;
	}
	why = tui_cause(r, ev);
	switch (r->sub) {
	case RLFORM_SUB_EP:
		/* 404: the zone has no entry point yet. */
		if (ev->kind == JOBS_EVENT_FAILED && ev->http_status != 404)
			rlform_refused(p, r, why);
		else
			rlform_send(p, r, ev->kind == JOBS_EVENT_DONE ?
			    ev->result : NULL);
		return (1);
	case RLFORM_SUB_CREATE:
		/* Made by someone else meanwhile: add the rule to it. */
		if (ev->kind == JOBS_EVENT_FAILED && ev->http_status == 409 &&
		    !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r->data,
		    "again"))) {
			cJSON_AddBoolToObject(r->data, "again", 1);
			path = rlform_path(p, RULESETS_ENTRYPOINT_PATH, NULL,
			    NULL, 0);
			if (path == NULL || rlform_next(p, r, RLFORM_SUB_EP,
			    "GET", path, NULL) == NULL)
				rlform_refused(p, r, why);
			free(path);
			return (1);
		}
		break;
	}
	if (ev->kind == JOBS_EVENT_FAILED)
		rlform_refused(p, r, why);
	else
		rlform_written(p, r, ev);
	return (1);
}

/* ---- the form: its answers and pickers ----------------------------------- */

static void
rlform_answer(struct rlform *f, int ok, const char *fmt, ...)
{
	va_list	ap;

	free(f->answer);
	va_start(ap, fmt);
	xvasprintf(&f->answer, fmt, ap);
	va_end(ap);
	f->answer_ok = ok;
	f->t->dirty = 1;
	/* What was refused stays readable once the form is gone. */
	if (!ok)
		tui_message_keep(f->t, TUI_MSG_ERROR, f->answer);
}

static void
rlform_picks_clear(struct rlform *f)
{
	size_t	i;

	for (i = 0; i < f->npicks; i++)
		free(f->picks[i]);
	f->npicks = 0;
}

static void
rlform_picked(struct tui *t, void *arg, size_t i, int other)
{
	struct rlform	*f = arg;

	(void)other;
	if (i >= f->npicks)
		return;
	if (f->pick_field == RLF_CHARS && *f->picks[i] == '\0') {
		/* "type them": edit the list as text. */
		f->editing = 1;
		line_set(&f->line, f->val[RLF_CHARS]);
	} else
		rlform_set(f, f->pick_field, f->picks[i]);
	/* A challenge below Enterprise throttles, a block does not. */
	if (f->pick_field == RLF_ACTION && *f->val[RLF_TIMEOUT] != '\0' &&
	    !rlrule_timeout_ok(atoi(f->val[RLF_TIMEOUT]), f->val[RLF_ACTION],
	    f->plan)) {
		char *s = xprintf("%d", rlform_first_ok(f, rlrule_timeouts,
		    rlrule_ntimeouts, 0, 600));

		rlform_set(f, RLF_TIMEOUT, s);
		free(s);
	}
	free(f->answer);
	f->answer = NULL;
	t->dirty = 1;
}

/* "60 s (1 min)": seconds as a person reads them. */
static char *
rlform_seconds(int s, int timeout)
{
	if (s == 0 && timeout)
		return (xstrdup("0 (throttle: only the requests over the "
		    "rate)"));
	if (s >= 3600 && s % 3600 == 0)
		return (xprintf("%d s (%d h)", s, s / 3600));
	if (s >= 60 && s % 60 == 0)
		return (xprintf("%d s (%d min)", s, s / 60));
	return (xprintf("%d s", s));
}

static void
rlform_pick_add(struct rlform *f, const char **labels, const char *value,
    char *label)
{
	if (f->npicks == RLFORM_PICKS) {
		free(label);
		return;
	}
	labels[f->npicks] = label;
	f->picks[f->npicks++] = xstrdup(value);
}

/* The values the plan allows for period or timeout, the current first. */
static void
rlform_pick_seconds(struct rlform *f, const char **labels, int timeout)
{
	const int	*list = timeout ? rlrule_timeouts : rlrule_periods;
	size_t		 n = timeout ? rlrule_ntimeouts : rlrule_nperiods, i;
	const char	*cur = f->val[timeout ? RLF_TIMEOUT : RLF_PERIOD];
	char		 v[16];
	int		 ok, seen = 0;

	for (i = 0; i < n; i++) {
		ok = timeout ? rlrule_timeout_ok(list[i], f->val[RLF_ACTION],
		    f->plan) : rlrule_period_ok(list[i], f->plan);
		if (!ok)
			continue;
		snprintf(v, sizeof v, "%d", list[i]);
		seen |= strcmp(v, cur) == 0;
		rlform_pick_add(f, labels, v, rlform_seconds(list[i],
		    timeout));
	}
	/* A value the service took back then stays a choice. */
	if (!seen && *cur != '\0')
		rlform_pick_add(f, labels, cur, xprintf("%s s (as it is)",
		    cur));
}

/* The lists the plan may use, from the scheme ("": type them). */
static void
rlform_pick_chars(struct rlform *f, const char **labels)
{
	struct rlrule_chars_choice	c[RLFORM_PICKS];
	size_t				n, i;

	n = rlrule_chars_choices(f->plan, c, nitems(c));
	for (i = 0; i < n; i++)
		rlform_pick_add(f, labels, c[i].value, xstrdup(c[i].label));
}

static void
rlform_pick(struct rlform *f)
{
	const char	*labels[RLFORM_PICKS];
	const char	*title = rlform_fields[f->focus].label;
	size_t		 i, cur = 0;

	rlform_picks_clear(f);
	f->pick_field = (enum rlform_id)f->focus;
	switch (f->focus) {
	case RLF_ACTION:
		for (i = 0; rlrule_actions[i] != NULL; i++) {
			if (strcmp(rlrule_actions[i], "log") == 0 &&
			    f->plan != EXPR_PLAN_NONE &&
			    f->plan != EXPR_PLAN_ENTERPRISE)
				continue;
			rlform_pick_add(f, labels, rlrule_actions[i],
			    strcmp(rlrule_actions[i], "log") == 0 ?
			    xstrdup("log (Enterprise only)") :
			    xstrdup(rlrule_actions[i]));
		}
		break;
	case RLF_PERIOD:
	case RLF_TIMEOUT:
		rlform_pick_seconds(f, labels, f->focus == RLF_TIMEOUT);
		break;
	case RLF_CHARS:
		rlform_pick_chars(f, labels);
		break;
	case RLF_CTYPE:
		for (i = 0; rlrule_content_types[i] != NULL; i++)
			rlform_pick_add(f, labels, rlrule_content_types[i],
			    xstrdup(rlrule_content_types[i]));
		break;
	case RLF_ENABLED:
	case RLF_ORIGIN:
		rlform_pick_add(f, labels, "yes", xstrdup("yes"));
		rlform_pick_add(f, labels, "no", xstrdup("no"));
		break;
	}
	for (i = 0; i < f->npicks; i++)
		if (strcmp(f->picks[i], f->val[f->focus]) == 0)
			cur = i;
	picker_open(f->t, title, labels, f->npicks, cur, rlform_picked, f);
	for (i = 0; i < f->npicks; i++)
		free((char *)labels[i]);
}

static void
rlform_expr_done(struct tui *t, void *arg, const char *text)
{
	struct rlform	*f = arg;

	rlform_set(f, (enum rlform_id)f->focus, text);
	free(f->answer);
	f->answer = NULL;
	t->dirty = 1;
}

static void
rlform_expr_open(struct rlform *f)
{
	struct expr_options	 o;
	char			*title;
	int			 counting = f->focus == RLF_COUNTING;

	memset(&o, 0, sizeof o);
	o.plan = f->plan;
	o.counting = counting;
	title = xprintf("%s of %s", rlform_fields[f->focus].label,
	    f->id != NULL ? "the rate limiting rule" :
	    "a new rate limiting rule");
	exprview_open(f->t, title, f->val[f->focus], &o, counting,
	    rlform_expr_done, f);
	free(title);
}

/* Whether field i is typed into: a text or a number. */
static int
rlform_typed(size_t i)
{
	return (rlform_fields[i].type == RLFT_TEXT ||
	    rlform_fields[i].type == RLFT_NUMBER);
}

/*
 * Focus field i. A text or number field is edited as soon as it has the
 * focus, as in every form: what is typed goes into it.
 */
static void
rlform_focus(struct rlform *f, size_t i)
{
	f->focus = i;
	f->editing = 0;
	if (!rlform_typed(i))
		return;
	/* The line editor holds less than a block's body may. */
	if (strlen(f->val[i]) >= LINE_MAX_BYTES - 1) {
		rlform_answer(f, 0, "%s: too long to edit here: E edits the "
		    "rule as YAML", rlform_fields[i].label);
		return;
	}
	f->editing = 1;
	line_set(&f->line, f->val[i]);
}

/* Enter on a field that is not typed into: its list, or its editor. */
static void
rlform_activate(struct rlform *f)
{
	switch (rlform_fields[f->focus].type) {
	case RLFT_PICK:
	case RLFT_TOGGLE:
		rlform_pick(f);
		break;
	case RLFT_EXPR:
		rlform_expr_open(f);
		break;
	case RLFT_TEXT:
	case RLFT_NUMBER:
		break;
	}
}

/* Space, Left, Right, y or n on a yes/no field: its value, on screen. */
static void
rlform_toggle(struct rlform *f, int key)
{
	const char	*v;

	if (key == 'y' || key == 'n')
		v = key == 'y' ? "yes" : "no";
	else
		v = strcmp(f->val[f->focus], "yes") == 0 ? "no" : "yes";
	rlform_set(f, (enum rlform_id)f->focus, v);
}

/* ---- the form: keys ------------------------------------------------------ */

static void
rlform_move(struct rlform *f, int dir)
{
	size_t	i = f->focus;

	rlform_keep_lint(f);
	do
		i = (i + RLF_N + (size_t)dir) % RLF_N;
	while (!rlform_visible(f, i));
	rlform_focus(f, i);
}

static void
rlform_discard(struct tui *t, void *arg, const char *answer)
{
	struct rlform	*f = arg;

	(void)answer;
	if (t->modal == &f->m)
		tui_pop(t);
}

static void
rlform_send_form(struct rlform *f, int dry)
{
	cJSON	*rule, *base;

	if (f->req != NULL) {
		tui_message(f->t, TUI_MSG_WARN, "the last request is still on "
		    "its way");
		return;
	}
	if (!dry && f->id != NULL && !rlform_changed(f)) {
		tui_message(f->t, TUI_MSG_INFO, "no change: nothing sent");
		tui_pop(f->t);
		return;
	}
	if ((rule = rlform_checked(f)) == NULL)
		return;
	base = f->orig != NULL ? rlform_initial_rule(f) : NULL;
	f->req = rlform_write(f->p, f->id, rule, base, dry, &f->m, NULL);
	f->saving = f->req != NULL && !dry;
	if (f->req != NULL)
		rlform_answer(f, 1, "%s", dry ? "asking the server "
		    "(dry_run)..." : "saving...");
	cJSON_Delete(base);
	cJSON_Delete(rule);
}

/* T and L: the rule as typed, tried by the tester or over a log. */
static void
rlform_try(struct rlform *f, int simulate)
{
	struct expr_error	 err;
	cJSON			*rule;
	char			*cause = NULL;

	if (rlform_lint(f, RLF_EXPR, &err) != 0 ||
	    rlform_lint(f, RLF_COUNTING, &err) != 0) {
		rlform_answer(f, 0, "fix the expressions first: the %s cannot "
		    "be evaluated", simulate ? "simulation" : "tester");
		return;
	}
	if ((rule = rlform_rule(f, &cause)) == NULL) {
		rlform_answer(f, 0, "%s", cause);
		free(cause);
		return;
	}
	if (simulate)
		rlsim_open(f->t, NULL, rule);
	else
		rltest_open(f->t, rule);
	cJSON_Delete(rule);
}

/*
 * The characteristics typed as text (their list's last choice): Enter
 * keeps, Esc puts the old text back.
 */
static void
rlform_edit_key(struct rlform *f, int key)
{
	switch (key) {
	case 033:
		f->editing = 0;
		return;
	case '\r':
	case '\t':
	case KEY_BTAB:
	case KEY_UP:
	case KEY_DOWN:
		rlform_set(f, (enum rlform_id)f->focus, f->line.buf);
		f->editing = 0;
		if (key == '\t' || key == KEY_DOWN)
			rlform_move(f, 1);
		else if (key == KEY_BTAB || key == KEY_UP)
			rlform_move(f, -1);
		else
			rlform_keep_lint(f);
		return;
	}
	line_key(&f->line, key);
}

static void
rlform_leave(struct tui *t, struct rlform *f)
{
	if (rlform_changed(f) && !f->saving)
		dialog_confirm(t, "discard", "Discard the changes in this "
		    "form? (y/n)", rlform_discard, f, NULL);
	else
		tui_pop(t);
}

/* ? and F1: the form's keys. */
static void
rlform_help(struct tui *t)
{
	tui_push(t, textview_modal("keys of the rate limiting rule form",
	    "Tab, Down      the next field\n"
	    "S-Tab, Up      the previous field\n"
	    "Enter          on a text field: the next field; on a choice "
	    "(action, enabled, period...): its list; on an expression: its "
	    "editor\n"
	    "Esc            leave the form (it asks when something changed)\n"
	    "F1             these keys\n"
	    "\n"
	    "On a text or number field (description, requests per period, "
	    "the block's status and body) typing edits it.\n"
	    "\n"
	    "On the other fields:\n"
	    "j, k           the next, the previous field\n"
	    "Space          a yes/no field: the other value; a choice: its "
	    "list\n"
	    "Left, Right    a yes/no field: the other value\n"
	    "y, n           a yes/no field: yes, no\n"
	    "V              ask the server whether it takes the rule "
	    "(dry_run)\n"
	    "S              save the rule\n"
	    "T              try the rule as typed in the tester\n"
	    "L              simulate the rule as typed over a log\n"
	    "!              the last messages whole\n"
	    "?              these keys\n"
	    "q              leave the form"));
}

/* A key on a text or number field: typed into it, or moving away. */
static void
rlform_text_key(struct tui *t, struct rlform *f, int key)
{
	switch (key) {
	case 033:
		rlform_leave(t, f);
		return;
	case '\r':
	case '\t':
	case KEY_DOWN:
		rlform_move(f, 1);
		return;
	case KEY_BTAB:
	case KEY_UP:
		rlform_move(f, -1);
		return;
	case KEY_F(1):
		rlform_help(t);
		return;
	}
	if (line_key(&f->line, key) == LINE_CHANGED)
		rlform_set(f, (enum rlform_id)f->focus, f->line.buf);
}

static int
rlform_key(struct tui *t, struct modal *m, int key)
{
	struct rlform	*f = (struct rlform *)m;
	int		 yesno = rlform_fields[f->focus].type == RLFT_TOGGLE;

	/* A save closes the form when it is done: nothing opens above it. */
	if (f->saving && key != 033 && key != 'q') {
		tui_message(t, TUI_MSG_INFO, "saving: waiting for the server's "
		    "answer (Esc leaves the form, the save goes on)");
		return (TUI_HANDLED);
	}
	if (f->editing && rlform_typed(f->focus)) {
		rlform_text_key(t, f, key);
		return (TUI_HANDLED);
	}
	if (f->editing) {
		rlform_edit_key(f, key);
		return (TUI_HANDLED);
	}
	switch (key) {
	case 033:
	case 'q':
		rlform_leave(t, f);
		break;
	case '\t':
	case KEY_DOWN:
	case 'j':
		rlform_move(f, 1);
		break;
	case KEY_BTAB:
	case KEY_UP:
	case 'k':
		rlform_move(f, -1);
		break;
	case '\r':
		rlform_activate(f);
		break;
	case ' ':
	case KEY_LEFT:
	case KEY_RIGHT:
	case 'y':
	case 'n':
		if (yesno)
			rlform_toggle(f, key);
		else if (key == ' ')
			rlform_activate(f);
		break;
	case '?':
	case KEY_F(1):
		rlform_help(t);
		break;
	case 'V':
		rlform_send_form(f, 1);
		break;
	case 'S':
		rlform_send_form(f, 0);
		break;
	case 'T':
		rlform_try(f, 0);
		break;
	case 'L':
		rlform_try(f, 1);
		break;
	default:
		/* An answer or the lint cut short is read whole there. */
		if (keymap_lookup(t->keymap, KEYMAP_GLOBAL, key) ==
		    ACTION_MESSAGES) {
			rlform_keep_lint(f);
			tui_messages(t);
		}
		break;
	}
	return (TUI_HANDLED);
}

/* ---- the form: drawing --------------------------------------------------- */

static int
rlform_lint(const struct rlform *f, enum rlform_id i, struct expr_error *err)
{
	struct expr_options	o;

	memset(&o, 0, sizeof o);
	o.plan = f->plan;
	o.counting = i == RLF_COUNTING;
	return (exprview_lint(f->val[i], &o, i == RLF_COUNTING, err));
}

/* What the lint says under an expression (an error or a warning), or NULL;
 * *error says which. */
static char *
rlform_lint_message(const struct rlform *f, enum rlform_id i, int *error)
{
	struct expr_options	o;

	memset(&o, 0, sizeof o);
	o.plan = f->plan;
	o.counting = i == RLF_COUNTING;
	return (exprview_lint_message(f->val[i], &o, i == RLF_COUNTING,
	    error));
}

/* Whether the lint says something under an expression: a row for it. */
static int
rlform_said(const struct rlform *f, enum rlform_id i)
{
	char	*msg;
	int	 error;

	msg = rlform_lint_message(f, i, &error);
	free(msg);
	return (msg != NULL);
}

/* The rows a field takes: an expression's lines (three at most) and its
 * lint's message. */
static int
rlform_height(const struct rlform *f, size_t i)
{
	const char		*s;
	int			 lines = 1;

	if (rlform_fields[i].type != RLFT_EXPR)
		return (1);
	for (s = f->val[i]; *s != '\0'; s++)
		if (*s == '\n' && s[1] != '\0')
			lines++;
	return (MINIMUM(lines, 3) + rlform_said(f, (enum rlform_id)i));
}

/*
 * An expression in up to three rows, its error's characters highlighted
 * and its message under it. Returns the rows used.
 */
static int
rlform_draw_expr(const struct rlform *f, enum rlform_id i, int y, int x,
    int w, int maxrows, attr_t attr)
{
	struct expr_error	 err;
	const char		*s = f->val[i];
	size_t			 start = 0, end, es = 0, ee = 0;
	int			 rows = 0, bad, error;
	char			*msg;

	msg = rlform_lint_message(f, i, &error);
	bad = msg != NULL;
	if (rlform_lint(f, i, &err) != 0 && err.column > 0) {
		es = exprtext_column_offset(s, err.column);
		ee = exprtext_column_offset(s, err.column +
		    MAXIMUM(err.length, 1));
	}
	do {
		for (end = start; s[end] != '\0' && s[end] != '\n'; end++)
			;
		screen_fill(y + rows, x, w, attr);
		exprview_put(y + rows, x, w, s, start, end, es, ee, attr,
		    screen_role(THEME_ROLE_ERROR) | A_REVERSE);
		rows++;
		start = s[end] == '\n' ? end + 1 : end;
	} while (s[start] != '\0' && rows < maxrows - bad);
	if (s[start] != '\0')
		screen_put(y + rows - 1, x + w - 1, 1, screen_ellipsis(),
		    attr);
	if (bad && rows < maxrows) {
		screen_put(y + rows, x, w, msg, screen_role(error ?
		    THEME_ROLE_ERROR : THEME_ROLE_WARNING));
		rows++;
	}
	free(msg);
	return (rows);
}

static void
rlform_draw_value(struct rlform *f, size_t i, int y, int x, int w)
{
	attr_t	 a = screen_role(i == f->focus ? THEME_ROLE_INPUT_FOCUS :
		    THEME_ROLE_INPUT);
	char	*shown;

	screen_fill(y, x, w, a);
	if (i == f->focus && f->editing) {
		line_draw(&f->line, y, x, w, a, 1);
		return;
	}
	switch (rlform_fields[i].type) {
	case RLFT_PICK:
	case RLFT_TOGGLE:
		shown = i == RLF_PERIOD || i == RLF_TIMEOUT ?
		    (*f->val[i] != '\0' ? rlform_seconds(atoi(f->val[i]),
		    i == RLF_TIMEOUT) : xstrdup("(unset)")) :
		    xstrdup(*f->val[i] != '\0' ? f->val[i] : "(unset)");
		break;
	default:
		shown = xstrdup(f->val[i]);
		break;
	}
	screen_put(y, x, w, shown, a);
	free(shown);
}

/* Text in two rows; cut, it names the key that shows it whole. */
static void
rlform_draw_two(struct tui *t, const char *text, int y, attr_t a)
{
	char	*rows[2];
	size_t	 n, i;

	n = status_wrap_message(t, text, (size_t)MAXIMUM(COLS - 2, 1), rows,
	    nitems(rows));
	for (i = 0; i < n; i++) {
		screen_put(y + (int)i, 1, COLS - 2, rows[i], a);
		free(rows[i]);
	}
}

/*
 * What the lint says of the other fields as they are typed (the
 * expressions' problems show under them), or NULL.
 */
static char *
rlform_live_lint(const struct rlform *f)
{
	struct rulesets_lint	 l;
	cJSON			*rule;
	char			*cause = NULL;

	if ((cause = rlform_quota(f)) != NULL)
		return (cause);
	if ((rule = rlform_rule(f, &cause)) == NULL)
		return (cause);
	if (rulesets_lint(rule, f->plan, &l) == 0 || l.text != NULL ||
	    strcmp(l.field, "expression") == 0 ||
	    strcmp(l.field, "ratelimit.counting_expression") == 0) {
		cJSON_Delete(rule);
		return (NULL);
	}
	cJSON_Delete(rule);
	return (xprintf("%s: %s", l.field, l.err.message));
}

/*
 * The live lint speaks at every key; what it says when a field is left,
 * or ! asks, is kept for ! (its two rows may cut it short), once.
 */
static void
rlform_keep_lint(struct rlform *f)
{
	char	*lint;

	if ((lint = rlform_live_lint(f)) == NULL)
		return;
	tui_message_keep(f->t, TUI_MSG_WARN, lint);
	free(lint);
}

/* The keys the last line shows for the focused field. */
static const char *
rlform_keys(const struct rlform *f)
{
	if (f->editing && !rlform_typed(f->focus))
		return ("Enter keep  Esc undo  Tab next field");
	if (f->editing)
		return ("type to edit  Enter/Tab next field  F1 keys  Esc "
		    "cancel");
	if (rlform_fields[f->focus].type == RLFT_TOGGLE)
		return ("Space/y/n change  Enter list  V validate  S save  "
		    "T test  ? keys  Esc cancel");
	return ("Enter edit/pick  V validate  S save  T test  L simulate  "
	    "? keys  Esc cancel");
}

static void
rlform_draw(struct tui *t, struct modal *m)
{
	struct rlform	*f = (struct rlform *)m;
	size_t		 i, shown[RLF_N], n = 0, at = 0, nans = 0;
	int		 y, y0 = 2, label = 21, w, rows, bottom, end, room;
	attr_t		 na = screen_role(THEME_ROLE_NORMAL);
	char		*title, *lint, *ans[RLFORM_ANSWER_ROWS];

	/*
	 * From the bottom: a long status message's rows, the keys, the last
	 * answer (two rows, three when it needs them), the field's help.
	 */
	end = LINES - status_height(t);
	room = end - y0 - 5;
	if (f->answer != NULL)
		nans = status_wrap_message(t, f->answer, (size_t)MAXIMUM(COLS -
		    2, 1), ans, (size_t)MINIMUM(RLFORM_ANSWER_ROWS,
		    MAXIMUM(room, 2)));
	bottom = end - 2 - (int)MAXIMUM(nans, 2);
	for (y = 1; y < end; y++)
		screen_fill(y, 0, COLS, na);
	title = f->id != NULL ? xprintf("edit rate limiting rule %s%s%s",
	    f->id, f->plan != EXPR_PLAN_NONE ? " - plan " : "",
	    f->plan != EXPR_PLAN_NONE ? expr_plan_name(f->plan) : "") :
	    xprintf("new rate limiting rule%s%s", f->plan != EXPR_PLAN_NONE ?
	    " - plan " : " (no plan: in the profile: language-only lint)",
	    f->plan != EXPR_PLAN_NONE ? expr_plan_name(f->plan) : "");
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	screen_put(1, 1, COLS - 2, title, screen_role(THEME_ROLE_TITLE));
	free(title);
	w = COLS - label - 2;
	if (w < 8 || bottom <= y0) {
		for (i = 0; i < nans; i++)
			free(ans[i]);
		return;
	}
	for (i = 0; i < RLF_N; i++)
		if (rlform_visible(f, i)) {
			if (i == f->focus)
				at = n;
			shown[n++] = i;
		}
	/* The focused field and its message fit: scroll by fields. */
	if (at < f->top)
		f->top = at;
	for (;;) {
		rows = 0;
		for (i = f->top; i <= at; i++)
			rows += rlform_height(f, shown[i]);
		if (rows <= bottom - y0 || f->top >= at)
			break;
		f->top++;
	}
	for (i = f->top, y = y0; i < n && y < bottom; i++) {
		size_t	id = shown[i];

		screen_put(y, 1, label - 1, rlform_fields[id].label,
		    id == f->focus ? screen_role(THEME_ROLE_KEY) : na);
		if (rlform_fields[id].type == RLFT_EXPR) {
			y += rlform_draw_expr(f, (enum rlform_id)id, y, label,
			    w, MINIMUM(rlform_height(f, id), bottom - y),
			    screen_role(
			    id == f->focus ? THEME_ROLE_INPUT_FOCUS :
			    THEME_ROLE_INPUT));
			continue;
		}
		rlform_draw_value(f, id, y, label, w);
		y++;
	}
	screen_put(bottom, 1, COLS - 2, rlform_fields[f->focus].help,
	    screen_role(THEME_ROLE_DIM));
	for (i = 0; i < nans; i++) {
		screen_put(bottom + 1 + (int)i, 1, COLS - 2, ans[i],
		    screen_role(f->answer_ok ? THEME_ROLE_OK :
		    THEME_ROLE_ERROR));
		free(ans[i]);
	}
	if (f->answer == NULL && (lint = rlform_live_lint(f)) != NULL) {
		rlform_draw_two(t, lint, bottom + 1,
		    screen_role(THEME_ROLE_WARNING));
		free(lint);
	}
	status_draw_keys(t, end - 1, rlform_keys(f));
}

/* ---- opening ------------------------------------------------------------- */

static void
rlform_free(struct modal *m)
{
	struct rlform	*f = (struct rlform *)m;
	size_t		 i;

	rlform_forget(f->t, f->req);
	for (i = 0; i < RLF_N; i++) {
		free(f->val[i]);
		free(f->initial[i]);
	}
	rlform_picks_clear(f);
	free(f->id);
	cJSON_Delete(f->orig);
	free(f->answer);
	free(f);
}

static struct rlform *
rlform_open(struct panel *p, const cJSON *rule, const char *id)
{
	struct rlform	*f;
	size_t		 i;

	f = xcalloc(1, sizeof *f);
	f->m.key = rlform_key;
	f->m.draw = rlform_draw;
	f->m.free = rlform_free;
	f->t = p->tui;
	f->p = p;
	f->plan = rlrules_plan(p->tui);
	if (rule != NULL) {
		if ((f->orig = cJSON_Duplicate(rule, 1)) == NULL)
			fatalx("out of memory");
		f->id = id != NULL ? xstrdup(id) : NULL;
		rlform_load(f, rule);
	} else
		rlform_defaults(f);
	for (i = 0; i < RLF_N; i++)
		f->initial[i] = xstrdup(f->val[i]);
	/* A new rule and an edited one start on the same first field. */
	rlform_focus(f, RLF_DESCRIPTION);
	tui_push(p->tui, &f->m);
	return (f);
}

void
rlform_new(struct panel *p)
{
	struct rlform	*f;
	char		*full;

	if (tui_refuse_readonly(p->tui, "new"))
		return;
	f = rlform_open(p, NULL, NULL);
	/* Said before a whole rule is typed; the form shows it too. */
	if ((full = rlform_quota(f)) != NULL) {
		tui_message(p->tui, TUI_MSG_WARN, "%s", full);
		free(full);
	}
}

void
rlform_edit(struct panel *p)
{
	cJSON	*rec;

	if (tui_refuse_readonly(p->tui, "edit"))
		return;
	/* The list holds whole rules, as fresh as a GET would be. */
	if ((rec = panel_current_record(p)) == NULL)
		return;
	/* A list may number its rules: a place, not a field of the rule. */
	cJSON_DeleteItemFromObjectCaseSensitive(rec, "position");
	rlform_open(p, rec, panel_current_id(p));
	cJSON_Delete(rec);
}
