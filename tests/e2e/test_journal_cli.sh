#!/bin/bash
# The one-shot commands' changes in the journal view (:journal): a deleted
# operation is kept as it was, so u re-creates it; a download of a type, a
# caption generated and an override cleared each show their kind, record
# and what happened, never "?" or "created" for a clear.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-140}
e2e_init journal-cli
e2e_edgemu_start
OPS=/zones/$CLOUDFLARE_ZONE_ID/api_gateway/operations
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream

cli() {
	"$EDGETUI" "$@" >"$E2E_DIR/cli.out" 2>&1 ||
	    e2e_fail "edgetui $*: $(cat "$E2E_DIR/cli.out")"
}

# The operation to delete and one to override, with the first's fields.
ops=$(e2e_api GET "$OPS?per_page=5")
op=$(grep -oE '"operation_id":"[0-9a-f-]{36}"' <<<"$ops" | sed -n 1p |
    cut -d'"' -f4)
other=$(grep -oE '"operation_id":"[0-9a-f-]{36}"' <<<"$ops" | sed -n 2p |
    cut -d'"' -f4)
[ -n "$op" ] && [ -n "$other" ] || e2e_fail "no operations: $ops"
endpoint=$(e2e_api GET "$OPS/$op" | grep -oE '"endpoint":"[^"]*"' |
    cut -d'"' -f4)
method=$(e2e_api GET "$OPS/$op" | grep -oE '"method":"[A-Z]+"' |
    cut -d'"' -f4)
video=$(e2e_api GET "$STREAM?status=ready" |
    grep -oE '"uid":"[0-9a-f]{32}"' | head -n 1 | cut -d'"' -f4)
[ -n "$video" ] || e2e_fail "no ready video"

cli download "$video" --type audio
cli caption generate "$video" de
cli set operation-validation "$other" --action log
cli clear operation-validation "$other"
cli delete operations "$op"

e2e_console_start
e2e_wait_match "^ operations  299$"
e2e_command journal "journal: 5 changes of profile"
# The RECORD column shows an operation's id to 32 characters.
e2e_wait_match "operation-valid.* +${other:0:32} +cleared"
e2e_assert_contains "updated: mitigation_action"
e2e_wait_match "captions +de +created"
e2e_wait_match "downloads +$video +created"
e2e_wait_match "operations +${op:0:32} +deleted"
e2e_assert_not_contains " ? "

# The newest, under the cursor: the delete, undone from its copy.
e2e_keys u
e2e_wait_for "Undo the delete of operations $op: re-create it"
e2e_keys y
e2e_wait_for "created operations "
e2e_wait_for "journal: 6 changes of profile"
e2e_api GET "$OPS?per_page=50&endpoint=$endpoint&method=$method" |
    grep -qF "\"endpoint\":\"$endpoint\"" ||
    e2e_fail "the undo did not bring back $method $endpoint"

e2e_keys q
e2e_wait_gone "journal: "
e2e_quit_and_check_sane : q Enter
