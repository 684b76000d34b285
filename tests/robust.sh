#!/bin/sh
# robust.sh CLUSTERC — bad input never crashes, hangs or leaks: binary input, a 10 MB file,
# 200,000 nested parentheses, long operator chains, import cycles, missing and unreadable
# files. Each case checks the exit code and the message; each run is bounded by a timeout (a
# hang fails), and under the sanitizer build any crash or leak fails the run.
set -u
clusterc=$1
dir=$(mktemp -d) || exit 2
trap 'chmod -R u+rwx "$dir"; rm -rf "$dir"' EXIT
cd "$dir" || exit 2
fail=0

# expect RC PATTERN CMD... : runs CMD, checks its exit status and that stderr matches PATTERN.
expect() {
	want=$1 pattern=$2
	shift 2
	timeout 120 "$@" >out.txt 2>err.txt
	rc=$?
	if [ "$rc" -ne "$want" ] || { [ -n "$pattern" ] && ! grep -q -e "$pattern" err.txt; }; then
		echo "FAIL: $* -> exit $rc (want $want), stderr:"
		head -c 2000 err.txt
		echo
		fail=$((fail + 1))
	fi
}

# fast SECONDS RC PATTERN CMD... : as expect, and done within SECONDS of CPU time (user +
# system: linear-time inputs). CPU time, not the wall clock, so that a loaded machine (the
# sanitizer build beside other jobs on two cores) does not fail a run that did not hang.
fast() {
	limit=$1 want=$2 pattern=$3
	shift 3
	expect "$want" "$pattern" /usr/bin/time -o cpu.txt -f "%U %S" "$@"
	ms=$(awk '{ printf "%d", ($1 + $2) * 1000 }' cpu.txt)
	[ "$ms" -le $((limit * 1000)) ] || { echo "FAIL: $* took $ms ms of CPU (limit ${limit} s)"; fail=$((fail + 1)); }
}

repeat() { # repeat N TEXT: TEXT written N times
	awk -v n="$1" -v t="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", t }'
}

printf 'node a {\0}\n' >binary.cluster
expect 1 "is a binary file (NUL byte at offset 8)" "$clusterc" check binary.cluster

printf 'node a { description = "\377" }\n' >latin1.cluster
expect 1 "invalid UTF-8" "$clusterc" check latin1.cluster

head -c 1000000 /dev/urandom >random.cluster
expect 1 "error" "$clusterc" check random.cluster

# 10 MB of valid declarations checks cleanly...
awk 'BEGIN { for (i = 0; i < 170000; i++)
	printf "accelerator g%d { memory = 80 GB; bf16 = 1 TFLOPS; tdp = 700 W }\n", i }' >big.cluster
expect 0 "" "$clusterc" check -q big.cluster
# ...and 10 MB of nonsense stops at the error limit.
repeat 2000000 '@ @ ' >junk.cluster
expect 1 "too many errors (limit 50)" "$clusterc" check junk.cluster

{ printf 'node a { power = '; repeat 200000 '('; printf '1'; repeat 200000 ')'; printf ' }\n'; } >parens.cluster
expect 1 "brackets nested more than 256 deep" "$clusterc" check parens.cluster
{ printf 'node a { power = '; repeat 200000 '['; printf '\n'; } >brackets.cluster
expect 1 "brackets nested more than 256 deep" "$clusterc" check brackets.cluster
{ printf 'node a { power = '; repeat 200000 '-'; printf '1 kW }\n'; } >minus.cluster
expect 1 "nested" "$clusterc" check minus.cluster
{ printf 'node a { power = 1 kW'; repeat 200000 ' + 1 kW'; printf ' }\n'; } >sum.cluster
expect 1 "expression nested more than 256 deep" "$clusterc" check sum.cluster
{ printf 'node a { description = "'; repeat 300000 'x'; printf '" x }\n'; } >longline.cluster
expect 1 "longline.cluster:1:300029: error" "$clusterc" check longline.cluster

