/*
 * Levelled logging to a sink the program chooses, and fatal errors that run
 * a hook first (the console uses it to restore the terminal).
 */
#ifndef EDGE_LOG_H
#define EDGE_LOG_H

#include <stdarg.h>

#include "common.h"

enum log_level {
	LOG_LEVEL_ERROR,
	LOG_LEVEL_WARN,
	LOG_LEVEL_INFO,
	LOG_LEVEL_DEBUG
};

typedef void (*log_sink_cb)(enum log_level, const char *, void *);
typedef void (*log_fatal_cb)(void);

void	 log_set_sink(log_sink_cb, void *);
void	 log_set_level(enum log_level);
enum log_level log_get_level(void);
void	 log_set_fatal_hook(log_fatal_cb);
const char *log_level_name(enum log_level);

void	 log_error(const char *, ...) printflike(1, 2);
void	 log_warn(const char *, ...) printflike(1, 2);
void	 log_info(const char *, ...) printflike(1, 2);
void	 log_debug(const char *, ...) printflike(1, 2);
void	 log_vmsg(enum log_level, const char *, va_list) printflike(2, 0);

/* fatal appends strerror(errno); fatalx does not. */
__dead void fatal(const char *, ...) printflike(1, 2);
__dead void fatalx(const char *, ...) printflike(1, 2);

/* A sink that writes "prog: message" lines to stderr. */
void	 log_sink_stderr(enum log_level, const char *, void *);

#endif
