/* libedge's log lines collected in memory, for tests that scan them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "testlog.h"

static char	*testlog_text;
static size_t	 testlog_len;

static void
testlog_sink(enum log_level level, const char *msg, void *arg)
{
	size_t	n = strlen(msg);

	(void)level;
	(void)arg;
	testlog_text = realloc(testlog_text, testlog_len + n + 2);
	if (testlog_text == NULL)
		abort();
	memcpy(testlog_text + testlog_len, msg, n);
	testlog_len += n;
	testlog_text[testlog_len++] = '\n';
	testlog_text[testlog_len] = '\0';
}

void
testlog_start(void)
{
	free(testlog_text);
	testlog_text = NULL;
	testlog_len = 0;
	log_set_sink(testlog_sink, NULL);
	log_set_level(LOG_LEVEL_DEBUG);
}

char *
testlog_stop(void)
{
	char	*text = testlog_text;

	log_set_sink(NULL, NULL);
	log_set_level(LOG_LEVEL_WARN);
	testlog_text = NULL;
	testlog_len = 0;
	return (text);
}
