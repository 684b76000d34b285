#!/bin/sh
# tests/ir.sh CLUSTERC SOURCE_DIR — the IR golden of every example: `build --dump=validate
# --dump-max=8` (the whole IR after the last pass, each list cut after 8 entries) against
# tests/ir/NAME.ir, so that a change to the IR shows in review. UPDATE_GOLDEN=1 rewrites them.
set -u
clusterc=$1
cd "$2" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for spec in examples/*.cluster; do
	name=$(basename "$spec" .cluster)
	golden=tests/ir/$name.ir
	n=$((n + 1))
	if ! "$clusterc" build -q --dump=validate --dump-max=8 "$spec" -o "$tmp/out-$name" >"$tmp/$name.ir" 2>"$tmp/$name.err"; then
		echo "FAIL: $spec did not build"
		cat "$tmp/$name.err"
		fail=$((fail + 1))
		continue
	fi
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$tmp/$name.ir" "$golden"
	elif ! diff -u "$golden" "$tmp/$name.ir" >"$tmp/$name.diff"; then
		echo "FAIL: $spec: the IR differs from $golden"
		head -40 "$tmp/$name.diff"
		fail=$((fail + 1))
	fi
done
echo "ir: $n examples, $fail failed"
[ "$fail" -eq 0 ]
