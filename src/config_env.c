/*
 * The environment a config is read in: variables from a caller's array or
 * the process's, the home directory and the XDG base directories.
 */
#include "config.h"

#include <sys/types.h>

#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_env.h"
#include "xmalloc.h"

const char *
config_env_get(char *const *env, const char *name)
{
	const char	*v = NULL;
	size_t		 len = strlen(name);

	if (env == NULL)
		v = getenv(name);
	else {
		for (; *env != NULL; env++) {
			if (strncmp(*env, name, len) == 0 &&
			    (*env)[len] == '=') {
				v = *env + len + 1;
				break;
			}
		}
	}
	if (v == NULL || *v == '\0')
		return (NULL);
	return (v);
}

const char *
config_env_home(char *const *env)
{
	const char	*home;
	struct passwd	*pw;

	if ((home = config_env_get(env, "HOME")) != NULL)
		return (home);
	if ((pw = getpwuid(getuid())) != NULL && pw->pw_dir != NULL)
		return (pw->pw_dir);
	return (NULL);
}

/* An XDG base directory: the variable if absolute (the spec), else HOME/rest. */
char *
config_env_xdg(char *const *env, const char *variable, const char *rest)
{
	const char	*v, *home;

	if ((v = config_env_get(env, variable)) != NULL && *v == '/')
		return (xprintf("%s/edgetui", v));
	if ((home = config_env_home(env)) == NULL)
		home = "";
	return (xprintf("%s/%s/edgetui", home, rest));
}
