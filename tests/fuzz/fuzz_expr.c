/*
 * libFuzzer target: the Rules language parser and formatter. What parses
 * formats (as fmt writes it, within the length limit) to text that parses
 * again, to the same tree, and formats the same, and every node's place
 * lies inside the text; a refusal points inside the text with a
 * message that is UTF-8 without control characters.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "expr_ast.h"
#include "text.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static size_t
chars(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return (n);
}

static void
check_places(const struct expr_node *n, int nchars)
{
	size_t	i;

	if (n->column < 1 || n->length < 0 ||
	    n->column + n->length - 1 > nchars)
		abort();
	if (n->kind == EXPR_N_CMP)
		check_places(n->lhs, nchars);
	for (i = 0; i < n->nkids; i++)
		check_places(n->kids[i], nchars);
}

static int
clean_message(const char *s)
{
	size_t		 n = strlen(s), len;
	uint32_t	 cp;

	while (n > 0) {
		if ((len = text_utf8_decode(s, n, &cp)) == 0 || cp < 0x20 ||
		    cp == 0x7f)
			return (0);
		s += len;
		n -= len;
	}
	return (1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct expr_options	 o = { EXPR_PLAN_NONE, 0 };
	struct expr_error	 err;
	struct expr		*e, *e2;
	char			*text, *f1, *f2, *r;

	/* The first byte chooses the plan and counting. */
	if (size > 0) {
		o.plan = (enum expr_plan)(data[0] % 5);
		o.counting = (data[0] & 0x80) != 0;
		data++;
		size--;
	}
	text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	if ((e = expr_parse(text, &o, &err)) == NULL) {
		if (err.column < 1 || (size_t)err.column > chars(text) + 1 ||
		    err.length < 1 || err.message[0] == '\0' ||
		    !clean_message(err.message))
			abort();
		r = expr_error_render(text, &err);
		free(r);
		free(text);
		return (0);
	}
	check_places(e->root, (int)chars(text));
	/* What fmt writes is taken, formats to itself, is the same tree. */
	f1 = expr_format_fit(e, NULL);
	if ((e2 = expr_parse(f1, &o, &err)) == NULL)
		abort();
	f2 = expr_format_fit(e2, NULL);
	if (strcmp(f1, f2) != 0)
		abort();
	free(f1);
	free(f2);
	f1 = expr_format(e);
	f2 = expr_format(e2);
	if (strcmp(f1, f2) != 0)
		abort();
	free(f1);
	free(f2);
	expr_free(e2);
	expr_free(e);
	free(text);
	return (0);
}
