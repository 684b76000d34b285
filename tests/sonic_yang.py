#!/usr/bin/env python3
"""sonic_yang.py DIR... — every switches/NAME/config_db.json under each DIR against what the SONiC
YANG models require of the tables clusterc writes. Debian packages neither the models nor a
validator for them, and the project must not copy them, so the rules are restated here, each with
the model and revision it follows (sonic-net/sonic-buildimage src/sonic-yang-models/yang-models,
read 2026-12):

  sonic-port.yang (revision 2026-04-11)            PORT: lanes and speed mandatory; speed uint32
      1..1600000; mtu 68..9216; subport 0..8; index uint16; alias 1..128 and description 0..255
      characters; admin_status up|down; fec rs|fc|none|auto.
  sonic-interface.yang (revision 2025-03-06)       INTERFACE: a name is a leafref to PORT; an
      "name|prefix" entry's name must be in INTERFACE_LIST too; the prefix an IPv4 or IPv6 prefix.
  sonic-loopback-interface.yang                    LOOPBACK_INTERFACE "Loopback0" and
      "Loopback0|a.b.c.d/32" (the same name and prefix rules as INTERFACE, without PORT).
  sonic-device_metadata.yang (revision 2021-02-27) DEVICE_METADATA|localhost: hwsku and hostname
      1..255 characters; bgp_asn inet:as-number (0..4294967295); type one of the listed
      patterns; docker_routing_config_mode separated|unified|split|split-unified; buffer_model
      dynamic|traditional.
  sonic-device_neighbor.yang (revision 2020-04-10) DEVICE_NEIGHBOR: key, name and port 1..255
      characters; local_port a leafref to PORT.
  sonic-device_neighbor_metadata.yang (revision 2022-08-25) DEVICE_NEIGHBOR_METADATA: name and
      hwsku 1..255 characters; lo_addr an IPv4 address or prefix.
  sonic-bgp-neighbor.yang (revision 2026-07-22)    BGP_NEIGHBOR, when present: the key an IP
      address or a PORT (leafref); asn >= 1.
  sonic-cable-length.yang, sonic-port-qos-map.yang, sonic-queue.yang, sonic-buffer-pg.yang:
      the ports their keys name are leafrefs to PORT.

Beyond the models, what SONiC's orchagent and the platform files require: no ASIC lane in two
ports of one switch, and (one BGP mode, docs/switch-configs.md) no BGP_NEIGHBOR entry beside the
unnumbered sessions of frr.conf, whose interfaces must all be PORTs.

Exit 0 when every file passes, 1 otherwise (the first problems printed).
"""
import ipaddress
import json
import os
import re
import sys

problems = []


def bad(msg):
    if len(problems) < 30:
        print("  " + msg)
    problems.append(msg)


def string(where, v, lo, hi):
    if not isinstance(v, str) or not lo <= len(v) <= hi:
        bad("%s: %r is not a string of %d..%d characters" % (where, v, lo, hi))


def integer(where, v, lo, hi):
    if not isinstance(v, str) or not re.fullmatch(r"[0-9]+", v) or not lo <= int(v) <= hi:
        bad("%s: %r is not an integer in %d..%d" % (where, v, lo, hi))


def pattern(where, v, pat):
    if not isinstance(v, str) or not re.fullmatch(pat, v):
        bad("%s: %r does not match %s" % (where, v, pat))


def prefix(where, v, v4only=False):
    try:
        net = ipaddress.ip_interface(v)
        if "/" not in v or (v4only and net.version != 4):
            raise ValueError
    except ValueError:
        bad("%s: %r is not an IP%s prefix" % (where, v, "v4" if v4only else ""))


def address(where, v):
    try:
        ipaddress.ip_address(v)
    except ValueError:
        bad("%s: %r is not an IP address" % (where, v))


METADATA_TYPES = ("ToRRouter|LeafRouter|SpineChassisFrontendRouter|ChassisBackendRouter|ASIC|"
                  "MgmtToRRouter|SpineRouter|BackEndToRRouter|BackEndLeafRouter|EPMS|MgmtTsToR|"
                  "BmcMgmtToRRouter|SonicHost|SonicDpu|not-provisioned")


# sonic-port.yang's leaves: name, checker, its bounds or pattern.
PORT_LEAVES = [
    ("speed", integer, 1, 1600000), ("mtu", integer, 68, 9216), ("subport", integer, 0, 8),
    ("index", integer, 0, 65535), ("alias", string, 1, 128), ("description", string, 0, 255),
    ("admin_status", pattern, "up|down"), ("fec", pattern, "rs|fc|none|auto"),
]


def check_port(name, ports, lanes_seen):
    for key, e in ports.items():
        w = "%s PORT|%s" % (name, key)
        string(w + " name", key, 1, 128)
        for leaf in ("lanes", "speed"):
            if leaf not in e:
                bad("%s: mandatory leaf %s missing" % (w, leaf))
        if "lanes" in e:
            string(w + " lanes", e["lanes"], 1, 128)
            if not re.fullmatch(r"[0-9]+(,[0-9]+)*", e["lanes"]):
                bad("%s: lanes %r are not a list of lane numbers" % (w, e["lanes"]))
            else:
                for lane in e["lanes"].split(","):
                    if lane in lanes_seen:
                        bad("%s: lane %s is also %s's" % (w, lane, lanes_seen[lane]))
                    lanes_seen[lane] = key
        for leaf, check, *bounds in PORT_LEAVES:
            if leaf in e:
                check("%s %s" % (w, leaf), e[leaf], *bounds)


