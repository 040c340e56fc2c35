/*
 * Reading a config from YAML text: the walk through the document, with every
 * problem collected (file, line and column) instead of stopping at the
 * first, so the console can start and show them. The file is read with
 * libyaml's document API rather than yamljson because messages need each
 * value's line.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "config_options.h"
#include "configfile.h"
#include "credentials.h"
#include "log.h"
#include "xmalloc.h"

/* One file being read. */
struct config_parse {
	struct config	*cfg;
	const char	*file;		/* as messages name it */
	char		*dir;		/* where relative paths start */
	char *const	*env;
	mode_t		 mode;
	yaml_document_t	*doc;
	int		 stop;		/* too many problems */
	int		 lines[CONFIG_NOPTIONS];
	int		 token_line;	/* the first token: */
	int		 command_line;	/* the first token_command: */
};

/* ---- problems ------------------------------------------------------------- */

static void printflike(5, 0)
config_vproblem(struct config_parse *p, int line, int column, int showcol,
    const char *fmt, va_list ap)
{
	struct config		*cfg = p->cfg;
	struct config_problem	*pr;
	char			*msg;

	if (p->stop)
		return;
	xvasprintf(&msg, fmt, ap);
	if (cfg->nproblems == CONFIG_MAX_PROBLEMS - 1) {
		free(msg);
		msg = xprintf("too many problems; the rest of the file was"
		    " not checked");
		p->stop = 1;
	}
	cfg->problems = xreallocarray(cfg->problems, cfg->nproblems + 1,
	    sizeof *cfg->problems);
	pr = &cfg->problems[cfg->nproblems++];
	pr->file = xstrdup(p->file);
	pr->line = line;
	pr->column = column;
	if (line == 0)
		pr->message = xprintf("%s: %s", p->file, msg);
	else if (showcol && column != 0)
		pr->message = xprintf("%s:%d:%d: %s", p->file, line, column, msg);
	else
		pr->message = xprintf("%s:%d: %s", p->file, line, msg);
	free(msg);
}

static void printflike(4, 5)
config_problem(struct config_parse *p, int line, int column,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	config_vproblem(p, line, column, 0, fmt, ap);
	va_end(ap);
}

/* The same with the column in the message, where it helps (syntax). */
static void printflike(4, 5)
config_problem_column(struct config_parse *p, int line, int column,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	config_vproblem(p, line, column, 1, fmt, ap);
	va_end(ap);
}

static int
config_line(const yaml_node_t *n)
{
	return ((int)MINIMUM(n->start_mark.line + 1, (size_t)INT_MAX));
}

static int
config_column(const yaml_node_t *n)
{
	return ((int)MINIMUM(n->start_mark.column + 1, (size_t)INT_MAX));
}

/* Line and column (from 1, in bytes) of an offset, for libyaml's reader. */
static void
config_offset_position(const char *text, size_t len, size_t off, int *line,
    int *column)
{
	size_t	i, l = 1, c = 1;

	for (i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else
			c++;
	}
	*line = (int)MINIMUM(l, (size_t)INT_MAX);
	*column = (int)MINIMUM(c, (size_t)INT_MAX);
}

static void
config_syntax_problem(struct config_parse *p, const yaml_parser_t *parser,
    const char *text, size_t len)
{
	const char	*problem = parser->problem;
	int		 line, column;

	if (parser->error == YAML_MEMORY_ERROR)
		fatalx("config: out of memory");
	if (problem == NULL)
		problem = "invalid YAML";
	if (parser->error == YAML_READER_ERROR) {
		config_offset_position(text, len, parser->problem_offset, &line,
		    &column);
	} else {
		line = (int)MINIMUM(parser->problem_mark.line + 1,
		    (size_t)INT_MAX);
		column = (int)MINIMUM(parser->problem_mark.column + 1,
		    (size_t)INT_MAX);
	}
	if (parser->context != NULL && parser->error != YAML_READER_ERROR) {
		config_problem_column(p, line, column, "YAML syntax error: %s"
		    " (%s on line %zu)", problem, parser->context,
		    parser->context_mark.line + 1);
	} else {
		config_problem_column(p, line, column, "YAML syntax error: %s",
		    problem);
	}
}

/* ---- walking the document -------------------------------------------------- */

