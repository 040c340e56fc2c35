/*
 * Signing keys: a new key's PEM and JWK are shown once, with copy and
 * save-to-file (the PEM as a PEM file, the JWK as JSON: the API sends both
 * in base64), and an offer to remember the key for signing URLs here
 * (signurl.c); deleting one warns that every URL signed with it stops
 * working.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "edit.h"
#include "signurl.h"
#include "tui.h"
#include "xmalloc.h"

/* The API's base64 decoded; as sent, with a note, when it is not base64. */
static char *
keys_decoded(const cJSON *v, const char *what, struct buf *notes)
{
	char	*text, *cause = NULL;

	if (!cJSON_IsString(v))
		return (NULL);
	if ((text = edit_base64_decode(v->valuestring, NULL, &cause)) ==
	    NULL) {
		buf_addf(notes, "The %s sent is %s: it is shown and saved as "
		    "sent.\n", what, cause);
		free(cause);
		return (xstrdup(v->valuestring));
	}
	return (text);
}

/* "~/signing-key-ID.pem", with only the id's safe characters. */
static char *
keys_file_name(const cJSON *id, const char *ext)
{
	struct buf	 b;
	const char	*s;

	buf_init(&b);
	buf_adds(&b, "~/signing-key");
	if (cJSON_IsString(id) && *id->valuestring != '\0') {
		buf_addc(&b, '-');
		for (s = id->valuestring; *s != '\0' && b.len < 80; s++)
			if (isalnum((unsigned char)*s) || *s == '-' ||
			    *s == '_')
				buf_addc(&b, *s);
	}
	buf_adds(&b, ext);
	return (buf_detach(&b, NULL));
}

static void
keys_show(struct panel *p, const cJSON *result)
{
	const cJSON	*id = cJSON_GetObjectItemCaseSensitive(result, "id");
	struct buf	 b, notes;
	struct modal	*m;
	char		*pem, *jwk, *name;
	char		 copy[KEYMAP_KEY_NAME_MAX], save[KEYMAP_KEY_NAME_MAX];

	buf_init(&notes);
	pem = keys_decoded(cJSON_GetObjectItemCaseSensitive(result, "pem"),
	    "PEM", &notes);
	jwk = keys_decoded(cJSON_GetObjectItemCaseSensitive(result, "jwk"),
	    "JWK", &notes);
	buf_init(&b);
	buf_addf(&b, "New signing key %s.\n\nThe private key is shown only "
	    "now", cJSON_IsString(id) ? id->valuestring : "?");
	if (status_key_name(p->tui, KEYMAP_TEXT, ACTION_COPY, copy) != NULL &&
	    status_key_name(p->tui, KEYMAP_TEXT, ACTION_SAVE_FILE,
	    save) != NULL)
		buf_addf(&b, ": %s copies the PEM,\n%s saves it to a file, "
		    "then %s again the JWK", copy, save, save);
	buf_addf(&b, ".\n%s\nPEM:\n%s\n\nJWK:\n%s\n", buf_str(&notes),
	    pem != NULL ? pem : "(none sent)",
	    jwk != NULL ? jwk : "(none sent)");
	m = textview_result("signing key (shown once)", buf_str(&b), "the PEM",
	    pem != NULL ? pem : "", 1);
	if (pem != NULL) {
		name = keys_file_name(id, ".pem");
		textview_result_file(m, "the PEM", pem, name);
		free(name);
	}
	if (jwk != NULL) {
		name = keys_file_name(id, ".jwk.json");
		textview_result_file(m, "the JWK", jwk, name);
		free(name);
	}
	tui_push(p->tui, m);
	signurl_offer_remember(p->tui, cJSON_IsString(id) ? id->valuestring :
	    NULL, pem);
	explicit_bzero(b.data, b.len);
	buf_free(&b);
	buf_free(&notes);
	if (pem != NULL) {
		explicit_bzero(pem, strlen(pem));
		free(pem);
	}
	if (jwk != NULL) {
		explicit_bzero(jwk, strlen(jwk));
		free(jwk);
	}
}

static int
keys_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*id;
	cJSON		*listed;

	if (r->type != TUI_REQ_CREATE || ev->kind != JOBS_EVENT_DONE)
		return (0);
	tui_journal(p->tui, r, ev->http_status, ev->result);
	id = cJSON_GetObjectItemCaseSensitive(ev->result, "id");
	/* The list keeps the key without its secrets. */
	listed = cJSON_Duplicate(ev->result, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(listed, "pem");
	cJSON_DeleteItemFromObjectCaseSensitive(listed, "jwk");
	rows_put(p->rows, listed);
	cJSON_Delete(listed);
	panel_after_change(p);
	keys_show(p, ev->result);
	tui_message(p->tui, TUI_MSG_OK, "created signing key %s",
	    cJSON_IsString(id) ? id->valuestring : "");
	return (1);
}

const struct panel_ops panel_signing_keys_ops = {
	.kind = "signing-keys",
	.delete_warning = "Every URL signed with it stops working.",
	.event = keys_event,
	.hints = (const struct panel_hint[]){
		{ ACTION_NEW, "new key (shown once)" },
		{ ACTION_DELETE, "delete (revokes its URLs)" },
		{ ACTION_NONE, NULL }
	},
};
