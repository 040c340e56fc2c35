#!/bin/bash
# The API Shield configuration in the console against edgemu: shown as
# YAML, changed through the form (11 characteristics and an unknown type
# refused in the form, nothing sent), then twice as YAML in $EDITOR: once
# with one value changed (a diff of 1 change, applied), once saved as
# broken YAML first (the editor comes back with the error on top) and
# fixed the second time. What the server holds is checked with its API.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init api_config
e2e_edgemu_start
CONF=/zones/$CLOUDFLARE_ZONE_ID/api_gateway/configuration

# The configuration per the API, one "type name" per characteristic.
api_chars() {
	e2e_api GET "$CONF" |
	    grep -oE '"type": *"[a-z]+", *"name": *"[^"]*"' |
	    sed -E 's/"type": *"([a-z]+)", *"name": *"([^"]*)"/\1 \2/'
}

expect_chars() {
	local got

	got=$(api_chars | tr '\n' ',')
	[ "$got" = "$1" ] || e2e_fail "the API holds '$got', not '$1'"
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
PUT_RE="PUT $CONF [0-9]{3}"

# The console's $EDITOR: what it does to the file is in editor.mode.
# "one" changes one value; "twice" breaks the YAML, then, seeing the
# console's comment on top, keeps that round's file and writes a valid one.
cat >"$E2E_DIR/editor.sh" <<EOF
#!/bin/sh
f=\$1
dir='$E2E_DIR'
case \$(cat "\$dir/editor.mode") in
one)
	exec sed -i 's/name: session_id\$/name: e2e_session/' "\$f" ;;
twice)
	if grep -q '^# edgetui:' "\$f"; then
		cp "\$f" "\$dir/round2.yaml"
		printf '%s\n' 'auth_id_characteristics:' \\
		    '  - type: header' '    name: authorization' \\
		    '  - type: jwt' \\
		    '    name: "e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:\$.sub"' \\
		    >"\$f"
	else
		printf '%s\n' '  - type: header' '    name: [unclosed' >>"\$f"
	fi ;;
esac
EOF
chmod +x "$E2E_DIR/editor.sh"
export EDITOR="$E2E_DIR/editor.sh"

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_keys :
e2e_type api-config
e2e_keys Enter
e2e_wait_for "name: session_id"
e2e_expect_screen api-config.txt
expect_chars "header authorization,cookie session_id,"

# The form: one item, the list as JSON. Refusals stay in the form.
e2e_keys e
e2e_wait_for "edit api-config"
e2e_wait_match '^ auth_id_characteristics +\* \[\{"type":"header","name":"authorization"\}'
items=
for i in 0 1 2 3 4 5 6 7 8 9 10; do
	items="$items${items:+,}{\"type\":\"header\",\"name\":\"h$i\"}"
done
e2e_keys C-u
e2e_type "[$items]"
e2e_keys Enter
e2e_wait_for "auth_id_characteristics: at most 10 items, not 11"
e2e_wait_for "1 field needs attention"
e2e_keys C-u
e2e_type '[{"type":"query","name":"x"}]'
e2e_keys Enter
e2e_wait_for "auth_id_characteristics[0].type: 'query' is not one of header, cookie, jwt"
_log_count_is "$PUT_RE" 0 || e2e_fail "a refused form reached the server"
expect_chars "header authorization,cookie session_id,"
e2e_keys C-u
e2e_type '[{"type":"header","name":"authorization"},{"type":"cookie","name":"session_id"},{"type":"header","name":"x-e2e-session"}]'
e2e_keys Enter
e2e_wait_for "saved api-config"
e2e_wait_gone "edit api-config"
e2e_wait_for "name: x-e2e-session"
expect_chars "header authorization,cookie session_id,header x-e2e-session,"

# E: one value changed in the editor, a diff of one change, applied.
echo one >"$E2E_DIR/editor.mode"
e2e_keys E
e2e_wait_for "Apply 1 change to api-config"
e2e_assert_contains "session_id"
e2e_assert_contains "e2e_session"
e2e_keys y
e2e_wait_for "saved api-config"
e2e_wait_for "name: e2e_session"
expect_chars "header authorization,cookie e2e_session,header x-e2e-session,"

# E again: broken YAML comes back to the editor with the error on top;
# the second round is valid and applied.
echo twice >"$E2E_DIR/editor.mode"
e2e_keys E
e2e_wait_match 'Apply [0-9]+ changes? to api-config'
[ -s "$E2E_DIR/round2.yaml" ] || e2e_fail "the editor did not come back"
head -n 1 "$E2E_DIR/round2.yaml" |
    grep -qx '# edgetui: the change was not applied:' ||
    e2e_fail "no error comment on top of the second round: $(head -n 3 "$E2E_DIR/round2.yaml")"
grep -q '^#   YAML: line ' "$E2E_DIR/round2.yaml" ||
    e2e_fail "the comment does not say what is wrong with the YAML"
grep -q '^[ >]   name: \[unclosed$' "$E2E_DIR/round2.yaml" ||
    e2e_fail "the second round lost the first round's text"
e2e_keys y
e2e_wait_for "saved api-config"
e2e_wait_for 'name: e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:$.sub'
expect_chars 'header authorization,jwt e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:$.sub,'
wait_log_count "$PUT_RE" 3

e2e_quit_and_check_sane : q Enter
