#!/bin/sh
# install-deps.sh — installs the Debian packages clusterc needs to build and test, when they are
# missing. Runs apt-get as root, or through sudo. Prints nothing when everything is present.
#
#   scripts/install-deps.sh            build and test dependencies
#   scripts/install-deps.sh --print    list the packages and exit
set -eu

# Build: compiler, CMake, flex, bison and the libraries of PRODUCT.md's fixed choices.
BUILD="gcc make cmake pkg-config flex bison libglpk-dev glpk-utils libgraphviz-dev graphviz
libyaml-dev libjansson-dev nettle-dev libcunit1-dev"
# Tests: the real tools that read our artifacts (chromium reads report.html), python3 for the
# tests that parse JSON and YAML artifacts (PyYAML, with libyaml's fast loader), clang for the
# second build of the suite and the fuzz targets, valgrind for the memcheck sample, GNU time
# for the CPU-time bounds of the robustness test, COIN-OR's cbc for a second solver on the
# optimizer's model.lp (tests/optimize.sh), xmllint and rsvg-convert for facility/one-line.svg
# (tests/artifacts.sh).
TEST="time clang python3 python3-yaml valgrind ibsim-utils opensm infiniband-diags frr slurmctld slurmd chromium coinor-cbc librsvg2-bin libxml2-utils"

PACKAGES="$BUILD $TEST"
if [ "${1:-}" = "--print" ]; then
	echo $PACKAGES
	exit 0
fi

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "clusterc: these Debian packages are missing:$missing" >&2
	echo "clusterc: install them as root: apt-get install$missing" >&2
	exit 1
fi

echo "clusterc: installing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
