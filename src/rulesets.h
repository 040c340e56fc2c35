/*
 * Rate limiting rules as the rules of the zone's http_ratelimit entry
 * point ruleset (api-map-next 11): where a new rule goes (--position), the
 * body a write sends, a rule found in a ruleset, the body that creates the
 * entry point, and the lint run before anything is sent. No I/O.
 */
#ifndef EDGE_RULESETS_H
#define EDGE_RULESETS_H

#include <cjson/cJSON.h>

#include "expr.h"

#define RULESETS_PHASE		"http_ratelimit"
/* The name a created entry point gets (the dashboard's). */
#define RULESETS_ENTRYPOINT_NAME "default"

/* Path templates; {ruleset} is the entry point's id. */
#define RULESETS_ENTRYPOINT_PATH \
	"/zones/{zone}/rulesets/phases/http_ratelimit/entrypoint"
#define RULESETS_VERSIONS_PATH	RULESETS_ENTRYPOINT_PATH "/versions"
#define RULESETS_VERSION_PATH	RULESETS_VERSIONS_PATH "/{id}"
#define RULESETS_LIST_PATH	"/zones/{zone}/rulesets"
#define RULESETS_ONE_PATH	"/zones/{zone}/rulesets/{id}"
#define RULESETS_RULES_PATH	"/zones/{zone}/rulesets/{ruleset}/rules"
#define RULESETS_RULE_PATH	RULESETS_RULES_PATH "/{id}"

enum rulesets_where {
	RULESETS_LAST,		/* the default: appended */
	RULESETS_FIRST,
	RULESETS_BEFORE,	/* before rule id */
	RULESETS_AFTER,		/* after rule id */
	RULESETS_INDEX		/* at index (1-based); later rules shift */
};

struct rulesets_position {
	enum rulesets_where	 where;
	char			 id[33];	/* BEFORE, AFTER */
	long			 index;		/* INDEX */
};

/*
 * "first", "last", "before:ID", "after:ID" (ID: 32 hex digits) or a
 * number from 1. Returns 0, or -1 with *cause.
 */
int	 rulesets_position_parse(const char *, struct rulesets_position *,
	     char **);
/* The API's position object: {"before":""}, {"after":ID}, {"index":N}. */
cJSON	*rulesets_position_json(const struct rulesets_position *);
/*
 * Whether the position fits the rules there are now (NULL: none, the entry
 * point is absent): the rule it names exists, the index is at most one
 * past the last. Returns 0, or -1 with *cause.
 */
int	 rulesets_position_check(const struct rulesets_position *,
	     const cJSON *, char **);

/* The rules of a ruleset in evaluation order, or NULL when it has none. */
const cJSON	*rulesets_rules(const cJSON *);
/* The rule with that id and its 1-based position (pos may be NULL). */
const cJSON	*rulesets_rule_find(const cJSON *, const char *, int *);
/*
 * The first rule of after whose id is not in before (either may be NULL):
 * the one a create added.
 */
const cJSON	*rulesets_rule_added(const cJSON *, const cJSON *);
/*
 * Number a rules array in place: each rule gets "position", its 1-based
 * place (what lists show; a write's body never sends it).
 */
void		 rulesets_number(cJSON *);
/*
 * The entry point's versions, newest first: the first is the current one
 * (the server lists them oldest first); a version that is no number last.
 */
void		 rulesets_versions_newest_first(cJSON *);

/*
 * What a create or an update sends for a rule (caller frees): the rule
 * without what the server sets (id, version, last_updated) and without a
 * position of the file's. An update sends it whole: the API's PATCH is
 * not a merge, and a field left out is gone.
 */
cJSON	*rulesets_rule_body(const cJSON *);
/* Whether a rule is enabled: absent means yes, as the API has it. */
int	 rulesets_rule_enabled(const cJSON *);
/*
 * The PATCH turning a rule on or off: the whole rule, enabled set; from
 * the rule as just read (an older copy would undo changes made since).
 */
cJSON	*rulesets_rule_enable_body(const cJSON *, int);
/* POST /zones/{zone}/rulesets creating the entry point with one rule. */
cJSON	*rulesets_entrypoint_body(const cJSON *);

/*
 * A rule's characteristics as a form shows them, "cf.colo.id, ip.src",
 * and back: commas separate, except inside the quotes of a key
 * (http.request.headers["a,b"]); blanks around each are dropped.
 */
char	*rulesets_characteristics_text(const cJSON *);
cJSON	*rulesets_characteristics_parse(const char *);

/*
 * The first problem of a rule, as the service would find it on plan:
 * an expression (text set: render it with expr_error_render) or another
 * field (text NULL, err.message says what).
 */
struct rulesets_lint {
	char			 field[64];	/* "expression", ... */
	const char		*text;		/* into the rule; or NULL */
	struct expr_error	 err;
};

/* 0 when the rule is fit to send; -1 with *lint. */
int	 rulesets_lint(const cJSON *, enum expr_plan, struct rulesets_lint *);
/* The lint's problem for a comment in an edited file: field, column, caret. */
char	*rulesets_lint_comment(const struct rulesets_lint *);

#endif
