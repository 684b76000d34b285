#!/usr/bin/env python3
"""optimize_reliability.py CLUSTERC ROOT — the optimizer on reliability's attributes (issue 18).

tests/optimize/reliability.cluster (bench/choices-8.cluster's cluster, 192 designs) with each
objective and require below appended, built with the MILP and with --search=exhaustive:

- both exit as expected (0, or 2 with the require's violation and, from the MILP, the
  relaxation that would let it hold);
- the MILP decides (report.json optimizer.solver glpk: cluster.job_mtbf is tabulated as its rate,
  so `require cluster.job_mtbf >= X` and `maximize cluster.job_mtbf` stay linear) and makes the
  same decisions at the same objective as the exhaustive search;
- the design kept meets what was required (goodput, job_mtbf as built), each require binds (the
  design without it breaks it), and the objective in report.json is in the units written
  (the mtbf in seconds, not its rate).
A build exits 70 when the MILP's objective is not the design's (optimize.c's end check): the
stale reliability values of issue 18's bug made that happen with an effective time objective.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

clusterc, root = sys.argv[1], sys.argv[2]
spec = os.path.join(root, "tests", "optimize", "reliability.cluster")
base = open(spec).read()
fails = []
H = 3600.0


def fail(msg):
    fails.append(msg)
    print("FAIL:", msg)


def build(tmp, name, lines, mode):
    path = os.path.join(tmp, name + ".cluster")
    with open(path, "w") as f:
        f.write(base + "\n".join(lines) + "\n")
    out = os.path.join(tmp, name + "-" + mode)
    p = subprocess.run([clusterc, "build", "-q", path, "--search=" + mode, "-o", out, "--emit", "report.json"],
                       capture_output=True, text=True)
    report = None
    rj = os.path.join(out, "report.json")
    if os.path.exists(rj):
        report = json.load(open(rj))
    return p.returncode, p.stderr, report


def decisions(r):
    return [(d["declaration"], d["field"], d["chosen"]) for d in r["decisions"]]


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(1.0, abs(b))


# name, lines appended, expected exit, a check of the design kept (report.json) or None
CASES = [
    ("effective-time", ["minimize llama70b.effective_time_to_train"], 0, None),
    ("goodput", ["require llama70b.goodput >= 0.986", "minimize llama70b.effective_time_to_train"], 0,
     lambda r: r["reliability"]["workloads"][0]["goodput"] >= 0.986),
    ("job-mtbf-12h", ["require planner.job_mtbf >= 12 h", "minimize llama70b.effective_time_to_train"], 0,
     lambda r: r["reliability"]["job_mtbf_h"] >= 12),
    # tighter: the fabric's choices decide (2:1 and two planes, not 1:1)
    ("job-mtbf-14.8h", ["require planner.job_mtbf >= 14.8 h", "minimize llama70b.effective_time_to_train"], 0,
     lambda r: r["reliability"]["job_mtbf_h"] >= 14.8),
    ("job-mtbf-written-right", ["require 15.5 h <= planner.job_mtbf", "minimize llama70b.effective_time_to_train"],
     0, lambda r: r["reliability"]["job_mtbf_h"] >= 15.5),
    ("maximize-job-mtbf", ["require llama70b.time_to_train <= 40 d", "maximize planner.job_mtbf"], 0,
     lambda r: r["workloads"][0]["time_to_train_days"] <= 40),
    ("minimize-job-mtbf", ["minimize planner.job_mtbf"], 0, None),
    # the energy times the failures' wall factor: the workloads' factor on the whole model
    ("effective-energy", ["minimize llama70b.effective_energy_to_train"], 0, None),
    ("workload-job-mtbf", ["require llama70b.time_to_train <= 30 d", "maximize llama70b.job_mtbf"], 0,
     lambda r: r["workloads"][0]["time_to_train_days"] <= 30),
    ("job-mtbf-capex", ["require planner.job_mtbf >= 20 h", "minimize planner.capex"], 0,
     lambda r: r["reliability"]["job_mtbf_h"] >= 20),
    ("job-mtbf-unmet", ["require planner.job_mtbf >= 100 h", "minimize llama70b.effective_time_to_train"], 2, None),
]

with tempfile.TemporaryDirectory() as tmp:
    for name, lines, want, check in CASES:
        got = {}
        for mode in ("milp", "exhaustive"):
            rc, err, r = build(tmp, name, lines, mode)
            got[mode] = (rc, err, r)
            if rc != want:
                fail(f"{name} --search={mode}: exit {rc}, not {want}\n{err}")
        (rc_m, err_m, r_m), (rc_e, err_e, r_e) = got["milp"], got["exhaustive"]
        if want == 2:
            for mode, err in (("milp", err_m), ("exhaustive", err_e)):
                if "requirement not met: planner.job_mtbf is" not in err:
                    fail(f"{name} --search={mode}: no violation of the job_mtbf require\n{err}")
            # 100 h cannot hold: the MILP's elastic model says what would, in the mtbf's units
            if not re.search(r"relax the require at \S+:\d+ to [\d.,]+ d\b", err_m):
                fail(f"{name}: the MILP gives no relaxation of the require in days\n{err_m}")
            continue
        if r_m is None or r_e is None:
            continue
        if r_m["optimizer"]["solver"] != "glpk":
            fail(f"{name}: not decided by the MILP ({r_m['optimizer']['solver']})")
        if decisions(r_m) != decisions(r_e):
            fail(f"{name}: the MILP and the exhaustive search decide differently:\n"
                 f"  {decisions(r_m)}\n  {decisions(r_e)}")
        om, oe = r_m["optimizer"]["objective"], r_e["optimizer"]["objective"]
        if not close(om, oe):
            fail(f"{name}: the MILP's objective {om}, the exhaustive search's {oe}")
        if check and not check(r_m):
            fail(f"{name}: the design kept breaks what was required")
        if "planner.job_mtbf" in lines[-1]:
            # the objective in seconds of mtbf: within the plant's share of the built value
            built = r_m["reliability"]["job_mtbf_h"] * H
            if not close(om, built, 1e-3):
                fail(f"{name}: the objective {om} s is not the job_mtbf {built} s")

    # Each require binds: the unconstrained optimum breaks it.
    free = {}
    for mode in ("milp",):
        rc, err, r = build(tmp, "free", ["minimize llama70b.effective_time_to_train"], mode)
        free = r
    if free:
        if free["reliability"]["job_mtbf_h"] >= 12:
            fail("the fastest design already meets job_mtbf >= 12 h: the require binds nothing")
        if free["reliability"]["workloads"][0]["goodput"] >= 0.986:
            fail("the fastest design already meets goodput >= 0.986: the require binds nothing")

    # report.md says what the objective leaves out: the plant too when it reads a reliability
    # attribute (a candidate's rates go without it), the cables alone when it does not.
    for name, lines, plant in (("md-effective", ["minimize llama70b.effective_time_to_train"], True),
                               ("md-capex", ["minimize planner.capex"], False)):
        path = os.path.join(tmp, name + ".cluster")
        with open(path, "w") as f:
            f.write(base + "\n".join(lines) + "\n")
        out = os.path.join(tmp, name)
        subprocess.run([clusterc, "build", "-q", path, "-o", out, "--emit", "report.md"],
                       capture_output=True, text=True)
        md = open(os.path.join(out, "report.md")).read() if os.path.exists(os.path.join(out, "report.md")) else ""
        said = "the failures of the power and cooling plant" in md
        if "The objective leaves out the cables" not in md or said != plant:
            fail(f"{name}: report.md does not say what the objective leaves out (plant {plant})")

    # Not the attribute alone: no rate row, the exhaustive search decides, the same design.
    rc, err, r = build(tmp, "scaled", ["require 2 * planner.job_mtbf >= 24 h",
                                        "minimize llama70b.effective_time_to_train"], "milp")
    if rc != 0 or r is None:
        fail(f"scaled: exit {rc}\n{err}")
    else:
        if r["optimizer"]["solver"] != "enumeration":
            fail("scaled: 2 * job_mtbf was not left to the exhaustive search")
        _, _, r12 = build(tmp, "job-mtbf-12h", ["require planner.job_mtbf >= 12 h",
                                                 "minimize llama70b.effective_time_to_train"], "milp")
        if r12 and decisions(r) != decisions(r12):
            fail("scaled: not the design of job_mtbf >= 12 h")

print(f"optimize_reliability: {len(CASES) + 1} specs, {len(fails)} failed")
sys.exit(1 if fails else 0)
