/*
 * Colour themes read from YAML through yamljson: a palette of named
 * colours, a style per role, and the theme a file inherits the rest from.
 * What is wrong in a file becomes a problem naming the file and key; what
 * is right still applies, so a typo never costs the whole theme.
 */
#include "config.h"

#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "log.h"
#include "theme.h"
#include "xmalloc.h"
#include "yamljson.h"

/* How much of a user's text a message quotes. */
#define THEME_EXCERPT		40
/* Longest theme name; longer inherits chains are refused. */
#define THEME_NAME_MAX		64
#define THEME_MAX_DEPTH		8
/* The built-in theme's name in messages. */
#define THEME_BUILTIN_FILE	"(built-in)/default.yaml"

#define THEME_ACCEPTED	"a name such as red or bright-blue, colorN or #rrggbb"
#define THEME_ATTRS	"bold, dim, underline, reverse, italic or standout"
#define THEME_WORDS	" \t\r\n"

#define THEME_ROLE_NAME(id, name, help) name,
static const char *theme_role_names[] = { THEME_ROLES(THEME_ROLE_NAME) };
#undef THEME_ROLE_NAME
#define THEME_ROLE_HELP(id, name, help) help,
static const char *theme_role_helps[] = { THEME_ROLES(THEME_ROLE_HELP) };
#undef THEME_ROLE_HELP

static const char *theme_color_names[] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"
};

static const struct {
	const char	*name;
	unsigned	 attr;
} theme_attrs[] = {
	{ "bold", THEME_ATTR_BOLD },
	{ "dim", THEME_ATTR_DIM },
	{ "underline", THEME_ATTR_UNDERLINE },
	{ "reverse", THEME_ATTR_REVERSE },
	{ "italic", THEME_ATTR_ITALIC },
	{ "standout", THEME_ATTR_STANDOUT }
};

/* xterm's 16 colours as it shows them by default. */
static const unsigned char theme_basic_rgb[16][3] = {
	{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
	{ 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 }, { 229, 229, 229 },
	{ 127, 127, 127 }, { 255, 0, 0 }, { 0, 255, 0 }, { 255, 255, 0 },
	{ 92, 92, 255 }, { 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 }
};
/* The levels of each axis of the 6x6x6 cube (indexes 16..231). */
static const unsigned char theme_cube_levels[6] = {
	0, 95, 135, 175, 215, 255
};

struct theme_swatch {
	char	*name;
	int	 color;
};

/* One load: where parents are found, the problems, the chain being read. */
struct theme_ctx {
	const char *const	 *dirs;
	struct theme_problem	**problems;
	size_t			 *nproblems;
	int			  stop;		/* too many problems */
	const char		 *chain[THEME_MAX_DEPTH];
	size_t			  depth;
};

/* One file being read. */
struct theme_file {
	struct theme_ctx	*ctx;
	const char		*file;
	struct theme		*theme;
	struct theme_swatch	*palette;
	size_t			 npalette;
};

static struct theme *theme_read(struct theme_ctx *, const char *,
		    const char *, size_t, int);

/* ---- roles ------------------------------------------------------------- */

const char *
theme_role_name(enum theme_role role)
{
	if ((unsigned)role >= THEME_ROLE_COUNT)
		return (NULL);
	return (theme_role_names[role]);
}

const char *
theme_role_help(enum theme_role role)
{
	if ((unsigned)role >= THEME_ROLE_COUNT)
		return (NULL);
	return (theme_role_helps[role]);
}

int
theme_role_find(const char *name)
{
	size_t	i;

	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		if (strcasecmp(theme_role_names[i], name) == 0)
			return ((int)i);
	}
	return (-1);
}

/* ---- messages ---------------------------------------------------------- */

/* Text as a message shows it: quoted, control characters escaped, cut. */
static char *
theme_quote(const char *s)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i, n = strlen(s), len = n;
	unsigned char	c;

	if (n > THEME_EXCERPT) {
		n = THEME_EXCERPT;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	buf_addc(&b, '\'');
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			buf_addf(&b, "\\x%02x", c);
		else
			buf_addc(&b, (char)c);
	}
	buf_adds(&b, n < len ? "...'" : "'");
	return (buf_detach(&b, NULL));
}

/* One word of letters, digits, '-' and '_': a name that needs no quotes. */
static int
theme_is_word(const char *s)
{
	size_t	i;

	for (i = 0; s[i] != '\0'; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			return (0);
	}
	return (i > 0 && i <= THEME_EXCERPT);
}

