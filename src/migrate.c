/*
 * Legacy zone rate limits translated into rate limiting rules, per
 * api-map-next 13: the URL pattern, methods and schemes become the
 * expression, response conditions the counting expression, and whatever
 * the plan cannot say is dropped or changed with a warning that says so.
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "kind.h"
#include "log.h"
#include "merge.h"
#include "migrate.h"
#include "rlrule.h"
#include "rulesets.h"
#include "xmalloc.h"
#include "yamljson.h"

#define MIGRATE_HTTP		0x1
#define MIGRATE_HTTPS		0x2
#define MIGRATE_ANY_SCHEME	(MIGRATE_HTTP | MIGRATE_HTTPS)

/* What one legacy URL pattern says, part by part (13.2). */
struct migrate_url {
	char		*host;		/* wildcard pattern; NULL: any host */
	char		*path;		/* wildcard pattern; NULL: any path */
	int		 home;		/* no path: the home page only */
	unsigned	 schemes;	/* from an http:// or https:// prefix */
};

/* The translation of one rule as it is built. */
struct migrate_ctx {
	enum expr_plan		 plan;
	struct migrate_item	*item;
	const char		*desc;
};

static const cJSON *
migrate_get(const cJSON *o, const char *key)
{
	return (cJSON_IsObject(o) ?
	    cJSON_GetObjectItemCaseSensitive(o, key) : NULL);
}

static const char *
migrate_string(const cJSON *o, const char *key)
{
	const cJSON	*v = migrate_get(o, key);

	return (cJSON_IsString(v) ? v->valuestring : NULL);
}

static void printflike(2, 3)
migrate_warn(struct migrate_ctx *m, const char *fmt, ...)
{
	struct migrate_item	*it = m->item;
	va_list			 ap;
	char			*s;

	va_start(ap, fmt);
	xvasprintf(&s, fmt, ap);
	va_end(ap);
	it->warnings = xreallocarray(it->warnings, it->nwarnings + 1,
	    sizeof *it->warnings);
	it->warnings[it->nwarnings++] = s;
}

/* Enterprise, or no plan (the Enterprise rules, unchecked limits). */
static int
migrate_at_least(enum expr_plan plan, enum expr_plan need)
{
	return (plan == EXPR_PLAN_NONE || plan >= need);
}

static const char *
migrate_plan_label(enum expr_plan plan)
{
	return (plan == EXPR_PLAN_NONE ? "any plan" : expr_plan_name(plan));
}

/* The plan as a sentence's subject: "the Free plan". */
static const char *
migrate_plan_title(enum expr_plan plan)
{
	switch (plan) {
	case EXPR_PLAN_FREE:
		return ("the Free plan");
	case EXPR_PLAN_PRO:
		return ("the Pro plan");
	case EXPR_PLAN_BUSINESS:
		return ("the Business plan");
	case EXPR_PLAN_ENTERPRISE:
		return ("the Enterprise plan");
	default:
		return ("a zone");
	}
}

/* An id that can go into a path as it is. */
static int
migrate_id_ok(const char *id)
{
	return (*id != '\0' && strlen(id) <= 64 &&
	    strspn(id, "0123456789abcdefABCDEF-_") == strlen(id));
}

/* ---- text of the expression ------------------------------------------ */

/* s as a quoted string literal: \ and " escaped, control bytes as \xHH. */
static void
migrate_quote(struct buf *b, const char *s)
{
	unsigned char	c;

	buf_addc(b, '"');
	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (c == '\\' || c == '"')
			buf_addf(b, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			buf_addf(b, "\\x%02x", c);
		else
			buf_addc(b, (char)c);
	}
	buf_addc(b, '"');
}

/*
 * A legacy pattern as a wildcard pattern: a run of stars is one star (the
 * language refuses "**", and it meant the same), a backslash is a literal
 * backslash (escaped for the wildcard, then quoted by migrate_quote).
 */
static char *
migrate_wildcard(const char *p, size_t len)
{
	struct buf	b;
	size_t		i;

	buf_init(&b);
	for (i = 0; i < len; i++) {
		if (p[i] == '*' && i > 0 && p[i - 1] == '*')
			continue;
		if (p[i] == '\\')
			buf_addc(&b, '\\');
		buf_addc(&b, p[i]);
	}
	return (buf_detach(&b, NULL));
}

static void
migrate_and(struct buf *b, const char *cond)
{
	if (b->len > 0)
		buf_adds(b, " and ");
	buf_adds(b, cond);
}

/* "field wildcard "pattern"" as a condition. */
static char *
migrate_cond(const char *field, const char *op, const char *value)
{
	struct buf	b;

	buf_init(&b);
	buf_addf(&b, "%s %s ", field, op);
	migrate_quote(&b, value);
	return (buf_detach(&b, NULL));
}

/* A condition true for every request (an empty conjunction). */
static const char *
migrate_always(void)
{
	return ("http.request.uri.path wildcard \"*\"");
}

/* ---- the URL pattern (13.2) ------------------------------------------ */

static void
migrate_url_parse(const char *url, struct migrate_url *u)
{
	const char	*s = url, *e, *slash;
	char		*host;

	memset(u, 0, sizeof *u);
	u->schemes = MIGRATE_ANY_SCHEME;
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (e - s >= 8 && strncasecmp(s, "https://", 8) == 0) {
		u->schemes = MIGRATE_HTTPS;
		s += 8;
	} else if (e - s >= 7 && strncasecmp(s, "http://", 7) == 0) {
		u->schemes = MIGRATE_HTTP;
		s += 7;
	}
	/* Empty, or stars only: every URL. */
	if (strspn(s, "*") >= (size_t)(e - s))
		return;
	if ((slash = memchr(s, '/', (size_t)(e - s))) == NULL)
		slash = e;
	host = migrate_wildcard(s, (size_t)(slash - s));
	if (*host != '\0' && strcmp(host, "*") != 0)
		u->host = host;
	else
		free(host);
	if (slash == e) {
		u->home = 1;
		return;
	}
	u->path = migrate_wildcard(slash, (size_t)(e - slash));
	if (strcmp(u->path, "/*") == 0) {
		free(u->path);
		u->path = NULL;
	}
}

static void
migrate_url_free(struct migrate_url *u)
{
	free(u->host);
	free(u->path);
}