def check_interfaces(name, table, entries, ports, v4only):
    names = {k for k in entries if "|" not in k}
    for key in entries:
        w = "%s %s|%s" % (name, table, key)
        ifname, _, pfx = key.partition("|")
        if ports is not None and ifname not in ports:
            bad("%s: %s is not a PORT (leafref)" % (w, ifname))
        if pfx:
            if ifname not in names:
                bad("%s: %s is not in %s without a prefix (must)" % (w, ifname, table))
            prefix(w, pfx, v4only)


def check_metadata(name, md):
    lh = md.get("localhost")
    if lh is None:
        bad("%s: no DEVICE_METADATA|localhost" % name)
        return
    w = name + " DEVICE_METADATA|localhost"
    for leaf in ("hwsku", "hostname"):
        if leaf in lh:
            string("%s %s" % (w, leaf), lh[leaf], 1, 255)
    if "bgp_asn" in lh:
        integer(w + " bgp_asn", lh["bgp_asn"], 0, 4294967295)
    if "type" in lh:
        pattern(w + " type", lh["type"], METADATA_TYPES)
    if "docker_routing_config_mode" in lh:
        pattern(w + " docker_routing_config_mode", lh["docker_routing_config_mode"],
                "separated|unified|split|split-unified")
    if "buffer_model" in lh:
        pattern(w + " buffer_model", lh["buffer_model"], "dynamic|traditional")


def check_neighbors(name, d, ports):
    for key, e in d.get("DEVICE_NEIGHBOR", {}).items():
        w = "%s DEVICE_NEIGHBOR|%s" % (name, key)
        string(w, key, 1, 255)
        for leaf in ("name", "port"):
            if leaf in e:
                string("%s %s" % (w, leaf), e[leaf], 1, 255)
        if "local_port" in e and e["local_port"] not in ports:
            bad("%s: local_port %s is not a PORT (leafref)" % (w, e["local_port"]))
    for key, e in d.get("DEVICE_NEIGHBOR_METADATA", {}).items():
        w = "%s DEVICE_NEIGHBOR_METADATA|%s" % (name, key)
        string(w, key, 1, 255)
        if "hwsku" in e:
            string(w + " hwsku", e["hwsku"], 1, 255)
        if "lo_addr" in e:
            v = e["lo_addr"]
            try:
                ipaddress.IPv4Interface(v)
            except ValueError:
                bad("%s: lo_addr %r is not an IPv4 address or prefix" % (w, v))
    for key, e in d.get("BGP_NEIGHBOR", {}).items():
        w = "%s BGP_NEIGHBOR|%s" % (name, key)
        nbr = key.split("|")[-1]
        if nbr not in ports:
            address(w, nbr)
        if "asn" in e:
            integer(w + " asn", e["asn"], 1, 4294967295)


def check_port_keys(name, d, ports):
    for key in d.get("CABLE_LENGTH", {}).get("AZURE", {}):
        if key not in ports:
            bad("%s CABLE_LENGTH|AZURE: %s is not a PORT (leafref)" % (name, key))
    for key in d.get("CABLE_LENGTH", {}).get("AZURE", {}).values():
        pattern(name + " CABLE_LENGTH|AZURE", key, "[0-9]+m")
    for table in ("PORT_QOS_MAP", "QUEUE", "BUFFER_PG"):
        for key in d.get(table, {}):
            port = key.split("|")[0]
            if port != "global" and port not in ports:
                bad("%s %s|%s: %s is not a PORT (leafref)" % (name, table, key, port))


def check_mode(name, d, frr, ports):
    peers = re.findall(r"^ neighbor (\S+) interface peer-group \S+$", frr, re.M)
    if peers and d.get("BGP_NEIGHBOR"):
        bad("%s: BGP_NEIGHBOR entries beside frr.conf's unnumbered sessions (two BGP modes)" % name)
    for p in peers:
        if p not in ports:
            bad("%s: frr.conf peers on %s, which is no PORT" % (name, p))
    for p in re.findall(r"^interface (\S+)$", frr, re.M):
        if p not in ports:
            bad("%s: frr.conf configures interface %s, which is no PORT" % (name, p))


def check_dir(out):
    root = os.path.join(out, "switches")
    n = 0
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, "config_db.json")
        if not os.path.exists(path):
            continue
        n += 1
        d = json.load(open(path))
        ports = d.get("PORT", {})
        if not ports:
            bad("%s: no PORT table" % name)
        check_port(name, ports, {})
        check_interfaces(name, "INTERFACE", d.get("INTERFACE", {}), ports, False)
        check_interfaces(name, "LOOPBACK_INTERFACE", d.get("LOOPBACK_INTERFACE", {}), None, False)
        for key in d.get("LOOPBACK_INTERFACE", {}):
            pattern("%s LOOPBACK_INTERFACE|%s" % (name, key), key.split("|")[0], "Loopback[0-9]+")
        check_metadata(name, d.get("DEVICE_METADATA", {}))
        check_neighbors(name, d, ports)
        check_port_keys(name, d, ports)
        frr = os.path.join(root, name, "frr.conf")
        if os.path.exists(frr):
            check_mode(name, d, open(frr).read(), ports)
    if n == 0:
        bad("%s: no config_db.json" % out)
    return n


def main():
    if len(sys.argv) < 2:
        print("usage: sonic_yang.py DIR...", file=sys.stderr)
        return 2
    total = sum(check_dir(d) for d in sys.argv[1:])
    if problems:
        print("  %d problems in %d config_db.json files" % (len(problems), total))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