/* A key as a path shows it: plain when it is a word, else quoted. */
static char *
theme_keyname(const char *s)
{
	return (theme_is_word(s) ? xstrdup(s) : theme_quote(s));
}

static const char *
theme_kind(const cJSON *v)
{
	if (cJSON_IsObject(v))
		return ("a map");
	if (cJSON_IsArray(v))
		return ("a list");
	if (cJSON_IsString(v))
		return ("text");
	if (cJSON_IsNumber(v))
		return ("a number");
	if (cJSON_IsBool(v))
		return ("true or false");
	return ("nothing");
}

static void printflike(3, 4)
theme_problem(struct theme_ctx *ctx, const char *file, const char *fmt, ...)
{
	struct theme_problem	*pr;
	va_list			 ap;
	char			*msg, *p;

	if (ctx->stop)
		return;
	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	if (*ctx->nproblems + 1 >= THEME_MAX_PROBLEMS) {
		free(msg);
		msg = xstrdup("too many problems; the rest was not checked");
		ctx->stop = 1;
	}
	*ctx->problems = xreallocarray(*ctx->problems, *ctx->nproblems + 1,
	    sizeof **ctx->problems);
	pr = &(*ctx->problems)[(*ctx->nproblems)++];
	pr->file = xstrdup(file);
	pr->message = xprintf("%s: %s", file, msg);
	free(msg);
	/* Messages reach the screen: nothing in them may control it. */
	for (p = pr->message; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	}
}

void
theme_problems_free(struct theme_problem *problems, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(problems[i].file);
		free(problems[i].message);
	}
	free(problems);
}

/* Edit distance ignoring case, for suggestions; large for long names. */
static size_t
theme_distance(const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b), row[THEME_NAME_MAX + 1];
	size_t	i, j, diag, up, best;

	if (la > THEME_NAME_MAX || lb > THEME_NAME_MAX)
		return (SIZE_MAX);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			best = MINIMUM(row[j], row[j - 1]) + 1;
			if (tolower((unsigned char)a[i - 1]) ==
			    tolower((unsigned char)b[j - 1]))
				best = MINIMUM(best, diag);
			else
				best = MINIMUM(best, diag + 1);
			row[j] = best;
			diag = up;
		}
	}
	return (row[lb]);
}

/* ---- colours ----------------------------------------------------------- */

static int
theme_color_name(const char *s, int *color)
{
	size_t	i;
	int	bright = 0;

	if (strcasecmp(s, "default") == 0) {
		*color = THEME_COLOR_DEFAULT;
		return (0);
	}
	if (strcasecmp(s, "grey") == 0 || strcasecmp(s, "gray") == 0) {
		*color = 8;
		return (0);
	}
	if (strncasecmp(s, "bright", 6) == 0) {
		s += 6 + (s[6] == '-');
		bright = 8;
	}
	for (i = 0; i < nitems(theme_color_names); i++) {
		if (strcasecmp(s, theme_color_names[i]) == 0) {
			*color = bright + (int)i;
			return (0);
		}
	}
	return (-1);
}

/* The N of colorN: 1 to 3 digits, at most 255. */
static int
theme_color_number(const char *s, int *color)
{
	size_t	i;
	int	n = 0;

	for (i = 0; s[i] != '\0'; i++) {
		if (i == 3 || !isdigit((unsigned char)s[i]))
			return (-1);
		n = n * 10 + (s[i] - '0');
	}
	if (i == 0 || n > 255)
		return (-1);
	*color = n;
	return (0);
}

static int
theme_hex_digit(char c)
{
	if (isdigit((unsigned char)c))
		return (c - '0');
	return (tolower((unsigned char)c) - 'a' + 10);
}

/* The rrggbb or rgb after a '#'. */
static int
theme_color_hex(const char *s, int *color)
{
	size_t	i, len = strlen(s);
	int	v[6];

	if (len != 6 && len != 3)
		return (-1);
	for (i = 0; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return (-1);
		v[i] = theme_hex_digit(s[i]);
	}
	if (len == 3)
		*color = THEME_RGB(v[0] * 17, v[1] * 17, v[2] * 17);
	else {
		*color = THEME_RGB(v[0] * 16 + v[1], v[2] * 16 + v[3],
		    v[4] * 16 + v[5]);
	}
	return (0);
}

