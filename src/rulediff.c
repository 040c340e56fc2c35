/*
 * Rate limiting rules compared rule by rule, field by field, and the body
 * restoring a version of the entry point (rulediff.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common.h"
#include "kind.h"
#include "log.h"
#include "merge.h"
#include "rulediff.h"
#include "rulesets.h"
#include "xmalloc.h"

/* Top-level members a diff leaves out: the server sets them. */
static const char *const rulediff_skip[] = {
	"id", "version", "last_updated", "position"
};

#define RULEDIFF_SHORT_ID	8

/* A rule flattened: dotted paths and their values as JSON text. */
struct rulediff_flat {
	char	**path;
	char	**value;
	size_t	  n;
};

static void
rulediff_flat_add(struct rulediff_flat *f, const char *path, char *value)
{
	f->path = xreallocarray(f->path, f->n + 1, sizeof *f->path);
	f->value = xreallocarray(f->value, f->n + 1, sizeof *f->value);
	f->path[f->n] = xstrdup(path);
	f->value[f->n] = value;
	f->n++;
}

static char *
rulediff_json(const cJSON *v)
{
	char	*s, *copy;

	if ((s = cJSON_PrintUnformatted(v)) == NULL)
		fatalx("out of memory");
	copy = xstrdup(s);
	cJSON_free(s);
	return (copy);
}

/* Objects are walked into; arrays and scalars are values. */
static void
rulediff_flatten(struct rulediff_flat *f, const cJSON *obj, const char *pre)
{
	const cJSON	*v;
	char		*path;
	size_t		 i;
	int		 skip;

	cJSON_ArrayForEach(v, obj) {
		if (v->string == NULL)
			continue;
		skip = 0;
		for (i = 0; *pre == '\0' && i < nitems(rulediff_skip); i++)
			if (strcmp(v->string, rulediff_skip[i]) == 0)
				skip = 1;
		if (skip)
			continue;
		path = *pre == '\0' ? xstrdup(v->string) :
		    xprintf("%s.%s", pre, v->string);
		if (cJSON_IsObject(v) && cJSON_GetArraySize(v) > 0)
			rulediff_flatten(f, v, path);
		else
			rulediff_flat_add(f, path, rulediff_json(v));
		free(path);
	}
}

static const char *
rulediff_flat_get(const struct rulediff_flat *f, const char *path)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->path[i], path) == 0)
			return (f->value[i]);
	return (NULL);
}

/* The API's defaults, so that absent and default compare equal. */
static void
rulediff_defaults(struct rulediff_flat *f, const cJSON *rule)
{
	if (rulediff_flat_get(f, "enabled") == NULL)
		rulediff_flat_add(f, "enabled", xstrdup("true"));
	if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(rule,
	    "ratelimit")) &&
	    rulediff_flat_get(f, "ratelimit.mitigation_timeout") == NULL)
		rulediff_flat_add(f, "ratelimit.mitigation_timeout",
		    xstrdup("0"));
}

static void
rulediff_flat_free(struct rulediff_flat *f)
{
	size_t	i;

	for (i = 0; i < f->n; i++) {
		free(f->path[i]);
		free(f->value[i]);
	}
	free(f->path);
	free(f->value);
	memset(f, 0, sizeof *f);
}

static const char *
rulediff_string(const cJSON *rule, const char *name)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(rule, name);

	return (cJSON_IsString(v) ? v->valuestring : NULL);
}

static void
rulediff_add_field(struct rulediff_rule *r, const char *path, const char *old,
    const char *new)
{
	struct rulediff_field	*f;

	r->fields = xreallocarray(r->fields, r->nfields + 1,
	    sizeof *r->fields);
	f = &r->fields[r->nfields++];
	f->path = xstrdup(path);
	f->old = old != NULL ? xstrdup(old) : NULL;
	f->new = new != NULL ? xstrdup(new) : NULL;
}

