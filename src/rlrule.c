/*
 * One rate limiting rule checked as the service checks it: the fields of
 * api-map-next 11.4, the API's value lists, and a plan's limits.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jsonutil.h"
#include "rlrule.h"
#include "text.h"

#define RLRULE_CONTENT_MAX	(30 * 1024)	/* a block response's body */
#define RLRULE_REF_MAX		256
/*
 * Neither the docs nor the SDK give score_response_header_name a limit;
 * this one keeps what edgemu stores bounded, far above any header name in
 * use.
 */
#define RLRULE_HEADER_NAME_MAX	256

/* parameters.mdx's API values. */
const int	 rlrule_periods[] = { 10, 60, 120, 300, 600, 3600 };
const size_t	 rlrule_nperiods = sizeof rlrule_periods /
		     sizeof rlrule_periods[0];
const int	 rlrule_timeouts[] = { 0, 10, 60, 120, 300, 600, 3600, 86400 };
const size_t	 rlrule_ntimeouts = sizeof rlrule_timeouts /
		     sizeof rlrule_timeouts[0];

/*
 * The plan partial's "supported" values, for periods and timeouts alike:
 * what the service takes and may hand back (rules it upgraded from legacy
 * rate limits carry them), so a rule read back can be sent again as it is.
 * Editors offer only the API values above.
 */
static const int rlrule_supported[] = {
	10, 15, 20, 30, 40, 45, 60, 90, 120, 180, 240, 300, 480, 600, 900,
	1200, 1800, 2400, 3600, 65535, 86400
};
#define RLRULE_NSUPPORTED (sizeof rlrule_supported / sizeof rlrule_supported[0])

const char *const rlrule_actions[] = {
	"block", "challenge", "js_challenge", "managed_challenge", "log", NULL
};

/* ratelimit{}'s members, refused at the top where they do nothing. */
static const char *const rlrule_ratelimit_members[] = {
	"characteristics", "period", "requests_per_period",
	"mitigation_timeout", "requests_to_origin", "counting_expression",
	"score_per_period", "score_response_header_name", NULL
};

const char *const rlrule_content_types[] = {
	"application/json", "text/html", "text/xml", "text/plain", NULL
};

/* Characteristics with no key, and the map ones that take one. */
static const char *const rlrule_plain_chars[] = {
	"cf.colo.id", "ip.src", "cf.unique_visitor_id", "http.host",
	"http.request.uri.path", "ip.src.asnum", "ip.src.country",
	"cf.bot_management.ja3_hash", "cf.bot_management.ja4",
	"http.request.body.raw", "http.request.body.size", NULL
};
static const char *const rlrule_map_chars[] = {
	"http.request.headers", "http.request.cookies",
	"http.request.uri.args", "http.request.body.form", NULL
};

/* The plan partial's limits, by enum expr_plan (NONE as enterprise). */
static const struct {
	int	 rules;
	int	 period;	/* longest */
	int	 timeout;	/* longest */
} rlrule_limits[] = {
	[EXPR_PLAN_NONE] = { 100, 65535, 86400 },
	[EXPR_PLAN_FREE] = { 1, 10, 10 },
	[EXPR_PLAN_PRO] = { 2, 60, 3600 },
	[EXPR_PLAN_BUSINESS] = { 5, 600, 86400 },
	[EXPR_PLAN_ENTERPRISE] = { 100, 65535, 86400 },
};

static int
rlrule_plan_index(enum expr_plan plan)
{
	if ((int)plan < 0 || (int)plan > EXPR_PLAN_ENTERPRISE)
		return (EXPR_PLAN_NONE);
	return ((int)plan);
}

/* Below Enterprise: the plan-restricted actions and timeouts apply. */
static int
rlrule_restricted(enum expr_plan plan)
{
	return (plan != EXPR_PLAN_NONE && plan != EXPR_PLAN_ENTERPRISE);
}

int
rlrule_max_rules(enum expr_plan plan)
{
	return (rlrule_limits[rlrule_plan_index(plan)].rules);
}

