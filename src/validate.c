/*
 * Checks of a record against its kind's field table, then the kind's
 * cross-field hook. The messages follow the service's ("period: 5 is out of
 * range (10 to 86400)") so a refusal reads the same whichever side made it.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "apirules.h"
#include "buf.h"
#include "jsonutil.h"
#include "text.h"
#include "validate.h"
#include "xmalloc.h"


struct validate_ctx {
	const struct kind	*kind;		/* NULL: validate_field */
	const cJSON		*body;
	enum validate_mode	 mode;
	const char		*prefix;	/* "[2]." in a bulk create */
	struct validate_error	*errs;
	size_t			 n;
	size_t			 cap;
};

/* ---- collecting --------------------------------------------------------- */

static void
validate_addv(struct validate_ctx *ctx, const char *field, const char *fmt,
    va_list ap) printflike(3, 0);

static void
validate_addv(struct validate_ctx *ctx, const char *field, const char *fmt,
    va_list ap)
{
	struct validate_error	*e;

	if (ctx->n == ctx->cap) {
		ctx->cap = ctx->cap == 0 ? 8 : ctx->cap * 2;
		ctx->errs = xreallocarray(ctx->errs, ctx->cap,
		    sizeof *ctx->errs);
	}
	e = &ctx->errs[ctx->n++];
	xasprintf(&e->field, "%s%s", ctx->prefix, field);
	/* "[2]." before a whole-body problem names just the item. */
	if (*field == '\0' && e->field[0] != '\0')
		e->field[strlen(e->field) - 1] = '\0';
	xvasprintf(&e->message, fmt, ap);
}

void
validate_add(struct validate_ctx *ctx, const char *field, const char *fmt,
    ...)
{
	va_list	ap;

	va_start(ap, fmt);
	validate_addv(ctx, field, fmt, ap);
	va_end(ap);
}

int
validate_failed(const struct validate_ctx *ctx, const char *field)
{
	size_t		 i, plen = strlen(ctx->prefix), n = strlen(field);
	const char	*f;

	for (i = 0; i < ctx->n; i++) {
		f = ctx->errs[i].field;
		if (strncmp(f, ctx->prefix, plen) != 0)
			continue;
		f += plen;
		if (strncmp(f, field, n) == 0 && (f[n] == '\0' ||
		    f[n] == '.' || f[n] == '['))
			return (1);
	}
	return (0);
}

const cJSON *
validate_body(const struct validate_ctx *ctx)
{
	return (ctx->body);
}

enum validate_mode
validate_mode(const struct validate_ctx *ctx)
{
	return (ctx->mode);
}

const cJSON *
validate_get(const cJSON *o, const char *path)
{
	const cJSON	*v = kind_json_get(o, path);

	return (cJSON_IsNull(v) ? NULL : v);
}

void
validate_errors_free(struct validate_error *errs, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(errs[i].field);
		free(errs[i].message);
	}
	free(errs);
}

char *
validate_errors_text(const struct validate_error *errs, size_t n,
    const char *sep)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;

	for (i = 0; i < n; i++) {
		if (i != 0)
			buf_adds(&b, sep);
		if (*errs[i].field != '\0')
			buf_addf(&b, "%s: ", errs[i].field);
		buf_adds(&b, errs[i].message);
	}
	if (b.len == 0)
		buf_adds(&b, "");
	return (buf_detach(&b, NULL));
}

/* ---- small helpers ------------------------------------------------------ */

static const char *
validate_type_name(const cJSON *v)
{
	return (v == NULL ? "absent" : jsonutil_type_name(v));
}

/* ---- string checks ------------------------------------------------------ */

/* An allowed origin is a domain: example.com, *.example.com or *. */
static const char *
validate_origin(const char *s)
{
	const char	*p;

	if (*s == '\0')
		return ("must not be empty");
	for (p = s; *p != '\0'; p++) {
		if ((unsigned char)*p <= 0x20 || *p == 0x7f)
			return ("must not contain spaces or control "
			    "characters");
	}
	if (strstr(s, "://") != NULL)
		return ("give the domain without a scheme, such as "
		    "example.com or *.example.com");
	if (strchr(s, '/') != NULL)
		return ("give the domain without a path, such as "
		    "example.com or *.example.com");
	return (NULL);
}

