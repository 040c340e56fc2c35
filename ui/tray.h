/*
 * The transfers tray (T): every transfer of the session (ui/transfers.h)
 * in a list view, to resume, cancel, clear or copy from.
 */
#ifndef EDGE_TRAY_H
#define EDGE_TRAY_H

struct tui;

void	 tray_open(struct tui *);

#endif
