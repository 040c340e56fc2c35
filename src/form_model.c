/*
 * The form model: a kind's editable fields as typed text inputs over a
 * copy of the record, parsed and checked as they are typed, and put back
 * into that copy (members the form does not know left alone) to make the
 * body that is sent.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "buf.h"
#include "form_model.h"
#include "log.h"
#include "xmalloc.h"

#define FORM_QUOTE	40	/* characters of typed text quoted */
#define FORM_NEAR	16	/* characters after a JSON syntax error */
#define FORM_LIST_SEP	", \t\n"	/* between a list's items */

static const char *const form_toggle_values[] = { "yes", "no", NULL };

/* ---- JSON --------------------------------------------------------------- */

static cJSON *
form_json_check(cJSON *v)
{
	if (v == NULL)
		fatalx("form: out of memory");
	return (v);
}

static char *
form_json_text(const cJSON *v)
{
	char	*s, *copy;

	if ((s = cJSON_PrintUnformatted(v)) == NULL)
		fatalx("form: out of memory");
	copy = xstrdup(s);
	cJSON_free(s);
	return (copy);
}

/* Add or replace o's member key with v (owned). */
static void
form_json_put(cJSON *o, const char *key, cJSON *v)
{
	if (cJSON_GetObjectItemCaseSensitive(o, key) != NULL) {
		if (!cJSON_ReplaceItemInObjectCaseSensitive(o, key, v))
			fatalx("form: out of memory");
	} else if (!cJSON_AddItemToObject(o, key, v))
		fatalx("form: out of memory");
}

/* Put v (owned) at a dotted path, making the objects on the way. */
static void
form_json_set(cJSON *o, const char *path, cJSON *v)
{
	const char	*dot;
	char		*key;
	cJSON		*child;

	while ((dot = strchr(path, '.')) != NULL) {
		key = xstrndup(path, (size_t)(dot - path));
		child = cJSON_GetObjectItemCaseSensitive(o, key);
		if (!cJSON_IsObject(child)) {
			child = form_json_check(cJSON_CreateObject());
			form_json_put(o, key, child);
		}
		free(key);
		o = child;
		path = dot + 1;
	}
	form_json_put(o, path, v);
}

/*
 * Remove the member at a dotted path. An object the removal leaves empty
 * goes too, so emptying the last field of an optional object ("action.
 * response") leaves the object out rather than sending {}.
 */
static void
form_json_remove(cJSON *o, const char *path)
{
	const char	*dot = strchr(path, '.');
	char		*key;
	cJSON		*child;

	if (dot == NULL) {
		cJSON_DeleteItemFromObjectCaseSensitive(o, path);
		return;
	}
	key = xstrndup(path, (size_t)(dot - path));
	child = cJSON_GetObjectItemCaseSensitive(o, key);
	if (cJSON_IsObject(child) && child->child != NULL) {
		form_json_remove(child, dot + 1);
		if (child->child == NULL)
			cJSON_DeleteItemFromObjectCaseSensitive(o, key);
	}
	free(key);
}

/* ---- text --------------------------------------------------------------- */

/* Bytes of s to quote: at most max characters, never half of one. */
static int
form_quote_len(const char *s, size_t max)
{
	size_t	i, n = 0;

	for (i = 0; s[i] != '\0'; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && n++ == max)
			break;
	}
	return ((int)i);
}

/* n bytes of s without white space at either end, as a new string. */
static char *
form_trimmed(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return (xstrndup(s, n));
}

/*
 * Whether s reads back the same after a split on commas and a trim: no
 * comma, none of also, no white space at the ends.
 */
static int
form_plain(const char *s, const char *also)
{
	size_t	n = strlen(s);

	if (n != 0 && (isspace((unsigned char)s[0]) ||
	    isspace((unsigned char)s[n - 1])))
		return (0);
	return (strchr(s, ',') == NULL && strpbrk(s, also) == NULL);
}

/* yes/true 1, no/false 0, anything else -1. */
static int
form_toggle_word(const char *s)
{
	if (strcasecmp(s, "yes") == 0 || strcasecmp(s, "true") == 0)
		return (1);
	if (strcasecmp(s, "no") == 0 || strcasecmp(s, "false") == 0)
		return (0);
	return (-1);
}

/* Whether v can be shown in an input without losing its type. */
static int
form_fits(enum form_input in, const cJSON *v)
{
	const cJSON	*e;

	switch (in) {
	case FORM_TEXT:
	case FORM_ENUM:
		return (cJSON_IsString(v));
	case FORM_NUMBER:
		return (cJSON_IsNumber(v));
	case FORM_TOGGLE:
		return (cJSON_IsBool(v));
	case FORM_LIST:
	case FORM_MAP:
		if (in == FORM_LIST ? !cJSON_IsArray(v) : !cJSON_IsObject(v))
			return (0);
		cJSON_ArrayForEach(e, v) {
			if (!cJSON_IsString(e))
				return (0);
		}
		return (1);
	case FORM_JSON:
		return (1);
	}
	return (0);
}

