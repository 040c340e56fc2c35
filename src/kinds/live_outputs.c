/*
 * Live input outputs (simulcast), as data: the RTMP(S) and SRT destinations
 * one live input restreams to (api-map section 15). They belong to a live
 * input the way captions belong to a video: its id fills {video}, given
 * with --live-input.
 */
#include "config.h"

#include "kind.h"
#include "streamrules.h"
#include "validate.h"

#define OUTPUTS_PATH \
	"/accounts/{account}/stream/live_inputs/{video}/outputs"

/* What the service restreams to: RTMP, RTMPS or SRT. */
static void
live_outputs_check(struct validate_ctx *ctx)
{
	const cJSON	*v = validate_get(validate_body(ctx), "url");
	const char	*s;

	if (validate_failed(ctx, "url") || !cJSON_IsString(v))
		return;
	s = v->valuestring;
	if (streamrules_output_scheme(s) == 0)
		validate_add(ctx, "url", "must start with rtmp://, rtmps:// "
		    "or srt://");
}

static const struct kind_column live_outputs_columns[] = {
	{ .header = "URL", .path = "url", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "ENABLED", .path = "enabled", .width = 7,
	  .format = KIND_FMT_BOOL, .flags = KIND_COL_DEFAULT },
	{ .header = "STREAM KEY", .path = "streamKey", .width = 12,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "UID", .path = "uid", .width = 32,
	  .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const struct kind_field live_outputs_fields[] = {
	{ .path = "url", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY | KIND_F_CREATE,
	  .max_len = STREAMRULES_OUTPUT_URL_MAX,
	  .help = "Where to restream: rtmp://, rtmps:// or srt://",
	  .example = "rtmp://a.rtmp.youtube.com/live2" },
	{ .path = "streamKey", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY | KIND_F_SECRET |
	  KIND_F_CREATE, .max_len = STREAMRULES_OUTPUT_KEY_MAX,
	  .help = "The key the destination gave (secret)" },
	{ .path = "enabled", .type = KIND_TYPE_BOOL, .flags = KIND_F_NOTNULL,
	  .help = "Sent to while the input is live (default true)" },
	{ .path = "uid", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY,
	  .help = "Identifier of the output" },
	{ .path = NULL }
};

const struct kind kind_live_outputs = {
	.name = "live-outputs",
	.noun = "output",
	.label = "url",
	.aliases = "live-output outputs simulcast",
	.help = "Simulcast outputs of one live input (--live-input)",
	.scope = KIND_SCOPE_VIDEO,
	.parent = &kind_live_inputs,
	.list_path = OUTPUTS_PATH,
	.item_path = OUTPUTS_PATH "/{id}",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_SINGLE,
	.id_field = "uid",
	.verbs = KIND_VERB_LIST | KIND_VERB_CREATE | KIND_VERB_UPDATE |
	    KIND_VERB_DELETE,
	.create_body = KIND_BODY_JSON,
	.update_method = KIND_METHOD_PUT,
	.columns = live_outputs_columns,
	.fields = live_outputs_fields,
	.check = live_outputs_check,
};
