/*
 * The console's actions, declared once, and the keys bound to them: the
 * defaults shipped in ui/keys.yaml, then the user's keymap: member of
 * config.yaml over them, key by key. Help and hints are read from it.
 */
#ifndef EDGE_KEYMAP_H
#define EDGE_KEYMAP_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "buf.h"

/*
 * Where a binding applies. A lookup falls back to the context's parent:
 * list and detail to global; a kind's own list context (keys only that
 * kind's list has, named after the kind in keymap files) to list.
 */
enum keymap_context {
	KEYMAP_GLOBAL,		/* everywhere */
	KEYMAP_LIST,		/* a list panel */
	KEYMAP_DETAIL,		/* the details (YAML or JSON) view */
	KEYMAP_RATE_LIMIT_RULES, /* the rate-limit-rules list */
	KEYMAP_VIDEOS,		/* the videos list */
	KEYMAP_LIVE_INPUTS,	/* the live-inputs list */
	KEYMAP_CAPTIONS,	/* a video's captions list */
	KEYMAP_RULE_VERSIONS,	/* the rule-versions list */
	/*
	 * The views over the panels, each named after its view: the list
	 * views fall back to list, the text views to text, then global.
	 */
	KEYMAP_JOURNAL,		/* the change journal (:journal) */
	KEYMAP_LOG,		/* the request log (L, :log) */
	KEYMAP_TRAY,		/* the transfers tray (T) */
	KEYMAP_TESTER,		/* the tester's results, the simulation's */
	KEYMAP_TEXT,		/* text to read: help, a record, a report */
	KEYMAP_PREVIEW,		/* the migration's preview (M) */
	KEYMAP_FIRST_RUN,	/* the first-run screen (no token yet) */
	KEYMAP_NCONTEXTS
};

/*
 * Every action: its id, its name in keymap files, the context it belongs
 * to (where the defaults bind it) and its line of help.
 */
