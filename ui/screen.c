/*
 * The terminal: curses started and always restored (q, signals, fatal
 * errors, crashes), theme roles turned into colour pairs the terminal can
 * show, text drawn clipped to its width (in ASCII where the locale is not
 * UTF-8), and OSC 52 copies.
 */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include <term.h>

#include "encode.h"
#include "screen.h"
#include "text.h"
#include "xmalloc.h"

#define SCREEN_LINE_MAX	1024
#define SCREEN_RESTORE_MAX 256

static volatile sig_atomic_t	 screen_on;
static int		 screen_ascii_mode;
static int		 screen_utf8;
static int		 screen_ncolors;
static attr_t		 screen_attrs[THEME_ROLE_COUNT];
static struct termios	 screen_tio;
static int		 screen_have_tio;
/* What leaves curses' modes, from terminfo, for screen_restore_now. */
static char		 screen_restore[SCREEN_RESTORE_MAX];
static size_t		 screen_restore_len;

/*
 * The UI's glyphs where the locale cannot show them, or in the ASCII line
 * mode: the one table every drawn string goes through (screen_put).
 */
static const struct {
	const char	*utf8;
	const char	*ascii;
} screen_glyphs[] = {
	{ "\xe2\x80\xa6", "..." },	/* ellipsis */
	{ "\xe2\x86\x92", "->" },	/* rightwards arrow */
	{ "\xe2\x86\x90", "<-" },	/* leftwards arrow */
	{ "\xe2\x96\xb2", "^" },	/* up triangle: sort ascending */
	{ "\xe2\x96\xbc", "v" },	/* down triangle */
	{ "\xe2\x80\x93", "-" },	/* en dash */
	{ "\xe2\x80\x94", "--" },	/* em dash */
	{ "\xe2\x80\xa2", "*" },	/* bullet */
	{ "\xc2\xb7", "." },		/* middle dot */
	{ "\xc2\xa0", " " },		/* no-break space */
};

int
screen_usable(char **cause)
{
	const char	*term = getenv("TERM");
	int		 err = 0;

	if (term == NULL || *term == '\0') {
		*cause = xstrdup("TERM is not set");
		return (-1);
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		xasprintf(cause, "TERM=%s is %s", term, err == 0 ?
		    "unknown to terminfo" : "not found: no terminfo database");
		return (-1);
	}
	/* dumb, a printing terminal, or one that cannot place the cursor. */
	if (tigetflag("hc") > 0 || tigetflag("gn") > 0 ||
	    cursor_address == NULL || clear_screen == NULL) {
		xasprintf(cause, "TERM=%s cannot place the cursor", term);
		err = -1;
	}
	del_curterm(cur_term);
	return (err == -1 ? -1 : 0);
}

/* A terminfo string without its delays ("$<5>"), added to the restore. */
static void
screen_restore_add(const char *cap)
{
	const char	*s = tigetstr(cap);

	if (s == NULL || s == (char *)-1)
		return;
	for (; *s != '\0'; s++) {
		if (s[0] == '$' && s[1] == '<' && strchr(s, '>') != NULL) {
			s = strchr(s, '>');
			continue;
		}
		if (screen_restore_len < sizeof screen_restore)
			screen_restore[screen_restore_len++] = *s;
	}
}

/*
 * From a signal handler: out of the alternate screen, the cursor shown,
 * the keypad and attributes reset and the modes found at the start back,
 * with async-signal-safe calls only. curses' own state is left as it is:
 * the process is about to die.
 */
void
screen_restore_now(void)
{
	int	saved = errno;

	if (screen_on) {
		screen_on = 0;
		(void)write(STDOUT_FILENO, screen_restore, screen_restore_len);
		(void)write(STDOUT_FILENO, "\r\n", 2);
		if (screen_have_tio)
			(void)tcsetattr(STDIN_FILENO, TCSANOW, &screen_tio);
	}
	errno = saved;
}

