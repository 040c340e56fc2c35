/*
 * Rate limiting rules run over an access log (simulate.h): the rules with
 * the same characteristics share the key built for a request and one table
 * of counters (simulate_table.h), in which a client holds a state per rule
 * with a ring of the last requests_per_period counted times.
 */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "accesslog.h"
#include "buf.h"
#include "civil.h"
#include "expr.h"
#include "jsonutil.h"
#include "log.h"
#include "simulate.h"
#include "simulate_table.h"
#include "xmalloc.h"

#define SIM_NS		1000000000LL
#define SIM_CHARS_MAX	16	/* characteristics in one rule */

/* What a characteristic reads from a log line. */
enum sim_char_kind {
	SC_COLO, SC_IP, SC_HOST, SC_PATH, SC_COUNTRY, SC_ASN, SC_JA3, SC_JA4,
	SC_HEADER, SC_COOKIE, SC_ARG,
	SC_NONE		/* not in access logs: one value for all */
};

struct sim_char {
	enum sim_char_kind	 kind;
	char			*name;	/* of the header, cookie or argument */
};

/* One list of characteristics: the key of a request is built once for
 * all the rules that have them, which share one table of counters. */
struct sim_keyer {
	char		*signature;	/* the characteristics, '\n'-joined */
	struct sim_char	*chars;
	size_t		 nchars;
	struct simtab	*tab;
	size_t		 nrules;	/* of tab */
	uint64_t	 gen;		/* the request of lookup */
	size_t		 lookup;	/* its key in the batch */
};

struct sim_rule {
	char			*id;
	char			*description;
	int			 enabled;
	struct expr		*expr;
	struct expr		*counting;	/* NULL: expr counts */
	struct expr_memo	*memo;		/* of expr */
	struct expr_memo	*cmemo;		/* of counting */
	struct sim_keyer	*keyer;
	int64_t			 period;	/* ns */
	int64_t			 timeout;	/* ns; 0 throttles */
	uint32_t		 limit;		/* requests_per_period */
	size_t			 at;		/* its place in keyer->tab */

	uint64_t		 matched;
	uint64_t		 counted;
	uint64_t		 clients;
	uint64_t		 clients_mitigated;
	uint64_t		 mitigated;
	int64_t			 first;		/* ns; -1 none */
};

/*
 * Requests are counted in batches: each pass over a batch starts the
 * memory reads the next one needs (slots, states, the rings' places) for
 * all of its requests at once, as the tables are much larger than the
 * caches. A request's keys and the rules it matched wait in the batch.
 */
#define SIM_BATCH	16

struct sim_lookup {
	struct sim_keyer	*keyer;
	uint64_t		 hash;
	size_t			 off;		/* of the key in keys */
	size_t			 len;
	uint32_t		 client;
};

struct sim_pending {
	struct sim_rule		*rule;
	size_t			 lookup;
	int			 matched;
	int			 counted;
};

struct sim_queued {
	int64_t			 time;
	size_t			 end;		/* of its pending */
};

struct simulate {
	struct sim_rule		*rules;
	size_t			 nrules;
	struct sim_keyer	**keyers;
	size_t			 nkeyers;
	struct expr_request	*rq;
	struct buf		 cookie;	/* a Cookie header from Cookies */
	struct sim_queued	 queued[SIM_BATCH];
	size_t			 nqueued;
	struct sim_pending	*pending;	/* SIM_BATCH per rule */
	size_t			 npending;
	struct sim_lookup	*lookups;	/* SIM_BATCH per keyer */
	size_t			 nlookups;
	struct buf		 keys;
	unsigned		 headers;	/* SIM_H_*: what rules read */
	uint64_t		 gen;
	uint64_t		 requests;
	uint64_t		 any;
};

/* ---- reading the rules ------------------------------------------------- */

static const struct {
	const char		*name;
	enum sim_char_kind	 kind;
} sim_char_names[] = {
	{ "cf.colo.id",				SC_COLO },
	{ "ip.src",				SC_IP },
	{ "cf.unique_visitor_id",		SC_IP },
	{ "http.host",				SC_HOST },
	{ "http.request.uri.path",		SC_PATH },
	{ "ip.src.country",			SC_COUNTRY },
	{ "ip.geoip.country",			SC_COUNTRY },
	{ "ip.src.asnum",			SC_ASN },
	{ "ip.geoip.asnum",			SC_ASN },
	{ "cf.bot_management.ja3_hash",		SC_JA3 },
	{ "cf.bot_management.ja4",		SC_JA4 },
};

