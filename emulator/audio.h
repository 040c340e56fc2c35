/* The extra audio tracks of a Stream video (audio.c), for the downloads area. */
#ifndef EDGEMU_AUDIO_H
#define EDGEMU_AUDIO_H

#include <stddef.h>

struct req;
struct reply;
struct store;
struct util_rng;

void	 audio_list(struct req *, struct reply *);
void	 audio_copy(struct req *, struct reply *);
void	 audio_delete(struct req *, struct reply *);
void	 audio_edit(struct req *, struct reply *);
int	 audio_demo_add(struct store *, struct util_rng *, const char *,
	     const char *, const char *const *, size_t, double);

#endif
