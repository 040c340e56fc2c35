/*
 * The rules tester (:test, C-t in the rules panel, and the rule form): a
 * request built in a small form, tried on each rule of the zone's entry
 * point in evaluation order (src/ruletest.h), fetched through the worker
 * at each run, the verdicts in a list view; Enter on a rule shows its
 * explained tree. A rule being
 * edited is tested in place of the server's copy. The form's values are
 * kept for the next tester of the session.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "edge_session.h"
#include "kind.h"
#include "rulesets.h"
#include "ruletest.h"
#include "screen.h"
#include "text.h"
#include "tui.h"
#include "widgets/line.h"
#include "widgets/listview.h"
#include "xmalloc.h"

#include "panels/rltest.h"

#define RLTEST_HEADERS	8	/* header lines in the form */
#define RLTEST_LABEL	12	/* the labels' column */
#define RLTEST_NAME	32	/* the rules' names in the list */

enum {
	RLTEST_METHOD,
	RLTEST_URL,
	RLTEST_IP,
	RLTEST_HEADER,		/* RLTEST_HEADERS of them */
	RLTEST_COUNTRY = RLTEST_HEADER + RLTEST_HEADERS,
	RLTEST_NFIELDS
};

/* What the last tester's form held: the next one starts with it. */
static char	*rltest_kept[RLTEST_NFIELDS];

struct rltest {
	struct modal		 m;
	struct tui		*t;
	struct line		 f[RLTEST_NFIELDS];
	int			 focus;		/* a field, or -1: the list */
	cJSON			*edited;	/* the rule being edited */
	struct tui_req		*req;		/* the rules' fetch */
	unsigned long		 job;

	/* The last run. */
	struct expr_request	*rq;
	char			*asked;		/* "POST https://... from IP" */
	cJSON			*rules;		/* tested, the edited one in */
	int			 edited_at;	/* its index, or -1 */
	struct ruletest_result	*res;
	size_t			 n;
	int			 acts;		/* acts first, or -1 */
	int			 ran;
	char			*error;		/* the fetch's failure */
	struct listview		*lv;		/* the verdicts */
};

/* A rule's explained tree. */
struct rltest_explain {
	struct modal		 m;
	char			*title;
	char			**head;		/* lines above the tree */
	size_t			 nhead;
	struct ruletest_step	*steps;
	size_t			 n;
	size_t			 top;
};

static const char	*rltest_word(const struct rltest *, size_t);
static const struct listview_ops rltest_ops;

static const char *
rltest_str(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	return (cJSON_IsString(v) ? v->valuestring : "");
}

/* The rule as a person names it: its description, else its id. */
static const char *
rltest_rule_name(const cJSON *rule)
{
	const char	*d = rltest_str(rule, "description");

	if (*d != '\0')
		return (d);
	if (*rltest_str(rule, "id") != '\0')
		return (rltest_str(rule, "id"));
	return ("(new rule)");
}

/* s cleaned for the terminal, cut to cols columns and padded to them. */
static void
rltest_cell(struct buf *b, const char *s, size_t cols)
{
	char	*cell = text_cell(s, cols, screen_ellipsis());

	buf_adds(b, cell);
	free(cell);
}

/* ---- the form ---------------------------------------------------------- */

/* The fields shown, in order: headers up to one after the last typed. */
static size_t
rltest_visible(const struct rltest *s, int *fields)
{
	size_t	n = 0;
	int	i, last = -1;

	for (i = 0; i < RLTEST_HEADERS; i++)
		if (s->f[RLTEST_HEADER + i].len > 0)
			last = i;
	fields[n++] = RLTEST_METHOD;
	fields[n++] = RLTEST_URL;
	fields[n++] = RLTEST_IP;
	for (i = 0; i <= last + 1 && i < RLTEST_HEADERS; i++)
		fields[n++] = RLTEST_HEADER + i;
	fields[n++] = RLTEST_COUNTRY;
	return (n);
}

