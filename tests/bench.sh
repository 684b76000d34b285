#!/bin/sh
# bench.sh CLUSTERC ROOT — the benchmark's generator at one small size (256 GPUs), once, into a
# temporary directory (never bench/out): bench.csv has the row, with nonzero times, memory,
# bytes, files, links, copy time and planner rate, and bench.svg is a whole SVG document. The
# benchmark itself (`make bench`) is never part of the tests: timings are not asserted.
set -u
clusterc=$1 root=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
BENCH_OUT=$tmp BENCH_REPEAT=1 BENCH_SETTLE=0 BENCH_SHAPES=0 BENCH_SWEEP=10 "$root/bench/run.sh" "$clusterc" 256 >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; echo "FAIL: bench/run.sh at 256 GPUs"; exit 1; }
python3 - "$tmp/bench.csv" "$tmp/bench.svg" <<'PY'
import csv, sys, xml.dom.minidom
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 1, "bench.csv: %d rows, expected 1" % len(rows)
r = rows[0]
assert r["gpus"] == "256" and r["nodes"] == "32" and r["status"] == "ok", r
for k in ("links", "switches", "emit_ms", "total_ms", "wall_ms", "peak_rss_mib", "bytes",
          "files", "copy_ms", "ratio", "plans_evaluated", "plans_per_s"):
    assert float(r[k]) > 0, "bench.csv: %s is %s" % (k, r[k])
svg = xml.dom.minidom.parse(sys.argv[2]).documentElement
assert svg.tagName == "svg" and svg.getElementsByTagName("circle"), "bench.svg: no points"
PY
[ $? -eq 0 ] || { echo "FAIL: bench.csv or bench.svg"; exit 1; }
grep -Eq '^sweep: .* 11 points on 2 jobs: .* points/s \(CPU [0-9.]+ s, [0-9.]+ ms a point\); peak RSS [0-9]+ MiB$' "$tmp/log" ||
	{ cat "$tmp/log"; echo "FAIL: no sweep line (compare --sweep points/s)"; exit 1; }
# The floor's lines (docs/performance.md): nettle's SHA-256 always; the build's CPU split from
# --timings' cpu: line; the bar against each floor (libcrypto's too when libssl-dev is there).
grep -Eq '^  floor: cp -r CPU [0-9.]+ ms \+ SHA-256 [0-9.]+ ms \(nettle' "$tmp/log" &&
	grep -Eq '^  CPU \(min of the builds\): before emit [0-9.]+ ms; emit [0-9.]+ ms = generation -?[0-9.]+ .* \+ SHA-256 [0-9.]+ \+ write [0-9.]+ \(system\)$' "$tmp/log" &&
	grep -Eq '^  bar 1.3x copy = [0-9.]+ ms: (above|below) the floor with nettle' "$tmp/log" ||
	{ cat "$tmp/log"; echo "FAIL: no floor, CPU split or bar line"; exit 1; }
echo "bench: 1 row, ok"