static int
config_is_null(const yaml_node_t *n)
{
	const char	*s = (const char *)n->data.scalar.value;
	size_t		 len = n->data.scalar.length;

	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return (0);
	return (len == 0 || (len == 1 && *s == '~') || (len == 4 &&
	    (memcmp(s, "null", 4) == 0 || memcmp(s, "Null", 4) == 0 ||
	    memcmp(s, "NULL", 4) == 0)));
}

static const char *
config_node_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE:
		return ("a mapping");
	case YAML_SEQUENCE_NODE:
		return ("a list");
	default:
		return ("a scalar");
	}
}

/* A key as messages show it: as it is when short and plain, else quoted. */
static char *
config_keyname(const char *s, size_t len)
{
	size_t	i;

	if (len == 0 || len > CONFIG_NAME_MAX)
		return (config_options_quote(s, len));
	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f || s[i] == '"')
			return (config_options_quote(s, len));
	}
	return (xstrndup(s, len));
}

/*
 * The text of the key of pair in map, or NULL (with a problem) if it is
 * not usable: not text, holds a NUL, or repeats an earlier key.
 */
static char *
config_key(struct config_parse *p, const yaml_node_t *map,
    const yaml_node_pair_t *pair, const char *prefix)
{
	const yaml_node_pair_t	*earlier;
	yaml_node_t		*k, *e;
	const char		*s;
	char			*name;
	size_t			 len;

	k = yaml_document_get_node(p->doc, pair->key);
	if (k == NULL || k->type != YAML_SCALAR_NODE) {
		config_problem(p, k == NULL ? 0 : config_line(k),
		    k == NULL ? 0 : config_column(k), "%s: a key must be text,"
		    " not %s", *prefix == '\0' ? "top level" : prefix,
		    k == NULL ? "nothing" : config_node_kind(k));
		return (NULL);
	}
	s = (const char *)k->data.scalar.value;
	len = k->data.scalar.length;
	if (memchr(s, '\0', len) != NULL) {
		name = config_keyname(s, len);
		config_problem(p, config_line(k), config_column(k),
		    "%s%s: a key holds a NUL byte", prefix, name);
		free(name);
		return (NULL);
	}
	for (earlier = map->data.mapping.pairs.start; earlier < pair;
	    earlier++) {
		e = yaml_document_get_node(p->doc, earlier->key);
		if (e == NULL || e->type != YAML_SCALAR_NODE ||
		    e->data.scalar.length != len ||
		    memcmp(e->data.scalar.value, s, len) != 0)
			continue;
		name = config_keyname(s, len);
		config_problem(p, config_line(k), config_column(k),
		    "%s%s: a duplicate key (first on line %d)", prefix, name,
		    config_line(e));
		free(name);
		return (NULL);
	}
	return (xstrndup(s, len));
}

/* Edit distance, ignoring case; large for long strings. */
static size_t
config_distance(const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b), row[CONFIG_NAME_MAX + 1];
	size_t	i, j, prev, cur, best;

	if (la > CONFIG_NAME_MAX || lb > CONFIG_NAME_MAX)
		return (SIZE_MAX);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			best = MINIMUM(row[j], row[j - 1]) + 1;
			if (tolower((unsigned char)a[i - 1]) ==
			    tolower((unsigned char)b[j - 1]))
				best = MINIMUM(best, prev);
			else
				best = MINIMUM(best, prev + 1);
			row[j] = best;
			prev = cur;
		}
	}
	return (row[lb]);
}

/*
 * The name a mistyped key was probably meant to be: among the options of
 * table under prefix (their next dotted component), "profiles" at the top.
 */
static char *
config_suggest(const struct config_option *table, size_t n,
    const char *prefix, const char *key)
{
	if (table != config_options)
		prefix = "";
	const char	*name, *dot;
	char		*cand, *best = NULL;
	size_t		 i, d, bestd = 3, plen = strlen(prefix);

	if (strlen(key) < 3)
		return (NULL);
	for (i = 0; i <= n; i++) {
		if (i == n) {
			if (table != config_options || plen != 0)
				break;
			name = "profiles";
		} else if (strncmp(table[i].name, prefix, plen) == 0)
			name = table[i].name + plen;
		else
			continue;
		dot = strchr(name, '.');
		cand = dot == NULL ? xstrdup(name) : xstrndup(name, dot - name);
		if ((d = config_distance(key, cand)) < bestd) {
			free(best);
			best = cand;
			bestd = d;
		} else
			free(cand);
	}
	return (best);
}

