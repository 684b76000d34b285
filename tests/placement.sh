#!/bin/sh
# placement.sh CLUSTERC ROOT — placement and cabling artifacts checked against each other and
# against the report, for the SuperPOD of one scalable unit and wanka (and the other examples
# with a fabric; of the 100,000-GPU example, its racks and that each NVL72 domain of 18 compute
# trays and 9 NVLink switch trays stands whole in one rack):
#  - cabling.csv has one row per cable (report.json totals.cables) with unique ids; both ends'
#    devices exist in netbox/devices.csv and their racks in netbox/racks.csv; no port (device,
#    port) is used twice over both ends; netbox/interfaces.csv names every cabled port;
#  - racks stand within the floor grid; in racks.csv every device's U range lies inside its
#    rack, no two devices of a rack overlap, each rack's power (its devices' power_kw and the
#    optics_kw in their ports) is within its limit, and node power adds up to the report's;
#  - netbox/cables.csv has NetBox's columns and cable-type slugs only;
#  - every cable's run_m measured again from racks.csv's coordinates, length_m the stocked
#    length that holds it, optics and fibre of one fibre type and plug, no twin-port optic in a
#    NIC (tests/placement/optic-fibre-plug.cluster: long single-mode runs; xdr-800g.cluster:
#    800G over single-mode only);
#  - hostfile has one line per node, its slots adding up to the accelerators;
#  - racks.svg is well-formed XML;
#  - the SuperPOD su1 cabling.csv and netbox/cables.csv equal the goldens in tests/artifacts
#    (UPDATE_GOLDEN=1 rewrites them: review the diff).
# The files are parsed with awk on ',': the test fails if a field needs CSV quoting.
set -u
. "$(dirname "$0")/lib.sh"

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
	head -1 "$dir/cabling.csv" | grep -q '^cable_id,label,a_site,a_row,a_rack,a_u,a_device,a_port,a_optic,z_site,z_row,z_rack,z_u,z_device,z_port,z_optic,media,fiber_type,cable_model,length_m,run_m,speed_gbps,fabric,tier,rail,plane,a_cage,a_lane,z_cage,z_lane,assembly,trunk,a_panel,a_panel_port,z_panel,z_panel_port,a_cord_m,z_cord_m$' ||
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

	runs "$spec" "$dir" || err "$spec: cable runs, lengths or media"

	# hostfile: one line per node, slots adding up to the accelerators.
	[ "$(wc -l <"$dir/hostfile")" = "$(report "$dir" nodes)" ] || err "$spec: hostfile lines"
	slots=$(awk '$2 !~ /^slots=[0-9]+$/ { print "bad"; exit } { sub("slots=", "", $2); s += $2 } END { print s }' "$dir/hostfile")
	[ "$slots" = "$(report "$dir" accelerators)" ] || err "$spec: hostfile slots $slots"
}

