#!/bin/sh
# switch_configs.sh CLUSTERC ROOT — switches/NAME/config_db.json and frr.conf (docs/switch-configs.md):
#  - FRR's own parser accepts every frr.conf: `vtysh --dryrun` (no daemon needed) must exit 0
#    and print nothing. vtysh starts slowly (about 0.1 s), so each build's files are checked
#    concatenated, one vtysh per 100 files (each file ends with `end`, which returns vtysh to
#    the configuration node, so a file cannot lean on the one before), and a sample (the first
#    and last switch of each tier) one file per vtysh as well;
#  - every config_db.json parses, is compact as json.dumps(separators=(",", ":")) writes it,
#    with natural key order at every level (the order of SONiC's `config save`) and has the RoCE tables when lossless;
#  - every config_db.json passes tests/sonic_yang.py, the rules of the SONiC YANG models
#    (mandatory lanes and speed, types, ranges, patterns, leafrefs to PORT), and the checker
#    itself rejects a file that breaks them;
#  - one BGP mode, eBGP unnumbered in frr.conf: no BGP_NEIGHBOR; every port to a switch a peer
#    in frr.conf and no other, its DEVICE_NEIGHBOR and the peer's pointing at each other, the /31
#    configured on both ends, the peer's loopback in DEVICE_NEIGHBOR_METADATA; frr.conf's ASN
#    and router-id the switch's;
#  - the ASN plan: every leaf its own, the spines of a plane or pod one, the cores of a plane
#    one, all in the private range; loopbacks unique; no address used twice;
#  - a pool too small, or the pools overlapping, fails the build with a diagnostic at the field
#    and writes nothing; InfiniBand fabrics get no switch configurations.
#  - config_db.json's two ways of writing (table by table, entry by entry) give the same bytes;
# Builds: roce-spectrum4 (96 switches, all files), wanka --scenario roce (480 switches, all
# files through vtysh, all config_db.json), meta-24k-roce (1,680 switches of two models),
# dragonfly-1k (264 routers).
# vtysh comes from Debian's frr package (scripts/install-deps.sh): without it the test fails.
set -u
clusterc=$1 root=$2
cd "$root" || exit 2
fail=0
err() { echo "FAIL: $*"; fail=$((fail + 1)); }

if ! command -v vtysh >/dev/null 2>&1; then
	echo "FAIL: vtysh not found: install FRR (Debian package frr; scripts/install-deps.sh does)"
	exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL: python3 not found (it parses the config_db.json files)"
	exit 1
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# vtysh reads CONFIG_DIR/vtysh.conf first; /etc/frr's is readable by root and frrvty only.
mkdir "$tmp/frr" && : >"$tmp/frr/vtysh.conf"

# dryrun FILE WHAT: vtysh accepts FILE silently.
dryrun() {
	vtysh --config_dir "$tmp/frr" --dryrun -f "$1" >"$tmp/vtysh.out" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$tmp/vtysh.out" ]; then
		err "vtysh --dryrun rejects $2 (exit $rc): $(head -5 "$tmp/vtysh.out")"
		return 1
	fi
	return 0
}

