/*
 * Writing a rate limiting rule from the console: n and e open the rule's
 * form (ui/panels/rlform.c), E its YAML in $EDITOR (ui/panels/rlyaml.c).
 * Both send through rlform_write: the zone's entry point first (a write
 * needs its id, a new rule creates it when absent, and an update starts
 * from the rule as it is there), then the POST or the whole-rule PATCH,
 * or the same with dry_run=true to validate.
 */
#ifndef EDGE_PANELS_RLFORM_H
#define EDGE_PANELS_RLFORM_H

#include "expr.h"
#include "tui.h"

void		 rlform_new(struct panel *);
void		 rlform_edit(struct panel *);
void		 rlyaml_edit(struct panel *);
/* Non-zero when the answer was to one of these writes. */
int		 rlform_event(struct panel *, struct tui_req *,
		     struct jobs_event *);

/*
 * Send rule (id NULL: a new one) with dry_run when dry. An update's
 * before is the copy the change started from: the rule is merged from it
 * into the one the entry point has now (merge.h), and a field changed
 * there too asks first. form: the modal to tell (it must call
 * rlform_forget when freed), or NULL; text: the YAML saved, offered again
 * on a refusal or to edit again at a conflict.
 */
struct tui_req	*rlform_write(struct panel *, const char *, const cJSON *,
		     const cJSON *, int, struct modal *, const char *);
/* A form going away while its write is on its way. */
void		 rlform_forget(struct tui *, struct tui_req *);

/* rlyaml.c: a refused YAML write (why), offered again in the editor. */
void		 rlyaml_refused(struct panel *, const char *, const cJSON *,
		     const char *, const char *);
int		 rlyaml_event(struct panel *, struct tui_req *,
		     struct jobs_event *);
/* The panel's E hooks (struct panel_ops). */
char		*rlyaml_lint(struct panel *, const cJSON *);
char		*rlyaml_fetch_path(struct panel *, const char *);
void		 rlyaml_save(struct panel *, const char *, const cJSON *,
		     const cJSON *, const char *);

#endif
