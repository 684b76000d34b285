#!/bin/sh
# compare_replay.sh CLUSTERC ROOT — a compare worker's physical builds kept and replayed
# (driver/compare_physical.c, lang/arena.c's marks and deltas) on the arena's chunks, in every
# build: labelled `sanitize`, so under AddressSanitizer and UndefinedBehaviorSanitizer too, where
# the arena is otherwise in pass-through mode and no build can be replayed (CLUSTERC_ARENA=chunks:
# the chunks' free space and the chunks kept for reuse poisoned there, lang/arena.c). On one
# worker, tests/compare/physical.cluster over electricity prices x power budgets and two tray
# heights builds 3 physical designs, replays 4 and keeps 2; a sweep of three floors, which share
# nothing, builds 4 and keeps none; the files of both as without sharing (each row its own
# build, tests/compare.sh checks the rows against `clusterc build`).
set -u
. "$(dirname "$0")/lib.sh"
printf 'grid:\n  hall.floor: ["%s", "%s", "%s"]\n' "grid(rows = 6, racks_per_row = 10, tray_height = 1.5 m)" \
	"grid(rows = 6, racks_per_row = 10, tray_height = 2 m)" "grid(rows = 7, racks_per_row = 10)" \
	>"$tmp/floors.yaml"
for sweep in tests/compare/physical-sweep.yaml:"run 3, replayed 4, kept 2" \
	"$tmp/floors.yaml":"run 4, replayed 0, kept 0"; do
	file=${sweep%%:*} want=${sweep#*:} name=$(basename "${sweep%%:*}" .yaml)
	CLUSTERC_ARENA=chunks CLUSTERC_TEST_PHYSICAL=1 "$clusterc" compare -q \
		tests/compare/physical.cluster --sweep "$file" --jobs 1 -o "$tmp/$name" \
		2>"$tmp/$name.err" || err "$name: exit $?: $(cat "$tmp/$name.err")"
	grep -qx "clusterc: a worker: physical passes $want" "$tmp/$name.err" ||
		err "$name: not '$want': $(cat "$tmp/$name.err")"
	CLUSTERC_ARENA=chunks CLUSTERC_NO_SHARE=1 "$clusterc" compare -q tests/compare/physical.cluster \
		--sweep "$file" --jobs 1 -o "$tmp/$name-alone" 2>/dev/null ||
		err "$name without sharing: exit $?"
	for f in comparison.csv comparison.json comparison.md report.html; do
		cmp -s "$tmp/$name/$f" "$tmp/$name-alone/$f" || err "$name: $f differs without sharing"
	done
done
echo "compare-replay: $fail failed"
[ $fail = 0 ]
