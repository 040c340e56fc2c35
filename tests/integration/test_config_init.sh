#!/bin/bash
# edgetui config init with its answers on standard input: the file is mode
# 600, names where the token is (never the token), is read back by edgetui
# itself to reach edgemu, and is never written over an existing one.
set -eu
tui=${EDGETUI:-ui/edgetui}
emu=${EDGEMU:-emulator/edgemu}
[ -x "$tui" ] || { echo "no edgetui at $tui"; exit 99; }
[ -x "$emu" ] || { echo "no edgemu at $emu"; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/config-init.XXXXXX") || exit 99
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

unset CLOUDFLARE_API_TOKEN CLOUDFLARE_ACCOUNT_ID CLOUDFLARE_ZONE_ID \
    CLOUDFLARE_BASE_URL
export HOME="$tmp" XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state"
cfg=$XDG_CONFIG_HOME/edgetui/config.yaml

"$emu" --listen 127.0.0.1:0 --data "$tmp/store" --demo-data \
    --ready-file "$tmp/ready" >"$tmp/emu.log" 2>&1 &
pid=$!
# edgemu writes the ready file once it accepts connections.
for _ in $(seq 1 600); do
	[ -s "$tmp/ready" ] && break
	kill -0 "$pid" 2>/dev/null || { cat "$tmp/emu.log"; exit 99; }
	sleep 0.05
done
[ -s "$tmp/ready" ] || { echo "edgemu did not start"; exit 99; }
. "$tmp/ready"
printf '%s\n' "$EDGEMU_TOKEN" >"$tmp/token"
chmod 600 "$tmp/token"

# 1. token_file, into the default file (its directory made on the way).
printf '%s\n%s\n%s\npro\n2\n%s\n' "$EDGEMU_URL" "$EDGEMU_ACCOUNT" \
    "$EDGEMU_ZONE" "$tmp/token" | "$tui" config init --profile emu \
    >"$tmp/out" 2>"$tmp/err" || fail "config init: status $? ($(cat "$tmp/err"))"
[ -f "$cfg" ] && ok "written: $cfg" || fail "no $cfg"
mode=$(stat -c %a "$cfg" 2>/dev/null || echo none)
[ "$mode" = 600 ] && ok "mode 600" || fail "mode $mode, not 600"
grep -q "$cfg" "$tmp/out" && ok "names the file" || fail "out: $(cat "$tmp/out")"
grep -qF "$EDGEMU_TOKEN" "$cfg" && fail "the token is in the file"
grep -q '^ *token_file: ' "$cfg" && grep -q '^#' "$cfg" &&
    ok "token_file, and comments" || fail "$(cat "$cfg")"
grep -q '^ *plan: pro$' "$cfg" && ok "the plan asked" ||
    fail "no plan: $(cat "$cfg")"
# The token was checked with the API, and found active.
grep -q '^the token is active (id [0-9a-f]\{32\}) at ' "$tmp/out" &&
    ok "$(grep 'token is' "$tmp/out")" || fail "no token check: $(cat "$tmp/out")"
ls "$XDG_CONFIG_HOME/edgetui" | grep -v '^config.yaml$' &&
    fail "a temporary file stayed"
# Read back by edgetui: profile, base URL, account, zone and token.
if "$tui" -o json get rate-limits >"$tmp/got" 2>"$tmp/err"; then
	ok "edgetui reaches edgemu with the file alone"
else
	fail "get rate-limits with the file: $(cat "$tmp/err")"
fi
"$tui" -p emu -o json get operations >/dev/null 2>"$tmp/err" ||
    fail "-p emu: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "warnings reading it back: $(cat "$tmp/err")"

# 2. Never over an existing file: refused, named, left as it was.
cp "$cfg" "$tmp/before"
if printf '\n\n\n\n' | "$tui" config init >"$tmp/out" 2>"$tmp/err"; then
	fail "config init over an existing file succeeded"
else
	st=$?
	[ "$st" = 2 ] || fail "status $st, not 2"
	grep -qF "$cfg" "$tmp/err" && grep -q exists "$tmp/err" &&
	    ok "refused: $(cat "$tmp/err")" || fail "message: $(cat "$tmp/err")"
fi
cmp -s "$cfg" "$tmp/before" || fail "the existing file changed"

# 3. token_command, into --config FILE; defaults taken with empty answers.
other=$tmp/other/edgetui.yaml
printf '%s\n\n\n\n3\ncat %s\n' "$EDGEMU_URL" "$tmp/token" |
    "$tui" --config "$other" config init >/dev/null 2>"$tmp/err" ||
    fail "token_command: $(cat "$tmp/err")"
grep -q '^ *token_command: "cat ' "$other" && grep -q '^ *# account:' \
    "$other" && grep -q '^ *# plan:' "$other" &&
    ok "token_command, account and plan left out" || fail "$(cat "$other")"
CLOUDFLARE_ACCOUNT_ID=$EDGEMU_ACCOUNT CLOUDFLARE_ZONE_ID=$EDGEMU_ZONE \
    "$tui" --config "$other" get rate-limits >/dev/null 2>"$tmp/err" &&
    ok "token_command read back" || fail "read back: $(cat "$tmp/err")"

# 4. The environment: nothing about the token but comments.
third=$tmp/third.yaml
printf '\n%s\n%s\n\n1\n' "$EDGEMU_ACCOUNT" "$EDGEMU_ZONE" |
    "$tui" --config "$third" config init >"$tmp/out" 2>"$tmp/err" ||
    fail "env: $(cat "$tmp/err")"
grep -q '^ *token' "$third" && fail "env: a token key is set"
grep -q 'https://api.cloudflare.com/client/v4' "$third" &&
    grep -q CLOUDFLARE_API_TOKEN "$tmp/out" && ok "env: default base URL" ||
    fail "env: $(cat "$third")"
CLOUDFLARE_API_TOKEN=$EDGEMU_TOKEN CLOUDFLARE_BASE_URL=$EDGEMU_URL \
    "$tui" --config "$third" get rate-limits >/dev/null 2>"$tmp/err" &&
    ok "env read back" || fail "env read back: $(cat "$tmp/err")"

grep -q 'the token was not checked' "$tmp/out" &&
    ok "env: no token to check, and said so" || fail "env: $(cat "$tmp/out")"

# 5. A token file that is not there yet: made, mode 600, with the token
# typed (not on the command line), then checked; a wrong one is refused.
fourth=$tmp/fourth.yaml
newtok=$tmp/new/dir/token
printf '%s\n%s\n%s\n\n2\n%s\n%s\n' "$EDGEMU_URL" "$EDGEMU_ACCOUNT" \
    "$EDGEMU_ZONE" "$newtok" "$EDGEMU_TOKEN" |
    "$tui" --config "$fourth" config init >"$tmp/out" 2>"$tmp/err" ||
    fail "new token file: status $? ($(cat "$tmp/err"))"
[ "$(stat -c %a "$newtok" 2>/dev/null)" = 600 ] &&
    [ "$(cat "$newtok")" = "$EDGEMU_TOKEN" ] && ok "the token file made" ||
    fail "token file: $(ls -l "$newtok" 2>&1)"
grep -q 'the token is active' "$tmp/out" && ok "and checked" ||
    fail "new token file: $(cat "$tmp/out")"
grep -qF "$EDGEMU_TOKEN" "$tmp/out" "$tmp/err" && fail "the token was echoed"
badtok=$tmp/bad/token
st=0
printf '%s\n\n\n\n2\n%s\nnot-the-token\n' "$EDGEMU_URL" "$badtok" |
    "$tui" --config "$tmp/fifth.yaml" config init >"$tmp/out" \
    2>"$tmp/err" || st=$?
[ "$st" = 1 ] && grep -q 'the token did not pass' "$tmp/err" &&
    ok "a wrong token: $(cat "$tmp/err")" ||
    fail "a wrong token: status $st: $(cat "$tmp/out" "$tmp/err")"
[ -f "$tmp/fifth.yaml" ] || fail "the config was not written"

# 6. Wrong answers and no answers write nothing.
printf 'not-a-url\nftp://x\nalso bad\n' |
    "$tui" --config "$tmp/bad.yaml" config init >/dev/null 2>"$tmp/err" &&
    fail "three bad URLs accepted"
[ -e "$tmp/bad.yaml" ] && fail "a file after bad answers"
grep -q base_url "$tmp/err" && ok "bad answers: $(tail -n 1 "$tmp/err")" ||
    fail "bad answers: $(cat "$tmp/err")"
"$tui" --config "$tmp/none.yaml" config init </dev/null >/dev/null \
    2>"$tmp/err" && fail "no answers accepted"
[ -e "$tmp/none.yaml" ] && fail "a file without answers"
"$tui" --config "$tmp/p.yaml" -p '../x' config init </dev/null \
    >/dev/null 2>&1 && fail "a bad profile name accepted"

[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
exit 0
