/*
 * token: a signed-URL token for a video and the URLs it opens (HLS, DASH,
 * thumbnail, player, download). Signed locally with a signing key (--pem
 * FILE, or a key remembered in the state directory for this server and
 * account) so that no API request is spent, else by the server's token
 * call. The key's PEM is only ever read from a file, and neither it nor
 * the token is logged.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "http.h"
#include "kind.h"
#include "log.h"
#include "streamsign.h"
#include "xmalloc.h"

#include "cli.h"

int
cli_token_option(struct cli_opts *o, const char *name, const char *arg)
{
	struct cli_token_opts	*t = &o->token;

	o->seen |= CLI_OPT_TOKEN;
	if (strcmp(name, "key-id") == 0)
		t->key_id = arg;
	else if (strcmp(name, "pem") == 0)
		t->pem_file = arg;
	else if (strcmp(name, "expires") == 0)
		t->expires = arg;
	else if (strcmp(name, "downloadable") == 0)
		t->downloadable = 1;
	else if (strcmp(name, "allow-ip") == 0) {
		if (t->nallow_ips == CLI_MAX_FILTERS)
			return (cli_usage_error("--allow-ip: at most %d",
			    CLI_MAX_FILTERS));
		t->allow_ips[t->nallow_ips++] = arg;
	} else {
		if (t->nblock_countries == CLI_MAX_FILTERS)
			return (cli_usage_error("--block-country: at most %d",
			    CLI_MAX_FILTERS));
		t->block_countries[t->nblock_countries++] = arg;
	}
	return (0);
}

/*
 * The id of the key remembered for this server and account when it is
 * the only one (allocated); NULL for none, or several (said on stderr).
 */
static char *
cli_token_only_key(const char *state, const struct streamsign_owner *o)
{
	char	**ids, *kid;
	size_t	  n;

	ids = streamsign_key_list(state, o);
	for (n = 0; ids[n] != NULL; n++)
		;
	kid = n == 1 ? xstrdup(ids[0]) : NULL;
	if (n > 1)
		fprintf(stderr, "edgetui: %zu signing keys are remembered for "
		    "this server and account: --key-id picks one; the server "
		    "signs this token\n", n);
	streamsign_key_list_free(ids);
	return (kid);
}

/*
 * The private key to sign with, and its id: --pem FILE with --key-id, the
 * remembered key --key-id names, else the only key remembered for this
 * server and account, or none (*pem NULL: ask the server). Keys are kept
 * per server and account, so a key of another account, which would make
 * a token that opens nothing, is never taken; *implicit says it was not
 * named. Returns 0 or the exit status after the message.
 */
static int
cli_token_key(struct cli *c, char **pem, size_t *len, char **kid,
    int *implicit)
{
	const struct cli_token_opts	*t = &c->o->token;
	struct streamsign_owner		 o;
	char				*state, *cause = NULL;
	int				 rv;

	*pem = *kid = NULL;
	*implicit = 0;
	if (t->pem_file != NULL) {
		if (t->key_id == NULL)
			return (cli_usage_error("token: --pem needs --key-id "
			    "(the signing key's id)"));
		if ((*pem = cli_read_text(t->pem_file, len, &cause)) == NULL) {
			rv = cli_error(HTTP_EXIT_USAGE, "token: %s", cause);
			free(cause);
			return (rv);
		}
		*kid = xstrdup(t->key_id);
		return (0);
	}
	if ((state = edge_session_state_dir(&c->session, &cause)) == NULL) {
		if (t->key_id == NULL) {
			/* Nothing remembered can be read: the server signs. */
			free(cause);
			return (0);
		}
		rv = cli_error(HTTP_EXIT_USAGE, "token: %s", cause);
		free(cause);
		return (rv);
	}
	memset(&o, 0, sizeof o);
	o.base_url = c->session.base_url;
	o.account = c->session.scope.account;
	if (t->key_id != NULL)
		*kid = xstrdup(t->key_id);
	else {
		*kid = cli_token_only_key(state, &o);
		*implicit = *kid != NULL;
	}
	if (*kid == NULL) {
		free(state);
		return (0);
	}
	*pem = streamsign_key_load(state, &o, *kid, &cause);
	free(state);
	if (*pem == NULL) {
		rv = cli_error(HTTP_EXIT_USAGE, "token: %s; give --pem FILE",
		    cause);
		free(cause);
		free(*kid);
		*kid = NULL;
		return (rv);
	}
	*len = strlen(*pem);
	return (0);
}

