#!/bin/sh
# frr_fabric.sh CLUSTERC ROOT — the generated switch configurations brought up as a running
# fabric (docs/switch-configs.md, docs/testing.md): tests/frr/fabric.cluster (4 leaves, 2
# spines, 8 hosts) built, then
#  - each switch in a network namespace of its own, running FRR's zebra and bgpd with their own
#    pid files, zebra socket and vty sockets (-i, -z, --vty_socket; no TCP vty), its frr.conf
#    loaded as FRR boots an integrated configuration (`vtysh -b`): every line must apply;
#  - the interfaces and addresses as SONiC makes them from config_db.json (INTERFACE,
#    LOOPBACK_INTERFACE: the loopback a dummy interface, or lo where the kernel has no dummy
#    driver): a veth pair per link, each end named
#    as the configs name the port (tests/frr/plan.py pairs the ports by their /31), and
#    a namespace per host with the host end of its /31 and a default route to its leaf. Only
#    these addresses and IPv6 link-local ones: nothing leaves the namespaces;
#  - within 60 s (FRR's datacenter timers converge in a few seconds), tests/frr/check.py
#    must find, through vtysh in each namespace (JSON): every configured session Established;
#    every leaf's loopback on every other leaf from BGP over as many next hops as the leaf has
#    uplinks (= spines), in its kernel table too; every host subnet routed; no /31 of a link
#    between two switches in any BGP table, RIB or kernel table but as its own ends' connected
#    route;
#  - every host pings every other host and every leaf every other leaf's loopback from its own
#    (tests/frr/ping.py: the routes installed forward);
#  - the checks can fail: with one leaf's announcement policy removed (`redistribute connected`
#    without the route-map, no route-map on its sessions), the check must see its fabric /31s
#    within 30 s, on that leaf and the spines only (the spines' route-map stops them there).
# Namespaces and daemons are removed on every exit (trap). Skipped (exit 77, ctest's
# SKIP_RETURN_CODE) when FRR's daemons or vtysh are missing, when not root, or when this
# machine cannot create network namespaces; FRR_DAEMONS overrides /usr/lib/frr.
set -u
clusterc=$1 root=$2
cd "$root" || exit 2
SKIP=77
frr=${FRR_DAEMONS:-/usr/lib/frr}
skip() {
	echo "SKIP: $*"
	exit $SKIP
}
fail=0
err() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

[ -x "$frr/zebra" ] && [ -x "$frr/bgpd" ] || skip "FRR's zebra and bgpd are not in $frr (Debian package frr)"
command -v vtysh >/dev/null 2>&1 || skip "vtysh not found (Debian package frr)"
command -v ip >/dev/null 2>&1 || skip "ip not found (Debian package iproute2)"
command -v python3 >/dev/null 2>&1 || skip "python3 not found"
[ "$(id -u)" -eq 0 ] || skip "not root: network namespaces and veth pairs need CAP_SYS_ADMIN and CAP_NET_ADMIN"

