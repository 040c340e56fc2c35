#!/bin/bash
# The rules tester and :simulate against edgemu's demo rules. :test names
# the rules that count a request and the one that acts first (POST /login:
# the login rule) and none for another (GET /login); Enter on a rule explains it, the false
# comparison with what the request gave; a bad input names its field; the
# form keeps its values. :simulate (path completed with Tab) of a Logpush
# log written here, one client over the login rule's limit, shows the
# numbers worked out below, and `edgetui rules simulate -o json` agrees.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init rules_tester
e2e_edgemu_start

# ---- the log and what the login rule (5 per 60 s, 600 s timeout, per
# colo and address) makes of it --------------------------------------------
log=$E2E_DIR/trafficlog.json
t0=1700000000
over=8		# POSTs to /login from one client, one a second
other=2		# from another client: under the limit
line() {	# IP METHOD PATH TIME
	printf '{"ClientIP":"%s","ClientRequestHost":"example.com",' "$1"
	printf '"ClientRequestMethod":"%s","ClientRequestURI":"%s",' "$2" "$3"
	printf '"ClientRequestScheme":"https","EdgeColoCode":"SJC",'
	printf '"EdgeResponseStatus":200,"EdgeStartTimestamp":%s}\n' "$4"
}
: >"$log"
for ((i = 0; i < over; i++)); do
	line 192.0.2.7 POST /login $((t0 + i)) >>"$log"
done
for ((i = 0; i < other; i++)); do
	line 198.51.100.2 POST /login $((t0 + i)) >>"$log"
done
echo 'this is not a request' >>"$log"
lines=$((over + other + 1))
requests=$((over + other))
# The 6th request has 5 before it within 60 s: it starts the timeout, and
# every later one of that client falls in it.
mitigated=$((over - 5))
first=$(date -u -d "@$((t0 + 5))" +%Y-%m-%dT%H:%M:%SZ)

e2e_console_start
e2e_wait_match '^ operations  300$'

# ---- :test ----------------------------------------------------------------
e2e_keys :
e2e_type test
e2e_keys Enter
e2e_wait_for "rules tester: a request on the zone's rate limiting rules"
e2e_wait_for "Enter tests the request"
# Method (GET at first), then the URL, where the form starts.
e2e_keys Up C-u
e2e_type POST
e2e_keys Down
e2e_type https://example.com/login
e2e_keys Enter
e2e_wait_for 'POST https://example.com/login: counted by #1; #1 (block) acts first'
e2e_wait_match '^ +1 +ACTS FIRST +block +Login form'
e2e_wait_match '^ +2 +no match +managed_challenge +Public API'
e2e_wait_match '^ +5 +disabled +log +Version 2 API'

# The same path with GET: no rule matches.
e2e_keys Tab C-u
e2e_type GET
e2e_keys Enter
e2e_wait_for 'GET https://example.com/login: no rule matches'
e2e_assert_not_contains 'ACTS FIRST'
# The login rule explained: the path is true, the method is what failed.
e2e_wait_match '^ +1 +no match +block +Login form'
e2e_keys Enter
e2e_wait_for 'rule #1 Login form: block credential stuffing: no match'
e2e_wait_match '^ false +http\.request\.uri\.path eq "/login" and http\.request\.method eq "POST"$'
e2e_wait_match '^ +true +http\.request\.uri\.path eq "/login" +\(left: "/login"\)$'
e2e_wait_match '^ +false +http\.request\.method eq "POST" +\(left: "GET"\)$'
e2e_keys q
e2e_wait_gone 'rule #1 Login form'

# A bad input names its field and tests nothing; then a header, a country.
e2e_keys Tab Down Down Down Down
e2e_type GBR
e2e_keys Enter
e2e_wait_for "Country: 'GBR' is not a two-letter country code"
e2e_keys C-u
e2e_type gb
e2e_keys Up
e2e_type 'X-Test: 1'
e2e_keys Enter
e2e_wait_for 'GET https://example.com/login: no rule matches'
e2e_keys Escape
e2e_wait_gone 'rules tester'

