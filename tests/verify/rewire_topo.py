#!/usr/bin/env python3
"""rewire_topo.py IN OUT OP... -- a topology in ibnetdiscover/ibsim form with cables moved,
the way a crew could get them wrong, for tests/verify.sh:

  swap:DESC:P:DESC:Q   the cables in port P of node DESC and port Q of node DESC trade places
  drop:DESC:P          the cable in port P of node DESC is not there (both ends' lines go)
  add:DESC:P:DESC:Q    a cable nobody planned between two free switch ports

Nodes are named by their description (the quoted text after '#'). Every link stays written
from both ends, so ibsim loads the result; prints, one a line, the ends "DESC:P" it touched.
"""
import re
import sys

NODE = re.compile(r'^(Switch|Ca|Rt)\s+\d+\s+"([^"]+)"\s*#\s*"([^"]*)"')
PORT = re.compile(r'^\[(\d+)\](\([0-9a-fA-F]+\))?(\s+)"([^"]+)"\[(\d+)\](\([0-9a-fA-F]+\))?(.*)$')


def main():
    src, dst, ops = sys.argv[1], sys.argv[2], sys.argv[3:]
    lines = open(src).read().split('\n')
    desc, ident = {}, {}          # id -> desc, desc -> id
    peer = {}                     # (id, port) -> (id, port)
    where = {}                    # (id, port) -> line index
    cur = None
    added = []
    for i, line in enumerate(lines):
        m = NODE.match(line)
        if m:
            cur = m.group(2)
            desc[cur], ident[m.group(3)] = m.group(3), cur
            continue
        m = PORT.match(line)
        if m and cur:
            peer[(cur, int(m.group(1)))] = (m.group(4), int(m.group(5)))
            where[(cur, int(m.group(1)))] = i
    for op in ops:
        kind, *args = op.split(':')
        if kind == 'swap':
            a = (ident[args[0]], int(args[1]))
            b = (ident[args[2]], int(args[3]))
            pa, pb = peer[a], peer[b]
            peer[a], peer[pb], peer[b], peer[pa] = pb, a, pa, b
        elif kind == 'drop':
            a = (ident[args[0]], int(args[1]))
            pa = peer.pop(a)
            peer.pop(pa)
        elif kind == 'add':
            a = (ident[args[0]], int(args[1]))
            b = (ident[args[2]], int(args[3]))
            assert a not in peer and b not in peer, 'add: a port in use'
            peer[a], peer[b] = b, a
            added.extend([a, b])
        else:
            sys.exit('unknown operation ' + op)
    out = []
    for i, line in enumerate(lines):
        m = NODE.match(line)
        if m:
            out.append(line)
            for a in added:
                if a[0] == m.group(2):
                    pid, pp = peer[a]
                    out.append('[%d]\t"%s"[%d]\t\t# "%s" lid 0 4xNDR' % (a[1], pid, pp, desc[pid]))
            continue
        m = PORT.match(line)
        key = next((k for k, v in where.items() if v == i), None) if m else None
        if key is None:
            out.append(line)
            continue
        if key not in peer:
            continue
        pid, pp = peer[key]
        guid = '(%x)' % (int(pid[2:], 16) + pp) if pid.startswith('H-') and m.group(6) else (m.group(6) or '')
        rest = re.sub(r'"[^"]*"( lid \d+ \w+)$', '"%s"\\1' % desc[pid], m.group(7))
        out.append('[%s]%s%s"%s"[%d]%s%s' % (m.group(1), m.group(2) or '', m.group(3), pid, pp, guid, rest))
    open(dst, 'w').write('\n'.join(out))


main()
