/*
 * Colour themes as data: each semantic role (a title, the selected row, an
 * error) gets a foreground, a background and attributes, read from YAML.
 * No curses here: the console turns styles into colour pairs.
 *
 * A file (themes/default.yaml explains it at length) has three keys:
 * inherits (a theme name; "default" when left out), palette (names for
 * colours, for this file only) and roles (role: style). A style is text,
 * "ATTRS FG on BG", that replaces the inherited one (in it, attribute
 * names and "on" come before palette names), or a map {fg, bg, attrs}
 * that changes only the fields it names.
 */
#ifndef EDGE_THEME_H
#define EDGE_THEME_H

#include <stddef.h>

/* Every role once: the enum constant, its name in theme files, its use. */
#define THEME_ROLES(X)							\
	X(THEME_ROLE_NORMAL, "normal", "ordinary text")			\
	X(THEME_ROLE_HEADER, "header",					\
	    "the top line: profile, account, zone")			\
	X(THEME_ROLE_BADGE, "badge", "READ-ONLY and other header badges") \
	X(THEME_ROLE_TITLE, "title", "a panel's title")			\
	X(THEME_ROLE_COLUMN, "column", "column headers")		\
	X(THEME_ROLE_ROW_SELECTED, "row-selected",			\
	    "the row under the cursor")					\
	X(THEME_ROLE_ROW_MARKED, "row-marked", "rows marked with Space") \
	X(THEME_ROLE_STATUS, "status", "the status line")		\
	X(THEME_ROLE_ERROR, "error", "errors in the status line and forms") \
	X(THEME_ROLE_WARNING, "warning",				\
	    "warnings in the status line and forms")			\
	X(THEME_ROLE_OK, "ok", "confirmations: saved, deleted, done")	\
	X(THEME_ROLE_DIM, "dim", "secondary text, hints")		\
	X(THEME_ROLE_BORDER, "border", "panel borders and separators")	\
	X(THEME_ROLE_KEY, "key", "key names in help and hints")		\
	X(THEME_ROLE_INPUT, "input", "form inputs and the command line") \
	X(THEME_ROLE_INPUT_FOCUS, "input-focus",			\
	    "the input being edited")					\
	X(THEME_ROLE_BANNER, "banner",					\
	    "notices such as the retired rate-limit API")		\
	X(THEME_ROLE_STATE_READY, "state-ready",			\
	    "a resource that is ready (video ready, rule active)")	\
	X(THEME_ROLE_STATE_PROGRESS, "state-progress",			\
	    "a resource still in progress (queued, uploading)")		\
	X(THEME_ROLE_STATE_ERROR, "state-error",			\
	    "a resource in error (encoding failed)")			\
	X(THEME_ROLE_DIFF_OLD, "diff-old", "removed lines in a diff")	\
	X(THEME_ROLE_DIFF_NEW, "diff-new", "added lines in a diff")	\
	X(THEME_ROLE_PROGRESS, "progress", "progress bars")		\
	X(THEME_ROLE_MATCH, "match", "what / found in the details")

#define THEME_ROLE_ENUM(id, name, help) id,
enum theme_role {
	THEME_ROLES(THEME_ROLE_ENUM)
	THEME_ROLE_COUNT
};
#undef THEME_ROLE_ENUM

/*
 * A colour: THEME_COLOR_DEFAULT (the terminal's own), an index 0..255, or
 * 24-bit RGB flagged by THEME_COLOR_RGB.
 */
#define THEME_COLOR_DEFAULT	(-1)
#define THEME_COLOR_RGB		0x1000000
#define THEME_RGB(r, g, b)						\
	(THEME_COLOR_RGB | ((r) & 0xff) << 16 | ((g) & 0xff) << 8 |	\
	((b) & 0xff))
