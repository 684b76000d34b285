#!/bin/sh
# valgrind.sh CLUSTERC ROOT — a sample of commands under valgrind's memcheck, the arena in
# pass-through mode (CLUSTERC_ARENA=malloc) so every allocation is its own block: any error
# (an invalid read or write, a use of uninitialised memory, a definite or indirect leak) fails
# the test. The sample covers each layer once: the front end and its diagnostics (check, a
# spec with errors, fmt), every emitter (the SuperPOD: InfiniBand, Graphviz, report.html ...;
# the RoCE example: switch configs), the optimizer (capacity-planning), compare and its child
# processes, and the output directory's protocol (a rebuild over another output, a refused
# foreign DIR).
# Graphviz's own leak in dot is suppressed (tests/valgrind/graphviz.supp).
set -u
clusterc=$1 root=$2
cd "$root" || exit 2
command -v valgrind >/dev/null || { echo "FAIL: valgrind is not installed (apt-get install valgrind)"; exit 1; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
export CLUSTERC_ARENA=malloc
vg() {
	want=$1
	shift
	valgrind -q --error-exitcode=99 --trace-children=yes --leak-check=full \
		--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
		--suppressions=tests/valgrind/graphviz.supp --log-file="$tmp/vg.%p" \
		"$clusterc" "$@" >/dev/null 2>"$tmp/stderr"
	rc=$?
	if [ $rc -ne "$want" ] || [ -n "$(cat "$tmp"/vg.* 2>/dev/null)" ]; then
		echo "FAIL: valgrind clusterc $* (exit $rc, wanted $want)"
		cat "$tmp"/vg.* 2>/dev/null | head -40
		fail=$((fail + 1))
	fi
	rm -f "$tmp"/vg.*
}
vg 0 check examples/wanka.cluster
vg 1 check tests/diag/units-add-power-bandwidth.cluster
cp examples/torus-3d.cluster "$tmp/fmt.cluster"
vg 0 fmt "$tmp/fmt.cluster"
vg 0 build -q examples/dgx-h100-superpod.cluster -o "$tmp/superpod"
vg 0 build -q examples/seed-wanka-h100.cluster -o "$tmp/superpod"
vg 0 build -q examples/roce-spectrum4.cluster --emit switches,report.json -o "$tmp/roce"
vg 0 build -q examples/capacity-planning.cluster --emit report.json,model.lp -o "$tmp/cap"
vg 0 compare -q examples/seed-wanka-h100.cluster --jobs 1 -o "$tmp/compare"
mkdir "$tmp/foreign" && echo x >"$tmp/foreign/x"
vg 74 build -q examples/seed-wanka-h100.cluster -o "$tmp/foreign"
[ $fail -eq 0 ] && echo "valgrind: 10 commands, no memcheck error"
exit $((fail > 0))
