/*
 * One session's resolution: the profile, the command line's overrides, the
 * environment and --demo's emulator turned into where to connect, as whom,
 * in which account/zone/video and whether read-only, for the one-shot
 * commands and the console alike.
 */
#ifndef EDGE_EDGE_SESSION_H
#define EDGE_EDGE_SESSION_H

struct api_var;
struct config;
struct http_options;

/* The ids the API's path templates take; NULL where none is known. */
struct edge_scope {
	char		*account;
	char		*zone;
	char		*video;
};

/* edge_scope_vars's list: account, zone, video and the end. */
#define EDGE_SCOPE_NVARS	4

/* What a session may be told besides its profile; NULL/0 leaves it. */
struct edge_overrides {
	const char	*profile;	/* NULL: the default profile */
	const char	*base_url;	/* --base-url: over the env */
	const char	*account;
	const char	*zone;
	const char	*video;
	int		 readonly;	/* --readonly */
	int		 no_token;	/* edge_session_token reads it */
	/* --demo's emulator: over everything but --readonly. */
	const char	*demo_url;	/* non-NULL: the demo */
	const char	*demo_account;
	const char	*demo_zone;
	const char	*demo_token;
	char *const	*env;		/* as in configfile.h */
};

struct edge_session {
	char		*profile;	/* "demo" for the demo */
	char		*base_url;
	struct edge_scope scope;
	char		*token;		/* NULL until read */
	int		 readonly;
	const char	*readonly_why;	/* "--readonly" or the profile's */
	long long	 budget;	/* the profile's budget */
	char		*state_dir;	/* found once, when first asked */
};

/*
 * Resolve a session: --demo's values, else the overrides, else the
 * environment's CLOUDFLARE_*, else the profile. -1 with *cause (as
 * config_settings and config_token say it) and nothing to free.
 */
int	 edge_session_resolve(const struct config *,
	     const struct edge_overrides *, struct edge_session *, char **);
/* The token of a session resolved with no_token; -1 with *cause. */
int	 edge_session_token(const struct config *,
	     const struct edge_overrides *, struct edge_session *, char **);
/* A client's options on the session: its URL, token, read-only, budget. */
void	 edge_session_http_options(const struct edge_session *,
	     struct http_options *);
void	 edge_session_free(struct edge_session *);
/*
 * The state directory (resume and change journals), looked up and made
 * the first time it is asked for; a copy to free, or NULL with *cause.
 */
char	*edge_session_state_dir(struct edge_session *, char **);

/*
 * The path templates' variables from a scope, video (when not NULL) in
 * place of the scope's: EDGE_SCOPE_NVARS entries, pointing into both.
 */
void	 edge_scope_vars(const struct edge_scope *, const char *,
	     struct api_var *);

#endif
