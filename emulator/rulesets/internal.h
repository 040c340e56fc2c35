/*
 * What the pieces of the Rulesets API (emulator/rulesets/) share: the
 * stored ruleset versions, the rule as the service answers it, positions
 * and the replies of a write.
 */
#ifndef EDGEMU_RULESETS_INTERNAL_H
#define EDGEMU_RULESETS_INTERNAL_H

#include <cjson/cJSON.h>

#include "expr.h"
#include "rlrule.h"
#include "server.h"
#include "store.h"
#include "util.h"
#include "xmalloc.h"

#define RS_ZONE		"/zones/{zone:hex32}/rulesets"
#define RS_ENTRY	RS_ZONE "/phases/http_ratelimit/entrypoint"
#define RS_PHASE	"http_ratelimit"
#define RS_KIND		"zone"
#define RS_NAME_MAX	256
#define RS_DESC_MAX	500
#define RS_PER_PAGE	20

/* Error codes of this API's refusals. */
#define RS_ERR_INVALID	20021	/* a rule or ruleset field */
#define RS_ERR_EXISTS	20217	/* the phase already has an entry point */

/*
 * versions.c: rows of every version, the newest one per ruleset, and the
 * end of every write.
 */
int	 rs_entry_id(struct store *, const char *, char **);
int	 rs_load(struct store *, const char *, const char *, long, cJSON **);
int	 rs_save(struct store *, const char *, const cJSON *);
void	 rs_store_reply(struct req *, struct reply *, int);
int	 rs_write(struct req *, struct reply *, cJSON *, int);

/* rules.c */
const cJSON	*rs_member(const cJSON *, const char *);
cJSON	*rs_rule_build(const cJSON *, const char *, const char *);
void	 rs_rule_stamp(cJSON *, const cJSON *, const char *);
int	 rs_rules_check(struct req *, struct reply *, const cJSON *);
enum expr_plan rs_plan(const struct req *);
void	 rs_invalid(struct reply *, const char *, const char *, ...)
	     printflike(3, 4);
void	 rs_invalid_problem(struct reply *, const char *,
	     const struct rlrule_problem *);
int	 rs_dry_run(struct req *, struct reply *, int *);
cJSON	*rs_find_rule(const cJSON *, const char *, int *);
void	 rs_rule_post(struct req *, struct reply *);
void	 rs_rule_patch(struct req *, struct reply *);
void	 rs_rule_delete(struct req *, struct reply *);

/* entrypoint.c */
cJSON	*rs_new_ruleset(const char *, const char *, const char *);
cJSON	*rs_without_rules(const cJSON *);
void	 rs_entry_get(struct req *, struct reply *);
void	 rs_entry_put(struct req *, struct reply *);
void	 rs_versions_list(struct req *, struct reply *);
void	 rs_version_get(struct req *, struct reply *);
void	 rs_ruleset_create(struct req *, struct reply *);
void	 rs_ruleset_list(struct req *, struct reply *);
void	 rs_ruleset_get(struct req *, struct reply *);

/* demo.c */
int	 rs_demo(struct store *, const char *, const char *, char **);

#endif
