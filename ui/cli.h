/*
 * The one-shot commands (ui/cli/, one file per command): what main.c
 * parsed from the arguments, and one entry point that runs a command and
 * returns its exit status (HTTP_EXIT_*).
 */
#ifndef EDGE_CLI_H
#define EDGE_CLI_H

#include <stddef.h>
#include <stdio.h>

#define CLI_MAX_FILTERS	32
#define CLI_MAX_FIELDS	16
#define CLI_MAX_HEADERS	64

struct option;

/* Every option a command can take; main.c fills it, ui/cli/ checks it. */
struct cli_opts {
	const struct option *options;	/* main.c's table, for completion */
	const char	*profile;
	const char	*base_url;
	const char	*account;
	const char	*zone;
	const char	*video;
	const char	*output;	/* table json yaml, or NULL: config */
	const char	*config;
	const char	*theme;		/* the console's --theme */
	int		 readonly;
	int		 verbose;

	/* Command options; seen is a mask of CLI_OPT_* given. */
	unsigned	 seen;
	const char	*file;		/* -f */
	long		 limit;
	const char	*filters[CLI_MAX_FILTERS];	/* NAME=VALUE */
	size_t		 nfilters;
	const char	*name;
	/* Form fields of a multipart create (--opacity 0.5, --validation). */
	struct cli_field {
		const char	*option;	/* without "--" */
		const char	*value;		/* "true" for a flag */
	}		 fields[CLI_MAX_FIELDS];
	size_t		 nfields;
	int		 yes;
	const char	*creator;	/* upload --creator */
	int		 require_signed;	/* upload --require-signed-urls */
	long long	 chunk_size;	/* upload --chunk-size; 0: config */
	int		 again;		/* upload --again */
	int		 apply;		/* migrate --apply */
	int		 disable_legacy; /* migrate --disable-legacy */

	/* expr and rules: the plan, and a request as the rules see it. */
	const char	*plan;		/* --plan */
	int		 counting;	/* --counting */
	const char	*request;	/* --request 'METHOD URL' */
	const char	*ip;		/* --ip */
	const char	*headers[CLI_MAX_HEADERS];	/* -H 'Name: value' */
	size_t		 nheaders;
	const char	*country;	/* --country */
	int		 status;	/* --status; 0: none */
	int		 explain;	/* --explain */
	/* rules simulate --log --format --rules --host --scheme */
	const char	*sim_log, *sim_format, *sim_rules, *sim_host, *sim_scheme;
	/* upload --from-url, clip --start --end, download --type --delete */
	const char	*from_url, *clip_start, *clip_end, *dl_type;
	int		 dl_delete;
	/* token: --key-id --pem FILE --expires --downloadable --allow-ip... */
	struct cli_token_opts {
		const char	*key_id, *pem_file, *expires;
		int		 downloadable;
		const char	*allow_ips[CLI_MAX_FILTERS];
		size_t		 nallow_ips;
		const char	*block_countries[CLI_MAX_FILTERS];
		size_t		 nblock_countries;
	}		 token;
};

#define CLI_OPT_FILE		0x001
#define CLI_OPT_LIMIT		0x002
#define CLI_OPT_FILTER		0x004
#define CLI_OPT_NAME		0x008
#define CLI_OPT_FIELD		0x010	/* a form field: --opacity --validation... */
#define CLI_OPT_YES		0x040
#define CLI_OPT_UPLOAD		0x080	/* --creator --require-signed-urls --chunk-size --again */
#define CLI_OPT_WAIT		0x100
#define CLI_OPT_MIGRATE		0x200	/* --apply --disable-legacy */
#define CLI_OPT_PLAN		0x1000	/* --plan --counting */
#define CLI_OPT_REQUEST		0x2000	/* --request --ip -H --country */
#define CLI_OPT_STATUS		0x4000	/* --status */
#define CLI_OPT_EXPLAIN		0x8000
#define CLI_OPT_SIMULATE	0x10000	/* --log --format --rules --host --scheme */
#define CLI_OPT_CLIP		0x20000	/* --start --end */
#define CLI_OPT_DOWNLOAD	0x40000	/* --type --delete */
#define CLI_OPT_TOKEN		0x100000 /* token: --key-id --pem --expires... */

/* One option of token (its long name) into o; -1 after the message. */
int	 cli_token_option(struct cli_opts *, const char *, const char *);
/* Whether name is a one-shot command. */
int	 cli_is_command(const char *);
/* --help's list of commands, from the command table. */
void	 cli_usage_commands(FILE *);
/* The usage error for a command that is not one, naming those that are. */
int	 cli_unknown_command(const char *);
/*
 * Run command (argv[0]) with its arguments; returns the exit status. The
 * program has called curl_global_init.
 */
int	 cli_run(const struct cli_opts *, int, char **);
/* "edgetui: " and a message on stderr, and the hint to --help. */
int	 cli_usage_error(const char *, ...)
	     __attribute__((__format__(__printf__, 1, 2)));

#endif
