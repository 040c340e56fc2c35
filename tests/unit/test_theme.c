/*
 * Unit tests for theme.c: colour words, degrading to what a terminal has,
 * both forms of a style, inheritance (partial, chains, cycles, a user's own
 * default), problems with their key paths, NO_COLOR, and the shipped themes.
 */
#include "config.h"

#include <sys/stat.h>

#include <ftw.h>
#include <math.h>
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
#include "common.h"
#include "theme.h"
#include "testdir.h"
#include "xmalloc.h"

#define ACCEPTED "(a name such as red or bright-blue, colorN or #rrggbb)"

static const char *shipped[] = {
	"default", "high-contrast", "light", "mono", "solarized-dark"
};

/* ---- helpers ----------------------------------------------------------- */

static int
setup_dir(void **state)
{
	return (testdir_setup(state, "theme"));
}

#define teardown_dir testdir_teardown

static void
write_file(const char *dir, const char *name, const char *text)
{
	char	*path;
	FILE	*f;

	path = xprintf("%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	free(path);
}

/* The source tree's themes/: make check exports TOP_SRCDIR. */
static char *
themes_dir(void)
{
	const char	*top = getenv("TOP_SRCDIR");

	return (xprintf("%s/themes", top != NULL ? top : TEST_TOP_SRCDIR));
}

static int
color(const char *s)
{
	char	*cause = NULL;
	int	 c = 12345;

	if (theme_color_parse(s, &c, &cause) != 0)
		fail_msg("'%s': %s", s, cause);
	return (c);
}

/* The cause for a word that is not a colour. */
static char *
color_error(const char *s)
{
	char	*cause = NULL;
	int	 c = 12345;

	assert_int_equal(theme_color_parse(s, &c, &cause), -1);
	assert_int_equal(c, 12345);
	assert_non_null(cause);
	return (cause);
}

static void
expect_color_error(const char *s, const char *want)
{
	char	*cause = color_error(s);

	assert_string_equal(cause, want);
	free(cause);
}

struct parsed {
	struct theme		*theme;
	struct theme_problem	*problems;
	size_t			 n;
};

static void
parse_in(struct parsed *p, const char *file, const char *text,
    const char *const *dirs)
{
	memset(p, 0, sizeof *p);
	p->theme = theme_parse_text(file, text, strlen(text), dirs,
	    &p->problems, &p->n);
	assert_non_null(p->theme);
}

static void
parse(struct parsed *p, const char *text)
{
	parse_in(p, "x.yaml", text, NULL);
}

static void
parsed_free(struct parsed *p)
{
	theme_free(p->theme);
	theme_problems_free(p->problems, p->n);
}

static void
print_problems(const struct theme_problem *problems, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		print_error("  problem: %s\n", problems[i].message);
}

static void
expect_clean(const struct parsed *p)
{
	if (p->n != 0) {
		print_problems(p->problems, p->n);
		fail_msg("%zu unexpected problems", p->n);
	}
}

static void
expect_problem(const struct parsed *p, size_t i, const char *want)
{
	if (i >= p->n) {
		print_problems(p->problems, p->n);
		fail_msg("no problem %zu; wanted: %s", i, want);
	}
	assert_string_equal(p->problems[i].message, want);
}

static void
expect_style(const struct theme_style *st, int fg, int bg, unsigned attrs)
{
	assert_int_equal(st->fg, fg);
	assert_int_equal(st->bg, bg);
	assert_int_equal(st->attrs, attrs);
}

static void
expect_same_roles(const struct theme *a, const struct theme *b)
{
	size_t	i;

	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		if (memcmp(&a->roles[i], &b->roles[i], sizeof a->roles[i]))
			fail_msg("role %s differs", theme_role_name(i));
	}
}

static struct theme *
load_clean(const char *name, const char *const *dirs)
{
	struct theme_problem	*problems = NULL;
	struct theme		*t;
	size_t			 n = 0;
	char			*cause = NULL;

	t = theme_load(name, dirs, &problems, &n, &cause);
	if (t == NULL)
		fail_msg("%s: %s", name, cause);
	if (n != 0) {
		print_problems(problems, n);
		fail_msg("%s: %zu problems", name, n);
	}
	theme_problems_free(problems, n);
	return (t);
}

/* ---- colour words ------------------------------------------------------ */

static void
test_color_names(void **state)
{
	(void)state;
	assert_int_equal(color("default"), THEME_COLOR_DEFAULT);
	assert_int_equal(color("black"), 0);
	assert_int_equal(color("red"), 1);
	assert_int_equal(color("green"), 2);
	assert_int_equal(color("yellow"), 3);
	assert_int_equal(color("blue"), 4);
	assert_int_equal(color("magenta"), 5);
	assert_int_equal(color("cyan"), 6);
	assert_int_equal(color("white"), 7);
	assert_int_equal(color("bright-black"), 8);
	assert_int_equal(color("bright-red"), 9);
	assert_int_equal(color("brightred"), 9);
	assert_int_equal(color("bright-white"), 15);
	assert_int_equal(color("grey"), 8);
	assert_int_equal(color("gray"), 8);
	/* Any case. */
	assert_int_equal(color("RED"), 1);
	assert_int_equal(color("Bright-Cyan"), 14);
	assert_int_equal(color("DEFAULT"), THEME_COLOR_DEFAULT);
	assert_int_equal(color("GrEy"), 8);
}

