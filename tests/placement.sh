#!/bin/sh
# placement.sh CLUSTERC ROOT — placement and cabling artifacts checked against each other and
# against the report, for the SuperPOD of one scalable unit and wanka (and the other examples
# with a fabric; of the 100,000-GPU example, its racks and NVL72 switch trays only):
#  - cabling.csv has one row per cable (report.json totals.cables) with unique ids; both ends'
#    devices exist in netbox/devices.csv and their racks in netbox/racks.csv; no port (device,
#    port) is used twice over both ends; netbox/interfaces.csv names every cabled port;
#  - racks stand within the floor grid; in racks.csv every device's U range lies inside its
#    rack, no two devices of a rack overlap, each rack's power is within its limit, and node
#    power adds up to the report's;
#  - netbox/cables.csv has NetBox's columns and cable-type slugs only;
#  - hostfile has one line per node, its slots adding up to the accelerators;
#  - racks.svg is well-formed XML;
#  - the SuperPOD su1 cabling.csv and netbox/cables.csv equal the goldens in tests/artifacts
#    (UPDATE_GOLDEN=1 rewrites them: review the diff).
# The files are parsed with awk on ',': the test fails if a field needs CSV quoting.
set -u
clusterc=$1 root=$2
cd "$root" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=$((fail + 1)); }

# The number after "KEY": in report.json's first block that has it (totals, then by category).
report() {
	grep -m1 "\"$2\":" "$1/report.json" | sed 's/.*: *\([0-9.]*\).*/\1/'
}