static int
rlrule_fail(struct rlrule_problem *p, const char *field, int column,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

int
rlrule_quota(int n, enum expr_plan plan, struct rlrule_problem *p)
{
	memset(p, 0, sizeof *p);
	if (plan == EXPR_PLAN_NONE || n <= rlrule_max_rules(plan))
		return (0);
	return (rlrule_fail(p, "rules", 0, "%d rules is over the %s plan's "
	    "limit of %d", n, expr_plan_title(plan), rlrule_max_rules(plan)));
}

int
rlrule_plan_check(const cJSON *rule, enum expr_plan plan,
    struct rlrule_problem *p)
{
	if (plan == EXPR_PLAN_NONE || rlrule_check(rule, EXPR_PLAN_NONE, p) != 0)
		return (0);
	return (rlrule_check(rule, plan, p));
}

static int
rlrule_in(int v, const int *list, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (list[i] == v)
			return (1);
	}
	return (0);
}

static int
rlrule_is_challenge(const char *action)
{
	return (action != NULL && (strcmp(action, "challenge") == 0 ||
	    strcmp(action, "js_challenge") == 0 ||
	    strcmp(action, "managed_challenge") == 0));
}

int
rlrule_action_terminates(const char *action)
{
	return (action != NULL && (strcmp(action, "block") == 0 ||
	    rlrule_is_challenge(action)));
}

int
rlrule_period_ok(int period, enum expr_plan plan)
{
	return (rlrule_in(period, rlrule_supported, RLRULE_NSUPPORTED) &&
	    period <= rlrule_limits[rlrule_plan_index(plan)].period);
}

int
rlrule_timeout_ok(int timeout, const char *action, enum expr_plan plan)
{
	/* Enterprise may use any value up to a day through the API. */
	if (!rlrule_restricted(plan))
		return (timeout >= 0 && timeout <= 86400);
	if (timeout != 0 &&
	    !rlrule_in(timeout, rlrule_supported, RLRULE_NSUPPORTED))
		return (0);
	if (rlrule_is_challenge(action))
		return (timeout == 0);
	return (timeout > 0 &&
	    timeout <= rlrule_limits[rlrule_plan_index(plan)].timeout);
}

/* ---- problems ---------------------------------------------------------- */

static int
rlrule_fail(struct rlrule_problem *p, const char *field, int column,
    const char *fmt, ...)
{
	va_list	ap;

	snprintf(p->field, sizeof p->field, "%s", field);
	p->column = column;
	va_start(ap, fmt);
	vsnprintf(p->message, sizeof p->message, fmt, ap);
	va_end(ap);
	return (-1);
}

/* A member; null counts as absent, as for the service's decoder. */
static const cJSON *
rlrule_member(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	return (cJSON_IsNull(v) ? NULL : v);
}

/* An integer member within [min, max]; absent is left to the caller. */
static int
rlrule_integer(const cJSON *v, const char *field, long min, long max,
    long *out, struct rlrule_problem *p)
{
	double	d;

	if (!cJSON_IsNumber(v))
		return (rlrule_fail(p, field, 0, "must be an integer, not %s",
		    jsonutil_type_name(v)));
	d = v->valuedouble;
	if (!isfinite(d) || floor(d) != d)
		return (rlrule_fail(p, field, 0, "must be an integer, not %g",
		    d));
	if (d < (double)min || d > (double)max)
		return (rlrule_fail(p, field, 0, "%.15g is out of range "
		    "(%ld to %ld)", d, min, max));
	*out = (long)d;
	return (0);
}

static int
rlrule_bool(const cJSON *v, const char *field, struct rlrule_problem *p)
{
	if (v == NULL || cJSON_IsBool(v))
		return (0);
	return (rlrule_fail(p, field, 0, "must be true or false, not %s",
	    jsonutil_type_name(v)));
}

static void
rlrule_list_ints(char *buf, size_t len, const int *list, size_t n, int max)
{
	size_t	i, used = 0;
	int	w;

	buf[0] = '\0';
	for (i = 0; i < n && list[i] <= max; i++) {
		w = snprintf(buf + used, len - used, "%s%d", i == 0 ? "" :
		    ", ", list[i]);
		if (w < 0 || (size_t)w >= len - used)
			return;
		used += (size_t)w;
	}
}

/* ---- the expression ---------------------------------------------------- */

