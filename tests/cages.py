#!/usr/bin/env python3
"""cages.py CLUSTERC ROOT — issue 16's cage cases, built and checked from the artifacts alone.

For tests/cages/*.cluster (a B200-class NDR build of 64 scalable units, 10,240 GPUs; a B300/XDR
build of 18 scalable units; NDR200 breakouts) and the SuperPOD example, from cabling.csv and
bom.csv:
  - no switch cage with two kinds of media: the rows with an end in one cage (device, a_cage
    or z_cage) all use fibre with one module named once, or are all legs of one assembly;
  - every module is named once: the optics named in cabling.csv, counted per model, equal the
    BOM's optic lines (the issue: 50,944 counted from cabling.csv against the BOM's 25,472);
  - every cable part is counted once: the rows whose assembly is their own cable_id, per model
    and length, equal the BOM's cable lines;
  - every leg of an assembly (rows sharing `assembly`) has one end in the same cage, at most
    as many legs as that cage has lanes, and a leg's cage lane is unique;
  - the NDR200 build uses splitter fibres or breakouts for the leaves' 4-lane cages, and the
    B300/XDR build single-mode only (NVIDIA's XDR list: no multimode, AOC or copper at
    200G-PAM4, https://docs.nvidia.com/networking/display/800g200gpam4list, read 2026-11).
"""
import collections
import csv
import os
import subprocess
import sys
import tempfile

clusterc, root = sys.argv[1], sys.argv[2]
os.environ.setdefault("CLUSTERC_STDLIB", os.path.join(root, "stdlib"))
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


def check(spec, out):
    r = subprocess.run([clusterc, "build", spec, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{spec}: exit {r.returncode}: {r.stderr[-400:]}")
        return None
    rows = list(csv.DictReader(open(os.path.join(out, "cabling.csv"), newline="")))
    bom = list(csv.DictReader(open(os.path.join(out, "bom.csv"), newline="")))
    cages = collections.defaultdict(list)
    for r_ in rows:
        for e in "az":
            if r_[e + "_cage"]:
                cages[(r_[e + "_device"], r_[e + "_cage"])].append((r_, e))
    mixed = 0
    for key, ends in cages.items():
        kinds = {(r_["media"] == "fiber", r_["assembly"] if r_["media"] != "fiber" else "")
                 for r_, e in ends}
        named = [r_[e + "_optic"] for r_, e in ends if r_[e + "_optic"]]
        fibre = all(r_["media"] == "fiber" for r_, e in ends)
        if len(kinds) != 1 or (fibre and len(named) != 1) or (not fibre and named):
            mixed += 1
            if mixed <= 3:
                fail(f"{spec}: cage {key} has two kinds of media or its module "
                     f"named {len(named)} times")
        lanes = [r_[e + "_lane"] for r_, e in ends]
        if len(set(lanes)) != len(lanes):
            fail(f"{spec}: cage {key} has a lane twice")
    if mixed:
        fail(f"{spec}: {mixed} cages with two kinds of media")
    optics = collections.Counter()
    for r_ in rows:
        for e in "az":
            if r_[e + "_optic"]:
                optics[r_[e + "_optic"]] += 1
    bom_optics = {b["model"]: int(b["quantity"]) for b in bom if b["part"] == "optic"}
    if dict(optics) != bom_optics:
        fail(f"{spec}: optics in cabling.csv {dict(optics)} != BOM {bom_optics}")
    cables = collections.Counter()
    legs = collections.defaultdict(list)
    for r_ in rows:
        legs[r_["assembly"]].append(r_)
        if r_["assembly"] == r_["cable_id"]:
            length = float(r_["length_m"])
            cables[f"{r_['cable_model']} {length:g} m"] += 1
    bom_cables = {b["model"]: int(b["quantity"]) for b in bom if b["part"] == "cable"}
    if dict(cables) != bom_cables:
        fail(f"{spec}: cables in cabling.csv {dict(cables)} != BOM {bom_cables}")
    for a, group in legs.items():
        if a not in {r_["cable_id"] for r_ in group}:
            fail(f"{spec}: assembly {a} is counted on none of its legs")
        if len(group) == 1:
            continue
        heads = [{(r_[e + "_device"], r_[e + "_cage"]) for r_ in group} for e in "az"]
        if not any(len(h) == 1 and "" not in {c for _, c in h} for h in heads):
            fail(f"{spec}: legs of assembly {a} are not in the lanes of one cage")
        if len({(r_["cable_model"], r_["length_m"]) for r_ in group}) != 1:
            fail(f"{spec}: legs of assembly {a} differ in part or length")
    print(f"{os.path.basename(spec)}: {len(rows)} cables, {len(cages)} cages, "
          f"{sum(optics.values())} modules, {sum(cables.values())} cable parts, 0 mixed")
    return rows


with tempfile.TemporaryDirectory() as tmp:
    for name in ("b200-ndr-64su", "b300-xdr-18su", "ndr200-split"):
        rows = check(os.path.join(root, "tests/cages", name + ".cluster"), os.path.join(tmp, name))
        if rows is None:
            continue
        if name == "b200-ndr-64su":
            # 10,240 GPUs: 1,280 x 8 ConnectX-7, each with its own single-port module.
            nic = sum(1 for r_ in rows if r_["tier"] == "node-leaf" and r_["a_optic"])
            if nic != 10240:
                fail(f"{name}: {nic} NIC modules, expected 10,240")
        if name == "b300-xdr-18su":
            bad = {r_["fiber_type"] for r_ in rows} - {"os2"}
            if bad:
                fail(f"{name}: fibre types {bad} at 200G-PAM4, only os2 exists")
        if name == "ndr200-split":
            split = [r_ for r_ in rows if r_["tier"] == "node-leaf"]
            if not split or any(r_["assembly"] == r_["cable_id"] and
                                sum(1 for s in split if s["assembly"] == r_["cable_id"]) < 2
                                for r_ in split):
                fail(f"{name}: a 200G lane of a 4-lane cage without a splitter or breakout")
    check(os.path.join(root, "examples/dgx-h100-superpod.cluster"), os.path.join(tmp, "superpod"))
sys.exit(1 if failures else 0)