static void
test_color_numbers(void **state)
{
	(void)state;
	assert_int_equal(color("color0"), 0);
	assert_int_equal(color("color9"), 9);
	assert_int_equal(color("color208"), 208);
	assert_int_equal(color("color255"), 255);
	assert_int_equal(color("colour42"), 42);
	assert_int_equal(color("COLOR7"), 7);
	assert_int_equal(color("#ff8700"), THEME_RGB(0xff, 0x87, 0x00));
	assert_int_equal(color("#FF8700"), THEME_RGB(0xff, 0x87, 0x00));
	assert_int_equal(color("#000000"), THEME_RGB(0, 0, 0));
	assert_int_equal(color("#abc"), THEME_RGB(0xaa, 0xbb, 0xcc));
	assert_int_equal(color("#FFF"), THEME_RGB(0xff, 0xff, 0xff));

	/* RGB black is not the terminal's default nor index 0. */
	assert_true(THEME_COLOR_IS_RGB(color("#000")));
	assert_int_not_equal(color("#000"), 0);
	assert_false(THEME_COLOR_IS_RGB(color("black")));
	assert_false(THEME_COLOR_IS_RGB(THEME_COLOR_DEFAULT));
	assert_int_equal(THEME_RGB_R(color("#123456")), 0x12);
	assert_int_equal(THEME_RGB_G(color("#123456")), 0x34);
	assert_int_equal(THEME_RGB_B(color("#123456")), 0x56);
}

static void
test_color_errors(void **state)
{
	char	*cause, long_word[200];

	(void)state;
	expect_color_error("purpel", "'purpel' is not a colour " ACCEPTED);
	expect_color_error("", "'' is not a colour " ACCEPTED);
	expect_color_error("bright", "'bright' is not a colour " ACCEPTED);
	expect_color_error("bright-grey",
	    "'bright-grey' is not a colour " ACCEPTED);
	expect_color_error("red ", "'red ' is not a colour " ACCEPTED);
	expect_color_error("color256",
	    "'color256' is not a colour (colorN takes N from 0 to 255)");
	expect_color_error("color",
	    "'color' is not a colour (colorN takes N from 0 to 255)");
	expect_color_error("color-1",
	    "'color-1' is not a colour (colorN takes N from 0 to 255)");
	expect_color_error("color1000",
	    "'color1000' is not a colour (colorN takes N from 0 to 255)");
	expect_color_error("#12345", "'#12345' is not a colour (#rrggbb or"
	    " #rgb takes 6 or 3 hex digits)");
	expect_color_error("#gggggg", "'#gggggg' is not a colour (#rrggbb or"
	    " #rgb takes 6 or 3 hex digits)");
	expect_color_error("#", "'#' is not a colour (#rrggbb or #rgb takes 6"
	    " or 3 hex digits)");

	/* What reaches the screen is short and holds no control character. */
	expect_color_error("re\033[2Jd",
	    "'re\\x1b[2Jd' is not a colour " ACCEPTED);
	memset(long_word, 'x', sizeof long_word - 1);
	long_word[sizeof long_word - 1] = '\0';
	cause = color_error(long_word);
	assert_true(strlen(cause) < 120);
	assert_non_null(strstr(cause, "...'"));
	free(cause);
}

/* ---- degrading --------------------------------------------------------- */

static void
test_degrade_256(void **state)
{
	(void)state;
	/* The cube: 0, 95, 135, 175, 215, 255 on each axis. */
	assert_int_equal(theme_color_degrade(THEME_RGB(255, 0, 0), 256), 196);
	assert_int_equal(theme_color_degrade(THEME_RGB(0, 0, 0), 256), 16);
	assert_int_equal(theme_color_degrade(THEME_RGB(255, 255, 255), 256),
	    231);
	assert_int_equal(theme_color_degrade(THEME_RGB(0x5f, 0x87, 0xaf), 256),
	    67);
	assert_int_equal(theme_color_degrade(THEME_RGB(0x60, 0x88, 0xb0), 256),
	    67);
	/* Greys closer to the ramp (8, 18, ... 238) than to the cube. */
	assert_int_equal(theme_color_degrade(THEME_RGB(128, 128, 128), 256),
	    244);
	assert_int_equal(theme_color_degrade(THEME_RGB(18, 18, 18), 256), 233);
	assert_int_equal(theme_color_degrade(THEME_RGB(0x76, 0x76, 0x76), 256),
	    243);
	assert_int_equal(theme_color_degrade(THEME_RGB(0x30, 0x31, 0x2f), 256),
	    236);
	/* Solarized's base03 is nearer a dark grey than any cube colour. */
	assert_int_equal(theme_color_degrade(THEME_RGB(0x00, 0x2b, 0x36), 256),
	    234);

	/* What the terminal has stays. */
	assert_int_equal(theme_color_degrade(200, 256), 200);
	assert_int_equal(theme_color_degrade(9, 256), 9);
	assert_int_equal(theme_color_degrade(THEME_COLOR_DEFAULT, 256),
	    THEME_COLOR_DEFAULT);
}

static void
test_degrade_16_and_8(void **state)
{
	(void)state;
	assert_int_equal(theme_color_degrade(THEME_RGB(255, 0, 0), 16), 9);
	assert_int_equal(theme_color_degrade(THEME_RGB(205, 0, 0), 16), 1);
	assert_int_equal(theme_color_degrade(THEME_RGB(128, 128, 128), 16), 8);
	assert_int_equal(theme_color_degrade(THEME_RGB(255, 0, 0), 8), 1);
	assert_int_equal(theme_color_degrade(THEME_RGB(0, 200, 0), 8), 2);
	assert_int_equal(theme_color_degrade(THEME_RGB(250, 250, 250), 8), 7);
	assert_int_equal(theme_color_degrade(THEME_RGB(10, 10, 10), 8), 0);

	/* Indexes the terminal lacks go by their colour: color200 is
	 * (255, 0, 215), a magenta. */
	assert_int_equal(theme_color_degrade(200, 16), 13);
	assert_int_equal(theme_color_degrade(200, 8), 5);
	assert_int_equal(theme_color_degrade(244, 16), 8);
	assert_int_equal(theme_color_degrade(12, 8), 4);
	assert_int_equal(theme_color_degrade(9, 8), 1);
	assert_int_equal(theme_color_degrade(15, 8), 7);
	assert_int_equal(theme_color_degrade(9, 16), 9);
	assert_int_equal(theme_color_degrade(5, 8), 5);
	/* 88 colours: only the 16 mean the same there. */
	assert_int_equal(theme_color_degrade(50, 88), 14);
	assert_int_equal(theme_color_degrade(THEME_RGB(255, 0, 0), 88), 9);
}

