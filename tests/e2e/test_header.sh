#!/bin/bash
# The header: the server's host when the environment sends the console
# elsewhere than its profile says (and not when they agree), never a
# user or password of the URL; at 80 columns READ-ONLY and the budget both
# whole, in a list and in the transfers tray, the rest saying less.
set -eu
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

E2E_COLS=120 E2E_ROWS=24
e2e_init header
e2e_edgemu_start
host=${CLOUDFLARE_BASE_URL#*://}
host=${host%%/*}
mkdir -p "$XDG_CONFIG_HOME/edgetui"
cat >"$XDG_CONFIG_HOME/edgetui/config.yaml" <<YAML
default_profile: local
profiles:
  local:
    base_url: http://127.0.0.1:9/client/v4
  same:
    base_url: $CLOUDFLARE_BASE_URL
YAML
chmod 600 "$XDG_CONFIG_HOME/edgetui/config.yaml"

# ---- CLOUDFLARE_BASE_URL over the profile's: the header names the server.
e2e_console_start
e2e_wait_match '^ operations  300$'
e2e_wait_match "^ edgetui  profile local  server $host  account e1d9a0c6…  zone 7b4c2e9f… +budget [0-9]+\$"
e2e_quit_and_check_sane : q Enter

# ---- A profile that says the same: no server.
e2e_console_start -p same
e2e_wait_match '^ operations  300$'
e2e_wait_match '^ edgetui  profile same  account e1d9a0c6…  zone 7b4c2e9f… +budget [0-9]+$'
e2e_quit_and_check_sane : q Enter

# ---- A user and password in the URL never show.
url=$CLOUDFLARE_BASE_URL
export CLOUDFLARE_BASE_URL=${url/:\/\//://someone:hunter2@}
e2e_console_start
export CLOUDFLARE_BASE_URL=$url
e2e_wait_match "^ edgetui  profile local  server $host  "
e2e_assert_not_contains "hunter2"
e2e_assert_not_contains "someone"
e2e_quit_and_check_sane : q! Enter

# ---- 80 columns, read-only: READ-ONLY and the budget, in the tray too.
E2E_COLS=80
e2e_console_start --readonly -p same
e2e_wait_match '^ operations  300$'
e2e_wait_match '^ .*profile same .* READ-ONLY +budget [0-9]+ *$'
e2e_keys T
e2e_wait_match '^ transfers'
e2e_wait_match '^ .*READ-ONLY +budget [0-9]+ *$'
e2e_keys q
e2e_wait_match '^ operations  300$'
e2e_quit_and_check_sane : q Enter
