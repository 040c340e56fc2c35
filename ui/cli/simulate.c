/*
 * rules simulate: what the zone's rate limiting rules, or those of a file,
 * would have done to the requests of an access log (src/simulate.h), as a
 * table or as one JSON object.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "accesslog.h"
#include "api.h"
#include "http.h"
#include "kind.h"
#include "simulate.h"
#include "text.h"

#include "cli.h"

#define CLI_SIM_ENTRYPOINT \
	"/zones/{zone}/rulesets/phases/http_ratelimit/entrypoint"

/*
 * The zone's rules: its http_ratelimit entry point (a 404 means it has
 * none yet: an empty list).
 */
static int
cli_sim_zone_rules(struct cli *c, cJSON **rules)
{
	struct http_response	 resp;
	const cJSON		*list;
	char			*path, *cause = NULL;
	int			 rv, absent = 0;

	if ((path = api_path(CLI_SIM_ENTRYPOINT, c->vars, &cause)) == NULL) {
		rv = cli_error(HTTP_EXIT_USAGE, "the zone's rules: %s (give "
		    "--zone, or the rules with --rules FILE)", cause);
		free(cause);
		return (rv);
	}
	if ((rv = cli_connect(c)) != 0) {
		free(path);
		return (rv);
	}
	if ((rv = cli_get_absent(c, path, &resp, &absent)) == 0) {
		list = absent ? NULL : cJSON_GetObjectItemCaseSensitive(
		    resp.api.result, "rules");
		*rules = list != NULL ? cJSON_Duplicate(list, 1) :
		    cJSON_CreateArray();
	}
	http_response_free(&resp);
	free(path);
	return (rv);
}

/*
 * A string the log or the server wrote, fit for the terminal and, with a
 * width, cut to it and padded.
 */
static void
cli_sim_text(const char *s, size_t width)
{
	char	*text;

	text = width == 0 ? text_clean(s) : text_cell(s, width, NULL);
	fputs(text, stdout);
	free(text);
}

static void
cli_sim_table(const struct simulate_report *rep)
{
	const struct simulate_rule_report	*r;
	char					 when[48];
	size_t					 i, j;

	printf("%llu lines, %llu bad, %llu requests; %llu mitigated by at "
	    "least one rule\n", (unsigned long long)rep->lines,
	    (unsigned long long)rep->bad_lines,
	    (unsigned long long)rep->requests,
	    (unsigned long long)rep->mitigated_by_any);
	for (i = 0; i < rep->nbad; i++) {
		printf("  bad line %llu: %s: ",
		    (unsigned long long)rep->bad[i].line, rep->bad[i].why);
		cli_sim_text(rep->bad[i].text, 0);
		putchar('\n');
	}
	if (rep->nrules == 0) {
		printf("no rules\n");
		return;
	}
	printf("\n%-3s %-24s %9s %9s %8s %9s %10s  %s\n", "#", "RULE",
	    "MATCHED", "COUNTED", "CLIENTS", "CLIENTS_M", "MITIGATED",
	    "FIRST MITIGATION");
	for (i = 0; i < rep->nrules; i++) {
		r = &rep->rules[i];
		if (r->first_mitigation >= 0)
			simulate_time_text(r->first_mitigation, when,
			    sizeof when);
		else
			snprintf(when, sizeof when, "-");
		printf("%-3zu ", i + 1);
		cli_sim_text(*r->description != '\0' ? r->description :
		    r->id, 24);
		printf(" %9llu %9llu %8llu %9llu %10llu  %s%s\n",
		    (unsigned long long)r->matched,
		    (unsigned long long)r->counted,
		    (unsigned long long)r->clients,
		    (unsigned long long)r->clients_mitigated,
		    (unsigned long long)r->requests_mitigated, when,
		    r->enabled ? "" : " (disabled)");
	}
	for (i = 0; i < rep->nrules; i++) {
		if (rep->rules[i].unknown == 0)
			continue;
		printf("rule %zu: %llu requests unknown: a regex reached its "
		    "matching limits (neither matched nor counted)\n", i + 1,
		    (unsigned long long)rep->rules[i].unknown);
	}
	for (i = 0; i < rep->nrules; i++) {
		r = &rep->rules[i];
		if (r->ntop == 0)
			continue;
		printf("\nrule %zu: top clients\n  %-40s %9s %10s\n", i + 1,
		    "CLIENT", "REQUESTS", "MITIGATED");
		for (j = 0; j < r->ntop; j++) {
			printf("  ");
			cli_sim_text(r->top[j].client, 40);
			printf(" %9llu %10llu\n",
			    (unsigned long long)r->top[j].requests,
			    (unsigned long long)r->top[j].mitigated);
		}
	}
}

