#!/bin/sh
# run-golden.sh MODE CLUSTERC DIR — golden tests (cproc style): each DIR/NAME.cluster is run
# through clusterc and the output compared with its sibling expected file, whose extension
# names the stage:
#   diag  NAME.err   `clusterc check --color=never NAME.cluster`: stderr, then "[exit N]"
#   json  NAME.json  the same with --diagnostics=json
#   fmt   NAME.fmt   `clusterc fmt - < NAME.cluster`: stdout, then "[exit N]" when not 0
#   build NAME.err   `clusterc build --color=never NAME.cluster -o TMP`: stderr, "[exit N]"
# A line "// args: ..." at the top of an input adds command-line arguments. The command runs
# inside DIR so paths in messages are plain file names. UPDATE_GOLDEN=1 rewrites the expected
# files instead of comparing (review the diff before committing).
set -u
mode=$1 clusterc=$2 dir=$3
case $mode in diag | build) ext=err ;; json) ext=json ;; fmt) ext=fmt ;; *) echo "bad mode $mode" >&2; exit 2 ;; esac
cd "$dir" || exit 2
fail=0 count=0
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
for input in *.cluster; do
	name=${input%.cluster}
	# The args line is shell words: quotes group, as on a command line.
	eval "set -- $(sed -n '1s|^// args: ||p' "$input")"
	case $mode in
	diag) "$clusterc" check --color=never "$@" "$input" >/dev/null 2>"$tmp"; rc=$? ;;
	json) "$clusterc" check --diagnostics=json "$@" "$input" >/dev/null 2>"$tmp"; rc=$? ;;
	fmt) "$clusterc" fmt - <"$input" >"$tmp" 2>&1; rc=$? ;;
	build)
		out=$(mktemp -d) || exit 2
		"$clusterc" build -q --color=never "$@" "$input" -o "$out/out" >/dev/null 2>"$tmp"
		rc=$?
		# A failed build leaves nothing behind.
		if [ $rc -ne 0 ] && [ -e "$out/out" ]; then echo "[output left behind]" >>"$tmp"; fi
		rm -rf "$out" ;;
	esac
	if [ "$mode" != fmt ] || [ $rc -ne 0 ]; then
		echo "[exit $rc]" >>"$tmp"
	fi
	count=$((count + 1))
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$tmp" "$name.$ext"
	elif ! cmp -s "$tmp" "$name.$ext"; then
		echo "FAIL $dir/$input"
		diff -u "$name.$ext" "$tmp" | head -40
		fail=$((fail + 1))
	fi
done
echo "$mode: $count tests, $fail failed"
[ $fail -eq 0 ]