static int
rlrule_expression(const char *text, const char *field, int counting,
    enum expr_plan plan, struct rlrule_problem *p)
{
	struct expr_options	opts;
	struct expr_error	err;

	memset(&opts, 0, sizeof opts);
	opts.plan = plan;
	opts.counting = counting;
	memset(&err, 0, sizeof err);
	if (expr_check(text, &opts, &err) == 0)
		return (0);
	return (rlrule_fail(p, field, err.column, "%s", err.message));
}

/* Whether s[0] starts a token: not inside a name. */
static int
rlrule_token_start(const char *text, const char *s)
{
	return (s == text || !(isalnum((unsigned char)s[-1]) ||
	    s[-1] == '_' || s[-1] == '.'));
}

/*
 * What an expression that expr_check accepted refers to, for the rules
 * across a rule's fields: its first list ($name) into list ("" for none)
 * and whether it reads a response field. String literals are skipped:
 * quoted ones (a backslash takes the next byte with it) and raw ones
 * (r"...", r#"..."#).
 */
static void
rlrule_scan(const char *text, char *list, size_t len, int *response)
{
	const char	*s = text, *e;
	size_t		 hashes, n;

	*list = '\0';
	*response = 0;
	while (*s != '\0') {
		if (*s == '"') {
			for (s++; *s != '\0' && *s != '"'; s++) {
				if (*s == '\\' && s[1] != '\0')
					s++;
			}
			if (*s == '"')
				s++;
		} else if (*s == 'r' && rlrule_token_start(text, s) &&
		    (s[1] == '"' || s[1] == '#')) {
			hashes = strspn(s + 1, "#");
			s += 1 + hashes + (s[1 + hashes] == '"');
			for (; *s != '\0'; s++) {
				if (*s == '"' && strspn(s + 1, "#") >= hashes) {
					s += 1 + hashes;
					break;
				}
			}
		} else if (*s == '$') {
			e = ++s;
			while (islower((unsigned char)*e) ||
			    isdigit((unsigned char)*e) || *e == '_')
				e++;
			n = (size_t)(e - s);
			if (*list == '\0' && n > 0 && n < len)
				snprintf(list, len, "%.*s", (int)n, s);
			s = e;
		} else {
			if (strncmp(s, "http.response.", 14) == 0 &&
			    rlrule_token_start(text, s))
				*response = 1;
			s++;
		}
	}
}

/*
 * api-map-next 11.4: requests_to_origin must be false when an expression
 * uses a custom list, and a counting expression may not mix response
 * fields and lists. The expressions are already checked.
 */
static int
rlrule_lists(const cJSON *rule, struct rlrule_problem *p)
{
	const cJSON	*rl = rlrule_member(rule, "ratelimit"), *v;
	char		 list[64], clist[64];
	int		 response;

	rlrule_scan(rlrule_member(rule, "expression")->valuestring, list,
	    sizeof list, &response);
	*clist = '\0';
	response = 0;
	v = rlrule_member(rl, "counting_expression");
	if (cJSON_IsString(v))
		rlrule_scan(v->valuestring, clist, sizeof clist, &response);
	if (*clist != '\0' && response)
		return (rlrule_fail(p, "ratelimit.counting_expression", 0,
		    "cannot use both response fields and a list ($%s): the "
		    "service refuses the mix", clist));
	if (cJSON_IsTrue(rlrule_member(rl, "requests_to_origin")) &&
	    (*list != '\0' || *clist != '\0'))
		return (rlrule_fail(p, "ratelimit.requests_to_origin", 0,
		    "must be false when an expression uses a list ($%s)",
		    *list != '\0' ? list : clist));
	return (0);
}

/* ---- characteristics --------------------------------------------------- */

/* name["key"] with a non-empty key (lower case for headers). */
static int
rlrule_map_char(const char *s)
{
	size_t		 i, n;
	const char	*k, *end;

	for (i = 0; rlrule_map_chars[i] != NULL; i++) {
		n = strlen(rlrule_map_chars[i]);
		if (strncmp(s, rlrule_map_chars[i], n) != 0 ||
		    strncmp(s + n, "[\"", 2) != 0)
			continue;
		k = s + n + 2;
		end = strchr(k, '"');
		if (end == NULL || end == k || strcmp(end, "\"]") != 0)
			return (0);
		if (i == 0) {
			for (; k < end; k++) {
				if (*k >= 'A' && *k <= 'Z')
					return (0);
			}
		}
		return (1);
	}
	return (0);
}