static void
test_degrade_mono_and_direct(void **state)
{
	int	n;

	(void)state;
	for (n = 0; n < 8; n++) {
		assert_int_equal(theme_color_degrade(1, n),
		    THEME_COLOR_DEFAULT);
		assert_int_equal(theme_color_degrade(THEME_RGB(255, 0, 0), n),
		    THEME_COLOR_DEFAULT);
		assert_int_equal(theme_color_degrade(THEME_COLOR_DEFAULT, n),
		    THEME_COLOR_DEFAULT);
	}
	assert_int_equal(theme_color_degrade(THEME_RGB(1, 2, 3),
	    THEME_NCOLORS_DIRECT), THEME_RGB(1, 2, 3));
	assert_int_equal(theme_color_degrade(3, THEME_NCOLORS_DIRECT), 3);
	/* Past the first 8, an index becomes its colour. */
	assert_int_equal(theme_color_degrade(9, THEME_NCOLORS_DIRECT),
	    THEME_RGB(255, 0, 0));
	assert_int_equal(theme_color_degrade(200, THEME_NCOLORS_DIRECT),
	    THEME_RGB(255, 0, 215));
	assert_int_equal(theme_color_degrade(232, THEME_NCOLORS_DIRECT),
	    THEME_RGB(8, 8, 8));
}

static void
test_degrade_theme(void **state)
{
	struct parsed	p;

	(void)state;
	parse(&p, "roles:\n"
	    "  title: \"bold #ff0000 on color200\"\n"
	    "  normal: default\n");
	expect_clean(&p);
	theme_degrade(p.theme, 8);
	expect_style(&p.theme->roles[THEME_ROLE_TITLE], 1, 5, THEME_ATTR_BOLD);
	expect_style(&p.theme->roles[THEME_ROLE_NORMAL], THEME_COLOR_DEFAULT,
	    THEME_COLOR_DEFAULT, 0);
	theme_degrade(p.theme, 2);
	expect_style(&p.theme->roles[THEME_ROLE_TITLE], THEME_COLOR_DEFAULT,
	    THEME_COLOR_DEFAULT, THEME_ATTR_BOLD);
	parsed_free(&p);
}

/* ---- roles and styles -------------------------------------------------- */

static void
test_roles_table(void **state)
{
	size_t	i, j;

	(void)state;
	assert_string_equal(theme_role_name(THEME_ROLE_ROW_SELECTED),
	    "row-selected");
	assert_string_equal(theme_role_name(THEME_ROLE_PROGRESS), "progress");
	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		assert_int_equal(theme_role_find(theme_role_name(i)), i);
		assert_true(strlen(theme_role_help(i)) > 3);
		for (j = 0; j < i; j++) {
			assert_string_not_equal(theme_role_name(i),
			    theme_role_name(j));
		}
	}
	assert_int_equal(theme_role_find("Row-Selected"),
	    THEME_ROLE_ROW_SELECTED);
	assert_int_equal(theme_role_find("row_selected"), -1);
	assert_int_equal(theme_role_find(""), -1);
	assert_null(theme_role_name(THEME_ROLE_COUNT));
}

static void
test_short_form(void **state)
{
	struct parsed	p;

	(void)state;
	parse(&p, "roles:\n"
	    "  title: bold white on blue\n"
	    "  row-selected: reverse\n"
	    "  error: \"on #102030 underline Bright-Red ITALIC\"\n"
	    "  status: on red\n"
	    "  key: \"\"\n"
	    "  header: bold dim underline reverse italic standout\n");
	expect_clean(&p);
	expect_style(&p.theme->roles[THEME_ROLE_TITLE], 7, 4, THEME_ATTR_BOLD);
	expect_style(&p.theme->roles[THEME_ROLE_ROW_SELECTED],
	    THEME_COLOR_DEFAULT, THEME_COLOR_DEFAULT, THEME_ATTR_REVERSE);
	expect_style(&p.theme->roles[THEME_ROLE_ERROR], 9,
	    THEME_RGB(0x10, 0x20, 0x30),
	    THEME_ATTR_UNDERLINE|THEME_ATTR_ITALIC);
	expect_style(&p.theme->roles[THEME_ROLE_STATUS], THEME_COLOR_DEFAULT,
	    1, 0);
	/* Text replaces the inherited style: "" is the plain style. */
	expect_style(&p.theme->roles[THEME_ROLE_KEY], THEME_COLOR_DEFAULT,
	    THEME_COLOR_DEFAULT, 0);
	expect_style(&p.theme->roles[THEME_ROLE_HEADER], THEME_COLOR_DEFAULT,
	    THEME_COLOR_DEFAULT, THEME_ATTR_BOLD|THEME_ATTR_DIM|
	    THEME_ATTR_UNDERLINE|THEME_ATTR_REVERSE|THEME_ATTR_ITALIC|
	    THEME_ATTR_STANDOUT);
	parsed_free(&p);

	parse(&p, "roles:\n"
	    "  title: red blue\n"
	    "  header: bold on\n");
	expect_problem(&p, 0, "x.yaml: roles.title: 'blue' is a second"
	    " foreground (write 'on' before a background)");
	expect_problem(&p, 1, "x.yaml: roles.header: 'on' needs a background"
	    " colour after it");
	assert_int_equal(p.n, 2);
	expect_style(&p.theme->roles[THEME_ROLE_TITLE], 1,
	    THEME_COLOR_DEFAULT, 0);
	expect_style(&p.theme->roles[THEME_ROLE_HEADER], THEME_COLOR_DEFAULT,
	    THEME_COLOR_DEFAULT, THEME_ATTR_BOLD);
	parsed_free(&p);
}

