#!/bin/sh
# tests/spares.sh CLUSTERC SOURCE_DIR — spare parts by a stated rate (issue 16): the defaults
# (switches 5 %, optics 2 %, cables 1 %: lang/schema.def gives their sources) on
# examples/roce-spectrum4.cluster (switches, transceivers and fibre), and rates from --set
# (switches 10 %, optics 50 %, cables 0) on the same spec. In each build:
#   - every switch, optic and cable line of bom.csv has a spare line of ceil(quantity x rate)
#     of the same model and unit price, and no other spare line is there (none at rate 0);
#   - spare lines draw no power; their totals sum to report.json's capex_by_category.spares,
#     which the categories' sum to the capex includes; report.json's spares give the rates
#     and the counts of the BOM's lines.
set -u
. "$(dirname "$0")/lib.sh"
spec=examples/roce-spectrum4.cluster
"$clusterc" build -q "$spec" -o "$tmp/default" --emit bom.csv,report.json || { echo "FAIL: build $spec"; exit 1; }
"$clusterc" build -q "$spec" -o "$tmp/set" --emit bom.csv,report.json --set spx.spare_switches=0.1 \
	--set spx.spare_optics=0.5 --set spx.spare_cables=0 || { echo "FAIL: build $spec with --set"; exit 1; }
for run in "default 0.05 0.02 0.01" "set 0.1 0.5 0"; do
	set -- $run
	python3 - "$tmp/$1" "$2" "$3" "$4" <<'PY' || fail=$((fail + 1))
import csv, json, math, sys
d, rates = sys.argv[1], {"switch": float(sys.argv[2]), "optic": float(sys.argv[3]), "cable": float(sys.argv[4])}
bad = 0
def check(ok, what):
    global bad
    if not ok:
        print(f"FAIL: {d}: {what}"); bad += 1
lines = [l for l in csv.DictReader(open(d + "/bom.csv", newline="")) if l["part"] != "total"]
spare = {(l["part"][6:], l["model"]): l for l in lines if l["part"].startswith("spare ")}
want, counts = {}, {"switch": 0, "optic": 0, "cable": 0}
for l in lines:
    if l["part"] in rates:
        n = math.ceil(float(l["quantity"]) * rates[l["part"]] - 1e-9)
        if n > 0:
            want[(l["part"], l["model"])] = (n, l["unit_price"])
            counts[l["part"]] += n
check(set(spare) == set(want), f"spare lines {sorted(spare)}, want {sorted(want)}")
for k, (n, price) in want.items():
    s = spare.get(k)
    if s:
        check(int(s["quantity"]) == n and s["unit_price"] == price and float(s["power_kw"]) == 0,
              f"{k}: {s['quantity']} at {s['unit_price']} ({s['power_kw']} kW), want {n} at {price}, no power")
r = json.load(open(d + "/report.json"))
total = sum(float(s["total"]) for s in spare.values())
check(abs(r["capex_by_category"]["spares"] - total) < 0.01, f"spares capex {r['capex_by_category']['spares']}, BOM {total}")
check(abs(sum(r["capex_by_category"].values()) - r["totals"]["capex"]) < 1, "the categories do not sum to the capex")
for kind, key in (("switch", "switches"), ("optic", "optics"), ("cable", "cables")):
    check(r["spares"][key] == {"rate": rates[kind], "count": counts[kind]}, f"report.json spares.{key} {r['spares'][key]}")
check(r["spares"]["capex"] == r["capex_by_category"]["spares"], "spares.capex")
print(f"{d}: {counts} spares, {total:.2f}")
sys.exit(1 if bad else 0)
PY
done
# Hot spares as hardware (cluster.hot_spares, docs/reliability.md): examples/wanka.cluster with 19
# (1,250 + 19 DGX H100 in 40 scalable units of 32) against the same spec without:
#   - report.json: 19 more nodes and 152 more accelerators, totals.hot_spare_nodes 19, the
#     same switches (the SUs hold them), IT power up by 19 x 10.2 kW, capex by 19 nodes' price
#     or more; reliability.spares installed 19 with the coverage P(Poisson(10.89) <= 19);
#   - bom.csv: "node" 1,250 (the hall's 1,000 and the tank row's 250) and "hot spare node" 19
#     at the node's price and power;
#   - racks.csv: 19 rows of kind "hot spare node", at most one in a scalable unit (hostnames
#     in node order: SU = node index / 32), each its SU's last node of the hall's group;
#     netbox/devices.csv gives
#     them role gpu-node-hot-spare;
#   - the plan's hostfile and rankfile name no spare; the cluster's hostfile lists the 1,250
#     nodes in service.
# Both at 17 MW: the 19 spares' 194 kW take wanka past its hall's 16 MW.
"$clusterc" build -q examples/wanka.cluster -o "$tmp/w0" --set hall_b.power_budget=17MW \
	--emit report.json || { echo "FAIL: build wanka"; exit 1; }
"$clusterc" build -q examples/wanka.cluster -o "$tmp/w19" --set wanka.hot_spares=19 --set hall_b.power_budget=17MW \
	--emit report.json,bom.csv,racks.csv,netbox,parallelism,hostfile || { echo "FAIL: build wanka with hot spares"; exit 1; }
