#!/bin/sh
# tests/storage.sh CLUSTERC SOURCE_DIR — storage bought once, in its own category (issue 16).
#   tests/storage/shared.cluster: 4 x fs in cluster.storage and in the fabric's endpoints are
#     one set: bom.csv has one fs line of 4, report.json's storage capex is 4 x 300,000 USD and
#     its network capex does not hold them, racks.csv and NetBox list fs-001 ... fs-004 once
#     each, in the storage rack, and the fabric's 4 storage cables end on them there.
#   tests/storage/fabric-only.cluster: 4 x fs only as endpoints: bought once, under storage
#     (it was "network"), the same network capex as the shared build.
# The contradiction (a fabric attaching more than the cluster has) is a golden of
# tests/build-errors (design-storage-endpoints).
set -u
. "$(dirname "$0")/lib.sh"
for spec in shared fabric-only; do
	"$clusterc" build -q "tests/storage/$spec.cluster" -o "$tmp/$spec" || err "$spec did not build"
done
python3 - "$tmp" <<'PY' || fail=$((fail + 1))
import csv, json, sys
tmp, bad = sys.argv[1], 0
def check(ok, what):
    global bad
    if not ok:
        print("FAIL:", what); bad += 1
price = 300_000  # fs's price in the specs
rep = {s: json.load(open(f"{tmp}/{s}/report.json")) for s in ("shared", "fabric-only")}
for s, r in rep.items():
    bom = [l for l in csv.DictReader(open(f"{tmp}/{s}/bom.csv", newline="")) if l["model"] == "fs"]
    check(len(bom) == 1 and bom[0]["quantity"] == "4" and bom[0]["part"] == "storage",
          f"{s}: bom.csv fs lines {bom}")
    cat = r["capex_by_category"]
    check(abs(cat["storage"] - 4 * price) < 0.01, f"{s}: storage capex {cat['storage']}, want {4 * price}")
    check(abs(sum(cat.values()) - r["totals"]["capex"]) < 1, f"{s}: categories do not sum to capex")
net = {s: r["capex_by_category"]["network"] for s, r in rep.items()}
check(abs(net["shared"] - net["fabric-only"]) < 0.01, f"network capex differs: {net}")
racks = list(csv.DictReader(open(f"{tmp}/shared/racks.csv", newline="")))
names = [r[k] for r in racks for k in r if r[k].startswith("fs-")]
check(sorted(names) == ["fs-001", "fs-002", "fs-003", "fs-004"], f"shared: racks.csv fs devices {names}")
place = {r[k]: (r["rack"], r["u"]) for r in racks for k in r if r[k].startswith("fs-")}
cables = [c for c in csv.DictReader(open(f"{tmp}/shared/cabling.csv", newline=""))
          if c["z_device"].startswith("fs") or c["a_device"].startswith("fs")]
check(len(cables) == 4, f"shared: {len(cables)} storage cables, want 4")
for c in cables:
    end = "a" if c["a_device"].startswith("fs") else "z"
    dev = c[end + "_device"]
    check(dev in place and (c[end + "_rack"], c[end + "_u"]) == place[dev],
          f"shared: cable {c['cable_id']} ends on {dev} at {c[end + '_rack']} U {c[end + '_u']}, racks.csv says {place.get(dev)}")
devs = [d["name"] for d in csv.DictReader(open(f"{tmp}/shared/netbox/devices.csv", newline=""))]
check(sorted(d for d in devs if d.startswith("fs")) == ["fs-001", "fs-002", "fs-003", "fs-004"],
      f"shared: NetBox devices {[d for d in devs if d.startswith('fs')]}")
sys.exit(1 if bad else 0)
PY
echo "storage: $fail failed"
[ "$fail" -eq 0 ]
