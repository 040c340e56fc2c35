/*
 * The captions of a Stream video: listed, read-only (they come from the demo
 * data). Part of the downloads area, which owns their table.
 */
#include "config.h"

#include <stddef.h>

#include "captions.h"
#include "downloads.h"
#include "server.h"
#include "store.h"

static cJSON *
captions_row(sqlite3_stmt *st)
{
	cJSON	*c = cJSON_CreateObject();

	cJSON_AddStringToObject(c, "label",
	    (const char *)sqlite3_column_text(st, 0));
	cJSON_AddStringToObject(c, "language",
	    (const char *)sqlite3_column_text(st, 1));
	return (c);
}

/* Read-only in this API: they come from the demo data. */
void
captions_list(struct req *req, struct reply *rep)
{
	static const char	 sql[] =
	    "SELECT label, language FROM stream_caption"
	    " WHERE account = ?1 AND video = ?2 ORDER BY seq";

	downloads_list(req, rep, sql, captions_row);
}

/* A demo video's captions (languages NULL after the last). */
int
captions_demo_add(struct store *store, const char *account, const char *video,
    const struct captions_demo *c, size_t n)
{
	static const char	 caption_sql[] =
	    "INSERT INTO stream_caption (account, video, language, label)"
	    " VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt		*st;
	size_t			 i;
	int			 rc = SQLITE_DONE;

	for (i = 0; i < n && rc == SQLITE_DONE; i++) {
		if (c[i].language == NULL)
			break;
		st = store_stmt(store, caption_sql);
		sqlite3_bind_text(st, 1, account, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, video, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, c[i].language, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, c[i].label, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		store_done(st);
	}
	return (rc == SQLITE_DONE ? 0 : -1);
}
