/*
 * kinds: every kind the commands know, its aliases and verbs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "kind.h"
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
	list = cJSON_CreateArray();
	if (c->out == CLI_OUT_TABLE)
		printf("%-22s  %-28s  %s\n", "KIND", "ALIASES", "VERBS");
	for (i = 0; i < n; i++) {
		buf_reset(&verbs);
		kind_verbs_text(all[i]->verbs, &verbs);
		if (c->out == CLI_OUT_TABLE) {
			printf("%-22s  %-28s  %s", all[i]->name,
			    all[i]->aliases != NULL ? all[i]->aliases : "",
			    buf_str(&verbs));
			if (all[i]->deprecated != NULL)
				printf("  (deprecated: use %s)",
				    all[i]->deprecated);
			putchar('\n');
			continue;
		}
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
	else if (c->out == CLI_OUT_YAML)
		cli_print_yaml(list);
	cJSON_Delete(list);
	buf_free(&verbs);
	return (0);
}
