/*
 * The token's own route (GET /user/tokens/verify): whether the token the
 * request carries is usable, as the API says it, without its permissions.
 * edgemu knows one token, which the server has checked before any route
 * runs: it is active, and its id is a hash of it (stable across restarts,
 * telling nothing of the token).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "server.h"

/* 16 bytes of SHA-256: 32 hex digits, as the API's token ids are. */
#define TOKENS_ID_BYTES		16

static void
tokens_id(const char *token, char *out, size_t size)
{
	unsigned char	md[EVP_MAX_MD_SIZE];
	unsigned int	len = 0;
	size_t		i;

	if (EVP_Digest(token, strlen(token), md, &len, EVP_sha256(),
	    NULL) != 1 || len < TOKENS_ID_BYTES) {
		snprintf(out, size, "%s", "");
		return;
	}
	for (i = 0; i < TOKENS_ID_BYTES && 2 * i + 2 < size; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
}

static void
tokens_verify(struct req *req, struct reply *rep)
{
	char	id[2 * TOKENS_ID_BYTES + 1];
	cJSON	*r;

	tokens_id(server_options(req->server)->token, id, sizeof id);
	r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "id", id);
	cJSON_AddStringToObject(r, "status", "active");
	reply_ok(rep, r);
}

static const struct route tokens_routes[] = {
	{ HTTP_GET, "/user/tokens/verify", tokens_verify, ROUTE_BODY_NONE },
};

const struct area tokens_area = {
	.name = "tokens",
	.routes = tokens_routes,
	.nroutes = nitems(tokens_routes),
};
