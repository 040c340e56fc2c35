/*
 * Stream (video) kinds, as data: videos, live inputs, watermarks, captions,
 * audio tracks, the webhook, signing keys, MP4 downloads, storage usage and
 * direct uploads (api-map section 5 and the spec).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kind.h"
#include "streamrules.h"
#include "validate.h"

#define STREAM_ACCOUNT	"/accounts/{account}/stream"
#define STREAM_VIDEO	STREAM_ACCOUNT "/{video}"

static const char *const stream_live_statuses[] = {
	"connected", "reconnected", "reconnecting", "client_disconnect",
	"ttl_exceeded", "failed_to_connect", "failed_to_reconnect",
	"new_configuration_accepted", NULL
};
static const char *const stream_track_states[] = {
	"queued", "ready", "error", NULL
};
static const char *const stream_download_states[] = {
	"inprogress", "ready", "error", NULL
};
static const char *const stream_caption_states[] = {
	"ready", "inprogress", "error", NULL
};

/*
 * scheduledDeletion must fall in streamrules' window after the video's
 * creation: "now" for a direct upload, the record's created time on an
 * edit.
 */
static void
stream_check_deletion(struct validate_ctx *ctx, int64_t from,
    const char *from_text)
{
	const cJSON	*v = validate_get(validate_body(ctx),
			    "scheduledDeletion");
	int64_t		 when;

	if (validate_failed(ctx, "scheduledDeletion") || !cJSON_IsString(v) ||
	    kind_parse_time(v->valuestring, &when) != 0)
		return;
	if (!streamrules_deletion_ok(when * STREAMRULES_US,
	    from * STREAMRULES_US))
		validate_add(ctx, "scheduledDeletion", "must be %d to %d days "
		    "after %s", STREAMRULES_DELETION_DAYS_MIN,
		    STREAMRULES_DELETION_DAYS_MAX, from_text);
}

/* ---- videos ------------------------------------------------------------- */

static void
videos_check(struct validate_ctx *ctx)
{
	const cJSON	*created = validate_get(validate_body(ctx), "created");
	int64_t		 t;

	if (cJSON_IsString(created) &&
	    kind_parse_time(created->valuestring, &t) == 0)
		stream_check_deletion(ctx, t, "the video was created");
}

static const struct kind_column videos_columns[] = {
	{ .header = "NAME", .path = "meta.name", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "STATE", .path = "status.state", .width = 13,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "PCT", .path = "status.pctComplete", .width = 4,
	  .format = KIND_FMT_PCT,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "DURATION", .path = "duration", .width = 8,
	  .format = KIND_FMT_DURATION,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "SIZE", .path = "size", .width = 8,
	  .format = KIND_FMT_BYTES,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "CREATED", .path = "created", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "CREATOR", .path = "creator", .width = 16,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "UID", .path = "uid", .width = 32 },
	{ .header = "MODIFIED", .path = "modified", .width = 16,
	  .format = KIND_FMT_TIME },
	{ .header = "READY", .path = "readyToStream", .width = 5,
	  .format = KIND_FMT_BOOL },
	{ .header = "SIGNED", .path = "requireSignedURLs", .width = 6,
	  .format = KIND_FMT_BOOL },
	{ .header = "ORIGINS", .path = "allowedOrigins", .width = 20,
	  .format = KIND_FMT_LIST },
	{ .header = "ERROR", .path = "status.errorReasonCode", .width = 20 },
	{ .header = NULL }
};

