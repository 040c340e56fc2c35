/*
 * The console: its state, the panels, the modal widgets on top of them and
 * the requests in flight. Only the UI thread touches any of it; the worker
 * (src/jobs.c) answers through events.
 */
#ifndef EDGE_TUI_H
#define EDGE_TUI_H

#include <curses.h>
#include <stddef.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "edge_session.h"
#include "jobs.h"
#include "keymap.h"
#include "kind.h"
#include "rows.h"
#include "theme.h"

/* What a handler asks of the loop. */
#define TUI_HANDLED	0x1
#define TUI_REDRAW	0x2
#define TUI_QUIT	0x4

/* Status-line message classes (their theme roles). */
enum tui_msg {
	TUI_MSG_INFO,
	TUI_MSG_OK,
	TUI_MSG_WARN,
	TUI_MSG_ERROR
};

struct tui;
struct panel;
struct form;

/* What a request was for, so its answer finds its way back. */
enum tui_req_type {
	TUI_REQ_LIST,		/* one page of a list */
	TUI_REQ_GET,		/* a record for details */
	TUI_REQ_FETCH_EDIT,	/* the copy to edit in $EDITOR */
	TUI_REQ_FETCH_DIFF,	/* the fresh copy to diff an edit against */
	TUI_REQ_FETCH_FORM,	/* the copy to edit in a form */
	TUI_REQ_FETCH_SAVE,	/* the server's copy an update merges into */
	TUI_REQ_CREATE,
	TUI_REQ_UPDATE,
	TUI_REQ_DELETE,
	TUI_REQ_BULK_DELETE,
	TUI_REQ_OTHER		/* a panel's own (its event hook) */
};

/*
 * A request in flight: the job's tag. It belongs to the console's list
 * of requests until its last event is handled.
 */
struct tui_req {
	struct panel		*panel;
	enum tui_req_type	 type;
	unsigned long		 job;
	unsigned		 gen;		/* the panel's list generation */
	int			 sub;		/* a panel's own request kind */
	char			*id;		/* the record's, if any */
	char			*path;		/* for the journal */
	const char		*method;
	cJSON			*before;	/* for the journal, or NULL */
	cJSON			*data;		/* the edited body (diff, update) */
	size_t			 count;		/* ids in a bulk request */
	struct modal		*modal;		/* the form that sent it */
	struct xfer		*xfer;		/* a transfer's job */
	/* A view's own job (the rules tester, a simulation): its events go
	 * to done rather than to a panel. */
	void			 (*done)(struct tui *, struct tui_req *,
				     struct jobs_event *);
	void			*done_arg;
	struct tui_req		*next;
};

/*
 * An action a panel offers, for the footer: it shows the key the live
 * keymap binds to the action (none: not shown), then the label.
 */
struct panel_hint {
	enum action	 action;
	const char	*label;
};

/*
 * A panel's behaviour beyond the generic one, for one kind: every hook
 * may be NULL. action runs before the generic handling and returns
 * TUI_HANDLED when it took the action; event sees every answer to a
 * request it (or the generic code) made and returns non-zero when it
 * handled it; banner is a notice drawn above the list.
 */
struct panel_ops {
	const char	*kind;		/* the kind's name */
	int		 (*action)(struct panel *, enum action);
	int		 (*event)(struct panel *, struct tui_req *,
			     struct jobs_event *);
	void		 (*opened)(struct panel *);
	/*
	 * Above the details of an object kind, or above a list's columns;
	 * returns the lines used.
	 */
	int		 (*draw)(struct panel *, int, int, int);
	/* The footer's actions; ends with ACTION_NONE. */
	const struct panel_hint *hints;
	const char	*delete_warning; /* said when asking to delete */
	int		 readonly;	/* the footer offers no change */
	/* The panel is on screen (each time it is drawn). */
	void		 (*shown)(struct panel *);
	/*
	 * After a list row is drawn at y in attr: the panel's own mark on
	 * row i (a rule the plan forbids), in the gutter; may be NULL.
	 */
	void		 (*row_mark)(struct panel *, size_t, int, attr_t);
	/* Before the panel goes: free what priv holds besides itself. */
	void		 (*closed)(struct panel *);
	/*
	 * E (ui/panels/yamledit.c), each optional. edit_lint: why the service
	 * would refuse a record the kind's checks pass (allocated: the
	 * comment the editor reopens with), or NULL. edit_fetch_path: where
	 * the fresh copy of record id to diff against comes from when not
	 * its GET (the answer goes to event first). edit_save: send the edit
	 * applied (default: the kind's update); text is the YAML as saved.
	 */
	char		*(*edit_lint)(struct panel *, const cJSON *);
	char		*(*edit_fetch_path)(struct panel *, const char *);
	void		 (*edit_save)(struct panel *, const char *,
			     const cJSON *, const cJSON *, const char *);
};

