#!/bin/sh
# determinism.sh CLUSTERC ROOT — identical input, identical bytes, run after run: every example
# (and every spec of tests/artifacts and tests/placement, among them two fabrics sharing a NIC)
# built DETERMINISM_RUNS times (default 6), each a fresh process with its own address space
# layout (ASLR must be on: the test says so otherwise), JOBS at a time. Every build's
# manifest.json, which holds the size and sha256 of every file, must be the same as the
# first's; a file whose hash differs is named. Each output is removed once its manifest is
# kept, so a 100,000-GPU build costs its manifest only.
set -u
clusterc=$1 root=$2
cd "$root" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
runs=${DETERMINISM_RUNS:-6}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
fail=0
err() { echo "FAIL: $*"; fail=$((fail + 1)); }

aslr=$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null || echo "?")
[ "$aslr" = 2 ] || echo "note: ASLR is not fully on (randomize_va_space = $aslr): addresses repeat"

specs=$(ls examples/*.cluster tests/artifacts/*.cluster tests/placement/*.cluster)
# One line per build: SPEC RUN. The largest first, so the parallel runs end together.
for s in $specs; do
	i=1
	while [ $i -le "$runs" ]; do
		echo "$(wc -c <"$s") $s $i"
		i=$((i + 1))
	done
done | sort -k1,1nr -k3,3n | awk '{ print $2, $3 }' >"$tmp/builds"
case $(grep -c 'scale-100k' "$tmp/builds") in "$runs") ;; *) err "the 100k example is not built $runs times" ;; esac

export clusterc tmp
# shellcheck disable=SC2016
xargs -P "$jobs" -L 1 sh -c '
	name=$(basename "$0" .cluster)
	out=$tmp/$name.$1
	if "$clusterc" build -q "$0" -o "$out" >/dev/null 2>"$out.err"; then
		mv "$out/manifest.json" "$tmp/$name.$1.manifest"
		rm -rf "$out" "$out.err"
	else
		echo "FAIL: build $1 of $0 exited $?: $(head -3 "$out.err")"
	fi' <"$tmp/builds" >"$tmp/log"
cat "$tmp/log"
[ -s "$tmp/log" ] && fail=$((fail + 1))

for s in $specs; do
	name=$(basename "$s" .cluster)
	n=$(ls "$tmp/$name".*.manifest 2>/dev/null | wc -l)
	[ "$n" -eq "$runs" ] || { err "$s: $n of $runs builds"; continue; }
	distinct=$(sha256sum <"$tmp/$name.1.manifest" | cut -c1-12)
	first=$tmp/$name.1.manifest
	same=1
	for m in "$tmp/$name".*.manifest; do
		cmp -s "$first" "$m" && continue
		err "$s: build $(basename "$m" .manifest | sed 's/.*\.//') differs from build 1 in:"
		for x in "$first" "$m"; do
			awk '/"path":/ { gsub(/[",]/, "", $2); p = $2 }
			     /"sha256":/ { gsub(/[",]/, "", $2); print p, $2 }' "$x" | sort
		done | sort | uniq -u | awk '{ print "  " $1 }' | sort -u | head -5
		same=0
		break
	done
	files=$(grep -c '"path"' "$first")
	[ $same -eq 1 ] && echo "$s: $runs builds, $files files, one sha256 each ($distinct)"
done
[ $fail -eq 0 ] && echo "determinism: every file of every spec the same in $runs builds"
exit $((fail > 0))
