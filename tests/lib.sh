# tests/lib.sh — the preamble of the shell tests run as `tests/NAME.sh CLUSTERC SOURCE_DIR`:
# sourced after `set -u`, it sets $clusterc and $root, enters the source tree, makes $tmp
# (removed on exit), and counts failures in $fail through err(); json_number and decisions read
# report.json for the optimizer's tests.
clusterc=$1 root=$2
cd "$root" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=$((fail + 1)); }

# A number out of report.json: the first "key": value.
json_number() { sed -n "s/.*\"$2\": \\(-\\{0,1\\}[0-9.e+-]*\\).*/\\1/p" "$1" | head -1; }
# The decisions as "declaration.field=chosen" lines.
decisions() {
	awk '/"decisions": \[/ { on = 1 } on && /"declaration"/ { split($0, a, "\""); d = a[4] }
	     on && /"field"/ { split($0, a, "\""); f = a[4] }
	     on && /"chosen"/ { split($0, a, "\""); print d "." f "=" a[4] }
	     on && /^  \]/ { on = 0 }' "$1"
}

# need_browser: $browser, headless Chromium for the HTML tests; a FAIL without it (a test
# dependency: scripts/install-deps.sh installs it).
need_browser() {
	browser=$(command -v chromium || command -v chromium-browser)
	if [ -z "$browser" ]; then
		echo "FAIL: chromium is not installed (apt-get install chromium; make test installs it)"
		exit 1
	fi
}
