/*
 * Legacy zone rate limits (/zones/{zone}/rate_limits, api-map section 7)
 * as the service checks them: the values their fields take, their limits
 * and the rule of an action's fields. edgetui checks with them before
 * sending, edgemu refuses with them: one copy, so the two agree. (The
 * Rulesets engine's rate limiting rules are rlrule.h's.)
 */
#ifndef EDGE_LEGACYRL_H
#define EDGE_LEGACYRL_H

#define LEGACYRL_PERIOD_MIN	10	/* seconds */
#define LEGACYRL_PERIOD_MAX	86400
#define LEGACYRL_TIMEOUT_MAX	86400
/* A description, url, header name or value, bypass value: characters. */
#define LEGACYRL_TEXT_MAX	1024
#define LEGACYRL_BODY_MAX	10240	/* action.response.body, characters */
/* A page of rules: 1, or a multiple of LEGACYRL_PER_PAGE_STEP, to this. */
#define LEGACYRL_PER_PAGE_MAX	1000
#define LEGACYRL_PER_PAGE_STEP	5

/* Each list ends with NULL. */
extern const char *const legacyrl_modes[];	/* action.mode */
extern const char *const legacyrl_methods[];	/* match.request.methods */
extern const char *const legacyrl_schemes[];	/* match.request.schemes */
extern const char *const legacyrl_ops[];	/* match.headers[].op */
extern const char *const legacyrl_content_types[]; /* action.response */
extern const char *const legacyrl_bypass_names[]; /* bypass[].name */

/*
 * An action's fields go together: ban and simulate last action.timeout
 * seconds, at least the period, and may have a response; the challenge
 * modes use the zone's Challenge Passage time and challenge page, so a
 * timeout or a response is refused with them (these messages, after the
 * field's name, with the mode).
 */
int	 legacyrl_mode_lasts(const char *);
int	 legacyrl_timeout_ok(double, double);
#define LEGACYRL_TIMEOUT_LEFT_OUT	"must be left out when action.mode " \
	"is %s (the zone's Challenge Passage time applies)"
#define LEGACYRL_RESPONSE_LEFT_OUT	"must be left out when action.mode " \
	"is %s (the zone's challenge page is served)"

#endif