static void
test_map_form_changes_fields(void **state)
{
	struct theme	*dflt;
	struct parsed	 p;

	(void)state;
	dflt = theme_default();
	/* The default header is bold white on blue. */
	expect_style(&dflt->roles[THEME_ROLE_HEADER], 7, 4, THEME_ATTR_BOLD);
	parse(&p, "roles:\n"
	    "  header: {fg: red}\n"
	    "  badge: {attrs: []}\n"
	    "  title: {attrs: underline reverse}\n"
	    "  column: {bg: \"#00ff00\", attrs: [italic, Bold]}\n"
	    "  error: {attrs: }\n");
	expect_clean(&p);
	expect_style(&p.theme->roles[THEME_ROLE_HEADER], 1, 4, THEME_ATTR_BOLD);
	expect_style(&p.theme->roles[THEME_ROLE_BADGE],
	    dflt->roles[THEME_ROLE_BADGE].fg,
	    dflt->roles[THEME_ROLE_BADGE].bg, 0);
	expect_style(&p.theme->roles[THEME_ROLE_TITLE],
	    dflt->roles[THEME_ROLE_TITLE].fg, dflt->roles[THEME_ROLE_TITLE].bg,
	    THEME_ATTR_UNDERLINE|THEME_ATTR_REVERSE);
	expect_style(&p.theme->roles[THEME_ROLE_COLUMN],
	    dflt->roles[THEME_ROLE_COLUMN].fg, THEME_RGB(0, 255, 0),
	    THEME_ATTR_ITALIC|THEME_ATTR_BOLD);
	expect_style(&p.theme->roles[THEME_ROLE_ERROR],
	    dflt->roles[THEME_ROLE_ERROR].fg, dflt->roles[THEME_ROLE_ERROR].bg,
	    0);
	assert_string_equal(p.theme->name, "x");
	parsed_free(&p);
	theme_free(dflt);
}

static void
test_palette(void **state)
{
	struct parsed	p;

	(void)state;
	parse(&p, "palette:\n"
	    "  sea: \"#268bd2\"\n"
	    "  red: \"#dc322f\"\n"
	    "  deep: sea\n"
	    "  Ink: color235\n"
	    "roles:\n"
	    "  title: bold SEA on ink\n"
	    "  error: {fg: red, bg: deep}\n"
	    "  ok: green\n");
	expect_clean(&p);
	expect_style(&p.theme->roles[THEME_ROLE_TITLE],
	    THEME_RGB(0x26, 0x8b, 0xd2), 235, THEME_ATTR_BOLD);
	/*
	 * A palette name comes before the colour of that name; the map keeps
	 * the default's bold.
	 */
	expect_style(&p.theme->roles[THEME_ROLE_ERROR],
	    THEME_RGB(0xdc, 0x32, 0x2f), THEME_RGB(0x26, 0x8b, 0xd2),
	    THEME_ATTR_BOLD);
	expect_style(&p.theme->roles[THEME_ROLE_OK], 2, THEME_COLOR_DEFAULT, 0);
	parsed_free(&p);

	parse(&p, "palette:\n"
	    "  \"my red\": \"#ff0000\"\n"
	    "  bad: \"#ff00\"\n"
	    "  later: sooner\n"
	    "  sooner: red\n"
	    "roles:\n"
	    "  title: bad\n");
	expect_problem(&p, 0, "x.yaml: palette.'my red': a palette name is one"
	    " word of letters, digits, - and _");
	expect_problem(&p, 1, "x.yaml: palette.bad: '#ff00' is not a colour"
	    " (#rrggbb or #rgb takes 6 or 3 hex digits)");
	expect_problem(&p, 2, "x.yaml: palette.later: 'sooner' is not a colour "
	    ACCEPTED);
	expect_problem(&p, 3, "x.yaml: roles.title: 'bad' is not a colour "
	    ACCEPTED);
	assert_int_equal(p.n, 4);
	parsed_free(&p);

	parse(&p, "palette: [red]\n");
	expect_problem(&p, 0, "x.yaml: palette: a map of names to colours, not"
	    " a list");
	parsed_free(&p);
}

/* ---- problems ---------------------------------------------------------- */

