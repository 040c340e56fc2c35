/*
 * The model of a form: a kind's fields as a flat list of typed inputs,
 * each holding the text the user typed, checked one by one as they are
 * edited and as a whole before submit. It knows nothing of curses; the
 * form widget draws it and sends it keys as text edits.
 */
#ifndef EDGE_FORM_MODEL_H
#define EDGE_FORM_MODEL_H

#include <stddef.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "kind.h"
#include "validate.h"

/* How an input is edited; from the field's kind_type. */
enum form_input {
	FORM_TEXT,		/* STRING TIME URI HEX32 UUID */
	FORM_NUMBER,		/* INT NUMBER */
	FORM_TOGGLE,		/* BOOL: true / false / (unset) */
	FORM_ENUM,		/* ENUM: one of values, or unset */
	FORM_LIST,		/* STRINGS ENUMS: "a, b c" */
	FORM_MAP,		/* MAP: "key=value, key2=value2" */
	FORM_JSON		/* OBJECTS and anything else: JSON text */
};

struct form_item {
	const struct kind_field	*field;
	char			*path;		/* "match.request.methods" */
	int			 depth;		/* 0 top level; 1 in an object */
	enum form_input		 input;
	char			*text;		/* what the user sees and edits */
	int			 changed;	/* differs from the start */
	char			*error;		/* the last check's, or NULL */
	char			*initial;	/* text at the start */
	int			 touched;	/* set by the user */
};

struct form {
	const struct kind	*kind;
	enum validate_mode	 mode;
	cJSON			*base;		/* the record edited (a copy) */
	struct form_item	*items;
	size_t			 nitems;
	char			*error;		/* cross-field problems, or NULL */
};

/*
 * A form for a new record (record NULL; the mode is VALIDATE_CREATE) or
 * for editing one (VALIDATE_UPDATE: create-only and read-only fields are
 * left out). Every field of the kind that is not read-only gets an item,
 * and the members of an OBJECT field become items of their own (depth+1),
 * down to OBJECTS, which are edited as JSON. FILE fields are left out.
 *
 * The order is fixed: the descriptor's, walked depth first. An OBJECT has
 * no item of its own: its members stand in its place, one deeper. A MAP
 * that has declared members ("meta.name") is an item for its other keys,
 * followed by one item per declared member. The record must be an object.
 */
struct form	*form_new(const struct kind *, const cJSON *);
/*
 * Each item's text from another copy of the record (a merge of the
 * user's changes into the server's newer copy): changed items where it
 * differs from the one the form started from.
 */
void		 form_fill(struct form *, const cJSON *);
void		 form_free(struct form *);

/*
 * Set item i's text; it is checked at once (item->error), with the kind's
 * cross-field rules. Other items are checked again too, but only those the
 * user touched or that show an error already change theirs: an untouched
 * empty field is not flagged before form_result.
 */
void		 form_set(struct form *, size_t, const char *);
/*
 * FORM_TOGGLE and FORM_ENUM: step to the next (dir 1) or previous (-1)
 * value, unset included (unless the field is required).
 */
void		 form_cycle(struct form *, size_t, int);
/*
 * FORM_TOGGLE and FORM_ENUM: a typed letter picks the first value that
 * starts with it (any case), or the next one when the value shown does.
 * Returns 0 when none does.
 */
int		 form_jump(struct form *, size_t, int);
/*
 * Leaving item i: a date typed as a time from now ("+2h") is shown as the
 * RFC 3339 date it stands for. Returns 1 when the text changed.
 */
int		 form_settle(struct form *, size_t);
/* "+15m", "+2h", "+30d", "+1w" after now as RFC 3339 UTC, or NULL. */
char		*form_time_from_now(const char *, time_t);
/* Whether any item changed. */
int		 form_changed(const struct form *);
/* The index of the item at path ("action.mode"), or -1. */
int		 form_find(const struct form *, const char *);
/*
 * Whether item i may not be left empty now: required by the mode, and
 * every optional object holding it is in the record.
 */
int		 form_required(const struct form *, size_t);

/*
 * The body to send: the record edited with the items' values put in
 * (fields the form does not know are kept; an emptied item removes its
 * member). Every item is checked, then the whole (the kind's cross-field
 * rules). NULL when something is wrong: the items' errors and form->error
 * say what, and *cause is a one-line summary ("2 fields need attention:
 * threshold: ..."). Editing a record, only the items the user changed are
 * checked: the others keep the server's values, even one that breaks a
 * local rule (validate_changes).
 */
cJSON		*form_result(struct form *, char **);

/* One value as the form shows it (lists "a, b", maps "k=v, k2=v2"). */
char		*form_text_of(enum form_input, const cJSON *);

#endif
