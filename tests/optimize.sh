#!/bin/sh
# optimize.sh CLUSTERC ROOT — the optimizer end to end (docs/optimization.md):
#  - glpsol (Debian package glpk-utils) solves every example's model.lp to the objective that
#    report.json's optimizer section gives;
#  - the MILP and --search=exhaustive make the same decisions at the same objective;
#  - model.lp names its rows and columns after the spec (rack48_cooling_cold_plate,
#    require_wanka_facility_power_le_hall_b_power_budget ...);
#  - cable media follow the objective: the same links get the cheap, power-hungry optic when
#    capex is minimized and the dearer frugal one when the cost of ownership over 10 years is;
#  - --time-limit and --search take only what they document (exit 64 otherwise).
set -u
clusterc=$1 root=$2
fail=0
err() { echo "FAIL: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v glpsol >/dev/null 2>&1; then
	echo "FAIL: glpsol not found (Debian package glpk-utils)"
	exit 1
fi

# A number out of report.json: the first "key": value.
json_number() { sed -n "s/.*\"$2\": \\(-\\{0,1\\}[0-9.e+-]*\\).*/\\1/p" "$1" | head -1; }
# The decisions as "declaration.field=chosen" lines.
decisions() {
	awk '/"decisions": \[/ { on = 1 } on && /"declaration"/ { split($0, a, "\""); d = a[4] }
	     on && /"field"/ { split($0, a, "\""); f = a[4] }
	     on && /"chosen"/ { split($0, a, "\""); print d "." f "=" a[4] }
	     on && /^  \]/ { on = 0 }' "$1"
}
# |a - b| <= 1e-6 |b|
close_to() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= 1e-6 * (m > 1 ? m : 1)) }'; }

solved=0
for spec in "$root"/examples/*.cluster; do
	name=$(basename "$spec" .cluster)
	out=$tmp/$name
	"$clusterc" build -q "$spec" -o "$out" --emit report.json,model.lp 2>"$tmp/$name.err"
	rc=$?
	[ $rc -eq 0 ] || { err "$name: build exit $rc"; cat "$tmp/$name.err"; continue; }
	solver=$(sed -n 's/.*"solver": "\([a-z]*\)".*/\1/p' "$out/report.json")
	[ "$solver" = glpk ] || continue
	solved=$((solved + 1))
	[ -f "$out/model.lp" ] || { err "$name: no model.lp"; continue; }
	ours=$(json_number "$out/report.json" objective)
	glpsol --lp "$out/model.lp" -o "$tmp/$name.sol" >"$tmp/$name.glpsol" 2>&1 ||
		{ err "$name: glpsol failed"; cat "$tmp/$name.glpsol"; continue; }
	grep -q "INTEGER OPTIMAL" "$tmp/$name.glpsol" || err "$name: glpsol found no proven optimum"
	theirs=$(sed -n 's/^Objective: *[A-Za-z0-9_]* = \([-0-9.e+]*\).*/\1/p' "$tmp/$name.sol")
	close_to "$theirs" "$ours" || err "$name: glpsol's objective $theirs, report.json's $ours"

	# The exhaustive search agrees.
	"$clusterc" build -q --search=exhaustive "$spec" -o "$out-ex" --emit report.json 2>/dev/null ||
		{ err "$name: --search=exhaustive failed"; continue; }
	decisions "$out/report.json" >"$tmp/$name.milp"
	decisions "$out-ex/report.json" >"$tmp/$name.ex.txt"
	[ -s "$tmp/$name.milp" ] || err "$name: no decisions read from report.json"
	cmp -s "$tmp/$name.milp" "$tmp/$name.ex.txt" ||
		{ err "$name: the MILP and the exhaustive search decide differently"; diff "$tmp/$name.milp" "$tmp/$name.ex.txt"; }
	close_to "$(json_number "$out-ex/report.json" objective)" "$ours" ||
		err "$name: exhaustive objective $(json_number "$out-ex/report.json" objective), MILP $ours"
done
[ $solved -ge 2 ] || err "only $solved examples went through the MILP"

# Names after the spec, in the flagship's model.
for want in rack48_cooling_cold_plate rack48_power_limit_40_kW require_wanka_facility_power_le_hall_b_power_budget \
	minimize_wanka_capex_plus_wanka_horizon_times_wanka_energy_cost one_rack48_cooling floor_hall_b; do
	grep -q "$want" "$tmp/wanka/model.lp" || err "wanka model.lp: no $want"
done

# Media by objective: 64 nodes on two leaf switches a few racks away; the switch cages take
# the one twin-port module, and at each NIC the hungry single-port optic saves 50 USD and
# costs 10 W more, which over 10 years at PUE 1.1 and 0.10 USD/kWh is 96.36 USD: capex takes
# the hungry optic, tco the frugal one.
cat >"$tmp/media.cluster" <<'EOF'
import std.accelerators
import std.network
import std.cooling
import std.servers

