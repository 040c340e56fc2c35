#!/bin/bash
# The current Schema Validation API in the console against edgemu: the
# schemas panel (upload from a file with Tab completion, validation on and
# off, details without the source and S for it, a delete naming the
# operations that lose validation), the zone settings chosen value by
# value, and the operations panel's VALIDATION column with V setting two
# marked operations to block in one bulk call. What the server holds is
# checked with its API.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init validation_schemas
e2e_edgemu_start
SV=/zones/$CLOUDFLARE_ZONE_ID/schema_validation

sv_count() {
	e2e_api GET "$SV/schemas?per_page=5&omit_source=true" |
	    grep -oE '"total_count": *[0-9]+' | grep -oE '[0-9]+$'
}

# The id of the schema named NAME, per the API.
sv_id() {
	e2e_api GET "$SV/schemas?per_page=50&omit_source=true" |
	    grep -oE "\"schema_id\": *\"[-0-9a-f]+\", *\"name\": *\"$1\"" |
	    grep -oE '[-0-9a-f]{36}'
}

mkdir -p "$E2E_DIR/specs"
cat >"$E2E_DIR/specs/cart.yaml" <<'EOF'
openapi: 3.0.3
info:
  title: E2E cart service
  version: "2.0"
servers:
  - url: https://cart.example.com
paths:
  /cart:
    get:
      responses:
        "200":
          description: the cart
EOF

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command validation-schemas '^ validation-schemas  2$'
e2e_wait_match '^[ >] Shop storefront \(JSON\) +openapi_v3 +yes '
e2e_wait_match '^[ >] Identity service \(YAML\) +openapi_v3 +no '
# At 80 columns the footer ends with the last hint that fits whole.
e2e_resize 80 24
e2e_wait_match '^ \? help .*  S source *$'
e2e_assert_not_contains "t validation on"
e2e_resize 120 40
e2e_wait_match '^ edgetui .{90,}budget'

# Upload: n asks for the file (Tab completes), then for the name; JSON.
e2e_keys n
e2e_wait_for "OpenAPI v3 file to upload"
e2e_type "spe"
e2e_keys Tab
e2e_wait_for "specs/"
e2e_type "ca"
e2e_keys Tab
e2e_wait_for "specs/cart.yaml"
e2e_keys Enter
e2e_wait_for "name for the schema (Enter: cart.yaml)"
e2e_type "E2E cart"
e2e_keys Enter
e2e_wait_for "uploaded "
e2e_wait_match '^ validation-schemas  3$'
e2e_wait_match '^[ >] E2E cart +openapi_v3 +no '
[ "$(sv_count)" -eq 3 ] || e2e_fail "the API does not list the upload"
id=$(sv_id "E2E cart")
[ -n "$id" ] || e2e_fail "the API has no schema named E2E cart"
e2e_api GET "$SV/schemas/$id" | grep -q 'title: E2E cart service' ||
    e2e_fail "the API's copy lacks the uploaded text"

# A directory or a missing file is refused before the name is asked.
e2e_keys n
e2e_wait_for "OpenAPI v3 file to upload"
e2e_type "specs"
e2e_keys Enter
e2e_wait_for "specs: a directory, not a file; nothing was sent"
e2e_assert_not_contains "name for the schema"
e2e_keys n
e2e_wait_for "OpenAPI v3 file to upload"
e2e_type "specs/none.yaml"
e2e_keys Enter
e2e_wait_for "specs/none.yaml: No such file or directory; nothing was sent"
e2e_assert_not_contains "name for the schema"

# Details leave the source out; S shows it.
e2e_keys G Enter
e2e_wait_match "^ validation-schemas  3  >  validation-schemas $id$"
e2e_wait_for "name: E2E cart"
e2e_wait_for "validation_enabled: false"
e2e_wait_gone "source:"
e2e_keys S
e2e_wait_for "source of $id"
e2e_wait_for "title: E2E cart service"
e2e_keys q
e2e_wait_gone "source of $id"
e2e_keys q
e2e_wait_match '^ validation-schemas  3$'

# t turns validation on, and t again off: the current API does both.
e2e_keys t
e2e_wait_for "saved validation-schemas $id"
e2e_wait_match '^[ >] E2E cart +openapi_v3 +yes '
e2e_api GET "$SV/schemas/$id?omit_source=true" |
    grep -qE '"validation_enabled": *true' ||
    e2e_fail "the API does not validate with the schema"
