#!/bin/sh
# compare.sh CLUSTERC ROOT — `clusterc compare` end to end (docs/comparison.md):
#  - the flagship's scenarios and its sweep: comparison.csv, .json and .md equal the goldens in
#    tests/compare (UPDATE_GOLDEN=1 rewrites them: review the diff);
#  - byte-identical from run to run, with one build at a time or several;
#  - every row agrees with `clusterc build --scenario` of the same scenario (report.json);
#  - the Pareto column is right: no marked row is dominated, every unmarked built row is;
#  - a scenario that cannot be built is a row saying why, and the others are still written;
#  - a sweep file's mistakes are diagnostics at its line and column (goldens in
#    tests/compare/errors), exit 1, nothing written;
#  - options take only what they document (exit 64).
set -u
. "$(dirname "$0")/lib.sh"
golden() { # golden FILE GOLDEN
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$1" "$2"
	elif ! cmp -s "$1" "$2"; then
		err "$1 differs from $2"
		diff "$2" "$1" | head -10
	fi
}

# The flagship: every scenario.
"$clusterc" compare -q examples/wanka.cluster -o "$tmp/all" 2>"$tmp/all.err"
rc=$?
[ $rc = 0 ] || err "compare wanka: exit $rc"
for f in csv json md; do
	golden "$tmp/all/comparison.$f" "tests/compare/wanka.comparison.$f"
done
grep -q "air_only: not built (exit 2)" "$tmp/all.err" ||
	err "the scenario that cannot be met is not reported on standard error"
grep -q '^air_only,2,no,' "$tmp/all/comparison.csv" || err "air_only is not a row with status 2"
[ -f "$tmp/all/manifest.json" ] || err "compare wrote no manifest.json"

# Deterministic, whatever the number of builds at once.
"$clusterc" compare -q --jobs 1 examples/wanka.cluster -o "$tmp/serial" 2>/dev/null
for f in csv json md; do
	cmp -s "$tmp/all/comparison.$f" "$tmp/serial/comparison.$f" ||
		err "comparison.$f differs between --jobs 1 and the default"
done

# From standard input: read once, every build from that copy.
"$clusterc" compare -q - -o "$tmp/stdin" <examples/wanka.cluster 2>/dev/null
cmp -s "$tmp/all/comparison.csv" "$tmp/stdin/comparison.csv" || err "compare - differs from compare FILE"

# --diagnostics=json: one document, each scenario's diagnostics marked with its name.
"$clusterc" compare -q --diagnostics=json examples/wanka.cluster --scenarios air_only,b200 \
	-o "$tmp/json" 2>"$tmp/json.err" || err "compare --diagnostics=json: exit $?"
python3 - "$tmp/json.err" <<'EOF' || err "--diagnostics=json is not one document with the scenario named"
import json, sys
d = json.load(open(sys.argv[1]))
if d["errors"] != 1 or [x.get("scenario") for x in d["diagnostics"]] != ["air_only"]:
    sys.exit(f"unexpected: {d['errors']} errors, {[x.get('scenario') for x in d['diagnostics']]}")
EOF

# Each row equals the build of its scenario.
for sc in base b200 two_tier; do
	if [ $sc = base ]; then set --; else set -- --scenario $sc; fi
	"$clusterc" build -q examples/wanka.cluster "$@" -o "$tmp/b-$sc" --emit report.json ||
		err "build --scenario $sc failed"
	python3 "$root/tests/compare_row.py" "$tmp/all/comparison.json" "$tmp/b-$sc/report.json" $sc ||
		err "row $sc differs from its build"
done

# The Pareto column against a dominance check of its own.
pareto_ok() {
	python3 - "$1" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
def val(r, name):
    if ":" in name:
        kind, w = name.split(":", 1)
        x = next((x for x in r["workloads"] if x["name"] == w), None)
        key = {"time_to_train": "time_to_train_days", "energy_to_train": "energy_to_train_mwh",
               "cost_to_train": "energy_to_train_cost", "mfu": "mfu"}[kind]
        return x[key] if x else None
    key = {"annual_energy": "annual_energy_kwh", "facility_power": "facility_power_kw",
           "it_power": "it_power_kw"}.get(name, name)
    return r[key]
objs = c["objectives"]
built = [r for r in c["rows"] if r["status"] == 0]
def dominates(a, b):
    better = False
    for o in objs:
        x, y = val(a, o["name"]), val(b, o["name"])
        if o["sense"] == "maximize":
            x, y = -x, -y
        if x > y:
            return False
        better |= x < y
    return better
for r in c["rows"]:
    dominated = r["status"] == 0 and any(dominates(o, r) for o in built if o is not r)
    want = r["status"] == 0 and not dominated
    if r["pareto"] != want:
        sys.exit(f"{r['scenario']}: pareto is {r['pareto']}, dominance says {want}")
if [r["scenario"] for r in c["rows"] if r["pareto"]] != c["pareto"]:
    sys.exit("the pareto list does not match the rows")
if not c["pareto"]:
    sys.exit("an empty frontier")
EOF
}
pareto_ok "$tmp/all/comparison.json" || err "wanka: the Pareto column is wrong"

