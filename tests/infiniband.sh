#!/bin/sh
# infiniband.sh CLUSTERC ROOT — the InfiniBand files of the DGX H100 SuperPOD (one scalable
# unit: 8 leaf + 4 spine QM9700, 31 DGX x 8 rails, 4 UFM appliances) read by the real tools:
#  - structure, without any tool: infiniband/compute.topo lists each of the 12 switches and 252
#    HCAs once with unique GUIDs, every one of the 508 links appears from both ends with the
#    same port numbers, no port is used twice or beyond the device's port count; the root,
#    compute-node and node-name files name exactly the spines, the DGX HCA ports and every node;
#  - ibsim (ibsim-utils) loads the .topo, and OpenSM, attached through ibsim's umad simulator
#    (LD_PRELOAD=libumad2sim.so) at a UFM appliance's HCA with the generated opensm.conf, sweeps
#    the subnet once: it must discover every switch and HCA and route with the ftree engine
#    (4 roots, 8 leaves, 248 compute nodes), not fall back to minhop; the same for the whole
#    SuperPOD example (4 SU: 48 switches, 1,020 HCAs; 16 roots, 32 leaves, 1,016 compute nodes),
#    and for tests/infiniband/ib-pods.cluster, a 3-tier tree written per tier with explicit
#    pods and ToRs in the server racks (64 switches, 128 HCAs; 6 roots, 22 leaves at rank 2);
#  - two builds give byte-identical files.
# ibsim and OpenSM are required: a machine that lacks them or cannot run them (no sockets) is a
# FAIL that says why, never a silent pass. Everything runs under timeouts; ibsim and OpenSM are
# stopped on exit.
set -u
clusterc=$1 root=$2
cd "$root" || exit 2
tmp=$(mktemp -d) || exit 2
fail=0
err() { echo "FAIL: $*"; fail=$((fail + 1)); }
. "$root/tests/ibsim.sh"

# expect WHAT WANT GOT
expect() {
	[ "$3" = "$2" ] || err "$1: $3, expected $2"
}

# none WHAT FOUND: FOUND (the first offenders) should be empty.
none() {
	[ -z "$2" ] || err "$1:
$2"
}

out=$tmp/su1
timeout 30 "$clusterc" build -q examples/dgx-h100-superpod.cluster --scenario su1 -o "$out" ||
	{ echo "FAIL: build of the SuperPOD su1"; exit 1; }
ib=$out/infiniband
topo=$ib/compute.topo
for f in compute.topo compute.node-name-map compute.root_guids compute.cn_guids opensm.conf; do
	[ -s "$ib/$f" ] || err "no $ib/$f"
done
[ "$fail" -eq 0 ] || exit 1

# ---- structure ------------------------------------------------------------------------------

