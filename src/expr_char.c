/*
 * Rate limiting characteristics read from the scheme: which fields count
 * requests apart, in which form (the value, a map's key, a JSON value in
 * it) and from which plan. The rule checks, edgemu, the simulator and the
 * rule form all ask here, so a field's row is the one place that says.
 */
#include "config.h"

#include <string.h>

#include "expr_int.h"

static void
char_fill(const struct expr_field_info *fi, unsigned form, int alias,
    struct expr_char *c)
{
	memset(c, 0, sizeof *c);
	c->field = fi->field;
	c->name = fi->name;
	c->form = form;
	c->role = fi->chars;
	c->plan = fi->char_plan;
	c->label = fi->char_label;
	c->alias = alias != 0;
	c->lower_keys = (fi->flags & EXPR_FIELD_LOWER_KEYS) != 0;
}

/* name["key"], a key of one byte or more; the key as written. */
static int
char_key(const char *s, struct expr_char *c)
{
	const struct expr_field_info	*fi;
	const char			*open = strstr(s, "[\"");
	size_t				 len = strlen(s);
	int				 alias;

	if (open == NULL || len < 2 || strcmp(s + len - 2, "\"]") != 0 ||
	    (size_t)(open - s) + 2 >= len - 2)
		return (-1);
	if ((fi = expr_field_lookup(s, (size_t)(open - s), &alias)) == NULL ||
	    !(fi->chars & EXPR_CHAR_KEY))
		return (-1);
	char_fill(fi, EXPR_CHAR_KEY, alias, c);
	c->key = open + 2;
	c->keylen = len - 2 - (size_t)(open + 2 - s);
	return (0);
}

/* The keys of a JSON lookup: "name" or an index, comma-separated, ")". */
static int
char_json_keys(const char *s)
{
	for (;;) {
		while (*s == ' ')
			s++;
		if (*s == '"') {
			for (s++; *s != '\0' && *s != '"'; s++) {
				if (*s == '\\' && s[1] != '\0')
					s++;
			}
			if (*s++ != '"')
				return (-1);
		} else if (*s >= '0' && *s <= '9') {
			while (*s >= '0' && *s <= '9')
				s++;
		} else
			return (-1);
		while (*s == ' ')
			s++;
		if (*s == ')')
			return (s[1] == '\0' ? 0 : -1);
		if (*s++ != ',')
			return (-1);
	}
}

/* lookup_json_string(field, "key", ...) and lookup_json_integer(...). */
static int
char_json(const char *s, struct expr_char *c)
{
	static const enum expr_func	 fns[] = {
		EXPR_FN_LOOKUP_JSON_STRING, EXPR_FN_LOOKUP_JSON_INTEGER
	};
	const struct expr_field_info	*fi;
	const char			*name, *comma;
	size_t				 i, n;
	int				 alias;

	for (i = 0; i < nitems(fns); i++) {
		name = expr_func_name(fns[i]);
		n = strlen(name);
		if (strncmp(s, name, n) != 0 || s[n] != '(')
			continue;
		if ((comma = strchr(s + n + 1, ',')) == NULL)
			return (-1);
		fi = expr_field_lookup(s + n + 1, (size_t)(comma - s - n - 1),
		    &alias);
		if (fi == NULL || !(fi->chars & EXPR_CHAR_JSON) ||
		    char_json_keys(comma + 1) != 0)
			return (-1);
		char_fill(fi, EXPR_CHAR_JSON, alias, c);
		return (0);
	}
	return (-1);
}

int
expr_char_parse(const char *s, struct expr_char *c)
{
	const struct expr_field_info	*fi;
	int				 alias;

	if ((fi = expr_field_lookup(s, strlen(s), &alias)) != NULL)
		return (fi->chars & EXPR_CHAR_PLAIN ? (char_fill(fi,
		    EXPR_CHAR_PLAIN, alias, c), 0) : -1);
	if (char_key(s, c) == 0 || char_json(s, c) == 0)
		return (0);
	return (-1);
}

int
expr_char_key_ok(const struct expr_char *c)
{
	size_t	i;

	if (c->form != EXPR_CHAR_KEY)
		return (1);
	for (i = 0; i < c->keylen; i++)
		if (c->key[i] == '"' || (c->lower_keys && c->key[i] >= 'A' &&
		    c->key[i] <= 'Z'))
			return (0);
	return (1);
}

int
expr_char_at(size_t at, struct expr_char *c)
{
	const struct expr_field_info	*fi;
	size_t				 i;
	unsigned			 form;

	for (i = 0; i < expr_nfields; i++) {
		fi = &expr_field_rows[i];
		if (fi->alias || fi->chars == 0 || at-- > 0)
			continue;
		form = fi->chars & EXPR_CHAR_PLAIN ? EXPR_CHAR_PLAIN :
		    fi->chars & EXPR_CHAR_KEY ? EXPR_CHAR_KEY : EXPR_CHAR_JSON;
		char_fill(fi, form, 0, c);
		return (0);
	}
	return (-1);
}

int
expr_char_plan_ok(const struct expr_char *c, enum expr_plan plan)
{
	return (plan == EXPR_PLAN_NONE || c->plan <= plan);
}
