#!/bin/bash
# API Shield discovered operations in the console against edgemu: the list
# with its states, review refused for a saved one, review and ignored on
# the one under the cursor (one PATCH each), ignored on two marked ones
# (the bulk PATCH), and saving one, then two marked ones, into endpoint
# management. What the server holds is checked with its API.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init discovered
e2e_edgemu_start
GW=/zones/$CLOUDFLARE_ZONE_ID/api_gateway

# The number the API counts (total_count) for PATH?QUERY.
api_count() {
	e2e_api GET "$GW/$1?per_page=5${2:+&$2}" |
	    grep -oE '"total_count": *[0-9]+' | grep -oE '[0-9]+$'
}

# The state the API gives the discovered operation METHOD HOST ENDPOINT
# (an endpoint filter matches by substring: the whole endpoint is checked).
disc_state() {
	local q re one

	q=${3//\{/%7B}
	q=${q//\}/%7D}
	# shellcheck disable=SC2016
	re=$(sed 's/[][\/.*^$(){}+?|]/\\&/g' <<<"$3")
	one=$(e2e_api GET "$GW/discovery/operations?per_page=50&method=$1&host=$2&endpoint=$q" |
	    grep -oE "\"endpoint\": *\"$re\"[^}]*\"state\": *\"[a-z]+\"" ||
	    true)
	[ -n "$one" ] || e2e_fail "the API has no discovered $1 $2 $3"
	grep -oE '"state": *"[a-z]+"' <<<"$one" | grep -oE '[a-z]+"$' |
	    tr -d '"'
}

expect_state() {
	local got

	got=$(disc_state "$1" "$2" "$3")
	[ "$got" = "$4" ] || e2e_fail "$1 $2 $3 is $got, not $4"
}

# Until edgemu's log (written once a reply is sent) has N lines matching
# REGEX.
_log_count_is() {
	[ "$(grep -cE -- "$1" "$E2E_DIR/edgemu.log" || true)" -eq "$2" ]
}
wait_log_count() {
	_e2e_poll "$E2E_TIMEOUT" "$2 lines /$1/ in edgemu's log" \
	    _log_count_is "$1" "$2"
}
LIST_GET="GET $GW/discovery/operations [0-9]{3}"
BULK_PATCH="PATCH $GW/discovery/operations [0-9]{3}"

# The console's $EDITOR for E: review becomes ignored.
cat >"$E2E_DIR/editor.sh" <<'SH'
#!/bin/sh
sed -i 's/^state: review$/state: ignored/' "$1"
SH
chmod +x "$E2E_DIR/editor.sh"
export EDITOR="$E2E_DIR/editor.sh"

e2e_console_start
e2e_wait_match '^ operations  300$'

# The command line takes an alias of the kind.
e2e_command dops '^ discovered-operations  40$'
e2e_assert_contains "STATE   REQ/H  ORIGIN"
e2e_wait_match '^[ >] POST +api\.example\.com +/v1/users/\{var1\}/addresses +saved '
e2e_wait_match '^[ >] GET +api\.example\.com +/v1/internal/metrics +review '
e2e_wait_match '^[ >] GET +auth\.example\.com +/\.well-known/openid-configuration +ignored '
# Both origins fit, and the endpoint keeps its room (120 columns).
e2e_wait_match '^[ >] POST +api\.example\.com +/v2/users +ignored +[0-9]+ +ML,SessionIdentifier +[0-9]'

# A saved one cannot go back to review: the server's reason is shown
# and nothing changes.
e2e_keys g R
e2e_wait_for "HTTP 409: discovered operation "
e2e_wait_for "is saved in endpoint management"
expect_state POST api.example.com '/v1/users/{var1}/addresses' saved

# Only those in review, from the server.
e2e_keys F
e2e_wait_for "server filters, NAME=VALUE"
e2e_type "state=review"
e2e_keys Enter
e2e_wait_match '^ discovered-operations  20  \[state=review\]$'
e2e_wait_match '^[ >] GET +api\.example\.com +/v1/internal/metrics +review '

# i then R on the first row: one PATCH each, whose answer is shown
# without a reload (the list was loaded twice, all then in review, and
# expect_state asked once).
wait_log_count "$LIST_GET" 3
e2e_keys g i
e2e_wait_for "1 operation set to ignored"
e2e_wait_match '^[ >] GET +api\.example\.com +/v1/internal/metrics +ignored '
expect_state GET api.example.com /v1/internal/metrics ignored
e2e_keys R
e2e_wait_for "1 operation set to review"
e2e_wait_match '^[ >] GET +api\.example\.com +/v1/internal/metrics +review '
expect_state GET api.example.com /v1/internal/metrics review
# Two from the console and three from expect_state.
wait_log_count "$LIST_GET" 5
wait_log_count "PATCH $GW/discovery/operations/[-0-9a-f]+ 200" 2
_log_count_is "$BULK_PATCH" 0 || e2e_fail "one operation went by the bulk PATCH"

# Two marked, then i: one bulk PATCH, its answer shown in the rows; a
# refresh asks the server again, which leaves them out.
e2e_keys g Space Space
e2e_wait_match '^ discovered-operations  20  2 marked  \[state=review\]$'
e2e_keys i
e2e_wait_for "2 operations set to ignored"
e2e_wait_match '^ discovered-operations  20  \[state=review\]$'
e2e_wait_match '^[ >] GET +api\.example\.com +/v1/internal/metrics +ignored '
e2e_wait_match '^[ >] GET +shop\.example\.com +/api/legacy/cart +ignored '
e2e_keys r
e2e_wait_match '^ discovered-operations  18  \[state=review\]$'
expect_state GET api.example.com /v1/internal/metrics ignored
expect_state GET shop.example.com /api/legacy/cart ignored
[ "$(api_count discovery/operations state=ignored)" -eq 12 ] ||
    e2e_fail "the API does not count 12 ignored"
wait_log_count "$BULK_PATCH" 1

# s saves the first one into endpoint management.
e2e_keys g
e2e_wait_match '^[ >] GET +api\.example\.com +/v2/users/\{var1\} +review '
e2e_keys s
e2e_wait_for "saved into endpoint management: "
e2e_wait_match '^ discovered-operations  17  \[state=review\]$'
[ "$(api_count operations)" -eq 301 ] ||
    e2e_fail "the saved operation is not in the API's operations"
[ "$(api_count operations 'method=GET&host=api.example.com&endpoint=/v2/users/')" -eq 1 ] ||
    e2e_fail "no operation GET api.example.com /v2/users/{var1}"
expect_state GET api.example.com '/v2/users/{var1}' saved

# Two marked, the cursor on neither, then s: both are saved (one bulk
# create), not the one under the cursor.
e2e_keys g Down Space Space
e2e_wait_match '^ discovered-operations  17  2 marked  \[state=review\]$'
e2e_keys s
e2e_wait_for "2 operations saved into endpoint management"
e2e_wait_match '^ discovered-operations  15  \[state=review\]$'
[ "$(api_count operations)" -eq 303 ] ||
    e2e_fail "the API does not count the two marked operations saved"
wait_log_count "POST $GW/operations 200" 1

# Without the server filter, the list shows it saved.
e2e_keys F
e2e_wait_for "server filters, NAME=VALUE"
e2e_keys C-u Enter
e2e_wait_match '^ discovered-operations  40$'
e2e_wait_match '^[ >] GET +api\.example\.com +/v2/users/\{var1\} +saved '

# E on a kind with no call for one record: the listed copy is edited and
# diffed, the PATCH's partial answer ({state}) merges into the row.
e2e_keys F
e2e_wait_for "server filters, NAME=VALUE"
e2e_keys C-u
e2e_type "state=review"
e2e_keys Enter
e2e_wait_match '^ discovered-operations  15  \[state=review\]$'
e2e_keys g E
e2e_wait_for "Apply 1 change to discovered-operations"
e2e_assert_contains "state: \"review\" → \"ignored\""
e2e_keys y
e2e_wait_for "saved discovered-operations"
e2e_wait_match '^> [A-Z]+ .* ignored '
[ "$(api_count discovery/operations state=ignored)" -eq 13 ] ||
    e2e_fail "the edit did not reach the server"

e2e_quit_and_check_sane q q
