/*
 * The rules tester, shared by `edgetui rules test` and the console's
 * tester: a request built from what a user typed (method, URL, client
 * address, headers, country), each rate limiting rule's verdict on it in
 * evaluation order, and a rule's explained tree. Also the rules with a
 * rule being edited in place of the server's copy, which the tester and
 * the simulation both run. No I/O.
 *
 * Rate limiting rules are all evaluated in order (api-map-3 18.8): every
 * rule whose expression matches counts the request in its own counters
 * (its counting expression, when it has one, decides that), and takes
 * no action while it is below its rate; only a rule over its rate whose
 * action ends the phase (block, a challenge) stops the rules after it.
 * So a request is counted by several rules, and the first of those that
 * match with such an action is the one that would stop it.
 */
#ifndef EDGE_RULETEST_H
#define EDGE_RULETEST_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "expr.h"

/* What a user typed; NULL or "" for what was not given. */
struct ruletest_input {
	const char		*method;	/* NULL or "": GET */
	const char		*url;		/* absolute http(s) URL */
	const char		*ip;
	const char *const	*headers;	/* "Name: value" each */
	size_t			 nheaders;
	const char		*country;	/* two letters, any case */
	int			 status;	/* response code; 0: none */
};

/* Which input was refused, for the caller to name it its own way. */
enum ruletest_field {
	RULETEST_URL,
	RULETEST_IP,
	RULETEST_HEADER,
	RULETEST_COUNTRY
};

struct ruletest_error {
	enum ruletest_field	 field;
	size_t			 header;	/* RULETEST_HEADER: which */
	char			 message[320];	/* "'10.1' is not an ..." */
};

/* The request; NULL with *err when an input is refused. */
struct expr_request	*ruletest_request(const struct ruletest_input *,
			     struct ruletest_error *);

enum ruletest_verdict {
	RULETEST_MATCH,
	RULETEST_NO_MATCH,
	RULETEST_DISABLED,
	RULETEST_INVALID,	/* the expression does not parse */
	RULETEST_UNKNOWN	/* a list not known here, or a regex's limits */
};

/* What an unknown verdict's why says when no list is named. */
#define RULETEST_UNKNOWN_WHY	"a regex reached its matching limits: not " \
				"known whether it matches"

/* "match", "no match", "disabled", "invalid", "unknown" */
const char	*ruletest_verdict_name(enum ruletest_verdict);

/* Whether the request counts toward the rule's rate. */
enum ruletest_count {
	RULETEST_NOT_COUNTED,
	RULETEST_COUNTED,
	RULETEST_MAY_COUNT	/* it depends on what is not known here */
};

struct ruletest_result {
	int			 position;	/* 1-based */
	const cJSON		*rule;		/* in the list given */
	enum ruletest_verdict	 verdict;
	enum ruletest_count	 count;
	int			 terminates;	/* its action ends evaluation */
	/*
	 * invalid: "expression:LINE:COL: ..."; unknown or may count: what is
	 * not known ("list $ips is not known here"); a match not counted:
	 * that its counting expression does not match. Else "".
	 */
	char			 why[320];
};

/*
 * Each rule of the list (a ruleset's "rules"; NULL: none) on the request,
 * in order: *n results (free them), *acts the index of the first rule
 * that matches with an action that ends evaluation (the one that stops
 * the request once over its rate), or -1. Disabled rules are not
 * evaluated; expressions are read in the language alone (the rules are
 * already the service's).
 */
struct ruletest_result	*ruletest_run(const cJSON *, struct expr_request *,
			     size_t *, int *);
/*
 * The results in one sentence: which rules count the request, which may,
 * and which acts first once over its rate (ending evaluation there), or
 * that no rule counts it. Caller frees.
 */
char			*ruletest_summary(const struct ruletest_result *,
			     size_t, int);

/* One node of a rule's explained tree (expr_explain), copied. */
struct ruletest_step {
	int		 depth;		/* 0 = the whole expression */
	enum expr_value	 value;
	char		*text;		/* canonical text of the node */
	char		*seen;		/* the left value; NULL for and/or/not */
};

/*
 * The rule's expression explained on the request: *n steps in source order,
 * depth first (free with ruletest_steps_free). NULL with *err when the
 * expression does not parse (or the rule has none).
 */
struct ruletest_step	*ruletest_explain(const cJSON *,
			     struct expr_request *, size_t *,
			     struct expr_error *);
void			 ruletest_steps_free(struct ruletest_step *, size_t);
/* "true", "false", "missing", "unknown" */
const char		*ruletest_value_name(enum expr_value);

/*
 * The rules (NULL: none) with edited in place of the rule of the same id,
 * or after them when edited has no id (or none of them has it): a new
 * list. *position (may be NULL) is the edited rule's index in it.
 */
cJSON		*ruletest_rules_with(const cJSON *, const cJSON *, int *);

#endif