/* The server's token for the video at path (ID/token); NULL after a message. */
static char *
cli_token_server(struct cli *c, const char *path, int64_t exp,
    const cJSON *rules, int *rv)
{
	struct http_response	 resp;
	const cJSON		*tok;
	cJSON			*body;
	char			*tpath, *token = NULL;

	body = cJSON_CreateObject();
	cJSON_AddNumberToObject(body, "exp", (double)exp);
	cJSON_AddBoolToObject(body, "downloadable", c->o->token.downloadable);
	if (rules != NULL)
		cJSON_AddItemToObject(body, "accessRules",
		    cJSON_Duplicate(rules, 1));
	tpath = xprintf("%s/token", path);
	if ((*rv = cli_send_json(c, "POST", tpath, body, &resp)) == 0) {
		tok = cJSON_GetObjectItemCaseSensitive(resp.api.result,
		    "token");
		if (cJSON_IsString(tok) && *tok->valuestring != '\0')
			token = xstrdup(tok->valuestring);
		else
			*rv = cli_error(HTTP_EXIT_REFUSED, "token: the server "
			    "answered without a token");
	}
	http_response_free(&resp);
	cJSON_Delete(body);
	free(tpath);
	return (token);
}

/* One of the video's URLs with the token in the uid's place, into o. */
static void
cli_token_url(cJSON *o, const char *name, const cJSON *video,
    const char *field, const char *uid, const char *token)
{
	const cJSON	*u = kind_json_get(video, field);
	char		*url;

	if (!cJSON_IsString(u) ||
	    (url = streamsign_url(u->valuestring, uid, token)) == NULL)
		return;
	cJSON_AddStringToObject(o, name, url);
	free(url);
}

static void
cli_token_print(struct cli *c, const cJSON *video, const char *uid,
    const char *token, int64_t exp, const char *how)
{
	const cJSON	*v;
	cJSON		*o = cJSON_CreateObject();
	char		*dl;

	cJSON_AddStringToObject(o, "token", token);
	cJSON_AddNumberToObject(o, "exp", (double)exp);
	cJSON_AddStringToObject(o, "signed", how);
	cli_token_url(o, "hls", video, "playback.hls", uid, token);
	cli_token_url(o, "dash", video, "playback.dash", uid, token);
	cli_token_url(o, "thumbnail", video, "thumbnail", uid, token);
	cli_token_url(o, "player", video, "preview", uid, token);
	/* The MP4 download sits beside the manifests. */
	v = cJSON_GetObjectItemCaseSensitive(o, "hls");
	if (c->o->token.downloadable && cJSON_IsString(v) &&
	    (dl = streamsign_download_url(v->valuestring)) != NULL) {
		cJSON_AddStringToObject(o, "download", dl);
		free(dl);
	}
	if (c->out == CLI_OUT_JSON)
		cli_print_json(o);
	else if (c->out == CLI_OUT_YAML)
		cli_print_yaml(o);
	else {
		for (v = o->child; v != NULL; v = v->next) {
			if (cJSON_IsString(v))
				printf("%-10s %s\n", v->string, v->valuestring);
			else
				printf("%-10s %.0f\n", v->string,
				    v->valuedouble);
		}
	}
	fflush(stdout);
	cJSON_Delete(o);
}