/* The fields that differ, in old's order, then those only in new. */
static void
rulediff_fields(struct rulediff_rule *r, const cJSON *old, const cJSON *new)
{
	struct rulediff_flat	 fo, fn;
	const char		*v;
	size_t			 i;

	memset(&fo, 0, sizeof fo);
	memset(&fn, 0, sizeof fn);
	rulediff_flatten(&fo, old, "");
	rulediff_flatten(&fn, new, "");
	rulediff_defaults(&fo, old);
	rulediff_defaults(&fn, new);
	for (i = 0; i < fo.n; i++) {
		v = rulediff_flat_get(&fn, fo.path[i]);
		if (v == NULL || strcmp(v, fo.value[i]) != 0)
			rulediff_add_field(r, fo.path[i], fo.value[i], v);
	}
	for (i = 0; i < fn.n; i++)
		if (rulediff_flat_get(&fo, fn.path[i]) == NULL)
			rulediff_add_field(r, fn.path[i], NULL, fn.value[i]);
	rulediff_flat_free(&fo);
	rulediff_flat_free(&fn);
}

static struct rulediff_rule *
rulediff_push(struct rulediff *d, enum rulediff_what what, const cJSON *rule)
{
	struct rulediff_rule	*r;
	const char		*s;

	d->rules = xreallocarray(d->rules, d->n + 1, sizeof *d->rules);
	r = &d->rules[d->n++];
	memset(r, 0, sizeof *r);
	r->what = what;
	if ((s = rulediff_string(rule, "id")) != NULL)
		r->id = xstrdup(s);
	if ((s = rulediff_string(rule, "description")) != NULL)
		r->description = xstrdup(s);
	return (r);
}

/*
 * The unused old rule a new one pairs with by member ("id" compared
 * without case, "ref" exactly); -1 for none.
 */
static int
rulediff_pair(const cJSON *const *old, size_t nold, const int *used,
    const cJSON *rule, const char *member)
{
	const char	*want = rulediff_string(rule, member), *s;
	int		 nocase = strcmp(member, "id") == 0;
	size_t		 i;

	if (want == NULL || *want == '\0')
		return (-1);
	for (i = 0; i < nold; i++) {
		if (used[i] || (s = rulediff_string(old[i], member)) == NULL)
			continue;
		if (nocase ? strcasecmp(s, want) == 0 : strcmp(s, want) == 0)
			return ((int)i);
	}
	return (-1);
}

static const cJSON **
rulediff_array(const cJSON *rules, size_t *n)
{
	const cJSON	**a, *r;

	*n = cJSON_IsArray(rules) ? (size_t)cJSON_GetArraySize(rules) : 0;
	a = xcalloc(*n + 1, sizeof *a);
	*n = 0;
	if (cJSON_IsArray(rules))
		cJSON_ArrayForEach(r, rules)
			a[(*n)++] = r;
	return (a);
}

/* The rank of paired old rule i among the paired old rules. */
static int
rulediff_old_rank(const int *pair_of_old, size_t i)
{
	size_t	j;
	int	rank = 0;

	for (j = 0; j < i; j++)
		if (pair_of_old[j] >= 0)
			rank++;
	return (rank);
}

void
rulediff_compute(const cJSON *old_rules, const cJSON *new_rules,
    struct rulediff *d)
{
	const cJSON		**old, **new;
	struct rulediff_rule	*r;
	size_t			  nold, nnew, i;
	int			 *used, *pair, *pair_of_old, k, rank = 0;
	char			  a[16], b[16];

