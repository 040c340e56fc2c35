/*
 * Lists too large to load whole: the first page at once, the next ones as
 * the cursor nears the end of what is loaded, every one on G once the cost
 * in requests is confirmed. A kind marked lazy (videos) always loads so;
 * another does when the first page's total says the rest would take more
 * than PAGER_EAGER_REQUESTS requests.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pager.h"
#include "resource.h"
#include "tui.h"
#include "xmalloc.h"

/* A lazy kind's first page: the first screen, and more, at once. */
#define PANEL_LAZY_FIRST	100
/* The next page is asked for this many screens before the end. */
#define PANEL_LAZY_SCREENS	3
#define PANEL_BUDGET		1200

/* A load's pager: a lazy kind asks for a small first page. */
struct pager *
panel_lazy_pager(struct panel *p, struct pager_opts *po)
{
	long	first = p->kind->per_page.max;

	p->lazy = PANEL_LAZY_OFF;
	p->lazy_page = 0;
	if (p->kind->lazy && p->kind->paging == PAGER_CREATED &&
	    first > PANEL_LAZY_FIRST) {
		po->flags |= PAGER_SEND_LIMIT;
		first = PANEL_LAZY_FIRST;
	}
	return (pager_new(p->kind->paging, first, po));
}

/* Requests the rest of the list takes, at the page size from now on. */
static long
panel_lazy_cost(const struct panel *p)
{
	return (pager_rest_requests(p->pager, p->lazy_page));
}

int
panel_lazy_wait(struct panel *p, size_t n)
{
	long	cost;

	if (p->lazy == PANEL_LAZY_ALL)
		return (0);
	if (p->lazy == PANEL_LAZY_OFF) {
		/* After a small first page, full ones. */
		if (p->kind->lazy)
			pager_set_per_page(p->pager, p->kind->per_page.max);
		if (p->lazy_page == 0)
			p->lazy_page = p->kind->lazy ?
			    pager_per_page(p->pager) : (long)n;
		cost = panel_lazy_cost(p);
		if (!p->kind->lazy && (cost < 0 || cost <= PAGER_EAGER_REQUESTS))
			return (0);
		p->lazy = PANEL_LAZY_ON;
		/* The reload is over: rows not in its first page are gone. */
		rows_end(p->rows);
	}
	p->loading = 0;
	return (1);
}

int
panel_lazy_more(struct panel *p)
{
	int	ahead = PANEL_LAZY_SCREENS * (LINES > 0 ? LINES : 24);

	if (p->lazy == PANEL_LAZY_OFF || p->loading || p->pager == NULL ||
	    pager_done(p->pager) ||
	    p->cursor + (size_t)ahead < rows_count(p->rows))
		return (0);
	p->loading = 1;
	panel_next_page(p);
	return (1);
}

static void
panel_lazy_all(struct tui *t, void *arg, const char *answer)
{
	struct panel	*p = arg;

	(void)t;
	if (strcmp(answer, "y") == 0 && p->pager != NULL &&
	    !pager_done(p->pager)) {
		p->lazy = PANEL_LAZY_ALL;
		if (!p->loading) {
			p->loading = 1;
			panel_next_page(p);
		}
	}
	if (rows_count(p->rows) > 0)
		p->cursor = rows_count(p->rows) - 1;
	panel_remember(p);
}

int
panel_lazy_bottom(struct panel *p)
{
	struct buf	 q;
	long		 have, total, cost;

	if (p->lazy != PANEL_LAZY_ON || p->pager == NULL ||
	    pager_done(p->pager))
		return (0);
	pager_progress(p->pager, &have, &total);
	cost = panel_lazy_cost(p);
	buf_init(&q);
	if (cost > 0)
		buf_addf(&q, "%ld of %ld %s loaded: load the other %ld? It "
		    "takes about %ld requests (%ld%% of the API's %d per 5 "
		    "minutes). n: go to the last loaded", have, total,
		    p->kind->name, total - have, cost, (cost * 100 +
		    PANEL_BUDGET - 1) / PANEL_BUDGET, PANEL_BUDGET);
	else
		buf_addf(&q, "%ld %s loaded, the total is unknown: load every "
		    "page, one request each? n: go to the last loaded", have,
		    p->kind->name);
	dialog_ask(p->tui, "load all", buf_str(&q), panel_lazy_all, p, NULL);
	buf_free(&q);
	return (1);
}

/* "1000 loaded of 1000050" (the view's count first under a filter). */
int
panel_lazy_title(struct panel *p, struct buf *b)
{
	long	have, total;

	if (p->lazy == PANEL_LAZY_OFF || p->pager == NULL ||
	    pager_done(p->pager))
		return (0);
	pager_progress(p->pager, &have, &total);
	if (p->filter != NULL)
		buf_addf(b, "  %zu of", rows_count(p->rows));
	buf_addf(b, "  %zu loaded", rows_total(p->rows));
	if (total >= 0)
		buf_addf(b, " of %ld", total);
	if (p->loading)
		buf_adds(b, p->lazy == PANEL_LAZY_ALL ? "  loading all..." :
		    "  loading...");
	return (1);
}

/* A whole list loaded on G: the cursor goes to its last row. */
void
panel_lazy_done(struct panel *p)
{
	if (p->lazy == PANEL_LAZY_ALL && rows_count(p->rows) > 0) {
		p->cursor = rows_count(p->rows) - 1;
		panel_remember(p);
	}
}
