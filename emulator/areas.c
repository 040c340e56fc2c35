/* The areas of the API that edgemu serves: one line each. */
#include "config.h"

#include "server.h"

extern const struct area stream_area;
extern const struct area copy_area;
extern const struct area clip_area;
extern const struct area tus_area;
extern const struct area direct_area;
extern const struct area webhook_area;
extern const struct area downloads_area;
extern const struct area captions_area;
extern const struct area audio_area;
extern const struct area embed_area;
extern const struct area live_area;
extern const struct area outputs_area;
extern const struct area watermark_area;
extern const struct area keys_area;
extern const struct area shield_area;
extern const struct area ratelimit_area;
extern const struct area rulesets_area;
extern const struct area delivery_area;
extern const struct area tokens_area;

/* Videos first: later areas' demo data refers to the demo videos. */
const struct area *const server_areas[] = {
	&stream_area,
	&copy_area,
	&clip_area,
	&tus_area,
	&direct_area,
	&webhook_area,
	&downloads_area,
	&captions_area,
	&audio_area,
	&embed_area,
	&live_area,
	&outputs_area,		/* after live_area: its trigger is on live_input */
	&watermark_area,
	&keys_area,
	&shield_area,
	&ratelimit_area,
	&rulesets_area,
	&delivery_area,
	&tokens_area,
	NULL
};
