/*
 * The typed option engine shared by the config modules: option types, the
 * two tables and the functions that read, check, default and free values.
 */
#ifndef EDGE_CONFIG_OPTIONS_H
#define EDGE_CONFIG_OPTIONS_H

#include <stddef.h>

/* The longest name (profile, file) and key a message shows as it is. */
#define CONFIG_NAME_MAX		64

enum config_type {
	CONFIG_STRING,		/* any text without control characters */
	CONFIG_NAME,		/* letters, digits, . _ - (file and profile names) */
	CONFIG_BOOL,
	CONFIG_INT,		/* min..max, a multiple of step */
	CONFIG_ENUM,		/* one of choices; stored as its index */
	CONFIG_HEX32,		/* an account or zone id; stored lowercase */
	CONFIG_URL,		/* http(s), stored without a trailing slash */
	CONFIG_PATH,		/* ~ expanded; relative to the file's directory */
	CONFIG_TOKEN		/* a credential: never quoted, wiped when freed */
};

#define CONFIG_F_BYTES		0x1	/* a size: messages say KiB and MiB */
#define CONFIG_F_CREDENTIAL	0x2	/* one of the exclusive token sources */

struct config_option {
	const char		*name;
	enum config_type	 type;
	size_t			 offset;
	const char		*dflt;	/* as written in the file; NULL: unset */
	long long		 min;
	long long		 max;
	long long		 step;
	const char *const	*choices;
	int			 flags;
	const char		*help;
};

/*
 * The tables' sizes, for arrays kept per option: config_options.c checks
 * them against its tables when it compiles.
 */
#define CONFIG_NOPTIONS		9
#define CONFIG_NPROFILE_OPTIONS	9

/* Everything outside profiles:; a dot names a section. */
extern const struct config_option config_options[];
/* The keys of one entry under profiles:. */
extern const struct config_option config_options_profile[];

/* A short, printable excerpt of text for a message, in double quotes. */
char		*config_options_quote(const char *, size_t);
/* What a value of o's type is, for messages ("a whole number"). */
const char	*config_options_type_name(const struct config_option *);
/* Letters, digits, '.', '_' and '-', not starting with '.'. */
int		 config_options_check_name(const char *, size_t);
/*
 * Set o in base from text (plain: not quoted); env and dir as for paths.
 * On error *why says what is wrong, without the option's name.
 */
int		 config_options_value(const struct config_option *, void *,
		     const char *, size_t, int, char *const *, const char *,
		     char **);
void		 config_options_defaults(const struct config_option *, size_t,
		     void *);
void		 config_options_free_fields(const struct config_option *,
		     size_t, void *);
const struct config_option *config_options_find(
		     const struct config_option *, size_t, const char *);

#endif