static void
test_problems_collected(void **state)
{
	struct theme	*dflt;
	struct parsed	 p;

	(void)state;
	dflt = theme_default();
	parse_in(&p, "themes/x.yaml", "colours: {}\n"
	    "roles:\n"
	    "  title: {fg: purpel, bg: blue}\n"
	    "  titel: bold\n"
	    "  header: {attrs: [bold, blink, 3]}\n"
	    "  error: {fg: }\n"
	    "  ok: {fgg: red}\n"
	    "  key: bold purpel on blue\n"
	    "  dim: [red]\n"
	    "  badge: {fg: 208}\n"
	    "  status: bold red\n", NULL);
	expect_problem(&p, 0, "themes/x.yaml: colours: unknown key (inherits,"
	    " palette or roles)");
	expect_problem(&p, 1, "themes/x.yaml: roles.title.fg: 'purpel' is not"
	    " a colour " ACCEPTED);
	expect_problem(&p, 2, "themes/x.yaml: roles.titel: unknown role (did"
	    " you mean title?)");
	expect_problem(&p, 3, "themes/x.yaml: roles.header.attrs: 'blink' is"
	    " not an attribute (bold, dim, underline, reverse, italic or"
	    " standout)");
	expect_problem(&p, 4, "themes/x.yaml: roles.header.attrs: an attribute"
	    " is text (bold, dim, underline, reverse, italic or standout), not"
	    " a number");
	expect_problem(&p, 5, "themes/x.yaml: roles.error.fg: no colour (in"
	    " YAML a # starts a comment: write \"#rrggbb\" in quotes)");
	expect_problem(&p, 6, "themes/x.yaml: roles.ok.fgg: unknown key (fg,"
	    " bg or attrs)");
	expect_problem(&p, 7, "themes/x.yaml: roles.key: 'purpel' is not a"
	    " colour " ACCEPTED);
	expect_problem(&p, 8, "themes/x.yaml: roles.dim: a style is text such"
	    " as \"bold white on blue\" or a map of fg, bg and attrs, not a"
	    " list");
	expect_problem(&p, 9, "themes/x.yaml: roles.badge.fg: a colour is text"
	    " (a name such as red or bright-blue, colorN or #rrggbb), not a"
	    " number");
	assert_int_equal(p.n, 10);
	assert_string_equal(p.problems[0].file, "themes/x.yaml");

	/* The rest applies. */
	expect_style(&p.theme->roles[THEME_ROLE_TITLE],
	    dflt->roles[THEME_ROLE_TITLE].fg, 4,
	    dflt->roles[THEME_ROLE_TITLE].attrs);
	expect_style(&p.theme->roles[THEME_ROLE_HEADER],
	    dflt->roles[THEME_ROLE_HEADER].fg,
	    dflt->roles[THEME_ROLE_HEADER].bg, THEME_ATTR_BOLD);
	expect_style(&p.theme->roles[THEME_ROLE_KEY], THEME_COLOR_DEFAULT, 4,
	    THEME_ATTR_BOLD);
	expect_style(&p.theme->roles[THEME_ROLE_STATUS], 1,
	    THEME_COLOR_DEFAULT, THEME_ATTR_BOLD);
	assert_memory_equal(&p.theme->roles[THEME_ROLE_ERROR],
	    &dflt->roles[THEME_ROLE_ERROR], sizeof (struct theme_style));
	assert_memory_equal(&p.theme->roles[THEME_ROLE_DIM],
	    &dflt->roles[THEME_ROLE_DIM], sizeof (struct theme_style));
	parsed_free(&p);
	theme_free(dflt);
}

static void
test_problems_whole_file(void **state)
{
	struct theme	*dflt;
	struct parsed	 p;

	(void)state;
	dflt = theme_default();

	/* Broken YAML: one problem with the position; the parent applies. */
	parse(&p, "roles:\n  title: [bold\n");
	assert_int_equal(p.n, 1);
	assert_true(strncmp(p.problems[0].message, "x.yaml: line ", 13) == 0);
	expect_same_roles(p.theme, dflt);
	parsed_free(&p);

	parse(&p, "- red\n- blue\n");
	expect_problem(&p, 0, "x.yaml: a theme is a map of inherits, palette"
	    " and roles, not a list");
	assert_int_equal(p.n, 1);
	parsed_free(&p);

	parse(&p, "roles: bold\n");
	expect_problem(&p, 0, "x.yaml: roles: a map of role names to styles,"
	    " not text");
	parsed_free(&p);

	/* Nothing but comments, or nothing at all, is the parent. */
	parse(&p, "# nothing yet\n");
	expect_clean(&p);
	expect_same_roles(p.theme, dflt);
	parsed_free(&p);
	parse(&p, "");
	expect_clean(&p);
	expect_same_roles(p.theme, dflt);
	parsed_free(&p);

	theme_free(dflt);
}

static void
test_problems_safe_and_bounded(void **state)
{
	struct buf	 big = BUF_INITIALIZER;
	struct parsed	 p;
	size_t		 i;

	(void)state;
	/* Keys and values from the file are escaped in messages. */
	parse(&p, "roles:\n"
	    "  \"ti\\etle\": bold\n"
	    "  title: \"\\e[31m\"\n");
	expect_problem(&p, 0, "x.yaml: roles.'ti\\x1btle': unknown role (did"
	    " you mean title?)");
	expect_problem(&p, 1, "x.yaml: roles.title: '\\x1b[31m' is not a"
	    " colour " ACCEPTED);
	parsed_free(&p);

	/* A file of mistakes stops at THEME_MAX_PROBLEMS. */
	buf_adds(&big, "roles:\n");
	for (i = 0; i < 3 * THEME_MAX_PROBLEMS; i++)
		buf_addf(&big, "  nosuch%zu: bold\n", i);
	parse(&p, buf_str(&big));
	assert_int_equal(p.n, THEME_MAX_PROBLEMS);
	assert_string_equal(p.problems[p.n - 1].message,
	    "x.yaml: too many problems; the rest was not checked");
	parsed_free(&p);
	buf_free(&big);
}

/* ---- inheritance ------------------------------------------------------- */

static void
test_inherits_chain(void **state)
{
	const char	*dir = *state;
	const char	*dirs[] = { dir, NULL };
	struct theme	*t, *dflt;

	write_file(dir, "a.yaml", "inherits: b\nroles:\n  title: red\n");
	write_file(dir, "b.yaml", "inherits: c\nroles:\n"
	    "  title: green\n  header: blue\n");
	write_file(dir, "c.yaml", "roles:\n  error: {bg: yellow}\n"
	    "  header: cyan\n");
	dflt = theme_default();
	t = load_clean("a", dirs);
	assert_string_equal(t->name, "a");
	expect_style(&t->roles[THEME_ROLE_TITLE], 1, THEME_COLOR_DEFAULT, 0);
	expect_style(&t->roles[THEME_ROLE_HEADER], 4, THEME_COLOR_DEFAULT, 0);
	expect_style(&t->roles[THEME_ROLE_ERROR],
	    dflt->roles[THEME_ROLE_ERROR].fg, 3,
	    dflt->roles[THEME_ROLE_ERROR].attrs);
	assert_memory_equal(&t->roles[THEME_ROLE_ROW_SELECTED],
	    &dflt->roles[THEME_ROLE_ROW_SELECTED], sizeof (struct theme_style));
	theme_free(t);
	theme_free(dflt);
}