static const char *
rltest_label(int field)
{
	switch (field) {
	case RLTEST_METHOD:
		return ("Method");
	case RLTEST_URL:
		return ("URL");
	case RLTEST_IP:
		return ("Client IP");
	case RLTEST_COUNTRY:
		return ("Country");
	default:
		return ("Header");
	}
}

/* Move the focus dir fields on; past the last, the list (after a run). */
static void
rltest_move(struct rltest *s, int dir)
{
	int	fields[RLTEST_NFIELDS];
	size_t	n, i;

	n = rltest_visible(s, fields);
	if (s->focus < 0) {
		s->focus = dir > 0 ? fields[0] : fields[n - 1];
		return;
	}
	for (i = 0; i < n && fields[i] != s->focus; i++)
		continue;
	if (i == n)
		s->focus = fields[0];
	else if (dir > 0 && i + 1 == n)
		s->focus = s->n > 0 ? -1 : fields[0];
	else if (dir < 0 && i == 0)
		s->focus = s->n > 0 ? -1 : fields[n - 1];
	else
		s->focus = fields[dir > 0 ? i + 1 : i - 1];
}

static void
rltest_keep(const struct rltest *s)
{
	int	i;

	for (i = 0; i < RLTEST_NFIELDS; i++) {
		free(rltest_kept[i]);
		rltest_kept[i] = xstrdup(s->f[i].buf);
	}
}

/* ---- running ----------------------------------------------------------- */

/* Whether any rule counts the request, or may. */
static int
rltest_counted(const struct rltest *s)
{
	size_t	i;

	for (i = 0; i < s->n; i++)
		if (s->res[i].count != RULETEST_NOT_COUNTED)
			return (1);
	return (0);
}

static void
rltest_clear_run(struct rltest *s)
{
	free(s->res);
	s->res = NULL;
	s->n = 0;
	s->acts = -1;
	cJSON_Delete(s->rules);
	s->rules = NULL;
	free(s->error);
	s->error = NULL;
	s->ran = 0;
}

/* The fetch in flight, if it is still the console's, is cancelled. */
static void
rltest_cancel_fetch(struct rltest *s)
{
	if (s->req != NULL && tui_req_known(s->t, s->req) &&
	    s->req->job == s->job)
		tui_cancel_req(s->t, s->req);
	s->req = NULL;
}

/* The rules are here (NULL: the zone has none): each one's verdict. */
static void
rltest_judge(struct rltest *s, const cJSON *rules)
{
	struct tui	*t = s->t;
	char		*sum;
	size_t		 i;

	rltest_clear_run(s);
	s->rules = ruletest_rules_with(rules, s->edited, &s->edited_at);
	s->res = ruletest_run(s->rules, s->rq, &s->n, &s->acts);
	s->ran = 1;
	/* The cursor on the rule that acts first, else the first counting. */
	for (i = 0; i < s->n && s->res[i].count == RULETEST_NOT_COUNTED; i++)
		;
	listview_select(s->lv, s->acts >= 0 ? (size_t)s->acts : i);
	if (s->n > 0)
		s->focus = -1;
	if (s->n == 0) {
		tui_message(t, TUI_MSG_INFO, "the zone has no rate limiting "
		    "rules");
		return;
	}
	sum = ruletest_summary(s->res, s->n, s->acts);
	tui_message(t, rltest_counted(s) ? TUI_MSG_OK : TUI_MSG_INFO, "%s: %s",
	    s->asked, sum);
	free(sum);
}

static void
rltest_fetched(struct tui *t, struct tui_req *r, struct jobs_event *ev)
{
	struct rltest	*s = r->done_arg;

	if (ev->kind != JOBS_EVENT_DONE && ev->kind != JOBS_EVENT_FAILED)
		return;
	s->req = NULL;
	/* 404: no entry point yet, so no rules. */
	if (ev->kind == JOBS_EVENT_FAILED && ev->http_status != 404) {
		rltest_clear_run(s);
		s->error = xprintf("the zone's rules could not be fetched: %s",
		    tui_cause(r, ev));
		tui_message(t, TUI_MSG_ERROR, "%s", s->error);
		return;
	}
	rltest_judge(s, ev->kind == JOBS_EVENT_DONE ?
	    rulesets_rules(ev->result) : NULL);
}

