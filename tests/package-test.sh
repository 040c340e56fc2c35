#!/bin/sh
# The Debian packages, unpacked in a scratch root with dpkg -x: the
# programs run, and the man pages, themes and completion are where Debian
# and the program look for them. Run by ./bootstrap package:
#	tests/package-test.sh DIR	(DIR holds edgetui_*.deb and edgemu_*.deb)
set -eu
dir=${1:?usage: package-test.sh DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
fails=0
fail() { echo "package-test: FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "package-test: ok: $*"; }

version=$(sed -n '1s/^edgetui (\([^)]*\)).*/\1/p' "$top/debian/changelog")
arch=$(dpkg --print-architecture)
tui_deb=$dir/edgetui_${version}_$arch.deb
emu_deb=$dir/edgemu_${version}_$arch.deb
[ -f "$tui_deb" ] || { echo "package-test: no $tui_deb"; exit 1; }
[ -f "$emu_deb" ] || { echo "package-test: no $emu_deb"; exit 1; }
root=$(mktemp -d "${TMPDIR:-/tmp}/edgetui-pkg.XXXXXX")
trap 'rm -rf "$root"' EXIT
dpkg -x "$tui_deb" "$root"
dpkg -x "$emu_deb" "$root"

# The programs, with the libraries Depends names.
out=$("$root/usr/bin/edgetui" --version) || fail "edgetui --version"
[ "$out" = "edgetui $version" ] && ok "$out" ||
    fail "edgetui --version: '$out', not 'edgetui $version'"
"$root/usr/bin/edgemu" --help >"$root/emu-help" 2>&1 &&
    grep -q '^usage: edgemu' "$root/emu-help" && ok "edgemu --help" ||
    fail "edgemu --help: $(head -n 3 "$root/emu-help")"
rm -f "$root/emu-help"
dpkg-deb -f "$tui_deb" Suggests | grep -qw edgemu && ok "edgetui suggests edgemu" ||
    fail "edgetui does not suggest edgemu"
for deb in "$tui_deb" "$emu_deb"; do
	deps=$(dpkg-deb -f "$deb" Depends)
	echo "$deps" | grep -q 'libc6' && ok "$(basename "$deb"): Depends: $deps" ||
	    fail "$(basename "$deb"): Depends '$deps' (no shlibs?)"
done

# Where Debian puts them.
for f in usr/share/man/man1/edgetui.1.gz usr/share/man/man1/edgemu.1.gz \
    usr/share/bash-completion/completions/edgetui \
    usr/share/zsh/vendor-completions/_edgetui \
    usr/share/doc/edgetui/copyright usr/share/doc/edgemu/copyright; do
	[ -s "$root/$f" ] && ok "/$f" || fail "no /$f"
done
# Each man page reads as one.
for m in edgetui edgemu; do
	zcat "$root/usr/share/man/man1/$m.1.gz" | grep -q "^\.Dt $(echo $m |
	    tr a-z A-Z) 1" || fail "$m.1.gz is not the $m page"
done
dpkg-deb -c "$emu_deb" | grep -q 'usr/bin/edgetui' &&
    fail "edgemu's package holds edgetui"
dpkg-deb -c "$tui_deb" | grep -q 'usr/bin/edgemu' &&
    fail "edgetui's package holds edgemu"

# Themes: every shipped one, in the directory compiled into the program.
themes=/usr/share/edgetui/themes
grep -qaF "$themes" "$root/usr/bin/edgetui" &&
    ok "edgetui looks in $themes" || fail "edgetui does not look in $themes"
# ... and nowhere in the tree it was built in.
built=$(cd "$dir" && pwd)
grep -qaF "$built/" "$root/usr/bin/edgetui" &&
    fail "edgetui holds the build path $built"
for t in "$top"/themes/*.yaml; do
	cmp -s "$t" "$root$themes/$(basename "$t")" ||
	    fail "theme $(basename "$t") is not in $themes"
done
[ "$fails" = 0 ] && ok "$(ls "$root$themes" | wc -l) themes in $themes"

# The completion installed is the program's own, and completes.
"$root/usr/bin/edgetui" completion bash |
    cmp -s - "$root/usr/share/bash-completion/completions/edgetui" ||
    fail "the bash completion differs from edgetui completion bash"
"$root/usr/bin/edgetui" completion zsh |
    cmp -s - "$root/usr/share/zsh/vendor-completions/_edgetui" ||
    fail "the zsh completion differs from edgetui completion zsh"
got=$(bash -c '. "$1"; COMP_WORDS=("$2" ge); COMP_CWORD=1; _edgetui;
    echo "${COMPREPLY[*]}"' bash \
    "$root/usr/share/bash-completion/completions/edgetui" \
    "$root/usr/bin/edgetui")
[ "$got" = get ] && ok "bash: edgetui ge<Tab> -> get" ||
    fail "bash: edgetui ge<Tab> -> '$got'"

[ "$fails" = 0 ] || { echo "package-test: $fails failed"; exit 1; }
echo "package-test: passed"
