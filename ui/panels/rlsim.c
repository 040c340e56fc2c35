/*
 * :simulate FILE: an access log run through the zone's rate limiting rules
 * (src/simulate.h), or through them with a rule being edited, on a thread
 * of the worker with a progress bar that Esc or q cancels; then the report
 * as a list view (Enter: a rule's top clients). The numbers are those of
 * `edgetui rules simulate -o json`: the same report object.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accesslog.h"
#include "buf.h"
#include "edge_session.h"
#include "edit.h"
#include "kind.h"
#include "rulesets.h"
#include "ruletest.h"
#include "screen.h"
#include "simulate.h"
#include "text.h"
#include "tui.h"
#include "widgets/listview.h"
#include "xmalloc.h"

#include "panels/rltest.h"

#define RLSIM_BAR	40	/* the progress bar's columns, at most */

enum rlsim_phase {
	RLSIM_FETCH,		/* the zone's rules */
	RLSIM_RUN,		/* the log, on the worker */
	RLSIM_DONE		/* the report */
};

struct rlsim {
	struct modal		 m;
	struct tui		*t;
	enum rlsim_phase	 phase;
	char			*path;
	cJSON			*edited;
	int			 edited_at;	/* in rules, or -1 */
	cJSON			*rules;		/* those simulated */
	struct tui_req		*req;		/* the fetch or the run */
	unsigned long		 job;
	long long		 done;		/* bytes read, or lines */
	long long		 total;		/* the file's size; -1: lines */
	cJSON			*result;	/* the run's (rlsim_result) */
	struct listview		*lv;		/* the report's rules */
};

/* What the thread owns: freed by it however it ends. */
struct rlsim_job {
	char		*path;
	cJSON		*rules;
	struct jobs	*jobs;
	unsigned long	 id;
	struct accesslog *log;
	uint64_t	 shown;		/* lines the bar said while waiting */
};

static const struct listview_ops rlsim_ops;

/* The last log simulated: the prompt offers it. */
static char	*rlsim_last;

/* s cleaned for the terminal, cut to cols columns and padded to them. */
static void
rlsim_cell(struct buf *b, const char *s, size_t cols)
{
	char	*cell = text_cell(s, cols, screen_ellipsis());

	buf_adds(b, cell);
	free(cell);
}

/* ---- the run, on its own thread ---------------------------------------- */

/*
 * Bytes of the file's size; when its size is unknown (a pipe), the lines
 * read, as a negative total says.
 */
static int
rlsim_progress(void *arg, uint64_t done, uint64_t total)
{
	struct rlsim_job	*job = arg;

	if (total == 0)
		return (jobs_progress(job->jobs, job->id,
		    (long long)accesslog_lines(job->log), -1));
	return (jobs_progress(job->jobs, job->id, (long long)done,
	    (long long)total));
}

/* A log from a pipe that keeps the reader waiting asks this. */
static int
rlsim_cancelled(void *arg)
{
	struct rlsim_job	*job = arg;
	uint64_t		 done, total;

	/* Waiting on a pipe: the lines read so far, when they changed. */
	if (job->log != NULL && accesslog_lines(job->log) != job->shown) {
		job->shown = accesslog_lines(job->log);
		accesslog_progress(job->log, &done, &total);
		return (rlsim_progress(job, done, total));
	}
	return (jobs_cancelled(job->jobs, job->id));
}

/*
 * The report as `rules simulate -o json` prints it ("report"), with what
 * the list shows besides: the requests read, the first bad lines, the
 * notes on the rules and the format read.
 */
static cJSON *
rlsim_result(const struct simulate_report *rep, char **notes,
    const struct accesslog *log)
{
	cJSON	*o, *bad, *b, *n;
	size_t	 i;

	o = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "report", simulate_report_json(rep));
	cJSON_AddNumberToObject(o, "requests", (double)rep->requests);
	cJSON_AddStringToObject(o, "format", accesslog_format(log) ==
	    ACCESSLOG_COMBINED ? "combined" : "logpush");
	bad = cJSON_AddArrayToObject(o, "bad");
	for (i = 0; i < rep->nbad; i++) {
		b = cJSON_CreateObject();
		cJSON_AddNumberToObject(b, "line", (double)rep->bad[i].line);
		cJSON_AddStringToObject(b, "why", rep->bad[i].why);
		cJSON_AddStringToObject(b, "text", rep->bad[i].text);
		cJSON_AddItemToArray(bad, b);
	}
	n = cJSON_AddArrayToObject(o, "notes");
	for (i = 0; notes != NULL && notes[i] != NULL; i++)
		cJSON_AddItemToArray(n, cJSON_CreateString(notes[i]));
	return (o);
}

