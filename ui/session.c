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
	if (t->http != NULL)
		http_client_free(t->http);
	t->http = NULL;
	edge_session_free(&t->session);
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
	struct edge_overrides	 over;
	struct http_options	 ho;

	memset(&over, 0, sizeof over);
	over.profile = profile;
	if (tui_opts != NULL && profile == NULL) {
		over.profile = tui_opts->profile;
		over.base_url = tui_opts->base_url;
		over.account = tui_opts->account;
		over.zone = tui_opts->zone;
	}
	if (tui_opts != NULL)
		over.readonly = tui_opts->readonly;
	if (tui_demo_on) {
		over.demo_url = tui_demo.url;
		over.demo_account = tui_demo.account;
		over.demo_zone = tui_demo.zone;
		over.demo_token = tui_demo.token;
	}
	if (edge_session_resolve(t->cfg, &over, &t->session, cause) != 0)
		return (-1);
	edge_session_http_options(&t->session, &ho);
	if ((t->http = http_client_new(&ho, cause)) == NULL) {
		edge_session_free(&t->session);
		return (-1);
	}
	if ((t->jobs = jobs_new(t->http, cause)) == NULL) {
		http_client_free(t->http);
		t->http = NULL;
		return (-1);
	}
	t->budget_shown = -1;
	return (0);
}

void
session_open_first(struct tui *t)
{
	if (t->session.scope.zone != NULL)
		tui_open_kind(t, &kind_operations);
	else if (t->session.scope.account != NULL)
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
/* "profile work: 1 unfinished upload (T, Enter resumes)", from the keymap. */
static void
session_paused(struct tui *t, const char *name)
{
	char	tray[KEYMAP_KEY_NAME_MAX], resume[KEYMAP_KEY_NAME_MAX];
	char	how[2 * KEYMAP_KEY_NAME_MAX + 16] = "";
	size_t	n = transfers_paused(t);

	if (status_key_name(t, KEYMAP_GLOBAL, ACTION_TRANSFERS, tray) != NULL &&
	    status_key_name(t, KEYMAP_TRAY, ACTION_RESUME, resume) != NULL)
		snprintf(how, sizeof how, " (%s, %s resumes)", tray, resume);
	tui_message(t, TUI_MSG_WARN, "profile %s: %zu unfinished upload%s%s",
	    name, n, n == 1 ? "" : "s", how);
}

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
		session_paused(t, name);
	return (0);
}
