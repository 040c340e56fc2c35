/*
 * Stream delivery on edgemu's own listener: the URLs a video's playback,
 * thumbnail, preview and download fields point to, opened by the uid or by
 * a signed token in its place.
 */
#ifndef EDGEMU_DELIVERY_H
#define EDGEMU_DELIVERY_H

#include "util.h"

/* Trusted only from a loopback client: the country and address it has. */
#define DELIVERY_COUNTRY_HEADER	"X-Edgemu-Country"
#define DELIVERY_CLIENT_HEADER	"X-Edgemu-Client-Ip"

struct req;
struct reply;

enum delivery_use {
	DELIVERY_PLAY,		/* manifests, thumbnail, preview */
	DELIVERY_DOWNLOAD	/* an MP4 download: needs downloadable */
};

/*
 * The video the path's {ref} (a uid or a token) opens for this request,
 * after every check: 0 with its account and uid, or -1 once the reply says
 * why not (401, 403, 404).
 */
int	 delivery_resolve(struct req *, struct reply *, enum delivery_use,
	     char[HEX32_LEN + 1], char[HEX32_LEN + 1]);
/*
 * A path for a log line: a token in it cut to its start. The log path hook
 * of every route whose {ref} may be a token (route_log_path_cb).
 */
void	 delivery_log_path(const char *, char *, size_t);

#endif
