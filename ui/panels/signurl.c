/*
 * Signed URLs from the console: S on a video opens a form (the key: the
 * server's token call, or a signing key remembered in the state directory
 * to sign here without an API request; expires; downloadable; allowed
 * addresses; blocked countries). The URLs it opens are shown with the
 * token shortened; y copies one of them (HLS, DASH, thumbnail, player, the
 * MP4 download when allowed) or the token alone, w saves them all (0600).
 * A new signing key is offered to be remembered (0600, for this server and
 * account) for this.
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
#define SIGNURL_URLS		5	/* HLS, download, DASH, thumbnail, player */

/* The form's key values: "server", then the remembered ids (one form open). */
static char		*signurl_key_ids[SIGNURL_KEYS_MAX + 2];

static const struct kind_field signurl_fields[] = {
	{ .path = "key", .type = KIND_TYPE_ENUM, .flags = KIND_F_REQUIRED,
	  .values = (const char *const *)signurl_key_ids,
	  .help = "server: the token call (one API request); a key id: "
	  "signed here with that remembered key, no request (this account's "
	  "first)" },
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

/* Whose keys the session signs with: its server and account. */
static void
signurl_owner(struct tui *t, struct streamsign_owner *o)
{
	memset(o, 0, sizeof *o);
	o->base_url = t->session.base_url;
	o->account = t->session.scope.account;
}

/* Appends the ids not there yet; n: the values so far. */
static size_t
signurl_keys_add(char **ids, size_t n)
{
	size_t	i, j;

	for (i = 0; ids[i] != NULL && n < SIGNURL_KEYS_MAX + 1; i++) {
		for (j = 1; j < n && strcmp(signurl_key_ids[j], ids[i]) != 0;
		    j++)
			;
		if (j == n)
			signurl_key_ids[n++] = xstrdup(ids[i]);
	}
	return (n);
}

/*
 * The form's keys: "server", this server and account's remembered keys,
 * then those remembered by id alone (before keys were kept per account),
 * which are only ever used when picked. Returns how many are this
 * server and account's.
 */
static size_t
signurl_keys_load(struct tui *t)
{
	struct streamsign_owner	 o;
	char			*state, *cause = NULL, **ids;
	size_t			 i, n = 0, own;

	for (i = 0; signurl_key_ids[i] != NULL; i++)
		free(signurl_key_ids[i]);
	memset(signurl_key_ids, 0, sizeof signurl_key_ids);
	signurl_key_ids[n++] = xstrdup(SIGNURL_SERVER);
	if ((state = edge_session_state_dir(&t->session, &cause)) == NULL) {
		free(cause);
		return (0);
	}
	signurl_owner(t, &o);
	ids = streamsign_key_list(state, &o);
	n = signurl_keys_add(ids, n);
	streamsign_key_list_free(ids);
	own = n - 1;
	ids = streamsign_key_list_old(state);
	signurl_keys_add(ids, n);
	streamsign_key_list_free(ids);
	free(state);
	return (own);
}

/* A URL the token opens: full, shown (token shortened), what y names. */
struct signurl_url {
	const char	*name;
	const char	*what;
	char		*url;
	char		*shown;
};

/*
 * The URLs the token opens, with the token in the uid's place: HLS, DASH,
 * thumbnail, player, and the MP4 download when the token allows it (the
 * download sits beside the HLS manifest). Returns how many.
 */
static size_t
signurl_urls(const cJSON *video, const char *uid, const char *token,
    const char *shortened, int downloadable,
    struct signurl_url out[SIGNURL_URLS])
{
	static const struct {
		const char	*name, *what, *field;
	} fields[] = {
		{ "HLS", "the HLS URL", "playback.hls" },
		{ "DASH", "the DASH URL", "playback.dash" },
		{ "thumbnail", "the thumbnail URL", "thumbnail" },
		{ "player", "the player URL", "preview" },
	};
	const cJSON	*u;
	char		*url;
	size_t		 i, n = 0;

	for (i = 0; i < nitems(fields); i++) {
		u = kind_json_get(video, fields[i].field);
		if (!cJSON_IsString(u) ||
		    (url = streamsign_url(u->valuestring, uid, token)) == NULL)
			continue;
		out[n].name = fields[i].name;
		out[n].what = fields[i].what;
		out[n].url = url;
		out[n].shown = streamsign_url(u->valuestring, uid, shortened);
		n++;
		if (i > 0 || !downloadable ||
		    (url = streamsign_download_url(out[n - 1].url)) == NULL)
			continue;
		/* Right after HLS, whose path it shares. */
		out[n].name = "download";
		out[n].what = "the MP4 download URL";
		out[n].url = url;
		out[n].shown = streamsign_download_url(out[n - 1].shown);
		n++;
	}
	return (n);
}

/*
 * The result: the URLs shown with the token shortened; y copies one of
 * them or the token alone (a picker), w saves them all.
 */
static void
signurl_show(struct tui *t, const cJSON *video, const char *uid,
    const char *token, long secs, int downloadable, const char *how)
{
	struct signurl_url	 urls[SIGNURL_URLS];
	struct buf		 shown, full;
	struct modal		*m;
	char			*shortened, *name;
	char			 copy[KEYMAP_KEY_NAME_MAX];
	char			 save[KEYMAP_KEY_NAME_MAX];
	size_t			 i, n;

	shortened = streamsign_token_short(token);
	n = signurl_urls(video, uid, token, shortened, downloadable, urls);
	buf_init(&shown);
	buf_init(&full);
	buf_addf(&shown, "Signed URLs for video %s, valid %ld min.\n%s.\n"
	    "The token is a bearer credential: it is shortened here.\n",
	    uid, (secs + 59) / 60, how);
	if (status_key_name(t, KEYMAP_TEXT, ACTION_COPY, copy) != NULL &&
	    status_key_name(t, KEYMAP_TEXT, ACTION_SAVE_FILE, save) != NULL)
		buf_addf(&shown, "%s copies a URL or the token (it asks "
		    "which), %s saves every URL to a file (0600).\n", copy,
		    save);
	buf_addf(&shown, "\n%-10s %s\n", "token", shortened);
	buf_addf(&full, "token %s\n", token);
	for (i = 0; i < n; i++) {
		buf_addf(&full, "%s %s\n", urls[i].name, urls[i].url);
		buf_addf(&shown, "%-10s %s\n", urls[i].name, urls[i].shown);
	}
	if (n == 0)
		buf_adds(&shown, "\nThe video is not ready: it has no playback "
		    "URLs yet.\n");
	/* The first URL (HLS) first: y Enter copies it. */
	m = textview_result("signed URLs", buf_str(&shown), n > 0 ?
	    urls[0].what : "the token", n > 0 ? urls[0].url : token, 0);
	for (i = 1; i < n; i++)
		textview_result_copy(m, urls[i].what, urls[i].url);
	if (n > 0)
		textview_result_copy(m, "the token", token);
	name = xprintf("~/signed-urls-%s.txt", uid);
	textview_result_file(m, "the URLs", buf_str(&full), name);
	tui_push(t, m);
	free(name);
	for (i = 0; i < n; i++) {
		explicit_bzero(urls[i].url, strlen(urls[i].url));
		free(urls[i].url);
		free(urls[i].shown);
	}
	explicit_bzero(full.data, full.len);
	buf_free(&full);
	buf_free(&shown);
	free(shortened);
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
	struct streamsign_owner	 o;
	char			*state, *pem;
	int64_t			 now = (int64_t)time(NULL);

	if ((state = edge_session_state_dir(&t->session, cause)) == NULL)
		return (-1);
	signurl_owner(t, &o);
	pem = streamsign_key_load(state, &o, kid, cause);
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
	cJSON		*body, *video, *data;
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
	/* What the answer is shown with: the video, and what was asked. */
	data = cJSON_CreateObject();
	if ((video = panel_current_record(p)) != NULL)
		cJSON_AddItemToObject(data, "video", video);
	cJSON_AddBoolToObject(data, "downloadable", downloadable);
	r = tui_submit(t, p, TUI_REQ_OTHER, "POST", tpath, body);
	if (r != NULL) {
		r->sub = SIGNURL_REQ;
		r->id = xstrdup(uid);
		r->data = data;
		r->count = (size_t)secs;
		r->modal = m;
	} else
		cJSON_Delete(data);
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
	signurl_show(t, video, id, token, secs, dl, how);
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
	size_t		 own;
	int		 i;

	if (uid == NULL)
		return;
	own = signurl_keys_load(p->tui);
	/* New, so that the defaults as they are can be sent. */
	f = form_new(&signurl_kind, NULL);
	/* This account's remembered key first: it spends no request. */
	if ((i = form_find(f, "key")) >= 0)
		form_set(f, (size_t)i, own > 0 ? signurl_key_ids[1] :
		    SIGNURL_SERVER);
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
	signurl_show(p->tui, cJSON_GetObjectItemCaseSensitive(r->data,
	    "video"), r->id, tok->valuestring, (long)r->count,
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r->data,
	    "downloadable")), "Signed by the server (the token call)");
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
	struct streamsign_owner	 o;
	char			*state, *path = NULL, *cause = NULL;

	if (strcmp(answer, "y") != 0)
		return;
	signurl_owner(t, &o);
	if ((state = edge_session_state_dir(&t->session, &cause)) == NULL ||
	    streamsign_key_save(state, &o, rm->id, rm->pem, &path,
	    &cause) != 0)
		tui_message(t, TUI_MSG_ERROR, "signing key %s not remembered: "
		    "%s", rm->id, cause);
	else
		tui_message(t, TUI_MSG_OK, "remembered signing key %s in %s "
		    "(0600): S on a video of this account signs with it here",
		    rm->id, path);
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
