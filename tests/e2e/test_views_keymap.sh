#!/bin/bash
# The views take their keys from the keymap: with the config file's
#   keymap: {journal: {u: none, U: undo}, log: {c: none, C: copy-curl}}
# the journal's footer and ? say U undoes, u does nothing there and U
# undoes a delete; the log's footer, its entry's and ? say C copies the
# request as curl, c does nothing there and C copies it; the help of a
# list has both; and the lists keep their own u and c.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=120 E2E_ROWS=40
e2e_init views_keymap
e2e_edgemu_start
RL=/zones/$CLOUDFLARE_ZONE_ID/rate_limits

CONF=$XDG_CONFIG_HOME/edgetui/config.yaml
mkdir -p "$XDG_CONFIG_HOME/edgetui"
cat >"$CONF" <<'YAML'
profiles:
  default: {}
keymap:
  journal:
    u: none
    U: undo
  log:
    c: none
    C: copy-curl
YAML
chmod 600 "$CONF"

rl_total() {
	e2e_api GET "$RL" | grep -oE '"total_count":[0-9]+' | cut -d: -f2
}

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_assert_not_contains "problem"

# ---- a change to undo: a rate limit deleted.
e2e_command rl '^ rate-limits \(legacy, deprecated\)  8$'
e2e_keys d
e2e_wait_for "(y/n)"
e2e_keys y
e2e_wait_for "deleted rate-limits "
[ "$(rl_total)" = 7 ] || e2e_fail "the rule was not deleted"

# ---- the journal: U in the footer and in ?, u nothing.
e2e_command journal "journal: 1 change of profile"
e2e_wait_match "rate-limits +[0-9a-f]{32} +deleted"
e2e_wait_for " Enter show  U undo  r reload  q close"
e2e_assert_not_contains "u undo"
# u opens no question: the ? after it is the journal's (a question would
# have taken it).
e2e_keys u '?'
e2e_wait_for "journal: keys"
e2e_wait_match "^ +U +undo +undo the change"
e2e_assert_not_contains "Undo the delete"
e2e_keys q
e2e_wait_for " Enter show  U undo  r reload  q close"
e2e_keys U
e2e_wait_for "Undo the delete of rate-limits "
e2e_keys y
e2e_wait_for "created rate-limits "
e2e_wait_for "journal: 2 changes of profile"
[ "$(rl_total)" = 8 ] || e2e_fail "U did not undo the delete"
e2e_keys q
e2e_wait_gone "journal: "

# ---- the log: C in the footers and in ?, c nothing, C copies.
e2e_keys L
e2e_wait_match "^ request log: [0-9]+ requests in this session"
e2e_wait_for " Enter show  C copy as curl  q close"
e2e_assert_not_contains "c copy as curl"
e2e_keys c '?'
e2e_wait_for "request log: keys"
e2e_wait_match "^ +C +copy-curl +copy the request as a curl command"
e2e_assert_not_contains "copied the curl command"
e2e_keys q
e2e_wait_for " Enter show  C copy as curl  q close"
# An entry: its footer too; c copies nothing there, C does.
e2e_keys Enter
e2e_wait_for "Response (secrets masked"
e2e_wait_for " C copy as curl  arrows scroll  q back"
_e2e_tmux set-buffer "nothing yet" >/dev/null
e2e_keys c q
e2e_wait_gone "Response (secrets masked"
e2e_wait_match "^ request log: [0-9]+ requests"
[ "$(e2e_clipboard)" = "nothing yet" ] || e2e_fail "c copied in the entry"
e2e_keys Enter
e2e_wait_for "Response (secrets masked"
e2e_keys C
e2e_wait_for "copied the curl command to the clipboard"
[ "$(e2e_clipboard)" != "nothing yet" ] || e2e_fail "C did not copy"
e2e_keys q
e2e_wait_match "^ request log: [0-9]+ requests"
# In the list, C copies the request under the cursor.
_e2e_tmux set-buffer "nothing yet" >/dev/null
e2e_keys C
_e2e_poll "$E2E_TIMEOUT" "C to copy" \
    eval '[ "$(e2e_clipboard)" != "nothing yet" ]'
case $(e2e_clipboard) in
"curl -sS "*"'$CLOUDFLARE_BASE_URL/"*) ;;
*) e2e_fail "C copied: $(e2e_clipboard)" ;;
esac
e2e_keys q
e2e_wait_gone "request log: "

# ---- the help of a list has the views' keys as bound.
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  8$'
e2e_keys '?'
e2e_wait_for " q or Esc closes"
e2e_keys /
e2e_type "copy-curl"
e2e_keys Enter
e2e_wait_match "^ +C +copy-curl +copy the request as a curl command"
e2e_keys /
e2e_keys C-u
e2e_type "undo the change"
e2e_keys Enter
e2e_wait_match "^ +U +undo +undo the change"
e2e_keys q
e2e_wait_match '^ rate-limits \(legacy, deprecated\)  8$'

# ---- a list's own u and c are not the views': c is captions in videos.
e2e_command videos '^ videos  50$'
e2e_keys c
e2e_wait_match '^ captions of '
e2e_keys q
e2e_wait_match '^ videos  50$'
e2e_quit_and_check_sane : q Enter
