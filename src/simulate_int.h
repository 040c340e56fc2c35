/*
 * What simulate.c and simulate_report.c share of a simulation: the rules
 * as read, each with its counts, and the lists of characteristics whose
 * tables of counters the report reads its top clients from.
 */
#ifndef EDGE_SIMULATE_INT_H
#define EDGE_SIMULATE_INT_H

#include <stddef.h>
#include <stdint.h>

#define SIM_NS		1000000000LL

struct expr;
struct simtab;
struct sim_group;
struct sim_eval;
struct sim_batch;

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
	size_t		 index;		/* in simulate's keyers */
};

struct sim_rule {
	char			*id;
	char			*description;
	int			 enabled;
	struct expr		*expr;
	struct expr		*counting;	/* NULL: expr counts */
	struct sim_keyer	*keyer;
	size_t			 group;		/* of expr's result */
	size_t			 cgroup;	/* of counting's */
	unsigned		 bit;		/* in the group's results */
	unsigned		 cbit;
	int64_t			 period;	/* ns */
	int64_t			 timeout;	/* ns; 0 throttles */
	uint32_t		 limit;		/* requests_per_period */
	size_t			 at;		/* its place in keyer->tab */

	uint64_t		 matched;
	uint64_t		 counted;
	uint64_t		 clients;
	uint64_t		 clients_mitigated;
	uint64_t		 mitigated;
	uint64_t		 unknown;	/* from other threads */
	int64_t			 first;		/* ns; -1 none */
};

struct simulate {
	struct sim_rule		*rules;
	size_t			 nrules;
	struct sim_keyer	**keyers;
	size_t			 nkeyers;
	struct sim_group	*groups;
	size_t			 ngroups;
	struct sim_eval		*eval;		/* the caller's */
	const uint64_t		*nunknown;	/* its counts, per rule */
	struct sim_batch	*one;		/* simulate_request's */
	unsigned		 headers;	/* SIM_H_*: what rules read */
	int			 threads;
	uint64_t		 requests;
	uint64_t		 any;
};

#endif
