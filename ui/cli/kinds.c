/*
 * kinds: every kind the commands know, its aliases and verbs; the table's
 * columns as wide as the longest name and aliases.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "kind.h"
#include "text.h"
#include "xmalloc.h"

#include "cli.h"

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

/* The VERBS column's least width before the ALIASES column wraps. */
#define CLI_KINDS_VERBS_MIN	30

/* The next line of a cell wrapped to width (0: none), or NULL at its end. */
static const char *
cli_kinds_line(const char **text, int width, int *len)
{
	const char	*line = *text;

	if (*line == '\0')
		return (NULL);
	*len = width > 0 ? (int)text_wrap(line, (size_t)width) :
	    (int)strlen(line);
	*text = line + *len;
	while (**text == ' ')
		(*text)++;
	while (*len > 0 && line[*len - 1] == ' ')
		(*len)--;
	return (line);
}

/*
 * One row: the aliases and the verbs (with what replaces a deprecated
 * kind) wrapped to their columns, when the terminal's width is known.
 */
static void
cli_kinds_row(const char *name, int wname, const char *aliases, int waliases,
    const char *verbs, int wverbs)
{
	const char	*a, *v;
	int		 alen = 0, vlen = 0, first = 1;

	for (;;) {
		a = cli_kinds_line(&aliases, waliases, &alen);
		v = cli_kinds_line(&verbs, wverbs, &vlen);
		if (a == NULL && v == NULL && !first)
			break;
		printf("%-*s  %.*s", wname, first ? name : "",
		    a != NULL ? alen : 0, a != NULL ? a : "");
		if (v != NULL)
			printf("%*s  %.*s", waliases - (a != NULL ? alen : 0),
			    "", vlen, v);
		putchar('\n');
		first = 0;
	}
}

static void
cli_kinds_table(const struct kind *const *all, size_t n)
{
	struct buf	verbs = BUF_INITIALIZER;
	size_t		i, w;
	int		wname = 4, waliases = 7, word = 7, wverbs = 0;
	int		width = cli_term_width();
	const char	*a;

	for (i = 0; i < n; i++) {
		wname = MAXIMUM(wname, (int)strlen(all[i]->name));
		for (a = all[i]->aliases; a != NULL && *a != '\0'; a += w) {
			a += strspn(a, " ");
			w = strcspn(a, " ");
			word = MAXIMUM(word, (int)w);
		}
		if (all[i]->aliases != NULL)
			waliases = MAXIMUM(waliases,
			    (int)strlen(all[i]->aliases));
	}
	/* A narrow terminal: the aliases wrap before the verbs get narrow. */
	if (width > 0) {
		waliases = MAXIMUM(word, MINIMUM(waliases,
		    width - wname - 4 - CLI_KINDS_VERBS_MIN));
		wverbs = MAXIMUM(CLI_KINDS_VERBS_MIN / 2,
		    width - wname - 4 - waliases);
	}
	cli_kinds_row("KIND", wname, "ALIASES", waliases, "VERBS", wverbs);
	for (i = 0; i < n; i++) {
		buf_reset(&verbs);
		kind_verbs_text(all[i]->verbs, &verbs);
		if (all[i]->deprecated != NULL)
			buf_addf(&verbs, "  (deprecated: use %s)",
			    all[i]->deprecated);
		cli_kinds_row(all[i]->name, wname, all[i]->aliases != NULL ?
		    all[i]->aliases : "", waliases, buf_str(&verbs), wverbs);
	}
	buf_free(&verbs);
}

int
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
	if (c->out == CLI_OUT_TABLE) {
		cli_kinds_table(all, n);
		return (0);
	}
	list = cJSON_CreateArray();
	for (i = 0; i < n; i++) {
		buf_reset(&verbs);
		kind_verbs_text(all[i]->verbs, &verbs);
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", all[i]->name);
		cli_words(o, "aliases", all[i]->aliases);
		cli_words(o, "verbs", buf_str(&verbs));
		cJSON_AddStringToObject(o, "scope",
		    kind_scope_name(all[i]->scope));
		cJSON_AddStringToObject(o, "help", kind_help(all[i]));
		if (all[i]->deprecated != NULL)
			cJSON_AddStringToObject(o, "deprecated",
			    all[i]->deprecated);
		cJSON_AddItemToArray(list, o);
	}
	if (c->out == CLI_OUT_JSON)
		cli_print_json(list);
	else
		cli_print_yaml(list);
	cJSON_Delete(list);
	buf_free(&verbs);
	return (0);
}
