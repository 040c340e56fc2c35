#!/bin/bash
# Every list view (here the request log and the journal) has what lists
# have: / filters the rows (the title says how many of how many, Esc
# clears the filter, then closes), o sorts by a column the picker offers
# (O reverses; / narrows the picker too), Space marks rows (C-u clears),
# y copies the marked rows (the log: their curl commands), w writes the
# rows shown, or the marked ones, to a new file of mode 0600, and ? lists
# the view's keys.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=120 E2E_ROWS=30
e2e_init list_views
e2e_edgemu_start
ROW='^ [0-9:]{8}  GET +200 +[0-9]+ ms +[0-9]+  '

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_command li '^ live-inputs  [0-9]+$'
e2e_command rules '^ rate-limit-rules  6$'
e2e_command log "^ request log: 4 requests in this session, newest first"
e2e_wait_match "${ROW}.*/phases/http_ratelimit/entrypoint$"

# ---- / narrows the rows; Esc clears the filter, then closes the log.
e2e_keys /
e2e_wait_match '^/'
e2e_type "live_inputs"
e2e_wait_match "request log: 4 requests .*  1 of 4  /live_inputs$"
e2e_keys Enter
e2e_wait_gone "api_gateway"
e2e_wait_match "${ROW}.*/stream/live_inputs"
e2e_assert_not_contains "entrypoint"
e2e_keys Escape
e2e_wait_for "filter cleared"
e2e_wait_match "${ROW}.*/phases/http_ratelimit/entrypoint$"
e2e_assert_not_contains "1 of 4"
e2e_keys /
e2e_type "nothing like this"
e2e_keys Enter
e2e_wait_for "nothing matches the filter"
e2e_keys Escape
e2e_wait_for "filter cleared"
e2e_wait_match "${ROW}.*/phases/http_ratelimit/entrypoint$"

# ---- o: the picker of columns, narrowed by /; O reverses.
e2e_keys o
e2e_wait_for "sort by (Enter; O reversed)"
e2e_wait_for "the view's order"
e2e_keys /
e2e_type "pat"
e2e_keys Enter
e2e_wait_gone "latency"
e2e_keys Enter
e2e_wait_match "request log: 4 requests .*  sort path asc$"
# /accounts... sorts before /zones...
e2e_wait_match "^>? ?[0-9:]{8}  GET.*/accounts/"
rows=$(grep -nE "$ROW" "$E2E_DIR/screen.now" | head -n 1)
case $rows in *"/accounts/"*) ;; *) e2e_fail "not sorted by path: $rows" ;; esac
e2e_keys O
e2e_wait_match "request log: 4 requests .*  sort path desc$"
rows=$(grep -nE "$ROW" "$E2E_DIR/screen.now" | head -n 1)
case $rows in *"/zones/"*) ;; *) e2e_fail "not reversed: $rows" ;; esac

# ---- Space marks; y copies the marked rows' commands; w writes them.
e2e_keys g Space Space
e2e_wait_match "request log: 4 requests .*  2 marked  sort path desc$"
[ "$(grep -cE '^\*' "$E2E_DIR/screen.now")" = 2 ] ||
    e2e_fail "two rows do not show their mark"
e2e_keys y
e2e_wait_for "copied 2 marked rows to the clipboard"
[ "$(e2e_clipboard | grep -c "^curl -sS '")" = 2 ] ||
    e2e_fail "the clipboard holds: $(e2e_clipboard)"
e2e_keys w
e2e_wait_for "save the rows to the file"
e2e_type "$E2E_DIR/marked.txt"
e2e_keys Enter
e2e_wait_for "saved 2 rows to $E2E_DIR/marked.txt (mode 0600)"
[ "$(stat -c %a "$E2E_DIR/marked.txt")" = 600 ] ||
    e2e_fail "the file is not mode 0600"
head -n 1 "$E2E_DIR/marked.txt" | grep -qE '^TIME +METHOD +ST +LATENCY' ||
    e2e_fail "no column heads: $(cat "$E2E_DIR/marked.txt")"
[ "$(grep -cE '^[0-9:]{8}  GET ' "$E2E_DIR/marked.txt")" = 2 ] ||
    e2e_fail "not the two marked rows: $(cat "$E2E_DIR/marked.txt")"
# Never over a file: the same name is refused.
e2e_keys w
e2e_wait_for "save the rows to the file"
e2e_type "$E2E_DIR/marked.txt"
e2e_keys Enter
e2e_wait_for "save: $E2E_DIR/marked.txt: File exists"
# C-u clears the marks: w writes every row shown.
e2e_keys C-u
e2e_wait_match "request log: 4 requests .*  sort path desc$"
e2e_keys w
e2e_wait_for "save the rows to the file"
e2e_type "$E2E_DIR/all.txt"
e2e_keys Enter
e2e_wait_for "saved 4 rows to $E2E_DIR/all.txt (mode 0600)"
grep -q "/phases/http_ratelimit/entrypoint$" "$E2E_DIR/all.txt" ||
    e2e_fail "the path is not whole in the file: $(cat "$E2E_DIR/all.txt")"

# ---- ?: the log's keys, from the keymap.
e2e_keys '?'
e2e_wait_for "request log: keys"
e2e_wait_match "^ +c +copy-curl +copy the request as a curl command"
e2e_wait_match "^ +w +save-file +save the rows shown, or the marked ones"
e2e_wait_match "^ +Space +mark "
e2e_keys q
e2e_wait_match "request log: 4 requests"
e2e_keys q
e2e_wait_gone "request log: "

# ---- the journal is the same list view: its keys too.
e2e_command journal "journal: 0 changes of profile"
e2e_wait_for "No change made with this profile yet."
e2e_keys '?'
e2e_wait_for "journal: keys"
e2e_wait_match "^ +u +undo +undo the change"
e2e_wait_match "^ +/ +filter "
e2e_keys q
e2e_wait_for "journal: 0 changes"
e2e_keys q
e2e_wait_gone "journal: "
e2e_quit_and_check_sane : q Enter
