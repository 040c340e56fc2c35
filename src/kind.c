/*
 * The resource registry: finding a kind, its paths, ids, paging and
 * filters, and rendering a record's cells from its columns. The kinds
 * themselves are data in src/kinds/.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "civil.h"
#include "apirules.h"
#include "kind.h"
#include "percent.h"
#include "text.h"
#include "xmalloc.h"

static const struct kind *const kind_table[] = {
	&kind_videos,
	&kind_live_inputs,
	&kind_live_outputs,
	&kind_watermarks,
	&kind_captions,
	&kind_audio_tracks,
	&kind_webhook,
	&kind_signing_keys,
	&kind_downloads,
	&kind_storage_usage,
	&kind_direct_uploads,
	&kind_api_config,
	&kind_discovery,
	&kind_discovered_operations,
	&kind_operations,
	&kind_schemas,
	&kind_user_schemas,
	&kind_validation_schemas,
	&kind_validation_settings,
	&kind_operation_validation,
	&kind_rate_limits,
	&kind_rate_limit_rules,
	&kind_rulesets,
	&kind_rule_versions,
};

static const struct {
	enum kind_verb	 verb;
	const char	*name;
} kind_verb_names[] = {
	{ KIND_VERB_LIST, "list" },
	{ KIND_VERB_GET, "get" },
	{ KIND_VERB_CREATE, "create" },
	{ KIND_VERB_UPDATE, "update" },
	{ KIND_VERB_DELETE, "delete" },
	{ KIND_VERB_BULK_CREATE, "bulk-create" },
	{ KIND_VERB_BULK_UPDATE, "bulk-update" },
	{ KIND_VERB_BULK_DELETE, "bulk-delete" },
	{ KIND_VERB_UPLOAD, "upload" },
	{ KIND_VERB_SET, "set" },
	{ KIND_VERB_CLEAR, "clear" },
};

/* ---- the table ---------------------------------------------------------- */

/* Whether word is one of the space-separated words of list. */
static int
kind_word_in(const char *list, const char *word)
{
	size_t	n = strlen(word), len;

	while (list != NULL && *list != '\0') {
		while (*list == ' ')
			list++;
		len = strcspn(list, " ");
		if (len != 0 && len == n && strncasecmp(list, word, n) == 0)
			return (1);
		list += len;
	}
	return (0);
}

const struct kind *
kind_find(const char *name)
{
	size_t	i;

	if (name == NULL || *name == '\0')
		return (NULL);
	for (i = 0; i < nitems(kind_table); i++) {
		if (strcasecmp(kind_table[i]->name, name) == 0)
			return (kind_table[i]);
	}
	for (i = 0; i < nitems(kind_table); i++) {
		if (kind_word_in(kind_table[i]->aliases, name))
			return (kind_table[i]);
	}
	return (NULL);
}

const struct kind *const *
kind_all(size_t *n)
{
	*n = nitems(kind_table);
	return (kind_table);
}

const char *
kind_help(const struct kind *k)
{
	return (k->help != NULL ? k->help : "");
}

const char *
kind_verb_name(enum kind_verb verb)
{
	size_t	i;

	for (i = 0; i < nitems(kind_verb_names); i++) {
		if (kind_verb_names[i].verb == verb)
			return (kind_verb_names[i].name);
	}
	return ("?");
}

void
kind_verbs_text(unsigned verbs, struct buf *b)
{
	size_t	i;
	int	first = 1;

	for (i = 0; i < nitems(kind_verb_names); i++) {
		if ((verbs & kind_verb_names[i].verb) == 0)
			continue;
		buf_addf(b, "%s%s", first ? "" : " ", kind_verb_names[i].name);
		first = 0;
	}
}

const char *
kind_method_name(enum kind_method m)
{
	switch (m) {
	case KIND_METHOD_GET:
		return ("GET");
	case KIND_METHOD_POST:
		return ("POST");
	case KIND_METHOD_PUT:
		return ("PUT");
	case KIND_METHOD_PATCH:
		return ("PATCH");
	case KIND_METHOD_DELETE:
		return ("DELETE");
	case KIND_METHOD_NONE:
		break;
	}
	return ("-");
}

const char *
kind_scope_name(enum kind_scope s)
{
	switch (s) {
	case KIND_SCOPE_ACCOUNT:
		return ("account");
	case KIND_SCOPE_ZONE:
		return ("zone");
	case KIND_SCOPE_VIDEO:
		return ("video");
	}
	return ("?");
}

