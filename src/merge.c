/*
 * The three-way merge of a record at field level (merge.h): base, mine
 * and theirs walked together, member by member where all are objects.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "log.h"
#include "merge.h"
#include "redact.h"
#include "xmalloc.h"

/* Keys deeper than this are merged as one value. */
#define MERGE_DEPTH	32

/* The walk's state: where it is, and what it found. */
struct merge_walk {
	const struct kind	*kind;
	struct merge		*m;
	int			 known;		/* base is known */
	int			 moved;		/* theirs is not base */
	const char		*keys[MERGE_DEPTH];
	size_t			 depth;
};

/* ---- paths -------------------------------------------------------------- */

static char *
merge_path_of(const char *const *keys, size_t n)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(&b, '.');
		buf_adds(&b, keys[i]);
	}
	if (b.data == NULL)
		buf_adds(&b, "");
	return (buf_detach(&b, NULL));
}

int
merge_server_field(const struct kind *k, const char *path)
{
	const struct kind_field	*f;
	char			*copy, *dot;
	int			 rv = 0;

	if (k == NULL)
		return (0);
	if (k->id_field != NULL && strcmp(path, k->id_field) == 0)
		return (1);
	/* A field is the server's when it or a parent of it is. */
	copy = xstrdup(path);
	for (;;) {
		if ((f = kind_field_find(k, copy)) != NULL &&
		    (f->flags & KIND_F_READONLY)) {
			rv = 1;
			break;
		}
		if ((dot = strrchr(copy, '.')) == NULL)
			break;
		*dot = '\0';
	}
	free(copy);
	return (rv);
}

static int
merge_walk_server(struct merge_walk *w)
{
	char	*path;
	int	 rv;

	path = merge_path_of(w->keys, w->depth);
	rv = merge_server_field(w->kind, path);
	free(path);
	return (rv);
}

/* ---- values ------------------------------------------------------------- */

/* Absent and null are one value; the rest compare as JSON. */
static int
merge_same(const cJSON *a, const cJSON *b)
{
	int	na = a == NULL || cJSON_IsNull(a);
	int	nb = b == NULL || cJSON_IsNull(b);

	if (na || nb)
		return (na && nb);
	return (cJSON_Compare(a, b, 1));
}

static cJSON *
merge_dup(const cJSON *v)
{
	cJSON	*c;

	if (v == NULL)
		return (NULL);
	if ((c = cJSON_Duplicate(v, 1)) == NULL)
		fatalx("out of memory");
	return (c);
}

/* Set key of obj to a copy of v, or remove it (v NULL: absent). */
static void
merge_put(cJSON *obj, const char *key, const cJSON *v)
{
	cJSON	*c;

	if (v == NULL) {
		cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
		return;
	}
	c = merge_dup(v);
	if (cJSON_HasObjectItem(obj, key))
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key, c);
	else
		cJSON_AddItemToObject(obj, key, c);
}

static void
merge_conflict_add(struct merge_walk *w, const cJSON *b, const cJSON *t,
    const cJSON *m)
{
	struct merge		*mg = w->m;
	struct merge_conflict	*c;
	size_t			 i;

	mg->conflicts = xreallocarray(mg->conflicts, mg->nconflicts + 1,
	    sizeof *mg->conflicts);
	c = &mg->conflicts[mg->nconflicts++];
	memset(c, 0, sizeof *c);
	c->path = merge_path_of(w->keys, w->depth);
	c->nkeys = w->depth;
	c->keys = xcalloc(w->depth + 1, sizeof *c->keys);
	for (i = 0; i < w->depth; i++)
		c->keys[i] = xstrdup(w->keys[i]);
	c->base = merge_dup(b);
	c->theirs = merge_dup(t);
	c->mine = merge_dup(m);
}

/* ---- the walk ----------------------------------------------------------- */

static void merge_member(struct merge_walk *, cJSON *, const char *,
    const cJSON *, const cJSON *, const cJSON *);

/* Objects on every side there is: member by member. */
static void
merge_object(struct merge_walk *w, cJSON *out, const cJSON *b,
    const cJSON *m, const cJSON *t)
{
	const cJSON	*c;

	cJSON_ArrayForEach(c, m)
		merge_member(w, out, c->string,
		    cJSON_GetObjectItemCaseSensitive(b, c->string), c,
		    cJSON_GetObjectItemCaseSensitive(t, c->string));
	/* What mine lacks: removed by mine when base had it. */
	cJSON_ArrayForEach(c, b)
		if (!cJSON_HasObjectItem(m, c->string))
			merge_member(w, out, c->string, c, NULL,
			    cJSON_GetObjectItemCaseSensitive(t, c->string));
	/* A base not known: what theirs has and mine lacks is mine's too. */
	if (!w->known)
		cJSON_ArrayForEach(c, t)
			if (!cJSON_HasObjectItem(m, c->string))
				merge_member(w, out, c->string, NULL, NULL, c);
}