static void
config_unknown(struct config_parse *p, const yaml_node_t *k,
    const struct config_option *table, size_t n, const char *prefix,
    const char *key)
{
	const struct config_option	*o;
	char				*q, *s;
	size_t				 i, klen = strlen(key);

	q = config_keyname(key, klen);
	if (table == config_options && *prefix == '\0') {
		/* Keys in the wrong place are the likely mistake. */
		if (config_options_find(config_options_profile,
		    CONFIG_NPROFILE_OPTIONS, key) != NULL) {
			config_problem(p, config_line(k), config_column(k),
			    "%s: unknown option (profile keys go under"
			    " profiles.NAME)", q);
			free(q);
			return;
		}
		for (i = 0; i < n; i++) {
			o = &table[i];
			s = strrchr(o->name, '.');
			if (s != NULL && strcmp(s + 1, key) == 0) {
				config_problem(p, config_line(k),
				    config_column(k), "%s: unknown option (did"
				    " you mean %s?)", q, o->name);
				free(q);
				return;
			}
		}
	}
	if ((s = config_suggest(table, n, prefix, key)) != NULL) {
		config_problem(p, config_line(k), config_column(k),
		    "%s%s: unknown option (did you mean %s%s?)", prefix, q,
		    table == config_options ? prefix : "", s);
	} else {
		config_problem(p, config_line(k), config_column(k),
		    "%s%s: unknown option", prefix, q);
	}
	free(s);
	free(q);
}

/*
 * Set option o from node v, or say why not; path names it in messages.
 * Returns the value's line, or 0 if nothing was set.
 */
static int
config_apply(struct config_parse *p, const struct config_option *o,
    void *base, const yaml_node_t *v, const char *path)
{
	char	*why = NULL;
	int	 plain;

	if (v->type != YAML_SCALAR_NODE) {
		config_problem(p, config_line(v), config_column(v),
		    "%s: expected %s, not %s", path,
		    config_options_type_name(o), config_node_kind(v));
		return (0);
	}
	if (config_is_null(v))
		return (0);
	plain = v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	if (config_options_value(o, base, (char *)v->data.scalar.value,
	    v->data.scalar.length, plain, p->env, p->dir, &why) != 0) {
		config_problem(p, config_line(v), config_column(v), "%s: %s",
		    path, why);
		free(why);
		return (0);
	}
	return (config_line(v));
}

static struct config_profile *
config_add_profile(struct config *cfg, const char *name, int line)
{
	struct config_profile	*prof;

	cfg->profiles = xreallocarray(cfg->profiles, cfg->nprofiles + 1,
	    sizeof *cfg->profiles);
	prof = &cfg->profiles[cfg->nprofiles++];
	memset(prof, 0, sizeof *prof);
	prof->name = xstrdup(name);
	prof->line = line;
	config_options_defaults(config_options_profile,
	    CONFIG_NPROFILE_OPTIONS, prof);
	return (prof);
}

static void
config_walk_profile(struct config_parse *p, struct config_profile *prof,
    const yaml_node_t *map)
{
	const struct config_option	*o;
	const yaml_node_pair_t		*pair;
	yaml_node_t			*k, *v;
	int				 lines[CONFIG_NPROFILE_OPTIONS];
	char				*key, *prefix, *path;
	size_t				 i, j;

	memset(lines, 0, sizeof lines);
	prefix = xprintf("profiles.%s.", prof->name);
	for (pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top && !p->stop; pair++) {
		if ((key = config_key(p, map, pair, prefix)) == NULL)
			continue;
		k = yaml_document_get_node(p->doc, pair->key);
		v = yaml_document_get_node(p->doc, pair->value);
		o = config_options_find(config_options_profile,
		    CONFIG_NPROFILE_OPTIONS, key);
		if (o == NULL || v == NULL) {
			config_unknown(p, k, config_options_profile,
			    CONFIG_NPROFILE_OPTIONS, prefix, key);
			free(key);
			continue;
		}
		i = o - config_options_profile;
		path = xprintf("%s%s", prefix, key);
		for (j = 0; j < nitems(lines); j++) {
			if ((o->flags & CONFIG_F_CREDENTIAL) && lines[j] != 0 &&
			    (config_options_profile[j].flags &
			    CONFIG_F_CREDENTIAL))
				break;
		}
		if (j != nitems(lines) && !config_is_null(v)) {
			config_problem(p, config_line(k), config_column(k),
			    "%s: only one of token, token_file and"
			    " token_command may be set (%s is on line %d)",
			    path, config_options_profile[j].name, lines[j]);
		} else
			lines[i] = config_apply(p, o, prof, v, path);
		if (lines[i] != 0 && o->type == CONFIG_TOKEN &&
		    p->token_line == 0)
			p->token_line = lines[i];
		if (lines[i] != 0 && strcmp(o->name, "token_command") == 0 &&
		    p->command_line == 0)
			p->command_line = lines[i];
		free(path);
		free(key);
	}
	free(prefix);

	if (prof->token != NULL)
		prof->token_source = CONFIG_TOKEN_INLINE;
	else if (prof->token_file != NULL)
		prof->token_source = CONFIG_TOKEN_FILE;
	else if (prof->token_command != NULL)
		prof->token_source = CONFIG_TOKEN_COMMAND;
}