# A sweep: a grid of 12 points and 2 points of its own, after the base.
"$clusterc" compare -q examples/wanka.cluster --sweep examples/wanka-sweep.yaml -o "$tmp/sweep" \
	2>"$tmp/sweep.err" || err "compare --sweep: exit $?"
golden "$tmp/sweep/comparison.csv" tests/compare/wanka-sweep.comparison.csv
rows=$(($(wc -l <"$tmp/sweep/comparison.csv") - 1))
# Every line of each of comparison.md's tables has as many cells as its header (a column added to the
# rows and not the header, or the other way round, shows here).
awk -F'|' '!/^\|/ { n = 0 } /^\|/ { if (!n) n = NF; else if (NF != n) { print FILENAME ":" FNR ": " NF - 2 " cells, header " n - 2; bad = 1 } }
	END { exit bad }' "$tmp/sweep/comparison.md" || err "comparison.md: a row's cells do not match its header"
[ "$rows" = 15 ] || err "the sweep gave $rows rows, not 15"
pareto_ok "$tmp/sweep/comparison.json" || err "sweep: the Pareto column is wrong"
# The grid's electricity price reaches the energy cost: dearer power, dearer energy.
python3 - "$tmp/sweep/comparison.json" <<'EOF' || err "the sweep's overrides do not reach the numbers"
import json, sys
rows = {r["scenario"]: r for r in json.load(open(sys.argv[1]))["rows"]}
a = rows["electricity=0.35 CNY/kWh, cooling=cold_plate, b200"]["annual_energy_cost"]
b = rows["electricity=0.90 CNY/kWh, cooling=cold_plate, b200"]["annual_energy_cost"]
if not (abs(b / a - 0.90 / 0.35) < 1e-6):
    sys.exit(f"energy cost {a} at 0.35 and {b} at 0.90: not in the prices' ratio")
EOF

# A worker killed while building a row takes only that row (driver/cmd_compare.c): on 2 jobs
# each worker takes a run of consecutive rows, rows 3 and up ahead in the first one's queue
# (after rows 0-2, whose results it has sent); it is killed as it begins row 3, row 3 says why,
# and the rows queued behind it go to another worker: every other row as in the sweep above.
CLUSTERC_TEST_KILL_ROW=3 "$clusterc" compare -q examples/wanka.cluster \
	--sweep examples/wanka-sweep.yaml --jobs 2 -o "$tmp/killed" 2>"$tmp/killed.err" ||
	err "compare --sweep with a worker killed: exit $?"
grep -q 'its build was killed by signal 9' "$tmp/killed.err" || err "the killed row does not say why"
python3 - "$tmp/sweep/comparison.csv" "$tmp/killed/comparison.csv" <<'EOF' ||
import csv, sys
# Every column but pareto: a failed row leaves the frontier, which may move another row's mark.
want = list(csv.DictReader(open(sys.argv[1])))
got = list(csv.DictReader(open(sys.argv[2])))
if len(got) != len(want) or len(want) != 15:
    sys.exit(f"{len(got)} rows, the sweep {len(want)}")
bad = False
for i, (w, g) in enumerate(zip(want, got)):
    if i == 3:
        if g["status"] != "70":
            print(f"row 3 not failed: {g}"); bad = True
        continue
    w.pop("pareto"); g.pop("pareto")
    if w != g:
        print(f"row {i} differs: {g}"); bad = True
sys.exit(1 if bad else 0)
EOF
	err "a killed worker: the other rows differ from the sweep's"

# Other objectives: any two or more, maximized ones included.
"$clusterc" compare -q examples/wanka.cluster --scenarios b200,immersion \
	--objectives tco,mfu:gpt3_175b -o "$tmp/obj" 2>/dev/null || err "--objectives tco,mfu: exit $?"
