/*
 * The languages Stream generates captions in: one table for the client's
 * checks and picker and for edgemu's refusal, so the two never disagree.
 */
#ifndef EDGE_CAPTIONLANG_H
#define EDGE_CAPTIONLANG_H

struct captionlang {
	const char	*tag;		/* BCP 47 primary subtag: "en" */
	const char	*name;		/* the language's own name */
};

/* Those languages, NULL after the last. */
extern const struct captionlang captionlang_generated[];

/*
 * The language of tag (its first subtag, any case: en-GB is en) if Stream
 * generates captions in it, else NULL.
 */
const struct captionlang *captionlang_find(const char *);
/* "cs, nl, en, ... ru and es" (allocated), for messages. */
char	*captionlang_list(void);

#endif