static enum status
rlsim_job_run(struct jobs *jobs, unsigned long id, void *arg,
    cJSON **result, char **cause)
{
	struct rlsim_job		*job = arg;
	struct accesslog_options	 lo;
	struct simulate_report		 rep;
	struct simulate			*sim = NULL;
	struct accesslog		*log = NULL;
	char				**notes = NULL;
	uint64_t			 done, total;
	enum status			 st = STATUS_IO;

	job->jobs = jobs;
	job->id = id;
	memset(&lo, 0, sizeof lo);
	/* A FIFO that never closes: Esc, q or quitting still end the run. */
	lo.cancelled = rlsim_cancelled;
	lo.cancel_arg = job;
	if ((sim = simulate_new(job->rules, &notes, cause)) == NULL) {
		st = STATUS_INVALID;
		goto out;
	}
	if ((log = accesslog_open(job->path, &lo, cause)) == NULL)
		goto out;
	job->log = log;
	/* The size at once, for the bar. */
	accesslog_progress(log, &done, &total);
	if (rlsim_progress(job, done, total) != 0 ||
	    simulate_log(sim, log, rlsim_progress, job, cause) != 0) {
		if (jobs_cancelled(jobs, id))
			st = STATUS_CANCELLED;
		goto out;
	}
	simulate_report(sim, log, &rep);
	*result = rlsim_result(&rep, notes, log);
	simulate_report_free(&rep);
	st = STATUS_OK;
out:
	accesslog_close(log);
	simulate_free(sim);
	simulate_notes_free(notes);
	cJSON_Delete(job->rules);
	free(job->path);
	free(job);
	return (st);
}

/* ---- the view ---------------------------------------------------------- */

/* Close the view wherever it is in the stack (a report may be above). */
static void
rlsim_close(struct rlsim *s)
{
	struct tui	*t = s->t;
	struct modal	*m;

	for (m = t->modal; m != NULL && m != &s->m; m = m->below)
		continue;
	if (m == NULL)
		return;
	while (t->modal != &s->m)
		tui_pop(t);
	tui_pop(t);
}

static void
rlsim_cancel_req(struct rlsim *s)
{
	if (s->req != NULL && tui_req_known(s->t, s->req) &&
	    s->req->job == s->job)
		tui_cancel_req(s->t, s->req);
	s->req = NULL;
}

static void
rlsim_event(struct tui *t, struct tui_req *r, struct jobs_event *ev)
{
	struct rlsim	*s = r->done_arg;
	const cJSON	*rep;

	switch (ev->kind) {
	case JOBS_EVENT_PROGRESS:
		s->done = ev->done;
		s->total = ev->total;
		return;
	case JOBS_EVENT_FAILED:
		s->req = NULL;
		tui_message(t, TUI_MSG_ERROR, "simulate %s: %s", s->path,
		    tui_cause(r, ev));
		rlsim_close(s);
		return;
	case JOBS_EVENT_DONE:
		break;
	default:
		return;
	}
	s->req = NULL;
	s->result = ev->result;
	ev->result = NULL;
	s->phase = RLSIM_DONE;
	s->lv = listview_new(t, &rlsim_ops, s);
	rep = cJSON_GetObjectItemCaseSensitive(s->result, "report");
	tui_message(t, TUI_MSG_OK, "simulated %s: %.0f lines, %.0f mitigated "
	    "by at least one rule", s->path, cJSON_GetNumberValue(
	    cJSON_GetObjectItemCaseSensitive(rep, "lines")),
	    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(rep,
	    "requests_mitigated_by_any")));
}

/* The rules are here (NULL: none): the run starts on the worker. */
static void
rlsim_run(struct rlsim *s, const cJSON *rules)
{
	struct tui		*t = s->t;
	struct rlsim_job	*job;

	s->rules = ruletest_rules_with(rules, s->edited, &s->edited_at);
	if (cJSON_GetArraySize(s->rules) == 0) {
		tui_message(t, TUI_MSG_WARN, "simulate: the zone has no rate "
		    "limiting rules: nothing to simulate");
		rlsim_close(s);
		return;
	}
	job = xcalloc(1, sizeof *job);
	job->path = xstrdup(s->path);
	job->rules = cJSON_Duplicate(s->rules, 1);
	s->phase = RLSIM_RUN;
	if ((s->req = tui_submit_view_job(t, rlsim_job_run, job, rlsim_event,
	    s)) == NULL) {
		cJSON_Delete(job->rules);
		free(job->path);
		free(job);
		rlsim_close(s);
		return;
	}
	s->job = s->req->job;
}

