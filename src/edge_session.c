/*
 * One session's resolution from the config, the command line's overrides,
 * the environment and --demo: the only place that decides which wins.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "configfile.h"
#include "edge_session.h"
#include "http.h"
#include "xmalloc.h"

static char *
edge_session_pick(const char *over, const char *set)
{
	if (over != NULL)
		return (xstrdup(over));
	return (set != NULL ? xstrdup(set) : NULL);
}

int
edge_session_resolve(const struct config *cfg, const struct edge_overrides *o,
    struct edge_session *s, char **cause)
{
	struct config_settings	 set;
	const char		*base = o->base_url, *acc = o->account;
	const char		*zone = o->zone;
	int			 demo = o->demo_url != NULL;

	memset(s, 0, sizeof *s);
	if (demo) {
		base = o->demo_url;
		acc = o->demo_account;
		zone = o->demo_zone;
	}
	/* The environment's CLOUDFLARE_* are applied to the profile here. */
	if (config_settings(cfg, o->profile, o->env, &set, cause) != 0)
		return (-1);
	s->profile = xstrdup(demo ? "demo" : set.profile);
	s->base_url = edge_session_pick(base, set.base_url);
	s->scope.account = edge_session_pick(acc, set.account);
	s->scope.zone = edge_session_pick(zone, set.zone);
	s->scope.video = o->video != NULL ? xstrdup(o->video) : NULL;
	s->readonly = o->readonly || set.readonly;
	s->readonly_why = o->readonly ? "--readonly" : "read-only profile";
	s->budget = set.budget;
	config_settings_free(&set);
	if (!o->no_token && edge_session_token(cfg, o, s, cause) != 0) {
		edge_session_free(s);
		return (-1);
	}
	return (0);
}

int
edge_session_token(const struct config *cfg, const struct edge_overrides *o,
    struct edge_session *s, char **cause)
{
	if (s->token != NULL)
		return (0);
	if (o->demo_url != NULL) {
		s->token = xstrdup(o->demo_token);
		return (0);
	}
	return (config_token(cfg, o->profile, o->env, &s->token, cause));
}

void
edge_session_http_options(const struct edge_session *s,
    struct http_options *ho)
{
	memset(ho, 0, sizeof *ho);
	ho->base_url = s->base_url;
	ho->token = s->token;
	ho->readonly = s->readonly;
	ho->max_retries = -1;
	ho->budget_capacity = s->budget;
}

void
edge_session_free(struct edge_session *s)
{
	if (s->token != NULL)
		config_secret_free(s->token);
	free(s->profile);
	free(s->base_url);
	free(s->scope.account);
	free(s->scope.zone);
	free(s->scope.video);
	free(s->state_dir);
	memset(s, 0, sizeof *s);
}

char *
edge_session_state_dir(struct edge_session *s, char **cause)
{
	if (s->state_dir == NULL &&
	    (s->state_dir = config_state_dir(NULL, cause)) == NULL)
		return (NULL);
	return (xstrdup(s->state_dir));
}

void
edge_scope_vars(const struct edge_scope *scope, const char *video,
    struct api_var *vars)
{
	vars[0].name = "account";
	vars[0].value = scope->account;
	vars[1].name = "zone";
	vars[1].value = scope->zone;
	vars[2].name = "video";
	vars[2].value = video != NULL ? video : scope->video;
	vars[3].name = NULL;
	vars[3].value = NULL;
}