static void
test_inherits_cycle(void **state)
{
	const char		*dir = *state;
	const char		*dirs[] = { dir, NULL };
	struct theme_problem	*problems = NULL;
	struct theme		*t, *dflt;
	size_t			 n = 0;
	char			*cause = NULL, *want;

	write_file(dir, "a.yaml", "inherits: b\nroles:\n  title: red\n");
	write_file(dir, "b.yaml", "inherits: a\nroles:\n  header: blue\n");
	write_file(dir, "self.yaml", "inherits: self\nroles:\n  ok: red\n");
	dflt = theme_default();

	t = theme_load("a", dirs, &problems, &n, &cause);
	assert_non_null(t);
	assert_int_equal(n, 1);
	want = xprintf("%s/b.yaml: inherits: a cycle (a -> b -> a); the"
	    " built-in default is used instead", dir);
	assert_string_equal(problems[0].message, want);
	free(want);
	/* Both files still apply, over the built-in default. */
	expect_style(&t->roles[THEME_ROLE_TITLE], 1, THEME_COLOR_DEFAULT, 0);
	expect_style(&t->roles[THEME_ROLE_HEADER], 4, THEME_COLOR_DEFAULT, 0);
	assert_memory_equal(&t->roles[THEME_ROLE_ERROR],
	    &dflt->roles[THEME_ROLE_ERROR], sizeof (struct theme_style));
	theme_free(t);

	/* Problems are appended to what the caller has. */
	t = theme_load("self", dirs, &problems, &n, &cause);
	assert_non_null(t);
	assert_int_equal(n, 2);
	want = xprintf("%s/self.yaml: inherits: a cycle (self -> self); the"
	    " built-in default is used instead", dir);
	assert_string_equal(problems[1].message, want);
	free(want);
	expect_style(&t->roles[THEME_ROLE_OK], 1, THEME_COLOR_DEFAULT, 0);
	theme_free(t);
	theme_problems_free(problems, n);
	theme_free(dflt);
}

static void
test_inherits_problems(void **state)
{
	const char	*dir = *state;
	const char	*dirs[] = { dir, NULL };
	struct parsed	 p;
	char		*name, *text, *want;
	size_t		 i;

	write_file(dir, "other.yaml", "roles:\n  title: red\n");
	parse_in(&p, "x.yaml", "inherits: nosuch\nroles:\n  ok: red\n", dirs);
	expect_problem(&p, 0, "x.yaml: inherits: no theme 'nosuch' (themes:"
	    " default, other); the built-in default is used instead");
	assert_int_equal(p.n, 1);
	expect_style(&p.theme->roles[THEME_ROLE_OK], 1, THEME_COLOR_DEFAULT, 0);
	parsed_free(&p);

	parse_in(&p, "x.yaml", "inherits: ../other\n", dirs);
	expect_problem(&p, 0, "x.yaml: inherits: '../other' is not a theme name"
	    " (letters, digits, '.', '-' and '_')");
	parsed_free(&p);
	parse_in(&p, "x.yaml", "inherits: [other]\n", dirs);
	expect_problem(&p, 0, "x.yaml: inherits: a theme name, not a list");
	parsed_free(&p);

	/*
	 * A chain longer than the limit stops with a problem: top, t19 ...
	 * t13 are 8 deep, so t13 cannot have its parent.
	 */
	for (i = 0; i < 20; i++) {
		name = xprintf("t%zu.yaml", i);
		text = i == 0 ? xstrdup("roles: {}\n") :
		    xprintf("inherits: t%zu\n", i - 1);
		write_file(dir, name, text);
		free(text);
		free(name);
	}
	parse_in(&p, "top.yaml", "inherits: t19\nroles:\n  ok: red\n", dirs);
	want = xprintf("%s/t13.yaml: inherits: more than 8 themes deep; the"
	    " built-in default is used instead", dir);
	expect_problem(&p, 0, want);
	assert_int_equal(p.n, 1);
	expect_style(&p.theme->roles[THEME_ROLE_OK], 1, THEME_COLOR_DEFAULT, 0);
	free(want);
	parsed_free(&p);
}

static void
test_partial_inheritance(void **state)
{
	char		*dir = themes_dir();
	const char	*dirs[] = { dir, NULL };
	struct theme	*light, *dflt;
	size_t		 i, same = 0;

	(void)state;
	light = load_clean("light", dirs);
	dflt = theme_default();
	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		if (memcmp(&light->roles[i], &dflt->roles[i],
		    sizeof light->roles[i]) == 0)
			same++;
	}
	/* light sets some roles and inherits the others. */
	assert_true(same > 0 && same < THEME_ROLE_COUNT);
	assert_memory_equal(&light->roles[THEME_ROLE_ROW_SELECTED],
	    &dflt->roles[THEME_ROLE_ROW_SELECTED], sizeof (struct theme_style));
	/* Its map-form roles keep the default's attributes. */
	assert_int_equal(light->roles[THEME_ROLE_KEY].attrs,
	    dflt->roles[THEME_ROLE_KEY].attrs);
	assert_int_not_equal(light->roles[THEME_ROLE_KEY].fg,
	    dflt->roles[THEME_ROLE_KEY].fg);
	theme_free(light);
	theme_free(dflt);
	free(dir);
}

static void
test_user_default(void **state)
{
	const char	*user = *state;
	char		*shipped_dir = themes_dir();
	const char	*dirs[] = { user, shipped_dir, NULL };
	struct theme	*t, *dflt;

	/* The user's default.yaml changes the built-in one... */
	write_file(user, "default.yaml", "roles:\n  title: {fg: red}\n");
	dflt = theme_default();
	t = load_clean("default", dirs);
	expect_style(&t->roles[THEME_ROLE_TITLE], 1,
	    dflt->roles[THEME_ROLE_TITLE].bg,
	    dflt->roles[THEME_ROLE_TITLE].attrs);
	assert_memory_equal(&t->roles[THEME_ROLE_HEADER],
	    &dflt->roles[THEME_ROLE_HEADER], sizeof (struct theme_style));
	theme_free(t);
	/* ...and every theme that inherits default. */
	t = load_clean("light", dirs);
	assert_int_equal(t->roles[THEME_ROLE_TITLE].fg, 1);
	theme_free(t);

	/* A user's theme comes before the shipped one of that name. */
	write_file(user, "mono.yaml", "roles:\n  title: bright-green\n");
	t = load_clean("mono", dirs);
	assert_int_equal(t->roles[THEME_ROLE_TITLE].fg, 10);
	theme_free(t);
	theme_free(dflt);
	free(shipped_dir);
}

