# shellcheck shell=sh
# Sourced by the tests that drive npm packages (the official SDK
# cloudflare 7.3.0, graphql, @cdktf/hcl2json): where ./bootstrap check
# installed them, pinned, and whether they are there.
#
# sdk_dir: $EDGETUI_SDK_DIR (bootstrap exports it), else bootstrap's
# default, ~/.cache/edgetui-test: a directory whose node_modules holds them.
sdk_dir=${EDGETUI_SDK_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/edgetui-test}

# sdk_need PACKAGE...: node and each package, or the test ends: skipped
# (77) on a machine set up by hand, failed (1) where every test must run
# (E2E_REQUIRED, as CI sets it): a test that cannot run is no pass there.
sdk_need() {
	sdk_why=
	command -v node >/dev/null 2>&1 || sdk_why="node is not installed"
	for sdk_p in "$@"; do
		[ -n "$sdk_why" ] && break
		[ -f "$sdk_dir/node_modules/$sdk_p/package.json" ] ||
		    sdk_why="no $sdk_p in $sdk_dir/node_modules"
	done
	[ -z "$sdk_why" ] && return 0
	if [ -n "${E2E_REQUIRED:-}" ]; then
		echo "FAIL: $sdk_why (./bootstrap check installs it; or set" \
		    "EDGETUI_SDK_DIR)"
		exit 1
	fi
	echo "SKIP: $sdk_why (./bootstrap check installs it; or set" \
	    "EDGETUI_SDK_DIR)"
	exit 77
}
