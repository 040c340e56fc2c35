/*
 * Writes that keep other people's changes: the three-way merge, at field
 * level, of the copy a change started from (base), the record as the user
 * changed it (mine) and the server's copy read just before the write
 * (theirs). Every write of a whole record, in the console and the one-shot
 * commands alike, sends what this merges and stops on its conflicts. The
 * kind's descriptor says which fields the server manages (KIND_F_READONLY:
 * never the user's change, never a conflict) and which change on every
 * write (KIND_F_STAMP: an unchanged record is told without comparing the
 * rest). No I/O.
 */
#ifndef EDGE_MERGE_H
#define EDGE_MERGE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "kind.h"

/* A field both sides changed, to different values; absent is NULL. */
struct merge_conflict {
	char		*path;		/* "ratelimit.period", for people */
	char		**keys;		/* the same, key by key */
	size_t		 nkeys;
	cJSON		*base;
	cJSON		*theirs;
	cJSON		*mine;
};

struct merge {
	/*
	 * theirs with every change of mine applied but the conflicting ones
	 * (there theirs' value stays): what "keep theirs" sends.
	 */
	cJSON			*merged;
	struct merge_conflict	*conflicts;
	size_t			 nconflicts;
	size_t			 changed;	/* fields mine changed */
	int			 theirs_changed; /* the server's copy moved */
};

/*
 * Merge at field level: objects member by member, anything else (arrays
 * too) as one value; an absent member and a null one are the same value.
 * A field mine changed is applied unless theirs changed it too, to
 * another value: that is a conflict. A base of NULL is not known (a file
 * given whole): every field where mine and theirs differ is mine's change;
 * when mine carries a stamp that theirs no longer has, the server's copy
 * changed since mine was read and each of them is a conflict, else (no
 * stamp in mine, or the same) mine replaces theirs. m is filled; free it
 * with merge_free.
 */
void	 merge_records(const struct kind *, const cJSON *, const cJSON *,
	     const cJSON *, struct merge *);
void	 merge_free(struct merge *);

enum merge_pick {
	MERGE_THEIRS,		/* the server's values at the conflicts */
	MERGE_MINE		/* the user's values there */
};
/* The record to send after that choice (caller frees). */
cJSON	*merge_resolve(const struct merge *, enum merge_pick);

/*
 * The body of the kind's update once merged (edit_update_body against
 * theirs: a PUT sends the record with its id, a PATCH or POST what
 * differs), without what only a create sets. Caller frees.
 */
cJSON	*merge_update_body(const struct kind *, const cJSON *, const cJSON *,
	     const char *);

/*
 * Whether theirs is base by the kind's stamps (version, last_updated,
 * modified): 1 when every stamp either has is in both and equal, and
 * there is one at least; 0 otherwise (no stamps: not known).
 */
int	 merge_unchanged(const struct kind *, const cJSON *, const cJSON *);
/* Whether two copies differ in a field that is not the server's. */
int	 merge_differs(const struct kind *, const cJSON *, const cJSON *);
/* Whether the field at a dotted path is the server's (id, version...). */
int	 merge_server_field(const struct kind *, const char *);

/*
 * "  path: theirs → yours\n" for each conflict, the values as compact
 * JSON ("(absent)"), secrets masked.
 */
void	 merge_conflicts_text(const struct merge *, struct buf *);
/*
 * edit_diff of before and after without the fields the server manages:
 * what a write changes, as the user sees it. Secrets masked. Returns how
 * many fields differ.
 */
size_t	 merge_diff(struct buf *, const struct kind *, const cJSON *,
	     const cJSON *);

#endif
