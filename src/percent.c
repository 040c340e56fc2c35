/* Percent-encoding of path segments and query values, by libcurl. */
#include "config.h"

#include <curl/curl.h>
#include <limits.h>
#include <string.h>

#include "buf.h"
#include "log.h"
#include "percent.h"

void
percent_encode(struct buf *b, const char *s)
{
	size_t	 len = strlen(s);
	char	*e;

	if (len == 0)
		return;
	if (len > INT_MAX)
		fatalx("percent_encode: %zu bytes is too long", len);
	/* libcurl 7.82 and later take no handle here. */
	if ((e = curl_easy_escape(NULL, s, (int)len)) == NULL)
		fatalx("curl_easy_escape: out of memory");
	buf_adds(b, e);
	curl_free(e);
}
