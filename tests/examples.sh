#!/bin/sh
# examples.sh CLUSTERC ROOT — every standard-library module and example checks cleanly, in
# every scenario; all are in canonical layout; docs/language.md's field tables match the
# schema the compiler uses.
set -u
clusterc=$1 root=$2
cd "$root" || exit 2
fail=0
for f in stdlib/*.cluster examples/*.cluster; do
	"$clusterc" check -q "$f" || { echo "FAIL: check $f"; fail=$((fail + 1)); }
	for s in $(sed -n 's/^scenario \([A-Za-z_0-9]*\).*/\1/p' "$f"); do
		"$clusterc" check -q --scenario "$s" "$f" || { echo "FAIL: check --scenario $s $f"; fail=$((fail + 1)); }
	done
done
"$clusterc" fmt --check stdlib/*.cluster examples/*.cluster || { echo "FAIL: not in canonical layout (run clusterc fmt)"; fail=$((fail + 1)); }

# The schema section of the language reference is generated: `clusterc schema`.
tmp=$(mktemp)
sed -n '/^<!-- schema:begin -->$/,/^<!-- schema:end -->$/p' docs/language.md | sed '1d;$d' >"$tmp"
if ! "$clusterc" schema | cmp -s - "$tmp"; then
	echo "FAIL: docs/language.md's schema section differs from 'clusterc schema'; regenerate it with scripts/update-docs.sh"
	"$clusterc" schema | diff "$tmp" - | head -20
	fail=$((fail + 1))
fi
rm -f "$tmp"
echo "examples: $fail failed"
[ $fail -eq 0 ]
