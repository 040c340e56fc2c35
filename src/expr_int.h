/*
 * The Rules language front end's private parts: the arena every compiled
 * expression lives in and the lexer's scanning primitives. Only expr_*.c
 * include this.
 */
#ifndef EDGE_EXPR_INT_H
#define EDGE_EXPR_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "expr_ast.h"

/* Arena: zeroed allocations freed all at once. */
struct expr_arena	*expr_arena_new(void);
void			 expr_arena_free(struct expr_arena *);
void			*expr_arena_alloc(struct expr_arena *, size_t);
char			*expr_arena_strndup(struct expr_arena *, const char *,
			     size_t);

/*
 * The lexer scans the text on the parser's demand (what a token is depends
 * on what the parser expects: after `ip.src in {` "10.0.0.0/8" is a CIDR).
 * Offsets are in bytes; errors are reported in characters. The first error
 * wins and later ones are ignored.
 */
struct expr_lex {
	const char		*s;
	size_t			 n;
	size_t			 pos;
	int			*cols;	/* byte offset -> 1-based column */
	struct expr_error	*err;
	int			 failed;
	struct expr_arena	*arena;
	/* The last string literal read: its opening quote (or 'r') and the
	 * byte after it closes, for "unclosed string?" (str_end 0: none). */
	size_t			 str_start;
	size_t			 str_end;
};

void	 expr_lex_init(struct expr_lex *, const char *, size_t,
	     struct expr_error *, struct expr_arena *);
void	 expr_lex_done(struct expr_lex *);
int	 expr_lex_col(const struct expr_lex *, size_t);
/* Record an error spanning bytes [off, off + len) (len 0: one character). */
void	 expr_lex_error(struct expr_lex *, size_t off, size_t len,
	     const char *, ...) printflike(4, 5);
/* Skip spaces, CR, LF; a tab is an error. -1 on error. */
int	 expr_lex_ws(struct expr_lex *);
int	 expr_lex_peek(const struct expr_lex *);
int	 expr_lex_peek2(const struct expr_lex *);
int	 expr_lex_eof(const struct expr_lex *);
/* Identifier run [A-Za-z0-9_] with dots at pos; returns its byte length. */
size_t	 expr_lex_word_len(const struct expr_lex *, int dots);
/* The word at pos equals w (and is not followed by an identifier char). */
int	 expr_lex_is_word(const struct expr_lex *, const char *);
/* A string literal (quoted or raw) at pos into *lit; regex escaping
 * when regex is set. 0, or -1 with the error recorded. */
int	 expr_lex_string(struct expr_lex *, int regex, struct expr_lit *);
/* A hex byte string (41:42-43.44, two bytes or more) at pos: 1 when
 * found and consumed, 0 (nothing recorded) when there is none. */
int	 expr_lex_hexbytes(struct expr_lex *, struct expr_lit *);
/* Whether a string literal starts at pos. */
int	 expr_lex_at_string(const struct expr_lex *);
/* An integer (decimal, 0x hex, leading-0 octal, optional '-'). */
int	 expr_lex_int(struct expr_lex *, int64_t *);
/* An address, with '/prefix' and 'a..b' when allow_net; sets kind. */
int	 expr_lex_ip(struct expr_lex *, int allow_net, struct expr_lit *);
/* Column of byte off within the source of string literal lit, for an
 * offset into its decoded bytes. */
int	 expr_lex_lit_col(const struct expr_lex *, const struct expr_lit *,
	     int regex, size_t start_off, size_t decoded_off);

/* Scheme helpers (expr_scheme.c). */
enum expr_plan	 expr_func_plan(enum expr_func);
/* The closest field (or function) name within a small edit distance. */
const char	*expr_suggest(const char *, size_t, int functions);

#endif
