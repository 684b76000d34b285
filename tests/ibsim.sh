# tests/ibsim.sh — ibsim for the shell tests that bring a planned InfiniBand fabric up
# (infiniband.sh with OpenSM, verify.sh with ibnetdiscover); sourced after tests/lib.sh or
# after the script's own $tmp and err().
#   ibsim_require TOOL...     sets $umad2sim (ibsim's umad simulator, for LD_PRELOAD); exits
#                             with a FAIL naming what is missing (ibsim, TOOL..., the library)
#   ibsim_start NAME TOPO LOG ibsim loads TOPO under a socket of its own; waits until it is
#                             ready (10 s), else exits with a FAIL and LOG's tail; $ibsim_pid
#   ibsim_stop                stops it
# ibsim is stopped on exit too: ibsim_trap is the EXIT trap's part (rm -rf of $tmp included).
ibsim_pid=""
ibsim_trap() {
	[ -n "$ibsim_pid" ] && kill "$ibsim_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap ibsim_trap EXIT
trap 'exit 1' INT TERM HUP

ibsim_require() {
	umad2sim=""
	for f in /usr/lib/*/umad2sim/libumad2sim.so /usr/lib/umad2sim/libumad2sim.so \
		/usr/local/lib/umad2sim/libumad2sim.so; do
		[ -f "$f" ] && { umad2sim=$f; break; }
	done
	missing=""
	for ibsim_tool in ibsim "$@"; do
		command -v "$ibsim_tool" >/dev/null 2>&1 || missing="$missing $ibsim_tool"
	done
	[ -n "$umad2sim" ] || missing="$missing libumad2sim.so"
	if [ -n "$missing" ]; then
		echo "FAIL: cannot run the InfiniBand simulation: missing$missing (Debian packages" \
			"ibsim-utils, opensm and infiniband-diags: scripts/install-deps.sh)"
		exit 1
	fi
}

ibsim_start() {
	# A socket name of our own (ibsim and umad2sim meet in the abstract Unix namespace).
	IBSIM_SOCKNAME=clusterc-ib-$$-$1
	export IBSIM_SOCKNAME
	sizes=$(sed -n 's/^#   ibsim -s \(-N [0-9]* -S [0-9]* -P [0-9]*\) .*/\1/p' "$2")
	[ -n "$sizes" ] || err "$2: no ibsim command line in its header"
	# shellcheck disable=SC2086
	timeout 55 ibsim -s -n $sizes "$2" >"$3" 2>&1 &
	ibsim_pid=$!
	for _ in $(seq 1 100); do
		grep -q 'Network simulator ready' "$3" && return 0
		kill -0 "$ibsim_pid" 2>/dev/null || break
		sleep 0.1
	done
	echo "FAIL: $1: ibsim did not load $2 (or cannot run here):"
	grep -v 'parse_port_link_width_and_speed\|encode_trap128' "$3" | tail -5
	exit 1
}

ibsim_stop() {
	kill "$ibsim_pid" 2>/dev/null
	wait "$ibsim_pid" 2>/dev/null
	ibsim_pid=""
}
