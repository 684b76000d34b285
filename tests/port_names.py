#!/usr/bin/env python3
"""port_names.py CLUSTERC ROOT — one port, one name, in every artifact (passes/ir/ir.c).

For builds on InfiniBand (QM9700 and the UFM appliances of the DGX H100 SuperPOD), Ethernet
(SN5600, a Tomahawk 5 dragonfly, the two fabrics of Alibaba HPN) and XDR (Q3400), every cable's
two ends as cabling.csv names them (device, port) must be, with the same strings:
  - netbox/cables.csv: the row labelled with the cable's id has those ends;
  - netbox/interfaces.csv: both ends are interfaces, their type a NetBox InterfaceTypeChoices
    slug (dcim/choices.py, read 2026-12) and not "other" for the stdlib's models;
  - switches/NAME/config_db.json (Ethernet): a switch end is a PORT, its DEVICE_NEIGHBOR the other
    end, its description "DEVICE PORT" of the other end; frr.conf configures only PORTs;
  - topology.dot (drawn device by device): each link edge has a_port and z_port the cable's;
  - infiniband/FABRIC.topo: a node's HCA is described "HOST PORT" with its port's name, and IB port
    number N of a QM9700 is the faceplate port 1/ceil(N/2)/(2 - N % 2) (NVIDIA MLNX-OS User
    Manual v3.11, InfiniBand Interface: two logical ports a cage, <ASIC/cage/port>), of a Q3400
    swCpP likewise;
  - the label column of cabling.csv is "A_DEVICE:A_PORT - Z_DEVICE:Z_PORT".
And a port name is the model's: Ethernet ports "Ethernet<N>", QM9700 "1/C/P", Q3400 "swCpP",
ConnectX ports "mlx5_K" with K counted from 0 on each host.
"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

clusterc, root = sys.argv[1], sys.argv[2]
problems = []


def bad(msg):
    if len(problems) < 40:
        print("FAIL: " + msg)
    problems.append(msg)


NETBOX_SLUGS = {
    "800gbase-x-osfp", "800gbase-x-qsfpdd", "400gbase-x-osfp", "400gbase-x-qsfpdd",
    "400gbase-x-qsfp112", "200gbase-x-qsfp56", "200gbase-x-qsfpdd", "100gbase-x-qsfp28",
    "100gbase-x-qsfpdd", "50gbase-x-sfp56", "25gbase-x-sfp28", "1.6tbase-x-osfp1600",
    "infiniband-hdr-4x", "infiniband-ndr-4x", "infiniband-xdr-4x", "infiniband-hdr",
    "infiniband-ndr", "infiniband-xdr",
}
NAME = {
    "ethernet": re.compile(r"Ethernet[0-9]+$"),
    "QM9700": re.compile(r"1/([0-9]+)/([12])(/[12])?$"),
    "Q3400": re.compile(r"sw[0-9]+p[12](s[12])?$"),
    "host": re.compile(r"mlx5_[0-9]+$"),
}


def build(spec, out, *args):
    r = subprocess.run([clusterc, "build", "-q", os.path.join(root, spec), "-o", out] + list(args),
                       capture_output=True, text=True)
    if r.returncode != 0:
        bad("build %s: %s" % (spec, r.stderr[:300]))
        return False
    return True


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def mlnx_os(n):
    return "1/%d/%d" % ((n + 1) // 2, 2 - n % 2)


def nvos(n):
    return "sw%dp%d" % ((n + 1) // 2, 2 - n % 2)


drawn = [0]  # link edges drawn device by device, over every build


def check(out, spec, kinds, ib_name=mlnx_os):
    cables = rows(os.path.join(out, "cabling.csv"))
    if not cables:
        bad("%s: no cables" % spec)
    ends = {}  # cable id -> ((a_dev, a_port), (z_dev, z_port))
    for c in cables:
        a, z = (c["a_device"], c["a_port"]), (c["z_device"], c["z_port"])
        ends[c["cable_id"]] = (a, z)
        if c["label"] != "%s:%s - %s:%s" % (a + z):
            bad("%s %s: label %r, ends %s %s" % (spec, c["cable_id"], c["label"], a, z))
    nb = {r["label"]: r for r in rows(os.path.join(out, "netbox", "cables.csv"))}
    ifaces = {(r["device"], r["name"]): r["type"]
              for r in rows(os.path.join(out, "netbox", "interfaces.csv"))}
    speed = {c["cable_id"]: c["speed_gbps"] for c in cables}
    for cid, (a, z) in ends.items():
        r = nb.get(cid)
        if not r or (r["side_a_device"], r["side_a_name"]) != a or \
                (r["side_b_device"], r["side_b_name"]) != z:
            bad("%s %s: netbox/cables.csv has %s, cabling.csv %s %s" % (spec, cid, r and (
                r["side_a_device"], r["side_a_name"], r["side_b_device"], r["side_b_name"]), a, z))
        for e in (a, z):
            t = ifaces.get(e)
            if t is None:
                bad("%s: %s:%s is no netbox interface" % (spec, e[0], e[1]))
            elif t == "other" and speed[cid] == "200" and spec == "alibaba-hpn":
                pass
            elif t not in NETBOX_SLUGS:
                bad("%s: %s:%s has NetBox type %r" % (spec, e[0], e[1], t))
    # Names as the models print them.
    for cid, pair in ends.items():
        for dev, port in pair:
            kind = kinds(dev)
            if kind and not NAME[kind].match(port):
                bad("%s %s: %s port %r is not a %s name" % (spec, cid, dev, port, kind))
    by_end = {}
    for cid, (a, z) in ends.items():
        by_end[a] = z
        by_end[z] = a
    check_switches(out, spec, by_end)
    drawn[0] += check_dot(out, spec, ends)
    check_topo(out, spec, by_end, ib_name)


def check_switches(out, spec, by_end):
    sw = os.path.join(out, "switches")
    if not os.path.isdir(sw):
        return
    for name in sorted(os.listdir(sw)):
        d = json.load(open(os.path.join(sw, name, "config_db.json")))
        for port, e in d["PORT"].items():
            peer = by_end.get((name, port))
            if peer is None:
                bad("%s: %s PORT %s is no cable end in cabling.csv" % (spec, name, port))
                continue
            if e.get("description") != "%s %s" % peer:
                bad("%s: %s %s description %r, cabling.csv %s" % (spec, name, port,
                                                                  e.get("description"), peer))
            n = d.get("DEVICE_NEIGHBOR", {}).get(port, {})
            if (n.get("name"), n.get("port")) != peer or n.get("local_port") != port:
                bad("%s: %s DEVICE_NEIGHBOR %s is %s, cabling.csv %s" % (spec, name, port, n, peer))
        frr = open(os.path.join(sw, name, "frr.conf")).read()
        for p in re.findall(r"^interface (\S+)$", frr, re.M):
            if p not in d["PORT"]:
                bad("%s: %s frr.conf interface %s is no PORT" % (spec, name, p))


EDGE = re.compile(r'^\s*"([^"]+)" -- "([^"]+)"\s*\[(.*?)\];?$', re.M | re.S)
ATTR = re.compile(r'(\w+)="?([^",\]]*)"?')


def check_dot(out, spec, ends):
    text = open(os.path.join(out, "topology.dot")).read()
    cables = {}
    for a, z in ends.values():
        cables[(a[0], z[0], a[1], z[1])] = True
    n = 0
    for m in EDGE.finditer(text):
        attrs = dict(ATTR.findall(m.group(3)))
        if "a_port" not in attrs:
            continue
        n += 1
        key = (m.group(1), m.group(2), attrs["a_port"], attrs["z_port"])
        rev = (m.group(2), m.group(1), attrs["z_port"], attrs["a_port"])
        if key not in cables and rev not in cables:
            bad("%s: topology.dot edge %s is no cable of cabling.csv" % (spec, key))
    return n


def check_topo(out, spec, by_end, ib_name):
    ib = os.path.join(out, "infiniband")
    if not os.path.isdir(ib):
        return
    for f in sorted(os.listdir(ib)):
        if not f.endswith(".topo"):
            continue
        text = open(os.path.join(ib, f)).read()
        desc = dict(re.findall(r'^Switch\t\d+ "([^"]+)"\t\t# "([^"]+)"', text, re.M))
        desc.update(re.findall(r'^Ca\t\d+ "([^"]+)"\t\t# "([^"]+)"', text, re.M))
        for block in text.split("\n\n"):
            m = re.search(r'^Switch\t\d+ "([^"]+)"', block, re.M)
            if not m:
                continue
            sw = desc[m.group(1)]
            for p, peer in re.findall(r'^\[(\d+)\]\t"([^"]+)"\[\d+\]', block, re.M):
                n = int(p)
                name = ib_name(n)
                other = by_end.get((sw, name))
                host, _, hport = desc[peer].partition(" ")
                if other is None:
                    bad("%s %s: IB port %d of %s is %s, no cable end" % (spec, f, n, sw, name))
                elif peer.startswith("H-") and other != (host, hport):
                    bad("%s %s: %s %s reaches %s, cabling.csv %s" % (spec, f, sw, name,
                                                                     desc[peer], other))


def main():
    tmp = tempfile.mkdtemp(prefix="port-names-", dir=os.environ.get("TMPDIR"))
    try:
        def ib(dev):
            return "QM9700" if re.search(r"-(leaf|spine|core)-", dev) else (
                "host" if re.match(r"dgx\d+$", dev) else None)
        if build("examples/dgx-h100-superpod.cluster", tmp + "/ib"):
            check(tmp + "/ib", "dgx-h100-superpod", ib)

        def eth(dev):
            return "ethernet" if re.search(r"-(leaf|spine|core|router)-", dev) else (
                "host" if re.match(r"h200-\d+$", dev) else None)
        if build("examples/roce-spectrum4.cluster", tmp + "/roce"):
            check(tmp + "/roce", "roce-spectrum4", eth)
        if build("examples/dragonfly-1k.cluster", tmp + "/df"):
            check(tmp + "/df", "dragonfly-1k", eth)
        if build("examples/alibaba-hpn.cluster", tmp + "/hpn"):
            check(tmp + "/hpn", "alibaba-hpn", eth)

        # Small enough to be drawn device by device: two fabrics on one NIC.
        def small(dev):
            return "host" if re.match(r"node\d+$", dev) else None
        if build("tests/placement/two-fabrics-one-nic.cluster", tmp + "/two"):
            check(tmp + "/two", "two-fabrics-one-nic", small)

        def xdr(dev):
            return "Q3400" if re.search(r"-(leaf|spine|core)-", dev) else None
        if build("tests/placement/xdr-800g.cluster", tmp + "/xdr"):
            check(tmp + "/xdr", "xdr-800g", xdr, nvos)
        if drawn[0] == 0:
            bad("no build drew its links device by device: topology.dot's a_port and z_port "
                "were not checked")
    finally:
        subprocess.run(["rm", "-rf", tmp])
    if problems:
        print("%d problems" % len(problems))
        return 1
    print("port names: ok (%d drawn links)" % drawn[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
