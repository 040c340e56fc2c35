/*
 * Stream delivery, so signed URLs can be tried for real: on the API's
 * listener, outside API_PREFIX and without the API token, the HLS and DASH
 * manifests (one segment: the video's bytes), the thumbnail, the preview
 * page and (downloads.c) the MP4 download of a ready video, each opened by
 * its uid or by a token in the uid's place. A video with requireSignedURLs
 * opens only with a valid token; allowedOrigins is checked against Origin.
 *
 * The client's country comes from DELIVERY_COUNTRY_HEADER, and its address
 * may be given by DELIVERY_CLIENT_HEADER, both only when the connection is
 * from loopback (tests and local tools): edgemu has no geolocation.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "apirules.h"
#include "delivery.h"
#include "server.h"
#include "store.h"
#include "stream.h"
#include "streamtoken.h"
#include "xmalloc.h"

#define DELIVERY_REF	VIDEO_MEDIA_ROOT "/{ref}"

/* A 16x9 JPEG of one colour, standing in for a frame of the video. */
static const unsigned char delivery_thumbnail[] = {
	0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01,
	0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xdb, 0x00, 0x43,
	0x00, 0x10, 0x0b, 0x0c, 0x0e, 0x0c, 0x0a, 0x10, 0x0e, 0x0d, 0x0e, 0x12,
	0x11, 0x10, 0x13, 0x18, 0x28, 0x1a, 0x18, 0x16, 0x16, 0x18, 0x31, 0x23,
	0x25, 0x1d, 0x28, 0x3a, 0x33, 0x3d, 0x3c, 0x39, 0x33, 0x38, 0x37, 0x40,
	0x48, 0x5c, 0x4e, 0x40, 0x44, 0x57, 0x45, 0x37, 0x38, 0x50, 0x6d, 0x51,
	0x57, 0x5f, 0x62, 0x67, 0x68, 0x67, 0x3e, 0x4d, 0x71, 0x79, 0x70, 0x64,
	0x78, 0x5c, 0x65, 0x67, 0x63, 0xff, 0xdb, 0x00, 0x43, 0x01, 0x11, 0x12,
	0x12, 0x18, 0x15, 0x18, 0x2f, 0x1a, 0x1a, 0x2f, 0x63, 0x42, 0x38, 0x42,
	0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
	0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
	0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
	0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
	0x63, 0x63, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x09, 0x00, 0x10, 0x03,
	0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xff, 0xc4, 0x00,
	0x1f, 0x00, 0x00, 0x01, 0x05, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
	0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0xff, 0xc4, 0x00, 0xb5, 0x10, 0x00,
	0x02, 0x01, 0x03, 0x03, 0x02, 0x04, 0x03, 0x05, 0x05, 0x04, 0x04, 0x00,
	0x00, 0x01, 0x7d, 0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21,
	0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81,
	0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24,
	0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25,
	0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a,
	0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56,
	0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a,
	0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86,
	0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99,
	0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3,
	0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6,
	0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9,
	0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1,
	0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xff, 0xc4, 0x00,
	0x1f, 0x01, 0x00, 0x03, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
	0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0xff, 0xc4, 0x00, 0xb5, 0x11, 0x00,
	0x02, 0x01, 0x02, 0x04, 0x04, 0x03, 0x04, 0x07, 0x05, 0x04, 0x04, 0x00,
	0x01, 0x02, 0x77, 0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31,
	0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22, 0x32, 0x81, 0x08,
	0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15,
	0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18,
	0x19, 0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39,
	0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55,
	0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
	0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84,
	0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
	0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa,
	0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4,
	0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
	0xd8, 0xd9, 0xda, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea,
	0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xff, 0xda, 0x00,
	0x0c, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3f, 0x00, 0xe6,
	0xa8, 0xa2, 0x8a, 0xeb, 0x39, 0xcf, 0xff, 0xd9,
};

/* ---- the client -------------------------------------------------------- */

/* The peer's address as text; 1 when it is a loopback address. */
static int
delivery_peer(struct req *req, char *out, size_t size)
{
	const union MHD_ConnectionInfo	*ci = NULL;
	const struct sockaddr		*sa;
	const unsigned char		*b;

	*out = '\0';
	if (req->conn != NULL)
		ci = MHD_get_connection_info(req->conn,
		    MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (ci == NULL || (sa = ci->client_addr) == NULL)
		return (0);
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		inet_ntop(AF_INET, &in->sin_addr, out, (socklen_t)size);
		return ((ntohl(in->sin_addr.s_addr) >> 24) == 127);
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, out, (socklen_t)size);
		b = in6->sin6_addr.s6_addr;
		return (IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr) ||
		    (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && b[12] == 127));
	}
	return (0);
}