/* An OpenAPI document's version, as Schema Validation takes it. */
static void
validate_openapi(struct validate_ctx *ctx, const char *path, const char *s)
{
	struct buf	 b = BUF_INITIALIZER;
	char		 chunk[65536], *cause = NULL;
	size_t		 n;
	FILE		*fp;

	if ((fp = fopen(s, "r")) == NULL)
		return;
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_add(&b, chunk, n);
	fclose(fp);
	if (b.len > 0 && apirules_openapi_text(b.data, b.len, &cause) != 0) {
		validate_add(ctx, path, "'%.*s': %s", text_quote_len(s), s,
		    cause);
		free(cause);
	}
	buf_free(&b);
}

/*
 * A file for a multipart part: there, readable, regular, not empty; and
 * what its kind of document needs.
 */
static void
validate_file(struct validate_ctx *ctx, const struct kind_field *f,
    const char *path, const char *s)
{
	struct stat	sb;
	int		q = text_quote_len(s);

	if (stat(s, &sb) != 0 || access(s, R_OK) != 0)
		validate_add(ctx, path, "cannot read '%.*s': %s", q, s,
		    strerror(errno));
	else if (!S_ISREG(sb.st_mode))
		validate_add(ctx, path, "'%.*s' is not a regular file", q, s);
	else if (sb.st_size == 0)
		validate_add(ctx, path, "'%.*s' is empty", q, s);
	else if (f->check == KIND_CHECK_OPENAPI)
		validate_openapi(ctx, path, s);
}

/* ---- values ------------------------------------------------------------- */

static int
validate_want(struct validate_ctx *ctx, const char *path, const cJSON *v,
    int ok, const char *what)
{
	if (ok)
		return (1);
	validate_add(ctx, path, "must be %s, not %s", what,
	    validate_type_name(v));
	return (0);
}

static void
validate_number(struct validate_ctx *ctx, const struct kind_field *f,
    const char *path, const cJSON *v)
{
	double	d;

	if (!validate_want(ctx, path, v, cJSON_IsNumber(v),
	    f->type == KIND_TYPE_INT ? "an integer" : "a number"))
		return;
	d = v->valuedouble;
	if (!isfinite(d)) {
		validate_add(ctx, path, "must be a finite number");
		return;
	}
	if (f->type == KIND_TYPE_INT && floor(d) != d) {
		validate_add(ctx, path, "must be an integer, not %.15g", d);
		return;
	}
	if ((f->bounds & (KIND_MIN | KIND_MAX)) == (KIND_MIN | KIND_MAX) &&
	    (d < f->min || d > f->max))
		validate_add(ctx, path, "%.15g is out of range (%.15g to "
		    "%.15g)", d, f->min, f->max);
	else if ((f->bounds & KIND_MIN) && !(f->bounds & KIND_MAX) &&
	    d < f->min)
		validate_add(ctx, path, "%.15g is less than the minimum of "
		    "%.15g", d, f->min);
	else if ((f->bounds & KIND_MAX) && !(f->bounds & KIND_MIN) &&
	    d > f->max)
		validate_add(ctx, path, "%.15g is over the maximum of %.15g", d,
		    f->max);
}

static void
validate_enum(struct validate_ctx *ctx, const struct kind_field *f,
    const char *path, const cJSON *v)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*s;
	size_t		 i;

	kind_values_text(f->values, &b);
	if (!cJSON_IsString(v)) {
		validate_add(ctx, path, "must be one of %s, not %s",
		    buf_str(&b), validate_type_name(v));
		buf_free(&b);
		return;
	}
	s = v->valuestring;
	for (i = 0; f->values != NULL && f->values[i] != NULL; i++) {
		if (strcmp(s, f->values[i]) == 0 || ((f->flags &
		    KIND_F_NOCASE) && strcasecmp(s, f->values[i]) == 0)) {
			buf_free(&b);
			return;
		}
	}
	validate_add(ctx, path, "'%.*s' is not one of %s",
	    text_quote_len(s), s, buf_str(&b));
	buf_free(&b);
}

