#!/bin/sh
# expand.sh CLUSTERC ROOT — `clusterc build SPEC --from OLD_DIR` (docs/daytwo.md):
#  1. the DGX SuperPOD example grown from 2 to 4 scalable units with its spine ports reserved
#     (grow_to = 127 nodes) moves no cable and no device, as report.json, the change plan and
#     `clusterc diff` all say;
#  2. the same growth without reserve moves the minimal 256 leaf-spine cables (16 leaves x 8
#     spines x 2 links beyond the 2 a pair the 4-SU plan keeps), no more;
#  3. a small 3-tier tree grown from 2 to 3 pods moves what a brute force over every rewiring
#     finds the fewest (tests/expand/brute_moves.py, from the two clusterc.lock files alone);
#  4. the change plan agrees with both builds and is byte-identical run to run; a build
#     grown from itself changes nothing;
#  5. bad --from input (no directory, not a build, a damaged lock, a lock of an incompatible
#     fabric or another cluster) gives its diagnostic and exit code and leaves -o DIR as it was.
set -u
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 2
pod=$root/examples/dgx-h100-superpod.cluster

# json FILE EXPR: a value of report.json.
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }

# 1. Reserved: zero moves.
"$clusterc" build -q "$pod" --scenario su2 --set compute.grow_to=127 -o g2 || { echo "FAIL: build g2"; exit 1; }
[ "$(json g2/report.json 'd["fabrics"][0]["switches_by_tier"]["spine"]')" = 16 ] ||
	err "2 SU with grow_to = 127: not the 4-SU spine layer of 16"
[ "$(json g2/report.json 'd["fabrics"][0]["reserved_ports_by_tier"]')" = "{'spine': 32, 'core': 0}" ] ||
	err "2 SU with grow_to = 127: not 32 ports reserved on each spine (the 16 leaves to come, 2 each)"
"$clusterc" build -q "$pod" --set compute.grow_to=127 --from g2 -o g4 || { echo "FAIL: build g4 --from g2"; exit 1; }
got=$(json g4/report.json '[d["expansion"]["cables"][k] for k in ("add","move","remove","kept")] + [d["expansion"]["devices"][k] for k in ("install","relocate","remove")]')
[ "$got" = "[1024, 0, 0, 1020, 80, 0, 0]" ] || err "reserved 2 -> 4 SU: add/move/remove/kept, install/relocate/remove $got"
"$clusterc" diff g2 g4 >g.diff
grep -qx 'cables: 1024 added, 0 removed, 0 moved, 0 changed' g.diff || err "reserved: diff says $(grep '^cables' g.diff)"
grep -qx 'devices: 80 added, 0 removed, 0 changed' g.diff || err "reserved: diff says $(grep '^devices' g.diff)"

# 2. Without reserve: the minimal moves.
"$clusterc" build -q "$pod" --scenario su2 -o s2 || { echo "FAIL: build s2"; exit 1; }
"$clusterc" build -q "$pod" --from s2 -o s4 || { echo "FAIL: build s4 --from s2"; exit 1; }
got=$(json s4/report.json '(d["expansion"]["cables"]["move"], d["expansion"]["rewiring"]["minimal_moves"], d["expansion"]["cables"]["remove"])')
[ "$got" = "(256, 256, 0)" ] || err "2 -> 4 SU without reserve: move, minimal, remove $got"
"$clusterc" diff s2 s4 >s.diff
grep -qx 'cables: 1024 added, 0 removed, 256 moved, 4 changed' s.diff || err "without reserve: diff says $(grep '^cables' s.diff)"

# 3. Brute force on a small 3-tier tree.
"$clusterc" build -q "$root/tests/expand/tiny3.cluster" -o t50 || { echo "FAIL: build t50"; exit 1; }
"$clusterc" build -q "$root/tests/expand/tiny3.cluster" --set 'tiny.nodes=75 x host' --from t50 -o t75 ||
	{ echo "FAIL: build t75 --from t50"; exit 1; }
brute=$(python3 "$root/tests/expand/brute_moves.py" t50/clusterc.lock t75/clusterc.lock 10)
got=$(json t75/report.json '(d["expansion"]["cables"]["move"], d["expansion"]["rewiring"]["status"])')
[ "$got" = "($brute, 'optimal')" ] || err "2 -> 3 pods: moved and status $got, brute force $brute"
[ "$brute" -gt 0 ] || err "2 -> 3 pods: the brute force found nothing to move (the case tests nothing)"

