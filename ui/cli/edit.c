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
#include "merge.h"
#include "validate.h"
#include "xmalloc.h"
#include "yamljson.h"

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

/*
 * What an edit changed, merged (src/merge.c) into the server's copy read
 * now, from orig, the copy the editor opened on. 0 with *rec to show and
 * apply (caller frees) and *fresh the copy it was merged into; -2 to edit
 * again (*text: what to reopen the editor with, its base *fresh); -1 not
 * applied (said so); or the exit status.
 */
static int
cli_edit_merge(struct cli *c, const struct kind *k, const char *path,
    const char *id, const cJSON *orig, const cJSON *edited, cJSON **fresh,
    cJSON **rec, char **text)
{
	struct merge	 m;
	struct buf	 why = BUF_INITIALIZER;
	enum cli_pick	 pick;
	char		*what, *yaml;
	int		 rv = 0;

	*rec = NULL;
	*text = NULL;
	if ((rv = cli_fetch_fresh(c, k, id, path, fresh)) != 0)
		return (rv);
	if (*fresh == NULL)
		*fresh = cJSON_Duplicate(orig, 1);
	merge_records(k, orig, edited, *fresh, &m);
	if (m.nconflicts == 0) {
		if (m.theirs_changed)
			log_warn("%s changed on the server while you edited "
			    "it: those changes are kept", k->name);
		*rec = cJSON_Duplicate(m.merged, 1);
		merge_free(&m);
		return (0);
	}
	what = xprintf("%s%s%s", k->name, id != NULL ? " " : "",
	    id != NULL ? id : "");
	switch ((pick = cli_conflict(c, what, &m, 1))) {
	case CLI_PICK_THEIRS:
	case CLI_PICK_MINE:
		*rec = merge_resolve(&m, pick == CLI_PICK_MINE ? MERGE_MINE :
		    MERGE_THEIRS);
		break;
	case CLI_PICK_EDIT:
		*rec = merge_resolve(&m, MERGE_MINE);
		buf_adds(&why, "The server changed these since you read it "
		    "(theirs \xe2\x86\x92 yours, which this text has):\n");
		merge_conflicts_text(&m, &why);
		yaml = yamljson_emit(*rec);
		*text = edit_with_comment(yaml, buf_str(&why));
		free(yaml);
		cJSON_Delete(*rec);
		*rec = NULL;
		rv = -2;
		break;
	case CLI_PICK_QUIT:
		rv = -1;
		break;
	default:
		rv = HTTP_EXIT_REFUSED;
		break;
	}
	buf_free(&why);
	free(what);
	merge_free(&m);
	return (rv);
}

/* Show what would change (the server's own fields left out), ask, apply. */
static int
cli_edit_apply(struct cli *c, const struct kind *k, const char *path,
    const char *id, const cJSON *fresh, const cJSON *rec)
{
	struct buf	 diff = BUF_INITIALIZER;
	size_t		 n;
	int		 rv = 0, yes;

	n = merge_diff(&diff, k, fresh, rec);
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
	/* Read again: the answer may have come long after. */
	rv = cli_write(c, k, path, id, fresh, rec, NULL);
out:
	buf_free(&diff);
	return (rv);
}

int
cli_cmd_edit(struct cli *c, const struct kind *k, int argc, char **argv)
{
	struct edit	 e;
	const char	*id = NULL;
	cJSON		*orig = NULL, *edited = NULL, *fresh = NULL, *rec = NULL;
	char		*path, *cause = NULL, *text = NULL;
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
	    (rv = cli_fetch_fresh(c, k, id, path, &orig)) != 0)
		goto out;
	if (orig == NULL) {
		rv = cli_error(HTTP_EXIT_REFUSED, "%s: the server sent no "
		    "record", k->name);
		goto out;
	}
	if (edit_open(&e, k, orig, VALIDATE_UPDATE, &cause) != 0)
		goto fail;
	for (;;) {
		loop = cli_edit_loop(&e, &edited);
		if (loop != 0) {
			if (loop < 0)
				rv = HTTP_EXIT_USAGE;
			else
				printf("no change\n");
			break;
		}
		rv = cli_edit_merge(c, k, path, id, orig, edited, &fresh,
		    &rec, &text);
		cJSON_Delete(edited);
		edited = NULL;
		if (rv == 0)
			rv = cli_edit_apply(c, k, path, id, fresh, rec);
		if (rv != -2) {
			if (rv == -1)
				rv = 0;
			break;
		}
		/* e: the editor again, on the server's copy with yours. */
		cJSON_Delete(orig);
		orig = fresh;
		fresh = NULL;
		edit_close(&e);
		rv = edit_open_text(&e, k, orig, text, VALIDATE_UPDATE,
		    &cause);
		free(text);
		text = NULL;
		if (rv != 0)
			goto fail;
	}
	goto out;
fail:
	rv = cli_error(HTTP_EXIT_USAGE, "%s", cause);
	free(cause);
out:
	edit_close(&e);
	cJSON_Delete(edited);
	cJSON_Delete(orig);
	cJSON_Delete(fresh);
	cJSON_Delete(rec);
	free(path);
	fflush(stdout);
	return (rv);
}