static const struct {
	const char		*prefix;
	enum sim_char_kind	 kind;
} sim_char_maps[] = {
	{ "http.request.headers[\"",	SC_HEADER },
	{ "http.request.cookies[\"",	SC_COOKIE },
	{ "http.request.uri.args[\"",	SC_ARG },
};

static void
sim_char_parse(const char *text, struct sim_char *c)
{
	size_t	i, plen, len = strlen(text);
	char	*p;

	c->name = NULL;
	for (i = 0; i < sizeof sim_char_names / sizeof sim_char_names[0]; i++) {
		if (strcmp(text, sim_char_names[i].name) == 0) {
			c->kind = sim_char_names[i].kind;
			return;
		}
	}
	for (i = 0; i < sizeof sim_char_maps / sizeof sim_char_maps[0]; i++) {
		plen = strlen(sim_char_maps[i].prefix);
		if (len > plen + 2 && strncmp(text, sim_char_maps[i].prefix,
		    plen) == 0 && strcmp(text + len - 2, "\"]") == 0) {
			c->kind = sim_char_maps[i].kind;
			c->name = xstrdup(text + plen);
			c->name[len - plen - 2] = '\0';
			if (c->kind == SC_HEADER)
				for (p = c->name; *p != '\0'; p++)
					if (*p >= 'A' && *p <= 'Z')
						*p = (char)(*p - 'A' + 'a');
			return;
		}
	}
	c->kind = SC_NONE;
}

static void
sim_keyer_free(struct sim_keyer *k)
{
	size_t	i;

	for (i = 0; i < k->nchars; i++)
		free(k->chars[i].name);
	free(k->chars);
	free(k->signature);
	simtab_free(k->tab);
	free(k);
}

static void
sim_note(char ***notes, size_t *n, char *note)
{
	if (notes == NULL) {
		free(note);
		return;
	}
	*notes = xreallocarray(*notes, *n + 2, sizeof **notes);
	(*notes)[(*n)++] = note;
	(*notes)[*n] = NULL;
}

/* The keyer of a characteristics list, shared with earlier rules. */
static int
sim_keyer_get(struct simulate *sim, const cJSON *chars, const char *who,
    char ***notes, size_t *nnotes, struct sim_keyer **out, char **cause)
{
	struct sim_keyer	*k;
	struct buf		 sig = BUF_INITIALIZER;
	const cJSON		*c;
	size_t			 i;

	if (!cJSON_IsArray(chars) || cJSON_GetArraySize(chars) == 0 ||
	    cJSON_GetArraySize(chars) > SIM_CHARS_MAX) {
		xasprintf(cause, "%s: ratelimit.characteristics must be a list "
		    "of 1 to %d, not %s", who, SIM_CHARS_MAX,
		    jsonutil_type_name(chars));
		return (-1);
	}
	cJSON_ArrayForEach(c, chars) {
		if (!cJSON_IsString(c)) {
			xasprintf(cause, "%s: a characteristic must be a "
			    "string, not %s", who, jsonutil_type_name(c));
			buf_free(&sig);
			return (-1);
		}
		buf_adds(&sig, c->valuestring);
		buf_addc(&sig, '\n');
	}
	for (i = 0; i < sim->nkeyers; i++) {
		if (strcmp(sim->keyers[i]->signature, buf_str(&sig)) == 0) {
			buf_free(&sig);
			*out = sim->keyers[i];
			return (0);
		}
	}
	k = xcalloc(1, sizeof *k);
	k->signature = buf_detach(&sig, NULL);
	k->chars = xreallocarray(NULL, (size_t)cJSON_GetArraySize(chars),
	    sizeof *k->chars);
	k->gen = UINT64_MAX;
	cJSON_ArrayForEach(c, chars) {
		sim_char_parse(c->valuestring, &k->chars[k->nchars]);
		if (k->chars[k->nchars++].kind == SC_NONE) {
			char	*note;

			xasprintf(&note, "%s: characteristic %s is not in "
			    "access logs: every request has the same value",
			    who, c->valuestring);
			sim_note(notes, nnotes, note);
		}
	}
	sim->keyers = xreallocarray(sim->keyers, sim->nkeyers + 1,
	    sizeof *sim->keyers);
	sim->keyers[sim->nkeyers++] = k;
	*out = k;
	return (0);
}

