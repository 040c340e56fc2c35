#!/bin/bash
# The first-run screen, over an empty config file, says that
# `edgetui config init` writes it: config init writes over an empty file
# (nothing is lost), and still refuses one with anything in it, which it
# leaves as it was.
set -eu
tui=${EDGETUI:-ui/edgetui}
[ -x "$tui" ] || { echo "no edgetui at $tui"; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/config-init-empty.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

unset CLOUDFLARE_API_TOKEN CLOUDFLARE_ACCOUNT_ID CLOUDFLARE_ZONE_ID \
    CLOUDFLARE_BASE_URL
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state"
cfg=$XDG_CONFIG_HOME/edgetui/config.yaml
mkdir -p "$XDG_CONFIG_HOME/edgetui"
: >"$cfg"
answers() {
	printf '%s\n%s\n%s\n\n1\n' http://127.0.0.1:1/client/v4 \
	    0123456789abcdef0123456789abcdef fedcba9876543210fedcba9876543210
}

# 1. An empty file: written.
if answers | "$tui" config init >"$tmp/out" 2>"$tmp/err"; then
	ok "written over the empty file"
else
	fail "config init over an empty file: status $? ($(cat "$tmp/err"))"
fi
grep -q '^ *base_url: "http://127.0.0.1:1/client/v4"' "$cfg" &&
    ok "the answers are in it" || fail "the file: $(cat "$cfg")"
mode=$(stat -c %a "$cfg")
[ "$mode" = 600 ] && ok "mode 600" || fail "mode $mode, not 600"
ls "$XDG_CONFIG_HOME/edgetui" | grep -v '^config.yaml$' &&
    fail "a temporary file stayed"

# 2. A file with anything in it, even a comment: refused, left as it was.
printf '# mine\n' >"$cfg"
if answers | "$tui" config init >"$tmp/out" 2>"$tmp/err"; then
	fail "config init over a file with a comment succeeded"
else
	st=$?
	[ "$st" = 2 ] && grep -q exists "$tmp/err" && ok "refused" ||
	    fail "status $st: $(cat "$tmp/err")"
fi
[ "$(cat "$cfg")" = "# mine" ] && ok "left as it was" || fail "it changed"

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all ok"
