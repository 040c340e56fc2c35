/*
 * The user's config file: profiles (where to connect, as whom), preferences
 * and credentials. This header is not called config.h because that name is
 * autoconf's, which every .c file includes first.
 */
#ifndef EDGE_CONFIGFILE_H
#define EDGE_CONFIGFILE_H

#include <sys/types.h>

#include <stddef.h>

#define CONFIG_DEFAULT_BASE_URL	"https://api.cloudflare.com/client/v4"
#define CONFIG_DEFAULT_PROFILE	"default"
/* Bigger files are refused rather than read: a config is a few lines. */
#define CONFIG_MAX_SIZE		(1024 * 1024)
/* Past these, parsing stops with a last problem that says so. */
#define CONFIG_MAX_PROBLEMS	100
#define CONFIG_MAX_PROFILES	1000

/* The order of preferences.output's choices. */
enum config_output {
	CONFIG_OUTPUT_TABLE,
	CONFIG_OUTPUT_JSON,
	CONFIG_OUTPUT_YAML
};

/* The order of preferences.confirm_quit's choices. */
enum config_confirm_quit {
	CONFIG_CONFIRM_ALWAYS,
	CONFIG_CONFIRM_TRANSFERS,	/* while uploads or downloads run */
	CONFIG_CONFIRM_NEVER
};

/* Where config_token found (or would look for) a profile's token. */
enum config_token_source {
	CONFIG_TOKEN_NONE,
	CONFIG_TOKEN_ENV,		/* CLOUDFLARE_API_TOKEN */
	CONFIG_TOKEN_INLINE,		/* token: in the config file */
	CONFIG_TOKEN_FILE,		/* token_file: */
	CONFIG_TOKEN_COMMAND		/* token_command: */
};

/* One entry under profiles:, as written; the environment is not applied. */
struct config_profile {
	char		*name;
	int		 line;		/* where it starts; 0 if built in */
	char		*base_url;	/* without a trailing slash */
	char		*account;	/* 32 lowercase hex digits, or NULL */
	char		*zone;		/* likewise */
	int		 readonly;
	long long	 budget;	/* requests per 5 minutes */
	int		 plan;		/* enum expr_plan; 0: any */
	char		*token;		/* wiped when freed; never logged */
	char		*token_file;	/* ~ expanded, absolute */
	char		*token_command;	/* run by /bin/sh -c */
	enum config_token_source token_source; /* which of the three is set */
	/* Why the file's token or command may not be used, or NULL. */
	char		*token_refusal;
};

struct config_preferences {
	char		*theme;
	int		 output;	/* enum config_output */
	int		 ascii;
	int		 mouse;
	long long	 chunk_size;	/* upload chunk in bytes */
	long long	 poll_interval;	/* seconds */
	long long	 list_refresh;	/* seconds, videos list refresh */
	int		 confirm_quit;	/* enum config_confirm_quit */
};

/*
 * Something wrong in the file, ready to show: message names file and line.
 * A config's problems are in the order of their lines.
 */
struct config_problem {
	char		*file;
	int		 line;		/* from 1; 0 for the file as a whole */
	int		 column;	/* from 1; 0 when not known */
	char		*message;	/* "config.yaml:7: profiles.prod.budget: ..." */
};

/* Where a key read by others (keymap.list.x) is in the file. */
struct config_key_line {
	char		*path;
	int		 line;
};

struct config {
	char			*file;		/* NULL: built-in defaults */
	char			*default_profile; /* always names a profile */
	struct config_profile	*profiles;	/* at least one */
	size_t			 nprofiles;
	struct config_preferences prefs;
	struct config_problem	*problems;
	size_t			 nproblems;
	struct config_key_line	*key_lines;
	size_t			 nkey_lines;
};

/* A profile with the environment's overrides applied: what a session uses. */
struct config_settings {
	char		*profile;
	char		*base_url;
	char		*account;	/* NULL when neither file nor env sets it */
	char		*zone;
	int		 readonly;
	long long	 budget;
	enum config_token_source token_source;
};

/*
 * Every function taking "char *const *env" reads variables from that
 * NULL-terminated "NAME=value" array, or from the process's environment
 * when it is NULL; a variable set to the empty string counts as unset.
 * Call them from one thread: ~user and the home directory use getpwnam
 * and getpwuid.
 */

/*
 * Read path, or the default file ($XDG_CONFIG_HOME/edgetui/config.yaml,
 * else ~/.config/edgetui/config.yaml) when path is NULL. A missing default
 * file gives the built-in defaults. NULL with *cause only when the file
 * cannot be read at all (a missing explicit file, EACCES, too large); what
 * is wrong inside it becomes problems, and the rest still applies.
 */
struct config	*config_load(const char *, char *const *, char **);
/*
 * The same from text of len bytes read from a file called name whose
 * permission bits were mode (0600 for text that never was in a file).
 * Never fails; relative paths in it are relative to name's directory.
 */
struct config	*config_parse_text(const char *, const char *, size_t, mode_t,
		     char *const *);
void		 config_free(struct config *);

/* The line of keymap, keymap.CONTEXT or keymap.CONTEXT.KEY; 0 if none. */
int		 config_key_line(const struct config *, const char *);
/* The profile called name, or the default profile if name is NULL. */
const struct config_profile *config_profile(const struct config *,
		     const char *);
/*
 * The settings for profile (NULL: the default) after CLOUDFLARE_BASE_URL,
 * CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_ZONE_ID; -1 with *cause for an
 * unknown profile or a malformed variable.
 */
int		 config_settings(const struct config *, const char *,
		     char *const *, struct config_settings *, char **);
void		 config_settings_free(struct config_settings *);

/*
 * The API token for profile (NULL: the default): CLOUDFLARE_API_TOKEN,
 * else the profile's token, token_file (its first line) or token_command
 * (the first line it prints). A token file open to group or others is
 * refused. May block while the command runs (a pinentry, say): call it
 * before the screen starts. Free the token with config_secret_free. No
 * message ever holds a token.
 */
int		 config_token(const struct config *, const char *,
		     char *const *, char **, char **);
void		 config_secret_free(char *);

/*
 * $XDG_STATE_HOME/edgetui (else ~/.local/state/edgetui), created 0700
 * with any missing parents; NULL with *cause if it cannot be.
 */
char		*config_state_dir(char *const *, char **);
/* The default config file's path. */
char		*config_default_path(char *const *);
/* Every option and profile key, its type, default and meaning, as text. */
char		*config_help(void);

#endif
