/*
 * The resource registry. Every kind the console and the one-shot commands
 * manage is one descriptor in src/kinds/: its paths, list shape and paging,
 * id, verbs, columns, fields and server-side filters. The CLI, the generic
 * list panel, forms, validation and YAML editing all read it.
 */
#ifndef EDGE_KIND_H
#define EDGE_KIND_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "api.h"
#include "buf.h"
#include "pager.h"

/* Which identifiers a kind's paths need ({account}, {zone}, {video}). */
enum kind_scope {
	KIND_SCOPE_ACCOUNT,
	KIND_SCOPE_ZONE,
	KIND_SCOPE_VIDEO	/* account kinds under one video: --video */
};

/* What GET list_path returns in result. */
enum kind_shape {
	KIND_SHAPE_ARRAY,	/* the records */
	KIND_SHAPE_WRAPPED,	/* an object holding them under list_key */
	KIND_SHAPE_OBJECT,	/* the one record of the kind (no ids) */
	KIND_SHAPE_NONE		/* nothing to read: create only */
};

enum kind_method {
	KIND_METHOD_NONE,
	KIND_METHOD_GET,
	KIND_METHOD_POST,
	KIND_METHOD_PUT,
	KIND_METHOD_PATCH,
	KIND_METHOD_DELETE
};

/*
 * What the API lets one do with a kind. A KIND_SHAPE_OBJECT kind has GET
 * (its item path takes no id) and never LIST. Bulk calls go to list_path:
 * BULK_CREATE posts a JSON array, BULK_UPDATE sends {"<id>": body, ...}
 * with update_method, BULK_DELETE sends {bulk_delete_key: [ids]}.
 */
enum kind_verb {
	KIND_VERB_LIST = 0x001,
	KIND_VERB_GET = 0x002,
	KIND_VERB_CREATE = 0x004,
	KIND_VERB_UPDATE = 0x008,
	KIND_VERB_DELETE = 0x010,
	KIND_VERB_BULK_CREATE = 0x020,
	KIND_VERB_BULK_UPDATE = 0x040,
	KIND_VERB_BULK_DELETE = 0x080,
	KIND_VERB_UPLOAD = 0x100,	/* a TUS upload (the upload command) */
	/*
	 * set ID... --action A and clear ID...: set_field of one record by
	 * PUT (clear: DELETE), of several in one PATCH of list_path,
	 * {"<id>": {set_field: A or null}}.
	 */
	KIND_VERB_SET = 0x200,
	KIND_VERB_CLEAR = 0x400
};
#define KIND_VERB_ALL	0x7ff

/* The body of a create. */
enum kind_body {
	KIND_BODY_JSON,
	KIND_BODY_MULTIPART,	/* a KIND_TYPE_FILE field and text parts */
	KIND_BODY_NONE,		/* POST without a body */
	/*
	 * JSON: the KIND_TYPE_FILE field holds the file's text, the other
	 * fields come from form options, as for a multipart create.
	 */
	KIND_BODY_JSON_FILE
};

/* Cell formatters; every one renders a missing value or null as "-". */
enum kind_format {
	KIND_FMT_TEXT,		/* strings as sent, numbers, yes/no, a,b,c */
	KIND_FMT_TIME,		/* RFC 3339 -> local "2026-11-21 19:52" */
	KIND_FMT_BYTES,		/* 1234567 -> "1.2 MB" */
	KIND_FMT_DURATION,	/* seconds -> "1:02:03" / "2:03"; -1 "-" */
	KIND_FMT_BOOL,		/* "yes" / "no" */
	KIND_FMT_PCT,		/* "45.5" or 45.5 -> "46%" */
	KIND_FMT_COUNT,		/* an array's length, a number as 12,345 */
	KIND_FMT_NUMBER,	/* 0.465, 2050.22 */
	KIND_FMT_LIST,		/* ["GET","POST"] -> "GET,POST" */
	KIND_FMT_RATE,		/* path per path2 seconds: "5/1m" */
	KIND_FMT_RATE_SECONDS,	/* the same, the period in seconds: "5/60s" */
	KIND_FMT_PER_HOUR	/* path per path2 seconds, per hour: "2050", "12.3k" */
};

