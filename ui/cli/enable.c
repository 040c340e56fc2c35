/*
 * enable and disable: a kind's "enabled" flag, one record at a time, by
 * the kind's update method with {"enabled": true|false} (a live input's
 * outputs, whose one mutable field it is).
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
	struct http_response	 resp;
	cJSON			*body;
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
	body = cJSON_CreateObject();
	cJSON_AddBoolToObject(body, "enabled", on);
	for (i = 1; i < argc && rv == 0; i++) {
		if ((path = cli_item_path(c, k, argv[i], &rv)) == NULL)
			break;
		memset(&resp, 0, sizeof resp);
		rv = cli_send_json(c, kind_method_name(k->update_method), path,
		    body, &resp);
		if (rv == 0) {
			cli_journal(c, kind_method_name(k->update_method),
			    path, resp.http_status, body, resp.api.result);
			cli_print_record(c, k, resp.api.result);
		}
		http_response_free(&resp);
		free(path);
	}
	cJSON_Delete(body);
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
