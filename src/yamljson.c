/*
 * JSON <-> YAML that keeps types, so a record edited as YAML in $EDITOR comes
 * back as the same JSON: a quoted "123" stays a string, a plain 123 is a
 * number, and the emitter quotes exactly what would otherwise change type.
 *
 * Parsing follows the YAML 1.2 core schema with a few refusals that protect
 * the data: integers beyond 2^53, .inf and .nan (JSON has no such numbers),
 * aliases, duplicate keys, unknown tags, NUL and invalid UTF-8 are errors
 * rather than silent changes. Decimals with a leading zero (0123, 01.5) stay
 * strings, since they are usually identifiers.
 */
#include "config.h"

#include <locale.h>
#include <stdarg.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "buf.h"
#include "log.h"
#include "text.h"
#include "xmalloc.h"
#include "yamljson.h"

/* Deeper input is an error; the limit keeps recursion in cJSON bounded. */
#define YAMLJSON_MAXDEPTH	128
/* Largest integer a double holds exactly; beyond it digits would be lost. */
#define YAMLJSON_MAXINT		9007199254740992.0
#define YAMLJSON_MAXINT_TEXT	"9007199254740992"
/* libyaml refuses a simple key longer than 1024 characters. */
#define YAMLJSON_MAXSIMPLEKEY	1000
/* How much of a user's text an error message quotes. */
#define YAMLJSON_EXCERPT	40

#define YAMLJSON_INDICATORS	"-?:,[]{}#&*!|>'\"%@`"

/* What a plain scalar would read as under the core schema. */
enum yamljson_kind {
	YAMLJSON_STRING,
	YAMLJSON_NULL,
	YAMLJSON_BOOL,
	YAMLJSON_INT,
	YAMLJSON_FLOAT,
	YAMLJSON_NONFINITE
};

struct yamljson_scalar {
	enum yamljson_kind	 kind;
	int			 truth;
	double			 number;
	int			 zeropad;	/* decimal, leading 0 */
	int			 big;		/* integer past 2^53 */
	int			 range;		/* past DBL_MAX */
};

/* Keys seen in one mapping, hashed, to refuse duplicates. */
struct yamljson_key {
	const char		*name;		/* the cJSON item's */
	size_t			 line;
};

struct yamljson_keys {
	struct yamljson_key	*slots;
	size_t			 size;
	size_t			 used;
};

struct yamljson_frame {
	cJSON			*node;
	char			*key;		/* awaiting a value */
	size_t			 keyline;
	struct yamljson_keys	 keys;
};

struct yamljson_state {
	const char		*text;
	size_t			 len;
	cJSON			*root;
	unsigned int		 ndocs;
	unsigned int		 depth;
	struct yamljson_frame	 stack[YAMLJSON_MAXDEPTH];
	char			*cause;
};

static void	yamljson_emit_node(struct buf *, const cJSON *, unsigned int,
		    int);

/* ---- text ---------------------------------------------------------------- */

/*
 * Whether c may appear as itself in a scalar: libyaml refuses the C0 and C1
 * controls, DEL and the non-characters, treats NEL, LS and PS as line breaks
 * and skips a BOM at the start of a line.
 */
static int
yamljson_printable(uint32_t c)
{
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
		return (0);
	if (c == 0x2028 || c == 0x2029)
		return (0);
	if (c == 0xfeff || c == 0xfffe || c == 0xffff)
		return (0);
	return (1);
}

/* Line and column (from 1, in characters) of a byte offset into text. */
static void
yamljson_position(const char *text, size_t len, size_t off, size_t *line,
    size_t *col)
{
	uint32_t	c;
	size_t		i, n;

	*line = *col = 1;
	/* libyaml does not count a byte order mark as a column. */
	i = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	for (; i < off && i < len; i += n) {
		if ((n = text_utf8_decode(text + i, len - i, &c)) == 0)
			n = 1;
		if (c == '\n' || (c == '\r' && (i + 1 == len ||
		    text[i + 1] != '\n'))) {
			(*line)++;
			*col = 1;
		} else
			(*col)++;
	}
}