/* kind_column flags. */
#define KIND_COL_DEFAULT	0x1	/* shown unless the user picks */
#define KIND_COL_RIGHT		0x2	/* right-aligned (numbers) */
/* Not in a list's answer: the console reads each record for it after the
 * list; a one-shot command's table leaves it out. */
#define KIND_COL_PER_RECORD	0x4

/*
 * kind_column priorities: a console list on a narrow screen keeps the
 * columns of higher priority and gives them their room first, equal ones
 * in the order of the columns. A column shows only when those two
 * priorities or more above it could also grow to their max: a name is
 * whole before the other columns but the text show, the text has its room
 * before the details and the id.
 */
#define KIND_COL_NAME		2
#define KIND_COL_TEXT		1
#define KIND_COL_DETAIL		(-1)
#define KIND_COL_ID		(-2)

struct kind_column {
	const char		*header;
	const char		*path;		/* "status.state" */
	const char		*path2;		/* KIND_FMT_RATE: the period */
	int			 width;		/* 0: what is left */
	/* The widest it grows to; width 0: the room it asks before columns
	 * of lower priority get any (it still takes what is left). */
	int			 max;
	int			 priority;	/* KIND_COL_NAME...; 0 */
	enum kind_format	 format;
	int			 flags;
	const char		*none;		/* shown for no value; "-" */
	const char		*zero;		/* NUMBER: shown for 0 */
};

enum kind_type {
	KIND_TYPE_STRING,
	KIND_TYPE_INT,
	KIND_TYPE_NUMBER,
	KIND_TYPE_BOOL,
	KIND_TYPE_ENUM,		/* a string among values */
	KIND_TYPE_STRINGS,	/* array of strings */
	KIND_TYPE_ENUMS,	/* array of strings among values */
	KIND_TYPE_MAP,		/* object with the user's own keys (meta) */
	KIND_TYPE_OBJECT,	/* object whose members are fields */
	KIND_TYPE_OBJECTS,	/* array of objects ("bypass[].name") */
	KIND_TYPE_TIME,		/* RFC 3339 date-time string */
	KIND_TYPE_URI,		/* absolute http or https URL */
	KIND_TYPE_HEX32,	/* 32 hexadecimal digits */
	KIND_TYPE_UUID,
	KIND_TYPE_FILE		/* a local file, sent as a multipart file */
};

/* Checks on a string (or on each string of a list) beyond its type. */
enum kind_check {
	KIND_CHECK_NONE,
	KIND_CHECK_HOST,	/* RFC 3986 host, no port, at most 255 */
	KIND_CHECK_ENDPOINT,	/* a path: '/', balanced {var}, no ? or # */
	KIND_CHECK_ORIGIN,	/* a domain such as *.example.com */
	KIND_CHECK_OPENAPI	/* a file: an OpenAPI version Schema
				   Validation takes (apirules.h) */
};

/* kind_field flags. */
#define KIND_F_REQUIRED	0x01	/* on create, and on an update by PUT */
#define KIND_F_READONLY	0x02	/* set by the server: never checked */
#define KIND_F_SECRET	0x04	/* never shown unmasked */
#define KIND_F_NONEMPTY	0x08	/* a string or list must not be empty */
#define KIND_F_NOTNULL	0x10	/* null is refused, not taken as absent */
#define KIND_F_NOCASE	0x20	/* enum values compare without case */
#define KIND_F_CREATE	0x40	/* only for a create (update ignores it) */
#define KIND_F_UPDATE	0x80	/* only for an update (create leaves it out) */
/*
 * With KIND_F_READONLY: the server changes it on every write (version,
 * last_updated, modified), so an equal one says the record is unchanged.
 */
#define KIND_F_STAMP	0x100

/* kind_field bounds. */
#define KIND_MIN	0x1
#define KIND_MAX	0x2
#define KIND_RANGE(lo, hi) .min = (lo), .max = (hi), .bounds = KIND_MIN|KIND_MAX
#define KIND_AT_LEAST(lo) .min = (lo), .bounds = KIND_MIN

