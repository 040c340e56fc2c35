#!/bin/bash
# Terminals that cannot show everything: under a locale that is not UTF-8
# (LANG=C) the console draws its glyphs in ASCII ("..." for the ellipsis,
# "+--+" frames) instead of "?"; a terminal that cannot place its cursor
# (TERM=dumb) or that terminfo does not know is refused with a message and
# status 2 before curses starts, and one-shot commands still work there.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init locale_term
e2e_edgemu_start

e2e_program_start env LANG=C LC_ALL=C "$EDGETUI"
e2e_wait_match "^ operations  300$"
e2e_wait_match '^ edgetui  profile default  server [^ ]+  account [0-9a-f]{8}\.\.\.  zone [0-9a-f]{8}\.\.\. '
e2e_keys o
e2e_wait_for "sort by (Enter; O reversed)"
e2e_keys Down O
e2e_wait_match '^  METHODv +HOST'
e2e_keys d
e2e_wait_for "Delete operation '"
e2e_wait_match '\+-{10,}\+'
e2e_keys n
e2e_wait_gone "Delete operation"
! grep -qF '??' "$E2E_DIR/screen.now" ||
    e2e_fail "a glyph the locale cannot show was drawn as '?'"
e2e_quit_and_check_sane q

for term in dumb nosuchterm; do
	e2e_program_start env TERM="$term" "$EDGETUI"
	e2e_quit_and_check_sane -s 2
	e2e_assert_contains "edgetui: the console cannot run here: TERM=$term "
	e2e_assert_contains "one-shot commands work (edgetui --help)"
done

# One-shot commands need no terminal at all.
out=$(TERM=dumb "$EDGETUI" get operations --limit 1 -o json) ||
    e2e_fail "get operations under TERM=dumb: exit $?"
case $out in
*'"operation_id"'*) ;;
*) e2e_fail "get operations under TERM=dumb printed: $out" ;;
esac
