/*
 * Storage usage: minutes stored against the account's limit as a bar,
 * and the video count; F creator=NAME shows one creator's share.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "screen.h"
#include "tui.h"

static long
storage_number(const cJSON *rec, const char *name)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(rec, name);

	return (cJSON_IsNumber(v) ? (long)v->valuedouble : -1);
}

static int
storage_draw(struct panel *p, int y, int h, int w)
{
	const cJSON	*creator;
	char		 line[256];
	long		 used, limit, count;
	int		 barw, fill, i, pct;

	if (p->record == NULL || h < 4)
		return (0);
	used = storage_number(p->record, "totalStorageMinutes");
	limit = storage_number(p->record, "totalStorageMinutesLimit");
	count = storage_number(p->record, "videoCount");
	creator = cJSON_GetObjectItemCaseSensitive(p->record, "creator");
	pct = limit > 0 && used >= 0 ? (int)(used * 100 / limit) : 0;
	snprintf(line, sizeof line, "Minutes stored: %ld of %ld (%d%%)%s%s",
	    used, limit, pct, cJSON_IsString(creator) ? "  creator " : "",
	    cJSON_IsString(creator) ? creator->valuestring : "");
	screen_put(y + 1, 2, w - 2, line, screen_role(THEME_ROLE_NORMAL));
	barw = w - 6 > 60 ? 60 : w - 6;
	fill = barw * (pct > 100 ? 100 : pct) / 100;
	screen_put(y + 2, 2, 1, "[", screen_role(THEME_ROLE_DIM));
	for (i = 0; i < barw; i++)
		screen_put(y + 2, 3 + i, 1, i < fill ? "#" : ".",
		    screen_role(i < fill ? (pct >= 90 ? THEME_ROLE_ERROR :
		    THEME_ROLE_PROGRESS) : THEME_ROLE_DIM));
	screen_put(y + 2, 3 + barw, 1, "]", screen_role(THEME_ROLE_DIM));
	snprintf(line, sizeof line, "Videos: %ld", count);
	screen_put(y + 3, 2, w - 2, line, screen_role(THEME_ROLE_NORMAL));
	return (5);
}

const struct panel_ops panel_storage_ops = {
	.kind = "storage-usage",
	.draw = storage_draw,
	.hints = (const struct panel_hint[]){
		{ ACTION_QUERY, "creator=NAME one creator" },
		{ ACTION_REFRESH, "refresh" },
		{ ACTION_NONE, NULL }
	},
};
