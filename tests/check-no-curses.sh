#!/bin/sh
# libedge (src/) must never draw: no curses header may appear in it.
src="${TOP_SRCDIR:-$(dirname "$0")/..}/src"
[ -d "$src" ] || { echo "no src/ at $src"; exit 99; }
hits=$(grep -rnE '#[[:space:]]*include[[:space:]]*[<"](n?curses|ncursesw/[a-z]*|panel|form|menu|term)\.h[>"]' "$src")
if [ -n "$hits" ]; then
	echo "src/ includes curses headers (libedge must stay free of drawing):"
	echo "$hits"
	exit 1
fi
echo "src/: no curses headers in $(find "$src" -name '*.[ch]' | wc -l) files"
exit 0