/* A whole number of a rule in [min, max]; absent gives def (-1: needed). */
static int
sim_int(const cJSON *obj, const char *name, long long min, long long max,
    long long def, long long *out, const char *who, char **cause)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(obj, name);

	if (v == NULL || cJSON_IsNull(v)) {
		if (def < 0) {
			xasprintf(cause, "%s: no ratelimit.%s", who, name);
			return (-1);
		}
		*out = def;
		return (0);
	}
	if (!cJSON_IsNumber(v) || v->valuedouble != (double)(long long)
	    v->valuedouble || v->valuedouble < (double)min ||
	    v->valuedouble > (double)max) {
		xasprintf(cause, "%s: ratelimit.%s must be a whole number from "
		    "%lld to %lld", who, name, min, max);
		return (-1);
	}
	*out = (long long)v->valuedouble;
	return (0);
}

static struct expr *
sim_expr(const char *text, int counting, const char *who, const char *what,
    char **cause)
{
	struct expr_options	 opts = { EXPR_PLAN_NONE, counting };
	struct expr_error	 err;
	struct expr		*e;
	char			*shown;
	size_t			 len, skip;

	memset(&err, 0, sizeof err);
	if ((e = expr_parse(text, &opts, &err)) != NULL)
		return (e);
	/* One block: "rule 1 (desc): counting_expression:1:5: MESSAGE",
	 * the text, the caret; the caller ends the last line. */
	shown = expr_error_render(text, &err);
	len = strlen(shown);
	if (len > 0 && shown[len - 1] == '\n')
		shown[len - 1] = '\0';
	skip = strncmp(shown, "expression", 10) == 0 ? 10 : 0;
	xasprintf(cause, "%s: %s%s%s", who, what, skip > 0 ? "" : ": ",
	    shown + skip);
	free(shown);
	return (NULL);
}

static const char *
sim_string(const cJSON *obj, const char *name)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(obj, name);

	return (cJSON_IsString(v) ? v->valuestring : NULL);
}

/*
 * The headers an expression may read, by its text (a word in a string
 * literal only costs time): adding them is a good part of a line's work.
 */
#define SIM_H_UA	0x1
#define SIM_H_REFERER	0x2
#define SIM_H_OTHER	0x4	/* RequestHeaders */
#define SIM_H_COOKIE	0x8
#define SIM_H_ALL	0xf

static unsigned
sim_reads_headers(const char *text)
{
	static const struct {
		const char	*word;
		unsigned	 headers;
	} words[] = {
		{ "header",		SIM_H_ALL },
		{ "user_agent",		SIM_H_UA },
		{ "referer",		SIM_H_REFERER },
		{ "cookie",		SIM_H_COOKIE },
		{ "x_forwarded_for",	SIM_H_OTHER },
	};
	unsigned	h = 0;
	size_t		i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strstr(text, words[i].word) != NULL)
			h |= words[i].headers;
	return (h);
}

/* Rule n (1-based) into r; 1 when it was left out with a note. */
static int
sim_rule_parse(struct simulate *sim, const cJSON *j, size_t n,
    struct sim_rule *r, char ***notes, size_t *nnotes, char **cause)
{
	const cJSON	*rl, *en;
	const char	*s, *desc;
	char		 who[160];
	long long	 period, limit, timeout;

	desc = sim_string(j, "description");
	if (desc != NULL && *desc != '\0')
		snprintf(who, sizeof who, "rule %zu (%.100s)", n, desc);
	else
		snprintf(who, sizeof who, "rule %zu", n);
	if (!cJSON_IsObject(j)) {
		xasprintf(cause, "%s: must be an object, not %s", who,
		    jsonutil_type_name(j));
		return (-1);
	}
	if ((s = sim_string(j, "expression")) == NULL) {
		xasprintf(cause, "%s: no expression", who);
		return (-1);
	}
	rl = cJSON_GetObjectItemCaseSensitive(j, "ratelimit");
	if (!cJSON_IsObject(rl)) {
		xasprintf(cause, "%s: no ratelimit object", who);
		return (-1);
	}
	if (cJSON_GetObjectItemCaseSensitive(rl, "requests_per_period") ==
	    NULL && cJSON_GetObjectItemCaseSensitive(rl, "score_per_period") !=
	    NULL) {
		char	*note;

		xasprintf(&note, "%s: counts a score the origin sends "
		    "(score_per_period), which logs do not carry: left out",
		    who);
		sim_note(notes, nnotes, note);
		return (1);
	}
	if (sim_int(rl, "period", 1, 86400 * 7, -1, &period, who, cause) != 0 ||
	    sim_int(rl, "requests_per_period", 1, 100000000, -1, &limit, who,
	    cause) != 0 ||
	    sim_int(rl, "mitigation_timeout", 0, 86400 * 7, 0, &timeout, who,
	    cause) != 0)
		return (-1);
	if (sim_keyer_get(sim, cJSON_GetObjectItemCaseSensitive(rl,
	    "characteristics"), who, notes, nnotes, &r->keyer, cause) != 0)
		return (-1);
	if ((r->expr = sim_expr(s, 0, who, "expression", cause)) == NULL)
		return (-1);
	sim->headers |= sim_reads_headers(s);
	r->memo = expr_memo_new(r->expr);
	s = sim_string(rl, "counting_expression");
	if (s != NULL && *s != '\0') {
		if ((r->counting = sim_expr(s, 1, who, "counting_expression",
		    cause)) == NULL)
			return (-1);
		sim->headers |= sim_reads_headers(s);
		r->cmemo = expr_memo_new(r->counting);
	}
	if ((s = sim_string(j, "id")) == NULL && (s = sim_string(j, "ref")) ==
	    NULL)
		s = "";
	r->id = xstrdup(s);
	r->description = xstrdup(desc != NULL ? desc : "");
	en = cJSON_GetObjectItemCaseSensitive(j, "enabled");
	r->enabled = !cJSON_IsFalse(en);
	r->period = period * SIM_NS;
	r->timeout = timeout * SIM_NS;
	r->limit = (uint32_t)limit;
	r->first = -1;
	r->at = r->keyer->nrules++;
	return (0);
}

