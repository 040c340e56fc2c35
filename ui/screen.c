/*
 * The terminal: curses started and always restored (q, signals, fatal
 * errors, crashes), theme roles turned into colour pairs the terminal can
 * show, text drawn clipped to its width, and OSC 52 copies.
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "encode.h"
#include "screen.h"
#include "text.h"
#include "xmalloc.h"

#define SCREEN_LINE_MAX	1024

static int		 screen_on;
static int		 screen_ascii_mode;
static int		 screen_ncolors;
static attr_t		 screen_attrs[THEME_ROLE_COUNT];
static struct termios	 screen_tio;
static int		 screen_have_tio;

/* On a crash: the terminal back to normal with async-signal-safe calls. */
static void
screen_crash(int sig)
{
	static const char reset[] = "\033[0m\033[?25h\033[?1049l\r\n";

	if (screen_on) {
		(void)write(STDOUT_FILENO, reset, sizeof reset - 1);
		if (screen_have_tio)
			(void)tcsetattr(STDIN_FILENO, TCSANOW, &screen_tio);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
screen_crash_handlers(void)
{
	static const int	 sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
				    SIGABRT };
	struct sigaction	 sa;
	size_t			 i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = screen_crash;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < nitems(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
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
	screen_on = 1;
	screen_crash_handlers();
	screen_ascii_mode = ascii;
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

int
screen_put(int y, int x, int w, const char *s, attr_t attr)
{
	wchar_t		 buf[SCREEN_LINE_MAX];
	mbstate_t	 ps;
	wchar_t		 wc;
	size_t		 n = 0, len;
	int		 col = 0, cw;

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
		size_t k = mbrtowc(&wc, s, len, &ps);
		if (k == (size_t)-1 || k == (size_t)-2) {
			memset(&ps, 0, sizeof ps);
			wc = L'?';
			k = 1;
		} else if (k == 0)
			break;
		if (!iswprint((wint_t)wc))
			wc = L'?';
		if ((cw = wcwidth(wc)) < 0)
			cw = 1;
		if (col + cw > w)
			break;
		buf[n++] = wc;
		col += cw;
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
	return (screen_ascii_mode ? "~" : "\xe2\x80\xa6");
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