# runs SPEC DIR: every cable measured again from racks.csv's coordinates (docs/placement.md §4):
# racks at x = (position - 1) x rack_pitch, y = row x row_pitch; between racks
# up_a + tray + |dx| + |dy| + tray + up_z with up = H - (u - 1) x 1 U, in one rack
# |u_a - u_z| x 1 U;
# slack run x 1.1 + 1 m equals run_m, and length_m is the shortest stocked length (the cable's
# `lengths` in the stdlib or the spec, else the next whole metre) that holds it. Media (§5):
# copper and AOC rows have no optic; a fibre row's optics drive its fibre type and take its
# plug, and a twin-port optic stands only in a switch's cage, never at a node's NIC.
runs() {
	python3 - "$1" "$2" stdlib/network.cluster <<'PY'
import csv, math, re, sys
spec, d, lib = sys.argv[1], sys.argv[2], sys.argv[3]
U = 0.04445
def metres(t):
    n, u = re.match(r'\s*([0-9_.]+)\s*(km|m)', t).groups()
    return float(n.replace('_', '')) * (1000 if u == 'km' else 1)
text = open(spec).read()
grid = re.search(r'grid\(([^)]*)\)', text)
def param(name, default):
    m = grid and re.search(name + r'\s*=\s*([0-9_.]+\s*k?m)', grid.group(1))
    return metres(m.group(1)) if m else default
tray = param('tray_height', 0.5)
rack_pitch, row_pitch = param('rack_pitch', 0.6), param('row_pitch', 2.4)
media = {}
for src in (open(lib).read(), text):
    for m in re.finditer(r'^(cable|optic) (\w+)(?: : (\w+))? \{(.*?)^\}', src, re.M | re.S):
        f = dict(media.get(m.group(3), {}))
        for k, v in re.findall(r'^\s*(\w+)\s*=\s*([^/\n]*)', m.group(4), re.M):
            f[k] = v.strip()
        media[m.group(2)] = f
def row_number(s):
    n = 0
    for ch in s:
        n = n * 26 + ord(ch) - 64
    return n - 1
# Rack zones with a grid of their own: their racks at its rack pitch; the rows of a zoned
# hall stand one after another, each further back than the last (docs/placement.md, "Zones").
zone_pitch = {}
for m in re.finditer(r'^zone (\w+) \{(.*?)^\}', text, re.M | re.S):
    g = re.search(r'grid\(([^)]*)\)', m.group(2))
    p = g and re.search(r'rack_pitch\s*=\s*([0-9_.]+\s*k?m)', g.group(1))
    if p:
        zone_pitch[m.group(1)] = metres(p.group(1))
racks, kind, row_y = {}, {}, {}
for r in csv.DictReader(open(d + '/racks.csv')):
    x, y = float(r['x_m']), float(r['y_m'])
    racks[r['rack']] = (x, y)
    kind[r['device']] = r['kind']
    zoned = r['zone'] != 'main'
    pitch = zone_pitch.get(r['zone'], rack_pitch)
    if r['row'] and (abs(x - (int(r['position']) - 1) * pitch) > 0.001 or
                     (not zoned and abs(y - row_number(r['row']) * row_pitch) > 0.001)):
        sys.exit(f"rack {r['rack']} at ({x}, {y}) m, not at its row and position's pitches")
    if r['row'] and zoned:
        row_y.setdefault(row_number(r['row']), set()).add(y)
ys = [row_y[k] for k in sorted(row_y)]
if any(len(v) != 1 for v in ys) or any(min(b) <= max(a) for a, b in zip(ys, ys[1:])):
    sys.exit("the rows of a zoned hall do not stand one behind the other")
H = int(next(csv.DictReader(open(d + '/netbox/racks.csv')))['u_height']) * U
bad = 0
def fail(row, why):
    global bad
    bad += 1
    if bad <= 5:
        print(f"FAIL: {spec}: {row['cable_id']} {row['label']}: {why}")
cables = list(csv.DictReader(open(d + '/cabling.csv')))
# A switch cage's module is named on its first row only (tests/cages.py counts them): the
# other rows of the cage take it from there.
cage_module = {(c[e + '_device'], c[e + '_cage']): c[e + '_optic']
               for c in cables for e in 'az' if c[e + '_cage'] and c[e + '_optic']}
legs_run = {}
for c in cables:
    legs_run[c['assembly']] = max(legs_run.get(c['assembly'], 0), float(c['run_m']))
for c in cables:
    for e in 'az':
        if c['media'] == 'fiber' and not c[e + '_optic'] and c[e + '_cage']:
            c[e + '_optic'] = cage_module.get((c[e + '_device'], c[e + '_cage']), '')
    au, zu = int(c['a_u']), int(c['z_u'])
    if c['a_rack'] == c['z_rack']:
        run = abs(au - zu) * U
    else:
        (xa, ya), (xz, yz) = racks[c['a_rack']], racks[c['z_rack']]
        run = (H - (au - 1) * U) + tray + abs(xa - xz) + abs(ya - yz) + tray + (H - (zu - 1) * U)
    run = run * 1.1 + 1.0
    if abs(run - float(c['run_m'])) > 0.0051:
        fail(c, f"run_m {c['run_m']}, measured {run:.3f} m")
    cab = media.get(c['cable_model'])
    if cab is None:
        if c['media']:
            fail(c, f"unknown cable {c['cable_model']}")
        continue
    # The legs of one breakout, twin-port cable or splitter fibre are one part of one length:
    # the stocked length of its longest leg's run.
    run = max(run, legs_run[c['assembly']])
    if 'lengths' in cab:
        stock = sorted(metres(t) for t in cab['lengths'].strip('[]').split(','))
        want = next((l for l in stock if l >= run - 1e-9), None)
    else:
        want = math.ceil(run - 1e-9)
    if want is None or abs(float(c['length_m']) - want) > 1e-9:
        fail(c, f"length_m {c['length_m']} for a {run:.2f} m run, stocked {want}")
    if c['media'] != 'fiber':
        if c['a_optic'] or c['z_optic']:
            fail(c, f"{c['media']} with optics")
        continue
    for end in 'az':
        o = media.get(c[end + '_optic'])
        if o is None:
            fail(c, f"fibre without an optic at {end}")
            continue
        if o.get('fiber') != cab.get('fiber') or cab.get('fiber') != c['fiber_type']:
            fail(c, f"{c[end + '_optic']} drives {o.get('fiber')}, "
                    f"the fibre is {cab.get('fiber')}")
        if o.get('connector') != cab.get('connector'):
            fail(c, f"{c[end + '_optic']} takes {o.get('connector')}, "
                    f"{c['cable_model']} is {cab.get('connector')}")
        if kind.get(c[end + '_device']) == 'node' and int(o.get('ports', '1')) > 1:
            fail(c, f"twin-port {c[end + '_optic']} in a node's NIC")
sys.exit(bad > 0)
PY
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
			power[$1] += $9 + $14; limit[$1] = $11; optics += $14
			if ($7 == "node") nodes += $9; else others += $9
			if (bad > 5) exit 1
		}
		END {
			for (r in power)
				if (limit[r] != "" && power[r] > limit[r] + 0.0005) {
					printf "FAIL: %s: rack %s draws %.3f kW, over its %s kW\n", spec, r, power[r], limit[r]
					bad++
				}
			printf "%.3f %.3f %d\n", nodes, others + optics, NR > "/dev/stderr"
			exit bad > 0
		}' "$dir/racks.csv" 2>"$tmp/power" || err "$spec: devices in racks"
	read -r nodes others devices <"$tmp/power"
	want=$(grep -A1 '"power_kw_by_category"' "$dir/report.json" | sed -n 's/.*"nodes": *\([0-9.]*\).*/\1/p')
	network=$(grep -A2 '"power_kw_by_category"' "$dir/report.json" | sed -n 's/.*"network": *\([0-9.]*\).*/\1/p')
	storage=$(grep -A4 '"power_kw_by_category"' "$dir/report.json" | sed -n 's/.*"storage": *\([0-9.]*\).*/\1/p')
	awk -v a="$nodes" -v b="$want" 'BEGIN { exit (a - b > 0.01 || b - a > 0.01) }' ||
		err "$spec: racks.csv nodes draw $nodes kW, the report $want kW"
	# Each row's optics_kw is rounded to the watt: the sum may be off by half a watt a row.
	awk -v a="$others" -v b="$network" -v s="$storage" -v n="$devices" 'BEGIN { exit a > b + s + 0.01 + 0.0005 * n }' ||
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
for name in roce-spectrum4 dragonfly-1k torus-3d alibaba-hpn; do
	build "$name" "examples/$name.cluster" && check "examples/$name.cluster" "$tmp/$name"