/* The token's accessRules against the client; 0, or -1 after a 403. */
static int
delivery_rules(struct req *req, struct reply *rep, const cJSON *rules)
{
	const char	*country = NULL, *h;
	char		 addr[INET6_ADDRSTRLEN];
	int		 loopback, which = 0;

	if (rules == NULL)
		return (0);
	loopback = delivery_peer(req, addr, sizeof addr);
	if (loopback) {
		country = req_header(req, DELIVERY_COUNTRY_HEADER);
		if ((h = req_header(req, DELIVERY_CLIENT_HEADER)) != NULL)
			snprintf(addr, sizeof addr, "%s", h);
	}
	if (streamtoken_rules_allow(rules, addr, country, &which))
		return (0);
	reply_error(rep, 403, ERR_AUTH_INVALID, "access rule %d of the token "
	    "blocks this client (%s%s%s)", which, addr, country != NULL ?
	    ", country " : "", country != NULL ? country : "");
	return (-1);
}

/* The host of an Origin (scheme://host[:port]), lower-cased. */
static char *
delivery_origin_host(const char *origin)
{
	const char	*p = strstr(origin, "://"), *end;
	char		*host;

	p = p != NULL ? p + 3 : origin;
	if (*p == '[')
		end = strchr(p, ']') != NULL ? strchr(p, ']') + 1 : p;
	else
		end = p + strcspn(p, ":/");
	host = xstrndup(p, (size_t)(end - p));
	util_lower(host);
	return (host);
}

static int
delivery_origin_ok(const cJSON *allowed, const char *origin)
{
	const cJSON	*v;
	char		*host = delivery_origin_host(origin);
	const char	*a;
	size_t		 hl = strlen(host), al;
	int		 ok = 0;

	cJSON_ArrayForEach(v, allowed) {
		if (!cJSON_IsString(v))
			continue;
		a = v->valuestring;
		al = strlen(a);
		if (strcmp(a, "*") == 0 || strcasecmp(a, host) == 0)
			ok = 1;
		/* *.example.com: any name below example.com. */
		else if (al > 2 && a[0] == '*' && a[1] == '.' && hl > al - 1 &&
		    strcasecmp(host + hl - (al - 1), a + 1) == 0)
			ok = 1;
		if (ok)
			break;
	}
	free(host);
	return (ok);
}

/*
 * Every origin the request names must be allowed: each Origin header (a
 * client may repeat it) and each origin of one header's list (RFC 6454
 * 7.1: separated by spaces). NULL when all are, else the first refused.
 */
static char *
delivery_origin_refused(struct req *req, const cJSON *allowed)
{
	const char	*v[8], *p;
	char		*one;
	size_t		 n, i, len;

	n = req_header_values(req, "Origin", v, nitems(v));
	if (n > nitems(v))
		return (xprintf("(%zu Origin headers)", n));
	for (i = 0; i < n; i++) {
		p = v[i] + strspn(v[i], " \t");
		do {
			len = strcspn(p, " \t");
			one = xstrndup(p, len);
			if (!delivery_origin_ok(allowed, one))
				return (one);
			free(one);
			p += len;
			p += strspn(p, " \t");
		} while (*p != '\0');
	}
	return (NULL);
}

/* ---- resolving {ref} --------------------------------------------------- */

/* The account of a video by uid alone: 1, 0 none, -1 store failure. */
static int
delivery_account(struct store *store, const char *uid,
    char account[HEX32_LEN + 1])
{
	static const char	 sql[] =
	    "SELECT account FROM stream_video WHERE uid = ?1 LIMIT 1";
	char			*a = NULL;
	int			 rc;

	rc = store_get_text(store, sql, &a, uid, NULL);
	if (rc == 1 && a != NULL)
		snprintf(account, HEX32_LEN + 1, "%s", a);
	free(a);
	return (rc == 1 && a != NULL ? 1 : rc < 0 ? -1 : 0);
}

/* The video's settings that delivery checks; -1 after the reply. */
static int
delivery_video(struct req *req, struct reply *rep, const char *account,
    const char *uid, int *require_signed, cJSON **origins)
{
	cJSON	*v;

	if (video_lookup(req->store, account, uid, &v) != 1) {
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s was not found",
		    uid);
		return (-1);
	}
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v,
	    "readyToStream"))) {
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s is not ready to "
		    "stream", uid);
		cJSON_Delete(v);
		return (-1);
	}
	*require_signed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(v,
	    "requireSignedURLs"));
	*origins = cJSON_DetachItemFromObjectCaseSensitive(v,
	    "allowedOrigins");
	cJSON_Delete(v);
	return (0);
}