#define THEME_COLOR_IS_RGB(c)	((c) >= 0 && ((c) & THEME_COLOR_RGB) != 0)
#define THEME_RGB_R(c)		(((c) >> 16) & 0xff)
#define THEME_RGB_G(c)		(((c) >> 8) & 0xff)
#define THEME_RGB_B(c)		((c) & 0xff)

/* A terminal with at least this many colours shows RGB as it is. */
#define THEME_NCOLORS_DIRECT	0x1000000

#define THEME_ATTR_BOLD		0x01
#define THEME_ATTR_DIM		0x02
#define THEME_ATTR_UNDERLINE	0x04
#define THEME_ATTR_REVERSE	0x08
#define THEME_ATTR_ITALIC	0x10
#define THEME_ATTR_STANDOUT	0x20

/* Theme files larger than this are refused. */
#define THEME_MAX_SIZE		(256 * 1024)
/* Past this many, loading adds one last problem that says so and stops. */
#define THEME_MAX_PROBLEMS	100

struct theme_style {
	int		 fg;
	int		 bg;
	unsigned	 attrs;
};

struct theme {
	char			*name;
	struct theme_style	 roles[THEME_ROLE_COUNT];
};

/* Something wrong in a theme file, ready to show. */
struct theme_problem {
	char		*file;
	/* "themes/x.yaml: roles.title.fg: 'purpel' is not a colour (...)" */
	char		*message;
};

/* themes/default.yaml, built in: the text and its length. */
extern const char	theme_default_yaml[];
extern const size_t	theme_default_yaml_len;

const char	*theme_role_name(enum theme_role);
const char	*theme_role_help(enum theme_role);
/* The role called name, or -1. */
int		 theme_role_find(const char *);

/*
 * Read a colour: default, black, red, green, yellow, blue, magenta, cyan,
 * white, bright-NAME (or brightNAME; 8..15), grey or gray (8), colorN
 * (0..255), #rrggbb or #rgb; any case. -1 with *cause naming the text.
 */
int		 theme_color_parse(const char *, int *, char **);
/*
 * The colour nearest to color that a terminal with ncolors colours has:
 * RGB kept from THEME_NCOLORS_DIRECT on, else an index (of the xterm
 * 6x6x6 cube and grey ramp from 256 on, of the 16 or the 8 basic colours
 * from 16 or 8); THEME_COLOR_DEFAULT below 8.
 */
int		 theme_color_degrade(int, int);
/* Every colour of a theme degraded for a terminal with ncolors colours. */
void		 theme_degrade(struct theme *, int);
/*
 * NO_COLOR: every colour becomes the terminal's own; attributes stay, and
 * a role with a background of its own (the cursor bar) turns reverse; an
 * input beside the focused one does not, when the focused one does.
 */
void		 theme_apply_no_color(struct theme *);

/*
 * The built-in theme, parsed from theme_default_yaml. Never NULL; free
 * with theme_free.
 */
struct theme	*theme_default(void);
/*
 * Find name.yaml in dirs (NULL-terminated, searched in order; NULL for
 * none) and read it over the theme it inherits. "default" not found in
 * dirs is the built-in theme. NULL with *cause when there is no such
 * theme or it cannot be read. What is wrong inside a file is appended to
 * *problems (*nproblems of them; start with NULL and 0) and the rest of
 * the theme applies.
 */
struct theme	*theme_load(const char *, const char *const *,
		     struct theme_problem **, size_t *, char **);
/*
 * A theme from text of len bytes read from file (its name in messages;
 * the theme is named after it, without directory and ".yaml"). Its parent
 * is looked for in dirs like theme_load does. Never fails.
 */
struct theme	*theme_parse_text(const char *, const char *, size_t,
		     const char *const *, struct theme_problem **, size_t *);
void		 theme_free(struct theme *);
void		 theme_problems_free(struct theme_problem *, size_t);

/*
 * The names of the themes in dirs and the built-in "default", sorted,
 * each once, NULL-terminated. Free with theme_list_free.
 */
char		**theme_list(const char *const *);
void		 theme_list_free(char **);

#endif