/*
 * Ctrl-S and Ctrl-Q are keys, not flow control: with IXON on, Ctrl-S
 * stops the display (and a stray XOFF among typed bytes can stop it for
 * good). curses keeps these modes as the program's (suspend, $EDITOR and
 * endwin give the terminal its own back).
 */
static void
screen_no_flow_control(void)
{
	struct termios	tio;

	if (tcgetattr(STDIN_FILENO, &tio) != 0)
		return;
	tio.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
	if (tcsetattr(STDIN_FILENO, TCSANOW, &tio) == 0)
		def_prog_mode();
}

static short
screen_color(int c)
{
	int	n;

	if (c == THEME_COLOR_DEFAULT)
		return (-1);
	/*
	 * Direct-colour terminals would need init_extended_pair; 256
	 * indexed colours look the same for a palette of a few roles.
	 */
	n = screen_ncolors > 256 ? 256 : screen_ncolors;
	c = theme_color_degrade(c, n);
	if (c == THEME_COLOR_DEFAULT || c < 0 || c >= COLORS)
		return (-1);
	return ((short)c);
}

static attr_t
screen_attr_bits(unsigned a)
{
	attr_t	r = A_NORMAL;

	if (a & THEME_ATTR_BOLD)
		r |= A_BOLD;
	if (a & THEME_ATTR_DIM)
		r |= A_DIM;
	if (a & THEME_ATTR_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & THEME_ATTR_REVERSE)
		r |= A_REVERSE;
	if (a & THEME_ATTR_STANDOUT)
		r |= A_STANDOUT;
#ifdef A_ITALIC
	if (a & THEME_ATTR_ITALIC)
		r |= A_ITALIC;
#endif
	return (r);
}

void
screen_theme(const struct theme *t)
{
	const struct theme_style	*s;
	int				 i;
	short				 fg, bg;

	for (i = 0; i < THEME_ROLE_COUNT; i++) {
		s = &t->roles[i];
		screen_attrs[i] = screen_attr_bits(s->attrs);
		/*
		 * A role told apart by its background (the selection bar)
		 * is reverse where there is no colour (NO_COLOR, mono).
		 */
		if (screen_ncolors < 8) {
			if (s->bg != t->roles[THEME_ROLE_NORMAL].bg)
				screen_attrs[i] |= A_REVERSE;
			continue;
		}
		fg = screen_color(s->fg);
		bg = screen_color(s->bg);
		if (fg == -1 && bg == -1)
			continue;
		if (init_pair((short)(i + 1), fg, bg) == OK)
			screen_attrs[i] |= COLOR_PAIR(i + 1);
	}
	if (screen_on)
		bkgdset(' ' | screen_attrs[THEME_ROLE_NORMAL]);
}

void
screen_init(const struct theme *t, int ascii)
{
	const char	*nc;

	if (tcgetattr(STDIN_FILENO, &screen_tio) == 0)
		screen_have_tio = 1;
	if (getenv("ESCDELAY") == NULL)
		set_escdelay(25);
	if (initscr() == NULL)
		abort();
	screen_restore_len = 0;
	screen_restore_add("sgr0");
	screen_restore_add("cnorm");
	screen_restore_add("rmkx");
	screen_restore_add("rmcup");
	screen_on = 1;
	/* One place decides: asked for, or a locale that is not UTF-8. */
	screen_utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	screen_ascii_mode = ascii || !screen_utf8;
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	/* Home and End as tmux and rxvt send them, whatever terminfo says. */
	define_key("\033[1~", KEY_HOME);
	define_key("\033[4~", KEY_END);
	define_key("\033[7~", KEY_HOME);
	define_key("\033[8~", KEY_END);
	nodelay(stdscr, TRUE);
	curs_set(0);
	screen_no_flow_control();
	nc = getenv("NO_COLOR");
	screen_ncolors = 0;
	if (has_colors() && (nc == NULL || *nc == '\0')) {
		start_color();
		use_default_colors();
		screen_ncolors = COLORS;
	}
	screen_theme(t);
}

