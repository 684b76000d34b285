#!/usr/bin/env python3
"""tests/frr_policy.py CLUSTERC ROOT — what every generated frr.conf announces, evaluated as FRR
evaluates its route-map and prefix lists, on builds up to the 100,000-GPU example
(docs/switch-configs.md, "What is announced"):

 - the switches of a fabric are those joined by links (two switch ports on one /31 in
   config_db.json's INTERFACE); its prefixes are every switch's loopback (LOOPBACK_INTERFACE),
   every switch-to-switch /31 and every host /31 (a switch port whose /31 no other switch has);
 - for every switch, the route-map on `redistribute connected` and on the sessions
   (`neighbor FABRIC route-map ... out`) lets through exactly the fabric's loopbacks and host
   /31s: no /31 of a link between two switches (issue 16: 507,328 of them in every table at
   100,000 GPUs), no loopback or host left out;
 - the sessions are unnumbered only (`neighbor PORT interface`, no neighbour by address), and
   a leaf's maximum-paths is its number of uplinks (all the equal-cost paths).
Prefix-list semantics (FRR user guide, "IP prefix list"): entries in seq order, the first
whose prefix contains the route and whose length bounds (ge, le; none: the exact length) hold
decides; no match denies. A route-map entry matching a list that denies does not match; no
entry matching denies.
"""
import ipaddress
import json
import os
import re
import subprocess
import sys
import tempfile

clusterc, root = sys.argv[1], sys.argv[2]
BUILDS = [["tests/frr/fabric.cluster"], ["examples/roce-spectrum4.cluster"],
          ["examples/wanka.cluster", "--scenario", "roce"], ["examples/meta-24k-roce.cluster"],
          ["examples/alibaba-hpn.cluster"], ["examples/dragonfly-1k.cluster"],
          ["examples/scale-100k.cluster"]]
problems = []


def bad(msg):
    if len(problems) < 30:
        print("  " + msg)
    problems.append(msg)


def net(text):
    """"a.b.c.d/len" as (address, len), the address an int."""
    addr, _, plen = text.partition("/")
    a, b, c, d = (int(x) for x in addr.split("."))
    return (a << 24 | b << 16 | c << 8 | d, int(plen) if plen else 32)


def prefix_lists(conf):
    lists = {}
    for m in re.finditer(r"^ip prefix-list (\S+) seq (\d+) (permit|deny) (\S+)"
                         r"(?: ge (\d+))?(?: le (\d+))?$", conf, re.M):
        name, seq, action, pfx, ge, le = m.groups()
        addr, plen = net(pfx)
        lo = int(ge) if ge else plen
        hi = int(le) if le else (32 if ge else plen)
        mask = (0xFFFFFFFF << (32 - plen)) & 0xFFFFFFFF
        lists.setdefault(name, []).append((int(seq), action == "permit", addr, mask, lo, hi))
    return {k: sorted(v, key=lambda e: e[0]) for k, v in lists.items()}


def route_maps(conf):
    maps = {}
    for m in re.finditer(r"^route-map (\S+) (permit|deny) (\d+)\n((?: .*\n)*)", conf, re.M):
        name, action, seq, body = m.groups()
        match = re.findall(r"^ match ip address prefix-list (\S+)$", body, re.M)
        maps.setdefault(name, []).append((int(seq), action == "permit", match))
    return {k: sorted(v, key=lambda e: e[0]) for k, v in maps.items()}


def list_permits(entries, route):
    addr, plen = route
    for _, permit, pfx, mask, lo, hi in entries:
        if addr & mask == pfx and lo <= plen <= hi:
            return permit
    return False


def map_permits(entries, lists, route):
    for _, permit, match in entries:
        if all(list_permits(lists.get(m, []), route) for m in match):
            return permit
    return False


def show(route):
    return "%s/%d" % (ipaddress.ip_address(route[0]), route[1])


def check_paths(what, n, sw, owners, leaves):
    """A leaf's maximum-paths: its sessions up (to switches without hosts), or all of them
    where every switch has hosts (a dragonfly's routers)."""
    conf = sw[n]["conf"]
    peers = re.findall(r"^ neighbor (\S+) interface peer-group FABRIC$", conf, re.M)
    far = [[o for o in owners[sw[n]["ports"][p]] if o != n] for p in peers]
    up = [p for p, o in zip(peers, far) if o and o[0] not in leaves] or peers
    mp = re.search(r"^  maximum-paths (\d+)$", conf, re.M)
    if not mp or int(mp.group(1)) != min(max(len(up), 1), 64):
        bad("%s %s: maximum-paths %s, %d uplinks" % (what, n, mp and mp.group(1), len(up)))