/*
 * "a, b, c". An item that would not read back the same (a comma, spaces
 * at its ends, empty) makes the whole list JSON text, which a LIST input
 * takes as well; [] is the empty list, as "" is no list at all.
 */
static char *
form_list_text(const cJSON *v)
{
	struct buf	 b = BUF_INITIALIZER;
	const cJSON	*e;

	if (v->child == NULL)
		return (xstrdup("[]"));
	cJSON_ArrayForEach(e, v) {
		if (*e->valuestring == '\0' ||
		    !form_plain(e->valuestring, FORM_LIST_SEP) ||
		    (e == v->child && *e->valuestring == '['))
			return (form_json_text(v));
	}
	cJSON_ArrayForEach(e, v) {
		if (e != v->child)
			buf_adds(&b, ", ");
		buf_adds(&b, e->valuestring);
	}
	return (buf_detach(&b, NULL));
}

/* "k=v, k2=v2"; JSON text as for lists when a pair would not read back. */
static char *
form_map_text(const cJSON *v)
{
	struct buf	 b = BUF_INITIALIZER;
	const cJSON	*e;

	if (v->child == NULL)
		return (xstrdup("{}"));
	cJSON_ArrayForEach(e, v) {
		if (*e->string == '\0' || !form_plain(e->string, "=") ||
		    !form_plain(e->valuestring, "") ||
		    (e == v->child && *e->string == '{'))
			return (form_json_text(v));
	}
	cJSON_ArrayForEach(e, v) {
		if (e != v->child)
			buf_adds(&b, ", ");
		buf_addf(&b, "%s=%s", e->string, e->valuestring);
	}
	return (buf_detach(&b, NULL));
}

char *
form_text_of(enum form_input in, const cJSON *v)
{
	if (v == NULL || cJSON_IsNull(v))
		return (xstrdup(""));
	if (!form_fits(in, v))
		return (form_json_text(v));
	switch (in) {
	case FORM_TEXT:
	case FORM_ENUM:
		return (xstrdup(v->valuestring));
	case FORM_TOGGLE:
		return (xstrdup(cJSON_IsTrue(v) ? "yes" : "no"));
	case FORM_LIST:
		return (form_list_text(v));
	case FORM_MAP:
		return (form_map_text(v));
	default:
		/* Numbers as JSON has them: 10, 0.5, 1e+20. */
		return (form_json_text(v));
	}
}

/* ---- fields ------------------------------------------------------------- */

static enum form_input
form_input_of(enum kind_type t)
{
	switch (t) {
	case KIND_TYPE_STRING:
	case KIND_TYPE_TIME:
	case KIND_TYPE_URI:
	case KIND_TYPE_HEX32:
	case KIND_TYPE_UUID:
		return (FORM_TEXT);
	case KIND_TYPE_INT:
	case KIND_TYPE_NUMBER:
		return (FORM_NUMBER);
	case KIND_TYPE_BOOL:
		return (FORM_TOGGLE);
	case KIND_TYPE_ENUM:
		return (FORM_ENUM);
	case KIND_TYPE_STRINGS:
	case KIND_TYPE_ENUMS:
		return (FORM_LIST);
	case KIND_TYPE_MAP:
		return (FORM_MAP);
	default:
		return (FORM_JSON);
	}
}

/* The field declared as f's parent ("match.request" of its "url"), or NULL. */
static const struct kind_field *
form_parent(const struct kind *k, const struct kind_field *f)
{
	const struct kind_field	*p;
	const char		*dot = strrchr(f->path, '.');
	size_t			 n;

	if (dot == NULL)
		return (NULL);
	n = (size_t)(dot - f->path);
	for (p = k->fields; p->path != NULL; p++) {
		if (strncmp(p->path, f->path, n) == 0 && p->path[n] == '\0')
			return (p);
	}
	return (NULL);
}

/* Whether key of the MAP at path is declared as a field of its own. */
static int
form_claimed(const struct kind *k, const char *path, const char *key)
{
	const struct kind_field	*f;
	size_t			 n = strlen(path);

	for (f = k->fields; f->path != NULL; f++) {
		if (strncmp(f->path, path, n) == 0 && f->path[n] == '.' &&
		    strcmp(f->path + n + 1, key) == 0)
			return (1);
	}
	return (0);
}

