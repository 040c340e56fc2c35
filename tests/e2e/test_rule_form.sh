#!/bin/bash
# Writing rate limiting rules from the console at 80x24, against an edgemu
# on the Business plan with a profile that names no plan (language-only
# lint, the server is the authority): n opens the form, the expression
# editor shows a lint error at its column (caret and highlight) and its
# message, Tab completes a name, T and L take the rule as typed, the fixed
# rule validates (V) and saves, and is then in the list and on the server;
# e changes it with the whole rule PATCHed; V shows the server's refusal
# of a period over the plan's; E with a bad expression reopens the editor
# with the message and a caret under the column on top, and the fixed
# edit is applied after its diff; an E the server refuses offers the
# editor again with the text as saved and the server's reason on top.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=${E2E_COLS:-80}
E2E_ROWS=${E2E_ROWS:-24}
e2e_init rule_form
e2e_edgemu_start --plan business
EP=/zones/$CLOUDFLARE_ZONE_ID/rulesets/phases/http_ratelimit/entrypoint

# One rule, so the plan's five leave room for the form's.
e2e_api PUT "$EP" '{"rules":[{"description":"Search API","action":"block",
"expression":"http.request.uri.path eq \"/search\"","ratelimit":{
"characteristics":["cf.colo.id","ip.src"],"period":60,
"requests_per_period":50,"mitigation_timeout":600}}]}' >/dev/null

# The rules as the CLI reads them from the same edgemu.
cli_rules() {
	"$EDGETUI" get rate-limit-rules -o json
}

# $EDITOR for E: the first round breaks the expression, the second (the
# file reopened with the lint on top) is kept aside, then fixed.
cat >"$E2E_DIR/editor.sh" <<'EOF'
#!/bin/sh
dir=$(dirname "$0")
f=$1
n=$(($(cat "$dir/editor.rounds" 2>/dev/null || echo 0) + 1))
echo "$n" >"$dir/editor.rounds"
case $n in
1)
	sed -i 's|^expression: .*|expression: '\''http.request.uri.path eq "/search" and ip.srcc eq 1.2.3.4'\''|' "$f"
	;;
2)
	cp "$f" "$dir/round2.yaml"
	sed -i -e 's|^expression: .*|expression: '\''http.request.uri.path eq "/search" and ip.src eq 1.2.3.4'\''|' \
	    -e 's|^description: .*|description: Search API from YAML|' "$f"
	;;
3)
	# Over the Business plan's longest period: only the server knows.
	sed -i 's|^\( *\)period: .*|\1period: 3600|' "$f"
	;;
4)
	cp "$f" "$dir/round4.yaml"
	: >"$f"
	;;
esac
exit 0
EOF
chmod +x "$E2E_DIR/editor.sh"
export EDITOR=$E2E_DIR/editor.sh

e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_command rules '^ rate-limit-rules  1$'
e2e_wait_match '^> .*Search API'
e2e_wait_for "n new"

# ---- n: the form, a description, then the expression editor
e2e_keys n
e2e_wait_for "new rate limiting rule (no plan"
# The description has the focus: what is typed goes into it.
e2e_wait_for "type to edit  Enter/Tab next field"
e2e_type "Form rule e2e"
e2e_wait_match '^ description +Form rule e2e'
# Up from the description, the first field: (wrapping) the expression.
e2e_keys Up
e2e_wait_for "Which requests the rule applies to"
e2e_wait_for "V validate  S save"
e2e_keys Enter
e2e_wait_for "expression of a new rate limiting rule"
e2e_wait_for "required: which requests the rule applies to"
e2e_type 'http.request.uri.path eq "/form" and ip.srcc eq 1.2.3.4'
e2e_wait_for "column 38: unknown field 'ip.srcc'"
# The caret row under the text starts under the column: ip.srcc.
text_row=$(e2e_screen | grep -n 'and ip.srcc eq 1.2.3.4' | head -1 | cut -d: -f1)
[ -n "$text_row" ] || e2e_fail "the expression is not on the screen"
line=$(sed -n "${text_row}p" "$E2E_DIR/screen.now")
caret=$(sed -n "$((text_row + 1))p" "$E2E_DIR/screen.now")
prefix=${line%%ip.srcc*}
[ "${caret:${#prefix}:7}" = "^^^^^^^" ] ||
    e2e_fail "the caret is not under column 38: '$line' / '$caret'"
