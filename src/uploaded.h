/*
 * The uploads finished from this machine, by the file's resume journal key
 * (tusc_journal_key): a file sent again is said to be there already.
 */
#ifndef EDGE_UPLOADED_H
#define EDGE_UPLOADED_H

#include <time.h>

#define UPLOADED_FILE	"uploaded.jsonl"

struct uploaded {
	char	*uid;		/* the video made */
	time_t	 when;		/* when it finished; 0: unknown */
};

/* 1 with *u filled (uploaded_free), 0 when the key has none, -1. */
int	 uploaded_get(const char *, const char *, struct uploaded *, char **);
/* Record key's upload as the video uid, in dir (made by the caller). */
int	 uploaded_put(const char *, const char *, const char *, char **);
void	 uploaded_free(struct uploaded *);

#endif
