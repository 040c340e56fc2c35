/*
 * Levelled logging to a sink the program chooses, and fatal errors that run
 * a hook first. Without a sink, messages are dropped: the library never
 * writes to the terminal on its own, except the last words of fatal().
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

static log_sink_cb	 log_sink;
static void		*log_sink_arg;
static enum log_level	 log_level = LOG_LEVEL_WARN;
static log_fatal_cb	 log_fatal_hook;

void
log_set_sink(log_sink_cb cb, void *arg)
{
	log_sink = cb;
	log_sink_arg = arg;
}

void
log_set_level(enum log_level level)
{
	log_level = level;
}

enum log_level
log_get_level(void)
{
	return (log_level);
}

void
log_set_fatal_hook(log_fatal_cb cb)
{
	log_fatal_hook = cb;
}

const char *
log_level_name(enum log_level level)
{
	switch (level) {
	case LOG_LEVEL_ERROR:
		return ("error");
	case LOG_LEVEL_WARN:
		return ("warning");
	case LOG_LEVEL_INFO:
		return ("info");
	case LOG_LEVEL_DEBUG:
		return ("debug");
	}
	return ("?");
}

void
log_vmsg(enum log_level level, const char *fmt, va_list ap)
{
	char	buf[2048];

	if (level > log_level || log_sink == NULL)
		return;
	vsnprintf(buf, sizeof buf, fmt, ap);
	log_sink(level, buf, log_sink_arg);
}

#define LOG_FN(name, level)					\
void								\
name(const char *fmt, ...)					\
{								\
	va_list	ap;						\
								\
	va_start(ap, fmt);					\
	log_vmsg(level, fmt, ap);				\
	va_end(ap);						\
}
LOG_FN(log_error, LOG_LEVEL_ERROR)
LOG_FN(log_warn, LOG_LEVEL_WARN)
LOG_FN(log_info, LOG_LEVEL_INFO)
LOG_FN(log_debug, LOG_LEVEL_DEBUG)

void
log_sink_stderr(enum log_level level, const char *msg, void *arg)
{
	const char	*prog = arg;

	if (level == LOG_LEVEL_INFO)
		fprintf(stderr, "%s: %s\n", prog != NULL ? prog : "log", msg);
	else
		fprintf(stderr, "%s: %s: %s\n", prog != NULL ? prog : "log",
		    log_level_name(level), msg);
}

static __dead void
log_fatal_finish(const char *msg)
{
	static int	in_fatal;
	log_fatal_cb	hook = log_fatal_hook;

	/* A fatal error inside the hook must not recurse. */
	if (!in_fatal++ && hook != NULL)
		hook();
	if (log_sink != NULL && log_sink != log_sink_stderr)
		log_sink(LOG_LEVEL_ERROR, msg, log_sink_arg);
	fprintf(stderr, "fatal: %s\n", msg);
	fflush(stderr);
	/* No atexit handlers: other threads may still hold what they would free. */
	_exit(70);
}

void
fatal(const char *fmt, ...)
{
	char	 buf[1024];
	va_list	 ap;
	int	 saved = errno;
	size_t	 len;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	len = strlen(buf);
	snprintf(buf + len, sizeof buf - len, ": %s", strerror(saved));
	log_fatal_finish(buf);
}

void
fatalx(const char *fmt, ...)
{
	char	 buf[1024];
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	log_fatal_finish(buf);
}