const char *
kind_type_name(enum kind_type t)
{
	static const char *const names[] = {
		[KIND_TYPE_STRING] = "string",
		[KIND_TYPE_INT] = "integer",
		[KIND_TYPE_NUMBER] = "number",
		[KIND_TYPE_BOOL] = "boolean",
		[KIND_TYPE_ENUM] = "enum",
		[KIND_TYPE_STRINGS] = "strings",
		[KIND_TYPE_ENUMS] = "enums",
		[KIND_TYPE_MAP] = "map",
		[KIND_TYPE_OBJECT] = "object",
		[KIND_TYPE_OBJECTS] = "objects",
		[KIND_TYPE_TIME] = "date-time",
		[KIND_TYPE_URI] = "url",
		[KIND_TYPE_HEX32] = "hex32",
		[KIND_TYPE_UUID] = "uuid",
		[KIND_TYPE_FILE] = "file",
	};

	if ((size_t)t < nitems(names) && names[t] != NULL)
		return (names[t]);
	return ("?");
}

/* ---- paths -------------------------------------------------------------- */

static const char *
kind_var(const struct api_var *vars, const char *name)
{
	for (; vars != NULL && vars->name != NULL; vars++) {
		if (strcmp(vars->name, name) == 0)
			return (vars->value);
	}
	return (NULL);
}

/*
 * A scope variable the template uses must be there and be 32 hex digits
 * (account and zone ids and video uids all are).
 */
static int
kind_need(const struct kind *k, const char *tmpl, const struct api_var *vars,
    const char *name, const char *how, char **cause)
{
	char		 token[32];
	const char	*v;

	snprintf(token, sizeof token, "{%s}", name);
	if (strstr(tmpl, token) == NULL)
		return (0);
	v = kind_var(vars, name);
	if (v == NULL || *v == '\0') {
		*cause = xprintf("%s needs %s", k->name, how);
		return (-1);
	}
	if (!apirules_hex32_ok(v)) {
		/* {video} of a live input's outputs is the input's id. */
		if (strcmp(name, "video") == 0 && k->parent != NULL)
			name = "live input";
		*cause = xprintf("%s: '%.40s' is not %s %s id (32 hex digits)",
		    name, v, strcmp(name, "account") == 0 ? "an" : "a", name);
		return (-1);
	}
	return (0);
}

static char *
kind_expand(const struct kind *k, const char *tmpl, const struct api_var *vars,
    char **cause)
{
	if (kind_need(k, tmpl, vars, "account", "an account (--account ID "
	    "or CLOUDFLARE_ACCOUNT_ID)", cause) != 0 ||
	    kind_need(k, tmpl, vars, "zone", "a zone (--zone ID or "
	    "CLOUDFLARE_ZONE_ID)", cause) != 0 ||
	    kind_need(k, tmpl, vars, "video", k->parent != NULL ?
	    "a live input (--live-input ID)" : "a video (--video ID)",
	    cause) != 0)
		return (NULL);
	return (api_path(tmpl, vars, cause));
}

char *
kind_list_path(const struct kind *k, const struct api_var *vars,
    char **cause)
{
	if (k->list_path == NULL) {
		*cause = xprintf("%s cannot be listed or read (create only)",
		    k->name);
		return (NULL);
	}
	return (kind_expand(k, k->list_path, vars, cause));
}

char *
kind_create_path(const struct kind *k, const struct api_var *vars,
    char **cause)
{
	const char	*tmpl = k->create_path != NULL ? k->create_path :
			    k->list_path;

	if ((k->verbs & (KIND_VERB_CREATE | KIND_VERB_BULK_CREATE)) == 0 ||
	    tmpl == NULL) {
		*cause = xprintf("%s cannot be created", k->name);
		return (NULL);
	}
	return (kind_expand(k, tmpl, vars, cause));
}