int
delivery_resolve(struct req *req, struct reply *rep, enum delivery_use use,
    char account[HEX32_LEN + 1], char uid[HEX32_LEN + 1])
{
	const char		*ref = req_param(req, "ref");
	struct streamtoken	 t;
	cJSON			*origins = NULL;
	char			*cause = NULL, *origin;
	unsigned int		 status;
	int			 signed_only, tokened, rc;

	tokened = !apirules_hex32_ok(ref);
	memset(&t, 0, sizeof t);
	if (tokened) {
		if (streamtoken_check(req->store, ref, (int64_t)time(NULL), &t,
		    &status, &cause) != 0) {
			reply_error(rep, status, status == 404 ? ERR_NOT_FOUND :
			    status == 401 ? ERR_AUTH_INVALID : ERR_INTERNAL,
			    "%s", cause);
			free(cause);
			return (-1);
		}
		snprintf(account, HEX32_LEN + 1, "%s", t.account);
		snprintf(uid, HEX32_LEN + 1, "%s", t.uid);
	} else {
		snprintf(uid, HEX32_LEN + 1, "%s", ref);
		util_lower(uid);
		if ((rc = delivery_account(req->store, uid, account)) <= 0) {
			if (rc < 0)
				reply_store_error(req, rep);
			else
				reply_error(rep, 404, ERR_NOT_FOUND, "video %s "
				    "was not found", uid);
			return (-1);
		}
	}
	rc = -1;
	if (delivery_video(req, rep, account, uid, &signed_only, &origins) != 0)
		goto out;
	if (signed_only && !tokened) {
		reply_error(rep, 401, ERR_AUTH_MISSING, "video %s requires a "
		    "signed URL: put a token in the uid's place", uid);
		goto out;
	}
	if (delivery_rules(req, rep, t.rules) != 0)
		goto out;
	if (use == DELIVERY_DOWNLOAD && signed_only && !t.downloadable) {
		reply_error(rep, 403, ERR_AUTH_INVALID, "the token does not "
		    "allow downloads (downloadable is not true)");
		goto out;
	}
	if (cJSON_GetArraySize(origins) > 0 &&
	    (origin = delivery_origin_refused(req, origins)) != NULL) {
		reply_error(rep, 403, ERR_AUTH_INVALID, "origin %.200s is not "
		    "in the video's allowedOrigins", origin);
		free(origin);
		goto out;
	}
	rc = 0;
out:
	cJSON_Delete(origins);
	streamtoken_free(&t);
	return (rc);
}

void
delivery_log_path(const char *path, char *out, size_t size)
{
	const char	*seg, *end;
	size_t		 n = strlen(VIDEO_MEDIA_ROOT);

	if (strncmp(path, VIDEO_MEDIA_ROOT "/", n + 1) != 0) {
		snprintf(out, size, "%s", path);
		return;
	}
	seg = path + n + 1;
	end = seg + strcspn(seg, "/");
	/* A token is a bearer credential: only its start is logged. */
	if (end - seg <= HEX32_LEN)
		snprintf(out, size, "%s", path);
	else
		snprintf(out, size, "%.*s%.12s...%s", (int)(seg - path), path,
		    seg, end);
}

/* ---- the replies --------------------------------------------------------- */

static double
delivery_duration(struct req *req, const char *account, const char *uid,
    long *w, long *h)
{
	const cJSON	*in;
	cJSON		*v;
	double		 d = 0;

	*w = *h = 0;
	if (video_lookup(req->store, account, uid, &v) == 1) {
		d = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(v,
		    "duration"));
		in = cJSON_GetObjectItemCaseSensitive(v, "input");
		*w = (long)cJSON_GetNumberValue(
		    cJSON_GetObjectItemCaseSensitive(in, "width"));
		*h = (long)cJSON_GetNumberValue(
		    cJSON_GetObjectItemCaseSensitive(in, "height"));
		cJSON_Delete(v);
	}
	/* Demo videos have no bytes to measure: a second stands in. */
	if (*w <= 0 || *h <= 0) {
		*w = 1280;
		*h = 720;
	}
	return (d > 0 ? d : 1);
}

static void
delivery_hls(struct req *req, struct reply *rep)
{
	char	 account[HEX32_LEN + 1], uid[HEX32_LEN + 1], *text;
	double	 d;
	long	 w, h;

	if (delivery_resolve(req, rep, DELIVERY_PLAY, account, uid) != 0)
		return;
	d = delivery_duration(req, account, uid, &w, &h);
	/* One segment, the video's bytes, named relative to the manifest. */
	text = xprintf("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:%ld\n"
	    "#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:%.3f,\nstream.mp4\n"
	    "#EXT-X-ENDLIST\n", (long)d + 1, d);
	reply_raw(rep, 200, text, strlen(text),
	    "application/vnd.apple.mpegurl");
	free(text);
}