pareto_ok "$tmp/obj/comparison.json" || err "--objectives: the Pareto column is wrong"
[ "$(($(wc -l <"$tmp/obj/comparison.csv") - 1))" = 3 ] || err "--scenarios b200,immersion: not 3 rows"

# The rows' processes share planner searches and rack arrangements (lang/share.c), and the
# spec's parse (each row and each check of an override rewinds to it, driver/cmd_compare.c): the
# same sweep (its scenarios and overrides in one worker after another) without sharing gives the
# same files, byte for byte.
CLUSTERC_NO_SHARE=1 "$clusterc" compare -q examples/wanka.cluster --sweep examples/wanka-sweep.yaml \
	-o "$tmp/sweep-alone" 2>/dev/null || err "compare --sweep without sharing: exit $?"
for f in comparison.csv comparison.json comparison.md report.html; do
	cmp -s "$tmp/sweep/$f" "$tmp/sweep-alone/$f" || err "sweep: $f differs with and without sharing"
done

# rows_match_builds NAME SPEC DIR COUNT: each row of DIR/comparison.json (its scenario and --set
# values in $tmp/NAME.points, a tab between) equals its own `clusterc build -q SPEC` with those
# values, and there are COUNT of them.
rows_match_builds() {
	rm_name=$1 rm_spec=$2 rm_dir=$3 rm_count=$4
	i=0
	while IFS="$(printf '\t')" read -r name sets; do
		i=$((i + 1))
		set --
		old_ifs=$IFS
		IFS=';'
		for s in $sets; do
			set -- "$@" --set "$(echo "$s" | sed 's/^ *//')"
		done
		IFS=$old_ifs
		"$clusterc" build -q "$rm_spec" "$@" -o "$tmp/$rm_name-b$i" --emit report.json \
			2>/dev/null || err "$rm_name: build of $name: exit $?"
		python3 "$root/tests/compare_row.py" "$rm_dir/comparison.json" "$tmp/$rm_name-b$i/report.json" \
			"$name" || err "$rm_name: row $name differs from its build"
	done <"$tmp/$rm_name.points"
	[ "$i" = "$rm_count" ] || err "$rm_name: $i rows checked, not $rm_count"
}

# A worker remembers the media it chose by everything the choice reads (passes/design/cage.c)
# and serves later rows from it: on one worker, a sweep of tests/compare/memo.cluster whose
# points differ in exactly those inputs (the weight per watt, through the electricity price, on
# both sides of a module's break-even; the runs, through the tray height) gives every row as
# its own `clusterc build` does, and the same files as without the memo.
"$clusterc" compare -q tests/compare/memo.cluster --sweep tests/compare/memo-sweep.yaml --jobs 1 \
	-o "$tmp/memo" 2>/dev/null || err "compare memo.cluster: exit $?"
CLUSTERC_NO_SHARE=1 "$clusterc" compare -q tests/compare/memo.cluster --sweep tests/compare/memo-sweep.yaml \
	--jobs 1 -o "$tmp/memo-alone" 2>/dev/null || err "compare memo.cluster without sharing: exit $?"
for f in comparison.csv comparison.json comparison.md report.html; do
	cmp -s "$tmp/memo/$f" "$tmp/memo-alone/$f" || err "memo sweep: $f differs with and without the memo"
done
python3 - "$tmp/memo/comparison.json" >"$tmp/memo.points" <<'EOF' || err "memo sweep: unexpected rows"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
by = {r["scenario"]: r for r in rows}
# The break-even is crossed (the frugal module at 3 USD/kWh, not at 0.50) and the runs move.
if not by["electricity=3 USD/kWh"]["capex"] > by["electricity=0.50 USD/kWh"]["capex"]:
    sys.exit("the media do not change with the electricity price")
if not by["high_tray"]["capex"] > by["electricity=0.08 USD/kWh"]["capex"]:
    sys.exit("the cables do not change with the tray height")
for r in rows:
    if r["status"] != 0:
        sys.exit(f"{r['scenario']}: status {r['status']}")
    print(r["scenario"] + "\t" + (r.get("sets") or ""))
EOF
rows_match_builds memo tests/compare/memo.cluster "$tmp/memo" 9

