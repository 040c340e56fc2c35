/*
 * Rate limiting rules run over an access log (simulate.h): the rules with
 * the same characteristics share the key built for a request and one table
 * of counters (simulate_table.h), in which a client holds a state per rule
 * with a ring of the last requests_per_period counted times.
 */
#include "config.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <openssl/evp.h>

#include "accesslog.h"
#include "buf.h"
#include "civil.h"
#include "common.h"
#include "expr.h"
#include "jsonutil.h"
#include "log.h"
#include "simulate.h"
#include "simulate_int.h"
#include "simulate_table.h"
#include "xmalloc.h"

#define SIM_CHARS_MAX	16	/* characteristics in one rule */
#define SIM_KEY_WHOLE	256	/* longer keys are kept short (sim_key) */
#define SIM_KEY_SHOWN	64	/* bytes of a value a short key keeps */
#define SIM_KEY_DIGEST	16	/* bytes of a short key's digest */
#if SIM_CHARS_MAX * (SIM_KEY_SHOWN + 2) + SIM_KEY_DIGEST > SIMTAB_KEY_MAX
#error "a short key must fit in a table"
#endif


/*
 * The log is read in batches of requests, each copied with its line
 * (SIM_LINES, SIM_TEXT); a batch is then evaluated (which rules matched
 * or counted each request, and the keys of those that did) and counted,
 * in the log's order. The thread that reads the log (simulate_log's
 * caller, as it owns the reader's callbacks) and a second one evaluate
 * batches as they come, one batch at a time each, and count each batch
 * after the one before it: the counts are those of one request at a time
 * in the log's order. SIM_RING batches at most are read ahead: short
 * batches in a deep ring, so that a thread the system stops in the middle
 * of one holds the other up little; on one thread, a ring of one. A batch
 * is allocated when the ring first reaches it, and its text grows from
 * SIM_TEXT_MIN as its lines need, to SIM_TEXT at most: a short log, or
 * one of short lines, takes little memory.
 */
#define SIM_LINES	1024
#define SIM_TEXT	(3 * 1024 * 1024)	/* > ACCESSLOG_LINE_MAX */
#define SIM_TEXT_MIN	(64 * 1024)
#define SIM_RING	16
#if SIM_TEXT <= ACCESSLOG_LINE_MAX
#error "a batch must hold the longest line"
#endif

/*
 * Counting reads tables much larger than the caches: each pass over
 * SIM_CHUNK requests starts the memory reads the next one needs (slots,
 * states, the rings' places) for all of them at once.
 */
#define SIM_CHUNK	16

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
	size_t			 pend;		/* the end of its pending */
	size_t			 lend;		/* the end of its lookups */
};

/* A request of a batch: its strings in the batch's text (or constant),
 * its headers and cookies in the batch's pairs. */
struct sim_rec {
	int64_t			 time_ns;
	const char		*ip, *host, *method, *uri, *scheme;
	const char		*user_agent, *referer, *country, *colo;
	const char		*version, *ja3, *ja4;
	int			 status;
	int64_t			 asnum;
	size_t			 headers, nheaders;
	size_t			 cookies, ncookies;
};

enum sim_state {
	SIM_FREE, SIM_READ, SIM_EVALUATING, SIM_EVALUATED
};

struct sim_batch {
	enum sim_state		 state;
	struct sim_rec		*recs;		/* SIM_LINES at most */
	size_t			 nrecs;
	size_t			 recscap;
	char			*text;		/* SIM_TEXT at most */
	size_t			 textlen;
	size_t			 textcap;
	struct accesslog_pair	*pairs;
	size_t			 npairs;
	size_t			 pairscap;
	/* Evaluated: what each request counts, in its order. */
	struct sim_queued	*queued;
	size_t			 nqueued;
	size_t			 queuedcap;
	struct sim_pending	*pending;
	size_t			 npending;
	size_t			 pendingcap;
	struct sim_lookup	*lookups;
	size_t			 nlookups;
	size_t			 lookupscap;
	struct buf		 keys;
};

/*
 * Expressions that read the same fields are evaluated together (one
 * memo lookup gives all their results, expr_memo_new_set).
 */
#define SIM_GROUP_MAX	64

struct sim_group {
	const struct expr	*es[SIM_GROUP_MAX];
	size_t			 n;
};