enum panel_view {
	PANEL_LIST,
	PANEL_DETAIL
};

/*
 * Lines of text to scroll (details, help, a diff), wrapped to the width.
 * With a cursor (details) one line is current: y copies its value.
 */
struct textview {
	char		**lines;	/* cleaned for the terminal */
	size_t		 nlines;
	size_t		 top;
	char		*title;
	int		 cursor;	/* a current line; kept by textview_set */
	size_t		 cur;
	char		*search;	/* '/': highlighted; kept too */
	int		 hang;		/* >0: continued rows at this column,
					   broken at spaces only; kept too */
};

struct panel {
	struct tui		*tui;
	const struct kind	*kind;
	const struct panel_ops	*ops;
	char			*video;		/* KIND_SCOPE_VIDEO: whose */
	struct api_var		 vars[EDGE_SCOPE_NVARS]; /* the scope's */

	struct rows		*rows;
	const struct kind_column *cols[ROWS_MAX_COLUMNS];
	size_t			 ncols;
	int			 widths[ROWS_MAX_COLUMNS];
	size_t			 cursor;	/* view index */
	size_t			 top;
	char			*cursor_id;	/* kept across refreshes */
	char			*filter;	/* the '/' text */
	char			*filter_pending; /* typed, not yet applied */
	char			*query;		/* server filters (F) */
	int			 sort_col;	/* -1: the server's order */
	int			 sort_desc;

	enum panel_view		 view;
	struct textview		 detail;
	cJSON			*record;	/* shown in details, or NULL */
	int			 detail_json;
	int			 reveal;	/* secrets shown (x) */
	struct panel		*parent;	/* q goes back to it */
	struct panel		*back;		/* shown before; else q's */
	char			*upload_file;	/* a multipart create's */
	const char		*title_note;	/* after the name: "(...)" */

	/* The list load: pages in the background. */
	struct pager		*pager;
	unsigned		 gen;
	int			 loading;
	int			 loaded;	/* at least once */
	char			*error;		/* the last load's */
	char			*banner;
	time_t			 loaded_at;
	/* A large list: pages as the cursor nears the end (lazy.c). */
	enum { PANEL_LAZY_OFF, PANEL_LAZY_ON, PANEL_LAZY_ALL } lazy;
	long			 lazy_page;	/* records a page brings */

	void			*priv;		/* the ops' own state */
};

/*
 * A widget on top of the panels: gets every key first, except the command
 * key over a view (text to read, the tray: nothing typed), which opens the
 * command line.
 */
#define MODAL_VIEW	0x1

struct modal {
	int		 (*key)(struct tui *, struct modal *, int);
	void		 (*draw)(struct tui *, struct modal *);
	void		 (*free)(struct modal *);
	struct modal	*below;
	int		 flags;
};

/* A message as :messages lists it. */
struct tui_msg_line {
	time_t		 time;
	enum tui_msg	 class;
	char		*text;
};

struct config;
struct http_client;
struct theme;
struct demo;
struct xfer;

struct tui {
	/* Where and as whom. */
	struct config		*cfg;
	struct edge_session	 session;	/* token: uploads' too */
	struct http_client	*http;
	struct jobs		*jobs;
	struct xfer		**xfers;	/* the transfers tray */
	size_t			 nxfers;
	int			 progress_dirty;
	double			 drawn_at;
	struct keymap		*keymap;
	struct theme		*theme;
	char			*theme_name;
	struct journal		*journal;

	/* What is on screen. */
	struct panel		**panels;	/* opened, in order */
	size_t			 npanels;
	size_t			 current;
	struct modal		*modal;
	struct tui_req		*reqs;

	char			*msg;
	enum tui_msg		 msg_class;
	time_t			 msg_time;
	unsigned long		 msg_seq;	/* messages so far */
	struct tui_msg_line	*msglog;	/* the last ones, oldest first */
	size_t			 nmsglog;
	int			 dirty;
	int			 quit;
	int			 quit_asking;	/* "Quit? y/n" is shown */
	int			 ascii;
	long			 budget_shown;

	/* Theme problems (config and keymap keep their own). */
	char			**problems;
	size_t			 nproblems;

	/* : history, newest last. */
	char			**history;
	size_t			 nhistory;
};

/* A message wraps to at most these rows of the status line. */
#define STATUS_ROWS	3

