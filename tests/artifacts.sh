#!/bin/sh
# artifacts.sh CLUSTERC ROOT — `clusterc build` end to end:
#  - every example, and every spec in tests/artifacts (models no example uses: storage, other
#    loads, utilization, 2N), builds; its report.json and bom.csv equal the goldens in
#    tests/artifacts (UPDATE_GOLDEN=1 rewrites them: review the diff);
#  - manifest.json lists every file with its true size and sha256;
#  - two builds of the same input are byte-identical (not under the sanitizers);
#  - a failed build (errors, unmet requirements) leaves the output directory as it was;
#  - a directory clusterc did not write is not replaced without --force;
#  - an output that cannot be written is an I/O error (74) leaving nothing behind;
#  - --emit, --dump and --timings do what they say.
set -u
. "$(dirname "$0")/lib.sh"

# Every file of the manifest exists with its size and hash, and nothing else is in the dir: the
# manifest's (path, bytes, sha256) triples against the directory's, in one pass each.
check_manifest() {
	dir=$1
	awk '/"path":/ { gsub(/[",]/, "", $2); p = $2 }
	     /"bytes":/ { gsub(/[",]/, "", $2); b = $2 }
	     /"sha256":/ { gsub(/[",]/, "", $2); print p, b, $2 }' "$dir/manifest.json" | sort >"$tmp/listed"
	(cd "$dir" && find . -type f ! -name manifest.json -printf '%P %s\n' | sort >"$tmp/sizes" &&
		find . -type f ! -name manifest.json -print0 | xargs -0 sha256sum |
		sed 's|^\([0-9a-f]*\)  \./\(.*\)$|\2 \1|' | sort >"$tmp/sums")
	join "$tmp/sizes" "$tmp/sums" >"$tmp/actual"
	cmp -s "$tmp/listed" "$tmp/actual" || { err "$dir: manifest does not match the files"; diff "$tmp/listed" "$tmp/actual" | head -5; }
}

for spec in examples/*.cluster tests/artifacts/*.cluster; do
	name=$(basename "$spec" .cluster)
	"$clusterc" build -q "$spec" -o "$tmp/$name" || { err "build $spec"; continue; }
	check_manifest "$tmp/$name"
	for f in report.json bom.csv; do
		golden=tests/artifacts/$name.$f
		if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
			cp "$tmp/$name/$f" "$golden"
		elif ! cmp -s "$tmp/$name/$f" "$golden"; then
			err "$spec: $f differs from $golden"
			diff -u "$golden" "$tmp/$name/$f" | head -30
		fi
	done
	# Twice, byte-identical (under the sanitizers, once: tests/determinism.sh builds each 20
	# times in the plain builds, and a second sanitized 100,000-GPU build costs 40 s).
	if [ "${CLUSTERC_SANITIZED:-0}" != 1 ]; then
		"$clusterc" build -q "$spec" -o "$tmp/$name.again" || err "second build of $spec"
		diff -r "$tmp/$name" "$tmp/$name.again" >/dev/null || err "$spec: two builds differ"
		rm -rf "$tmp/$name.again"
	fi
	rm -rf "$tmp/$name"
done

# A failed build leaves a previous output untouched.
out=$tmp/keep
"$clusterc" build -q examples/seed-wanka-h100.cluster -o "$out" || err "build into $out"
before=$(cd "$out" && find . -type f | sort | xargs sha256sum)
"$clusterc" build -q --scenario air_only examples/wanka.cluster -o "$out" 2>/dev/null
[ $? -eq 2 ] || err "air_only should not meet the power budget (exit 2)"
printf 'node n { power = 1 kW + 1 Gbps }\n' >"$tmp/bad.cluster"
"$clusterc" build -q "$tmp/bad.cluster" -o "$out" 2>/dev/null
[ $? -eq 1 ] || err "a spec with errors should exit 1"
after=$(cd "$out" && find . -type f | sort | xargs sha256sum)
[ "$before" = "$after" ] || err "a failed build changed $out"
[ -z "$(find "$tmp" -maxdepth 1 -name '.keep.tmp-*')" ] || err "a failed build left a temporary directory"

# A rebuild replaces a previous clusterc output.
"$clusterc" build -q examples/wanka.cluster -o "$out" || err "rebuild into $out"
grep -q '"spec": "examples/wanka.cluster"' "$out/report.json" || err "rebuild did not replace $out"

# A directory clusterc did not write is refused, then replaced with --force.
mkdir "$tmp/mine" && echo precious >"$tmp/mine/notes.txt"
"$clusterc" build -q examples/seed-wanka-h100.cluster -o "$tmp/mine" 2>"$tmp/err.txt"
[ $? -eq 74 ] || err "a foreign directory should be refused with 74"
grep -q "use --force" "$tmp/err.txt" || err "the refusal should mention --force"
[ -f "$tmp/mine/notes.txt" ] || err "the refused directory was changed"
"$clusterc" build -q --force examples/seed-wanka-h100.cluster -o "$tmp/mine" || err "--force"
[ -f "$tmp/mine/report.json" ] && [ ! -f "$tmp/mine/notes.txt" ] || err "--force did not replace"

# An output that cannot be written: under a regular file.
: >"$tmp/afile"
"$clusterc" build -q examples/seed-wanka-h100.cluster -o "$tmp/afile/out" 2>"$tmp/err.txt"
[ $? -eq 74 ] || err "an unwritable output should exit 74"
grep -q "afile" "$tmp/err.txt" || err "the I/O error should name the path"

# Missing parents of DIR are made, as mkdir -p would.
"$clusterc" build -q examples/seed-wanka-h100.cluster -o "$tmp/new/parents/out" ||
	err "an output under missing directories should be built"
[ -f "$tmp/new/parents/out/report.json" ] || err "no report.json under the made parents"

# --emit, --dump, --timings.
"$clusterc" build -q --emit=bom.csv examples/seed-wanka-h100.cluster -o "$tmp/emit" || err "--emit"
[ -f "$tmp/emit/bom.csv" ] && [ ! -f "$tmp/emit/report.json" ] || err "--emit=bom.csv wrote other files"
"$clusterc" build -q --emit=nothing examples/seed-wanka-h100.cluster -o "$tmp/emit2" 2>/dev/null
[ $? -eq 64 ] || err "--emit of an unknown artifact should exit 64"
"$clusterc" build -q --dump=names examples/seed-wanka-h100.cluster -o "$tmp/dump" >"$tmp/dump.txt" || err "--dump"
grep -q "^node 1249 node1250 type h100_8gpu rack R0209 .* at examples/seed-wanka-h100.cluster:45$" "$tmp/dump.txt" || err "--dump=names: stable id, hostname, rack, source line"
grep -q "^accel 9999 node1250 slot 7 type H100_SXM at " "$tmp/dump.txt" || err "--dump=names: accelerators"
"$clusterc" build -q --dump=elaborate examples/seed-wanka-h100.cluster -o "$tmp/dump" >"$tmp/dump.txt" || err "--dump"
grep -q "^node 1249 - type h100_8gpu rack - " "$tmp/dump.txt" || err "--dump=elaborate: before places and names"
"$clusterc" build -q --dump=validate --dump-max=3 examples/seed-wanka-h100.cluster -o "$tmp/dump" >"$tmp/dump.txt" || err "--dump-max"
grep -q "^node ... 1247 more$" "$tmp/dump.txt" || err "--dump-max=3: a list of 1,250 nodes stops after 3"
# Every pass prints its IR (the passes as the error for an unknown one lists them); an unknown
# pass is a usage error naming the passes.
passes=$("$clusterc" build -q --dump=nonesuch examples/seed-wanka-h100.cluster -o "$tmp/dump-x" 2>&1 |
	sed -n 's/.*the passes are \(.*\))$/\1/p' | tr -d ,)
[ "$(echo $passes | wc -w)" -ge 19 ] || err "the list of passes: $passes"
for pass in $passes; do
	"$clusterc" build -q --dump=$pass examples/torus-3d.cluster -o "$tmp/dump-$pass" >"$tmp/dump.txt" ||
		err "--dump=$pass"
	[ -s "$tmp/dump.txt" ] || err "--dump=$pass printed nothing"
done
"$clusterc" build -q --dump=cable examples/torus-3d.cluster -o "$tmp/dump-c" | grep -q "^cable 0 link 0 media " ||
	err "--dump=cable"
"$clusterc" build -q --dump=wire examples/dgx-h100-superpod.cluster -o "$tmp/dump-w" >"$tmp/dump.txt"
grep -q "^switch 0 compute-.* model QM9700 fabric compute tier leaf .* at std/network.cluster:" "$tmp/dump.txt" &&
	grep -q "^link 0 .* -- compute-.* tier node-leaf" "$tmp/dump.txt" || err "--dump=wire"
"$clusterc" build -q --dump=nonesuch examples/seed-wanka-h100.cluster -o "$tmp/dump-x" 2>"$tmp/err.txt"
[ $? -eq 64 ] && grep -q "the passes are load, resolve" "$tmp/err.txt" || err "--dump of an unknown pass should exit 64 naming the passes"
"$clusterc" build -q --timings examples/seed-wanka-h100.cluster -o "$tmp/t" 2>"$tmp/t.txt" || err "--timings"
grep -q "^stage  *ms  *arena MiB  *peak MiB$" "$tmp/t.txt" && grep -q "^elaborate  *[0-9.]*  *[0-9.]*  *[0-9.]*$" "$tmp/t.txt" &&
	grep -q "^peak RSS" "$tmp/t.txt" || err "--timings table: time, arena and peak memory per stage"
grep -q "^emit: cabling.csv  *[0-9.]* ms$" "$tmp/t.txt" || err "--timings: emit's split per artifact"
grep -q "^emit: (ends' table)  *[0-9.]* ms$" "$tmp/t.txt" || err "--timings: the cable ends' table's time"
grep -q "^cpu: before emit user [0-9.]* ms, system [0-9.]* ms; emit user [0-9.]* ms, system [0-9.]* ms$" "$tmp/t.txt" ||
	err "--timings: the CPU before emit and emit's user and system time"
"$clusterc" build -q --timings examples/wanka.cluster -o "$tmp/tw" 2>"$tmp/tw.txt" || err "--timings wanka"
grep -q "^plan gpt3_175b: [0-9]* plans in [0-9.]* ms, [0-9.e+]* plans/s$" "$tmp/tw.txt" ||
	err "--timings: the planner's plans per second"

echo "artifacts: $fail failed"
[ $fail -eq 0 ]