void
screen_end(void)
{
	if (!screen_on)
		return;
	screen_on = 0;
	curs_set(1);
	endwin();
}

int
screen_active(void)
{
	return (screen_on);
}

int
screen_colors(void)
{
	return (screen_ncolors);
}

int
screen_ascii(void)
{
	return (screen_ascii_mode);
}

attr_t
screen_role(enum theme_role r)
{
	if ((int)r < 0 || r >= THEME_ROLE_COUNT)
		return (A_NORMAL);
	return (screen_attrs[r]);
}

/* The bytes of the UTF-8 character at s (1 for a stray byte). */
static size_t
screen_utf8_len(const unsigned char *s, size_t len)
{
	size_t	n, i;

	if (*s >= 0xc2 && *s <= 0xdf)
		n = 2;
	else if (*s >= 0xe0 && *s <= 0xef)
		n = 3;
	else if (*s >= 0xf0 && *s <= 0xf4)
		n = 4;
	else
		return (1);
	for (i = 1; i < n; i++) {
		if (i >= len || (s[i] & 0xc0) != 0x80)
			return (1);
	}
	return (n);
}

/* The ASCII for the glyph at s, with its length in *n; NULL if none. */
static const char *
screen_glyph_ascii(const char *s, size_t len, size_t *n)
{
	size_t	i, k;

	for (i = 0; i < nitems(screen_glyphs); i++) {
		k = strlen(screen_glyphs[i].utf8);
		if (k <= len && memcmp(s, screen_glyphs[i].utf8, k) == 0) {
			*n = k;
			return (screen_glyphs[i].ascii);
		}
	}
	return (NULL);
}

/*
 * The next character at s as wide characters into buf (*nw of them): a
 * glyph in ASCII (the table above) in the ASCII mode, '?' for one the
 * locale cannot show; *col moves on by its columns. Returns the bytes
 * taken, 0 at a NUL or when it does not fit in room or w columns.
 */
static size_t
screen_next(const char *s, size_t len, mbstate_t *ps, wchar_t *buf,
    size_t room, int *col, int w, size_t *nw)
{
	const char	*sub;
	wchar_t		 wc;
	size_t		 k, i;
	int		 cw;

	if (screen_ascii_mode &&
	    (sub = screen_glyph_ascii(s, len, &k)) != NULL) {
		if (*col + (int)strlen(sub) > w || strlen(sub) > room)
			return (0);
		for (i = 0; sub[i] != '\0'; i++)
			buf[i] = (wchar_t)sub[i];
		*col += (int)i;
		*nw = i;
		return (k);
	}
	if (!screen_utf8) {
		/* UTF-8 the terminal cannot show: one '?' a character. */
		k = screen_utf8_len((const unsigned char *)s, len);
		wc = L'?';
	} else if ((k = mbrtowc(&wc, s, len, ps)) == (size_t)-1 ||
	    k == (size_t)-2) {
		memset(ps, 0, sizeof *ps);
		wc = L'?';
		k = 1;
	} else if (k == 0)
		return (0);
	if (!iswprint((wint_t)wc))
		wc = L'?';
	if ((cw = wcwidth(wc)) < 0)
		cw = 1;
	if (*col + cw > w || room < 1)
		return (0);
	buf[0] = wc;
	*col += cw;
	*nw = 1;
	return (k);
}

int
screen_put(int y, int x, int w, const char *s, attr_t attr)
{
	wchar_t		 buf[SCREEN_LINE_MAX];
	mbstate_t	 ps;
	size_t		 n = 0, len, k, nw;
	int		 col = 0;

	if (w <= 0 || s == NULL)
		return (0);
	memset(&ps, 0, sizeof ps);
	len = strlen(s);
	while (len > 0 && n < nitems(buf) - 1) {
		/* Printable ASCII, most of what is drawn, needs no lookups. */
		if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f) {
			if (col + 1 > w)
				break;
			buf[n++] = (wchar_t)*s++;
			col++;
			len--;
			continue;
		}
		k = screen_next(s, len, &ps, buf + n, nitems(buf) - 1 - n,
		    &col, w, &nw);
		if (k == 0)
			break;
		n += nw;
		s += k;
		len -= k;
	}
	buf[n] = L'\0';
	attrset(attr);
	mvaddnwstr(y, x, buf, (int)n);
	attrset(A_NORMAL);
	return (col);
}