/* ui/tui.c */
struct cli_opts;
/* The console; returns the exit status. */
int		 tui_main(const struct cli_opts *, int, const char *);
struct theme	*tui_theme_load(struct tui *, const char *, char **);
struct modal	*tui_help_modal(struct tui *);
void		 tui_message(struct tui *, enum tui_msg, const char *, ...)
		     __attribute__((__format__(__printf__, 3, 4)));
void		 tui_push(struct tui *, struct modal *);
void		 tui_pop(struct tui *);
/* The views (help, a log, the tray) a command opening a list replaces. */
void		 tui_close_views(struct tui *);
/* The last messages in full (:messages, !). */
void		 tui_messages(struct tui *);
/* A message for :messages only (a form shows it on its own rows). */
void		 tui_message_keep(struct tui *, enum tui_msg, const char *);
void		 tui_close_panels(struct tui *);
/* Quit, or ask first (preferences.confirm_quit). */
void		 tui_quit(struct tui *, int);
const char	*tui_readonly(struct tui *);
int		 tui_refuse_readonly(struct tui *, const char *);
struct panel	*tui_open_kind(struct tui *, const struct kind *);
/* A list under one video (captions, audio tracks). */
struct panel	*tui_open_video_kind(struct tui *, const struct kind *,
		     const char *);
int		 tui_suspend_run(struct tui *, int (*)(void *), void *);
void		 tui_copy(struct tui *, const char *, const char *);
struct panel	*tui_panel(struct tui *);

/* ui/tui_req.c: the requests in flight. */
struct tui_req	*tui_submit(struct tui *, struct panel *, enum tui_req_type,
		     const char *, const char *, const cJSON *);
struct tui_req	*tui_submit_request(struct tui *, struct panel *,
		     enum tui_req_type, const struct http_request *);
/* Jobs of the transfers (ui/transfers.c): their tag is a request. */
struct tui_req	*tui_submit_job(struct tui *, struct xfer *, jobs_run_cb,
		     void *);
struct tui_req	*tui_submit_poll(struct tui *, struct xfer *, const char *,
		     const struct jobs_poll_options *);
struct tui_req	*tui_submit_xfer(struct tui *, struct xfer *, const char *,
		     const char *);
/* A view's own request or job: its events to done(t, r, ev), r->done_arg
 * set to arg; NULL when it could not be started (said). */
struct tui_req	*tui_submit_view(struct tui *, const char *, const char *,
		     void (*)(struct tui *, struct tui_req *,
		     struct jobs_event *), void *);
struct tui_req	*tui_submit_view_job(struct tui *, jobs_run_cb, void *,
		     void (*)(struct tui *, struct tui_req *,
		     struct jobs_event *), void *);
void		 tui_cancel_req(struct tui *, struct tui_req *);
void		 tui_journal(struct tui *, struct tui_req *, long,
		     const cJSON *);
const char	*tui_cause(const struct tui_req *, const struct jobs_event *);
void		 tui_req_free(struct tui_req *);
/* Unlink the request a job's event belongs to; NULL if not ours. */
struct tui_req	*tui_req_take(struct tui *, void *);
int		 tui_req_known(struct tui *, void *);

/* ui/session.c: where and as whom the console works. */
void		 session_options(const struct cli_opts *);
int		 session_demo_start(char **);
void		 session_demo_stop(void);
/* Profile NULL: the first one (the command line's, else the default). */
int		 session_connect(struct tui *, const char *, char **);
void		 session_disconnect(struct tui *);
void		 session_open_first(struct tui *);
int		 session_switch(struct tui *, const char *);

/* ui/commands.c: the : commands, one table. */
enum command_arg {
	COMMAND_ARG_NONE,	/* any argument is ignored */
	COMMAND_ARG_NAME,	/* needs one: a theme, a profile */
	COMMAND_ARG_PATH	/* a file (Tab completes it); may be left out */
};
typedef void (*command_word_cb)(void *, const char *);
struct command {
	const char		*name;
	enum command_arg	 arg;
	/* The words the argument may be, each to the callback; or NULL. */
	void			 (*complete)(struct tui *, command_word_cb,
				     void *);
	const char		*help;
	void			 (*run)(struct tui *, const char *);
};
const struct command *commands_all(size_t *);
const struct command *commands_find(const char *);
/* The help's section on : commands. */
void		 commands_help(struct buf *);
int		 commands_run(struct tui *, const char *);