optic hungry {
  speed = 400 Gbps; reach = 100 m; fiber = os2; connector = mpo12
  power = 15 W; price = 400 USD
}
optic frugal {
  speed = 400 Gbps; reach = 100 m; fiber = os2; connector = mpo12
  power = 5 W; price = 450 USD
}
optic twin {
  speed = 400 Gbps; ports = 2; reach = 100 m; fiber = os2; connector = mpo12
  power = 10 W; price = 600 USD
}
cable fibre { type = fiber; fiber = os2; speed = 400 Gbps; reach = 100 m; price = 20 USD }
rack r { height = 48 U; power_limit = 100 kW; cooling = cold_plate }
site s {
  power_budget = 10 MW; electricity = 0.10 USD/kWh
  floor = grid(rows = 4, racks_per_row = 20); pue = 1.1
}
fabric compute {
  topology = fat_tree(tiers = 2); switch = QM9700; link = 400 Gbps
  media = [hungry, frugal, twin, fibre]
}
cluster c { site = s; nodes = 64 x DGX_H100; rack = r; fabrics = [compute]; horizon = 10 y }
EOF
for objective in capex tco; do
	{ cat "$tmp/media.cluster"; echo "minimize c.$objective"; } >"$tmp/media-$objective.cluster"
	"$clusterc" build -q "$tmp/media-$objective.cluster" -o "$tmp/media-$objective" --emit cabling.csv,report.json ||
		{ err "media-$objective: build failed"; continue; }
done
if [ -f "$tmp/media-capex/cabling.csv" ] && [ -f "$tmp/media-tco/cabling.csv" ]; then
	grep -q hungry "$tmp/media-capex/cabling.csv" || err "minimize capex: the hungry optic is not used"
	grep -q frugal "$tmp/media-capex/cabling.csv" && err "minimize capex: the frugal optic is used"
	grep -q frugal "$tmp/media-tco/cabling.csv" || err "minimize tco: the frugal optic is not used"
	grep -q hungry "$tmp/media-tco/cabling.csv" && err "minimize tco: the hungry optic is used"
fi

# Options.
"$clusterc" build -q --time-limit 0 "$tmp/media-capex.cluster" -o "$tmp/x" 2>/dev/null
[ $? -eq 64 ] || err "--time-limit 0 is not a usage error"
"$clusterc" build -q --time-limit=abc "$tmp/media-capex.cluster" -o "$tmp/x" 2>/dev/null
[ $? -eq 64 ] || err "--time-limit=abc is not a usage error"
"$clusterc" build -q --search=annealing "$tmp/media-capex.cluster" -o "$tmp/x" 2>/dev/null
[ $? -eq 64 ] || err "--search=annealing is not a usage error"
"$clusterc" build -q --time-limit 5 "$root/examples/wanka.cluster" -o "$tmp/tl" --emit report.json ||
	err "--time-limit 5 fails on the flagship"

# Fabric attributes (bisection bandwidth) in objectives: computed, linear per fabric option,
# the same decision both ways.
spec=$root/tests/optimize/bisection.cluster
for m in milp exhaustive; do
	"$clusterc" build -q "$spec" --search=$m -o "$tmp/bis-$m" --emit report.json ||
		err "$spec --search=$m: exit $?"
done
[ "$(decisions "$tmp/bis-milp/report.json")" = "$(decisions "$tmp/bis-exhaustive/report.json")" ] ||
	err "$spec: the MILP and the exhaustive search decide differently"
grep -q '"status": "optimal"' "$tmp/bis-milp/report.json" || err "$spec: the MILP is not optimal"
grep -q '"chosen": "1:1"' "$tmp/bis-milp/report.json" || err "$spec: the most bisection is not 1:1"

# A capex cap inside the cables' margin: the first decision (80 kW cold plate) breaks it once
# cabled; decided again with the cables counted per link, 40 kW air racks fit. Both ways.
spec=$root/tests/optimize/cable-margin.cluster
for m in milp exhaustive; do
	"$clusterc" build -q "$spec" --search=$m -o "$tmp/cm-$m" --emit report.json,report.md ||
		{ err "$spec --search=$m: exit $? (the cables broke the cap)"; continue; }
	python3 - "$tmp/cm-$m/report.json" <<'EOF' || err "$spec --search=$m: not air at 40 kW under the cap"
import json, sys
r = json.load(open(sys.argv[1]))
chosen = {d["field"]: d["chosen"] for d in r["decisions"]}
o = r["optimizer"]
sys.exit(not (chosen == {"power_limit": "40 kW", "cooling": "air"} and
              r["totals"]["capex"] <= 3.15e9 and o["cable_estimate_per_link"] > 0))
EOF
	grep -q "decided again with every link" "$tmp/cm-$m/report.md" ||
		err "$spec --search=$m: report.md does not say the choices were decided again"
done

echo "optimize: $solved models solved by glpsol, $fail failed"
[ $fail -eq 0 ]