static void
sim_rule_free(struct sim_rule *r)
{
	expr_memo_free(r->memo);
	expr_memo_free(r->cmemo);
	if (r->expr != NULL)
		expr_free(r->expr);
	if (r->counting != NULL)
		expr_free(r->counting);
	free(r->id);
	free(r->description);
}

/* Each keyer's table, with the numbers of its rules in their places. */
static void
sim_tables(struct simulate *sim)
{
	struct simtab_rule	*tr;
	struct sim_keyer	*k;
	struct sim_rule		*r;
	size_t			 i, j;

	for (i = 0; i < sim->nkeyers; i++) {
		k = sim->keyers[i];
		tr = xcalloc(k->nrules + 1, sizeof *tr);
		for (j = 0; j < sim->nrules; j++) {
			r = &sim->rules[j];
			if (r->keyer != k)
				continue;
			tr[r->at].period = r->period;
			tr[r->at].timeout = r->timeout;
			tr[r->at].limit = r->limit;
		}
		k->tab = simtab_new(tr, k->nrules);
		free(tr);
	}
	sim->lookups = xcalloc(SIM_BATCH * (sim->nkeyers + 1),
	    sizeof *sim->lookups);
}

struct simulate *
simulate_new(const cJSON *rules, char ***notes, char **cause)
{
	struct simulate	*sim;
	const cJSON	*list = rules, *j;
	size_t		 n = 0, nnotes = 0;
	int		 rv;

	if (notes != NULL)
		*notes = NULL;
	if (cJSON_IsObject(rules) &&
	    cJSON_GetObjectItemCaseSensitive(rules, "rules") != NULL)
		list = cJSON_GetObjectItemCaseSensitive(rules, "rules");
	if (!cJSON_IsArray(list) && !cJSON_IsObject(list)) {
		xasprintf(cause, "rules must be a list of rules, a ruleset or "
		    "one rule, not %s", jsonutil_type_name(list));
		return (NULL);
	}
	sim = xcalloc(1, sizeof *sim);
	sim->rq = expr_request_new();
	sim->pending = xcalloc(SIM_BATCH * ((size_t)cJSON_GetArraySize(list) +
	    1), sizeof *sim->pending);
	if (cJSON_IsObject(list)) {
		sim->rules = xcalloc(1, sizeof *sim->rules);
		rv = sim_rule_parse(sim, list, 1, &sim->rules[0], notes,
		    &nnotes, cause);
		sim->nrules = rv == 0;
		if (rv < 0)
			goto fail;
		sim_tables(sim);
		return (sim);
	}
	sim->rules = xcalloc((size_t)cJSON_GetArraySize(list) + 1,
	    sizeof *sim->rules);
	cJSON_ArrayForEach(j, list) {
		rv = sim_rule_parse(sim, j, ++n, &sim->rules[sim->nrules],
		    notes, &nnotes, cause);
		if (rv < 0)
			goto fail;
		if (rv == 0)
			sim->nrules++;
	}
	sim_tables(sim);
	return (sim);
fail:
	/* The rule that failed half way is freed with the others. */
	sim->nrules++;
	simulate_free(sim);
	if (notes != NULL) {
		simulate_notes_free(*notes);
		*notes = NULL;
	}
	return (NULL);
}