char *
kind_item_path(const struct kind *k, const struct api_var *vars,
    const char *id, char **cause)
{
	struct api_var	*all;
	size_t		 n = 0;
	char		*path;

	if (k->item_path == NULL) {
		*cause = xprintf("%s has no call for one record", k->name);
		return (NULL);
	}
	if (k->shape == KIND_SHAPE_OBJECT) {
		if (id != NULL) {
			*cause = xprintf("%s is one object per %s: it takes "
			    "no id", k->name, kind_scope_name(k->scope));
			return (NULL);
		}
		return (kind_expand(k, k->item_path, vars, cause));
	}
	if (id == NULL || *id == '\0') {
		*cause = xprintf("%s: an id is needed", k->name);
		return (NULL);
	}
	if (kind_id_check(k, id, cause) != 0)
		return (NULL);
	while (vars != NULL && vars[n].name != NULL)
		n++;
	/* {id} first, so a caller's own "id" cannot stand in for it. */
	all = xcalloc(n + 2, sizeof *all);
	all[0].name = "id";
	all[0].value = id;
	if (n != 0)
		memcpy(all + 1, vars, n * sizeof *all);
	path = kind_expand(k, k->item_path, all, cause);
	free(all);
	return (path);
}

/* ---- ids ---------------------------------------------------------------- */

int
kind_id_check(const struct kind *k, const char *id, char **cause)
{
	const struct kind_field	*f;

	if (k->id_field == NULL) {
		*cause = xprintf("%s records have no id", k->name);
		return (-1);
	}
	if (id == NULL || *id == '\0') {
		*cause = xprintf("%s: the id is empty", k->name);
		return (-1);
	}
	if ((f = kind_field_find(k, k->id_field)) == NULL)
		return (0);
	if (f->type == KIND_TYPE_HEX32 && !apirules_hex32_ok(id)) {
		*cause = xprintf("%s: '%.40s' is not an id (32 hex digits)",
		    k->name, id);
		return (-1);
	}
	if (f->type == KIND_TYPE_UUID && !apirules_uuid_ok(id)) {
		*cause = xprintf("%s: '%.40s' is not an id (a UUID such as "
		    "0d9bf70c-92e1-4bb3-9411-34a3bcc59003)", k->name, id);
		return (-1);
	}
	return (0);
}

const char *
kind_record_id(const struct kind *k, const cJSON *record)
{
	const cJSON	*v;

	if (k->id_field == NULL)
		return (NULL);
	v = kind_json_get(record, k->id_field);
	return (cJSON_IsString(v) ? v->valuestring : NULL);
}

/* ---- paging ------------------------------------------------------------- */

int
kind_per_page_check(const struct kind *k, long n, char **cause)
{
	const struct kind_per_page	*pp = &k->per_page;

	if (pp->max == 0) {
		*cause = xprintf("%s is not paged", k->name);
		return (-1);
	}
	if (n < pp->min || n > pp->max) {
		*cause = xprintf("per_page: %ld is out of range (%ld to %ld)",
		    n, pp->min, pp->max);
		return (-1);
	}
	if (pp->step > 1 && n != pp->min && n % pp->step != 0) {
		*cause = xprintf("per_page: %ld must be %ld or a multiple of "
		    "%ld (up to %ld)", n, pp->min, pp->step, pp->max);
		return (-1);
	}
	return (0);
}

void
kind_pager_opts(const struct kind *k, struct pager_opts *opts)
{
	memset(opts, 0, sizeof *opts);
	if (k->shape == KIND_SHAPE_WRAPPED)
		opts->key = k->list_key;
	if (k->paging == PAGER_CREATED) {
		opts->id_field = k->id_field;
		opts->time_field = "created";
	}
}

/* ---- filters ------------------------------------------------------------ */

const struct kind_filter *
kind_filter_find(const struct kind *k, const char *name)
{
	const struct kind_filter	*f;
	size_t				 n;

	if (k->filters == NULL || name == NULL)
		return (NULL);
	/* "host[]" names the same filter as "host". */
	n = strlen(name);
	if (n > 2 && strcmp(name + n - 2, "[]") == 0)
		n -= 2;
	for (f = k->filters; f->name != NULL; f++) {
		if (strlen(f->name) == n && strncmp(f->name, name, n) == 0)
			return (f);
	}
	return (NULL);
}

const struct kind_filter *
kind_filter_text(const struct kind *k)
{
	const struct kind_filter	*f;

	for (f = k->filters; f != NULL && f->name != NULL; f++) {
		if (f->flags & KIND_FILTER_TEXT)
			return (f);
	}
	return (NULL);
}

void
kind_values_text(const char *const *values, struct buf *b)
{
	size_t	i;

	for (i = 0; values != NULL && values[i] != NULL; i++)
		buf_addf(b, "%s%s", i == 0 ? "" : ", ", values[i]);
}