static const struct kind_field videos_fields[] = {
	{ .path = "uid", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY,
	  .help = "Identifier of the video" },
	{ .path = "meta", .type = KIND_TYPE_MAP,
	  .help = "Your own key/value data; meta.name is the name" },
	{ .path = "meta.name", .type = KIND_TYPE_STRING,
	  .help = "Name shown in lists; what search matches" },
	{ .path = "creator", .type = KIND_TYPE_STRING,
	  .max_len = STREAMRULES_CREATOR_MAX,
	  .help = "Your identifier for the media's creator" },
	{ .path = "allowedOrigins", .type = KIND_TYPE_STRINGS,
	  .check = KIND_CHECK_ORIGIN,
	  .help = "Domains allowed to embed it (*.example.com); empty: any" },
	{ .path = "requireSignedURLs", .type = KIND_TYPE_BOOL,
	  .flags = KIND_F_NOTNULL,
	  .help = "Playback needs a signed token" },
	{ .path = "maxDurationSeconds", .type = KIND_TYPE_INT,
	  KIND_RANGE(1, STREAMRULES_DURATION_MAX),
	  .help = "Longest upload accepted, in seconds (not yet uploaded)" },
	{ .path = "thumbnailTimestampPct", .type = KIND_TYPE_NUMBER,
	  KIND_RANGE(0, 1),
	  .help = "Thumbnail position as a fraction of the duration" },
	{ .path = "scheduledDeletion", .type = KIND_TYPE_TIME,
	  .help = "When it is deleted (30 to 1096 days out); null: never" },
	{ .path = "uploadExpiry", .type = KIND_TYPE_TIME,
	  .help = "When a direct upload URL stops working" },
	{ .path = "created", .type = KIND_TYPE_TIME, .flags = KIND_F_READONLY,
	  .help = "When the video was created" },
	{ .path = "modified", .type = KIND_TYPE_TIME, .flags = KIND_F_READONLY,
	  .help = "When it last changed" },
	{ .path = "uploaded", .type = KIND_TYPE_TIME, .flags = KIND_F_READONLY,
	  .help = "When the upload finished" },
	{ .path = "size", .type = KIND_TYPE_NUMBER, .flags = KIND_F_READONLY,
	  .help = "Size in bytes" },
	{ .path = "duration", .type = KIND_TYPE_NUMBER,
	  .flags = KIND_F_READONLY,
	  .help = "Duration in seconds; -1 while unknown" },
	{ .path = "status", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "Processing status" },
	{ .path = "status.state", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_READONLY, .values = streamrules_video_states,
	  .help = "Processing state of every quality level" },
	{ .path = "status.pctComplete", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY,
	  .help = "Processing progress, 0 to 100 (a string)" },
	{ .path = "status.errorReasonCode", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "Why encoding failed (a code)" },
	{ .path = "status.errorReasonText", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "Why encoding failed" },
	{ .path = "readyToStream", .type = KIND_TYPE_BOOL,
	  .flags = KIND_F_READONLY, .help = "Whether it can be played" },
	{ .path = "readyToStreamAt", .type = KIND_TYPE_TIME,
	  .flags = KIND_F_READONLY, .help = "When it became playable" },
	{ .path = "thumbnail", .type = KIND_TYPE_URI, .flags = KIND_F_READONLY,
	  .help = "Thumbnail image URL" },
	{ .path = "preview", .type = KIND_TYPE_URI, .flags = KIND_F_READONLY,
	  .help = "Preview page URL" },
	{ .path = "playback", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "Manifest URLs" },
	{ .path = "playback.hls", .type = KIND_TYPE_URI,
	  .flags = KIND_F_READONLY, .help = "HLS manifest" },
	{ .path = "playback.dash", .type = KIND_TYPE_URI,
	  .flags = KIND_F_READONLY, .help = "DASH manifest" },
	{ .path = "input", .type = KIND_TYPE_OBJECT, .flags = KIND_F_READONLY,
	  .help = "Dimensions of the upload" },
	{ .path = "input.width", .type = KIND_TYPE_INT,
	  .flags = KIND_F_READONLY, .help = "Width in pixels; -1 unknown" },
	{ .path = "input.height", .type = KIND_TYPE_INT,
	  .flags = KIND_F_READONLY, .help = "Height in pixels; -1 unknown" },
	{ .path = "liveInput", .type = KIND_TYPE_HEX32,
	  .flags = KIND_F_READONLY, .help = "Live input that recorded it" },
	{ .path = "watermark", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "Watermark profile applied" },
	{ .path = "watermark.uid", .type = KIND_TYPE_HEX32,
	  .flags = KIND_F_READONLY, .help = "Watermark profile id" },
	{ .path = NULL }
};

static const struct kind_filter videos_filters[] = {
	{ .name = "search", .type = KIND_TYPE_STRING,
	  .flags = KIND_FILTER_TEXT, .help = "Text in meta.name" },
	{ .name = "creator", .type = KIND_TYPE_STRING,
	  .help = "Creator identifier" },
	{ .name = "status", .type = KIND_TYPE_ENUM,
	  .values = streamrules_video_states, .help = "Processing state" },
	{ .name = "type", .type = KIND_TYPE_ENUM,
	  .values = streamrules_video_types, .help = "vod or live" },
	{ .name = "start", .type = KIND_TYPE_TIME, .help = "Created after" },
	{ .name = "end", .type = KIND_TYPE_TIME, .help = "Created before" },
	{ .name = "asc", .type = KIND_TYPE_BOOL, .help = "Oldest first" },
	{ .name = NULL }
};

