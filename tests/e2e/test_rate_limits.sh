#!/bin/bash
# The rate-limits panel against edgemu: the list (140 columns: every
# default column, the description first, the id last), / on descriptions,
# t on one rule and on marked ones (all set one way, after asking), a new rule through the form (an invalid one is refused
# before anything is sent), an edit in the form, two edits in $EDITOR (one
# saved invalid first, then fixed when reopened), deletes of one and of
# marked ones, and Esc on a changed form; each change checked through the
# API.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-140}
e2e_init rate_limits
e2e_edgemu_start
RL=/zones/$CLOUDFLARE_ZONE_ID/rate_limits

# The number of rules the server holds.
rl_total() {
	e2e_api GET "$RL" | grep -oE '"total_count":[0-9]+' | cut -d: -f2
}

# The id of the rule whose row shows TEXT.
rl_id() {
	e2e_screen | grep -F -- "$1" | grep -oE '[0-9a-f]{32}' | head -n 1
}

# The value of a top-level number of a rule, as the server has it.
rl_number() {
	e2e_api GET "$RL/$1" | grep -oE "\"$2\":[0-9]+" | cut -d: -f2
}

# Requests of a method that reached edgemu (its -v log), all paths.
rl_sent() {
	grep -c " $1 /zones/" "$E2E_DIR/edgemu.log" || true
}

# $EDITOR: what it does is read from editor.mode. "threshold" sets the
# threshold to 77; "invalid" saves broken YAML first and, reopened with
# the console's comment on top, sets the period to 120 instead. Each round
# is logged to editor.log.
cat >"$E2E_DIR/editor.sh" <<'EOF'
#!/bin/sh
dir=$(dirname "$0")
f=$1
case $(cat "$dir/editor.mode") in
threshold)
	echo threshold >>"$dir/editor.log"
	sed -i 's/^threshold: .*/threshold: 77/' "$f"
	;;
invalid)
	if head -n 1 "$f" | grep -q '^# edgetui:'; then
		echo reopened >>"$dir/editor.log"
		cp "$f" "$dir/editor.reopened"
		sed 's/^period: .*/period: 120/' "$dir/editor.orig" >"$f"
	else
		echo broken >>"$dir/editor.log"
		cp "$f" "$dir/editor.orig"
		printf 'threshold: [1, 2\n' >"$f"
	fi
	;;
esac
EOF
chmod +x "$E2E_DIR/editor.sh"
export EDITOR=$E2E_DIR/editor.sh

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_keys :
e2e_type rl
e2e_keys Enter
e2e_wait_for " rate-limits (legacy, deprecated)  8"
e2e_expect_screen rate-limits-list.txt

# ---- / matches the description, which names the rule.
e2e_keys /
e2e_type pingback
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  1 of 8  /pingback$'
e2e_wait_match '^> Block XML-RPC pingback floods +ban +20/1h +no +blog\.example\.com/xmlrpc\.php '
e2e_keys Escape
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  8$'
e2e_keys g

# ---- t on the rule under the cursor, then on two marked ones.
login=$(rl_id "www.example.com/login*")
api=$(rl_id "api.example.com/v1/*")
search=$(rl_id "www.example.com/search*")
[ -n "$login" ] && [ -n "$api" ] && [ -n "$search" ] ||
    e2e_fail "no ids on the rate-limits rows"
e2e_wait_match ' no +www\.example\.com/login\* '
e2e_keys t
e2e_wait_match ' yes +www\.example\.com/login\* '
e2e_api GET "$RL/$login" | grep -q '"disabled":true' ||
    e2e_fail "the toggled rule is not disabled on the server"