tmp=$(mktemp -d) || exit 2
prefix=ccfrr$$
: >"$tmp/namespaces"
cleanup() {
	for pidfile in "$tmp"/ns/*/*.pid; do
		[ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
	done
	# bgpd and zebra leave within a second of SIGTERM; what is left after 5 s gets SIGKILL.
	for i in 1 2 3 4 5 6 7 8 9 10; do
		alive=0
		for pidfile in "$tmp"/ns/*/*.pid; do
			[ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null && alive=1
		done
		[ $alive -eq 0 ] && break
		sleep 0.5
	done
	for pidfile in "$tmp"/ns/*/*.pid; do
		[ -s "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null
	done
	while read -r ns; do
		ip netns del "$ns" 2>/dev/null
	done <"$tmp/namespaces"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

# newns NAME: a namespace, remembered for the cleanup.
newns() {
	echo "$1" >>"$tmp/namespaces"
	ip netns add "$1" && ip -netns "$1" link set lo up
}
if ! newns "$prefix-probe" 2>"$tmp/probe.err"; then
	skip "ip netns add fails on this machine: $(head -1 "$tmp/probe.err")"
fi
ip netns del "$prefix-probe"

mkdir "$tmp/ns"
"$clusterc" build -q --emit switches tests/frr/fabric.cluster -o "$tmp/out" 2>"$tmp/build.err" || {
	echo "FAIL: build tests/frr/fabric.cluster: $(head -3 "$tmp/build.err")"
	exit 1
}
python3 tests/frr/plan.py "$tmp/out" "$prefix" >"$tmp/plan" || exit 1
[ "$(grep -c '^switch ' "$tmp/plan")" -eq 6 ] || err "$(grep -c '^switch ' "$tmp/plan") switches, expected 4 leaves and 2 spines"
[ "$(grep -c '^link ' "$tmp/plan")" -eq 8 ] || err "$(grep -c '^link ' "$tmp/plan") leaf-spine links, expected 8"
[ "$(grep -c '^host ' "$tmp/plan")" -eq 8 ] || err "$(grep -c '^host ' "$tmp/plan") host links, expected 8"

# The lab: namespaces, interfaces, addresses (what SONiC's intfmgrd does from config_db.json).
run() { "$@" 2>>"$tmp/setup.err" || err "$*: $(tail -1 "$tmp/setup.err")"; }
while read -r kind a b c d e f; do
	case $kind in
	switch) # NS NAME LOOPBACK_IF LOOPBACK
		newns "$a" || err "ip netns add $a"
		run ip netns exec "$a" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
		# SONiC's loopback is a dummy interface; a kernel without the dummy driver gets
		# the address on lo (frr.conf names no loopback interface: the same routes).
		if ip -netns "$a" link add "$c" type dummy 2>/dev/null; then
			run ip -netns "$a" link set "$c" up
		else
			c=lo
		fi
		run ip -netns "$a" addr add "$d" dev "$c"
		mkdir "$tmp/ns/$a"
		cp "$tmp/out/switches/$b/frr.conf" "$tmp/ns/$a/frr.conf"
		echo "$b" >"$tmp/ns/$a/name" ;;
	link) # NS_A PORT_A ADDR_A NS_B PORT_B ADDR_B
		run ip link add "$b" netns "$a" type veth peer name "$e" netns "$d"
		run ip -netns "$a" addr add "$c" dev "$b"
		run ip -netns "$d" addr add "$f" dev "$e"
		run ip -netns "$a" link set "$b" up
		run ip -netns "$d" link set "$e" up ;;
	host) # NS PORT ADDR HOST_NS HOST_ADDR GATEWAY
		newns "$d" || err "ip netns add $d"
		run ip link add "$b" netns "$a" type veth peer name eth0 netns "$d"
		run ip -netns "$a" addr add "$c" dev "$b"
		run ip -netns "$d" addr add "$e" dev eth0
		run ip -netns "$a" link set "$b" up
		run ip -netns "$d" link set eth0 up
		run ip -netns "$d" route add default via "$f" ;;
	esac
done <"$tmp/plan"
[ $fail -eq 0 ] || exit 1

# FRR in each switch's namespace: zebra, then bgpd, then the configuration as FRR boots it.
# The daemons run as the package's user (frr), in directories of their own.
id frr >/dev/null 2>&1 || skip "no user frr (the frr package creates it; its daemons run as frr)"
chmod 755 "$tmp" "$tmp/ns"
for d in "$tmp"/ns/*/; do
	ns=$(basename "$d")
	d=${d%/}
	: >"$d/vtysh.conf"
	: >"$d/empty.conf"
	chown -R frr:frr "$d"
	for daemon in zebra bgpd; do
		ip netns exec "$ns" "$frr/$daemon" -d -P 0 -f "$d/empty.conf" \
			-i "$d/$daemon.pid" -z "$d/zserv.api" --vty_socket "$d" \
			--log "file:$d/$daemon.log" 2>>"$d/start.err" ||
			err "$ns: $daemon did not start: $(tail -1 "$d/start.err")"
	done
done
[ $fail -eq 0 ] || exit 1
for d in "$tmp"/ns/*/; do
	d=${d%/}
	for i in $(seq 50); do
		[ -S "$d/zebra.vty" ] && [ -S "$d/bgpd.vty" ] && break
		sleep 0.2
	done
	[ -S "$d/bgpd.vty" ] || err "$(cat "$d/name"): bgpd's vty socket did not appear in 10 s"
done
[ $fail -eq 0 ] || exit 1
for d in "$tmp"/ns/*/; do
	ns=$(basename "$d")
	d=${d%/}
	ip netns exec "$ns" vtysh --config_dir "$d" --vty_socket "$d" -b >"$d/boot.out" 2>&1 ||
		err "$(cat "$d/name"): vtysh -b does not apply frr.conf: $(grep -v '^$' "$d/boot.out" | head -5)"
done
[ $fail -eq 0 ] || exit 1

# check SECONDS: the checks pass within SECONDS (their last output in $tmp/check.out).
check() {
	end=$(($(date +%s) + $1))
	while :; do
		python3 tests/frr/check.py "$tmp/out/lab.json" "$tmp/ns" >"$tmp/check.out" 2>&1 && return 0
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 1
	done
}
start=$(date +%s)
if check 60; then
	echo "converged in $(($(date +%s) - start)) s: every session Established, leaf loopbacks over every spine, no fabric /31 announced"
else
	err "not converged in 60 s:"
	cat "$tmp/check.out"
	for d in "$tmp"/ns/*/; do
		echo "  $(cat "$d/name") bgpd.log: $(tail -3 "$d/bgpd.log" | tr '\n' ' ')"
	done
	exit 1
fi

# The data plane: host to host across the fabric, leaf loopback to leaf loopback.
awk '$1 == "host" {split($6, a, "/"); print $5, a[1]}' "$tmp/plan" >"$tmp/hosts"
python3 -c 'import json, sys
lab = json.load(open(sys.argv[1]))
for n in lab["leaves"]:
    print(lab["switches"][n]["ns"], lab["switches"][n]["loopback"].split("/")[0])' "$tmp/out/lab.json" >"$tmp/leaves"
pings=0
# reach LIST FROM_LOOPBACK: each namespace of LIST (lines "NS ADDR") reaches every other ADDR,
# from its own ADDR when FROM_LOOPBACK is 1.
reach() {
	while read -r ns addr; do
		dsts=$(awk -v me="$addr" '$2 != me {print $2}' "$1")
		pings=$((pings + $(echo "$dsts" | wc -l)))
		from=
		[ "$2" -eq 1 ] && from="--from $addr"
		# shellcheck disable=SC2086
		ip netns exec "$ns" python3 tests/frr/ping.py $from $dsts >"$tmp/ping.out" 2>&1 ||
			err "$ns ($addr): $(tr '\n' ' ' <"$tmp/ping.out")"
	done <"$1"
}
reach "$tmp/hosts" 0
reach "$tmp/leaves" 1
[ $pings -eq 68 ] || err "$pings destinations pinged, expected 8 x 7 between hosts and 4 x 3 between leaves"

# The checks can fail: one leaf announces every connected route, its fabric /31s with them.
ns=$(head -1 "$tmp/leaves" | cut -d' ' -f1)
asn=$(sed -n 's/^router bgp \([0-9]*\)$/\1/p' "$tmp/ns/$ns/frr.conf")
ip netns exec "$ns" vtysh --config_dir "$tmp/ns/$ns" --vty_socket "$tmp/ns/$ns" \
	-c 'configure terminal' -c "router bgp $asn" -c 'address-family ipv4 unicast' \
	-c 'no redistribute connected' -c 'redistribute connected' \
	-c 'no neighbor FABRIC route-map ANNOUNCE out' >"$tmp/leak.out" 2>&1 ||
	err "could not change $ns's policy: $(head -3 "$tmp/leak.out")"
end=$(($(date +%s) + 30))
seen=0
while [ "$(date +%s)" -lt "$end" ]; do
	if ! python3 tests/frr/check.py "$tmp/out/lab.json" "$tmp/ns" >"$tmp/check.out" 2>&1 &&
		grep -q 'the fabric link .* is in its' "$tmp/check.out"; then
		seen=1
		break
	fi
	sleep 1
done
if [ $seen -eq 1 ]; then
	# The spines' own ANNOUNCE on their sessions keeps the leak one hop deep: 5 s on, no other
	# leaf has any of it.
	sleep 5
	python3 tests/frr/check.py "$tmp/out/lab.json" "$tmp/ns" >"$tmp/check.out" 2>&1
	leaf=$(cat "$tmp/ns/$ns/name")
	echo "with $leaf's policy removed, the check sees $(grep -c 'the fabric link' "$tmp/check.out") fabric /31s in tables, e.g.$(grep -m 1 'the fabric link' "$tmp/check.out")"
	for other in $(python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["leaves"]))' "$tmp/out/lab.json"); do
		[ "$other" = "$leaf" ] && continue
		grep -q "^  $other: the fabric link" "$tmp/check.out" &&
			err "$leaf's unfiltered /31s reached $other through the spines: $(grep -m 1 "^  $other: the fabric link" "$tmp/check.out")"
	done
else
	err "with $ns announcing its connected routes unfiltered, the check saw no fabric /31 in 30 s: $(head -3 "$tmp/check.out")"
fi

[ $fail -eq 0 ] || exit 1
echo "frr fabric: ok"