/* The keys of a lookup: "name" or an index, comma-separated, then ")". */
static int
rlrule_json_keys(const char *s)
{
	for (;;) {
		while (*s == ' ')
			s++;
		if (*s == '"') {
			for (s++; *s != '\0' && *s != '"'; s++) {
				if (*s == '\\' && s[1] != '\0')
					s++;
			}
			if (*s++ != '"')
				return (0);
		} else if (isdigit((unsigned char)*s)) {
			while (isdigit((unsigned char)*s))
				s++;
		} else
			return (0);
		while (*s == ' ')
			s++;
		if (*s == ')')
			return (s[1] == '\0');
		if (*s++ != ',')
			return (0);
	}
}

/* lookup_json_string(http.request.body.raw, "key"...) and _integer. */
static int
rlrule_json_char(const char *s)
{
	static const char *const fns[] = {
		"lookup_json_string(http.request.body.raw,",
		"lookup_json_integer(http.request.body.raw,", NULL
	};
	size_t	i, n;

	for (i = 0; fns[i] != NULL; i++) {
		n = strlen(fns[i]);
		if (strncmp(s, fns[i], n) == 0)
			return (rlrule_json_keys(s + n));
	}
	return (0);
}

static int
rlrule_characteristics(const cJSON *list, enum expr_plan plan,
    struct rlrule_problem *p)
{
	const cJSON	*item, *other;
	char		 field[64];
	const char	*s;
	int		 i = 0, j, colo = 0, ip = 0, nat = 0;
	size_t		 k;

	if (list == NULL)
		return (rlrule_fail(p, "ratelimit.characteristics", 0,
		    "required: the values that count requests apart, "
		    "with \"cf.colo.id\""));
	if (!cJSON_IsArray(list))
		return (rlrule_fail(p, "ratelimit.characteristics", 0,
		    "must be an array of strings, not %s",
		    jsonutil_type_name(list)));
	if (cJSON_GetArraySize(list) == 0)
		return (rlrule_fail(p, "ratelimit.characteristics", 0,
		    "must not be empty: it must include \"cf.colo.id\""));
	cJSON_ArrayForEach(item, list) {
		snprintf(field, sizeof field, "ratelimit.characteristics[%d]",
		    i);
		if (!cJSON_IsString(item))
			return (rlrule_fail(p, field, 0, "must be a string, "
			    "not %s", jsonutil_type_name(item)));
		s = item->valuestring;
		j = 0;
		cJSON_ArrayForEach(other, list) {
			if (j++ >= i)
				break;
			if (cJSON_IsString(other) &&
			    strcmp(other->valuestring, s) == 0)
				return (rlrule_fail(p, field, 0, "\"%.64s\" "
				    "is listed twice", s));
		}
		for (k = 0; rlrule_plain_chars[k] != NULL; k++) {
			if (strcmp(s, rlrule_plain_chars[k]) == 0)
				break;
		}
		if (rlrule_plain_chars[k] == NULL && !rlrule_map_char(s) &&
		    !rlrule_json_char(s))
			return (rlrule_fail(p, field, 0, "\"%.64s\" is not a "
			    "characteristic (cf.colo.id, ip.src, "
			    "cf.unique_visitor_id, http.host, "
			    "http.request.headers[\"name\"], ...; header "
			    "names in lower case)", s));
		colo |= strcmp(s, "cf.colo.id") == 0;
		ip |= strcmp(s, "ip.src") == 0;
		nat |= strcmp(s, "cf.unique_visitor_id") == 0;
		if (rlrule_restricted(plan) &&
		    strcmp(s, "cf.colo.id") != 0 && strcmp(s, "ip.src") != 0 &&
		    !(strcmp(s, "cf.unique_visitor_id") == 0 &&
		    plan == EXPR_PLAN_BUSINESS))
			return (rlrule_fail(p, field, 0, "\"%.64s\" needs %s "
			    "(the %s plan counts by %s)", s,
			    strcmp(s, "cf.unique_visitor_id") == 0 ?
			    "the Business plan or above" :
			    "Enterprise with Advanced Rate Limiting",
			    expr_plan_title(plan),
			    plan == EXPR_PLAN_BUSINESS ?
			    "ip.src or cf.unique_visitor_id" : "ip.src only"));
		i++;
	}
	if (!colo)
		return (rlrule_fail(p, "ratelimit.characteristics", 0,
		    "must include \"cf.colo.id\""));
	if (ip && nat)
		return (rlrule_fail(p, "ratelimit.characteristics", 0,
		    "\"ip.src\" and \"cf.unique_visitor_id\" cannot both be "
		    "used: pick one"));
	if (rlrule_restricted(plan) && !ip && !nat)
		return (rlrule_fail(p, "ratelimit.characteristics", 0,
		    "must include \"ip.src\"%s on the %s plan",
		    plan == EXPR_PLAN_BUSINESS ?
		    " or \"cf.unique_visitor_id\"" : "",
		    expr_plan_title(plan)));
	return (0);
}

