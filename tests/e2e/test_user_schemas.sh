#!/bin/bash
# API Shield user schemas in the console against edgemu: the list, an
# OpenAPI upload (path completed with Tab, then a name), details without
# the source and the source on its own, validation turned on (and the API
# unable to turn it off), an invalid document refused with the server's
# reason, and a delete. What the server holds is checked with its API.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init user_schemas
e2e_edgemu_start
US=/zones/$CLOUDFLARE_ZONE_ID/api_gateway/user_schemas

us_count() {
	e2e_api GET "$US?per_page=5&omit_source=true" |
	    grep -oE '"total_count": *[0-9]+' | grep -oE '[0-9]+$'
}

# The id of the schema named NAME, per the API.
us_id() {
	e2e_api GET "$US?per_page=50&omit_source=true" |
	    grep -oE "\"schema_id\": *\"[-0-9a-f]+\", *\"name\": *\"$1\"" |
	    grep -oE '[-0-9a-f]{36}'
}

mkdir -p "$E2E_DIR/schemas"
cat >"$E2E_DIR/schemas/pets.yaml" <<'EOF'
openapi: 3.0.3
info:
  title: E2E pet store
  version: "1.0"
servers:
  - url: https://api.example.com
paths:
  /pets:
    get:
      responses:
        "200":
          description: the pets
EOF
cat >"$E2E_DIR/schemas/swagger.yaml" <<'EOF'
swagger: "2.0"
info:
  title: too old
  version: "1"
paths: {}
EOF

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command user-schemas '^ user-schemas \(legacy, deprecated\)  2$'
e2e_wait_match '^[ >] Shop storefront \(JSON\) +openapi_v3 yes '
e2e_wait_match '^[ >] Identity service \(YAML\) +openapi_v3 no '

# Upload: n asks for the file (Tab completes), then for the name.
e2e_keys n
e2e_wait_for "OpenAPI v3 file to upload"
e2e_type "sch"
e2e_keys Tab
e2e_wait_for "schemas/"
e2e_type "pe"
e2e_keys Tab
e2e_wait_for "schemas/pets.yaml"
e2e_keys Enter
e2e_wait_for "name for the schema (Enter: pets.yaml)"
e2e_type "E2E pets"
e2e_keys Enter
e2e_wait_for "uploaded "
e2e_wait_match '^ user-schemas \(legacy, deprecated\)  3$'
e2e_wait_match '^[ >] E2E pets +openapi_v3 no '
[ "$(us_count)" -eq 3 ] || e2e_fail "the API does not list the upload"
id=$(us_id "E2E pets")
[ -n "$id" ] || e2e_fail "the API has no schema named E2E pets"
e2e_api GET "$US/$id" | grep -q 'title: E2E pet store' ||
    e2e_fail "the API's copy lacks the uploaded text"

# Details leave the source out; S shows it.
e2e_keys G Enter
e2e_wait_match "^ user-schemas \(legacy, deprecated\)  3  >  user-schemas $id$"
e2e_wait_for "name: E2E pets"
e2e_wait_for "validation_enabled: false"
e2e_wait_gone "source:"
e2e_assert_not_contains "E2E pet store"
e2e_keys S
e2e_wait_for "source of $id"
e2e_wait_for "title: E2E pet store"
e2e_wait_for "description: the pets"
e2e_keys q
e2e_wait_gone "source of $id"
e2e_keys q
e2e_wait_match '^ user-schemas \(legacy, deprecated\)  3$'

# t turns validation on; the API cannot turn it off, and t says so.
e2e_keys t
e2e_wait_for "saved user-schemas $id"
e2e_wait_match '^[ >] E2E pets +openapi_v3 yes '
e2e_api GET "$US/$id?omit_source=true" |
    grep -qE '"validation_enabled": *true' ||
    e2e_fail "the API does not validate with the schema"
e2e_keys t
e2e_wait_for "validation is on; the API cannot turn it off"
e2e_assert_contains "delete the schema (d)"

# An OpenAPI 2 document: refused before a name is asked, nothing sent.
e2e_keys n
e2e_wait_for "OpenAPI v3 file to upload"
e2e_type "schemas/swagger.yaml"
e2e_keys Enter
e2e_wait_for "file: 'schemas/swagger.yaml': swagger 2.0 (OpenAPI 2) documents are not supported: upload an OpenAPI 3.0.x"
e2e_wait_match '^nothing was sent$'
e2e_assert_not_contains "name for the schema"
e2e_wait_match '^ user-schemas \(legacy, deprecated\)  3$'
[ "$(us_count)" -eq 3 ] || e2e_fail "the invalid document was added"

# Delete the upload.
e2e_keys G
e2e_keys d
e2e_wait_match "Delete user schema '.+' \\(${id:0:8}…\\)\\? \\(y/n\\)"
e2e_keys y
e2e_wait_for "deleted user-schemas "
e2e_wait_match '^ user-schemas \(legacy, deprecated\)  2$'
e2e_assert_not_contains "E2E pets"
[ "$(us_count)" -eq 2 ] || e2e_fail "the deleted schema is still listed"
if e2e_api GET "$US/$id" >/dev/null 2>&1; then
	e2e_fail "the deleted schema can still be read"
fi
[ "$(e2e_api_status)" = 404 ] || e2e_fail "reading the deleted schema: HTTP $(e2e_api_status), not 404"

e2e_quit_and_check_sane : q Enter
