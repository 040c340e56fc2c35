#!/bin/sh
# edgemu links libbase only: no function or data of libedge (the API client)
# may be in its binary. Compares the global symbols nm finds in both.
emu=${EDGEMU:-emulator/edgemu}
lib=${LIBEDGE:-$(dirname "$emu")/../src/libedge.a}
[ -x "$emu" ] || { echo "no edgemu at $emu"; exit 99; }
[ -f "$lib" ] || { echo "no libedge at $lib"; exit 99; }
command -v nm >/dev/null 2>&1 || { echo "nm is not installed"; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layering.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
# Defined global code and data: T/D/B/R (and weak W/V) in nm's letters.
defined() { nm -g --defined-only "$@" 2>/dev/null |
    awk 'NF == 3 && $2 ~ /^[TDBRWV]$/ { print $3 }' | sort -u; }
defined "$lib" >"$tmp/edge"
defined "$emu" >"$tmp/emu"
[ -s "$tmp/edge" ] || { echo "nm found no symbols in $lib"; exit 99; }
[ -s "$tmp/emu" ] || { echo "nm found no symbols in $emu"; exit 99; }
hits=$(comm -12 "$tmp/edge" "$tmp/emu")
if [ -n "$hits" ]; then
	echo "edgemu holds libedge code (it must link libbase only):"
	echo "$hits" | head -n 20
	exit 1
fi
echo "edgemu: none of libedge's $(wc -l <"$tmp/edge") symbols"
exit 0