/* ---- ratelimit{} ------------------------------------------------------- */

static int
rlrule_period(const cJSON *rl, enum expr_plan plan, struct rlrule_problem *p)
{
	const cJSON	*v;
	char		 list[192];
	long		 period;

	if ((v = rlrule_member(rl, "period")) == NULL)
		return (rlrule_fail(p, "ratelimit.period", 0, "required: the "
		    "seconds over which requests are counted"));
	if (rlrule_integer(v, "ratelimit.period", 0, 86400, &period, p) != 0)
		return (-1);
	if (!rlrule_in((int)period, rlrule_supported, RLRULE_NSUPPORTED)) {
		rlrule_list_ints(list, sizeof list, rlrule_supported,
		    RLRULE_NSUPPORTED, 65535);
		return (rlrule_fail(p, "ratelimit.period", 0, "%ld is not "
		    "one of %s", period, list));
	}
	if (!rlrule_period_ok((int)period, plan))
		return (rlrule_fail(p, "ratelimit.period", 0, "%ld is over "
		    "the %s plan's longest period (%d s)", period,
		    expr_plan_title(plan),
		    rlrule_limits[rlrule_plan_index(plan)].period));
	return (0);
}

/* requests_per_period, or the complexity score of Advanced RL. */
static int
rlrule_rate(const cJSON *rl, enum expr_plan plan, struct rlrule_problem *p)
{
	const cJSON	*v;
	long		 n;

	v = rlrule_member(rl, "requests_per_period");
	if (v == NULL && rlrule_member(rl, "score_per_period") == NULL)
		return (rlrule_fail(p, "ratelimit.requests_per_period", 0,
		    "required: the requests per period above which the "
		    "action applies (at least 1)"));
	if (v != NULL && rlrule_integer(v, "ratelimit.requests_per_period", 1,
	    2147483647L, &n, p) != 0)
		return (-1);
	if ((v = rlrule_member(rl, "score_per_period")) == NULL)
		return (0);
	if (rlrule_integer(v, "ratelimit.score_per_period", 1, 1000000, &n,
	    p) != 0)
		return (-1);
	if (rlrule_restricted(plan))
		return (rlrule_fail(p, "ratelimit.score_per_period", 0,
		    "complexity-based counting needs Enterprise with "
		    "Advanced Rate Limiting"));
	v = rlrule_member(rl, "score_response_header_name");
	if (!cJSON_IsString(v) || *v->valuestring == '\0')
		return (rlrule_fail(p, "ratelimit.score_response_header_name",
		    0, "required with score_per_period: the origin's "
		    "response header that carries the score"));
	return (0);
}

/*
 * The origin's header that carries a complexity score: a string, and then
 * an HTTP field name (RFC 9110's token). "" is left to rlrule_rate, which
 * needs a name only with score_per_period.
 */
