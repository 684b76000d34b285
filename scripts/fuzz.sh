#!/bin/sh
# fuzz.sh BUILD SECONDS TARGET... — runs each libFuzzer target of BUILD (a -DCLUSTERC_FUZZ=ON
# build, `make fuzz`) for SECONDS, from its seeds (the committed corpus and the inputs of its
# kind the tests already have), keeping its working corpus in BUILD/corpus-TARGET and what it
# finds in BUILD/findings-TARGET/. Exits 1 when a target found something (the others run).
set -u
build=$1 seconds=$2
shift 2
for t in "$@"; do
	case $t in
	fuzz_frontend) args="-max_len=65536 -dict=fuzz/clusterc.dict"; seeds="fuzz/corpus stdlib examples tests/diag" ;;
	fuzz_sweep) args="-max_len=8192"; seeds="fuzz/sweep-corpus" ;;
	fuzz_build) args="-max_len=16384 -dict=fuzz/clusterc.dict -timeout=30 -rss_limit_mb=4096"
		seeds="fuzz/corpus-build tests/build-errors tests/placement" ;;
	fuzz_set) args="-max_len=4096 -dict=fuzz/clusterc.dict -timeout=30"; seeds="fuzz/corpus-set" ;;
	fuzz_row) args="-max_len=65536 -dict=fuzz/row.dict"; seeds="fuzz/corpus-row tests/compare" ;;
	fuzz_multi) args="-max_len=65536 -dict=fuzz/clusterc.dict"; seeds="fuzz/corpus-multi" ;;
	*) echo "fuzz.sh: no target $t" >&2; exit 64 ;;
	esac
	mkdir -p "$build/corpus-$t" "$build/findings-$t"
	echo "== $t for $seconds s"
	# shellcheck disable=SC2086
	"$build/fuzz/$t" -max_total_time="$seconds" $args -artifact_prefix="$build/findings-$t/" \
		"$build/corpus-$t" $seeds || found="${found:-} $t"
done
[ -z "${found:-}" ] || { echo "fuzz.sh: findings from$found (in $build/findings-*)"; exit 1; }
