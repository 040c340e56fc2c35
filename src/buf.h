/* A growable byte buffer, always NUL-terminated so it can be read as text. */
#ifndef EDGE_BUF_H
#define EDGE_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "common.h"

struct buf {
	char	*data;
	size_t	 len;
	size_t	 size;
};

#define BUF_INITIALIZER { NULL, 0, 0 }

void	 buf_init(struct buf *);
void	 buf_free(struct buf *);
void	 buf_reset(struct buf *);
void	 buf_reserve(struct buf *, size_t);
void	 buf_add(struct buf *, const void *, size_t);
void	 buf_addc(struct buf *, char);
void	 buf_adds(struct buf *, const char *);
void	 buf_addf(struct buf *, const char *, ...) printflike(2, 3);
void	 buf_addvf(struct buf *, const char *, va_list) printflike(2, 0);
void	 buf_truncate(struct buf *, size_t);
char	*buf_detach(struct buf *, size_t *);
const char *buf_str(const struct buf *);

#endif
