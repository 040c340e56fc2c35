/*
 * The text of an expression being edited: UTF-8 lines, a cursor, the
 * editing steps and the completion of field and function names. No
 * drawing: the console's expression editor (ui/widgets/exprview.c) draws
 * it and turns keys into these calls, so all of this is tested alone.
 */
#ifndef EDGE_EXPRTEXT_H
#define EDGE_EXPRTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "expr.h"

/* Bytes the text may hold: an expression's 4096 characters, any script. */
#define EXPRTEXT_MAX	(EXPR_MAX_LENGTH * 4)

struct exprtext {
	char	*buf;		/* NUL-terminated; lines end with '\n' */
	size_t	 len;
	size_t	 pos;		/* byte offset of the cursor */
	size_t	 goal;		/* the character column Up/Down aim for */
};

void	 exprtext_init(struct exprtext *, const char *);
void	 exprtext_free(struct exprtext *);
/* Replace the whole text; the cursor goes to its end. */
void	 exprtext_set(struct exprtext *, const char *);

/*
 * Editing at the cursor; each returns 1 when the text changed, 0 when
 * not (at an edge, a character that is no text, the size limit).
 * Tabs and other control characters are not inserted.
 */
int	 exprtext_insert_char(struct exprtext *, uint32_t);
int	 exprtext_insert(struct exprtext *, const char *);
int	 exprtext_newline(struct exprtext *);
int	 exprtext_backspace(struct exprtext *);
int	 exprtext_delete(struct exprtext *);
/* Up to the end of the line, or the line break when at the end. */
int	 exprtext_kill_line(struct exprtext *);
/* The word before the cursor and the blanks after it. */
int	 exprtext_kill_word(struct exprtext *);

/* Moves: a character, a line (to the goal column), the line's ends. */
void	 exprtext_left(struct exprtext *);
void	 exprtext_right(struct exprtext *);
void	 exprtext_up(struct exprtext *);
void	 exprtext_down(struct exprtext *);
void	 exprtext_home(struct exprtext *);
void	 exprtext_end(struct exprtext *);

/* Line and character column (both from 0) of a byte offset. */
void	 exprtext_where(const struct exprtext *, size_t, size_t *, size_t *);
/* The byte offset of a 1-based character column of the whole text (as
 * struct expr_error counts, line breaks included); the end when past. */
size_t	 exprtext_column_offset(const char *, int);

/*
 * Completion. The word is the name being typed before the cursor (letters,
 * digits, '_' and '.'); the candidates are the scheme's symbols that start
 * with it and that the options allow (the plan, counting-only fields),
 * in the scheme's order. Returns how many were put into out (at most max).
 */
size_t	 exprtext_word(const struct exprtext *, size_t *);
size_t	 exprtext_complete(const struct exprtext *,
	     const struct expr_options *, const struct expr_symbol **, size_t);
/*
 * What Tab does with n candidates: one is put in place of the word
 * (a function with its "("); several put their longest common prefix and
 * return 0 so that the list is shown. Returns 1 when the text changed.
 */
int	 exprtext_accept(struct exprtext *, const struct expr_symbol *);
int	 exprtext_extend(struct exprtext *, const struct expr_symbol *const *,
	     size_t);

#endif