# One line per fact: "node KIND ID PORTS DESCRIPTION", "link ID PORT PEER PEERPORT", "guid ID" (the
# switchguid= or caguid= line before a record), "bad LINE".
awk '
/^(switchguid|caguid)=/ { g = $0; sub(/^[a-z]*=0x/, "", g); sub(/\(.*/, "", g); guid = g; next }
/^(Switch|Ca)\t/ {
	n = $0; sub(/^[A-Za-z]*\t/, "", n); ports = n + 0
	id = $0; sub(/^[^"]*"/, "", id); sub(/".*/, "", id)
	desc = $0; sub(/^[^#]*# "/, "", desc); sub(/".*/, "", desc)
	print "node", $1, id, ports, desc
	print "guid", id, guid
	next
}
/^\[/ {
	p = substr($0, 2) + 0
	peer = $0; sub(/^[^"]*"/, "", peer); pp = peer; sub(/".*/, "", peer)
	sub(/^[^"]*"\[/, "", pp); pp = pp + 0
	print "link", id, p, peer, pp
	next
}
/^#/ || /^$/ { next }
{ print "bad", $0 }
' "$topo" >"$tmp/facts"

expect "switch records" 12 "$(grep -c '^node Switch ' "$tmp/facts")"
expect "HCA records" 252 "$(grep -c '^node Ca ' "$tmp/facts")"
expect "port lines (508 links, both ends)" 1016 "$(grep -c '^link ' "$tmp/facts")"
grep '^bad ' "$tmp/facts" | head -3 | while read -r _ line; do echo "FAIL: $topo: unexpected line: $line"; done
expect "unexpected lines" 0 "$(grep -c '^bad ' "$tmp/facts")"
none "records named twice" "$(grep '^node ' "$tmp/facts" | cut -d' ' -f3 | sort | uniq -d | head -3)"
awk '$1 == "guid" {
	want = ($2 ~ /^S-/ ? "S-" : "H-") $3
	if ($2 != want) print $2 " follows the GUID line 0x" $3
}' "$tmp/facts" >"$tmp/guid.err"
none "records whose ID is not their GUID" "$(head -3 "$tmp/guid.err")"

# Every link from both ends, ports within range and used once.
awk '
$1 == "node" { ports[$3] = $4 }
$1 == "link" { n++; a[n] = $2; ap[n] = $3; z[n] = $4; zp[n] = $5; key[$2 " " $3]++; to[$2 " " $3] = $4 " " $5 }
END {
	for (i = 1; i <= n; i++) {
		if (!(a[i] in ports)) { print "port line of unknown " a[i]; continue }
		if (!(z[i] in ports)) { print a[i] "[" ap[i] "] goes to unknown " z[i]; continue }
		if (ap[i] < 1 || ap[i] > ports[a[i]]) print a[i] "[" ap[i] "] beyond its " ports[a[i]] " ports"
		if (zp[i] < 1 || zp[i] > ports[z[i]]) print z[i] "[" zp[i] "] beyond its " ports[z[i]] " ports"
		if (key[a[i] " " ap[i]] > 1) print a[i] "[" ap[i] "] listed " key[a[i] " " ap[i]] " times"
		back = to[z[i] " " zp[i]]
		if (back != a[i] " " ap[i])
			print a[i] "[" ap[i] "] -> " z[i] "[" zp[i] "], which says it goes to [" back "]"
	}
}' "$tmp/facts" >"$tmp/links.err"
none "links not written alike from both ends" "$(head -5 "$tmp/links.err")"

# The ftree files: roots are the spines, compute nodes the DGX HCA ports, all in the .topo.
grep -v '^#' "$ib/compute.root_guids" | cut -d' ' -f1 | sed 's/^0x/S-/' | sort >"$tmp/roots"
grep '^node Switch ' "$tmp/facts" | cut -d' ' -f3 | sort >"$tmp/switch.ids"
expect "root GUIDs" 4 "$(wc -l <"$tmp/roots" | tr -d ' ')"
none "root GUIDs that are no switch" "$(comm -23 "$tmp/roots" "$tmp/switch.ids" | head -3)"
expect "roots not spines" 4 "$(grep -c 'compute-spine-' "$ib/compute.root_guids")"
# The compute nodes are the linked ports of the DGX HCAs (described "dgxNNN mlx5_N"); a port's
# GUID is its HCA's GUID + the port number (ibsim's rule).
awk '$1 == "node" { desc[$3] = $5 }
$1 == "link" && $2 ~ /^H-/ && desc[$2] ~ /^dgx[0-9]+$/ { printf "%s %d\n", substr($2, 3), $3 }' \
	"$tmp/facts" | while read -r g p; do printf '%016x\n' $((0x$g + p)); done | sort >"$tmp/dgx.ports"
grep -v '^#' "$ib/compute.cn_guids" | cut -d' ' -f1 | sed 's/^0x//' | sort >"$tmp/cns"
expect "DGX HCA ports in the .topo" 248 "$(wc -l <"$tmp/dgx.ports" | tr -d ' ')"
expect "compute-node GUIDs" 248 "$(wc -l <"$tmp/cns" | tr -d ' ')"
none "compute-node GUIDs that are no DGX HCA port" "$(comm -23 "$tmp/cns" "$tmp/dgx.ports" | head -3)"
none "DGX HCA ports missing from compute.cn_guids" "$(comm -13 "$tmp/cns" "$tmp/dgx.ports" | head -3)"
grep -v '^#' "$ib/compute.node-name-map" | cut -d' ' -f1 | sed 's/^0x//' | sort >"$tmp/named"
grep '^node ' "$tmp/facts" | cut -d' ' -f3 | cut -c3- | sort >"$tmp/node.guids"
cmp -s "$tmp/named" "$tmp/node.guids" || err "compute.node-name-map does not name exactly the .topo's nodes"
grep -q '^0x0201000000010000 "compute-leaf-001"$' "$ib/compute.node-name-map" ||
	err "compute.node-name-map: no line for compute-leaf-001"
grep -q '^routing_engine ftree$' "$ib/opensm.conf" || err "opensm.conf: routing_engine is not ftree"

# Determinism.
timeout 30 "$clusterc" build -q examples/dgx-h100-superpod.cluster --scenario su1 -o "$tmp/again" ||
	err "rebuild su1"
diff -r "$ib" "$tmp/again/infiniband" >/dev/null || err "two builds give different infiniband/ files"

# ---- ibsim and OpenSM -----------------------------------------------------------------------

ibsim_require opensm

# simulate NAME IBDIR SWITCHES CAS CNS ROOTS LEAVES: ibsim loads IBDIR/compute.topo, OpenSM
# sweeps it once with IBDIR/opensm.conf from a UFM appliance's HCA; it must discover exactly the
# .topo's nodes and route with ftree (ROOTS spines at rank 0, LEAVES leaves, CNS compute nodes).
simulate() {
	name=$1 ib=$2 n_sw=$3 n_ca=$4 n_cn=$5 n_root=$6 n_leaf=$7 leaf_rank=${8:-1}
	topo=$ib/compute.topo
	sm=$tmp/sm-$name
	mkdir "$sm"
	sed -n 's/^\(switch\|ca\)guid=0x\([0-9a-f]*\).*/\2/p' "$topo" | sort >"$sm/node.guids"
	ibsim_start "$name" "$topo" "$sm/ibsim.log"

	# The SM runs where the SuperPOD runs it: on a UFM appliance's HCA.
	# (A design without UFM appliances, as ToRs in server racks allow none: its first HCA.)
	sim_host=$(sed -n 's/^Ca\t[0-9]* "\(H-[0-9a-f]*\)".*ufm_appliance-1 .*/\1/p' "$topo" | head -1)
	[ -n "$sim_host" ] || [ "${SIM_ANY_HCA:-0}" != 1 ] ||
		sim_host=$(sed -n 's/^Ca\t[0-9]* "\(H-[0-9a-f]*\)".*/\1/p' "$topo" | head -1)
	[ -n "$sim_host" ] || err "$topo: no UFM appliance HCA"
	sed "s|/etc/opensm/|$ib/|" "$ib/opensm.conf" >"$sm/opensm.conf"
	(cd "$sm" && SIM_HOST=$sim_host OSM_TMP_DIR=$sm OSM_CACHE_DIR=$sm LD_PRELOAD=$umad2sim \
		timeout 30 opensm -F "$sm/opensm.conf" -o -f "$sm/opensm.log" >"$sm/opensm.out" 2>&1)
	rc=$?
	ibsim_stop
	log=$sm/opensm.log
	if [ "$rc" -ne 0 ] || [ ! -s "$log" ]; then
		if [ "$rc" -eq 124 ]; then
			echo "FAIL: $name: OpenSM did not finish one sweep within 30 s (cannot reach ibsim?)"
		else
			echo "FAIL: $name: OpenSM exited with $rc:"
		fi
		tail -5 "$sm/opensm.out"
		[ -f "$log" ] && tail -5 "$log"
		exit 1
	fi

	# What OpenSM discovered: its subnet dump lists every link with both ends' node GUIDs.
	lst=$sm/opensm-subnet.lst
	if [ -s "$lst" ]; then
		grep -o '{ [A-Z-]* Ports:[0-9a-fA-F]* SystemGUID:[0-9a-fA-F]* NodeGUID:[0-9a-fA-F]*' "$lst" |
			sed 's/^{ \([A-Z]*\)[-A-Z]* .*NodeGUID:\(.*\)/\1 \2/' | sort -u >"$sm/seen"
		expect "$name: switches OpenSM discovered" "$n_sw" "$(grep -c '^SW ' "$sm/seen")"
		expect "$name: HCAs OpenSM discovered" "$n_ca" "$(grep -c '^CA ' "$sm/seen")"
		cut -d' ' -f2 "$sm/seen" | tr 'A-F' 'a-f' | sort >"$sm/seen.guids"
		cmp -s "$sm/seen.guids" "$sm/node.guids" ||
			err "$name: OpenSM discovered other node GUIDs than the .topo's"
	else
		err "$name: OpenSM wrote no subnet dump $lst"
	fi
	grep -q "Fabric has $n_ca CAs, $n_ca CA ports ($n_cn of them CNs), $n_sw switches" "$log" ||
		err "$name: ftree did not see $n_ca CAs ($n_cn compute nodes) and $n_sw switches: $(grep 'Fabric has' "$log" | head -1)"
	grep -q "Fabric has $n_root switches at rank 0 (roots)" "$log" ||
		err "$name: ftree did not rank the $n_root spines as roots"
	grep -q "Fabric has $n_leaf switches at rank $leaf_rank ($n_leaf of them leafs)" "$log" ||
		err "$name: ftree did not find $n_leaf leaf switches"
	grep -q 'ftree tables configured on all switches' "$log" || err "$name: OpenSM did not route with ftree"
	grep -qi 'falling back\|minhop tables configured' "$log" &&
		err "$name: OpenSM fell back to minhop: $(grep -i 'ftree\|fall\|rank is' "$log" | head -3)"
	grep -q 'ERR AB' "$log" && err "$name: ftree errors: $(grep 'ERR AB' "$log" | head -2)"
	grep -q 'SUBNET UP' "$log" || err "$name: OpenSM did not bring the subnet up"
	ca_order=$sm/opensm-ftree-ca-order.dump
	# (ftree pads each leaf's list to the fullest leaf's with dummy LID 0xFFFF entries)
	[ -f "$ca_order" ] && expect "$name: compute nodes in ftree's CA order" "$n_cn" \
		"$(grep -cv '^0xFFFF' "$ca_order")"

	if [ "$fail" -ne 0 ]; then
		echo "infiniband: $fail failure(s); $name OpenSM log:"
		grep -v '^$' "$log" | tail -15
		exit 1
	fi
}

simulate su1 "$ib" 12 252 248 4 8
# The whole SuperPOD (4 SU, 127 DGX): 16 spines + 32 leaves, 1,016 DGX HCAs and 4 UFM.
timeout 30 "$clusterc" build -q examples/dgx-h100-superpod.cluster --emit=infiniband -o "$tmp/pod" ||
	{ echo "FAIL: build of the SuperPOD"; exit 1; }
simulate superpod "$tmp/pod/infiniband" 48 1020 1016 16 32
# Issue 15's shapes on an InfiniBand subnet (tests/infiniband/ib-pods.cluster): a 3-tier tree
# written per tier, with explicit pods of 4 leaves and ToRs in the server racks (one per 2
# racks): 22 ToRs, 36 spines in 6 pods, 6 cores; 128 HCAs, all compute nodes.
timeout 30 "$clusterc" build -q tests/infiniband/ib-pods.cluster --emit=infiniband,report.json -o "$tmp/pods" ||
	{ echo "FAIL: build of tests/infiniband/ib-pods.cluster"; exit 1; }
python3 - "$tmp/pods/report.json" <<'PY' || err "ib-pods: not the per-tier shape the test expects"
import json, sys
f = json.load(open(sys.argv[1]))["fabrics"][0]
want = {"leaf": 22, "spine": 36, "core": 6}
got = {k: f["switches_by_tier"][k] for k in want}
ok = got == want and f["pods"] == 6 and f["pod_leaves"] == 4 and f["leaf_placement"] == "server_rack"
print("" if ok else "ib-pods: %r, pods %r of %r leaves, %r" % (got, f["pods"], f["pod_leaves"], f["leaf_placement"]))
sys.exit(0 if ok else 1)
PY
SIM_ANY_HCA=1 simulate ib-pods "$tmp/pods/infiniband" 64 128 128 6 22 2
echo "infiniband: ok (ibsim: 12 switches, 252 HCAs; OpenSM ftree: 4 roots, 8 leaves, 248 CNs; the whole SuperPOD: 48 switches, 1020 HCAs, 16 roots, 32 leaves, 1016 CNs; the per-tier tree with pods and ToRs: 64 switches, 128 HCAs, 6 roots, 22 leaves)"