printf 'import "b.cluster"\n' >a.cluster
printf 'import "c.cluster"\n' >b.cluster
printf 'import "a.cluster"\n' >c.cluster
expect 1 "import cycle: a.cluster -> b.cluster -> c.cluster -> a.cluster" "$clusterc" check a.cluster
printf 'import "self.cluster"\n' >self.cluster
expect 1 "import cycle" "$clusterc" check self.cluster
printf 'import "nowhere.cluster"\n' >missing-import.cluster
expect 1 "cannot open 'nowhere.cluster': No such file or directory" "$clusterc" check missing-import.cluster
printf 'import std.acelerators\n' >std-typo.cluster
expect 1 "did you mean 'std.accelerators'" "$clusterc" check std-typo.cluster

expect 74 "cannot open 'does-not-exist.cluster': No such file or directory" "$clusterc" check does-not-exist.cluster
mkdir adir.cluster
expect 74 "Is a directory" "$clusterc" check adir.cluster
if [ "$(id -u)" -ne 0 ]; then
	printf 'node a {}\n' >locked.cluster
	chmod 000 locked.cluster
	expect 74 "Permission denied" "$clusterc" check locked.cluster
fi

: >empty.cluster
expect 0 "" "$clusterc" check -q empty.cluster
printf 'accelerator g { memory = 80 GB; bf16 = 1 TFLOPS; tdp = 700 W }\n' | expect 0 "" "$clusterc" check -q -
printf 'accelerator g { memory = 80 kW }\n' >stdin.cluster
expect 1 "<stdin>:1:26: error" sh -c "\"$clusterc\" check - <stdin.cluster"

# Not regular files: refused at once rather than read forever (or blocked on open).
mkfifo fifo.cluster
fast 5 74 "a FIFO, not a regular file" "$clusterc" check fifo.cluster
fast 5 74 "a character device, not a regular file" "$clusterc" check /dev/zero
printf 'import "fifo.cluster"\n' >import-fifo.cluster
fast 5 1 "not a regular file" "$clusterc" check import-fifo.cluster

# Chains and nesting are linear: a 100,000-deep inheritance or scenario chain stops at the
# limit (256) with an error at the link too many; 100,000 nested [ or { in a sweep likewise.
awk 'BEGIN { print "node n0 { power = 1 kW; height = 1 U; price = 1 USD }";
	for (i = 1; i < 100000; i++) printf "node n%d : n%d { }\n", i, i - 1 }' >chain.cluster
fast 10 1 "chain.cluster:258:13: error: 'n257' inherits through more than 256 declarations" "$clusterc" check chain.cluster
awk 'BEGIN { print "scenario s0 { }";
	for (i = 1; i < 100000; i++) printf "scenario s%d : s%d { }\n", i, i - 1 }' >schain.cluster
fast 10 1 "scenario 's257' builds on more than 256 scenarios" "$clusterc" check schain.cluster
awk 'BEGIN { for (i = 0; i < 5; i++) printf "node r%d : r%d { }\n", i, (i + 1) % 5 }' >ring.cluster
fast 5 1 "inheritance cycle: 'r0' is its own ancestor" "$clusterc" check ring.cluster
printf 'site s { power_budget = 1 MW; electricity = 0.1 USD/kWh }\n' >tiny.cluster
{ printf 'grid:\n  s.electricity: '; repeat 100000 '['; repeat 100000 ']'; printf '\n'; } >deep.yaml
fast 5 1 "deep.yaml:2:274: error: collections nested more than 256 deep" "$clusterc" compare tiny.cluster --sweep deep.yaml -o cmp
{ printf 'grid:\n  s.electricity: '; repeat 100000 '{a: '; printf '1'; repeat 100000 '}'; printf '\n'; } >deepmap.yaml
fast 5 1 "nested more than 256 deep" "$clusterc" compare tiny.cluster --sweep deepmap.yaml -o cmp
[ ! -e cmp ] || { echo "FAIL: a sweep with errors wrote its output"; fail=$((fail + 1)); }

echo "robustness: $fail failed"
[ $fail -eq 0 ]
