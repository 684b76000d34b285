#!/bin/sh
# rack_power.sh CLUSTERC ROOT — issue 16's rack power, cable density, placement and floor:
#  - tests/placement/spine-rack-46.cluster: the 46 QM9700 spines stand in one network rack
#    (rack48_liquid, 100 kW, no cable limit) that draws 46 x (750 W + 32 twin-port SR4 x 15 W)
#    = 56.58 kW with its optics (QM9700 750 W typical without optics; NVIDIA MMA4Z00-NS-T 15 W;
#    std.network), within 1 %, not 34.5 kW; racks.csv's rows add up to it;
#  - the same with std.racks' rack48_network (40 kW air, 2,000 cables): no switch rack over 40 kW
#    or 2,000 cables, more racks; with max_cables = 1,000: at most 15 switches of 64 cables a
#    rack, the racks the limit added reported (placement.racks_added_for_cables > 0);
#  - examples/meta-24k-roce.cluster (8 pods, ToRs in the server racks): every pod's spines stand
#    among the rows of its pod's nodes, and the total run is shorter than the median rule's by
#    more than 30 % (report.json placement.run_saving), which also holds, > 5 %, for the
#    SuperPOD and wanka;
#  - tests/placement/dragonfly-large.cluster (no floor grid, 16,512 GPUs): the hall near square
#    (depth / width between 0.5 and 2) and no run longer than 120 m.
set -u
. "$(dirname "$0")/lib.sh"

# placement KEY DIR: report.json's placement.KEY
placement() {
	python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['placement'][sys.argv[2]])" "$2/report.json" "$1"
}

# Per rack of switches: kW (devices + optics), cables (cabling.csv ends), switches.
switch_racks() {
	awk -F, 'NR == FNR { if (FNR > 1 && $7 == "switch") { kw[$1] += $9 + $14; n[$1]++ } next }
		FNR > 1 { if ($5 in n) c[$5]++; if ($12 in n && $12 != $5) c[$12]++ }
		END { for (r in n) printf "%s %.3f %d %d\n", r, kw[r], c[r], n[r] }' \
		"$1/racks.csv" "$1/cabling.csv" | sort
}

spec=tests/placement/spine-rack-46.cluster
"$clusterc" build "$spec" -o "$tmp/s46" -q >/dev/null || err "$spec: build failed"
switch_racks "$tmp/s46" >"$tmp/s46.racks"
line=$(awk '$4 == 46' "$tmp/s46.racks" | head -1)
[ -n "$line" ] || err "$spec: no rack of 46 switches: $(cat "$tmp/s46.racks")"
kw=$(echo "$line" | awk '{ print $2 }')
awk -v k="$kw" 'BEGIN { exit !(k > 56.58 * 0.99 && k < 56.58 * 1.01) }' ||
	err "$spec: the spine rack draws $kw kW; 46 x (750 W + 32 x 15 W) = 56.58 kW"

"$clusterc" build "$spec" --set spine46.network_rack=rack48_network -o "$tmp/net" -q >/dev/null ||
	err "$spec with rack48_network: build failed"
switch_racks "$tmp/net" >"$tmp/net.racks"
awk '$2 > 40.0005 || $3 > 2000 { print; bad = 1 } END { exit bad }' "$tmp/net.racks" ||
	err "$spec with rack48_network: a switch rack over 40 kW or 2,000 cables"
[ "$(wc -l <"$tmp/net.racks")" -gt "$(wc -l <"$tmp/s46.racks")" ] ||
	err "$spec with rack48_network: no more switch racks than in the 100 kW rack"

"$clusterc" build "$spec" --set spine46.network_rack=rack48_network --set rack48_network.max_cables=1000 \
	-o "$tmp/dense" -q >/dev/null || err "$spec with 1,000 cables a rack: build failed"
switch_racks "$tmp/dense" >"$tmp/dense.racks"
awk '$3 > 1000 || $4 > 15 { print; bad = 1 } END { exit bad }' "$tmp/dense.racks" ||
	err "$spec with 1,000 cables a rack: a rack over it"