/* The value as the server wants it, or NULL with *cause. */
static const char *
kind_filter_value(const struct kind_filter *f, const char *value,
    char **cause)
{
	struct buf	b = BUF_INITIALIZER;
	int64_t		t;
	size_t		i;

	switch (f->type) {
	case KIND_TYPE_BOOL:
		if (strcasecmp(value, "true") == 0 ||
		    strcasecmp(value, "yes") == 0 || strcmp(value, "1") == 0)
			return ("true");
		if (strcasecmp(value, "false") == 0 ||
		    strcasecmp(value, "no") == 0 || strcmp(value, "0") == 0)
			return ("false");
		*cause = xprintf("%s: '%.64s' is not true or false", f->name,
		    value);
		return (NULL);
	case KIND_TYPE_ENUM:
	case KIND_TYPE_ENUMS:
		for (i = 0; f->values != NULL && f->values[i] != NULL; i++) {
			if (strcasecmp(value, f->values[i]) == 0)
				return (f->values[i]);
		}
		kind_values_text(f->values, &b);
		*cause = xprintf("%s: '%.64s' is not one of %s", f->name, value,
		    buf_str(&b));
		buf_free(&b);
		return (NULL);
	case KIND_TYPE_TIME:
		if (kind_parse_time(value, &t) == 0)
			return (value);
		*cause = xprintf("%s: '%.64s' is not an RFC 3339 date-time "
		    "such as 2026-03-01T00:00:00Z", f->name, value);
		return (NULL);
	default:
		if (*value != '\0')
			return (value);
		*cause = xprintf("%s: the value is empty", f->name);
		return (NULL);
	}
}

int
kind_filter_add(const struct kind *k, const char *name, const char *value,
    struct buf *query, char **cause)
{
	const struct kind_filter	*f;
	const struct kind_filter	*g;
	const char			*v;
	struct buf			 b = BUF_INITIALIZER;

	if ((f = kind_filter_find(k, name)) == NULL) {
		for (g = k->filters; g != NULL && g->name != NULL; g++)
			buf_addf(&b, "%s%s", g == k->filters ? "" : ", ",
			    g->name);
		if (b.len == 0)
			*cause = xprintf("%s has no server-side filters",
			    k->name);
		else
			*cause = xprintf("%s has no filter '%.64s' (it has "
			    "%s)", k->name, name, buf_str(&b));
		buf_free(&b);
		return (-1);
	}
	if (value == NULL || (v = kind_filter_value(f, value, cause)) == NULL) {
		if (value == NULL)
			*cause = xprintf("%s: no value", f->name);
		return (-1);
	}
	if (query->len != 0 && query->data[query->len - 1] != '?' &&
	    query->data[query->len - 1] != '&')
		buf_addc(query, '&');
	percent_encode(query, f->name);
	buf_addc(query, '=');
	percent_encode(query, v);
	return (0);
}

/* ---- fields and columns ------------------------------------------------- */

/* Whether a concrete path ("bypass[1].name") matches "bypass[].name". */
static int
kind_path_match(const char *pattern, const char *path)
{
	while (*pattern != '\0' && *path != '\0') {
		if (*pattern == '[' && *path == '[') {
			if (pattern[1] != ']')
				return (0);
			path++;
			while (isdigit((unsigned char)*path))
				path++;
			if (*path != ']')
				return (0);
			pattern += 2;
			path++;
			continue;
		}
		if (*pattern++ != *path++)
			return (0);
	}
	return (*pattern == '\0' && *path == '\0');
}

const struct kind_field *
kind_field_find(const struct kind *k, const char *path)
{
	const struct kind_field	*f;

	if (path == NULL)
		return (NULL);
	for (f = k->fields; f != NULL && f->path != NULL; f++) {
		if (kind_path_match(f->path, path))
			return (f);
	}
	return (NULL);
}

const struct kind_column *
kind_column_find(const struct kind *k, const char *name)
{
	const struct kind_column	*c;

	for (c = k->columns; c != NULL && c->header != NULL; c++) {
		if (strcasecmp(c->header, name) == 0)
			return (c);
	}
	for (c = k->columns; c != NULL && c->header != NULL; c++) {
		if (strcmp(c->path, name) == 0)
			return (c);
	}
	return (NULL);
}

const cJSON *
kind_json_get(const cJSON *o, const char *path)
{
	const char	*dot;
	char		 key[128];
	size_t		 n;

	while (o != NULL && path != NULL) {
		dot = strchr(path, '.');
		n = dot != NULL ? (size_t)(dot - path) : strlen(path);
		if (!cJSON_IsObject(o) || n >= sizeof key)
			return (NULL);
		memcpy(key, path, n);
		key[n] = '\0';
		o = cJSON_GetObjectItemCaseSensitive(o, key);
		path = dot != NULL ? dot + 1 : NULL;
	}
	return (o);
}