/* What one thread evaluates with: expressions are shared, not this. */
struct sim_eval {
	struct expr_request	*rq;
	struct buf		 cookie;	/* a Cookie header */
	struct expr_memo	**memo;		/* per group */
	uint64_t		*results;	/* per group, of the request */
	uint64_t		 gen;		/* the request */
	uint64_t		*kgen;		/* per keyer: its lookup's */
	size_t			*klookup;	/* that lookup */
	uint64_t		*unknown;	/* per group, of the request */
	uint64_t		*nunknown;	/* per rule: requests unknown */
	struct accesslog_record	 rec;		/* of a sim_rec */
};


/* A batch; its lines (of the log) are given room as they come. */
static struct sim_batch *
sim_batch_new(void)
{
	return (xcalloc(1, sizeof (struct sim_batch)));
}

static void
sim_batch_free(struct sim_batch *b)
{
	if (b == NULL)
		return;
	free(b->recs);
	free(b->text);
	free(b->pairs);
	free(b->queued);
	free(b->pending);
	free(b->lookups);
	buf_free(&b->keys);
	free(b);
}

static struct sim_eval *
sim_eval_new(const struct simulate *sim)
{
	struct sim_eval	*ev;
	size_t		 i;

	ev = xcalloc(1, sizeof *ev);
	ev->rq = expr_request_new();
	ev->memo = xcalloc(sim->ngroups + 1, sizeof *ev->memo);
	ev->results = xcalloc(sim->ngroups + 1, sizeof *ev->results);
	for (i = 0; i < sim->ngroups; i++)
		ev->memo[i] = expr_memo_new_set(sim->groups[i].es,
		    sim->groups[i].n);
	ev->kgen = xcalloc(sim->nkeyers + 1, sizeof *ev->kgen);
	ev->klookup = xcalloc(sim->nkeyers + 1, sizeof *ev->klookup);
	ev->unknown = xcalloc(sim->ngroups + 1, sizeof *ev->unknown);
	ev->nunknown = xcalloc(sim->nrules + 1, sizeof *ev->nunknown);
	return (ev);
}

static void
sim_eval_free(const struct simulate *sim, struct sim_eval *ev)
{
	size_t	i;

	if (ev == NULL)
		return;
	for (i = 0; i < sim->ngroups; i++)
		expr_memo_free(ev->memo[i]);
	free(ev->memo);
	free(ev->results);
	free(ev->kgen);
	free(ev->klookup);
	free(ev->unknown);
	free(ev->nunknown);
	expr_request_free(ev->rq);
	buf_free(&ev->cookie);
	free(ev);
}

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
	k->index = sim->nkeyers;
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

/*
 * Lists live in the account and are not read: a request is taken as in
 * none of them, so what the rule counts is not known. Said once per list.
 */
static void
sim_lists_note(const struct expr *e, const char *who, char ***notes,
    size_t *nnotes)
{
	const char	*names[8];
	char		*note;
	size_t		 n, i;

	n = expr_lists(e, names, nitems(names));
	for (i = 0; i < n && i < nitems(names); i++) {
		xasprintf(&note, "%s: list $%s is not known here: requests are "
		    "taken as not in it, so the rule's counts are unknown, "
		    "not zero", who, names[i]);
		sim_note(notes, nnotes, note);
	}
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
	s = sim_string(rl, "counting_expression");
	if (s != NULL && *s != '\0') {
		if ((r->counting = sim_expr(s, 1, who, "counting_expression",
		    cause)) == NULL)
			return (-1);
		sim->headers |= sim_reads_headers(s);
	}
	sim_lists_note(r->expr, who, notes, nnotes);
	sim_lists_note(r->counting, who, notes, nnotes);
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
	if (r->expr != NULL)
		expr_free(r->expr);
	if (r->counting != NULL)
		expr_free(r->counting);
	free(r->id);
	free(r->description);
}

/* The group of an expression, with those that read the same fields. */
static void
sim_group(struct simulate *sim, const struct expr *e, size_t *group,
    unsigned *bit)
{
	struct sim_group	*g;
	size_t			 i;

	for (i = 0; i < sim->ngroups; i++) {
		g = &sim->groups[i];
		if (g->n < SIM_GROUP_MAX && expr_memo_same_fields(g->es[0], e))
			break;
	}
	if (i == sim->ngroups) {
		sim->groups = xreallocarray(sim->groups, sim->ngroups + 1,
		    sizeof *sim->groups);
		sim->groups[sim->ngroups++].n = 0;
	}
	g = &sim->groups[i];
	*group = i;
	*bit = (unsigned)g->n;
	g->es[g->n++] = e;
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
	for (i = 0; i < sim->nrules; i++) {
		r = &sim->rules[i];
		sim_group(sim, r->expr, &r->group, &r->bit);
		if (r->counting != NULL)
			sim_group(sim, r->counting, &r->cgroup, &r->cbit);
	}
	sim->eval = sim_eval_new(sim);
	sim->nunknown = sim->eval->nunknown;
	sim->one = sim_batch_new();
}