added=$(placement racks_added_for_cables "$tmp/dense")
[ "$added" -gt 0 ] 2>/dev/null || err "$spec with 1,000 cables a rack: racks_added_for_cables is $added"

# Pods' spines in their pod's rows; the run against the median rule.
spec=examples/meta-24k-roce.cluster
"$clusterc" build "$spec" -o "$tmp/meta" -q >/dev/null || err "$spec: build failed"
# A pod is 192 ToRs of 2 nodes (384 nodes, 192 racks): pod p's nodes gt(384p+1) .. gt(384p+384).
awk -F, 'NR > 1 && $7 == "node" { n = substr($6, 3) + 0; pod = int((n - 1) / 384)
		if (!(pod in lo) || $2 < lo[pod]) lo[pod] = $2; if ($2 > hi[pod]) hi[pod] = $2 }
	NR > 1 && $6 ~ /-spine-/ { s = $6; sub(/.*-spine-/, "", s); sp[s + 0] = $2 }
	END { for (s in sp) { pod = int((s - 1) / 16)
			if (sp[s] < lo[pod] || sp[s] > hi[pod]) { print "spine " s " in row " sp[s] ", pod " pod " rows " lo[pod] "-" hi[pod]; bad = 1 } }
		exit bad + 0 }' "$tmp/meta/racks.csv" >"$tmp/pods" 2>&1 || err "$spec: a spine outside its pod's rows: $(head -3 "$tmp/pods")"
saving=$(placement run_saving "$tmp/meta")
awk -v s="$saving" 'BEGIN { exit !(s > 0.30) }' || err "$spec: run_saving $saving, not over 30 %"
# The flagship without its zones: one hall of rack48, the network groups free to stand among
# the node racks (with zones they stand where the cluster lists their zone: nothing to move).
# Its tank row cold-plate cooled too, it needs a little more than the hall's 16 MW: 17 MW here.
sed -e 's/^  zones          = \[hall, network_row, tank_row\]$/  rack           = rack48/' \
	-e 's/^  power_budget     = 16 MW$/  power_budget     = 17 MW/' \
	examples/wanka.cluster >"$tmp/wanka-one-zone.cluster"
grep -q '^  rack           = rack48$' "$tmp/wanka-one-zone.cluster" || err "wanka: its zones line changed"
grep -q '^  power_budget     = 17 MW$' "$tmp/wanka-one-zone.cluster" || err "wanka: its power budget line changed"
for s in examples/dgx-h100-superpod.cluster "$tmp/wanka-one-zone.cluster"; do
	"$clusterc" build "$s" -o "$tmp/ex" -q >/dev/null || err "$s: build failed"
	saving=$(placement run_saving "$tmp/ex")
	total=$(placement total_run_km "$tmp/ex") median=$(placement median_rule_run_km "$tmp/ex")
	awk -v s="$saving" -v t="$total" -v m="$median" 'BEGIN { exit !(s > 0.05 && t < m) }' ||
		err "$s: total run $total km against $median km by the median rule ($saving)"
done

# The near-square floor without a grid.
spec=tests/placement/dragonfly-large.cluster
"$clusterc" build "$spec" -o "$tmp/df" -q >/dev/null || err "$spec: build failed"
w=$(placement hall_width_m "$tmp/df") h=$(placement hall_depth_m "$tmp/df") l=$(placement longest_run_m "$tmp/df")
awk -v w="$w" -v h="$h" -v l="$l" 'BEGIN { exit !(h / w >= 0.5 && h / w <= 2 && l <= 120) }' ||
	err "$spec: hall $w m x $h m, longest run $l m"
longest=$(awk -F, 'NR > 1 && $21 > m { m = $21 } END { print m + 0 }' "$tmp/df/cabling.csv")
awk -v a="$longest" -v b="$l" 'BEGIN { exit (a - b > 0.01 || b - a > 0.01) }' ||
	err "$spec: cabling.csv's longest run $longest m, the report's $l m"

[ "$fail" -eq 0 ] && echo "rack_power: ok"
exit "$fail"