int
theme_color_parse(const char *s, int *color, char **cause)
{
	const char	*why = THEME_ACCEPTED;
	char		*q;

	if (theme_color_name(s, color) == 0)
		return (0);
	if (*s == '#') {
		if (theme_color_hex(s + 1, color) == 0)
			return (0);
		why = "#rrggbb or #rgb takes 6 or 3 hex digits";
	} else if (strncasecmp(s, "color", 5) == 0 ||
	    strncasecmp(s, "colour", 6) == 0) {
		if (theme_color_number(s + (s[4] == 'u' || s[4] == 'U' ? 6 : 5),
		    color) == 0)
			return (0);
		why = "colorN takes N from 0 to 255";
	}
	if (cause != NULL) {
		q = theme_quote(s);
		xasprintf(cause, "%s is not a colour (%s)", q, why);
		free(q);
	}
	return (-1);
}

static void
theme_index_rgb(int i, int rgb[3])
{
	int	j;

	if (i < 16) {
		for (j = 0; j < 3; j++)
			rgb[j] = theme_basic_rgb[i][j];
	} else if (i < 232) {
		rgb[0] = theme_cube_levels[(i - 16) / 36];
		rgb[1] = theme_cube_levels[(i - 16) / 6 % 6];
		rgb[2] = theme_cube_levels[(i - 16) % 6];
	} else
		rgb[0] = rgb[1] = rgb[2] = 8 + (i - 232) * 10;
}

/* The index in [first, last] nearest to rgb; the lowest on a tie. */
static int
theme_nearest(const int rgb[3], int first, int last)
{
	int	i, j, d, best = first, bestd = -1, c[3];

	for (i = first; i <= last; i++) {
		theme_index_rgb(i, c);
		for (d = 0, j = 0; j < 3; j++)
			d += (c[j] - rgb[j]) * (c[j] - rgb[j]);
		if (bestd == -1 || d < bestd) {
			best = i;
			bestd = d;
		}
	}
	return (best);
}

int
theme_color_degrade(int color, int ncolors)
{
	int	rgb[3], have;

	if (color < 0 || ncolors < 8)
		return (THEME_COLOR_DEFAULT);
	if (THEME_COLOR_IS_RGB(color)) {
		if (ncolors >= THEME_NCOLORS_DIRECT)
			return (color & (THEME_COLOR_RGB | 0xffffff));
		rgb[0] = THEME_RGB_R(color);
		rgb[1] = THEME_RGB_G(color);
		rgb[2] = THEME_RGB_B(color);
	} else if (color > 255)
		return (THEME_COLOR_DEFAULT);
	else if (ncolors >= THEME_NCOLORS_DIRECT) {
		/* Such a terminal reaches only the first 8 by index. */
		if (color < 8)
			return (color);
		theme_index_rgb(color, rgb);
		return (THEME_RGB(rgb[0], rgb[1], rgb[2]));
	} else {
		/* 88 colours or so: only the 16 are the same everywhere. */
		have = ncolors >= 256 ? 256 : (ncolors >= 16 ? 16 : 8);
		if (color < have)
			return (color);
		theme_index_rgb(color, rgb);
	}
	if (ncolors >= 256)
		return (theme_nearest(rgb, 16, 255));
	if (ncolors >= 16)
		return (theme_nearest(rgb, 0, 15));
	return (theme_nearest(rgb, 0, 7));
}

void
theme_degrade(struct theme *t, int ncolors)
{
	size_t	i;

	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		t->roles[i].fg = theme_color_degrade(t->roles[i].fg, ncolors);
		t->roles[i].bg = theme_color_degrade(t->roles[i].bg, ncolors);
	}
}

void
theme_apply_no_color(struct theme *t)
{
	size_t	i;

	int	bg = t->roles[THEME_ROLE_NORMAL].bg;

	/* A role told apart by its background keeps standing out. */
	for (i = 0; i < THEME_ROLE_COUNT; i++)
		if (t->roles[i].bg != bg)
			t->roles[i].attrs |= THEME_ATTR_REVERSE;
	/*
	 * The focused input and its fellows shared one background: reverse
	 * is the focus's alone, or it would be told apart by bold only.
	 */
	if (t->roles[THEME_ROLE_INPUT_FOCUS].attrs & THEME_ATTR_REVERSE)
		t->roles[THEME_ROLE_INPUT].attrs &= ~THEME_ATTR_REVERSE;
	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		t->roles[i].fg = THEME_COLOR_DEFAULT;
		t->roles[i].bg = THEME_COLOR_DEFAULT;
	}
}

