/*
 * What the one-shot commands under ui/cli/ share: the state of a run
 * (struct cli), the command table that main.c's dispatch and --help are
 * generated from, and the helpers one command file lends another.
 */
#ifndef EDGE_CLI_CLI_H
#define EDGE_CLI_CLI_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "../cli.h"
#include "api.h"
#include "common.h"
#include "configfile.h"
#include "edge_session.h"
#include "expr.h"
#include "http.h"
#include "kind.h"
#include "validate.h"

struct buf;
struct budget;
struct edit;
struct journal;

enum cli_output {
	CLI_OUT_TABLE,
	CLI_OUT_JSON,
	CLI_OUT_YAML
};

/* What every command that talks to the server shares. */
struct cli {
	const struct cli_opts	*o;
	struct config		*cfg;
	struct edge_overrides	 over;		/* from o */
	struct edge_session	 session;	/* token: cli_connect's */
	struct http_client	*http;
	enum cli_output		 out;
	struct api_var		 vars[EDGE_SCOPE_NVARS]; /* the scope's */
	struct journal		*journal;
	int			 journal_tried;
};

/*
 * One command. argc/argv of run start at the kind when the command takes
 * one (min_args > 0 and not no_kind), else at the command's name (its
 * last word).
 */
typedef int (*cli_run_cb)(struct cli *, const struct kind *, int, char **);
/*
 * Why a command refuses a kind, after its name ("cannot be created"), or
 * NULL when it takes it: checked before the command runs, and what the
 * completion script offers after it, so the two cannot differ.
 */
typedef const char *(*cli_refuses_cb)(const struct kind *);

struct cli_command {
	const char	*name;
	const char	*synopsis;	/* after "edgetui ": usage and --help */
	const char	*summary;	/* --help; lines split at '\n' */
	void		(*more_help)(struct buf *);	/* more summary lines */
	unsigned	 flags;		/* CLI_OPT_* it accepts */
	int		 mutates;	/* refused when read-only */
	int		 min_args;	/* after the command, kind included */
	int		 max_args;	/* -1: any */
	int		 no_kind;	/* its arguments are no KIND */
	int		 no_setup;	/* reads no config: run does */
	int		 hidden;	/* not in --help (__complete) */
	cli_refuses_cb	 refuses;	/* NULL: every kind */
	cli_run_cb	 run;
};

extern const struct cli_command	cli_commands[];
extern const size_t		cli_ncommands;