/* A string-typed value (STRING, TIME, URI, HEX32, UUID, FILE). */
static void
validate_string(struct validate_ctx *ctx, const struct kind_field *f,
    const char *path, const cJSON *v)
{
	char		 why[APIRULES_WHY_MAX];
	const char	*s, *bad = NULL;
	size_t		 n;
	int64_t		 t;

	if (!validate_want(ctx, path, v, cJSON_IsString(v), "a string"))
		return;
	s = v->valuestring;
	if (*s == '\0') {
		/* Only a plain string may be empty, and only if allowed. */
		if ((f->flags & KIND_F_NONEMPTY) ||
		    f->check != KIND_CHECK_NONE || f->type != KIND_TYPE_STRING)
			validate_add(ctx, path, "must not be empty");
		return;
	}
	if (f->max_len != 0 && (n = text_chars(s)) > f->max_len) {
		validate_add(ctx, path, "%zu characters is over the limit of "
		    "%zu", n, f->max_len);
		return;
	}
	switch (f->type) {
	case KIND_TYPE_TIME:
		if (kind_parse_time(s, &t) != 0)
			bad = "must be an RFC 3339 date-time such as "
			    "2014-01-02T02:20:00Z";
		break;
	case KIND_TYPE_URI:
		bad = apirules_url_why(s, f->example, why, sizeof why);
		break;
	case KIND_TYPE_HEX32:
		if (!apirules_hex32_ok(s))
			bad = "must be 32 hexadecimal digits";
		break;
	case KIND_TYPE_UUID:
		if (!apirules_uuid_ok(s))
			bad = "must be a UUID such as "
			    "0d9bf70c-92e1-4bb3-9411-34a3bcc59003";
		break;
	case KIND_TYPE_FILE:
		validate_file(ctx, f, path, s);
		return;
	default:
		break;
	}
	switch (bad == NULL ? f->check : KIND_CHECK_NONE) {
	case KIND_CHECK_HOST:
		bad = apirules_host_why(s, why, sizeof why);
		break;
	case KIND_CHECK_ENDPOINT:
		bad = apirules_endpoint_why(s, why, sizeof why);
		break;
	case KIND_CHECK_ORIGIN:
		bad = validate_origin(s);
		break;
	case KIND_CHECK_OPENAPI:
	case KIND_CHECK_NONE:
		break;
	}
	if (bad != NULL)
		validate_add(ctx, path, "'%.*s' %s", text_quote_len(s), s,
		    bad);
}

static void
validate_scalar(struct validate_ctx *ctx, const struct kind_field *f,
    const char *path, const cJSON *v)
{
	switch (f->type) {
	case KIND_TYPE_INT:
	case KIND_TYPE_NUMBER:
		validate_number(ctx, f, path, v);
		break;
	case KIND_TYPE_BOOL:
		validate_want(ctx, path, v, cJSON_IsBool(v), "a boolean");
		break;
	case KIND_TYPE_ENUM:
	case KIND_TYPE_ENUMS:
		validate_enum(ctx, f, path, v);
		break;
	default:
		validate_string(ctx, f, path, v);
		break;
	}
}

static void
validate_list(struct validate_ctx *ctx, const struct kind_field *f,
    const char *path, const cJSON *v)
{
	const cJSON	*item;
	char		*ipath;
	int		 i = 0, n;

	if (!validate_want(ctx, path, v, cJSON_IsArray(v), "an array"))
		return;
	n = cJSON_GetArraySize(v);
	if (n == 0 && (f->flags & KIND_F_NONEMPTY)) {
		validate_add(ctx, path, "must not be empty (leave it out "
		    "instead)");
		return;
	}
	if (f->max_items != 0 && (size_t)n > f->max_items) {
		validate_add(ctx, path, "at most %zu items, not %d",
		    f->max_items, n);
		return;
	}
	cJSON_ArrayForEach(item, v) {
		xasprintf(&ipath, "%s[%d]", path, i++);
		if (f->type == KIND_TYPE_OBJECTS)
			validate_want(ctx, ipath, item, cJSON_IsObject(item),
			    "an object");
		else if (f->type == KIND_TYPE_ENUMS)
			validate_enum(ctx, f, ipath, item);
		else if (validate_want(ctx, ipath, item,
		    cJSON_IsString(item), "a string")) {
			/* An item is a STRING with the same checks. */
			struct kind_field	 one = *f;

			one.type = KIND_TYPE_STRING;
			one.flags &= ~KIND_F_NONEMPTY;
			validate_string(ctx, &one, ipath, item);
		}
		free(ipath);
	}
}