int
cli_cmd_token(struct cli *c, const struct kind *unused_k, int argc,
    char **argv)
{
	const struct cli_token_opts	*t = &c->o->token;
	const struct kind		*vk = kind_find("videos");
	struct streamsign		 s;
	const cJSON			*ready;
	cJSON				*rules = NULL, *video = NULL;
	char				*path = NULL, *cause = NULL;
	char				*pem = NULL, *kid = NULL, *token = NULL;
	size_t				 len = 0;
	int64_t				 now = (int64_t)time(NULL);
	long				 secs = STREAMSIGN_EXP_DEFAULT;
	int				 rv = 0, implicit = 0;

	(void)unused_k;
	if (argc != 2)
		return (cli_usage_error("usage: edgetui %s",
		    cli_command_find("token")->synopsis));
	if (kind_id_check(vk, argv[1], &cause) != 0 ||
	    (t->expires != NULL &&
	    (secs = streamsign_duration(t->expires, &cause)) < 0)) {
		rv = cli_usage_error("token: %s", cause);
		free(cause);
		return (rv);
	}
	rules = streamsign_rules(t->allow_ips, t->nallow_ips,
	    t->block_countries, t->nblock_countries, &cause);
	if (rules == NULL && cause != NULL) {
		rv = cli_usage_error("token: %s", cause);
		free(cause);
		return (rv);
	}
	if ((path = cli_item_path(c, vk, argv[1], &rv)) == NULL ||
	    (rv = cli_token_key(c, &pem, &len, &kid, &implicit)) != 0 ||
	    (rv = cli_connect(c)) != 0 ||
	    (rv = cli_fetch(c, vk, path, &video)) != 0)
		goto out;
	ready = cJSON_GetObjectItemCaseSensitive(video, "readyToStream");
	if (!cJSON_IsTrue(ready))
		log_warn("token: video %s is not ready to stream yet: it has "
		    "no playback URLs", argv[1]);
	if (pem != NULL) {
		memset(&s, 0, sizeof s);
		s.video = argv[1];
		s.key_id = kid;
		s.exp = now + secs;
		s.nbf = now - STREAMSIGN_NBF_BEFORE;
		s.downloadable = t->downloadable;
		s.access_rules = rules;
		token = streamsign_token(pem, len, &s, &cause);
		if (token == NULL) {
			rv = cli_error(HTTP_EXIT_USAGE, "token: %s", cause);
			free(cause);
			goto out;
		}
	} else if ((token = cli_token_server(c, path, now + secs, rules,
	    &rv)) == NULL)
		goto out;
	cli_token_print(c, video, argv[1], token, now + secs, pem != NULL ?
	    "locally" : "server");
	if (pem != NULL && t->pem_file == NULL)
		fprintf(stderr, "edgetui: signed locally with key ID %s (%s)\n",
		    kid, implicit ? "the one signing key remembered for this "
		    "server and account" : "remembered");
out:
	if (pem != NULL) {
		explicit_bzero(pem, len);
		free(pem);
	}
	if (token != NULL) {
		explicit_bzero(token, strlen(token));
		free(token);
	}
	free(kid);
	free(path);
	cJSON_Delete(rules);
	cJSON_Delete(video);
	return (rv);
}

void
cli_token_remember(struct cli *c, const struct kind *k, const cJSON *rec)
{
	struct streamsign_owner	 o;
	const cJSON		*id, *pem64;
	char			*state = NULL, *pem, *path = NULL;
	char			*cause = NULL;

	if (strcmp(k->name, "signing-keys") != 0)
		return;
	memset(&o, 0, sizeof o);
	o.base_url = c->session.base_url;
	o.account = c->session.scope.account;
	id = cJSON_GetObjectItemCaseSensitive(rec, "id");
	pem64 = cJSON_GetObjectItemCaseSensitive(rec, "pem");
	if (!cJSON_IsString(id) || !cJSON_IsString(pem64))
		return;
	if ((pem = streamsign_pem(pem64->valuestring,
	    strlen(pem64->valuestring), &cause)) == NULL ||
	    (state = edge_session_state_dir(&c->session, &cause)) == NULL ||
	    streamsign_key_save(state, &o, id->valuestring, pem, &path,
	    &cause) != 0) {
		log_warn("signing key %s: the private key was not saved: %s",
		    id->valuestring, cause);
		free(cause);
	} else
		fprintf(stderr, "edgetui: saved the private key as a PEM file, "
		    "%s (mode 0600): 'edgetui token' signs with it locally for "
		    "this server and account\n", path);
	if (pem != NULL) {
		explicit_bzero(pem, strlen(pem));
		free(pem);
	}
	free(state);
	free(path);
}