/* The scheme condition for a set of schemes; NULL when any will do. */
static char *
migrate_scheme_cond(struct migrate_ctx *m, unsigned schemes,
    const char *what)
{
	int	 ssl = migrate_at_least(m->plan, EXPR_PLAN_ENTERPRISE);

	if (schemes == MIGRATE_ANY_SCHEME)
		return (NULL);
	if (m->plan == EXPR_PLAN_FREE) {
		migrate_warn(m, "%s: the %s scheme condition is dropped: Free "
		    "rules can only test the path, so %s every scheme", what,
		    schemes == MIGRATE_HTTPS ? "HTTPS" : schemes == MIGRATE_HTTP ?
		    "HTTP" : "impossible", strncmp(what, "bypass", 6) == 0 ?
		    "the bypass now exempts" : "the rule now counts");
		return (NULL);
	}
	if (schemes == MIGRATE_HTTPS)
		return (xstrdup(ssl ? "ssl" :
		    "http.request.full_uri wildcard \"https://*\""));
	if (schemes == MIGRATE_HTTP)
		return (xstrdup(ssl ? "not ssl" :
		    "http.request.full_uri wildcard \"http://*\""));
	migrate_warn(m, "%s: its URL's scheme is not among its schemes, so "
	    "it never matched; the translation never matches either", what);
	return (xstrdup(ssl ? "ssl and not ssl" :
	    "http.request.full_uri wildcard \"http://*\" and "
	    "http.request.full_uri wildcard \"https://*\""));
}

/* The host and path conditions of a URL pattern into b (ANDed); how many. */
static int
migrate_url_conds(struct migrate_ctx *m, struct buf *b,
    const struct migrate_url *u, const char *what)
{
	char	*c;
	int	 n = 0;

	if (u->host != NULL && m->plan == EXPR_PLAN_FREE)
		migrate_warn(m, "%s: the host condition '%s' is dropped: Free "
		    "rules can only test the path, so %s", what, u->host,
		    strncmp(what, "bypass", 6) == 0 ? "the bypass now exempts "
		    "that path on every host" : "the rule now counts requests "
		    "to every host");
	else if (u->host != NULL) {
		c = migrate_cond("http.host", "wildcard", u->host);
		migrate_and(b, c);
		free(c);
		n++;
	}
	if (u->home) {
		migrate_and(b, "http.request.uri.path eq \"/\"");
		n++;
	} else if (u->path != NULL) {
		c = migrate_cond("http.request.uri.path", "wildcard", u->path);
		migrate_and(b, c);
		free(c);
		n++;
	}
	return (n);
}

static int
migrate_scheme_conds(struct migrate_ctx *m, struct buf *b, unsigned schemes,
    const char *what)
{
	char	*c;

	if ((c = migrate_scheme_cond(m, schemes, what)) == NULL)
		return (0);
	migrate_and(b, c);
	free(c);
	return (1);
}

/* ---- the match expression -------------------------------------------- */

static int
migrate_all_word(const cJSON *list)
{
	const cJSON	*v;

	if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
		return (1);
	cJSON_ArrayForEach(v, list) {
		if (cJSON_IsString(v) && strcmp(v->valuestring, "_ALL_") == 0)
			return (1);
	}
	return (0);
}

static unsigned
migrate_schemes(const cJSON *list)
{
	const cJSON	*v;
	unsigned	 s = 0;

	if (migrate_all_word(list))
		return (MIGRATE_ANY_SCHEME);
	cJSON_ArrayForEach(v, list) {
		if (!cJSON_IsString(v))
			continue;
		if (strcasecmp(v->valuestring, "HTTPS") == 0)
			s |= MIGRATE_HTTPS;
		else if (strcasecmp(v->valuestring, "HTTP") == 0)
			s |= MIGRATE_HTTP;
	}
	return (s != 0 ? s : MIGRATE_ANY_SCHEME);
}

static void
migrate_methods(struct migrate_ctx *m, struct buf *b, const cJSON *list)
{
	const cJSON	*v;
	struct buf	 c;
	char		*up, *p;

	if (migrate_all_word(list))
		return;
	buf_init(&c);
	cJSON_ArrayForEach(v, list) {
		if (!cJSON_IsString(v))
			continue;
		buf_adds(&c, c.len == 0 ? "" : " ");
		up = xstrdup(v->valuestring);
		for (p = up; *p != '\0'; p++)
			*p = (char)toupper((unsigned char)*p);
		migrate_quote(&c, up);
		free(up);
	}
	if (c.len == 0) {
		buf_free(&c);
		return;
	}
	if (!migrate_at_least(m->plan, EXPR_PLAN_BUSINESS))
		migrate_warn(m, "methods %s need the Business plan: dropped, "
		    "the rule now counts every method", buf_str(&c));
	else {
		migrate_and(b, "http.request.method in {");
		buf_adds(b, buf_str(&c));
		buf_addc(b, '}');
	}
	buf_free(&c);
}

/* "and not (B1 or B2 ...)": the bypass URLs the rule never applied to. */
static void
migrate_bypass(struct migrate_ctx *m, struct buf *b, const cJSON *list)
{
	struct migrate_url	 u;
	const cJSON	*v;
	const char	*url;
	struct buf	 all, one;
	char		*last = NULL;
	int		 n, i = 0, count = 0;
	char		 what[64];

	buf_init(&all);
	cJSON_ArrayForEach(v, list) {
		i++;
		url = migrate_string(v, "value");
		if (url == NULL)
			continue;
		snprintf(what, sizeof what, "bypass %d ('%.40s')", i, url);
		migrate_url_parse(url, &u);
		if (m->plan == EXPR_PLAN_FREE && !u.home && u.path == NULL &&
		    (u.host != NULL || u.schemes != MIGRATE_ANY_SCHEME)) {
			/* Keeping what Free can say of it (nothing) would
			 * exempt every request. */
			migrate_warn(m, "%s: Free rules can only test the path "
			    "and it has none, so it is dropped: the rule now "
			    "counts what it exempted", what);
			migrate_url_free(&u);
			continue;
		}
		buf_init(&one);
		n = migrate_url_conds(m, &one, &u, what);
		n += migrate_scheme_conds(m, &one, u.schemes, what);
		migrate_url_free(&u);
		if (n == 0)
			buf_adds(&one, migrate_always());
		/* Parenthesised only among others. */
		free(last);
		last = buf_detach(&one, NULL);
		buf_adds(&all, count++ == 0 ? "" : " or ");
		buf_addf(&all, n > 1 ? "(%s)" : "%s", last);
	}
	if (count > 0) {
		migrate_and(b, "not (");
		buf_adds(b, count == 1 ? last : buf_str(&all));
		buf_addc(b, ')');
	}
	free(last);
	buf_free(&all);
}

