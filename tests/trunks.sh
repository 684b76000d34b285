#!/bin/sh
# tests/trunks.sh CLUSTERC SOURCE_DIR — structured cabling (passes/design/trunk.c,
# docs/placement.md "Structured cabling"): the plan of tests/trunks/superpod-trunks.cluster
# and of the SuperPOD example with --set against the invariants a crew relies on, and the
# same designs without it left as they were.
set -u
. "$(dirname "$0")/lib.sh"

check() { # DIR: the invariants of one build's files
	python3 - "$1" <<'PY' || err "invariants of $1"
import csv, json, sys, collections
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/cabling.csv")))
trunks = {t["trunk"]: t for t in csv.DictReader(open(d + "/trunks.csv"))}
racks = list(csv.DictReader(open(d + "/racks.csv")))
bom = list(csv.DictReader(open(d + "/bom.csv")))
pulls = list(csv.DictReader(open(d + "/pull-sheets.csv")))
report = json.load(open(d + "/report.json"))
bad = []
panel_rack = {r["device"]: r["rack"] for r in racks if r["kind"] == "patch panel"}
taken, legs = set(), collections.Counter()
through = 0
for r in rows:
    if not r["trunk"]:
        # A direct fibre between optics joins racks of one row (or stands in one rack).
        if r["media"] == "fiber" and r["a_row"] != r["z_row"] and r["cable_model"].startswith("MPO12_O") and r["assembly"] == r["cable_id"]:
            bad.append("direct fibre between rows: " + r["cable_id"])
        continue
    through += 1
    t = trunks.get(r["trunk"])
    if t is None:
        bad.append("unknown trunk " + r["trunk"]); continue
    legs[r["trunk"]] += 1
    if r["a_row"] == r["z_row"]:
        bad.append("a trunk within one row: " + r["cable_id"])
    for e in "az":
        p, port = r[e + "_panel"], int(r[e + "_panel_port"])
        if panel_rack.get(p) != r[e + "_rack"]:
            bad.append("panel %s not in the rack of end %s of %s" % (p, e, r["cable_id"]))
        if not 1 <= port <= 24:
            bad.append("adapter %d past the panel" % port)
        if (p, port) in taken:
            bad.append("adapter %s p%d takes two links" % (p, port))
        taken.add((p, port))
        if float(r[e + "_cord_m"]) <= 0:
            bad.append("no cord at end %s of %s" % (e, r["cable_id"]))
    if {r["a_rack"], r["z_rack"]} != {t["a_rack"], t["z_rack"]}:
        bad.append("trunk %s does not join the link's racks" % r["trunk"])
    if t["fiber_type"] != r["fiber_type"]:
        bad.append("an %s link through an %s trunk: %s" % (r["fiber_type"], t["fiber_type"], r["cable_id"]))
    channel = float(r["a_cord_m"]) + float(t["length_m"]) + float(r["z_cord_m"])
    if abs(channel - float(r["length_m"])) > 0.01:
        bad.append("length_m is not the channel for " + r["cable_id"])
for name, t in trunks.items():
    if int(t["legs"]) != legs[name] or not 1 <= int(t["legs"]) <= 12:
        bad.append("trunk %s: %s legs, %d links" % (name, t["legs"], legs[name]))
    if float(t["length_m"]) < float(t["run_m"]):
        bad.append("trunk %s shorter than its run" % name)
# Panels stand above the devices of their rack, inside it (48 U), one U each.
units = collections.defaultdict(list)
for r in racks:
    units[r["rack"]].append((int(r["u"]), int(r["u"]) + int(r["height_u"]) - 1, r["kind"], r["device"]))
for rack, us in units.items():
    us.sort()
    for a, b in zip(us, us[1:]):
        if b[0] <= a[1]:
            bad.append("%s: %s and %s overlap" % (rack, a[3], b[3]))
    if us[-1][1] > 48:
        bad.append(rack + " past its top")
# The BOM buys what the files list: trunks, panels, two cords a link through a trunk.
def qty(model, kind):
    return sum(int(float(b["quantity"])) for b in bom if b["part"] == kind and b["model"].split(" ")[0] == model)
trunk_models = collections.Counter(t["trunk_model"] for t in trunks.values())
for m, n in trunk_models.items():
    if qty(m, "cable") != n:
        bad.append("BOM %s %d, trunks.csv %d" % (m, qty(m, "cable"), n))
if qty("MPO12_PANEL_1U", "patch panel") != len(panel_rack):
    bad.append("BOM panels %d, racks.csv %d" % (qty("MPO12_PANEL_1U", "patch panel"), len(panel_rack)))
for m in set(r["cable_model"] for r in rows if r["media"] == "fiber"):
    direct = sum(1 for r in rows if r["cable_model"] == m and not r["trunk"] and r["assembly"] == r["cable_id"])
    cords = sum(2 for r in rows if r["cable_model"] == m and r["trunk"])
    if qty(m, "cable") != direct + cords:
        bad.append("BOM %s %d, expected %d direct + %d cords" % (m, qty(m, "cable"), direct, cords))
# Pull sheets: each trunk once, two patch cords a link through one.
runs = collections.Counter(p["run"] for p in pulls)
if runs["trunk"] != len(trunks) or runs["patch"] != 2 * through:
    bad.append("pull sheets: %d trunks, %d patch cords" % (runs["trunk"], runs["patch"]))
# NetBox: panels are devices with front ports p1.. on rear ports r1..; a link through a trunk
# is three cables (cord, trunk leg between rear ports, cord), each port used once.
nb = d + "/netbox/"
devices = set(r["name"] for r in csv.DictReader(open(nb + "devices.csv")))
fronts = set((r["device"], r["name"]) for r in csv.DictReader(open(nb + "front-ports.csv")))
rears = set((r["device"], r["name"]) for r in csv.DictReader(open(nb + "rear-ports.csv")))
if not set(panel_rack) <= devices:
    bad.append("netbox: panels missing from devices.csv")
used = collections.Counter()
legs_nb = collections.Counter()
for c in csv.DictReader(open(nb + "cables.csv")):
    for side in "ab":
        key = (c["side_%s_device" % side], c["side_%s_name" % side])
        kind = c["side_%s_type" % side]
        if kind == "dcim.frontport" and key not in fronts or kind == "dcim.rearport" and key not in rears:
            bad.append("netbox: cable on an unknown panel port %s %s" % key)
        if kind != "dcim.interface":
            used[(kind,) + key] += 1
    if c["side_a_type"] == "dcim.rearport":
        legs_nb[c["label"]] += 1
if any(n != 1 for n in used.values()):
    bad.append("netbox: a panel port with two cables")
if legs_nb != legs:
    bad.append("netbox: trunk legs differ from cabling.csv")
tot = report["totals"]
if tot["trunks"] != len(trunks) or tot["patch_panels"] != len(panel_rack):
    bad.append("report.json totals")
if not trunks or not through:
    bad.append("no trunk laid")
for b in bad[:10]:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
}

