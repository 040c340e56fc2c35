/*
 * Undoing a journaled change: which kind and record its path names (by the
 * kinds' path templates), and the request that puts the record back as it
 * was, or why the API cannot. The console shows the plan and sends it.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "journal.h"
#include "kind.h"
#include "log.h"
#include "merge.h"
#include "redact.h"
#include "xmalloc.h"

#define JOURNAL_SEGMENTS_MAX	16

struct journal_match {
	int	 fixed;		/* literal segments that matched */
	char	*vars[5];	/* account zone video id ruleset */
};

/* {ruleset}: a rule's path names its ruleset (rate-limit-rules). */
static const char *const journal_var_names[] = {
	"{account}", "{zone}", "{video}", "{id}", "{ruleset}"
};

static void
journal_match_clear(struct journal_match *m)
{
	size_t	i;

	for (i = 0; i < nitems(m->vars); i++)
		free(m->vars[i]);
	memset(m, 0, sizeof *m);
}

/* Split "/a/b/c" into at most max segments; -1 for more (or an empty one). */
static int
journal_split(char *path, char **seg, size_t max)
{
	size_t	 n = 0;
	char	*p;

	if (*path != '/')
		return (-1);
	for (p = path + 1; ; ) {
		if (n == max)
			return (-1);
		seg[n++] = p;
		if ((p = strchr(p, '/')) == NULL)
			break;
		*p++ = '\0';
	}
	for (max = 0; max < n; max++)
		if (*seg[max] == '\0')
			return (-1);
	return ((int)n);
}

/* A template against a path's segments: 0 with m filled, or -1. */
static int
journal_match_template(const char *tmpl, char **seg, int nseg,
    struct journal_match *m)
{
	char	*copy, *tseg[JOURNAL_SEGMENTS_MAX];
	int	 n, i, rc = -1;
	size_t	 v;

	memset(m, 0, sizeof *m);
	if (tmpl == NULL)
		return (-1);
	copy = xstrdup(tmpl);
	if ((n = journal_split(copy, tseg, nitems(tseg))) != nseg)
		goto out;
	for (i = 0; i < n; i++) {
		for (v = 0; v < nitems(journal_var_names); v++)
			if (strcmp(tseg[i], journal_var_names[v]) == 0)
				break;
		if (v < nitems(journal_var_names)) {
			free(m->vars[v]);
			m->vars[v] = xstrdup(seg[i]);
		} else if (strcmp(tseg[i], seg[i]) == 0)
			m->fixed++;
		else
			goto out;
	}
	rc = 0;
out:
	if (rc != 0)
		journal_match_clear(m);
	free(copy);
	return (rc);
}

int
journal_target(const char *path, struct journal_target *t)
{
	const struct kind *const	*all;
	const char			*tmpl[3];
	struct journal_match		 m, best;
	char				*copy, *seg[JOURNAL_SEGMENTS_MAX], *cause;
	size_t				 n, i, j;
	int				 nseg, whole, best_list = 0;

	memset(t, 0, sizeof *t);
	memset(&best, 0, sizeof best);
	best.fixed = -1;
	copy = xstrndup(path, strcspn(path, "?#"));
	if ((nseg = journal_split(copy, seg, nitems(seg))) < 0) {
		free(copy);
		return (-1);
	}
	all = kind_all(&n);
	/*
	 * A path below a record's (a download's type, a caption's generate)
	 * is an action on that record: the longest path a kind has.
	 */
	for (whole = nseg; t->kind == NULL && nseg > 0; nseg--)
	for (i = 0; i < n; i++) {
		tmpl[0] = all[i]->item_path;
		tmpl[1] = all[i]->list_path;
		tmpl[2] = all[i]->create_path;
		for (j = 0; j < nitems(tmpl); j++) {
			if (journal_match_template(tmpl[j], seg, nseg, &m) != 0)
				continue;
			cause = NULL;
			if (m.vars[3] != NULL &&
			    kind_id_check(all[i], m.vars[3], &cause) != 0) {
				free(cause);
				journal_match_clear(&m);
				continue;
			}
			if (m.fixed <= best.fixed) {
				journal_match_clear(&m);
				continue;
			}
			journal_match_clear(&best);
			best = m;
			t->kind = all[i];
			best_list = j != 0 && all[i]->shape != KIND_SHAPE_OBJECT;
		}
	}
	free(copy);
	if (t->kind == NULL)
		return (-1);
	t->below = nseg + 1 < whole;
	t->account = best.vars[0];
	t->zone = best.vars[1];
	t->video = best.vars[2];
	t->id = best.vars[3];
	free(best.vars[4]);	/* the ruleset: no part of the target */
	t->list = best_list;
	return (0);
}

