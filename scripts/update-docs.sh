#!/bin/sh
# update-docs.sh [CLUSTERC] — regenerates the field tables of docs/language.md (between the
# schema:begin and schema:end markers) from `clusterc schema`.
set -eu
cd "$(dirname "$0")/.."
clusterc=${1:-build/clusterc}
tmp=$(mktemp)
"$clusterc" schema >"$tmp"
awk -v gen="$tmp" '
	/^<!-- schema:begin -->$/ { print; while ((getline line < gen) > 0) print line; skip = 1; next }
	/^<!-- schema:end -->$/ { skip = 0 }
	!skip { print }
' docs/language.md >docs/language.md.new
mv docs/language.md.new docs/language.md
rm -f "$tmp"
