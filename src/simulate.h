/*
 * What rate limiting rules would have done to real traffic: the requests
 * of an access log (accesslog.h) run through each rule on its own, with
 * sliding windows of the log's own times per combination of the rule's
 * characteristics. Memory grows with the distinct clients, not the log.
 *
 * The semantics (also in edgetui(1), "rules simulate"):
 * - a request counts for a rule when it matches the rule's counting
 *   expression (its expression when there is none); the counter is per
 *   value of the rule's characteristics;
 * - a counted request is over the limit when the requests_per_period
 *   counted requests of its characteristics before it in the log all
 *   arrived less than period seconds before it;
 * - mitigation_timeout T > 0: an over-limit request outside a mitigation
 *   starts one of T seconds, in which every request of those
 *   characteristics that matches the expression is mitigated; T = 0: the
 *   over-limit requests that match the expression are.
 */
#ifndef EDGE_SIMULATE_H
#define EDGE_SIMULATE_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "accesslog.h"

#define SIMULATE_TOP	10	/* top clients kept per rule */

struct simulate_client {
	char		*client;	/* the characteristics' values */
	uint64_t	 requests;	/* the rule matched or counted them */
	uint64_t	 mitigated;
};

struct simulate_rule_report {
	char			*id;		/* id, else ref, else "" */
	char			*description;
	int			 enabled;
	uint64_t		 matched;
	uint64_t		 counted;
	/* Requests whose expression or counting expression was neither
	 * true nor false (a regex reached its matching limits): taken as
	 * neither matched nor counted. */
	uint64_t		 unknown;
	uint64_t		 clients;
	uint64_t		 clients_mitigated;
	uint64_t		 requests_mitigated;
	int64_t			 first_mitigation;	/* ns; -1: none */
	struct simulate_client	 top[SIMULATE_TOP];
	size_t			 ntop;
};

struct simulate_report {
	uint64_t			 lines;
	uint64_t			 bad_lines;
	uint64_t			 requests;
	uint64_t			 mitigated_by_any;
	struct accesslog_bad		 bad[ACCESSLOG_BAD_KEPT];
	size_t				 nbad;
	struct simulate_rule_report	*rules;		/* in the order given */
	size_t				 nrules;
};

struct simulate;

/*
 * The rules: a list of rule objects as the API returns them, a ruleset
 * (its "rules"), or one rule. NULL with *cause for a rule that cannot be
 * simulated (no expression, one that does not parse, no ratelimit...).
 * Notes for the user (a characteristic no log carries) go to *notes, a
 * NULL-ended list the caller frees with simulate_notes_free; notes may
 * be NULL.
 */
struct simulate	*simulate_new(const cJSON *, char ***, char **);
void		 simulate_free(struct simulate *);
void		 simulate_notes_free(char **);
size_t		 simulate_nrules(const struct simulate *);

/* One request through every rule (for the log loop and the tests);
 * -1 when the request has no URI the rules can read. */
int		 simulate_request(struct simulate *,
		     const struct accesslog_record *);

/* Bytes the counters hold: what grows with the log's clients. */
size_t		 simulate_bytes(const struct simulate *);

/* Threads simulate_log may use (2 unless said; 1 runs it all on the
 * caller's): the report is the same. */
void		 simulate_set_threads(struct simulate *, int);

/*
 * Every request of the log. progress (may be NULL) is called every 64 Ki
 * lines with bytes read and the file's size (0 unknown); a non-zero
 * return stops the run (-1, *cause "cancelled"). -1 with *cause when the
 * log could not be read to its end.
 */
typedef int	(*simulate_progress_cb)(void *, uint64_t, uint64_t);
int		 simulate_log(struct simulate *, struct accesslog *,
		     simulate_progress_cb, void *, char **);

/* The report so far; log may be NULL (lines and bad lines then 0). */
void		 simulate_report(const struct simulate *,
		     const struct accesslog *, struct simulate_report *);
void		 simulate_report_free(struct simulate_report *);
/* {"lines", "bad_lines", "requests_mitigated_by_any", "rules": [...]} */
cJSON		*simulate_report_json(const struct simulate_report *);
/* RFC 3339 UTC, the fraction only when there is one. */
void		 simulate_time_text(int64_t, char *, size_t);

#endif
