/*
 * The console's signed URLs (S on a video): a form, a token signed here
 * with a remembered signing key or by the server, the URLs shown with copy;
 * and the offer to remember a new signing key for that.
 */
#ifndef EDGE_UI_SIGNURL_H
#define EDGE_UI_SIGNURL_H

#include <cjson/cJSON.h>

struct jobs_event;
struct panel;
struct tui;
struct tui_req;

/* The sub of the token call's request, answered to the videos panel. */
#define SIGNURL_REQ	0x5167

/* The form for the panel's current video. */
void	 signurl_open(struct panel *);
/* The token call's answer; returns 1 (handled). */
int	 signurl_event(struct panel *, struct tui_req *, struct jobs_event *);
/* Ask whether to remember a new key's PEM (decoded) for local signing. */
void	 signurl_offer_remember(struct tui *, const char *, const char *);

#endif
