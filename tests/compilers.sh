#!/bin/sh
# compilers.sh REFERENCE CLUSTERC ROOT — the same bytes whichever compiler built clusterc: every
# artifact (--emit all) of every example and of every spec the tests that read artifacts build
# (tests/artifacts, placement, optimize, cages, frr, infiniband, sched, storage, trunks, facts),
# the comparison of the flagship and its sweep, and the diagnostics (text and JSON) of every
# golden diagnostic input, from REFERENCE (the gcc build) and from CLUSTERC (the clang build),
# compared byte for byte. So the readers of those files (vtysh, slurmctld, OpenSM, chromium,
# dot and the checkers in Python) run once, on the gcc build's: the clang build's are the same
# bytes (docs/testing.md, "Three builds"). C leaves the order of evaluation of a call's
# arguments unspecified (STYLE.md, rule 16): where the code depends on it, this is where the
# two compilers part.
set -u
ref=$1 clusterc=$2 root=$3
cd "$root" || exit 2
[ -x "$ref" ] || { echo "FAIL: no reference build at $ref (make build first)"; exit 1; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=$((fail + 1)); }
n=0
for spec in examples/*.cluster tests/artifacts/*.cluster tests/placement/*.cluster tests/optimize/*.cluster \
	tests/cages/*.cluster tests/frr/*.cluster tests/infiniband/*.cluster tests/sched/*.cluster \
	tests/storage/*.cluster tests/trunks/*.cluster tests/facts/*.cluster; do
	name=$(basename "$spec" .cluster)
	"$ref" build -q --emit all "$spec" -o "$tmp/ref" 2>"$tmp/ref.err"
	a=$?
	"$clusterc" build -q --emit all "$spec" -o "$tmp/new" 2>"$tmp/new.err"
	b=$?
	[ $a -eq $b ] || err "$spec: exit $a with the reference, $b with this build"
	cmp -s "$tmp/ref.err" "$tmp/new.err" || err "$spec: the diagnostics differ"
	if [ -d "$tmp/ref" ] || [ -d "$tmp/new" ]; then
		diff -r "$tmp/ref" "$tmp/new" >"$tmp/diff" || { err "$spec: the artifacts differ"; head -5 "$tmp/diff"; }
	fi
	rm -rf "$tmp/ref" "$tmp/new"
	n=$((n + 1))
done
for args in "examples/wanka.cluster" "examples/wanka.cluster --sweep examples/wanka-sweep.yaml" \
	"examples/wanka.cluster --sweep tests/compare_html/sweep120.yaml"; do
	# shellcheck disable=SC2086
	"$ref" compare -q $args -o "$tmp/ref" 2>"$tmp/ref.err"
	# shellcheck disable=SC2086
	"$clusterc" compare -q $args -o "$tmp/new" 2>"$tmp/new.err"
	diff -r "$tmp/ref" "$tmp/new" >/dev/null && cmp -s "$tmp/ref.err" "$tmp/new.err" ||
		err "compare $args differs"
	rm -rf "$tmp/ref" "$tmp/new"
done
d=0
for spec in tests/diag/*.cluster tests/build-errors/*.cluster; do
	cmd=check
	case $spec in tests/build-errors/*) cmd=build ;; esac
	for form in text json; do
		"$ref" $cmd --diagnostics=$form "$spec" -o "$tmp/ref" >/dev/null 2>"$tmp/ref.err"
		"$clusterc" $cmd --diagnostics=$form "$spec" -o "$tmp/new" >/dev/null 2>"$tmp/new.err"
		sed -i "s|$tmp/ref|DIR|g" "$tmp/ref.err"
		sed -i "s|$tmp/new|DIR|g" "$tmp/new.err"
		cmp -s "$tmp/ref.err" "$tmp/new.err" || err "$spec: $form diagnostics differ"
		rm -rf "$tmp/ref" "$tmp/new"
	done
	d=$((d + 1))
done
[ $fail -eq 0 ] && echo "compilers: $n builds, 3 comparisons and $d diagnostics the same with both"
exit $((fail > 0))