# A worker keeps what the physical passes (wire to verify-media) did in a row and replays it into
# a later row whose state before them differs only by overrides they do not read
# (driver/compare_physical.c). On one worker, tests/compare/physical.cluster
# (no objective: neither the electricity price nor the power budget reaches them) builds 3 of 7
# rows' physical designs (the base, the first point, the higher tray) and replays 4; the
# flagship over power budgets (which no physical pass reads; 18 MW decides other racks) and two
# electricity prices (which its objective weighs the cables' watts by: read) builds 5 of 7 and
# replays 2. Each of those files as without sharing, each row of the first as its own build's.
# A build is kept only while a row is left that could take it (its scenario and overrides alike
# but for those two fields' values): 2 in each (the base's and the last ones' are not), and
# none in a sweep of three floors, which share nothing.
CLUSTERC_TEST_PHYSICAL=1 "$clusterc" compare -q tests/compare/physical.cluster \
	--sweep tests/compare/physical-sweep.yaml --jobs 1 -o "$tmp/phys" 2>"$tmp/phys.err" ||
	err "compare physical.cluster: exit $?"
grep -qx "clusterc: a worker: physical passes run 3, replayed 4, kept 2" "$tmp/phys.err" ||
	err "physical.cluster: not 3 physical builds, 4 replays, 2 kept: $(cat "$tmp/phys.err")"
CLUSTERC_NO_SHARE=1 "$clusterc" compare -q tests/compare/physical.cluster \
	--sweep tests/compare/physical-sweep.yaml --jobs 1 -o "$tmp/phys-alone" 2>/dev/null ||
	err "compare physical.cluster without sharing: exit $?"
printf 'grid:\n  hall_b.electricity: [0.35 CNY/kWh, 0.90 CNY/kWh]\n  hall_b.power_budget: [16 MW, 17 MW, 18 MW]\n' \
	>"$tmp/budgets.yaml"
CLUSTERC_TEST_PHYSICAL=1 "$clusterc" compare -q examples/wanka.cluster --sweep "$tmp/budgets.yaml" \
	--jobs 1 -o "$tmp/budgets" 2>"$tmp/budgets.err" || err "compare wanka over budgets: exit $?"
grep -qx "clusterc: a worker: physical passes run 5, replayed 2, kept 2" "$tmp/budgets.err" ||
	err "wanka over budgets: not 5 physical builds, 2 replays, 2 kept: $(cat "$tmp/budgets.err")"
CLUSTERC_NO_SHARE=1 "$clusterc" compare -q examples/wanka.cluster --sweep "$tmp/budgets.yaml" \
	--jobs 1 -o "$tmp/budgets-alone" 2>/dev/null || err "compare wanka over budgets without sharing: exit $?"
printf 'grid:\n  hall.floor: ["%s", "%s", "%s"]\n' "grid(rows = 6, racks_per_row = 10, tray_height = 1.5 m)" \
	"grid(rows = 6, racks_per_row = 10, tray_height = 2 m)" "grid(rows = 7, racks_per_row = 10)" \
	>"$tmp/floors.yaml"
CLUSTERC_TEST_PHYSICAL=1 "$clusterc" compare -q tests/compare/physical.cluster --sweep "$tmp/floors.yaml" \
	--jobs 1 -o "$tmp/floors" 2>"$tmp/floors.err" || err "compare physical.cluster over floors: exit $?"
grep -qx "clusterc: a worker: physical passes run 4, replayed 0, kept 0" "$tmp/floors.err" ||
	err "physical.cluster over floors: not 4 physical builds, none kept: $(cat "$tmp/floors.err")"
CLUSTERC_NO_SHARE=1 "$clusterc" compare -q tests/compare/physical.cluster --sweep "$tmp/floors.yaml" \
	--jobs 1 -o "$tmp/floors-alone" 2>/dev/null || err "compare over floors without sharing: exit $?"
# The same with the worker's keep lists at 0 MiB (a test hook, lang/arena.c): every row's chunks
# are released, so no kept build is ready to replay, and none is read (it was: a SIGSEGV).
CLUSTERC_TEST_KEEP_MIB=0 CLUSTERC_TEST_PHYSICAL=1 "$clusterc" compare -q examples/wanka.cluster \
	--sweep "$tmp/budgets.yaml" --jobs 1 -o "$tmp/budgets-unkept" 2>"$tmp/budgets-unkept.err" ||
	err "compare wanka over budgets, nothing kept: exit $?"
grep -qx "clusterc: a worker: physical passes run 7, replayed 0, kept 4" "$tmp/budgets-unkept.err" ||
	err "wanka over budgets, nothing kept: not 7 physical builds: $(cat "$tmp/budgets-unkept.err")"
