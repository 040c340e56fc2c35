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

/* ---- src/journal_undo.c: what a record changed, and how to undo it ---- */

struct kind;

/* The record a change touched, found from its path by the kinds' paths. */
struct journal_target {
	const struct kind	*kind;		/* NULL: no kind has that path */
	char			*id;		/* NULL: none (object, a list) */
	char			*account;	/* the path's, or NULL */
	char			*zone;
	char			*video;		/* KIND_SCOPE_VIDEO */
	int			 list;		/* the path is the list's */
	int			 below;		/* an action below the record's */
};

/*
 * The kind and record of a change's path ("/zones/Z/rate_limits/ID";
 * a query is ignored): the kind whose list, create or item path matches
 * with the most fixed segments; else, for an action below a record's path
 * (".../downloads/audio", ".../captions/de/generate"), that record's
 * (below). 0, or -1 when none matches.
 */
int		 journal_target(const char *, struct journal_target *);
void		 journal_target_free(struct journal_target *);

enum journal_undo_op {
	JOURNAL_UNDO_NONE,	/* why says why it cannot be undone */
	JOURNAL_UNDO_CREATE,	/* POST body: re-create a deleted record */
	JOURNAL_UNDO_UPDATE,	/* the kind's update with body */
	JOURNAL_UNDO_DELETE	/* DELETE the record a create made */
};

/*
 * How to undo a change. CREATE's body is the before-image's writable
 * fields (the server gives the record a new id); UPDATE's is the record
 * as it was after the change with its writable top-level fields as they
 * were before it (what E would send); secrets, which the journal never
 * held, are left out. note, when not NULL, is what the undo cannot bring
 * back (a new id, new keys).
 */
struct journal_undo {
	enum journal_undo_op	 op;
	struct journal_target	 target;
	cJSON			*body;
	char			*why;
	char			*note;
};

void		 journal_undo_plan(const struct journal_record *,
		     struct journal_undo *);
void		 journal_undo_free(struct journal_undo *);
/* "created", "deleted" or "updated: a, b, c" (top-level fields). */
char		*journal_change_text(const struct journal_record *);

/* Replace the secrets in v, at any depth, by "[redacted]" (redact_json). */
void		 journal_redact(cJSON *);

#endif
