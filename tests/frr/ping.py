#!/usr/bin/env python3
"""tests/frr/ping.py [--from ADDR] DST... — ICMP echo (RFC 792) to each DST from the namespace it
runs in, for tests/frr_fabric.sh (the machine has no ping: iputils-ping is not a dependency of
anything the tests install). A raw socket, so root only; with --from, the requests leave from
ADDR (a leaf's loopback). Up to 3 requests per destination, 1 s apart; prints each destination
that never answered and exits 1 if any did not.
"""
import os
import select
import socket
import struct
import sys
import time


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def request(ident, seq):
    payload = b"clusterc frr_fabric"
    head = struct.pack("!BBHHH", 8, 0, 0, ident, seq)
    return struct.pack("!BBHHH", 8, 0, checksum(head + payload), ident, seq) + payload


def main():
    args = sys.argv[1:]
    src = None
    if args[:1] == ["--from"]:
        src, args = args[1], args[2:]
    sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    if src:
        sock.bind((src, 0))
    ident = os.getpid() & 0xFFFF
    waiting = set(args)
    for attempt in range(3):
        for dst in sorted(waiting):
            sock.sendto(request(ident, attempt), (dst, 0))
        end = time.monotonic() + 1.0
        while waiting and time.monotonic() < end:
            ready, _, _ = select.select([sock], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                break
            packet, (addr, _) = sock.recvfrom(2048)
            ihl = (packet[0] & 15) * 4
            kind, _, _, rid, _ = struct.unpack("!BBHHH", packet[ihl:ihl + 8])
            if kind == 0 and rid == ident:
                waiting.discard(addr)
        if not waiting:
            break
    for dst in sorted(waiting):
        print("no answer from %s%s" % (dst, " (from %s)" % src if src else ""))
    sys.exit(1 if waiting else 0)


main()