void
simulate_free(struct simulate *sim)
{
	size_t	i;

	if (sim == NULL)
		return;
	for (i = 0; i < sim->nrules; i++)
		sim_rule_free(&sim->rules[i]);
	free(sim->rules);
	for (i = 0; i < sim->nkeyers; i++)
		sim_keyer_free(sim->keyers[i]);
	free(sim->keyers);
	expr_request_free(sim->rq);
	buf_free(&sim->cookie);
	free(sim->pending);
	free(sim->lookups);
	buf_free(&sim->keys);
	free(sim);
}

void
simulate_notes_free(char **notes)
{
	size_t	i;

	for (i = 0; notes != NULL && notes[i] != NULL; i++)
		free(notes[i]);
	free(notes);
}

size_t
simulate_nrules(const struct simulate *sim)
{
	return (sim->nrules);
}

/* ---- one request ------------------------------------------------------- */

static uint64_t
sim_hash(const char *p, size_t n)
{
	uint64_t	h = 0x9e3779b97f4a7c15ULL ^ n, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, p, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return (h ^ (h >> 29));
}

static const char *
sim_pair(const struct accesslog_pair *pairs, size_t n, const char *name,
    int nocase)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if ((nocase ? strcasecmp(pairs[i].name, name) :
		    strcmp(pairs[i].name, name)) == 0)
			return (pairs[i].value);
	return (NULL);
}

/* The first value of query argument name in uri (not decoded). */
static const char *
sim_arg(const char *uri, const char *name, size_t *len)
{
	const char	*p, *end, *eq;
	size_t		 nlen = strlen(name);

	if (uri == NULL || (p = strchr(uri, '?')) == NULL)
		return (NULL);
	for (p++; *p != '\0'; p = *end == '&' ? end + 1 : end) {
		end = p + strcspn(p, "&#");
		eq = memchr(p, '=', (size_t)(end - p));
		if ((size_t)((eq != NULL ? eq : end) - p) == nlen &&
		    memcmp(p, name, nlen) == 0) {
			p = eq != NULL ? eq + 1 : end;
			*len = (size_t)(end - p);
			return (p);
		}
		if (*end == '#')
			break;
	}
	return (NULL);
}

/* A characteristic's value in a request; NULL when it has none. */
static const char *
sim_value(const struct sim_char *c, const struct accesslog_record *rec,
    char *num, size_t *len)
{
	const char	*v = NULL;

	*len = SIZE_MAX;
	switch (c->kind) {
	case SC_COLO:		v = rec->colo; break;
	case SC_IP:		v = rec->ip; break;
	case SC_HOST:		v = rec->host; break;
	case SC_COUNTRY:	v = rec->country; break;
	case SC_JA3:		v = rec->ja3; break;
	case SC_JA4:		v = rec->ja4; break;
	case SC_PATH:
		if ((v = rec->uri) != NULL)
			*len = strcspn(v, "?");
		break;
	case SC_ASN:
		if (rec->asnum >= 0) {
			*len = (size_t)snprintf(num, 24, "%lld",
			    (long long)rec->asnum);
			v = num;
		}
		break;
	case SC_HEADER:
		v = sim_pair(rec->headers, rec->nheaders, c->name, 1);
		if (v == NULL && strcmp(c->name, "user-agent") == 0)
			v = rec->user_agent;
		else if (v == NULL && strcmp(c->name, "referer") == 0)
			v = rec->referer;
		break;
	case SC_COOKIE:
		v = sim_pair(rec->cookies, rec->ncookies, c->name, 0);
		break;
	case SC_ARG:
		v = sim_arg(rec->uri, c->name, len);
		break;
	case SC_NONE:
		break;
	}
	if (v != NULL && *len == SIZE_MAX)
		*len = strlen(v);
	return (v);
}

/* Each value as 1, its bytes and 0 (a missing one as a lone 0), added to
 * the batch's keys. */
static void
sim_key(struct simulate *sim, struct sim_lookup *l,
    const struct accesslog_record *rec)
{
	const struct sim_keyer	*k = l->keyer;
	const char	*v[SIM_CHARS_MAX];
	char		 num[SIM_CHARS_MAX][24], *o;
	size_t		 i, len[SIM_CHARS_MAX], total = 0;

	for (i = 0; i < k->nchars; i++) {
		v[i] = sim_value(&k->chars[i], rec, num[i], &len[i]);
		total += v[i] != NULL ? len[i] + 2 : 1;
	}
	buf_reserve(&sim->keys, total);
	l->off = sim->keys.len;
	l->len = total;
	o = sim->keys.data + l->off;
	for (i = 0; i < k->nchars; i++) {
		if (v[i] == NULL) {
			*o++ = '\0';
			continue;
		}
		*o++ = '\1';
		memcpy(o, v[i], len[i]);
		o += len[i];
		*o++ = '\0';
	}
	sim->keys.len += total;
	l->hash = sim_hash(sim->keys.data + l->off, total);
}

