/*
 * The report of a simulation (simulate.h): each rule's counts and top
 * clients, read off its table of counters, as a struct and as JSON.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "accesslog.h"
#include "buf.h"
#include "civil.h"
#include "common.h"
#include "jsonutil.h"
#include "simulate.h"
#include "simulate_int.h"
#include "simulate_table.h"
#include "xmalloc.h"

/* ---- the report -------------------------------------------------------- */

/*
 * The values other than the colo, then the colo in parentheses. A value
 * the key kept only the first bytes of (2 opens it) ends with "...".
 */
static char *
sim_client_text(const struct sim_keyer *k, const char *key)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*colo = NULL, *colo_cut = "", *cut;
	size_t		 i;

	for (i = 0; i < k->nchars; i++) {
		const char	*v = *key == '\1' || *key == '\2' ? key + 1 :
				    NULL;

		cut = *key == '\2' ? "..." : "";
		key += v != NULL ? strlen(v) + 2 : 1;
		if (k->chars[i].kind == SC_COLO) {
			colo = v;
			colo_cut = cut;
			continue;
		}
		if (b.len > 0)
			buf_addc(&b, ' ');
		buf_adds(&b, v != NULL ? v : "-");
		buf_adds(&b, cut);
	}
	if (colo != NULL)
		buf_addf(&b, "%s(%s%s)", b.len > 0 ? " " : "", colo, colo_cut);
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
sim_rule_report(const struct sim_rule *r, uint64_t nunknown,
    struct simulate_rule_report *out)
{
	const struct simtab	*tab = r->keyer->tab;
	struct sim_ranked	 top[SIMULATE_TOP], e;
	size_t			 i, j, n = 0, nclients = simtab_clients(tab);

	out->id = xstrdup(r->id);
	out->description = xstrdup(r->description);
	out->enabled = r->enabled;
	out->matched = r->matched;
	out->counted = r->counted;
	out->unknown = r->unknown + nunknown;
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
		sim_rule_report(&sim->rules[i], sim->nunknown[i],
		    &rep->rules[i]);
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
		cJSON_AddNumberToObject(jr, "unknown", (double)r->unknown);
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