/*
 * One field of a record. path is dotted; "[]" steps into each item of an
 * array ("match.headers[].op"); every parent is a field of its own (an
 * OBJECT, OBJECTS or MAP). Absent and null are the same for a field that
 * is not KIND_F_NOTNULL, as they are for the service.
 */
struct kind_field {
	const char		*path;
	enum kind_type		 type;
	int			 flags;
	const char *const	*values;	/* NULL-terminated */
	double			 min;
	double			 max;
	int			 bounds;
	size_t			 max_len;	/* characters; 0: any */
	size_t			 max_items;	/* lists; 0: any */
	enum kind_check		 check;
	const char		*help;		/* one line */
	const char		*example;	/* a valid value, for errors */
	/*
	 * A text part of a multipart create: the option that sets it in
	 * `edgetui create` ("opacity" for --opacity); a BOOL one is a flag.
	 */
	const char		*option;
};

/*
 * A query parameter of the list call. A STRINGS or ENUMS filter is
 * repeated (host=a&host=b). The KIND_FILTER_TEXT one is what the console's
 * '/' sends to the server.
 */
#define KIND_FILTER_TEXT	0x1

struct kind_filter {
	const char		*name;
	enum kind_type		 type;	/* STRING BOOL ENUM TIME (E)NUMS */
	const char *const	*values;
	int			 flags;
	const char		*help;
};

/*
 * Page sizes the list call takes: min..max, and with a step, only min or a
 * multiple of step (rate limits: 1, 5, 10, ... 1000). For PAGER_CREATED
 * it is the batch (limit=).
 */
struct kind_per_page {
	long	min;
	long	max;
	long	def;
	long	step;
};

struct validate_ctx;

struct kind {
	const char		*name;		/* "rate-limits" */
	const char		*aliases;	/* "rl ratelimits", spaced */
	const char		*help;		/* one line */
	enum kind_scope		 scope;
	/* What confirmations call one record, and the field naming it. */
	const char		*noun;		/* "rate limit"; NULL: name */
	/* The fields that name a record, space-separated: "method
	 * endpoint" names one "GET /v1/users"; or NULL. */
	const char		*label;

	const char		*list_path;	/* GET; NULL with SHAPE_NONE */
	const char		*item_path;	/* {id} unless SHAPE_OBJECT */
	const char		*create_path;	/* NULL: list_path */
	enum kind_shape		 shape;
	const char		*list_key;	/* KIND_SHAPE_WRAPPED */
	enum pager_style	 paging;
	struct kind_per_page	 per_page;
	const char		*id_field;	/* NULL: none */
	/* A 404 on list_path is an empty list (an entry point not made). */
	int			 absent_empty;
	/* The console loads pages as they are needed, whatever the total. */
	int			 lazy;
	/* KIND_SCOPE_VIDEO: whose id {video} is (--live-input); NULL: a video. */
	const struct kind	*parent;

	unsigned		 verbs;		/* KIND_VERB_* */
	enum kind_body		 create_body;
	enum kind_method	 update_method;
	const char		*bulk_delete_key;
	/*
	 * What a create's answer holds that cannot be read again ("the
	 * private key"): a warning after the create. NULL: nothing.
	 */
	const char		*shown_once;
	const char		*set_field;	/* KIND_VERB_SET */
	/* The kind that replaces a deprecated one ("validation-schemas"). */
	const char		*deprecated;

	const struct kind_column *columns;	/* end: header NULL */
	const struct kind_field	*fields;	/* end: path NULL */
	const struct kind_filter *filters;	/* end: name NULL; or NULL */

	/* Cross-field rules, after the field checks; may be NULL. */
	void			(*check)(struct validate_ctx *);
};

/*
 * The descriptors: src/kinds/stream.c, shield.c, schema_validation.c,
 * ratelimit.c and rulesets.c.
 */
