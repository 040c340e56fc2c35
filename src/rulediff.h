/*
 * Two lists of rate limiting rules compared rule by rule (a version of
 * the entry point against another, or against the current one): the
 * rules added, removed and changed, with each changed field's old and new
 * value; and the body of the PUT that restores a version. No I/O.
 */
#ifndef EDGE_RULEDIFF_H
#define EDGE_RULEDIFF_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "merge.h"

enum rulediff_what {
	RULEDIFF_ADDED,		/* in new only */
	RULEDIFF_REMOVED,	/* in old only */
	RULEDIFF_CHANGED	/* in both, some field differs */
};

/* A field ("ratelimit.period", "position") and its values as JSON text. */
struct rulediff_field {
	char	*path;
	char	*old;		/* NULL: absent */
	char	*new;		/* NULL: absent */
};

struct rulediff_rule {
	enum rulediff_what	 what;
	char			*id;		/* new's, else old's; or NULL */
	char			*description;	/* the same; or NULL */
	int			 old_pos;	/* 1-based; 0: not there */
	int			 new_pos;
	struct rulediff_field	*fields;	/* RULEDIFF_CHANGED */
	size_t			 nfields;
};

struct rulediff {
	struct rulediff_rule	*rules;		/* new's order, removed last */
	size_t			 n;
	size_t			 added, removed, changed;
};

/*
 * Compare two rule arrays (NULL: none). Rules pair up by id, then by ref
 * (a rule removed and added back with its ref). Fields the server sets
 * (version, last_updated) are left out; absent enabled reads as true and
 * absent ratelimit.mitigation_timeout as 0, as the API means them. A rule
 * whose place among the others changed has a "position" field.
 */
void	 rulediff_compute(const cJSON *, const cJSON *, struct rulediff *);
void	 rulediff_free(struct rulediff *);

/*
 * The diff as lines of text ("changed 'Login' (0c4f12ab):", then
 * "    ratelimit.period: 60 -> 10"); "no difference" when empty.
 */
void	 rulediff_text(const struct rulediff *, struct buf *);
/* "2 changed, 1 added, 1 removed" or "no difference". */
void	 rulediff_summary(const struct rulediff *, struct buf *);

/*
 * The PUT body that makes the entry point's rules those of version (a
 * ruleset with rules): each rule without what the server sets, keeping
 * its id when current (a ruleset, or NULL) still has that rule; a rule
 * since deleted comes back as a new one with its ref. *kept and *renewed
 * (either may be NULL) count the two.
 */
cJSON	*rulediff_restore_body(const cJSON *, const cJSON *, size_t *,
	     size_t *);

/*
 * A restore sent after the rules changed since it was asked: version (a
 * ruleset), base (the entry point as the question showed it) and theirs
 * (as it is now). Rule by rule (by id), the fields of merge.h: a rule the
 * restore leaves as base had it keeps what the server did to it (changed,
 * deleted, or added meanwhile); a field both changed, or a rule one side
 * deleted and the other changed, is a conflict of m (its paths name the
 * rule; merge_resolve does not apply to it). theirs_body and mine_body
 * are the PUT with the conflicts resolved one way or the other.
 */
struct rulediff_restore {
	cJSON		*theirs_body;
	cJSON		*mine_body;
	struct merge	 m;
};
void	 rulediff_restore_merge(const cJSON *, const cJSON *, const cJSON *,
	     struct rulediff_restore *);
void	 rulediff_restore_free(struct rulediff_restore *);

#endif
