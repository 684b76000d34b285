#!/bin/sh
# tests/facts.sh CLUSTERC SOURCE_DIR — a fact the IR holds is printed the same way by every
# artifact that prints it (tests/facts/*.cluster say which).
set -u
. "$(dirname "$0")/lib.sh"

# A rack's cap: power class 100 kW, cooling 60 kW -> 60 kW everywhere (it was 100 kW in
# report.md and 60 kW in racks.csv).
"$clusterc" build -q tests/facts/rack-cap.cluster -o "$tmp/cap" || err "rack-cap did not build"
# 60 kW / 10 kW: 6 nodes a rack, 4 racks.
awk -F, 'NR > 1 && $2 != "" { print $0 }' "$tmp/cap/racks.csv" >/dev/null
limits=$(python3 - "$tmp/cap/racks.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
col = [k for k in rows[0] if 'limit' in k][0]
print(sorted(set(r[col] for r in rows)))
PY
)
[ "$limits" = "['60.000']" ] || [ "$limits" = "['60']" ] || err "racks.csv limits: $limits"
grep -q '^| r | rdhx | 4 | 6 | 60 | 60 |$' "$tmp/cap/report.md" ||
	{ err "report.md's rack table does not give the 60 kW cap"; grep '^| r |' "$tmp/cap/report.md"; }
echo "facts: $fail failed"
[ "$fail" -eq 0 ]
