/*
 * What the rules panel (rlrules.c) shares with the versions view beside it
 * (rlversions.c).
 */
#ifndef EDGE_RLRULES_H
#define EDGE_RLRULES_H

#include <cjson/cJSON.h>

#include "expr.h"
#include "keymap.h"

struct panel;
struct tui;

/* The profile's plan: the limits lint uses (EXPR_PLAN_NONE: unknown). */
enum expr_plan	 rlrules_plan(struct tui *);
/*
 * A path template under the entry point ep's ruleset ({ruleset}, and {id}
 * for a rule when id is not NULL); NULL after saying why.
 */
char		*rlrules_path(struct panel *, const cJSON *, const char *,
		     const char *);
/* "'Login form' (0c4f12ab…)": a rule named by its description and id. */
char		*rlrules_rule_label(const cJSON *, const char *);
/* The rules as last listed (0: no entry point yet); -1 when not known. */
int		 rlrules_count(struct panel *);
/* The rules panel's keys of its own kind context; 0 when not one. */
int		 rlrules_kind_action(struct panel *, enum action);

/* rlversions.c: v, the entry point's versions (q goes back to rules). */
void		 rlversions_open(struct panel *);
int		 rlversions_kind_action(struct panel *, enum action);

#endif