static int
cli_sim_run(struct cli *c, cJSON *rules)
{
	const struct cli_opts	*o = c->o;
	struct accesslog_options lo;
	struct simulate_report	 rep;
	struct simulate		*sim;
	struct accesslog	*log = NULL;
	const struct accesslog_bad *bad;
	cJSON			*json;
	char			*cause = NULL, **notes = NULL;
	size_t			 i, nbad;
	int			 rv = HTTP_EXIT_USAGE;

	memset(&lo, 0, sizeof lo);
	lo.host = o->sim_host;
	lo.scheme = o->sim_scheme;
	if (o->sim_format != NULL &&
	    accesslog_format_parse(o->sim_format, &lo.format) != 0)
		return (cli_usage_error("--format: '%s' is not logpush or "
		    "combined", o->sim_format));
	if ((sim = simulate_new(rules, &notes, &cause)) == NULL) {
		cli_error(rv, "%s", cause);
		goto out;
	}
	for (i = 0; notes != NULL && notes[i] != NULL; i++)
		fprintf(stderr, "edgetui: note: %s\n", notes[i]);
	if ((log = accesslog_open(o->sim_log, &lo, &cause)) == NULL ||
	    simulate_log(sim, log, NULL, NULL, &cause) != 0) {
		cli_error(rv, "%s", cause);
		goto out;
	}
	simulate_report(sim, log, &rep);
	if (c->out == CLI_OUT_TABLE)
		cli_sim_table(&rep);
	else {
		/* stdout holds the report alone: the bad lines go here. */
		bad = accesslog_bad(log, &nbad);
		for (i = 0; i < nbad; i++)
			fprintf(stderr, "edgetui: %s: line %llu: %s\n",
			    o->sim_log, (unsigned long long)bad[i].line,
			    bad[i].why);
		json = simulate_report_json(&rep);
		if (c->out == CLI_OUT_JSON)
			cli_print_json(json);
		else
			cli_print_yaml(json);
		cJSON_Delete(json);
	}
	simulate_report_free(&rep);
	rv = HTTP_EXIT_OK;
out:
	accesslog_close(log);
	simulate_free(sim);
	simulate_notes_free(notes);
	free(cause);
	return (rv);
}

int
cli_cmd_rules_simulate(struct cli *c, const struct kind *k, int argc,
    char **argv)
{
	const struct cli_opts	*o = c->o;
	cJSON			*rules = NULL;
	char			*cause = NULL;
	int			 rv;

	(void)k;
	(void)argc;
	(void)argv;
	if (o->sim_log == NULL)
		return (cli_usage_error("rules simulate: --log FILE is needed "
		    "('-' reads stdin)"));
	if (o->sim_rules != NULL && strcmp(o->sim_rules, "-") == 0 &&
	    strcmp(o->sim_log, "-") == 0)
		return (cli_usage_error("rules simulate: --rules and --log "
		    "cannot both read stdin"));
	if (o->sim_rules != NULL) {
		if ((rules = cli_read_body(o->sim_rules, &cause)) == NULL) {
			rv = cli_error(HTTP_EXIT_USAGE, "--rules %s", cause);
			free(cause);
			return (rv);
		}
	} else if ((rv = cli_sim_zone_rules(c, &rules)) != 0)
		return (rv);
	rv = cli_sim_run(c, rules);
	cJSON_Delete(rules);
	return (rv);
}
