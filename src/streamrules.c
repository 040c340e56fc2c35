/* Stream's limits and values (see streamrules.h). */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "streamrules.h"
#include "xmalloc.h"

#define STREAMRULES_DAY	(86400 * STREAMRULES_US)

const char *const streamrules_download_types[] = {
	"default", "audio", NULL
};
const char *const streamrules_video_states[] = {
	"pendingupload", "downloading", "queued", "inprogress", "ready",
	"error", "live-inprogress", NULL
};
const char *const streamrules_video_types[] = { "vod", "live", NULL };
const char *const streamrules_positions[] = {
	"upperRight", "upperLeft", "lowerLeft", "lowerRight", "center", NULL
};
const char *const streamrules_recording_modes[] = {
	"off", "automatic", NULL
};
const char *const streamrules_output_schemes[] = {
	"rtmp://", "rtmps://", "srt://", NULL
};

int
streamrules_deletion_ok(int64_t when, int64_t from)
{
	return (when >= from + STREAMRULES_DELETION_DAYS_MIN *
	    STREAMRULES_DAY && when <= from + STREAMRULES_DELETION_DAYS_MAX *
	    STREAMRULES_DAY);
}

int
streamrules_expiry_ok(int64_t when, int64_t now)
{
	return (when >= now + STREAMRULES_EXPIRY_MIN * STREAMRULES_US &&
	    when <= now + STREAMRULES_EXPIRY_MAX * STREAMRULES_US);
}

enum streamrules_chunk
streamrules_chunk_check(long long len)
{
	if (len > STREAMRULES_CHUNK_MAX)
		return (STREAMRULES_CHUNK_TOO_BIG);
	if (len < STREAMRULES_CHUNK_MIN)
		return (STREAMRULES_CHUNK_TOO_SMALL);
	if (len % STREAMRULES_CHUNK_ALIGN != 0)
		return (STREAMRULES_CHUNK_UNALIGNED);
	return (STREAMRULES_CHUNK_OK);
}

size_t
streamrules_output_scheme(const char *s)
{
	size_t	i, n;

	for (i = 0; streamrules_output_schemes[i] != NULL; i++) {
		n = strlen(streamrules_output_schemes[i]);
		if (strncmp(s, streamrules_output_schemes[i], n) == 0)
			return (n);
	}
	return (0);
}

int
streamrules_cidr(const char *s, unsigned char addr[16], int *v6, int *bits)
{
	const char	*slash = strchr(s, '/');
	char		*host, *end;
	long		 b;
	int		 ok;

	host = slash != NULL ? xstrndup(s, (size_t)(slash - s)) : xstrdup(s);
	*v6 = strchr(host, ':') != NULL;
	ok = inet_pton(*v6 ? AF_INET6 : AF_INET, host, addr) == 1;
	free(host);
	if (!ok)
		return (-1);
	*bits = *v6 ? 128 : 32;
	if (slash == NULL)
		return (0);
	if (!isdigit((unsigned char)slash[1]))
		return (-1);
	errno = 0;
	b = strtol(slash + 1, &end, 10);
	if (*end != '\0' || errno != 0 || b < 0 || b > *bits)
		return (-1);
	*bits = (int)b;
	return (0);
}

int
streamrules_country_ok(const char *s)
{
	return (strlen(s) == 2 && isalpha((unsigned char)s[0]) &&
	    isalpha((unsigned char)s[1]));
}
