/*
 * Editing a record in the user's editor: the temporary YAML file, the
 * editor run without a shell, the check of what was saved (reopened with
 * the error on top until it is right), the diff shown before applying and
 * the body the update sends. The one-shot `edit` and the console share it.
 */
#ifndef EDGE_EDIT_H
#define EDGE_EDIT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "kind.h"
#include "validate.h"

/* How often the editor is reopened on errors before edit_next gives up. */
#define EDIT_ROUNDS	20
/* Saved files larger than this are refused. */
#define EDIT_FILE_MAX	(16L * 1024 * 1024)

enum edit_status {
	EDIT_CHANGED,	/* a valid record that differs from the original */
	EDIT_UNCHANGED,	/* saved as it was fetched */
	EDIT_EMPTY,	/* nothing but comments and blanks: cancelled */
	EDIT_INVALID,	/* edit_check: not YAML or not valid (*cause) */
	EDIT_AGAIN,	/* edit_next: the error is now on top; edit again */
	EDIT_FAILED	/* edit_next: give up (*cause) */
};

/* One record being edited in a temporary file. */
struct edit {
	const struct kind	*kind;
	enum validate_mode	 mode;
	char			*file;		/* the temporary file */
	cJSON			*orig;		/* as it was fetched */
	char			*last;		/* the text reopened with error */
	char			*error;		/* the error of the last round */
	int			 rounds;
};

/*
 * Write the record as YAML to a new temporary file (edit_temp_file).
 * Returns 0, or -1 with *cause; edit_close in both cases.
 */
int	 edit_open(struct edit *, const struct kind *, const cJSON *,
	     enum validate_mode, char **);
/* The same with text in the file (an edit not applied, taken up again). */
int	 edit_open_text(struct edit *, const struct kind *, const cJSON *,
	     const char *, enum validate_mode, char **);
/*
 * After the editor has exited 0: read the file and check it. *record (on
 * EDIT_CHANGED only, the caller frees it) is the parsed, valid record. On
 * a YAML or validation error the file is rewritten with the error as a
 * comment on top and EDIT_AGAIN is returned; saving that unfixed, a read
 * or write error, or EDIT_ROUNDS rounds give EDIT_FAILED with *cause.
 */
enum edit_status edit_next(struct edit *, cJSON **, char **);
/*
 * What a caller checks beyond the kind (the service's own rules): NULL
 * when the record is fit, else why (allocated), put on top of the text.
 */
typedef char	*(*edit_lint_cb)(const cJSON *, void *);
/*
 * edit_next, with lint first on a record that parses and differs from the
 * original: one it refuses is written back with why on top (EDIT_AGAIN;
 * EDIT_FAILED after EDIT_ROUNDS rounds). lint NULL: edit_next alone.
 */
enum edit_status edit_next_lint(struct edit *, edit_lint_cb, void *,
	     cJSON **, char **);
/* Remove the temporary file and free (safe on a zeroed or closed edit). */
void	 edit_close(struct edit *);
/*
 * For a handler of a signal that ends the program (async-signal-safe):
 * the editor running, if any, is sent SIGTERM, and the files of the open
 * edits (they hold records unmasked, secrets too) are removed. The edits
 * stay open: edit_close still frees them.
 */
void	 edit_signal_cleanup(void);

/*
 * Run the editor on file: $EDITOR, else $VISUAL, else vi, split on blanks
 * and executed without a shell, on the caller's terminal. Prints nothing:
 * a caller with a full-screen terminal leaves it before and restores it
 * after. SIGINT and SIGQUIT are ignored while it runs (Ctrl-C in the
 * editor does not end the caller) and SIGCHLD is held so that no handler
 * of the caller reaps it. Returns 0 when it exited 0, else -1 with *cause
 * (an editor that cannot be run is named).
 */
int	 edit_run_editor(const char *, char **);

/*
 * One saved text against the original record: EDIT_EMPTY, EDIT_UNCHANGED,
 * EDIT_CHANGED with *record (caller frees), or EDIT_INVALID with *cause:
 * "YAML: line 3, column 5: ..." or one "field: message" line per problem.
 * Only the values that differ from the original are checked (see
 * validate_changes); a text that parses to the original is unchanged.
 */
enum edit_status edit_check(const struct kind *, const char *, size_t,
	     const cJSON *, enum validate_mode, cJSON **, char **);

/*
 * The body an update sends for the edited record (caller frees): a PUT
 * replaces the record and the API wants its id in it (added from id when
 * missing); a PATCH or a POST sends only the top-level members that
 * differ from before (when before is not NULL; else the record as edited).
 */
cJSON	*edit_update_body(const struct kind *, const cJSON *, const cJSON *,
	     const char *);

/*
 * "  path: old → new\n" appended for each leaf that differs between before
 * and after (nested paths "a.b[2].c", "(absent)" on the side that lacks
 * it, values as compact JSON). Returns how many.
 */
size_t	 edit_diff(struct buf *, const cJSON *, const cJSON *);

/*
 * A new file holding text, mode 0600, in $TMPDIR (else /tmp), named
 * edgetui-KIND-XXXXXX.yaml so editors highlight it. Returns its path
 * (caller unlinks and frees), or NULL with *cause.
 */
char	*edit_temp_file(const struct kind *, const char *, char **);
/*
 * The text with "# edgetui: the change was not applied:" and the error as
 * comment lines on top (the block an earlier round added is replaced).
 */
char	*edit_with_comment(const char *, const char *);
/* Whether the text holds only comments and blank space. */
int	 edit_blank(const char *);
/*
 * A path as typed in a prompt: "~" and a leading "~/" stand for $HOME (else
 * the user's home directory); anything else is left as it is (allocated).
 */
char	*edit_path_expand(const char *);
/*
 * Base64 as the API sends a signing key's PEM and JWK (blanks and line
 * breaks skipped), decoded and NUL-terminated; *len (if not NULL) is its
 * length. NULL with *cause when it is not base64.
 */
char	*edit_base64_decode(const char *, size_t *, char **);
/* Whole files: read (at most EDIT_FILE_MAX), write; NULL or -1, *cause. */
char	*edit_read_file(const char *, size_t *, char **);
int	 edit_write_file(const char *, const char *, char **);

#endif