	memset(d, 0, sizeof *d);
	old = rulediff_array(old_rules, &nold);
	new = rulediff_array(new_rules, &nnew);
	used = xcalloc(nold + 1, sizeof *used);
	pair = xcalloc(nnew + 1, sizeof *pair);
	pair_of_old = xcalloc(nold + 1, sizeof *pair_of_old);
	for (i = 0; i < nold; i++)
		pair_of_old[i] = -1;
	/* By id first, so a ref never takes the rule an id names. */
	for (i = 0; i < nnew; i++) {
		pair[i] = rulediff_pair(old, nold, used, new[i], "id");
		if (pair[i] >= 0)
			used[pair[i]] = 1;
	}
	for (i = 0; i < nnew; i++) {
		if (pair[i] < 0 && (pair[i] = rulediff_pair(old, nold, used,
		    new[i], "ref")) >= 0)
			used[pair[i]] = 1;
		if (pair[i] >= 0)
			pair_of_old[pair[i]] = (int)i;
	}
	for (i = 0; i < nnew; i++) {
		if ((k = pair[i]) < 0) {
			r = rulediff_push(d, RULEDIFF_ADDED, new[i]);
			r->new_pos = (int)i + 1;
			d->added++;
			continue;
		}
		r = rulediff_push(d, RULEDIFF_CHANGED, new[i]);
		r->old_pos = k + 1;
		r->new_pos = (int)i + 1;
		/* A move among the rules both have, not a shift. */
		if (rulediff_old_rank(pair_of_old, (size_t)k) != rank) {
			snprintf(a, sizeof a, "%d", r->old_pos);
			snprintf(b, sizeof b, "%d", r->new_pos);
			rulediff_add_field(r, "position", a, b);
		}
		rank++;
		rulediff_fields(r, old[k], new[i]);
		if (r->nfields == 0) {
			free(r->id);
			free(r->description);
			d->n--;
		} else
			d->changed++;
	}
	for (i = 0; i < nold; i++) {
		if (used[i])
			continue;
		r = rulediff_push(d, RULEDIFF_REMOVED, old[i]);
		r->old_pos = (int)i + 1;
		d->removed++;
	}
	free(pair_of_old);
	free(pair);
	free(used);
	free(new);
	free(old);
}

void
rulediff_free(struct rulediff *d)
{
	size_t	i, j;

	for (i = 0; i < d->n; i++) {
		for (j = 0; j < d->rules[i].nfields; j++) {
			free(d->rules[i].fields[j].path);
			free(d->rules[i].fields[j].old);
			free(d->rules[i].fields[j].new);
		}
		free(d->rules[i].fields);
		free(d->rules[i].id);
		free(d->rules[i].description);
	}
	free(d->rules);
	memset(d, 0, sizeof *d);
}

/* "'Login form' (0c4f12ab)", or the id alone. */
static void
rulediff_name(const struct rulediff_rule *r, struct buf *b)
{
	if (r->description != NULL && *r->description != '\0')
		buf_addf(b, "'%s'", r->description);
	else
		buf_adds(b, "(no description)");
	if (r->id != NULL)
		buf_addf(b, " (%.*s)", RULEDIFF_SHORT_ID, r->id);
}

void
rulediff_text(const struct rulediff *d, struct buf *b)
{
	const struct rulediff_rule	*r;
	const struct rulediff_field	*f;
	size_t				 i, j;

	if (d->n == 0) {
		buf_adds(b, "no difference\n");
		return;
	}
	for (i = 0; i < d->n; i++) {
		r = &d->rules[i];
		switch (r->what) {
		case RULEDIFF_ADDED:
			buf_addf(b, "added #%d ", r->new_pos);
			rulediff_name(r, b);
			buf_addc(b, '\n');
			break;
		case RULEDIFF_REMOVED:
			buf_adds(b, "removed ");
			rulediff_name(r, b);
			buf_addf(b, ", was #%d\n", r->old_pos);
			break;
		case RULEDIFF_CHANGED:
			buf_addf(b, "changed #%d ", r->new_pos);
			rulediff_name(r, b);
			buf_adds(b, ":\n");
			for (j = 0; j < r->nfields; j++) {
				f = &r->fields[j];
				buf_addf(b, "    %s: %s -> %s\n", f->path,
				    f->old != NULL ? f->old : "(absent)",
				    f->new != NULL ? f->new : "(absent)");
			}
			break;
		}
	}
}