void
journal_target_free(struct journal_target *t)
{
	free(t->id);
	free(t->account);
	free(t->zone);
	free(t->video);
	memset(t, 0, sizeof *t);
}

/* ---- bodies --------------------------------------------------------------- */

/*
 * Keep what a create may send: described, writable fields, a map's own
 * keys; nothing the journal redacted.
 */
static void
journal_writable(const struct kind *k, cJSON *v, struct buf *path)
{
	const struct kind_field	*f;
	cJSON			*c, *next;
	size_t			 at = path->len;

	for (c = v->child; c != NULL; c = next) {
		next = c->next;
		if (cJSON_IsArray(v)) {
			buf_adds(path, "[]");
			if (cJSON_IsObject(c))
				journal_writable(k, c, path);
			buf_truncate(path, at);
			continue;
		}
		if (at != 0)
			buf_addc(path, '.');
		buf_adds(path, c->string);
		f = kind_field_find(k, buf_str(path));
		if (f == NULL || (f->flags & KIND_F_READONLY) ||
		    (cJSON_IsString(c) &&
		    strcmp(c->valuestring, REDACT_MASK) == 0))
			cJSON_Delete(cJSON_DetachItemViaPointer(v, c));
		else if (f->type == KIND_TYPE_OBJECT ||
		    f->type == KIND_TYPE_OBJECTS)
			journal_writable(k, c, path);
		buf_truncate(path, at);
	}
}

static cJSON *
journal_create_body(const struct kind *k, const cJSON *before)
{
	struct buf	 path = BUF_INITIALIZER;
	cJSON		*body;

	if ((body = cJSON_Duplicate(before, 1)) == NULL)
		fatalx("journal: out of memory");
	journal_writable(k, body, &path);
	buf_free(&path);
	return (body);
}

static int
journal_readonly_member(const struct kind *k, const cJSON *m)
{
	const struct kind_field	*f = kind_field_find(k, m->string);

	return ((f != NULL && (f->flags & KIND_F_READONLY)) ||
	    (k->id_field != NULL && strcmp(m->string, k->id_field) == 0));
}

/* after, with each writable top-level member as it was in before. */
static cJSON *
journal_update_body(const struct kind *k, const cJSON *before,
    const cJSON *after)
{
	const cJSON	*m;
	cJSON		*body, *c, *next;

	if ((body = cJSON_Duplicate(after, 1)) == NULL)
		fatalx("journal: out of memory");
	for (c = body->child; c != NULL; c = next) {
		next = c->next;
		if (!journal_readonly_member(k, c) &&
		    !cJSON_HasObjectItem(before, c->string))
			cJSON_Delete(cJSON_DetachItemViaPointer(body, c));
	}
	cJSON_ArrayForEach(m, before) {
		if (journal_readonly_member(k, m))
			continue;
		if ((c = cJSON_Duplicate(m, 1)) == NULL)
			fatalx("journal: out of memory");
		if (cJSON_HasObjectItem(body, m->string))
			cJSON_ReplaceItemInObjectCaseSensitive(body, m->string,
			    c);
		else
			cJSON_AddItemToObject(body, m->string, c);
	}
	/* What the journal could not keep is not sent back. */
	for (c = body->child; c != NULL; c = next) {
		next = c->next;
		if (cJSON_IsString(c) && strcmp(c->valuestring,
		    REDACT_MASK) == 0)
			cJSON_Delete(cJSON_DetachItemViaPointer(body, c));
	}
	return (body);
}