#define KEYMAP_ACTIONS(X) \
	X(ACTION_QUIT, "quit", KEYMAP_GLOBAL, "go back; quit from the last list") \
	X(ACTION_BACK, "back", KEYMAP_GLOBAL, "go back; never quits") \
	X(ACTION_HELP, "help", KEYMAP_GLOBAL, "this help") \
	X(ACTION_COMMAND, "command", KEYMAP_GLOBAL, \
	    "the : command line (kinds, :profile, :messages ...; Tab lists)") \
	X(ACTION_NEXT_PANEL, "next-panel", KEYMAP_GLOBAL, "next panel") \
	X(ACTION_PREV_PANEL, "prev-panel", KEYMAP_GLOBAL, "previous panel") \
	X(ACTION_REFRESH, "refresh", KEYMAP_GLOBAL, "reload from the server") \
	X(ACTION_REDRAW, "redraw", KEYMAP_GLOBAL, "redraw the screen") \
	X(ACTION_LOG, "request-log", KEYMAP_GLOBAL, \
	    "the requests sent, with their answers (secrets hidden)") \
	X(ACTION_TRANSFERS, "transfers", KEYMAP_GLOBAL, \
	    "uploads and downloads in progress") \
	X(ACTION_MESSAGES, "messages", KEYMAP_GLOBAL, \
	    "the last messages in full, with their times (:messages)") \
	X(ACTION_UP, "up", KEYMAP_LIST, "move up a line") \
	X(ACTION_DOWN, "down", KEYMAP_LIST, "move down a line") \
	X(ACTION_PAGE_UP, "page-up", KEYMAP_LIST, "move up a page") \
	X(ACTION_PAGE_DOWN, "page-down", KEYMAP_LIST, "move down a page") \
	X(ACTION_TOP, "top", KEYMAP_LIST, "go to the first line") \
	X(ACTION_BOTTOM, "bottom", KEYMAP_LIST, "go to the last line") \
	X(ACTION_FILTER, "filter", KEYMAP_LIST, \
	    "filter the list (!text inverts)") \
	X(ACTION_QUERY, "query", KEYMAP_LIST, \
	    "server filters (NAME=VALUE ...)") \
	X(ACTION_SORT, "sort", KEYMAP_LIST, "choose the column to sort by") \
	X(ACTION_SORT_REVERSE, "sort-reverse", KEYMAP_LIST, \
	    "reverse the sort order") \
	X(ACTION_DETAILS, "details", KEYMAP_LIST, "show the record") \
	X(ACTION_NEW, "new", KEYMAP_LIST, "create a record (form)") \
	X(ACTION_EDIT, "edit", KEYMAP_LIST, "edit the record (form)") \
	X(ACTION_EDIT_YAML, "edit-yaml", KEYMAP_LIST, \
	    "edit the record as YAML in $EDITOR") \
	X(ACTION_DELETE, "delete", KEYMAP_LIST, \
	    "delete the record, or the marked ones (asks first)") \
	X(ACTION_MARK, "mark", KEYMAP_LIST, \
	    "mark or unmark (bulk actions act on the marks)") \
	X(ACTION_MARK_ALL, "mark-all", KEYMAP_LIST, \
	    "mark every record shown") \
	X(ACTION_UNMARK_ALL, "unmark-all", KEYMAP_LIST, "clear the marks") \
	X(ACTION_TOGGLE, "toggle", KEYMAP_LIST, \
	    "enable/disable (rate limits), validation on/off (schemas)") \
	X(ACTION_REVIEW, "set-review", KEYMAP_LIST, \
	    "set a discovered operation to review") \
	X(ACTION_IGNORE, "set-ignored", KEYMAP_LIST, \
	    "set a discovered operation to ignored") \
	X(ACTION_SAVE, "save-operation", KEYMAP_LIST, \
	    "save a discovered operation into endpoint management") \
	X(ACTION_SET_VALIDATION, "set-validation", KEYMAP_LIST, \
	    "schema validation action of the operation or the marked ones") \
	X(ACTION_BULK_CREATE, "bulk-create", KEYMAP_LIST, \
	    "create operations from a file") \
	X(ACTION_UPLOAD, "upload", KEYMAP_LIST, \
	    "upload a file (user schemas, videos)") \
	X(ACTION_DIRECT_UPLOAD, "direct-upload", KEYMAP_LIST, \
	    "create a one-time upload URL for a video") \
	X(ACTION_DOWNLOAD, "download", KEYMAP_LIST, \
	    "request a download (asks: MP4 or audio M4A); its URL when ready") \
	X(ACTION_AUDIO, "audio-tracks", KEYMAP_LIST, \
	    "the video's audio tracks") \
	X(ACTION_CAPTIONS, "captions", KEYMAP_LIST, \
	    "the video's captions") \
	/* videos: copy from a URL, clips, the embed snippet; captions */ \
	X(ACTION_UPLOAD_FROM_URL, "upload-from-url", KEYMAP_VIDEOS, \
	    "upload a video from a URL (the server fetches it)") \
	X(ACTION_CLIP, "clip", KEYMAP_VIDEOS, \
	    "a new video cut from this one between two times") \
	X(ACTION_EMBED, "copy-embed", KEYMAP_DETAIL, \
	    "copy the video's embed snippet (HTML)") \
	X(ACTION_GENERATE, "generate", KEYMAP_CAPTIONS, \
	    "generate captions in a language (speech recognition)") \
	/* videos: signed URLs */ \
	X(ACTION_SIGN_URL, "sign-url", KEYMAP_VIDEOS, \
	    "a signed-URL token and the URLs it opens (copy)") \
	X(ACTION_REVEAL, "reveal", KEYMAP_DETAIL, \
	    "show or hide secrets (stream keys, passphrases)") \
	X(ACTION_SAVE_FILE, "save-file", KEYMAP_DETAIL, \
	    "save what is shown to a file (mode 0600)") \
	X(ACTION_SOURCE, "show-source", KEYMAP_LIST, \
	    "show the schema's source") \
	X(ACTION_JSON, "toggle-json", KEYMAP_DETAIL, \
	    "details as YAML or JSON") \
	X(ACTION_SEARCH, "search", KEYMAP_DETAIL, \
	    "find text in what is shown (highlighted)") \
	X(ACTION_SEARCH_NEXT, "search-next", KEYMAP_DETAIL, \
	    "the next match of the search") \
	X(ACTION_SEARCH_PREV, "search-prev", KEYMAP_DETAIL, \
	    "the previous match of the search") \
	/* live-inputs */ \
	X(ACTION_OUTPUTS, "outputs", KEYMAP_LIVE_INPUTS, \
	    "the live input's outputs (simulcast destinations)") \
	X(ACTION_COPY, "copy", KEYMAP_LIST, \
	    "copy to the clipboard (OSC 52)") \
	X(ACTION_MIGRATE, "migrate", KEYMAP_LIST, \
	    "legacy rate limits: preview as rate limiting rules, then apply") \
	/* rate-limit-rules: the tester */ \
	X(ACTION_TEST, "test", KEYMAP_RATE_LIMIT_RULES, \
	    "try a request on the rules: which matches, and why (:test)") \
	/* rate-limit-rules and its versions (rule-versions) */ \
	X(ACTION_MOVE_UP, "move-up", KEYMAP_RATE_LIMIT_RULES, \
	    "move the rule up one place (evaluated earlier)") \
	X(ACTION_MOVE_DOWN, "move-down", KEYMAP_RATE_LIMIT_RULES, \
	    "move the rule down one place (evaluated later)") \
	X(ACTION_MOVE_FIRST, "move-first", KEYMAP_RATE_LIMIT_RULES, \
	    "move the rule to the top (evaluated first)") \
	X(ACTION_MOVE_LAST, "move-last", KEYMAP_RATE_LIMIT_RULES, \
	    "move the rule to the bottom (evaluated last)") \
	X(ACTION_VERSIONS, "versions", KEYMAP_RATE_LIMIT_RULES, \
	    "the entry point's versions: view, diff, restore") \
	X(ACTION_VERSION_DIFF, "diff", KEYMAP_RULE_VERSIONS, \
	    "what changed from the version to the current rules") \
	X(ACTION_VERSION_RESTORE, "restore", KEYMAP_RULE_VERSIONS, \
	    "make the version's rules the current ones (asks first)") \
	/* the views' own */ \
	X(ACTION_UNDO, "undo", KEYMAP_JOURNAL, \
	    "undo the change (shows what it will do, asks first)") \
	X(ACTION_COPY_CURL, "copy-curl", KEYMAP_LOG, \
	    "copy the request as a curl command (OSC 52)") \
	X(ACTION_RESUME, "resume", KEYMAP_TRAY, \
	    "resume an unfinished or cancelled upload (from the offset " \
	    "the server holds), retry a failed one") \
	X(ACTION_STOP, "stop", KEYMAP_TRAY, \
	    "cancel what runs (an upload stays resumable); clear a row " \
	    "that is over (an unfinished upload asks first: clearing " \
	    "forgets its resume)") \
	X(ACTION_APPLY, "apply", KEYMAP_PREVIEW, \
	    "add the rules shown") \
	X(ACTION_APPLY_DISABLE, "apply-disable", KEYMAP_PREVIEW, \
	    "add the rules shown and disable the legacy ones") \
	X(ACTION_CANCEL, "cancel", KEYMAP_PREVIEW, \
	    "leave it: nothing is sent") \
	X(ACTION_DEMO, "demo", KEYMAP_FIRST_RUN, \
	    "try the console on demo data (--demo: a local edgemu)")

