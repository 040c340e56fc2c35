/*
 * The change journal: every change the console makes, with the record
 * before and after, one JSON line each, for audit and "revert last change".
 */
#ifndef EDGE_JOURNAL_H
#define EDGE_JOURNAL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#define JOURNAL_FILE	"journal.jsonl"

struct journal;

/* One change as read back. */
struct journal_record {
	char	*time;		/* RFC 3339, UTC, with milliseconds */
	char	*profile;	/* NULL when none was given */
	char	*method;
	char	*path;
	int	 status;	/* HTTP status of the change */
	cJSON	*before;	/* NULL when absent (a create) */
	cJSON	*after;		/* NULL when absent (a delete) */
};

/*
 * Open dir/journal.jsonl for appending, created 0600; dir must exist
 * (config_state_dir makes it). A torn last line left by a crash is closed
 * off so the next record starts on a line of its own.
 */
struct journal	*journal_open(const char *, char **);
/*
 * Append one change as one write() of a whole line, then fsync. Secrets
 * (redact_json: the kinds' secret fields, such as a live input's WebRTC
 * publish URL, and secret-named ones) are stored as "[redacted]", at any
 * depth; the caller's before and after are not changed. profile may be
 * NULL.
 */
int		 journal_append(struct journal *, const char *, const char *,
		     const char *, int, const cJSON *, const cJSON *, char **);
void		 journal_close(struct journal *);

/*
 * The last n complete records of dir/journal.jsonl, newest first, in
 * *records (*count of them, fewer if the journal is shorter; none for a
 * missing journal). Lines that are not whole records (torn, damaged) are
 * skipped. The file is read from its end, so this costs the records read,
 * not the journal's length.
 */
int		 journal_read_last(const char *, size_t, struct journal_record **,
		     size_t *, char **);
void		 journal_records_free(struct journal_record *, size_t);

/* Replace the secrets in v, at any depth, by "[redacted]" (redact_json). */
void		 journal_redact(cJSON *);

#endif
