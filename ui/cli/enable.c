/*
 * enable and disable: a kind's "enabled" flag, one record at a time, by
 * the kind's update method (a live input's outputs, whose one mutable
 * field it is): each record read just before, one already so not sent.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "http.h"
#include "kind.h"

#include "cli.h"

static int
cli_enable_run(struct cli *c, const struct kind *k, int argc, char **argv,
    int on)
{
	cJSON			*theirs, *mine;
	char			*path, *cause = NULL;
	int			 i, rv = 0;

	if (argc < 2)
		return (cli_usage_error("%s %s: at least one ID is needed",
		    on ? "enable" : "disable", k->name));
	for (i = 1; i < argc; i++) {
		if (kind_id_check(k, argv[i], &cause) != 0) {
			rv = cli_usage_error("%s", cause);
			free(cause);
			return (rv);
		}
	}
	if ((rv = cli_connect(c)) != 0)
		return (rv);
	for (i = 1; i < argc && rv == 0; i++) {
		if ((path = cli_item_path(c, k, argv[i], &rv)) == NULL)
			break;
		if ((rv = cli_fetch_fresh(c, k, argv[i], path, &theirs)) == 0 &&
		    theirs != NULL) {
			mine = cJSON_Duplicate(theirs, 1);
			cJSON_DeleteItemFromObjectCaseSensitive(mine,
			    "enabled");
			cJSON_AddBoolToObject(mine, "enabled", on);
			rv = cli_write(c, k, path, argv[i], theirs, mine,
			    theirs);
			cJSON_Delete(mine);
		}
		cJSON_Delete(theirs);
		free(path);
	}
	return (rv);
}

int
cli_cmd_enable(struct cli *c, const struct kind *k, int argc, char **argv)
{
	return (cli_enable_run(c, k, argc, argv, 1));
}

int
cli_cmd_disable(struct cli *c, const struct kind *k, int argc, char **argv)
{
	return (cli_enable_run(c, k, argc, argv, 0));
}