static int
validate_required(const struct validate_ctx *ctx, const struct kind_field *f)
{
	if (!(f->flags & KIND_F_REQUIRED))
		return (0);
	if (ctx->kind == NULL || ctx->mode == VALIDATE_CREATE)
		return (1);
	return (ctx->kind->update_method == KIND_METHOD_PUT &&
	    !(f->flags & KIND_F_CREATE));
}

/* One value at its concrete path; v NULL when absent. */
static void
validate_value(struct validate_ctx *ctx, const struct kind_field *f,
    const char *path, const cJSON *v)
{
	if (v == NULL || (cJSON_IsNull(v) && !(f->flags & KIND_F_NOTNULL))) {
		if (validate_required(ctx, f))
			validate_add(ctx, path, "required");
		return;
	}
	switch (f->type) {
	case KIND_TYPE_MAP:
	case KIND_TYPE_OBJECT:
		validate_want(ctx, path, v, cJSON_IsObject(v), "an object");
		break;
	case KIND_TYPE_STRINGS:
	case KIND_TYPE_ENUMS:
	case KIND_TYPE_OBJECTS:
		validate_list(ctx, f, path, v);
		break;
	default:
		validate_scalar(ctx, f, path, v);
		break;
	}
}

/*
 * Follow the rest of a field's path from an object (parent) that is there,
 * into each item at a "[]"; a parent that is absent or of the wrong type
 * stops the walk (its own field says so).
 */
static void
validate_walk(struct validate_ctx *ctx, const struct kind_field *f,
    const cJSON *parent, const char *rest, struct buf *path)
{
	const char	*dot = strchr(rest, '.');
	const cJSON	*v, *item;
	size_t		 n, len = path->len;
	char		 key[128];
	int		 each, i = 0;

	n = dot != NULL ? (size_t)(dot - rest) : strlen(rest);
	each = n > 2 && strncmp(rest + n - 2, "[]", 2) == 0;
	if (n - (each ? 2 : 0) >= sizeof key)
		return;
	memcpy(key, rest, n - (each ? 2 : 0));
	key[n - (each ? 2 : 0)] = '\0';
	v = cJSON_GetObjectItemCaseSensitive(parent, key);
	buf_adds(path, key);
	if (dot == NULL) {
		validate_value(ctx, f, buf_str(path), v);
		goto out;
	}
	if (!each) {
		if (cJSON_IsObject(v)) {
			buf_addc(path, '.');
			validate_walk(ctx, f, v, dot + 1, path);
		}
		goto out;
	}
	if (!cJSON_IsArray(v))
		goto out;
	cJSON_ArrayForEach(item, v) {
		buf_truncate(path, len + strlen(key));
		buf_addf(path, "[%d].", i++);
		if (cJSON_IsObject(item))
			validate_walk(ctx, f, item, dot + 1, path);
	}
out:
	buf_truncate(path, len);
}

static void
validate_one(struct validate_ctx *ctx, const cJSON *body)
{
	const struct kind_field	*f;
	struct buf		 path = BUF_INITIALIZER;

	ctx->body = body;
	if (!cJSON_IsObject(body)) {
		validate_add(ctx, "", "must be a JSON object, not %s",
		    validate_type_name(body));
		return;
	}
	for (f = ctx->kind->fields; f->path != NULL; f++) {
		if (f->flags & KIND_F_READONLY)
			continue;
		if ((f->flags & KIND_F_CREATE) && ctx->mode != VALIDATE_CREATE)
			continue;
		if ((f->flags & KIND_F_UPDATE) && ctx->mode == VALIDATE_CREATE)
			continue;
		buf_reset(&path);
		validate_walk(ctx, f, body, f->path, &path);
	}
	buf_free(&path);
	if (ctx->kind->check != NULL)
		ctx->kind->check(ctx);
}

