/*
 * Stream operations beyond the kinds: request bodies, paths and the checks
 * made before anything is sent (see streamx.h).
 */
#include "config.h"

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "api.h"
#include "captionlang.h"
#include "common.h"
#include "log.h"
#include "streamrules.h"
#include "streamx.h"
#include "xmalloc.h"

/* One number of a time: digits, and a fraction only in the last. */
static int
streamx_number(const char **pp, int last, double *out)
{
	const char	*p = *pp;
	char		*end;

	if (!isdigit((unsigned char)*p))
		return (-1);
	errno = 0;
	*out = strtod(p, &end);
	if (errno != 0 || !isfinite(*out) || (!last && memchr(p, '.',
	    (size_t)(end - p)) != NULL))
		return (-1);
	*pp = end;
	return (0);
}

int
streamx_parse_seconds(const char *s, double *out, char **cause)
{
	const char	*p = s;
	double		 part[3], v = 0;
	int		 n = 0, colons = 0, i;

	for (i = 0; s[i] != '\0'; i++)
		colons += s[i] == ':';
	while (n < 3) {
		if (streamx_number(&p, n == colons, &part[n]) != 0)
			break;
		n++;
		if (*p != ':')
			break;
		p++;
	}
	if (n == 0 || *p != '\0' || colons > 2 || n != colons + 1 ||
	    (n > 1 && part[n - 1] >= 60) || (n > 2 && part[1] >= 60)) {
		xasprintf(cause, "'%s' is not a time: seconds (90, 12.5) or "
		    "[h:]m:s (1:30, 1:02:03.5)", s);
		return (-1);
	}
	for (i = 0; i < n; i++)
		v = v * 60 + part[i];
	*out = v;
	return (0);
}

int
streamx_url_check(const char *url, char **cause)
{
	CURLU	*u;
	char	*scheme = NULL, *host = NULL;
	int	 rc = -1;

	if ((u = curl_url()) == NULL)
		fatalx("curl_url: out of memory");
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
		xasprintf(cause, "'%s' is not an absolute URL", url);
	else if (strcasecmp(scheme, "http") != 0 &&
	    strcasecmp(scheme, "https") != 0)
		xasprintf(cause, "'%s': only http and https URLs can be "
		    "copied", url);
	else
		rc = 0;
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	return (rc);
}

int
streamx_language_check(const char *tag, char **cause)
{
	if (captionlang_tag_ok(tag))
		return (0);
	xasprintf(cause, "'%s' is not a language tag such as en or pt-BR",
	    tag);
	return (-1);
}

int
streamx_vtt_check(const char *path, char **cause)
{
	struct stat	 sb;
	char		 head[9];
	size_t		 n, off = 0;
	FILE		*f;

	if ((f = fopen(path, "rb")) == NULL) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file", path);
		fclose(f);
		return (-1);
	}
	if (sb.st_size > STREAMRULES_CAPTION_FILE_MAX) {
		xasprintf(cause, "%s: %lld bytes, over the 10 MB captions "
		    "limit", path, (long long)sb.st_size);
		fclose(f);
		return (-1);
	}
	n = fread(head, 1, sizeof head, f);
	fclose(f);
	if (n >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
		off = 3;
	if (n - off < 6 || memcmp(head + off, "WEBVTT", 6) != 0 ||
	    (n - off > 6 && strchr(" \t\r\n", head[off + 6]) == NULL)) {
		xasprintf(cause, "%s: not a WebVTT file (the first line must "
		    "be WEBVTT)", path);
		return (-1);
	}
	return (0);
}

int
streamx_download_type(const char *name, const char **out, char **cause)
{
	size_t	i;

	if (name == NULL)
		name = streamrules_download_types[0];
	for (i = 0; streamrules_download_types[i] != NULL; i++) {
		if (strcmp(streamrules_download_types[i], name) == 0) {
			*out = streamrules_download_types[i];
			return (0);
		}
	}
	xasprintf(cause, "download type '%s': default (MP4) or audio (M4A)",
	    name);
	return (-1);
}

cJSON *
streamx_copy_body(const char *url, const char *name, const char *creator,
    int require_signed)
{
	cJSON	*b = cJSON_CreateObject();

	cJSON_AddStringToObject(b, "input", url);
	if (name != NULL)
		cJSON_AddStringToObject(cJSON_AddObjectToObject(b, "meta"),
		    "name", name);
	if (creator != NULL)
		cJSON_AddStringToObject(b, "creator", creator);
	if (require_signed)
		cJSON_AddTrueToObject(b, "requireSignedURLs");
	return (b);
}

cJSON *
streamx_clip_body(const char *uid, double start, double end,
    const char *name)
{
	cJSON	*b = cJSON_CreateObject();

	cJSON_AddStringToObject(b, "clippedFromVideoUID", uid);
	cJSON_AddNumberToObject(b, "startTimeSeconds", start);
	cJSON_AddNumberToObject(b, "endTimeSeconds", end);
	if (name != NULL)
		cJSON_AddStringToObject(cJSON_AddObjectToObject(b, "meta"),
		    "name", name);
	return (b);
}

char *
streamx_path(const struct api_var *vars, const char *video, const char *rest,
    const char *name, char **cause)
{
	struct api_var	 v[4];
	char		*tmpl, *path;

	v[0].name = "account";
	v[0].value = vars[0].value;
	v[1].name = "video";
	v[1].value = video;
	v[2].name = "name";
	v[2].value = name;
	v[3].name = v[3].value = NULL;
	tmpl = xprintf("/accounts/{account}/stream%s%s", video != NULL ?
	    "/{video}" : "", rest);
	path = api_path(tmpl, v, cause);
	free(tmpl);
	return (path);
}

int
streamx_content_type_is(const char *ct, const char *type)
{
	size_t	n = strlen(type);

	return (ct != NULL && strncasecmp(ct, type, n) == 0 &&
	    (ct[n] == '\0' || ct[n] == ';' || ct[n] == ' '));
}