/* The request as the expressions see it. */
static int
sim_fill(struct simulate *sim, const struct accesslog_record *rec)
{
	struct expr_request	*rq = sim->rq;
	size_t			 i;

	expr_request_reset(rq);
	/* What the line does not carry stays missing (NULL). */
	if (expr_request_set_parts(rq, rec->method, rec->scheme, rec->host,
	    rec->uri) != 0)
		return (-1);
	if (rec->ip != NULL)
		(void)expr_request_set_ip(rq, rec->ip);
	if (rec->country != NULL)
		expr_request_set_country(rq, rec->country);
	if (rec->asnum >= 0)
		expr_request_set_asnum(rq, rec->asnum);
	expr_request_set_timestamp(rq, rec->time_ns / SIM_NS);
	if (rec->version != NULL)
		expr_request_set_version(rq, rec->version);
	if (rec->status != 0)
		expr_request_set_status(rq, rec->status);
	if (sim->headers == 0)
		return (0);
	if (rec->user_agent != NULL && (sim->headers & SIM_H_UA))
		expr_request_add_header(rq, "User-Agent", rec->user_agent);
	if (rec->referer != NULL && (sim->headers & SIM_H_REFERER))
		expr_request_add_header(rq, "Referer", rec->referer);
	for (i = 0; (sim->headers & SIM_H_OTHER) && i < rec->nheaders; i++) {
		if ((rec->user_agent != NULL &&
		    strcasecmp(rec->headers[i].name, "user-agent") == 0) ||
		    (rec->referer != NULL &&
		    strcasecmp(rec->headers[i].name, "referer") == 0))
			continue;
		expr_request_add_header(rq, rec->headers[i].name,
		    rec->headers[i].value);
	}
	if (rec->ncookies > 0 && (sim->headers & SIM_H_COOKIE)) {
		buf_reset(&sim->cookie);
		for (i = 0; i < rec->ncookies; i++)
			buf_addf(&sim->cookie, "%s%s=%s", i == 0 ? "" : "; ",
			    rec->cookies[i].name, rec->cookies[i].value);
		expr_request_add_header(rq, "Cookie", buf_str(&sim->cookie));
	}
	return (0);
}

/* The batch counted, in the order of its requests. */
static void
sim_flush(struct simulate *sim)
{
	struct sim_pending	*p, *end = sim->pending + sim->npending;
	struct sim_lookup	*l;
	struct sim_rule		*r;
	struct sim_queued	*q;
	size_t			 i;
	int64_t			 t;
	int			 flags, any;

	/* All lookups first: a new client may move its table's states. */
	for (i = 0; i < sim->nlookups; i++) {
		l = &sim->lookups[i];
		l->client = simtab_find(l->keyer->tab, l->hash,
		    sim->keys.data + l->off, l->len);
	}
	for (p = sim->pending; p < end; p++)
		simtab_prefetch_state(p->rule->keyer->tab,
		    sim->lookups[p->lookup].client, p->rule->at);
	for (p = sim->pending; p < end; p++)
		simtab_prefetch_ring(p->rule->keyer->tab,
		    sim->lookups[p->lookup].client, p->rule->at);
	p = sim->pending;
	for (q = sim->queued; q < sim->queued + sim->nqueued; q++) {
		t = q->time;
		for (any = 0; p < sim->pending + q->end; p++) {
			r = p->rule;
			flags = simtab_apply(r->keyer->tab,
			    sim->lookups[p->lookup].client, r->at, p->matched,
			    p->counted, t);
			r->matched += (uint64_t)p->matched;
			r->counted += (uint64_t)p->counted;
			if (flags & SIMTAB_NEW_CLIENT)
				r->clients++;
			if (!(flags & SIMTAB_MITIGATED))
				continue;
			if (flags & SIMTAB_NEW_MITIGATED)
				r->clients_mitigated++;
			r->mitigated++;
			if (r->first < 0 || t < r->first)
				r->first = t;
			any = 1;
		}
		sim->any += (uint64_t)any;
	}
	sim->nqueued = sim->npending = sim->nlookups = 0;
	buf_reset(&sim->keys);
}

/* A request's rules evaluated and what they count put in the batch (which
 * must have room for it). */
