/*
 * doc/edgetui.1 documents the config file from its options table: every
 * option of src/config_options.c has an item (.It Ic NAME) in the
 * CONFIGURATION section, top-level ones in its first list and profile keys
 * in its second, and the item states the option's default; and its keymap
 * paragraph names every context of ui/keymap.c's table.
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buf.h"
#include "common.h"
#include "config_options.h"
#include "keymap.h"
#include "xmalloc.h"

/* The man page's text (TOP_SRCDIR when set, else the configured one). */
static char *
manpage_read(void)
{
	const char	*top = getenv("TOP_SRCDIR");
	struct buf	 b = BUF_INITIALIZER;
	char		*path, chunk[4096];
	size_t		 n;
	FILE		*fp;

	path = xprintf("%s/doc/edgetui.1", top != NULL ? top :
	    TEST_TOP_SRCDIR);
	fp = fopen(path, "r");
	if (fp == NULL)
		fail_msg("%s: cannot be read", path);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_add(&b, chunk, n);
	fclose(fp);
	free(path);
	return (buf_detach(&b, NULL));
}

/* The text of section (".Sh NAME") up to the next one; NULL if none. */
static char *
manpage_section(const char *text, const char *name)
{
	char		*head, *start, *end;

	head = xprintf("\n.Sh %s\n", name);
	start = strstr(text, head);
	free(head);
	if (start == NULL)
		return (NULL);
	start++;
	end = strstr(start + 1, "\n.Sh ");
	return (xstrndup(start, end != NULL ? (size_t)(end - start) :
	    strlen(start)));
}

/* The nth (from 0) tag list of text, .Bl to its .El; NULL if none. */
static const char *
manpage_list(const char *text, int nth, size_t *len)
{
	const char	*bl = text, *el;

	for (; nth >= 0; nth--) {
		if ((bl = strstr(bl, "\n.Bl ")) == NULL)
			return (NULL);
		bl++;
	}
	if ((el = strstr(bl, "\n.El")) == NULL)
		return (NULL);
	*len = (size_t)(el - bl);
	return (bl);
}

/*
 * The item of list documenting name: an ".It" line with "Ic name" among
 * its words, and its text up to the next ".It". NULL if none.
 */
static char *
manpage_item(const char *list, size_t len, const char *name)
{
	const char	*it, *end = list + len, *eol, *next, *w;
	size_t		 n = strlen(name);

	for (it = list; it < end && (it = strstr(it, "\n.It ")) != NULL &&
	    it < end; it = eol) {
		it++;
		eol = memchr(it, '\n', (size_t)(end - it));
		if (eol == NULL)
			eol = end;
		for (w = it; (w = strstr(w, "Ic ")) != NULL && w < eol; w += 3) {
			if (strncmp(w + 3, name, n) != 0 ||
			    (w[3 + n] != ' ' && w[3 + n] != '\n'))
				continue;
			next = strstr(eol, "\n.It ");
			if (next == NULL || next > end)
				next = end;
			return (xstrndup(it, (size_t)(next - it)));
		}
	}
	return (NULL);
}

static void
manpage_check(const char *list, size_t len, const struct config_option *o,
    const char *where)
{
	char	*item;

	item = manpage_item(list, len, o->name);
	if (item == NULL)
		fail_msg("%s is not in edgetui.1's CONFIGURATION (%s): add "
		    "an .It Ic %s item", o->name, where, o->name);
	if (o->dflt != NULL && strstr(item, o->dflt) == NULL)
		fail_msg("edgetui.1: %s's item does not say its default, %s",
		    o->name, o->dflt);
	free(item);
}

static void
test_every_option_is_documented(void **state)
{
	const char	*top, *prof;
	char		*text, *conf;
	size_t		 ntop = 0, nprof = 0, i;

	(void)state;
	text = manpage_read();
	conf = manpage_section(text, "CONFIGURATION");
	assert_non_null(conf);
	assert_non_null(top = manpage_list(conf, 0, &ntop));
	assert_non_null(prof = manpage_list(conf, 1, &nprof));
	for (i = 0; i < CONFIG_NOPTIONS; i++)
		manpage_check(top, ntop, &config_options[i], "its first list");
	for (i = 0; i < CONFIG_NPROFILE_OPTIONS; i++)
		manpage_check(prof, nprof, &config_options_profile[i],
		    "the list of a profile's keys");
	free(conf);
	free(text);
}

/* The sections the page must have besides; and the check can fail. */
static void
test_sections_and_a_missing_option(void **state)
{
	static const char *const sections[] = {
		"CONFIGURATION", "FILES", "ENVIRONMENT", "EXAMPLES"
	};
	const char	*list;
	char		*text, *conf, *sec, *item;
	size_t		 i, len = 0;

	(void)state;
	text = manpage_read();
	for (i = 0; i < nitems(sections); i++) {
		sec = manpage_section(text, sections[i]);
		if (sec == NULL)
			fail_msg("edgetui.1 has no %s section", sections[i]);
		free(sec);
	}
	conf = manpage_section(text, "CONFIGURATION");
	assert_non_null(list = manpage_list(conf, 1, &len));
	item = manpage_item(list, len, "no_such_key");
	assert_null(item);
	/* "zone" shares its line with "account". */
	item = manpage_item(list, len, "zone");
	assert_non_null(item);
	free(item);
	free(conf);
	free(text);
}

/* The paragraph on rebinding keys: from its first words to the next .Pp. */
static char *
manpage_keymap_paragraph(const char *text)
{
	const char	*start, *end;

	start = strstr(text, "Every key can be rebound or unbound under");
	if (start == NULL)
		fail_msg("edgetui.1 has no paragraph on rebinding keys");
	if ((end = strstr(start, "\n.Pp\n")) == NULL)
		end = start + strlen(start);
	return (xstrndup(start, (size_t)(end - start)));
}

/* Whether text has word, not as a part of a longer name ("list-items"). */
static int
manpage_has_word(const char *text, const char *word)
{
	const char	*at;
	size_t		 n = strlen(word);

	for (at = strstr(text, word); at != NULL; at = strstr(at + 1, word)) {
		if (at > text && (isalnum((unsigned char)at[-1]) ||
		    at[-1] == '-'))
			continue;
		if (isalnum((unsigned char)at[n]) || at[n] == '-')
			continue;
		return (1);
	}
	return (0);
}

static void
test_every_keymap_context_is_documented(void **state)
{
	char		*text, *para;
	const char	*name;
	int		 c;

	(void)state;
	text = manpage_read();
	para = manpage_keymap_paragraph(text);
	for (c = 0; c < KEYMAP_NCONTEXTS; c++) {
		name = keymap_context_name(c);
		if (!manpage_has_word(para, name))
			fail_msg("edgetui.1: the keymap context %s is not in "
			    "the paragraph on rebinding keys", name);
	}
	/* The check can fail: a name that is not there, or only in part. */
	assert_false(manpage_has_word(para, "no-such-context"));
	assert_false(manpage_has_word(para, "first"));
	free(para);
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_option_is_documented),
		cmocka_unit_test(test_sections_and_a_missing_option),
		cmocka_unit_test(test_every_keymap_context_is_documented),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
