#!/bin/sh
# optimize_cables.sh CLUSTERC ROOT — designs the cable stage rejects are excluded and the choices
# decided again (docs/optimization.md, "Cabling: the second stage"):
#  - tests/optimize/cable-rejected.cluster (bench/choices-8 minimizing the effective time to
#    train): the first decision keeps Q3400 switches at 400 Gb/s, whose leaf-spine links no
#    medium in scope joins at any length; compute.switch = Q3400 is excluded, the second design
#    (QM9700) is cabled, exit 0; report.json and report.md say what was rejected and why
#    (golden tests/optimize/cable-rejected.md-line);
#  - the same decisions and objective by --search=exhaustive, which skips the same no-good: the
#    best design among those the exclusion leaves (every Q3400 design is proven uncablable);
#  - the same files without the planner searches kept across rounds (CLUSTERC_NO_SHARE);
#  - with Q3400 the only switch, excluding it would leave no option: the design stands and its
#    link is reported, located, exit 2.
set -u
. "$(dirname "$0")/lib.sh"
spec=$root/tests/optimize/cable-rejected.cluster

for m in milp exhaustive; do
	"$clusterc" build -q --search=$m "$spec" -o "$tmp/$m" --emit report.json,report.md 2>"$tmp/$m.err"
	rc=$?
	[ $rc -eq 0 ] || { err "--search=$m: exit $rc"; cat "$tmp/$m.err"; continue; }
	decisions "$tmp/$m/report.json" >"$tmp/$m.dec"
	grep -q '^compute.switch=QM9700$' "$tmp/$m.dec" || err "--search=$m: compute.switch is not QM9700"
	n=$(awk '/"rejected_at_cabling": \[/ { on = 1; next } on && /\]/ { on = 0 } on' "$tmp/$m/report.json" | grep -c .)
	[ "$n" -eq 1 ] || err "--search=$m: $n designs rejected at cabling, expected 1"
	grep -q '"compute.switch = Q3400: no cable or optic in scope joins .*, nor would at any length"' \
		"$tmp/$m/report.json" || err "--search=$m: report.json does not say Q3400 was excluded and why"
	grep -o '1 design rejected at cabling: .*' "$tmp/$m/report.md" >"$tmp/$m.line"
	cmp -s "$tmp/$m.line" "$root/tests/optimize/cable-rejected.md-line" ||
		{ err "--search=$m: report.md's line differs from the golden"; diff "$root/tests/optimize/cable-rejected.md-line" "$tmp/$m.line"; }
done
if [ -s "$tmp/milp.dec" ] && [ -s "$tmp/exhaustive.dec" ]; then
	cmp -s "$tmp/milp.dec" "$tmp/exhaustive.dec" ||
		{ err "the MILP and the exhaustive search decide differently"; diff "$tmp/milp.dec" "$tmp/exhaustive.dec"; }
	a=$(json_number "$tmp/milp/report.json" objective) b=$(json_number "$tmp/exhaustive/report.json" objective)
	awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 * b) }' ||
		err "objective: MILP $a, exhaustive $b"
fi

# The second round reads the first round's planner searches (lang/share.c); without them the
# same files, byte for byte.
CLUSTERC_NO_SHARE=1 "$clusterc" build -q --search=milp "$spec" -o "$tmp/noshare" --emit report.json,report.md \
	2>"$tmp/noshare.err" || err "CLUSTERC_NO_SHARE: exit $?"
diff -r "$tmp/milp" "$tmp/noshare" >/dev/null || err "the build differs without the shared planner searches"

# Q3400 alone: nothing left to decide instead; the located diagnostic, exit 2.
sed 's/switch        = one_of(QM9700, Q3400)/switch        = one_of(Q3400)/' "$spec" >"$tmp/only.cluster"
grep -q 'one_of(Q3400)' "$tmp/only.cluster" || err "the Q3400-only spec was not made"
"$clusterc" build -q "$tmp/only.cluster" -o "$tmp/only" 2>"$tmp/only.err"
rc=$?
[ $rc -eq 2 ] || err "Q3400 only: exit $rc, expected 2"
grep -q "only.cluster:28:8: error: no cable or optic in scope joins" "$tmp/only.err" ||
	{ err "Q3400 only: no located diagnostic"; cat "$tmp/only.err"; }

[ $fail -eq 0 ] && echo "optimize_cables: ok"
exit $((fail > 0))