/* Refuse what libyaml would misread or report vaguely, with a position. */
static int
yamljson_check_text(const char *text, size_t len, char **cause)
{
	const char	*what = NULL;
	uint32_t	 c;
	size_t		 i, n, line, col;

	for (i = 0; i < len; i += n) {
		if (text[i] == '\0') {
			what = "NUL bytes are not allowed";
			break;
		}
		if ((n = text_utf8_decode(text + i, len - i, &c)) == 0) {
			what = "invalid UTF-8";
			break;
		}
		/*
		 * libyaml reads NEL as a line break (YAML 1.1), so in quotes
		 * it would silently become a space.
		 */
		if (c == 0x85) {
			what = "a raw NEL (U+0085) is not allowed (write \\x85 in"
			    " double quotes)";
			break;
		}
	}
	if (what == NULL)
		return (0);
	yamljson_position(text, len, i, &line, &col);
	xasprintf(cause, "line %zu, column %zu: %s", line, col, what);
	return (-1);
}

/*
 * Append s as a double-quoted scalar on one line. An error message passes a
 * max to quote only the start; invalid UTF-8 becomes U+FFFD, since YAML text
 * cannot carry it.
 */
static void
yamljson_quote(struct buf *b, const char *s, size_t len, size_t max)
{
	uint32_t	c;
	size_t		i, n;

	buf_addc(b, '"');
	for (i = 0; i < len && i < max; i += n) {
		if ((n = text_utf8_decode(s + i, len - i, &c)) == 0) {
			buf_adds(b, "\xef\xbf\xbd");
			n = 1;
			continue;
		}
		switch (c) {
		case '"':
			buf_adds(b, "\\\"");
			break;
		case '\\':
			buf_adds(b, "\\\\");
			break;
		case '\n':
			buf_adds(b, "\\n");
			break;
		case '\t':
			buf_adds(b, "\\t");
			break;
		case '\r':
			buf_adds(b, "\\r");
			break;
		default:
			if (yamljson_printable(c))
				buf_add(b, s + i, n);
			else if (c <= 0xff)
				buf_addf(b, "\\x%02X", (unsigned int)c);
			else
				buf_addf(b, "\\u%04X", (unsigned int)c);
			break;
		}
	}
	buf_addc(b, '"');
	if (i < len)
		buf_adds(b, "...");
}

/*
 * The start of a user's text for an error message: quoted, or bare when it
 * is a name or number that reads better so and needs no escaping.
 */
static char *
yamljson_excerpt(const char *s, size_t len, int bare)
{
	struct buf	b = BUF_INITIALIZER;
	uint32_t	c;
	size_t		i, n;

	for (i = 0; bare && i < len; i += n) {
		if ((n = text_utf8_decode(s + i, len - i, &c)) == 0 ||
		    !yamljson_printable(c) || c == '"' || c == ' ')
			bare = 0;
	}
	if (!bare || len == 0)
		yamljson_quote(&b, s, len, YAMLJSON_EXCERPT);
	else {
		for (i = 0; i < len && i < YAMLJSON_EXCERPT; i += n)
			n = text_utf8_decode(s + i, len - i, &c);
		buf_add(&b, s, i);
		if (i < len)
			buf_adds(&b, "...");
	}
	return (buf_detach(&b, NULL));
}

/* ---- numbers and plain scalars ------------------------------------------- */

/* strtod in any locale: the caller has checked the syntax already. */
static double
yamljson_strtod(const char *s, size_t len)
{
	struct buf	 b = BUF_INITIALIZER;
	const char	*dp = localeconv()->decimal_point;
	double		 d;
	size_t		 i;

	for (i = 0; i < len; i++) {
		if (s[i] == '.')
			buf_adds(&b, dp);
		else
			buf_addc(&b, s[i]);
	}
	d = strtod(buf_str(&b), NULL);
	buf_free(&b);
	return (d);
}

static int
yamljson_oneof(const char *s, size_t len, const char *const *list)
{
	for (; *list != NULL; list++) {
		if (strlen(*list) == len && memcmp(s, *list, len) == 0)
			return (1);
	}
	return (0);
}

static int
yamljson_digit(char ch, unsigned int base)
{
	int	v;

	if (ch >= '0' && ch <= '9')
		v = ch - '0';
	else if (ch >= 'a' && ch <= 'f')
		v = ch - 'a' + 10;
	else if (ch >= 'A' && ch <= 'F')
		v = ch - 'A' + 10;
	else
		return (-1);
	return ((unsigned int)v < base ? v : -1);
}

