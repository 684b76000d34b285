#!/bin/sh
# slurm.sh CLUSTERC ROOT — the scheduler topology files read by the real tools:
#  - slurm/topology.conf of the DGX H100 SuperPOD (one scalable unit) and of wanka (a 3-tier
#    tree of 1,250 nodes), Meta 24K RoCE, Alibaba HPN, CloudMatrix384 and the TPU v4 pod
#    load into the slurmctld Debian ships (22.05) on loopback, with
#    TopologyPlugin=topology/tree: no fatal error and no topology warning (nodes outside the
#    tree, nodes under two leaves, no switch above every node); slurmctld logs and `scontrol
#    show topology` shows one switch per SwitchName line; its top tier reaches every node;
#  - hostlists are written as Slurm writes them: slurmctld prints the leaves' Nodes= back
#    identical, and Switches= lists equal `scontrol show hostlistsorted` of their expansion;
#  - check.py (python3): every node under exactly one leaf; slurm/topology-block.conf has each
#    node in exactly one block, every block at least the planning base, BlockSizes the base
#    times powers of two (the 100,000-GPU example: 1,400 blocks, one per NVL72 domain of 18
#    nodes; Debian's 22.05 has no topology/block to load it into); with PyYAML, the YAML files
#    (slurm/topology.yaml, k8s/node-labels.yaml, k8s/kueue-topology.yaml) parse and agree with
#    topology.conf and the hostfile; without PyYAML, a structural check with grep.
# tests/unit/test_k8s.c reparses the YAML with libyaml; artifacts.sh checks that two builds
# are byte-identical. slurmctld runs in the foreground (-D) in a temporary directory as the
# current user, with auth/none (no munge daemon), on a private port; a trap stops it.
set -u
clusterc=$1 root=$2
cd "$root" || exit 2
tmp=$(mktemp -d) || exit 2
ctld=""
stop_ctld() {
	if [ -n "$ctld" ]; then
		kill "$ctld" 2>/dev/null
		wait "$ctld" 2>/dev/null
		ctld=""
	fi
}
trap 'stop_ctld; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
fail=0
err() { echo "FAIL: $*"; fail=$((fail + 1)); }

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v scontrol >/dev/null 2>&1; then
	echo "FAIL: slurmctld and scontrol are not installed (Debian packages slurmctld and"
	echo "      slurm-client; scripts/install-deps.sh installs them), so topology.conf cannot"
	echo "      be loaded into a real slurmctld"
	exit 1
fi
user=$(id -un)
port=$((20000 + $$ % 20000))

# build NAME SPEC [ARGS...]: the slurm, k8s and hostfile artifacts into $tmp/NAME, the node
# names into $tmp/NAME.hosts and a minimal slurm.conf for them into $tmp/NAME/slurm.conf.
build() {
	name=$1 spec=$2
	shift 2
	dir=$tmp/$name
	"$clusterc" build -q "$spec" "$@" --emit=slurm,k8s,hostfile -o "$dir" ||
		{ err "build $spec $*"; return 1; }
	awk '{ print $1 }' "$dir/hostfile" >"$tmp/$name.hosts"
	mkdir -p "$dir/state" "$dir/spool"
	{
		echo "ClusterName=clusterc"
		echo "SlurmctldHost=localhost"
		echo "SlurmctldPort=$port"
		echo "SlurmdPort=$((port + 1))"
		echo "SlurmUser=$user"
		echo "AuthType=auth/none"
		echo "CredType=cred/none"
		echo "StateSaveLocation=$dir/state"
		echo "SlurmdSpoolDir=$dir/spool"
		echo "SlurmctldPidFile=$dir/slurmctld.pid"
		echo "SlurmctldLogFile=$dir/slurmctld.log"
		echo "SlurmctldDebug=debug"
		echo "MailProg=/bin/true"
		echo "MpiDefault=none"
		echo "SelectType=select/cons_tres"
		echo "TopologyPlugin=topology/tree"
		echo "NodeName=DEFAULT CPUs=1 State=UNKNOWN"
		sed 's/.*/NodeName=& NodeAddr=127.0.0.1/' "$tmp/$name.hosts"
		echo "PartitionName=all Nodes=ALL Default=YES State=UP"
	} >"$dir/slurm.conf"
	port=$((port + 2))
	cp "$dir/slurm/topology.conf" "$dir/topology.conf"
	grep -q '^# .*Slurm 22.05' "$dir/slurm/topology.conf" || err "$name: topology.conf does not name its Slurm version"
	grep -q '^# .*Slurm 24.05' "$dir/slurm/topology-block.conf" || err "$name: topology-block.conf does not name its Slurm version"
	grep -q '^# .*Slurm 25.05' "$dir/slurm/topology.yaml" || err "$name: topology.yaml does not name its Slurm version"
}

