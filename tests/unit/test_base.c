/* Unit tests for the base modules: buf, xmalloc, log, status. */
#include "config.h"

#include <sys/wait.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "buf.h"
#include "log.h"
#include "status.h"
#include "xmalloc.h"

static void
test_buf_grows_and_stays_terminated(void **state)
{
	struct buf	b = BUF_INITIALIZER;
	size_t		i, len;
	char		*s;

	(void)state;
	assert_string_equal(buf_str(&b), "");
	for (i = 0; i < 10000; i++)
		buf_addc(&b, (char)('a' + i % 26));
	assert_int_equal(b.len, 10000);
	assert_int_equal(b.data[b.len], '\0');
	assert_int_equal(b.data[26], 'a');
	buf_addf(&b, "%d-%s", 42, "x");
	assert_string_equal(b.data + 10000, "42-x");
	buf_truncate(&b, 3);
	assert_string_equal(buf_str(&b), "abc");
	s = buf_detach(&b, &len);
	assert_int_equal(len, 3);
	assert_string_equal(s, "abc");
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	free(s);
}

static void
test_buf_binary_and_reset(void **state)
{
	struct buf	b = BUF_INITIALIZER;
	const char	bin[] = { 'a', '\0', 'b' };
	char		*s;

	(void)state;
	buf_add(&b, bin, sizeof bin);
	assert_int_equal(b.len, 3);
	assert_memory_equal(b.data, bin, 3);
	buf_reset(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(buf_str(&b), "");
	buf_adds(&b, "again");
	assert_string_equal(buf_str(&b), "again");
	buf_free(&b);
	/* Detaching an empty buffer gives an empty string, never NULL. */
	s = buf_detach(&b, NULL);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
}

static void
test_xprintf_and_dup(void **state)
{
	char	*s, *t;

	(void)state;
	s = xprintf("%s/%d", "zones", 7);
	assert_string_equal(s, "zones/7");
	t = xstrndup("abcdef", 3);
	assert_string_equal(t, "abc");
	free(s);
	free(t);
}

struct captured {
	enum log_level	level;
	char		msg[256];
	int		count;
};

static void
capture_sink(enum log_level level, const char *msg, void *arg)
{
	struct captured	*c = arg;

	c->level = level;
	snprintf(c->msg, sizeof c->msg, "%s", msg);
	c->count++;
}

static void
test_log_levels_filter(void **state)
{
	struct captured	c = { 0 };

	(void)state;
	log_set_sink(capture_sink, &c);
	log_set_level(LOG_LEVEL_WARN);
	log_debug("hidden %d", 1);
	log_info("hidden too");
	assert_int_equal(c.count, 0);
	log_warn("shown %d", 2);
	assert_int_equal(c.count, 1);
	assert_int_equal(c.level, LOG_LEVEL_WARN);
	assert_string_equal(c.msg, "shown 2");
	log_set_level(LOG_LEVEL_DEBUG);
	log_debug("now %s", "visible");
	assert_string_equal(c.msg, "now visible");
	log_set_sink(NULL, NULL);
	log_error("dropped without a sink");
	assert_int_equal(c.count, 2);
}

static int	hook_fd = -1;

static void
fatal_hook(void)
{
	if (write(hook_fd, "restored", 8) != 8)
		_exit(99);
}

/* fatal() runs the hook (the console restores the terminal there) first. */
static void
test_fatal_runs_hook_then_exits(void **state)
{
	int	 p[2], status;
	pid_t	 pid;
	char	 got[16] = "";

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		hook_fd = p[1];
		freopen("/dev/null", "w", stderr);
		log_set_fatal_hook(fatal_hook);
		fatalx("something broke: %d", 3);
	}
	close(p[1]);
	assert_int_equal(read(p[0], got, sizeof got - 1), 8);
	close(p[0]);
	assert_string_equal(got, "restored");
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 70);
}

static void
test_status_messages(void **state)
{
	(void)state;
	assert_string_equal(status_message(STATUS_OK), "success");
	assert_string_equal(status_name(STATUS_READONLY), "READONLY");
	assert_string_equal(status_message(STATUS_READONLY),
	    "refused in read-only mode");
	assert_string_equal(status_message((enum status)STATUS_MAX),
	    "unknown status");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf_grows_and_stays_terminated),
		cmocka_unit_test(test_buf_binary_and_reset),
		cmocka_unit_test(test_xprintf_and_dup),
		cmocka_unit_test(test_log_levels_filter),
		cmocka_unit_test(test_fatal_runs_hook_then_exits),
		cmocka_unit_test(test_status_messages),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
