/*
 * M in the legacy rate-limits panel: the marked rules (or the one under
 * the cursor) previewed as rate limiting rules, then added to the entry
 * point on confirmation; and the retired API's banner pointing to them.
 */
#ifndef EDGE_PANELS_RLMIGRATE_H
#define EDGE_PANELS_RLMIGRATE_H

#include "tui.h"

void	 rlmigrate_start(struct panel *);
/* Non-zero when the answer was the migration's. */
int	 rlmigrate_event(struct panel *, struct tui_req *,
	     struct jobs_event *);
void	 rlmigrate_closed(struct panel *);
/* The 410 banner, completed with where rate limiting rules are. */
void	 rlmigrate_banner(struct panel *);

#endif
