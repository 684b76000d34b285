#!/usr/bin/env python3
"""tests/frr/plan.py OUT PREFIX — the lab that tests/frr_fabric.sh builds from a build's switch
files: which namespaces, which veth pairs (named as the configs name the ports), which addresses.

Everything comes from the generated files, nothing from naming assumptions: a switch's ports and
their /31s are config_db.json's INTERFACE keys ("PORT|a.b.c.d/31"), its loopback its
LOOPBACK_INTERFACE key; two switch ports with the same /31 are the two ends of one link; a port
whose /31 no other switch has is a host port, whose host takes the other address of the /31.
frr.conf's `neighbor PORT interface` lines must name ports of that switch.

Prints one line per thing to make, for the shell:
    switch NS NAME LOOPBACK/32
    link NS_A PORT_A ADDR_A/31 NS_B PORT_B ADDR_B/31
    host NS PORT ADDR/31 HOST_NS HOST_ADDR/31 GATEWAY
and writes OUT/lab.json (the same, and what the checks expect) for check.py.
Exits 1 with a message when the configs cannot be brought up as they are (a port name longer
than Linux's 15 characters, a peer port no config has, a /31 on three ports).
"""
import ipaddress
import json
import os
import re
import sys

IFNAMSIZ = 15  # Linux: IFNAMSIZ 16 with the NUL (include/uapi/linux/if.h)


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    out, prefix = sys.argv[1], sys.argv[2]
    root = os.path.join(out, "switches")
    names = sorted(os.listdir(root))
    switches = {}
    by_subnet = {}  # the /31 -> [(switch, port, address)]
    for i, name in enumerate(names, 1):
        db = json.load(open(os.path.join(root, name, "config_db.json")))
        conf = open(os.path.join(root, name, "frr.conf")).read()
        loopbacks = [k.split("|", 1) for k in db.get("LOOPBACK_INTERFACE", {}) if "|" in k]
        if len(loopbacks) != 1:
            fail("%s: %d loopback addresses in config_db.json, expected 1" % (name, len(loopbacks)))
        ports = {}
        for key in db.get("INTERFACE", {}):
            if "|" not in key:
                continue
            port, cidr = key.split("|", 1)
            if len(port) > IFNAMSIZ:
                fail("%s: port %s is longer than Linux's %d characters: no interface can "
                     "carry the name frr.conf gives it" % (name, port, IFNAMSIZ))
            ports[port] = cidr
            net = ipaddress.ip_interface(cidr).network
            by_subnet.setdefault(net, []).append((name, port, cidr))
        peers = re.findall(r"^ neighbor (\S+) interface\b", conf, re.M)
        for p in peers:
            if p not in ports:
                fail("%s: frr.conf peers over %s, which config_db.json has no address on" %
                     (name, p))
        lo_name, lo_cidr = loopbacks[0]
        if len(lo_name) > IFNAMSIZ:
            fail("%s: loopback %s is longer than %d characters" % (name, lo_name, IFNAMSIZ))
        switches[name] = {"ns": "%s-s%d" % (prefix, i), "loopback_if": lo_name,
                          "loopback": lo_cidr, "ports": ports, "sessions": sorted(peers),
                          "host_ports": [], "uplinks": []}

    links, hosts, fabric_subnets, host_subnets = [], [], [], []
    for net, ends in sorted(by_subnet.items()):
        if len(ends) > 2:
            fail("%s is configured on %d ports: %s" % (net, len(ends), ends))
        if len(ends) == 2:
            links.append(ends)
            fabric_subnets.append(str(net))
            continue
        name, port, cidr = ends[0]
        mine = ipaddress.ip_interface(cidr).ip
        other = [a for a in net if a != mine][0]
        hosts.append((name, port, cidr, "%s-h%d" % (prefix, len(hosts) + 1),
                      "%s/%d" % (other, net.prefixlen), str(mine)))
        host_subnets.append(str(net))
        switches[name]["host_ports"].append(port)

    # A leaf has hosts; its sessions go up. Expected ECMP width toward another leaf: its
    # sessions to switches that are not leaves.
    leaves = sorted(n for n, s in switches.items() if s["host_ports"])
    port_peer = {}
    for (a, pa, _), (b, pb, _) in links:
        port_peer[(a, pa)] = b
        port_peer[(b, pb)] = a
    for n in leaves:
        s = switches[n]
        s["uplinks"] = sorted(p for p in s["sessions"] if port_peer.get((n, p)) not in leaves)
        for p in s["sessions"]:
            if (n, p) not in port_peer:
                fail("%s: frr.conf peers over %s, but no switch has the other end of its /31" %
                     (n, p))

    lab = {"switches": switches, "leaves": leaves,
           "spines": sorted(n for n in switches if n not in leaves),
           "fabric_subnets": fabric_subnets, "host_subnets": host_subnets,
           "hosts": [{"ns": h[3], "leaf": h[0], "addr": h[4].split("/")[0]} for h in hosts]}
    json.dump(lab, open(os.path.join(out, "lab.json"), "w"), indent=1, sort_keys=True)

    for n in names:
        s = switches[n]
        print("switch %s %s %s %s" % (s["ns"], n, s["loopback_if"], s["loopback"]))
    for (a, pa, ca), (b, pb, cb) in links:
        print("link %s %s %s %s %s %s" % (switches[a]["ns"], pa, ca, switches[b]["ns"], pb, cb))
    for name, port, cidr, hns, haddr, gw in hosts:
        print("host %s %s %s %s %s %s" % (switches[name]["ns"], port, cidr, hns, haddr, gw))


main()