/* One member of out (theirs' copy at this level) merged. */
static void
merge_member(struct merge_walk *w, cJSON *out, const char *key,
    const cJSON *b, const cJSON *m, const cJSON *t)
{
	int	mine_changed, theirs_changed;

	if (w->depth == MERGE_DEPTH)
		fatalx("merge: deeper than %d", MERGE_DEPTH);
	w->keys[w->depth++] = key;
	if (merge_walk_server(w))
		goto out;
	if (cJSON_IsObject(m) && cJSON_IsObject(t) &&
	    (b == NULL || cJSON_IsObject(b)) && w->depth < MERGE_DEPTH) {
		merge_object(w, cJSON_GetObjectItemCaseSensitive(out, key), b,
		    m, t);
		goto out;
	}
	if (w->known) {
		mine_changed = !merge_same(b, m);
		theirs_changed = w->moved && !merge_same(b, t);
	} else {
		mine_changed = !merge_same(m, t);
		theirs_changed = w->moved;
	}
	if (!mine_changed)
		goto out;
	w->m->changed++;
	if (merge_same(m, t))
		goto out;
	if (theirs_changed)
		merge_conflict_add(w, b, t, m);
	else
		merge_put(out, key, m);
out:
	w->depth--;
}

/* Whether mine carries a stamp theirs no longer has. */
static int
merge_stamps_differ(const struct kind *k, const cJSON *mine,
    const cJSON *theirs)
{
	const struct kind_field	*f;
	const cJSON		*a;

	for (f = k != NULL ? k->fields : NULL; f != NULL && f->path != NULL;
	    f++) {
		if ((f->flags & KIND_F_STAMP) == 0)
			continue;
		if ((a = kind_json_get(mine, f->path)) != NULL &&
		    !merge_same(a, kind_json_get(theirs, f->path)))
			return (1);
	}
	return (0);
}

static void merge_strip(const struct kind *, cJSON *, struct buf *);

int
merge_differs(const struct kind *k, const cJSON *a, const cJSON *b)
{
	struct buf	 path = BUF_INITIALIZER;
	cJSON		*x = merge_dup(a), *y = merge_dup(b);
	int		 rv;

	if (cJSON_IsObject(x))
		merge_strip(k, x, &path);
	if (cJSON_IsObject(y))
		merge_strip(k, y, &path);
	rv = !merge_same(x, y);
	buf_free(&path);
	cJSON_Delete(x);
	cJSON_Delete(y);
	return (rv);
}

void
merge_records(const struct kind *k, const cJSON *base, const cJSON *mine,
    const cJSON *theirs, struct merge *m)
{
	struct merge_walk	 w;
	cJSON			*empty = NULL;

	memset(m, 0, sizeof *m);
	memset(&w, 0, sizeof w);
	w.kind = k;
	w.m = m;
	w.known = base != NULL;
	if (!cJSON_IsObject(base))
		base = NULL;
	if (w.known)
		w.moved = !merge_unchanged(k, base, theirs);
	else
		w.moved = merge_stamps_differ(k, mine, theirs);
	m->theirs_changed = w.known ? w.moved && merge_differs(k, base,
	    theirs) : w.moved;
	if (!cJSON_IsObject(theirs))
		theirs = empty = cJSON_CreateObject();
	m->merged = merge_dup(theirs);
	if (cJSON_IsObject(mine))
		merge_object(&w, m->merged, base, mine, theirs);
	cJSON_Delete(empty);
}

void
merge_free(struct merge *m)
{
	size_t	i, j;

	for (i = 0; i < m->nconflicts; i++) {
		free(m->conflicts[i].path);
		for (j = 0; j < m->conflicts[i].nkeys; j++)
			free(m->conflicts[i].keys[j]);
		free(m->conflicts[i].keys);
		cJSON_Delete(m->conflicts[i].base);
		cJSON_Delete(m->conflicts[i].theirs);
		cJSON_Delete(m->conflicts[i].mine);
	}
	free(m->conflicts);
	cJSON_Delete(m->merged);
	memset(m, 0, sizeof *m);
}

