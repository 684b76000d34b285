#!/bin/sh
# fit-efficiency.sh BUILD ACCELERATOR FIELD PATTERN VALUE... — how std.accelerators' fitted
# efficiencies were found (docs/parallelism.md, "Per-accelerator constants"): for each VALUE,
# a copy of stdlib/ with ACCELERATOR's FIELD (matmul_efficiency or fp8_matmul_efficiency) set
# to it, the planner's accuracy suite run on that copy (tests/unit/test_plan.c, "accuracy:
# published runs"), and the root-mean-square and mean absolute errors of the rows marked fit
# whose name matches PATTERN (an awk regular expression). The value with the least
# root-mean-square error is the one to keep (least squares: with two rows of opposite signs
# the mean absolute error is flat between them).
#   scripts/fit-efficiency.sh build A100_SXM_80GB matmul_efficiency Korthikanti 0.72 0.73 0.74 0.75
#   scripts/fit-efficiency.sh build H100_SXM fp8_matmul_efficiency 'H100 FP8' 0.56 0.58 0.60
set -eu
[ $# -ge 5 ] || { echo "usage: $0 BUILD ACCELERATOR FIELD PATTERN VALUE..." >&2; exit 64; }
cd "$(dirname "$0")/.."
build=$1 accel=$2 field=$3 pattern=$4
shift 4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clusterc-fit-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
for value in "$@"; do
	cp stdlib/*.cluster "$tmp/"
	# The field's line inside `accelerator ACCEL { ... }`, its value replaced, comment kept.
	awk -v a="$accel" -v f="$field" -v v="$value" '
		$1 == "accelerator" && $2 == a { inside = 1 }
		inside && $1 == f { sub(/=[ ]*[0-9.]+/, "= " v); found = 1 }
		inside && /^}/ { inside = 0 }
		{ print }
		END { if (!found) { print "fit-efficiency: no " f " in " a > "/dev/stderr"; exit 1 } }
	' stdlib/accelerators.cluster >"$tmp/accelerators.cluster"
	CLUSTERC_STDLIB=$tmp "$build/tests/unit_tests" --run plan "accuracy: published runs" |
		awk -v p="$pattern" -v v="$value" '
			$1 == "fit" && $0 ~ p {
				e = $NF == "%)" ? $(NF - 1) : $NF
				gsub(/[(+%)]/, "", e)
				sum += e < 0 ? -e : e; sq += e * e; n++
			}
			END { if (n) printf "%s: %d fitted rows, rms error %.2f %%, mean absolute %.2f %%\n",
					   v, n, sqrt(sq / n), sum / n
			      else print v ": no fitted row matches" }'
done