static int
form_has_members(const struct kind *k, const struct kind_field *f)
{
	const struct kind_field	*g;

	for (g = k->fields; g->path != NULL; g++) {
		if (form_parent(k, g) == f)
			return (1);
	}
	return (0);
}

/* Required by the mode, as validate.c has it. */
static int
form_field_required(const struct form *form, const struct kind_field *f)
{
	if (!(f->flags & KIND_F_REQUIRED))
		return (0);
	if (form->mode == VALIDATE_CREATE)
		return (1);
	return (form->kind->update_method == KIND_METHOD_PUT &&
	    !(f->flags & KIND_F_CREATE));
}

/* Required, and in no optional object: it can never be left out. */
static int
form_always_required(const struct form *form, const struct kind_field *f)
{
	for (; f != NULL; f = form_parent(form->kind, f)) {
		if (!form_field_required(form, f))
			return (0);
	}
	return (1);
}

/*
 * Required in body: a required member of an optional object is required
 * only when that object is there (action.response.content_type).
 */
static int
form_needed(const struct form *form, const struct kind_field *f,
    const cJSON *body)
{
	const struct kind_field	*p;

	if (!form_field_required(form, f))
		return (0);
	for (p = form_parent(form->kind, f); p != NULL;
	    p = form_parent(form->kind, p)) {
		if (!form_field_required(form, p) &&
		    validate_get(body, p->path) == NULL)
			return (0);
	}
	return (1);
}

/* ---- parsing ------------------------------------------------------------ */

static int
form_parse_json(const char *text, cJSON **out, char **why)
{
	const char	*end = NULL;

	if ((*out = cJSON_ParseWithOpts(text, &end, 1)) != NULL)
		return (0);
	if (end == NULL || end < text)
		end = text;
	if (*end == '\0')
		*why = xstrdup("JSON syntax error: the text ends too soon");
	else
		xasprintf(why, "JSON syntax error at byte %zu, near '%.*s'",
		    (size_t)(end - text) + 1, form_quote_len(end, FORM_NEAR),
		    end);
	return (-1);
}