# check SPEC DIR [racks]: every cross-check above on one build; with "racks", only those of
# racks.csv and racks.svg (awk's tables of a 300,000-cable design take too long).
check() {
	spec=$1 dir=$2 only=${3:-}
	for f in cabling.csv racks.csv hostfile racks.svg netbox/racks.csv netbox/devices.csv \
		netbox/interfaces.csv netbox/cables.csv; do
		[ -s "$dir/$f" ] || err "$spec: no $f"
	done
	if grep -q '"' "$dir/cabling.csv" "$dir/racks.csv" "$dir"/netbox/*.csv; then
		err "$spec: a field is quoted; this test's awk cannot read it"
		return
	fi

	[ "$only" = racks ] && { check_racks "$spec" "$dir"; return; }

	# Cables: one per link, unique ids.
	cables=$(report "$dir" cables)
	rows=$(($(wc -l <"$dir/cabling.csv") - 1))
	[ "$rows" = "$cables" ] || err "$spec: cabling.csv has $rows rows, the report $cables cables"
	head -1 "$dir/cabling.csv" | grep -q '^cable_id,label,a_site,a_row,a_rack,a_u,a_device,a_port,a_optic,z_site,z_row,z_rack,z_u,z_device,z_port,z_optic,media,fiber_type,cable_model,length_m,run_m,speed_gbps,fabric,tier,rail,plane$' ||
		err "$spec: cabling.csv header"
	dups=$(tail -n +2 "$dir/cabling.csv" | cut -d, -f1 | sort | uniq -d | head -3)
	[ -z "$dups" ] || err "$spec: cable ids used twice: $dups"

	# Ends: devices and racks exist, every port used once, every port an interface.
	awk -F, -v spec="$spec" '
		FILENAME ~ /devices.csv$/ { if (FNR > 1) dev[$1] = 1; next }
		FILENAME ~ /racks.csv$/ { if (FNR > 1) rack[$1] = 1; next }
		FILENAME ~ /interfaces.csv$/ { if (FNR > 1) ifc[$1 SUBSEP $2] = 1; next }
		FNR == 1 { next }
		{
			for (s = 0; s < 2; s++) {
				r = $(5 + 7 * s); d = $(7 + 7 * s); p = $(8 + 7 * s)
				if (!(d in dev)) { print "FAIL: " spec ": " $1 " device " d " not in devices.csv"; bad++ }
				if (!(r in rack)) { print "FAIL: " spec ": " $1 " rack " r " not in racks.csv"; bad++ }
				if (!((d, p) in ifc)) { print "FAIL: " spec ": " $1 " port " d ":" p " not in interfaces.csv"; bad++ }
				if ((d, p) in used) { print "FAIL: " spec ": " $1 " port " d ":" p " also on " used[d, p]; bad++ }
				used[d, p] = $1
				if (bad > 5) exit 1
			}
		}
		END { exit bad > 0 }' "$dir/netbox/devices.csv" "$dir/netbox/racks.csv" \
		"$dir/netbox/interfaces.csv" "$dir/cabling.csv" || err "$spec: cable ends"

	check_racks "$spec" "$dir"

	# NetBox cables: columns and cable types.
	head -1 "$dir/netbox/cables.csv" | grep -q '^side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name,type,status,label,length,length_unit$' ||
		err "$spec: netbox/cables.csv header"
	bad=$(tail -n +2 "$dir/netbox/cables.csv" | awk -F, '
		$2 != "dcim.interface" || $5 != "dcim.interface" || $8 != "connected" || $11 != "m" ||
		$7 !~ /^(dac-passive|dac-active|aoc|mmf-om3|mmf-om4|mmf-om5|smf-os1|smf-os2)$/' | head -3)
	[ -z "$bad" ] || err "$spec: netbox/cables.csv rows: $bad"
	[ "$(($(wc -l <"$dir/netbox/cables.csv") - 1))" = "$cables" ] || err "$spec: netbox/cables.csv rows"

	# hostfile: one line per node, slots adding up to the accelerators.
	[ "$(wc -l <"$dir/hostfile")" = "$(report "$dir" nodes)" ] || err "$spec: hostfile lines"
	slots=$(awk '$2 !~ /^slots=[0-9]+$/ { print "bad"; exit } { sub("slots=", "", $2); s += $2 } END { print s }' "$dir/hostfile")
	[ "$slots" = "$(report "$dir" accelerators)" ] || err "$spec: hostfile slots $slots"
}

# check_racks SPEC DIR: the floor, racks.csv against itself and the report, racks.svg.
check_racks() {
	spec=$1 dir=$2
	# Racks within the floor grid (rows x racks per row, or rows of 20 without a grid).
	grid=$(sed -n 's/.*floor *= *grid(rows *= *\([0-9]*\), *racks_per_row *= *\([0-9]*\).*/\1 \2/p' "$spec")
	set -- ${grid:-1000000 20}
	awk -F, -v rows="$1" -v per_row="$2" -v spec="$spec" '
		function row_number(s,   i, n) {
			n = 0
			for (i = 1; i <= length(s); i++)
				n = n * 26 + index("ABCDEFGHIJKLMNOPQRSTUVWXYZ", substr(s, i, 1))
			return n
		}
		FNR > 1 && (row_number($2) > rows || $3 < 1 || $3 > per_row) {
			print "FAIL: " spec ": rack " $1 " at row " $2 " position " $3 " is off the floor (" rows " x " per_row ")"
			exit 1
		}' "$dir/racks.csv" || err "$spec: racks off the floor"

	# Devices inside their racks, not overlapping; power within each rack's limit.
	height=$(awk -F, 'NR == 2 { print $6 }' "$dir/netbox/racks.csv")
	awk -F, -v h="$height" -v spec="$spec" '
		NR == 1 { next }
		{
			if ($4 < 1 || $4 + $5 - 1 > h) { print "FAIL: " spec ": " $6 " takes U" $4 "+" $5 " of a " h " U rack " $1; bad++ }
			if ($1 == rack && $4 < top) { print "FAIL: " spec ": " $6 " at U" $4 " overlaps " last " in " $1; bad++ }
			if ($1 != rack) { rack = $1; top = 0 }
			if ($4 + $5 > top) { top = $4 + $5; last = $6 }
			power[$1] += $9; limit[$1] = $11
			if ($7 == "node") nodes += $9; else others += $9
			if (bad > 5) exit 1
		}
		END {
			for (r in power)
				if (limit[r] != "" && power[r] > limit[r] + 0.0005) {
					printf "FAIL: %s: rack %s draws %.3f kW, over its %s kW\n", spec, r, power[r], limit[r]
					bad++
				}
			printf "%.3f %.3f\n", nodes, others > "/dev/stderr"
			exit bad > 0
		}' "$dir/racks.csv" 2>"$tmp/power" || err "$spec: devices in racks"
	read -r nodes others <"$tmp/power"
	want=$(grep -A1 '"power_kw_by_category"' "$dir/report.json" | sed -n 's/.*"nodes": *\([0-9.]*\).*/\1/p')
	network=$(grep -A2 '"power_kw_by_category"' "$dir/report.json" | sed -n 's/.*"network": *\([0-9.]*\).*/\1/p')
	storage=$(grep -A4 '"power_kw_by_category"' "$dir/report.json" | sed -n 's/.*"storage": *\([0-9.]*\).*/\1/p')
	awk -v a="$nodes" -v b="$want" 'BEGIN { exit (a - b > 0.01 || b - a > 0.01) }' ||
		err "$spec: racks.csv nodes draw $nodes kW, the report $want kW"
	awk -v a="$others" -v b="$network" -v s="$storage" 'BEGIN { exit a > b + s + 0.01 }' ||
		err "$spec: racks.csv switches and devices draw $others kW, over the report's network and storage ($network + $storage kW)"

	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout --nonet "$dir/racks.svg" 2>"$tmp/xml.err" ||
			err "$spec: racks.svg is not well-formed: $(head -3 "$tmp/xml.err")"
	fi
}

