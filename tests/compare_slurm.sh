#!/bin/sh
# compare_slurm.sh CLUSTERC ROOT — `clusterc compare --slurm` (docs/comparison.md, "Slurm") on
# 200 points of the flagship (tests/compare/slurm-sweep.yaml), against a local run of the same:
#  - the scripts it writes, run by sh as Slurm would run them (each array task with its
#    SLURM_ARRAY_TASK_ID, then the merge), give the local run's files byte for byte;
#  - on a real Slurm: slurmctld and slurmd (Debian 22.05) started on loopback as the current
#    user (auth/none, a private port, one node of 2 CPUs), `--submit` hands the array and the
#    merge to sbatch; the merge's files equal the local run's byte for byte;
#  - a merge with a shard missing fails (exit 74) and writes nothing; options that do not go
#    together are exit 64.
# Only when the daemons cannot start does the Slurm part skip, saying why.
set -u
. "$(dirname "$0")/lib.sh"
daemons=""
stop() {
	for p in $daemons; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	daemons=""
}
trap 'stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
sweep=tests/compare/slurm-sweep.yaml
same() { # same DIR LABEL: DIR's files equal the local run's
	for f in comparison.csv comparison.json comparison.md report.html manifest.json; do
		cmp -s "$tmp/local/$f" "$1/$f" || err "$2: $f differs from the local run's"
	done
}

"$clusterc" compare -q examples/wanka.cluster --sweep $sweep -o "$tmp/local" 2>/dev/null ||
	err "local compare: exit $?"
rows=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['rows']))" "$tmp/local/comparison.json")
[ "$rows" = 201 ] || err "the local run has $rows rows, not 201"

# Options that do not go together (exit 64).
"$clusterc" compare -q examples/wanka.cluster --submit -o "$tmp/u" 2>/dev/null
[ $? = 64 ] || err "--submit without --slurm is not exit 64"
"$clusterc" compare -q examples/wanka.cluster --shard 2/2 -o "$tmp/u" 2>/dev/null
[ $? = 64 ] || err "--shard 2/2 is not exit 64"
"$clusterc" compare -q - --sweep $sweep --slurm "$tmp/u" <examples/wanka.cluster 2>/dev/null
[ $? = 64 ] || err "--slurm of standard input is not exit 64"

# The scripts run by sh, as Slurm would run them.
"$clusterc" compare -q examples/wanka.cluster --sweep $sweep --slurm "$tmp/sh" -o "$tmp/sh-out" ||
	err "compare --slurm: exit $?"
tasks=$(sed -n 's/^#SBATCH --array=0-//p' "$tmp/sh/compare.sbatch")
[ "$tasks" = 6 ] || err "the array has tasks 0-$tasks, not 0-6 (201 rows, 32 a task)"
i=0
while [ $i -le "${tasks:-0}" ]; do
	SLURM_ARRAY_TASK_ID=$i sh "$tmp/sh/compare.sbatch" 2>/dev/null || err "task $i: exit $?"
	i=$((i + 1))
done
# One shard missing: the merge says so and writes nothing.
mv "$tmp/sh/shards/00003.rows" "$tmp/held"
sh "$tmp/sh/merge.sbatch" 2>"$tmp/missing.err"
rc=$?
[ $rc = 74 ] || err "a merge with a shard missing: exit $rc, not 74"
grep -q "no shard holds row 3 " "$tmp/missing.err" || err "a missing shard is not named: $(head -1 "$tmp/missing.err")"
[ -e "$tmp/sh-out" ] && err "a merge with a shard missing wrote its directory"
mv "$tmp/held" "$tmp/sh/shards/00003.rows"
sh "$tmp/sh/merge.sbatch" 2>/dev/null || err "merge: exit $?"
same "$tmp/sh-out" "the scripts run by sh"

# A real Slurm on loopback.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null; then
	echo "SKIP: slurmctld, slurmd or sbatch is not installed (Debian packages slurmctld, slurmd,"
	echo "      slurm-client; scripts/install-deps.sh installs them): no real Slurm run"
	exit $((fail > 0))
fi
s=$tmp/slurm
mkdir -p "$s/state" "$s/spool"
port=$((20000 + ($$ * 7) % 20000))
sed -e "s|@PORT@|$port|; s|@PORT1@|$((port + 1))|; s|@USER@|$(id -un)|; s|@DIR@|$s|g" \
	-e "s|@HOST@|$(hostname)|; s|@CPUS@|2|" "$root/scripts/slurm-loopback.conf.in" >"$s/slurm.conf"
export SLURM_CONF=$s/slurm.conf
slurmctld -D -c -f "$SLURM_CONF" >"$s/slurmctld.out" 2>&1 &
daemons="$!"
slurmd -D -N node0 -f "$SLURM_CONF" >"$s/slurmd.out" 2>&1 &
daemons="$daemons $!"
up=0
for _ in $(seq 1 80); do
	if timeout 3 sinfo -h -o %T 2>/dev/null | grep -q idle; then
		up=1
		break
	fi
	sleep 0.25
done
if [ $up = 0 ]; then
	echo "SKIP: slurmctld and slurmd did not come up on loopback; their last words:"
	tail -n 3 "$s/slurmctld.out" "$s/slurmctld.log" "$s/slurmd.out" "$s/slurmd.log" 2>/dev/null | sed 's/^/    /'
	exit $((fail > 0))
fi
start=$(date +%s)
"$clusterc" compare examples/wanka.cluster --sweep $sweep --slurm "$tmp/sl" -o "$tmp/sl-out" --submit \
	>"$tmp/submit.out" 2>&1 || err "compare --slurm --submit: exit $?"
merge=$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' "$tmp/submit.out")
[ -n "$merge" ] || err "compare --submit printed no merge job: $(cat "$tmp/submit.out")"
done_=0
for _ in $(seq 1 1200); do
	state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
	case $state in
	COMPLETED) done_=1; break ;;
	FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;;
	esac
	sleep 0.5
done
if [ $done_ = 1 ]; then
	same "$tmp/sl-out" "Slurm"
	echo "slurm: 201 rows in $(($(date +%s) - start)) s on a loopback slurmd of 2 CPUs"
else
	err "the merge job $merge ended ${state:-unseen}; logs:"
	tail -n 3 "$tmp/sl/logs/"*.out 2>/dev/null | sed 's/^/    /'
fi
exit $((fail > 0))
