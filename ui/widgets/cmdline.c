/*
 * The : command line: the commands of ui/commands.c and the kinds with
 * their aliases; history with Up/Down and Tab completion, whose choices
 * are listed above the line.
 */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "screen.h"
#include "tui.h"
#include "widgets/line.h"
#include "xmalloc.h"

struct cmdline {
	struct modal	 m;
	struct line	 line;
	size_t		 hist;		/* t->nhistory: the new line */
	char		*saved;		/* the new line while in history */
	char		*hint;
};

struct cmdline_match {
	struct buf	 names;
	char		*common;
	size_t		 n;
	const char	*pre;		/* the argument typed so far */
};

static void
cmdline_consider(struct cmdline_match *cm, const char *word, const char *pre)
{
	size_t	i;

	if (strncmp(word, pre, strlen(pre)) != 0)
		return;
	if (cm->common == NULL)
		cm->common = xstrdup(word);
	else {
		for (i = 0; cm->common[i] != '\0' && cm->common[i] == word[i];
		    i++)
			;
		cm->common[i] = '\0';
	}
	cm->n++;
	buf_addf(&cm->names, "%s ", word);
}

/* An argument's word, offered by its command's completer. */
static void
cmdline_arg_word(void *arg, const char *word)
{
	struct cmdline_match	*cm = arg;

	cmdline_consider(cm, word, cm->pre);
}

static void
cmdline_kind_words(struct cmdline_match *cm, const char *pre)
{
	const struct kind *const	*all;
	size_t				 n, i;
	char				*aliases, *w, *save = NULL;

	all = kind_all(&n);
	for (i = 0; i < n; i++) {
		if (all[i]->shape == KIND_SHAPE_NONE ||
		    all[i]->scope == KIND_SCOPE_VIDEO)
			continue;
		cmdline_consider(cm, all[i]->name, pre);
		if (all[i]->aliases == NULL)
			continue;
		aliases = xstrdup(all[i]->aliases);
		/* "rate-limit" would only make "rate-limits" ambiguous. */
		for (w = strtok_r(aliases, " ", &save); w != NULL;
		    w = strtok_r(NULL, " ", &save))
			if (strncmp(all[i]->name, w, strlen(w)) != 0)
				cmdline_consider(cm, w, pre);
		free(aliases);
	}
}

static void
cmdline_complete(struct tui *t, struct cmdline *c)
{
	struct cmdline_match	 cm;
	const struct command	*cmds, *cmd;
	const char		*arg;
	char			*full, *name;
	size_t			 i, n, cmdlen;

	memset(&cm, 0, sizeof cm);
	buf_init(&cm.names);
	if ((arg = strchr(c->line.buf, ' ')) == NULL) {
		/* Everything, on an empty line: say which is which. */
		if (c->line.len == 0)
			buf_adds(&cm.names, "commands: ");
		cmds = commands_all(&n);
		for (i = 0; i < n; i++)
			cmdline_consider(&cm, cmds[i].name, c->line.buf);
		if (c->line.len == 0)
			buf_adds(&cm.names, "  lists: ");
		cmdline_kind_words(&cm, c->line.buf);
		cmdlen = 0;
	} else {
		cmdlen = (size_t)(arg - c->line.buf) + 1;
		arg++;
		name = xstrndup(c->line.buf, cmdlen - 1);
		cm.pre = arg;
		cmd = commands_find(name);
		free(name);
		if (cmd != NULL && cmd->arg == COMMAND_ARG_PATH) {
			free(c->hint);
			line_complete_path(&c->line, cmdlen, &c->hint);
			buf_free(&cm.names);
			return;
		}
		if (cmd != NULL && cmd->complete != NULL)
			cmd->complete(t, cmdline_arg_word, &cm);
	}
	if (cm.common != NULL) {
		/* A space after a whole command, for its argument; none after
		 * an argument, which ends the line. */
		full = xprintf("%.*s%s%s", (int)cmdlen, c->line.buf, cm.common,
		    cm.n == 1 && cmdlen == 0 ? " " : "");
		line_set(&c->line, full);
		free(full);
	}
	free(c->hint);
	c->hint = cm.n > 1 ? xstrdup(buf_str(&cm.names)) : cm.n == 0 ?
	    xstrdup("no completion") : NULL;
	free(cm.common);
	buf_free(&cm.names);
}