/* Known crawlers were exempt from legacy rules; keep that where the
 * plan's scheme has the field. */
static void
migrate_bots(struct migrate_ctx *m, struct buf *b)
{
	static const char	 cond[] = "not cf.client.bot";
	struct expr_options	 o = { .plan = m->plan };
	struct expr_error	 err;

	if (expr_check(cond, &o, &err) == 0)
		migrate_and(b, cond);
}

static char *
migrate_expression(struct migrate_ctx *m, const cJSON *legacy,
    const char *url)
{
	struct migrate_url	 u;
	const cJSON		*req;
	struct buf		 b;

	req = migrate_get(migrate_get(legacy, "match"), "request");
	buf_init(&b);
	migrate_url_parse(url, &u);
	migrate_url_conds(m, &b, &u, "url");
	migrate_methods(m, &b, migrate_get(req, "methods"));
	migrate_scheme_conds(m, &b, u.schemes & migrate_schemes(migrate_get(req,
	    "schemes")), "url");
	migrate_url_free(&u);
	if (cJSON_IsArray(migrate_get(legacy, "bypass")))
		migrate_bypass(m, &b, migrate_get(legacy, "bypass"));
	migrate_bots(m, &b);
	if (b.len == 0)
		buf_adds(&b, migrate_always());
	return (buf_detach(&b, NULL));
}

/* ---- response conditions: the counting expression ---------------------- */

/* The dashboard's default header item: count only what reaches the origin. */
static int
migrate_origin_item(const cJSON *h)
{
	const char	*name = migrate_string(h, "name");
	const char	*op = migrate_string(h, "op");
	const char	*value = migrate_string(h, "value");

	return (name != NULL && op != NULL && value != NULL &&
	    strcasecmp(name, "Cf-Cache-Status") == 0 &&
	    strcmp(op, "ne") == 0 && strcmp(value, "HIT") == 0);
}