# 4. The plan against both builds; determinism; a build grown from itself.
python3 - s2 s4 <<'PY' || err "the change plan of s4 does not agree with the builds"
import csv, json, sys
old, new = sys.argv[1], sys.argv[2]
ids = lambda d: {r['cable_id'] for r in csv.DictReader(open(d + '/cabling.csv'))}
oi, ni = ids(old), ids(new)
plan = list(csv.DictReader(open(new + '/expansion/cables.csv')))
dev = list(csv.DictReader(open(new + '/expansion/devices.csv')))
ex = json.load(open(new + '/report.json'))['expansion']
n = lambda a: sum(r['action'] == a for r in plan)
assert n('add-cable') == ex['cables']['add'] and n('move-cable') == ex['cables']['move']
assert all(r['cable_id'] in ni for r in plan if r['action'] != 'remove-cable')
assert all(r['cable_id'] not in oi for r in plan if r['action'] == 'add-cable')
assert all(r['from_device'] and r['from_port'] for r in plan if r['action'] == 'move-cable')
assert len(ni) - ex['cables']['add'] - ex['cables']['move'] == ex['cables']['kept']
order = ['install', 'remove-cable', 'relocate', 'move-cable', 'add-cable', 'remove-device']
steps = sorted([(int(r['step']), order.index(r['action'])) for r in plan + dev])
assert [s for s, _ in steps] == list(range(1, len(steps) + 1))
assert [k for _, k in steps] == sorted(k for _, k in steps), 'not in pull order'
assert sum(r['action'] == 'install' for r in dev) == ex['devices']['install']
PY
"$clusterc" build -q "$pod" --from s2 -o s4b || err "s4 again"
for f in expansion/cables.csv expansion/devices.csv expansion/plan.md report.json clusterc.lock; do
	cmp -s s4/$f s4b/$f || err "$f differs run to run"
done
"$clusterc" build -q "$pod" --scenario su2 --from s2 -o same || err "s2 from itself"
[ "$(json same/report.json 'd["expansion"]["steps"]')" = 0 ] || err "a build grown from itself has steps"
"$clusterc" diff s2 same >same.diff
grep -qx 'cables: 0 added, 0 removed, 0 moved, 0 changed' same.diff || err "s2 from itself: $(grep '^cables' same.diff)"
grep -qx 'devices: 0 added, 0 removed, 0 changed' same.diff || err "s2 from itself: $(grep '^devices' same.diff)"

# 5. Bad input: the diagnostic, the exit code, and -o DIR left as it was.
cp -r s2 keep
sum_before=$(cd keep && find . -type f | sort | xargs sha256sum | sha256sum)
# expect NAME EXIT PATTERN ARGS...
expect() {
	name=$1 want=$2 pat=$3
	shift 3
	"$clusterc" build -q "$pod" "$@" -o keep >o 2>e
	got=$?
	[ "$got" -eq "$want" ] || err "$name: exit $got, expected $want: $(head -3 e)"
	grep -q -- "$pat" e || err "$name: no '$pat' in: $(head -3 e)"
	now=$(cd keep && find . -type f | sort | xargs sha256sum | sha256sum)
	[ "$now" = "$sum_before" ] || err "$name: -o DIR changed"
	ls -a | grep -q '^\.keep\.tmp' && err "$name: a temporary directory left"
}
expect "no such directory" 74 'error: --from nowhere: No such file or directory' --from nowhere
mkdir notabuild
expect "not a build" 74 'no clusterc.lock there: not the output of `clusterc build`' --from notabuild
cp -r s2 damaged
sed -i '3s/^cluster,superpod,/cluster,superpod,extra,/' damaged/clusterc.lock
expect "a damaged lock" 1 'damaged/clusterc.lock:3:1: error: this row has 18 fields, the header 17' --from damaged
cp -r s2 oldformat
sed -i '2s/clusterc.lock\/1/clusterc.lock\/0/' oldformat/clusterc.lock
expect "another format" 1 'oldformat/clusterc.lock:2:6: error: this lock is not clusterc.lock/1' --from oldformat
expect "an incompatible fabric" 2 "fabric 'compute' cannot grow from s2: it is now scalable units of 16 nodes, not 32" \
	--set compute.scalable_unit=16 --from s2
grep -q 's2/clusterc.lock:4:8: note: the fabric as the earlier build made it' e || err "incompatible: no note at the lock"
"$clusterc" build -q "$root/tests/expand/tiny3.cluster" --from s2 -o keep >o 2>e
[ $? -eq 2 ] && grep -q "cluster 'tiny' cannot grow from s2, a build of cluster 'superpod'" e ||
	err "another cluster: $(head -2 e)"

[ "$fail" -eq 0 ] || exit 1
echo "expand: ok (reserved 2 -> 4 SU: 0 moved; without: 256 = the minimum; 2 -> 3 pods: $brute = brute force; the plan; bad input)"