static void
cmdline_history(struct tui *t, struct cmdline *c, int dir)
{
	size_t	h = c->hist;

	if (dir < 0 && h > 0)
		h--;
	else if (dir > 0 && h < t->nhistory)
		h++;
	if (h == c->hist)
		return;
	if (c->hist == t->nhistory) {
		free(c->saved);
		c->saved = xstrdup(c->line.buf);
	}
	c->hist = h;
	line_set(&c->line, h == t->nhistory ? c->saved : t->history[h]);
}

static int
cmdline_key(struct tui *t, struct modal *m, int key)
{
	struct cmdline	*c = (struct cmdline *)m;
	char		*cmd;

	switch (key) {
	case 033:
		tui_pop(t);
		return (TUI_HANDLED);
	case '\r':
		cmd = xstrdup(c->line.buf);
		tui_pop(t);
		commands_run(t, cmd);
		free(cmd);
		return (TUI_HANDLED);
	case '\t':
		cmdline_complete(t, c);
		return (TUI_HANDLED);
	case KEY_UP:
		cmdline_history(t, c, -1);
		return (TUI_HANDLED);
	case KEY_DOWN:
		cmdline_history(t, c, 1);
		return (TUI_HANDLED);
	case KEY_BACKSPACE:
	case 0x7f:
		if (c->line.len == 0) {
			tui_pop(t);
			return (TUI_HANDLED);
		}
		break;
	}
	if (line_key(&c->line, key) == LINE_CHANGED) {
		free(c->hint);
		c->hint = NULL;
	}
	return (TUI_HANDLED);
}

/* The hint's words in rows of at most w columns: the row count. */
static int
cmdline_hint_rows(const char *hint, int w, const char **starts, int max)
{
	const char	*s = hint, *p, *sp, *end;
	int		 n = 0;

	if (w < 1)
		return (0);
	while (*s == ' ')
		s++;
	while (*s != '\0' && n < max) {
		starts[n++] = s;
		/* Whole words while they fit; a longer one is cut. */
		end = NULL;
		for (p = s; *p != '\0'; p = sp + 1) {
			if ((sp = strchr(p, ' ')) == NULL)
				sp = p + strlen(p);
			if (sp - s > w)
				break;
			end = sp;
			if (*sp == '\0')
				break;
		}
		if (end == NULL)
			end = s + MINIMUM(strlen(s), (size_t)w);
		for (s = end; *s == ' '; s++)
			;
	}
	return (n);
}

static void
cmdline_draw(struct tui *t, struct modal *m)
{
	struct cmdline	*c = (struct cmdline *)m;
	attr_t		 a = screen_role(THEME_ROLE_INPUT);
	const char	*starts[64];
	char		*row;
	int		 n, i, max, len;

	(void)t;
	/* Every choice, in as many rows above the line as they need. */
	max = MINIMUM(LINES - 3, (int)nitems(starts));
	if (c->hint != NULL && max > 0) {
		n = cmdline_hint_rows(c->hint, COLS - 2, starts, max);
		for (i = 0; i < n; i++) {
			len = i + 1 < n ? (int)(starts[i + 1] - starts[i]) :
			    (int)strlen(starts[i]);
			row = xstrndup(starts[i], (size_t)len);
			screen_fill(LINES - 1 - n + i, 0, COLS,
			    screen_role(THEME_ROLE_STATUS));
			screen_put(LINES - 1 - n + i, 1, COLS - 2, row,
			    screen_role(THEME_ROLE_DIM));
			free(row);
		}
	}
	screen_fill(LINES - 1, 0, COLS, a);
	screen_put(LINES - 1, 0, 1, ":", a);
	line_draw(&c->line, LINES - 1, 1, COLS - 1, a, 1);
}

static void
cmdline_free(struct modal *m)
{
	struct cmdline	*c = (struct cmdline *)m;

	free(c->saved);
	free(c->hint);
	free(c);
}

void
cmdline_open(struct tui *t, const char *initial)
{
	struct cmdline	*c;

	c = xcalloc(1, sizeof *c);
	c->m.key = cmdline_key;
	c->m.draw = cmdline_draw;
	c->m.free = cmdline_free;
	c->hist = t->nhistory;
	line_set(&c->line, initial);
	tui_push(t, &c->m);
}