static void
rlsim_fetched(struct tui *t, struct tui_req *r, struct jobs_event *ev)
{
	struct rlsim	*s = r->done_arg;

	if (ev->kind != JOBS_EVENT_DONE && ev->kind != JOBS_EVENT_FAILED)
		return;
	s->req = NULL;
	/* 404: no entry point yet, so no rules. */
	if (ev->kind == JOBS_EVENT_FAILED && ev->http_status != 404) {
		tui_message(t, TUI_MSG_ERROR, "simulate: the zone's rules could "
		    "not be fetched: %s", tui_cause(r, ev));
		rlsim_close(s);
		return;
	}
	rlsim_run(s, ev->kind == JOBS_EVENT_DONE ?
	    rulesets_rules(ev->result) : NULL);
}

static const cJSON *
rlsim_rules_report(const struct rlsim *s)
{
	return (cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(s->result, "report"), "rules"));
}

static double
rlsim_num(const cJSON *o, const char *key)
{
	return (cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, key)));
}

static const char *
rlsim_str(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	return (cJSON_IsString(v) ? v->valuestring : "");
}

/* Enter on a rule: its top clients. */
static void
rlsim_top(struct listview *lv, size_t i)
{
	struct rlsim	*s = listview_arg(lv);
	const cJSON	*r, *c;
	struct buf	 b = BUF_INITIALIZER;
	char		*title;

	if ((r = cJSON_GetArrayItem(rlsim_rules_report(s), (int)i)) == NULL)
		return;
	title = xprintf("rule #%zu %s: top clients (%s)", i + 1,
	    *rlsim_str(r, "description") != '\0' ? rlsim_str(r,
	    "description") : rlsim_str(r, "id"), s->path);
	if (rlsim_num(r, "unknown") > 0)
		buf_addf(&b, "%.0f requests unknown: a regex reached its "
		    "matching limits (neither matched nor counted).\n\n",
		    rlsim_num(r, "unknown"));
	buf_addf(&b, "%-40s %9s %10s\n", "CLIENT", "REQUESTS", "MITIGATED");
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(r,
	    "top_clients"))
		buf_addf(&b, "%-40s %9.0f %10.0f\n", rlsim_str(c, "client"),
		    rlsim_num(c, "requests"), rlsim_num(c, "mitigated"));
	if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r,
	    "top_clients")) == 0)
		buf_adds(&b, "No request matched the rule.\n");
	tui_push(s->t, textview_modal(title, buf_str(&b)));
	free(title);
	buf_free(&b);
}

static int
rlsim_key(struct tui *t, struct modal *m, int key)
{
	struct rlsim	*s = (struct rlsim *)m;
	enum action	 a = keymap_lookup(t->keymap, KEYMAP_TESTER, key);

	if (s->phase != RLSIM_DONE) {
		/* Other keys wait: the run goes on. */
		if (a == ACTION_QUIT || a == ACTION_BACK) {
			tui_message(t, TUI_MSG_INFO, "simulate %s: cancelled; "
			    "nothing was kept", s->path);
			tui_pop(t);
		}
		return (TUI_HANDLED);
	}
	if (a == ACTION_BACK && listview_back(s->lv))
		return (TUI_HANDLED);
	if (listview_action(s->lv, a) != 0)
		return (TUI_HANDLED);
	if (a == ACTION_QUIT || a == ACTION_BACK)
		tui_pop(t);
	return (TUI_HANDLED);
}

/* "12.3 MiB" */
static void
rlsim_size(struct buf *b, long long n)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double			 v = (double)n;
	size_t			 u = 0;

	if (n < 1024) {
		buf_addf(b, "%lld bytes", n);
		return;
	}
	for (v /= 1024; v >= 1024 && u + 1 < nitems(units); v /= 1024)
		u++;
	buf_addf(b, "%.1f %s", v, units[u]);
}

