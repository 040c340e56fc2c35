/*
 * create: a JSON body from -f, a multipart upload whose parts the kind's
 * fields name, a JSON body holding a file's text and such fields, or no
 * body at all; then the record and what it shows once.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "http.h"
#include "kind.h"
#include "log.h"
#include "text.h"
#include "validate.h"

#include "cli.h"

/*
 * A text field for a multipart create: in the parts and in the record that
 * is validated, typed as the field is. Given twice, the last one counts.
 */
static void
cli_part_add(struct http_part *parts, size_t *n, cJSON *rec,
    const struct kind_field *f, const char *value)
{
	char	*end;
	double	 d;
	size_t	 i;

	for (i = 0; i < *n; i++)
		if (strcmp(parts[i].name, f->path) == 0)
			break;
	if (i == *n)
		(*n)++;
	parts[i].name = f->path;
	parts[i].value = value;
	cJSON_DeleteItemFromObjectCaseSensitive(rec, f->path);
	d = strtod(value, &end);
	if ((f->type == KIND_TYPE_NUMBER || f->type == KIND_TYPE_INT) &&
	    *value != '\0' && *end == '\0')
		cJSON_AddNumberToObject(rec, f->path, d);
	else if (f->type == KIND_TYPE_BOOL && strcmp(value, "true") == 0)
		cJSON_AddBoolToObject(rec, f->path, 1);
	else
		cJSON_AddStringToObject(rec, f->path, value);
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
		cli_part_add(parts, n, rec, f, f->values[0]);
	}
}

/* The field of a multipart kind that a create option sets, or NULL. */
static const struct kind_field *
cli_form_field(const struct kind *k, const char *option)
{
	const struct kind_field	*f;

	for (f = k->fields; f != NULL && f->path != NULL; f++)
		if (f->option != NULL && strcmp(f->option, option) == 0)
			return (f);
	return (NULL);
}

/* "--name --opacity ..." for a kind's form fields. */
static void
cli_form_options(const struct kind *k, struct buf *b)
{
	const struct kind_field	*f;

	for (f = k->fields; f != NULL && f->path != NULL; f++)
		if (f->option != NULL)
			buf_addf(b, "%s--%s", b->len != 0 ? " " : "",
			    f->option);
}

/* Whether a kind's create takes -f as a file and its fields as options. */
static int
cli_form_kind(const struct kind *k)
{
	return (k->create_body == KIND_BODY_MULTIPART ||
	    k->create_body == KIND_BODY_JSON_FILE);
}

/* Every multipart kind and its form options, for --help. */
void
cli_create_help(struct buf *b)
{
	const struct kind *const	*all;
	struct buf			 opts = BUF_INITIALIZER;
	size_t				 n, i;

	all = kind_all(&n);
	for (i = 0; i < n; i++) {
		if (!cli_form_kind(all[i]))
			continue;
		buf_reset(&opts);
		cli_form_options(all[i], &opts);
		buf_addf(b, "%s%s: %s", b->len != 0 ? "\n" : "",
		    all[i]->name, buf_str(&opts));
	}
	buf_free(&opts);
}

/* The file part: the kind's KIND_TYPE_FILE field, from -f. */
static const struct kind_field *
cli_form_file(const struct kind *k)
{
	const struct kind_field	*f;

	for (f = k->fields; f != NULL && f->path != NULL; f++)
		if (f->type == KIND_TYPE_FILE)
			return (f);
	return (NULL);
}

/*
 * cli_validate for a record made from the form options: a field that has
 * an option is named by it, since that is what the user types.
 */
static int
cli_validate_form(const struct kind *k, const cJSON *rec)
{
	const struct kind_field	*f;
	struct validate_error	*errs;
	size_t			 n, i;
	char			 help[160];

	if (validate_record(k, rec, VALIDATE_CREATE, &errs, &n) == 0)
		return (0);
	for (i = 0; i < n; i++) {
		f = *errs[i].field != '\0' ? kind_field_find(k,
		    errs[i].field) : NULL;
		if (f == NULL || f->option == NULL)
			cli_error(-1, "%s: %s", *errs[i].field != '\0' ?
			    errs[i].field : "(body)", errs[i].message);
		else if (strcmp(errs[i].message, "required") == 0) {
			snprintf(help, sizeof help, "%s", f->help != NULL ?
			    f->help : "");
			help[0] = (char)tolower((unsigned char)help[0]);
			cli_error(-1, "--%s is required%s%s", f->option,
			    *help != '\0' ? ": " : "", help);
		} else
			cli_error(-1, "--%s: %s", f->option, errs[i].message);
	}
	cli_error(-1, "%zu problem%s; nothing was sent", n, n == 1 ? "" : "s");
	validate_errors_free(errs, n);
	return (-1);
}

/*
 * The parts and the record to validate from -f and the form options; -1
 * after the message for an option the kind does not take.
 */
static int
cli_form(const struct cli_opts *o, const struct kind *k,
    struct http_part *parts, size_t *n, cJSON *rec)
{
	const struct kind_field	*f;
	struct buf		 opts = BUF_INITIALIZER;
	const char		*option, *value;
	size_t			 i;

	if ((f = cli_form_file(k)) != NULL) {
		cJSON_AddStringToObject(rec, f->path, o->file);
		parts[*n].name = f->path;
		parts[(*n)++].file = o->file;
	}
	for (i = 0; i <= o->nfields; i++) {
		option = i == 0 ? "name" : o->fields[i - 1].option;
		value = i == 0 ? o->name : o->fields[i - 1].value;
		if (value == NULL)
			continue;
		if ((f = cli_form_field(k, option)) == NULL) {
			cli_form_options(k, &opts);
			cli_usage_error("create %s: --%s is not one of its "
			    "fields (%s)", k->name, option, opts.len != 0 ?
			    buf_str(&opts) : "none");
			buf_free(&opts);
			return (-1);
		}
		cli_part_add(parts, n, rec, f, value);
	}
	cli_part_defaults(k, parts, n, rec);
	return (0);
}

