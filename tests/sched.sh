#!/bin/sh
# sched.sh CLUSTERC ROOT — the scheduler files of every example and of
# tests/sched/nvl72-100k-mixed.cluster (100,800 GPUs in NVL72 racks that straddle rail-0 leaves
# and pods, and 84 single-tray domains whose last scalable unit is below the planning base)
# against issue 22's rules, read back from the files by tests/sched_invariants.py: every node
# in exactly one Slurm block (topology-block.conf and topology.yaml), no block below the base,
# and Kueue levels that nest over the node labels. docs/schedulers.md, "Invariants".
set -u
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import yaml' 2>/dev/null; then
	echo "FAIL: python3 with PyYAML is needed (Debian packages python3, python3-yaml)"
	exit 1
fi
set --
for spec in examples/*.cluster tests/sched/*.cluster; do
	name=$(basename "$spec" .cluster)
	"$clusterc" build -q "$spec" --emit=slurm,k8s,hostfile -o "$tmp/$name" || { err "build $spec"; continue; }
	set -- "$@" "$name=$tmp/$name"
done
python3 tests/sched_invariants.py "$@" || fail=$((fail + 1))
echo "sched: $fail failed"
[ $fail -eq 0 ]
