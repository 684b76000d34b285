#!/bin/sh
# regen-goldens.sh [BUILD] — rewrites every golden file from BUILD's clusterc (default build/):
# docs/language.md's field tables, the diagnostics (text and JSON), the build errors, the IR
# dumps, the artifacts, the placement, the comparison and the diff goldens, and the Megatron-LM
# arguments of tests/megatron. For a change that
# alters outputs on purpose; review `git diff` before committing.
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
case $build in /*) c=$build/clusterc ;; *) c=$PWD/$build/clusterc ;; esac
export CLUSTERC_STDLIB=$PWD/stdlib NO_COLOR= UPDATE_GOLDEN=1
scripts/update-docs.sh "$c"
for m in diag:diag json:diag-json build:build-errors fmt:fmt; do
	tests/run-golden.sh "${m%%:*}" "$c" "$PWD/tests/${m#*:}" >/dev/null
done
python3 tests/launch.py "$c" "$PWD" >/dev/null 2>&1 || echo "regen-goldens: tests/launch.py still fails after rewriting" >&2
for t in ir artifacts placement compare diff; do
	tests/$t.sh "$c" "$PWD" >/dev/null 2>&1 || echo "regen-goldens: tests/$t.sh still fails after rewriting" >&2
done