enum action {
	ACTION_NONE = 0,	/* "none": an unbound key */
#define KEYMAP_ACTION_ENUM(id, name, context, help) id,
	KEYMAP_ACTIONS(KEYMAP_ACTION_ENUM)
#undef KEYMAP_ACTION_ENUM
	KEYMAP_NACTIONS
};

/*
 * Key codes are curses' (characters, KEY_* from get_wch or wgetch) with
 * two flags above every Unicode code point: KEYMAP_META for a key read
 * after ESC (M-x), and KEYMAP_WIDE for a character whose number is also a
 * curses key code (U+0100..U+01FF; see keymap_key_char).
 */
#define KEYMAP_META	0x200000
#define KEYMAP_WIDE	0x400000

/* Room for any keymap_key_name. */
#define KEYMAP_KEY_NAME_MAX 32

struct keymap;

/* The defaults, parsed from the embedded keys.yaml; fatalx if that fails. */
struct keymap	*keymap_new(void);
void		 keymap_free(struct keymap *);

/*
 * Apply a keymap object ({ context: { key: action } }) from source (a file
 * name for messages) over the bindings; "none" (or no value) unbinds a key
 * in that context. Whatever is wrong is skipped and becomes a problem;
 * the rest applies. Returns the number of problems added. NULL adds none.
 */