void
rulediff_summary(const struct rulediff *d, struct buf *b)
{
	const char	*sep = "";

	if (d->n == 0) {
		buf_adds(b, "no difference");
		return;
	}
	if (d->changed > 0) {
		buf_addf(b, "%zu changed", d->changed);
		sep = ", ";
	}
	if (d->added > 0) {
		buf_addf(b, "%s%zu added", sep, d->added);
		sep = ", ";
	}
	if (d->removed > 0)
		buf_addf(b, "%s%zu removed", sep, d->removed);
}

cJSON *
rulediff_restore_body(const cJSON *version, const cJSON *current,
    size_t *kept, size_t *renewed)
{
	const cJSON	*r;
	const char	*id;
	cJSON		*body, *rules, *one;

	if (kept != NULL)
		*kept = 0;
	if (renewed != NULL)
		*renewed = 0;
	body = cJSON_CreateObject();
	rules = cJSON_AddArrayToObject(body, "rules");
	cJSON_ArrayForEach(r, rulesets_rules(version)) {
		one = rulesets_rule_body(r);
		id = rulediff_string(r, "id");
		if (id != NULL && rulesets_rule_find(current, id, NULL) !=
		    NULL) {
			cJSON_AddStringToObject(one, "id", id);
			if (kept != NULL)
				(*kept)++;
		} else {
			/* Gone since: a new rule, known by its ref. */
			if (id != NULL && rulediff_string(one, "ref") == NULL)
				cJSON_AddStringToObject(one, "ref", id);
			if (renewed != NULL)
				(*renewed)++;
		}
		cJSON_AddItemToArray(rules, one);
	}
	return (body);
}

/* ---- a restore merged with the rules as they are now -------------------- */

/* The conflicts of one rule's merge, each path prefixed by the rule. */
static void
rulediff_take_conflicts(struct merge *into, struct merge *from,
    const char *label)
{
	struct merge_conflict	*c;
	size_t			 i, j;
	char			*path;

	for (i = 0; i < from->nconflicts; i++) {
		c = &from->conflicts[i];
		path = xprintf("%s %s", label, c->path);
		free(c->path);
		c->path = path;
		/* Addressed by the bodies, not by merge_resolve. */
		for (j = 0; j < c->nkeys; j++)
			free(c->keys[j]);
		c->nkeys = 0;
	}
	into->changed += from->changed;
	if (from->nconflicts == 0)
		return;
	into->conflicts = xreallocarray(into->conflicts, into->nconflicts +
	    from->nconflicts, sizeof *into->conflicts);
	memcpy(into->conflicts + into->nconflicts, from->conflicts,
	    from->nconflicts * sizeof *from->conflicts);
	into->nconflicts += from->nconflicts;
	free(from->conflicts);
	from->conflicts = NULL;
	from->nconflicts = 0;
}

/* A whole rule in conflict: deleted on one side, changed on the other. */
static void
rulediff_rule_conflict(struct merge *m, const char *label, const cJSON *base,
    const cJSON *theirs, const cJSON *mine)
{
	struct merge_conflict	*c;

	m->conflicts = xreallocarray(m->conflicts, m->nconflicts + 1,
	    sizeof *m->conflicts);
	c = &m->conflicts[m->nconflicts++];
	memset(c, 0, sizeof *c);
	c->path = xprintf("%s (the whole rule)", label);
	c->keys = xcalloc(1, sizeof *c->keys);
	c->base = base != NULL ? cJSON_Duplicate(base, 1) : NULL;
	c->theirs = theirs != NULL ? cJSON_Duplicate(theirs, 1) : NULL;
	c->mine = mine != NULL ? cJSON_Duplicate(mine, 1) : NULL;
	m->changed++;
}

static char *
rulediff_label(const cJSON *rule)
{
	const char	*d = rulediff_string(rule, "description");
	const char	*id = rulediff_string(rule, "id");

	if (d != NULL && *d != '\0')
		return (xprintf("'%.40s'", d));
	return (xprintf("%.8s", id != NULL ? id : "?"));
}

/* A rule for a PUT: what the server sets left out, but its id. */
static cJSON *
rulediff_put_rule(const cJSON *rule, const char *id)
{
	cJSON	*one = rulesets_rule_body(rule);

	if (id != NULL)
		cJSON_AddStringToObject(one, "id", id);
	return (one);
}