/* ---- reading a file's palette and roles -------------------------------- */

/* A colour word of a file: a palette name (earlier ones win) or a colour. */
static int
theme_color_word(struct theme_file *tf, const char *s, const char *path,
    int *color)
{
	char	*cause;
	size_t	 i;

	for (i = 0; i < tf->npalette; i++) {
		if (strcasecmp(tf->palette[i].name, s) == 0) {
			*color = tf->palette[i].color;
			return (0);
		}
	}
	if (theme_color_parse(s, color, &cause) == 0)
		return (0);
	theme_problem(tf->ctx, tf->file, "%s: %s", path, cause);
	free(cause);
	return (-1);
}

static int
theme_color_value(struct theme_file *tf, const cJSON *v, const char *path,
    int *color)
{
	if (cJSON_IsNull(v)) {
		theme_problem(tf->ctx, tf->file, "%s: no colour (in YAML a #"
		    " starts a comment: write \"#rrggbb\" in quotes)", path);
		return (-1);
	}
	if (!cJSON_IsString(v)) {
		theme_problem(tf->ctx, tf->file, "%s: a colour is text (%s),"
		    " not %s", path, THEME_ACCEPTED, theme_kind(v));
		return (-1);
	}
	return (theme_color_word(tf, v->valuestring, path, color));
}

static int
theme_attr_find(const char *s, unsigned *attr)
{
	size_t	i;

	for (i = 0; i < nitems(theme_attrs); i++) {
		if (strcasecmp(theme_attrs[i].name, s) == 0) {
			*attr = theme_attrs[i].attr;
			return (0);
		}
	}
	return (-1);
}

static void
theme_attr_word(struct theme_file *tf, const char *s, const char *path,
    unsigned *attrs)
{
	unsigned	 attr;
	char		*q;

	if (theme_attr_find(s, &attr) == 0) {
		*attrs |= attr;
		return;
	}
	q = theme_quote(s);
	theme_problem(tf->ctx, tf->file, "%s: %s is not an attribute (%s)",
	    path, q, THEME_ATTRS);
	free(q);
}

/* attrs: a list of names, or text of names; it replaces the parent's. */
static void
theme_read_attrs(struct theme_file *tf, const cJSON *v, const char *path,
    unsigned *out)
{
	const cJSON	*e;
	char		*copy, *word, *last;
	unsigned	 attrs = 0;

	if (cJSON_IsString(v)) {
		copy = xstrdup(v->valuestring);
		for (word = strtok_r(copy, THEME_WORDS ",", &last);
		    word != NULL; word = strtok_r(NULL, THEME_WORDS ",", &last))
			theme_attr_word(tf, word, path, &attrs);
		free(copy);
	} else if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach(e, v) {
			if (cJSON_IsString(e)) {
				theme_attr_word(tf, e->valuestring, path,
				    &attrs);
			} else {
				theme_problem(tf->ctx, tf->file, "%s: an"
				    " attribute is text (%s), not %s", path,
				    THEME_ATTRS, theme_kind(e));
			}
		}
	} else if (!cJSON_IsNull(v)) {
		theme_problem(tf->ctx, tf->file, "%s: a list of attributes"
		    " (%s), not %s", path, THEME_ATTRS, theme_kind(v));
		return;
	}
	*out = attrs;
}

/* {fg: X, bg: Y, attrs: [...]}: changes only the fields it names. */
static void
theme_read_map(struct theme_file *tf, const cJSON *map, const char *path,
    struct theme_style *st)
{
	const cJSON	*v;
	char		*key, *sub;
	int		 color;

	cJSON_ArrayForEach(v, map) {
		key = theme_keyname(v->string);
		sub = xprintf("%s.%s", path, key);
		if (strcmp(v->string, "fg") == 0) {
			if (theme_color_value(tf, v, sub, &color) == 0)
				st->fg = color;
		} else if (strcmp(v->string, "bg") == 0) {
			if (theme_color_value(tf, v, sub, &color) == 0)
				st->bg = color;
		} else if (strcmp(v->string, "attrs") == 0)
			theme_read_attrs(tf, v, sub, &st->attrs);
		else {
			theme_problem(tf->ctx, tf->file, "%s: unknown key (fg,"
			    " bg or attrs)", sub);
		}
		free(sub);
		free(key);
	}
}

