#!/bin/sh
# bench/run.sh CLUSTERC [GPUS ...] — `make bench`: how clusterc's cost grows with the cluster.
# The work is in bench.py (python3); environment: BENCH_OUT (output directory, default
# bench/out), BENCH_REPEAT (runs per measurement, default 3, the minimum kept), BENCH_KEEP=1
# (keep the builds' outputs). See docs/performance.md.
exec python3 "$(dirname "$0")/bench.py" "$@"