/* complete.c: the long options (spaced) each CLI_OPT_* bit stands for. */
struct cli_complete_group {
	unsigned	 flag;
	const char	*names;
};
extern const struct cli_complete_group	cli_complete_groups[];
extern const size_t			cli_complete_ngroups;
void	 cli_complete_script(FILE *, const struct option *, int);
int	 cli_cmd_completion(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_complete(struct cli *, const struct kind *, int, char **);

/* config_init.c */
int	 cli_cmd_config_init(struct cli *, const struct kind *, int, char **);

/* A table being printed: the columns shown and their widths. */
struct cli_table {
	const struct kind		*kind;
	const struct kind_column	*cols[32];
	int				 widths[32];
	size_t				 ncols;
	struct kind_column		 id_col;
	int				 fitted;	/* widths set */
	int				 cut;	/* cells cut to them */
};

/* table.c */
const struct cli_command *cli_command_find(const char *);
const struct cli_command *cli_command_lookup(int, char **, int *);
int	 cli_unknown_subcommand(const char *, const char *);

/* setup.c */
int	 cli_error(int, const char *, ...) printflike(2, 3);
int	 cli_setup(struct cli *);
int	 cli_connect(struct cli *);
int	 cli_connect_upload(struct cli *, struct http_client **);
void	 cli_teardown(struct cli *);

/* cause.c */
char	*cli_cause(const struct http_response *, const char *, enum status);

/*
 * classic.c: a server without the current Schema Validation API. Whether
 * an answer says so; the hint a failure's message then ends with (NULL
 * for any other); get validation-schemas as user-schemas (*kind); set and
 * clear's map by the classic bulk PATCH.
 */
int	 cli_classic_no_route(const struct http_response *);
const char *cli_classic_hint(const struct http_response *);
int	 cli_classic_list_kind(struct cli *, const struct kind **);
int	 cli_classic_set(struct cli *, const cJSON *, struct http_response *);

/* request.c */
int	 cli_get_absent(struct cli *, const char *, struct http_response *,
	     int *);
/* cli_send_json where an answer of that HTTP status is no error (*hit). */
int	 cli_send_json_quiet(struct cli *, const char *, const char *,
	     const cJSON *, struct http_response *, long, int *);
int	 cli_send(struct cli *, const struct http_request *,
	     struct http_response *);
int	 cli_get(struct cli *, const char *, struct http_response *);
int	 cli_send_json(struct cli *, const char *, const char *,
	     const cJSON *, struct http_response *);
void	 cli_journal(struct cli *, const char *, const char *, long,
	     const cJSON *, const cJSON *);

/* output.c */
void	 cli_table_init(struct cli_table *, const struct kind *);
void	 cli_table_header(struct cli_table *);
void	 cli_table_row(const struct cli_table *, const cJSON *);
void	 cli_print_json(const cJSON *);
void	 cli_print_json_item(const cJSON *);
void	 cli_print_yaml(const cJSON *);
void	 cli_print_record(struct cli *, const struct kind *, const cJSON *);

/*
 * fit.c: the width tables fit (COLUMNS, else the terminal's; 0: none
 * known, nothing is cut), and the columns' widths for it from the first
 * records to print (cli_table_header fits them to none when not done).
 */
int	 cli_term_width(void);
void	 cli_table_fit(struct cli_table *, const cJSON *const *, size_t);
void	 cli_table_fit_list(struct cli_table *, const cJSON *);
/* The same from each column's widest cell (-1: none measured), for a
 * width (0: none). */
void	 cli_table_fit_widths(struct cli_table *, const int *, int);

/*
 * join.c: a table of records that only name another's id (an operation's
 * validation action) shows that record's fields too: the kind to print
 * them with, and the records filled by reading each named one. Tables
 * only: k itself and nothing read for -o json or yaml.
 */
const struct kind *cli_join_kind(const struct cli *, const struct kind *);
void	 cli_join(struct cli *, const struct kind *, cJSON *const *, size_t);

/* body.c */
char	*cli_read_text(const char *, size_t *, char **);
cJSON	*cli_read_body(const char *, char **);
int	 cli_validate(const struct kind *, const cJSON *, enum validate_mode);

/*
 * delete.c, also for rules.c: a record deleted said (with -o json|yaml on
 * stderr, the record kept in list), and the list printed at the end.
 */
void	 cli_deleted(struct cli *, const struct kind *, const char *,
	     const cJSON *, cJSON *);
void	 cli_deleted_print(struct cli *, const cJSON *);

/* update.c, also for edit and delete */
char	*cli_item_path(struct cli *, const struct kind *, const char *,
	     int *);
int	 cli_apply(struct cli *, const struct kind *, const char *,
	     const char *, const cJSON *, const cJSON *);
int	 cli_fetch(struct cli *, const struct kind *, const char *, cJSON **);

/*
 * write.c: the writes of a whole record. cli_fetch_fresh: the server's
 * copy of record id now (its GET, or found in its list). cli_conflict:
 * the conflicts said on stderr and the choice asked on the terminal
 * (CLI_PICK_NONE: --yes or no terminal, after saying how to go on).
 * cli_write: mine, a change of base (NULL: a whole record given in a
 * file), merged into theirs (NULL: read first) and sent; a conflict asks.
 */
struct merge;
enum cli_pick {
	CLI_PICK_THEIRS,
	CLI_PICK_MINE,
	CLI_PICK_EDIT,
	CLI_PICK_QUIT,
	CLI_PICK_NONE
};
int	 cli_fetch_fresh(struct cli *, const struct kind *, const char *,
	     const char *, cJSON **);
enum cli_pick cli_conflict(struct cli *, const char *, const struct merge *,
	     int);
int	 cli_write(struct cli *, const struct kind *, const char *,
	     const char *, const cJSON *, const cJSON *, const cJSON *);

/* The commands: one file each. */
int	 cli_cmd_get(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_create(struct cli *, const struct kind *, int, char **);
void	 cli_create_help(struct buf *);
int	 cli_cmd_update(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_edit(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_delete(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_upload(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_download(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_kinds(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_set(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_clear(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_enable(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_disable(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_migrate(struct cli *, const struct kind *, int, char **);
/* token.c; and a new signing key's PEM remembered for it (create). */
int	 cli_cmd_token(struct cli *, const struct kind *, int, char **);
void	 cli_token_remember(struct cli *, const struct kind *, const cJSON *);

/* edit.c, also for rules.c */
int	 cli_edit_loop(struct edit *, cJSON **);
int	 cli_confirm(const char *);

/*
 * rules.c: the verbs of kinds read and written through the zone's entry
 * point (rate-limit-rules, rule-versions); NULL for the generic ones.
 */
cli_run_cb cli_rules_run(const struct cli_command *, const struct kind *);
/* Whether the kind is read and written through the entry point. */
int	 cli_rules_kind(const struct kind *);
int	 cli_cmd_rules_test(struct cli *, const struct kind *, int, char **);

/* stream.c: upload --from-url, clip, embed, caption upload|generate|vtt */
int	 cli_stream_copy(struct cli *, int);
int	 cli_cmd_clip(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_embed(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_caption_upload(struct cli *, const struct kind *, int,
	     char **);
int	 cli_cmd_caption_generate(struct cli *, const struct kind *, int,
	     char **);
int	 cli_cmd_caption_vtt(struct cli *, const struct kind *, int, char **);

/* simulate.c */
int	 cli_cmd_rules_simulate(struct cli *, const struct kind *, int,
	     char **);

/* expr.c */
int	 cli_cmd_expr_check(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_expr_fmt(struct cli *, const struct kind *, int, char **);
int	 cli_cmd_expr_eval(struct cli *, const struct kind *, int, char **);
/* The plan: --plan, else the profile's; -1 after the message. */
int	 cli_expr_plan(struct cli *, enum expr_plan *);
/* The request of --request, --ip, -H, --country (and --status). */
struct expr_request *cli_expr_request(struct cli *, int *);
/* The expression's error on stderr as expression:1:COL, and a caret. */
void	 cli_expr_error(const char *, const struct expr_error *);

#endif