# check_frr DIR: every frr.conf, 100 to a vtysh run; the sample one by one.
check_frr() {
	n=0 batch=0
	: >"$tmp/batch.conf"
	: >"$tmp/batch.list"
	for f in "$1"/switches/*/frr.conf; do
		cat "$f" >>"$tmp/batch.conf"
		echo "$f" >>"$tmp/batch.list"
		n=$((n + 1))
		if [ $((n % 100)) -eq 0 ]; then
			dryrun "$tmp/batch.conf" "one of $(head -1 "$tmp/batch.list") ... $(tail -1 "$tmp/batch.list")"
			: >"$tmp/batch.conf"
			: >"$tmp/batch.list"
		fi
	done
	[ -s "$tmp/batch.conf" ] && dryrun "$tmp/batch.conf" "one of $(head -1 "$tmp/batch.list") ... $(tail -1 "$tmp/batch.list")"
	[ "$n" -gt 0 ] || err "$1: no frr.conf"
	for tier in leaf spine core router; do
		first=$(ls -d "$1"/switches/*-"$tier"-* 2>/dev/null | head -1)
		last=$(ls -d "$1"/switches/*-"$tier"-* 2>/dev/null | tail -1)
		for s in $first $last; do
			dryrun "$s/frr.conf" "$s/frr.conf"
		done
	done
}

# check_db DIR TIERS [LANES [FABRIC]]: the Python checks over every switch of a build, or of
# FABRIC alone (its name the prefix of its switches' names) when a build has several (LANES: SerDes
# lanes of one port of its switches, 8 for OSFP and QSFP-DD, 4 for QSFP112).
check_db() {
	python3 - "$1" "$2" "${3:-8}" "${4:-}" <<'PY' || err "$1: config_db.json checks (above)"
import functools, json, os, re, socket, sys

out, tiers, lanes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fabric = sys.argv[4]  # only the switches of this fabric (its name the prefix), when given
root = os.path.join(out, "switches")
problems = []
def bad(msg):
    if len(problems) < 20:
        print("  " + msg)
    problems.append(msg)

CHUNKS = re.compile(r"(\d+)")

@functools.lru_cache(maxsize=None)
def nat(s):
    return tuple(int(t) if t.isdigit() else t for t in CHUNKS.split(s))

def ipv4(s):
    return int.from_bytes(socket.inet_aton(s), "big")

def natsorted_everywhere(o, path):
    if isinstance(o, dict):
        keys = list(o)
        if keys != sorted(keys, key=nat):
            bad("%s: keys not in natural order: %s" % (path, keys[:6]))
        for k, v in o.items():
            natsorted_everywhere(v, path + "/" + k)

db, frr = {}, {}
names = sorted(n for n in os.listdir(root) if not fabric or n.startswith(fabric + "-"))
# The layout of a sample (the first and last switch of each tier).
sample = set()
for t in ("leaf", "spine", "core", "router"):
    of = [n for n in names if re.search("-%s-[0-9]+$" % t, n)]
    sample.update(of[:1] + of[-1:])
for name in names:
    path = os.path.join(root, name, "config_db.json")
    text = open(path).read()
    try:
        d = json.loads(text)
    except ValueError as e:
        bad("%s: not JSON: %s" % (path, e))
        continue
    if name in sample and json.dumps(d, separators=(",", ":")) + "\n" != text:
        bad("%s: not laid out as json.dumps(separators=(',', ':')) writes it" % path)
    natsorted_everywhere(d, name)
    db[name] = d
    frr[name] = open(os.path.join(root, name, "frr.conf")).read()

asn = {n: int(d["DEVICE_METADATA"]["localhost"]["bgp_asn"]) for n, d in db.items()}
loopback = {}
for n, d in db.items():
    los = [k.split("|")[1] for k in d.get("LOOPBACK_INTERFACE", {}) if "|" in k]
    if len(los) != 1 or not los[0].endswith("/32"):
        bad("%s: loopbacks %s, expected one /32" % (n, los))
        continue
    loopback[n] = los[0][:-3]
    meta = d["DEVICE_METADATA"]["localhost"]
    if meta.get("hostname") != n:
        bad("%s: hostname %s" % (n, meta.get("hostname")))
    if not (4200000000 <= asn[n] <= 4294967294):
        bad("%s: ASN %d outside the 32-bit private range" % (n, asn[n]))

# Every address once: loopbacks and the switch ends of every /31.
seen = {}
for n, ip in loopback.items():
    if ip in seen:
        bad("loopback %s of %s is also %s's" % (ip, n, seen[ip]))
    seen[ip] = n
iface = {}  # switch -> {port: its address}
for n, d in db.items():
    iface[n] = {}
    ports = d.get("PORT", {})
    for k in d.get("INTERFACE", {}):
        if "|" not in k:
            if k not in ports:
                bad("%s: INTERFACE %s is not a PORT" % (n, k))
            continue
        port, pfx = k.split("|")
        a, _, plen = pfx.partition("/")
        if plen != "31":
            bad("%s: %s is not a /31" % (n, k))
        iface[n][port] = a
        if a in seen:
            bad("address %s of %s %s is also %s's" % (a, n, port, seen[a]))
        seen[a] = "%s %s" % (n, port)
    if set(iface[n]) != set(ports):
        bad("%s: ports without an address: %s" % (n, sorted(set(ports) - set(iface[n]), key=nat)[:4]))
    lossless = "PORT_QOS_MAP" in d
    if lossless:
        wred = d.get("WRED_PROFILE", {})
        for p in ports:
            q = d["PORT_QOS_MAP"].get(p, {})
            if q.get("pfc_enable") != "3":
                bad("%s %s: pfc_enable %s, expected 3" % (n, p, q.get("pfc_enable")))
            prof = d.get("QUEUE", {}).get(p + "|3", {}).get("wred_profile")
            if prof not in wred or wred[prof].get("ecn") != "ecn_all":
                bad("%s %s: queue 3 has no ECN WRED profile (%s)" % (n, p, prof))
            if p + "|3" not in d.get("BUFFER_PG", {}):
                bad("%s %s: no lossless BUFFER_PG 3" % (n, p))
            if p not in d.get("CABLE_LENGTH", {}).get("AZURE", {}):
                bad("%s %s: no CABLE_LENGTH" % (n, p))
    for p, v in ports.items():
        num = int(p[len("Ethernet"):])
        br = 2 if "subport" in v else 1
        if num % (lanes // br):
            bad("%s: %s is not on a lane boundary of a %d-lane port split %d ways" % (n, p, lanes, br))

# BGP sessions, eBGP unnumbered in frr.conf alone (one mode: no BGP_NEIGHBOR): every port to a
# switch is a peer there and nothing else is; its DEVICE_NEIGHBOR and the peer's point at each
# other; the /31 is configured on both ends; DEVICE_NEIGHBOR_METADATA has the peer's loopback.
for n, d in db.items():
    if d.get("BGP_NEIGHBOR"):
        bad("%s: BGP_NEIGHBOR entries beside the unnumbered sessions" % n)
    nbrs = d.get("DEVICE_NEIGHBOR", {})
    to_switch = {p for p, e in nbrs.items() if e.get("name") in db}
    for p in sorted(to_switch, key=nat):
        peer, pport = nbrs[p]["name"], nbrs[p].get("port")
        back = db[peer].get("DEVICE_NEIGHBOR", {}).get(pport, {})
        if back.get("name") != n or back.get("port") != p:
            bad("%s %s: %s %s does not point back (%s)" % (n, p, peer, pport, back))
        a, b = iface[n].get(p), iface[peer].get(pport)
        if not a or not b or ipv4(a) ^ ipv4(b) != 1:
            bad("%s %s and %s %s: %s and %s are not one /31" % (n, p, peer, pport, a, b))
        meta = d.get("DEVICE_NEIGHBOR_METADATA", {}).get(peer, {})
        if peer in loopback and meta.get("lo_addr") != loopback[peer] + "/32":
            bad("%s: DEVICE_NEIGHBOR_METADATA %s lo_addr %s, its loopback %s" %
                (n, peer, meta.get("lo_addr"), loopback[peer]))
    conf = frr[n]
    m = re.search(r"^router bgp (\d+)$", conf, re.M)
    if not m or int(m.group(1)) != asn[n]:
        bad("%s: frr.conf router bgp %s, bgp_asn %d" % (n, m and m.group(1), asn[n]))
    if "bgp router-id %s\n" % loopback.get(n) not in conf:
        bad("%s: frr.conf router-id is not the loopback %s" % (n, loopback.get(n)))
    if "network %s/32\n" % loopback.get(n) not in conf:
        bad("%s: frr.conf does not announce its loopback" % n)
    peered = set(re.findall(r"^ neighbor (\S+) interface peer-group FABRIC$", conf, re.M))
    if peered != to_switch:
        bad("%s: frr.conf peers on %s, the ports to switches are %s" %
            (n, sorted(peered, key=nat)[:4], sorted(to_switch, key=nat)[:4]))
    mp = re.search(r"^  maximum-paths (\d+)$", conf, re.M)
    if not mp or not 1 <= int(mp.group(1)) <= 64:
        bad("%s: maximum-paths %s" % (n, mp and mp.group(1)))

# The ASN plan (RFC 7938 section 5.2.1).
def tier(n):
    return re.search(r"-(leaf|spine|core|router)-\d+$", n).group(1)
def plane(n):
    m = re.search(r"-p(\d+)-(leaf|spine|core)-", n)
    return m.group(1) if m else "1"
by = {}
for n in db:
    by.setdefault(tier(n), []).append(n)
for t in ("leaf", "router"):
    owned = [asn[n] for n in by.get(t, [])]
    if len(set(owned)) != len(owned):
        bad("two %ss share an ASN" % t)
for t in ("spine", "core"):
    for n in by.get(t, []):
        for m in by.get("leaf", []) + by.get("router", []):
            if asn[n] == asn[m]:
                bad("%s %s shares ASN %d with %s" % (t, n, asn[n], m))
                break
for n in by.get("core", []):
    same = [m for m in by["core"] if plane(m) == plane(n)]
    if {asn[m] for m in same} != {asn[n]}:
        bad("the cores of plane %s do not share one ASN" % plane(n))
        break
spines = by.get("spine", [])
if tiers == 2:
    for p in {plane(n) for n in spines}:
        if len({asn[n] for n in spines if plane(n) == p}) != 1:
            bad("the spines of plane %s do not share one ASN" % p)
elif tiers == 3:
    # A pod's spines reach the same leaves: they, and only they, share an ASN.
    pod = {}
    for n in spines:
        leaves = frozenset(e["name"] for e in db[n]["DEVICE_NEIGHBOR"].values()
                           if e["name"] in db and tier(e["name"]) == "leaf")
        pod.setdefault((plane(n), leaves), set()).add(asn[n])
    if any(len(v) != 1 for v in pod.values()):
        bad("the spines of one pod do not share one ASN")
    if len({next(iter(v)) for v in pod.values()}) != len(pod):
        bad("spines of different pods share an ASN")
if problems:
    print("  %d problems in %s" % (len(problems), out))
    sys.exit(1)
PY
}

# yang DIR: every config_db.json of a build through the YANG models' rules.
yang() {
	python3 tests/sonic_yang.py "$1" || err "$1: config_db.json against the SONiC YANG models (above)"
}

# The checker rejects what the models reject: each mutation of one good file must fail it.
# yang_rejects WHAT PYTHON-STATEMENT (on d, the parsed file; p, its first PORT).
yang_rejects() {
	rm -rf "$tmp/bad" && mkdir -p "$tmp/bad/switches/x" || return
	cp "$tmp/roce/switches/compute-leaf-001/frr.conf" "$tmp/bad/switches/x/"
	python3 - "$tmp/roce/switches/compute-leaf-001/config_db.json" "$tmp/bad/switches/x/config_db.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["PORT"][next(iter(d["PORT"]))]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), indent=4)
PY
	python3 tests/sonic_yang.py "$tmp/bad" >"$tmp/bad.out" 2>&1 &&
		err "sonic_yang.py accepts $1"
}

# build ARGS...: only the switch files (and the manifest), to keep the test short.
build() {
	"$clusterc" build -q --emit switches "$@" 2>"$tmp/build.err" || err "build $*: $(head -3 "$tmp/build.err")"
}

# The RoCE example: 64 leaves and 32 spines.
build examples/roce-spectrum4.cluster -o "$tmp/roce"
[ "$(ls "$tmp/roce/switches" | wc -l)" -eq 96 ] || err "roce-spectrum4: $(ls "$tmp/roce/switches" | wc -l) switch directories, expected 96"
check_frr "$tmp/roce"
check_db "$tmp/roce" 2
yang "$tmp/roce"
grep -q '"pfc_enable":"3"' "$tmp/roce/switches/compute-leaf-001/config_db.json" ||
	err "roce-spectrum4: no PFC on priority 3"
grep -q '"Ethernet4|3"' "$tmp/roce/switches/compute-leaf-001/config_db.json" ||
	err "roce-spectrum4: 400G halves of an 800G port should be Ethernet0 and Ethernet4"
grep -q '"switches/compute-spine-032/frr.conf"' "$tmp/roce/manifest.json" ||
	err "roce-spectrum4: the manifest does not list the switch files"
# SN5600, split 2 x 400G: the first port of cage 17 as Mellanox-SN5600-O128/port_config.ini
# (sonic-buildimage, read 2026-12) has it: Ethernet128, lanes 128-131, etp17a, index 17.
python3 - "$tmp/roce/switches/compute-spine-001/config_db.json" <<'PY' || err "roce-spectrum4: Ethernet128 is not as the SN5600 port map has it"
import json, sys
d = json.load(open(sys.argv[1]))
e = d["PORT"]["Ethernet128"]
assert (e["lanes"], e["alias"], e["index"], e["speed"]) == ("128,129,130,131", "etp17a", "17", "400000"), e
assert d["DEVICE_METADATA"]["localhost"]["hwsku"] == "Mellanox-SN5600-O128"
PY
yang_rejects "a PORT without lanes" 'del p["lanes"]'
yang_rejects "a PORT without speed" 'del p["speed"]'
yang_rejects "a speed beyond 1,600,000" 'p["speed"] = "3200000"'
yang_rejects "an MTU beyond 9216" 'p["mtu"] = "9300"'
yang_rejects "fec \"rs528\"" 'p["fec"] = "rs528"'
yang_rejects "a lane in two ports" 'd["PORT"]["Ethernet4"]["lanes"] = p["lanes"]'
yang_rejects "an INTERFACE on no PORT" 'd["INTERFACE"]["Ethernet999|10.9.9.0/31"] = {}'
yang_rejects "a DEVICE_NEIGHBOR on no PORT" 'd["DEVICE_NEIGHBOR"]["Ethernet0"]["local_port"] = "Ethernet999"'
yang_rejects "a type not in the model" 'd["DEVICE_METADATA"]["localhost"]["type"] = "Leaf"'
yang_rejects "BGP_NEIGHBOR beside unnumbered sessions" 'd["BGP_NEIGHBOR"] = {"10.0.0.1": {"asn": "65000"}}'

# The flagship on Ethernet: three tiers, 480 switches, pods sharing spine ASNs.
build examples/wanka.cluster --scenario roce -o "$tmp/wanka"
check_frr "$tmp/wanka"
check_db "$tmp/wanka" 3
yang "$tmp/wanka"

# Meta's 24K-GPU RoCE cluster: ToRs in the server racks, modular cluster and aggregation
# switches of another model (1,680 switches).
build examples/meta-24k-roce.cluster -o "$tmp/meta"
[ "$(ls "$tmp/meta/switches" | wc -l)" -eq 1680 ] || err "meta-24k-roce: $(ls "$tmp/meta/switches" | wc -l) switch directories, expected 1680"
check_frr "$tmp/meta"
check_db "$tmp/meta" 3
yang "$tmp/meta"

# Alibaba HPN: two planes by NIC port, 52 switches, backup ports on the ToRs left out.
build examples/alibaba-hpn.cluster -o "$tmp/hpn"
# 52 backend switches (32 ToRs, 20 aggregation) and the frontend's 4
[ "$(ls "$tmp/hpn/switches" | wc -l)" -eq 56 ] || err "alibaba-hpn: $(ls "$tmp/hpn/switches" | wc -l) switch directories, expected 56"
check_frr "$tmp/hpn"
check_db "$tmp/hpn" 2 4 backend
yang "$tmp/hpn"
# Each plane its own address plan: plane 1 in the first half of each pool, plane 2 in the second.
grep -q 'bgp router-id 10.0.0.1$' "$tmp/hpn/switches/backend-p1-leaf-001/frr.conf" ||
	err "alibaba-hpn: plane 1's first loopback should be 10.0.0.1"
grep -q 'bgp router-id 10.0.128.1$' "$tmp/hpn/switches/backend-p2-leaf-001/frr.conf" ||
	err "alibaba-hpn: plane 2's first loopback should be 10.0.128.1 (its half of 10.0.0.0/16)"
grep -q '"Ethernet0|10.160.0.0/31"' "$tmp/hpn/switches/backend-p2-leaf-001/config_db.json" ||
	err "alibaba-hpn: plane 2's first link should be 10.160.0.0/31 (its half of 10.128.0.0/10)"

# A dragonfly of Ethernet routers: each its own ASN.
build examples/dragonfly-1k.cluster -o "$tmp/df"
check_frr "$tmp/df"
check_db "$tmp/df" 1
yang "$tmp/df"

# Beyond 1,024 switches the files are written on demand: a default build leaves them out and
# says so, --emit switches writes every one (the same dragonfly grown to 65 groups of 16 routers).
sed -e 's/dragonfly(p = 4, a = 8, h = 4)/dragonfly(p = 2, a = 16, h = 4)/' \
	-e 's/132 x hgx_h100/260 x hgx_h100/' -e 's/power_budget = 3 MW/power_budget = 6 MW/' \
	-e 's/rows = 6, racks_per_row = 20/rows = 12, racks_per_row = 20/' \
	examples/dragonfly-1k.cluster >"$tmp/df1040.cluster"
"$clusterc" build "$tmp/df1040.cluster" -o "$tmp/big" >"$tmp/big.out" 2>&1 ||
	err "the 1,040-router dragonfly: $(head -3 "$tmp/big.out")"
[ -e "$tmp/big/switches" ] && err "a default build of 1,040 switches wrote switches/"
grep -q 'switches/: the configurations of 1040 switches are written on demand (--emit switches)' \
	"$tmp/big.out" || err "the summary does not say the switch files are on demand: $(cat "$tmp/big.out")"
[ -s "$tmp/big/report.json" ] || err "the default build of 1,040 switches wrote no report.json"
build "$tmp/df1040.cluster" -o "$tmp/bigsw"
n=$(ls "$tmp/bigsw/switches" | wc -l)
[ "$n" -eq 1040 ] || err "--emit switches wrote $n switch directories of 1,040"
check_db "$tmp/bigsw" 1
"$clusterc" build -q --emit report.json "$tmp/df1040.cluster" -o "$tmp/bigjson" 2>/dev/null &&
	[ ! -e "$tmp/bigjson/switches" ] || err "--emit report.json wrote switches/"
"$clusterc" build -q --emit all "$tmp/df1040.cluster" -o "$tmp/bigall" 2>/dev/null ||
	err "--emit all of the 1,040-router dragonfly failed"
n=$(ls "$tmp/bigall/switches" 2>/dev/null | wc -l)
[ "$n" -eq 1040 ] && [ -s "$tmp/bigall/cabling.csv" ] ||
	err "--emit all wrote $n switch directories of 1,040, or no cabling.csv"
rm -rf "$tmp/big" "$tmp/bigsw" "$tmp/bigjson" "$tmp/bigall"

# config_db.json is written table after table when the ports' names vouch for their order
# (switch_config.c, config_db_direct), else entry by entry through ConfigDb: the same bytes.
# CLUSTERC_CONFIGDB_ENTRIES=1 forces the second path; with every artifact the peers come from
# the cable ends' table, with the switches alone they are formatted.
for args in "examples/roce-spectrum4.cluster --emit all" "examples/dragonfly-1k.cluster --emit switches"; do
	# shellcheck disable=SC2086
	"$clusterc" build -q $args -o "$tmp/direct" 2>/dev/null &&
		CLUSTERC_CONFIGDB_ENTRIES=1 "$clusterc" build -q $args -o "$tmp/entries" 2>/dev/null ||
		err "build $args failed"
	diff -r "$tmp/direct/switches" "$tmp/entries/switches" >/dev/null ||
		err "$args: config_db.json written table by table differs from entry by entry"
	[ "$(ls "$tmp/direct/switches" | wc -l)" -gt 0 ] || err "$args wrote no switches"
	rm -rf "$tmp/direct" "$tmp/entries"
done

# lossless = false: no RoCE tables.
build examples/roce-spectrum4.cluster --set compute.lossless=false -o "$tmp/lossy"
grep -q -e PORT_QOS_MAP -e WRED_PROFILE "$tmp/lossy/switches/compute-leaf-001/config_db.json" &&
	err "lossless = false still writes the RoCE tables"

# InfiniBand fabrics get nothing here.
build examples/dgx-h100-superpod.cluster -o "$tmp/ib"
[ -e "$tmp/ib/switches" ] && err "an InfiniBand fabric got switch configurations"

# Pools too small, or overlapping: an error at the field, nothing written.
# expect_fail WHAT PATTERN ARGS...
expect_fail() {
	what=$1 pattern=$2
	shift 2
	"$clusterc" build -q --emit switches examples/roce-spectrum4.cluster -o "$tmp/fail" "$@" 2>"$tmp/fail.err"
	rc=$?
	[ $rc -ne 0 ] || err "$what: the build succeeded"
	grep -q -e "$pattern" "$tmp/fail.err" || err "$what: no diagnostic like '$pattern': $(head -3 "$tmp/fail.err")"
	[ -e "$tmp/fail" ] && err "$what: a failed build wrote $tmp/fail"
	rm -rf "$tmp/fail"
}
expect_fail "p2p pool too small" "^--set:1:13: error: the link pool 10.0.0.0/22 holds 512 /31 subnets; fabric 'compute' has 8192 links (a /18 or larger is needed)" \
	--set 'compute.p2p="10.0.0.0/22"'
expect_fail "loopback pool too small" "^--set:1:19: error: the loopback pool 10.0.0.0/26 holds 63 addresses; fabric 'compute' has 96 switches" \
	--set 'compute.loopbacks="10.0.0.0/26"'
expect_fail "pools overlapping" "error: the link pool 10.0.0.0/8 overlaps the loopbacks" \
	--set 'compute.p2p="10.0.0.0/8"'
expect_fail "ASNs beyond the private range" "error: fabric 'compute' needs 65 ASNs from 4294967290" \
	--set 'compute.asn=4294967290'

[ $fail -eq 0 ] || exit 1
echo "switch configurations: ok"
