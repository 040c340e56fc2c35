/*
 * What the files of the generic resource panel share among themselves; the
 * panel's public functions (panel_*) are declared in ui/tui.h.
 */
#ifndef EDGE_PANELS_RESOURCE_H
#define EDGE_PANELS_RESOURCE_H

#include "tui.h"

/* resource.c: the panel's life, changes, answers and actions. */
void		 panel_banner(struct panel *, struct tui_req *,
		     struct jobs_event *);
int		 panel_can(struct panel *, unsigned, const char *);

/*
 * write.c: an update (record id: base, the copy the change started from;
 * mine, the record changed) after reading the server's copy and merging
 * (merge.h); a conflict asks first. form, the form that sent it (told of
 * a refusal, closed when saved), or NULL; text, E's YAML as saved, or
 * NULL. A base of NULL sends mine as it is. panel_send_update: no text.
 */
void		 panel_write(struct panel *, const char *, const cJSON *,
		     const cJSON *, struct modal *, const char *);
void		 panel_send_update(struct panel *, const char *, const cJSON *,
		     const cJSON *, struct modal *);
void		 panel_write_read(struct panel *, struct tui_req *,
		     struct jobs_event *);

/* list.c: the cursor, loading, sorting and drawing. */
void		 panel_remember(struct panel *);
void		 panel_restore(struct panel *);
void		 panel_list_done(struct panel *, struct tui_req *,
		     struct jobs_event *);
int		 panel_list_action(struct panel *, enum action);
void		 panel_next_page(struct panel *);

/* lazy.c: large lists, a page at a time. */
struct pager	*panel_lazy_pager(struct panel *, struct pager_opts *);
int		 panel_lazy_wait(struct panel *, size_t);
int		 panel_lazy_more(struct panel *);
int		 panel_lazy_bottom(struct panel *);
int		 panel_lazy_title(struct panel *, struct buf *);
void		 panel_lazy_done(struct panel *);

/* detail.c: one record's details. */
void		 panel_detail_text(struct panel *);
void		 panel_details(struct panel *);
void		 panel_detail_copy(struct panel *);
void		 panel_detail_saved(struct tui *, void *, const char *);

/* fetch.c: a record fetched to work on. */
const char	*panel_edit_text_of(const struct tui_req *);
void		 panel_fetch_failed(struct panel *, struct tui_req *,
		     struct jobs_event *);
void		 panel_fetch_as(struct panel *, enum tui_req_type, const char *,
		     cJSON *, cJSON *);
void		 panel_fetch(struct panel *, enum tui_req_type);

/* form.c: a form again, on theirs with the values of mine (a conflict). */
void		 panel_form_reopen(struct panel *, const cJSON *, const cJSON *,
		     const char *);

/* yamledit.c: E, the record in $EDITOR. */
void		 panel_edit_yaml(struct panel *, const char *, const cJSON *);
/* The editor on text, against orig (the copy the diff is made from). */
void		 panel_edit_text(struct panel *, const char *, const cJSON *,
		     const char *);
void		 panel_reedit_offer(struct panel *, const char *,
		     const cJSON *, const char *, const char *);
void		 panel_diff_confirm(struct panel *, struct tui_req *,
		     const cJSON *);

/* filter.c: / and F. */
void		 panel_filter_open(struct panel *);
void		 panel_query(struct panel *);

/* delete.c: deletes and the questions naming records. */
char		*panel_record_label(struct panel *, const char *);
void		 panel_delete(struct panel *);
int		 panel_deletes_pending(struct panel *, struct tui_req *);
void		 panel_deleted(struct panel *, struct tui_req *);

#endif