/* ---- loading ----------------------------------------------------------- */

static void
test_load_errors(void **state)
{
	const char		*dir = *state;
	const char		*dirs[] = { "/nonexistent", dir, NULL };
	struct theme_problem	*problems = NULL;
	struct theme		*t, *dflt;
	size_t			 n = 0;
	char			*cause = NULL, *path;

	write_file(dir, "zebra.yaml", "roles: {}\n");
	write_file(dir, "alpha.yaml", "");
	write_file(dir, ".hidden.yaml", "");
	write_file(dir, "notes.txt", "");
	assert_null(theme_load("nosuch", dirs, &problems, &n, &cause));
	assert_string_equal(cause, "no theme 'nosuch' (themes: alpha, default,"
	    " zebra)");
	free(cause);
	cause = NULL;
	assert_null(theme_load("../zebra", dirs, &problems, &n, &cause));
	assert_string_equal(cause, "'../zebra' is not a theme name (letters,"
	    " digits, '.', '-' and '_')");
	free(cause);
	cause = NULL;
	assert_null(theme_load("", dirs, &problems, &n, &cause));
	free(cause);
	cause = NULL;

	/* A directory in the way is an error, not a missing theme. */
	path = xprintf("%s/dir.yaml", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_null(theme_load("dir", dirs, &problems, &n, &cause));
	assert_non_null(strstr(cause, "dir.yaml: not a regular file"));
	free(cause);
	cause = NULL;
	assert_int_equal(rmdir(path), 0);
	free(path);
	assert_int_equal(n, 0);

	/* default always loads, from the files or built in. */
	dflt = theme_default();
	t = load_clean("default", NULL);
	expect_same_roles(t, dflt);
	assert_string_equal(t->name, "default");
	theme_free(t);
	theme_free(dflt);
}

static void
test_list(void **state)
{
	const char	*dir = *state;
	char		*shipped_dir = themes_dir();
	const char	*dirs[] = { dir, shipped_dir, NULL };
	char		**names;

	write_file(dir, "light.yaml", "");
	write_file(dir, "mine.yaml", "");
	write_file(dir, ".yaml", "");
	names = theme_list(dirs);
	assert_string_equal(names[0], "default");
	assert_string_equal(names[1], "high-contrast");
	assert_string_equal(names[2], "light");
	assert_string_equal(names[3], "mine");
	assert_string_equal(names[4], "mono");
	assert_string_equal(names[5], "solarized-dark");
	assert_null(names[6]);
	theme_list_free(names);

	names = theme_list(NULL);
	assert_string_equal(names[0], "default");
	assert_null(names[1]);
	theme_list_free(names);
	free(shipped_dir);
}

/* ---- NO_COLOR and the shipped themes ----------------------------------- */

static void
test_no_color_keeps_attrs(void **state)
{
	struct theme	*t, *before;
	size_t		 i;

	(void)state;
	t = theme_default();
	before = theme_default();
	theme_apply_no_color(t);
	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		expect_style(&t->roles[i], THEME_COLOR_DEFAULT,
		    THEME_COLOR_DEFAULT, before->roles[i].attrs |
		    (before->roles[i].bg !=
		    before->roles[THEME_ROLE_NORMAL].bg ?
		    THEME_ATTR_REVERSE : 0));
	}
	/* The cursor (a background colour) stays visible without colour. */
	assert_int_not_equal(before->roles[THEME_ROLE_ROW_SELECTED].bg,
	    THEME_COLOR_DEFAULT);
	assert_true(t->roles[THEME_ROLE_ROW_SELECTED].attrs &
	    THEME_ATTR_REVERSE);
	theme_free(t);
	theme_free(before);
}

/* Each file opens with "# NAME: what it is". */
static void
expect_description(const char *dir, const char *name)
{
	char	*path, line[256], *want;
	FILE	*f;

	path = xprintf("%s/%s.yaml", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	want = xprintf("# %s: ", name);
	if (strncmp(line, want, strlen(want)) != 0 ||
	    strlen(line) < strlen(want) + 10)
		fail_msg("%s does not start with a description", path);
	free(want);
	free(path);
}

/* The RGB of a colour of a 256-colour terminal (xterm's). */
static void
xterm_rgb(int c, double rgb[3])
{
	static const int	 basic[16][3] = {
		{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
		{ 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 },
		{ 229, 229, 229 }, { 127, 127, 127 }, { 255, 0, 0 },
		{ 0, 255, 0 }, { 255, 255, 0 }, { 92, 92, 255 },
		{ 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 }
	};
	static const int	 level[6] = { 0, 95, 135, 175, 215, 255 };
	int			 i;

	for (i = 0; i < 3; i++) {
		if (c < 16)
			rgb[i] = basic[c][i];
		else if (c < 232)
			rgb[i] = level[(c - 16) / (i == 0 ? 36 : i == 1 ? 6 :
			    1) % 6];
		else
			rgb[i] = 8 + 10 * (c - 232);
	}
}

/* WCAG's relative luminance and contrast ratio of two such colours. */
static double
luminance(int c)
{
	double	rgb[3], v;
	int	i;

	xterm_rgb(c, rgb);
	for (i = 0; i < 3; i++) {
		v = rgb[i] / 255;
		rgb[i] = v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055,
		    2.4);
	}
	return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]);
}

