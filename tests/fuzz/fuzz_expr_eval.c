/*
 * libFuzzer target: a request read from log-like text (URL, address,
 * headers, cookies) evaluated by an expression, and explained. Input: the
 * expression on the first line, the URL on the second, the client address
 * on the third, then "Name: value" header lines. Explain and remembered
 * evaluation (asked twice, the second from its table) must agree with
 * eval; nothing may read out of bounds.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct expr_request	*fuzz_rq;

/* The next line of *s, NUL-terminated in place; NULL at the end. */
static char *
fuzz_line(char **s)
{
	char	*line = *s, *nl;

	if (line == NULL)
		return (NULL);
	if ((nl = strchr(line, '\n')) != NULL) {
		*nl = '\0';
		*s = nl + 1;
	} else
		*s = NULL;
	return (line);
}

static void
fuzz_step(const struct expr_step *step, void *arg)
{
	(void)arg;
	if (step->text == NULL || strlen(step->text) > 65536)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct expr_options	 opts = { EXPR_PLAN_NONE, 1 };
	struct expr_error	 err;
	struct expr		*e;
	struct expr_memo	*m;
	char			*text, *rest, *expr, *url, *ip, *line, *colon;
	int			 r;

	/* One object for every input, as a log reader keeps it. */
	if (fuzz_rq == NULL)
		fuzz_rq = expr_request_new();
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	rest = text;
	expr = fuzz_line(&rest);
	url = fuzz_line(&rest);
	ip = fuzz_line(&rest);
	expr_request_reset(fuzz_rq);
	if (url != NULL)
		(void)expr_request_set(fuzz_rq, "GET", url);
	if (ip != NULL)
		(void)expr_request_set_ip(fuzz_rq, ip);
	while ((line = fuzz_line(&rest)) != NULL) {
		if ((colon = strchr(line, ':')) == NULL)
			continue;
		*colon = '\0';
		expr_request_add_header(fuzz_rq, line, colon + 1);
	}
	expr_request_set_status(fuzz_rq, 429);
	if ((e = expr_parse(expr, &opts, &err)) != NULL) {
		r = expr_eval(e, fuzz_rq);
		if (expr_explain(e, fuzz_rq, fuzz_step, NULL) != r)
			abort();
		m = expr_memo_new(e);
		if (expr_eval_memo(m, fuzz_rq) != r ||
		    expr_eval_memo(m, fuzz_rq) != r)
			abort();
		expr_memo_free(m);
		expr_free(e);
	}
	free(text);
	return (0);
}
