#!/bin/sh
# hpn.sh CLUSTERC ROOT — examples/alibaba-hpn.cluster comes out as published.
#
# Source: Qian et al., "Alibaba HPN: A Data Center Network for Large Language Model
# Training", SIGCOMM 2024: hosts of 8 GPUs, each with a 2 x 200G NIC; dual-ToR (the two ports
# of a NIC on two different ToRs) and dual-plane (port 1 of every NIC on plane 1, port 2 on
# plane 2); a segment of 1,024 GPUs (128 hosts) under 16 ToRs (8 rails x 2 planes), each ToR
# a 51.2 Tb/s chip with 128 x 200G down, 8 backup ports and 60 x 400G up (about 1.067:1); a
# pod of 15 segments, 15K GPUs, under 60 aggregation switches a plane with 120 down ports
# each.
#
# So, for the example's 2 segments: 2,048 GPUs, 32 ToRs, 128 + 60 ports wired a ToR and 8
# left free, every NIC's two ports on two planes and two ToRs, no cable on a backup port; and
# for scenario `pod`: 15,360 GPUs, 15 segments, 240 ToRs, 120 aggregation switches of 120
# down links; for scenario `dual_tor_in_rack` (ToRs in the server racks, no rails): two ToRs
# a set of 4 racks, each NIC on both. The hosts' frontend NIC is on a second fabric of its own:
# every host once.
set -u
clusterc=$1 root=$2
cd "$root" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$clusterc" build -q examples/alibaba-hpn.cluster -o "$tmp/out" || { echo "FAIL: build"; exit 1; }
"$clusterc" build -q --emit report.json examples/alibaba-hpn.cluster --scenario pod -o "$tmp/pod" ||
	{ echo "FAIL: build --scenario pod"; exit 1; }
"$clusterc" build -q --emit report.json,cabling.csv examples/alibaba-hpn.cluster --scenario dual_tor_in_rack \
	-o "$tmp/tor" || { echo "FAIL: build --scenario dual_tor_in_rack"; exit 1; }
python3 - "$tmp/out" "$tmp/pod" "$tmp/tor" <<'PY'
import csv, json, re, sys
out, pod, tor = sys.argv[1], sys.argv[2], sys.argv[3]
fails = []
def want(what, got, expected):
    if got != expected:
        fails.append("%s: %r, expected %r" % (what, got, expected))
r = json.load(open(out + "/report.json"))
want("accelerators", r["totals"]["accelerators"], 2048)
f = r["fabrics"][0]
want("planes", f["planes"], 2)
want("plane assignment", f["plane_assignment"], "by_port")
want("backup ports per ToR", f["backup_ports_per_tor"], 8)
want("ToRs per rack (leaves in network racks)", f["tors_per_rack"], None)
want("segments", f["scalable_units"], 2)
want("ToRs", f["switches_by_tier"]["leaf"], 2 * 16)
leaf, spine = f["per_tier"][0], f["per_tier"][1]
want("ToR down links (200G)", (leaf["down_ports"], leaf["link_gbps"]), (128, 200.0))
want("ToR up links (400G)", (leaf["up_ports"], spine["link_gbps"]), (60, 400.0))
want("ToR ports wired", leaf["ports_used"], 188)
if abs(leaf["oversubscription"] - 25.6 / 24) > 1e-3:
    fails.append("ToR oversubscription %r, the paper's 25.6T:24T is 1.067" % leaf["oversubscription"])
# Every NIC's two ports: two planes, two ToRs; port j on plane j. Host ports are their RDMA
# devices (passes/ir/ir.c): the 2 x 200G NIC i (from 0) has mlx5_(2i) and mlx5_(2i+1).
ends = {}
backup = set()
fe = {}
with open(out + "/cabling.csv") as fh:
    for row in csv.DictReader(fh):
        if row["fabric"] != "backend":
            fe.setdefault(row["tier"], []).append(row)
            continue
        if row["tier"] == "node-leaf":
            k = int(re.match(r"mlx5_(\d+)$", row["a_port"]).group(1))
            want("plane of %s:%s" % (row["a_device"], row["a_port"]), row["plane"], str(k % 2 + 1))
            ends.setdefault((row["a_device"], k // 2), []).append(row["z_device"])
        for side in ("a", "z"):
            if "leaf" in row[side + "_device"]:
                # SONiC's EthernetN, N the first lane: the physical port at 4 lanes a port
                p = int(re.match(r"Ethernet(\d+)$", row[side + "_port"]).group(1)) // 4 + 1
                if 65 <= p <= 68:  # 64 ports of 2 x 200G down, then 4 of backups, then 60 up
                    backup.add("%s:%s" % (row[side + "_device"], row[side + "_port"]))
want("NICs cabled", len(ends), 256 * 8)
bad = [k for k, v in ends.items() if len(v) != 2 or v[0] == v[1] or v[0].split("-")[1] == v[1].split("-")[1]]
if bad:
    fails.append("%d NICs not on two ToRs of two planes (first %r)" % (len(bad), bad[0]))
if backup:
    fails.append("backup ports cabled: %s" % sorted(backup)[:3])
# The frontend: the same hosts on a fabric of their own (one 400G NIC each), its own pools.
g = r["fabrics"][1]
want("second fabric", (g["name"], g["planes"]), ("frontend", 1))
hosts = sorted(x["a_device"] for x in fe.get("node-leaf", []))
want("hosts on the frontend, once each", (len(hosts), len(set(hosts))), (256, 256))
# The ninth NIC, after eight of two ports: the host's 17th RDMA device.
want("frontend NIC port", sorted(set(x["a_port"] for x in fe.get("node-leaf", []))), ["mlx5_16"])
p = json.load(open(pod + "/report.json"))
want("pod GPUs", p["totals"]["accelerators"], 15360)
pf = p["fabrics"][0]
want("pod segments", pf["scalable_units"], 15)
want("pod ToRs", pf["switches_by_tier"]["leaf"], 15 * 16)
want("pod aggregation switches", pf["switches_by_tier"]["spine"], 2 * 60)
want("aggregation down links", pf["per_tier"][1]["ports_used"], 120)
# Dual-ToR in the server racks: two ToRs a rack set, a NIC's two ports on both, in its rack.
t = json.load(open(tor + "/report.json"))["fabrics"][0]
want("ToRs per rack", t["tors_per_rack"], 2)
want("racks per ToR", t["racks_per_leaf"], 4)
pair = {}
with open(tor + "/cabling.csv") as fh:
    for row in csv.DictReader(fh):
        if row["tier"] == "node-leaf" and row["fabric"] == "backend":
            nic = int(re.match(r"mlx5_(\d+)$", row["a_port"]).group(1)) // 2
            pair.setdefault((row["a_device"], nic), []).append(row)
bad = [k for k, v in pair.items()
       if len(v) != 2 or v[0]["z_device"] == v[1]["z_device"] or {v[0]["plane"], v[1]["plane"]} != {"1", "2"}]
if bad:
    fails.append("%d NICs not on the two ToRs of their racks (first %r)" % (len(bad), bad[0]))
for m in fails:
    print("FAIL: " + m)
sys.exit(1 if fails else 0)
PY
