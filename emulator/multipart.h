/* multipart/form-data request bodies (RFC 7578), parsed as they arrive. */
#ifndef EDGEMU_MULTIPART_H
#define EDGEMU_MULTIPART_H

#include <stddef.h>

#define MULTIPART_MAX_PARTS 32

struct multipart_part {
	char		*name;
	char		*filename;	/* NULL when the part is no file */
	char		*content_type;	/* NULL when not given */
	const char	*data;		/* the contents: own, or the caller's */
	size_t		 len;
	char		*own;		/* data when the parser collected it */
};

struct multipart {
	struct multipart_part	parts[MULTIPART_MAX_PARTS];
	size_t			nparts;
};

struct multipart_stream;

struct multipart_stream *multipart_stream_new(const char *);
int		 multipart_stream_feed(struct multipart_stream *, const char *,
		     size_t);
struct multipart *multipart_stream_end(struct multipart_stream *, char **);
void		 multipart_stream_free(struct multipart_stream *);

struct multipart *multipart_parse(const char *, const char *, size_t, char **);
void		 multipart_free(struct multipart *);
const struct multipart_part *multipart_get(const struct multipart *,
		     const char *);
char		*multipart_text(const struct multipart *, const char *);
char		*multipart_boundary(const char *);

#endif
