/*
 * Stream operations beyond the kinds' list/get/create: the bodies and
 * paths of copy from a URL, clips, captions one language at a time, typed
 * downloads, the embed snippet; and the checks a client makes before it
 * sends them (a clip's times, a WebVTT file). Shared by the one-shot
 * commands and the console; never draws.
 */
#ifndef EDGE_STREAMX_H
#define EDGE_STREAMX_H

#include <stddef.h>

#include <cjson/cJSON.h>

struct api_var;

/*
 * Seconds as a clip takes them: "90", "90.5", "1:30", "1:02:03.5". 0, or
 * -1 with a cause.
 */
int	 streamx_parse_seconds(const char *, double *, char **);
/* An absolute http or https URL: 0, or -1 with a cause. */
int	 streamx_url_check(const char *, char **);
/* A BCP 47 language tag such as en or pt-BR: 0, or -1 with a cause. */
int	 streamx_language_check(const char *, char **);
/* A file to upload as captions: readable, <= 10 MB, "WEBVTT" first. */
int	 streamx_vtt_check(const char *, char **);
/* The download type named, "default" for NULL: 0, or -1 with a cause. */
int	 streamx_download_type(const char *, const char **, char **);

/* The body of POST /stream/copy; name, creator may be NULL. */
cJSON	*streamx_copy_body(const char *, const char *, const char *, int);
/* The body of POST /stream/clip; name may be NULL. */
cJSON	*streamx_clip_body(const char *, double, double, const char *);

/*
 * Paths below the API's base: the account of vars (the scope's first),
 * then /stream, the video if not NULL, and rest, whose {name} becomes
 * name, percent-encoded: "/accounts/A/stream/V/captions/{name}/vtt". NULL
 * with a cause (no account, a bad name).
 */
char	*streamx_path(const struct api_var *, const char *, const char *,
	     const char *, char **);

/* Whether a Content-Type is this media type ("text/html; charset=x"). */
int	 streamx_content_type_is(const char *, const char *);

#endif
