#!/bin/sh
# bench/run.sh CLUSTERC [SIZES] — how clusterc's cost grows with the cluster (docs/performance.md).
# For each size (GPUs; default 1000 10000 100000 1000000) it generates a spec from
# template.cluster, builds it with every artifact and --timings, and records the wall time of
# each stage, peak memory, bytes written and links; then the time to merely copy the same
# bytes (cp -r of the output), so the ratio to the I/O limit shows. Results: bench/out/bench.csv
# and bench/out/bench.svg (time and memory against GPUs, log-log), and a table on stdout.
set -eu
clusterc=$1
shift
sizes=${*:-1000 10000 100000 1000000}
here=$(cd "$(dirname "$0")" && pwd)
out=$here/out
mkdir -p "$out"
csv=$out/bench.csv
stages="load resolve overrides check design decide elaborate wire verify cable validate"
printf 'gpus,nodes,links' >"$csv"
for s in $stages; do printf ',%s_ms' "$s" >>"$csv"; done
printf ',emit_ms,total_ms,wall_ms,peak_rss_mib,bytes,files,copy_ms\n' >>"$csv"

now_ms() { date +%s%N | awk '{ printf "%.3f", $1 / 1e6 }'; }

for gpus in $sizes; do
	nodes=$(( (gpus + 7) / 8 ))
	planes=1
	[ "$gpus" -ge 65536 ] && planes=2
	# A floor with room (racks of 6 nodes, network racks, 20 % spare) and a budget with room.
	rows=$(( (nodes / 6 * 12 / 10 + 200) / 40 + 1 ))
	budget=$(( nodes * 14 / 1000 + 10 ))
	spec=$out/bench-$gpus.cluster
	sed -e "s/@NODES@/$nodes/; s/@ROWS@/$rows/; s/@PLANES@/$planes/; s/@BUDGET@/$budget/" \
		"$here/template.cluster" >"$spec"
	rm -rf "$out/build-$gpus" "$out/copy-$gpus"
	t0=$(now_ms)
	"$clusterc" build -q --timings "$spec" -o "$out/build-$gpus" 2>"$out/timings-$gpus.txt"
	t1=$(now_ms)
	bytes=$(du -sb "$out/build-$gpus" | cut -f1)
	files=$(find "$out/build-$gpus" -type f | wc -l)
	c0=$(now_ms)
	cp -r "$out/build-$gpus" "$out/copy-$gpus"
	sync
	c1=$(now_ms)
	links=$(sed -n 's/.*"cables": \([0-9]*\).*/\1/p' "$out/build-$gpus/report.json" | head -1)
	awk -v gpus="$gpus" -v nodes="$nodes" -v links="$links" -v stages="$stages" \
	    -v wall="$(echo "$t1 $t0" | awk '{ print $1 - $2 }')" -v bytes="$bytes" -v files="$files" \
	    -v copy="$(echo "$c1 $c0" | awk '{ print $1 - $2 }')" '
		/^peak RSS/ { rss = $3 }
		$1 == "emit" { emit = $2 }
		$1 == "total" { total = $2 }
		NF >= 2 && $2 ~ /^[0-9.]+$/ { ms[$1] = $2 }
		END {
			printf "%s,%s,%s", gpus, nodes, links
			n = split(stages, s, " ")
			for (i = 1; i <= n; i++) printf ",%s", (s[i] in ms) ? ms[s[i]] : 0
			printf ",%s,%s,%.3f,%s,%s,%s,%.3f\n", emit, total, wall, rss, bytes, files, copy
		}' "$out/timings-$gpus.txt" >>"$csv"
	rm -rf "$out/copy-$gpus"
done

# The table.
awk -F, 'NR == 1 { next } {
	printf "%9d GPUs %8d links  wall %9.1f ms  (decide %7.1f, elaborate %7.1f, wire %7.1f, cable %7.1f, emit %8.1f)  peak %7.1f MiB  %7.1f MB in %6d files  copy %7.1f ms  x%.1f\n",
		$1, $3, $17, $9, $10, $11, $14, $16, $18, $19 / 1e6, $20, $21, ($21 > 0 ? $17 / $21 : 0)
}' "$csv"

# The plot: wall time (ms) and peak memory (MiB) against GPUs, log-log.
awk -F, 'NR == 1 { next } { g[NR] = $1; t[NR] = $17; m[NR] = $18; n = NR }
function lx(v) { return 60 + (log(v) / log(10) - 3) / 3 * 520 }
function ly(v) { return 340 - (log(v) / log(10) + 1) / 5 * 300 }
END {
	print "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"400\" font-family=\"sans-serif\" font-size=\"12\">"
	print "<rect width=\"640\" height=\"400\" fill=\"white\"/>"
	print "<text x=\"320\" y=\"20\" text-anchor=\"middle\">clusterc build: wall time (ms, blue) and peak memory (MiB, red) against GPUs</text>"
	for (e = 3; e <= 6; e++) { x = lx(10 ^ e); printf "<line x1=\"%.1f\" y1=\"40\" x2=\"%.1f\" y2=\"340\" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"358\" text-anchor=\"middle\">1e%d</text>\n", x, x, x, e }
	for (e = -1; e <= 4; e++) { y = ly(10 ^ e); printf "<line x1=\"60\" y1=\"%.1f\" x2=\"580\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"52\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n", y, y, y + 4, e }
	print "<text x=\"320\" y=\"385\" text-anchor=\"middle\">GPUs</text>"
	for (k = 3; k <= n; k++) {
		printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"blue\" stroke-width=\"2\"/>\n", lx(g[k-1]), ly(t[k-1]), lx(g[k]), ly(t[k])
		printf "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"red\" stroke-width=\"2\"/>\n", lx(g[k-1]), ly(m[k-1]), lx(g[k]), ly(m[k])
	}
	for (k = 2; k <= n; k++)
		printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"blue\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"red\"/>\n", lx(g[k]), ly(t[k]), lx(g[k]), ly(m[k])
	print "</svg>"
}' "$csv" >"$out/bench.svg"
echo "bench: $csv and $out/bench.svg"