/* "Esc or q cancels the run.": the keys that go back, from the keymap. */
static void
rlsim_cancel_keys(struct tui *t, struct buf *b)
{
	char	back[KEYMAP_KEY_NAME_MAX], quit[KEYMAP_KEY_NAME_MAX];
	int	nb, nq;

	nb = status_key_name(t, KEYMAP_TESTER, ACTION_BACK, back) != NULL;
	nq = status_key_name(t, KEYMAP_TESTER, ACTION_QUIT, quit) != NULL;
	if (nb && nq)
		buf_addf(b, "%s or %s cancels the run.", back, quit);
	else if (nb || nq)
		buf_addf(b, "%s cancels the run.", nb ? back : quit);
	else
		buf_adds(b, "Quitting the console cancels the run.");
}

static void
rlsim_draw_progress(struct rlsim *s)
{
	struct buf	 b = BUF_INITIALIZER;
	int		 pct = 0, w, fill, i;

	if (s->phase == RLSIM_FETCH)
		buf_adds(&b, "fetching the zone's rules...");
	else {
		if (s->total > 0)
			pct = (int)(100 * (s->done > s->total ? s->total :
			    s->done) / s->total);
		w = MINIMUM(RLSIM_BAR, COLS - 30);
		if (w > 4 && s->total > 0) {
			buf_addc(&b, '[');
			fill = w * pct / 100;
			for (i = 0; i < w; i++)
				buf_addc(&b, i < fill ? '#' : '.');
			buf_addf(&b, "] %3d%%  ", pct);
		}
		if (s->total < 0)
			buf_addf(&b, "%lld lines", s->done);
		else
			rlsim_size(&b, s->done);
		if (s->total > 0) {
			buf_adds(&b, " of ");
			rlsim_size(&b, s->total);
		}
		buf_adds(&b, " read");
	}
	screen_put(3, 2, COLS - 2, buf_str(&b),
	    screen_role(THEME_ROLE_PROGRESS));
	buf_reset(&b);
	rlsim_cancel_keys(s->t, &b);
	screen_put(5, 2, COLS - 2, buf_str(&b), screen_role(THEME_ROLE_DIM));
	buf_free(&b);
}

/* A report row's text: the rule's name, its counts, then marks (or ""). */
static void
rlsim_row_text(struct buf *b, const cJSON *r, size_t i, const char *name,
    const char *marks)
{
	buf_reset(b);
	buf_addf(b, "%-3zu ", i + 1);
	rlsim_cell(b, name, 24);
	buf_addf(b, " %9.0f %9.0f %8.0f %9.0f %10.0f  %s%s",
	    rlsim_num(r, "matched"), rlsim_num(r, "counted"),
	    rlsim_num(r, "clients"), rlsim_num(r, "clients_mitigated"),
	    rlsim_num(r, "requests_mitigated"),
	    cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r,
	    "first_mitigation")) ? rlsim_str(r, "first_mitigation") : "-",
	    marks);
}

static attr_t
rlsim_row(struct listview *lv, size_t i, int cols, struct buf *b)
{
	struct rlsim	*s = listview_arg(lv);
	const cJSON	*r = cJSON_GetArrayItem(rlsim_rules_report(s), (int)i);
	const cJSON	*rule = cJSON_GetArrayItem(s->rules, (int)i);
	const char	*name;
	char		 marks[32], *named;

	name = *rlsim_str(r, "description") != '\0' ?
	    rlsim_str(r, "description") : rlsim_str(r, "id");
	snprintf(marks, sizeof marks, "%s%s",
	    cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(rule, "enabled")) ?
	    " (disabled)" : "", (int)i == s->edited_at ? " (edited)" : "");
	rlsim_row_text(b, r, i, name, marks);
	/* Too narrow for the marks at the end: they lead the name instead. */
	if (*marks != '\0' && text_width(buf_str(b)) > (size_t)cols) {
		named = xprintf("%s %s", marks + 1, name);
		rlsim_row_text(b, r, i, named, "");
		free(named);
	}
	return (screen_role(rlsim_num(r, "requests_mitigated") > 0 ?
	    THEME_ROLE_WARNING : THEME_ROLE_NORMAL));
}

static size_t
rlsim_count(struct listview *lv)
{
	struct rlsim	*s = listview_arg(lv);

	return ((size_t)cJSON_GetArraySize(rlsim_rules_report(s)));
}

static void
rlsim_header(struct listview *lv, int cols, struct buf *b)
{
	(void)lv;
	(void)cols;
	buf_addf(b, "%-3s %-24s %9s %9s %8s %9s %10s  %s", "#", "RULE",
	    "MATCHED", "COUNTED", "CLIENTS", "CLIENTS_M", "MITIGATED",
	    "FIRST MITIGATION");
}

