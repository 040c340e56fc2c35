#!/bin/bash
# The schemas panel on a server without the current Schema Validation API
# (edgemu --no-schema-validation-api): the list's 404 turns the panel to
# the classic API, its title says so, and the classic calls work from it
# (the list, validation on through the classic PATCH); in the operations
# panel V goes to the classic bulk call.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init validation_fallback
e2e_edgemu_start --no-schema-validation-api
US=/zones/$CLOUDFLARE_ZONE_ID/api_gateway/user_schemas

e2e_api GET "/zones/$CLOUDFLARE_ZONE_ID/schema_validation/schemas" \
    >/dev/null 2>&1 && e2e_fail "the current API answers"
[ "$(e2e_api_status)" = 404 ] || e2e_fail "the current API: HTTP $(e2e_api_status), not 404"

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_wait_for "the VALIDATION column is unknown"

# V: the current bulk call is not there (404), the classic one is used.
op=$(e2e_api GET "/zones/$CLOUDFLARE_ZONE_ID/api_gateway/operations?per_page=5" |
    grep -oE '"operation_id": *"[-0-9a-f]+"' | grep -oE '[-0-9a-f]{36}' |
    head -n 1)
e2e_keys V
e2e_wait_for "schema validation of the operation"
e2e_keys Enter
e2e_wait_for "Set schema validation of operation"
e2e_keys y
e2e_wait_for "schema validation of 1 operation set"
e2e_wait_match '^> GET +api\.example\.com +/v1/users +block '
e2e_api GET "/zones/$CLOUDFLARE_ZONE_ID/api_gateway/operations/$op/schema_validation" |
    grep -qE '"mitigation_action": *"block"' ||
    e2e_fail "the classic API does not have block for $op"

e2e_command validation-schemas '^ user-schemas \(classic API: this server has no current one\)  2$'
e2e_wait_for "no /schema_validation on this server (404): using the classic API"
e2e_wait_match '^[ >] Identity service \(YAML\) +openapi_v3 +no '

# Validation on goes by the classic PATCH; off is refused as it was.
e2e_keys g Down
e2e_wait_match '^> Identity service \(YAML\) '
e2e_keys t
e2e_wait_for "saved user-schemas "
e2e_wait_match '^> Identity service \(YAML\) +openapi_v3 +yes '
e2e_api GET "$US?per_page=50&omit_source=true&validation_enabled=true" |
    grep -q '"name": *"Identity service (YAML)"' ||
    e2e_fail "the classic API does not validate with the schema"
e2e_keys t
e2e_wait_for "validation is on; the API cannot turn it off"

e2e_quit_and_check_sane : q Enter
