/*
 * :simulate FILE: an access log run through the zone's rate limiting rules
 * (src/simulate.h) on the worker, with a progress bar, then the report.
 */
#include "config.h"

#include "tui.h"

#include "panels/rltest.h"

void
rlsim_open(struct tui *t, const char *path, const cJSON *edited_rule)
{
	(void)path;
	(void)edited_rule;
	tui_message(t, TUI_MSG_WARN, "the simulation is not ready yet");
}
