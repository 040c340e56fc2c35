/*
 * The Rules language of rate limiting rules: parse and check an expression
 * against the scheme (fields, functions, a plan's limits), write it back in
 * canonical form, and evaluate it against a request, optionally explaining
 * each comparison. No I/O; edgetui and edgemu both link it (libbase).
 *
 * Life of an expression:
 *	struct expr_error err;
 *	struct expr *e = expr_parse(text, &opts, &err);	  compile once
 *	struct expr_request *rq = expr_request_new();	  reuse per request
 *	expr_request_set(rq, "GET", "https://example.com/a?b=1");
 *	expr_request_add_header(rq, "User-Agent", "curl/8");
 *	if (expr_eval(e, rq) == 1) ...			  no allocation
 *	expr_request_free(rq); expr_free(e);
 *
 * A compiled expression is immutable and may be shared by threads; a
 * request object (which owns the scratch space evaluation needs) belongs to
 * one thread at a time.
 */
#ifndef EDGE_EXPR_H
#define EDGE_EXPR_H

#include <stddef.h>
#include <stdint.h>

#define EXPR_MAX_LENGTH	4096	/* characters in one expression */

/* Plans restrict fields, functions and operators (api-map-next 11.4, 12.2). */
enum expr_plan {
	EXPR_PLAN_NONE = 0,	/* language only: no plan limits */
	EXPR_PLAN_FREE,
	EXPR_PLAN_PRO,
	EXPR_PLAN_BUSINESS,
	EXPR_PLAN_ENTERPRISE,
};

/* "free", "pro", "business", "enterprise" (any case); -1 when unknown. */
int		 expr_plan_parse(const char *, enum expr_plan *);
const char	*expr_plan_name(enum expr_plan);	/* "free"...; "any" for NONE */
/* "Free", "Pro", "Business"; "Enterprise" for the rest (messages). */
const char	*expr_plan_title(enum expr_plan);

struct expr_options {
	enum expr_plan	plan;
	int		counting;	/* a counting expression: http.response.* allowed */
};

/* Why text was refused: where (1-based character column) and a message a
 * person understands. */
struct expr_error {
	int	 column;		/* 1-based; 0 when not about a place */
	int	 length;		/* characters the problem spans, >= 1 */
	char	 message[256];	/* "unknown field 'http.hostt' (did you mean http.host?)" */
};

struct expr;

/* Parse and check; NULL and *err filled when refused. opts may be NULL
 * (language only, match expression). */
struct expr	*expr_parse(const char *, const struct expr_options *,
		     struct expr_error *);
void		 expr_free(struct expr *);

/* Check only: 0 valid, -1 refused with *err. */
int		 expr_check(const char *, const struct expr_options *,
		     struct expr_error *);

/* Canonical text (stable: fmt(parse(fmt(x))) == fmt(x)); caller frees. */
char		*expr_format(const struct expr *);

/* How expr_format_fit wrote an expression. */
enum expr_fmt_form {
	EXPR_FMT_CANONICAL,	/* as expr_format writes it */
	EXPR_FMT_SHORT,		/* && ~ ==, the shortest names, no spaces */
	EXPR_FMT_AS_WRITTEN	/* the text as given to expr_parse */
};

/*
 * What the CLI's fmt and the console's format key write: the canonical
 * text where it fits in EXPR_MAX_LENGTH characters (its words are longer
 * than the symbols), else the short form where that fits, else the text
 * as written. So it is taken wherever the expression was (expr_check),
 * and formatting it again gives it back. *form (may be NULL) says which.
 * Caller frees.
 */
char		*expr_format_fit(const struct expr *, enum expr_fmt_form *);
/* Why a form other than the canonical one was written, for a note. */
const char	*expr_fmt_form_note(enum expr_fmt_form);

/* The source text as given to expr_parse. */
const char	*expr_text(const struct expr *);

/*
 * "expression:LINE:COL: MESSAGE\n<the line>\n<caret under COL>\n", LINE
 * and COL within the text's lines (err's column counts a newline as a
 * character); caller frees.
 */
char		*expr_error_render(const char *text, const struct expr_error *);
/* The error's line and column in text (both 1-based). */
void		 expr_error_place(const char *text, const struct expr_error *,
		     int *line, int *col);
/* "column 5", or "line 2, column 5" for text of several lines; caller
 * frees. */
char		*expr_error_where(const char *text, const struct expr_error *);

/*
 * A request as the rules see it. Set it from a method and URL, then add what
 * the log or the user knows; everything else is missing (comparisons on a
 * missing value are false). Derived fields (http.request.uri, full_uri,
 * uri.args, header names/values, cookies map) are computed from these.
 */
struct expr_request;

struct expr_request	*expr_request_new(void);
void			 expr_request_free(struct expr_request *);
/* Forget everything set, keep the memory (one object per log reader). */
void			 expr_request_reset(struct expr_request *);
/* Method (upper-cased) and absolute URL "scheme://host[:port]/path?query";
 * -1 when the URL cannot be read. */
int	 expr_request_set(struct expr_request *, const char *method,
	     const char *url);
/* Host, scheme and path+query given apart (logs carry them so). */
int	 expr_request_set_parts(struct expr_request *, const char *method,
	     const char *scheme, const char *host, const char *uri);
/* Whether set_parts would take scheme, host and uri (1) or fail (0). */
int	 expr_request_parts_ok(const char *scheme, const char *host,
	     const char *uri);
