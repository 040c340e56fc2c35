#!/bin/bash
# API Shield operations in the console against edgemu: the list, the live
# filter and its inverse, sorting, details with features, server filters,
# a create through the form (and a refused one), a bulk create from a file
# whose path is completed with Tab, one delete, a bulk delete of marked
# rows, a resize and a clean quit. What the server holds is checked with
# its API.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init operations
e2e_edgemu_start
OPS=/zones/$CLOUDFLARE_ZONE_ID/api_gateway/operations

# How many operations the server holds (per the API, filters in $1).
ops_count() {
	e2e_api GET "$OPS?per_page=5${1:+&$1}" |
	    grep -oE '"total_count": *[0-9]+' | grep -oE '[0-9]+$'
}

# Row N of the screen (1 is the header, 3 the first list's introduction)
# matches REGEX.
_row_matches() {
	[[ $(sed -n "$1p" <<<"$_e2e_scr") =~ $2 ]]
}
wait_row() {
	_e2e_poll "$E2E_TIMEOUT" "row $1 to match /$2/" _row_matches "$1" "$2"
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

mkdir -p "$E2E_DIR/files"
cat >"$E2E_DIR/files/bulk-ops.txt" <<'EOF'
# three new operations, and the form's again
GET api.example.com /e2e-bulk/one
POST shop.example.com /e2e-bulk/two
DELETE auth.example.com /e2e-bulk/three
POST api.example.com /e2e/created
EOF
cat >"$E2E_DIR/files/refused-ops.txt" <<'EOF'
# one good, one refused: the message names the refused one's line
GET api.example.com /e2e-refused/one
FETCH api.example.com /e2e-refused/two
EOF

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_expect_screen operations-list.txt

# A refused line is named by its line in the file, and nothing is sent.
e2e_keys b
e2e_wait_for "create operations from a file"
e2e_type "$E2E_DIR/files/refused-ops.txt"
e2e_keys Enter
e2e_wait_match "nothing sent: line 3: method"
[ "$(ops_count)" -eq 300 ] || e2e_fail "a refused bulk create sent operations"

# The live filter narrows, ! inverts it, Esc puts the list back.
e2e_keys /
e2e_type orders
e2e_wait_match '^ operations  12 of 300  /orders$'
e2e_assert_not_contains "/v1/users"
e2e_keys BSpace BSpace BSpace BSpace BSpace BSpace
e2e_wait_match '^ operations  300$'
e2e_type '!orders'
e2e_wait_match '^ operations  288 of 300  /!orders$'
e2e_assert_not_contains "/v1/orders"
e2e_keys Escape
e2e_wait_match '^ operations  300$'

# Sorting: o picks the column from a list (Enter ascending, O
# descending), O in the list reverses; the header marks the column and
# its direction. g goes to the first row (the cursor stays on its record
# through a sort).
e2e_keys o
e2e_wait_for "sort by (Enter; O reversed)"
e2e_assert_contains "the server's order"
e2e_keys Down Enter
e2e_wait_gone "sort by"
e2e_keys g
e2e_wait_match '^ operations  300  sort METHOD asc$'
e2e_wait_match '^  METHOD▲ +HOST +ENDPOINT'
wait_row 5 '^[ >] DELETE +api\.example\.com +/v1/users/\{var1\} '
e2e_keys O g
e2e_wait_match '^ operations  300  sort METHOD desc$'
e2e_wait_match '^  METHOD▼ +HOST +ENDPOINT'
wait_row 5 '^[ >] PUT +api\.example\.com +/v1/users/\{var1\} '
# Straight to HOST, descending, from the picker: one o, not one per column
# (the picker opens on the column sorted by: METHOD; g is its first item).
e2e_keys o
e2e_wait_for "sort by (Enter; O reversed)"
e2e_wait_match ' METHOD ▼  +'
e2e_keys Down O
e2e_wait_gone "sort by"
e2e_keys o
e2e_wait_for "sort by (Enter; O reversed)"
e2e_keys g Down Down O
e2e_wait_gone "sort by"
e2e_keys g
e2e_wait_match '^ operations  300  sort HOST desc$'
e2e_wait_match '^  METHOD +HOST ▼ +ENDPOINT'
wait_row 5 '^[ >] GET +shop\.example\.com +/api/cart '
# Back to the server's order, the first item; Esc leaves the picker as is.
e2e_keys o
e2e_wait_for "sort by (Enter; O reversed)"
e2e_keys Escape
e2e_wait_gone "sort by"
e2e_assert_contains " operations  300  sort HOST desc"
e2e_keys o
e2e_wait_for "sort by (Enter; O reversed)"
e2e_keys g Enter
e2e_wait_match '^ operations  300$'
e2e_wait_match '^  METHOD +HOST +ENDPOINT'
e2e_keys g
wait_row 5 '^[ >] GET +api\.example\.com +/v1/users '

# Details carry the features the list lacks (thresholds).
e2e_keys Enter
e2e_wait_for "suggested_threshold:"
e2e_expect_screen operations-details.txt
e2e_keys q
e2e_wait_match '^ operations  300$'

# Server filters: the list reloads with the query, shown in the title.
e2e_keys F
e2e_wait_for "server filters, NAME=VALUE"
e2e_type "host=shop.example.com method=GET"
e2e_keys Enter
e2e_wait_match '^ operations  34  \[host=shop\.example\.com&method=GET\]$'
# Every row, and only those, is a GET on that host (once fully drawn).
e2e_wait_count '^[ >] GET +shop\.example\.com ' 34
e2e_wait_count '^[ >] (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|CONNECT|TRACE) ' 34
e2e_keys F
e2e_wait_for "server filters, NAME=VALUE"
e2e_keys C-u Enter
e2e_wait_match '^ operations  300$'

# A create through the form: the method is a choice, host and endpoint
# are typed. Bad values are refused in the form and nothing is sent.
e2e_keys n
e2e_wait_for "new operations"
e2e_wait_match '^ method +\* < \(unset\) >'
e2e_keys Right Right
e2e_wait_match '^ method +\* < POST >'
e2e_keys Tab
e2e_type "not a host!"
e2e_keys Tab
e2e_type "e2e/created"
e2e_keys Enter
e2e_wait_for "host: 'not a host!' has a space: spaces are not allowed in a host"
e2e_wait_for "endpoint: 'e2e/created' must start with '/'"
e2e_wait_for "2 fields need attention"
[ "$(ops_count)" -eq 300 ] || e2e_fail "a refused form reached the server"
# The focus went to the first bad item, the host.
e2e_keys C-u
e2e_type "api.example.com"
e2e_keys Tab C-a
e2e_type "/"
e2e_keys Enter
e2e_wait_for "created operations "
e2e_wait_gone "new operations"
[ "$(ops_count)" -eq 301 ] || e2e_fail "the form's operation is not on the server"
e2e_api GET "$OPS?per_page=5&host=api.example.com&method=POST&endpoint=/e2e/created" |
    grep -q '"endpoint": *"/e2e/created"' ||
    e2e_fail "the API has no POST api.example.com /e2e/created"

# Bulk create from a file; Tab completes the directory, then the file.
e2e_keys b
e2e_wait_for "create operations from a file"
e2e_type "fil"
e2e_keys Tab
e2e_wait_for "files/"
e2e_type "bu"
e2e_keys Tab
e2e_wait_for "files/bulk-ops.txt"
e2e_keys Enter
# The form's operation comes back as it is: not counted as new.
e2e_wait_for "4 operations saved: 3 new, 1 existing"
e2e_wait_match '^ operations  304$'
[ "$(ops_count)" -eq 304 ] || e2e_fail "the bulk create did not make 3"
[ "$(ops_count endpoint=/e2e-bulk/)" -eq 3 ] ||
    e2e_fail "the API does not list the 3 bulk-created operations"

# Delete one: the form's, found with the filter (Enter keeps it).
e2e_keys /
e2e_type "/e2e/created"
e2e_keys Enter
e2e_wait_match '^ operations  1 of 1  /\/e2e\/created$'
wait_row 5 '^[ >] POST +api\.example\.com +/e2e/created '
e2e_keys d
e2e_wait_for "Delete operation 'POST /e2e/created' ("
e2e_keys y
e2e_wait_for "deleted operations "
[ "$(ops_count)" -eq 303 ] || e2e_fail "the deleted operation is still there"
[ "$(ops_count endpoint=/e2e/created)" -eq 0 ] ||
    e2e_fail "the API still lists /e2e/created"

# Mark the three bulk ones and delete them together: one bulk call.
e2e_keys /
e2e_wait_match '^/'
e2e_keys C-u
e2e_type "/e2e-bulk/"
e2e_keys Enter
e2e_wait_match '^ operations  3 of 3  /\/e2e-bulk\/$'
e2e_keys g Space Space Space
e2e_wait_match '^ operations  3 of 3  3 marked'
[ "$(e2e_screen | grep -cE '^(\* |>\*)')" -eq 3 ] || e2e_fail "3 rows not shown marked"
e2e_keys d
e2e_wait_for "Delete 3 operations (the marked ones)?"
# Each named with its method: GET and POST of one path differ.
e2e_wait_for "'GET /e2e-bulk/one' ("
e2e_wait_for "'POST /e2e-bulk/two' ("
e2e_type 3
e2e_keys Enter
e2e_wait_for "deleted 3 operations"
[ "$(ops_count)" -eq 300 ] || e2e_fail "the marked operations were not deleted"
[ "$(ops_count endpoint=/e2e-bulk/)" -eq 0 ] ||
    e2e_fail "the API still lists bulk-created operations"
wait_log_count "DELETE $OPS [0-9]{3}" 1
wait_log_count "DELETE $OPS/[-0-9a-f]+ [0-9]{3}" 1

# Clear the filter: the full list comes back.
e2e_keys /
e2e_wait_match '^/'
e2e_keys C-u Enter
e2e_wait_match '^ operations  300$'

# A resize lays the list out again, narrower: VALIDATION stays at 80
# columns, LAST UPDATED goes first.
e2e_resize 80 24
e2e_wait_match '^ operations  300$'
e2e_wait_match '^[ >] METHOD  HOST +ENDPOINT +VALIDATION *$'
e2e_resize 120 40
e2e_wait_match '^[ >] METHOD  HOST +ENDPOINT +VALIDATION +LAST UPDATED'

e2e_quit_and_check_sane : q Enter