/*
 * "bold white on blue": attributes, a foreground, "on" and a background,
 * any of them left out. It replaces the parent's style as a whole.
 */
static void
theme_read_short(struct theme_file *tf, const char *text, const char *path,
    struct theme_style *st)
{
	struct theme_style	 new = {
		THEME_COLOR_DEFAULT, THEME_COLOR_DEFAULT, 0
	};
	char			*copy, *word, *last, *q;
	unsigned		 attr;
	int			 color, fg = 0;

	copy = xstrdup(text);
	for (word = strtok_r(copy, THEME_WORDS, &last); word != NULL;
	    word = strtok_r(NULL, THEME_WORDS, &last)) {
		if (strcasecmp(word, "on") == 0) {
			word = strtok_r(NULL, THEME_WORDS, &last);
			if (word == NULL) {
				theme_problem(tf->ctx, tf->file, "%s: 'on'"
				    " needs a background colour after it",
				    path);
				break;
			}
			if (theme_color_word(tf, word, path, &color) == 0)
				new.bg = color;
		} else if (theme_attr_find(word, &attr) == 0)
			new.attrs |= attr;
		else if (fg++) {
			q = theme_quote(word);
			theme_problem(tf->ctx, tf->file, "%s: %s is a second"
			    " foreground (write 'on' before a background)",
			    path, q);
			free(q);
		} else if (theme_color_word(tf, word, path, &color) == 0)
			new.fg = color;
	}
	free(copy);
	*st = new;
}

static void
theme_unknown_role(struct theme_file *tf, const char *path, const char *key)
{
	const char	*best = NULL;
	size_t		 i, d, bestd = 3;

	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		if ((d = theme_distance(key, theme_role_names[i])) < bestd) {
			best = theme_role_names[i];
			bestd = d;
		}
	}
	if (best != NULL) {
		theme_problem(tf->ctx, tf->file, "%s: unknown role (did you"
		    " mean %s?)", path, best);
	} else
		theme_problem(tf->ctx, tf->file, "%s: unknown role", path);
}

static void
theme_read_roles(struct theme_file *tf, const cJSON *roles)
{
	const cJSON	*v;
	char		*key, *path;
	int		 role;

	if (roles == NULL || cJSON_IsNull(roles))
		return;
	if (!cJSON_IsObject(roles)) {
		theme_problem(tf->ctx, tf->file, "roles: a map of role names"
		    " to styles, not %s", theme_kind(roles));
		return;
	}
	cJSON_ArrayForEach(v, roles) {
		key = theme_keyname(v->string);
		path = xprintf("roles.%s", key);
		if ((role = theme_role_find(v->string)) == -1)
			theme_unknown_role(tf, path, v->string);
		else if (cJSON_IsString(v)) {
			theme_read_short(tf, v->valuestring, path,
			    &tf->theme->roles[role]);
		} else if (cJSON_IsObject(v))
			theme_read_map(tf, v, path, &tf->theme->roles[role]);
		else {
			theme_problem(tf->ctx, tf->file, "%s: a style is text"
			    " such as \"bold white on blue\" or a map of fg,"
			    " bg and attrs, not %s", path, theme_kind(v));
		}
		free(path);
		free(key);
	}
}

static void
theme_read_palette(struct theme_file *tf, const cJSON *palette)
{
	const cJSON	*v;
	char		*key, *path;
	int		 color;

	if (palette == NULL || cJSON_IsNull(palette))
		return;
	if (!cJSON_IsObject(palette)) {
		theme_problem(tf->ctx, tf->file, "palette: a map of names to"
		    " colours, not %s", theme_kind(palette));
		return;
	}
	cJSON_ArrayForEach(v, palette) {
		key = theme_keyname(v->string);
		path = xprintf("palette.%s", key);
		if (!theme_is_word(v->string)) {
			theme_problem(tf->ctx, tf->file, "%s: a palette name is"
			    " one word of letters, digits, - and _", path);
		} else if (theme_color_value(tf, v, path, &color) == 0) {
			tf->palette = xreallocarray(tf->palette,
			    tf->npalette + 1, sizeof *tf->palette);
			tf->palette[tf->npalette].name = xstrdup(v->string);
			tf->palette[tf->npalette++].color = color;
		}
		free(path);
		free(key);
	}
}

