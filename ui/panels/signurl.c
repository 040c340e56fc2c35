/*
 * Signed URLs from the console: S on a video opens a form (the key: the
 * server's token call, or a signing key remembered in the state directory
 * to sign here without an API request; expires; downloadable; allowed
 * addresses; blocked countries). The URLs it opens are shown with the
 * token shortened, y copies the HLS URL and w saves them all (0600). A new
 * signing key is offered to be remembered (0600) for this.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "form_model.h"
#include "streamsign.h"
#include "tui.h"
#include "xmalloc.h"

#include "signurl.h"

#define SIGNURL_KEYS_MAX	32	/* remembered keys offered in the form */
#define SIGNURL_SERVER		"server"
#define SIGNURL_LIST_MAX	16	/* allowed addresses, blocked countries */

/* The form's key values: "server", then the remembered ids (one form open). */
static char		*signurl_key_ids[SIGNURL_KEYS_MAX + 2];

static const struct kind_field signurl_fields[] = {
	{ .path = "key", .type = KIND_TYPE_ENUM, .flags = KIND_F_REQUIRED,
	  .values = (const char *const *)signurl_key_ids,
	  .help = "server: the token call (one API request); a key id: "
	  "signed here with that remembered key" },
	{ .path = "expires", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED, .max_len = 8,
	  .help = "how long it is valid, 1s to 24h: 90, 30m, 1h",
	  .example = "1h" },
	{ .path = "downloadable", .type = KIND_TYPE_BOOL,
	  .help = "the MP4 download opens too" },
	{ .path = "allowIPs", .type = KIND_TYPE_STRINGS,
	  .max_items = SIGNURL_LIST_MAX,
	  .help = "only these addresses or CIDRs (IPv4, IPv6); empty: any",
	  .example = "192.0.2.0/24" },
	{ .path = "blockCountries", .type = KIND_TYPE_STRINGS,
	  .max_items = SIGNURL_LIST_MAX,
	  .help = "refused in these countries (two letters)",
	  .example = "DE" },
	{ .path = NULL }
};

static const struct kind signurl_kind = {
	.name = "signed URL",
	.fields = signurl_fields,
	.verbs = KIND_VERB_CREATE,
};

static void
signurl_keys_load(struct tui *t)
{
	char	*state, *cause = NULL, **ids;
	size_t	 i, n = 0;

	for (i = 0; signurl_key_ids[i] != NULL; i++)
		free(signurl_key_ids[i]);
	memset(signurl_key_ids, 0, sizeof signurl_key_ids);
	signurl_key_ids[n++] = xstrdup(SIGNURL_SERVER);
	if ((state = edge_session_state_dir(&t->session, &cause)) == NULL) {
		free(cause);
		return;
	}
	ids = streamsign_key_list(state);
	for (i = 0; ids[i] != NULL && n < SIGNURL_KEYS_MAX + 1; i++)
		signurl_key_ids[n++] = xstrdup(ids[i]);
	streamsign_key_list_free(ids);
	free(state);
}

/* The URLs the token opens, as shown (token shortened) and in full. */
static void
signurl_show(struct tui *t, const cJSON *video, const char *uid,
    const char *token, long secs, const char *how)
{
	static const char *const fields[][2] = {
		{ "HLS", "playback.hls" }, { "DASH", "playback.dash" },
		{ "thumbnail", "thumbnail" }, { "player", "preview" },
	};
	struct buf	 shown, full;
	const cJSON	*u;
	struct modal	*m;
	char		*url, *shortened, *hls = NULL, *name;
	size_t		 i;

	shortened = streamsign_token_short(token);
	buf_init(&shown);
	buf_init(&full);
	buf_addf(&shown, "Signed URLs for video %s, valid %ld min.\n%s.\n"
	    "The token is a bearer credential: it is shortened here.\n"
	    "y copies the HLS URL, w saves every URL to a file (0600).\n\n"
	    "%-10s %s\n", uid, (secs + 59) / 60, how, "token", shortened);
	buf_addf(&full, "token %s\n", token);
	for (i = 0; i < nitems(fields); i++) {
		u = kind_json_get(video, fields[i][1]);
		if (!cJSON_IsString(u) ||
		    (url = streamsign_url(u->valuestring, uid, token)) == NULL)
			continue;
		buf_addf(&full, "%s %s\n", fields[i][0], url);
		if (hls == NULL)
			hls = xstrdup(url);
		free(url);
		url = streamsign_url(u->valuestring, uid, shortened);
		buf_addf(&shown, "%-10s %s\n", fields[i][0], url);
		free(url);
	}
	if (hls == NULL)
		buf_adds(&shown, "\nThe video is not ready: it has no playback "
		    "URLs yet.\n");
	m = textview_result("signed URLs", buf_str(&shown), "the HLS URL",
	    hls != NULL ? hls : token, 0);
	name = xprintf("~/signed-urls-%s.txt", uid);
	textview_result_file(m, "the URLs", buf_str(&full), name);
	tui_push(t, m);
	free(name);
	explicit_bzero(full.data, full.len);
	buf_free(&full);
	buf_free(&shown);
	free(shortened);
	free(hls);
}