def check_build(out, what):
    base = os.path.join(out, "switches")
    sw = {}
    for name in sorted(os.listdir(base)):
        db = json.load(open(os.path.join(base, name, "config_db.json")))
        conf = open(os.path.join(base, name, "frr.conf")).read()
        ports = {}
        for k in db.get("INTERFACE", {}):
            if "|" in k:
                port, cidr = k.split("|", 1)
                addr, plen = net(cidr)
                ports[port] = (addr & (0xFFFFFFFF << (32 - plen)) & 0xFFFFFFFF, plen)
        lo = [net(k.split("|", 1)[1]) for k in db.get("LOOPBACK_INTERFACE", {}) if "|" in k]
        sw[name] = {"conf": conf, "ports": ports, "loopback": lo[0]}
    owners = {}
    for name, s in sw.items():
        for r in s["ports"].values():
            owners.setdefault(r, []).append(name)
    # The fabrics: switches joined by a /31 (union-find).
    parent = {n: n for n in sw}

    def find(n):
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n
    for ends in owners.values():
        for other in ends[1:]:
            parent[find(other)] = find(ends[0])
    fabrics = {}
    for n in sw:
        fabrics.setdefault(find(n), []).append(n)
    for members in fabrics.values():
        links = {r for n in members for r in sw[n]["ports"].values() if len(owners[r]) == 2}
        hosts = {r for n in members for r in sw[n]["ports"].values() if len(owners[r]) == 1}
        loops = {sw[n]["loopback"] for n in members}
        leaves = {owners[r][0] for r in hosts}
        wanted = loops | hosts
        every = wanted | links
        policies = {}
        for n in members:
            conf = sw[n]["conf"]
            rm = re.search(r"^  redistribute connected route-map (\S+)$", conf, re.M)
            out = re.search(r"^  neighbor FABRIC route-map (\S+) out$", conf, re.M)
            if not rm or not out or rm.group(1) != out.group(1):
                bad("%s %s: redistribution and sessions not through one route-map (%s, %s)" %
                    (what, n, rm and rm.group(1), out and out.group(1)))
                continue
            if re.search(r"^ neighbor \d+\.\d+\.\d+\.\d+ ", conf, re.M):
                bad("%s %s: a numbered neighbour beside the unnumbered sessions" % (what, n))
            text = "\n".join(re.findall(r"^(?:ip prefix-list .*|route-map .*| match .*)$",
                                        conf, re.M))
            if text not in policies:  # the fabric's switches share the lists: once each
                lists, maps = prefix_lists(conf), route_maps(conf)
                entries = maps.get(rm.group(1), [])
                passed = {r for r in every if map_permits(entries, lists, r)}
                policies[text] = ([show(r) for r in sorted(passed & links)],
                                  [show(r) for r in sorted(wanted - passed)])
            leaked, missing = policies[text]
            if leaked or missing:
                bad("%s %s: announces %d fabric /31s (%s) and leaves out %d loopbacks or host "
                    "subnets (%s)" % (what, n, len(leaked), leaked[:2], len(missing), missing[:2]))
            if n in leaves:
                check_paths(what, n, sw, owners, leaves)
        print("%s: %d switches, %d fabric /31s never announced, %d loopbacks and host subnets "
              "announced" % (what, len(members), len(links), len(wanted)))


os.chdir(root)
with tempfile.TemporaryDirectory() as tmp:
    for i, args in enumerate(BUILDS):
        out = os.path.join(tmp, str(i))
        r = subprocess.run([clusterc, "build", "-q", "--emit", "switches", *args, "-o", out],
                           capture_output=True, text=True)
        if r.returncode != 0:
            bad("build %s: %s" % (" ".join(args), r.stderr[:300]))
            continue
        check_build(out, " ".join(args))
        subprocess.run(["rm", "-rf", out])
if problems:
    print("  %d problems" % len(problems))
    sys.exit(1)
print("frr policy: ok")
