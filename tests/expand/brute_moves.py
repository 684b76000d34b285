#!/usr/bin/env python3
"""brute_moves.py OLD/clusterc.lock NEW/clusterc.lock RADIX — the fewest cables a growth from
OLD to NEW's topology must move, by brute force, read from the two locks alone (no code of
clusterc): for each tier between switches, every matrix of link counts the minimal rewiring
allows (docs/daytwo.md: each lower switch spreads its up links over the upper switches it
reaches as evenly as the new plan, floor..ceil; an upper switch takes at most the ports the
other tiers leave it), the one keeping the most prior links; plus the endpoint cables whose
switch end changed. Prints the count."""
import csv
import itertools
import sys
from collections import Counter, defaultdict


def cables(path):
    with open(path, newline='') as f:
        return [r for r in csv.DictReader(f) if r['record'] == 'cable']


def tier_best(old, new, tier, radix, other_ports):
    """Most prior links kept over every count matrix the constraints allow."""
    o = Counter((c['a_device'], c['z_device']) for c in old if c['tier'] == tier)
    n = Counter((c['a_device'], c['z_device']) for c in new if c['tier'] == tier)
    reach = defaultdict(list)
    for (a, z) in sorted(n):
        reach[a].append(z)
    rows = Counter(c['a_device'] for c in new if c['tier'] == tier)
    options = []
    for a in sorted(reach):
        zs, u = reach[a], rows[a]
        lo, hi = u // len(zs), -(-u // len(zs))
        opts = [v for v in itertools.product(range(lo, hi + 1), repeat=len(zs)) if sum(v) == u]
        options.append((a, zs, opts))
    best = -1
    for choice in itertools.product(*[opts for _, _, opts in options]):
        load = Counter()
        kept = 0
        for (a, zs, _), v in zip(options, choice):
            for z, x in zip(zs, v):
                load[z] += x
                kept += min(x, o[(a, z)])
        if all(load[z] <= radix - other_ports[z] for z in load):
            best = max(best, kept)
    return sum(o.values()) - best


def main():
    old, new, radix = cables(sys.argv[1]), cables(sys.argv[2]), int(sys.argv[3])
    moves = 0
    for tier in ('leaf-spine', 'spine-core'):
        other = Counter()
        for c in new:
            if c['tier'] != tier:
                other[c['a_device']] += 1
                other[c['z_device']] += 1
        moves += tier_best(old, new, tier, radix, other)
    # Endpoint cables: an endpoint port whose switch end is not what it was.
    was = {(c['a_device'], c['a_port']): (c['z_device'], c['z_port']) for c in old
           if c['tier'] == 'node-leaf'}
    for c in new:
        k = (c['a_device'], c['a_port'])
        if c['tier'] == 'node-leaf' and k in was and was[k] != (c['z_device'], c['z_port']):
            moves += 1
    print(moves)


main()
