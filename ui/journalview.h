/*
 * The journal view (:journal): this profile's changes, newest first;
 * Enter shows one, u undoes it after showing the diff.
 */
#ifndef EDGE_JOURNALVIEW_H
#define EDGE_JOURNALVIEW_H

struct tui;

void	 journalview_open(struct tui *);

#endif