/* Core schema integers: [-+]?[0-9]+, 0o[0-7]+, 0x[0-9a-fA-F]+. */
static int
yamljson_int(const char *s, size_t len, struct yamljson_scalar *sc)
{
	uint64_t	v = 0;
	unsigned int	base = 10;
	size_t		i, start = 0;
	double		d = 0;
	int		dv, over = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o')) {
		base = s[1] == 'x' ? 16 : 8;
		start = 2;
	} else if (len > 0 && (s[0] == '-' || s[0] == '+'))
		start = 1;
	if (start == len)
		return (0);
	for (i = start; i < len; i++) {
		if ((dv = yamljson_digit(s[i], base)) < 0)
			return (0);
		if (v > (UINT64_MAX - (unsigned int)dv) / base)
			over = 1;
		else
			v = v * base + (unsigned int)dv;
		d = d * base + dv;
	}
	sc->kind = YAMLJSON_INT;
	sc->big = over || v > (uint64_t)YAMLJSON_MAXINT;
	if (base == 10) {
		sc->zeropad = s[start] == '0' && len - start > 1;
		/* Correctly rounded for !!float, exact up to 2^53. */
		sc->number = yamljson_strtod(s, len);
	} else
		sc->number = d;
	return (1);
}

/* Core schema floats: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?. */
static int
yamljson_float(const char *s, size_t len, struct yamljson_scalar *sc)
{
	size_t	i = 0, start, intdigits, fracdigits = 0, expdigits;

	if (i < len && (s[i] == '-' || s[i] == '+'))
		i++;
	start = i;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	intdigits = i - start;
	if (i < len && s[i] == '.') {
		while (++i < len && s[i] >= '0' && s[i] <= '9')
			fracdigits++;
	}
	if (intdigits == 0 && fracdigits == 0)
		return (0);
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			i++;
		for (expdigits = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			expdigits++;
		if (expdigits == 0)
			return (0);
	}
	if (i != len)
		return (0);
	sc->kind = YAMLJSON_FLOAT;
	sc->zeropad = intdigits > 1 && s[start] == '0';
	sc->number = yamljson_strtod(s, len);
	sc->range = isinf(sc->number);
	return (1);
}

/* How the core schema reads s as a plain scalar. */
static void
yamljson_classify(const char *s, size_t len, struct yamljson_scalar *sc)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL",
	    NULL };
	static const char *const trues[] = { "true", "True", "TRUE", NULL };
	static const char *const falses[] = { "false", "False", "FALSE", NULL };
	static const char *const infs[] = { ".inf", ".Inf", ".INF", NULL };
	static const char *const nans[] = { ".nan", ".NaN", ".NAN", NULL };

	memset(sc, 0, sizeof *sc);
	sc->kind = YAMLJSON_STRING;
	if (yamljson_oneof(s, len, nulls))
		sc->kind = YAMLJSON_NULL;
	else if (yamljson_oneof(s, len, trues)) {
		sc->kind = YAMLJSON_BOOL;
		sc->truth = 1;
	} else if (yamljson_oneof(s, len, falses))
		sc->kind = YAMLJSON_BOOL;
	else if (yamljson_oneof(s, len, nans) || yamljson_oneof(s, len, infs) ||
	    (len > 0 && (s[0] == '-' || s[0] == '+') &&
	    yamljson_oneof(s + 1, len - 1, infs)))
		sc->kind = YAMLJSON_NONFINITE;
	else if (!yamljson_int(s, len, sc))
		yamljson_float(s, len, sc);
}

/* ---- parse --------------------------------------------------------------- */

static int printflike(3, 4)
yamljson_error(struct yamljson_state *st, const yaml_mark_t *m,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	if (st->cause == NULL) {
		xasprintf(&st->cause, "line %zu, column %zu: %s", m->line + 1,
		    m->column + 1, msg);
	}
	free(msg);
	return (-1);
}

