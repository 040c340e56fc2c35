/*
 * The rules tester and the simulation in the console: a request tried
 * against the zone's rate limiting rules (each rule's verdict, the first
 * match, the explained tree), and an access log run through them on the
 * worker with a progress bar and the report as a list. Both can take a
 * rule being edited, tested in place of the server's rule with its id, or
 * added after the server's rules when it has no id yet.
 */
#ifndef EDGE_PANELS_RLTEST_H
#define EDGE_PANELS_RLTEST_H

#include <cjson/cJSON.h>

struct tui;

/* The tester; edited_rule NULL: the server's rules as they are. The rule
 * is copied. */
void	 rltest_open(struct tui *, const cJSON *edited_rule);
/* The simulation of the log at path (NULL: ask for it); the rule is
 * copied. */
void	 rlsim_open(struct tui *, const char *path, const cJSON *edited_rule);

#endif