static int
rlrule_score_header(const cJSON *rl, struct rlrule_problem *p)
{
	static const char	 tchars[] = "!#$%&'*+-.^_`|~";
	const cJSON		*v;
	const unsigned char	*s;
	size_t			 n;

	if ((v = rlrule_member(rl, "score_response_header_name")) == NULL)
		return (0);
	if (!cJSON_IsString(v))
		return (rlrule_fail(p, "ratelimit.score_response_header_name",
		    0, "must be a string (a response header's name), not %s",
		    jsonutil_type_name(v)));
	if ((n = strlen(v->valuestring)) > RLRULE_HEADER_NAME_MAX)
		return (rlrule_fail(p, "ratelimit.score_response_header_name",
		    0, "%zu characters is over the limit of %d", n,
		    RLRULE_HEADER_NAME_MAX));
	for (s = (const unsigned char *)v->valuestring; *s != '\0'; s++) {
		if ((*s < 'a' || *s > 'z') && (*s < 'A' || *s > 'Z') &&
		    (*s < '0' || *s > '9') && strchr(tchars, *s) == NULL)
			return (rlrule_fail(p,
			    "ratelimit.score_response_header_name", 0,
			    "must be a header name: ASCII letters, digits and "
			    "%s only", tchars));
	}
	return (0);
}

/* Absent is 0, a throttle. */
static int
rlrule_timeout(const cJSON *rl, const char *action, enum expr_plan plan,
    struct rlrule_problem *p)
{
	const cJSON	*v;
	char		 list[192];
	long		 timeout = 0;

	if ((v = rlrule_member(rl, "mitigation_timeout")) != NULL &&
	    rlrule_integer(v, "ratelimit.mitigation_timeout", 0, 86400,
	    &timeout, p) != 0)
		return (-1);
	if (rlrule_restricted(plan) && timeout != 0 &&
	    !rlrule_in((int)timeout, rlrule_supported, RLRULE_NSUPPORTED)) {
		rlrule_list_ints(list, sizeof list, rlrule_supported,
		    RLRULE_NSUPPORTED, 86400);
		return (rlrule_fail(p, "ratelimit.mitigation_timeout", 0,
		    "%ld is not one of %s", timeout, list));
	}
	if (rlrule_timeout_ok((int)timeout, action, plan))
		return (0);
	if (rlrule_is_challenge(action))
		return (rlrule_fail(p, "ratelimit.mitigation_timeout", 0,
		    "must be 0 for %s on the %s plan (a timeout needs "
		    "Enterprise)", action, expr_plan_title(plan)));
	if (timeout == 0)
		return (rlrule_fail(p, "ratelimit.mitigation_timeout", 0,
		    "0 (throttle) with %s needs Enterprise: give a timeout",
		    action));
	return (rlrule_fail(p, "ratelimit.mitigation_timeout", 0, "%ld is "
	    "over the %s plan's longest timeout (%d s)", timeout,
	    expr_plan_title(plan),
	    rlrule_limits[rlrule_plan_index(plan)].timeout));
}

/* "" or absent: the rule's expression counts. */
static int
rlrule_counting(const cJSON *rl, enum expr_plan plan,
    struct rlrule_problem *p)
{
	const cJSON	*v;

	if ((v = rlrule_member(rl, "counting_expression")) == NULL)
		return (0);
	if (!cJSON_IsString(v))
		return (rlrule_fail(p, "ratelimit.counting_expression", 0,
		    "must be a string, not %s", jsonutil_type_name(v)));
	if (*v->valuestring == '\0')
		return (0);
	if (rlrule_restricted(plan) && plan != EXPR_PLAN_BUSINESS)
		return (rlrule_fail(p, "ratelimit.counting_expression", 0,
		    "a counting expression needs the Business plan or above "
		    "(the %s plan counts the requests the expression "
		    "matches)", expr_plan_title(plan)));
	return (rlrule_expression(v->valuestring,
	    "ratelimit.counting_expression", 1, plan, p));
}

static int
rlrule_ratelimit(const cJSON *rl, const char *action, enum expr_plan plan,
    struct rlrule_problem *p)
{
	if (rl == NULL)
		return (rlrule_fail(p, "ratelimit", 0, "required: "
		    "{characteristics, period, requests_per_period, "
		    "mitigation_timeout}"));
	if (!cJSON_IsObject(rl))
		return (rlrule_fail(p, "ratelimit", 0, "must be an object, "
		    "not %s", jsonutil_type_name(rl)));
	if (rlrule_characteristics(rlrule_member(rl, "characteristics"), plan,
	    p) != 0 ||
	    rlrule_period(rl, plan, p) != 0 ||
	    rlrule_score_header(rl, p) != 0 ||
	    rlrule_rate(rl, plan, p) != 0 ||
	    rlrule_timeout(rl, action, plan, p) != 0 ||
	    rlrule_bool(rlrule_member(rl, "requests_to_origin"),
	    "ratelimit.requests_to_origin", p) != 0)
		return (-1);
	return (rlrule_counting(rl, plan, p));
}

