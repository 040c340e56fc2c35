/*
 * Fuzz the theme parser: any bytes as a theme file, and as one colour
 * word. Whatever the input, every role has a colour the console can use
 * (the default, an index, or RGB) that degrades into the terminal's range,
 * and every problem names the file and holds no control character.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

#define FUZZ_FILE	"themes/fuzz.yaml"
#define FUZZ_ATTRS	(THEME_ATTR_BOLD|THEME_ATTR_DIM|THEME_ATTR_UNDERLINE| \
			    THEME_ATTR_REVERSE|THEME_ATTR_ITALIC| \
			    THEME_ATTR_STANDOUT)

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
broken(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_theme: %s: %s\n", what,
	    detail != NULL ? detail : "");
	abort();
}

static void
check_color(int c, const char *role)
{
	static const int	ncolors[] = { 0, 8, 16, 88, 256 };
	size_t			i;
	int			d;

	if (c != THEME_COLOR_DEFAULT && (c < 0 || c > 255) &&
	    (c & ~0xffffff) != THEME_COLOR_RGB)
		broken("a colour out of range", role);
	for (i = 0; i < sizeof ncolors / sizeof ncolors[0]; i++) {
		d = theme_color_degrade(c, ncolors[i]);
		if (d != THEME_COLOR_DEFAULT && (d < 0 || d >= ncolors[i]))
			broken("a colour degraded out of range", role);
	}
	if (theme_color_degrade(c, THEME_NCOLORS_DIRECT) != c &&
	    (c < 8 || c > 255))
		broken("a colour changed on a direct-colour terminal", role);
}

static void
check_problems(const struct theme_problem *problems, size_t n)
{
	size_t	i, j;

	if (n > THEME_MAX_PROBLEMS)
		broken("too many problems kept", NULL);
	for (i = 0; i < n; i++) {
		/* With no directories, only the built-in theme is read too. */
		if (strcmp(problems[i].file, FUZZ_FILE) != 0)
			broken("a problem in another file", problems[i].file);
		if (strncmp(problems[i].message, FUZZ_FILE ": ",
		    strlen(FUZZ_FILE) + 2) != 0)
			broken("a problem does not name the file",
			    problems[i].message);
		for (j = 0; problems[i].message[j] != '\0'; j++) {
			if ((unsigned char)problems[i].message[j] < 0x20 ||
			    problems[i].message[j] == 0x7f)
				broken("a control character in a problem",
				    problems[i].message);
		}
	}
}

/* The input's first line as a colour word. */
static void
check_word(const uint8_t *data, size_t size)
{
	char	 word[64], *cause = NULL;
	size_t	 n = 0;
	int	 c;

	while (n < size && n < sizeof word - 1 && data[n] != '\n' &&
	    data[n] != '\0') {
		word[n] = (char)data[n];
		n++;
	}
	word[n] = '\0';
	if (theme_color_parse(word, &c, &cause) == 0) {
		if (cause != NULL)
			broken("a colour with a cause", word);
		check_color(c, word);
	} else if (cause == NULL || strchr(cause, '\033') != NULL)
		broken("a bad colour without a clean cause", word);
	free(cause);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct theme_problem	*problems = NULL;
	struct theme		*t;
	size_t			 n = 0, i;

	check_word(data, size);
	t = theme_parse_text(FUZZ_FILE, (const char *)data, size, NULL,
	    &problems, &n);
	if (t == NULL || t->name == NULL || strcmp(t->name, "fuzz") != 0)
		broken("no theme, or not named after its file", NULL);
	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		check_color(t->roles[i].fg, theme_role_name(i));
		check_color(t->roles[i].bg, theme_role_name(i));
		if ((t->roles[i].attrs & ~FUZZ_ATTRS) != 0)
			broken("an unknown attribute", theme_role_name(i));
	}
	check_problems(problems, n);
	theme_apply_no_color(t);
	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		if (t->roles[i].fg != THEME_COLOR_DEFAULT ||
		    t->roles[i].bg != THEME_COLOR_DEFAULT)
			broken("a colour left under NO_COLOR",
			    theme_role_name(i));
	}
	theme_problems_free(problems, n);
	theme_free(t);
	return (0);
}
