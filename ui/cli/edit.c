/*
 * edit: the record as YAML in $EDITOR, the diff against a fresh copy, a
 * question on the terminal (or --yes), then the update.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "edit.h"
#include "kind.h"
#include "log.h"
#include "validate.h"

#include "cli.h"

/*
 * The editor loop: *edited is the parsed, valid record; 1 when the user
 * cancelled (empty file or no change), -1 (after the message) on error.
 */
int
cli_edit_loop(struct edit *e, cJSON **edited)
{
	char	*cause = NULL;

	*edited = NULL;
	for (;;) {
		fflush(stdout);
		fflush(stderr);
		if (edit_run_editor(e->file, &cause) != 0)
			break;
		switch (edit_next(e, edited, &cause)) {
		case EDIT_CHANGED:
			return (0);
		case EDIT_UNCHANGED:
		case EDIT_EMPTY:
			return (1);
		case EDIT_AGAIN:
			continue;
		case EDIT_INVALID:
		case EDIT_FAILED:
			break;
		}
		break;
	}
	cli_error(-1, "%s", cause);
	free(cause);
	return (-1);
}

/* Ask on the terminal; 1 for yes, -1 when there is none. */
int
cli_confirm(const char *question)
{
	FILE	*tty;
	char	 line[64];
	int	 yes = 0;

	if ((tty = fopen("/dev/tty", "r+")) == NULL)
		return (-1);
	fprintf(tty, "%s [y/N] ", question);
	fflush(tty);
	if (fgets(line, sizeof line, tty) != NULL)
		yes = line[0] == 'y' || line[0] == 'Y';
	fclose(tty);
	return (yes);
}

/* Show the diff against a fresh copy, ask, apply. */
static int
cli_edit_apply(struct cli *c, const struct kind *k, const char *path,
    const char *id, const cJSON *orig, const cJSON *edited)
{
	struct buf	 diff = BUF_INITIALIZER;
	cJSON		*fresh = NULL;
	size_t		 n;
	int		 rv, yes;

	if ((rv = cli_fetch(c, k, path, &fresh)) != 0)
		return (rv);
	if (fresh == NULL)
		fresh = cJSON_Duplicate(orig, 1);
	if (!cJSON_Compare(fresh, orig, 1))
		log_warn("%s changed on the server while you edited it: the "
		    "diff is against its current copy", k->name);
	n = edit_diff(&diff, fresh, edited);
	if (n == 0) {
		printf("no change\n");
		goto out;
	}
	printf("%s: %zu field%s changed:\n%s", k->name, n, n == 1 ? "" : "s",
	    buf_str(&diff));
	fflush(stdout);
	if (!c->o->yes) {
		if ((yes = cli_confirm("apply?")) < 0) {
			rv = cli_error(HTTP_EXIT_USAGE, "no terminal to ask "
			    "on: use --yes to apply without asking; nothing "
			    "was changed");
			goto out;
		}
		if (!yes) {
			printf("not applied\n");
			goto out;
		}
	}
	rv = cli_apply(c, k, path, id, fresh, edited);
out:
	buf_free(&diff);
	cJSON_Delete(fresh);
	return (rv);
}

int
cli_cmd_edit(struct cli *c, const struct kind *k, int argc, char **argv)
{
	struct edit	 e;
	const char	*id = NULL;
	cJSON		*orig = NULL, *edited = NULL;
	char		*path, *cause = NULL;
	int		 rv = 0, loop;

	memset(&e, 0, sizeof e);
	if (k->shape != KIND_SHAPE_OBJECT) {
		if (argc < 2)
			return (cli_usage_error("edit %s: an ID is needed",
			    k->name));
		id = argv[1];
	} else if (argc > 1)
		return (cli_usage_error("%s takes no id", k->name));
	if ((path = cli_item_path(c, k, id, &rv)) == NULL)
		return (rv);
	if ((rv = cli_connect(c)) != 0 ||
	    (rv = cli_fetch(c, k, path, &orig)) != 0)
		goto out;
	if (orig == NULL) {
		rv = cli_error(HTTP_EXIT_REFUSED, "%s: the server sent no "
		    "record", k->name);
		goto out;
	}
	if (edit_open(&e, k, orig, VALIDATE_UPDATE, &cause) != 0) {
		rv = cli_error(HTTP_EXIT_USAGE, "%s", cause);
		free(cause);
		goto out;
	}
	loop = cli_edit_loop(&e, &edited);
	if (loop < 0)
		rv = HTTP_EXIT_USAGE;
	else if (loop > 0)
		printf("no change\n");
	else
		rv = cli_edit_apply(c, k, path, id, orig, edited);
out:
	edit_close(&e);
	cJSON_Delete(edited);
	cJSON_Delete(orig);
	free(path);
	fflush(stdout);
	return (rv);
}
