#!/usr/bin/env python3
"""sched_invariants.py NAME=DIR... — the scheduler files of built designs against two rules
(docs/schedulers.md, "Invariants"):

  blocks  every node of the hostfile is in exactly one block of slurm/topology-block.conf and
          of slurm/topology.yaml's block topology, every block has at least the planning base
          (BlockSizes' first value) and BlockSizes is the base times powers of two;
  nesting the levels of k8s/kueue-topology.yaml nest over the labels of k8s/node-labels.yaml:
          every value of a level lies inside one value of every broader level (a node without
          the label counts as a value of its own), so no domain a level names is split by a
          broader one.

DIR is a build's output directory. Prints one line per design with the counts (nodes in no
block, nodes in two, values of a level that span several values of a broader one) and a FAIL
line per broken rule; exits 1 when a rule is broken. --report prints the counts and never
fails (to measure a build from before a fix)."""
import re
import sys

import yaml

LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)


def expand(expr):
    """A hostlist as clusterc writes it: prefix[a-b,c],name,..."""
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


def block_counts(hosts, blocks):
    """(nodes in no block, nodes in two or more, names that are not hosts)."""
    seen = {}
    for b in blocks:
        for h in b:
            seen[h] = seen.get(h, 0) + 1
    known = set(hosts)
    return (sum(1 for h in hosts if h not in seen), sum(1 for h in hosts if seen.get(h, 0) > 1),
            sum(1 for h in seen if h not in known))


def check_blocks(name, d, hosts, bad):
    blocks, names, sizes = [], [], []
    for line in open(d + '/slurm/topology-block.conf'):
        if line.startswith('BlockName='):
            f = dict(kv.split('=', 1) for kv in line.split())
            names.append(f['BlockName'])
            blocks.append(expand(f['Nodes']))
        elif line.startswith('BlockSizes='):
            sizes = [int(x) for x in line.split('=', 1)[1].split(',')]
    none, twice, strangers = block_counts(hosts, blocks)
    if none or twice or strangers:
        bad.append('%s: topology-block.conf: %d nodes in no block, %d in several, %d names '
                   'that are not hosts' % (name, none, twice, strangers))
    base = sizes[0] if sizes else 0
    if not sizes or any(s != base << k for k, s in enumerate(sizes)) or len(sizes) > 16:
        bad.append('%s: BlockSizes %s: not the base times 1, 2, 4 ... (at most 16)' % (name, sizes))
    small = [n for n, b in zip(names, blocks) if len(b) < base]
    if small:
        bad.append('%s: %d blocks below the base %d (%s): slurmctld refuses them'
                   % (name, len(small), base, small[0]))
    if len(set(names)) != len(names):
        bad.append('%s: a block name twice' % name)
    topo = yaml.load(open(d + '/slurm/topology.yaml'), Loader=LOADER)
    yblock = [t for t in topo if t.get('topology') == 'block']
    if len(yblock) != 1:
        bad.append('%s: topology.yaml: no block topology' % name)
    else:
        yb = yblock[0]['block']
        ylists = [expand(b['nodes']) for b in yb['blocks']]
        if yb['block_sizes'] != sizes or ylists != blocks:
            bad.append('%s: topology.yaml: the blocks differ from topology-block.conf' % name)
    return none, twice


def check_nesting(name, d, hosts, bad):
    docs = list(yaml.load_all(open(d + '/k8s/node-labels.yaml'), Loader=LOADER))
    labels = {x['metadata']['name']: x['metadata']['labels'] for x in docs}
    if sorted(labels) != sorted(h.lower() for h in hosts):
        bad.append('%s: node-labels.yaml: the Nodes are not the hosts' % name)
    kueue = list(yaml.load_all(open(d + '/k8s/kueue-topology.yaml'), Loader=LOADER))
    tops = [x for x in kueue if x and x.get('kind') == 'Topology']
    if len(tops) != 1:
        bad.append('%s: kueue-topology.yaml: not one Topology' % name)
        return None, 0
    levels = [l['nodeLabel'] for l in tops[0]['spec']['levels']]
    if not levels or levels[-1] != 'kubernetes.io/hostname':
        bad.append('%s: kueue-topology.yaml: kubernetes.io/hostname is not the last level' % name)
    def value(lab, node, level):
        return node if level == 'kubernetes.io/hostname' else lab.get(level)
    worst = None  # (values split, of how many, the level, the broader level)
    for j in range(1, len(levels)):
        for i in range(j):
            inside = {}  # a value of level j -> the values of level i its nodes carry
            for node, lab in labels.items():
                inside.setdefault(value(lab, node, levels[j]), set()).add(value(lab, node, levels[i]))
            n = sum(1 for v in inside.values() if len(v) > 1)
            if n:
                bad.append('%s: kueue-topology.yaml: %d of %d values of %s span several values '
                           'of the broader level %s' % (name, n, len(inside), levels[j], levels[i]))
                if not worst or n > worst[0]:
                    worst = (n, len(inside), levels[j], levels[i])
    return worst, len(levels)


def main(argv):
    report = '--report' in argv
    argv = [a for a in argv if a != '--report']
    bad, failed = [], 0
    for arg in argv:
        name, _, d = arg.partition('=')
        hosts = [l.split()[0] for l in open(d + '/hostfile') if l.strip()]
        mine = []
        none, twice = check_blocks(name, d, hosts, mine)
        worst, nlevels = check_nesting(name, d, hosts, mine)
        nest = ('%d of %d values of %s split by %s' % worst) if worst else \
            'Kueue levels nest (%d)' % nlevels
        print('sched: %s: %d nodes, %d in no block, %d in several; %s'
              % (name, len(hosts), none, twice, nest))
        bad += mine
    for b in bad:
        print(('note: ' if report else 'FAIL: ') + b)
    return 0 if report or not bad else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