/* JSON's number syntax, leading zeros allowed; no hex, inf or nan. */
static int
form_parse_number(const char *t, cJSON **out, char **why)
{
	const unsigned char	*p = (const unsigned char *)t;

	if (*p == '-')
		p++;
	if (!isdigit(*p))
		goto bad;
	while (isdigit(*p))
		p++;
	if (*p == '.') {
		if (!isdigit(*++p))
			goto bad;
		while (isdigit(*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		if (*++p == '+' || *p == '-')
			p++;
		if (!isdigit(*p))
			goto bad;
		while (isdigit(*p))
			p++;
	}
	/* cJSON reads it whatever the locale's decimal point. */
	if (*p == '\0' && (*out = cJSON_Parse(t)) != NULL)
		return (0);
bad:
	xasprintf(why, "'%.*s' is not a number", form_quote_len(t, FORM_QUOTE),
	    t);
	return (-1);
}

static int
form_parse_toggle(const char *t, cJSON **out, char **why)
{
	int	on = form_toggle_word(t);

	if (on == -1) {
		xasprintf(why, "'%.*s' is not yes or no",
		    form_quote_len(t, FORM_QUOTE), t);
		return (-1);
	}
	*out = form_json_check(cJSON_CreateBool(on));
	return (0);
}

/*
 * The value of an enum field that t names, in the API's spelling: typed
 * "https" is the declared "HTTPS". NULL when none is.
 */
static const char *
form_enum_value(const struct kind_field *f, const char *t)
{
	const char *const	*v;

	if (f->values == NULL)
		return (NULL);
	for (v = f->values; *v != NULL; v++) {
		if (strcmp(*v, t) == 0)
			return (*v);
	}
	for (v = f->values; *v != NULL; v++) {
		if (strcasecmp(*v, t) == 0)
			return (*v);
	}
	return (NULL);
}

/*
 * "a, b c": split on commas and blanks, empty items dropped, enum values
 * in their declared spelling. An item holding a comma or a blank cannot
 * be typed this way; the input takes a JSON array for that (and
 * form_text_of shows such a list as one).
 */
static int
form_parse_list(const struct kind_field *f, const char *t, cJSON **out)
{
	const char	*p = t, *value;
	char		*s;
	size_t		 n;

	*out = form_json_check(cJSON_CreateArray());
	for (;;) {
		p += strspn(p, FORM_LIST_SEP);
		if (*p == '\0')
			return (0);
		n = strcspn(p, FORM_LIST_SEP);
		s = xstrndup(p, n);
		if ((value = form_enum_value(f, s)) == NULL)
			value = s;
		cJSON_AddItemToArray(*out,
		    form_json_check(cJSON_CreateString(value)));
		free(s);
		p += n;
	}
}

/*
 * "+15m", "+2h", "+30d" (also s and w): that long from now, as RFC 3339
 * UTC. NULL when t is not one.
 */
char *
form_time_from_now(const char *t, time_t now)
{
	static const struct {
		char	unit;
		long	seconds;
	} units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
		{ 'w', 7 * 86400 }
	};
	char		 out[32], *end;
	long		 n;
	size_t		 i;
	struct tm	 tm;
	time_t		 when;

	if (*t != '+' || !isdigit((unsigned char)t[1]))
		return (NULL);
	n = strtol(t + 1, &end, 10);
	/* At most ten years out: no overflow, and no typo of a century. */
	if (end[0] == '\0' || end[1] != '\0' || n < 0 || n > 3660L * 86400)
		return (NULL);
	for (i = 0; i < nitems(units); i++) {
		if (units[i].unit == *end)
			break;
	}
	if (i == nitems(units) || n > 3660L * 86400 / units[i].seconds)
		return (NULL);
	when = now + (time_t)(n * units[i].seconds);
	if (gmtime_r(&when, &tm) == NULL ||
	    strftime(out, sizeof out, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return (NULL);
	return (xstrdup(out));
}

/* One "key=value" of a MAP into o. */
static int
form_parse_pair(cJSON *o, const char *s, char **why)
{
	const char	*eq = strchr(s, '=');
	char		*key, *value;

	if (eq == NULL) {
		xasprintf(why, "'%.*s' is not key=value",
		    form_quote_len(s, FORM_QUOTE), s);
		return (-1);
	}
	key = form_trimmed(s, (size_t)(eq - s));
	if (*key == '\0' || cJSON_GetObjectItemCaseSensitive(o, key) != NULL) {
		if (*key == '\0')
			xasprintf(why, "'%.*s' has no key",
			    form_quote_len(s, FORM_QUOTE), s);
		else
			xasprintf(why, "key '%s' is given twice", key);
		free(key);
		return (-1);
	}
	value = form_trimmed(eq + 1, strlen(eq + 1));
	cJSON_AddItemToObject(o, key, form_json_check(cJSON_CreateString(
	    value)));
	free(value);
	free(key);
	return (0);
}

/* "k=v, k2=v2", values as strings; as lists, no comma in a value. */
static int
form_parse_map(const char *t, cJSON **out, char **why)
{
	const char	*p = t, *end;
	char		*s;
	size_t		 n;
	int		 rc = 0;

	*out = form_json_check(cJSON_CreateObject());
	for (;;) {
		end = strchr(p, ',');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		s = form_trimmed(p, n);
		if (*s != '\0')
			rc = form_parse_pair(*out, s, why);
		free(s);
		if (rc != 0 || end == NULL)
			break;
		p = end + 1;
	}
	if (rc != 0) {
		cJSON_Delete(*out);
		*out = NULL;
	}
	return (rc);
}

/* A MAP's declared members are edited in items of their own. */
static int
form_check_claims(const struct form *form, const struct form_item *it,
    const cJSON *v, char **why)
{
	const cJSON	*e;

	cJSON_ArrayForEach(e, v) {
		if (form_claimed(form->kind, it->path, e->string)) {
			xasprintf(why, "%s.%s is a field of its own", it->path,
			    e->string);
			return (-1);
		}
	}
	return (0);
}

static int
form_parse_input(const struct form_item *it, const char *text,
    const char *t, cJSON **out, char **why)
{
	switch (it->input) {
	case FORM_NUMBER:
		return (form_parse_number(t, out, why));
	case FORM_TOGGLE:
		return (form_parse_toggle(t, out, why));
	case FORM_ENUM:
		if (form_enum_value(it->field, t) != NULL)
			t = form_enum_value(it->field, t);
		*out = form_json_check(cJSON_CreateString(t));
		return (0);
	case FORM_LIST:
		if (*t == '[')
			return (form_parse_json(text, out, why));
		return (form_parse_list(it->field, t, out));
	case FORM_MAP:
		if (*t == '{')
			return (form_parse_json(text, out, why));
		return (form_parse_map(t, out, why));
	default:
		return (form_parse_json(text, out, why));
	}
}

/*
 * The value a text stands for: 0 with *out (NULL: absent), or -1 with
 * *why. Empty means absent: a TEXT input cannot hold the empty string.
 */
static int
form_parse(const struct form *form, const struct form_item *it,
    const char *text, cJSON **out, char **why)
{
	char	*t;
	int	 rc = 0;

	*out = NULL;
	if (it->input == FORM_TEXT && it->field->type == KIND_TYPE_TIME &&
	    *text == '+') {
		if ((t = form_time_from_now(text, time(NULL))) == NULL) {
			xasprintf(why, "'%.*s' is not a time from now such as "
			    "+15m, +2h or +30d", form_quote_len(text,
			    FORM_QUOTE), text);
			return (-1);
		}
		*out = form_json_check(cJSON_CreateString(t));
		free(t);
		return (0);
	}
	if (it->input == FORM_TEXT) {
		if (*text != '\0')
			*out = form_json_check(cJSON_CreateString(text));
		return (0);
	}
	t = form_trimmed(text, strlen(text));
	if (*t != '\0')
		rc = form_parse_input(it, text, t, out, why);
	free(t);
	if (rc == 0 && it->field->type == KIND_TYPE_MAP &&
	    cJSON_IsObject(*out) && form_check_claims(form, it, *out, why)) {
		cJSON_Delete(*out);
		*out = NULL;
		rc = -1;
	}
	return (rc);
}

/* ---- items -------------------------------------------------------------- */

/* What an item edits in record, as a copy; NULL when absent or null. */
static cJSON *
form_item_value(const struct form *form, const struct form_item *it,
    const cJSON *record)
{
	const cJSON	*v = validate_get(record, it->path);
	cJSON		*copy, *e, *next;

	if (v == NULL)
		return (NULL);
	copy = form_json_check(cJSON_Duplicate(v, 1));
	if (it->field->type != KIND_TYPE_MAP || !cJSON_IsObject(copy) ||
	    !form_has_members(form->kind, it->field))
		return (copy);
	/* The map's text shows the keys without an item of their own. */
	for (e = copy->child; e != NULL; e = next) {
		next = e->next;
		if (form_claimed(form->kind, it->path, e->string))
			cJSON_Delete(cJSON_DetachItemViaPointer(copy, e));
	}
	if (copy->child == NULL) {
		cJSON_Delete(copy);
		return (NULL);
	}
	return (copy);
}

static void
form_add_item(struct form *form, const struct kind_field *f, int depth)
{
	struct form_item	*it;
	cJSON			*v;

	form->items = xreallocarray(form->items, form->nitems + 1,
	    sizeof *form->items);
	it = &form->items[form->nitems++];
	memset(it, 0, sizeof *it);
	it->field = f;
	it->path = xstrdup(f->path);
	it->depth = depth;
	it->input = form_input_of(f->type);
	v = form_item_value(form, it, form->base);
	/* A value of another shape than the field's is edited as JSON. */
	if (v != NULL && !form_fits(it->input, v))
		it->input = FORM_JSON;
	it->text = form_text_of(it->input, v);
	it->initial = xstrdup(it->text);
	cJSON_Delete(v);
}

static int
form_left_out(const struct form *form, const struct kind_field *f)
{
	/* Members of array items are edited in their array's JSON. */
	if (strstr(f->path, "[]") != NULL)
		return (1);
	if ((f->flags & KIND_F_READONLY) || f->type == KIND_TYPE_FILE)
		return (1);
	if (form->mode == VALIDATE_CREATE && (f->flags & KIND_F_UPDATE))
		return (1);
	return (form->mode == VALIDATE_UPDATE && (f->flags & KIND_F_CREATE));
}

static void	form_add_field(struct form *, const struct kind_field *,
		    int);

/* parent's members (NULL: the top level), in the descriptor's order. */
static void
form_add_members(struct form *form, const struct kind_field *parent,
    int depth)
{
	const struct kind_field	*f;

	for (f = form->kind->fields; f->path != NULL; f++) {
		if (form_parent(form->kind, f) == parent)
			form_add_field(form, f, depth);
	}
}

static void
form_add_field(struct form *form, const struct kind_field *f, int depth)
{
	if (form_left_out(form, f))
		return;
	if (f->type != KIND_TYPE_OBJECT)
		form_add_item(form, f, depth);
	if (f->type == KIND_TYPE_OBJECT || f->type == KIND_TYPE_MAP)
		form_add_members(form, f, depth + 1);
}

struct form *
form_new(const struct kind *k, const cJSON *record)
{
	struct form	*form;

	if (record != NULL && !cJSON_IsObject(record))
		fatalx("form_new: %s record is not an object", k->name);
	form = xcalloc(1, sizeof *form);
	form->kind = k;
	form->mode = record != NULL ? VALIDATE_UPDATE : VALIDATE_CREATE;
	if (record != NULL)
		form->base = form_json_check(cJSON_Duplicate(record, 1));
	else
		form->base = form_json_check(cJSON_CreateObject());
	form_add_members(form, NULL, 0);
	return (form);
}

void
form_fill(struct form *form, const cJSON *record)
{
	struct form_item	*it;
	cJSON			*v;
	char			*text;
	size_t			 i;

	for (i = 0; i < form->nitems; i++) {
		it = &form->items[i];
		v = form_item_value(form, it, record);
		text = form_text_of(it->input, v);
		if (strcmp(text, it->text) != 0)
			form_set(form, i, text);
		free(text);
		cJSON_Delete(v);
	}
}

void
form_free(struct form *form)
{
	size_t	i;

	if (form == NULL)
		return;
	for (i = 0; i < form->nitems; i++) {
		free(form->items[i].path);
		free(form->items[i].text);
		free(form->items[i].initial);
		free(form->items[i].error);
	}
	free(form->items);
	cJSON_Delete(form->base);
	free(form->error);
	free(form);
}

/* ---- the body ----------------------------------------------------------- */

/*
 * A MAP with declared members: those keep what body has (their own items
 * come later), the text stands for the other keys.
 */
static cJSON *
form_map_merge(const struct form *form, const struct form_item *it,
    const cJSON *body, cJSON *v)
{
	const cJSON	*old = validate_get(body, it->path), *e;

	if (v != NULL && !cJSON_IsObject(v))
		return (v);
	if (!cJSON_IsObject(old))
		return (v);
	cJSON_ArrayForEach(e, old) {
		if (!form_claimed(form->kind, it->path, e->string))
			continue;
		if (v == NULL)
			v = form_json_check(cJSON_CreateObject());
		cJSON_AddItemToObject(v, e->string,
		    form_json_check(cJSON_Duplicate(e, 1)));
	}
	return (v);
}

static void
form_apply(const struct form *form, const struct form_item *it,
    cJSON *body, cJSON *v)
{
	if (it->field->type == KIND_TYPE_MAP &&
	    form_has_members(form->kind, it->field))
		v = form_map_merge(form, it, body, v);
	if (v == NULL)
		form_json_remove(body, it->path);
	else
		form_json_set(body, it->path, v);
}

/*
 * The base with the changed items put in, in item order. An unchanged
 * item leaves the base's member exactly as the server sent it, so a value
 * the form shows in another way (a number, a map as JSON) is never
 * rewritten; a text that does not parse leaves it too.
 */
static cJSON *
form_build(const struct form *form)
{
	const struct form_item	*it;
	cJSON			*body, *v;
	char			*why;
	size_t			 i;

	body = form_json_check(cJSON_Duplicate(form->base, 1));
	for (i = 0; i < form->nitems; i++) {
		it = &form->items[i];
		if (!it->changed)
			continue;
		if (form_parse(form, it, it->text, &v, &why) != 0) {
			free(why);
			continue;
		}
		form_apply(form, it, body, v);
	}
	return (body);
}

/* ---- checks ------------------------------------------------------------- */

/*
 * The problems inside an OBJECTS value's items ("bypass[0].value:
 * required"), which validate_field does not look into: the kind's checks
 * on a body holding only that value, kept for its paths.
 */
static char *
form_members_problem(const struct form *form, const struct form_item *it,
    const cJSON *v)
{
	struct validate_error	*errs;
	struct buf		 b = BUF_INITIALIZER;
	cJSON			*body;
	size_t			 i, n, len = strlen(it->path);

	body = form_json_check(cJSON_CreateObject());
	form_json_set(body, it->path, form_json_check(cJSON_Duplicate(v, 1)));
	if (validate_record(form->kind, body, form->mode, &errs, &n) == 0) {
		cJSON_Delete(body);
		return (NULL);
	}
	for (i = 0; i < n; i++) {
		if (strncmp(errs[i].field, it->path, len) != 0 ||
		    errs[i].field[len] != '[')
			continue;
		if (b.len != 0)
			buf_adds(&b, "; ");
		buf_addf(&b, "%s: %s", errs[i].field, errs[i].message);
	}
	validate_errors_free(errs, n);
	cJSON_Delete(body);
	return (b.len != 0 ? buf_detach(&b, NULL) : NULL);
}

/* An item's own problems ("threshold: 'abc' is not a number"), or NULL. */
static char *
form_problem(const struct form *form, const struct form_item *it,
    const cJSON *body)
{
	cJSON	*v;
	char	*why, *cause = NULL;

	if (form_parse(form, it, it->text, &v, &why) != 0) {
		xasprintf(&cause, "%s: %s", it->path, why);
		free(why);
		return (cause);
	}
	if (v == NULL || (cJSON_IsNull(v) &&
	    !(it->field->flags & KIND_F_NOTNULL))) {
		if (form_needed(form, it->field, body))
			xasprintf(&cause, "%s: required", it->path);
	} else if (validate_field(it->field, v, &cause) == 0 &&
	    it->field->type == KIND_TYPE_OBJECTS)
		cause = form_members_problem(form, it, v);
	cJSON_Delete(v);
	return (cause);
}

/*
 * The item a problem of the whole belongs to: the one at its path, else
 * the one holding it ("bypass[0].name" in "bypass"); or -1.
 */
static int
form_locate(const struct form *form, const char *field)
{
	size_t	i, n;

	for (i = 0; i < form->nitems; i++) {
		if (strcmp(form->items[i].path, field) == 0)
			return ((int)i);
	}
	for (i = 0; i < form->nitems; i++) {
		n = strlen(form->items[i].path);
		if (strncmp(field, form->items[i].path, n) == 0 &&
		    (field[n] == '[' || field[n] == '.'))
			return ((int)i);
	}
	return (-1);
}

/* Whether an item inside the object at field has a problem already. */
static int
form_covered(const struct form *form, char **found, const char *field)
{
	size_t	i, n = strlen(field);

	for (i = 0; i < form->nitems; i++) {
		if (found[i] != NULL && n != 0 &&
		    strncmp(form->items[i].path, field, n) == 0 &&
		    form->items[i].path[n] == '.')
			return (1);
	}
	return (0);
}

/*
 * A problem of the whole onto its item, unless the item's own check
 * found one (the whole was built without the text that does not parse,
 * or says the same again); a required object whose items complain already
 * is dropped, and so is a FILE field; the rest goes to whole. Returns how
 * many went to whole.
 */
static size_t
form_place(const struct form *form, char **found, const int *own,
    const struct validate_error *e, struct buf *whole)
{
	const struct kind_field	*f = kind_field_find(form->kind, e->field);
	char			*text, *joined;
	int			 i;

	/* Files are not the form's: the console asks for them apart. */
	if (f != NULL && f->type == KIND_TYPE_FILE)
		return (0);
	if (*e->field != '\0')
		xasprintf(&text, "%s: %s", e->field, e->message);
	else
		text = xstrdup(e->message);
	if ((i = form_locate(form, e->field)) != -1) {
		if (own[i])
			free(text);
		else if (found[i] == NULL)
			found[i] = text;
		else {
			xasprintf(&joined, "%s; %s", found[i], text);
			free(found[i]);
			free(text);
			found[i] = joined;
		}
		return (0);
	}
	if (form_covered(form, found, e->field)) {
		free(text);
		return (0);
	}
	if (whole->len != 0)
		buf_adds(whole, "; ");
	buf_adds(whole, text);
	free(text);
	return (1);
}

/*
 * Check every item and then the whole with the kind's rules. The errors
 * replace those of every item when all is set, else only of the items
 * the user touched or that show one. Returns the body; *problems (if not
 * NULL) is how many there are, shown or not.
 */
static cJSON *
form_refresh(struct form *form, int all, size_t *problems)
{
	struct validate_error	*errs;
	struct form_item	*it;
	struct buf		 whole = BUF_INITIALIZER;
	char			**found;
	cJSON			*body = form_build(form);
	size_t			 i, n, count = 0;
	int			*own;

	found = xcalloc(form->nitems + 1, sizeof *found);
	own = xcalloc(form->nitems + 1, sizeof *own);
	for (i = 0; i < form->nitems; i++) {
		/* An edit checks what the user changed, not the server's. */
		if (form->mode == VALIDATE_CREATE || form->items[i].changed)
			found[i] = form_problem(form, &form->items[i], body);
		own[i] = found[i] != NULL;
	}
	if (validate_changes(form->kind, body, form->mode == VALIDATE_UPDATE ?
	    form->base : NULL, form->mode, &errs, &n) != 0) {
		for (i = 0; i < n; i++)
			count += form_place(form, found, own, &errs[i], &whole);
		validate_errors_free(errs, n);
	}
	for (i = 0; i < form->nitems; i++) {
		it = &form->items[i];
		count += found[i] != NULL;
		if (all || it->touched || it->error != NULL) {
			free(it->error);
			it->error = found[i];
		} else
			free(found[i]);
	}
	if (all || form->error != NULL) {
		free(form->error);
		form->error = NULL;
		if (whole.len != 0)
			form->error = buf_detach(&whole, NULL);
	}
	buf_free(&whole);
	free(found);
	free(own);
	if (problems != NULL)
		*problems = count;
	return (body);
}

/* ---- editing ------------------------------------------------------------ */

void
form_set(struct form *form, size_t i, const char *text)
{
	struct form_item	*it;

	if (i >= form->nitems)
		fatalx("form_set: no item %zu", i);
	it = &form->items[i];
	free(it->text);
	it->text = xstrdup(text != NULL ? text : "");
	it->changed = strcmp(it->text, it->initial) != 0;
	it->touched = 1;
	cJSON_Delete(form_refresh(form, 0, NULL));
}

/* Where t is among values (n of them), or -1. */
static int
form_value_index(const struct form_item *it, const char *const *values,
    size_t n, const char *t)
{
	size_t	j;
	int	on;

	if (it->input == FORM_TOGGLE) {
		on = form_toggle_word(t);
		return (on == -1 ? -1 : !on);
	}
	for (j = 0; j < n; j++) {
		if (strcmp(t, values[j]) == 0 ||
		    ((it->field->flags & KIND_F_NOCASE) &&
		    strcasecmp(t, values[j]) == 0))
			return ((int)j);
	}
	return (-1);
}

/*
 * The values in order and then unset (when the field may be left out),
 * wrapping around. A text that is none of them steps to the first value,
 * or the last going back.
 */
void
form_cycle(struct form *form, size_t i, int dir)
{
	struct form_item	*it;
	const char *const	*values;
	char			*t;
	size_t			 n = 0, total;
	int			 cur, next;

	if (i >= form->nitems)
		fatalx("form_cycle: no item %zu", i);
	it = &form->items[i];
	if (it->input == FORM_TOGGLE)
		values = form_toggle_values;
	else if (it->input == FORM_ENUM && it->field->values != NULL)
		values = it->field->values;
	else
		return;
	while (values[n] != NULL)
		n++;
	if (n == 0)
		return;
	total = n + !form_always_required(form, it->field);
	t = form_trimmed(it->text, strlen(it->text));
	cur = form_value_index(it, values, n, t);
	if (cur == -1 && *t == '\0' && total > n)
		cur = (int)n;
	free(t);
	if (cur == -1)
		next = dir < 0 ? (int)n - 1 : 0;
	else
		next = (int)((cur + total + (dir < 0 ? -1 : 1)) % total);
	form_set(form, i, (size_t)next == n ? "" : values[next]);
}

int
form_settle(struct form *form, size_t i)
{
	struct form_item	*it;
	char			*t;

	if (i >= form->nitems)
		fatalx("form_settle: no item %zu", i);
	it = &form->items[i];
	if (it->input != FORM_TEXT || it->field->type != KIND_TYPE_TIME ||
	    (t = form_time_from_now(it->text, time(NULL))) == NULL)
		return (0);
	form_set(form, i, t);
	free(t);
	return (1);
}

int
form_jump(struct form *form, size_t i, int c)
{
	struct form_item	*it;
	const char *const	*values;
	size_t			 n = 0, j, start = 0;
	int			 cur;

	if (i >= form->nitems)
		fatalx("form_jump: no item %zu", i);
	it = &form->items[i];
	if (it->input == FORM_TOGGLE)
		values = form_toggle_values;
	else if (it->input == FORM_ENUM && it->field->values != NULL)
		values = it->field->values;
	else
		return (0);
	while (values[n] != NULL)
		n++;
	/* Pressed again, the next value with that letter. */
	cur = form_value_index(it, values, n, it->text);
	if (cur != -1 && tolower((unsigned char)*values[cur]) == tolower(c))
		start = (size_t)cur + 1;
	for (j = 0; j < n; j++) {
		if (tolower((unsigned char)*values[(start + j) % n]) ==
		    tolower(c)) {
			form_set(form, i, values[(start + j) % n]);
			return (1);
		}
	}
	return (0);
}

int
form_changed(const struct form *form)
{
	size_t	i;

	for (i = 0; i < form->nitems; i++) {
		if (form->items[i].changed)
			return (1);
	}
	return (0);
}

int
form_find(const struct form *form, const char *path)
{
	size_t	i;

	for (i = 0; i < form->nitems; i++) {
		if (strcmp(form->items[i].path, path) == 0)
			return ((int)i);
	}
	return (-1);
}

int
form_required(const struct form *form, size_t i)
{
	cJSON	*body;
	int	 needed;

	if (i >= form->nitems)
		fatalx("form_required: no item %zu", i);
	body = form_build(form);
	needed = form_needed(form, form->items[i].field, body);
	cJSON_Delete(body);
	return (needed);
}

cJSON *
form_result(struct form *form, char **cause)
{
	cJSON		*body;
	const char	*first = NULL;
	size_t		 i, problems;

	body = form_refresh(form, 1, &problems);
	if (problems == 0)
		return (body);
	cJSON_Delete(body);
	for (i = 0; i < form->nitems && first == NULL; i++)
		first = form->items[i].error;
	if (first == NULL)
		first = form->error;
	xasprintf(cause, "%zu field%s need%s attention: %s", problems,
	    problems == 1 ? "" : "s", problems == 1 ? "s" : "", first);
	return (NULL);
}
