/*
 * The languages Stream generates captions in: one table for the client's
 * checks and picker and for edgemu's refusal, so the two never disagree.
 */
#ifndef EDGE_CAPTIONLANG_H
#define EDGE_CAPTIONLANG_H

#define CAPTIONLANG_TAG_MAX	35	/* characters of a language tag */

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
/* 1 if tag is a BCP 47 tag as Stream takes them: en, pt-BR, zh-Hant-TW. */
int	 captionlang_tag_ok(const char *);
/*
 * tag in BCP 47's conventional case, in place: the language lower case,
 * a script title case, a region upper case (EN-gb becomes en-GB); tags
 * differ only in case, so this is what is sent and compared.
 */
void	 captionlang_canon(char *);
/* "cs, nl, en, ... ru and es" (allocated), for messages. */
char	*captionlang_list(void);

#endif