/* A list field's strings (the form allows SIGNURL_LIST_MAX) into out. */
static size_t
signurl_strings(const cJSON *body, const char *key,
    const char *out[SIGNURL_LIST_MAX])
{
	const cJSON	*v;
	size_t		 n = 0;

	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(body, key)) {
		if (cJSON_IsString(v) && n < SIGNURL_LIST_MAX)
			out[n++] = v->valuestring;
	}
	return (n);
}

/* Sign here with a remembered key: no API request. */
static int
signurl_local(struct tui *t, const char *kid, const char *uid, long secs,
    int downloadable, const cJSON *rules, char **token, char **cause)
{
	struct streamsign	 s;
	char			*state, *pem;
	int64_t			 now = (int64_t)time(NULL);

	if ((state = edge_session_state_dir(&t->session, cause)) == NULL)
		return (-1);
	pem = streamsign_key_load(state, kid, cause);
	free(state);
	if (pem == NULL)
		return (-1);
	memset(&s, 0, sizeof s);
	s.video = uid;
	s.key_id = kid;
	s.exp = now + secs;
	s.nbf = now - STREAMSIGN_NBF_BEFORE;
	s.downloadable = downloadable;
	s.access_rules = rules;
	*token = streamsign_token(pem, strlen(pem), &s, cause);
	explicit_bzero(pem, strlen(pem));
	free(pem);
	return (*token != NULL ? 0 : -1);
}

/* The token call; its answer comes to the videos panel (signurl_event). */
static void
signurl_server(struct tui *t, struct panel *p, struct modal *m,
    const char *uid, long secs, int downloadable, const cJSON *rules)
{
	struct tui_req	*r;
	cJSON		*body, *video;
	char		*path, *tpath, *cause = NULL;

	if ((path = kind_item_path(p->kind, p->vars, uid, &cause)) == NULL) {
		formview_failed(t, m, cause);
		free(cause);
		return;
	}
	body = cJSON_CreateObject();
	cJSON_AddNumberToObject(body, "exp", (double)(time(NULL) + secs));
	cJSON_AddBoolToObject(body, "downloadable", downloadable);
	if (rules != NULL)
		cJSON_AddItemToObject(body, "accessRules",
		    cJSON_Duplicate(rules, 1));
	tpath = xprintf("%s/token", path);
	free(path);
	video = panel_current_record(p);
	r = tui_submit(t, p, TUI_REQ_OTHER, "POST", tpath, body);
	if (r != NULL) {
		r->sub = SIGNURL_REQ;
		r->id = xstrdup(uid);
		r->data = video;
		r->count = (size_t)secs;
		r->modal = m;
	} else
		cJSON_Delete(video);
	cJSON_Delete(body);
	free(tpath);
}

