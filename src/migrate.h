/*
 * Legacy zone rate limits moved to rate limiting rules (api-map-next 13):
 * the translation of one legacy rule for a plan, with what it lost, the
 * preview both the CLI and the console show, and the apply as a sequence
 * of requests (no I/O here: the caller sends each and feeds the answer).
 */
#ifndef EDGE_MIGRATE_H
#define EDGE_MIGRATE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "expr.h"

/* The ref a migrated rule carries: "legacy-" and the legacy id. */
#define MIGRATE_REF_PREFIX	"legacy-"

/* One legacy rule and its translation. */
struct migrate_item {
	cJSON		 *legacy;	/* a copy of the legacy rule */
	const char	 *legacy_id;	/* in legacy; NULL when it has none */
	cJSON		 *rule;		/* the new rule, or NULL: see error */
	char		 *error;	/* why it could not be translated */
	char		**warnings;	/* what was lost or changed, and why */
	size_t		  nwarnings;
};

/*
 * Translate legacy (a legacy rule as the API returns it; response headers
 * under match.response or match) for plan (EXPR_PLAN_NONE: as Enterprise,
 * unchecked limits). Returns 0 with item->rule, which passes rlrule_check
 * for the plan, or -1 with item->error; warnings either way.
 */
int	 migrate_rule(const cJSON *, enum expr_plan, struct migrate_item *);
void	 migrate_item_free(struct migrate_item *);

/* The legacy rules of a list translated: *n items, free with
 * migrate_items_free. */
struct migrate_item *migrate_rules(const cJSON *, enum expr_plan, size_t *);
void	 migrate_items_free(struct migrate_item *, size_t);

/*
 * The preview: YAML that reads back as the list of new rules, each rule
 * preceded by comments naming its legacy rule and saying every warning;
 * a rule that cannot be translated is a comment only.
 */
char	*migrate_preview(const struct migrate_item *, size_t, enum expr_plan);

/*
 * Applying: read the zone's entry point, skip the rules whose ref is
 * there already, create the entry point if missing, add the others one
 * by one in order, then (disable_legacy) disable each legacy rule whose
 * translation is in the entry point. The first failure stops it; the
 * report says, per legacy rule, where it is.
 */
struct migrate_apply;

/* One request to send; free with migrate_call_clear. */
struct migrate_call {
	const char	*method;
	char		*path;
	cJSON		*body;		/* NULL: none */
	const cJSON	*before;	/* the record changed, for the journal */
};

struct migrate_apply *migrate_apply_new(struct migrate_item *, size_t,
	     enum expr_plan, const char *zone, int disable_legacy);
void	 migrate_apply_free(struct migrate_apply *);
/* 1 with the next request in *call, or 0 when it is over. */
int	 migrate_apply_next(struct migrate_apply *, struct migrate_call *);
/* The answer to that request: its HTTP status (0: none came), its result
 * on success, or why it failed (NULL: it succeeded). */
void	 migrate_apply_answer(struct migrate_apply *, long, const cJSON *,
	     const char *);
void	 migrate_call_clear(struct migrate_call *);
/* Per legacy rule: applied, skipped, failed, not tried; legacy disabled
 * or not. Caller frees. */
char	*migrate_apply_report(const struct migrate_apply *);
/* Whether something failed (a request, or a rule left out). */
int	 migrate_apply_failed(const struct migrate_apply *);

#endif
