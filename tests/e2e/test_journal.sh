#!/bin/bash
# The journal view (:journal) and undo (u): a rate limit deleted in the
# console is re-created with the same fields; an update is undone after
# E's diff and a confirmation, and the old description is back; a deleted
# video is said to be beyond restoring. Each undo is checked through the
# API and is journaled in turn.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

# Wide enough for the rate limits' ID column.
E2E_COLS=${E2E_COLS:-140}
e2e_init journal
e2e_edgemu_start
RL=/zones/$CLOUDFLARE_ZONE_ID/rate_limits
JOURNAL=$XDG_STATE_HOME/edgetui/journal.jsonl

rl_total() {
	e2e_api GET "$RL" | grep -oE '"total_count":[0-9]+' | cut -d: -f2
}

# The id of the rule whose row shows TEXT.
rl_id() {
	e2e_screen | grep -F -- "$1" | grep -oE '[0-9a-f]{32}' | head -n 1
}

# A rule as the server has it, without what the server sets (id, times).
rl_fields() {
	e2e_api GET "$RL/$1" | sed -E 's/.*"result":(\{.*\}),"result_info".*/\1/;
	    s/.*"result":(\{.*\})\}$/\1/' |
	    sed -E 's/"(id|created_on|modified_on)":"[^"]*",?//g'
}

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_keys :
e2e_type rl
e2e_keys Enter
e2e_wait_for " rate-limits (legacy, deprecated)  8"

# ---- d on the first rule, then :journal, u, y: it is back.
login=$(rl_id "www.example.com/login*")
[ -n "$login" ] || e2e_fail "no id on the login rule's row"
want=$(rl_fields "$login")
case $want in
*'"threshold":'*'"description":'*|*'"description":'*'"threshold":'*) ;;
*) e2e_fail "cannot read the rule's fields: $want" ;;
esac
e2e_keys d
e2e_wait_match "Delete rate limit 'Protect the login form[^']*' \\(${login:0:8}…\\)\\? \\(y/n\\)"
e2e_keys y
e2e_wait_for "deleted rate-limits "
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  7$'
[ "$(rl_total)" = 7 ] || e2e_fail "the rule was not deleted"

e2e_keys :
e2e_type journal
e2e_keys Enter
e2e_wait_for "journal: 1 change of profile"
e2e_wait_match "rate-limits +$login +deleted"
# Enter: the record as it was before the delete.
e2e_keys Enter
e2e_wait_for "DELETE $RL/$login -> HTTP 200"
e2e_wait_match "^ Before:$"
e2e_assert_contains "url: www.example.com/login*"
e2e_keys q
e2e_wait_gone "Before:"
e2e_keys u
e2e_wait_for "Undo the delete of rate-limits $login: re-create it"
e2e_wait_match "Create rate-limits with [0-9]+ fields\? \(y/n\)"
e2e_assert_contains "it comes back with a new id"
e2e_keys y
e2e_wait_for "created rate-limits "
# The view reads the journal again: the undo is journaled too.
e2e_wait_for "journal: 2 changes of profile"
e2e_wait_match "rate-limits +[0-9a-f]{32} +created"
[ "$(rl_total)" = 8 ] || e2e_fail "the server does not hold 8 rules again"
back=$(e2e_api GET "$RL?per_page=100" | grep -oE '"id":"[0-9a-f]{32}"' |
    cut -d'"' -f4 | while read -r id; do
	[ "$(rl_fields "$id")" = "$want" ] && echo "$id"
done | head -n 1)
[ -n "$back" ] || e2e_fail "no rule on the server has the deleted one's fields"
[ "$(tail -n 1 "$JOURNAL" | grep -c "\"method\":\"POST\"")" = 1 ] ||
    e2e_fail "the undo is not the journal's last record"

# ---- an update in the form, then undone: the old description is back.
e2e_keys q
e2e_wait_gone "journal: 2 changes"
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  8$'
e2e_keys G
e2e_wait_match "^>.*www\.example\.com/login\*"
now=$(rl_id "www.example.com/login*")
[ "$now" = "$back" ] || e2e_fail "the cursor is not on the re-created rule"
old=$(e2e_api GET "$RL/$back" | grep -oE '"description":"[^"]*"')
e2e_keys e
e2e_wait_for "edit rate-limits $back"
e2e_type " changed"
e2e_keys Enter
e2e_wait_for "saved rate-limits $back"
e2e_api GET "$RL/$back" | grep -q '"description":"[^"]* changed"' ||
    e2e_fail "the form's description did not reach the server"
e2e_command journal "rate-limits +$back +updated: description"
e2e_keys u
e2e_wait_for "Apply 1 change to rate-limits $back? (y/n)"
e2e_assert_contains "description"
e2e_keys y
e2e_wait_for "saved rate-limits $back"
[ "$(e2e_api GET "$RL/$back" | grep -oE '"description":"[^"]*"')" = "$old" ] ||
    e2e_fail "the undo did not restore the description"
e2e_wait_for "journal: 4 changes of profile"

# ---- a deleted video: the journal says it cannot be restored.
e2e_keys q
e2e_wait_gone "journal: 4 changes"
e2e_command videos "^ videos  50$"
e2e_keys d
e2e_wait_for "(y/n)"
e2e_keys y
e2e_wait_for "deleted videos "
e2e_command journal "videos +[0-9a-f]{32} +deleted"
e2e_keys u
e2e_wait_for "cannot undo: a deleted video cannot be restored"
e2e_assert_not_contains "(y/n)"

# ---- a live input renamed by the one-shot command: the undo's diff (E's)
# keeps its keys masked, and the old name is back.
e2e_keys q
e2e_wait_gone "journal: "
LI=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream/live_inputs
li=$(e2e_api POST "$LI" '{"meta":{"name":"before rename"}}')
liuid=$(grep -oE '"uid":"[0-9a-f]{32}"' <<<"$li" | head -n 1 | cut -d'"' -f4)
key=$(grep -oE '"streamKey":"[^"]*"' <<<"$li" | head -n 1 | cut -d'"' -f4)
publish=$(grep -oE '"url":"[^"]*/webRTC/publish"' <<<"$li" | cut -d'"' -f4)
[ -n "$liuid" ] && [ -n "$key" ] && [ -n "$publish" ] ||
    e2e_fail "no live input with secrets: $li"
printf 'meta:\n  name: after rename\n' >"$E2E_DIR/rename.yaml"
"$EDGETUI" update live-inputs "$liuid" -f "$E2E_DIR/rename.yaml" \
    >"$E2E_DIR/rename.out" 2>&1 || e2e_fail "update: $(cat "$E2E_DIR/rename.out")"
grep -q "$publish" "$JOURNAL" && e2e_fail "the journal holds the publish URL"
e2e_command journal "live-inputs +$liuid +updated: meta"
e2e_keys u
e2e_wait_for "Apply 1 change to live-inputs $liuid? (y/n)"
e2e_assert_contains 'meta.name: "after rename" → "before rename"'
e2e_assert_not_contains "$key"
e2e_assert_not_contains "$publish"
e2e_keys y
e2e_wait_for "saved live-inputs $liuid"
e2e_api GET "$LI/$liuid" | grep -q '"name":"before rename"' ||
    e2e_fail "the undo did not restore the live input's name"
e2e_api GET "$LI/$liuid" | grep -qF "\"streamKey\":\"$key\"" ||
    e2e_fail "the undo changed the live input's key"

e2e_keys q
e2e_wait_gone "journal: "
e2e_quit_and_check_sane : q Enter