# load NAME SWITCHES TOP_LEVEL [MAX_LISTS]: slurmctld reads NAME's topology.conf; then the
# Switches= lists (at most MAX_LISTS distinct ones, 0 for all) against scontrol's compression.
load() {
	dir=$tmp/$1
	export SLURM_CONF=$dir/slurm.conf
	start=$(date +%s)
	timeout 50 slurmctld -D -c -f "$dir/slurm.conf" >"$dir/slurmctld.out" 2>&1 &
	ctld=$!
	up=0
	for _ in $(seq 1 100); do
		kill -0 "$ctld" 2>/dev/null || break
		if timeout 3 scontrol ping 2>/dev/null | grep -q 'is UP'; then
			up=1
			break
		fi
		sleep 0.25
	done
	if [ $up -eq 0 ]; then
		err "$1: slurmctld did not come up; its last words:"
		tail -n 3 "$dir/slurmctld.out" "$dir/slurmctld.log" 2>/dev/null | sed 's/^/    /'
		stop_ctld
		unset SLURM_CONF
		return
	fi
	timeout 10 scontrol show topology >"$dir/show-topology" 2>&1 || err "$1: scontrol show topology"
	stop_ctld
	log=$dir/slurmctld.log
	echo "slurm: $1: slurmctld 22.05 loaded $(grep -c '_log_switches: Switch level' "$log") switches in $(($(date +%s) - start)) s"
	grep -h -i -e 'fatal' -e 'error:.*topolog' -e 'error:.*switch' -e 'lack access' \
		-e 'Multiple leaf' -e 'no switch can reach' "$log" "$dir/slurmctld.out" >"$tmp/bad" &&
		{ err "$1: slurmctld complains about the topology:"; head -5 "$tmp/bad" | sed 's/^/    /'; }
	for what in "SwitchName lines:^SwitchName=:$dir/topology.conf" \
		"switches logged by slurmctld:_log_switches. Switch level:$log" \
		"switches in scontrol show topology:^SwitchName=:$dir/show-topology"; do
		label=${what%%:*} rest=${what#*:}
		n=$(grep -c "${rest%%:*}" "${rest#*:}")
		[ "$n" = "$2" ] || err "$1: $n $label, expected $2"
	done
	# The leaves' nodes as slurmctld prints them back: our hostlists, character for character.
	grep '^SwitchName=' "$dir/topology.conf" | tr ' ' '\n' | sed -n 's/^Nodes=//p' | sort >"$tmp/ours"
	grep ' Level=0 ' "$dir/show-topology" | sed 's/.*Nodes=\([^ ]*\).*/\1/' | sort >"$tmp/shown"
	cmp -s "$tmp/shown" "$tmp/ours" || { err "$1: slurmctld prints the leaves' Nodes= otherwise:";
		diff "$tmp/ours" "$tmp/shown" | head -6 | sed 's/^/    /'; }
	# The top tier reaches every node.
	top=$(grep " Level=$3 " "$dir/show-topology" | head -1 | sed 's/.*Nodes=\([^ ]*\).*/\1/')
	if [ -z "$top" ]; then
		err "$1: no switch at level $3"
	else
		[ "$(scontrol show hostnames "$top" | wc -l)" = "$(wc -l <"$tmp/$1.hosts")" ] ||
			err "$1: the level-$3 switch does not reach every node"
	fi
	# Switches= lists: as `scontrol show hostlistsorted` writes their expansion (each scontrol
	# call reads slurm.conf: a sample of the distinct lists keeps this within seconds).
	grep '^SwitchName=' "$dir/topology.conf" | tr ' ' '\n' | sed -n 's/^Switches=//p' | sort -u >"$tmp/lists"
	[ "${4:-0}" -gt 0 ] && { head -$(($4 / 2)) "$tmp/lists"; tail -$(($4 / 2)) "$tmp/lists"; } | sort -u >"$tmp/lists.some" &&
		mv "$tmp/lists.some" "$tmp/lists"
	while read -r list; do
		again=$(scontrol show hostlistsorted "$(scontrol show hostnames "$list" | paste -sd, -)")
		[ "$again" = "$list" ] || err "$1: Switches=$list, but Slurm writes $again"
	done <"$tmp/lists"
	unset SLURM_CONF
}

# The SuperPOD, one scalable unit: a rail-optimized 2-tier tree; its rail-0 leaf and 4 spines.
build su1 examples/dgx-h100-superpod.cluster --scenario su1 && load su1 5 1
# wanka: 3 tiers, 1,250 nodes; 40 rail-0 leaves, 320 spines, 192 cores (6 a core group: the
# fewest that take every pod spine's 32 up links from 10 pods, docs/fabrics.md §2).
build wanka examples/wanka.cluster && load wanka 552 2 8
# The production shapes of issue 15, as slurmctld reads them: Meta's 24K RoCE cluster (1,536
# ToRs, 128 cluster and 16 aggregation switches: 3 tiers), CloudMatrix384's RDMA plane (12
# leaves, 8 spines) and the TPU v4 pod (64 cubes under one ICI root).
build meta examples/meta-24k-roce.cluster && load meta 1680 2 8
build cm384 examples/cloudmatrix-384.cluster && load cm384 20 1
build tpu examples/tpu-v4-pod.cluster && load tpu 65 1 4
# Alibaba HPN: two planes by NIC port, plane 1 described; 2 rail-0 ToRs (one a segment) and
# 10 aggregation switches.
build hpn examples/alibaba-hpn.cluster && load hpn 12 1
# 100,800 GPUs in GB200 NVL72 racks: a block per scale-up domain of 18 nodes.
build big examples/scale-100k.cluster

# check.py [NAME DIR HOSTS BASE BLOCKS yaml|no-yaml]...: the structure of the files, by
# expanding hostlists; exit 1 on failures, 2 (3 with failures) when PyYAML is missing.
cat >"$tmp/check.py" <<'EOF'
import re, sys

def expand(expr):
    """A hostlist as clusterc writes them: prefix[a-b,c],name,..."""
    out = []
    for m in re.finditer(r'([^,\[]+)(?:\[([^\]]*)\])?', expr):
        prefix, ranges = m.group(1), m.group(2)
        if ranges is None:
            out.append(prefix)
            continue
        for r in ranges.split(','):
            lo, _, hi = r.partition('-')
            out += ['%s%0*d' % (prefix, len(lo), n) for n in range(int(lo), int(hi or lo) + 1)]
    return out

def fields(line):
    return dict(kv.split('=', 1) for kv in line.split())

def check(name, d, hosts, base, nblocks, with_yaml, bad):
    hosts = [l.split()[0] for l in open(hosts)]
    leaf_of, switches = {}, []
    for line in open(d + '/slurm/topology.conf'):
        if line.startswith('SwitchName='):
            f = fields(line)
            switches.append(f['SwitchName'])
            for h in expand(f['Nodes']) if 'Nodes' in f else []:
                if h in leaf_of:
                    bad.append('%s: %s under two leaves' % (name, h))
                leaf_of[h] = f['SwitchName']
    if sorted(leaf_of) != sorted(hosts):
        bad.append('%s: the leaves do not hold exactly the nodes' % name)
    blocks, sizes = [], []
    for line in open(d + '/slurm/topology-block.conf'):
        if line.startswith('BlockName='):
            blocks.append(expand(fields(line)['Nodes']))
        elif line.startswith('BlockSizes='):
            sizes = [int(x) for x in line.split('=', 1)[1].split(',')]
    if not sizes or sizes[0] != base or any(s != base << k for k, s in enumerate(sizes)):
        bad.append('%s: BlockSizes %s, expected %d x 2^k' % (name, sizes, base))
    if nblocks and len(blocks) != nblocks:
        bad.append('%s: %d blocks, expected %d' % (name, len(blocks), nblocks))
    if any(len(b) < base for b in blocks):
        bad.append('%s: a block smaller than the base %d' % (name, base))
    blocked = [h for b in blocks for h in b]
    if sorted(blocked) != sorted(hosts):
        bad.append('%s: the blocks do not hold every node exactly once' % name)
    if not with_yaml:
        return True
    try:
        import yaml
    except ImportError:
        return False
    topo = yaml.safe_load(open(d + '/slurm/topology.yaml'))
    if [t['topology'] for t in topo] != ['tree', 'block'] or topo[0]['cluster_default'] is not True:
        bad.append('%s: topology.yaml: expected the topologies tree (the default) and block' % name)
    else:
        if [s['switch'] for s in topo[0]['tree']['switches']] != switches:
            bad.append('%s: topology.yaml: tree switches differ from topology.conf' % name)
        if topo[1]['block']['block_sizes'] != sizes or len(topo[1]['block']['blocks']) != len(blocks):
            bad.append('%s: topology.yaml: blocks differ from topology-block.conf' % name)
    docs = list(yaml.safe_load_all(open(d + '/k8s/node-labels.yaml')))
    if [x['metadata']['name'] for x in docs] != [h.lower() for h in hosts]:
        bad.append('%s: node-labels.yaml: the Nodes are not the hosts in order' % name)
    for x in docs:
        meta, lab = x['metadata'], x['metadata'].get('labels', {})
        if x['apiVersion'] != 'v1' or x['kind'] != 'Node' or set(x) != {'apiVersion', 'kind', 'metadata'} \
                or set(meta) != {'name', 'labels'}:
            bad.append('%s: node-labels.yaml: %s is not a bare Node' % (name, meta.get('name')))
            break
        if not all(isinstance(v, str) and 0 < len(v) <= 63 for v in lab.values()):
            bad.append('%s: node-labels.yaml: %s has a label value that is not a short string'
                       % (name, meta['name']))
            break
        missing = {'topology.kubernetes.io/region', 'topology.kubernetes.io/zone',
                   'node.kubernetes.io/instance-type', 'fabric.topograph.run/tier-0'} - set(lab)
        if missing:
            bad.append('%s: node-labels.yaml: %s lacks %s' % (name, meta['name'], missing))
            break
        if lab['fabric.topograph.run/tier-0'] != leaf_of.get(meta['name']):
            bad.append('%s: node-labels.yaml: %s is on %s, topology.conf puts it under %s'
                       % (name, meta['name'], lab['fabric.topograph.run/tier-0'], leaf_of.get(meta['name'])))
            break
    kueue = list(yaml.safe_load_all(open(d + '/k8s/kueue-topology.yaml')))
    tops = [x for x in kueue if x['kind'] == 'Topology']
    flavors = [x for x in kueue if x['kind'] == 'ResourceFlavor']
    if len(tops) != 1 or not flavors or any(x['apiVersion'] != 'kueue.x-k8s.io/v1beta2' for x in kueue):
        bad.append('%s: kueue-topology.yaml: expected one v1beta2 Topology and ResourceFlavors' % name)
        return True
    levels = [l['nodeLabel'] for l in tops[0]['spec']['levels']]
    if levels[-1] != 'kubernetes.io/hostname' or len(set(levels)) != len(levels):
        bad.append('%s: kueue-topology.yaml: levels %s' % (name, levels))
    for l in levels[:-1]:
        if any(l not in x['metadata']['labels'] for x in docs):
            bad.append('%s: kueue-topology.yaml: level %s is not on every node' % (name, l))
    for fl in flavors:
        if fl['spec']['topologyName'] != tops[0]['metadata']['name']:
            bad.append('%s: flavor %s names another topology' % (name, fl['metadata']['name']))
        sel = fl['spec']['nodeLabels']
        if not any(all(x['metadata']['labels'].get(k) == v for k, v in sel.items()) for x in docs):
            bad.append('%s: flavor %s selects no node' % (name, fl['metadata']['name']))
    return True

bad, yaml_checked = [], True
args = sys.argv[1:]
while args:
    name, d, hosts, base, nblocks, with_yaml = args[:6]
    args = args[6:]
    yaml_checked &= check(name, d, hosts, int(base), int(nblocks), with_yaml == 'yaml', bad)
for b in bad:
    print('FAIL: ' + b)
if not yaml_checked:
    print('slurm: PyYAML is missing: the YAML files get the structural check of slurm.sh only')
    sys.exit(3 if bad else 2)
sys.exit(1 if bad else 0)
EOF

# NAME DIR HOSTS BASE BLOCKS YAML for every example built: wanka's last scalable unit (2
# nodes) is below the base and joins the 39th; PyYAML would take a minute over 25,200 Nodes.
set --
for spec in "su1 31 1 yaml" "wanka 32 39 yaml" "big 18 1400 no-yaml"; do
	set -- "$@" ${spec%% *} "$tmp/${spec%% *}" "$tmp/${spec%% *}.hosts" $(echo "$spec" | cut -d' ' -f2-)
done
if command -v python3 >/dev/null 2>&1; then
	python3 "$tmp/check.py" "$@"
	rc=$?
	[ $rc -eq 1 ] || [ $rc -eq 3 ] && fail=$((fail + 1))
	pyyaml=$([ $rc -le 1 ] && echo 1 || echo 0)
else
	echo "slurm: python3 is missing: the block form and YAML files get a structural check only"
	pyyaml=0
fi
if [ "$pyyaml" = 0 ]; then
	for name in su1 wanka; do
		dir=$tmp/$name
		nodes=$(wc -l <"$tmp/$name.hosts")
		[ "$(grep -c '^kind: Node$' "$dir/k8s/node-labels.yaml")" = "$nodes" ] ||
			err "$name: node-labels.yaml should hold $nodes Node documents"
		grep -q '^kind: Topology$' "$dir/k8s/kueue-topology.yaml" || err "$name: no Kueue Topology"
		grep -q '^kind: ResourceFlavor$' "$dir/k8s/kueue-topology.yaml" || err "$name: no ResourceFlavor"
		[ "$(grep 'nodeLabel:' "$dir/k8s/kueue-topology.yaml" | tail -1)" = "  - nodeLabel: kubernetes.io/hostname" ] ||
			err "$name: kubernetes.io/hostname should be the last Kueue level"
		[ "$(grep -c '^      - switch: ' "$dir/slurm/topology.yaml")" = "$(grep -c '^SwitchName=' "$dir/slurm/topology.conf")" ] ||
			err "$name: topology.yaml and topology.conf list different switches"
	done
fi
grep -q '^    accelerator.topograph.run/domain: gb200_nvl72_tray-nvl0001$' "$tmp/big/k8s/node-labels.yaml" ||
	err "scale-100k: nodes should carry their NVL72 domain"

echo "slurm: $fail failed"
[ $fail -eq 0 ]
