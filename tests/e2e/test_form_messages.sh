#!/bin/bash
# Long messages over forms and the migration preview at 80x24: a form's
# own error (here what its fields lack) wraps over three rows above its
# keys, ending with the key (!) that shows it whole, and that view has it;
# a long status message keeps its rows under a form (the rate-limits
# form and the rule form) rather than being cut to its last row, the
# form's fields and error above it; the rule form's refusal is kept for
# !; the preview of M shows a message (a search that found nothing) where
# it drew its keys.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=80
E2E_ROWS=24
e2e_init form_messages
e2e_edgemu_start --plan business

# nospace TEXT: TEXT without blanks (a wrap drops the space it breaks at).
nospace() {
	printf '%s' "$1" | tr -d ' \n'
}

# Rows FROM to TO (1-based, from the top) joined, without blanks.
rows_of() {
	e2e_screen | sed -n "$1,$2p" | tr -d ' \n'
}

e2e_console_start
e2e_wait_match '^ operations  300$'

# ---- the rate-limits form: an error of three rows and more
e2e_command rate-limits '^ rate-limits \(legacy, deprecated\)  [0-9]+$'
e2e_keys n
e2e_wait_for 'new rate-limits'
e2e_keys Tab Tab Tab Tab
e2e_wait_for 'Pattern such as example.com/path'
e2e_type 'example.com/forms*'
e2e_keys Tab Tab
e2e_wait_for 'Response headers that must match'
op='neither-equal-nor-unequal-but-one-nobody-has-heard-of'
e2e_type "[{\"name\":\"A\",\"op\":\"$op-a\",\"value\":\"1\"},{\"name\":\"B\",\"op\":\"$op-b\",\"value\":\"2\"},{\"name\":\"C\",\"op\":\"$op-c\",\"value\":\"3\"}]"
e2e_keys Tab Tab
e2e_wait_for 'Requests in a period that trigger'
e2e_type 10
e2e_keys Tab
e2e_type 60
e2e_keys Tab
e2e_wait_for 'simulate, ban, challenge'
e2e_keys s
e2e_wait_match 'action\.mode +\* < simulate >'
e2e_keys Tab
e2e_type 60
e2e_keys Enter
e2e_wait_for '1 field needs attention: match.headers'
e2e_wait_for '… (!: all of it)'
# Rows 21-23: the error, its start and the key; the form's keys below.
got=$(rows_of 21 23)
case $got in
"1fieldneedsattention:match.headers[0].op:'$op-a'"*"…(!:allofit)") ;;
*) e2e_fail "the form's error is not wrapped over rows 21-23: '$got'" ;;
esac
# The field it is about still shows.
e2e_wait_match '^ match\.headers +.*heard-of-c","value":"3"\}\]'
# ! on a choice (text fields take it as typed): the error whole.
e2e_keys BTab BTab BTab BTab BTab
e2e_wait_match '^ disabled +< \(unset\) >'
e2e_type '!'
e2e_wait_for 'messages (newest last)'
got=$(e2e_screen | tr -d ' \n')
case $got in
*"match.headers[2].op:'$op-c'isnotoneofeq,ne"*) ;;
*) e2e_fail "the messages view lacks the form's whole error" ;;
esac

e2e_keys q
e2e_wait_gone 'messages (newest last)'
e2e_keys Escape
e2e_wait_for 'Discard the changes in this form? (y/n)'
e2e_keys y
e2e_wait_gone 'new rate-limits'

# ---- a refusal: under the form, the status message keeps its two rows
# at 40 columns (the rule was deleted behind the form's back)
id=$(e2e_api GET "/zones/$CLOUDFLARE_ZONE_ID/rate_limits" |
    grep -oE '"id":"[0-9a-f]{32}","disabled":(true|false),"description":"Protect the login form' |
    grep -oE '[0-9a-f]{32}')
[ -n "$id" ] || e2e_fail "no login rule"
e2e_keys g
e2e_wait_match '^> Protect the login form'
e2e_keys e
e2e_wait_for "edit rate-limits $id"
e2e_type ' (edited)'
e2e_api DELETE "/zones/$CLOUDFLARE_ZONE_ID/rate_limits/$id" >/dev/null
e2e_keys Enter
e2e_wait_for 'refused by the server: the form shows why'
e2e_wait_for "rate limit $id was not found"
e2e_resize 40 24
msg='refused by the server: the form shows why'
e2e_wait_match '^why *$'
got=$(rows_of 23 24)
[ "$got" = "$(nospace "$msg")" ] ||
    e2e_fail "the status message is not whole under the form: '$got'"
got=$(rows_of 18 22 | tr -d '\n')
case $got in
*"ratelimit$id"*"wasnotfound"*) ;;
*) e2e_fail "the form's error is not above the message: '$got'" ;;
esac
e2e_resize 80 24
e2e_keys Escape
e2e_wait_for 'Discard the changes in this form? (y/n)'
e2e_keys y
e2e_wait_gone "edit rate-limits $id"

# ---- the rule form at 40 columns: the refusal over three rows, kept
# for !, and the status message under it whole
e2e_command rules '^ rate-limit-rules  [0-9]+$'
e2e_keys n
e2e_wait_for 'new rate limiting rule (no plan'
e2e_type 'Too long a period'
e2e_keys Enter Down Down Down
e2e_wait_for 'Seconds over which requests are counted'
e2e_keys Enter
e2e_wait_for '3600 s (1 h)'
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
e2e_resize 40 24
e2e_wait_match 'no plan: in th *$'
e2e_keys V
e2e_wait_match '^was changed *$'
msg='not valid: the form shows why; nothing was changed'
got=$(rows_of 23 24)
[ "$got" = "$(nospace "$msg")" ] ||
    e2e_fail "the status message is not whole under the rule form: '$got'"
got=$(rows_of 19 21)
case $got in
"theserverrefusesthisrule:"*"…(!:allofit)") ;;
*) e2e_fail "the refusal is not over rows 19-21: '$got'" ;;
esac
e2e_resize 80 24
e2e_wait_for 'L simulate  ? keys  Esc cancel'
e2e_type '!'
e2e_wait_for 'messages (newest last)'
got=$(e2e_screen | tr -d ' \n')
case $got in
*"ratelimit.period:3600isovertheBusinessplan'slongestperiod(600s)"*) ;;
*) e2e_fail "the messages view lacks the rule form's refusal" ;;
esac
e2e_keys q
e2e_wait_gone 'messages (newest last)'
e2e_keys Escape
e2e_wait_for 'Discard the changes in this form? (y/n)'
e2e_keys y
e2e_wait_gone 'new rate limiting rule'

# ---- the migration preview shows what a key did
e2e_command rate-limits '^ rate-limits \(legacy, deprecated\)  [0-9]+$'
e2e_keys M
e2e_wait_for 'migrate 1 legacy rate limit'
e2e_wait_for 'y add them  d add them'
e2e_keys /
e2e_type 'no-such-words-in-any-of-these-rules'
e2e_keys Enter
e2e_wait_for "no match for 'no-such-words-in-any-of-these-rules'"
e2e_assert_not_contains 'y add them  d add them'
e2e_keys q
e2e_wait_for 'migration: nothing was sent'
e2e_quit_and_check_sane : q Enter
