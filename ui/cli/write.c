/*
 * The one-shot commands' writes of a whole record: never from a copy read
 * earlier, but merged (src/merge.c) into the server's copy read just
 * before; a field the server changed too is asked about on the terminal,
 * and with --yes or no terminal nothing is sent (exit 1).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "edit.h"
#include "http.h"
#include "kind.h"
#include "merge.h"
#include "xmalloc.h"

#include "cli.h"

int
cli_fetch_fresh(struct cli *c, const struct kind *k, const char *id,
    const char *path, cJSON **record)
{
	struct http_response	 resp;
	const cJSON		*r, *list;
	const char		*rid;
	char			*lpath, *cause = NULL;
	int			 rv;

	*record = NULL;
	if ((k->verbs & KIND_VERB_GET) != 0 || k->shape == KIND_SHAPE_OBJECT)
		return (cli_fetch(c, k, path, record));
	/* No call for one record: it is read in the list. */
	if ((lpath = kind_list_path(k, c->vars, &cause)) == NULL) {
		rv = cli_usage_error("%s", cause);
		free(cause);
		return (rv);
	}
	if ((rv = cli_get(c, lpath, &resp)) == 0) {
		list = resp.api.result;
		if (k->shape == KIND_SHAPE_WRAPPED)
			list = cJSON_GetObjectItemCaseSensitive(list,
			    k->list_key);
		cJSON_ArrayForEach(r, list) {
			rid = kind_record_id(k, r);
			if (rid != NULL && id != NULL && strcmp(rid, id) == 0) {
				*record = cJSON_Duplicate(r, 1);
				break;
			}
		}
		if (*record == NULL)
			rv = cli_error(HTTP_EXIT_REFUSED, "%s: no %s %s on the "
			    "server (deleted?); nothing was sent", k->name,
			    k->noun != NULL ? k->noun : k->name, id);
	}
	http_response_free(&resp);
	free(lpath);
	return (rv);
}

enum cli_pick
cli_conflict(struct cli *c, const char *what, const struct merge *m,
    int can_edit)
{
	struct buf	 b = BUF_INITIALIZER;
	FILE		*tty;
	char		 line[64];
	size_t		 other = m->changed - m->nconflicts;

	merge_conflicts_text(m, &b);
	fprintf(stderr, "edgetui: %s changed on the server since it was "
	    "read, in %zu field%s changed here too (the server's value "
	    "\xe2\x86\x92 yours):\n%s", what, m->nconflicts,
	    m->nconflicts == 1 ? "" : "s", buf_str(&b));
	if (other > 0)
		fprintf(stderr, "Your %zu other change%s and the server's "
		    "other changes are kept either way.\n", other,
		    other == 1 ? "" : "s");
	buf_free(&b);
	fflush(stderr);
	if (c->o->yes || (tty = fopen("/dev/tty", "r+")) == NULL) {
		cli_error(-1, "nothing was sent: %s to choose on a terminal, "
		    "or read the record again (get -o yaml) and make your "
		    "change on it", c->o->yes ? "run it without --yes" :
		    "run it");
		return (CLI_PICK_NONE);
	}
	for (;;) {
		fprintf(tty, "keep theirs (t), use yours (y)%s, or quit (q)? ",
		    can_edit ? ", edit again (e)" : "");
		fflush(tty);
		if (fgets(line, sizeof line, tty) == NULL)
			line[0] = 'q';
		if (line[0] == 't' || line[0] == 'y' || line[0] == 'q' ||
		    (can_edit && line[0] == 'e'))
			break;
	}
	fclose(tty);
	switch (line[0]) {
	case 't':
		return (CLI_PICK_THEIRS);
	case 'y':
		return (CLI_PICK_MINE);
	case 'e':
		return (CLI_PICK_EDIT);
	default:
		printf("not applied: nothing was sent\n");
		return (CLI_PICK_QUIT);
	}
}

/* Send rec merged over theirs (the journal's before). */
static int
cli_write_send(struct cli *c, const struct kind *k, const char *path,
    const char *id, const cJSON *theirs, const cJSON *rec)
{
	struct http_response	 resp;
	struct buf		 diff = BUF_INITIALIZER;
	const char		*method = kind_method_name(k->update_method);
	cJSON			*body;
	size_t			 n;
	int			 rv;

	n = merge_diff(&diff, k, theirs, rec);
	buf_free(&diff);
	if (n == 0) {
		fprintf(c->out == CLI_OUT_TABLE ? stdout : stderr, "%s %s: the "
		    "server already has these values; nothing was sent\n",
		    k->name, id != NULL ? id : "");
		if (c->out != CLI_OUT_TABLE)
			cli_print_record(c, k, theirs);
		return (0);
	}
	body = merge_update_body(k, theirs, rec, id);
	rv = cli_send_json(c, method, path, body, &resp);
	if (rv == 0) {
		cli_journal(c, method, path, resp.http_status, theirs,
		    resp.api.result);
		cli_print_record(c, k, resp.api.result);
	}
	http_response_free(&resp);
	cJSON_Delete(body);
	return (rv);
}

int
cli_write(struct cli *c, const struct kind *k, const char *path,
    const char *id, const cJSON *base, const cJSON *mine,
    const cJSON *theirs)
{
	struct merge	 m;
	enum cli_pick	 pick;
	cJSON		*read = NULL, *rec;
	char		*what;
	int		 rv = 0;

	if (theirs == NULL) {
		if ((rv = cli_fetch_fresh(c, k, id, path, &read)) != 0)
			return (rv);
		/* Nothing to read it from: sent as it is. */
		if ((theirs = read) == NULL)
			return (cli_apply(c, k, path, id, base, mine));
	}
	merge_records(k, base, mine, theirs, &m);
	if (m.nconflicts == 0)
		rv = cli_write_send(c, k, path, id, theirs, m.merged);
	else {
		what = xprintf("%s%s%s", k->name, id != NULL ? " " : "",
		    id != NULL ? id : "");
		switch ((pick = cli_conflict(c, what, &m, 0))) {
		case CLI_PICK_THEIRS:
		case CLI_PICK_MINE:
			rec = merge_resolve(&m, pick == CLI_PICK_MINE ?
			    MERGE_MINE : MERGE_THEIRS);
			rv = cli_write_send(c, k, path, id, theirs, rec);
			cJSON_Delete(rec);
			break;
		case CLI_PICK_QUIT:
			break;
		default:
			rv = HTTP_EXIT_REFUSED;
			break;
		}
		free(what);
	}
	merge_free(&m);
	cJSON_Delete(read);
	return (rv);
}
