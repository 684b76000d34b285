#!/bin/sh
# tests/pull.sh CLUSTERC SOURCE_DIR — pull sheets and labels (issue 16), on the SuperPOD (rows A
# to D: runs between rows and within a row) and tests/infiniband/ib-pods.cluster (ToRs in the
# server racks: cables inside a rack):
#   - pull-sheets.csv holds every cable of cabling.csv once, with its length, part and ends;
#   - the sheet is the rule of docs/output.md: a cable inside a rack on rack-RACK, any other
#     on row-ROW of its A end; the run is inter-row exactly when the two rows differ;
#   - the order: sheets row-* then rack-*, seq 1, 2, ... on each; on a row sheet the runs to
#     other rows before the runs within the row, each longest first; on a rack sheet from
#     the lowest U up;
#   - the legs of an assembly (twin-port or breakout cable, splitter fibre) are one part: they
#     follow one another, their assembly column is cabling.csv's, and totals count parts;
#   - pull-sheets.md gives each sheet's totals, equal to the CSV's (parts, metres, per part
#     and length), and one line per pull;
#   - labels.csv has one tag per cable in cabling.csv's order: the id, "RACK U<n> DEVICE PORT"
#     of each end, the length, and the one-line tag made of them.
set -u
. "$(dirname "$0")/lib.sh"
for spec in examples/dgx-h100-superpod.cluster tests/infiniband/ib-pods.cluster; do
	name=$(basename "$spec" .cluster)
	"$clusterc" build -q "$spec" -o "$tmp/$name" --emit cabling.csv,pull-sheets,labels.csv ||
		{ echo "FAIL: $spec did not build"; fail=$((fail + 1)); continue; }
	python3 - "$tmp/$name" "$name" <<'PY' || fail=$((fail + 1))
import csv, re, sys
from collections import Counter
d, name = sys.argv[1], sys.argv[2]
bad = 0
def check(ok, what):
    global bad
    if not ok:
        if bad < 10:
            print(f"FAIL: {name}: {what}")
        bad += 1
def read(f):
    return list(csv.DictReader(open(f"{d}/{f}", newline="")))
cab, pull, lab = read("cabling.csv"), read("pull-sheets.csv"), read("labels.csv")
by_id = {c["cable_id"]: c for c in cab}
check(sorted(p["cable_id"] for p in pull) == sorted(by_id), "pull-sheets.csv does not hold every cable once")
runs = Counter()
for p in pull:
    c = by_id.get(p["cable_id"])
    if not c:
        continue
    for end, src in (("from", "a"), ("to", "z")):
        for k in ("row", "rack", "u", "device", "port"):
            check(p[f"{end}_{k}"] == c[f"{src}_{k}"], f"{p['cable_id']}: {end}_{k} {p[end + '_' + k]!r}, cabling.csv {c[src + '_' + k]!r}")
    check(p["length_m"] == c["length_m"] and p["cable_model"] == c["cable_model"], f"{p['cable_id']}: length or part")
    check(p["assembly"] == c["assembly"], f"{p['cable_id']}: assembly {p['assembly']!r}, cabling.csv {c['assembly']!r}")
    if c["a_rack"] == c["z_rack"]:
        want_sheet, want_run = "rack-" + c["a_rack"], "in-rack"
    else:
        want_sheet = "row-" + c["a_row"]
        want_run = "in-row" if c["a_row"] == c["z_row"] else "inter-row"
    check((p["sheet"], p["run"]) == (want_sheet, want_run), f"{p['cable_id']}: {p['sheet']} {p['run']}, want {want_sheet} {want_run}")
    runs[p["run"]] += 1
print(f"{name}: {len(pull)} pulls, {dict(runs)}")
sheets = []
for p in pull:
    if not sheets or sheets[-1][0] != p["sheet"]:
        sheets.append((p["sheet"], []))
    sheets[-1][1].append(p)
names = [s for s, _ in sheets]
check(len(set(names)) == len(names), "a sheet's rows are not together")
kinds = [s.split("-")[0] for s in names]
check(kinds == sorted(kinds, key=lambda k: k != "row"), "rack sheets before row sheets")
order = {"inter-row": 0, "in-row": 1, "in-rack": 2}
for s, ps in sheets:
    check([int(p["seq"]) for p in ps] == list(range(1, len(ps) + 1)), f"{s}: seq is not 1..{len(ps)}")
    seen, prev = set(), None
    for p in ps:
        a = p["assembly"]
        check(a == prev or a not in seen, f"{s}: the legs of {a} are not together")
        seen.add(a)
        prev = a
    if s.startswith("row-"):
        key = [(order[p["run"]], -float(p["length_m"])) for p in ps]
    else:
        key = [int(p["from_u"]) for p in ps]
    check(key == sorted(key), f"{s}: not in pull order")
md = open(f"{d}/pull-sheets.md").read()
for s, ps in sheets:
    body = md.split(f"\n## {s}\n", 1)
    check(len(body) == 2, f"pull-sheets.md has no sheet {s}")
    if len(body) < 2:
        continue
    body = body[1].split("\n## ", 1)[0]
    m = re.search(r"Totals: (\d+) cables?, ([\d.]+) m\.", body)
    heads = [p for p in ps if p["assembly"] == p["cable_id"]]
    metres = sum(float(p["length_m"]) for p in heads)
    check(m and int(m.group(1)) == len(heads) and abs(float(m.group(2)) - metres) < 0.01,
          f"{s}: md totals {m and m.groups()}, csv {len(heads)} parts {metres:.2f} m")
    parts = Counter((p["cable_model"], float(p["length_m"])) for p in heads)
    rows = re.findall(r"^\| ([^|]+) \| ([\d.]+) \| (\d+) \|$", body, re.M)
    check(Counter({(a.strip(), float(b)): int(c) for a, b, c in rows}) == parts, f"{s}: md per-part totals")
    lines = re.findall(r"^\| (\d+) \| (C[0-9A-Z]+) \|", body, re.M)
    check([c for _, c in lines] == [p["cable_id"] for p in ps], f"{s}: md lines differ from the csv")
check([l["cable_id"] for l in lab] == [c["cable_id"] for c in cab], "labels.csv is not one tag per cable in order")
for l, c in zip(lab, cab):
    a = f"{c['a_rack']} U{c['a_u']} {c['a_device']} {c['a_port']}"
    z = f"{c['z_rack']} U{c['z_u']} {c['z_device']} {c['z_port']}"
    check((l["a_end"], l["z_end"], l["length_m"]) == (a, z, c["length_m"]), f"{l['cable_id']}: label ends {l['a_end']!r} {l['z_end']!r}")
    check(l["tag"] == f"{c['cable_id']} | {a} | {z} | {c['length_m']} m", f"{l['cable_id']}: tag {l['tag']!r}")
sys.exit(1 if bad else 0)
PY
done
echo "pull: $fail failed"
[ "$fail" -eq 0 ]