e2e_keys t
e2e_wait_match '^[ >] E2E cart +openapi_v3 +no '
e2e_api GET "$SV/schemas/$id?omit_source=true" |
    grep -qE '"validation_enabled": *false' ||
    e2e_fail "validation is still on"

# Delete the demo's YAML schema: the question names what loses validation.
yid=$(sv_id "Identity service \\(YAML\\)")
[ -n "$yid" ] || e2e_fail "no demo YAML schema"
e2e_keys g Down
e2e_wait_match '^> Identity service \(YAML\) '
e2e_keys d
e2e_wait_match "Delete schema 'Identity service \\(YAML\\)'"
e2e_wait_for "4 operations lose validation:"
e2e_wait_for "GET auth.example.com/v1/clients"
e2e_wait_for "DELETE auth.example.com/v1/sessions/{var1}"
e2e_keys y
e2e_wait_for "deleted validation-schemas "
e2e_wait_match '^ validation-schemas  2$'
if e2e_api GET "$SV/schemas/$yid" >/dev/null 2>&1; then
	e2e_fail "the deleted schema can still be read"
fi
[ "$(e2e_api_status)" = 404 ] || e2e_fail "reading the deleted schema: HTTP $(e2e_api_status), not 404"

# The zone's settings: each value with its meaning, then one PUT.
e2e_command validation-settings '^ validation-settings$'
e2e_wait_for "Default action: log (a request that breaks its schema is logged, and passes)"
e2e_wait_for "Override: none set (no override: each operation's action, else the default)"
e2e_keys e
e2e_wait_for "default action for operations without their own"
e2e_wait_for "block         a request that breaks its schema is denied"
e2e_keys Down Enter
e2e_wait_for "zone-wide override"
e2e_wait_for "validation off for the whole zone, whatever the actions"
e2e_keys Down Enter
e2e_wait_for "saved validation-settings"
e2e_wait_for "Default action: block (a request that breaks its schema is denied)"
e2e_wait_for "Override: none (validation off for the whole zone"
# The notes fit 80 columns whole.
e2e_resize 80 24
e2e_wait_for "V) beats the default"
e2e_resize 120 40
e2e_api GET "$SV/settings" |
    grep -qE '"validation_override_mitigation_action": *"none"' ||
    e2e_fail "the override was not saved"
e2e_api GET "$SV/settings" |
    grep -qE '"validation_default_mitigation_action": *"block"' ||
    e2e_fail "the default was not saved"

# Operations: the VALIDATION column, and V on two marked operations.
e2e_keys q
e2e_wait_match '^ validation-schemas  2$'
e2e_keys q
e2e_wait_match '^ operations  300$'
e2e_wait_match '^> GET +api\.example\.com +/v1/users +default '
e2e_keys Space Space
e2e_wait_match '^ operations  300  2 marked$'
e2e_keys V
e2e_wait_for "schema validation of the marked operations"
e2e_keys Enter
e2e_wait_for "Set schema validation to block on 2 operations"
e2e_wait_for "Type 2 and Enter to confirm"
e2e_type 2
e2e_keys Enter
e2e_wait_for "schema validation of 2 operations set"
e2e_wait_count '^[ >] (GET|POST) +api\.example\.com +/v1/users +block ' 2
ops=$(e2e_api GET "/zones/$CLOUDFLARE_ZONE_ID/api_gateway/operations?per_page=5" |
    grep -oE '"operation_id": *"[-0-9a-f]+"' | grep -oE '[-0-9a-f]{36}' |
    head -n 2)
for op in $ops; do
	e2e_api GET "$SV/settings/operations/$op" |
	    grep -qE '"mitigation_action": *"block"' ||
	    e2e_fail "operation $op is not set to block"
done

# V on the one under the cursor: default clears its own action.
e2e_keys g V
e2e_wait_for "schema validation of the operation"
e2e_keys End Enter
e2e_wait_for "Clear schema validation of operation"
e2e_keys y
e2e_wait_for "schema validation of 1 operation set"
e2e_wait_match '^> GET +api\.example\.com +/v1/users +default '
op=$(echo "$ops" | head -n 1)
e2e_api GET "$SV/settings/operations/$op" |
    grep -qE '"mitigation_action": *null' ||
    e2e_fail "operation $op still has its own action"

e2e_quit_and_check_sane : q Enter
