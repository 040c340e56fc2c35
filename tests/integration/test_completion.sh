#!/bin/bash
# The scripts of `edgetui completion bash|zsh`, sourced in a shell that is not
# interactive, complete commands, kinds, two-word commands, options and the
# profiles of a scratch config file (which the script asks edgetui for).
set -eu
tui=${EDGETUI:-ui/edgetui}
[ -x "$tui" ] || { echo "no edgetui at $tui"; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/completion.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
export XDG_CONFIG_HOME="$tmp/config" HOME="$tmp"
mkdir -p "$XDG_CONFIG_HOME/edgetui/themes"
cat >"$XDG_CONFIG_HOME/edgetui/config.yaml" <<'EOT'
default_profile: staging
profiles:
  staging:
    base_url: http://127.0.0.1:1
  prod-eu:
    readonly: true
EOT
cat >"$tmp/other.yaml" <<'EOT'
profiles:
  elsewhere: {}
EOT
: >"$XDG_CONFIG_HOME/edgetui/themes/my-colours.yaml"

"$tui" completion bash >"$tmp/edgetui.bash"
"$tui" completion zsh >"$tmp/_edgetui"

# check_words WORDS...: the bash completion of the last word, spaced.
check_words() {
	bash -c '
		. "$1"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_edgetui
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "
	' bash "$tmp/edgetui.bash" "$tui" "$@"
}

# check WANT WORDS...: the bash completion of the last word is WANT (sorted,
# spaced).
check() {
	want=$1
	shift
	got=$(check_words "$@")
	if [ "${got% }" = "$want" ]; then
		echo "ok: bash: edgetui ${*}<Tab> -> $want"
	else
		echo "FAIL: bash: edgetui ${*}<Tab>: want '$want', got '${got% }'"
		fails=$((fails + 1))
	fi
}

check "get" ge
check "rate-limit-rules rate-limits" get rate-
check "prod-eu staging" -p ""
check "prod-eu staging" --readonly --profile ""
check "elsewhere" --config "$tmp/other.yaml" -p ""
check "check eval fmt" expr ""
check "simulate test" rules ""
check "init" config ""
check "rate-limits" migrate ""
check "bash zsh" completion ""
check "json table yaml" get -o ""
check "audio default" download x --type ""
check "--limit --live-input" get rate-limits --li
check "--counting" expr check --cou
check "--explain" expr eval --ex
check "default high-contrast light mono my-colours solarized-dark" --theme ""
# No ids: nothing after a kind's first argument.
check "" get rate-limits ""
# The hidden command stays hidden.
check "" __
check "caption clear clip completion config create" c
# Aliases when no kind starts with the word.
check "rl rlr rlv" get rl
# A command offers only the kinds it takes.
check "live-outputs rate-limit-rules" enable ""
check "live-outputs" disable l
check "rate-limit-rules" disable rate-
check "rlr" enable rl
check "simulcast" disable sim
check "operation-validation" set ""
check "operation-validation" clear op
check "rate-limit-rules rate-limits" delete rate-
check "rule-versions rulesets" get rule
check "rules" create rule
check "" edit rule-
check "captions" delete cap
check "" update cap

# The kinds offered after each command are exactly those it does not
# refuse when run (cli_run's check comes before the config is read).
kinds=$("$tui" kinds | awk 'NR > 1 { print $1 }')
[ -n "$kinds" ] || { echo "FAIL: no kinds"; fails=$((fails + 1)); }
for cmd in get create update edit delete set clear enable disable; do
	offered=" $(check_words "$cmd" "") "
	for k in $kinds; do
		err=$("$tui" "$cmd" "$k" </dev/null 2>&1 >/dev/null) || true
		case $err in
		"edgetui: $cmd: $k "*) refused=1 ;;
		*) refused=0 ;;
		esac
		case $offered in
		*" $k "*) taken=1 ;;
		*) taken=0 ;;
		esac
		if [ "$refused" = "$taken" ]; then
			echo "FAIL: edgetui $cmd $k: offered $taken, refused" \
			    "$refused: ${err%%$'\n'*}"
			fails=$((fails + 1))
		fi
	done
done
echo "ok: every command's kinds are those it takes"

# Options every command takes are --help's Options; a command's own option
# missing from cli_complete_groups (ui/cli/complete.c) would show up here.
opts=$(sed -n "s/^_edgetui_options='\(.*\)'$/\1/p" "$tmp/edgetui.bash")
[ -n "$opts" ] || { echo "FAIL: no _edgetui_options"; fails=$((fails + 1)); }
"$tui" --help | sed -n '/^Options:/,$p' >"$tmp/help-options"
for o in $opts; do
	grep -qE -- "(^| )$o([ ,]|$)" "$tmp/help-options" || {
		echo "FAIL: $o is offered to every command but is not in" \
		    "--help's Options: add it to cli_complete_groups"
		fails=$((fails + 1))
	}
done

# zsh: the same logic through compadd, when zsh is here.
if command -v zsh >/dev/null 2>&1; then
	got=$(zsh -f -c '
		compdef() { :; }
		compadd() { shift; local w; for w; do
			[[ $w == ${words[CURRENT]}* ]] && print -r -- $w
			done; return 0; }
		. "$1"
		words=("$2" get rate-)
		CURRENT=3
		_edgetui | sort | tr "\n" " "
		words=("$2" -p "")
		CURRENT=3
		_edgetui | sort | tr "\n" " "
		words=("$2" ge)
		CURRENT=2
		_edgetui
	' zsh "$tmp/_edgetui" "$tui")
	want="rate-limit-rules rate-limits prod-eu staging get"
	if [ "$(echo $got)" = "$want" ]; then
		echo "ok: zsh: $want"
	else
		echo "FAIL: zsh: want '$want', got '$(echo $got)'"
		fails=$((fails + 1))
	fi
	head -n 1 "$tmp/_edgetui" | grep -qx '#compdef edgetui' ||
	    { echo "FAIL: zsh: no #compdef line"; fails=$((fails + 1)); }
else
	echo "zsh is not installed: the zsh script's test is skipped"
fi
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
exit 0