static int
sim_queue(struct simulate *sim, const struct accesslog_record *rec)
{
	struct sim_pending	*p;
	struct sim_lookup	*l;
	struct sim_rule		*r;
	struct sim_keyer	*k;
	size_t			 i;
	int			 matched, counted;

	if (sim_fill(sim, rec) != 0)
		return (-1);
	sim->gen++;
	sim->requests++;
	for (i = 0; i < sim->nrules; i++) {
		r = &sim->rules[i];
		matched = expr_eval_memo(r->memo, sim->rq) == 1;
		counted = r->counting != NULL ?
		    expr_eval_memo(r->cmemo, sim->rq) == 1 : matched;
		if (!matched && !counted)
			continue;
		k = r->keyer;
		if (k->gen != sim->gen) {
			k->gen = sim->gen;
			k->lookup = sim->nlookups++;
			l = &sim->lookups[k->lookup];
			l->keyer = k;
			sim_key(sim, l, rec);
			simtab_prefetch(k->tab, l->hash);
		}
		p = &sim->pending[sim->npending++];
		p->rule = r;
		p->lookup = k->lookup;
		p->matched = matched;
		p->counted = counted;
	}
	sim->queued[sim->nqueued].time = rec->time_ns;
	sim->queued[sim->nqueued++].end = sim->npending;
	return (0);
}

int
simulate_request(struct simulate *sim, const struct accesslog_record *rec)
{
	int	rv;

	rv = sim_queue(sim, rec);
	sim_flush(sim);
	return (rv);
}

int
simulate_log(struct simulate *sim, struct accesslog *log,
    simulate_progress_cb progress, void *arg, char **cause)
{
	const struct accesslog_record	*rec;
	uint64_t			 n = 0, done, total;
	int				 rv;

	while ((rv = accesslog_next(log, &rec, cause)) == 1) {
		if (sim_queue(sim, rec) != 0)
			accesslog_reject(log, "a URI the rules cannot read");
		if (sim->nqueued == SIM_BATCH)
			sim_flush(sim);
		if ((++n & 0xffff) == 0 && progress != NULL) {
			sim_flush(sim);
			accesslog_progress(log, &done, &total);
			if (progress(arg, done, total) != 0) {
				*cause = xstrdup("cancelled");
				return (-1);
			}
		}
	}
	sim_flush(sim);
	return (rv);
}

/* ---- the report -------------------------------------------------------- */

/* The values other than the colo, then the colo in parentheses. */
static char *
sim_client_text(const struct sim_keyer *k, const char *key)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*colo = NULL;
	size_t		 i;

	for (i = 0; i < k->nchars; i++) {
		const char	*v = *key == '\1' ? key + 1 : NULL;

		key += v != NULL ? strlen(v) + 2 : 1;
		if (k->chars[i].kind == SC_COLO) {
			colo = v;
			continue;
		}
		if (b.len > 0)
			buf_addc(&b, ' ');
		buf_adds(&b, v != NULL ? v : "-");
	}
	if (colo != NULL)
		buf_addf(&b, "%s(%s)", b.len > 0 ? " " : "", colo);
	if (b.data == NULL)
		buf_adds(&b, "-");
	return (buf_detach(&b, NULL));
}

/* A client of a rule, as the report ranks them. */
struct sim_ranked {
	const struct simtab_state	*st;
	const char			*key;
	size_t				 len;
};

/* Whether a ranks before b: more mitigated, more requests, then key. */
static int
sim_before(const struct sim_ranked *a, const struct sim_ranked *b)
{
	size_t	n;
	int	c;

	if (a->st->mitigated != b->st->mitigated)
		return (a->st->mitigated > b->st->mitigated);
	if (a->st->requests != b->st->requests)
		return (a->st->requests > b->st->requests);
	n = a->len < b->len ? a->len : b->len;
	c = memcmp(a->key, b->key, n);
	return (c != 0 ? c < 0 : a->len < b->len);
}

static void
sim_rule_report(const struct sim_rule *r, struct simulate_rule_report *out)
{
	const struct simtab	*tab = r->keyer->tab;
	struct sim_ranked	 top[SIMULATE_TOP], e;
	size_t			 i, j, n = 0, nclients = simtab_clients(tab);

	out->id = xstrdup(r->id);
	out->description = xstrdup(r->description);
	out->enabled = r->enabled;
	out->matched = r->matched;
	out->counted = r->counted;
	out->clients = r->clients;
	out->clients_mitigated = r->clients_mitigated;
	out->requests_mitigated = r->mitigated;
	out->first_mitigation = r->first;
	for (i = 0; i < nclients; i++) {
		e.st = simtab_state(tab, (uint32_t)i, r->at);
		if (e.st->requests == 0)
			continue;
		e.key = simtab_key(tab, (uint32_t)i, &e.len);
		if (n == SIMULATE_TOP && !sim_before(&e, &top[n - 1]))
			continue;
		if (n < SIMULATE_TOP)
			n++;
		for (j = n - 1; j > 0 && sim_before(&e, &top[j - 1]); j--)
			top[j] = top[j - 1];
		top[j] = e;
	}
	for (i = 0; i < n; i++) {
		out->top[i].client = sim_client_text(r->keyer, top[i].key);
		out->top[i].requests = top[i].st->requests;
		out->top[i].mitigated = top[i].st->mitigated;
	}
	out->ntop = n;
}