static void
config_walk_profiles(struct config_parse *p, const yaml_node_t *map)
{
	const yaml_node_pair_t	*pair;
	struct config_profile	*prof;
	yaml_node_t		*k, *v;
	char			*name, *q;

	if (config_is_null(map))
		return;
	if (map->type != YAML_MAPPING_NODE) {
		config_problem(p, config_line(map), config_column(map),
		    "profiles: expected a mapping of profile names to their"
		    " settings, not %s", config_node_kind(map));
		return;
	}
	for (pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top && !p->stop; pair++) {
		if ((name = config_key(p, map, pair, "profiles.")) == NULL)
			continue;
		k = yaml_document_get_node(p->doc, pair->key);
		v = yaml_document_get_node(p->doc, pair->value);
		if (!config_options_check_name(name, strlen(name))) {
			q = config_options_quote(name, strlen(name));
			config_problem(p, config_line(k), config_column(k),
			    "profiles: %s is not a profile name (up to %d"
			    " letters, digits, '.', '_' and '-', not starting"
			    " with '.')", q, CONFIG_NAME_MAX);
			free(q);
			free(name);
			continue;
		}
		if (p->cfg->nprofiles == CONFIG_MAX_PROFILES) {
			config_problem(p, config_line(k), config_column(k),
			    "profiles: too many profiles (the limit is %d)",
			    CONFIG_MAX_PROFILES);
			free(name);
			break;
		}
		prof = config_add_profile(p->cfg, name, config_line(k));
		if (v != NULL && v->type == YAML_MAPPING_NODE)
			config_walk_profile(p, prof, v);
		else if (v != NULL && !config_is_null(v)) {
			config_problem(p, config_line(v), config_column(v),
			    "profiles.%s: expected a mapping of settings, not"
			    " %s", name, config_node_kind(v));
		}
		free(name);
	}
}

/* Whether some option lives under prefix (a section such as preferences). */
static int
config_is_section(const char *name)
{
	size_t	i, len = strlen(name);

	for (i = 0; i < CONFIG_NOPTIONS; i++) {
		if (strncmp(config_options[i].name, name, len) == 0 &&
		    config_options[i].name[len] == '.')
			return (1);
	}
	return (0);
}

/* A key's line, for problems found later by others (the keymap). */
static void
config_add_key_line(struct config *cfg, const char *path, int line)
{
	cfg->key_lines = xreallocarray(cfg->key_lines, cfg->nkey_lines + 1,
	    sizeof *cfg->key_lines);
	cfg->key_lines[cfg->nkey_lines].path = xstrdup(path);
	cfg->key_lines[cfg->nkey_lines++].line = line;
}

/*
 * keymap: is the console's to read (ui/keymap.c, from JSON without lines):
 * keep where each context and key is, so its problems can say.
 */
static void
config_keymap_lines(struct config_parse *p, const yaml_node_t *map,
    const char *prefix, int depth)
{
	const yaml_node_pair_t	*pair;
	yaml_node_t		*k, *v;
	char			*path;

	if (map->type != YAML_MAPPING_NODE)
		return;
	for (pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top; pair++) {
		k = yaml_document_get_node(p->doc, pair->key);
		v = yaml_document_get_node(p->doc, pair->value);
		if (k == NULL || k->type != YAML_SCALAR_NODE)
			continue;
		path = xprintf("%s.%s", prefix, (char *)k->data.scalar.value);
		config_add_key_line(p->cfg, path, config_line(k));
		if (v != NULL && depth == 0)
			config_keymap_lines(p, v, path, 1);
		free(path);
	}
}