/* The request from the form; NULL after the message (focus on the field). */
static struct expr_request *
rltest_request(struct rltest *s)
{
	struct ruletest_input	 in;
	struct ruletest_error	 err;
	struct expr_request	*rq;
	const char		*hs[RLTEST_HEADERS];
	int			 hf[RLTEST_HEADERS], i;

	memset(&in, 0, sizeof in);
	in.method = s->f[RLTEST_METHOD].buf;
	in.url = s->f[RLTEST_URL].buf;
	in.ip = s->f[RLTEST_IP].buf;
	in.country = s->f[RLTEST_COUNTRY].buf;
	for (i = 0; i < RLTEST_HEADERS; i++) {
		if (s->f[RLTEST_HEADER + i].len == 0)
			continue;
		hf[in.nheaders] = RLTEST_HEADER + i;
		hs[in.nheaders++] = s->f[RLTEST_HEADER + i].buf;
	}
	in.headers = hs;
	if ((rq = ruletest_request(&in, &err)) != NULL)
		return (rq);
	switch (err.field) {
	case RULETEST_URL:
		s->focus = RLTEST_URL;
		break;
	case RULETEST_IP:
		s->focus = RLTEST_IP;
		break;
	case RULETEST_HEADER:
		s->focus = hf[err.header];
		break;
	case RULETEST_COUNTRY:
		s->focus = RLTEST_COUNTRY;
		break;
	}
	if (err.field == RULETEST_URL && s->f[RLTEST_URL].len == 0)
		tui_message(s->t, TUI_MSG_WARN, "URL: type the request's URL "
		    "(https://example.com/login)");
	else
		tui_message(s->t, TUI_MSG_ERROR, "%s: %s",
		    rltest_label(s->focus), err.message);
	return (NULL);
}

static void
rltest_run(struct rltest *s)
{
	struct tui		*t = s->t;
	struct api_var		 vars[EDGE_SCOPE_NVARS];
	struct expr_request	*rq;
	char			*path, *cause = NULL;

	if ((rq = rltest_request(s)) == NULL)
		return;
	expr_request_free(s->rq);
	s->rq = rq;
	free(s->asked);
	s->asked = xprintf("%s %s%s%s", s->f[RLTEST_METHOD].len > 0 ?
	    s->f[RLTEST_METHOD].buf : "GET", s->f[RLTEST_URL].buf,
	    s->f[RLTEST_IP].len > 0 ? " from " : "", s->f[RLTEST_IP].buf);
	rltest_keep(s);
	rltest_cancel_fetch(s);
	rltest_clear_run(s);
	edge_scope_vars(&t->session.scope, NULL, vars);
	if ((path = kind_list_path(&kind_rate_limit_rules, vars,
	    &cause)) == NULL) {
		/* No zone: the rule being edited can still be tried alone. */
		if (s->edited != NULL)
			rltest_judge(s, NULL);
		else {
			s->error = xprintf("the zone's rules: %s", cause);
			tui_message(t, TUI_MSG_ERROR, "%s", s->error);
		}
		free(cause);
		return;
	}
	if ((s->req = tui_submit_view(t, "GET", path, rltest_fetched,
	    s)) != NULL)
		s->job = s->req->job;
	free(path);
}

/* ---- the explained tree ------------------------------------------------ */

static int
rltest_explain_key(struct tui *t, struct modal *m, int key)
{
	struct rltest_explain	*x = (struct rltest_explain *)m;
	enum action		 a = keymap_lookup(t->keymap, KEYMAP_TEXT, key);
	size_t			 total = x->nhead + x->n;
	size_t			 page = LINES > 6 ? (size_t)LINES - 5 : 1;

	switch (a) {
	case ACTION_QUIT:
	case ACTION_BACK:
		tui_pop(t);
		break;
	case ACTION_UP:
		if (x->top > 0)
			x->top--;
		break;
	case ACTION_DOWN:
		if (x->top + 1 < total)
			x->top++;
		break;
	case ACTION_PAGE_UP:
		x->top = x->top > page ? x->top - page : 0;
		break;
	case ACTION_PAGE_DOWN:
		if (x->top + page < total)
			x->top += page;
		break;
	case ACTION_TOP:
		x->top = 0;
		break;
	case ACTION_BOTTOM:
		x->top = total > page ? total - page : 0;
		break;
	default:
		break;
	}
	return (TUI_HANDLED);
}