int
validate_record(const struct kind *k, const cJSON *body,
    enum validate_mode mode, struct validate_error **errs, size_t *n)
{
	struct validate_ctx	 ctx = {
		.kind = k, .mode = mode, .prefix = ""
	};
	const cJSON		*item;
	char			 prefix[32];
	int			 i = 0;

	if (cJSON_IsArray(body) && mode == VALIDATE_CREATE &&
	    (k->verbs & KIND_VERB_BULK_CREATE)) {
		if (cJSON_GetArraySize(body) == 0)
			validate_add(&ctx, "", "the list of %s is empty",
			    k->name);
		cJSON_ArrayForEach(item, body) {
			snprintf(prefix, sizeof prefix, "[%d].", i++);
			ctx.prefix = prefix;
			validate_one(&ctx, item);
		}
	} else
		validate_one(&ctx, body);
	*errs = ctx.errs;
	*n = ctx.n;
	if (ctx.n == 0) {
		free(ctx.errs);
		*errs = NULL;
		return (0);
	}
	return (-1);
}

int
validate_field(const struct kind_field *f, const cJSON *v, char **cause)
{
	struct validate_ctx	 ctx = {
		.mode = VALIDATE_CREATE, .prefix = ""
	};

	/* An item's field ("bypass[].name") is named as declared. */
	validate_value(&ctx, f, f->path, v);
	if (ctx.n == 0)
		return (0);
	*cause = validate_errors_text(ctx.errs, ctx.n, "; ");
	validate_errors_free(ctx.errs, ctx.n);
	return (-1);
}

/* ---- what changed ------------------------------------------------------- */

/*
 * The value at a concrete path ("bypass[1].value", "meta.name"), or NULL
 * (absent, or null: both mean "not there" to the checks).
 */
static const cJSON *
validate_at(const cJSON *o, const char *path)
{
	char	 key[128];
	size_t	 n;
	long	 i;
	char	*end;

	while (o != NULL && *path != '\0') {
		if (*path == '[') {
			i = strtol(path + 1, &end, 10);
			if (end == path + 1 || *end != ']' || i < 0 ||
			    !cJSON_IsArray(o) || i > INT_MAX)
				return (NULL);
			o = cJSON_GetArrayItem(o, (int)i);
			path = end + 1;
		} else {
			n = strcspn(path, ".[");
			if (!cJSON_IsObject(o) || n >= sizeof key)
				return (NULL);
			memcpy(key, path, n);
			key[n] = '\0';
			o = cJSON_GetObjectItemCaseSensitive(o, key);
			path += n;
		}
		if (*path == '.')
			path++;
	}
	return (cJSON_IsNull(o) ? NULL : o);
}

int
validate_changes(const struct kind *k, const cJSON *body, const cJSON *orig,
    enum validate_mode mode, struct validate_error **errs, size_t *n)
{
	const cJSON	*a, *b;
	size_t		 i, kept = 0;

	if (validate_record(k, body, mode, errs, n) == 0 || orig == NULL)
		return (*n == 0 ? 0 : -1);
	for (i = 0; i < *n; i++) {
		a = validate_at(body, (*errs)[i].field);
		b = validate_at(orig, (*errs)[i].field);
		/* "" is the whole record: a rule across fields stays. */
		if (*(*errs)[i].field != '\0' && (a == b ||
		    (a != NULL && b != NULL && cJSON_Compare(a, b, 1)))) {
			free((*errs)[i].field);
			free((*errs)[i].message);
			continue;
		}
		(*errs)[kept++] = (*errs)[i];
	}
	*n = kept;
	if (kept == 0) {
		free(*errs);
		*errs = NULL;
		return (0);
	}
	return (-1);
}
