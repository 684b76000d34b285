#!/bin/sh
# topology.sh CLUSTERC ROOT — topology.dot and topology.svg read by the real Graphviz tools:
#  - the DGX H100 SuperPOD of one scalable unit is drawn device by device: `dot` accepts the
#    DOT, which holds exactly its 12 switches, 31 nodes, 4 UFM appliances and 508 links, and
#    topology.svg is a whole SVG document;
#  - larger fabrics (two SUs, 1,020 links; more than 400 devices) are drawn aggregated
#    (aggregated=true): the groups' and edges' counts add
#    up to the fabric's switches, nodes and links (summed with gvpr), and `dot` lays out the
#    100,000-GPU example's drawing in under 20 s;
#  - two builds give byte-identical topology files.
set -u
. "$(dirname "$0")/lib.sh"

# expect_count WHAT WANT GOT
expect_count() {
	[ "$3" = "$2" ] || err "$1: $3, expected $2"
}

# The sum of an attribute over the nodes (N) or edges (E) of a graph, by gvpr.
sum() {
	gvpr "BEG_G { int s = 0; } $1 [$2] { s += (int)\$.$3; } END_G { print(s); }" "$4"
}

# The SuperPOD, one scalable unit: every device and link.
su1=$tmp/su1
"$clusterc" build -q examples/dgx-h100-superpod.cluster --scenario su1 -o "$su1" || err "build su1"
dot=$su1/topology.dot
dot -Tsvg "$dot" >/dev/null 2>"$tmp/dot.err" || err "dot rejects $dot: $(head -3 "$tmp/dot.err")"
[ -s "$tmp/dot.err" ] && err "dot warns about $dot: $(head -3 "$tmp/dot.err")"
expect_count "switch nodes" 12 "$(grep -c 'kind=switch,' "$dot")"
expect_count "cluster nodes" 31 "$(grep -c 'kind="node",' "$dot")"
expect_count "UFM appliances" 4 "$(grep -c 'kind=extra,' "$dot")"
expect_count "edges" 508 "$(grep -c -- ' -- ' "$dot")"
expect_count "node-leaf edges" 252 "$(grep -c 'tier="node-leaf"' "$dot")"
expect_count "leaf-spine edges" 256 "$(grep -c 'tier="leaf-spine"' "$dot")"
grep -q '^graph superpod {' "$dot" || err "$dot: the graph is not named after the cluster"
grep -q 'subgraph cluster_compute {' "$dot" || err "$dot: no subgraph for fabric compute"
grep -q 'aggregated=true' "$dot" && err "$dot: a fabric of 47 devices should not be aggregated"
grep -q '"compute-leaf-001"	\[fabric=compute,' "$dot" || err "$dot: no node compute-leaf-001"
grep -q 'speed="400G"' "$dot" || err "$dot: links should carry their speed (400G)"

svg=$su1/topology.svg
if [ ! -s "$svg" ]; then
	err "no $svg"
else
	head -c 5 "$svg" | grep -q -e '^<?xml' -e '^<svg' || err "$svg does not start as XML"
	[ "$(tail -n 1 "$svg")" = "</svg>" ] || err "$svg does not end with </svg>"
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout --nonet "$svg" 2>"$tmp/xml.err" || err "$svg is not well-formed XML: $(head -3 "$tmp/xml.err")"
	fi
	grep -q 'compute&#45;spine&#45;004' "$svg" || err "$svg does not draw compute-spine-004"
fi

# Determinism: a second build, identical bytes.
"$clusterc" build -q examples/dgx-h100-superpod.cluster --scenario su1 -o "$tmp/su1.again" || err "rebuild su1"
for f in topology.dot topology.svg; do
	cmp -s "$su1/$f" "$tmp/su1.again/$f" || err "two builds of su1 give different $f"
done

# Two scalable units: 1,020 links, past what a drawing of every cable can show: aggregated,
# with every link counted.
"$clusterc" build -q examples/dgx-h100-superpod.cluster --scenario su2 --emit=topology.dot -o "$tmp/su2" || err "build su2"
grep -q 'aggregated=true' "$tmp/su2/topology.dot" || err "su2: 1,020 links should be drawn aggregated"
expect_count "su2 links in edge counts" 1020 "$(sum E '' count "$tmp/su2/topology.dot")"