static const char *const rlsim_sorts[] = {
	"rule", "matched", "counted", "clients", "clients mitigated",
	"requests mitigated", "first mitigation", NULL
};

static int
rlsim_compare(struct listview *lv, size_t a, size_t b, int sort)
{
	static const char *const keys[] = {
		NULL, "matched", "counted", "clients", "clients_mitigated",
		"requests_mitigated"
	};
	struct rlsim	*s = listview_arg(lv);
	const cJSON	*ra = cJSON_GetArrayItem(rlsim_rules_report(s), (int)a);
	const cJSON	*rb = cJSON_GetArrayItem(rlsim_rules_report(s), (int)b);
	double		 va, vb;

	if (sort <= 0)
		return ((a > b) - (a < b));
	if ((size_t)sort >= nitems(keys))
		return (strcmp(rlsim_str(ra, "first_mitigation"),
		    rlsim_str(rb, "first_mitigation")));
	va = rlsim_num(ra, keys[sort]);
	vb = rlsim_num(rb, keys[sort]);
	return ((va > vb) - (va < vb));
}

static const struct listview_ops rlsim_ops = {
	.name = "simulation",
	.context = KEYMAP_TESTER,
	.enter_help = "the rule's top clients",
	.sorts = rlsim_sorts,
	.count = rlsim_count,
	.row = rlsim_row,
	.header = rlsim_header,
	.compare = rlsim_compare,
	.enter = rlsim_top,
};

/*
 * text from row y, wrapped (the rest indented) above row end, not cut at
 * the screen's width; returns the row after it.
 */
static int
rlsim_put_wrapped(int y, int end, const char *text, attr_t a)
{
	char	**rows;
	size_t	  i, n;

	rows = status_wrap_all(text, COLS > 8 ? (size_t)COLS - 4 : 4, &n);
	for (i = 0; i < n; i++) {
		if (y < end)
			screen_put(y++, i > 0 ? 3 : 1, COLS - (i > 0 ? 3 : 1),
			    rows[i], a);
		free(rows[i]);
	}
	free(rows);
	return (y);
}

static void
rlsim_draw_report(struct rlsim *s)
{
	const cJSON	*rep = cJSON_GetObjectItemCaseSensitive(s->result,
			    "report");
	const cJSON	*v;
	struct buf	 b = BUF_INITIALIZER;
	int		 y = 2;

	buf_addf(&b, "%.0f lines (%s), %.0f bad, %.0f requests; %.0f "
	    "mitigated by at least one rule", rlsim_num(rep, "lines"),
	    rlsim_str(s->result, "format"), rlsim_num(rep, "bad_lines"),
	    rlsim_num(s->result, "requests"),
	    rlsim_num(rep, "requests_mitigated_by_any"));
	y = rlsim_put_wrapped(y, LINES - 3, buf_str(&b),
	    screen_role(THEME_ROLE_OK));
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(s->result,
	    "notes")) {
		if (y >= LINES - 3)
			break;
		buf_reset(&b);
		buf_addf(&b, "note: %s", cJSON_IsString(v) ? v->valuestring :
		    "");
		y = rlsim_put_wrapped(y, LINES - 3, buf_str(&b),
		    screen_role(THEME_ROLE_WARNING));
	}
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(s->result,
	    "bad")) {
		if (y >= LINES - 3)
			break;
		buf_reset(&b);
		buf_addf(&b, "bad line %.0f: %s: %s", rlsim_num(v, "line"),
		    rlsim_str(v, "why"), rlsim_str(v, "text"));
		screen_put(y++, 1, COLS - 1, buf_str(&b),
		    screen_role(THEME_ROLE_ERROR));
	}
	y++;
	buf_free(&b);
	listview_draw(s->lv, y, 0, LINES - 1 - y, COLS);
}