static void
config_walk_section(struct config_parse *p, const yaml_node_t *map,
    const char *prefix)
{
	const struct config_option	*o;
	const yaml_node_pair_t		*pair;
	yaml_node_t			*k, *v;
	char				*key, *full, *sub;

	for (pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top && !p->stop; pair++) {
		if ((key = config_key(p, map, pair, prefix)) == NULL)
			continue;
		k = yaml_document_get_node(p->doc, pair->key);
		v = yaml_document_get_node(p->doc, pair->value);
		full = xprintf("%s%s", prefix, key);
		if (v == NULL)
			config_unknown(p, k, config_options,
			    CONFIG_NOPTIONS, prefix, key);
		else if (*prefix == '\0' && strcmp(key, "profiles") == 0)
			config_walk_profiles(p, v);
		else if (*prefix == '\0' && strcmp(key, "keymap") == 0) {
			config_add_key_line(p->cfg, "keymap", config_line(k));
			config_keymap_lines(p, v, "keymap", 0);
		}
		else if ((o = config_options_find(config_options,
		    CONFIG_NOPTIONS, full)) != NULL) {
			p->lines[o - config_options] =
			    config_apply(p, o, p->cfg, v, full);
		} else if (config_is_section(full)) {
			if (v->type == YAML_MAPPING_NODE) {
				sub = xprintf("%s.", full);
				config_walk_section(p, v, sub);
				free(sub);
			} else if (!config_is_null(v)) {
				config_problem(p, config_line(v),
				    config_column(v), "%s: expected a mapping,"
				    " not %s", full, config_node_kind(v));
			}
		} else
			config_unknown(p, k, config_options,
			    CONFIG_NOPTIONS, prefix, key);
		free(full);
		free(key);
	}
}

/* ---- after the walk --------------------------------------------------------- */

/*
 * A token in a file others can read is no longer a secret, and a command in
 * a file others can write is theirs to choose: refuse both, with the fix.
 */
static void
config_check_modes(struct config_parse *p)
{
	struct config		*cfg = p->cfg;
	struct config_profile	*prof;
	char			*token_why = NULL, *command_why = NULL;
	mode_t			 mode = p->mode & 07777;
	size_t			 i;

	if (p->token_line != 0 && (mode & 077)) {
		token_why = xprintf("%s is %s (mode %04o) and holds a token:"
		    " run chmod 600 %s", p->file, credentials_exposure(mode),
		    (unsigned int)mode, p->file);
		config_problem(p, p->token_line, 0, "%s", token_why);
	}
	if (p->command_line != 0 && (mode & 022)) {
		command_why = xprintf("%s is %s (mode %04o) and names a"
		    " token_command: run chmod go-w %s", p->file,
		    credentials_exposure(mode & 022), (unsigned int)mode,
		    p->file);
		config_problem(p, p->command_line, 0, "%s", command_why);
	}
	for (i = 0; i < cfg->nprofiles; i++) {
		prof = &cfg->profiles[i];
		if (token_why != NULL && prof->token != NULL) {
			config_secret_free(prof->token);
			prof->token = NULL;
			prof->token_refusal = xstrdup(token_why);
		}
		if (command_why != NULL && prof->token_command != NULL)
			prof->token_refusal = xstrdup(command_why);
	}
	free(token_why);
	free(command_why);
}

static void
config_choose_default(struct config_parse *p)
{
	struct config	*cfg = p->cfg;
	const char	*name;
	char		*q;
	int		 line;

	line = p->lines[config_options_find(config_options,
	    CONFIG_NOPTIONS, "default_profile") - config_options];
	if (cfg->nprofiles == 0)
		config_add_profile(cfg, CONFIG_DEFAULT_PROFILE, 0);
	if (cfg->default_profile != NULL &&
	    config_profile(cfg, cfg->default_profile) == NULL) {
		q = config_options_quote(cfg->default_profile,
		    strlen(cfg->default_profile));
		config_problem(p, line, 0, "default_profile: no profile is"
		    " called %s", q);
		free(q);
		free(cfg->default_profile);
		cfg->default_profile = NULL;
	}
	if (cfg->default_profile != NULL)
		return;
	if (config_profile(cfg, CONFIG_DEFAULT_PROFILE) != NULL)
		name = CONFIG_DEFAULT_PROFILE;
	else
		name = cfg->profiles[0].name;
	cfg->default_profile = xstrdup(name);
}

