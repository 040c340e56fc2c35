/*
 * The Rules language parser's state and the helpers its three files share:
 * expr_parse.c (the grammar), expr_compile.c (sets, wildcards, regexes),
 * expr_call.c (function calls' signatures). Private to those three.
 */
#ifndef EXPR_PARSER_H
#define EXPR_PARSER_H

#include <stddef.h>

#include "expr_int.h"

struct parser {
	struct expr_lex			 lx;
	struct expr			*e;
	struct expr_options		 opts;
	int				 depth;
	int				 in_quant;	/* inside any()/all() */
	/* The root [*] of the current any()/all(). */
	const struct expr_node		*qsrc;
	size_t				 qsrc_at;
	size_t				 qsrc_off;
	/* The last token, for "expected ... after 'and'". */
	char				 after[32];
	/* Regexes compiled, to free with the expression. */
	pcre2_code			**res;
	size_t				 nres;
};

/* Growable arrays in the arena (expressions are at most 4096 characters). */
void		*expr_parser_grow(struct parser *, void *, size_t, size_t);

#define PUSH(p, arr, n) do {						\
	if ((n) == 0)							\
		(arr) = expr_arena_alloc((p)->e->arena, sizeof *(arr));	\
	else								\
		(arr) = expr_parser_grow((p), (arr), (n), sizeof *(arr));\
	(n)++;								\
} while (0)

/* Byte offset of a node's start and end (columns map back to bytes). */
size_t		 expr_parser_col_off(const struct parser *, int);
/* Remembers the last token, for "expected ... after 'and'". */
void		 expr_parser_set_after(struct parser *, const char *, size_t);
int		 expr_parser_ws(struct parser *);
/* One level deeper (a '(' at off); refused past EXPR_MAX_DEPTH. */
int		 expr_parser_depth_in(struct parser *, size_t);
/* An error spanning node a. */
int		 expr_parser_arg_error(struct parser *,
		    const struct expr_node *, const char *, ...)
		    printflike(3, 4);
/* A function call's argument (the first may be a [*] field). */
struct expr_node *expr_parser_arg(struct parser *, int);

/* expr_compile.c */
void		 expr_compile_set(struct parser *, struct expr_set *);
int		 expr_compile_wild(struct parser *, struct expr_node *, size_t);
int		 expr_compile_regex(struct parser *, struct expr_node *,
		    size_t);

/* expr_call.c */
int		 expr_call_args(struct parser *, struct expr_node *, size_t,
		    size_t, int *);

#endif /* EXPR_PARSER_H */
