/*
 * The console's : commands, declared once in a table that the command
 * line's dispatcher, its Tab completion and the help are read from.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "configfile.h"
#include "journalview.h"
#include "panels/rltest.h"
#include "requestlog.h"
#include "screen.h"
#include "text.h"
#include "theme.h"
#include "tui.h"
#include "xmalloc.h"

#define TUI_HISTORY_MAX		100

/* ---- configuration problems (:problems) -------------------------------- */

/* A line that may be wider than the screen: the rest indented below it. */
static void
tui_add_wrapped(struct buf *b, const char *text)
{
	char	**rows;
	size_t	  i, n;

	rows = status_wrap_all(text, COLS > 40 ? (size_t)COLS - 6 : 34, &n);
	for (i = 0; i < n; i++) {
		buf_addf(b, "%s%s\n", i > 0 ? "    " : "", rows[i]);
		free(rows[i]);
	}
	free(rows);
}

static void
tui_problems(struct tui *t)
{
	const char	*const *kp;
	struct buf	 b;
	size_t		 i, n;

	buf_init(&b);
	for (i = 0; i < t->cfg->nproblems; i++)
		tui_add_wrapped(&b, t->cfg->problems[i].message);
	kp = keymap_problems(t->keymap, &n);
	for (i = 0; i < n; i++)
		tui_add_wrapped(&b, kp[i]);
	for (i = 0; i < t->nproblems; i++)
		tui_add_wrapped(&b, t->problems[i]);
	if (b.len == 0)
		buf_adds(&b, "No problem in the configuration, keymap or "
		    "theme.\n");
	tui_push(t, textview_modal("configuration problems", buf_str(&b)));
	buf_free(&b);
}

/* ---- the last messages (:messages) ------------------------------------ */

/* Where a message's text starts, after its time and class. */
#define TUI_MESSAGES_TEXT_COL	(8 + 2 + 5 + 2)

void
tui_messages(struct tui *t)
{
	static const char *const class_names[] = {
		[TUI_MSG_INFO] = "", [TUI_MSG_OK] = "ok",
		[TUI_MSG_WARN] = "warn", [TUI_MSG_ERROR] = "error"
	};
	struct buf	 b;
	struct tm	 tm;
	char		 when[16], *text, *line, *nl;
	size_t		 i;
	struct modal	*m;

	/*
	 * A message's lines as they are: the view wraps each as wide as the
	 * terminal is now, again after a resize, under the message's text.
	 */
	buf_init(&b);
	for (i = 0; i < t->nmsglog; i++) {
		localtime_r(&t->msglog[i].time, &tm);
		strftime(when, sizeof when, "%H:%M:%S", &tm);
		/* Its own lines stay lines (a lint error's caret row). */
		text = xstrdup(t->msglog[i].text);
		for (line = text; line != NULL; line = nl) {
			if ((nl = strchr(line, '\n')) != NULL)
				*nl++ = '\0';
			buf_addf(&b, "%-8s  %-5s  %s\n", line == text ? when :
			    "", line == text ? class_names[t->msglog[i].class] :
			    "", line);
		}
		free(text);
	}
	if (b.len == 0)
		buf_adds(&b, "No message yet.\n");
	m = textview_modal("messages (newest last)", buf_str(&b));
	textview_modal_hang(m, TUI_MESSAGES_TEXT_COL);
	tui_push(t, m);
	buf_free(&b);
}

/* ---- the : command line ---------------------------------------------- */

static void
tui_history_add(struct tui *t, const char *line)
{
	if (t->nhistory > 0 &&
	    strcmp(t->history[t->nhistory - 1], line) == 0)
		return;
	if (t->nhistory == TUI_HISTORY_MAX) {
		free(t->history[0]);
		memmove(t->history, t->history + 1,
		    (t->nhistory - 1) * sizeof *t->history);
		t->nhistory--;
	}
	t->history = xreallocarray(t->history, t->nhistory + 1,
	    sizeof *t->history);
	t->history[t->nhistory++] = xstrdup(line);
}

static const char *const commands_themes[] = {
	"default", "high-contrast", "light", "mono", "solarized-dark"
};

static void
commands_theme_words(struct tui *t, command_word_cb cb, void *arg)
{
	size_t	i;

	(void)t;
	for (i = 0; i < nitems(commands_themes); i++)
		cb(arg, commands_themes[i]);
}

static void
commands_profile_words(struct tui *t, command_word_cb cb, void *arg)
{
	size_t	i;

	for (i = 0; i < t->cfg->nprofiles; i++)
		cb(arg, t->cfg->profiles[i].name);
}

static void
tui_cmd_theme(struct tui *t, const char *name)
{
	struct theme	*th;
	char		*cause = NULL;

	if ((th = tui_theme_load(t, name, &cause)) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "theme: %s", cause);
		free(cause);
		return;
	}
	theme_free(t->theme);
	t->theme = th;
	free(t->theme_name);
	t->theme_name = xstrdup(name);
	screen_theme(th);
	clearok(curscr, TRUE);
	tui_message(t, TUI_MSG_OK, "theme %s", name);
}

static void
commands_help_run(struct tui *t, const char *arg)
{
	(void)arg;
	tui_push(t, tui_help_modal(t));
}

static void
commands_journal(struct tui *t, const char *arg)
{
	(void)arg;
	journalview_open(t);
}

static void
commands_log(struct tui *t, const char *arg)
{
	(void)arg;
	requestlog_open(t);
}

static void
commands_messages(struct tui *t, const char *arg)
{
	(void)arg;
	tui_messages(t);
}