for f in comparison.csv comparison.json comparison.md report.html; do
	cmp -s "$tmp/floors/$f" "$tmp/floors-alone/$f" || err "floor sweep: $f differs without sharing"
	cmp -s "$tmp/phys/$f" "$tmp/phys-alone/$f" || err "physical sweep: $f differs without sharing"
	cmp -s "$tmp/budgets/$f" "$tmp/budgets-alone/$f" || err "budget sweep: $f differs without sharing"
	cmp -s "$tmp/budgets-unkept/$f" "$tmp/budgets-alone/$f" ||
		err "budget sweep, nothing kept: $f differs without sharing"
done
python3 - "$tmp/phys/comparison.json" >"$tmp/phys.points" <<'EOF' || err "physical sweep: unexpected rows"
import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    if r["status"] != 0:
        sys.exit(f"{r['scenario']}: status {r['status']}")
    print(r["scenario"] + "\t" + (r.get("sets") or ""))
EOF
rows_match_builds phys tests/compare/physical.cluster "$tmp/phys" 7

# Mistakes in a sweep: diagnostics at the YAML's line and column, exit 1, nothing written.
for y in tests/compare/errors/*.yaml; do
	name=$(basename "$y" .yaml)
	NO_COLOR=1 "$clusterc" compare examples/wanka.cluster --sweep "$y" -o "$tmp/bad-$name" \
		>/dev/null 2>"$tmp/bad-$name.err"
	rc=$?
	[ $rc = 1 ] || err "$y: exit $rc, not 1"
	[ -e "$tmp/bad-$name" ] && err "$y: an output directory was written"
	golden "$tmp/bad-$name.err" "tests/compare/errors/$name.err"
done

# Options.
"$clusterc" compare examples/wanka.cluster --scenarios h20 -o "$tmp/x" 2>"$tmp/opt.err"
[ $? = 64 ] || err "an unknown --scenarios name is not exit 64"
grep -q "did you mean 'h200'" "$tmp/opt.err" || err "--scenarios h20 suggests nothing"
"$clusterc" compare examples/wanka.cluster --objectives capex,speed -o "$tmp/x" 2>/dev/null
[ $? = 64 ] || err "an unknown objective is not exit 64"
"$clusterc" compare examples/wanka.cluster --objectives capex -o "$tmp/x" 2>/dev/null
[ $? = 64 ] || err "one objective is not exit 64"
"$clusterc" compare examples/wanka.cluster --jobs 0 -o "$tmp/x" 2>/dev/null
[ $? = 64 ] || err "--jobs 0 is not exit 64"
"$clusterc" compare examples/wanka.cluster --sweep "$tmp/missing.yaml" -o "$tmp/x" 2>/dev/null
[ $? = 74 ] || err "a missing sweep file is not exit 74"
[ -e "$tmp/x" ] && err "a failed compare wrote its directory"

# Machine-readable numbers: the row not built carries its unmet requirement with value, limit,
# unit and place; a built row its decisions with theirs; a rack over its power limit and a floor
# too small carry theirs in the JSON diagnostics of build.
python3 - "$tmp/all/comparison.json" <<'EOF' || err "violations or decisions lack their numbers (above)"
import json, sys
rows = {r["scenario"]: r for r in json.load(open(sys.argv[1]))["rows"]}
v = rows["air_only"]["violations"]
assert len(v) == 1 and v[0]["unit"] == "W" and v[0]["value"] > v[0]["limit"] > 0, v
assert v[0]["file"] == "examples/wanka.cluster" and v[0]["line"] > 0 and v[0]["column"] > 0, v
d = rows["base"]["decisions"]
assert any(x["field"] == "power_limit" and x["chosen_unit"] == "W" and x["chosen_value"] > 0
           and x["line"] > 0 for x in d), d
assert all(x["objective_unit"] == "CNY" for x in d), d
EOF
for set in "rack48.power_limit=5 kW:W" \
	"hall_b.floor=grid(rows = 2, racks_per_row = 10, rack_pitch = 0.6 m, row_pitch = 2.4 m):"; do
	"$clusterc" build -q examples/wanka.cluster --set "${set%:*}" --diagnostics=json \
		-o "$tmp/unmet" 2>"$tmp/unmet.json"
	python3 - "$tmp/unmet.json" "${set##*:}" <<'EOF' || err "--set ${set%:*}: the unmet requirement has no numbers"
import json, sys
d = json.load(open(sys.argv[1]))["diagnostics"]
q = [x["quantity"] for x in d if x.get("code") == "unmet" and "quantity" in x and
     x["quantity"]["unit"] == sys.argv[2]]
assert q and q[0]["value"] > q[0]["limit"] > 0, d
EOF
done

echo "compare: $fail failed"
[ $fail = 0 ]
