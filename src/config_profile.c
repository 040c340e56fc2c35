/*
 * Choosing a profile and what a session uses from it: the profile's
 * settings with the environment's overrides applied.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "config_env.h"
#include "config_options.h"
#include "config_profile.h"
#include "configfile.h"
#include "xmalloc.h"

/* The environment's overrides of a profile, checked as the keys are. */
static const struct {
	const char	*variable;
	const char	*key;
} config_env_overrides[] = {
	{ "CLOUDFLARE_BASE_URL", "base_url" },
	{ "CLOUDFLARE_ACCOUNT_ID", "account" },
	{ "CLOUDFLARE_ZONE_ID", "zone" },
};

const struct config_profile *
config_profile(const struct config *cfg, const char *name)
{
	size_t	i;

	if (name == NULL)
		name = cfg->default_profile;
	if (name == NULL)
		return (NULL);
	for (i = 0; i < cfg->nprofiles; i++) {
		if (strcmp(cfg->profiles[i].name, name) == 0)
			return (&cfg->profiles[i]);
	}
	return (NULL);
}

const struct config_profile *
config_profile_or_cause(const struct config *cfg, const char *name,
    char **cause)
{
	const struct config_profile	*prof;
	struct buf			 b = BUF_INITIALIZER;
	char				*q;
	size_t				 i;

	if ((prof = config_profile(cfg, name)) != NULL)
		return (prof);
	q = config_options_quote(name, strlen(name));
	buf_addf(&b, "no profile is called %s (there is ", q);
	for (i = 0; i < cfg->nprofiles && i < 10; i++) {
		buf_addf(&b, "%s%s", i == 0 ? "" : ", ",
		    cfg->profiles[i].name);
	}
	buf_adds(&b, i < cfg->nprofiles ? ", ...)" : ")");
	*cause = buf_detach(&b, NULL);
	free(q);
	return (NULL);
}

int
config_settings(const struct config *cfg, const char *name, char *const *env,
    struct config_settings *s, char **cause)
{
	const struct config_profile	*prof;
	const struct config_option	*o;
	struct config_profile		 tmp;
	const char			*v;
	char				*why = NULL, **field;
	size_t				 i;

	memset(s, 0, sizeof *s);
	if ((prof = config_profile_or_cause(cfg, name, cause)) == NULL)
		return (-1);
	s->profile = xstrdup(prof->name);
	s->base_url = xstrdup(prof->base_url);
	s->account = prof->account != NULL ? xstrdup(prof->account) : NULL;
	s->zone = prof->zone != NULL ? xstrdup(prof->zone) : NULL;
	s->readonly = prof->readonly;
	s->budget = prof->budget;
	s->token_source = prof->token_source;
	if (config_env_get(env, "CLOUDFLARE_API_TOKEN") != NULL)
		s->token_source = CONFIG_TOKEN_ENV;

	for (i = 0; i < nitems(config_env_overrides); i++) {
		v = config_env_get(env, config_env_overrides[i].variable);
		if (v == NULL)
			continue;
		o = config_options_find(config_options_profile,
		    CONFIG_NPROFILE_OPTIONS,
		    config_env_overrides[i].key);
		memset(&tmp, 0, sizeof tmp);
		if (config_options_value(o, &tmp, v, strlen(v), 0, env, NULL,
		    &why) != 0) {
			xasprintf(cause, "%s: %s", config_env_overrides[i].variable,
			    why);
			free(why);
			config_settings_free(s);
			return (-1);
		}
		field = (char **)((char *)&tmp + o->offset);
		if (strcmp(o->name, "base_url") == 0) {
			free(s->base_url);
			s->base_url = *field;
		} else if (strcmp(o->name, "account") == 0) {
			free(s->account);
			s->account = *field;
		} else {
			free(s->zone);
			s->zone = *field;
		}
	}
	return (0);
}

void
config_settings_free(struct config_settings *s)
{
	free(s->profile);
	free(s->base_url);
	free(s->account);
	free(s->zone);
	memset(s, 0, sizeof *s);
}