size_t		 keymap_apply(struct keymap *, const cJSON *, const char *);
/*
 * Where "keymap.context.key" is in the source, a line from 1 or 0: later
 * problems then read "source:line: keymap.context.key: why". NULL: none.
 */
typedef int	(*keymap_line_cb)(const char *, void *);
void		 keymap_set_lines(struct keymap *, keymap_line_cb, void *);
/* Every problem so far, "source: keymap.list.x: why". */
const char *const *keymap_problems(const struct keymap *, size_t *);

/*
 * The action of a key in a context: the context's binding, or its
 * parents'. An unbound key is ACTION_NONE.
 */
enum action	 keymap_lookup(const struct keymap *, enum keymap_context,
		     int);
/* The context of a kind's list: its own, or KEYMAP_LIST when it has none. */
enum keymap_context keymap_list_context(const char *);
/* Whether a context is a kind's list's (not a view's, list or global). */
int		 keymap_context_kind(enum keymap_context);
/* Keys that do an action in a context ("j, Down"), appended to buf. */
void		 keymap_keys_of(const struct keymap *, enum keymap_context,
		     enum action, struct buf *);
/*
 * The first key that does an action in a context, in the order bound
 * (the defaults', then the user's), for the footer; -1 if no key does.
 */
int		 keymap_key_of(const struct keymap *, enum keymap_context,
		     enum action);
/*
 * The help, from the bindings: per context a heading, then one aligned
 * line "  KEYS  action  help" for each action with a key there.
 */
void		 keymap_help(const struct keymap *, struct buf *);
/*
 * The help of one view: a line for each action of actions (n of them)
 * that a key does in the context, its help that of helps[i] when not NULL.
 * Returns the column the help texts start at.
 */
size_t		 keymap_help_view(const struct keymap *, enum keymap_context,
		     const enum action *, const char *const *, size_t,
		     struct buf *);
/* The keys of the rate limiting rule form and the expression editor,
 * which are fixed (the help screen and --help-keys end with them). */
#define KEYMAP_RULE_FORM_HELP \
	"\nIn the rate limiting rule form (n, e in :rules): Up/Down/Tab/j/k " \
	"move,\n  Enter edits a field, V validates with the server (dry_run), " \
	"S saves,\n  T tests the rule as typed, L simulates it over a log, " \
	"Esc/q cancel.\n" \
	"In the expression editor: Tab completes a name, C-f formats, Enter " \
	"starts\n  a new line, Esc goes back to the form.\n"
/* keymap_help of the defaults (edgetui --help-keys). */
void		 keymap_print_defaults(FILE *);

/*
 * A key name ("q", "Space", "PgDn", "F5", "C-x", "M-x", "é") as a code;
 * -1 with *cause if it is none. C-i is Tab, C-m and C-j are Enter, C-h is
 * Backspace: terminals send the same for both.
 */
int		 keymap_key_parse(const char *, int *, char **);
/* The name of a key code, which keymap_key_parse reads back. */
void		 keymap_key_name(int, char *, size_t);
/* The code of a character get_wch returned as a character (OK). */
int		 keymap_key_char(unsigned int);

const char	*keymap_action_name(enum action);
/* The action named, ACTION_NONE for "none", -1 for no action. */
int		 keymap_action_find(const char *);
const char	*keymap_action_help(enum action);
enum keymap_context keymap_action_context(enum action);
/* The name of a context in keymap files ("global", "list", "videos"). */
const char	*keymap_context_name(enum keymap_context);

#endif