# Only the files checked here: the other artifacts of the larger examples are big and slow.
build() {
	name=$1
	shift
	"$clusterc" build -q --emit=report.json,cabling.csv,netbox,racks.csv,racks.svg,hostfile \
		"$@" -o "$tmp/$name" || { err "build $name"; return 1; }
}

build su1 examples/dgx-h100-superpod.cluster --scenario su1 &&
	check examples/dgx-h100-superpod.cluster "$tmp/su1"
build wanka examples/wanka.cluster && check examples/wanka.cluster "$tmp/wanka"
for name in roce-spectrum4 dragonfly-1k torus-3d; do
	build "$name" "examples/$name.cluster" && check "examples/$name.cluster" "$tmp/$name"
done
build scale-100k examples/scale-100k.cluster && check examples/scale-100k.cluster "$tmp/scale-100k" racks
# Two fabrics on one NIC model take its ports in turn: 8 rails and 2, no port twice.
spec=tests/placement/two-fabrics-one-nic.cluster
build two-fabrics "$spec" && check "$spec" "$tmp/two-fabrics"
python3 - "$tmp/two-fabrics/report.json" <<'EOF' || err "two fabrics on one NIC: not 8 and 2 rails"
import json, sys
f = {x["name"]: x for x in json.load(open(sys.argv[1]))["fabrics"]}
sys.exit(not (f["compute"]["rails"] == 8 and f["storage"]["rails"] == 2 and
              f["storage"]["endpoints"] == 64))
EOF

# The SuperPOD: 252 node-leaf and 256 leaf-spine cables; NVL72 racks draw their switch trays.
[ "$(grep -c ',node-leaf,' "$tmp/su1/cabling.csv")" = 252 ] || err "su1: node-leaf cables"
[ "$(grep -c ',leaf-spine,' "$tmp/su1/cabling.csv")" = 256 ] || err "su1: leaf-spine cables"
grep -q ',nvlink tray,' "$tmp/scale-100k/racks.csv" || err "scale-100k: no NVLink switch trays in racks.csv"
grep -q 'the first 200 racks' "$tmp/scale-100k/racks.svg" || err "scale-100k: racks.svg should say it draws the first 200 racks"

# Goldens: the SuperPOD su1 cabling and NetBox cables.
for f in cabling.csv netbox/cables.csv; do
	golden=tests/artifacts/dgx-h100-superpod-su1.$(echo "$f" | tr / -)
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$tmp/su1/$f" "$golden"
	elif ! cmp -s "$tmp/su1/$f" "$golden"; then
		err "su1: $f differs from $golden"
		diff -u "$golden" "$tmp/su1/$f" | head -20
	fi
done

echo "placement: $fail failed"
[ $fail -eq 0 ]