# Marked: one disabled (login), one enabled (api). t sets both one way,
# disabled since one is enabled, after saying so; the cursor is elsewhere,
# so the question says the marks are what it acts on. Only the rule that
# changes is sent.
puts=$(rl_sent PUT)
e2e_keys g Space Space
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  8  2 marked$'
e2e_keys t
e2e_wait_for "Disable 2 rate limits (the marked ones, not the one under the cursor)?"
e2e_assert_contains "'Protect the login form from credential…' (${login:0:8}…)"
e2e_assert_contains "'Public API burst limit (observing befor…' (${api:0:8}…)"
e2e_assert_contains "At least one is enabled: all will be disabled. (y/n)"
e2e_keys y
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  8$'
e2e_wait_match ' yes +api\.example\.com/v1/\* '
e2e_wait_match ' yes +www\.example\.com/login\* '
for id in "$login" "$api"; do
	e2e_api GET "$RL/$id" | grep -q '"disabled":true' ||
	    e2e_fail "marked rule $id is not disabled on the server"
done
e2e_wait_log " PUT /zones/" $((puts + 1))
[ "$(rl_sent PUT)" = $((puts + 1)) ] ||
    e2e_fail "t on the marked rules sent $(( $(rl_sent PUT) - puts )) PUTs, not 1"

# Both disabled now: t enables both; n first leaves them as they are.
e2e_keys g Space Space t
e2e_wait_for "Enable 2 rate limits (the marked ones, not the one under the cursor)?"
e2e_keys n
e2e_wait_gone "Enable 2 rate limits"
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  8  2 marked$'
e2e_keys t
e2e_wait_for "All are disabled: all will be enabled. (y/n)"
e2e_keys y
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  8$'
e2e_wait_match ' no +api\.example\.com/v1/\* '
e2e_wait_match ' no +www\.example\.com/login\* '
for id in "$login" "$api"; do
	e2e_api GET "$RL/$id" | grep -q '"disabled":false' ||
	    e2e_fail "marked rule $id is not enabled on the server"
done

# ---- n: a new rule. A timeout under the period is refused in the form,
# and nothing is sent; corrected, the rule is created.
posts=$(rl_sent POST)
e2e_keys n
e2e_wait_for "new rate-limits"
e2e_type "e2e created rule"
e2e_keys Tab Tab Tab Tab
e2e_type "e2e.example.com/api*"
e2e_keys Tab Tab Tab Tab
e2e_type 10
e2e_keys Tab
e2e_type 60
e2e_keys Tab Right Right
e2e_wait_match '^ action\.mode +\* < ban >'
e2e_keys Tab
e2e_type 30
e2e_keys Enter
e2e_wait_for "action.timeout: 30 is less than the period (60)"
e2e_assert_contains "1 field needs attention"
e2e_expect_screen rate-limits-new-invalid.txt
[ "$(rl_total)" = 8 ] || e2e_fail "the invalid rule reached the server"
[ "$(rl_sent POST)" = "$posts" ] || e2e_fail "the invalid form sent a POST"
e2e_keys C-u
e2e_type 120
e2e_keys Enter
e2e_wait_for "created rate-limits "
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  9$'
e2e_wait_match '^[ >] e2e created rule +ban +10/1m +no +e2e\.example\.com/api\* '
[ "$(rl_total)" = 9 ] || e2e_fail "the server does not hold 9 rules"
new=$(rl_id "e2e.example.com/api*")
e2e_api GET "$RL/$new" | grep -q '"description":"e2e created rule"' ||
    e2e_fail "the new rule lacks its description"
[ "$(rl_number "$new" timeout)" = 120 ] ||
    e2e_fail "the new rule's timeout is not 120"

# ---- e: the form on the new rule (the cursor is on it); threshold 25.
e2e_keys e
e2e_wait_for "edit rate-limits $new"
e2e_keys Tab Tab Tab Tab Tab Tab Tab Tab
e2e_wait_match '^ threshold +\* 10'
e2e_keys C-u
e2e_type 25
e2e_keys Enter
e2e_wait_for "saved rate-limits $new"
e2e_wait_match '^[ >] e2e created rule +ban +25/1m '
[ "$(rl_number "$new" threshold)" = 25 ] ||
    e2e_fail "the form's threshold did not reach the server"

# ---- E: the editor sets the threshold; the diff is confirmed with y.
echo threshold >"$E2E_DIR/editor.mode"
e2e_keys E
e2e_wait_for "Apply 1 change to rate-limits $new? (y/n)"
e2e_assert_contains "threshold"
e2e_keys y
e2e_wait_for "saved rate-limits $new"
e2e_wait_match '^[ >] e2e created rule +ban +77/1m '
[ "$(rl_number "$new" threshold)" = 77 ] ||
    e2e_fail "the YAML edit did not reach the server"