struct simulate *
simulate_new(const cJSON *rules, char ***notes, char **cause)
{
	struct simulate	*sim;
	const cJSON	*list = rules, *j;
	const char	*env;
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
	/* One thread on one processor, or on request to compare (edgetui(1),
	 * ENVIRONMENT). */
	env = getenv("EDGETUI_SIMULATE_THREADS");
	sim->threads = (env != NULL && strcmp(env, "1") == 0) ||
	    sysconf(_SC_NPROCESSORS_ONLN) == 1 ? 1 : 2;
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
	sim_eval_free(sim, sim->eval);
	free(sim->groups);
	sim_batch_free(sim->one);
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

size_t
simulate_bytes(const struct simulate *sim)
{
	size_t	i, n = 0;

	for (i = 0; i < sim->nkeyers; i++)
		n += simtab_bytes(sim->keyers[i]->tab);
	return (n);
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

/* n >= 0 in decimal into num (24 bytes), as "%lld" writes it: its length.
 * A printf for every request keyed on its network costs. */
static size_t
sim_decimal(int64_t n, char *num)
{
	char	tmp[24];
	size_t	len = 0, i;

	do {
		tmp[len++] = (char)('0' + n % 10);
		n /= 10;
	} while (n > 0);
	for (i = 0; i < len; i++)
		num[i] = tmp[len - 1 - i];
	num[len] = '\0';
	return (len);
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
			*len = sim_decimal(rec->asnum, num);
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

/*
 * The 128 first bits of the SHA-256 of a key written whole (each value as
 * 1, its bytes and 0; a missing one as a lone 0) into out.
 */
static void
sim_key_digest(size_t n, const char *const *v, const size_t *len,
    unsigned char out[SIM_KEY_DIGEST])
{
	static const char	 one = '\1', zero = '\0';
	unsigned char		 md[EVP_MAX_MD_SIZE];
	unsigned int		 mdlen;
	EVP_MD_CTX		*ctx;
	size_t			 i;

	if ((ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
		fatalx("simulate: SHA-256 unavailable");
	for (i = 0; i < n; i++) {
		if (v[i] != NULL) {
			EVP_DigestUpdate(ctx, &one, 1);
			EVP_DigestUpdate(ctx, v[i], len[i]);
		}
		EVP_DigestUpdate(ctx, &zero, 1);
	}
	if (EVP_DigestFinal_ex(ctx, md, &mdlen) != 1 || mdlen < SIM_KEY_DIGEST)
		fatalx("simulate: SHA-256 failed");
	EVP_MD_CTX_free(ctx);
	memcpy(out, md, SIM_KEY_DIGEST);
}

/*
 * A key as the table keeps it, added to the batch's keys: each value as 1,
 * its bytes and 0, a missing one as a lone 0. A key longer than
 * SIM_KEY_WHOLE (a path or a header can be a megabyte) is kept short, so
 * the counters grow with the clients and not with the log: each value cut
 * to its first SIM_KEY_SHOWN bytes (then 2, not 1, opens it, for the
 * report), and the whole key's digest after, which tells two clients
 * apart as the whole key would. No whole key is as long, so none is equal
 * to a short one.
 */
static void
sim_key(struct sim_batch *b, struct sim_lookup *l,
    const struct accesslog_record *rec)
{
	const struct sim_keyer	*k = l->keyer;
	const char	*v[SIM_CHARS_MAX];
	char		 num[SIM_CHARS_MAX][24], *o;
	size_t		 i, len[SIM_CHARS_MAX], total = 0, n;
	int		 whole;

	for (i = 0; i < k->nchars; i++) {
		v[i] = sim_value(&k->chars[i], rec, num[i], &len[i]);
		total += v[i] != NULL ? len[i] + 2 : 1;
	}
	if (!(whole = total <= SIM_KEY_WHOLE))
		total = k->nchars * (SIM_KEY_SHOWN + 2) + SIM_KEY_DIGEST;
	buf_reserve(&b->keys, total);
	l->off = b->keys.len;
	o = b->keys.data + l->off;
	for (i = 0; i < k->nchars; i++) {
		if (v[i] == NULL) {
			*o++ = '\0';
			continue;
		}
		if ((n = len[i]) > SIM_KEY_SHOWN && !whole) {
			/* Not inside a UTF-8 character. */
			for (n = SIM_KEY_SHOWN; n > 0 &&
			    ((unsigned char)v[i][n] & 0xc0) == 0x80; n--)
				continue;
			*o++ = '\2';
		} else
			*o++ = '\1';
		memcpy(o, v[i], n);
		o += n;
		*o++ = '\0';
	}
	if (!whole) {
		sim_key_digest(k->nchars, v, len, (unsigned char *)o);
		o += SIM_KEY_DIGEST;
	}
	l->len = (size_t)(o - (b->keys.data + l->off));
	b->keys.len += l->len;
	l->hash = sim_hash(b->keys.data + l->off, l->len);
}

/* Whether the rules can read the request (its URI, its host). */
static int
sim_readable(const struct accesslog_record *rec)
{
	return (expr_request_parts_ok(rec->scheme, rec->host, rec->uri));
}

/* The request as the expressions see it. */
static int
sim_fill(const struct simulate *sim, struct sim_eval *ev,
    const struct accesslog_record *rec)
{
	struct expr_request	*rq = ev->rq;
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
		buf_reset(&ev->cookie);
		for (i = 0; i < rec->ncookies; i++)
			buf_addf(&ev->cookie, "%s%s=%s", i == 0 ? "" : "; ",
			    rec->cookies[i].name, rec->cookies[i].value);
		expr_request_add_header(rq, "Cookie", buf_str(&ev->cookie));
	}
	return (0);
}

/* Whether a rule's expression or counting expression was unknown. */
static int
sim_unknown(const struct sim_eval *ev, const struct sim_rule *r)
{
	return ((ev->unknown[r->group] >> r->bit & 1) || (r->counting != NULL &&
	    (ev->unknown[r->cgroup] >> r->cbit & 1)));
}

/* A request's rules evaluated, what they count added to the batch. */
static int
sim_eval_one(const struct simulate *sim, struct sim_eval *ev,
    struct sim_batch *b, const struct accesslog_record *rec)
{
	struct sim_pending	*p;
	struct sim_lookup	*l;
	struct sim_queued	*q;
	struct sim_rule		*r;
	struct sim_keyer	*k;
	uint64_t		 unknown;
	size_t			 i;
	int			 matched, counted;

	if (sim_fill(sim, ev, rec) != 0)
		return (-1);
	if (b->nqueued == b->queuedcap) {
		b->queuedcap = b->queuedcap * 2 + SIM_CHUNK;
		b->queued = xreallocarray(b->queued, b->queuedcap,
		    sizeof *b->queued);
	}
	if (b->pendingcap - b->npending < sim->nrules) {
		b->pendingcap = b->pendingcap * 2 + sim->nrules;
		b->pending = xreallocarray(b->pending, b->pendingcap,
		    sizeof *b->pending);
	}
	if (b->lookupscap - b->nlookups < sim->nkeyers) {
		b->lookupscap = b->lookupscap * 2 + sim->nkeyers;
		b->lookups = xreallocarray(b->lookups, b->lookupscap,
		    sizeof *b->lookups);
	}
	ev->gen++;
	for (i = 0; i < sim->ngroups; i++)
		expr_memo_prefetch(ev->memo[i], ev->rq);
	for (i = 0, unknown = 0; i < sim->ngroups; i++) {
		ev->results[i] = expr_eval_memo_set(ev->memo[i], ev->rq);
		unknown |= ev->unknown[i] = expr_memo_unknown(ev->memo[i]);
	}
	for (i = 0; i < sim->nrules; i++) {
		r = &sim->rules[i];
		/* Neither matched nor counted, as before; but said. */
		if (unknown != 0 && sim_unknown(ev, r))
			ev->nunknown[i]++;
		matched = (int)(ev->results[r->group] >> r->bit & 1);
		counted = r->counting != NULL ?
		    (int)(ev->results[r->cgroup] >> r->cbit & 1) : matched;
		if (!matched && !counted)
			continue;
		k = r->keyer;
		if (ev->kgen[k->index] != ev->gen) {
			ev->kgen[k->index] = ev->gen;
			ev->klookup[k->index] = b->nlookups;
			l = &b->lookups[b->nlookups++];
			l->keyer = k;
			sim_key(b, l, rec);
		}
		p = &b->pending[b->npending++];
		p->rule = r;
		p->lookup = ev->klookup[k->index];
		p->matched = matched;
		p->counted = counted;
	}
	q = &b->queued[b->nqueued++];
	q->time = rec->time_ns;
	q->pend = b->npending;
	q->lend = b->nlookups;
	return (0);
}

/* A request of a batch as a record again. */
static const struct accesslog_record *
sim_rec_out(struct sim_eval *ev, const struct sim_batch *b,
    const struct sim_rec *sr)
{
	struct accesslog_record	*rec = &ev->rec;

	rec->time_ns = sr->time_ns;
	rec->ip = sr->ip;
	rec->host = sr->host;
	rec->method = sr->method;
	rec->uri = sr->uri;
	rec->scheme = sr->scheme;
	rec->user_agent = sr->user_agent;
	rec->referer = sr->referer;
	rec->country = sr->country;
	rec->colo = sr->colo;
	rec->version = sr->version;
	rec->ja3 = sr->ja3;
	rec->ja4 = sr->ja4;
	rec->status = sr->status;
	rec->asnum = sr->asnum;
	rec->nheaders = sr->nheaders;
	rec->ncookies = sr->ncookies;
	if (sr->nheaders > 0)
		memcpy(rec->headers, b->pairs + sr->headers,
		    sr->nheaders * sizeof *rec->headers);
	if (sr->ncookies > 0)
		memcpy(rec->cookies, b->pairs + sr->cookies,
		    sr->ncookies * sizeof *rec->cookies);
	return (rec);
}

static void
sim_eval_batch(const struct simulate *sim, struct sim_eval *ev,
    struct sim_batch *b)
{
	size_t	i;

	for (i = 0; i < b->nrecs; i++)
		/* The reader took readable requests only. */
		(void)sim_eval_one(sim, ev, b, sim_rec_out(ev, b,
		    &b->recs[i]));
}

/*
 * A batch is counted in chunks of SIM_CHUNK requests, each a step behind
 * the next in a pipeline: chunk c + 3's slots are asked for, chunk c + 2's
 * clients found (in the log's order) and their states asked for, chunk
 * c + 1's rings asked for, and chunk c applied, so each read has had a
 * step's time to arrive. A client found early is only an empty state.
 */
struct sim_span {
	size_t	q0, q1;		/* queued */
	size_t	l0, l1;		/* lookups */
	size_t	p0, p1;		/* pending */
};

static int
sim_span(const struct sim_batch *b, size_t c, struct sim_span *sp)
{
	sp->q0 = c * SIM_CHUNK;
	if (sp->q0 >= b->nqueued)
		return (0);
	sp->q1 = MINIMUM(sp->q0 + SIM_CHUNK, b->nqueued);
	sp->l0 = sp->q0 > 0 ? b->queued[sp->q0 - 1].lend : 0;
	sp->p0 = sp->q0 > 0 ? b->queued[sp->q0 - 1].pend : 0;
	sp->l1 = b->queued[sp->q1 - 1].lend;
	sp->p1 = b->queued[sp->q1 - 1].pend;
	return (1);
}

static void
sim_step_slots(struct sim_batch *b, size_t c)
{
	struct sim_span	sp;
	size_t		i;

	if (!sim_span(b, c, &sp))
		return;
	for (i = sp.l0; i < sp.l1; i++)
		simtab_prefetch(b->lookups[i].keyer->tab, b->lookups[i].hash);
}

static void
sim_step_find(struct sim_batch *b, size_t c)
{
	struct sim_pending	*p;
	struct sim_lookup	*l;
	struct sim_span		 sp;
	size_t			 i;

	if (!sim_span(b, c, &sp))
		return;
	for (i = sp.l0; i < sp.l1; i++) {
		l = &b->lookups[i];
		l->client = simtab_find(l->keyer->tab, l->hash,
		    b->keys.data + l->off, l->len);
	}
	for (p = b->pending + sp.p0; p < b->pending + sp.p1; p++)
		simtab_prefetch_state(p->rule->keyer->tab,
		    b->lookups[p->lookup].client, p->rule->at);
}

static void
sim_step_rings(struct sim_batch *b, size_t c)
{
	struct sim_pending	*p;
	struct sim_span		 sp;

	if (!sim_span(b, c, &sp))
		return;
	for (p = b->pending + sp.p0; p < b->pending + sp.p1; p++)
		simtab_prefetch_ring(p->rule->keyer->tab,
		    b->lookups[p->lookup].client, p->rule->at);
}

static void
sim_step_apply(struct simulate *sim, struct sim_batch *b, size_t c)
{
	struct sim_pending	*p;
	struct sim_rule		*r;
	struct sim_queued	*q;
	struct sim_span		 sp;
	int64_t			 t;
	int			 flags, any;

	if (!sim_span(b, c, &sp))
		return;
	p = b->pending + sp.p0;
	for (q = b->queued + sp.q0; q < b->queued + sp.q1; q++) {
		t = q->time;
		for (any = 0; p < b->pending + q->pend; p++) {
			r = p->rule;
			flags = simtab_apply(r->keyer->tab,
			    b->lookups[p->lookup].client, r->at, p->matched,
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
}

/* An evaluated batch counted; then it is empty. */
static void
sim_count(struct simulate *sim, struct sim_batch *b)
{
	size_t	c, n = (b->nqueued + SIM_CHUNK - 1) / SIM_CHUNK;

	sim_step_slots(b, 0);
	sim_step_slots(b, 1);
	sim_step_slots(b, 2);
	sim_step_find(b, 0);
	sim_step_find(b, 1);
	sim_step_rings(b, 0);
	for (c = 0; c < n; c++) {
		sim_step_slots(b, c + 3);
		sim_step_find(b, c + 2);
		sim_step_rings(b, c + 1);
		sim_step_apply(sim, b, c);
	}
	sim->requests += b->nqueued;
	b->nrecs = b->textlen = b->npairs = 0;
	b->nqueued = b->npending = b->nlookups = 0;
	buf_reset(&b->keys);
}

int
simulate_request(struct simulate *sim, const struct accesslog_record *rec)
{
	if (!sim_readable(rec) || sim_eval_one(sim, sim->eval, sim->one,
	    rec) != 0)
		return (-1);
	sim_count(sim, sim->one);
	return (0);
}

void
simulate_set_threads(struct simulate *sim, int threads)
{
	sim->threads = threads;
}

/* ---- the log, in batches ----------------------------------------------- */

/* A string of the record in the batch's copy of line (or a constant). */
static const char *
sim_moved(const char *s, const char *line, size_t len, const char *copy)
{
	uintptr_t	p = (uintptr_t)s, l = (uintptr_t)line;

	/* A constant may be anywhere: compared as numbers, not pointers. */
	if (s == NULL || p < l || p > l + len)
		return (s);
	return (copy + (p - l));
}

/* The batch's text in a larger buffer, its requests' strings moved. */
static void
sim_batch_grow(struct sim_batch *b, size_t need)
{
	struct sim_rec	*sr;
	char		*old = b->text, *text;
	size_t		 cap, i, last = b->textlen > 0 ? b->textlen - 1 : 0;

	cap = b->textcap > 0 ? b->textcap : SIM_TEXT_MIN;
	while (cap < need)
		cap *= 2;
	cap = MINIMUM(cap, SIM_TEXT);
	text = xmalloc(cap);
	if (b->textlen > 0)
		memcpy(text, old, b->textlen);
	for (i = 0; i < b->nrecs; i++) {
		sr = &b->recs[i];
		sr->ip = sim_moved(sr->ip, old, last, text);
		sr->host = sim_moved(sr->host, old, last, text);
		sr->method = sim_moved(sr->method, old, last, text);
		sr->uri = sim_moved(sr->uri, old, last, text);
		sr->scheme = sim_moved(sr->scheme, old, last, text);
		sr->user_agent = sim_moved(sr->user_agent, old, last, text);
		sr->referer = sim_moved(sr->referer, old, last, text);
		sr->country = sim_moved(sr->country, old, last, text);
		sr->colo = sim_moved(sr->colo, old, last, text);
		sr->version = sim_moved(sr->version, old, last, text);
		sr->ja3 = sim_moved(sr->ja3, old, last, text);
		sr->ja4 = sim_moved(sr->ja4, old, last, text);
	}
	for (i = 0; i < b->npairs; i++) {
		b->pairs[i].name = sim_moved(b->pairs[i].name, old, last,
		    text);
		b->pairs[i].value = sim_moved(b->pairs[i].value, old, last,
		    text);
	}
	free(old);
	b->text = text;
	b->textcap = cap;
}

/* The request just read copied into the batch; -1 when it is full. */
static int
sim_batch_add(struct sim_batch *b, const struct accesslog_record *rec,
    const char *line, size_t len)
{
	struct sim_rec	*sr;
	const char	*c;
	size_t		 i, need = rec->nheaders + rec->ncookies;

	if (b->nrecs == SIM_LINES || SIM_TEXT - b->textlen < len + 1)
		return (-1);
	if (b->textcap - b->textlen < len + 1)
		sim_batch_grow(b, b->textlen + len + 1);
	if (b->nrecs == b->recscap) {
		b->recscap = MINIMUM(b->recscap * 2 + 64, SIM_LINES);
		b->recs = xreallocarray(b->recs, b->recscap,
		    sizeof *b->recs);
	}
	if (b->pairscap - b->npairs < need) {
		b->pairscap = b->pairscap * 2 + need;
		b->pairs = xreallocarray(b->pairs, b->pairscap,
		    sizeof *b->pairs);
	}
	c = b->text + b->textlen;
	memcpy(b->text + b->textlen, line, len + 1);
	b->textlen += len + 1;
	sr = &b->recs[b->nrecs++];
	sr->time_ns = rec->time_ns;
	sr->ip = sim_moved(rec->ip, line, len, c);
	sr->host = sim_moved(rec->host, line, len, c);
	sr->method = sim_moved(rec->method, line, len, c);
	sr->uri = sim_moved(rec->uri, line, len, c);
	sr->scheme = sim_moved(rec->scheme, line, len, c);
	sr->user_agent = sim_moved(rec->user_agent, line, len, c);
	sr->referer = sim_moved(rec->referer, line, len, c);
	sr->country = sim_moved(rec->country, line, len, c);
	sr->colo = sim_moved(rec->colo, line, len, c);
	sr->version = sim_moved(rec->version, line, len, c);
	sr->ja3 = sim_moved(rec->ja3, line, len, c);
	sr->ja4 = sim_moved(rec->ja4, line, len, c);
	sr->status = rec->status;
	sr->asnum = rec->asnum;
	sr->headers = b->npairs;
	sr->nheaders = rec->nheaders;
	for (i = 0; i < rec->nheaders; i++) {
		b->pairs[b->npairs].name = sim_moved(rec->headers[i].name,
		    line, len, c);
		b->pairs[b->npairs++].value = sim_moved(rec->headers[i].value,
		    line, len, c);
	}
	sr->cookies = b->npairs;
	sr->ncookies = rec->ncookies;
	for (i = 0; i < rec->ncookies; i++) {
		b->pairs[b->npairs].name = sim_moved(rec->cookies[i].name,
		    line, len, c);
		b->pairs[b->npairs++].value = sim_moved(rec->cookies[i].value,
		    line, len, c);
	}
	return (0);
}

/*
 * The batches in flight: batch number n (from 0, in the log's order) is
 * ring[n % run->nring]. Each is read, then evaluated by either thread, then
 * counted when the one before it has been. All under lock.
 */
struct sim_run {
	struct simulate		*sim;
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
	pthread_t		 thread;
	int			 started;
	int			 stop;		/* the second thread ends */
	struct sim_eval		*eval;		/* the second thread's */
	struct sim_batch	*ring[SIM_RING];	/* NULL: not yet used */
	size_t			 nring;		/* of them used */
	uint64_t		 read;		/* batches handed over */
	uint64_t		 next_eval;
	uint64_t		 next_count;
	int			 counting;
};

/* Work for a thread, taken: 1 with *b and *count, 0 none. */
static int
sim_take(struct sim_run *run, struct sim_batch **b, int *count)
{
	struct sim_batch	*c;

	if (!run->counting && run->next_count < run->read) {
		c = run->ring[run->next_count % run->nring];
		if (c->state == SIM_EVALUATED) {
			run->counting = 1;
			*b = c;
			*count = 1;
			return (1);
		}
	}
	if (run->next_eval < run->read) {
		c = run->ring[run->next_eval++ % run->nring];
		c->state = SIM_EVALUATING;
		*b = c;
		*count = 0;
		return (1);
	}
	return (0);
}

/* The work taken done, the lock let go meanwhile. */
static void
sim_work(struct sim_run *run, struct sim_eval *ev, struct sim_batch *b,
    int count)
{
	pthread_mutex_unlock(&run->lock);
	if (count)
		sim_count(run->sim, b);
	else
		sim_eval_batch(run->sim, ev, b);
	pthread_mutex_lock(&run->lock);
	if (count) {
		b->state = SIM_FREE;
		run->next_count++;
		run->counting = 0;
	} else
		b->state = SIM_EVALUATED;
	pthread_cond_broadcast(&run->cond);
}

static void *
sim_thread(void *arg)
{
	struct sim_run		*run = arg;
	struct sim_batch	*b;
	int			 count;

	pthread_mutex_lock(&run->lock);
	while (!run->stop) {
		if (sim_take(run, &b, &count))
			sim_work(run, run->eval, b, count);
		else
			pthread_cond_wait(&run->cond, &run->lock);
	}
	pthread_mutex_unlock(&run->lock);
	return (NULL);
}

/*
 * The batch being read handed over; with wait, every batch counted after.
 * The second thread starts with the second batch: a short log is one
 * batch, done on this thread.
 */
static void
sim_hand_over(struct sim_run *run, struct sim_batch **cur, int wait)
{
	struct sim_batch	*b;
	int			 count;

	pthread_mutex_lock(&run->lock);
	if ((*cur)->nrecs > 0) {
		(*cur)->state = SIM_READ;
		run->read++;
		pthread_cond_broadcast(&run->cond);
		/* No thread (no resources): this one does it all. */
		if (!run->started && !wait && run->sim->threads > 1) {
			if (run->eval == NULL)
				run->eval = sim_eval_new(run->sim);
			if (pthread_create(&run->thread, NULL, sim_thread,
			    run) == 0)
				run->started = 1;
		}
	}
	/* Until the next batch is free (or all are): help, or wait. */
	for (;;) {
		b = run->ring[run->read % run->nring];
		if (wait ? run->next_count == run->read :
		    b == NULL || b->state == SIM_FREE)
			break;
		if (sim_take(run, &b, &count))
			sim_work(run, run->sim->eval, b, count);
		else
			pthread_cond_wait(&run->cond, &run->lock);
	}
	if (run->ring[run->read % run->nring] == NULL)
		run->ring[run->read % run->nring] = sim_batch_new();
	*cur = run->ring[run->read % run->nring];
	pthread_mutex_unlock(&run->lock);
}

/* The second thread stopped, the batches freed. */
static void
sim_run_end(struct sim_run *run)
{
	size_t	i;

	if (run->started) {
		pthread_mutex_lock(&run->lock);
		run->stop = 1;
		pthread_cond_broadcast(&run->cond);
		pthread_mutex_unlock(&run->lock);
		pthread_join(run->thread, NULL);
	}
	for (i = 0; run->eval != NULL && i < run->sim->nrules; i++)
		run->sim->rules[i].unknown += run->eval->nunknown[i];
	sim_eval_free(run->sim, run->eval);
	for (i = 0; i < SIM_RING; i++)
		sim_batch_free(run->ring[i]);
	pthread_cond_destroy(&run->cond);
	pthread_mutex_destroy(&run->lock);
}

int
simulate_log(struct simulate *sim, struct accesslog *log,
    simulate_progress_cb progress, void *arg, char **cause)
{
	const struct accesslog_record	*rec;
	struct sim_batch		*cur;
	struct sim_run			 run;
	const char			*line;
	size_t				 len;
	uint64_t			 n = 0, done, total;
	int				 rv;

	memset(&run, 0, sizeof run);
	run.sim = sim;
	pthread_mutex_init(&run.lock, NULL);
	pthread_cond_init(&run.cond, NULL);
	run.nring = sim->threads > 1 ? SIM_RING : 1;
	cur = run.ring[0] = sim_batch_new();
	while ((rv = accesslog_next(log, &rec, cause)) == 1) {
		if (!sim_readable(rec))
			accesslog_reject(log, "a URI the rules cannot read");
		else {
			line = accesslog_record_line(log, &len);
			if (sim_batch_add(cur, rec, line, len) != 0) {
				sim_hand_over(&run, &cur, 0);
				(void)sim_batch_add(cur, rec, line, len);
			}
		}
		if ((++n & 0xffff) == 0 && progress != NULL) {
			accesslog_progress(log, &done, &total);
			if (progress(arg, done, total) != 0) {
				*cause = xstrdup("cancelled");
				sim_run_end(&run);
				return (-1);
			}
		}
	}
	/* Cancelled or unreadable: what was read ahead is not evaluated. */
	if (rv == 0)
		sim_hand_over(&run, &cur, 1);
	sim_run_end(&run);
	return (rv);
}