static void
yamljson_parser_error(struct yamljson_state *st, const yaml_parser_t *p)
{
	const char	*problem = p->problem;
	size_t		 line, col;

	if (p->error == YAML_MEMORY_ERROR)
		fatalx("yamljson_parse: out of memory");
	if (problem == NULL)
		problem = "invalid YAML";
	if (p->error == YAML_READER_ERROR) {
		yamljson_position(st->text, st->len, p->problem_offset, &line,
		    &col);
	} else {
		line = p->problem_mark.line + 1;
		col = p->problem_mark.column + 1;
	}
	if (p->context == NULL || p->error == YAML_READER_ERROR)
		xasprintf(&st->cause, "line %zu, column %zu: %s", line, col,
		    problem);
	else {
		xasprintf(&st->cause, "line %zu, column %zu: %s (%s at line"
		    " %zu, column %zu)", line, col, problem, p->context,
		    p->context_mark.line + 1, p->context_mark.column + 1);
	}
}

static cJSON *
yamljson_checked(cJSON *item)
{
	if (item == NULL)
		fatalx("yamljson: out of memory");
	return (item);
}

static uint32_t
yamljson_hash(const char *s)
{
	uint32_t	h = 2166136261U;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619U;
	}
	return (h);
}

/* The slot holding name, or the empty one where it belongs. */
static struct yamljson_key *
yamljson_keys_slot(const struct yamljson_keys *ks, const char *name)
{
	size_t	i, mask = ks->size - 1;

	i = yamljson_hash(name) & mask;
	while (ks->slots[i].name != NULL &&
	    strcmp(ks->slots[i].name, name) != 0)
		i = (i + 1) & mask;
	return (&ks->slots[i]);
}

static const struct yamljson_key *
yamljson_keys_find(const struct yamljson_keys *ks, const char *name)
{
	const struct yamljson_key	*k;

	if (ks->size == 0)
		return (NULL);
	k = yamljson_keys_slot(ks, name);
	return (k->name != NULL ? k : NULL);
}

static void
yamljson_keys_add(struct yamljson_keys *ks, const char *name, size_t line)
{
	struct yamljson_key	*old = ks->slots, *k;
	size_t			 oldsize = ks->size, i;

	if ((ks->used + 1) * 2 > ks->size) {
		ks->size = oldsize == 0 ? 16 : oldsize * 2;
		ks->slots = xcalloc(ks->size, sizeof *ks->slots);
		for (i = 0; i < oldsize; i++) {
			if (old[i].name != NULL)
				*yamljson_keys_slot(ks, old[i].name) = old[i];
		}
		free(old);
	}
	k = yamljson_keys_slot(ks, name);
	k->name = name;
	k->line = line;
	ks->used++;
}

/* Hang a new value under the open collection, or make it the document. */
static void
yamljson_attach(struct yamljson_state *st, cJSON *item)
{
	struct yamljson_frame	*f;

	if (st->depth == 0) {
		st->root = item;
		return;
	}
	f = &st->stack[st->depth - 1];
	if (cJSON_IsArray(f->node)) {
		cJSON_AddItemToArray(f->node, item);
		return;
	}
	if (!cJSON_AddItemToObject(f->node, f->key, item))
		fatalx("yamljson: out of memory");
	yamljson_keys_add(&f->keys, item->string, f->keyline);
	free(f->key);
	f->key = NULL;
}

static void
yamljson_pop(struct yamljson_state *st)
{
	struct yamljson_frame	*f = &st->stack[--st->depth];

	free(f->keys.slots);
	free(f->key);
	memset(f, 0, sizeof *f);
}

static int
yamljson_tag_is(const char *tag, const char *name)
{
	return (tag != NULL && strcmp(tag, name) == 0);
}

/* Tags are user text: show the familiar !! form of the standard ones. */
static char *
yamljson_tag_name(const char *tag)
{
	static const char	 prefix[] = "tag:yaml.org,2002:";
	struct buf		 b = BUF_INITIALIZER;
	char			*q;

	if (strncmp(tag, prefix, sizeof prefix - 1) == 0) {
		buf_adds(&b, "!!");
		buf_adds(&b, tag + sizeof prefix - 1);
	} else
		buf_adds(&b, tag);
	q = yamljson_excerpt(b.data, b.len, 1);
	buf_free(&b);
	return (q);
}