/* ---- the plan ------------------------------------------------------------- */

static void	journal_undo_none(struct journal_undo *, const char *, ...)
		    printflike(2, 3);

static void
journal_undo_none(struct journal_undo *u, const char *fmt, ...)
{
	va_list	ap;

	u->op = JOURNAL_UNDO_NONE;
	va_start(ap, fmt);
	xvasprintf(&u->why, fmt, ap);
	va_end(ap);
}

/* Whether the journal left out a secret somewhere in v. */
static int
journal_has_redacted(const cJSON *v)
{
	const cJSON	*c;

	if (cJSON_IsString(v))
		return (strcmp(v->valuestring, REDACT_MASK) == 0);
	for (c = v != NULL ? v->child : NULL; c != NULL; c = c->next)
		if (journal_has_redacted(c))
			return (1);
	return (0);
}

/* A deleted record back: a create, or the update of an object kind. */
static void
journal_undo_delete(const struct journal_record *r, struct journal_undo *u)
{
	const struct kind	*k = u->target.kind;
	int			 secrets = journal_has_redacted(r->before);

	if (!cJSON_IsObject(r->before)) {
		journal_undo_none(u, "the journal holds no copy of this "
		    "deleted %s", k->name);
		return;
	}
	if (k == &kind_videos) {
		journal_undo_none(u, "a deleted video cannot be restored: "
		    "its bytes are gone from the service");
		return;
	}
	if (k == &kind_signing_keys) {
		journal_undo_none(u, "a deleted signing key cannot be "
		    "restored: its private key is gone, and a new key has a "
		    "new one");
		return;
	}
	if (k->shape == KIND_SHAPE_OBJECT) {
		if ((k->verbs & KIND_VERB_UPDATE) == 0) {
			journal_undo_none(u, "the API cannot set %s again",
			    k->name);
			return;
		}
		u->op = JOURNAL_UNDO_UPDATE;
		u->body = journal_create_body(k, r->before);
		if (secrets)
			u->note = xstrdup("its secrets cannot be restored: "
			    "the service makes new ones");
		return;
	}
	if ((k->verbs & KIND_VERB_CREATE) == 0) {
		journal_undo_none(u, "the API cannot create %s: a deleted "
		    "one cannot be restored", k->name);
		return;
	}
	if (k->create_body != KIND_BODY_JSON) {
		journal_undo_none(u, "%s are created from a file, which the "
		    "journal does not hold: a deleted one cannot be restored",
		    k->name);
		return;
	}
	u->op = JOURNAL_UNDO_CREATE;
	u->body = journal_create_body(k, r->before);
	u->note = xprintf("it comes back with a new id%s", secrets ?
	    " and new secrets" : "");
}

/* A rule's PATCH undone by another, of the fields it changed. */
static void
journal_undo_rule(const struct journal_record *r, struct journal_undo *u)
{
	const struct kind	*k = u->target.kind;
	cJSON			*body;

	if (strcmp(r->method, "PATCH") != 0 || u->target.id == NULL ||
	    !cJSON_IsObject(r->before) || !cJSON_IsObject(r->after)) {
		journal_undo_none(u, "restore one of the entry point's "
		    "versions instead (:%s, v, B)", k->name);
		return;
	}
	body = journal_update_body(k, r->before, r->after);
	if (!merge_differs(k, body, r->after)) {
		cJSON_Delete(body);
		journal_undo_none(u, "only the rule's place changed: move it "
		    "back in :%s (K, J), or restore one of the entry point's "
		    "versions (v, B)", k->name);
		return;
	}
	u->op = JOURNAL_UNDO_UPDATE;
	u->body = body;
}