out=$tmp/su
"$clusterc" build -q tests/trunks/superpod-trunks.cluster -o "$out" || err "build superpod-trunks"
check "$out"

# The published SuperPOD (4 SU) with structured cabling: the network racks keep room for
# their panels (place.c), the plan holds.
out=$tmp/su4
"$clusterc" build -q examples/dgx-h100-superpod.cluster -o "$out" \
	--set compute.patch_panel=MPO12_PANEL_1U --set 'compute.trunks=[MPO12_TRUNK_OM4, MPO12_TRUNK_OS2]' ||
	err "build superpod with trunks"
check "$out"

# Rows 34 m apart: the direct runs fit the multimode optics, the channels through panels
# (cords and trunk as bought) do not; those links get single-mode optics, cords and trunks.
out=$tmp/far
"$clusterc" build -q tests/trunks/superpod-trunks.cluster -o "$out" \
	--set 'dc.floor=grid(rows = 4, racks_per_row = 6, row_pitch = 34 m)' || err "build 34 m rows"
check "$out"
grep -q ',MPO12_TRUNK_OS2,os2,' "$out/trunks.csv" || err "34 m rows: no single-mode trunk"
grep -q ',MPO12_TRUNK_OM4,om4,' "$out/trunks.csv" || err "34 m rows: no multimode trunk left"

# Without structured cabling nothing changes: no trunks.csv, empty trunk columns.
out=$tmp/plain
"$clusterc" build -q examples/dgx-h100-superpod.cluster -o "$out" || err "build superpod"
[ ! -e "$out/trunks.csv" ] || err "trunks.csv written without structured cabling"
python3 - "$out" <<'PY' || err "trunk columns filled without structured cabling"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/cabling.csv")))
sys.exit(1 if any(r["trunk"] or r["a_panel"] for r in rows) else 0)
PY

# Racks with no room for their panels: exit 2, the rack and the space named, nothing written.
out=$tmp/full
"$clusterc" build -q examples/dgx-h100-superpod.cluster -o "$out" --set 'dgx_rack.nodes_per_rack=6' --set 'dgx_rack.reserved=0 U' \
	--set 'dgx_rack.power_limit=80 kW' --set 'superpod_air.max_rack_power=80 kW' \
	--set compute.patch_panel=MPO12_PANEL_1U --set 'compute.trunks=[MPO12_TRUNK_OM4, MPO12_TRUNK_OS2]' 2>"$tmp/full.err"
rc=$?
[ $rc -eq 2 ] || err "no room for panels: exit $rc, not 2"
grep -q "needs 1 U for the patch panels of fabric 'compute', but its devices leave 0 U" "$tmp/full.err" ||
	err "no room for panels: $(head -1 "$tmp/full.err")"
[ ! -e "$out" ] || err "a failed build left $out"

# Trunk and panel names follow the racks: dropping two nodes keeps every surviving trunk.
out=$tmp/su30
sed 's/32 x DGX_H100/30 x DGX_H100/' tests/trunks/superpod-trunks.cluster >"$tmp/su30.cluster"
"$clusterc" build -q "$tmp/su30.cluster" -o "$out" || err "build 30 nodes"
python3 - "$tmp/su" "$out" <<'PY' || err "trunk names not stable"
import csv, sys
a = {t["trunk"]: (t["a_rack"], t["z_rack"]) for t in csv.DictReader(open(sys.argv[1] + "/trunks.csv"))}
b = {t["trunk"]: (t["a_rack"], t["z_rack"]) for t in csv.DictReader(open(sys.argv[2] + "/trunks.csv"))}
moved = [k for k in b if k in a and a[k] != b[k]]
sys.exit(1 if moved or not set(b) & set(a) else 0)
PY

[ $fail -eq 0 ] && echo "trunks: ok" || echo "trunks: $fail failed"
exit $fail