const struct kind kind_videos = {
	.name = "videos",
	.noun = "video",
	.label = "meta.name",
	.aliases = "video vid",
	.help = "Stream videos: uploads and recordings, their processing "
	    "and playback",
	.scope = KIND_SCOPE_ACCOUNT,
	.list_path = STREAM_ACCOUNT,
	.item_path = STREAM_ACCOUNT "/{id}",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_CREATED,
	.per_page = { .min = 1, .max = STREAMRULES_LIST_MAX,
	    .def = STREAMRULES_LIST_MAX },
	.lazy = 1,
	.id_field = "uid",
	.verbs = KIND_VERB_LIST | KIND_VERB_GET | KIND_VERB_UPDATE |
	    KIND_VERB_DELETE | KIND_VERB_UPLOAD,
	.create_body = KIND_BODY_NONE,
	.update_method = KIND_METHOD_POST,
	.columns = videos_columns,
	.fields = videos_fields,
	.filters = videos_filters,
	.check = videos_check,
};

/* ---- live inputs -------------------------------------------------------- */

static const struct kind_column live_columns[] = {
	{ .header = "NAME", .path = "meta.name", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	/* The connection: null until an encoder first connects. */
	{ .header = "STATUS", .path = "status", .width = 14,
	  .none = "not connected", .flags = KIND_COL_DEFAULT },
	{ .header = "UID", .path = "uid", .width = 32,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "CREATED", .path = "created", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "MODIFIED", .path = "modified", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "KEEP DAYS", .path = "deleteRecordingAfterDays",
	  .width = 9, .format = KIND_FMT_NUMBER,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "RECORDING", .path = "recording.mode", .width = 9 },
	{ .header = "CREATOR", .path = "defaultCreator", .width = 16 },
	{ .header = NULL }
};

static const struct kind_field live_fields[] = {
	{ .path = "uid", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY,
	  .help = "Identifier of the live input" },
	{ .path = "created", .type = KIND_TYPE_TIME, .flags = KIND_F_READONLY,
	  .help = "When it was created" },
	{ .path = "modified", .type = KIND_TYPE_TIME, .flags = KIND_F_READONLY,
	  .help = "When it last changed" },
	{ .path = "meta", .type = KIND_TYPE_MAP,
	  .help = "Your own key/value data; meta.name is the name" },
	{ .path = "meta.name", .type = KIND_TYPE_STRING,
	  .help = "Name shown in lists" },
	{ .path = "defaultCreator", .type = KIND_TYPE_STRING,
	  .max_len = STREAMRULES_CREATOR_MAX,
	  .help = "Creator id given to its recordings" },
	{ .path = "deleteRecordingAfterDays", .type = KIND_TYPE_INT,
	  KIND_AT_LEAST(STREAMRULES_LIVE_DELETE_DAYS_MIN),
	  .help = "Days before recordings are deleted (at least 30)" },
	{ .path = "recording", .type = KIND_TYPE_OBJECT,
	  .help = "Whether and how the input is recorded" },
	{ .path = "recording.mode", .type = KIND_TYPE_ENUM,
	  .values = streamrules_recording_modes,
	  .help = "off, or automatic to record every broadcast" },
	{ .path = "recording.requireSignedURLs", .type = KIND_TYPE_BOOL,
	  .help = "Recordings need signed URLs" },
	{ .path = "recording.allowedOrigins", .type = KIND_TYPE_STRINGS,
	  .check = KIND_CHECK_ORIGIN,
	  .help = "Domains allowed to embed the recordings" },
	{ .path = "recording.timeoutSeconds", .type = KIND_TYPE_INT,
	  KIND_RANGE(0, STREAMRULES_LIVE_TIMEOUT_MAX),
	  .help = "Seconds to wait for a reconnect before ending a recording" },
	{ .path = "status", .type = KIND_TYPE_ENUM, .flags = KIND_F_READONLY,
	  .values = stream_live_statuses, .help = "Connection status" },
	{ .path = "rtmps", .type = KIND_TYPE_OBJECT, .flags = KIND_F_READONLY,
	  .help = "RTMPS ingest" },
	{ .path = "rtmps.url", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "RTMPS ingest URL" },
	{ .path = "rtmps.streamKey", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY | KIND_F_SECRET,
	  .help = "RTMPS stream key (secret)" },
	{ .path = "rtmpsPlayback", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "RTMPS playback" },
	{ .path = "rtmpsPlayback.url", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "RTMPS playback URL" },
	{ .path = "rtmpsPlayback.streamKey", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY | KIND_F_SECRET,
	  .help = "RTMPS playback key (secret)" },
	{ .path = "srt", .type = KIND_TYPE_OBJECT, .flags = KIND_F_READONLY,
	  .help = "SRT ingest" },
	{ .path = "srt.url", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "SRT ingest URL" },
	{ .path = "srt.streamId", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "SRT stream id" },
	{ .path = "srt.passphrase", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY | KIND_F_SECRET,
	  .help = "SRT passphrase (secret)" },
	{ .path = "srtPlayback", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "SRT playback" },
	{ .path = "srtPlayback.url", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "SRT playback URL" },
	{ .path = "srtPlayback.streamId", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "SRT playback stream id" },
	{ .path = "srtPlayback.passphrase", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY | KIND_F_SECRET,
	  .help = "SRT playback passphrase (secret)" },
	{ .path = "webRTC", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "WebRTC ingest" },
	{ .path = "webRTC.url", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY | KIND_F_SECRET,
	  .help = "WebRTC (WHIP) ingest URL; it holds the key (secret)" },
	{ .path = "webRTCPlayback", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "WebRTC playback" },
	{ .path = "webRTCPlayback.url", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "WebRTC (WHEP) playback URL" },
	{ .path = NULL }
};

const struct kind kind_live_inputs = {
	.name = "live-inputs",
	.noun = "live input",
	.label = "meta.name",
	.aliases = "live-input live li",
	.help = "Stream live inputs: RTMPS, SRT and WebRTC ingest points",
	.scope = KIND_SCOPE_ACCOUNT,
	.list_path = STREAM_ACCOUNT "/live_inputs",
	.item_path = STREAM_ACCOUNT "/live_inputs/{id}",
	.shape = KIND_SHAPE_WRAPPED,
	.list_key = "liveInputs",
	.paging = PAGER_SINGLE,
	.id_field = "uid",
	.verbs = KIND_VERB_LIST | KIND_VERB_GET | KIND_VERB_CREATE |
	    KIND_VERB_UPDATE | KIND_VERB_DELETE,
	.create_body = KIND_BODY_JSON,
	.update_method = KIND_METHOD_PUT,
	.columns = live_columns,
	.fields = live_fields,
};

/* ---- watermarks --------------------------------------------------------- */

static const struct kind_column watermarks_columns[] = {
	{ .header = "NAME", .path = "name", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "POSITION", .path = "position", .width = 10,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "OPACITY", .path = "opacity", .width = 7,
	  .format = KIND_FMT_NUMBER,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "SCALE", .path = "scale", .width = 5,
	  .format = KIND_FMT_NUMBER,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "PADDING", .path = "padding", .width = 7,
	  .format = KIND_FMT_NUMBER,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "SIZE", .path = "size", .width = 8,
	  .format = KIND_FMT_BYTES,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "CREATED", .path = "created", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "UID", .path = "uid", .width = 32 },
	{ .header = "WIDTH", .path = "width", .width = 5,
	  .format = KIND_FMT_NUMBER, .flags = KIND_COL_RIGHT },
	{ .header = "HEIGHT", .path = "height", .width = 6,
	  .format = KIND_FMT_NUMBER, .flags = KIND_COL_RIGHT },
	{ .header = NULL }
};

static const struct kind_field watermarks_fields[] = {
	{ .path = "file", .type = KIND_TYPE_FILE,
	  .flags = KIND_F_REQUIRED | KIND_F_CREATE,
	  .help = "The image to upload (PNG, JPEG, GIF or WebP)" },
	{ .path = "name", .type = KIND_TYPE_STRING,
	  .max_len = STREAMRULES_WATERMARK_NAME_MAX,
	  .help = "A short description of the profile",
	  .option = "name" },
	{ .path = "opacity", .type = KIND_TYPE_NUMBER, KIND_RANGE(0, 1),
	  .help = "0 transparent to 1 opaque (default 1)",
	  .option = "opacity" },
	{ .path = "padding", .type = KIND_TYPE_NUMBER, KIND_RANGE(0, 1),
	  .help = "Space to the video's edges, as a fraction (default 0.05)",
	  .option = "padding" },
	{ .path = "scale", .type = KIND_TYPE_NUMBER, KIND_RANGE(0, 1),
	  .help = "Size relative to the video (default 0.15)",
	  .option = "scale" },
	{ .path = "position", .type = KIND_TYPE_ENUM,
	  .values = streamrules_positions,
	  .help = "Where the image goes (default upperRight)",
	  .option = "position" },
	{ .path = "uid", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY,
	  .help = "Identifier of the profile" },
	{ .path = "created", .type = KIND_TYPE_TIME, .flags = KIND_F_READONLY,
	  .help = "When it was created" },
	{ .path = "size", .type = KIND_TYPE_NUMBER, .flags = KIND_F_READONLY,
	  .help = "Image size in bytes" },
	{ .path = "width", .type = KIND_TYPE_INT, .flags = KIND_F_READONLY,
	  .help = "Image width in pixels" },
	{ .path = "height", .type = KIND_TYPE_INT, .flags = KIND_F_READONLY,
	  .help = "Image height in pixels" },
	{ .path = "downloadedFrom", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "Source URL of a fetched image" },
	{ .path = NULL }
};

const struct kind kind_watermarks = {
	.name = "watermarks",
	.noun = "watermark",
	.label = "name",
	.aliases = "watermark wm",
	.help = "Stream watermark profiles: an image laid over new videos",
	.scope = KIND_SCOPE_ACCOUNT,
	.list_path = STREAM_ACCOUNT "/watermarks",
	.item_path = STREAM_ACCOUNT "/watermarks/{id}",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_SINGLE,
	.id_field = "uid",
	.verbs = KIND_VERB_LIST | KIND_VERB_GET | KIND_VERB_CREATE |
	    KIND_VERB_DELETE,
	.create_body = KIND_BODY_MULTIPART,
	.columns = watermarks_columns,
	.fields = watermarks_fields,
};

/* ---- captions ----------------------------------------------------------- */

static const struct kind_column captions_columns[] = {
	{ .header = "LANGUAGE", .path = "language", .width = 12,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "LABEL", .path = "label", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "STATUS", .path = "status", .width = 10,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "GENERATED", .path = "generated", .width = 9,
	  .format = KIND_FMT_BOOL, .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const struct kind_field captions_fields[] = {
	{ .path = "language", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "Language tag (BCP 47)" },
	{ .path = "label", .type = KIND_TYPE_STRING, .flags = KIND_F_READONLY,
	  .help = "The language's name in that language" },
	{ .path = "generated", .type = KIND_TYPE_BOOL,
	  .flags = KIND_F_READONLY, .help = "Made by speech recognition" },
	{ .path = "status", .type = KIND_TYPE_ENUM, .flags = KIND_F_READONLY,
	  .values = stream_caption_states,
	  .help = "inprogress while being generated" },
	{ .path = NULL }
};

const struct kind kind_captions = {
	.name = "captions",
	.noun = "caption",
	.label = "label",
	.aliases = "caption subtitles",
	.help = "Captions and subtitles of one video (--video)",
	.scope = KIND_SCOPE_VIDEO,
	.list_path = STREAM_VIDEO "/captions",
	.item_path = STREAM_VIDEO "/captions/{id}",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_SINGLE,
	.id_field = "language",
	.verbs = KIND_VERB_LIST | KIND_VERB_GET | KIND_VERB_DELETE,
	.columns = captions_columns,
	.fields = captions_fields,
};

/* ---- audio tracks ------------------------------------------------------- */

static const struct kind_column audio_columns[] = {
	{ .header = "LABEL", .path = "label", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "DEFAULT", .path = "default", .width = 7,
	  .format = KIND_FMT_BOOL, .flags = KIND_COL_DEFAULT },
	{ .header = "STATUS", .path = "status", .width = 7,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "UID", .path = "uid", .width = 32,
	  .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const struct kind_field audio_fields[] = {
	{ .path = "label", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_REQUIRED | KIND_F_NONEMPTY,
	  .max_len = STREAMRULES_AUDIO_LABEL_MAX,
	  .help = "A name unique among the video's tracks" },
	{ .path = "url", .type = KIND_TYPE_URI, .flags = KIND_F_CREATE,
	  .help = "Public URL to copy the audio from (HEAD and ranges)",
	  .example = "https://example.com/audio/narration-fr.m4a" },
	{ .path = "uid", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY,
	  .help = "Identifier of the track" },
	{ .path = "default", .type = KIND_TYPE_BOOL, .flags = KIND_F_UPDATE,
	  .help = "Played by default (exactly one track is)" },
	{ .path = "status", .type = KIND_TYPE_ENUM, .flags = KIND_F_READONLY,
	  .values = stream_track_states, .help = "Processing state" },
	{ .path = NULL }
};

const struct kind kind_audio_tracks = {
	.name = "audio-tracks",
	.noun = "audio track",
	.label = "label",
	.aliases = "audio-track audio",
	.help = "Extra audio tracks of one video (--video)",
	.scope = KIND_SCOPE_VIDEO,
	.list_path = STREAM_VIDEO "/audio",
	.item_path = STREAM_VIDEO "/audio/{id}",
	.create_path = STREAM_VIDEO "/audio/copy",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_SINGLE,
	.id_field = "uid",
	.verbs = KIND_VERB_LIST | KIND_VERB_CREATE | KIND_VERB_UPDATE |
	    KIND_VERB_DELETE,
	.create_body = KIND_BODY_JSON,
	.update_method = KIND_METHOD_PATCH,
	.columns = audio_columns,
	.fields = audio_fields,
};

/* ---- webhook ------------------------------------------------------------ */

static const struct kind_column webhook_columns[] = {
	{ .header = "URL", .path = "notificationUrl", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "MODIFIED", .path = "modified", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = "SECRET", .path = "secret", .width = 8,
	  .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const struct kind_field webhook_fields[] = {
	{ .path = "notificationUrl", .type = KIND_TYPE_URI,
	  .flags = KIND_F_REQUIRED,
	  .help = "Where notifications are sent (http or https)",
	  .example = "https://example.com/stream-hook" },
	{ .path = "modified", .type = KIND_TYPE_TIME, .flags = KIND_F_READONLY,
	  .help = "When it last changed" },
	{ .path = "secret", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY | KIND_F_SECRET,
	  .help = "Key that signs each notification (secret)" },
	{ .path = NULL }
};

const struct kind kind_webhook = {
	.name = "webhook",
	.aliases = "webhooks hook",
	.help = "The account's Stream webhook (update creates or replaces it)",
	.scope = KIND_SCOPE_ACCOUNT,
	.list_path = STREAM_ACCOUNT "/webhook",
	.item_path = STREAM_ACCOUNT "/webhook",
	.shape = KIND_SHAPE_OBJECT,
	.paging = PAGER_SINGLE,
	.verbs = KIND_VERB_GET | KIND_VERB_UPDATE | KIND_VERB_DELETE,
	.update_method = KIND_METHOD_PUT,
	.columns = webhook_columns,
	.fields = webhook_fields,
};

/* ---- signing keys ------------------------------------------------------- */

static const struct kind_column keys_columns[] = {
	{ .header = "ID", .path = "id", .width = 32,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "CREATED", .path = "created", .width = 16,
	  .format = KIND_FMT_TIME, .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const struct kind_field keys_fields[] = {
	{ .path = "id", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY,
	  .help = "Identifier of the key (the kid of signed tokens)" },
	{ .path = "created", .type = KIND_TYPE_TIME, .flags = KIND_F_READONLY,
	  .help = "When it was created" },
	{ .path = "pem", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY | KIND_F_SECRET,
	  .help = "Private key, PEM in base64; shown only once" },
	{ .path = "jwk", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY | KIND_F_SECRET,
	  .help = "Private key, JWK in base64; shown only once" },
	{ .path = NULL }
};

const struct kind kind_signing_keys = {
	.name = "signing-keys",
	.noun = "signing key",
	.aliases = "signing-key keys key",
	.help = "Keys that sign Stream playback tokens (deleting one revokes "
	    "its URLs)",
	.scope = KIND_SCOPE_ACCOUNT,
	.list_path = STREAM_ACCOUNT "/keys",
	.item_path = STREAM_ACCOUNT "/keys/{id}",
	.shape = KIND_SHAPE_ARRAY,
	.paging = PAGER_SINGLE,
	.id_field = "id",
	.verbs = KIND_VERB_LIST | KIND_VERB_CREATE | KIND_VERB_DELETE,
	.create_body = KIND_BODY_NONE,
	.shown_once = "the private key is shown only this once; store it now",
	.columns = keys_columns,
	.fields = keys_fields,
};

/* ---- downloads ---------------------------------------------------------- */

static const struct kind_column downloads_columns[] = {
	{ .header = "STATUS", .path = "default.status", .width = 10,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "PCT", .path = "default.percentComplete", .width = 4,
	  .format = KIND_FMT_PCT,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "URL", .path = "default.url", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "AUDIO", .path = "audio.status", .width = 10 },
	{ .header = "AUDIO URL", .path = "audio.url", .width = 0 },
	{ .header = NULL }
};

static const struct kind_field downloads_fields[] = {
	{ .path = "default", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "The default MP4 download" },
	{ .path = "default.status", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_READONLY, .values = stream_download_states,
	  .help = "inprogress until the file is ready" },
	{ .path = "default.url", .type = KIND_TYPE_URI,
	  .flags = KIND_F_READONLY, .help = "Where the MP4 is served" },
	{ .path = "default.percentComplete", .type = KIND_TYPE_NUMBER,
	  .flags = KIND_F_READONLY, .help = "Progress, 0 to 100" },
	{ .path = "audio", .type = KIND_TYPE_OBJECT,
	  .flags = KIND_F_READONLY, .help = "The audio-only M4A download" },
	{ .path = "audio.status", .type = KIND_TYPE_ENUM,
	  .flags = KIND_F_READONLY, .values = stream_download_states,
	  .help = "inprogress until the file is ready" },
	{ .path = "audio.url", .type = KIND_TYPE_URI,
	  .flags = KIND_F_READONLY, .help = "Where the M4A is served" },
	{ .path = "audio.percentComplete", .type = KIND_TYPE_NUMBER,
	  .flags = KIND_F_READONLY, .help = "Progress, 0 to 100" },
	{ .path = NULL }
};

const struct kind kind_downloads = {
	.name = "downloads",
	.aliases = "download dl mp4",
	.help = "MP4 downloads of one video (--video); the video must be ready",
	.scope = KIND_SCOPE_VIDEO,
	.list_path = STREAM_VIDEO "/downloads",
	.item_path = STREAM_VIDEO "/downloads",
	.shape = KIND_SHAPE_OBJECT,
	.paging = PAGER_SINGLE,
	.verbs = KIND_VERB_GET | KIND_VERB_CREATE | KIND_VERB_DELETE,
	.create_body = KIND_BODY_NONE,
	.columns = downloads_columns,
	.fields = downloads_fields,
};

/* ---- storage usage ------------------------------------------------------ */

static const struct kind_column storage_columns[] = {
	{ .header = "MINUTES", .path = "totalStorageMinutes", .width = 10,
	  .format = KIND_FMT_COUNT,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "LIMIT", .path = "totalStorageMinutesLimit", .width = 10,
	  .format = KIND_FMT_COUNT,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "VIDEOS", .path = "videoCount", .width = 8,
	  .format = KIND_FMT_COUNT,
	  .flags = KIND_COL_DEFAULT | KIND_COL_RIGHT },
	{ .header = "CREATOR", .path = "creator", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = NULL }
};

static const struct kind_field storage_fields[] = {
	{ .path = "creator", .type = KIND_TYPE_STRING,
	  .flags = KIND_F_READONLY, .help = "The creator counted (filter)" },
	{ .path = "totalStorageMinutes", .type = KIND_TYPE_INT,
	  .flags = KIND_F_READONLY, .help = "Minutes of video stored" },
	{ .path = "totalStorageMinutesLimit", .type = KIND_TYPE_INT,
	  .flags = KIND_F_READONLY, .help = "Minutes the account may store" },
	{ .path = "videoCount", .type = KIND_TYPE_INT,
	  .flags = KIND_F_READONLY, .help = "Number of videos" },
	{ .path = NULL }
};

static const struct kind_filter storage_filters[] = {
	{ .name = "creator", .type = KIND_TYPE_STRING,
	  .flags = KIND_FILTER_TEXT, .help = "Count one creator's videos" },
	{ .name = NULL }
};

const struct kind kind_storage_usage = {
	.name = "storage-usage",
	.aliases = "storage usage",
	.help = "Minutes of video stored against the account's limit",
	.scope = KIND_SCOPE_ACCOUNT,
	.list_path = STREAM_ACCOUNT "/storage-usage",
	.item_path = STREAM_ACCOUNT "/storage-usage",
	.shape = KIND_SHAPE_OBJECT,
	.paging = PAGER_SINGLE,
	.verbs = KIND_VERB_GET,
	.columns = storage_columns,
	.fields = storage_fields,
	.filters = storage_filters,
};

/* ---- direct uploads ----------------------------------------------------- */

/*
 * The upload URL must stay valid 2 minutes to 6 hours (streamrules'
 * window); the deletion date counts from now, when the video is created.
 */
static void
direct_uploads_check(struct validate_ctx *ctx)
{
	const cJSON	*v = validate_get(validate_body(ctx), "expiry");
	int64_t		 now = (int64_t)time(NULL), t;

	if (!validate_failed(ctx, "expiry") && cJSON_IsString(v) &&
	    kind_parse_time(v->valuestring, &t) == 0 &&
	    !streamrules_expiry_ok(t * STREAMRULES_US, now * STREAMRULES_US))
		validate_add(ctx, "expiry", "must be between 2 minutes and 6 "
		    "hours from now");
	stream_check_deletion(ctx, now, "now");
}

static const struct kind_column direct_columns[] = {
	{ .header = "UID", .path = "uid", .width = 32,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "UPLOAD URL", .path = "uploadURL", .width = 0,
	  .flags = KIND_COL_DEFAULT },
	{ .header = "DELETION", .path = "scheduledDeletion", .width = 16,
	  .format = KIND_FMT_TIME },
	{ .header = NULL }
};

static const struct kind_field direct_fields[] = {
	{ .path = "maxDurationSeconds", .type = KIND_TYPE_INT,
	  .flags = KIND_F_REQUIRED, KIND_RANGE(1, STREAMRULES_DURATION_MAX),
	  .help = "Longest video accepted, in seconds (reserved storage)" },
	{ .path = "expiry", .type = KIND_TYPE_TIME,
	  .help = "When the URL stops working (2 min to 6 h; default 30 min)" },
	{ .path = "allowedOrigins", .type = KIND_TYPE_STRINGS,
	  .check = KIND_CHECK_ORIGIN,
	  .help = "Domains allowed to embed it (*.example.com); empty: any" },
	{ .path = "creator", .type = KIND_TYPE_STRING,
	  .max_len = STREAMRULES_CREATOR_MAX,
	  .help = "Your identifier for the media's creator" },
	{ .path = "meta", .type = KIND_TYPE_MAP,
	  .help = "Your own key/value data; meta.name is the name" },
	{ .path = "meta.name", .type = KIND_TYPE_STRING,
	  .help = "Name shown in lists" },
	{ .path = "requireSignedURLs", .type = KIND_TYPE_BOOL,
	  .help = "Playback needs a signed token" },
	{ .path = "scheduledDeletion", .type = KIND_TYPE_TIME,
	  .help = "When it is deleted (30 to 1096 days out)" },
	{ .path = "thumbnailTimestampPct", .type = KIND_TYPE_NUMBER,
	  KIND_RANGE(0, 1),
	  .help = "Thumbnail position as a fraction of the duration" },
	{ .path = "watermark", .type = KIND_TYPE_OBJECT,
	  .help = "Watermark profile to apply" },
	{ .path = "watermark.uid", .type = KIND_TYPE_HEX32,
	  .flags = KIND_F_REQUIRED, .help = "Watermark profile id" },
	{ .path = "uid", .type = KIND_TYPE_HEX32, .flags = KIND_F_READONLY,
	  .help = "The video id reserved for the upload" },
	{ .path = "uploadURL", .type = KIND_TYPE_URI,
	  .flags = KIND_F_READONLY | KIND_F_SECRET,
	  .help = "One-time URL that takes the file without credentials "
	  "(secret)" },
	{ .path = NULL }
};

const struct kind kind_direct_uploads = {
	.name = "direct-uploads",
	.noun = "direct upload",
	.aliases = "direct-upload du",
	.help = "One-time upload URLs for a creator's browser (200 MB at most)",
	.scope = KIND_SCOPE_ACCOUNT,
	.create_path = STREAM_ACCOUNT "/direct_upload",
	.shape = KIND_SHAPE_NONE,
	.paging = PAGER_SINGLE,
	.id_field = "uid",
	.verbs = KIND_VERB_CREATE,
	.create_body = KIND_BODY_JSON,
	.shown_once = "the upload URL is shown only this once and takes one "
	    "upload; keep it until the file is sent",
	.columns = direct_columns,
	.fields = direct_fields,
	.check = direct_uploads_check,
};

/* ---- clips (a form of their own; not a kind the lists show) ------------- */

static void
clips_check(struct validate_ctx *ctx)
{
	const cJSON	*start, *end;

	start = validate_get(validate_body(ctx), "startTimeSeconds");
	end = validate_get(validate_body(ctx), "endTimeSeconds");
	if (cJSON_IsNumber(start) && cJSON_IsNumber(end) &&
	    !validate_failed(ctx, "endTimeSeconds") &&
	    start->valuedouble >= end->valuedouble)
		validate_add(ctx, "endTimeSeconds", "must be after "
		    "startTimeSeconds");
}

static const struct kind_field clips_fields[] = {
	{ .path = "startTimeSeconds", .type = KIND_TYPE_NUMBER,
	  .flags = KIND_F_REQUIRED, KIND_RANGE(0, 86400),
	  .help = "Where the clip starts, in seconds of the video" },
	{ .path = "endTimeSeconds", .type = KIND_TYPE_NUMBER,
	  .flags = KIND_F_REQUIRED, KIND_RANGE(0, 86400),
	  .help = "Where it ends (at most the video's duration)" },
	{ .path = "meta", .type = KIND_TYPE_MAP,
	  .help = "Your own key/value data; meta.name is the name" },
	{ .path = "meta.name", .type = KIND_TYPE_STRING,
	  .help = "Name of the new video" },
	{ .path = "clippedFromVideoUID", .type = KIND_TYPE_HEX32,
	  .flags = KIND_F_READONLY, .help = "The video cut from" },
	{ .path = NULL }
};

const struct kind kind_clips = {
	.name = "clips",
	.noun = "clip",
	.help = "A new video cut from a ready one between two times",
	.scope = KIND_SCOPE_ACCOUNT,
	.create_path = STREAM_ACCOUNT "/clip",
	.shape = KIND_SHAPE_NONE,
	.paging = PAGER_SINGLE,
	.id_field = "uid",
	.verbs = KIND_VERB_CREATE,
	.create_body = KIND_BODY_JSON,
	.fields = clips_fields,
	.check = clips_check,
};