/* One rule of the restore (mine, id kept) against base and theirs. */
static void
rulediff_restore_rule(struct rulediff_restore *out, const cJSON *mine,
    const char *id, const cJSON *base, const cJSON *theirs)
{
	const cJSON	*b = rulesets_rule_find(base, id, NULL);
	const cJSON	*t = rulesets_rule_find(theirs, id, NULL);
	struct merge	 one;
	cJSON		*rec, *tr, *mr;
	char		*label = rulediff_label(b != NULL ? b : mine);

	tr = cJSON_GetObjectItemCaseSensitive(out->theirs_body, "rules");
	mr = cJSON_GetObjectItemCaseSensitive(out->mine_body, "rules");
	if (t == NULL) {
		/* Deleted meanwhile: kept so unless the restore changes it. */
		if (b != NULL && merge_differs(&kind_rate_limit_rules, b,
		    mine)) {
			rulediff_rule_conflict(&out->m, label, b, NULL, mine);
			cJSON_AddItemToArray(mr, rulediff_put_rule(mine, NULL));
		}
		free(label);
		return;
	}
	merge_records(&kind_rate_limit_rules, b, mine, t, &one);
	cJSON_AddItemToArray(tr, rulediff_put_rule(one.merged, id));
	rec = merge_resolve(&one, MERGE_MINE);
	cJSON_AddItemToArray(mr, rulediff_put_rule(rec, id));
	cJSON_Delete(rec);
	rulediff_take_conflicts(&out->m, &one, label);
	merge_free(&one);
	free(label);
}

void
rulediff_restore_merge(const cJSON *version, const cJSON *base,
    const cJSON *theirs, struct rulediff_restore *out)
{
	const cJSON	*r, *t;
	const char	*id;
	cJSON		*mine, *tr, *mr;
	char		*label;

	memset(out, 0, sizeof *out);
	out->theirs_body = cJSON_CreateObject();
	out->mine_body = cJSON_CreateObject();
	tr = cJSON_AddArrayToObject(out->theirs_body, "rules");
	mr = cJSON_AddArrayToObject(out->mine_body, "rules");
	/* The restore as asked: ids kept where base had the rule. */
	mine = rulediff_restore_body(version, base, NULL, NULL);
	cJSON_ArrayForEach(r, rulesets_rules(mine)) {
		if ((id = rulediff_string(r, "id")) == NULL) {
			cJSON_AddItemToArray(tr, cJSON_Duplicate(r, 1));
			cJSON_AddItemToArray(mr, cJSON_Duplicate(r, 1));
		} else
			rulediff_restore_rule(out, r, id, base, theirs);
	}
	cJSON_ArrayForEach(t, rulesets_rules(theirs)) {
		if ((id = rulediff_string(t, "id")) == NULL ||
		    rulesets_rule_find(mine, id, NULL) != NULL)
			continue;
		r = rulesets_rule_find(base, id, NULL);
		if (r == NULL) {
			/* Added meanwhile: kept. */
			cJSON_AddItemToArray(tr, rulediff_put_rule(t, id));
			cJSON_AddItemToArray(mr, rulediff_put_rule(t, id));
		} else if (merge_differs(&kind_rate_limit_rules, r, t)) {
			/* The restore removes a rule changed meanwhile. */
			label = rulediff_label(t);
			rulediff_rule_conflict(&out->m, label, r, t, NULL);
			cJSON_AddItemToArray(tr, rulediff_put_rule(t, id));
			free(label);
		}
	}
	out->m.theirs_changed = merge_differs(&kind_rulesets, base, theirs) ||
	    !cJSON_Compare(rulesets_rules(base), rulesets_rules(theirs), 1);
	cJSON_Delete(mine);
}

void
rulediff_restore_free(struct rulediff_restore *r)
{
	cJSON_Delete(r->theirs_body);
	cJSON_Delete(r->mine_body);
	merge_free(&r->m);
	memset(r, 0, sizeof *r);
}