/* Client address (IPv4 or IPv6 text); -1 when not an address. */
int	 expr_request_set_ip(struct expr_request *, const char *);
void	 expr_request_set_country(struct expr_request *, const char *);
void	 expr_request_set_asnum(struct expr_request *, int64_t);
void	 expr_request_set_timestamp(struct expr_request *, int64_t);
void	 expr_request_set_verified_bot(struct expr_request *, int);
void	 expr_request_set_version(struct expr_request *, const char *);
/* A request header as it arrived; the map's key is its lower-case name.
 * Cookie headers also fill http.request.cookies. */
void	 expr_request_add_header(struct expr_request *, const char *name,
	     const char *value);
/* The response, for counting expressions: status and headers. */
void	 expr_request_set_status(struct expr_request *, int);
void	 expr_request_add_response_header(struct expr_request *,
	     const char *name, const char *value);

/* Whether a status or a response header was set: the response is known. */
int	 expr_request_has_response(const struct expr_request *);

/* A value: of an expression, and of each node explain reports. */
enum expr_value {
	EXPR_FALSE = 0, EXPR_TRUE = 1, EXPR_MISSING = 2,
	/* depends on what is not known here (a named list), or a regex
	 * reached its matching limits */
	EXPR_UNKNOWN = 3
};

/*
 * EXPR_TRUE (1) or EXPR_FALSE (0); EXPR_UNKNOWN when the answer depends on
 * a regex whose matching reached PCRE2's limits (the service's engine has
 * none: the rule may match there), which is rare (expr_request.c).
 * Allocates nothing once the request object is warm.
 */
enum expr_value	 expr_eval(const struct expr *, struct expr_request *);

/*
 * The same result as expr_eval, remembered by the values of the fields the
 * expression reads, for a stream of requests (a log replay) where they
 * repeat. One memo per expression and thread; the expression must outlive
 * it.
 */
struct expr_memo;

struct expr_memo	*expr_memo_new(const struct expr *);
void			 expr_memo_free(struct expr_memo *);
enum expr_value		 expr_eval_memo(struct expr_memo *,
			     struct expr_request *);
/*
 * One memo for up to 64 expressions (those that read the same fields, as
 * expr_memo_same_fields says, share it best): bit i of the result is
 * expression i's.
 */
struct expr_memo	*expr_memo_new_set(const struct expr *const *, size_t);
uint64_t		 expr_eval_memo_set(struct expr_memo *,
			     struct expr_request *);
/* Of the last expr_eval_memo_set: bit i set when expression i's value
 * was EXPR_UNKNOWN (its bit in the result is then 0). */
uint64_t		 expr_memo_unknown(const struct expr_memo *);
int			 expr_memo_same_fields(const struct expr *,
			     const struct expr *);
/* Start reading the memo's place for the request, to be looked up by the
 * next expr_eval_memo_set of the same request: memos of several
 * expressions read at once wait for memory once. */
void			 expr_memo_prefetch(struct expr_memo *,
			     struct expr_request *);

/*
 * Explain: each node of the tree, in source order, depth first, with its
 * value. Comparisons carry the left value as seen ("missing" when absent),
 * so a user sees which part failed.
 */
struct expr_step {
	int		 depth;		/* 0 = the whole expression */
	int		 column;	/* 1-based start in the source */
	int		 length;	/* characters in the source */
	const char	*text;		/* canonical text of this node */
	const char	*seen;		/* left value as seen; NULL for and/or/not */
	enum expr_value	 value;
};

typedef void	(*expr_step_fn)(const struct expr_step *, void *);

/* Evaluates as expr_eval does, calling fn for each node; returns the value. */
enum expr_value	 expr_explain(const struct expr *, struct expr_request *,
		     expr_step_fn, void *);

/*
 * What an expression reads that this program cannot know: named lists
 * ($name, kept in the account) and the response (a counting expression's
 * http.response.*, known only when the request says it).
 *
 * expr_lists: the lists an expression names, each once, in source order:
 * up to max names (into the expression) in names; returns how many there
 * are.
 */
size_t	 expr_lists(const struct expr *, const char **, size_t);
/* Whether it reads an http.response.* field. */
int	 expr_reads_response(const struct expr *);
/*
 * expr_eval when its lists are not known: EXPR_TRUE or EXPR_FALSE when the
 * value is the same whatever each list holds, else EXPR_UNKNOWN. With no
 * list it is expr_eval.
 */
enum expr_value	 expr_eval_lists(const struct expr *, struct expr_request *);
/*
 * expr_explain the same way: a node whose value depends on the lists is
 * EXPR_UNKNOWN. Returns the whole expression's value.
 */
enum expr_value	 expr_explain_lists(const struct expr *,
		     struct expr_request *, expr_step_fn, void *);

/*
 * Warnings: text the language takes that most likely does not do what was
 * meant, such as a method in lower case (methods are upper case) or a
 * header name with capitals (the map's keys are lower case). Up to max
 * into w, in source order; returns how many there are.
 */
struct expr_warning {
	int	 column;	/* 1-based, as expr_error's */
	int	 length;
	char	 message[256];
};

size_t	 expr_warnings(const struct expr *, struct expr_warning *, size_t);

/*
 * The scheme, for completion and help: fields and functions with their
 * types, the first plan that has them, and whether only counting
 * expressions may use them.
 */
struct expr_symbol {
	const char	*name;		/* "http.request.uri.path", "lower" */
	const char	*type;		/* "String"; "lower(String) -> String" */
	const char	*summary;	/* one line */
	enum expr_plan	 plan;		/* first plan that has it */
	unsigned	 function : 1;
	unsigned	 counting_only : 1;
};

const struct expr_symbol	*expr_symbols(size_t *);
/* The symbol of that exact name, or NULL. */
const struct expr_symbol	*expr_symbol_find(const char *);

#endif
