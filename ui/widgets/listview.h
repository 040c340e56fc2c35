/*
 * One list view for the lists that are not kinds: the journal, the request
 * log, the transfers tray, the tester's results, the simulation's report
 * and pickers. The view keeps the cursor, scrolling, the filter (/), the
 * sort (o, O), marks (Space, C-a, C-u), copying (y) and writing the rows
 * to a file (w); its ops say how many items there are, what a row reads,
 * what Enter and the view's own keys do. tmux's mode-tree serves every
 * tree mode the same way.
 */
#ifndef EDGE_LISTVIEW_H
#define EDGE_LISTVIEW_H

#include <curses.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "keymap.h"
#include "theme.h"

struct tui;
struct listview;

/* ops->flags */
#define LISTVIEW_ARROW		0x1	/* '>' marks the cursor's row */
#define LISTVIEW_PICK		0x2	/* a choice: no marks, sort, y or w */

/*
 * An action a view offers beside the generic ones: ? lists it with help
 * (NULL: the action's own line).
 */
struct listview_key {
	enum action	 action;
	const char	*help;
};

struct listview_ops {
	const char		*name;		/* "journal": ?'s title */
	enum keymap_context	 context;	/* where keys are looked up */
	int			 flags;
	enum action		 closes;	/* as q does (the key that opened
						   it), or ACTION_NONE */
	/* What the view's own keys do and what Enter does there, for ?. */
	const struct listview_key *keys;	/* ends with ACTION_NONE */
	const char		*enter_help;	/* NULL: Enter opens nothing */
	const char		*help;		/* ?'s text above the keys */
	/* What o offers to sort by (NULL-terminated), compare's sort. */
	const char *const	*sorts;

	size_t		 (*count)(struct listview *);
	/*
	 * Item i's row in cols columns onto b (a wide cols: the whole row,
	 * as y and w take it); returns its attribute when not selected.
	 */
	attr_t		 (*row)(struct listview *, size_t, int, struct buf *);
	/* The column heads in cols columns; none: no row for them. */
	void		 (*header)(struct listview *, int, struct buf *);
	/* What follows an item through changes (marks, the cursor). */
	uint64_t	 (*key)(struct listview *, size_t);
	/* Items a and b by sort (sorts[sort]): <0, 0, >0. */
	int		 (*compare)(struct listview *, size_t, size_t, int);
	/* Enter on item i. */
	void		 (*enter)(struct listview *, size_t);
	/* Any action first: TUI_HANDLED when the view took it. */
	int		 (*action)(struct listview *, enum action);
	/* y: what item i gives (what: "the curl command"); -1: nothing. */
	int		 (*copy)(struct listview *, size_t, struct buf *,
			     const char **);
	/* With no items: what to say, in which role (NULL: nothing). */
	const char	*(*empty)(struct listview *, enum theme_role *);

	/* As a view of its own (listview_open), each may be NULL. */
	void		 (*title)(struct listview *, struct buf *);
	void		 (*footer)(struct listview *, struct buf *);
	void		 (*reread)(struct listview *);	/* before a draw */
	void		 (*free)(void *);
};

struct listview	*listview_new(struct tui *, const struct listview_ops *,
		     void *);
void		 listview_free(struct listview *);
void		*listview_arg(struct listview *);
struct tui	*listview_tui(struct listview *);

/*
 * The heads and rows in h rows of w columns at y, x; with no items the
 * empty text. Returns the rows drawn.
 */
int		 listview_draw(struct listview *, int, int, int, int);
/*
 * An action on the list: the view's first, then moving, /, o, O, marks,
 * y, w, Enter, ?. TUI_HANDLED, or 0 when neither took it (q, Esc).
 */
int		 listview_action(struct listview *, enum action);
/* Esc: the filter cleared (1), or none to clear (0). */
int		 listview_back(struct listview *);
/* The item under the cursor: 0, or -1 with none. */
int		 listview_current(struct listview *, size_t *);
/* Put the cursor on item i, or on the first row. */
void		 listview_select(struct listview *, size_t);
void		 listview_top(struct listview *);
/* Whether the cursor's row is shown selected (a form has the focus). */
void		 listview_focus(struct listview *, int);
/* The filter, marks and sort in the title ("  /text  2 marked"). */
void		 listview_title_state(struct listview *, struct buf *);
/* "  KEY label" when a key does a in the view (status_hint). */
void		 listview_hint(struct listview *, struct buf *, enum action,
		     const char *);

/*
 * A view of its own over the panels: the title at the top, the list, the
 * footer; q closes it, Esc clears the filter first; a key clears the last
 * message unless it is an error, as in the lists.
 */
struct listview	*listview_open(struct tui *, const struct listview_ops *,
		     void *);
/* Close a view listview_open made, wherever it is among the modals. */
void		 listview_close(struct listview *);

#endif