static void
migrate_header_cond(struct buf *b, const cJSON *h)
{
	const char	*name = migrate_string(h, "name");
	const char	*op = migrate_string(h, "op");
	const char	*value = migrate_string(h, "value");
	char		*lower, *p;

	if (name == NULL || value == NULL)
		return;
	lower = xstrdup(name);
	for (p = lower; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	buf_adds(b, b->len > 0 ? " and " : "");
	if (op != NULL && strcmp(op, "ne") == 0)
		buf_adds(b, "not ");
	buf_adds(b, "any(http.response.headers[");
	migrate_quote(b, lower);
	buf_adds(b, "][*] == ");
	migrate_quote(b, value);
	buf_addc(b, ')');
	free(lower);
}

/*
 * Status codes and response headers into the counting expression (which
 * replaces the match expression, so it repeats it); origin-only counting
 * into requests_to_origin.
 */
static void
migrate_counting(struct migrate_ctx *m, const cJSON *legacy,
    const char *expression, cJSON *rl)
{
	const cJSON	*match, *resp, *headers, *status, *h;
	struct buf	 c, codes;
	int		 origin;

	match = migrate_get(legacy, "match");
	resp = migrate_get(match, "response");
	origin = cJSON_IsTrue(migrate_get(resp, "origin_traffic"));
	headers = migrate_get(resp, "headers");
	if (!cJSON_IsArray(headers))
		headers = migrate_get(match, "headers");
	status = migrate_get(resp, "status");
	if (!cJSON_IsArray(status))
		status = migrate_get(match, "status");

	buf_init(&c);
	buf_init(&codes);
	if (!cJSON_IsArray(status))
		status = NULL;
	if (!cJSON_IsArray(headers))
		headers = NULL;
	cJSON_ArrayForEach(h, status) {
		if (cJSON_IsNumber(h))
			buf_addf(&codes, "%s%d", codes.len > 0 ? " " : "",
			    h->valueint);
	}
	if (codes.len > 0)
		buf_addf(&c, "http.response.code in {%s}", buf_str(&codes));
	cJSON_ArrayForEach(h, headers) {
		if (migrate_origin_item(h))
			origin = 1;
		else
			migrate_header_cond(&c, h);
	}
	cJSON_AddBoolToObject(rl, "requests_to_origin", origin);
	if (c.len > 0 && !migrate_at_least(m->plan, EXPR_PLAN_BUSINESS))
		migrate_warn(m, "response conditions (%s) need a counting "
		    "expression, which needs the Business plan: dropped, the "
		    "rule now counts every matching request", buf_str(&c));
	else if (c.len > 0) {
		buf_reset(&codes);
		buf_addf(&codes, "(%s) and %s", expression, buf_str(&c));
		cJSON_AddStringToObject(rl, "counting_expression",
		    buf_str(&codes));
	}
	buf_free(&codes);
	buf_free(&c);
}

/* ---- period, action, timeout, response ------------------------------- */

/* The allowed value nearest to want (ties: the lower), listed in *allowed. */
static int
migrate_snap(int want, const int *values, size_t n, int (*ok)(int, void *),
    void *arg, struct buf *allowed)
{
	size_t	i;
	int	best = -1, d, bd = 0;

	for (i = 0; i < n; i++) {
		if (!ok(values[i], arg))
			continue;
		buf_addf(allowed, "%s%d", allowed->len > 0 ? " " : "",
		    values[i]);
		d = abs(values[i] - want);
		if (best < 0 || d < bd || (d == bd && values[i] < best)) {
			best = values[i];
			bd = d;
		}
	}
	return (best);
}

static int
migrate_period_ok(int v, void *arg)
{
	return (rlrule_period_ok(v, *(enum expr_plan *)arg));
}

struct migrate_timeout_arg {
	enum expr_plan	 plan;
	const char	*action;
};

static int
migrate_timeout_ok(int v, void *arg)
{
	struct migrate_timeout_arg	*a = arg;

	return (v > 0 && rlrule_timeout_ok(v, a->action, a->plan));
}

static int
migrate_period(struct migrate_ctx *m, int legacy)
{
	struct buf	allowed;
	int		p;

	buf_init(&allowed);
	p = migrate_snap(legacy, rlrule_periods, rlrule_nperiods,
	    migrate_period_ok, &m->plan, &allowed);
	if (p != legacy && p > 0)
		migrate_warn(m, "period %d s snapped to %d s (allowed on %s: "
		    "%s)", legacy, p, migrate_plan_label(m->plan),
		    buf_str(&allowed));
	buf_free(&allowed);
	return (p);
}

static int
migrate_timeout(struct migrate_ctx *m, const char *action, int legacy)
{
	struct migrate_timeout_arg	 a = { m->plan, action };
	struct buf			 allowed;
	int				 t;

	buf_init(&allowed);
	t = migrate_snap(legacy, rlrule_timeouts, rlrule_ntimeouts,
	    migrate_timeout_ok, &a, &allowed);
	if (t != legacy && t > 0)
		migrate_warn(m, "timeout %d s snapped to %d s (allowed for %s "
		    "on %s: %s)", legacy, t, action,
		    migrate_plan_label(m->plan), buf_str(&allowed));
	buf_free(&allowed);
	return (t);
}

/*
 * action and mitigation_timeout; a simulate rule below Enterprise becomes
 * a disabled block, its description saying so.
 */
static const char *
migrate_action(struct migrate_ctx *m, const cJSON *legacy, cJSON *rl,
    int *simulated)
{
	const cJSON	*a = migrate_get(legacy, "action");
	const cJSON	*tv = migrate_get(a, "timeout");
	const char	*mode = migrate_string(a, "mode");
	const char	*action;
	int		 t = cJSON_IsNumber(tv) ? tv->valueint : 0;
	int		 ent = migrate_at_least(m->plan, EXPR_PLAN_ENTERPRISE);

	*simulated = 0;
	if (mode == NULL)
		return (NULL);
	if (strcmp(mode, "ban") == 0)
		action = "block";
	else if (strcmp(mode, "simulate") == 0 && ent)
		action = "log";
	else if (strcmp(mode, "simulate") == 0) {
		action = "block";
		*simulated = 1;
		migrate_warn(m, "simulate has no equivalent below Enterprise "
		    "(log is Enterprise only): created as block, disabled, "
		    "description prefixed [was simulate]");
	} else if (strcmp(mode, "challenge") == 0 ||
	    strcmp(mode, "js_challenge") == 0 ||
	    strcmp(mode, "managed_challenge") == 0)
		action = mode;
	else
		return (NULL);

	if (strcmp(action, "block") == 0 || strcmp(action, "log") == 0) {
		if (t <= 0) {
			t = cJSON_GetObjectItemCaseSensitive(rl,
			    "period")->valueint;
			migrate_warn(m, "no timeout: the period (%d s) is "
			    "used", t);
		}
		t = migrate_timeout(m, action, t);
	} else if (t > 0 && ent)
		t = migrate_timeout(m, action, t);
	else {
		if (t > 0)
			migrate_warn(m, "timeout %d s sent as 0: below "
			    "Enterprise a challenge must throttle (only the "
			    "requests over the rate are challenged)", t);
		t = 0;
	}
	cJSON_AddNumberToObject(rl, "mitigation_timeout", t);
	return (action);
}

/* A custom response: block only, Pro and above, status 429 as before. */
static void
migrate_response(struct migrate_ctx *m, const cJSON *legacy, cJSON *rule,
    const char *action)
{
	const cJSON	*r;
	const char	*ct, *body;
	cJSON		*ap, *resp;

	r = migrate_get(migrate_get(legacy, "action"), "response");
	ct = migrate_string(r, "content_type");
	body = migrate_string(r, "body");
	if (ct == NULL || body == NULL)
		return;
	if (strcmp(action, "block") != 0) {
		migrate_warn(m, "the custom response (%s) is dropped: only "
		    "block responds, and this rule's action is %s", ct,
		    action);
		return;
	}
	if (!migrate_at_least(m->plan, EXPR_PLAN_PRO)) {
		migrate_warn(m, "the custom response (%s) needs the Pro plan: "
		    "dropped, blocked clients get the default 429 page", ct);
		return;
	}
	ap = cJSON_AddObjectToObject(rule, "action_parameters");
	resp = cJSON_AddObjectToObject(ap, "response");
	cJSON_AddNumberToObject(resp, "status_code", 429);
	cJSON_AddStringToObject(resp, "content_type", ct);
	cJSON_AddStringToObject(resp, "content", body);
}

/* ---- one rule ---------------------------------------------------------- */

/*
 * A legacy description holds up to 1,024 characters, a rule's 500: cut
 * it (between characters) rather than refuse the rule.
 */
static void
migrate_description_cut(struct migrate_ctx *m, char *d)
{
	size_t	i, n = 0;

	for (i = 0; d[i] != '\0'; i++) {
		if (((unsigned char)d[i] & 0xc0) != 0x80 &&
		    n++ == RLRULE_DESCRIPTION_MAX) {
			d[i] = '\0';
			migrate_warn(m, "description cut to %d characters (a "
			    "rule's limit; the legacy rule's was longer)",
			    RLRULE_DESCRIPTION_MAX);
			return;
		}
	}
}

static int printflike(2, 3)
migrate_fail(struct migrate_item *it, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	xvasprintf(&it->error, fmt, ap);
	va_end(ap);
	cJSON_Delete(it->rule);
	it->rule = NULL;
	return (-1);
}

/*
 * The ratelimit object (characteristics, period, count, timeout) and the
 * action; NULL with it->error when the plan allows no value for one.
 */
static cJSON *
migrate_ratelimit(struct migrate_ctx *m, const cJSON *legacy,
    const char **action, int *simulated)
{
	struct migrate_item	*it = m->item;
	const char		*mode;
	cJSON			*rl, *chars;
	int			 period;

	mode = migrate_string(migrate_get(legacy, "action"), "mode");
	rl = cJSON_CreateObject();
	chars = cJSON_AddArrayToObject(rl, "characteristics");
	cJSON_AddItemToArray(chars, cJSON_CreateString("cf.colo.id"));
	cJSON_AddItemToArray(chars, cJSON_CreateString("ip.src"));
	period = migrate_period(m, migrate_get(legacy, "period")->valueint);
	if (period <= 0) {
		xasprintf(&it->error, "no period is allowed on %s",
		    migrate_plan_label(m->plan));
		goto fail;
	}
	cJSON_AddNumberToObject(rl, "period", period);
	cJSON_AddNumberToObject(rl, "requests_per_period",
	    migrate_get(legacy, "threshold")->valueint);
	if ((*action = migrate_action(m, legacy, rl, simulated)) == NULL) {
		xasprintf(&it->error, "action.mode '%s' is not a legacy mode",
		    mode != NULL ? mode : "(missing)");
		goto fail;
	}
	if (cJSON_GetObjectItemCaseSensitive(rl,
	    "mitigation_timeout")->valueint < 0) {
		xasprintf(&it->error, "no timeout is allowed for %s on %s",
		    *action, migrate_plan_label(m->plan));
		goto fail;
	}
	return (rl);
fail:
	cJSON_Delete(rl);
	return (NULL);
}

/*
 * An expression written as `expr fmt` writes it (eq, not ==; no
 * parentheses the precedence makes needless), as the rules a user writes
 * and reads back are. Text the language refuses is left for the check to
 * say so.
 */
static void
migrate_canonical(cJSON *o, const char *key, int counting)
{
	struct expr_options	 opts = { EXPR_PLAN_NONE, counting };
	struct expr_error	 err;
	struct expr		*e;
	const cJSON		*v = cJSON_GetObjectItemCaseSensitive(o, key);
	char			*text;

	if (!cJSON_IsString(v) ||
	    (e = expr_parse(v->valuestring, &opts, &err)) == NULL)
		return;
	text = expr_format(e);
	cJSON_ReplaceItemInObjectCaseSensitive(o, key,
	    cJSON_CreateString(text));
	free(text);
	expr_free(e);
}

int
migrate_rule(const cJSON *legacy, enum expr_plan plan,
    struct migrate_item *it)
{
	struct migrate_ctx	 m;
	struct rlrule_problem	 pb;
	const cJSON		*th, *pe;
	const char		*url, *action, *desc;
	cJSON			*rl;
	char			*expr, *d;
	int			 simulated;

	memset(it, 0, sizeof *it);
	memset(&m, 0, sizeof m);
	m.plan = plan;
	m.item = it;
	if (!cJSON_IsObject(legacy))
		return (migrate_fail(it, "not a legacy rate limit (an object "
		    "is needed)"));
	it->legacy = cJSON_Duplicate(legacy, 1);
	it->legacy_id = migrate_string(it->legacy, "id");
	if (it->legacy_id != NULL && !migrate_id_ok(it->legacy_id))
		return (migrate_fail(it, "its id is not an identifier"));
	url = migrate_string(migrate_get(migrate_get(legacy, "match"),
	    "request"), "url");
	th = migrate_get(legacy, "threshold");
	pe = migrate_get(legacy, "period");
	if (url == NULL)
		return (migrate_fail(it, "match.request.url is missing"));
	if (!cJSON_IsNumber(th) || th->valuedouble < 1)
		return (migrate_fail(it, "threshold is missing or below 1"));
	if (!cJSON_IsNumber(pe) || pe->valuedouble < 1)
		return (migrate_fail(it, "period is missing or below 1"));
	if ((rl = migrate_ratelimit(&m, legacy, &action, &simulated)) == NULL)
		return (-1);

	it->rule = cJSON_CreateObject();
	if (it->legacy_id != NULL) {
		d = xprintf(MIGRATE_REF_PREFIX "%s", it->legacy_id);
		cJSON_AddStringToObject(it->rule, "ref", d);
		free(d);
	}
	desc = migrate_string(legacy, "description");
	d = xprintf("%s%s", simulated ? "[was simulate] " : "",
	    desc != NULL ? desc : "");
	migrate_description_cut(&m, d);
	cJSON_AddStringToObject(it->rule, "description", d);
	free(d);
	cJSON_AddBoolToObject(it->rule, "enabled",
	    !cJSON_IsTrue(migrate_get(legacy, "disabled")) && !simulated);
	cJSON_AddStringToObject(it->rule, "action", action);
	expr = migrate_expression(&m, legacy, url);
	cJSON_AddStringToObject(it->rule, "expression", expr);
	migrate_counting(&m, legacy, expr, rl);
	free(expr);
	cJSON_AddItemToObject(it->rule, "ratelimit", rl);
	migrate_response(&m, legacy, it->rule, action);
	migrate_canonical(it->rule, "expression", 0);
	migrate_canonical(rl, "counting_expression", 1);

	if (rlrule_check(it->rule, plan, &pb) != 0)
		return (migrate_fail(it, "the translation is refused on %s: "
		    "%s: %s", migrate_plan_label(plan), pb.field, pb.message));
	return (0);
}

void
migrate_item_free(struct migrate_item *it)
{
	size_t	i;

	cJSON_Delete(it->legacy);
	cJSON_Delete(it->rule);
	free(it->error);
	for (i = 0; i < it->nwarnings; i++)
		free(it->warnings[i]);
	free(it->warnings);
	memset(it, 0, sizeof *it);
}

struct migrate_item *
migrate_rules(const cJSON *list, enum expr_plan plan, size_t *n)
{
	struct migrate_item	*items;
	const cJSON		*v;
	size_t			 i = 0;

	*n = cJSON_IsArray(list) ? (size_t)cJSON_GetArraySize(list) : 0;
	items = xcalloc(*n > 0 ? *n : 1, sizeof *items);
	if (*n == 0)
		return (items);
	cJSON_ArrayForEach(v, list)
		migrate_rule(v, plan, &items[i++]);
	return (items);
}

void
migrate_items_free(struct migrate_item *items, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		migrate_item_free(&items[i]);
	free(items);
}

/* ---- the preview ------------------------------------------------------- */

/* One comment line: control characters (a newline) become spaces. */
static void
migrate_comment(struct buf *b, const char *prefix, const char *text)
{
	const char	*s;

	buf_addf(b, "# %s", prefix);
	for (s = text; *s != '\0'; s++)
		buf_addc(b, (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
	buf_addc(b, '\n');
}

/*
 * The plan's quota, when the translations are more than it holds (the
 * service refuses a rule past it: --apply adds them in order while there
 * is room). Returns the quota, or 0 when it is not in the way.
 */
static int
migrate_quota_note(struct buf *b, const struct migrate_item *items,
    size_t n, enum expr_plan plan)
{
	struct rlrule_problem	 pb;
	size_t			 i;
	int			 t = 0;
	char			*note;

	for (i = 0; i < n; i++)
		t += items[i].rule != NULL;
	if (rlrule_quota(t, plan, &pb) == 0)
		return (0);
	note = xprintf("the %s plan holds %d rule%s in the entry point and "
	    "%d are translated: --apply adds them in order while there is "
	    "room (the rules already there count too) and leaves the others "
	    "out", expr_plan_title(plan), rlrule_max_rules(plan),
	    rlrule_max_rules(plan) == 1 ? "" : "s", t);
	migrate_comment(b, "warning: ", note);
	free(note);
	return (rlrule_max_rules(plan));
}

char *
migrate_preview(const struct migrate_item *items, size_t n,
    enum expr_plan plan)
{
	const struct migrate_item	*it;
	const char			*desc;
	struct buf			 b;
	cJSON				*one;
	char				*yaml, *head;
	size_t				 i, j;
	int				 max, k = 0;

	buf_init(&b);
	buf_addf(&b, "# %zu legacy rate limit%s as rate limiting rules for "
	    "%s\n", n, n == 1 ? "" : "s", plan == EXPR_PLAN_NONE ?
	    "no plan given (Enterprise rules)" : expr_plan_name(plan));
	max = migrate_quota_note(&b, items, n, plan);
	for (i = 0; i < n; i++) {
		it = &items[i];
		desc = migrate_string(it->legacy, "description");
		head = xprintf("legacy rate limit %s: ", it->legacy_id != NULL ?
		    it->legacy_id : "(no id)");
		buf_addc(&b, '\n');
		migrate_comment(&b, head, desc != NULL && *desc != '\0' ?
		    desc : "(no description)");
		free(head);
		for (j = 0; j < it->nwarnings; j++)
			migrate_comment(&b, "warning: ", it->warnings[j]);
		if (it->rule == NULL) {
			migrate_comment(&b, "not translated: ", it->error);
			continue;
		}
		if (max > 0 && ++k > max) {
			head = xprintf("the %s plan holds %d rule%s: --apply "
			    "leaves this one out, even from an empty entry "
			    "point", expr_plan_title(plan), max, max == 1 ?
			    "" : "s");
			migrate_comment(&b, "warning: ", head);
			free(head);
		}
		one = cJSON_CreateArray();
		cJSON_AddItemReferenceToArray(one, it->rule);
		yaml = yamljson_emit(one);
		buf_adds(&b, yaml);
		free(yaml);
		cJSON_Delete(one);
	}
	return (buf_detach(&b, NULL));
}

/* ---- applying ---------------------------------------------------------- */

#define MIGRATE_EP_PATH	"/zones/%s/rulesets/phases/http_ratelimit/entrypoint"

enum migrate_fate {
	MIGRATE_PENDING = 0,	/* to add; "not tried" if it stays so */
	MIGRATE_UNTRANSLATED,
	MIGRATE_OVER_QUOTA,
	MIGRATE_PRESENT,	/* its ref is in the entry point: skipped */
	MIGRATE_APPLIED,
	MIGRATE_FAILED
};

enum migrate_legacy_fate {
	MIGRATE_LEGACY_KEPT = 0,
	MIGRATE_LEGACY_DISABLED,
	MIGRATE_LEGACY_WAS_DISABLED,
	MIGRATE_LEGACY_FAILED
};

enum migrate_step {
	MIGRATE_FETCH,
	MIGRATE_ADD,
	MIGRATE_DISABLE,
	MIGRATE_DONE
};

struct migrate_apply {
	struct migrate_item		*items;
	size_t				 n;
	enum expr_plan			 plan;
	char				*zone;
	int				 disable_legacy;

	enum migrate_fate		*fate;
	enum migrate_legacy_fate	*lfate;
	char				**why;		/* per item */
	char				**rule_id;	/* per item */
	char				*ruleset;	/* the entry point's id */
	int				 created;
	int				 reread;	/* after a 409 */
	int				 upgraded;	/* by the service */
	char				*stopped;	/* why it stopped */

	enum migrate_step		 step;
	size_t				 cur;		/* the item sent */
	int				 sent;

	/*
	 * Disabling a legacy rule: it is read first (the PUT replaces it
	 * whole), then the PUT of the server's copy with disabled set.
	 */
	int				 disable_read;	/* the GET sent */
	cJSON				*disable_body;	/* the PUT to send */
	cJSON				*disable_before; /* the rule read */
};

struct migrate_apply *
migrate_apply_new(struct migrate_item *items, size_t n, enum expr_plan plan,
    const char *zone, int disable_legacy)
{
	struct migrate_apply	*a;

	a = xcalloc(1, sizeof *a);
	a->items = items;
	a->n = n;
	a->plan = plan;
	a->zone = xstrdup(zone);
	a->disable_legacy = disable_legacy;
	a->fate = xcalloc(n + 1, sizeof *a->fate);
	a->lfate = xcalloc(n + 1, sizeof *a->lfate);
	a->why = xcalloc(n + 1, sizeof *a->why);
	a->rule_id = xcalloc(n + 1, sizeof *a->rule_id);
	return (a);
}

void
migrate_apply_free(struct migrate_apply *a)
{
	size_t	i;

	if (a == NULL)
		return;
	for (i = 0; i < a->n; i++) {
		free(a->why[i]);
		free(a->rule_id[i]);
	}
	free(a->why);
	free(a->rule_id);
	free(a->fate);
	free(a->lfate);
	free(a->zone);
	free(a->ruleset);
	free(a->stopped);
	cJSON_Delete(a->disable_body);
	cJSON_Delete(a->disable_before);
	free(a);
}

void
migrate_call_clear(struct migrate_call *c)
{
	free(c->path);
	cJSON_Delete(c->body);
	memset(c, 0, sizeof *c);
}

static const char *
migrate_ref(const struct migrate_item *it)
{
	return (migrate_string(it->rule, "ref"));
}

/*
 * The id of the rule with ref in a ruleset, or NULL; "?" for an id that is
 * missing or not an identifier (the report shows it on a terminal).
 */
static const char *
migrate_find_ref(const cJSON *ruleset, const char *ref)
{
	const cJSON	*r;
	const char	*s;

	if (ref == NULL)
		return (NULL);
	cJSON_ArrayForEach(r, migrate_get(ruleset, "rules")) {
		if ((s = migrate_string(r, "ref")) != NULL &&
		    strcmp(s, ref) == 0) {
			s = migrate_string(r, "id");
			return (s != NULL && migrate_id_ok(s) ? s : "?");
		}
	}
	return (NULL);
}

/* The entry point as read (NULL: there is none): who is there, who fits. */
static void
migrate_classify(struct migrate_apply *a, const cJSON *ep)
{
	const struct migrate_item	*it;
	const cJSON			*rules = migrate_get(ep, "rules");
	const char			*id;
	size_t				 i;
	int				 room;

	/* Observed on entry points the service filled from legacy rules. */
	a->upgraded = (id = migrate_string(ep, "source")) != NULL &&
	    strcmp(id, "rate_limit") == 0;
	room = rlrule_max_rules(a->plan) - (cJSON_IsArray(rules) ?
	    cJSON_GetArraySize(rules) : 0);
	for (i = 0; i < a->n; i++) {
		it = &a->items[i];
		/* Read again after a 409: every fate is decided anew. */
		a->fate[i] = MIGRATE_PENDING;
		if (it->rule == NULL)
			a->fate[i] = MIGRATE_UNTRANSLATED;
		else if ((id = migrate_find_ref(ep, migrate_ref(it))) != NULL) {
			a->fate[i] = MIGRATE_PRESENT;
			a->rule_id[i] = xstrdup(id);
		} else if (room <= 0)
			a->fate[i] = MIGRATE_OVER_QUOTA;
		else
			room--;
	}
}

static void
migrate_call_set(struct migrate_call *c, const char *method, char *path,
    cJSON *body, const cJSON *before)
{
	memset(c, 0, sizeof *c);
	c->method = method;
	c->path = path;
	c->body = body;
	c->before = before;
}

static void	migrate_stop(struct migrate_apply *, const char *);

/*
 * The next request disabling a legacy rule, or 0: the rule read again,
 * then (migrate_disable_read) the PUT of that copy with disabled set.
 */
static int
migrate_next_disable(struct migrate_apply *a, struct migrate_call *c)
{
	const struct migrate_item	*it;
	char				*path;

	for (; a->cur < a->n; a->cur++) {
		it = &a->items[a->cur];
		if (a->fate[a->cur] != MIGRATE_APPLIED &&
		    a->fate[a->cur] != MIGRATE_PRESENT)
			continue;
		if (it->legacy_id == NULL)
			continue;
		if (cJSON_IsTrue(migrate_get(it->legacy, "disabled"))) {
			a->lfate[a->cur] = MIGRATE_LEGACY_WAS_DISABLED;
			continue;
		}
		path = xprintf("/zones/%s/rate_limits/%s", a->zone,
		    it->legacy_id);
		if (a->disable_body != NULL) {
			migrate_call_set(c, "PUT", path, a->disable_body,
			    a->disable_before);
			a->disable_body = NULL;
		} else {
			migrate_call_set(c, "GET", path, NULL, NULL);
			a->disable_read = 1;
		}
		return (1);
	}
	return (0);
}

/*
 * The legacy rule as the server has it now: the PUT replaces it whole,
 * so it is that copy with disabled set (merge.h), not the one the preview
 * read: what someone changed since is kept.
 */
static void
migrate_disable_read(struct migrate_apply *a, const cJSON *theirs,
    const char *cause)
{
	const struct migrate_item	*it = &a->items[a->cur];
	struct merge			 m;
	cJSON				*mine;

	a->disable_read = 0;
	if (cause != NULL || !cJSON_IsObject(theirs)) {
		a->lfate[a->cur] = MIGRATE_LEGACY_FAILED;
		a->why[a->cur] = xstrdup(cause != NULL ? cause :
		    "the server sent no rule");
		migrate_stop(a, "stopped after a failure");
		return;
	}
	if (cJSON_IsTrue(migrate_get(theirs, "disabled"))) {
		a->lfate[a->cur++] = MIGRATE_LEGACY_WAS_DISABLED;
		return;
	}
	if ((mine = cJSON_Duplicate(it->legacy, 1)) == NULL)
		fatalx("out of memory");
	cJSON_DeleteItemFromObjectCaseSensitive(mine, "disabled");
	cJSON_AddBoolToObject(mine, "disabled", 1);
	merge_records(&kind_rate_limits, it->legacy, mine, theirs, &m);
	cJSON_Delete(mine);
	if (m.nconflicts > 0) {
		a->lfate[a->cur] = MIGRATE_LEGACY_FAILED;
		a->why[a->cur] = xprintf("changed on the server meanwhile (%s): "
		    "not disabled", m.conflicts[0].path);
		merge_free(&m);
		migrate_stop(a, "stopped: a legacy rule changed on the server");
		return;
	}
	cJSON_Delete(a->disable_before);
	a->disable_before = cJSON_Duplicate(theirs, 1);
	a->disable_body = merge_update_body(&kind_rate_limits, theirs,
	    m.merged, it->legacy_id);
	merge_free(&m);
}

int
migrate_apply_next(struct migrate_apply *a, struct migrate_call *c)
{
	cJSON	*body;

	memset(c, 0, sizeof *c);
	if (a->sent)
		fatalx("migrate_apply_next: the last request has no answer");
	switch (a->step) {
	case MIGRATE_FETCH:
		migrate_call_set(c, "GET", xprintf(MIGRATE_EP_PATH, a->zone),
		    NULL, NULL);
		break;
	case MIGRATE_ADD:
		while (a->cur < a->n && a->fate[a->cur] != MIGRATE_PENDING)
			a->cur++;
		if (a->cur == a->n) {
			a->step = a->disable_legacy ? MIGRATE_DISABLE :
			    MIGRATE_DONE;
			a->cur = 0;
			return (migrate_apply_next(a, c));
		}
		if (a->ruleset == NULL) {
			/* No entry point yet: create it with this rule. */
			body = rulesets_entrypoint_body(a->items[a->cur].rule);
			migrate_call_set(c, "POST", xprintf("/zones/%s/rulesets",
			    a->zone), body, NULL);
		} else
			migrate_call_set(c, "POST", xprintf("/zones/%s/rulesets/"
			    "%s/rules", a->zone, a->ruleset),
			    cJSON_Duplicate(a->items[a->cur].rule, 1), NULL);
		break;
	case MIGRATE_DISABLE:
		if (!migrate_next_disable(a, c)) {
			a->step = MIGRATE_DONE;
			return (0);
		}
		break;
	case MIGRATE_DONE:
		return (0);
	}
	a->sent = 1;
	return (1);
}

/* Everything still to add is left: the first failure stops it all. */
static void
migrate_stop(struct migrate_apply *a, const char *why)
{
	free(a->stopped);
	a->stopped = xstrdup(why);
	a->step = MIGRATE_DONE;
}

void
migrate_apply_answer(struct migrate_apply *a, long status,
    const cJSON *result, const char *cause)
{
	const char	*id;
	char		*s;

	if (!a->sent)
		fatalx("migrate_apply_answer: no request was sent");
	a->sent = 0;
	switch (a->step) {
	case MIGRATE_FETCH:
		if (cause != NULL && status != 404) {
			s = xprintf("reading the entry point failed: %s",
			    cause);
			migrate_stop(a, s);
			free(s);
			return;
		}
		if (cause == NULL && ((id = migrate_string(result, "id")) ==
		    NULL || !migrate_id_ok(id))) {
			migrate_stop(a, "reading the entry point failed: its "
			    "id is missing or not an identifier");
			return;
		}
		if (cause == NULL)
			a->ruleset = xstrdup(id);
		migrate_classify(a, cause == NULL ? result : NULL);
		a->step = MIGRATE_ADD;
		a->cur = 0;
		break;
	case MIGRATE_ADD:
		if (cause != NULL && status == 409 && a->ruleset == NULL &&
		    !a->reread) {
			/* Someone made the entry point meanwhile: add to it. */
			a->reread = 1;
			a->step = MIGRATE_FETCH;
			return;
		}
		if (cause != NULL) {
			a->fate[a->cur] = MIGRATE_FAILED;
			a->why[a->cur] = xstrdup(cause);
			migrate_stop(a, "stopped after a failure");
			return;
		}
		a->fate[a->cur] = MIGRATE_APPLIED;
		if (a->ruleset == NULL) {
			if ((id = migrate_string(result, "id")) == NULL ||
			    !migrate_id_ok(id)) {
				migrate_stop(a, "the created entry point's id "
				    "is missing or not an identifier");
				return;
			}
			a->ruleset = xstrdup(id);
			a->created = 1;
		}
		if ((id = migrate_find_ref(result,
		    migrate_ref(&a->items[a->cur]))) != NULL)
			a->rule_id[a->cur] = xstrdup(id);
		a->cur++;
		break;
	case MIGRATE_DISABLE:
		if (a->disable_read) {
			migrate_disable_read(a, result, cause);
			return;
		}
		if (cause != NULL) {
			a->lfate[a->cur] = MIGRATE_LEGACY_FAILED;
			a->why[a->cur] = xstrdup(cause);
			migrate_stop(a, "stopped after a failure");
			return;
		}
		a->lfate[a->cur++] = MIGRATE_LEGACY_DISABLED;
		break;
	case MIGRATE_DONE:
		break;
	}
}

static void
migrate_report_fate(const struct migrate_apply *a, size_t i, struct buf *b)
{
	switch (a->fate[i]) {
	case MIGRATE_UNTRANSLATED:
		buf_addf(b, "not translated (%s)", a->items[i].error);
		break;
	case MIGRATE_OVER_QUOTA:
		buf_addf(b, "not applied: the entry point would hold too "
		    "many rules (%s allows %d rule%s)",
		    migrate_plan_title(a->plan), rlrule_max_rules(a->plan),
		    rlrule_max_rules(a->plan) == 1 ? "" : "s");
		break;
	case MIGRATE_PRESENT:
		buf_addf(b, "skipped: already in the entry point (rule %s)",
		    a->rule_id[i]);
		break;
	case MIGRATE_APPLIED:
		buf_addf(b, "applied (rule %s)", a->rule_id[i] != NULL ?
		    a->rule_id[i] : "?");
		break;
	case MIGRATE_FAILED:
		buf_addf(b, "failed: %s", a->why[i]);
		break;
	case MIGRATE_PENDING:
		buf_addf(b, "not tried (%s)", a->stopped != NULL ? a->stopped :
		    "not reached");
		break;
	}
}

static void
migrate_report_legacy(const struct migrate_apply *a, size_t i,
    struct buf *b)
{
	switch (a->lfate[i]) {
	case MIGRATE_LEGACY_DISABLED:
		buf_adds(b, "legacy rule disabled");
		break;
	case MIGRATE_LEGACY_WAS_DISABLED:
		buf_adds(b, "legacy rule was already disabled");
		break;
	case MIGRATE_LEGACY_FAILED:
		buf_addf(b, "disabling the legacy rule failed: %s; it is "
		    "still enabled", a->why[i]);
		break;
	case MIGRATE_LEGACY_KEPT:
		if (!a->disable_legacy)
			buf_adds(b, "legacy rule unchanged");
		else if (cJSON_IsTrue(migrate_get(a->items[i].legacy,
		    "disabled")))
			buf_adds(b, "legacy rule disabled (as it was)");
		else
			buf_adds(b, "legacy rule still enabled");
		break;
	}
}

char *
migrate_apply_report(const struct migrate_apply *a)
{
	const char	*id;
	struct buf	 b;
	size_t		 i, counts[MIGRATE_FAILED + 1] = { 0 };
	int		 unread;

	buf_init(&b);
	unread = a->stopped != NULL && a->step == MIGRATE_DONE &&
	    strncmp(a->stopped, "reading", 7) == 0;
	if (a->ruleset != NULL) {
		buf_addf(&b, "entry point %s%s\n", a->ruleset,
		    a->created ? " (created)" : "");
		if (a->upgraded)
			buf_adds(&b, "  note: the service converted legacy "
			    "rules into this entry point (source rate_limit): "
			    "its own rules may already do what these do\n");
	} else if (unread)
		buf_addf(&b, "%s: nothing was changed\n", a->stopped);
	else
		buf_adds(&b, "no entry point\n");
	for (i = 0; i < a->n; i++) {
		counts[a->fate[i]]++;
		id = a->items[i].legacy_id;
		buf_addf(&b, "  legacy %s: ", id != NULL ? id : "(no id)");
		migrate_report_fate(a, i, &b);
		buf_adds(&b, "; ");
		migrate_report_legacy(a, i, &b);
		buf_addc(&b, '\n');
	}
	buf_addf(&b, "  %zu applied, %zu skipped (already there), %zu failed, "
	    "%zu not tried, %zu not translated, %zu over the quota\n",
	    counts[MIGRATE_APPLIED], counts[MIGRATE_PRESENT],
	    counts[MIGRATE_FAILED], counts[MIGRATE_PENDING],
	    counts[MIGRATE_UNTRANSLATED], counts[MIGRATE_OVER_QUOTA]);
	return (buf_detach(&b, NULL));
}

int
migrate_apply_failed(const struct migrate_apply *a)
{
	size_t	i;

	if (a->stopped != NULL)
		return (1);
	for (i = 0; i < a->n; i++)
		if (a->fate[i] == MIGRATE_UNTRANSLATED ||
		    a->fate[i] == MIGRATE_OVER_QUOTA ||
		    a->fate[i] == MIGRATE_FAILED ||
		    a->lfate[i] == MIGRATE_LEGACY_FAILED)
			return (1);
	return (0);
}