static void
commands_problems(struct tui *t, const char *arg)
{
	(void)arg;
	tui_problems(t);
}

static void
commands_profile(struct tui *t, const char *name)
{
	tui_close_views(t);
	session_switch(t, name);
}

static void
commands_quit(struct tui *t, const char *arg)
{
	(void)arg;
	tui_quit(t, 1);
}

static void
commands_quit_now(struct tui *t, const char *arg)
{
	(void)arg;
	tui_quit(t, 0);
}

static void
commands_simulate(struct tui *t, const char *path)
{
	rlsim_open(t, path, NULL);
}

static void
commands_test(struct tui *t, const char *arg)
{
	(void)arg;
	rltest_open(t, NULL);
}

/* Every : command but the kinds' lists, in the order Tab and help list. */
static const struct command commands_table[] = {
	{ "help", COMMAND_ARG_NONE, NULL, "this help", commands_help_run },
	{ "journal", COMMAND_ARG_NONE, NULL,
	    "this profile's changes, each one to undo", commands_journal },
	{ "log", COMMAND_ARG_NONE, NULL,
	    "the requests sent, with their answers", commands_log },
	{ "messages", COMMAND_ARG_NONE, NULL,
	    "the last 50 messages, with their times", commands_messages },
	{ "problems", COMMAND_ARG_NONE, NULL,
	    "what is wrong in the config, keymap, theme (file:line)",
	    commands_problems },
	{ "profile", COMMAND_ARG_NAME, commands_profile_words,
	    "switch profile", commands_profile },
	{ "q", COMMAND_ARG_NONE, NULL,
	    "quit (asks while transfers run, unless :q!)", commands_quit },
	{ "q!", COMMAND_ARG_NONE, NULL, "quit at once", commands_quit_now },
	{ "quit", COMMAND_ARG_NONE, NULL, "quit, as :q does", commands_quit },
	{ "simulate", COMMAND_ARG_PATH, NULL,
	    "rate limiting rules on an access log (Tab completes)",
	    commands_simulate },
	{ "test", COMMAND_ARG_NONE, NULL,
	    "try a request on the rate limiting rules", commands_test },
	{ "theme", COMMAND_ARG_NAME, commands_theme_words,
	    "switch theme (default light solarized-dark high-contrast mono)",
	    tui_cmd_theme },
};

const struct command *
commands_all(size_t *n)
{
	*n = nitems(commands_table);
	return (commands_table);
}

const struct command *
commands_find(const char *name)
{
	size_t	i;

	for (i = 0; i < nitems(commands_table); i++)
		if (strcmp(commands_table[i].name, name) == 0)
			return (&commands_table[i]);
	return (NULL);
}

/* The help's lines for the commands, aligned as the keys' are. */
void
commands_help(struct buf *b)
{
	const struct command	*c;
	char			*use;
	size_t			 i;

	buf_addf(b, "  %-17s %s\n", ":KIND", "open a list: videos, "
	    "operations, rl ...");
	for (i = 0; i < nitems(commands_table); i++) {
		c = &commands_table[i];
		use = xprintf(":%s%s", c->name, c->arg == COMMAND_ARG_NAME ?
		    " NAME" : c->arg == COMMAND_ARG_PATH ? " FILE" : "");
		buf_addf(b, "  %-17s %s\n", use, c->help);
		free(use);
	}
	buf_addf(b, "  %-17s %s\n", ": then Tab", "every command and kind; "
	    ": works over help,");
	buf_addf(b, "  %-17s %s\n", "", "logs and the tray too");
}

static void
commands_kind(struct tui *t, const struct kind *k)
{
	if (k->shape == KIND_SHAPE_NONE)
		tui_message(t, TUI_MSG_WARN, "%s: nothing to list; %s",
		    k->name, kind_help(k));
	else if (k->scope == KIND_SCOPE_VIDEO)
		tui_message(t, TUI_MSG_WARN, "%s belong to a %s: open them "
		    "from the %s panel", k->name, k->parent != NULL ?
		    k->parent->noun : "video", k->parent != NULL ?
		    k->parent->name : "videos");
	else {
		tui_close_views(t);
		tui_open_kind(t, k);
	}
}

int
commands_run(struct tui *t, const char *line)
{
	const struct command	*c;
	const struct kind	*k;
	char			*copy, *cmd, *arg, *p;

	while (*line == ' ')
		line++;
	if (*line == '\0')
		return (0);
	copy = xstrdup(line);
	/* Completion and habit leave trailing spaces: they mean nothing. */
	for (p = copy + strlen(copy); p > copy && p[-1] == ' '; p--)
		p[-1] = '\0';
	tui_history_add(t, copy);
	cmd = copy;
	if ((p = strchr(copy, ' ')) != NULL) {
		*p++ = '\0';
		while (*p == ' ')
			p++;
		arg = *p != '\0' ? p : NULL;
	} else
		arg = NULL;

	c = commands_find(cmd);
	if (c != NULL && (c->arg != COMMAND_ARG_NAME || arg != NULL))
		c->run(t, arg);
	else if ((k = kind_find(cmd)) != NULL)
		commands_kind(t, k);
	else if (c != NULL)
		tui_message(t, TUI_MSG_WARN, ":%s needs a name (Tab lists "
		    "them)", cmd);
	else
		tui_message(t, TUI_MSG_ERROR, "unknown command ':%s' (: then "
		    "Tab lists them all)", cmd);
	free(copy);
	t->dirty = 1;
	return (0);
}
