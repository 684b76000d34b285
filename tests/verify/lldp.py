#!/usr/bin/env python3
"""lldp.py WIRING OUT [json|json0|sonic] [OP...] -- the LLDP neighbour tables a fabric built
as wiring.csv plans would show, as `lldpctl -f json` (or json0) prints them on each switch, in
one object by switch name, or (sonic) as SONiC's `show lldp table` prints it, one file per
switch OUT/SWITCH.txt, for tests/verify.sh. Hosts report nothing (no lldpd), so each host
link is seen from its switch only; switch-to-switch links from both ends. OPs, on the table
as found:

  swap:DEV:PORT:DEV:PORT  the cables in those two switch ports trade places
  drop:DEV:PORT           the cable in that switch port is not there
  add:DEV:PORT:SYS:PORT   a neighbour nobody planned (SYS:PORT) in a free switch port
"""
import csv
import json
import sys


def main():
    wiring, out, form, ops = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    switches = set()
    peer = {}
    for r in csv.DictReader(open(wiring)):
        a, z = (r['a_device'], r['a_port']), (r['z_device'], r['z_port'])
        peer[a], peer[z] = z, a
        for e, tier_end in ((a, 'a'), (z, 'z')):
            if 'leaf' in e[0] or 'spine' in e[0]:
                switches.add(e[0])
    for op in ops:
        kind, *x = op.split(':')
        if kind == 'swap':
            a, b = (x[0], x[1]), (x[2], x[3])
            pa, pb = peer[a], peer[b]
            peer[a], peer[pb], peer[b], peer[pa] = pb, a, pa, b
        elif kind == 'drop':
            a = (x[0], x[1])
            peer.pop(peer.pop(a))
        elif kind == 'add':
            peer[(x[0], x[1])] = (x[2], x[3])
    if form == 'sonic':
        import os
        os.makedirs(out, exist_ok=True)
        for sw in sorted(switches):
            rows = [(port, pdev, pport, 'R', pport) for (dev, port), (pdev, pport) in sorted(peer.items()) if dev == sw]
            head = ('LocalPort', 'RemoteDevice', 'RemotePortID', 'Capability', 'RemotePortDescr')
            w = [max([len(head[i])] + [len(r[i]) for r in rows]) for i in range(5)]
            line = lambda r: '  '.join(r[i].ljust(w[i]) for i in range(5)).rstrip()
            with open(os.path.join(out, sw + '.txt'), 'w') as f:
                f.write('Capability codes: (R) Router, (B) Bridge, (O) Other\n')
                f.write(line(head) + '\n' + '  '.join('-' * w[i] for i in range(5)) + '\n')
                for r in rows:
                    f.write(line(r) + '\n')
                f.write('-' * 50 + '\nTotal entries displayed:  %d\n' % len(rows))
        return
    doc = {}
    for sw in sorted(switches):
        ifs = []
        for (dev, port), (pdev, pport) in sorted(peer.items()):
            if dev != sw:
                continue
            if form == 'json0':
                ifs.append({'name': port, 'via': 'LLDP',
                            'chassis': [{'id': [{'type': 'mac', 'value': '02:00:00:00:00:01'}],
                                         'name': [{'value': pdev}]}],
                            'port': [{'id': [{'type': 'ifname', 'value': pport}],
                                      'descr': [{'value': pport}]}]})
            else:
                ifs.append({port: {'via': 'LLDP', 'rid': '1',
                                   'chassis': {pdev: {'id': {'type': 'mac', 'value': '02:00:00:00:00:01'},
                                                      'descr': 'SONiC'}},
                                   'port': {'id': {'type': 'ifname', 'value': pport},
                                            'descr': pport, 'ttl': '120'}}})
        doc[sw] = {'lldp': {'interface': ifs}} if form == 'json0' else {'lldp': {'interface': ifs}}
    with open(out, 'w') as f:
        json.dump(doc, f, indent=2)
        f.write('\n')


main()