/*
 * In the order of the file, as an editor would list them; checks made after
 * the walk added theirs last. "Too many problems" stays at the end.
 */
static void
config_sort_problems(struct config_parse *p)
{
	struct config_problem	*pr = p->cfg->problems, tmp;
	size_t			 i, j, n = p->cfg->nproblems;

	if (p->stop)
		n--;
	for (i = 1; i < n; i++) {
		tmp = pr[i];
		for (j = i; j > 0 && pr[j - 1].line > tmp.line; j--)
			pr[j] = pr[j - 1];
		pr[j] = tmp;
	}
}

/* libyaml keeps copies of what it read: wipe them, they may hold a token. */
static void
config_wipe_yaml(yaml_parser_t *parser, yaml_document_t *doc)
{
	yaml_node_t	*n;

	if (doc != NULL) {
		for (n = doc->nodes.start; n < doc->nodes.top; n++) {
			if (n->type == YAML_SCALAR_NODE)
				explicit_bzero(n->data.scalar.value,
				    n->data.scalar.length);
		}
	}
	if (parser->buffer.start != NULL)
		explicit_bzero(parser->buffer.start,
		    parser->buffer.end - parser->buffer.start);
	if (parser->raw_buffer.start != NULL)
		explicit_bzero(parser->raw_buffer.start,
		    parser->raw_buffer.end - parser->raw_buffer.start);
}

static void
config_read_yaml(struct config_parse *p, const char *text, size_t len)
{
	yaml_parser_t	 parser;
	yaml_document_t	 doc, extra;
	yaml_node_t	*root;
	int		 loaded, ok;

	if (!yaml_parser_initialize(&parser))
		fatalx("config: out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	if (!(loaded = yaml_parser_load(&parser, &doc))) {
		config_syntax_problem(p, &parser, text, len);
		config_wipe_yaml(&parser, NULL);
		yaml_parser_delete(&parser);
		return;
	}
	/* A second document is an error; so is a syntax error in it. */
	if (!(ok = yaml_parser_load(&parser, &extra)))
		config_syntax_problem(p, &parser, text, len);
	else {
		if ((root = yaml_document_get_root_node(&extra)) != NULL) {
			config_problem(p, config_line(root), config_column(root),
			    "a second YAML document; a config file holds one");
		}
		config_wipe_yaml(&parser, &extra);
		yaml_document_delete(&extra);
	}

	p->doc = &doc;
	root = yaml_document_get_root_node(&doc);
	if (ok && root != NULL && !config_is_null(root)) {
		if (root->type == YAML_MAPPING_NODE)
			config_walk_section(p, root, "");
		else {
			config_problem(p, config_line(root), config_column(root),
			    "expected a mapping of options at the top, not %s",
			    config_node_kind(root));
		}
	}
	p->doc = NULL;
	config_wipe_yaml(&parser, &doc);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
}

/* ---- entry points ------------------------------------------------------------ */

struct config *
config_parse_text(const char *name, const char *text, size_t len, mode_t mode,
    char *const *env)
{
	struct config_parse	 p;
	struct config		*cfg;
	const char		*slash;

	cfg = xcalloc(1, sizeof *cfg);
	config_options_defaults(config_options, CONFIG_NOPTIONS, cfg);

	memset(&p, 0, sizeof p);
	p.cfg = cfg;
	p.file = name != NULL ? name : "config.yaml";
	p.env = env;
	p.mode = mode;
	if ((slash = strrchr(p.file, '/')) == NULL)
		p.dir = xstrdup(".");
	else if (slash == p.file)
		p.dir = xstrdup("/");
	else
		p.dir = xstrndup(p.file, slash - p.file);
	if (name != NULL)
		cfg->file = xstrdup(name);

	if (len > CONFIG_MAX_SIZE)
		config_problem(&p, 0, 0, "larger than %d bytes; not read",
		    CONFIG_MAX_SIZE);
	else if (len != 0)
		config_read_yaml(&p, text, len);
	config_check_modes(&p);
	config_choose_default(&p);
	config_sort_problems(&p);
	free(p.dir);
	return (cfg);
}
