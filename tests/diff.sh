#!/bin/sh
# diff.sh CLUSTERC ROOT — `clusterc diff OLD_DIR NEW_DIR` (docs/daytwo.md): tests/verify/
# roce-small built with 8 and with 10 hosts, the text and JSON diffs against the goldens
# tests/diff/hosts.diff and hosts.diff.json (exit 2); a build against itself (exit 0, "0
# changes"); a cable with one end re-plugged reported as moved, not as removed + added; a
# damaged file of either build at its file:line (exit 1), a directory that is no build (74),
# usage (64). UPDATE_GOLDEN=1 rewrites the goldens.
set -u
. "$(dirname "$0")/lib.sh"
t=tests/verify g=tests/diff
cd "$tmp" || exit 2
spec=$root/$t/roce-small.cluster
"$clusterc" build -q "$spec" -o old || { echo "FAIL: build"; exit 1; }
"$clusterc" build -q "$spec" --set 'ethsmall.nodes=10 x eth_host' -o new || { echo "FAIL: build"; exit 1; }

"$clusterc" diff old new >hosts.diff 2>err
rc=$?
[ "$rc" -eq 2 ] || err "8 -> 10 hosts: exit $rc, expected 2: $(cat err)"
"$clusterc" diff old new --diagnostics=json >hosts.diff.json 2>err
[ $? -eq 2 ] || err "8 -> 10 hosts (JSON): exit not 2"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema"] == "clusterc.diff/1"
assert [x["key"] for x in d["devices"]["added"]] == ["host09", "host10"], d["devices"]
assert d["totals"]["capex"]["delta"] > 0' hosts.diff.json || err "hosts.diff.json: not what the test expects"
for f in hosts.diff hosts.diff.json; do
	[ "${UPDATE_GOLDEN:-0}" = 1 ] && cp "$f" "$root/$g/$f"
	diff -u "$root/$g/$f" "$f" || err "$f differs from $g/$f"
done

"$clusterc" diff old old >same.out 2>&1
rc=$?
[ "$rc" -eq 0 ] || err "a build against itself: exit $rc"
tail -1 same.out | grep -qx '0 changes' || err "a build against itself: $(tail -1 same.out)"

# One cable re-plugged: host01's cable moves from Ethernet0 to Ethernet40 of its leaf.
cp -r old moved
python3 - moved/cabling.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
r = rows[1]
r[h.index('z_port')] = 'Ethernet40'
r[h.index('cable_id')] = 'CMOVED00001'
csv.writer(open(sys.argv[1], 'w', newline=''), lineterminator='\n').writerows(rows)
PY
"$clusterc" diff old moved >moved.out 2>&1
grep -q '^cables: 0 added, 0 removed, 1 moved, 0 changed$' moved.out || err "moved: $(grep '^cables' moved.out)"
grep -q '^  > CESC0M5FHKM -> CMOVED00001: host01:mlx5_0 stays, compute-leaf-001:Ethernet0 -> compute-leaf-001:Ethernet40$' moved.out ||
	err "moved: $(grep '^  >' moved.out)"

# expect_error NAME EXIT PATTERN ARGS...
expect_error() {
	name=$1 want=$2 pat=$3
	shift 3
	"$clusterc" diff "$@" >o 2>e
	got=$?
	[ "$got" -eq "$want" ] || err "$name: exit $got, expected $want: $(head -3 e)"
	grep -q -- "$pat" e || err "$name: no '$pat' in: $(head -3 e)"
}
cp -r old damaged
printf 'rack,row\nA01\n' >>damaged/racks.csv
expect_error "a damaged racks.csv" 1 'racks.csv:[0-9]*:1: error: this row has' old damaged
cp -r old badjson
printf '{\n  "files": [\n' >badjson/manifest.json
expect_error "a manifest that is not JSON" 1 'manifest.json:3:[0-9]*: error: not JSON' badjson old
mkdir nobuild
expect_error "no build" 74 'manifest.json' old nobuild
expect_error "one directory" 64 'needs OLD_DIR and NEW_DIR' old

[ "$fail" -eq 0 ] || exit 1
echo "diff: ok (8 -> 10 hosts against the goldens, a build against itself, a cable moved, bad input)"