static void
theme_check_keys(struct theme_file *tf, const cJSON *root)
{
	const cJSON	*v;
	char		*key;

	cJSON_ArrayForEach(v, root) {
		if (strcmp(v->string, "inherits") == 0 ||
		    strcmp(v->string, "palette") == 0 ||
		    strcmp(v->string, "roles") == 0)
			continue;
		key = theme_keyname(v->string);
		theme_problem(tf->ctx, tf->file, "%s: unknown key (inherits,"
		    " palette or roles)", key);
		free(key);
	}
}

/* ---- finding and reading files ----------------------------------------- */

/* A name that is safe in a path: no '/', not hidden, not too long. */
static int
theme_name_ok(const char *name)
{
	size_t	i;

	for (i = 0; name[i] != '\0'; i++) {
		if (!isalnum((unsigned char)name[i]) && name[i] != '-' &&
		    name[i] != '_' && name[i] != '.')
			return (0);
	}
	return (i > 0 && i <= THEME_NAME_MAX && name[0] != '.');
}

/* The theme a file defines: its name without directory and ".yaml". */
static char *
theme_name_of(const char *file)
{
	const char	*base = strrchr(file, '/');
	size_t		 len;

	base = base == NULL ? file : base + 1;
	len = strlen(base);
	if (len > 5 && strcmp(base + len - 5, ".yaml") == 0)
		len -= 5;
	if (len == 0)
		return (xstrdup("theme"));
	return (xstrndup(base, len));
}

/* Only blank lines and comments: YAML has no document there, a theme is. */
static int
theme_blank(const char *text, size_t len)
{
	size_t	i = 0;

	while (i < len) {
		while (i < len && (text[i] == ' ' || text[i] == '\t' ||
		    text[i] == '\r'))
			i++;
		if (i < len && text[i] == '#') {
			while (i < len && text[i] != '\n')
				i++;
		}
		if (i < len && text[i] != '\n')
			return (0);
		i++;
	}
	return (1);
}

/* Read path whole: 0, 1 if it does not exist, or -1 with *cause. */
static int
theme_slurp(const char *path, char **text, size_t *len, char **cause)
{
	struct buf	 b = BUF_INITIALIZER;
	struct stat	 sb;
	char		 chunk[8192];
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY|O_CLOEXEC|O_NOCTTY)) == -1) {
		if (errno == ENOENT || errno == ENOTDIR)
			return (1);
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file", path);
		goto fail;
	}
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			xasprintf(cause, "%s: %s", path, strerror(errno));
			goto fail;
		}
		buf_add(&b, chunk, n);
		if (b.len > THEME_MAX_SIZE) {
			xasprintf(cause, "%s: larger than %d bytes", path,
			    THEME_MAX_SIZE);
			goto fail;
		}
	}
	close(fd);
	*text = buf_detach(&b, len);
	return (0);

fail:
	buf_free(&b);
	close(fd);
	return (-1);
}

/*
 * name.yaml from the first of dirs that has it: 1 with its path and text,
 * 0 if none has, -1 with *cause when one has but it cannot be read.
 */
static int
theme_find(const char *const *dirs, const char *name, char **path,
    char **text, size_t *len, char **cause)
{
	size_t	i;
	int	r;

	for (i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		if (*dirs[i] == '\0')
			continue;
		*path = xprintf("%s/%s.yaml", dirs[i], name);
		if ((r = theme_slurp(*path, text, len, cause)) == 0)
			return (1);
		free(*path);
		*path = NULL;
		if (r == -1)
			return (-1);
	}
	return (0);
}

static int
theme_list_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

char **
theme_list(const char *const *dirs)
{
	DIR		 *d;
	struct dirent	 *de;
	char		**names, *name;
	size_t		  i, j, n = 0, len;

	names = xcalloc(1, sizeof *names);
	names[n++] = xstrdup("default");
	for (i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		if (*dirs[i] == '\0' || (d = opendir(dirs[i])) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			len = strlen(de->d_name);
			if (len <= 5 || strcmp(de->d_name + len - 5, ".yaml"))
				continue;
			name = xstrndup(de->d_name, len - 5);
			if (!theme_name_ok(name)) {
				free(name);
				continue;
			}
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = name;
		}
		closedir(d);
	}
	qsort(names, n, sizeof *names, theme_list_cmp);
	for (i = j = 0; i < n; i++) {
		if (j > 0 && strcmp(names[j - 1], names[i]) == 0)
			free(names[i]);
		else
			names[j++] = names[i];
	}
	names = xreallocarray(names, j + 1, sizeof *names);
	names[j] = NULL;
	return (names);
}