[ "${caret:0:${#prefix}}" = "$(printf '%*s' "${#prefix}" '')" ] ||
    e2e_fail "the caret row has more than the caret: '$caret'"
# The same characters are drawn highlighted (reverse video) in the text.
_e2e_tmux capture-pane -e -p -t "$E2E_SESSION" >"$E2E_DIR/screen.esc"
grep -qE $'\e\\[([0-9]+;)*7(;[0-9]+)*m(\e\\[[0-9;]*m)*ip\\.srcc' "$E2E_DIR/screen.esc" ||
    e2e_fail "ip.srcc is not highlighted: $(grep -F 'ip.srcc' "$E2E_DIR/screen.esc" | cat -v)"

# Fixed: the character removed, the rest typed again; then a new line.
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do
	e2e_keys BSpace
done
e2e_wait_gone "column 38"
e2e_type ' eq 1.2.3.4'
e2e_wait_for "valid (language only"
e2e_keys Enter
e2e_type 'and http.request.me'
e2e_keys Tab
e2e_wait_match '^ and http\.request\.method *$'
e2e_wait_for 'http.request.method  String: '
e2e_type ' eq "POST"'
e2e_wait_for "valid (language only"
# Tab on several names lists them with their types.
e2e_type ' and ip.src.c'
e2e_keys Tab
e2e_wait_for "ip.src.country  String"
e2e_wait_for "ip.src.city  String"
e2e_keys Escape
e2e_wait_for "Tab complete  C-f format"
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
	e2e_keys BSpace
done
e2e_wait_for "valid (language only"
e2e_keys C-f
e2e_wait_for 'http.request.uri.path eq "/form" and ip.src eq 1.2.3.4 and'
e2e_keys Escape
e2e_wait_for "V validate  S save"
e2e_wait_for 'http.request.uri.path eq "/form"'

# ---- T and L: the tester and the simulation take the rule as typed
e2e_keys T
e2e_wait_for "with the rule being edited"
e2e_type "https://www.example.com/form"
e2e_keys Enter
e2e_wait_for "Form rule e2e (edited)"
e2e_keys Escape
e2e_wait_gone "with the rule being edited"
e2e_wait_for "V validate  S save"
e2e_keys L
e2e_wait_for "simulate the rules on which access log?"
e2e_keys Escape
e2e_wait_gone "simulate the rules on which access log?"

# ---- V: the server's word, nothing saved; then S
e2e_keys V
e2e_wait_for "the server accepts this rule (dry run: nothing was saved)"
[ "$(cli_rules | grep -c '"Form rule e2e"')" = 0 ] ||
    e2e_fail "a dry run saved the rule"
e2e_keys S
e2e_wait_for "created rate limiting rule 'Form rule e2e'"
e2e_wait_match '^ rate-limit-rules  2$'
e2e_wait_for "Form rule e2e"
rules=$(cli_rules)
grep -qF '"description":	"Form rule e2e"' <<<"$rules" ||
    grep -qF '"description": "Form rule e2e"' <<<"$rules" ||
    e2e_fail "the rule is not on the server: $rules"
grep -qF 'ip.src eq 1.2.3.4 and http.request.method eq \"POST\"' <<<"$rules" ||
    e2e_fail "the expression was not saved as formatted: $rules"

# ---- e: the rule in the form, one field changed, the whole rule PATCHed
e2e_wait_match '^> .*Form rule e2e'
e2e_keys e
e2e_wait_for "edit rate limiting rule "
e2e_wait_match '^ description +Form rule e2e'
e2e_keys Tab S
e2e_wait_for "no change: nothing sent"
# e starts on the description too, edited at once.
e2e_keys e
e2e_wait_for "edit rate limiting rule "
e2e_keys End
e2e_type " (edited)"
e2e_keys Enter S
e2e_wait_for "saved rate limiting rule 'Form rule e2e (edited)'"
e2e_wait_match '^> .*Form rule e2e \(ed'
rules=$(cli_rules)
grep -qF 'ip.src eq 1.2.3.4 and http.request.method eq \"POST\"' <<<"$rules" ||
    e2e_fail "the PATCH lost the expression: $rules"
# The other rule has 50: this is the form's, kept by the whole-rule PATCH.
grep -qE '"requests_per_period":[[:space:]]*100' <<<"$rules" ||
    e2e_fail "the PATCH lost the rate: $rules"

# ---- V refused: a period over the Business plan's, offered since the
# profile names no plan; the form keeps what was typed.
e2e_keys n
e2e_wait_for "new rate limiting rule (no plan"
e2e_type "Too long a period"
# The lint of the other fields shows as they are typed.
e2e_keys Enter Down Down C-u
e2e_type "abc"
e2e_wait_for "requests per period: 'abc' is not a whole number"
e2e_keys BSpace BSpace BSpace
e2e_type "100"
e2e_wait_gone "is not a whole number"
e2e_keys Enter
e2e_wait_for "Seconds over which requests are counted"
e2e_keys Enter
e2e_wait_for "3600 s (1 h)"
e2e_keys G Enter
e2e_wait_match '^ period +3600 s \(1 h\)'
e2e_keys Up Up Up Up Up
e2e_wait_for "Which requests the rule applies to"
e2e_keys Enter
e2e_wait_for "expression of a new rate limiting rule"
e2e_type 'http.request.uri.path eq "/slow"'
e2e_wait_for "valid (language only"
e2e_keys Escape
e2e_wait_for "V validate  S save"
e2e_keys V
e2e_wait_for "the server refuses this rule"
e2e_wait_for "Business plan"
e2e_wait_match '^ description +Too long a period'
[ "$(cli_rules | grep -c 'Too long a period')" = 0 ] ||
    e2e_fail "a refused dry run saved the rule"
# S is refused the same way, and the form stays with the text.
e2e_keys S
e2e_wait_for "refused by the server: HTTP 400: ratelimit.period"
e2e_wait_match '^ description +Too long a period'
e2e_wait_for 'http.request.uri.path eq "/slow"'
e2e_keys Escape
e2e_wait_for "Discard the changes in this form? (y/n)"
e2e_keys y
e2e_wait_gone "new rate limiting rule"
e2e_wait_match '^ rate-limit-rules  2$'

# ---- E: a bad expression reopens the editor with the lint on top
e2e_keys g
e2e_wait_match '^> .*Search API'
e2e_keys E
e2e_wait_for "Apply 2 changes to rate-limit-rules"
[ "$(cat "$E2E_DIR/editor.rounds")" = 2 ] ||
    e2e_fail "the editor ran $(cat "$E2E_DIR/editor.rounds") times, not 2"
grep -qF "# edgetui: the change was not applied:" "$E2E_DIR/round2.yaml" ||
    e2e_fail "no lint comment on top: $(cat "$E2E_DIR/round2.yaml")"
grep -qF "#   expression: column 40: unknown field 'ip.srcc'" \
    "$E2E_DIR/round2.yaml" ||
    e2e_fail "the comment lacks the column: $(cat "$E2E_DIR/round2.yaml")"
grep -qE '^# {42}\^+$' "$E2E_DIR/round2.yaml" ||
    e2e_fail "no caret under column 40: $(cat "$E2E_DIR/round2.yaml")"
e2e_keys y
e2e_wait_for "saved rate limiting rule 'Search API from YAML'"
e2e_wait_for "Search API from YAML"
rules=$(cli_rules)
grep -qF 'http.request.uri.path eq \"/search\" and ip.src eq 1.2.3.4' \
    <<<"$rules" || e2e_fail "the YAML edit is not on the server: $rules"

# ---- E refused by the server: the editor again, the text and why on top
e2e_keys E
e2e_wait_for "Apply 1 change to rate-limit-rules"
e2e_keys y
e2e_wait_for "Reopen the editor with your text? (y/n)"
e2e_wait_for "Business plan"
e2e_keys y
e2e_wait_for "edit: no change"
[ "$(cat "$E2E_DIR/editor.rounds")" = 4 ] ||
    e2e_fail "the editor ran $(cat "$E2E_DIR/editor.rounds") times, not 4"
grep -qF "#   Refused by the server: HTTP 400: ratelimit.period" \
    "$E2E_DIR/round4.yaml" ||
    e2e_fail "the server's reason is not on top: $(cat "$E2E_DIR/round4.yaml")"
grep -qE '^ +period: 3600$' "$E2E_DIR/round4.yaml" ||
    e2e_fail "the text was lost: $(cat "$E2E_DIR/round4.yaml")"
grep -qF '"description":	"Search API from YAML"' <<<"$(cli_rules)" ||
    grep -qF '"description": "Search API from YAML"' <<<"$(cli_rules)" ||
    e2e_fail "the refused edit changed the rule"

e2e_quit_and_check_sane : q Enter
