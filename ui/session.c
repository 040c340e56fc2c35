/*
 * The console's session: connecting to a profile's server (the command
 * line's options, --demo's emulator), disconnecting, and :profile's switch.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "configfile.h"
#include "demo.h"
#include "http.h"
#include "log.h"
#include "transfers.h"
#include "tui.h"
#include "xmalloc.h"

void
session_disconnect(struct tui *t)
{
	struct tui_req	*r, *next;

	/* Stops every job and waits for uploads' threads to return. */
	if (t->jobs != NULL)
		jobs_free(t->jobs);
	t->jobs = NULL;
	for (r = t->reqs; r != NULL; r = next) {
		next = r->next;
		tui_req_free(r);
	}
	t->reqs = NULL;
	transfers_free(t);
	if (t->token != NULL)
		config_secret_free(t->token);
	t->token = NULL;
	if (t->http != NULL)
		http_client_free(t->http);
	t->http = NULL;
	free(t->profile);
	free(t->base_url);
	free(t->account);
	free(t->zone);
	t->profile = t->base_url = t->account = t->zone = NULL;
}

/*
 * The options given on the command line: where to connect, for the first
 * profile only; --readonly, for every profile of the process.
 */
static const struct cli_opts	*tui_opts;
static struct demo		 tui_demo;
static int			 tui_demo_on;

void
session_options(const struct cli_opts *o)
{
	tui_opts = o;
}

/* --demo: an emulator with sample data to connect to. */
int
session_demo_start(char **cause)
{
	if (demo_start(&tui_demo, NULL, cause) != 0)
		return (-1);
	tui_demo_on = 1;
	return (0);
}

int
session_connect(struct tui *t, const char *profile, char **cause)
{
	struct config_settings	 set;
	struct http_options	 ho;
	char			*token = NULL;
	const char		*o_base = NULL, *o_acc = NULL, *o_zone = NULL;
	int			 o_ro = 0;

	if (tui_opts != NULL && profile == NULL) {
		profile = tui_opts->profile;
		o_base = tui_opts->base_url;
		o_acc = tui_opts->account;
		o_zone = tui_opts->zone;
	}
	if (tui_opts != NULL)
		o_ro = tui_opts->readonly;
	if (tui_demo_on) {
		o_base = tui_demo.url;
		o_acc = tui_demo.account;
		o_zone = tui_demo.zone;
	}
	if (config_settings(t->cfg, profile, NULL, &set, cause) != 0)
		return (-1);
	if (tui_demo_on)
		token = xstrdup(tui_demo.token);
	else if (config_token(t->cfg, profile, NULL, &token, cause) != 0) {
		config_settings_free(&set);
		return (-1);
	}
	t->profile = xstrdup(tui_demo_on ? "demo" : set.profile);
	t->base_url = xstrdup(o_base != NULL ? o_base : set.base_url);
	t->account = o_acc != NULL ? xstrdup(o_acc) : set.account != NULL ?
	    xstrdup(set.account) : NULL;
	t->zone = o_zone != NULL ? xstrdup(o_zone) : set.zone != NULL ?
	    xstrdup(set.zone) : NULL;
	t->readonly = o_ro || set.readonly;
	t->readonly_why = o_ro ? "--readonly" : "read-only profile";

	memset(&ho, 0, sizeof ho);
	ho.base_url = t->base_url;
	ho.token = token;
	ho.readonly = t->readonly;
	ho.max_retries = -1;
	ho.budget_capacity = set.budget;
	config_settings_free(&set);
	t->http = http_client_new(&ho, cause);
	if (t->http == NULL) {
		config_secret_free(token);
		return (-1);
	}
	t->token = token;
	if ((t->jobs = jobs_new(t->http, cause)) == NULL) {
		http_client_free(t->http);
		t->http = NULL;
		return (-1);
	}
	t->vars[0].name = "account";
	t->vars[0].value = t->account;
	t->vars[1].name = "zone";
	t->vars[1].value = t->zone;
	t->vars[2].name = NULL;
	t->vars[2].value = NULL;
	t->budget_shown = -1;
	return (0);
}

void
session_open_first(struct tui *t)
{
	if (t->zone != NULL)
		tui_open_kind(t, &kind_operations);
	else if (t->account != NULL)
		tui_open_kind(t, &kind_videos);
	else
		tui_message(t, TUI_MSG_WARN, "no account or zone: set them in "
		    "the profile, CLOUDFLARE_ACCOUNT_ID/CLOUDFLARE_ZONE_ID or "
		    "--account/--zone");
}

void
session_demo_stop(void)
{
	if (tui_demo_on) {
		demo_stop(&tui_demo);
		tui_demo_on = 0;
	}
}

/* :profile NAME: the session of another profile, its first list. */
int
session_switch(struct tui *t, const char *name)
{
	char	*cause = NULL;

	if (config_profile(t->cfg, name) == NULL) {
		tui_message(t, TUI_MSG_ERROR, "profile: no profile '%s' in "
		    "%s", name, t->cfg->file != NULL ? t->cfg->file :
		    "the configuration");
		return (0);
	}
	tui_close_panels(t);
	session_disconnect(t);
	if (session_connect(t, name, &cause) != 0) {
		tui_message(t, TUI_MSG_ERROR, "profile %s: %s", name, cause);
		free(cause);
		if (session_connect(t, NULL, &cause) != 0)
			fatalx("%s", cause);
	} else
		tui_message(t, TUI_MSG_OK, "profile %s", name);
	session_open_first(t);
	/* This server's and account's unfinished uploads, if any. */
	transfers_init(t);
	if (transfers_paused(t) > 0)
		tui_message(t, TUI_MSG_WARN, "profile %s: %zu unfinished "
		    "upload%s (T, Enter resumes)", name, transfers_paused(t),
		    transfers_paused(t) == 1 ? "" : "s");
	return (0);
}
