#!/bin/sh
# meta24k.sh CLUSTERC ROOT — examples/meta-24k-roce.cluster comes out as published.
#
# Source: Dubey et al., "The Llama 3 Herd of Models", arXiv:2407.21783 (2024), section 3.3.1,
# "Network topology": 24K GPUs in a three-layer Clos; "each rack hosts 16 GPUs split between
# two servers and connected by a single Minipack2 top-of-the-rack (ToR) switch"; "192 such
# racks are connected by Cluster Switches to form a pod of 3,072 GPUs with full bisection
# bandwidth"; "eight such pods ... are connected via Aggregation Switches"; "an
# oversubscription ratio of 1:7" at the aggregation layer.
#
# So: 24,576 GPUs, 3,072 servers, 1,536 racks and ToRs, every ToR in a server rack with its
# two servers, 8 pods of 192 ToRs and 3,072 GPUs, 1:1 inside a pod, and across pods about
# 400 Gb/s / 7 = 57.1 Gb/s per GPU (whole links: 192:27 at the cluster switch, 56.25 Gb/s;
# within 3 % of the paper's ratio). Also: the ToR layer wires 32 ports (16 down, 16 up) and
# the cluster switches 192 down.
set -u
clusterc=$1 root=$2
cd "$root" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$clusterc" build -q examples/meta-24k-roce.cluster -o "$tmp/out" || { echo "FAIL: build"; exit 1; }
python3 - "$tmp/out" <<'PY'
import csv, json, sys
out = sys.argv[1]
r = json.load(open(out + "/report.json"))
fails = []
def want(what, got, expected):
    if got != expected:
        fails.append("%s: %r, expected %r" % (what, got, expected))
t = r["totals"]
want("accelerators", t["accelerators"], 24576)
want("servers", t["nodes"], 3072)
f = r["fabrics"][0]
want("tiers", f["tiers"], 3)
want("ToRs", f["switches_by_tier"]["leaf"], 1536)
want("leaf placement", f["leaf_placement"], "server_rack")
want("racks per ToR", f["racks_per_leaf"], 1)
want("pods", f["pods"], 8)
want("ToRs per pod", f["pod_leaves"], 192)
want("GPUs per pod", f["pod_endpoints"], 3072)
leaf, spine = f["per_tier"][0], f["per_tier"][1]
want("ToR model", leaf["switch_model"], "MINIPACK2")
want("ToR down ports", leaf["down_ports"], 16)
want("ToR up ports", leaf["up_ports"], 16)
want("ToR ports used", leaf["ports_used"], 32)
want("in-pod oversubscription", leaf["oversubscription"], 1.0)
want("cluster switch down ports", spine["down_ports"], 192)
per_gpu = spine["uplink_gbps_per_endpoint"]
paper = 400 / 7
if abs(per_gpu - paper) / paper > 0.03:
    fails.append("across pods %.2f Gb/s per GPU, the paper's 1:7 gives %.2f" % (per_gpu, paper))
if abs(spine["oversubscription"] - 7) / 7 > 0.03:
    fails.append("cross-pod oversubscription %.4f, expected about 7" % spine["oversubscription"])
# Every ToR stands in the server rack of the two servers it serves.
rack_of = {}
servers = {}
with open(out + "/racks.csv") as fh:
    for row in csv.DictReader(fh):
        rack_of[row["device"]] = row["rack"]
        if row["kind"] == "node":
            servers.setdefault(row["rack"], []).append(row["device"])
with open(out + "/cabling.csv") as fh:
    rows = list(csv.DictReader(fh))
tor_racks = set()
for row in rows:
    if row.get("tier") != "node-leaf":
        continue
    a, z = row["a_device"], row["z_device"]
    if rack_of.get(a) != rack_of.get(z):
        fails.append("%s (rack %s) cabled to ToR %s in rack %s" % (a, rack_of.get(a), z, rack_of.get(z)))
        break
    tor_racks.add(rack_of[z])
want("racks with a ToR", len(tor_racks), 1536)
want("servers per rack", sorted(set(len(v) for v in servers.values())), [2])
for m in fails:
    print("FAIL: " + m)
print("meta24k: %d failed" % len(fails))
sys.exit(1 if fails else 0)
PY