static void
signurl_submit(struct tui *t, struct panel *p, struct modal *m, cJSON *body,
    const char *uid, const cJSON *before)
{
	const char		*ips[SIGNURL_LIST_MAX], *ccs[SIGNURL_LIST_MAX];
	const cJSON		*key, *exp;
	cJSON			*rules, *video;
	char			*cause = NULL, *token = NULL, *how, *id;
	size_t			 nips, nccs;
	long			 secs;
	int			 dl;

	(void)before;
	key = cJSON_GetObjectItemCaseSensitive(body, "key");
	exp = cJSON_GetObjectItemCaseSensitive(body, "expires");
	dl = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(body,
	    "downloadable"));
	nips = signurl_strings(body, "allowIPs", ips);
	nccs = signurl_strings(body, "blockCountries", ccs);
	if (!cJSON_IsString(key) || !cJSON_IsString(exp) ||
	    (secs = streamsign_duration(exp->valuestring, &cause)) < 0 ||
	    ((rules = streamsign_rules(ips, nips, ccs, nccs, &cause)) ==
	    NULL && cause != NULL)) {
		formview_failed(t, m, cause != NULL ? cause : "the key and "
		    "expires are needed");
		free(cause);
		return;
	}
	if (strcmp(key->valuestring, SIGNURL_SERVER) == 0) {
		signurl_server(t, p, m, uid, secs, dl, rules);
		cJSON_Delete(rules);
		return;
	}
	if (signurl_local(t, key->valuestring, uid, secs, dl, rules, &token,
	    &cause) != 0) {
		formview_failed(t, m, cause);
		free(cause);
		cJSON_Delete(rules);
		return;
	}
	cJSON_Delete(rules);
	/* Closing the form frees uid, body and key with it. */
	how = xprintf("Signed here with key %s, no API request",
	    key->valuestring);
	id = xstrdup(uid);
	formview_close(t, m);
	video = panel_current_record(p);
	signurl_show(t, video, id, token, secs, how);
	free(how);
	free(id);
	cJSON_Delete(video);
	explicit_bzero(token, strlen(token));
	free(token);
}

void
signurl_open(struct panel *p)
{
	const char	*uid = panel_current_id(p);
	struct form	*f;
	int		 i;

	if (uid == NULL)
		return;
	signurl_keys_load(p->tui);
	/* New, so that the defaults as they are can be sent. */
	f = form_new(&signurl_kind, NULL);
	/* A remembered key first: it spends no request. */
	if ((i = form_find(f, "key")) >= 0)
		form_set(f, (size_t)i, signurl_key_ids[1] != NULL ?
		    signurl_key_ids[1] : SIGNURL_SERVER);
	if ((i = form_find(f, "expires")) >= 0)
		form_set(f, (size_t)i, "1h");
	formview_open(p->tui, p, f, "signed URLs for this video",
	    signurl_submit, uid);
}

int
signurl_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*tok;

	if (ev->kind == JOBS_EVENT_FAILED) {
		if (r->modal == NULL || !formview_failed(p->tui, r->modal,
		    tui_cause(r, ev)))
			tui_message(p->tui, TUI_MSG_ERROR, "%s",
			    tui_cause(r, ev));
		return (1);
	}
	if (ev->kind != JOBS_EVENT_DONE)
		return (1);
	if (r->modal != NULL)
		formview_close(p->tui, r->modal);
	tok = cJSON_GetObjectItemCaseSensitive(ev->result, "token");
	if (!cJSON_IsString(tok) || *tok->valuestring == '\0') {
		tui_message(p->tui, TUI_MSG_ERROR, "the server sent no token");
		return (1);
	}
	signurl_show(p->tui, r->data, r->id, tok->valuestring,
	    (long)r->count, "Signed by the server (the token call)");
	return (1);
}

/* ---- remembering a new key ------------------------------------------------ */

struct signurl_remember {
	char	*id;
	char	*pem;
};

static void
signurl_remember_free(void *arg)
{
	struct signurl_remember	*rm = arg;

	explicit_bzero(rm->pem, strlen(rm->pem));
	free(rm->pem);
	free(rm->id);
	free(rm);
}

static void
signurl_remember_answer(struct tui *t, void *arg, const char *answer)
{
	struct signurl_remember	*rm = arg;
	char			*state, *path = NULL, *cause = NULL;

	if (strcmp(answer, "y") != 0)
		return;
	if ((state = edge_session_state_dir(&t->session, &cause)) == NULL ||
	    streamsign_key_save(state, rm->id, rm->pem, &path, &cause) != 0)
		tui_message(t, TUI_MSG_ERROR, "signing key %s not remembered: "
		    "%s", rm->id, cause);
	else
		tui_message(t, TUI_MSG_OK, "remembered signing key %s in %s "
		    "(0600): S on a video signs with it here", rm->id, path);
	free(cause);
	free(state);
	free(path);
}

void
signurl_offer_remember(struct tui *t, const char *id, const char *pem)
{
	struct signurl_remember	*rm;

	if (id == NULL || pem == NULL ||
	    strncmp(pem, "-----BEGIN ", 11) != 0)
		return;
	rm = xcalloc(1, sizeof *rm);
	rm->id = xstrdup(id);
	rm->pem = xstrdup(pem);
	dialog_ask(t, "remember signing key", "Remember this key's private "
	    "half (0600, in the state directory) so that S on a video signs "
	    "URLs here, without API requests? (y/n)",
	    signurl_remember_answer, rm, signurl_remember_free);
}