# ---- E again: saved as broken YAML first, the editor comes back with the
# error on top; fixed there (period 120), then applied.
echo invalid >"$E2E_DIR/editor.mode"
: >"$E2E_DIR/editor.log"
e2e_keys E
e2e_wait_for "Apply 1 change to rate-limits $new? (y/n)"
[ "$(cat "$E2E_DIR/editor.log")" = "broken
reopened" ] || e2e_fail "the editor ran as: $(cat "$E2E_DIR/editor.log")"
grep -q '^# edgetui: the change was not applied:' \
    "$E2E_DIR/editor.reopened" ||
    e2e_fail "the reopened file lacks the console's comment on top"
grep -q '^#   YAML: ' "$E2E_DIR/editor.reopened" ||
    e2e_fail "the reopened file does not say the YAML is broken"
e2e_keys y
e2e_wait_for "saved rate-limits $new"
e2e_wait_match '^[ >] e2e created rule +ban +77/2m '
[ "$(rl_number "$new" period)" = 120 ] ||
    e2e_fail "the fixed YAML edit did not reach the server"

# ---- Esc on a changed form asks before discarding; n stays, y leaves.
puts=$(rl_sent PUT)
e2e_keys e
e2e_wait_for "edit rate-limits $new"
e2e_type " changed"
# A custom response: its body becomes required once it is there.
e2e_wait_match '^ action\.response\.body *$'
e2e_keys Up Up Right
e2e_wait_match '^ action\.response\.content_type +\* < text/plain >'
e2e_wait_match '^ action\.response\.body +\*'
e2e_keys Escape
e2e_wait_for "Discard the changes in this form? (y/n)"
e2e_keys n
e2e_wait_gone "Discard the changes"
e2e_assert_contains "edit rate-limits $new"
e2e_keys Escape
e2e_wait_for "Discard the changes in this form? (y/n)"
e2e_keys y
e2e_wait_gone "edit rate-limits"
[ "$(rl_sent PUT)" = "$puts" ] || e2e_fail "a discarded form sent a PUT"
e2e_api GET "$RL/$new" | grep -q '"description":"e2e created rule"' ||
    e2e_fail "a discarded form changed the rule"

# ---- d: delete the new rule, after y.
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  9$'
e2e_keys d
e2e_wait_for "Delete rate limit 'e2e created rule' (${new:0:8}…)? (y/n)"
e2e_keys y
e2e_wait_for "deleted rate-limits "
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  8$'
[ "$(rl_total)" = 8 ] || e2e_fail "the deleted rule is still on the server"
if e2e_api GET "$RL/$new" >/dev/null 2>&1 ||
    [ "$(e2e_api_status)" != 404 ]; then
	e2e_fail "GET of the deleted rule is not 404"
fi

# ---- d on two marked rules: the count typed, then Enter.
e2e_keys g Space Space
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  8  2 marked$'
e2e_wait_match '^(\* |>\*).*www\.example\.com/login\*'
e2e_wait_match '^(\* |>\*).*api\.example\.com/v1/\*'
e2e_keys d
e2e_wait_for "Delete 2 rate limits (the marked ones, not the one under the cursor)?"
e2e_assert_contains "'Protect the login form from credential…' (${login:0:8}…)"
e2e_assert_contains "'Public API burst limit (observing befor…' (${api:0:8}…)"
e2e_type 2
e2e_keys Enter
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  6$'
[ "$(rl_total)" = 6 ] || e2e_fail "the server does not hold 6 rules"
for id in "$login" "$api"; do
	if e2e_api GET "$RL/$id" >/dev/null 2>&1 ||
	    [ "$(e2e_api_status)" != 404 ]; then
		e2e_fail "marked rule $id was not deleted"
	fi
done
e2e_assert_not_contains "www.example.com/login*"
e2e_assert_not_contains "api.example.com/v1/*"

e2e_quit_and_check_sane : q Enter