static attr_t
rltest_value_role(enum expr_value v)
{
	switch (v) {
	case EXPR_TRUE:
		return (screen_role(THEME_ROLE_OK));
	case EXPR_MISSING:
	case EXPR_UNKNOWN:
		return (screen_role(THEME_ROLE_WARNING));
	case EXPR_FALSE:
		break;
	}
	return (screen_role(THEME_ROLE_ERROR));
}

static void
rltest_explain_draw(struct tui *t, struct modal *m)
{
	struct rltest_explain	*x = (struct rltest_explain *)m;
	const struct ruletest_step *st;
	struct buf		 b = BUF_INITIALIZER;
	size_t			 i;
	int			 y, col;

	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, screen_role(THEME_ROLE_NORMAL));
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	screen_put(1, 1, COLS - 1, x->title, screen_role(THEME_ROLE_TITLE));
	for (i = x->top, y = 2; i < x->nhead + x->n && y < LINES - 1;
	    i++, y++) {
		if (i < x->nhead) {
			screen_put(y, 1, COLS - 1, x->head[i],
			    screen_role(THEME_ROLE_NORMAL));
			continue;
		}
		st = &x->steps[i - x->nhead];
		col = 1 + 2 * st->depth;
		if (col >= COLS - 10)
			col = COLS - 10;
		screen_put(y, col, 8, ruletest_value_name(st->value),
		    rltest_value_role(st->value) | A_BOLD);
		buf_reset(&b);
		buf_adds(&b, st->text);
		if (st->seen != NULL)
			buf_addf(&b, "    (left: %s)", st->seen);
		screen_put(y, col + 8, COLS - col - 8, buf_str(&b),
		    st->value == EXPR_TRUE ? screen_role(THEME_ROLE_NORMAL) :
		    rltest_value_role(st->value));
	}
	buf_reset(&b);
	if (!status_draw_message(t)) {
		status_hint_pair(t, &b, KEYMAP_TEXT, ACTION_UP, ACTION_DOWN,
		    "scroll");
		status_hint(t, &b, KEYMAP_TEXT, ACTION_QUIT,
		    "back to the tester");
		status_draw_hints(t, &b, THEME_ROLE_DIM);
	}
	buf_free(&b);
}

static void
rltest_explain_free(struct modal *m)
{
	struct rltest_explain	*x = (struct rltest_explain *)m;
	size_t			 i;

	for (i = 0; i < x->nhead; i++)
		free(x->head[i]);
	free(x->head);
	ruletest_steps_free(x->steps, x->n);
	free(x->title);
	free(x);
}

/* Lines above the tree, one row each (a rendered parse error has three). */
static void
rltest_explain_line(struct rltest_explain *x, const char *text)
{
	const char	*nl;

	for (;;) {
		nl = strchr(text, '\n');
		x->head = xreallocarray(x->head, x->nhead + 1,
		    sizeof *x->head);
		x->head[x->nhead++] = nl != NULL ? xstrndup(text,
		    (size_t)(nl - text)) : xstrdup(text);
		if (nl == NULL || nl[1] == '\0')
			break;
		text = nl + 1;
	}
}