static int
yamljson_start(struct yamljson_state *st, const yaml_event_t *ev)
{
	const yaml_mark_t	*m = &ev->start_mark;
	struct yamljson_frame	*f;
	const char		*tag, *own;
	int			 seq, error;
	char			*name;

	seq = ev->type == YAML_SEQUENCE_START_EVENT;
	if (seq) {
		tag = (const char *)ev->data.sequence_start.tag;
		own = YAML_SEQ_TAG;
	} else {
		tag = (const char *)ev->data.mapping_start.tag;
		own = YAML_MAP_TAG;
	}
	if (st->depth > 0) {
		f = &st->stack[st->depth - 1];
		if (cJSON_IsObject(f->node) && f->key == NULL)
			return (yamljson_error(st, m,
			    "mapping keys must be scalars"));
	}
	if (tag != NULL && !yamljson_tag_is(tag, "!") &&
	    !yamljson_tag_is(tag, own)) {
		name = yamljson_tag_name(tag);
		error = yamljson_error(st, m, "unsupported tag %s on a %s",
		    name, seq ? "sequence" : "mapping");
		free(name);
		return (error);
	}
	if (st->depth == YAMLJSON_MAXDEPTH)
		return (yamljson_error(st, m, "nesting deeper than %d levels",
		    YAMLJSON_MAXDEPTH));
	f = &st->stack[st->depth];
	f->node = yamljson_checked(seq ? cJSON_CreateArray() :
	    cJSON_CreateObject());
	yamljson_attach(st, f->node);
	st->depth++;
	return (0);
}

static int
yamljson_key(struct yamljson_state *st, struct yamljson_frame *f,
    const yaml_event_t *ev)
{
	const struct yamljson_key	*k;
	const char			*s, *tag;
	char				*q;
	int				 error;

	s = (const char *)ev->data.scalar.value;
	tag = (const char *)ev->data.scalar.tag;
	if (tag != NULL && !yamljson_tag_is(tag, "!") &&
	    !yamljson_tag_is(tag, YAML_STR_TAG)) {
		q = yamljson_tag_name(tag);
		error = yamljson_error(st, &ev->start_mark,
		    "keys are strings: tag %s is not allowed on a key", q);
		free(q);
		return (error);
	}
	if ((k = yamljson_keys_find(&f->keys, s)) != NULL) {
		q = yamljson_excerpt(s, ev->data.scalar.length, 0);
		error = yamljson_error(st, &ev->start_mark,
		    "duplicate key %s (first at line %zu)", q, k->line);
		free(q);
		return (error);
	}
	f->key = xstrdup(s);
	f->keyline = ev->start_mark.line + 1;
	return (0);
}

/* Why a scalar the schema reads as a number cannot become one. */
static int
yamljson_refuse_number(struct yamljson_state *st, const yaml_event_t *ev,
    const struct yamljson_scalar *sc)
{
	const char	*why;
	char		*q;
	int		 error;

	if (sc->kind == YAMLJSON_NONFINITE)
		why = "is not a JSON number";
	else if (sc->big)
		why = "does not fit a JSON number exactly";
	else
		why = "is out of range";
	q = yamljson_excerpt((const char *)ev->data.scalar.value,
	    ev->data.scalar.length, 1);
	error = yamljson_error(st, &ev->start_mark, "%s %s (quote it to keep a"
	    " string)", q, why);
	free(q);
	return (error);
}

/* An untagged plain scalar, typed by the core schema. */
static cJSON *
yamljson_plain(struct yamljson_state *st, const yaml_event_t *ev,
    const struct yamljson_scalar *sc)
{
	const char	*s = (const char *)ev->data.scalar.value;

	switch (sc->kind) {
	case YAMLJSON_NULL:
		return (cJSON_CreateNull());
	case YAMLJSON_BOOL:
		return (cJSON_CreateBool(sc->truth));
	case YAMLJSON_INT:
	case YAMLJSON_FLOAT:
		if (sc->zeropad)
			return (cJSON_CreateString(s));
		if (sc->big || sc->range)
			break;
		return (cJSON_CreateNumber(sc->number));
	case YAMLJSON_NONFINITE:
		break;
	case YAMLJSON_STRING:
		return (cJSON_CreateString(s));
	}
	yamljson_refuse_number(st, ev, sc);
	return (NULL);
}