done
build scale-100k examples/scale-100k.cluster && check examples/scale-100k.cluster "$tmp/scale-100k" racks
# Optic and fibre of one plug: duplex LC is the cheapest single-mode cord but 2xDR4 takes MPO-12.
spec=tests/placement/optic-fibre-plug.cluster
build plug "$spec" && check "$spec" "$tmp/plug"
[ "$(grep -c ',fiber,os2,MPO12_OS2,' "$tmp/plug/cabling.csv")" = "$(report "$tmp/plug" cables)" ] ||
	err "optic-fibre-plug: not every cable a single-mode MPO-12 fibre"
# 800G (XDR) across rows: every link cabled, single-mode optics only, a single-port DR4 at
# each ConnectX-8 and twin-port modules in the switch cages.
spec=tests/placement/xdr-800g.cluster
build xdr "$spec" && check "$spec" "$tmp/xdr"
python3 - "$tmp/xdr/cabling.csv" "$(report "$tmp/xdr" cables)" <<'EOF' || err "xdr-800g: 800G optics not as NVIDIA's XDR list has them"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r["cable_id"] for r in rows if not r["cable_model"]
       or (r["a_optic"] or r["z_optic"]) and r["fiber_type"] != "os2"
       or r["tier"] == "node-leaf" and r["a_optic"] not in ("", "DR4_800G")
       or r["z_optic"] not in ("", "TWIN_DR4_1600G")]
optics = sum(1 for r in rows if r["a_optic"] == "DR4_800G")
if bad or not optics or len(rows) != int(sys.argv[2]):
    print("xdr-800g:", len(rows), "cables,", optics, "at ConnectX-8 ends; wrong:", bad[:5])
    sys.exit(1)
EOF
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
# NVL72 domains kept whole: each rack of compute trays holds whole domains of 18 trays and their
# 9 NVLink switch trays, 1,400 domains in all.
awk -F, 'NR > 1 && $7 == "node" { n[$1]++ } NR > 1 && $7 == "nvlink tray" { s[$1]++ }
	END {
		for (r in n) {
			if (n[r] % 18 || s[r] * 2 != n[r]) {
				print r ": " n[r] " trays, " s[r] " switch trays"
				bad = 1
			}
			d += n[r] / 18
		}
		if (d != 1400) { print d " domains"; bad = 1 }
		exit bad
	}' "$tmp/scale-100k/racks.csv" || err "scale-100k: an NVL72 domain split across racks"
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
