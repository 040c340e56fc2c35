/*
 * The question a write asks when the server changed, since the user read
 * it, a field the user changed too (src/merge.c found it): each such field
 * with the server's value and the user's, then t keeps theirs, y uses
 * yours, e edits again (where there is something to edit), Esc cancels.
 * Nothing is sent before the answer.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "tui.h"
#include "xmalloc.h"

struct conflict {
	conflict_cb	 cb;
	void		*arg;
	dialog_free_cb	 free_cb;
};

static void
conflict_free(void *arg)
{
	struct conflict	*c = arg;

	if (c->free_cb != NULL)
		c->free_cb(c->arg);
	free(c);
}

static void
conflict_answer(struct tui *t, void *arg, const char *answer)
{
	struct conflict		*c = arg;
	enum conflict_answer	 a;

	switch (*answer) {
	case 't':
		a = CONFLICT_THEIRS;
		break;
	case 'y':
		a = CONFLICT_MINE;
		break;
	case 'e':
		a = CONFLICT_EDIT;
		break;
	default:
		a = CONFLICT_CANCEL;
		tui_message(t, TUI_MSG_INFO, "cancelled: nothing was sent");
		break;
	}
	c->cb(t, c->arg, a);
}

void
conflict_text(const char *what, const struct merge *m, int can_edit,
    struct buf *b)
{
	size_t	other = m->changed - m->nconflicts;

	buf_addf(b, "%s changed on the server since you read it, in %zu "
	    "field%s you changed too (the server's value \xe2\x86\x92 "
	    "yours):\n", what, m->nconflicts, m->nconflicts == 1 ? "" : "s");
	merge_conflicts_text(m, b);
	if (other > 0)
		buf_addf(b, "Your %zu other change%s and the server's other "
		    "changes are kept either way.\n", other,
		    other == 1 ? "" : "s");
	else
		buf_adds(b, "The server's other changes are kept either "
		    "way.\n");
	buf_addf(b, "\nt keep theirs  y use yours%s  Esc cancel (nothing is "
	    "sent)", can_edit ? "  e edit again" : "");
}

void
conflict_ask(struct tui *t, const char *what, const struct merge *m,
    int can_edit, conflict_cb cb, void *arg, dialog_free_cb free_cb)
{
	struct conflict	*c;
	struct buf	 b;

	c = xcalloc(1, sizeof *c);
	c->cb = cb;
	c->arg = arg;
	c->free_cb = free_cb;
	buf_init(&b);
	conflict_text(what, m, can_edit, &b);
	dialog_choose(t, "changed on the server", buf_str(&b),
	    can_edit ? "tye" : "ty", conflict_answer, c, conflict_free);
	tui_message(t, TUI_MSG_WARN, "%s changed on the server meanwhile: "
	    "keep theirs (t), use yours (y)%s?", what, can_edit ?
	    ", edit again (e)" : "");
	buf_free(&b);
}