/* A scalar with an explicit tag: the text must fit it. */
static cJSON *
yamljson_tagged(struct yamljson_state *st, const yaml_event_t *ev,
    const char *tag, const struct yamljson_scalar *sc)
{
	const char	*s = (const char *)ev->data.scalar.value;
	char		*q, *name;

	if (yamljson_tag_is(tag, "!") || yamljson_tag_is(tag, YAML_STR_TAG))
		return (cJSON_CreateString(s));
	if (yamljson_tag_is(tag, YAML_NULL_TAG)) {
		if (sc->kind == YAMLJSON_NULL)
			return (cJSON_CreateNull());
	} else if (yamljson_tag_is(tag, YAML_BOOL_TAG)) {
		if (sc->kind == YAMLJSON_BOOL)
			return (cJSON_CreateBool(sc->truth));
	} else if (yamljson_tag_is(tag, YAML_INT_TAG)) {
		if (sc->kind == YAMLJSON_INT && !sc->big)
			return (cJSON_CreateNumber(sc->number));
		if (sc->kind == YAMLJSON_INT) {
			yamljson_refuse_number(st, ev, sc);
			return (NULL);
		}
	} else if (yamljson_tag_is(tag, YAML_FLOAT_TAG)) {
		/* A float may be inexact: a big integer is fine here. */
		if ((sc->kind == YAMLJSON_INT || sc->kind == YAMLJSON_FLOAT) &&
		    !sc->range)
			return (cJSON_CreateNumber(sc->number));
		if (sc->kind != YAMLJSON_STRING) {
			yamljson_refuse_number(st, ev, sc);
			return (NULL);
		}
	} else {
		name = yamljson_tag_name(tag);
		yamljson_error(st, &ev->start_mark, "unsupported tag %s", name);
		free(name);
		return (NULL);
	}
	name = yamljson_tag_name(tag);
	q = yamljson_excerpt(s, ev->data.scalar.length, 0);
	yamljson_error(st, &ev->start_mark, "%s is not a valid %s", q, name);
	free(q);
	free(name);
	return (NULL);
}

static int
yamljson_scalar(struct yamljson_state *st, const yaml_event_t *ev)
{
	const char		*s = (const char *)ev->data.scalar.value;
	const char		*tag = (const char *)ev->data.scalar.tag;
	size_t			 len = ev->data.scalar.length;
	struct yamljson_frame	*f;
	struct yamljson_scalar	 sc;
	cJSON			*item;

	/* An escape such as "\0" would cut the string short in cJSON. */
	if (memchr(s, '\0', len) != NULL)
		return (yamljson_error(st, &ev->start_mark,
		    "NUL characters are not allowed in strings"));
	if (st->depth > 0) {
		f = &st->stack[st->depth - 1];
		if (cJSON_IsObject(f->node) && f->key == NULL)
			return (yamljson_key(st, f, ev));
	}
	yamljson_classify(s, len, &sc);
	if (tag != NULL)
		item = yamljson_tagged(st, ev, tag, &sc);
	else if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		item = cJSON_CreateString(s);
	else
		item = yamljson_plain(st, ev, &sc);
	if (item == NULL) {
		if (st->cause == NULL)
			fatalx("yamljson: out of memory");
		return (-1);
	}
	yamljson_attach(st, item);
	return (0);
}

static int
yamljson_event(struct yamljson_state *st, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (st->ndocs++ != 0)
			return (yamljson_error(st, &ev->start_mark,
			    "only one document is allowed"));
		return (0);
	case YAML_ALIAS_EVENT:
		return (yamljson_error(st, &ev->start_mark,
		    "aliases are not supported"));
	case YAML_SCALAR_EVENT:
		return (yamljson_scalar(st, ev));
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		return (yamljson_start(st, ev));
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		yamljson_pop(st);
		return (0);
	case YAML_STREAM_END_EVENT:
		if (st->ndocs == 0)
			return (yamljson_error(st, &ev->start_mark,
			    "no document"));
		return (0);
	default:
		return (0);
	}
}

cJSON *
yamljson_parse(const char *text, size_t len, char **cause)
{
	struct yamljson_state	*st;
	yaml_parser_t		 parser;
	yaml_event_t		 ev;
	cJSON			*root;
	int			 done = 0;

	if (len == 0)
		text = "";
	if (yamljson_check_text(text, len, cause) != 0)
		return (NULL);

	st = xcalloc(1, sizeof *st);
	st->text = text;
	st->len = len;
	if (!yaml_parser_initialize(&parser))
		fatalx("yamljson_parse: out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			yamljson_parser_error(st, &parser);
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		if (yamljson_event(st, &ev) != 0)
			done = 1;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);

	while (st->depth > 0)
		yamljson_pop(st);
	root = st->root;
	if (st->cause != NULL) {
		cJSON_Delete(root);
		root = NULL;
		*cause = st->cause;
	}
	free(st);
	return (root);
}