void
journal_undo_plan(const struct journal_record *r, struct journal_undo *u)
{
	const struct kind	*k;
	const char		*m = r->method;

	memset(u, 0, sizeof *u);
	if (journal_target(r->path, &u->target) != 0) {
		journal_undo_none(u, "no kind has the path %s", r->path);
		return;
	}
	k = u->target.kind;
	if (u->target.below) {
		journal_undo_none(u, "%s %s is an action on the %s, which the "
		    "journal cannot undo", r->method, r->path, k->name);
		return;
	}
	if (r->status < 200 || r->status > 299) {
		journal_undo_none(u, "the change failed (HTTP %d): nothing to "
		    "undo", r->status);
		return;
	}
	/*
	 * A rule's path needs its ruleset: a change of its fields is put back
	 * through its entry point; a create, a delete or a move by restoring
	 * one of the entry point's versions.
	 */
	if (k->item_path != NULL && strstr(k->item_path, "{ruleset}") !=
	    NULL) {
		journal_undo_rule(r, u);
		return;
	}
	if (u->target.list && strcmp(m, "POST") != 0) {
		journal_undo_none(u, "a change to several %s at once cannot be "
		    "undone from the journal", k->name);
		return;
	}
	if (strcmp(m, "DELETE") == 0) {
		journal_undo_delete(r, u);
		return;
	}
	if (strcmp(m, "POST") == 0 && u->target.list) {
		/* A create: undone by deleting what it made. */
		free(u->target.id);
		u->target.id = NULL;
		if (kind_record_id(k, r->after) != NULL)
			u->target.id = xstrdup(kind_record_id(k, r->after));
		if ((k->verbs & KIND_VERB_DELETE) == 0 || u->target.id == NULL) {
			journal_undo_none(u, "the API cannot delete the %s this "
			    "created", k->name);
			return;
		}
		u->op = JOURNAL_UNDO_DELETE;
		return;
	}
	if ((k->verbs & KIND_VERB_UPDATE) == 0 || !cJSON_IsObject(r->before) ||
	    !cJSON_IsObject(r->after)) {
		journal_undo_none(u, "the journal or the API cannot put this "
		    "%s back as it was", k->name);
		return;
	}
	u->op = JOURNAL_UNDO_UPDATE;
	u->body = journal_update_body(k, r->before, r->after);
}

void
journal_undo_free(struct journal_undo *u)
{
	journal_target_free(&u->target);
	cJSON_Delete(u->body);
	free(u->why);
	free(u->note);
	memset(u, 0, sizeof *u);
}

char *
journal_change_text(const struct journal_record *r)
{
	struct journal_target	 t;
	struct buf		 b = BUF_INITIALIZER;
	const cJSON		*m;
	int			 n = 0;

	if (journal_target(r->path, &t) != 0)
		t.kind = NULL;
	/* A DELETE may answer with what is left (an override cleared). */
	if (strcmp(r->method, "DELETE") == 0 || r->before == NULL ||
	    r->after == NULL) {
		if (strcmp(r->method, "DELETE") == 0)
			buf_adds(&b, t.kind != NULL && (t.kind->verbs &
			    KIND_VERB_CLEAR) ? "cleared" : "deleted");
		else
			buf_adds(&b, r->after != NULL ? "created" : r->method);
		journal_target_free(&t);
		return (buf_detach(&b, NULL));
	}
	/* What the user changed, not what the server stamps (modified). */
	buf_adds(&b, "updated");
	cJSON_ArrayForEach(m, r->after) {
		if ((t.kind != NULL && journal_readonly_member(t.kind, m)) ||
		    cJSON_Compare(m, cJSON_GetObjectItemCaseSensitive(
		    r->before, m->string), 1))
			continue;
		buf_addf(&b, "%s %s", n++ == 0 ? ":" : ",", m->string);
	}
	cJSON_ArrayForEach(m, r->before) {
		if (!cJSON_HasObjectItem(r->after, m->string))
			buf_addf(&b, "%s %s", n++ == 0 ? ":" : ",", m->string);
	}
	journal_target_free(&t);
	return (buf_detach(&b, NULL));
}