extern const struct kind kind_videos;
extern const struct kind kind_live_inputs;
extern const struct kind kind_live_outputs;
extern const struct kind kind_watermarks;
extern const struct kind kind_captions;
extern const struct kind kind_audio_tracks;
extern const struct kind kind_webhook;
extern const struct kind kind_signing_keys;
extern const struct kind kind_downloads;
extern const struct kind kind_storage_usage;
extern const struct kind kind_direct_uploads;
extern const struct kind kind_clips;	/* a form, not listed */
extern const struct kind kind_api_config;
extern const struct kind kind_discovery;
extern const struct kind kind_discovered_operations;
extern const struct kind kind_operations;
extern const struct kind kind_schemas;
extern const struct kind kind_user_schemas;
extern const struct kind kind_validation_schemas;
extern const struct kind kind_validation_settings;
extern const struct kind kind_operation_validation;
extern const struct kind kind_rate_limits;
extern const struct kind kind_rate_limit_rules;
extern const struct kind kind_rulesets;
extern const struct kind kind_rule_versions;

/* A kind by name or alias (case-insensitive), or NULL. */
const struct kind	*kind_find(const char *);
/* Every kind, in the order `edgetui kinds` lists them. */
const struct kind *const *kind_all(size_t *);
const char		*kind_help(const struct kind *);

const char		*kind_verb_name(enum kind_verb);
/* "list get create update delete" for a set of verbs. */
void			 kind_verbs_text(unsigned, struct buf *);
const char		*kind_method_name(enum kind_method);
const char		*kind_scope_name(enum kind_scope);
const char		*kind_type_name(enum kind_type);

/*
 * Paths from the templates, with vars {account}, {zone}, {video} (and
 * {id} for an item). Refused with *cause when the kind has no such call,
 * a variable its scope needs is missing ("captions needs --video ID") or
 * a value cannot go into a path.
 */
char		*kind_list_path(const struct kind *, const struct api_var *,
		     char **);
char		*kind_item_path(const struct kind *, const struct api_var *,
		     const char *, char **);
char		*kind_create_path(const struct kind *, const struct api_var *,
		     char **);

/* Whether a string can be an id of the kind (hex32, UUID...). */
int		 kind_id_check(const struct kind *, const char *, char **);
/* The record's id, or NULL. */
const char	*kind_record_id(const struct kind *, const cJSON *);

/* Page size checks and the pager options the kind lists with. */
int		 kind_per_page_check(const struct kind *, long, char **);
void		 kind_pager_opts(const struct kind *, struct pager_opts *);

const struct kind_filter *kind_filter_find(const struct kind *, const char *);
/* The filter '/' sends to the server, or NULL (filter the rows locally). */
const struct kind_filter *kind_filter_text(const struct kind *);
/*
 * Append name=value (percent-encoded; '&' first unless query is empty or
 * ends in '?' or '&') after checking the value against the filter: enum
 * values, true/false, RFC 3339 times. Returns 0, or -1 with *cause.
 */
int		 kind_filter_add(const struct kind *, const char *,
		     const char *, struct buf *, char **);

/*
 * The field for a path, concrete ("bypass[1].name") or not
 * ("bypass[].name"), or NULL.
 */
const struct kind_field	*kind_field_find(const struct kind *, const char *);
const struct kind_column *kind_column_find(const struct kind *,
		     const char *);

/*
 * One cell: the column's value in record, formatted, made safe for a
 * terminal (control characters become '?'), cut to size without splitting
 * a UTF-8 character. Secret fields are masked. Returns 1, or 0 when the
 * value is missing and the cell says "-".
 */
int		 kind_column_value(const struct kind *,
		     const struct kind_column *, const cJSON *, char *,
		     size_t);

/*
 * A KIND_FMT_PER_HOUR column's number in record: 0 with the count per
 * hour, or -1 when the count or a positive period is missing.
 */
int		 kind_per_hour(const struct kind_column *, const cJSON *,
		     double *);

/* "a, b, c" for a NULL-terminated list of values. */
void		 kind_values_text(const char *const *, struct buf *);

/* The member at a dotted path ("status.state"), or NULL. */
const cJSON	*kind_json_get(const cJSON *, const char *);

/*
 * An RFC 3339 date-time ("2026-03-02T13:11:34.333762Z", "...+02:00"):
 * 0 with the seconds since the epoch, or -1.
 */
int		 kind_parse_time(const char *, int64_t *);

#endif
