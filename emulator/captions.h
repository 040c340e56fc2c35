/* The captions of a Stream video (captions.c), for the downloads area. */
#ifndef EDGEMU_CAPTIONS_H
#define EDGEMU_CAPTIONS_H

#include <stddef.h>

struct req;
struct reply;
struct store;

struct captions_demo {
	const char	*language;
	const char	*label;
};

void	 captions_list(struct req *, struct reply *);
int	 captions_demo_add(struct store *, const char *, const char *,
	     const struct captions_demo *, size_t);

#endif
