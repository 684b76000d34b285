#!/usr/bin/env python3
"""tests/frr/check.py LAB.JSON SOCKETS — what tests/frr_fabric.sh asserts of the running fabric,
asked of each switch's FRR with vtysh in its namespace (JSON output) and of its kernel (ip -j):

 - every session its frr.conf configures (`neighbor PORT interface`) is Established;
 - every leaf's loopback is in every other leaf's RIB, from BGP, selected and installed over
   as many next hops as that leaf has uplinks (one per spine here: all the equal-cost paths),
   and in its kernel table with as many next hops; every spine has every leaf's loopback;
 - every host subnet (the /31 of a host link) is in every switch's RIB (connected on its leaf,
   from BGP elsewhere);
 - no /31 of a link between two switches is in any BGP table (received or not), nor in any
   RIB or kernel table except as the connected route of the two switches it joins.

SOCKETS/NS is the vty socket directory of namespace NS. Prints each problem (the first 30) and
exits 1 when there is any, 0 when there is none.
"""
import ipaddress
import json
import os
import subprocess
import sys

lab = json.load(open(sys.argv[1]))
sockets = sys.argv[2]
problems = []


def bad(msg):
    problems.append(msg)


def vtysh(ns, cmd):
    r = subprocess.run(["ip", "netns", "exec", ns, "vtysh", "--vty_socket",
                        os.path.join(sockets, ns), "--config_dir", os.path.join(sockets, ns),
                        "-c", cmd], capture_output=True, text=True, timeout=20)
    try:
        return json.loads(r.stdout or "{}")
    except ValueError:
        bad("%s: `%s` printed no JSON: %s %s" % (ns, cmd, r.stdout[:200], r.stderr[:200]))
        return {}


def kernel(ns):
    r = subprocess.run(["ip", "-netns", ns, "-4", "-j", "route", "show"],
                       capture_output=True, text=True, timeout=20)
    routes = {}
    for e in json.loads(r.stdout or "[]"):
        dst = e.get("dst", "")
        if dst and "/" not in dst and dst != "default":
            dst += "/32"
        routes[dst] = e
    return routes


fabric = set(lab["fabric_subnets"])
sw = lab["switches"]
own = {n: {str(ipaddress.ip_interface(c).network) for c in s["ports"].values()}
       for n, s in sw.items()}
state = {}
for name, s in sw.items():
    ns = s["ns"]
    state[name] = {"summary": vtysh(ns, "show bgp ipv4 unicast summary json"),
                   "rib": vtysh(ns, "show ip route json"),
                   "bgp": vtysh(ns, "show bgp ipv4 unicast json"),
                   "kernel": kernel(ns)}


def connected_here(name, prefix):
    """The /31 is configured on one of this switch's ports."""
    return prefix in own[name]


for name, s in sorted(sw.items()):
    st = state[name]
    summary = st["summary"]
    peers = summary.get("peers", summary.get("ipv4Unicast", {}).get("peers", {}))
    for port in s["sessions"]:
        got = peers.get(port, {}).get("state", "absent")
        if got != "Established":
            bad("%s: the session on %s is %s" % (name, port, got))

    # No fabric /31 learned, selected or installed anywhere but on its own two ends.
    for prefix in st["bgp"].get("routes", {}):
        if prefix in fabric:
            bad("%s: the fabric link %s is in its BGP table" % (name, prefix))
    for prefix, entries in st["rib"].items():
        if prefix in fabric:
            protos = {e.get("protocol") for e in entries}
            if not protos <= {"connected", "local"} or not connected_here(name, prefix):
                bad("%s: the fabric link %s is in its RIB (%s)" % (name, prefix, sorted(protos)))
    for prefix, e in st["kernel"].items():
        if prefix in fabric and (e.get("protocol") != "kernel" or not connected_here(name, prefix)):
            bad("%s: the fabric link %s is in its kernel table (%s)" % (name, prefix,
                                                                         e.get("protocol")))

    # Every host subnet reachable.
    for prefix in lab["host_subnets"]:
        if prefix not in st["rib"]:
            bad("%s: no route to the host subnet %s" % (name, prefix))


def fib_hops(entry):
    return [h for h in entry.get("nexthops", []) if h.get("fib") and h.get("active")]


for name in lab["leaves"] + lab["spines"]:
    st = state[name]
    is_leaf = name in lab["leaves"]
    want = len(sw[name]["uplinks"]) if is_leaf else 1
    for other in lab["leaves"]:
        if other == name:
            continue
        lo = sw[other]["loopback"]
        best = [e for e in st["rib"].get(lo, []) if e.get("selected")]
        if not best:
            bad("%s: no route to %s's loopback %s" % (name, other, lo))
            continue
        e = best[0]
        hops = fib_hops(e)
        if e.get("protocol") != "bgp" or not e.get("installed"):
            bad("%s: %s's loopback %s is %s, installed %s" % (name, other, lo, e.get("protocol"),
                                                             e.get("installed")))
        if is_leaf and len(hops) != want:
            bad("%s: %s's loopback %s over %d next hops, expected %d (its uplinks %s)" %
                (name, other, lo, len(hops), want, ",".join(sw[name]["uplinks"])))
        if is_leaf and {h.get("interfaceName") for h in hops} != set(sw[name]["uplinks"]):
            bad("%s: %s's loopback %s through %s, expected every uplink %s" %
                (name, other, lo, sorted(h.get("interfaceName") for h in hops),
                 sw[name]["uplinks"]))
        k = st["kernel"].get(lo)
        khops = len(k.get("nexthops", [])) or 1 if k else 0
        if is_leaf and khops != want:
            bad("%s: %s's loopback %s over %d next hops in the kernel, expected %d" %
                (name, other, lo, khops, want))

for p in problems[:30]:
    print("  " + p)
if problems:
    print("  %d problems" % len(problems))
    sys.exit(1)