void
simulate_report(const struct simulate *sim, const struct accesslog *log,
    struct simulate_report *rep)
{
	const struct accesslog_bad	*bad;
	size_t				 i;

	memset(rep, 0, sizeof *rep);
	if (log != NULL) {
		rep->lines = accesslog_lines(log);
		rep->bad_lines = accesslog_bad_lines(log);
		bad = accesslog_bad(log, &rep->nbad);
		memcpy(rep->bad, bad, rep->nbad * sizeof *bad);
	}
	rep->requests = sim->requests;
	rep->mitigated_by_any = sim->any;
	rep->nrules = sim->nrules;
	rep->rules = xcalloc(sim->nrules + 1, sizeof *rep->rules);
	for (i = 0; i < sim->nrules; i++)
		sim_rule_report(&sim->rules[i], &rep->rules[i]);
}

void
simulate_report_free(struct simulate_report *rep)
{
	size_t	i, j;

	for (i = 0; i < rep->nrules; i++) {
		free(rep->rules[i].id);
		free(rep->rules[i].description);
		for (j = 0; j < rep->rules[i].ntop; j++)
			free(rep->rules[i].top[j].client);
	}
	free(rep->rules);
	memset(rep, 0, sizeof *rep);
}

void
simulate_time_text(int64_t ns, char *out, size_t size)
{
	int64_t	sec = ns / SIM_NS, days, y;
	long	frac = (long)(ns % SIM_NS), rem;
	int	m, d, digits = 9;
	char	fr[16] = "";

	days = sec / 86400;
	rem = (long)(sec % 86400);
	civil_from_days(days, &y, &m, &d);
	if (frac != 0) {
		while (frac % 10 == 0) {
			frac /= 10;
			digits--;
		}
		snprintf(fr, sizeof fr, ".%0*ld", digits, frac);
	}
	snprintf(out, size, "%04lld-%02d-%02dT%02ld:%02ld:%02ld%sZ",
	    (long long)y, m, d, rem / 3600, rem / 60 % 60, rem % 60, fr);
}

cJSON *
simulate_report_json(const struct simulate_report *rep)
{
	const struct simulate_rule_report	*r;
	cJSON					*o, *rules, *jr, *top, *c;
	char					 when[48];
	size_t					 i, j;

	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "lines", (double)rep->lines);
	cJSON_AddNumberToObject(o, "bad_lines", (double)rep->bad_lines);
	cJSON_AddNumberToObject(o, "requests_mitigated_by_any",
	    (double)rep->mitigated_by_any);
	rules = cJSON_AddArrayToObject(o, "rules");
	for (i = 0; i < rep->nrules; i++) {
		r = &rep->rules[i];
		jr = cJSON_CreateObject();
		cJSON_AddStringToObject(jr, "id", r->id);
		cJSON_AddStringToObject(jr, "description", r->description);
		cJSON_AddNumberToObject(jr, "matched", (double)r->matched);
		cJSON_AddNumberToObject(jr, "counted", (double)r->counted);
		cJSON_AddNumberToObject(jr, "clients", (double)r->clients);
		cJSON_AddNumberToObject(jr, "clients_mitigated",
		    (double)r->clients_mitigated);
		cJSON_AddNumberToObject(jr, "requests_mitigated",
		    (double)r->requests_mitigated);
		if (r->first_mitigation >= 0) {
			simulate_time_text(r->first_mitigation, when,
			    sizeof when);
			cJSON_AddStringToObject(jr, "first_mitigation", when);
		} else
			cJSON_AddNullToObject(jr, "first_mitigation");
		top = cJSON_AddArrayToObject(jr, "top_clients");
		for (j = 0; j < r->ntop; j++) {
			c = cJSON_CreateObject();
			cJSON_AddStringToObject(c, "client", r->top[j].client);
			cJSON_AddNumberToObject(c, "requests",
			    (double)r->top[j].requests);
			cJSON_AddNumberToObject(c, "mitigated",
			    (double)r->top[j].mitigated);
			cJSON_AddItemToArray(top, c);
		}
		cJSON_AddItemToArray(rules, jr);
	}
	return (o);
}
