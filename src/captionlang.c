/*
 * The languages Stream generates captions in (a region may follow: en-GB),
 * as its documentation lists them.
 */
#include "config.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "captionlang.h"
#include "xmalloc.h"

const struct captionlang captionlang_generated[] = {
	{ "cs", "Čeština" }, { "nl", "Nederlands" }, { "en", "English" },
	{ "fr", "Français" }, { "de", "Deutsch" }, { "it", "Italiano" },
	{ "ja", "日本語" }, { "ko", "한국어" }, { "pl", "Polski" },
	{ "pt", "Português" }, { "ru", "Русский" }, { "es", "Español" },
	{ NULL, NULL }
};

const struct captionlang *
captionlang_find(const char *tag)
{
	const struct captionlang	*l;
	size_t				 n = strcspn(tag, "-");

	for (l = captionlang_generated; l->tag != NULL; l++) {
		if (strlen(l->tag) == n && strncasecmp(l->tag, tag, n) == 0)
			return (l);
	}
	return (NULL);
}

int
captionlang_tag_ok(const char *tag)
{
	const char	*p = tag;
	size_t		 n = 0;

	while (isalpha((unsigned char)*p) && n < 4) {
		p++;
		n++;
	}
	if (n < 2 || n > 3 || strlen(tag) > CAPTIONLANG_TAG_MAX)
		return (0);
	/* Subtags of 1 to 8 letters or digits, each after a '-'. */
	while (*p == '-') {
		for (n = 0, p++; isalnum((unsigned char)*p); p++)
			n++;
		if (n < 1 || n > 8)
			return (0);
	}
	return (*p == '\0');
}

void
captionlang_canon(char *tag)
{
	char	*p, *sub;
	size_t	 n, i;
	int	 ext = 0;	/* after a singleton (x-, u-): lower case */

	for (sub = tag; *sub != '\0'; sub = p + (*p == '-')) {
		n = strcspn(sub, "-");
		p = sub + n;
		if (n == 1)
			ext = 1;
		for (i = 0; i < n; i++) {
			if (sub != tag && !ext && ((n == 2 &&
			    isalpha((unsigned char)sub[0])) || (n == 4 &&
			    i == 0)))
				sub[i] = (char)toupper((unsigned char)sub[i]);
			else
				sub[i] = (char)tolower((unsigned char)sub[i]);
		}
	}
}

char *
captionlang_list(void)
{
	const struct captionlang	*l;
	struct buf			 b = BUF_INITIALIZER;

	for (l = captionlang_generated; l->tag != NULL; l++) {
		if (l != captionlang_generated)
			buf_adds(&b, l[1].tag != NULL ? ", " : " and ");
		buf_adds(&b, l->tag);
	}
	return (buf_detach(&b, NULL));
}
