/*
 * The environment a config is read in (see configfile.h on "env"): what
 * the config modules share and nothing else uses.
 */
#ifndef EDGE_CONFIG_ENV_H
#define EDGE_CONFIG_ENV_H

/* NAME's value, or NULL when it is unset or empty. */
const char	*config_env_get(char *const *, const char *);
/* HOME, else the password database's, else NULL. */
const char	*config_env_home(char *const *);
char		*config_env_xdg(char *const *, const char *, const char *);

#endif
