/*
 * The embed snippet of a Stream video (GET /stream/{id}/embed): the HTML
 * fragment a page includes to play it, served as text/html without the
 * API envelope; failures (no such video) are JSON as everywhere else.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "stream.h"
#include "util.h"
#include "xmalloc.h"

static void
embed_get(struct req *req, struct reply *rep)
{
	const char	*uid = req_param(req, "identifier");
	cJSON		*v;
	char		*html;

	switch (video_lookup(req->store, req_param(req, "account"), uid, &v)) {
	case 1:
		break;
	case 0:
		reply_error(rep, 404, ERR_NOT_FOUND, "video %s was not found",
		    uid);
		return;
	default:
		reply_store_error(req, rep);
		return;
	}
	cJSON_Delete(v);
	html = xprintf("<stream src=\"%s\"></stream>"
	    "<script data-cfasync=\"false\" defer type=\"text/javascript\" "
	    "src=\"https://embed.cloudflarestream.com/embed/sdk.latest.js\">"
	    "</script>", uid);
	reply_raw(rep, 200, html, strlen(html), "text/html; charset=utf-8");
	free(html);
}

static const struct route embed_routes[] = {
	{ HTTP_GET, STREAM_ACCOUNT "/stream/{identifier:hex32}/embed",
	    embed_get, ROUTE_BODY_NONE },
};

const struct area embed_area = {
	.name = "embed",
	.routes = embed_routes,
	.nroutes = nitems(embed_routes),
};
