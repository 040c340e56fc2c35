/*
 * The expression editor: a Rules language expression on several lines,
 * checked as it is typed (the error's characters highlighted, a caret
 * under them and the message below), Tab completing field and function
 * names with their types, C-f writing it in canonical form.
 */
#ifndef EDGE_EXPRVIEW_H
#define EDGE_EXPRVIEW_H

#include "expr.h"
#include "tui.h"

/* Left with Esc: the text as it is now (never lost). */
typedef void (*exprview_cb)(struct tui *, void *, const char *);

/*
 * Open over the screen. opts: the plan and whether it is a counting
 * expression; optional: an empty text is valid (a counting expression
 * then is the rule's expression).
 */
void	 exprview_open(struct tui *, const char *, const char *,
	     const struct expr_options *, int, exprview_cb, void *);

/*
 * The check the editor shows: 0 valid, -1 with *err (column 0 when not
 * about a place: an empty required expression).
 */
int	 exprview_lint(const char *, const struct expr_options *, int,
	     struct expr_error *);

/*
 * What the lint says under text: its error where it is ("line 2, column
 * 5: ..."), or else its first warning (valid text that most likely does
 * not match what was meant), or NULL. *error says which; caller frees.
 */
char	*exprview_lint_message(const char *, const struct expr_options *, int,
	     int *);

/*
 * Text drawn in w columns at y,x from byte start to end, the bytes
 * [hl, hlend) in hlattr; returns the columns used. The cells are those
 * screen_put draws, so a caret can be put under a column.
 */
int	 exprview_put(int, int, int, const char *, size_t, size_t, size_t,
	     size_t, attr_t, attr_t);
/* Columns of the bytes [start, end) of s, as screen_put counts them. */
int	 exprview_width(const char *, size_t, size_t);

#endif
