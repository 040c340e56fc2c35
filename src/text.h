/*
 * Server text made safe for a terminal, and measured in columns. Every
 * string from the server is untrusted: it may hold escape sequences,
 * control characters, bytes that are no UTF-8 or bidi overrides that
 * reorder what the line shows.
 */
#ifndef EDGE_TEXT_H
#define EDGE_TEXT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode the UTF-8 character at p (at most n bytes; a NUL ends it too):
 * its length in bytes with *cp its code point, or 0 when the bytes are no
 * well-formed UTF-8 (overlong forms, surrogates and values past U+10FFFF
 * included) or stop before its end.
 */
size_t		 text_utf8_decode(const char *, size_t, uint32_t *);

/* text_sanitize flags. */
#define TEXT_DROP_ESC	0x1	/* drop escape sequences, not just ESC */
#define TEXT_SPACE	0x2	/* a run of TAB, CR and LF is one space */

/*
 * Copy s into out (size > 0), cut to fit without splitting a character:
 * control characters (C0, DEL, C1), bidi overrides and isolates and each
 * byte that is no UTF-8 become one '?'; flags drop escape sequences and
 * turn line breaks into spaces. Returns the bytes written.
 */
size_t		 text_sanitize(const char *, char *, size_t, int);
/* The same with both flags, allocated. */
char		*text_clean(const char *);

/*
 * Display columns of UTF-8 text (wcwidth in the caller's locale; what has
 * no width of its own counts one), and cutting in place to at most cols
 * columns without splitting a character (returns the columns kept).
 */
/*
 * Characters of UTF-8 text (the bytes that start one), as the API's
 * length limits count them, not bytes.
 */
size_t		 text_chars(const char *);
size_t		 text_width(const char *);
size_t		 text_cut(char *, size_t);
/*
 * Wrapping: the bytes of s that make its first row of at most cols
 * columns, broken after a space when one fits (a word longer than a row
 * is cut; at least one character). The rest of s follows.
 */
size_t		 text_wrap(const char *, size_t);
/* s in at most cols columns: cut text ends with ellipsis (allocated). */
char		*text_ellipsize(const char *, size_t, const char *);
/*
 * A table cell: s cleaned for the terminal (text_clean), cut to cols
 * columns with the ellipsis ("..." when NULL) and padded with spaces to
 * them (allocated).
 */
char		*text_cell(const char *, size_t, const char *);

/*
 * Substring search ignoring ASCII case: the first match in the len bytes
 * of hay (which may hold NULs), or NULL. An empty needle matches at hay.
 */
const char	*text_find_nocase(const char *, size_t, const char *, size_t);
/* The same for one needle over many haystacks, prepared once. */
struct text_needle {
	const char	*s;
	size_t		 len;
	size_t		 anchor;	/* the rarest byte's position */
	unsigned char	 c;
	unsigned char	 fold;
};
void		 text_needle_init(struct text_needle *, const char *,
		     size_t);
const char	*text_needle_find(const struct text_needle *, const char *,
		     size_t);
int		 text_contains_nocase(const char *, const char *);
/*
 * How many bytes of s a message quotes (for "%.*s"): 64 characters at
 * most, since a value may be huge, and never half of one, since the
 * message must stay UTF-8. Both programs' refusals quote a value so.
 */
int		 text_quote_len(const char *);
/* strcmp ignoring ASCII case, whatever the locale. */
int		 text_casecmp(const char *, const char *);

#endif
