/*
 * A rate limiting rule (a rule of the zone's http_ratelimit entry point)
 * checked as the service checks it (api-map-next 11.4): edgetui lints with
 * it before sending, edgemu refuses with it, so both refuse the same things.
 */
#ifndef EDGE_RLRULE_H
#define EDGE_RLRULE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "expr.h"

/*
 * The docs give no limit for a rule's description; 500 characters keeps
 * what edgetui shows and edgemu stores bounded.
 */
#define RLRULE_DESCRIPTION_MAX	500

/* The first problem found in a rule. */
struct rlrule_problem {
	char	 field[64];	/* "ratelimit.period", "expression", ... */
	int	 column;	/* 1-based, for an expression; else 0 */
	char	 message[256];	/* "must include cf.colo.id" */
};

/*
 * 0 when the rule (a JSON object as sent to the API: action, expression,
 * ratelimit{...}, action_parameters, description, enabled, ref) is valid on
 * the plan (EXPR_PLAN_NONE: language and service rules only); -1 with *p.
 */
int	 rlrule_check(const cJSON *, enum expr_plan, struct rlrule_problem *);

/* Rules one entry point may hold on a plan (NONE: the enterprise number). */
int	 rlrule_max_rules(enum expr_plan);
/*
 * Whether an entry point of n rules is within the plan's quota: 0, or -1
 * with *p (field "rules": "7 rules is over the Pro plan's limit of 2").
 * The service refuses every write that leaves more (a new rule, and an
 * edit while the zone is over). NONE: the plan is not known, 0.
 */
int	 rlrule_quota(int, enum expr_plan, struct rlrule_problem *);
/*
 * What the plan alone forbids in a rule the service holds (taken on a
 * bigger plan, or upgraded from a legacy rule): -1 with *p when the rule
 * passes the service's checks without a plan's limits but not with
 * plan's; else 0.
 */
int	 rlrule_plan_check(const cJSON *, enum expr_plan,
	     struct rlrule_problem *);

/* The values the API takes for period and mitigation_timeout (0-ended
 * after a first 0 for timeouts: callers use the counts), and whether the
 * plan allows one. */
extern const int	 rlrule_periods[];
extern const size_t	 rlrule_nperiods;
extern const int	 rlrule_timeouts[];
extern const size_t	 rlrule_ntimeouts;
int	 rlrule_period_ok(int, enum expr_plan);
int	 rlrule_timeout_ok(int, const char *action, enum expr_plan);

/* The actions of this phase, NULL-ended. */
extern const char *const rlrule_actions[];
/*
 * Whether an action ends the phase's evaluation when it applies (block
 * and the challenges; log lets the next rules run): api-map-3 18.8.
 */
int	 rlrule_action_terminates(const char *);
/* The content types of a block's response, NULL-ended. */
extern const char *const rlrule_content_types[];

#endif
