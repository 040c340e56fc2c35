/*
 * The request log (:log, L): every request of the session, uploads'
 * included, newest first; Enter shows one with its answer, c copies it as
 * a curl command.
 */
#ifndef EDGE_REQUESTLOG_H
#define EDGE_REQUESTLOG_H

struct tui;

void	 requestlog_open(struct tui *);

#endif
