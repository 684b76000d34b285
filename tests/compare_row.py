"""compare_row.py COMPARISON.JSON REPORT.JSON SCENARIO — exits non-zero, saying what differs,
unless the comparison's row of SCENARIO carries the same totals and per-workload figures as the
report.json of that scenario's own `clusterc build` (tests/compare.sh)."""
import json, sys
cmp, rep, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
row = next(r for r in cmp["rows"] if r["scenario"] == name)
t = rep["totals"]
for k in ("accelerators", "nodes", "racks", "switches", "cables", "it_power_kw",
          "facility_power_kw", "capex", "annual_energy_kwh", "annual_energy_cost", "tco"):
    if row[k] != t[k]:
        sys.exit(f"{name}: {k} is {row[k]} in the comparison, {t[k]} in report.json")
for w in rep["workloads"]:
    x = next(x for x in row["workloads"] if x["name"] == w["name"])
    for k in ("time_to_train_days", "energy_to_train_mwh", "energy_to_train_cost", "mfu"):
        if x[k] != w[k]:
            sys.exit(f"{name}: {w['name']}.{k} is {x[k]} in the comparison, {w[k]} in report.json")