static int
cli_create_multipart(struct cli *c, const struct kind *k, const char *path,
    struct http_response *resp)
{
	const struct cli_opts	*o = c->o;
	struct http_request	 req;
	struct http_part	 parts[CLI_MAX_FIELDS + 8];
	cJSON			*rec;
	size_t			 n = 0;
	int			 rv;

	if (o->file == NULL || strcmp(o->file, "-") == 0)
		return (cli_usage_error("create %s: -f FILE is the file to "
		    "upload (not stdin)", k->name));
	memset(parts, 0, sizeof parts);
	rec = cJSON_CreateObject();
	if (cli_form(o, k, parts, &n, rec) != 0 ||
	    cli_validate_form(k, rec) != 0) {
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

/* Whether text (len bytes) is UTF-8 without NUL, as a JSON string must be. */
static int
cli_utf8_text(const char *text, size_t len)
{
	uint32_t	cp;
	size_t		i, n;

	for (i = 0; i < len; i += n) {
		if ((n = text_utf8_decode(text + i, len - i, &cp)) == 0 ||
		    cp == 0)
			return (0);
	}
	return (1);
}

/*
 * A JSON create whose file field holds the file's text (a schema's
 * source), the other fields from the form options; a flag left out is
 * sent as false, since the service may need it.
 */
static int
cli_create_json_file(struct cli *c, const struct kind *k, const char *path,
    struct http_response *resp)
{
	const struct cli_opts	*o = c->o;
	const struct kind_field	*f;
	struct http_part	 parts[CLI_MAX_FIELDS + 8];
	cJSON			*rec;
	char			*text = NULL, *cause = NULL;
	size_t			 n = 0, len;
	int			 rv = HTTP_EXIT_USAGE;

	if (o->file == NULL || strcmp(o->file, "-") == 0)
		return (cli_usage_error("create %s: -f FILE is the file to "
		    "send (not stdin)", k->name));
	memset(parts, 0, sizeof parts);
	rec = cJSON_CreateObject();
	if (cli_form(o, k, parts, &n, rec) != 0 ||
	    cli_validate_form(k, rec) != 0)
		goto out;
	if ((text = cli_read_text(o->file, &len, &cause)) == NULL) {
		rv = cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		goto out;
	}
	if (!cli_utf8_text(text, len)) {
		rv = cli_error(HTTP_EXIT_USAGE, "%s: not UTF-8 text; nothing "
		    "was sent", o->file);
		goto out;
	}
	for (f = k->fields; f->path != NULL; f++) {
		if (f->type == KIND_TYPE_FILE)
			cJSON_ReplaceItemInObjectCaseSensitive(rec, f->path,
			    cJSON_CreateString(text));
		else if (f->type == KIND_TYPE_BOOL && f->option != NULL &&
		    !cJSON_HasObjectItem(rec, f->path))
			cJSON_AddFalseToObject(rec, f->path);
	}
	if ((rv = cli_connect(c)) == 0)
		rv = cli_send_json(c, "POST", path, rec, resp);
out:
	free(text);
	cJSON_Delete(rec);
	return (rv);
}

/*
 * The secrets the server made for a new record after a table (not those
 * sent: an output's stream key), and the kind's warning when they cannot
 * be read again (a signing key's private key).
 */
static void
cli_print_secrets(struct cli *c, const struct kind *k, const cJSON *rec)
{
	const struct kind_field	*f;
	const cJSON		*v;
	int			 any = 0;

	for (f = k->fields; f != NULL && f->path != NULL; f++) {
		if (!(f->flags & KIND_F_SECRET) ||
		    !(f->flags & KIND_F_READONLY) ||
		    !cJSON_IsString(v = kind_json_get(rec, f->path)))
			continue;
		if (c->out == CLI_OUT_TABLE)
			printf("%s: %s\n", f->path, v->valuestring);
		any = 1;
	}
	if (any && k->shown_once != NULL)
		log_warn("%s: %s", k->name, k->shown_once);
}

/* Form options given to a kind that takes its fields from -f. */
static int
cli_not_multipart(const struct kind *k)
{
	const struct kind *const	*all;
	struct buf			 names = BUF_INITIALIZER;
	size_t				 n, i;
	int				 rv;

	all = kind_all(&n);
	for (i = 0; i < n; i++)
		if (cli_form_kind(all[i]))
			buf_addf(&names, "%s%s", names.len != 0 ? ", " : "",
			    all[i]->name);
	rv = cli_usage_error("create %s: --name, --opacity, --validation... "
	    "are for creates from a file (%s); put fields in -f FILE", k->name,
	    buf_str(&names));
	buf_free(&names);
	return (rv);
}

int
cli_cmd_create(struct cli *c, const struct kind *k, int argc, char **argv)
{
	const struct cli_opts	*o = c->o;
	struct http_response	 resp;
	cJSON			*body = NULL;
	char			*path, *cause = NULL;
	int			 rv;

	(void)argc;
	(void)argv;
	if (!cli_form_kind(k) && (o->seen & (CLI_OPT_NAME | CLI_OPT_FIELD)))
		return (cli_not_multipart(k));
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
	case KIND_BODY_JSON_FILE:
		rv = cli_create_json_file(c, k, path, &resp);
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
		cli_token_remember(c, k, resp.api.result);
	}
out:
	http_response_free(&resp);
	cJSON_Delete(body);
	free(path);
	return (rv);
}
