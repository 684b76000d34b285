#!/bin/sh
# kill9.sh CLUSTERC ROOT — SIGKILL at random points of a 100,000-GPU build (docs/output.md).
#
# Two variants of examples/scale-100k.cluster, every artifact (--emit all: its 4,008 switches'
# files are on demand) (hostnames "gb{index:05}" and "gpu{index:06}":
# nearly every file differs, most in size) are built in turn into one DIR and each build is
# killed after a random delay, uniform over a whole build's time. After every kill DIR must be
# the output before the kill or the one the killed build was making: its manifest.json one of
# the two variants', every file there at the manifest's size and a random sample of them at
# its sha256 (all of them with KILL9_FULL=1); beside it at most one run's leftovers. At the end
# a build without --force must take DIR as its own (the ownership token survived), give a
# whole output (every hash) and leave nothing beside it.
#
# KILL9_ITERATIONS (default 8) sets the number of kills; KILL9_SEED the random sequence.
set -u
. "$(dirname "$0")/lib.sh"
spec=examples/scale-100k.cluster
iterations=${KILL9_ITERATIONS:-8}
seed=${KILL9_SEED:-$$}
dir=$tmp/out

variant() { [ "$1" = a ] && echo 'frontier.hostname="gb{index:05}"' || echo 'frontier.hostname="gpu{index:06}"'; }

listing() { # path bytes sha256, sorted, from a manifest
	awk '/"path":/ { gsub(/[",]/, "", $2); p = $2 }
	     /"bytes":/ { gsub(/[",]/, "", $2); b = $2 }
	     /"sha256":/ { gsub(/[",]/, "", $2); print p, b, $2 }' "$1" | sort
}
# DIR against a manifest: sizes of every file, hashes of `sample` of them (0: all).
matches() {
	d=$1 sample=$2
	listing "$d/manifest.json" >"$tmp/listed"
	(cd "$d" && find . -type f ! -name manifest.json ! -name .clusterc-output -printf '%P %s\n') |
		sort >"$tmp/sizes"
	awk '{ print $1, $2 }' "$tmp/listed" | cmp -s - "$tmp/sizes" || return 1
	if [ "$sample" -eq 0 ]; then
		cp "$tmp/listed" "$tmp/pick"
	else
		shuf -n "$sample" --random-source="$tmp/rand" "$tmp/listed" >"$tmp/pick"
	fi
	awk '{ print $3 "  " $1 }' "$tmp/pick" >"$tmp/pick.sums"
	(cd "$d" && sha256sum --quiet -c "$tmp/pick.sums" >/dev/null 2>&1)
}
litter() { (cd "$tmp" && ls -A | grep -E '^\.out\.(tmp-|old-|lock)' || true); }

# The random sequence (shuf's source and the delays) from the seed.
awk -v s="$seed" 'BEGIN { srand(s); for (i = 0; i < 65536; i++) printf "%c", int(rand() * 256) }' >"$tmp/rand"

# The two variants, whole, and how long a build takes.
"$clusterc" build -q --emit all "$spec" --set "$(variant b)" -o "$dir" || { echo "FAIL: build b"; exit 1; }
cp "$dir/manifest.json" "$tmp/manifest.b"
t0=$(date +%s%N) # a rebuild, as in the loop: the previous output is removed after the swap
"$clusterc" build -q --emit all "$spec" --set "$(variant a)" -o "$dir" || { echo "FAIL: build a"; exit 1; }
t1=$(date +%s%N)
cp "$dir/manifest.json" "$tmp/manifest.a"
cmp -s "$tmp/manifest.a" "$tmp/manifest.b" && { echo "FAIL: the variants are the same"; exit 1; }
ms=$(( (t1 - t0) / 1000000 ))
state=a
delays=$(awk -v s="$seed" -v n="$iterations" -v ms="$ms" \
	'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.3f\n", rand() * ms * 1.25 / 1000 }')
i=0 olds=0 news=0
for delay in $delays; do
	i=$((i + 1))
	next=$([ $((i % 2)) -eq 1 ] && echo b || echo a)
	"$clusterc" build -q --emit all "$spec" --set "$(variant $next)" -o "$dir" 2>"$tmp/err" &
	pid=$!
	sleep "$delay"
	kill -s KILL $pid 2>/dev/null
	wait $pid
	rc=$?
	[ $rc -eq 137 ] || [ $rc -eq 0 ] || err "kill $i: the build exited $rc: $(head -3 "$tmp/err")"
	if cmp -s "$dir/manifest.json" "$tmp/manifest.$next"; then
		[ "$next" = "$state" ] && olds=$((olds + 1)) || news=$((news + 1))
		state=$next
	elif cmp -s "$dir/manifest.json" "$tmp/manifest.$state"; then
		olds=$((olds + 1))
	else
		err "kill $i after ${delay}s: DIR's manifest is neither the old nor the new one"
		continue
	fi
	sample=40
	[ "${KILL9_FULL:-0}" = 1 ] && sample=0
	matches "$dir" $sample || err "kill $i after ${delay}s: DIR is not whole"
	tmps=$(litter | grep -c '\.tmp-')
	olds_left=$(litter | grep -c '\.old-')
	[ "$tmps" -le 1 ] && [ "$olds_left" -le 1 ] ||
		err "kill $i: more than one run's leftovers beside DIR: $(litter | tr '\n' ' ')"
done
echo "kill -9: $i kills (seed $seed; a build takes ${ms} ms): DIR old $olds times, new $news times"
before=$(litter | tr '\n' ' ')
"$clusterc" build -q --emit all "$spec" --set "$(variant a)" -o "$dir" || err "the build after the kills (left: $before)"
cmp -s "$dir/manifest.json" "$tmp/manifest.a" || err "the last build is not variant a"
matches "$dir" 0 || err "the last build is not whole"
[ -z "$(litter)" ] || err "the build after the kills left $(litter | tr '\n' ' ')"
[ $fail -eq 0 ] && echo "kill -9: all checks passed"
exit $((fail > 0))