# A new tester, by C-t in the rules list, starts with the last one's values.
e2e_command rules '^> 1   Login form'
e2e_keys C-t
e2e_wait_for 'rules tester'
e2e_wait_match '^ URL +https://example\.com/login'
e2e_wait_match '^ Header +X-Test: 1'
e2e_wait_match '^ Country +gb'
e2e_keys Escape
e2e_wait_gone 'rules tester'

# ---- :simulate --------------------------------------------------------------
e2e_keys :
e2e_type "simulate $E2E_DIR/traf"
e2e_keys Tab
e2e_wait_for 'trafficlog.json'
e2e_keys Enter
e2e_wait_for "$lines lines (logpush), 1 bad, $requests requests; $mitigated mitigated by at least one rule"
e2e_wait_for "bad line $lines: "
e2e_wait_match "^ +1 +Login form: block cre[a-z]*… +$requests +$requests +2 +1 +$mitigated  $first\$"
e2e_wait_match '^ +2 +Public API: throttle [a-z]*… +0 +0 +0 +0 +0  -$'
e2e_wait_match '^ +5 +Version 2 API traffic[ (a-z]*… +0 +0 +0 +0 +0  - \(disabled\)$'
e2e_keys Enter
e2e_wait_for 'rule #1 Login form: block credential stuffing: top clients'
e2e_wait_match "^ ?192\.0\.2\.7 \(SJC\) +$over +$mitigated\$"
e2e_wait_match "^ ?198\.51\.100\.2 \(SJC\) +$other +0\$"
e2e_keys q
e2e_wait_gone 'credential stuffing: top clients'
e2e_keys q
e2e_wait_gone 'lines (logpush)'

# Without a file it is asked for, the last one offered; a file that is
# not there is said, and nothing is run.
e2e_keys :
e2e_type simulate
e2e_keys Enter
e2e_wait_for 'simulate the rules on which access log?'
e2e_wait_for 'trafficlog.json'
e2e_type "$E2E_DIR/nothing.json"
e2e_keys Enter
e2e_wait_for 'nothing.json: No such file or directory; nothing was run'

# A run under way: its progress (lines: a pipe has no size), then Esc
# cancels it. The log is a pipe that a writer keeps open after 100000
# lines (progress comes every 65536 lines), so the run is still reading
# when Esc comes.
mkfifo "$E2E_DIR/pipe.json" "$E2E_DIR/release"
{
	awk -v n=100000 'BEGIN { for (i = 0; i < n; i++) printf "{\"ClientIP\":" \
	    "\"192.0.2.%d\",\"ClientRequestHost\":\"example.com\"," \
	    "\"ClientRequestMethod\":\"GET\",\"ClientRequestURI\":\"/a\"," \
	    "\"EdgeStartTimestamp\":%d}\n", i % 200, 1700000000 + i }'
	# Opened both ways, so opening does not wait; bounded all the same.
	exec 4<>"$E2E_DIR/release"
	read -r -t 60 _ <&4 || true
} >"$E2E_DIR/pipe.json" &
writer=$!
e2e_command "simulate $E2E_DIR/pipe.json" '^  [0-9]+ lines read$'
e2e_wait_for 'Esc or q cancels the run.'
e2e_keys Escape
e2e_wait_for 'pipe.json: cancelled; nothing was kept'
e2e_assert_not_contains 'lines read'
# The console answers meanwhile; then the writer lets the run end.
e2e_keys :
e2e_type test
e2e_keys Enter
e2e_wait_for 'rules tester'
e2e_keys Escape
e2e_wait_gone 'rules tester'
exec 5<>"$E2E_DIR/release"
echo >&5
exec 5>&-
wait "$writer" || true

e2e_quit_and_check_sane : q Enter

# ---- the command line agrees --------------------------------------------------
json=$("$EDGETUI" rules simulate --log "$log" -o json | tr -d ' \t\n')
want="\"lines\":$lines,\"bad_lines\":1,\"requests_mitigated_by_any\":$mitigated"
[[ $json == *"$want"* ]] || e2e_fail "rules simulate: no $want in $json"
want="\"matched\":$requests,\"counted\":$requests,\"unknown\":0,\"clients\":2,"
want+="\"clients_mitigated\":1,\"requests_mitigated\":$mitigated,"
want+="\"first_mitigation\":\"$first\""
[[ $json == *"$want"* ]] || e2e_fail "rules simulate: no $want in $json"