static void
rltest_explain_open(struct rltest *s, size_t sel)
{
	const struct ruletest_result	*res = &s->res[sel];
	struct rltest_explain		*x;
	struct expr_error		 err;
	char				*line;

	x = xcalloc(1, sizeof *x);
	x->m.key = rltest_explain_key;
	x->m.draw = rltest_explain_draw;
	x->m.free = rltest_explain_free;
	x->m.flags = MODAL_VIEW;
	x->title = xprintf("rule #%d %s: %s", res->position,
	    rltest_rule_name(res->rule), rltest_word(s, sel));
	line = xprintf("request: %s", s->asked);
	rltest_explain_line(x, line);
	free(line);
	if ((int)sel == s->edited_at)
		rltest_explain_line(x, "(the rule being edited, not saved)");
	if (res->verdict == RULETEST_DISABLED)
		rltest_explain_line(x, "disabled: not evaluated; were it "
		    "enabled:");
	x->steps = ruletest_explain(res->rule, s->rq, &x->n, &err);
	if (x->steps == NULL) {
		line = expr_error_render(rltest_str(res->rule, "expression"),
		    &err);
		rltest_explain_line(x, line);
		free(line);
	} else
		rltest_explain_line(x, "each part of the expression, with "
		    "what the request gave its left side:");
	rltest_explain_line(x, "");
	tui_push(s->t, &x->m);
}

/* ---- the tester -------------------------------------------------------- */

static int
rltest_list_key(struct tui *t, struct rltest *s, int key)
{
	enum action	a = keymap_lookup(t->keymap, KEYMAP_TESTER, key);

	if (a == ACTION_BACK && listview_back(s->lv))
		return (TUI_HANDLED);
	if (listview_action(s->lv, a) != 0)
		return (TUI_HANDLED);
	if (a == ACTION_QUIT || a == ACTION_BACK)
		tui_pop(t);
	return (TUI_HANDLED);
}

static int
rltest_key(struct tui *t, struct modal *m, int key)
{
	struct rltest	*s = (struct rltest *)m;

	if (s->focus < 0)
		return (rltest_list_key(t, s, key));
	if (key == 033) {
		tui_pop(t);
		return (TUI_HANDLED);
	}
	if (key == '\t' || key == KEY_BTAB) {
		rltest_move(s, key == '\t' ? 1 : -1);
		return (TUI_HANDLED);
	}
	switch (key) {
	case '\r':
		rltest_run(s);
		break;
	case KEY_DOWN:
		rltest_move(s, 1);
		break;
	case KEY_UP:
		rltest_move(s, -1);
		break;
	default:
		line_key(&s->f[s->focus], key);
		break;
	}
	return (TUI_HANDLED);
}

/* The state above the list: what was asked and what came of it. */
static void
rltest_summary(const struct rltest *s, struct buf *b, enum theme_role *role)
{
	char	*sum;

	*role = THEME_ROLE_DIM;
	if (s->req != NULL)
		buf_adds(b, "fetching the zone's rules...");
	else if (s->error != NULL) {
		buf_adds(b, s->error);
		*role = THEME_ROLE_ERROR;
	} else if (!s->ran)
		buf_adds(b, "Enter tests the request on the zone's rules");
	else if (s->n == 0)
		buf_adds(b, "the zone has no rate limiting rules");
	else {
		sum = ruletest_summary(s->res, s->n, s->acts);
		buf_addf(b, "%s: %s", s->asked, sum);
		free(sum);
		*role = rltest_counted(s) ? THEME_ROLE_OK : THEME_ROLE_WARNING;
	}
}

/*
 * A row's word: ACTS FIRST for the rule that would stop the request once
 * over its rate, COUNTS for the others that count it, else the verdict.
 */
static const char *
rltest_word(const struct rltest *s, size_t i)
{
	const struct ruletest_result	*r = &s->res[i];

	if ((int)i == s->acts && r->count == RULETEST_COUNTED)
		return ("ACTS FIRST");
	if ((int)i == s->acts)
		return ("acts first");
	if (r->count == RULETEST_COUNTED)
		return ("COUNTS");
	if (r->count == RULETEST_MAY_COUNT)
		return ("may count");
	if (r->verdict == RULETEST_MATCH)
		return ("not counted");
	return (ruletest_verdict_name(r->verdict));
}

/*
 * A verdict's row; the expression is cut with an ellipsis: Enter explains
 * it whole.
 */