static void
rlsim_draw(struct tui *t, struct modal *m)
{
	struct rlsim	*s = (struct rlsim *)m;
	struct buf	 b = BUF_INITIALIZER;
	int		 y;

	for (y = 1; y < LINES - 1; y++)
		screen_fill(y, 0, COLS, screen_role(THEME_ROLE_NORMAL));
	screen_fill(1, 0, COLS, screen_role(THEME_ROLE_TITLE));
	buf_addf(&b, "simulate %s on the zone's rate limiting rules%s",
	    s->path, s->edited != NULL ? ", with the rule being edited" : "");
	if (s->lv != NULL)
		listview_title_state(s->lv, &b);
	screen_put(1, 1, COLS - 1, buf_str(&b), screen_role(THEME_ROLE_TITLE));
	buf_reset(&b);
	if (s->phase == RLSIM_DONE)
		rlsim_draw_report(s);
	else
		rlsim_draw_progress(s);
	if (!status_draw_message(t)) {
		if (s->phase == RLSIM_DONE) {
			status_hint(t, &b, KEYMAP_TESTER, ACTION_DETAILS,
			    "top clients");
			status_hint(t, &b, KEYMAP_TESTER, ACTION_QUIT, "close");
		} else
			status_hint_pair(t, &b, KEYMAP_TESTER, ACTION_BACK,
			    ACTION_QUIT, "cancel");
		status_draw_hints(t, &b, THEME_ROLE_DIM);
	}
	buf_free(&b);
}

static void
rlsim_free(struct modal *m)
{
	struct rlsim	*s = (struct rlsim *)m;

	/* A run still going is told to stop; its thread frees its own. */
	rlsim_cancel_req(s);
	listview_free(s->lv);
	cJSON_Delete(s->result);
	cJSON_Delete(s->rules);
	cJSON_Delete(s->edited);
	free(s->path);
	free(s);
}

/* ---- starting ---------------------------------------------------------- */

static void
rlsim_start(struct tui *t, const char *typed, const cJSON *edited)
{
	struct api_var	 vars[EDGE_SCOPE_NVARS];
	struct rlsim	*s;
	struct stat	 st;
	const char	*why = NULL;
	char		*path, *api, *cause = NULL;

	if (strcmp(typed, "-") == 0) {
		tui_message(t, TUI_MSG_ERROR, "simulate: the console reads the "
		    "terminal, not a log: give a file");
		return;
	}
	path = edit_path_expand(typed);
	/* Said at once; the run says it again should it change. */
	if (stat(path, &st) == -1)
		why = strerror(errno);
	else if (S_ISDIR(st.st_mode))
		why = "a directory, not a log";
	if (why != NULL) {
		tui_message(t, TUI_MSG_ERROR, "simulate %s: %s; nothing was "
		    "run", path, why);
		free(path);
		return;
	}
	free(rlsim_last);
	rlsim_last = xstrdup(typed);
	s = xcalloc(1, sizeof *s);
	s->m.key = rlsim_key;
	s->m.draw = rlsim_draw;
	s->m.free = rlsim_free;
	/* Nothing is typed here: : opens over it, a list opened replaces
	 * it (and cancels a run). */
	s->m.flags = MODAL_VIEW;
	s->t = t;
	s->path = path;
	s->edited_at = -1;
	if (edited != NULL)
		s->edited = cJSON_Duplicate(edited, 1);
	tui_push(t, &s->m);
	edge_scope_vars(&t->session.scope, NULL, vars);
	if ((api = kind_list_path(&kind_rate_limit_rules, vars,
	    &cause)) == NULL) {
		/* No zone: the rule being edited can still be simulated. */
		if (s->edited != NULL)
			rlsim_run(s, NULL);
		else {
			tui_message(t, TUI_MSG_ERROR, "simulate: the zone's "
			    "rules: %s", cause);
			rlsim_close(s);
		}
		free(cause);
		return;
	}
	if ((s->req = tui_submit_view(t, "GET", api, rlsim_fetched,
	    s)) != NULL)
		s->job = s->req->job;
	else
		rlsim_close(s);
	free(api);
}

static void
rlsim_prompted(struct tui *t, void *arg, const char *answer)
{
	if (*answer == '\0') {
		tui_message(t, TUI_MSG_INFO, "simulate: no file given");
		return;
	}
	rlsim_start(t, answer, arg);
}

static void
rlsim_prompt_free(void *arg)
{
	cJSON_Delete(arg);
}

void
rlsim_open(struct tui *t, const char *path, const cJSON *edited_rule)
{
	if (path != NULL) {
		rlsim_start(t, path, edited_rule);
		return;
	}
	dialog_prompt(t, "simulate the rules on which access log? (Logpush "
	    "JSON lines or combined; .gz too)", rlsim_last != NULL ?
	    rlsim_last : "", 1, rlsim_prompted, edited_rule != NULL ?
	    cJSON_Duplicate(edited_rule, 1) : NULL, rlsim_prompt_free);
}
