/*
 * Signing keys: a new key's PEM and JWK are shown once, with copy and
 * save-to-file; deleting one warns that every URL signed with it stops
 * working.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "xmalloc.h"

static int
keys_event(struct panel *p, struct tui_req *r, struct jobs_event *ev)
{
	const cJSON	*pem, *jwk, *id;
	cJSON		*listed;
	struct buf	 b;

	if (r->type != TUI_REQ_CREATE || ev->kind != JOBS_EVENT_DONE)
		return (0);
	tui_journal(p->tui, r, ev->http_status, ev->result);
	pem = cJSON_GetObjectItemCaseSensitive(ev->result, "pem");
	jwk = cJSON_GetObjectItemCaseSensitive(ev->result, "jwk");
	id = cJSON_GetObjectItemCaseSensitive(ev->result, "id");
	/* The list keeps the key without its secrets. */
	listed = cJSON_Duplicate(ev->result, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(listed, "pem");
	cJSON_DeleteItemFromObjectCaseSensitive(listed, "jwk");
	rows_put(p->rows, listed);
	cJSON_Delete(listed);
	panel_after_change(p);
	buf_init(&b);
	buf_addf(&b, "New signing key %s.\n\nThe private key is shown only "
	    "now: copy it (y) or save it (w).\n\nPEM (base64):\n%s\n\nJWK "
	    "(base64):\n%s\n", cJSON_IsString(id) ? id->valuestring : "?",
	    cJSON_IsString(pem) ? pem->valuestring : "(none sent)",
	    cJSON_IsString(jwk) ? jwk->valuestring : "(none sent)");
	tui_push(p->tui, textview_result("signing key (shown once)",
	    buf_str(&b), "the PEM", cJSON_IsString(pem) ? pem->valuestring :
	    "", 1));
	explicit_bzero(b.data, b.len);
	buf_free(&b);
	tui_message(p->tui, TUI_MSG_OK, "created signing key %s",
	    cJSON_IsString(id) ? id->valuestring : "");
	return (1);
}

const struct panel_ops panel_signing_keys_ops = {
	.kind = "signing-keys",
	.delete_warning = "Every URL signed with it stops working.",
	.event = keys_event,
	.hints = "n new key (shown once)  d delete (revokes its URLs)",
};
