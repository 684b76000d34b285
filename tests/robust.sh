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

echo "robustness: $fail failed"
[ $fail -eq 0 ]
