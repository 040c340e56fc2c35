#!/bin/bash
# Marks in every list act on the marked records, or a question says they
# do not: t sets validation of two marked schemas all one way, y copies
# the marked ids, D asks for downloads of two marked videos, and K with a
# rule marked asks before moving the one under the cursor.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init marks
e2e_edgemu_start
SV=/zones/$CLOUDFLARE_ZONE_ID/schema_validation
STREAM=/accounts/$CLOUDFLARE_ACCOUNT_ID/stream

# How many schemas the API has with validation on.
sv_on() {
	e2e_api GET "$SV/schemas?per_page=50&omit_source=true" |
	    grep -oE '"validation_enabled": *true' | wc -l
}

e2e_console_start
e2e_wait_match '^ operations  300$'

# ---- t on two marked schemas, one on and one off: both on, one PATCH
# for the one that was off.
[ "$(sv_on)" -eq 1 ] || e2e_fail "the demo has $(sv_on) schemas validating"
e2e_command vschemas '^ validation-schemas  2$'
e2e_wait_match '^[ >] Identity service \(YAML\) +openapi_v3 +no '
e2e_keys C-a
e2e_wait_match '^ validation-schemas  2  2 marked$'
e2e_keys t
e2e_wait_for "Turn validation on for 2 schemas (the marked ones)? 1 on, 1 off now."
e2e_keys y
e2e_wait_for "validation on for 1 schema"
e2e_wait_match '^[ >] Identity service \(YAML\) +openapi_v3 +yes '
e2e_wait_match '^ validation-schemas  2$'
[ "$(sv_on)" -eq 2 ] || e2e_fail "the API has $(sv_on) schemas validating"

# ---- y copies the marked ids, one a line.
e2e_command dops '^ discovered-operations  40$'
e2e_keys g Down Space Space
e2e_wait_match '^ discovered-operations  40  2 marked$'
e2e_keys y
e2e_wait_for "copied the 2 marked ids to the clipboard"
[ "$(e2e_clipboard | grep -cE '^[-0-9a-f]{36}$')" -eq 2 ] ||
    e2e_fail "the clipboard holds: $(e2e_clipboard)"
e2e_keys C-u
e2e_wait_match '^ discovered-operations  40$'

# ---- D on two marked videos: a download of each.
e2e_command videos '^ videos  '
e2e_wait_match "^  Classroom: intro to SQL\.mp4 +ready "
e2e_keys g
for _ in $(seq 11); do e2e_keys Down; done
e2e_wait_match "^> Annual report video\.mp4 +ready "
e2e_keys Space Space
e2e_wait_match '^ videos  [0-9]+  2 marked'
e2e_keys D
e2e_wait_for "which download of the 2 marked videos"
e2e_keys Enter
e2e_wait_for "MP4 downloads of 2 videos requested (T shows transfers)"
for name in "Annual%20report%20video" "Classroom%3A%20intro%20to%20SQL"; do
	uid=$(e2e_api GET "$STREAM?search=$name" |
	    grep -oE '"uid": *"[0-9a-f]{32}"' | head -1 | grep -oE '[0-9a-f]{32}')
	[ -n "$uid" ] || e2e_fail "the API does not find $name"
	e2e_api GET "$STREAM/$uid/downloads" | grep -q '"default"' ||
	    e2e_fail "no download of $name"
done

# ---- K with a rule marked: a question, n sends nothing.
e2e_command rules '^ rate-limit-rules  6$'
e2e_keys Space
e2e_wait_match '^ rate-limit-rules  6  1 marked$'
e2e_keys K
e2e_wait_for "Move rate limiting rule 'Public API: throttle bursts'"
e2e_wait_for "Only the rule under the cursor moves: the 1"
e2e_wait_for "marked one stays where it is. (y/n)"
e2e_keys n
e2e_wait_gone "Move rate limiting rule"
e2e_wait_match '^> 2   Public API'
e2e_assert_not_contains "moved rate limiting rule"

e2e_quit_and_check_sane : q! Enter
