/*
 * The terminal: curses set up and torn down on every exit path, colours
 * from theme roles degraded to what the terminal has, line drawing in
 * ASCII when asked, clipboard copies by OSC 52.
 */
#ifndef EDGE_SCREEN_H
#define EDGE_SCREEN_H

#include <curses.h>

#include "theme.h"

/*
 * Whether the terminal can hold the console (TERM known, the cursor
 * placed anywhere), asked before curses starts: 0, or -1 with *cause.
 */
int		 screen_usable(char **);
/*
 * Start curses; the theme may be replaced later (screen_theme). The ASCII
 * mode is on when asked (non-zero) or when the locale is not UTF-8.
 */
void		 screen_init(const struct theme *, int);
/* Restore the terminal; safe to call more than once and from fatal(). */
void		 screen_end(void);
/* The same from a signal handler, the process about to die. */
void		 screen_restore_now(void);
int		 screen_active(void);
void		 screen_theme(const struct theme *);
/* The attributes (colour pair included) a role draws with. */
attr_t		 screen_role(enum theme_role);
/* Draw text at y,x clipped to width w, cleaned of control characters. */
int		 screen_put(int, int, int, const char *, attr_t);
/* The same for a list cell: text cut to the width ends with an ellipsis. */
int		 screen_cell(int, int, int, const char *, attr_t);
/*
 * The ellipsis and the sort arrows, in ASCII in the ASCII mode ("...",
 * "^" and "v"), where screen_put also draws the UI's other glyphs in
 * ASCII.
 */
const char	*screen_ellipsis(void);
const char	*screen_arrow(int);
/* Fill the rest of a line from x with blanks in attr. */
void		 screen_fill(int, int, int, attr_t);
/* A horizontal rule (ACS or '-'). */
void		 screen_hline(int, int, int, attr_t);
/* The ASCII mode: asked for, or the locale is not UTF-8 (screen_init). */
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
