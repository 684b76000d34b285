#!/bin/sh
# bench/run.sh CLUSTERC [GPUS ...] — `make bench`: how clusterc's cost grows with the cluster.
# The work is in bench.py (python3); environment: BENCH_OUT (output directory, default
# bench/out), BENCH_REPEAT (runs per measurement, default 3, the minimum kept), BENCH_KEEP=1
# (keep the builds' outputs), BENCH_SHAPES=0 (skip the fat tree and dragonfly of
# bench/fattree-k64.cluster and bench/dragonfly-262k.cluster), BENCH_SWEEP (points of the
# compare --sweep measured, default 200; 0 skips). See docs/performance.md.
exec python3 "$(dirname "$0")/bench.py" "$@"
