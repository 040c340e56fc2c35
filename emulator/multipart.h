/* multipart/form-data request bodies (RFC 7578), parsed from a buffer. */
#ifndef EDGEMU_MULTIPART_H
#define EDGEMU_MULTIPART_H

#include <stddef.h>

#define MULTIPART_MAX_PARTS 32

struct multipart_part {
	char		*name;
	char		*filename;	/* NULL when the part is no file */
	char		*content_type;	/* NULL when not given */
	const char	*data;		/* points into the parsed body */
	size_t		 len;
};

struct multipart {
	struct multipart_part	parts[MULTIPART_MAX_PARTS];
	size_t			nparts;
};

struct multipart *multipart_parse(const char *, const char *, size_t, char **);
void		 multipart_free(struct multipart *);
const struct multipart_part *multipart_get(const struct multipart *,
		     const char *);
char		*multipart_text(const struct multipart *, const char *);
char		*multipart_boundary(const char *);

#endif