cJSON *
merge_resolve(const struct merge *m, enum merge_pick pick)
{
	const struct merge_conflict	*c;
	cJSON				*rec, *o;
	size_t				 i, j;

	rec = merge_dup(m->merged);
	if (pick == MERGE_THEIRS)
		return (rec);
	for (i = 0; i < m->nconflicts; i++) {
		c = &m->conflicts[i];
		/* The parents exist: the walk went into them in theirs. */
		for (o = rec, j = 0; o != NULL && j + 1 < c->nkeys; j++)
			o = cJSON_GetObjectItemCaseSensitive(o, c->keys[j]);
		if (cJSON_IsObject(o) && c->nkeys > 0)
			merge_put(o, c->keys[c->nkeys - 1], c->mine);
	}
	return (rec);
}

int
merge_unchanged(const struct kind *k, const cJSON *base, const cJSON *theirs)
{
	const struct kind_field	*f;
	const cJSON		*a, *b;
	int			 n = 0;

	for (f = k != NULL ? k->fields : NULL; f != NULL && f->path != NULL;
	    f++) {
		if ((f->flags & KIND_F_STAMP) == 0)
			continue;
		a = kind_json_get(base, f->path);
		b = kind_json_get(theirs, f->path);
		if (a == NULL && b == NULL)
			continue;
		if (a == NULL || b == NULL || !merge_same(a, b))
			return (0);
		n++;
	}
	return (n > 0);
}

cJSON *
merge_update_body(const struct kind *k, const cJSON *theirs,
    const cJSON *merged, const char *id)
{
	const struct kind_field	*f;
	cJSON			*body;

	body = edit_update_body(k, theirs, merged, id);
	/* What only a create sets (an output's url): an update ignores it. */
	for (f = k->fields; f != NULL && f->path != NULL; f++)
		if ((f->flags & KIND_F_CREATE) && strchr(f->path, '.') == NULL)
			cJSON_DeleteItemFromObjectCaseSensitive(body, f->path);
	return (body);
}

/* ---- text --------------------------------------------------------------- */

static void
merge_value_text(struct buf *b, const char *path, const cJSON *v)
{
	char	*text;
	cJSON	*copy;

	if (v == NULL) {
		buf_adds(b, "(absent)");
		return;
	}
	if (redact_path_is_secret(path) && !cJSON_IsNull(v)) {
		buf_adds(b, REDACT_MASK);
		return;
	}
	copy = merge_dup(v);
	redact_json(copy, NULL);
	if ((text = cJSON_PrintUnformatted(copy)) == NULL)
		fatalx("out of memory");
	buf_adds(b, text);
	cJSON_free(text);
	cJSON_Delete(copy);
}

void
merge_conflicts_text(const struct merge *m, struct buf *b)
{
	const struct merge_conflict	*c;
	size_t				 i;

	for (i = 0; i < m->nconflicts; i++) {
		c = &m->conflicts[i];
		buf_addf(b, "  %s: ", c->path);
		merge_value_text(b, c->path, c->theirs);
		buf_adds(b, " \xe2\x86\x92 ");
		merge_value_text(b, c->path, c->mine);
		buf_addc(b, '\n');
	}
}

/* v without the members the server manages, at any depth of objects. */
static void
merge_strip(const struct kind *k, cJSON *v, struct buf *path)
{
	cJSON	*c, *next;
	size_t	 at = path->len;

	for (c = v->child; c != NULL; c = next) {
		next = c->next;
		if (at != 0)
			buf_addc(path, '.');
		buf_adds(path, c->string);
		if (merge_server_field(k, buf_str(path)))
			cJSON_Delete(cJSON_DetachItemViaPointer(v, c));
		else if (cJSON_IsObject(c))
			merge_strip(k, c, path);
		buf_truncate(path, at);
	}
}

size_t
merge_diff(struct buf *out, const struct kind *k, const cJSON *before,
    const cJSON *after)
{
	struct buf	 path = BUF_INITIALIZER;
	cJSON		*a = merge_dup(before), *b = merge_dup(after);
	size_t		 n;

	if (cJSON_IsObject(a))
		merge_strip(k, a, &path);
	if (cJSON_IsObject(b))
		merge_strip(k, b, &path);
	buf_free(&path);
	if (a != NULL)
		redact_json(a, NULL);
	if (b != NULL)
		redact_json(b, NULL);
	n = edit_diff(out, a, b);
	cJSON_Delete(a);
	cJSON_Delete(b);
	return (n);
}