/* ---- emit ---------------------------------------------------------------- */

static void
yamljson_pad(struct buf *b, unsigned int n)
{
	while (n-- > 0)
		buf_addc(b, ' ');
}

/* Whether s reads back as itself written bare. */
static int
yamljson_plain_ok(const char *s)
{
	struct yamljson_scalar	sc;
	size_t			len = strlen(s), i, n;
	uint32_t		c;

	if (len == 0 || strchr(YAMLJSON_INDICATORS, s[0]) != NULL)
		return (0);
	if (s[0] == ' ' || s[len - 1] == ' ' || s[len - 1] == ':')
		return (0);
	/* "..." ends a document when it starts a line. */
	if (strncmp(s, "...", 3) == 0)
		return (0);
	if (strstr(s, ": ") != NULL || strstr(s, " #") != NULL)
		return (0);
	for (i = 0; i < len; i += n) {
		if ((n = text_utf8_decode(s + i, len - i, &c)) == 0 ||
		    !yamljson_printable(c))
			return (0);
	}
	/* Quote what would read as another type, or as a number elsewhere. */
	yamljson_classify(s, len, &sc);
	return (sc.kind == YAMLJSON_STRING);
}

/*
 * Whether s can be a literal block (|), which reads better for multi-line
 * text. Not with tabs or trailing blanks, which editors tend to change, nor
 * with characters a block cannot hold. *indent says an indentation indicator
 * is needed because the first line starts with a space.
 */
static int
yamljson_literal_ok(const char *s, int *indent)
{
	size_t		len = strlen(s), i, n;
	uint32_t	c;
	int		content = 0;

	if (strchr(s, '\n') == NULL || s[len - 1] == ' ')
		return (0);
	for (i = 0; i < len; i += n) {
		if ((n = text_utf8_decode(s + i, len - i, &c)) == 0)
			return (0);
		if (c == '\n') {
			if (i > 0 && s[i - 1] == ' ')
				return (0);
			continue;
		}
		if (!yamljson_printable(c))
			return (0);
		if (!content)
			*indent = c == ' ';
		content = 1;
	}
	return (content);
}

/* Content lines go two columns right of the collection holding the block. */
static void
yamljson_emit_literal(struct buf *b, const char *s, unsigned int col,
    int indent)
{
	const char	*line, *nl;
	size_t		 len = strlen(s);

	buf_addc(b, '|');
	if (indent)
		buf_addc(b, '2');
	if (s[len - 1] != '\n')
		buf_addc(b, '-');
	else if (len > 1 && s[len - 2] == '\n')
		buf_addc(b, '+');
	buf_addc(b, '\n');
	for (line = s; *line != '\0'; line = nl + 1) {
		if ((nl = strchr(line, '\n')) == NULL)
			nl = line + strlen(line);
		if (nl != line) {
			yamljson_pad(b, col + 2);
			buf_add(b, line, (size_t)(nl - line));
		}
		buf_addc(b, '\n');
		if (*nl == '\0')
			break;
	}
}

/* Shortest text that reads back as the same double. */
static void
yamljson_emit_number(struct buf *b, double d)
{
	const char	*dp = localeconv()->decimal_point, *p;
	size_t		 dplen = strlen(dp);
	char		 s[64];
	int		 prec, point = 0;

	/* As cJSON prints them: JSON has no infinity or NaN. */
	if (isnan(d) || isinf(d)) {
		buf_adds(b, "null");
		return;
	}
	if (d == floor(d) && fabs(d) <= YAMLJSON_MAXINT) {
		buf_addf(b, "%.0f", d);
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(s, sizeof s, "%.*g", prec, d);
		if (strtod(s, NULL) == d)
			break;
	}
	if (prec == 17)
		snprintf(s, sizeof s, "%.17g", d);
	/* printf used the locale's decimal point; YAML wants '.'. */
	for (p = s; *p != '\0';) {
		if (dplen != 0 && strncmp(p, dp, dplen) == 0) {
			buf_addc(b, '.');
			p += dplen;
			point = 1;
			continue;
		}
		if (*p == 'e')
			point = 1;
		buf_addc(b, *p++);
	}
	/* An integer past 2^53 must read as a float, not be refused. */
	if (!point)
		buf_adds(b, ".0");
}

