/*
 * The terminal: curses set up and torn down on every exit path, colours
 * from theme roles degraded to what the terminal has, line drawing in
 * ASCII when asked, clipboard copies by OSC 52.
 */
#ifndef EDGE_SCREEN_H
#define EDGE_SCREEN_H

#include <curses.h>

#include "theme.h"

/* Start curses; the theme may be replaced later (screen_theme). */
void		 screen_init(const struct theme *, int);
/* Restore the terminal; safe to call more than once and from fatal(). */
void		 screen_end(void);
int		 screen_active(void);
void		 screen_theme(const struct theme *);
/* The attributes (colour pair included) a role draws with. */
attr_t		 screen_role(enum theme_role);
/* Draw text at y,x clipped to width w, cleaned of control characters. */
int		 screen_put(int, int, int, const char *, attr_t);
/* The same for a list cell: text cut to the width ends with an ellipsis. */
int		 screen_cell(int, int, int, const char *, attr_t);
/* The ellipsis and the sort arrows, in ASCII in the ASCII line mode. */
const char	*screen_ellipsis(void);
const char	*screen_arrow(int);
/* Fill the rest of a line from x with blanks in attr. */
void		 screen_fill(int, int, int, attr_t);
/* A horizontal rule (ACS or '-'). */
void		 screen_hline(int, int, int, attr_t);
int		 screen_ascii(void);
/* A frame around h rows and w columns at y,x (ACS or ASCII). */
void		 screen_box(int, int, int, int, attr_t);
/* Send text to the terminal's clipboard (OSC 52); 0 if it was sent. */
int		 screen_osc52(const char *);
/* Write raw bytes straight to the terminal (outside curses' buffer). */
void		 screen_suspend(void);
void		 screen_resume(void);
/* Show the cursor at y,x after this draw (else it is hidden). */
void		 screen_want_cursor(int, int);
void		 screen_place_cursor(void);
/* Colours the terminal can show (0 for mono, NO_COLOR). */
int		 screen_colors(void);

#endif
