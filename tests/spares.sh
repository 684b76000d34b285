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
echo "spares: $fail failed"
[ "$fail" -eq 0 ]