static attr_t
rltest_row(struct listview *lv, size_t i, int cols, struct buf *b)
{
	struct rltest			*s = listview_arg(lv);
	const struct ruletest_result	*r = &s->res[i];
	enum theme_role			 role = THEME_ROLE_NORMAL;
	attr_t				 a;
	char				*name, *cut;

	buf_addf(b, "%-3d %-12s ", r->position, rltest_word(s, i));
	rltest_cell(b, rltest_str(r->rule, "action"), 17);
	buf_addc(b, ' ');
	name = (int)i == s->edited_at ? xprintf("%s (edited)",
	    rltest_rule_name(r->rule)) : xstrdup(rltest_rule_name(r->rule));
	rltest_cell(b, name, RLTEST_NAME);
	free(name);
	if (*r->why != '\0')
		buf_addf(b, "  %s", r->why);
	else
		buf_addf(b, "  %s", rltest_str(r->rule, "expression"));
	if (text_width(buf_str(b)) > (size_t)cols) {
		cut = text_ellipsize(buf_str(b), (size_t)cols,
		    screen_ellipsis());
		buf_reset(b);
		buf_adds(b, cut);
		free(cut);
	}
	if (r->count == RULETEST_COUNTED)
		role = THEME_ROLE_OK;
	else if (r->verdict == RULETEST_INVALID)
		role = THEME_ROLE_ERROR;
	else if (r->count == RULETEST_MAY_COUNT)
		role = THEME_ROLE_WARNING;
	else if (r->verdict != RULETEST_MATCH)
		role = THEME_ROLE_DIM;
	a = screen_role(role);
	if ((int)i == s->acts)
		a |= A_BOLD;
	return (a);
}

static size_t
rltest_count(struct listview *lv)
{
	return (((struct rltest *)listview_arg(lv))->n);
}

static void
rltest_header(struct listview *lv, int cols, struct buf *b)
{
	struct rltest	*s = listview_arg(lv);

	(void)cols;
	if (s->n > 0)
		buf_addf(b, "%-3s %-12s %-17s %-*s  %s", "#", "VERDICT",
		    "ACTION", RLTEST_NAME, "RULE", "EXPRESSION");
}

static const char *const rltest_sorts[] = {
	"position", "verdict", "action", "rule", NULL
};

static int
rltest_compare(struct listview *lv, size_t a, size_t b, int sort)
{
	struct rltest			*s = listview_arg(lv);
	const struct ruletest_result	*ra = &s->res[a], *rb = &s->res[b];

	switch (sort) {
	case 0:
		return (ra->position - rb->position);
	case 1:
		return (strcmp(rltest_word(s, a), rltest_word(s, b)));
	case 2:
		return (strcmp(rltest_str(ra->rule, "action"),
		    rltest_str(rb->rule, "action")));
	default:
		return (strcmp(rltest_rule_name(ra->rule),
		    rltest_rule_name(rb->rule)));
	}
}

static void
rltest_enter(struct listview *lv, size_t i)
{
	rltest_explain_open(listview_arg(lv), i);
}

/* Tab and S-Tab go to the form (its first field, its last); r runs. */
static int
rltest_list_action(struct listview *lv, enum action a)
{
	struct rltest	*s = listview_arg(lv);

	switch (a) {
	case ACTION_NEXT_PANEL:
	case ACTION_PREV_PANEL:
		rltest_move(s, a == ACTION_NEXT_PANEL ? 1 : -1);
		return (TUI_HANDLED);
	case ACTION_REFRESH:
		rltest_run(s);
		return (TUI_HANDLED);
	default:
		return (0);
	}
}

static const struct listview_ops rltest_ops = {
	.name = "tester",
	.context = KEYMAP_TESTER,
	.keys = (const struct listview_key[]){
		{ ACTION_REFRESH, "fetch the rules, test the request again" },
		{ ACTION_NEXT_PANEL, "the request's form, at its first field" },
		{ ACTION_PREV_PANEL, "the request's form, at its last field" },
		{ ACTION_NONE, NULL }
	},
	.enter_help = "the rule's explained tree: each part of its "
	    "expression, with what the request gave it",
	.sorts = rltest_sorts,
	.count = rltest_count,
	.row = rltest_row,
	.header = rltest_header,
	.compare = rltest_compare,
	.enter = rltest_enter,
	.action = rltest_list_action,
};

