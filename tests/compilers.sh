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
# The diagnostics, beside the builds below (a subshell of its own: its failures in a file).
(
d=0
for spec in tests/diag/*.cluster tests/build-errors/*.cluster; do
	cmd=check
	case $spec in tests/build-errors/*) cmd=build ;; esac
	for form in text json; do
		# One after the other into the same DIR, so that the diagnostics name the same path.
		"$ref" $cmd --diagnostics=$form "$spec" -o "$tmp/d" >/dev/null 2>"$tmp/dref.err"
		[ -e "$tmp/d" ] && rm -rf "$tmp/d"
		"$clusterc" $cmd --diagnostics=$form "$spec" -o "$tmp/d" >/dev/null 2>"$tmp/dnew.err"
		[ -e "$tmp/d" ] && rm -rf "$tmp/d"
		cmp -s "$tmp/dref.err" "$tmp/dnew.err" || echo "FAIL: $spec: $form diagnostics differ"
	done
	d=$((d + 1))
done
echo "$d" >"$tmp/diag.count"
) >"$tmp/diag.log" 2>&1 &
diags=$!
n=0
for spec in examples/*.cluster tests/artifacts/*.cluster tests/placement/*.cluster tests/optimize/*.cluster \
	tests/cages/*.cluster tests/frr/*.cluster tests/infiniband/*.cluster tests/sched/*.cluster \
	tests/storage/*.cluster tests/trunks/*.cluster tests/facts/*.cluster; do
	# The two builds at once: each is a process of one main thread, and ctest gives this test
	# one of its slots.
	"$ref" build -q --emit all "$spec" -o "$tmp/ref" 2>"$tmp/ref.err" &
	pid=$!
	"$clusterc" build -q --emit all "$spec" -o "$tmp/new" 2>"$tmp/new.err"
	b=$?
	wait $pid
	a=$?
	[ $a -eq $b ] || err "$spec: exit $a with the reference, $b with this build"
	cmp -s "$tmp/ref.err" "$tmp/new.err" || err "$spec: the diagnostics differ"
	# Each manifest holds every file's size and SHA-256: equal manifests, equal files (and a
	# build whose hashing went wrong differs here too). Which files differ, when they do.
	if [ -d "$tmp/ref" ] || [ -d "$tmp/new" ]; then
		cmp -s "$tmp/ref/manifest.json" "$tmp/new/manifest.json" ||
			{ err "$spec: the artifacts differ"; diff -r "$tmp/ref" "$tmp/new" | head -5; }
	fi
	rm -rf "$tmp/ref" "$tmp/new"
	n=$((n + 1))
done
for args in "examples/wanka.cluster" "examples/wanka.cluster --sweep examples/wanka-sweep.yaml" \
	"examples/wanka.cluster --sweep tests/compare_html/sweep120.yaml"; do
	# shellcheck disable=SC2086
	"$ref" compare -q $args -o "$tmp/ref" 2>"$tmp/ref.err" &
	pid=$!
	# shellcheck disable=SC2086
	"$clusterc" compare -q $args -o "$tmp/new" 2>"$tmp/new.err"
	wait $pid
	diff -r "$tmp/ref" "$tmp/new" >/dev/null && cmp -s "$tmp/ref.err" "$tmp/new.err" ||
		err "compare $args differs"
	rm -rf "$tmp/ref" "$tmp/new"
done
wait $diags
cat "$tmp/diag.log"
grep -q '^FAIL' "$tmp/diag.log" && fail=$((fail + 1))
d=$(cat "$tmp/diag.count" 2>/dev/null || echo 0)
[ "$d" -gt 0 ] || err "the diagnostics were not compared"
[ $fail -eq 0 ] && echo "compilers: $n builds, 3 comparisons and $d diagnostics the same with both"
exit $((fail > 0))
