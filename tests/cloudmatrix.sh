#!/bin/sh
# cloudmatrix.sh CLUSTERC ROOT — scale-up domains over several racks (docs/scale-up.md).
#
# examples/cloudmatrix-384.cluster against Huawei CloudMatrix384 as published:
#   Zuo et al., "Serving Large Language Models on Huawei CloudMatrix384", arXiv 2506.12708
#   (2025-06), section 3: 384 Ascend 910C NPUs in ONE scale-up (UB) domain; 48 nodes of 8 NPUs
#   and 4 Kunpeng CPUs (192 CPUs); 16 racks = 12 compute racks of 32 NPUs + 4 communication
#   racks; 112 L2 UB switches (7 sub-planes x 16) of 48 ports; 48 x 7 x 16 = 5,376 L1-L2 links,
#   every one between racks.
#   HiSilicon and Huawei, 2025 Chip and Optical Forum (2025-05-14, reported by QSFPTEK):
#   6,912 x 400G OSFP LPO modules per supernode (here: 5,376 on the UB plane, two links per
#   module, and 1,536 on the RDMA plane, 384 NPUs x 4: node-leaf and leaf-spine, both ends).
# Then an NVL576-style flat domain (8 NVL72-class racks, trays with the nodes: links inside a
# rack stay backplane, the others are cables), the single-rack NVL72 unchanged (no cables),
# and the placement rules: a domain's racks side by side in one row, never split by network
# racks, switches in the racks racks.c planned.
set -u
. "$(dirname "$0")/lib.sh"
export CLUSTERC_STDLIB="$root/stdlib"

# json FILE EXPR: a value of report.json by a Python expression over r.
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }
expect() { # what got want
	[ "$2" = "$3" ] || err "$1: got $2, want $3"
}