/* ui/status.c: the header and the status line (message or hints). */
void		 status_draw_header(struct tui *);
/* The rows the status line needs: the message's, else the hints' one. */
size_t		 status_rows(struct tui *, char **);
void		 status_draw(struct tui *, char **, size_t);
/* Text in rows of at most cols columns, every one: *n, to free. */
char		**status_wrap_all(const char *, size_t, size_t *);
/* s in max rows at most, the last naming the key showing it all. */
size_t		 status_wrap_message(struct tui *, const char *, size_t,
		     char **, size_t);
/* The rows the status line takes now (a form leaves them to it). */
int		 status_height(struct tui *);
/* A view's footer: the message whole, if any (1), over its last rows. */
int		 status_draw_message(struct tui *);
/* A form's keys on the last line, or on its row y under a message. */
void		 status_draw_keys(struct tui *, int, const char *);
/*
 * A view's footer from the keymap: "  KEY label" hints (none when no key
 * does the action, or read-only mode refuses it), a pair "  g/G label"
 * ("arrows" for the arrow keys), drawn on the last line as many as fit.
 */
void		 status_hint(struct tui *, struct buf *, enum keymap_context,
		     enum action, const char *);
void		 status_hint_pair(struct tui *, struct buf *,
		     enum keymap_context, enum action, enum action,
		     const char *);
void		 status_draw_hints(struct tui *, struct buf *, enum theme_role);
/* The name of the first key doing an action (KEYMAP_KEY_NAME_MAX), or
 * NULL; " (KEY what)" for a message, or "" when no key does it. */
const char	*status_key_name(struct tui *, enum keymap_context,
		     enum action, char *);
/* "K1/K2", or "arrows" (2 * KEYMAP_KEY_NAME_MAX); NULL unless both. */
const char	*status_key_pair(struct tui *, enum keymap_context,
		     enum action, enum action, char *);
void		 status_key_note(struct tui *, enum keymap_context, enum action,
		     const char *, char *, size_t);

/* ui/panels/panels.c: the registry. */
const struct panel_ops *panel_ops_for(const struct kind *);

/* ui/panels/resource.c and the files beside it: the generic panel. */
struct panel	*panel_new(struct tui *, const struct kind *, const char *);
void		 panel_free(struct panel *);
void		 panel_load(struct panel *);
int		 panel_action(struct panel *, enum action);
void		 panel_draw(struct panel *, int, int, int, int);
void		 panel_event(struct panel *, struct tui_req *,
		     struct jobs_event *);
const char	*panel_current_id(struct panel *);
cJSON		*panel_current_record(struct panel *);
/* The ids to act on: the marked ones, else the one under the cursor. */
const char	**panel_targets(struct panel *, size_t *);
/* Questions name records: "rate limit", "'Block XML-RPC' (0c4f12ab…)". */
const char	*panel_noun(const struct panel *);
void		 panel_name_record(struct panel *, const char *, struct buf *);
void		 panel_name_targets(struct panel *, const char *const *, size_t,
		     struct buf *);
/* "the marked ones[, not the one under the cursor]", or "" with no marks. */
const char	*panel_marks_note(struct panel *);
void		 panel_form_new(struct panel *, const cJSON *, const char *);
void		 panel_show_record(struct panel *, const cJSON *);
void		 panel_layout(struct panel *, int);
char		*panel_item_path(struct panel *, const char *);
void		 panel_after_change(struct panel *);
/* Put fields (a partial answer) into listed record id; -1 if not listed. */
int		 panel_merge(struct panel *, const char *, const cJSON *);
void		 panel_filter_flush(struct panel *);
/* Esc on a filtered list: every row again (the server's too). */
void		 panel_filter_clear(struct panel *);
/* Create with the kind's body: none, a form, or a file and a form. */
void		 panel_create(struct panel *);
/* Close a panel opened from another and show that one. */
void		 tui_close_panel(struct tui *, struct panel *);

/* ui/widgets/textview.c */
void		 textview_set(struct textview *, const char *, const char *);
void		 textview_clear(struct textview *);
void		 textview_draw(struct tui *, struct textview *, int, int, int,
		     int);
int		 textview_action(struct textview *, enum action, int);
/* '/' at the bottom line; n and N: the next or previous match (dir). */
void		 textview_search_open(struct tui *, struct textview *);
int		 textview_search(struct tui *, struct textview *, int);
/* / n N w on a text view: 1 when a is one of them. */
int		 textview_common(struct tui *, struct textview *, enum action);
/* All the lines to a new file of mode 0600; never over another. */
int		 textview_save(const struct textview *, const char *, char **);
/* Text to a new file of mode 0600, never over another. */
int		 textview_write(const char *, const char *, char **);
/* The text of lines from..to-1, joined by newlines (allocated). */
char		*textview_text(const struct textview *, size_t, size_t);
struct modal	*textview_modal(const char *, const char *);
void		 textview_modal_hang(struct modal *, int);
/*
 * A result with y (copy what) and w (save it to a new 0600 file); once:
 * closing asks first, it will not be shown again (a signing key).
 */
