#!/bin/bash
# Read-only: with --readonly, then with a profile that says readonly: true,
# the header says READ-ONLY and every key that would change something is
# refused on the status line (rate-limits n e E d t; operations n d b;
# discovered-operations R i s) without a single mutating request reaching
# edgemu, as its request log shows.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

e2e_init readonly
e2e_edgemu_start

# ro_refused KEY WHAT WHY: KEY is refused with its message. The refresh
# before it changes the status line, so a refusal left there by the key
# before cannot stand in for this one.
ro_refused() {
	e2e_keys r
	e2e_wait_for "refreshing "
	e2e_keys "$1"
	e2e_wait_for "read-only: $2 refused ($3); nothing was sent"
}

# ro_open KIND TITLE: the list of KIND through the : command line.
ro_open() {
	e2e_keys :
	e2e_type "$1"
	e2e_keys Enter
	e2e_wait_match "$2"
}

# The requests edgemu served that change something (its -v log).
ro_mutations() {
	grep -E ' (POST|PUT|PATCH|DELETE) /' "$E2E_DIR/edgemu.log" || true
}

# ---- --readonly
e2e_console_start --readonly
e2e_wait_match "^ operations  300$"
e2e_wait_match '^ edgetui  profile default .* READ-ONLY +budget [0-9]+$'

why=--readonly
ro_refused n new "$why"
ro_refused d delete "$why"
ro_refused b "bulk create" "$why"
# Marked rows are refused as well.
e2e_keys Space Space
e2e_wait_match '^ operations  300  2 marked$'
ro_refused d delete "$why"
e2e_assert_not_contains "Delete 2 operations"

ro_open rate-limits '^ rate-limits \(legacy, deprecated\)  8$'
ro_refused n new "$why"
ro_refused e edit "$why"
ro_refused E edit "$why"
ro_refused d delete "$why"
ro_refused t toggle "$why"
e2e_wait_match ' no +www\.example\.com/login\*( |$)'

ro_open discovered-operations '^ discovered-operations  [0-9]+$'
ro_refused R review "$why"
ro_refused i ignored "$why"
ro_refused s save "$why"
e2e_quit_and_check_sane : q Enter

# ---- a profile with readonly: true (the file must be mode 600)
mkdir -p "$XDG_CONFIG_HOME/edgetui"
cat >"$XDG_CONFIG_HOME/edgetui/config.yaml" <<'YAML'
default_profile: careful
profiles:
  careful:
    readonly: true
YAML
chmod 600 "$XDG_CONFIG_HOME/edgetui/config.yaml"

e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_wait_match '^ edgetui  profile careful .* READ-ONLY +budget [0-9]+$'
why="read-only profile"
ro_refused n new "$why"
ro_refused d delete "$why"
ro_open rl '^ rate-limits \(legacy, deprecated\)  8$'
ro_refused t toggle "$why"
ro_refused E edit "$why"

e2e_quit_and_check_sane : q! Enter

# ---- --readonly holds for every profile of the process; a read-only
# profile stays read-only after a switch to it
cat >"$XDG_CONFIG_HOME/edgetui/config.yaml" <<'YAML'
profiles:
  default: {}
  careful:
    readonly: true
YAML
e2e_console_start --readonly
e2e_wait_match '^ edgetui  profile default .* READ-ONLY +budget [0-9]+$'
for prof in careful default; do
	ro_open "profile $prof" "^ operations  300\$"
	e2e_wait_match "^ edgetui  profile $prof .* READ-ONLY +budget [0-9]+\$"
	ro_refused d delete --readonly
	ro_refused n new --readonly
done
e2e_quit_and_check_sane : q! Enter
e2e_console_start
e2e_wait_match "^ operations  300$"
e2e_assert_not_contains READ-ONLY
ro_open "profile careful" "^ edgetui  profile careful .* READ-ONLY"
ro_refused d delete "read-only profile"

[ -z "$(ro_mutations)" ] ||
    e2e_fail "read-only sessions sent: $(ro_mutations)"
grep -q ' GET /zones/.*/rate_limits' "$E2E_DIR/edgemu.log" ||
    e2e_fail "edgemu's log shows no request at all: is -v on?"
e2e_quit_and_check_sane : q Enter