# RoCE, 512 nodes: aggregated per scalable unit, and the counts add up.
roce=$tmp/roce
"$clusterc" build -q examples/roce-spectrum4.cluster -o "$roce" || err "build roce-spectrum4"
dot=$roce/topology.dot
grep -q 'aggregated=true' "$dot" || err "$dot: 608 devices should be drawn aggregated"
dot -Tsvg "$dot" >/dev/null || err "dot rejects $dot"
expect_count "roce links in edge counts" 8192 "$(sum E '' count "$dot")"
expect_count "roce switches in groups" 96 "$(sum N 'kind=="switches"' count "$dot")"
expect_count "roce nodes in groups" 512 "$(sum N 'kind=="nodes"' count "$dot")"
expect_count "roce leaf groups (one per SU)" 8 "$(grep -c 'tier=leaf\]' "$dot")"
[ -s "$roce/topology.svg" ] || err "the aggregated roce drawing is small: it should have an SVG"

# 100,800 GPUs: only the aggregated drawing, which dot lays out in seconds.
big=$tmp/big
"$clusterc" build -q examples/scale-100k.cluster --emit=topology.dot,topology.svg -o "$big" || err "build scale-100k"
dot=$big/topology.dot
grep -q 'aggregated=true' "$dot" || err "$dot should be aggregated"
expect_count "100k links in edge counts" 304064 "$(sum E '' count "$dot")"
expect_count "100k nodes in groups" 25200 "$(sum N 'kind=="nodes"' count "$dot")"
start=$(date +%s.%N)
timeout 20 dot -Tsvg "$dot" >/dev/null || err "dot did not lay out $dot within 20 s"
echo "topology: dot laid out the aggregated 100k drawing in $(echo "$start $(date +%s.%N)" |
	awk '{ printf "%.2f", $2 - $1 }') s"
"$clusterc" build -q examples/scale-100k.cluster --emit=topology.dot,topology.svg -o "$big.again" || err "rebuild scale-100k"
diff -r "$big" "$big.again" >/dev/null || err "two builds of scale-100k give different topology files"

# The TPU v4 pod (Jouppi et al., ISCA 2023, §2): 64 cubes, one group each, and the 48 OCSes as
# one group; every link counted (9,216 inside the cubes, 6,144 fibres to the OCSes). cabling.csv
# shows both kinds: direct copper inside a cube (5,120: the 4,096 links inside the 2 x 2 hosts
# are board traces), a bare fibre from a chip's transceiver to an OCS port (no optic there).
tpu=$tmp/tpu
"$clusterc" build -q examples/tpu-v4-pod.cluster -o "$tpu" || err "build tpu-v4-pod"
dot=$tpu/topology.dot
dot -Tsvg "$dot" >/dev/null || err "dot rejects $dot"
expect_count "tpu links in edge counts" 15360 "$(sum E '' count "$dot")"
expect_count "tpu OCSes in groups" 48 "$(sum N 'kind=="switches"' count "$dot")"
expect_count "tpu nodes in groups" 1024 "$(sum N 'kind=="nodes"' count "$dot")"
expect_count "tpu node groups (one per cube)" 64 "$(grep -c 'kind=nodes' "$dot")"
grep -q 'tier=ocs' "$dot" || err "$dot: no OCS group"
python3 - "$tpu/cabling.csv" <<'PY' || err "tpu cabling.csv"
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = collections.Counter((r["tier"], r["media"]) for r in rows)
want = {("torus", "dac"): 5120, ("ocs", "fiber"): 6144}
ocs = [r for r in rows if r["tier"] == "ocs"]
ok = dict(by) == want and all(r["a_optic"] and not r["z_optic"] and
                              r["z_device"].startswith("ici-ocs-") for r in ocs)
ports = collections.Counter(r["z_device"] for r in ocs)
ok = ok and len(ports) == 48 and set(ports.values()) == {128}
if not ok:
    print(dict(by), len(ports), set(ports.values()))
sys.exit(0 if ok else 1)
PY

# --emit picks the files.
"$clusterc" build -q --emit=topology.dot examples/dgx-h100-superpod.cluster --scenario su1 -o "$tmp/emit" || err "--emit=topology.dot"
[ -f "$tmp/emit/topology.dot" ] && [ ! -f "$tmp/emit/topology.svg" ] && [ ! -f "$tmp/emit/report.json" ] ||
	err "--emit=topology.dot wrote other files"

echo "topology: $fail failed"
[ $fail -eq 0 ]