/* ---- times -------------------------------------------------------------- */

int
kind_parse_time(const char *s, int64_t *out)
{
	long	nsec;
	int	digits;

	return (civil_parse_rfc3339(s, out, &nsec, &digits));
}

/* ---- cells -------------------------------------------------------------- */

/* A number without needless digits: 5, 0.465, 2050.22. */
static void
kind_add_number(struct buf *b, double d)
{
	char	tmp[64], *e;

	if (fabs(d) < 1e15 && floor(d) == d) {
		buf_addf(b, "%.0f", d);
		return;
	}
	snprintf(tmp, sizeof tmp, "%.3f", d);
	if (strchr(tmp, '.') != NULL) {
		e = tmp + strlen(tmp);
		while (e[-1] == '0')
			*--e = '\0';
		if (e[-1] == '.')
			e[-1] = '\0';
	}
	buf_adds(b, tmp);
}

static void
kind_add_grouped(struct buf *b, double d)
{
	char	tmp[64];
	size_t	i, n, lead;

	if (!(fabs(d) < 1e15)) {
		kind_add_number(b, d);
		return;
	}
	snprintf(tmp, sizeof tmp, "%.0f", fabs(d));
	n = strlen(tmp);
	if (d <= -0.5)
		buf_addc(b, '-');
	lead = n % 3 == 0 ? 3 : n % 3;
	for (i = 0; i < n; i++) {
		if (i >= lead && (i - lead) % 3 == 0)
			buf_addc(b, ',');
		buf_addc(b, tmp[i]);
	}
}

static void
kind_add_scalar(struct buf *b, const cJSON *v)
{
	if (cJSON_IsString(v))
		buf_adds(b, v->valuestring);
	else if (cJSON_IsNumber(v))
		kind_add_number(b, v->valuedouble);
	else if (cJSON_IsBool(v))
		buf_adds(b, cJSON_IsTrue(v) ? "yes" : "no");
	else if (cJSON_IsArray(v))
		buf_addf(b, "[%d]", cJSON_GetArraySize(v));
	else if (cJSON_IsObject(v))
		buf_adds(b, "{...}");
}

static void
kind_add_list(struct buf *b, const cJSON *v)
{
	const cJSON	*item;
	int		 first = 1;

	if (!cJSON_IsArray(v)) {
		kind_add_scalar(b, v);
		return;
	}
	cJSON_ArrayForEach(item, v) {
		if (!first)
			buf_addc(b, ',');
		kind_add_scalar(b, item);
		first = 0;
	}
}

/* A number, or a string holding one (pctComplete is a string). */
static int
kind_number(const cJSON *v, double *out)
{
	char	*end;

	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return (isfinite(*out) ? 0 : -1);
	}
	if (!cJSON_IsString(v) || *v->valuestring == '\0')
		return (-1);
	*out = strtod(v->valuestring, &end);
	return (*end == '\0' && isfinite(*out) ? 0 : -1);
}

static void
kind_add_bytes(struct buf *b, double d)
{
	static const char *const units[] = { "kB", "MB", "GB", "TB", "PB" };
	size_t			 i;

	if (d < 1000) {
		buf_addf(b, "%.0f B", d);
		return;
	}
	for (i = 0; i < nitems(units) - 1 && d >= 999.95e3; i++)
		d /= 1000;
	buf_addf(b, "%.1f %s", d / 1000, units[i]);
}

static void
kind_add_duration(struct buf *b, double d)
{
	long	s = lround(d), h = s / 3600, m = s / 60 % 60;

	if (h > 0)
		buf_addf(b, "%ld:%02ld:%02ld", h, m, s % 60);
	else
		buf_addf(b, "%ld:%02ld", m, s % 60);
}

/* A period in seconds the short way: 10s, 1m, 15m, 1h, 1d. */
static void
kind_add_period(struct buf *b, double d)
{
	long	s = lround(d);

	if (s > 0 && s % 86400 == 0)
		buf_addf(b, "%ldd", s / 86400);
	else if (s > 0 && s % 3600 == 0)
		buf_addf(b, "%ldh", s / 3600);
	else if (s > 0 && s % 60 == 0)
		buf_addf(b, "%ldm", s / 60);
	else
		buf_addf(b, "%lds", s);
}