void
theme_list_free(char **names)
{
	size_t	i;

	if (names == NULL)
		return;
	for (i = 0; names[i] != NULL; i++)
		free(names[i]);
	free(names);
}

/* "default, light, mono", for messages. */
static char *
theme_list_text(const char *const *dirs)
{
	struct buf	  b = BUF_INITIALIZER;
	char		**names = theme_list(dirs);
	size_t		  i;

	for (i = 0; names[i] != NULL; i++)
		buf_addf(&b, "%s%s", i == 0 ? "" : ", ", names[i]);
	theme_list_free(names);
	return (buf_detach(&b, NULL));
}

/* ---- inheritance ------------------------------------------------------- */

/* Every role the terminal's own colours, no attributes. */
static struct theme *
theme_bare(void)
{
	struct theme	*t;
	size_t		 i;

	t = xcalloc(1, sizeof *t);
	t->name = xstrdup("default");
	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		t->roles[i].fg = THEME_COLOR_DEFAULT;
		t->roles[i].bg = THEME_COLOR_DEFAULT;
	}
	return (t);
}

static struct theme *
theme_builtin(struct theme_ctx *ctx)
{
	return (theme_read(ctx, THEME_BUILTIN_FILE, theme_default_yaml,
	    theme_default_yaml_len, 1));
}

/* "a -> b -> a": the chain being read, then parent. */
static char *
theme_chain_text(const struct theme_ctx *ctx, const char *parent)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;

	for (i = 0; i < ctx->depth; i++)
		buf_addf(&b, "%s -> ", ctx->chain[i]);
	buf_adds(&b, parent);
	return (buf_detach(&b, NULL));
}

/* The theme called parent, or the built-in one with a problem why not. */
static struct theme *
theme_resolve(struct theme_file *tf, const char *parent)
{
	struct theme_ctx	*ctx = tf->ctx;
	struct theme		*t;
	char			*path, *text, *cause = NULL, *s;
	size_t			 i, len;
	int			 r;

	for (i = 0; i < ctx->depth; i++) {
		if (strcmp(ctx->chain[i], parent) != 0)
			continue;
		s = theme_chain_text(ctx, parent);
		theme_problem(ctx, tf->file, "inherits: a cycle (%s); the"
		    " built-in default is used instead", s);
		free(s);
		return (theme_builtin(ctx));
	}
	if (ctx->depth == THEME_MAX_DEPTH) {
		theme_problem(ctx, tf->file, "inherits: more than %d themes"
		    " deep; the built-in default is used instead",
		    THEME_MAX_DEPTH);
		return (theme_builtin(ctx));
	}
	r = theme_find(ctx->dirs, parent, &path, &text, &len, &cause);
	if (r == 1) {
		t = theme_read(ctx, path, text, len, 0);
		free(text);
		free(path);
		return (t);
	}
	if (r == -1) {
		theme_problem(ctx, tf->file, "inherits: %s", cause);
		free(cause);
	} else if (strcmp(parent, "default") != 0) {
		s = theme_list_text(ctx->dirs);
		theme_problem(ctx, tf->file, "inherits: no theme '%s'"
		    " (themes: %s); the built-in default is used instead",
		    parent, s);
		free(s);
	}
	return (theme_builtin(ctx));
}

/* The theme a file starts from: what it inherits, else the default. */
static struct theme *
theme_parent(struct theme_file *tf, const char *name, const cJSON *root,
    int builtin)
{
	const cJSON	*v;
	char		*q;

	v = cJSON_GetObjectItemCaseSensitive(root, "inherits");
	if (v != NULL && (!cJSON_IsString(v) ||
	    !theme_name_ok(v->valuestring))) {
		q = cJSON_IsString(v) ? theme_quote(v->valuestring) : NULL;
		if (q != NULL) {
			theme_problem(tf->ctx, tf->file, "inherits: %s is not a"
			    " theme name (letters, digits, '.', '-' and '_')",
			    q);
		} else {
			theme_problem(tf->ctx, tf->file, "inherits: a theme"
			    " name, not %s", theme_kind(v));
		}
		free(q);
		v = NULL;
	}
	if (builtin)
		return (theme_bare());
	/* A user's own default.yaml changes the built-in one. */
	if (v == NULL && strcmp(name, "default") == 0)
		return (theme_builtin(tf->ctx));
	return (theme_resolve(tf, v != NULL ? v->valuestring : "default"));
}

