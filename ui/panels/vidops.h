/*
 * What the videos list does beyond the generic panel (ui/panels/vidops.c):
 * upload from a URL (L), clip (C), the download type (D), the embed
 * snippet (details); and the captions panel's ops (ui/panels/captions.c).
 */
#ifndef EDGE_VIDOPS_H
#define EDGE_VIDOPS_H

#include "tui.h"

/* Request kinds of the videos panel's own (tui_req.sub), from here on. */
#define VIDOPS_SUB_FIRST	16

void	 vidops_copy(struct panel *);
void	 vidops_clip(struct panel *);
void	 vidops_download(struct panel *);
void	 vidops_embed(struct panel *);
/* An answer to one of the above: 1 if it was one. */
int	 vidops_event(struct panel *, struct tui_req *, struct jobs_event *);

#endif