static void
kind_add_time(struct buf *b, const cJSON *v)
{
	struct tm	tm;
	time_t		t;
	int64_t		sec;
	char		tmp[64];

	if (!cJSON_IsString(v) || kind_parse_time(v->valuestring, &sec) != 0) {
		kind_add_scalar(b, v);
		return;
	}
	t = (time_t)sec;
	if (localtime_r(&t, &tm) == NULL ||
	    strftime(tmp, sizeof tmp, "%Y-%m-%d %H:%M", &tm) == 0) {
		kind_add_scalar(b, v);
		return;
	}
	buf_adds(b, tmp);
}

int
kind_per_hour(const struct kind_column *c, const cJSON *record, double *out)
{
	double	n, period;

	if (kind_number(kind_json_get(record, c->path), &n) != 0 ||
	    kind_number(kind_json_get(record, c->path2), &period) != 0 ||
	    period <= 0)
		return (-1);
	*out = n * 3600 / period;
	return (0);
}

/* A count the short way, for a narrow column: 2050, 12.3k, 4.5M. */
static void
kind_add_short_count(struct buf *b, double d)
{
	if (d < 9999.5)
		buf_addf(b, "%.0f", d);
	else if (d < 999.95e3)
		buf_addf(b, "%.1fk", d / 1e3);
	else if (d < 999.95e6)
		buf_addf(b, "%.1fM", d / 1e6);
	else
		buf_addf(b, "%.1fG", d / 1e9);
}

/* Format a present, non-null value; 0 if it turns out to mean "unknown". */
static int
kind_format(const struct kind_column *c, const cJSON *v, const cJSON *record,
    struct buf *b)
{
	const cJSON	*v2;
	double		 d;

	switch (c->format) {
	case KIND_FMT_TIME:
		kind_add_time(b, v);
		return (1);
	case KIND_FMT_BYTES:
		if (kind_number(v, &d) != 0 || d < 0)
			break;
		kind_add_bytes(b, d);
		return (1);
	case KIND_FMT_DURATION:
		if (kind_number(v, &d) != 0)
			break;
		if (d < 0)
			return (0);
		kind_add_duration(b, d);
		return (1);
	case KIND_FMT_PCT:
		if (kind_number(v, &d) != 0)
			break;
		buf_addf(b, "%.0f%%", d);
		return (1);
	case KIND_FMT_COUNT:
		if (cJSON_IsArray(v))
			d = cJSON_GetArraySize(v);
		else if (cJSON_IsObject(v))
			d = cJSON_GetArraySize(v);
		else if (kind_number(v, &d) != 0)
			break;
		kind_add_grouped(b, d);
		return (1);
	case KIND_FMT_NUMBER:
		if (kind_number(v, &d) != 0)
			break;
		if (d == 0 && c->zero != NULL)
			buf_adds(b, c->zero);
		else
			kind_add_number(b, d);
		return (1);
	case KIND_FMT_RATE:
	case KIND_FMT_RATE_SECONDS:
		kind_add_scalar(b, v);
		v2 = kind_json_get(record, c->path2);
		if (kind_number(v2, &d) == 0) {
			buf_addc(b, '/');
			if (c->format == KIND_FMT_RATE)
				kind_add_period(b, d);
			else
				buf_addf(b, "%.0fs", d);
		}
		return (1);
	case KIND_FMT_PER_HOUR:
		if (kind_per_hour(c, record, &d) != 0)
			return (0);
		kind_add_short_count(b, d);
		return (1);
	case KIND_FMT_LIST:
	case KIND_FMT_TEXT:
	case KIND_FMT_BOOL:
		break;
	}
	kind_add_list(b, v);
	return (1);
}

int
kind_column_value(const struct kind *k, const struct kind_column *c,
    const cJSON *record, char *out, size_t size)
{
	const struct kind_field	*f;
	const cJSON		*v;
	struct buf		 b = BUF_INITIALIZER;
	int			 present;

	v = kind_json_get(record, c->path);
	present = v != NULL && !cJSON_IsNull(v);
	f = kind_field_find(k, c->path);
	if (present && f != NULL && (f->flags & KIND_F_SECRET))
		buf_adds(&b, "********");
	else if (present)
		present = kind_format(c, v, record, &b);
	text_sanitize(present ? buf_str(&b) : c->none != NULL ? c->none : "-",
	    out, size, 0);
	buf_free(&b);
	return (present);
}
