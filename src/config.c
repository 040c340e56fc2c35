/*
 * The user's config file: where it is, reading it from disk within bounds,
 * freeing it, and the state directory beside it. The text is read by
 * config_yaml.c against config_options.c's tables; profiles are chosen in
 * config_profile.c and tokens read in credentials.c.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_env.h"
#include "config_options.h"
#include "configfile.h"
#include "credentials.h"
#include "xmalloc.h"

char *
config_default_path(char *const *env)
{
	char	*dir, *path;

	dir = config_env_xdg(env, "XDG_CONFIG_HOME", ".config");
	path = xprintf("%s/config.yaml", dir);
	free(dir);
	return (path);
}

struct config *
config_load(const char *path, char *const *env, char **cause)
{
	struct config	*cfg = NULL;
	struct stat	 sb;
	char		*dflt = NULL, *text = NULL;
	const char	*file = path;
	size_t		 len = 0;
	ssize_t		 n;
	int		 fd = -1;

	if (file == NULL)
		file = dflt = config_default_path(env);
	if ((fd = open(file, O_RDONLY|O_CLOEXEC|O_NOCTTY)) == -1) {
		if (errno == ENOENT && path == NULL)
			cfg = config_parse_text(NULL, "", 0, 0600, env);
		else
			xasprintf(cause, "%s: %s", file, strerror(errno));
		goto out;
	}
	if (fstat(fd, &sb) != 0) {
		xasprintf(cause, "%s: %s", file, strerror(errno));
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		xasprintf(cause, "%s: not a regular file", file);
		goto out;
	}
	/* Read to the end, not to st_size: the file may change meanwhile. */
	text = xmalloc(CONFIG_MAX_SIZE + 1);
	while (len <= CONFIG_MAX_SIZE) {
		n = read(fd, text + len, CONFIG_MAX_SIZE + 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			xasprintf(cause, "%s: %s", file, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += n;
	}
	if (len > CONFIG_MAX_SIZE) {
		xasprintf(cause, "%s: larger than %d bytes", file,
		    CONFIG_MAX_SIZE);
		goto out;
	}
	cfg = config_parse_text(file, text, len, sb.st_mode, env);

out:
	if (text != NULL) {
		explicit_bzero(text, len);
		free(text);
	}
	if (fd != -1)
		close(fd);
	free(dflt);
	return (cfg);
}

void
config_free(struct config *cfg)
{
	struct config_profile	*prof;
	size_t			 i;

	if (cfg == NULL)
		return;
	for (i = 0; i < cfg->nprofiles; i++) {
		prof = &cfg->profiles[i];
		config_options_free_fields(config_options_profile,
		    CONFIG_NPROFILE_OPTIONS, prof);
		free(prof->name);
		free(prof->token_refusal);
	}
	free(cfg->profiles);
	config_options_free_fields(config_options, CONFIG_NOPTIONS, cfg);
	for (i = 0; i < cfg->nproblems; i++) {
		free(cfg->problems[i].file);
		free(cfg->problems[i].message);
	}
	free(cfg->problems);
	for (i = 0; i < cfg->nkey_lines; i++)
		free(cfg->key_lines[i].path);
	free(cfg->key_lines);
	free(cfg->file);
	free(cfg);
}

int
config_key_line(const struct config *cfg, const char *path)
{
	size_t	i;

	for (i = 0; i < cfg->nkey_lines; i++)
		if (strcmp(cfg->key_lines[i].path, path) == 0)
			return (cfg->key_lines[i].line);
	return (0);
}

/* ---- state directory ----------------------------------------------- */

char *
config_state_dir(char *const *env, char **cause)
{
	struct stat	 sb;
	char		*dir, *p;

	dir = config_env_xdg(env, "XDG_STATE_HOME", ".local/state");
	/* Each missing parent too, as mkdir -p would, but private. */
	for (p = strchr(dir + 1, '/');; p = strchr(p + 1, '/')) {
		if (p != NULL)
			*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			xasprintf(cause, "cannot create %s: %s", dir,
			    strerror(errno));
			free(dir);
			return (NULL);
		}
		if (p == NULL)
			break;
		*p = '/';
	}
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		xasprintf(cause, "%s: not a directory", dir);
		free(dir);
		return (NULL);
	}
	return (dir);
}
