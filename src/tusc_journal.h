/*
 * The resume journal of tusc.c's uploads: dir/uploads.json, 0600,
 * replaced atomically.
 */
#ifndef EDGE_TUSC_JOURNAL_H
#define EDGE_TUSC_JOURNAL_H

#include <stddef.h>
#include <time.h>

#define TUSC_JOURNAL_FILE	"uploads.json"

/*
 * ino, mtime_ns and ctime_ns (nanoseconds since the epoch) are the file's
 * when the upload began; xxh3 (hex) is the XXH3-128 hash of the file's
 * first offset bytes as they were sent, the proof a resume checks. A
 * journal written before XXH3 has sha256 instead (their SHA-256), which a
 * resume checks once and replaces.
 */
struct tusc_entry {
	char		*key;
	char		*file;		/* absolute */
	long long	 size;
	long long	 mtime;
	long long	 ino;
	long long	 mtime_ns;
	long long	 ctime_ns;
	char		*xxh3;		/* NULL and sha256 NULL: no resume */
	char		*sha256;	/* an older journal's proof */
	char		*base_url;
	char		*account;
	char		*url;
	char		*uid;
	time_t		 created;
	long long	 offset;	/* last acknowledged; for display */
};

/* The key of file (as given) with its size and mtime. Allocated. */
char		*tusc_journal_key(const char *, long long, long long,
		     const char *, const char *);
/* 1 found (fill entry), 0 not there, -1 with *cause. */
int		 tusc_journal_get(const char *, const char *,
		     struct tusc_entry *, char **);
/* Add or replace the entry with its key. */
int		 tusc_journal_put(const char *, const struct tusc_entry *,
		     char **);
/* Remove it; a missing entry is no error. */
int		 tusc_journal_remove(const char *, const char *, char **);
/* Every unfinished upload, oldest first. */
int		 tusc_journal_list(const char *, struct tusc_entry **, size_t *,
		     char **);
void		 tusc_entry_free(struct tusc_entry *);
void		 tusc_entries_free(struct tusc_entry *, size_t);

#endif
