/*
 * The one-shot commands: each reads the kind's descriptor for its paths,
 * verbs, methods and columns, sends through libedge's HTTP client, and
 * prints a table, JSON or YAML. Lists stream page by page so memory does
 * not grow with the list.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "cli.h"
#include "configfile.h"
#include "edit.h"
#include "http.h"
#include "jobs.h"
#include "journal.h"
#include "kind.h"
#include "log.h"
#include "pager.h"
#include "text.h"
#include "tusc.h"
#include "validate.h"
#include "xmalloc.h"
#include "yamljson.h"

/* Bodies read from -f are refused beyond this. */
#define CLI_BODY_MAX		(16L * 1024 * 1024)
/* A column of width 0 ("what is left") in a streamed table. */
#define CLI_WIDE_COLUMN		40
#define CLI_CELL_MAX		4096

enum cli_output {
	CLI_OUT_TABLE,
	CLI_OUT_JSON,
	CLI_OUT_YAML
};

/* What every command that talks to the server shares. */
struct cli {
	const struct cli_opts	*o;
	struct config		*cfg;
	struct config_settings	 set;
	int			 have_set;
	struct http_client	*http;
	char			*base_url;	/* the client's */
	char			*token;		/* kept for a second client */
	enum cli_output		 out;
	int			 readonly;
	struct api_var		 vars[4];
	struct journal		*journal;
	int			 journal_tried;
};

struct cli_command {
	const char	*name;
	unsigned	 opts;		/* CLI_OPT_* it accepts */
	int		 mutates;
	int		 needs_server;
	int		 (*run)(struct cli *, const struct kind *, int, char **);
	int		 min_args;	/* after the command, kind included */
	int		 max_args;	/* -1: any */
	const char	*usage;
};

/* A table being printed: the columns shown and their widths. */
struct cli_table {
	const struct kind		*kind;
	const struct kind_column	*cols[32];
	int				 widths[32];
	size_t				 ncols;
	struct kind_column		 id_col;
};

int
cli_usage_error(const char *fmt, ...)
{
	va_list	ap;

	fputs("edgetui: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'edgetui --help' for more information.\n", stderr);
	return (HTTP_EXIT_USAGE);
}

static int
cli_error(int status, const char *fmt, ...) printflike(2, 3);