out=$tmp/cm
"$clusterc" build -q examples/cloudmatrix-384.cluster -o "$out" || { err "build cloudmatrix-384"; exit 1; }
r=$out/report.json
expect "accelerators" "$(json "$r" 'r["totals"]["accelerators"]')" 384
expect "nodes" "$(json "$r" 'r["totals"]["nodes"]')" 48
expect "cpus (192 Kunpeng)" "$(json "$r" 'r["totals"]["cpus"]')" 192
expect "scale-up domains" "$(json "$r" 'r["scale_up"][0]["domains"]')" 1
expect "accelerators per domain" "$(json "$r" 'r["scale_up"][0]["domain_accelerators"]')" 384
expect "racks per domain (12 + 4)" "$(json "$r" 'r["scale_up"][0]["racks_per_domain"]')" 16
expect "compute racks per domain" "$(json "$r" 'r["scale_up"][0]["node_racks_per_domain"]')" 12
expect "switch racks per domain" "$(json "$r" 'r["scale_up"][0]["switch_racks_per_domain"]')" 4
expect "L2 UB switches" "$(json "$r" 'r["scale_up"][0]["switches"]')" 112
expect "L2 UB switch chips" "$(json "$r" 'r["scale_up"][0]["switch_chips"]')" 112
expect "UB links (48 x 7 x 16)" "$(json "$r" 'r["scale_up"][0]["links"]')" 5376
expect "UB links between racks" "$(json "$r" 'r["scale_up"][0]["inter_rack_links"]')" 5376
expect "UB backplane links" "$(json "$r" 'r["scale_up"][0]["backplane_links"]')" 0
# 392 GB/s per NPU each way (14 links x 28 GB/s): 784 GB/s both ways = 6,272 Gb/s.
expect "UB bandwidth" "$(json "$r" 'r["scale_up"][0]["bandwidth_gbps_per_accelerator"]')" 6272.0
# The cables: every UB link and every RDMA link, one row each.
expect "cables" "$(json "$r" 'r["totals"]["cables"]')" 6144
rows=$(awk -F, 'NR > 1 && $24 == "scale-up"' "$out/cabling.csv" | wc -l)
expect "scale-up rows of cabling.csv" "$rows" 5376
# Optics: 6,912 x 400G modules, the published count.
bom() { python3 -c 'import csv, sys
print(sum(int(r["quantity"]) for r in csv.DictReader(open(sys.argv[1])) if r["part"] == "optic" and r["model"] == sys.argv[2]))' "$@"; }
lpo=$(bom "$out/bom.csv" LPO_400G_UB)
dr4=$(bom "$out/bom.csv" DR4_400G)
expect "UB LPO modules" "$lpo" 5376
expect "RDMA modules" "$dr4" 1536
expect "400G modules in all (published 6,912)" "$((lpo + dr4))" 6912
# A cable's two ends in two racks of the domain, each link's switch end on an L2 switch.
awk -F, 'NR > 1 && $24 == "scale-up" && ($5 == $12 || $14 !~ /-sw[0-9]+$/) { bad++ }
	END { exit bad > 0 }' "$out/cabling.csv" || err "a scale-up cable stays in one rack or misses a switch"
# The domain's 16 racks side by side in one row: 12 of nodes, 4 of switches (28 each) in the
# middle; network racks of the RDMA plane outside them.
python3 - "$out/racks.csv" <<'EOF' || fail=$((fail + 1))
import csv, sys
racks = {}
for row in csv.DictReader(open(sys.argv[1])):
    r = racks.setdefault(row["rack"], {"row": row["row"], "pos": int(row["position"]), "kinds": [], "models": []})
    r["kinds"].append(row["kind"]); r["models"].append(row["model"])
order = sorted(racks, key=lambda k: (racks[k]["row"], racks[k]["pos"]))
dom = [k for k in order if "CM384_NODE" in racks[k]["models"] or "UB_L2_SWITCH" in racks[k]["models"]]
bad = []
if len(dom) != 16: bad.append("%d racks hold the domain, not 16" % len(dom))
if len({racks[k]["row"] for k in dom}) != 1: bad.append("the domain spans rows")
pos = [racks[k]["pos"] for k in dom]
if pos != list(range(pos[0], pos[0] + len(pos))): bad.append("the domain's racks are not side by side: %s" % pos)
pattern = ["n" if "CM384_NODE" in racks[k]["models"] else "s" for k in dom]
if "".join(pattern) != "n" * 6 + "s" * 4 + "n" * 6: bad.append("racks in order %s" % "".join(pattern))
for k in dom:
    m = racks[k]["models"]
    if "UB_L2_SWITCH" in m and (m.count("UB_L2_SWITCH") != 28 or "CM384_NODE" in m): bad.append(k + ": a switch rack with %d switches" % m.count("UB_L2_SWITCH"))
    if "CM384_NODE" in m and m.count("CM384_NODE") != 4: bad.append(k + ": %d nodes" % m.count("CM384_NODE"))
for b in bad: print("FAIL: cloudmatrix racks: " + b)
sys.exit(1 if bad else 0)
EOF
# The Slurm block is the domain: the 48 nodes.
grep -q '^BlockName=CM384_NODE-nvl001 Nodes=cm\[01-48\]$' "$out/slurm/topology-block.conf" ||
	err "the slurm block is not the 48-node domain"

# NVL576-style: 576 GPUs in one domain over 8 racks of 18 trays and 9 NVLink switch trays each.
cat >"$tmp/nvl576.cluster" <<'EOF'
import std.accelerators
import std.network
import std.cooling
import std.racks
import std.servers
node tray576 : gb200_nvl72_tray {
  scale_up_domain   = 576
  scale_up_racks    = 8
  scale_up_switches = 72 x NVLINK_SWITCH_TRAY
}
site s { power_budget = 10 MW; electricity = 0.08 USD/kWh; floor = grid(rows = 2, racks_per_row = 10) }
cluster c { site = s; nodes = 144 x tray576; rack = gb200_nvl72_rack }
EOF
# Its racks draw 137.8 kW with the optics of their links between racks (18.1 kW), over the
# NVL72 rack's 132 kW: a requirement not met (exit 2, said at the rack type: no zones) ...
"$clusterc" build -q "$tmp/nvl576.cluster" -o "$tmp/nvl576-over" 2>"$tmp/nvl576.err"
rc=$?
[ $rc -eq 2 ] || err "nvl576 in 132 kW racks: exit $rc, want 2"
grep -q "error: rack A01 draws 137.8 kW with its optics (18.1 kW of them); rack 'gb200_nvl72_rack' allows 132.0 kW" \
	"$tmp/nvl576.err" || err "nvl576 in 132 kW racks: no rack-power error"
# ... so the domain stands in racks of the GB300 class (140 kW: cold_plate's most).
sed -i 's/^cluster c .*$/rack r140 : gb200_nvl72_rack { power_limit = 140 kW }\ncluster c { site = s; nodes = 144 x tray576; rack = r140 }/' \
	"$tmp/nvl576.cluster"
"$clusterc" build -q "$tmp/nvl576.cluster" -o "$tmp/nvl576" || err "build nvl576"
r=$tmp/nvl576/report.json
if [ -f "$r" ]; then
	expect "nvl576 racks per domain" "$(json "$r" 'r["scale_up"][0]["racks_per_domain"]')" 8
	expect "nvl576 switch chips" "$(json "$r" 'r["scale_up"][0]["switch_chips"]')" 144
	# Each of 144 trays links once to each of 72 switch trays; 9 of them stand in its rack.
	expect "nvl576 links" "$(json "$r" 'r["scale_up"][0]["links"]')" 10368
	expect "nvl576 links between racks" "$(json "$r" 'r["scale_up"][0]["inter_rack_links"]')" 9072
	expect "nvl576 backplane links" "$(json "$r" 'r["scale_up"][0]["backplane_links"]')" 1296
	expect "nvl576 cables" "$(json "$r" 'r["totals"]["cables"]')" 9072
	expect "nvl576 racks" "$(json "$r" 'r["totals"]["racks"]')" 8
fi

# The single-rack NVL72 stays as it was: no cables between racks.
sed 's/^  scale_up_domain   = 576$/  scale_up_domain   = 72/; /scale_up_racks/d; s/72 x NVLINK/9 x NVLINK/' \
	"$tmp/nvl576.cluster" >"$tmp/nvl72.cluster"
"$clusterc" build -q "$tmp/nvl72.cluster" -o "$tmp/nvl72" || err "build nvl72"
r=$tmp/nvl72/report.json
if [ -f "$r" ]; then
	expect "nvl72 racks per domain" "$(json "$r" 'r["scale_up"][0]["racks_per_domain"]')" 1
	expect "nvl72 switch chips per domain" "$(json "$r" 'r["scale_up"][0]["switch_chips_per_domain"]')" 18
	expect "nvl72 cables" "$(json "$r" 'r["totals"]["cables"]')" 0
fi

echo "cloudmatrix: $fail failed"
[ "$fail" -eq 0 ]