static double
contrast(int a, int b)
{
	double	la = luminance(a), lb = luminance(b);

	return (la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) /
	    (la + 0.05));
}

/*
 * On a 256-colour terminal the cursor's bar stands out from the rows
 * around it (solarized-dark's base02 on base03 once did not: 235 on 234),
 * and without colour the focused input is told apart from the others by
 * more than bold.
 */
static void
test_shipped_contrast(void **state)
{
	char		*dir = themes_dir();
	const char	*dirs[] = { dir, NULL };
	struct theme	*t;
	size_t		 i;
	int		 bg, sel;
	unsigned	 in, focus;

	(void)state;
	for (i = 0; i < nitems(shipped); i++) {
		t = load_clean(shipped[i], dirs);
		theme_degrade(t, 256);
		bg = t->roles[THEME_ROLE_NORMAL].bg;
		sel = t->roles[THEME_ROLE_ROW_SELECTED].bg;
		if (bg >= 0 && sel >= 0 && contrast(bg, sel) < 3)
			fail_msg("%s: the cursor's bar %d on %d has a contrast "
			    "of %.2f", shipped[i], sel, bg, contrast(bg, sel));
		theme_apply_no_color(t);
		in = t->roles[THEME_ROLE_INPUT].attrs;
		focus = t->roles[THEME_ROLE_INPUT_FOCUS].attrs;
		if ((focus & THEME_ATTR_REVERSE) == 0 ||
		    (in & THEME_ATTR_REVERSE) != 0)
			fail_msg("%s: without colour the focused input is not "
			    "the one reversed", shipped[i]);
		theme_free(t);
	}
	free(dir);
}

static void
test_shipped_themes(void **state)
{
	char		*dir = themes_dir();
	const char	*dirs[] = { dir, NULL };
	struct theme	*t;
	size_t		 i, j;
	unsigned	 sel, normal;

	(void)state;
	for (i = 0; i < nitems(shipped); i++) {
		expect_description(dir, shipped[i]);
		t = load_clean(shipped[i], dirs);
		assert_string_equal(t->name, shipped[i]);
		/* Under NO_COLOR the cursor still stands out. */
		theme_apply_no_color(t);
		sel = t->roles[THEME_ROLE_ROW_SELECTED].attrs;
		normal = t->roles[THEME_ROLE_NORMAL].attrs;
		if (sel == normal ||
		    (sel & (THEME_ATTR_REVERSE|THEME_ATTR_STANDOUT)) == 0)
			fail_msg("%s: row-selected is lost without colour",
			    shipped[i]);
		theme_free(t);
	}

	/* mono has no colour at all, in any role, inherited or not. */
	t = load_clean("mono", dirs);
	for (j = 0; j < THEME_ROLE_COUNT; j++) {
		if (t->roles[j].fg != THEME_COLOR_DEFAULT ||
		    t->roles[j].bg != THEME_COLOR_DEFAULT)
			fail_msg("mono: %s has a colour", theme_role_name(j));
	}
	theme_free(t);

	/* solarized-dark paints every background itself. */
	t = load_clean("solarized-dark", dirs);
	for (j = 0; j < THEME_ROLE_COUNT; j++) {
		if (!THEME_COLOR_IS_RGB(t->roles[j].bg))
			fail_msg("solarized-dark: %s has no background",
			    theme_role_name(j));
	}
	theme_free(t);
	free(dir);
}

static void
test_builtin_is_the_file(void **state)
{
	char		*dir = themes_dir(), *path, *text;
	const char	*dirs[] = { dir, NULL };
	struct theme	*file, *builtin;
	FILE		*f;
	long		 len;

	(void)state;
	builtin = theme_default();
	file = load_clean("default", dirs);
	assert_string_equal(builtin->name, "default");
	expect_same_roles(builtin, file);
	theme_free(file);
	theme_free(builtin);

	/* The text compiled in is the file's, byte for byte. */
	path = xprintf("%s/default.yaml", dir);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	text = xmalloc(len + 1);
	assert_int_equal(fread(text, 1, len, f), (size_t)len);
	fclose(f);
	assert_int_equal(theme_default_yaml_len, (size_t)len);
	assert_memory_equal(theme_default_yaml, text, len);
	assert_int_equal(theme_default_yaml[len], '\0');
	free(text);
	free(path);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_color_names),
		cmocka_unit_test(test_color_numbers),
		cmocka_unit_test(test_color_errors),
		cmocka_unit_test(test_degrade_256),
		cmocka_unit_test(test_degrade_16_and_8),
		cmocka_unit_test(test_degrade_mono_and_direct),
		cmocka_unit_test(test_degrade_theme),
		cmocka_unit_test(test_roles_table),
		cmocka_unit_test(test_short_form),
		cmocka_unit_test(test_map_form_changes_fields),
		cmocka_unit_test(test_palette),
		cmocka_unit_test(test_problems_collected),
		cmocka_unit_test(test_problems_whole_file),
		cmocka_unit_test(test_problems_safe_and_bounded),
		cmocka_unit_test_setup_teardown(test_inherits_chain, setup_dir,
		    teardown_dir),
		cmocka_unit_test_setup_teardown(test_inherits_cycle, setup_dir,
		    teardown_dir),
		cmocka_unit_test_setup_teardown(test_inherits_problems,
		    setup_dir, teardown_dir),
		cmocka_unit_test(test_partial_inheritance),
		cmocka_unit_test_setup_teardown(test_user_default, setup_dir,
		    teardown_dir),
		cmocka_unit_test_setup_teardown(test_load_errors, setup_dir,
		    teardown_dir),
		cmocka_unit_test_setup_teardown(test_list, setup_dir,
		    teardown_dir),
		cmocka_unit_test(test_no_color_keeps_attrs),
		cmocka_unit_test(test_shipped_contrast),
		cmocka_unit_test(test_shipped_themes),
		cmocka_unit_test(test_builtin_is_the_file),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