/* The form's keys, or the verdicts' from the keymap. */
static void
rltest_footer(struct rltest *s, struct buf *b)
{
	struct tui	*t = s->t;

	if (s->focus >= 0) {
		screen_fill(LINES - 1, 0, COLS, screen_role(THEME_ROLE_STATUS));
		screen_put(LINES - 1, 0, COLS, " Enter test  Tab/arrows "
		    "fields  Esc close", screen_role(THEME_ROLE_DIM));
		return;
	}
	status_hint(t, b, KEYMAP_TESTER, ACTION_DETAILS, "explain the rule");
	status_hint(t, b, KEYMAP_TESTER, ACTION_REFRESH, "test again");
	status_hint(t, b, KEYMAP_TESTER, ACTION_NEXT_PANEL, "the form");
	status_hint(t, b, KEYMAP_TESTER, ACTION_QUIT, "close");
	status_draw_hints(t, b, THEME_ROLE_DIM);
}

static void
rltest_draw(struct tui *t, struct modal *m)
{
	struct rltest	*s = (struct rltest *)m;
	struct buf	 b = BUF_INITIALIZER;
	enum theme_role	 role;
	int		 fields[RLTEST_NFIELDS], y, w;
	size_t		 n, i;

	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, screen_role(THEME_ROLE_NORMAL));
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	buf_adds(&b, s->edited == NULL ? "rules tester: a request on the "
	    "zone's rate limiting rules" : "rules tester: a request on the "
	    "zone's rules, with the rule being edited");
	if (s->n > 0)
		listview_title_state(s->lv, &b);
	screen_put(1, 1, COLS - 1, buf_str(&b), screen_role(THEME_ROLE_TITLE));
	buf_reset(&b);
	n = rltest_visible(s, fields);
	w = COLS - RLTEST_LABEL - 2;
	for (i = 0, y = 2; i < n && y < LINES - 2; i++, y++) {
		screen_put(y, 1, RLTEST_LABEL - 1, rltest_label(fields[i]),
		    screen_role(fields[i] == s->focus ? THEME_ROLE_KEY :
		    THEME_ROLE_NORMAL));
		line_draw(&s->f[fields[i]], y, RLTEST_LABEL, w,
		    screen_role(fields[i] == s->focus ?
		    THEME_ROLE_INPUT_FOCUS : THEME_ROLE_INPUT),
		    fields[i] == s->focus);
	}
	y++;
	rltest_summary(s, &b, &role);
	if (y < LINES - 1)
		screen_put(y++, 1, COLS - 1, buf_str(&b), screen_role(role));
	buf_reset(&b);
	if (s->n > 0 && y < LINES - 1) {
		listview_focus(s->lv, s->focus < 0);
		listview_draw(s->lv, y, 0, LINES - 1 - y, COLS);
	}
	if (!status_draw_message(t))
		rltest_footer(s, &b);
	buf_free(&b);
}

static void
rltest_free(struct modal *m)
{
	struct rltest	*s = (struct rltest *)m;

	rltest_keep(s);
	rltest_cancel_fetch(s);
	rltest_clear_run(s);
	listview_free(s->lv);
	expr_request_free(s->rq);
	free(s->asked);
	cJSON_Delete(s->edited);
	free(s);
}

void
rltest_open(struct tui *t, const cJSON *edited_rule)
{
	struct rltest	*s;
	int		 i;

	s = xcalloc(1, sizeof *s);
	s->m.key = rltest_key;
	s->m.draw = rltest_draw;
	s->m.free = rltest_free;
	s->t = t;
	s->acts = -1;
	s->edited_at = -1;
	s->lv = listview_new(t, &rltest_ops, s);
	if (edited_rule != NULL)
		s->edited = cJSON_Duplicate(edited_rule, 1);
	for (i = 0; i < RLTEST_NFIELDS; i++)
		line_set(&s->f[i], rltest_kept[i]);
	if (s->f[RLTEST_METHOD].len == 0)
		line_set(&s->f[RLTEST_METHOD], "GET");
	s->focus = RLTEST_URL;
	tui_push(t, &s->m);
}