static int
cli_error(int status, const char *fmt, ...)
{
	va_list	ap;

	fputs("edgetui: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return (status);
}

/* ---- setup ---------------------------------------------------------------- */

static int
cli_output_parse(const char *s, enum cli_output *out)
{
	if (strcmp(s, "table") == 0)
		*out = CLI_OUT_TABLE;
	else if (strcmp(s, "json") == 0)
		*out = CLI_OUT_JSON;
	else if (strcmp(s, "yaml") == 0)
		*out = CLI_OUT_YAML;
	else
		return (-1);
	return (0);
}

/* The config file and the settings, without the server. */
static int
cli_setup(struct cli *c)
{
	const struct cli_opts	*o = c->o;
	char			*cause = NULL;
	size_t			 i;

	c->cfg = config_load(o->config, NULL, &cause);
	if (c->cfg == NULL) {
		cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	for (i = 0; i < c->cfg->nproblems; i++)
		log_warn("%s", c->cfg->problems[i].message);
	if (config_settings(c->cfg, o->profile, NULL, &c->set, &cause) != 0) {
		cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	c->have_set = 1;
	c->out = (enum cli_output)c->cfg->prefs.output;
	if (o->output != NULL && cli_output_parse(o->output, &c->out) != 0)
		return (cli_usage_error("-o: '%s' is not table, json or yaml",
		    o->output));
	c->readonly = o->readonly || c->set.readonly;
	c->vars[0].name = "account";
	c->vars[0].value = o->account != NULL ? o->account : c->set.account;
	c->vars[1].name = "zone";
	c->vars[1].value = o->zone != NULL ? o->zone : c->set.zone;
	c->vars[2].name = "video";
	c->vars[2].value = o->video;
	return (0);
}

/* A client on the settings; budget NULL makes a new one. */
static int
cli_client(struct cli *c, struct budget *budget, struct http_client **out)
{
	struct http_options	 ho;
	char			*cause = NULL;

	memset(&ho, 0, sizeof ho);
	ho.base_url = c->base_url;
	ho.token = c->token;
	ho.readonly = c->readonly;
	ho.max_retries = -1;
	ho.budget = budget;
	ho.budget_capacity = c->set.budget;
	if ((*out = http_client_new(&ho, &cause)) == NULL) {
		cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	return (0);
}

static int
cli_connect(struct cli *c)
{
	char	*cause = NULL;

	if (config_token(c->cfg, c->o->profile, NULL, &c->token,
	    &cause) != 0) {
		cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	c->base_url = xstrdup(c->o->base_url != NULL ? c->o->base_url :
	    c->set.base_url);
	return (cli_client(c, NULL, &c->http));
}

/*
 * The main client and a second one for a blocking upload, sharing its
 * budget (the main one goes to the worker thread).
 */
static int
cli_connect_upload(struct cli *c, struct http_client **upload)
{
	int	rv;

	if ((rv = cli_connect(c)) != 0)
		return (rv);
	return (cli_client(c, http_client_budget(c->http), upload));
}

static void
cli_teardown(struct cli *c)
{
	if (c->journal != NULL)
		journal_close(c->journal);
	if (c->http != NULL)
		http_client_free(c->http);
	if (c->token != NULL)
		config_secret_free(c->token);
	free(c->base_url);
	if (c->have_set)
		config_settings_free(&c->set);
	if (c->cfg != NULL)
		config_free(c->cfg);
}

/* ---- requests --------------------------------------------------------------- */

/*
 * One request; on failure the reason on stderr and the exit status. The
 * response is the caller's to free either way.
 */
static int
cli_send(struct cli *c, const struct http_request *req,
    struct http_response *resp)
{
	enum status	 st;
	char		*cause = NULL, *cmd;
	int		 exit_status;

	if (log_get_level() >= LOG_LEVEL_DEBUG) {
		cmd = http_curl_command(c->http, req);
		log_debug("%s", cmd);
		free(cmd);
	}
	memset(resp, 0, sizeof *resp);
	st = http_perform(c->http, req, resp, &cause);
	if (st == STATUS_OK) {
		free(cause);
		return (HTTP_EXIT_OK);
	}
	if (st == STATUS_READONLY) {
		cli_error(HTTP_EXIT_USAGE, "read-only: %s %s refused, nothing "
		    "sent (--readonly or a read-only profile)", req->method,
		    req->path);
		free(cause);
		return (HTTP_EXIT_USAGE);
	}
	exit_status = http_exit_status(st, resp->http_status);
	cli_error(exit_status, "%s", cause != NULL ? cause :
	    status_message(st));
	free(cause);
	return (exit_status);
}

static int
cli_get(struct cli *c, const char *path, struct http_response *resp)
{
	struct http_request	req;

	memset(&req, 0, sizeof req);
	req.method = "GET";
	req.path = path;
	return (cli_send(c, &req, resp));
}

static int
cli_send_json(struct cli *c, const char *method, const char *path,
    const cJSON *body, struct http_response *resp)
{
	struct http_request	 req;
	char			*text = NULL;
	int			 rv;

	memset(&req, 0, sizeof req);
	req.method = method;
	req.path = path;
	if (body != NULL) {
		text = cJSON_PrintUnformatted(body);
		if (text == NULL)
			fatalx("out of memory");
		req.json = text;
	}
	rv = cli_send(c, &req, resp);
	cJSON_free(text);
	return (rv);
}

/* The change journal, opened on first use; a failure only warns. */
static void
cli_journal(struct cli *c, const char *method, const char *path, long status,
    const cJSON *before, const cJSON *after)
{
	char	*dir, *cause = NULL;

	if (!c->journal_tried) {
		c->journal_tried = 1;
		if ((dir = config_state_dir(NULL, &cause)) != NULL) {
			c->journal = journal_open(dir, &cause);
			free(dir);
		}
		if (c->journal == NULL) {
			log_warn("journal: %s", cause);
			free(cause);
			return;
		}
	}
	if (c->journal == NULL)
		return;
	if (journal_append(c->journal, c->set.profile, method, path,
	    (int)status, before, after, &cause) != 0) {
		log_warn("journal: %s", cause);
		free(cause);
	}
}

/* ---- output ------------------------------------------------------------------ */

/* The default columns, with the id first when they do not show it. */
static void
cli_table_init(struct cli_table *t, const struct kind *k)
{
	const struct kind_column	*col;
	int				 has_id = 0;

	memset(t, 0, sizeof *t);
	t->kind = k;
	for (col = k->columns; col != NULL && col->header != NULL; col++)
		if (k->id_field != NULL && strcmp(col->path, k->id_field) == 0 &&
		    (col->flags & KIND_COL_DEFAULT))
			has_id = 1;
	if (k->id_field != NULL && !has_id) {
		t->id_col.header = "ID";
		t->id_col.path = k->id_field;
		t->id_col.format = KIND_FMT_TEXT;
		t->cols[t->ncols] = &t->id_col;
		t->widths[t->ncols++] = 36;
		col = kind_column_find(k, k->id_field);
		if (col != NULL && col->width > 0)
			t->widths[t->ncols - 1] = col->width;
	}
	for (col = k->columns; col != NULL && col->header != NULL; col++) {
		if ((col->flags & KIND_COL_DEFAULT) == 0 ||
		    t->ncols == nitems(t->cols))
			continue;
		t->cols[t->ncols] = col;
		t->widths[t->ncols++] = col->width > 0 ? col->width :
		    CLI_WIDE_COLUMN;
	}
	if (t->ncols == 0 && k->columns != NULL && k->columns[0].header) {
		t->cols[0] = &k->columns[0];
		t->widths[t->ncols++] = CLI_WIDE_COLUMN;
	}
}

static void
cli_table_cell(const struct cli_table *t, size_t i, const char *text)
{
	const struct kind_column	*col = t->cols[i];
	size_t				 w = (size_t)t->widths[i], n;
	int				 last = i + 1 == t->ncols;
	char				 cell[CLI_CELL_MAX];

	snprintf(cell, sizeof cell, "%s", text);
	if (!last || col->width > 0)
		text_cut(cell, w);
	n = text_width(cell);
	if (i != 0)
		fputs("  ", stdout);
	if ((col->flags & KIND_COL_RIGHT) && n < w)
		printf("%*s", (int)(w - n), "");
	fputs(cell, stdout);
	if (!last && !(col->flags & KIND_COL_RIGHT) && n < w)
		printf("%*s", (int)(w - n), "");
}

static void
cli_table_header(const struct cli_table *t)
{
	size_t	i;

	for (i = 0; i < t->ncols; i++)
		cli_table_cell(t, i, t->cols[i]->header);
	fputc('\n', stdout);
}

static void
cli_table_row(const struct cli_table *t, const cJSON *record)
{
	char	cell[CLI_CELL_MAX];
	size_t	i;

	for (i = 0; i < t->ncols; i++) {
		kind_column_value(t->kind, t->cols[i], record, cell,
		    sizeof cell);
		cli_table_cell(t, i, cell);
	}
	fputc('\n', stdout);
}

static void
cli_print_json(const cJSON *v)
{
	char	*text;

	if ((text = cJSON_Print(v)) == NULL)
		fatalx("out of memory");
	printf("%s\n", text);
	cJSON_free(text);
}

static void
cli_print_yaml(const cJSON *v)
{
	char	*text;

	text = yamljson_emit(v);
	fputs(text, stdout);
	free(text);
}

/*
 * The record a create or get returned, for a table: the result itself, or
 * the object in it that holds the id ({schema: {...}, upload_details}).
 */
static const cJSON *
cli_record_of(const struct kind *k, const cJSON *result)
{
	const cJSON	*m;

	if (k->id_field == NULL || kind_record_id(k, result) != NULL ||
	    !cJSON_IsObject(result))
		return (result);
	cJSON_ArrayForEach(m, result)
		if (cJSON_IsObject(m) && kind_record_id(k, m) != NULL)
			return (m);
	return (result);
}

/* One record (get ID, create, update) in the chosen format. */
static void
cli_print_record(struct cli *c, const struct kind *k, const cJSON *result)
{
	struct cli_table	t;

	switch (c->out) {
	case CLI_OUT_JSON:
		cli_print_json(result);
		break;
	case CLI_OUT_YAML:
		cli_print_yaml(result);
		break;
	case CLI_OUT_TABLE:
		cli_table_init(&t, k);
		cli_table_header(&t);
		cli_table_row(&t, cli_record_of(k, result));
		break;
	}
	fflush(stdout);
}

/* ---- files ------------------------------------------------------------------- */

static char *
cli_read_fd(int fd, const char *name, size_t *lenp, char **cause)
{
	struct buf	b = BUF_INITIALIZER;
	char		chunk[65536];
	ssize_t		n;

	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			xasprintf(cause, "%s: %s", name, strerror(errno));
			buf_free(&b);
			return (NULL);
		}
		if (n == 0)
			break;
		buf_add(&b, chunk, (size_t)n);
		if (b.len > (size_t)CLI_BODY_MAX) {
			xasprintf(cause, "%s: larger than %ld bytes", name,
			    CLI_BODY_MAX);
			buf_free(&b);
			return (NULL);
		}
	}
	if (b.data == NULL)
		buf_adds(&b, "");
	return (buf_detach(&b, lenp));
}

static char *
cli_read_file(const char *path, size_t *lenp, char **cause)
{
	char	*text;
	int	 fd;

	if (strcmp(path, "-") == 0)
		return (cli_read_fd(STDIN_FILENO, "stdin", lenp, cause));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (NULL);
	}
	text = cli_read_fd(fd, path, lenp, cause);
	close(fd);
	return (text);
}

/* A body from -f: YAML or JSON (JSON is YAML's flow style). */
static cJSON *
cli_read_body(const char *path, char **cause)
{
	cJSON	*body;
	char	*text, *why = NULL;
	size_t	 len;

	if ((text = cli_read_file(path, &len, cause)) == NULL)
		return (NULL);
	body = yamljson_parse(text, len, &why);
	free(text);
	if (body == NULL) {
		xasprintf(cause, "%s: %s", strcmp(path, "-") == 0 ? "stdin" :
		    path, why);
		free(why);
	}
	return (body);
}

/* Every problem on stderr; returns 0 when the body is clean. */
static int
cli_validate(const struct kind *k, const cJSON *body, enum validate_mode mode)
{
	struct validate_error	*errs;
	size_t			 n, i;

	if (validate_record(k, body, mode, &errs, &n) == 0)
		return (0);
	for (i = 0; i < n; i++)
		fprintf(stderr, "edgetui: %s: %s\n", *errs[i].field != '\0' ?
		    errs[i].field : "(body)", errs[i].message);
	fprintf(stderr, "edgetui: %zu problem%s; nothing was sent\n", n,
	    n == 1 ? "" : "s");
	validate_errors_free(errs, n);
	return (-1);
}

/* ---- get ---------------------------------------------------------------------- */

/* The page size for a list: few requests, but no more than --limit needs. */
static long
cli_per_page(const struct kind *k, long limit)
{
	const struct kind_per_page	*pp = &k->per_page;
	long				 n;

	if (pp->max == 0)
		return (0);
	if (limit <= 0 || limit >= pp->max)
		return (pp->max);
	if (limit <= pp->min)
		return (pp->min);
	n = limit;
	if (pp->step > 1 && n % pp->step != 0)
		n += pp->step - n % pp->step;
	return (MINIMUM(n, pp->max));
}

static void
cli_print_json_item(const cJSON *v)
{
	char	*text;

	if ((text = cJSON_Print(v)) == NULL)
		fatalx("out of memory");
	fputs(text, stdout);
	cJSON_free(text);
}

/* Stream one page's records; first says whether any came before. */
static void
cli_list_print(struct cli *c, const struct cli_table *t, cJSON **items,
    size_t n, size_t *count)
{
	cJSON	*one;
	size_t	 i;

	for (i = 0; i < n; i++, (*count)++) {
		switch (c->out) {
		case CLI_OUT_TABLE:
			cli_table_row(t, items[i]);
			break;
		case CLI_OUT_JSON:
			fputs(*count == 0 ? "[\n" : ",\n", stdout);
			cli_print_json_item(items[i]);
			break;
		case CLI_OUT_YAML:
			/* A one-item sequence each: together, the list. */
			one = cJSON_CreateArray();
			cJSON_AddItemReferenceToArray(one, items[i]);
			cli_print_yaml(one);
			cJSON_Delete(one);
			break;
		}
	}
	fflush(stdout);
}

static int
cli_list_query(struct cli *c, const struct kind *k, struct buf *q)
{
	const struct cli_opts	*o = c->o;
	char			*name, *eq, *cause = NULL;
	size_t			 i;
	int			 rv;

	for (i = 0; i < o->nfilters; i++) {
		if ((eq = strchr(o->filters[i], '=')) == NULL)
			return (cli_usage_error("--filter: '%s' is not "
			    "NAME=VALUE", o->filters[i]));
		name = xstrndup(o->filters[i], (size_t)(eq - o->filters[i]));
		if (kind_filter_find(k, name) == NULL) {
			free(name);
			return (cli_usage_error("--filter: %s has no filter "
			    "'%.*s'", k->name, (int)(eq - o->filters[i]),
			    o->filters[i]));
		}
		rv = kind_filter_add(k, name, eq + 1, q, &cause);
		free(name);
		if (rv != 0) {
			cli_usage_error("--filter: %s", cause);
			free(cause);
			return (HTTP_EXIT_USAGE);
		}
	}
	return (0);
}

static int
cli_list(struct cli *c, const struct kind *k)
{
	struct pager_opts	 po;
	struct pager		*p;
	struct cli_table	 t;
	struct http_response	 resp;
	struct buf		 q = BUF_INITIALIZER;
	cJSON			**items;
	char			*path, *cause = NULL;
	size_t			 n, count = 0, base;
	int			 rv = 0, flags = 0, header = 0;
	long			 per_page;

	if ((path = kind_list_path(k, c->vars, &cause)) == NULL)
		goto usage;
	buf_adds(&q, path);
	buf_addc(&q, '?');
	free(path);
	if ((rv = cli_list_query(c, k, &q)) != 0)
		goto out;
	base = q.len;
	if ((rv = cli_connect(c)) != 0)
		goto out;

	kind_pager_opts(k, &po);
	po.max_items = c->o->limit;
	per_page = k->paging == PAGER_SINGLE ? 0 :
	    cli_per_page(k, c->o->limit);
	if (k->paging == PAGER_CREATED && c->o->limit > 0 &&
	    per_page < PAGER_STREAM_BATCH)
		flags |= PAGER_SEND_LIMIT;
	po.flags |= flags;
	p = pager_new(k->paging, per_page, &po);

	cli_table_init(&t, k);
	for (;;) {
		buf_truncate(&q, base);
		if (!pager_next_query(p, &q))
			break;
		if (q.len > 0 && q.data[q.len - 1] == '?')
			buf_truncate(&q, q.len - 1);
		if ((rv = cli_get(c, buf_str(&q), &resp)) != 0) {
			http_response_free(&resp);
			break;
		}
		if (pager_feed(p, &resp.api, &items, &n, &cause) != 0) {
			rv = cli_error(HTTP_EXIT_REFUSED, "%s: %s", k->name,
			    cause);
			free(cause);
			http_response_free(&resp);
			break;
		}
		if (c->out == CLI_OUT_TABLE && !header++)
			cli_table_header(&t);
		cli_list_print(c, &t, items, n, &count);
		http_response_free(&resp);
	}
	if (rv == 0 && pager_bound_hit(p) != NULL)
		rv = cli_error(HTTP_EXIT_REFUSED, "%s: %s", k->name,
		    pager_bound_hit(p));
	else if (rv == 0 && pager_warning(p) != NULL)
		log_warn("%s", pager_warning(p));
	pager_free(p);
	if (c->out == CLI_OUT_TABLE && rv == 0 && !header)
		cli_table_header(&t);
	if (c->out == CLI_OUT_JSON && (rv == 0 || count != 0))
		fputs(count == 0 ? "[]\n" : "\n]\n", stdout);
	else if (c->out == CLI_OUT_YAML && count == 0)
		fputs("[]\n", stdout);
	fflush(stdout);
	goto out;
usage:
	rv = cli_usage_error("%s", cause);
	free(cause);
out:
	buf_free(&q);
	return (rv);
}

static int
cli_cmd_get(struct cli *c, const struct kind *k, int argc, char **argv)
{
	struct http_response	 resp;
	const char		*id = argc > 1 ? argv[1] : NULL;
	char			*path, *cause = NULL;
	int			 rv;

	if (id == NULL && k->shape != KIND_SHAPE_OBJECT) {
		if ((k->verbs & KIND_VERB_LIST) == 0)
			return (cli_usage_error("%s cannot be listed", k->name));
		return (cli_list(c, k));
	}
	if (c->o->seen & (CLI_OPT_LIMIT | CLI_OPT_FILTER))
		return (cli_usage_error("--limit and --filter are for lists"));
	if ((k->verbs & KIND_VERB_GET) == 0)
		return (cli_usage_error("%s cannot be read one by one: list "
		    "them with 'edgetui get %s'", k->name, k->name));
	if ((path = kind_item_path(k, c->vars, id, &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	if ((rv = cli_connect(c)) != 0)
		goto out;
	if ((rv = cli_get(c, path, &resp)) == 0)
		cli_print_record(c, k, resp.api.result);
	http_response_free(&resp);
out:
	free(path);
	return (rv);
}

/* ---- create and update -------------------------------------------------------- */

/* A text field for a multipart create: in the parts and in the record. */
static void
cli_part_add(struct http_part *parts, size_t *n, cJSON *rec, const char *name,
    const char *value, int number)
{
	char	*end;
	double	 d;

	if (value == NULL)
		return;
	parts[*n].name = name;
	parts[*n].value = value;
	(*n)++;
	d = strtod(value, &end);
	if (number && *value != '\0' && *end == '\0')
		cJSON_AddNumberToObject(rec, name, d);
	else if (strcmp(value, "true") == 0 && !number)
		cJSON_AddBoolToObject(rec, name, 1);
	else
		cJSON_AddStringToObject(rec, name, value);
}

/* The one allowed value of a required enum field left unset ("openapi_v3"). */
static void
cli_part_defaults(const struct kind *k, struct http_part *parts, size_t *n,
    cJSON *rec)
{
	const struct kind_field	*f;

	for (f = k->fields; f != NULL && f->path != NULL; f++) {
		if (f->type != KIND_TYPE_ENUM || !(f->flags & KIND_F_REQUIRED) ||
		    f->values == NULL || f->values[0] == NULL ||
		    f->values[1] != NULL || cJSON_HasObjectItem(rec, f->path))
			continue;
		cli_part_add(parts, n, rec, f->path, f->values[0], 0);
	}
}

static int
cli_create_multipart(struct cli *c, const struct kind *k, const char *path,
    struct http_response *resp)
{
	const struct cli_opts	*o = c->o;
	struct http_request	 req;
	struct http_part	 parts[12];
	cJSON			*rec;
	size_t			 n = 0;
	int			 rv;

	if (o->file == NULL || strcmp(o->file, "-") == 0)
		return (cli_usage_error("create %s: -f FILE is the file to "
		    "upload (not stdin)", k->name));
	memset(parts, 0, sizeof parts);
	rec = cJSON_CreateObject();
	cJSON_AddStringToObject(rec, "file", o->file);
	parts[n].name = "file";
	parts[n++].file = o->file;
	cli_part_add(parts, &n, rec, "name", o->name, 0);
	cli_part_add(parts, &n, rec, "opacity", o->opacity, 1);
	cli_part_add(parts, &n, rec, "padding", o->padding, 1);
	cli_part_add(parts, &n, rec, "scale", o->scale, 1);
	cli_part_add(parts, &n, rec, "position", o->position, 0);
	if (o->validation)
		cli_part_add(parts, &n, rec, "validation_enabled", "true", 0);
	cli_part_defaults(k, parts, &n, rec);
	if (cli_validate(k, rec, VALIDATE_CREATE) != 0) {
		cJSON_Delete(rec);
		return (HTTP_EXIT_USAGE);
	}
	cJSON_Delete(rec);
	if ((rv = cli_connect(c)) != 0)
		return (rv);
	memset(&req, 0, sizeof req);
	req.method = "POST";
	req.path = path;
	req.parts = parts;
	req.nparts = n;
	return (cli_send(c, &req, resp));
}

/* The one-time secrets of a record (signing keys), after a table. */
static void
cli_print_secrets(struct cli *c, const struct kind *k, const cJSON *rec)
{
	const struct kind_field	*f;
	const cJSON		*v;
	int			 any = 0;

	for (f = k->fields; f != NULL && f->path != NULL; f++) {
		if (!(f->flags & KIND_F_SECRET) ||
		    !cJSON_IsString(v = kind_json_get(rec, f->path)))
			continue;
		if (c->out == CLI_OUT_TABLE)
			printf("%s: %s\n", f->path, v->valuestring);
		any = 1;
	}
	if (any)
		log_warn("%s: the private key is shown only this once; store it"
		    " now", k->name);
}

static int
cli_cmd_create(struct cli *c, const struct kind *k, int argc, char **argv)
{
	const struct cli_opts	*o = c->o;
	struct http_response	 resp;
	cJSON			*body = NULL;
	char			*path, *cause = NULL;
	int			 rv;

	(void)argc;
	(void)argv;
	if ((k->verbs & KIND_VERB_CREATE) == 0)
		return (cli_usage_error("%s cannot be created", k->name));
	if (k->create_body != KIND_BODY_MULTIPART &&
	    (o->seen & (CLI_OPT_NAME | CLI_OPT_WATERMARK | CLI_OPT_VALIDATION)))
		return (cli_usage_error("create %s: --name, --opacity, "
		    "--validation... are for multipart creates (watermarks, "
		    "user-schemas); put fields in -f FILE", k->name));
	if ((path = kind_create_path(k, c->vars, &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	memset(&resp, 0, sizeof resp);
	switch (k->create_body) {
	case KIND_BODY_NONE:
		if (o->file != NULL) {
			rv = cli_usage_error("create %s takes no body (-f)",
			    k->name);
			goto out;
		}
		if ((rv = cli_connect(c)) == 0)
			rv = cli_send_json(c, "POST", path, NULL, &resp);
		break;
	case KIND_BODY_MULTIPART:
		rv = cli_create_multipart(c, k, path, &resp);
		break;
	case KIND_BODY_JSON:
	default:
		if (o->file == NULL) {
			rv = cli_usage_error("create %s needs -f FILE (YAML or "
			    "JSON, '-' for stdin)", k->name);
			goto out;
		}
		if ((body = cli_read_body(o->file, &cause)) == NULL) {
			rv = cli_error(HTTP_EXIT_USAGE, "%s", cause);
			free(cause);
			goto out;
		}
		if (cli_validate(k, body, VALIDATE_CREATE) != 0) {
			rv = HTTP_EXIT_USAGE;
			goto out;
		}
		if ((rv = cli_connect(c)) == 0)
			rv = cli_send_json(c, "POST", path, body, &resp);
		break;
	}
	if (rv == 0) {
		cli_journal(c, "POST", path, resp.http_status, NULL,
		    resp.api.result);
		cli_print_record(c, k, resp.api.result);
		cli_print_secrets(c, k, resp.api.result);
	}
out:
	http_response_free(&resp);
	cJSON_Delete(body);
	free(path);
	return (rv);
}

/* The item path of a kind for an id (none for one-object kinds). */
static char *
cli_item_path(struct cli *c, const struct kind *k, const char *id, int *rv)
{
	char	*path, *cause = NULL;

	if ((path = kind_item_path(k, c->vars, id, &cause)) == NULL) {
		*rv = cli_usage_error("%s", cause);
		free(cause);
	}
	return (path);
}

/* Send an update; before may be NULL. Prints the result. */
static int
cli_apply(struct cli *c, const struct kind *k, const char *path,
    const char *id, const cJSON *before, const cJSON *edited)
{
	struct http_response	 resp;
	const char		*method = kind_method_name(k->update_method);
	cJSON			*body;
	int			 rv;

	/* A PUT gets the id; a PATCH sends what changed only. */
	body = edit_update_body(k, before, edited, id);
	rv = cli_send_json(c, method, path, body, &resp);
	if (rv == 0) {
		cli_journal(c, method, path, resp.http_status, before,
		    resp.api.result);
		cli_print_record(c, k, resp.api.result);
	}
	http_response_free(&resp);
	cJSON_Delete(body);
	return (rv);
}

static int
cli_updatable(const struct kind *k)
{
	if ((k->verbs & KIND_VERB_UPDATE) == 0 ||
	    k->update_method == KIND_METHOD_NONE)
		return (cli_usage_error("%s cannot be updated", k->name));
	return (0);
}

/* The server's copy before a change (NULL when it cannot be read). */
static int
cli_fetch(struct cli *c, const struct kind *k, const char *path,
    cJSON **record)
{
	struct http_response	resp;
	int			rv;

	*record = NULL;
	if ((k->verbs & KIND_VERB_GET) == 0 && k->shape != KIND_SHAPE_OBJECT)
		return (0);
	if ((rv = cli_get(c, path, &resp)) == 0 && resp.api.result != NULL)
		*record = cJSON_Duplicate(resp.api.result, 1);
	http_response_free(&resp);
	return (rv);
}

static int
cli_cmd_update(struct cli *c, const struct kind *k, int argc, char **argv)
{
	const char	*id = NULL;
	cJSON		*body = NULL, *before = NULL;
	char		*path, *cause = NULL;
	int		 rv = 0;

	if ((rv = cli_updatable(k)) != 0)
		return (rv);
	if (k->shape != KIND_SHAPE_OBJECT) {
		if (argc < 2)
			return (cli_usage_error("update %s: an ID is needed",
			    k->name));
		id = argv[1];
	} else if (argc > 1)
		return (cli_usage_error("%s takes no id", k->name));
	if (c->o->file == NULL)
		return (cli_usage_error("update %s needs -f FILE", k->name));
	if ((path = cli_item_path(c, k, id, &rv)) == NULL)
		return (rv);
	if ((body = cli_read_body(c->o->file, &cause)) == NULL) {
		rv = cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		goto out;
	}
	if (cli_validate(k, body, VALIDATE_UPDATE) != 0) {
		rv = HTTP_EXIT_USAGE;
		goto out;
	}
	if ((rv = cli_connect(c)) != 0 ||
	    (rv = cli_fetch(c, k, path, &before)) != 0)
		goto out;
	rv = cli_apply(c, k, path, id, before, body);
out:
	cJSON_Delete(before);
	cJSON_Delete(body);
	free(path);
	return (rv);
}

/* ---- delete ------------------------------------------------------------------- */

static int
cli_delete_bulk(struct cli *c, const struct kind *k, int n, char **ids)
{
	struct http_response	 resp;
	cJSON			*body, *list;
	char			*path, *cause = NULL;
	int			 i, rv;

	if ((path = kind_list_path(k, c->vars, &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	body = cJSON_CreateObject();
	list = cJSON_AddArrayToObject(body, k->bulk_delete_key);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(list, cJSON_CreateString(ids[i]));
	rv = cli_send_json(c, "DELETE", path, body, &resp);
	if (rv == 0) {
		cli_journal(c, "DELETE", path, resp.http_status, body, NULL);
		for (i = 0; i < n; i++)
			printf("deleted %s %s\n", k->name, ids[i]);
	}
	http_response_free(&resp);
	cJSON_Delete(body);
	free(path);
	return (rv);
}

static int
cli_delete_one(struct cli *c, const struct kind *k, const char *id,
    const char *path)
{
	struct http_response	 resp;
	int			 rv;

	rv = cli_send_json(c, "DELETE", path, NULL, &resp);
	if (rv == 0) {
		cli_journal(c, "DELETE", path, resp.http_status, NULL, NULL);
		if (id != NULL)
			printf("deleted %s %s\n", k->name, id);
		else
			printf("deleted %s\n", k->name);
	}
	http_response_free(&resp);
	return (rv);
}

static int
cli_cmd_delete(struct cli *c, const struct kind *k, int argc, char **argv)
{
	char	**paths;
	int	  i, n = argc - 1, rv = 0, one;

	if ((k->verbs & KIND_VERB_DELETE) == 0)
		return (cli_usage_error("%s cannot be deleted", k->name));
	if (k->shape == KIND_SHAPE_OBJECT) {
		if (n != 0)
			return (cli_usage_error("%s takes no id", k->name));
		n = 1;	/* the one object */
	} else if (n == 0)
		return (cli_usage_error("delete %s: at least one ID", k->name));
	/* Every id is checked before anything is sent. */
	paths = xcalloc((size_t)n, sizeof *paths);
	for (i = 0; i < n; i++) {
		paths[i] = cli_item_path(c, k, k->shape == KIND_SHAPE_OBJECT ?
		    NULL : argv[i + 1], &rv);
		if (paths[i] == NULL)
			goto out;
	}
	if ((rv = cli_connect(c)) != 0)
		goto out;
	if (n > 1 && (k->verbs & KIND_VERB_BULK_DELETE) &&
	    k->bulk_delete_key != NULL) {
		rv = cli_delete_bulk(c, k, n, argv + 1);
		goto out;
	}
	for (i = 0; i < n; i++) {
		one = cli_delete_one(c, k, k->shape == KIND_SHAPE_OBJECT ?
		    NULL : argv[i + 1], paths[i]);
		rv = MAXIMUM(rv, one);
	}
out:
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	fflush(stdout);
	return (rv);
}

/* ---- edit --------------------------------------------------------------------- */

/*
 * The editor loop: *edited is the parsed, valid record; 1 when the user
 * cancelled (empty file or no change), -1 (after the message) on error.
 */
static int
cli_edit_loop(struct edit *e, cJSON **edited)
{
	char	*cause = NULL;

	*edited = NULL;
	for (;;) {
		fflush(stdout);
		fflush(stderr);
		if (edit_run_editor(e->file, &cause) != 0)
			break;
		switch (edit_next(e, edited, &cause)) {
		case EDIT_CHANGED:
			return (0);
		case EDIT_UNCHANGED:
		case EDIT_EMPTY:
			return (1);
		case EDIT_AGAIN:
			continue;
		case EDIT_INVALID:
		case EDIT_FAILED:
			break;
		}
		break;
	}
	cli_error(-1, "%s", cause);
	free(cause);
	return (-1);
}

/* Ask on the terminal; 1 for yes. */
static int
cli_confirm(const char *question)
{
	FILE	*tty;
	char	 line[64];
	int	 yes = 0;

	if ((tty = fopen("/dev/tty", "r+")) == NULL)
		return (-1);
	fprintf(tty, "%s [y/N] ", question);
	fflush(tty);
	if (fgets(line, sizeof line, tty) != NULL)
		yes = line[0] == 'y' || line[0] == 'Y';
	fclose(tty);
	return (yes);
}

/* Show the diff against a fresh copy, ask, apply. */
static int
cli_edit_apply(struct cli *c, const struct kind *k, const char *path,
    const char *id, const cJSON *orig, const cJSON *edited)
{
	struct buf	 diff = BUF_INITIALIZER;
	cJSON		*fresh = NULL;
	size_t		 n;
	int		 rv, yes;

	if ((rv = cli_fetch(c, k, path, &fresh)) != 0)
		return (rv);
	if (fresh == NULL)
		fresh = cJSON_Duplicate(orig, 1);
	if (!cJSON_Compare(fresh, orig, 1))
		log_warn("%s changed on the server while you edited it: the "
		    "diff is against its current copy", k->name);
	n = edit_diff(&diff, fresh, edited);
	if (n == 0) {
		printf("no change\n");
		goto out;
	}
	printf("%s: %zu field%s changed:\n%s", k->name, n, n == 1 ? "" : "s",
	    buf_str(&diff));
	fflush(stdout);
	if (!c->o->yes) {
		if ((yes = cli_confirm("apply?")) < 0) {
			rv = cli_error(HTTP_EXIT_USAGE, "no terminal to ask "
			    "on: use --yes to apply without asking; nothing "
			    "was changed");
			goto out;
		}
		if (!yes) {
			printf("not applied\n");
			goto out;
		}
	}
	rv = cli_apply(c, k, path, id, fresh, edited);
out:
	buf_free(&diff);
	cJSON_Delete(fresh);
	return (rv);
}

static int
cli_cmd_edit(struct cli *c, const struct kind *k, int argc, char **argv)
{
	struct edit	 e;
	const char	*id = NULL;
	cJSON		*orig = NULL, *edited = NULL;
	char		*path, *cause = NULL;
	int		 rv = 0, loop;

	memset(&e, 0, sizeof e);
	if ((rv = cli_updatable(k)) != 0)
		return (rv);
	if (k->shape != KIND_SHAPE_OBJECT) {
		if (argc < 2)
			return (cli_usage_error("edit %s: an ID is needed",
			    k->name));
		id = argv[1];
	} else if (argc > 1)
		return (cli_usage_error("%s takes no id", k->name));
	if ((path = cli_item_path(c, k, id, &rv)) == NULL)
		return (rv);
	if ((rv = cli_connect(c)) != 0 ||
	    (rv = cli_fetch(c, k, path, &orig)) != 0)
		goto out;
	if (orig == NULL) {
		rv = cli_error(HTTP_EXIT_REFUSED, "%s: the server sent no "
		    "record", k->name);
		goto out;
	}
	if (edit_open(&e, k, orig, VALIDATE_UPDATE, &cause) != 0) {
		rv = cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		goto out;
	}
	loop = cli_edit_loop(&e, &edited);
	if (loop < 0)
		rv = HTTP_EXIT_USAGE;
	else if (loop > 0)
		printf("no change\n");
	else
		rv = cli_edit_apply(c, k, path, id, orig, edited);
out:
	edit_close(&e);
	cJSON_Delete(edited);
	cJSON_Delete(orig);
	free(path);
	fflush(stdout);
	return (rv);
}

/* ---- kinds --------------------------------------------------------------- */

static void
cli_words(cJSON *into, const char *name, const char *text)
{
	cJSON	*list = cJSON_AddArrayToObject(into, name);
	char	*copy = xstrdup(text != NULL ? text : ""), *w, *save = NULL;

	for (w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save))
		cJSON_AddItemToArray(list, cJSON_CreateString(w));
	free(copy);
}

static int
cli_cmd_kinds(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	const struct kind *const	*all;
	struct buf			 verbs = BUF_INITIALIZER;
	cJSON				*list, *o;
	size_t				 n, i;

	(void)unused_k;
	(void)argc;
	(void)argv;
	all = kind_all(&n);
	list = cJSON_CreateArray();
	if (c->out == CLI_OUT_TABLE)
		printf("%-22s  %-28s  %s\n", "KIND", "ALIASES", "VERBS");
	for (i = 0; i < n; i++) {
		buf_reset(&verbs);
		kind_verbs_text(all[i]->verbs, &verbs);
		if (c->out == CLI_OUT_TABLE) {
			printf("%-22s  %-28s  %s\n", all[i]->name,
			    all[i]->aliases != NULL ? all[i]->aliases : "",
			    buf_str(&verbs));
			continue;
		}
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", all[i]->name);
		cli_words(o, "aliases", all[i]->aliases);
		cli_words(o, "verbs", buf_str(&verbs));
		cJSON_AddStringToObject(o, "scope",
		    kind_scope_name(all[i]->scope));
		cJSON_AddStringToObject(o, "help", kind_help(all[i]));
		cJSON_AddItemToArray(list, o);
	}
	if (c->out == CLI_OUT_JSON)
		cli_print_json(list);
	else if (c->out == CLI_OUT_YAML)
		cli_print_yaml(list);
	cJSON_Delete(list);
	buf_free(&verbs);
	return (0);
}

/* ---- upload ------------------------------------------------------------------- */

/* The progress bar is redrawn at most this often (ms). */
#define CLI_DRAW_MS		250L
#define CLI_MIB			(1024.0 * 1024.0)

/* What the upload thread shares with the main thread. */
struct cli_upload {
	struct jobs		*jobs;
	unsigned long		 id;
	struct http_client	*http;		/* the upload's own client */
	struct tusc_options	 opts;
	struct tusc_result	 res;
	long long		 resumed;	/* atomic; -1 until known */
};

static double
cli_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* On the upload thread: tusc's progress into a PROGRESS event. */
static int
cli_upload_progress(long long done, long long total, void *arg)
{
	struct cli_upload	*u = arg;

	if (u->res.resumed_from >= 0)
		__atomic_store_n(&u->resumed, u->res.resumed_from,
		    __ATOMIC_RELEASE);
	return (jobs_progress(u->jobs, u->id, done, total));
}

/*
 * On the upload thread: why a resume was refused, a wait for the server.
 * One fprintf is one line (stdio locks the stream); on a terminal it
 * takes the progress bar's line, which the next draw puts back.
 */
static void
cli_upload_notice(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "%sedgetui: %s\n", isatty(STDERR_FILENO) ?
	    "\r\033[K" : "", msg);
	fflush(stderr);
}

/* The jobs_run function: the whole TUS upload, blocking. */
static enum status
cli_upload_run(struct jobs *j, unsigned long id, void *arg, cJSON **result,
    char **cause)
{
	struct cli_upload	*u = arg;
	enum status		 st;

	(void)j;
	(void)id;
	(void)result;
	st = tusc_upload(u->http, &u->opts, &u->res, cause);
	return (st);
}

/* The bar on stderr: percent, MB/s and ETA, over one line. */
struct cli_bar {
	int		 tty;
	int		 drawn;
	double		 start;
	double		 last;
	long long	 base;		/* done when the rate was first seen */
	long long	 done;
	long long	 total;
};

static void
cli_bar_draw(struct cli_bar *b, int force)
{
	double		 now = cli_now(), secs, rate = 0, pct = 0;
	long long	 left;
	char		 eta[32];

	if (!b->tty || b->total <= 0)
		return;
	if (!force && b->drawn && (now - b->last) * 1000 < CLI_DRAW_MS)
		return;
	b->last = now;
	secs = now - b->start;
	if (secs > 0 && b->done > b->base)
		rate = (double)(b->done - b->base) / secs;
	pct = 100.0 * (double)b->done / (double)b->total;
	left = b->total - b->done;
	if (rate > 0 && left > 0)
		snprintf(eta, sizeof eta, "%lld:%02lld",
		    (long long)(left / rate) / 60,
		    (long long)(left / rate) % 60);
	else
		snprintf(eta, sizeof eta, "--:--");
	fprintf(stderr, "\r\033[Kupload: %5.1f%%  %.1f/%.1f MiB  %.2f MB/s  "
	    "ETA %s", pct, (double)b->done / CLI_MIB,
	    (double)b->total / CLI_MIB, rate / 1e6, eta);
	fflush(stderr);
	b->drawn = 1;
}

static void
cli_bar_end(struct cli_bar *b)
{
	if (b->tty && b->drawn) {
		cli_bar_draw(b, 1);
		fputc('\n', stderr);
		fflush(stderr);
	}
}

/* Print "resuming at N MiB" once, when the thread has found the offset. */
static void
cli_upload_resumed(struct cli_upload *u, int *said, long long from)
{
	if (*said || from < 0)
		return;
	*said = 1;
	fprintf(stderr, "%sedgetui: resuming at %lld MiB\n",
	    isatty(STDERR_FILENO) ? "\r\033[K" : "",
	    from / (1024LL * 1024));
	(void)u;
}

/* Wait for the upload's events, drawing progress; the event's status. */
static int
cli_upload_wait(struct cli_upload *u, struct cli_bar *bar, char **cause)
{
	struct jobs_event	 ev;
	struct pollfd		 pfd;
	int			 said = 0, over = 0, rv = HTTP_EXIT_OK;

	pfd.fd = jobs_fd(u->jobs);
	pfd.events = POLLIN;
	while (!over) {
		if (poll(&pfd, 1, (int)CLI_DRAW_MS) == -1 && errno != EINTR) {
			xasprintf(cause, "poll: %s", strerror(errno));
			jobs_cancel(u->jobs, u->id);
			return (HTTP_EXIT_TRANSPORT);
		}
		while (jobs_next_event(u->jobs, &ev)) {
			cli_upload_resumed(u, &said, __atomic_load_n(
			    &u->resumed, __ATOMIC_ACQUIRE));
			switch (ev.kind) {
			case JOBS_EVENT_PROGRESS:
				if (bar->total == 0) {
					bar->start = cli_now();
					bar->base = ev.done;
				}
				bar->done = ev.done;
				bar->total = ev.total;
				break;
			case JOBS_EVENT_DONE:
				over = 1;
				break;
			case JOBS_EVENT_FAILED:
				over = 1;
				free(*cause);
				*cause = ev.cause;
				ev.cause = NULL;
				break;
			default:
				break;
			}
			jobs_event_free(&ev);
		}
		if (!over)
			cli_bar_draw(bar, 0);
	}
	/* The thread is over: its result may be read without a lock. */
	cli_upload_resumed(u, &said, u->res.resumed_from);
	if (u->res.status == STATUS_OK) {
		bar->done = bar->total = u->res.size;
		cli_bar_end(bar);
	} else {
		if (bar->tty && bar->drawn)
			fputc('\n', stderr);
		rv = http_exit_status(u->res.status, u->res.http_status);
	}
	return (rv);
}

static int
cli_cmd_upload(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	const struct cli_opts	*o = c->o;
	struct cli_upload	 u;
	struct cli_bar		 bar;
	struct stat		 sb;
	struct jobs		*jobs = NULL;
	char			*cause = NULL, *state = NULL;
	const char		*file;
	int			 rv;

	(void)unused_k;
	if (argc != 2)
		return (cli_usage_error("usage: edgetui upload FILE [--name N] "
		    "[--creator C] [--require-signed-urls] [--chunk-size "
		    "BYTES]"));
	file = argv[1];
	memset(&u, 0, sizeof u);
	u.resumed = -1;
	u.res.resumed_from = -1;
	memset(&bar, 0, sizeof bar);

	/* Everything that can be checked is, before anything is sent. */
	if (stat(file, &sb) != 0)
		return (cli_error(HTTP_EXIT_USAGE, "%s: %s", file,
		    strerror(errno)));
	if (!S_ISREG(sb.st_mode))
		return (cli_error(HTTP_EXIT_USAGE, "%s: not a regular file",
		    file));
	if (access(file, R_OK) != 0)
		return (cli_error(HTTP_EXIT_USAGE, "%s: %s", file,
		    strerror(errno)));
	u.opts.chunk_size = o->chunk_size != 0 ? o->chunk_size :
	    c->cfg->prefs.chunk_size;
	if (u.opts.chunk_size != 0 &&
	    tusc_chunk_check(u.opts.chunk_size, &cause) != 0) {
		rv = cli_usage_error("--chunk-size: %s", cause);
		free(cause);
		return (rv);
	}
	if (c->vars[0].value == NULL || *c->vars[0].value == '\0')
		return (cli_usage_error("upload: an account is needed "
		    "(--account, CLOUDFLARE_ACCOUNT_ID or the profile)"));
	if ((state = config_state_dir(NULL, &cause)) == NULL) {
		log_warn("no resume journal: %s", cause);
		free(cause);
		cause = NULL;
	}
	if ((rv = cli_connect_upload(c, &u.http)) != 0)
		goto out;

	u.opts.file = file;
	u.opts.base_url = c->base_url;
	u.opts.account = c->vars[0].value;
	u.opts.creator = o->creator;
	u.opts.meta.name = o->name;
	u.opts.meta.require_signed = o->require_signed;
	u.opts.state_dir = state;
	u.opts.progress = cli_upload_progress;
	u.opts.progress_arg = &u;
	u.opts.notice = cli_upload_notice;

	/* The worker takes c->http; the upload runs on its own client. */
	if ((jobs = jobs_new(c->http, &cause)) == NULL) {
		rv = cli_error(HTTP_EXIT_TRANSPORT, "%s", cause);
		free(cause);
		goto out;
	}
	u.jobs = jobs;
	bar.tty = isatty(STDERR_FILENO);
	if (jobs_run(jobs, cli_upload_run, &u, NULL, &u.id) != STATUS_OK) {
		rv = cli_error(HTTP_EXIT_TRANSPORT, "upload: the worker is "
		    "not running");
		goto out;
	}
	rv = cli_upload_wait(&u, &bar, &cause);
	if (rv == HTTP_EXIT_OK) {
		printf("%s\n", u.res.uid);
		fflush(stdout);
	} else {
		cli_error(rv, "upload %s: %s", file, cause != NULL ? cause :
		    status_message(u.res.status));
		if (u.res.uid != NULL && *u.res.uid != '\0' && state != NULL)
			fprintf(stderr, "edgetui: video %s is unfinished; run "
			    "the same command again to resume\n", u.res.uid);
	}
out:
	/* jobs_free waits for the upload thread before its client goes. */
	if (jobs != NULL)
		jobs_free(jobs);
	if (u.http != NULL)
		http_client_free(u.http);
	tusc_result_free(&u.res);
	free(cause);
	free(state);
	return (rv);
}

/* ---- download ----------------------------------------------------------------- */

/* The download's default.status and default.url, or NULL. */
static const char *
cli_dl_field(const cJSON *result, const char *name)
{
	const cJSON	*d, *v;

	d = cJSON_GetObjectItemCaseSensitive(result, "default");
	v = cJSON_GetObjectItemCaseSensitive(d, name);
	return (cJSON_IsString(v) ? v->valuestring : NULL);
}

static void
cli_dl_url(struct cli *c, const cJSON *result)
{
	const char	*url = cli_dl_field(result, "url");

	if (c->out == CLI_OUT_TABLE)
		printf("%s\n", url != NULL ? url : "");
	else if (c->out == CLI_OUT_JSON)
		cli_print_json(result);
	else
		cli_print_yaml(result);
	fflush(stdout);
}

/* Poll the downloads object until default.status is "ready". */
static int
cli_dl_wait(struct cli *c, const char *path)
{
	struct jobs_poll_options po;
	struct http_request	 req;
	struct jobs_event	 ev;
	struct pollfd		 pfd;
	struct jobs		*jobs;
	unsigned long		 id;
	const char		*st;
	const cJSON		*pct;
	char			*cause = NULL;
	int			 rv = -1, tty = isatty(STDERR_FILENO), drawn = 0;

	if ((jobs = jobs_new(c->http, &cause)) == NULL) {
		rv = cli_error(HTTP_EXIT_TRANSPORT, "%s", cause);
		free(cause);
		return (rv);
	}
	memset(&req, 0, sizeof req);
	req.method = "GET";
	req.path = path;
	memset(&po, 0, sizeof po);
	po.first_ms = JOBS_POLL_FIRST_MS;
	po.max_ms = JOBS_POLL_MAX_MS;
	po.field = "default.status";
	po.equals = "ready";
	if (jobs_poll(jobs, &req, &po, NULL, &id) != STATUS_OK) {
		rv = cli_error(HTTP_EXIT_TRANSPORT, "download: the worker is "
		    "not running");
		goto out;
	}
	pfd.fd = jobs_fd(jobs);
	pfd.events = POLLIN;
	while (rv < 0) {
		if (poll(&pfd, 1, -1) == -1 && errno != EINTR) {
			rv = cli_error(HTTP_EXIT_TRANSPORT, "poll: %s",
			    strerror(errno));
			break;
		}
		while (rv < 0 && jobs_next_event(jobs, &ev)) {
			switch (ev.kind) {
			case JOBS_EVENT_DONE:
				if (tty && drawn)
					fputs("\r\033[K", stderr);
				cli_dl_url(c, ev.result);
				rv = HTTP_EXIT_OK;
				break;
			case JOBS_EVENT_FAILED:
				if (tty && drawn)
					fputc('\n', stderr);
				rv = http_exit_status(ev.status,
				    ev.http_status);
				cli_error(rv, "%s", ev.cause != NULL ?
				    ev.cause : status_message(ev.status));
				break;
			case JOBS_EVENT_POLL_UPDATE:
				st = cli_dl_field(ev.result, "status");
				if (st != NULL && strcmp(st, "error") == 0) {
					rv = cli_error(HTTP_EXIT_REFUSED,
					    "download: the server reports an "
					    "error for %s", path);
					break;
				}
				pct = kind_json_get(ev.result,
				    "default.percentComplete");
				if (tty && cJSON_IsNumber(pct)) {
					fprintf(stderr, "\r\033[Kdownload: "
					    "%s %.1f%%", st != NULL ? st : "",
					    pct->valuedouble);
					fflush(stderr);
					drawn = 1;
				}
				break;
			default:
				break;
			}
			jobs_event_free(&ev);
		}
	}
out:
	jobs_free(jobs);
	return (rv);
}

static int
cli_cmd_download(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	const struct kind	*vk = kind_find("videos");
	const struct kind	*dk = kind_find("downloads");
	struct http_response	 resp;
	char			*path = NULL, *cause = NULL;
	const char		*st;
	int			 rv;

	(void)unused_k;
	if (argc != 2)
		return (cli_usage_error("usage: edgetui download VIDEO_ID "
		    "[--wait]"));
	if (kind_id_check(vk, argv[1], &cause) != 0) {
		rv = cli_usage_error("download: %s", cause);
		free(cause);
		return (rv);
	}
	c->vars[2].value = argv[1];
	if ((path = kind_create_path(dk, c->vars, &cause)) == NULL) {
		rv = cli_usage_error("download: %s", cause);
		free(cause);
		return (rv);
	}
	if ((rv = cli_connect(c)) != 0)
		goto out;
	if ((rv = cli_send_json(c, "POST", path, NULL, &resp)) == 0) {
		cli_journal(c, "POST", path, resp.http_status, NULL,
		    resp.api.result);
		st = cli_dl_field(resp.api.result, "status");
		if (!(c->o->seen & CLI_OPT_WAIT))
			cli_print_record(c, dk, resp.api.result);
		else if (st != NULL && strcmp(st, "ready") == 0)
			cli_dl_url(c, resp.api.result);
		else {
			http_response_free(&resp);
			rv = cli_dl_wait(c, path);
			goto out;
		}
	}
	http_response_free(&resp);
out:
	free(path);
	return (rv);
}

/* ---- the table of commands ---------------------------------------------------- */

static const struct cli_command cli_commands[] = {
	{ "get", CLI_OPT_LIMIT | CLI_OPT_FILTER, 0, 1, cli_cmd_get, 1, 2,
	  "get KIND [ID] [--limit N] [--filter NAME=VALUE]..." },
	{ "create", CLI_OPT_FILE | CLI_OPT_NAME | CLI_OPT_WATERMARK |
	  CLI_OPT_VALIDATION, 1, 1, cli_cmd_create, 1, 1,
	  "create KIND [-f FILE]" },
	{ "update", CLI_OPT_FILE, 1, 1, cli_cmd_update, 1, 2,
	  "update KIND ID -f FILE" },
	{ "edit", CLI_OPT_YES, 1, 1, cli_cmd_edit, 1, 2,
	  "edit KIND ID [--yes]" },
	{ "delete", 0, 1, 1, cli_cmd_delete, 1, -1, "delete KIND ID..." },
	{ "kinds", 0, 0, 0, cli_cmd_kinds, 0, 0, "kinds" },
	{ "upload", CLI_OPT_NAME | CLI_OPT_UPLOAD, 1, 0, cli_cmd_upload, 0, 1,
	  "upload FILE [--name N] [--creator C] [--require-signed-urls] "
	  "[--chunk-size BYTES]" },
	{ "download", CLI_OPT_WAIT, 1, 0, cli_cmd_download, 0, 1,
	  "download VIDEO_ID [--wait]" },
};

static const struct cli_command *
cli_command_find(const char *name)
{
	size_t	i;

	for (i = 0; i < nitems(cli_commands); i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return (&cli_commands[i]);
	return (NULL);
}

int
cli_is_command(const char *name)
{
	return (cli_command_find(name) != NULL);
}

int
cli_run(const struct cli_opts *o, int argc, char **argv)
{
	const struct cli_command	*cmd = cli_command_find(argv[0]);
	const struct kind		*k = NULL;
	struct cli			 c;
	int				 rv, nargs = argc - 1;

	if (o->seen & ~cmd->opts)
		return (cli_usage_error("%s: an option was given that it does "
		    "not take (usage: edgetui %s)", cmd->name, cmd->usage));
	if (nargs < cmd->min_args || (cmd->max_args >= 0 &&
	    nargs > cmd->max_args))
		return (cli_usage_error("usage: edgetui %s", cmd->usage));
	if (cmd->min_args > 0 && (k = kind_find(argv[1])) == NULL)
		return (cli_usage_error("unknown kind '%s' (see edgetui "
		    "kinds)", argv[1]));

	memset(&c, 0, sizeof c);
	c.o = o;
	if ((rv = cli_setup(&c)) != 0)
		goto out;
	if (cmd->mutates && c.readonly) {
		rv = cli_error(HTTP_EXIT_USAGE, "read-only: %s refused, "
		    "nothing sent (--readonly or a read-only profile)",
		    cmd->name);
		goto out;
	}
	rv = k != NULL ? cmd->run(&c, k, argc - 1, argv + 1) :
	    cmd->run(&c, k, argc, argv);
out:
	cli_teardown(&c);
	return (rv);
}
