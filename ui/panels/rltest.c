/*
 * The rules tester (:test, C-t in the rules panel, and the rule form): a
 * request built in a small form, tried against each rule of the entry
 * point in evaluation order.
 */
#include "config.h"

#include "tui.h"

#include "panels/rltest.h"

void
rltest_open(struct tui *t, const cJSON *edited_rule)
{
	(void)edited_rule;
	tui_message(t, TUI_MSG_WARN, "the rules tester is not ready yet");
}
