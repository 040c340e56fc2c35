/*
 * The languages Stream generates captions in (a region may follow: en-GB),
 * as its documentation lists them.
 */
#include "config.h"

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