/* ---- action_parameters ------------------------------------------------- */

static int
rlrule_response(const cJSON *resp, enum expr_plan plan,
    struct rlrule_problem *p)
{
	const cJSON	*v;
	size_t		 i, n;
	long		 status;

	if (!cJSON_IsObject(resp))
		return (rlrule_fail(p, "action_parameters.response", 0,
		    "must be an object {status_code, content_type, content}, "
		    "not %s", jsonutil_type_name(resp)));
	if (plan == EXPR_PLAN_FREE)
		return (rlrule_fail(p, "action_parameters.response", 0,
		    "a custom response needs the Pro plan or above"));
	if ((v = rlrule_member(resp, "status_code")) == NULL)
		return (rlrule_fail(p, "action_parameters.response.status_code",
		    0, "required with a response (400 to 499)"));
	if (rlrule_integer(v, "action_parameters.response.status_code", 400,
	    499, &status, p) != 0)
		return (-1);
	if ((v = rlrule_member(resp, "content_type")) == NULL)
		return (rlrule_fail(p,
		    "action_parameters.response.content_type", 0,
		    "required with a response (application/json, text/html, "
		    "text/xml or text/plain)"));
	for (i = 0; cJSON_IsString(v) && rlrule_content_types[i] != NULL; i++) {
		if (strcmp(v->valuestring, rlrule_content_types[i]) == 0)
			break;
	}
	if (!cJSON_IsString(v) || rlrule_content_types[i] == NULL)
		return (rlrule_fail(p,
		    "action_parameters.response.content_type", 0,
		    "must be application/json, text/html, text/xml or "
		    "text/plain"));
	if ((v = rlrule_member(resp, "content")) == NULL)
		return (rlrule_fail(p, "action_parameters.response.content", 0,
		    "required with a response (the body sent, up to 30 KB)"));
	if (!cJSON_IsString(v))
		return (rlrule_fail(p, "action_parameters.response.content", 0,
		    "must be a string, not %s", jsonutil_type_name(v)));
	if ((n = strlen(v->valuestring)) > RLRULE_CONTENT_MAX)
		return (rlrule_fail(p, "action_parameters.response.content", 0,
		    "%zu bytes is over the limit of %d (30 KB)", n,
		    RLRULE_CONTENT_MAX));
	return (0);
}

static int
rlrule_action_parameters(const cJSON *ap, const char *action,
    enum expr_plan plan, struct rlrule_problem *p)
{
	const cJSON	*v;

	if (ap == NULL)
		return (0);
	if (!cJSON_IsObject(ap))
		return (rlrule_fail(p, "action_parameters", 0, "must be an "
		    "object, not %s", jsonutil_type_name(ap)));
	cJSON_ArrayForEach(v, ap) {
		if (strcmp(v->string, "response") != 0)
			return (rlrule_fail(p, "action_parameters", 0,
			    "\"%.64s\" is not a parameter of rate limiting "
			    "rules (only response, on block)", v->string));
	}
	if ((v = rlrule_member(ap, "response")) == NULL)
		return (0);
	if (strcmp(action, "block") != 0)
		return (rlrule_fail(p, "action_parameters.response", 0,
		    "only block rules take a response, not %s", action));
	return (rlrule_response(v, plan, p));
}

/* ---- the rule ---------------------------------------------------------- */

int
rlrule_check(const cJSON *rule, enum expr_plan plan,
    struct rlrule_problem *p)
{
	const cJSON	*v, *logging;
	const char	*action;
	size_t		 i, n;

	memset(p, 0, sizeof *p);
	if (!cJSON_IsObject(rule))
		return (rlrule_fail(p, "rule", 0, "must be an object, not %s",
		    jsonutil_type_name(rule)));

