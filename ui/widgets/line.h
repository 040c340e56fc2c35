/* A one-line text editor for prompts, the filter, the : line and forms. */
#ifndef EDGE_LINE_H
#define EDGE_LINE_H

#include <curses.h>
#include <stddef.h>

#define LINE_MAX_BYTES	4096

struct line {
	char	buf[LINE_MAX_BYTES];
	size_t	len;
	size_t	pos;		/* byte offset of the cursor */
	int	selected;	/* the whole text: typing replaces it */
};

#define LINE_CHANGED	1	/* the text changed */
#define LINE_MOVED	2	/* only the cursor moved */

void	 line_set(struct line *, const char *);
/*
 * Select the whole text (a pre-filled answer): the first character typed
 * replaces it, Backspace or Delete clears it; a movement or another
 * editing key keeps it.
 */
void	 line_select(struct line *);
/* An editing key: LINE_CHANGED, LINE_MOVED, or 0 when not one. */
int	 line_key(struct line *, int);
/* Draw at y,x in w columns, scrolled so the cursor shows. */
void	 line_draw(const struct line *, int, int, int, attr_t, int);
/* On the last row after a one-column prompt, focused. */
void	 line_draw_bottom(const struct line *, const char *);
/*
 * Tab on a file's path: the path from byte from to the end completed to
 * the longest common prefix of the names there (a lone directory gets its
 * '/'; "~/" is the home directory). *hint: the matches when several, "no
 * such file" when none, else NULL (allocated).
 */
void	 line_complete_path(struct line *, size_t, char **);

#endif