struct modal	*textview_result(const char *, const char *, const char *,
		     const char *, int);
/*
 * A file w saves from a result instead of its copy text: what ("the
 * PEM"), the content, the file name offered. Several are saved in turn.
 */
void		 textview_result_file(struct modal *, const char *,
		     const char *, const char *);
/*
 * More that y copies from a result (what, the text): y then opens a
 * picker of the result's copy text and these, in turn.
 */
void		 textview_result_copy(struct modal *, const char *,
		     const char *);

/* ui/widgets/dialog.c */
typedef void (*dialog_cb)(struct tui *, void *, const char *);
typedef void (*dialog_free_cb)(void *);
/* Ask y/n; yes calls cb with "y". */
void		 dialog_confirm(struct tui *, const char *, const char *,
		     dialog_cb, void *, dialog_free_cb);
/* Ask y/n; cb gets "y", or "n" for n, q and Esc. */
void		 dialog_ask(struct tui *, const char *, const char *,
		     dialog_cb, void *, dialog_free_cb);
/* Ask for one of keys ("tye"); cb gets the key typed, or "" for Esc. */
void		 dialog_choose(struct tui *, const char *, const char *,
		     const char *, dialog_cb, void *, dialog_free_cb);
/*
 * Something is being fetched: the text until dialog_wait_done closes it;
 * keys meanwhile are held, Esc calls cancel with "cancel" and closes it.
 * dialog_wait_failed turns it into a notice of why (Enter, Esc, q close).
 */
struct modal	*dialog_wait(struct tui *, const char *, const char *,
		     dialog_cb, void *);
void		 dialog_wait_done(struct tui *, struct modal *);
void		 dialog_wait_failed(struct tui *, struct modal *, const char *,
		     const char *);
/* Ask the user to type expect (a count or a name) to go on. */
void		 dialog_confirm_typed(struct tui *, const char *,
		     const char *, const char *, dialog_cb, void *,
		     dialog_free_cb);
/*
 * A line of input, the initial text selected (typing replaces it); files:
 * Tab completes paths and "~/" is the home directory.
 */
void		 dialog_prompt(struct tui *, const char *, const char *, int,
		     dialog_cb, void *, dialog_free_cb);
/* A refused answer asked again: the text as typed, and why under it. */
void		 dialog_prompt_again(struct tui *, const char *, const char *,
		     const char *, int, dialog_cb, void *, dialog_free_cb);

/* ui/widgets/conflict.c: a write that met a change on the server. */
struct merge;
enum conflict_answer {
	CONFLICT_CANCEL,	/* Esc: nothing is sent */
	CONFLICT_THEIRS,	/* t: the server's values at the conflicts */
	CONFLICT_MINE,		/* y: the user's */
	CONFLICT_EDIT		/* e: edit again, on the merged record */
};
typedef void (*conflict_cb)(struct tui *, void *, enum conflict_answer);
/*
 * Ask about the merge's conflicts: what names the record ("rate limiting
 * rule 'Login' (0c4f…)"); can_edit offers e. free_cb(arg) after cb.
 */
void		 conflict_ask(struct tui *, const char *, const struct merge *,
		     int, conflict_cb, void *, dialog_free_cb);
/* The question's text, appended to buf. */
void		 conflict_text(const char *, const struct merge *, int,
		     struct buf *);

/* ui/widgets/formview.c */
/* Submit: the modal, the body, the record's id (NULL: new), the original. */
typedef void (*formview_cb)(struct tui *, struct panel *, struct modal *,
		    cJSON *, const char *, const cJSON *);
void		 formview_open(struct tui *, struct panel *, struct form *,
		     const char *, formview_cb, const char *);
/* The server refused what the form sent: show why in it (1 if shown). */
int		 formview_failed(struct tui *, struct modal *, const char *);
/* It was accepted: close the form if it is still open. */
void		 formview_close(struct tui *, struct modal *);

/* ui/widgets/picker.c: choose one of items; other: the second key (O). */
typedef void (*picker_cb)(struct tui *, void *, size_t, int);
void		 picker_open(struct tui *, const char *, const char *const *,
		     size_t, size_t, picker_cb, void *);

/* ui/widgets/cmdline.c */
void		 cmdline_open(struct tui *, const char *);

#endif