python3 - "$tmp/w0" "$tmp/w19" <<'PY' || fail=$((fail + 1))
import csv, json, math, sys
d0, d = sys.argv[1], sys.argv[2]
bad = 0
def check(ok, what):
    global bad
    if not ok:
        print(f"FAIL: hot spares: {what}"); bad += 1
r0, r = json.load(open(d0 + "/report.json")), json.load(open(d + "/report.json"))
t0, t = r0["totals"], r["totals"]
check(t["nodes"] == t0["nodes"] + 19 and t["accelerators"] == t0["accelerators"] + 152, f"nodes {t['nodes']}")
check(t["hot_spare_nodes"] == 19 and t0["hot_spare_nodes"] == 0, "totals.hot_spare_nodes")
check(t["switches"] == t0["switches"], f"switches {t0['switches']} -> {t['switches']}")
check(t["it_power_kw"] - t0["it_power_kw"] >= 19 * 10.2 - 1e-6, f"IT power {t0['it_power_kw']} -> {t['it_power_kw']}")
check(t["capex"] - t0["capex"] >= 19 * 2_000_000 - 1, "capex")
sp = r["reliability"]["spares"]
mean = sp["nodes_down_mean"]
cdf = sum(math.exp(-mean + k * math.log(mean) - math.lgamma(k + 1)) for k in range(20))
check(sp["hot_spare_nodes_installed"] == 19 and abs(sp["hot_spare_coverage"] - cdf) < 1e-4, f"spares {sp}")
lines = list(csv.DictReader(open(d + "/bom.csv", newline="")))
bom = {l["part"]: l for l in lines}
nodes = sum(float(l["quantity"]) for l in lines if l["part"] == "node")  # the hall's and the tanks'
check(nodes == 1250 and float(bom["hot spare node"]["quantity"]) == 19, "bom lines")
check(bom["hot spare node"]["unit_price"] == bom["node"]["unit_price"], "hot spare price")
rows = [x for x in csv.DictReader(open(d + "/racks.csv", newline="")) if x["kind"] == "hot spare node"]
names = sorted(x["device"] for x in rows)
check(len(names) == 19, f"{len(names)} hot spare rows in racks.csv")
idx = [int(n[3:]) - 1 for n in names]  # gpu{index:04}
sus = [i // 32 for i in idx]
check(len(set(sus)) == 19, f"spares share a scalable unit: {sus}")
# The hall's group (1,000 + 19 nodes, node indices 0-1018) takes them; its last SU is shared
# with the tank row's group, so its spare is the group's last node there.
check(all(i % 32 == 31 or i == 1018 for i in idx), f"spares not their SU's last node: {idx}")
roles = {x["name"]: x["role"] for x in csv.DictReader(open(d + "/netbox/devices.csv", newline=""))}
check(all(roles[n] == "gpu-node-hot-spare" for n in names), "NetBox roles")
check(sum(1 for v in roles.values() if v == "gpu-node") == 1250, "NetBox gpu-node count")
plan = set()
for f in ("hostfile", "rankfile"):
    for line in open(d + "/parallelism/gpt3_175b." + f):
        plan.update(w.split("=")[-1] for w in line.split() if w.startswith("gpu") or "=gpu" in w)
check(plan and not (plan & set(names)), f"the plan names a spare: {sorted(plan & set(names))[:3]}")
hosts = [l.split()[0] for l in open(d + "/hostfile")]
check(len(hosts) == 1250 and not (set(hosts) & set(names)), f"hostfile: {len(hosts)} hosts")
print(f"hot spares: 19 in SUs {sus[:5]}..., coverage {sp['hot_spare_coverage']}")
sys.exit(1 if bad else 0)
PY
# Hot spares inside NVL72 domains (examples/scale-100k.cluster, 1,400 domains of 18 trays): 5 asked
# are 1 tray in each domain, 1,400 in all; a located warning at the field says so, none when the
# count is a multiple of the domains (2,800: 2 a domain).
"$clusterc" build -q examples/scale-100k.cluster -o "$tmp/nvl5" --set frontier.hot_spares=5 \
	--emit report.json 2>"$tmp/nvl5.err" || { echo "FAIL: build scale-100k with hot spares"; exit 1; }
grep -q '^--set:1:21: warning: hot_spares = 5 installs 1400: .* 1400 scale-up domains of gb200_nvl72_tray.*(1 of its 18 trays), so the count is rounded up' "$tmp/nvl5.err" ||
	{ echo "FAIL: no located warning for 5 hot spares rounded up to 1,400"; cat "$tmp/nvl5.err"; fail=$((fail + 1)); }
"$clusterc" build -q examples/scale-100k.cluster -o "$tmp/nvl2800" --set frontier.hot_spares=2800 \
	--emit report.json 2>"$tmp/nvl2800.err" || { echo "FAIL: build scale-100k with 2,800 hot spares"; exit 1; }
if grep -q "hot_spares" "$tmp/nvl2800.err"; then
	echo "FAIL: a warning for 2,800 hot spares on 1,400 domains"; fail=$((fail + 1))
fi
echo "spares: $fail failed"
[ "$fail" -eq 0 ]