	if ((v = rlrule_member(rule, "action")) == NULL)
		return (rlrule_fail(p, "action", 0, "required: block, "
		    "challenge, js_challenge, managed_challenge or log"));
	for (i = 0; cJSON_IsString(v) && rlrule_actions[i] != NULL; i++) {
		if (strcmp(v->valuestring, rlrule_actions[i]) == 0)
			break;
	}
	if (!cJSON_IsString(v) || rlrule_actions[i] == NULL)
		return (rlrule_fail(p, "action", 0, "%s%.64s%s is not an "
		    "action of rate limiting rules (block, challenge, "
		    "js_challenge, managed_challenge, log)",
		    cJSON_IsString(v) ? "'" : "", cJSON_IsString(v) ?
		    v->valuestring : jsonutil_type_name(v),
		    cJSON_IsString(v) ? "'" : ""));
	action = rlrule_actions[i];
	if (strcmp(action, "log") == 0 && rlrule_restricted(plan))
		return (rlrule_fail(p, "action", 0, "log needs Enterprise "
		    "(the %s plan has block and the challenges)",
		    expr_plan_title(plan)));

	if ((v = rlrule_member(rule, "expression")) == NULL)
		return (rlrule_fail(p, "expression", 0, "required: the "
		    "requests the rule applies to"));
	if (!cJSON_IsString(v))
		return (rlrule_fail(p, "expression", 0, "must be a string, "
		    "not %s", jsonutil_type_name(v)));
	if (*v->valuestring == '\0')
		return (rlrule_fail(p, "expression", 0, "must not be empty"));
	if ((n = text_chars(v->valuestring)) > EXPR_MAX_LENGTH)
		return (rlrule_fail(p, "expression", 0, "%zu characters is "
		    "over the limit of %d", n, EXPR_MAX_LENGTH));
	if (rlrule_expression(v->valuestring, "expression", 0, plan, p) != 0)
		return (-1);

	if ((v = rlrule_member(rule, "description")) != NULL) {
		if (!cJSON_IsString(v))
			return (rlrule_fail(p, "description", 0, "must be a "
			    "string, not %s", jsonutil_type_name(v)));
		if ((n = text_chars(v->valuestring)) >
		    RLRULE_DESCRIPTION_MAX)
			return (rlrule_fail(p, "description", 0, "%zu "
			    "characters is over the limit of %d", n,
			    RLRULE_DESCRIPTION_MAX));
	}
	if (rlrule_bool(rlrule_member(rule, "enabled"), "enabled", p) != 0)
		return (-1);
	if ((v = rlrule_member(rule, "ref")) != NULL) {
		if (!cJSON_IsString(v) || *v->valuestring == '\0')
			return (rlrule_fail(p, "ref", 0, "must be a non-empty "
			    "string"));
		if (strlen(v->valuestring) > RLRULE_REF_MAX)
			return (rlrule_fail(p, "ref", 0, "is over %d bytes",
			    RLRULE_REF_MAX));
	}
	if ((logging = rlrule_member(rule, "logging")) != NULL) {
		if (!cJSON_IsObject(logging))
			return (rlrule_fail(p, "logging", 0, "must be an "
			    "object {enabled}, not %s",
			    jsonutil_type_name(logging)));
		if (rlrule_bool(rlrule_member(logging, "enabled"),
		    "logging.enabled", p) != 0)
			return (-1);
	}
	if (rlrule_action_parameters(rlrule_member(rule, "action_parameters"),
	    action, plan, p) != 0)
		return (-1);
	/* Sent at the top, it would not limit what the user meant. */
	for (i = 0; rlrule_ratelimit_members[i] != NULL; i++)
		if (rlrule_member(rule, rlrule_ratelimit_members[i]) != NULL)
			return (rlrule_fail(p, rlrule_ratelimit_members[i], 0,
			    "belongs in ratelimit (ratelimit.%s), not at the "
			    "top of the rule", rlrule_ratelimit_members[i]));
	if (rlrule_ratelimit(rlrule_member(rule, "ratelimit"), action, plan,
	    p) != 0)
		return (-1);
	return (rlrule_lists(rule, p));
}