const char *
screen_ellipsis(void)
{
	return (screen_ascii_mode ? "..." : "\xe2\x80\xa6");
}

const char *
screen_arrow(int desc)
{
	if (screen_ascii_mode)
		return (desc ? "v" : "^");
	return (desc ? "\xe2\x96\xbc" : "\xe2\x96\xb2");
}

int
screen_cell(int y, int x, int w, const char *s, attr_t attr)
{
	char	*cut;
	int	 n;

	if (w <= 0 || s == NULL)
		return (0);
	/* Most cells fit: measuring ASCII is a strlen. */
	if (strlen(s) <= (size_t)w)
		return (screen_put(y, x, w, s, attr));
	cut = text_ellipsize(s, (size_t)w, screen_ellipsis());
	n = screen_put(y, x, w, cut, attr);
	free(cut);
	return (n);
}

void
screen_fill(int y, int x, int w, attr_t attr)
{
	if (w <= 0)
		return;
	attrset(attr);
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

void
screen_hline(int y, int x, int w, attr_t attr)
{
	if (w <= 0)
		return;
	attrset(attr);
	mvhline(y, x, screen_ascii_mode ? '-' : ACS_HLINE, w);
	attrset(A_NORMAL);
}

void
screen_box(int y, int x, int h, int w, attr_t attr)
{
	if (h < 2 || w < 2)
		return;
	attrset(attr);
	if (screen_ascii_mode) {
		mvhline(y, x, '-', w);
		mvhline(y + h - 1, x, '-', w);
		mvvline(y, x, '|', h);
		mvvline(y, x + w - 1, '|', h);
		mvaddch(y, x, '+');
		mvaddch(y, x + w - 1, '+');
		mvaddch(y + h - 1, x, '+');
		mvaddch(y + h - 1, x + w - 1, '+');
	} else {
		mvhline(y, x, ACS_HLINE, w);
		mvhline(y + h - 1, x, ACS_HLINE, w);
		mvvline(y, x, ACS_VLINE, h);
		mvvline(y, x + w - 1, ACS_VLINE, h);
		mvaddch(y, x, ACS_ULCORNER);
		mvaddch(y, x + w - 1, ACS_URCORNER);
		mvaddch(y + h - 1, x, ACS_LLCORNER);
		mvaddch(y + h - 1, x + w - 1, ACS_LRCORNER);
	}
	attrset(A_NORMAL);
}

int
screen_osc52(const char *text)
{
	char	*b64, *seq;
	size_t	 len;
	ssize_t	 n;
	int	 rv = 0;

	b64 = encode_base64(text, strlen(text));
	seq = xprintf("\033]52;c;%s\a", b64);
	len = strlen(seq);
	n = write(STDOUT_FILENO, seq, len);
	if (n < 0 || (size_t)n != len)
		rv = -1;
	free(seq);
	free(b64);
	return (rv);
}

void
screen_suspend(void)
{
	def_prog_mode();
	endwin();
}

void
screen_resume(void)
{
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
}

static int	screen_cursor_y = -1, screen_cursor_x;

void
screen_want_cursor(int y, int x)
{
	screen_cursor_y = y;
	screen_cursor_x = x;
}

void
screen_place_cursor(void)
{
	/*
	 * Without a text cursor, curses need not park it anywhere after an
	 * update: fewer bytes per key on a slow link.
	 */
	if (screen_cursor_y >= 0) {
		leaveok(stdscr, FALSE);
		move(screen_cursor_y, screen_cursor_x);
		curs_set(1);
	} else {
		leaveok(stdscr, TRUE);
		curs_set(0);
	}
	screen_cursor_y = -1;
}