static void
delivery_dash(struct req *req, struct reply *rep)
{
	char	 account[HEX32_LEN + 1], uid[HEX32_LEN + 1], *text;
	double	 d;
	long	 w, h;

	if (delivery_resolve(req, rep, DELIVERY_PLAY, account, uid) != 0)
		return;
	d = delivery_duration(req, account, uid, &w, &h);
	text = xprintf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" type=\"static\""
	    " mediaPresentationDuration=\"PT%.3fS\" minBufferTime=\"PT2S\""
	    " profiles=\"urn:mpeg:dash:profile:isoff-on-demand:2011\">\n"
	    " <Period>\n  <AdaptationSet mimeType=\"video/mp4\">\n"
	    "   <Representation id=\"0\" bandwidth=\"1000000\" width=\"%ld\""
	    " height=\"%ld\">\n    <BaseURL>stream.mp4</BaseURL>\n"
	    "   </Representation>\n  </AdaptationSet>\n </Period>\n</MPD>\n",
	    d, w, h);
	reply_raw(rep, 200, text, strlen(text), "application/dash+xml");
	free(text);
}

static void
delivery_thumb(struct req *req, struct reply *rep)
{
	char	 account[HEX32_LEN + 1], uid[HEX32_LEN + 1];

	if (delivery_resolve(req, rep, DELIVERY_PLAY, account, uid) != 0)
		return;
	reply_raw(rep, 200, (const char *)delivery_thumbnail,
	    sizeof delivery_thumbnail, "image/jpeg");
}

static void
delivery_watch(struct req *req, struct reply *rep)
{
	static const char	 page[] =
	    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	    "<title>Stream video</title></head>\n<body><video controls "
	    "poster=\"thumbnails/thumbnail.jpg\" src=\"manifest/stream.mp4\">"
	    "</video></body></html>\n";
	char			 account[HEX32_LEN + 1], uid[HEX32_LEN + 1];

	if (delivery_resolve(req, rep, DELIVERY_PLAY, account, uid) != 0)
		return;
	reply_raw(rep, 200, page, sizeof page - 1, "text/html; charset=utf-8");
}

/* The manifests' one segment: the uploaded bytes, as a download is sent. */
static void
delivery_segment(struct req *req, struct reply *rep)
{
	struct stat	 sb;
	char		 account[HEX32_LEN + 1], uid[HEX32_LEN + 1], *path;
	int		 fd;

	if (delivery_resolve(req, rep, DELIVERY_PLAY, account, uid) != 0)
		return;
	path = stream_video_file(req->store, account, uid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd == -1 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_size == 0) {
		if (fd != -1)
			close(fd);
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s has no bytes "
		    "to serve (a demo video)", uid);
		return;
	}
	video_send_fd(req, rep, fd, (uint64_t)sb.st_size, "video/mp4");
}

/* ---- the area ------------------------------------------------------------ */

/* A video's URLs point to this listener, without API_PREFIX. */
static int
delivery_start(struct server *srv, char **cause)
{
	(void)cause;
	video_set_server(srv);
	return (0);
}

static void
delivery_stop(struct server *srv)
{
	(void)srv;
	video_set_server(NULL);
}

#define DELIVERY_FLAGS	(ROUTE_ROOT | ROUTE_NOAUTH)

/* A token in a path is logged cut (delivery_log_path). */
static const struct route delivery_routes[] = {
	{ HTTP_POST, STREAM_ACCOUNT "/stream/{uid:hex32}/token",
	    streamtoken_create, ROUTE_BODY_JSON, ROUTE_WRITE },
	{ HTTP_GET, DELIVERY_REF "/manifest/video.m3u8", delivery_hls,
	    ROUTE_BODY_NONE, DELIVERY_FLAGS, .log_path = delivery_log_path },
	{ HTTP_GET, DELIVERY_REF "/manifest/video.mpd", delivery_dash,
	    ROUTE_BODY_NONE, DELIVERY_FLAGS, .log_path = delivery_log_path },
	{ HTTP_GET, DELIVERY_REF "/manifest/stream.mp4", delivery_segment,
	    ROUTE_BODY_NONE, DELIVERY_FLAGS, .log_path = delivery_log_path },
	{ HTTP_GET, DELIVERY_REF "/thumbnails/thumbnail.jpg", delivery_thumb,
	    ROUTE_BODY_NONE, DELIVERY_FLAGS, .log_path = delivery_log_path },
	{ HTTP_GET, DELIVERY_REF "/watch", delivery_watch, ROUTE_BODY_NONE,
	    DELIVERY_FLAGS, .log_path = delivery_log_path },
};

const struct area delivery_area = {
	.name = "delivery",
	.routes = delivery_routes,
	.nroutes = nitems(delivery_routes),
	.start = delivery_start,
	.stop = delivery_stop,
};