/* A scalar or empty collection and its newline; col as for a literal. */
static void
yamljson_emit_scalar(struct buf *b, const cJSON *v, unsigned int col)
{
	const char	*s;
	int		 indent = 0;

	if (cJSON_IsNull(v))
		buf_adds(b, "null");
	else if (cJSON_IsFalse(v))
		buf_adds(b, "false");
	else if (cJSON_IsTrue(v))
		buf_adds(b, "true");
	else if (cJSON_IsNumber(v))
		yamljson_emit_number(b, v->valuedouble);
	else if (cJSON_IsArray(v))
		buf_adds(b, "[]");
	else if (cJSON_IsObject(v))
		buf_adds(b, "{}");
	else if (cJSON_IsString(v)) {
		s = v->valuestring != NULL ? v->valuestring : "";
		if (yamljson_plain_ok(s))
			buf_adds(b, s);
		else if (yamljson_literal_ok(s, &indent)) {
			yamljson_emit_literal(b, s, col, indent);
			return;
		} else
			yamljson_quote(b, s, strlen(s), SIZE_MAX);
	} else
		fatalx("yamljson_emit: cannot emit cJSON type %d", v->type);
	buf_addc(b, '\n');
}

static int
yamljson_nonempty(const cJSON *v)
{
	return ((cJSON_IsArray(v) || cJSON_IsObject(v)) && v->child != NULL);
}

/* A value after "key:", in a mapping at column col. */
static void
yamljson_emit_value(struct buf *b, const cJSON *v, unsigned int col)
{
	if (yamljson_nonempty(v)) {
		buf_addc(b, '\n');
		yamljson_emit_node(b, v, col + 2, 0);
	} else {
		buf_addc(b, ' ');
		yamljson_emit_scalar(b, v, col);
	}
}

static void
yamljson_emit_object(struct buf *b, const cJSON *v, unsigned int col,
    int inl)
{
	struct buf	 key = BUF_INITIALIZER;
	const cJSON	*item;
	const char	*s;

	for (item = v->child; item != NULL; item = item->next) {
		if (item != v->child || !inl)
			yamljson_pad(b, col);
		buf_reset(&key);
		s = item->string != NULL ? item->string : "";
		if (yamljson_plain_ok(s))
			buf_adds(&key, s);
		else
			yamljson_quote(&key, s, strlen(s), SIZE_MAX);
		if (key.len > YAMLJSON_MAXSIMPLEKEY) {
			buf_adds(b, "? ");
			buf_add(b, key.data, key.len);
			buf_addc(b, '\n');
			yamljson_pad(b, col);
		} else
			buf_add(b, key.data, key.len);
		buf_addc(b, ':');
		yamljson_emit_value(b, item, col);
	}
	buf_free(&key);
}

static void
yamljson_emit_array(struct buf *b, const cJSON *v, unsigned int col, int inl)
{
	const cJSON	*item;

	for (item = v->child; item != NULL; item = item->next) {
		if (item != v->child || !inl)
			yamljson_pad(b, col);
		buf_adds(b, "- ");
		if (yamljson_nonempty(item))
			yamljson_emit_node(b, item, col + 2, 1);
		else
			yamljson_emit_scalar(b, item, col);
	}
}

/*
 * A non-empty collection whose lines start at column col; inl means the
 * first line continues one already begun ("- "), giving the compact
 * "- key: value" form.
 */
static void
yamljson_emit_node(struct buf *b, const cJSON *v, unsigned int col, int inl)
{
	if (cJSON_IsArray(v))
		yamljson_emit_array(b, v, col, inl);
	else
		yamljson_emit_object(b, v, col, inl);
}

char *
yamljson_emit(const cJSON *v)
{
	struct buf	b = BUF_INITIALIZER;

	if (v == NULL)
		fatalx("yamljson_emit: no value");
	if (yamljson_nonempty(v))
		yamljson_emit_node(&b, v, 0, 0);
	else
		yamljson_emit_scalar(&b, v, 0);
	return (buf_detach(&b, NULL));
}