/* A theme from text, over its parent; builtin: the built-in text. */
static struct theme *
theme_read(struct theme_ctx *ctx, const char *file, const char *text,
    size_t len, int builtin)
{
	struct theme_file	 tf;
	cJSON			*root = NULL;
	char			*cause = NULL, *name;
	size_t			 i;

	memset(&tf, 0, sizeof tf);
	tf.ctx = ctx;
	tf.file = file;
	name = theme_name_of(file);
	if (len > THEME_MAX_SIZE) {
		theme_problem(ctx, file, "larger than %d bytes; not read",
		    THEME_MAX_SIZE);
	} else if (!theme_blank(text, len) &&
	    (root = yamljson_parse(text, len, &cause)) == NULL &&
	    cause != NULL) {
		theme_problem(ctx, file, "%s", cause);
		free(cause);
	}
	if (root != NULL && !cJSON_IsObject(root) && !cJSON_IsNull(root)) {
		theme_problem(ctx, file, "a theme is a map of inherits, palette"
		    " and roles, not %s", theme_kind(root));
		cJSON_Delete(root);
		root = NULL;
	}

	/*
	 * The built-in theme inherits nothing, so it needs no place in the
	 * chain; theme_resolve reads no deeper than the chain holds.
	 */
	if (!builtin)
		ctx->chain[ctx->depth++] = name;
	tf.theme = theme_parent(&tf, name, root, builtin);
	if (!builtin)
		ctx->depth--;
	free(tf.theme->name);
	tf.theme->name = name;

	if (root != NULL) {
		theme_check_keys(&tf, root);
		theme_read_palette(&tf, cJSON_GetObjectItemCaseSensitive(root,
		    "palette"));
		theme_read_roles(&tf, cJSON_GetObjectItemCaseSensitive(root,
		    "roles"));
	}
	for (i = 0; i < tf.npalette; i++)
		free(tf.palette[i].name);
	free(tf.palette);
	cJSON_Delete(root);
	return (tf.theme);
}

/* ---- the interface ----------------------------------------------------- */

struct theme *
theme_default(void)
{
	struct theme_problem	*problems = NULL;
	struct theme_ctx	 ctx;
	struct theme		*t;
	size_t			 n = 0, i;

	memset(&ctx, 0, sizeof ctx);
	ctx.problems = &problems;
	ctx.nproblems = &n;
	t = theme_builtin(&ctx);
	/* A mistake in themes/default.yaml itself; the tests catch it. */
	for (i = 0; i < n; i++)
		log_warn("%s", problems[i].message);
	theme_problems_free(problems, n);
	return (t);
}

struct theme *
theme_parse_text(const char *file, const char *text, size_t len,
    const char *const *dirs, struct theme_problem **problems,
    size_t *nproblems)
{
	struct theme_ctx	ctx;

	memset(&ctx, 0, sizeof ctx);
	ctx.dirs = dirs;
	ctx.problems = problems;
	ctx.nproblems = nproblems;
	return (theme_read(&ctx, file != NULL ? file : "theme.yaml", text, len,
	    0));
}

struct theme *
theme_load(const char *name, const char *const *dirs,
    struct theme_problem **problems, size_t *nproblems, char **cause)
{
	struct theme_ctx	 ctx;
	struct theme		*t;
	char			*path, *text, *q, *s;
	size_t			 len;
	int			 r;

	if (!theme_name_ok(name)) {
		q = theme_quote(name);
		xasprintf(cause, "%s is not a theme name (letters, digits,"
		    " '.', '-' and '_')", q);
		free(q);
		return (NULL);
	}
	memset(&ctx, 0, sizeof ctx);
	ctx.dirs = dirs;
	ctx.problems = problems;
	ctx.nproblems = nproblems;
	if ((r = theme_find(dirs, name, &path, &text, &len, cause)) == -1)
		return (NULL);
	if (r == 0) {
		if (strcmp(name, "default") == 0)
			return (theme_builtin(&ctx));
		s = theme_list_text(dirs);
		xasprintf(cause, "no theme '%s' (themes: %s)", name, s);
		free(s);
		return (NULL);
	}
	t = theme_read(&ctx, path, text, len, 0);
	free(text);
	free(path);
	return (t);
}

void
theme_free(struct theme *t)
{
	if (t == NULL)
		return;
	free(t->name);
	free(t);
}
