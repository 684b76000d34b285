#!/usr/bin/env python3
"""bench/bench.py CLUSTERC [GPUS ...] — how clusterc's cost grows with the cluster.

For each size (GPUs; default 1000 10000 100000 1000000) it writes a spec from template.cluster
(the same design family at every size), builds it with every artifact and --timings, and
records the wall time of each stage, peak memory, bytes and files written, links and the
parallelism planner's plans per second; then the time to merely copy the same bytes
(`cp -r` of the output, timed without a flush as the build is), so the ratio to the I/O limit shows. Each build and each
copy runs BENCH_REPEAT times (default 3); every column keeps its minimum, and the build's and the
copy's wall and CPU times (user + system of the child, which a loaded machine inflates less
than the wall) are printed as minimum and median. BENCH_CHOICES=0 skips the optimizer's cases,
BENCH_SHAPES=0 the many-switch shapes, BENCH_SWEEP=0 the sweeps. BENCH_SWEEP_BASE=OTHER runs only
the sweep, CLUSTERC and OTHER alternated run by run (BENCH_REPEAT runs each, the load of each).

Writes OUT/bench.csv and OUT/bench.svg (time and memory against GPUs, log-log) and prints a
table per size and a summary. OUT is $BENCH_OUT, default bench/out beside this script.

Every build and copy goes into a new directory, with the page cache flushed (sync, untimed)
before it; the outputs are removed only once a size is done (unless BENCH_KEEP=1), and the next
size waits BENCH_SETTLE seconds (default 30). The reason: on ext4 without a journal, inodes
freed in the last 30 s are skipped when new ones are allocated, one by one, so creating
thousands of files just after deleting thousands costs the kernel several times more (seen
here: 2-6 s of system time instead of 1 s at 100,000 GPUs). See docs/performance.md.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

# The stage columns and the --timings stages of ours that go into each (by name; a
# stage not listed here is counted in "other" and named on stderr).
COLUMNS = [
    ("parse", ["load"]),
    ("check", ["resolve", "overrides", "check"]),
    ("elaborate", ["design", "parts", "elaborate", "names", "ids", "changes"]),
    ("synthesize", ["wire", "keep", "verify", "address", "sched"]),
    ("optimize", ["decide", "report", "validate", "overflow", "reliability", "finance"]),
    ("place_cable", ["place", "mount", "cable", "trunk", "heat", "verify-media", "cost", "feeds",
                     "judge"]),
    ("plan", ["plan"]),
    ("emit", ["emit"]),
]
HERE = os.path.dirname(os.path.abspath(__file__))
# BENCH_EMIT: an --emit list for the sizes' builds (default: none, the default artifacts; beyond
# 1,024 switches those leave the per-switch files out, docs/switch-configs.md).
EMIT = ["--emit", os.environ["BENCH_EMIT"]] if os.environ.get("BENCH_EMIT") else []


def spec_text(gpus):
    """The template filled in for `gpus` GPUs (8 a node)."""
    nodes = (gpus + 7) // 8
    # Six 8U nodes a 48U rack; the floor has room for them, the switch racks (about 15 % more
    # at 100,000 GPUs) and spare positions: 1.5 x the node racks, in rows of 40.
    node_racks = (nodes + 5) // 6
    rows = (node_racks * 3 // 2 + 39) // 40 + 2
    budget = nodes * 14 // 1000 + 10  # MW: 10.2 kW a node, cooling and network, with room
    with open(os.path.join(HERE, "template.cluster")) as f:
        text = f.read()
    for k, v in (("@NODES@", nodes), ("@ROWS@", rows), ("@BUDGET@", budget)):
        text = text.replace(k, str(v))
    return nodes, text


def parse_timings(path):
    """{stage: ms} and the peak RSS in MiB from a --timings listing."""
    ms, rss = {}, 0.0
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 4 and w[0] == "peak" and w[1] == "RSS":
                rss = float(w[2])
            elif len(w) >= 2 and w[0] not in ("stage", "total"):
                try:
                    ms[w[0]] = float(w[1])
                except ValueError:
                    pass
    return ms, rss


def timed(argv, **kw):
    """Runs argv; (exit status, wall ms, CPU ms: the child's user + system time)."""
    r0 = os.times()
    t0 = time.perf_counter()
    rc = subprocess.call(argv, **kw)
    wall = (time.perf_counter() - t0) * 1e3
    r1 = os.times()
    cpu = ((r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)) * 1e3
    return rc, wall, cpu


def median(v):
    """The median of a list of numbers (of an even count, the mean of the middle two)."""
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def spread(v):
    """'min / median' of a list of ms."""
    return "%.1f / %.1f" % (min(v), median(v))


def sha256_ms(out, path):
    """(nettle, libcrypto): the CPU ms SHA-256 takes over every file under path, one core, with
    each library (sha256_floor.c, compiled into out on first use; libcrypto's None without
    libssl-dev), each the least of two runs; None with the reason on stderr."""
    tool = os.path.join(out, "sha256_floor")
    src = os.path.join(HERE, "sha256_floor.c")
    if not os.path.exists(tool) or os.path.getmtime(tool) < os.path.getmtime(src):
        cc = os.environ.get("CC", "cc")
        rc = subprocess.call([cc, "-O2", "-o", tool, src, "-lnettle", "-lcrypto"],
                             stderr=subprocess.DEVNULL)
        if rc != 0:
            rc = subprocess.call([cc, "-O2", "-DNO_LIBCRYPTO", "-o", tool, src, "-lnettle"])
        if rc != 0:
            sys.stderr.write("bench: cannot compile %s (needs nettle-dev): no floor\n" % src)
            return None
    best = None
    for _ in range(2):  # the files are in the page cache: the reads are not timed anyway
        r = subprocess.run([tool, path], capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write("bench: %s failed: %s" % (tool, r.stderr))
            return None
        w = r.stdout.split()
        ms = (float(w[2]), None if w[3] == "-" else float(w[3]))
        best = ms if best is None else (min(best[0], ms[0]),
                                        None if ms[1] is None else min(best[1], ms[1]))
    return best


def parse_cpu(path):
    """--timings' `cpu:` line: {before, emit_user, emit_sys} in ms (before: user + system of
    the stages before emit, every thread's), or {} from a binary that does not print it."""
    with open(path) as f:
        for line in f:
            m = re.match(r"cpu: before emit user ([0-9.]+) ms, system ([0-9.]+) ms; emit user "
                         r"([0-9.]+) ms, system ([0-9.]+) ms", line)
            if m:
                v = [float(x) for x in m.groups()]
                return {"cpu_before": v[0] + v[1], "emit_user": v[2], "emit_sys": v[3]}
    return {}


def floor_of(row, before_emit, bar):
    """The 2-core floor of a build (docs/performance.md, "The floor, per case"): the stages
    before emit (one core, nothing to write yet), then the same bytes as cp writes them (its
    CPU: the kernel's copy into the page cache, the files' creation) and hashed for
    manifest.json, shared by both cores; making the text is not counted. Sets row["floor"]
    (nettle's SHA-256) and row["floor_lc"] (libcrypto's), and row["bar"]: `bar` x the copy."""
    row["bar"] = bar * row["copy"] if row.get("copy") else None
    row["bar_x"] = bar
    if row.get("sha") is None or not row.get("copy_cpus"):
        return
    copy = min(row["copy_cpus"])
    row["floor"] = before_emit + (copy + row["sha"][0]) / 2
    if row["sha"][1] is not None:
        row["floor_lc"] = before_emit + (copy + row["sha"][1]) / 2


def floor_line(row):
    if row.get("floor") is None:
        return "  floor: not measured"
    nettle, lc = row["sha"]
    lines = ["  floor: cp -r CPU %.1f ms + SHA-256 %.1f ms (nettle, one core, the same bytes), halved "
             "on 2 cores, after %.1f ms of stages before emit = %.1f ms; build / floor %.2f" % (
                 min(row["copy_cpus"]), nettle, row.get("before_emit", 0), row["floor"],
                 row["wall"] / row["floor"])]
    if lc is not None:
        lines.append("  floor with libcrypto's SHA-256: %.1f ms (%.2fx nettle's speed) = %.1f ms; "
                     "build / floor %.2f" % (lc, nettle / lc if lc > 0 else 0, row["floor_lc"],
                                             row["wall"] / row["floor_lc"]))
    if row.get("emit_user") is not None:
        lines.append("  CPU (min of the builds): before emit %.1f ms; emit %.1f ms = generation %.1f "
                     "(user less nettle's SHA-256) + SHA-256 %.1f + write %.1f (system)" % (
                         row["cpu_before"], row["emit_user"] + row["emit_sys"],
                         row["emit_user"] - nettle, nettle, row["emit_sys"]))
    if row.get("cpu_before") is not None:
        # The same on CPU times alone, which a loaded machine inflates far less than wall
        # times: the stages before emit as their CPU, the copy's wall as its CPU (cp -r on one
        # core into tmpfs waits for nothing).
        copy = min(row["copy_cpus"])
        f = [row["cpu_before"] + (copy + h) / 2 for h in (nettle, lc) if h is not None]
        bar = row["bar_x"] * copy
        lines.append("  floor on CPU times: %.1f + (%.1f + %.1f) / 2 = %.1f ms%s; bar %.1fx the copy's "
                     "CPU = %.1f ms: %s" % (
                         row["cpu_before"], copy, nettle, f[0],
                         "" if len(f) < 2 else " (libcrypto %.1f ms)" % f[1], row["bar_x"], bar,
                         ", ".join("%s the floor with %s" % ("above" if bar >= x else "below", n)
                                   for x, n in zip(f, ("nettle", "libcrypto")))))
        # cp reads every byte as well as writing it: the build's own writing is its system time
        # in emit. And the build's whole emit CPU, halved, is where it stands with its text.
        own = row["cpu_before"] + (row["emit_sys"] + nettle) / 2
        whole = row["cpu_before"] + (row["emit_user"] + row["emit_sys"]) / 2
        lines.append("  with the build's own write (emit's system time) for cp's CPU: %.1f ms, bar %s "
                     "it; with all of emit's CPU halved: %.1f ms, bar %s it" % (
                         own, "above" if bar >= own else "below", whole,
                         "above" if bar >= whole else "below"))
    if row.get("bar"):
        def side(f):
            return "above" if row["bar"] >= f else "below"
        lines.append("  bar %.1fx copy = %.1f ms: %s the floor with nettle%s" % (
            row["bar_x"], row["bar"], side(row["floor"]),
            "" if lc is None else ", %s it with libcrypto" % side(row["floor_lc"])))
    return "\n".join(lines)


def timed_copy(src, dest):
    """`cp -r SRC DEST` timed as a build is: without a flush to the disk (a build's own time
    includes none). The dirty pages before it and the copy's own after it are flushed untimed,
    so neither pays for the other's. Returns (wall ms, CPU ms). Until the sixteenth session the
    copy's time included a `sync`, which on a slow disk made the copy the slower side
    (docs/performance.md, "Emitter, seventeenth pass")."""
    os.sync()
    t0 = time.perf_counter()
    rc, _, cpu = timed(["cp", "-r", src, dest])
    wall = (time.perf_counter() - t0) * 1e3
    if rc != 0:
        raise subprocess.CalledProcessError(rc, "cp")
    os.sync()
    return wall, cpu


def tree_size(path):
    nbytes = nfiles = 0
    for root, _, files in os.walk(path):
        for name in files:
            nbytes += os.lstat(os.path.join(root, name)).st_size
            nfiles += 1
    return nbytes, nfiles


def rmtree(path):
    if os.path.lexists(path):
        shutil.rmtree(path)


def bench_size(clusterc, out, gpus, repeat):
    nodes, text = spec_text(gpus)
    spec = os.path.join(out, "bench-%d.cluster" % gpus)
    with open(spec, "w") as f:
        f.write(text)
    row = {"gpus": gpus, "nodes": nodes, "status": "ok", "load": os.getloadavg()[0]}
    best = {}
    dirs = []
    for r in range(repeat):
        # A new directory each time: replacing an old output would time its removal too.
        dest = os.path.join(out, "build-%d-%d" % (gpus, r))
        rmtree(dest)
        dirs.append(dest)
        log = os.path.join(out, "timings-%d.txt" % gpus)
        os.sync()
        with open(log, "w") as err:
            rc, wall, cpu = timed([clusterc, "build", "-q", "--timings", spec, "-o", dest] +
                                  EMIT, stderr=err)
        row.setdefault("walls", []).append(wall)
        row.setdefault("cpus", []).append(cpu)
        if rc != 0:
            with open(log) as f:
                first = next((l.strip() for l in f if "error" in l), "exit %d" % rc)
            row["status"] = "failed (exit %d): %s" % (rc, first)
            sys.stderr.write("bench: %d GPUs: %s (see %s)\n" % (gpus, row["status"], log))
            return row, dirs
        ms, rss = parse_timings(log)
        cpu_split = parse_cpu(log)
        cols = {name: sum(ms.pop(s, 0.0) for s in stages) for name, stages in COLUMNS}
        cols["other"] = sum(ms.values())
        for s in ms:
            sys.stderr.write("bench: stage '%s' is in no column; counted as other\n" % s)
        cols["total"] = sum(cols[name] for name, _ in COLUMNS) + cols["other"]
        cols["before_emit"] = cols["total"] - cols["emit"]
        cols["wall"] = wall
        cols["peak_rss_mib"] = rss
        cols.update(cpu_split)
        for k, v in cols.items():
            best[k] = min(best.get(k, v), v)
    row.update(best)
    first = dirs[0]
    row["bytes"], row["files"] = tree_size(first)
    with open(os.path.join(first, "report.json")) as f:
        report = json.load(f)
    row["links"] = sum(fab.get("links", 0) for fab in report.get("fabrics", []))
    row["switches"] = report["totals"].get("switches", 0)
    row["plans_evaluated"] = sum(w.get("plans_evaluated", 0) for w in report.get("workloads", []))
    row["plans_per_s"] = row["plans_evaluated"] / (row["plan"] / 1e3) if row["plan"] > 0 else 0
    # The I/O reference: copying the same bytes (timed_copy).
    for r in range(repeat):
        copy = os.path.join(out, "copy-%d-%d" % (gpus, r))
        rmtree(copy)
        dirs.append(copy)
        c, ccpu = timed_copy(first, copy)
        row["copy"] = min(row.get("copy", c), c)
        row.setdefault("copies", []).append(c)
        row.setdefault("copy_cpus", []).append(ccpu)
    row["ratio"] = row["wall"] / row["copy"] if row["copy"] > 0 else 0
    row["sha"] = sha256_ms(out, first)
    floor_of(row, row["before_emit"], 1.3)
    return row, dirs


CSV = ["gpus", "nodes", "links", "switches"] + [n + "_ms" for n, _ in COLUMNS] + [
    "other_ms", "total_ms", "wall_ms", "peak_rss_mib", "bytes", "files", "copy_ms", "ratio",
    "plans_evaluated", "plans_per_s", "status"]


def csv_value(row, col):
    key = col[:-3] if col.endswith("_ms") else col
    v = row.get(key, 0)
    if isinstance(v, float):
        return "%.3f" % v
    if isinstance(v, str):
        return '"%s"' % v.replace('"', "'")
    return str(v)


def print_size(row):
    print("== %s GPUs: %s nodes, %s links, %s switches ==" % (
        format(row["gpus"], ","), format(row["nodes"], ","), format(row.get("links", 0), ","),
        format(row.get("switches", 0), ",")))
    if row["status"] != "ok":
        print("  " + row["status"])
        return
    for name, stages in COLUMNS:
        print("  %-12s %10.1f ms   (%s)" % (name.replace("_", " & "), row[name], ", ".join(stages)))
    if row["other"]:
        print("  %-12s %10.1f ms" % ("other", row["other"]))
    print("  %-12s %10.1f ms   wall %.1f ms" % ("total", row["total"], row["wall"]))
    print("  peak RSS %.1f MiB; %.1f MB in %s files; copy (cp -r) %.1f ms; build / copy %.2f"
          % (row["peak_rss_mib"], row["bytes"] / 1e6, format(row["files"], ","), row["copy"],
             row["ratio"]))
    print("  min / median ms: build wall %s, CPU %s; copy wall %s, CPU %s; load %.1f at the start" % (
        spread(row["walls"]), spread(row["cpus"]), spread(row["copies"]), spread(row["copy_cpus"]),
        row["load"]))
    print(floor_line(row))
    print("  planner: %s plans in %.1f ms = %.2f M plans/s" % (
        format(row["plans_evaluated"], ","), row["plan"], row["plans_per_s"] / 1e6))


def print_summary(rows):
    head = "%9s %9s" % ("GPUs", "links") + "".join(
        " %10s" % n.replace("place_cable", "place+cab") for n, _ in COLUMNS) + \
        " %9s %8s %9s %6s %9s %6s" % ("wall ms", "RSS MiB", "MB", "files", "copy ms", "ratio")
    print(head)
    for r in rows:
        if r["status"] != "ok":
            print("%9d %s" % (r["gpus"], r["status"]))
            continue
        print("%9d %9d" % (r["gpus"], r["links"]) + "".join(" %10.1f" % r[n] for n, _ in COLUMNS) +
              " %9.1f %8.1f %9.1f %6d %9.1f %6.2f" % (r["wall"], r["peak_rss_mib"], r["bytes"] / 1e6,
                                                     r["files"], r["copy"], r["ratio"]))


def svg(rows):
    """Wall time (ms), copy time (ms) and peak memory (MiB) against GPUs, log-log."""
    ok = [r for r in rows if r["status"] == "ok" and r["wall"] > 0]
    W, H, L, R, T, B = 680, 420, 70, 160, 40, 60
    xs = [r["gpus"] for r in ok] or [1000]
    ys = [v for r in ok for v in (r["wall"], r["copy"], r["peak_rss_mib"]) if v > 0] or [1]
    x0, x1 = math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs)))
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)

    def px(v):
        return L + (math.log10(v) - x0) / (x1 - x0) * (W - L - R)

    def py(v):
        return H - B - (math.log10(v) - y0) / (y1 - y0) * (H - T - B)

    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="12">' % (W, H),
         '<rect width="%d" height="%d" fill="white"/>' % (W, H),
         '<text x="%d" y="22" text-anchor="middle" font-size="14">clusterc build against '
         'cluster size (log-log)</text>' % ((W - R + L) // 2)]
    for e in range(x0, x1 + 1):
        x = px(10 ** e)
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (x, T, x, H - B))
        o.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (
            x, H - B + 16, format(10 ** e, ",")))
    for e in range(y0, y1 + 1):
        y = py(10 ** e)
        o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, y, W - R, y))
        o.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (
            L - 6, y + 4, format(10 ** e, ",") if e >= 0 else "%g" % 10 ** e))
    o.append('<text x="%d" y="%d" text-anchor="middle">GPUs</text>' % ((W - R + L) // 2, H - 20))
    o.append('<text x="18" y="%d" text-anchor="middle" transform="rotate(-90 18 %d)">'
             'ms, MiB</text>' % ((H - B + T) // 2, (H - B + T) // 2))
    series = [("wall", "build wall time (ms)", "#1f5fbf", ""),
              ("copy", "cp -r of its output (ms)", "#777", ' stroke-dasharray="5 4"'),
              ("peak_rss_mib", "build peak memory (MiB)", "#c0392b", "")]
    for i, (key, label, colour, dash) in enumerate(series):
        pts = [(px(r["gpus"]), py(r[key])) for r in ok if r[key] > 0]
        if len(pts) > 1:
            o.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>' % (
                colour, dash, " ".join("%.1f,%.1f" % p for p in pts)))
        for p in pts:
            o.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (p[0], p[1], colour))
        ly = T + 10 + 20 * i
        o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>' % (
            W - R + 10, ly, W - R + 30, ly, colour, dash))
        o.append('<text x="%d" y="%d" font-size="10">%s</text>' % (W - R + 34, ly + 4, label))
    o.append("</svg>")
    return "\n".join(o) + "\n"


def bench_choices(clusterc, out, repeat, name="choices-8"):
    """An optimizer's case: bench/NAME.cluster built for report.json alone, `repeat` times: the
    decide stage's and the whole build's wall time and the build's CPU (user + system of the
    child), minimum and median, decide's split (--timings' `decide:` lines) of the run with the
    least decide, the size of the MILP, its status and gap. Then once more, untimed, with
    model.lp too, and the emitted model solved by glpsol and by cbc where they are installed:
    their objectives against clusterc's (issue 23's cross-check)."""
    spec = os.path.join(HERE, name + ".cluster")
    env = dict(os.environ, CLUSTERC_STDLIB=os.path.join(HERE, "..", "stdlib"))
    best, runs = None, []
    for k in range(repeat):
        d = os.path.join(out, "%s-%d" % (name, k))
        rmtree(d)
        r0 = os.times()
        p = subprocess.run([clusterc, "build", spec, "-o", d, "--emit=report.json", "--timings"],
                           capture_output=True, text=True, env=env)
        r1 = os.times()
        if p.returncode != 0:
            return {"status": "exit %d" % p.returncode}
        stages = {}
        split = []
        for line in p.stdout.splitlines() + p.stderr.splitlines():
            if line.startswith("decide: "):
                split.append(line[len("decide: "):])
            f = line.split()
            if len(f) >= 2 and f[0] in ("decide", "total"):
                try:
                    stages[f[0]] = float(f[1])
                except ValueError:
                    pass
        with open(os.path.join(d, "report.json")) as fh:
            opt = json.load(fh).get("optimizer") or {}
        rmtree(d)
        run = {"status": "ok", "decide": stages.get("decide", 0), "total": stages.get("total", 0),
               "cpu": ((r1.children_user - r0.children_user) +
                       (r1.children_system - r0.children_system)) * 1e3,
               "variables": opt.get("variables", 0), "constraints": opt.get("constraints", 0),
               "solve": opt.get("status", "?"), "gap": opt.get("gap"), "split": split}
        runs.append(run)
        if best is None or run["decide"] < best["decide"]:
            best = run
    best = dict(best, decides=[r["decide"] for r in runs], totals=[r["total"] for r in runs],
                cpus=[r["cpu"] for r in runs], check=cross_check(clusterc, out, name, spec, env))
    return best


def cross_check(clusterc, out, name, spec, env):
    """bench/NAME.cluster's model.lp solved by glpsol and cbc: a line per solver, its objective
    and time against clusterc's objective (report.json's optimizer.objective)."""
    d = os.path.join(out, "%s-lp" % name)
    rmtree(d)
    if subprocess.call([clusterc, "build", spec, "-o", d, "--emit=report.json,model.lp"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env) != 0:
        return ["model.lp: the build failed"]
    with open(os.path.join(d, "report.json")) as fh:
        ours = (json.load(fh).get("optimizer") or {}).get("objective")
    lp = os.path.join(d, "model.lp")
    lines = []
    for tool in ("glpsol", "cbc"):
        if not shutil.which(tool):
            lines.append("%s: not installed" % tool)
            continue
        sol = os.path.join(d, "glpsol.sol")
        argv = [tool, "--lp", lp, "-w", sol] if tool == "glpsol" else [tool, lp, "solve"]
        t0 = time.perf_counter()
        p = subprocess.run(argv, capture_output=True, text=True)
        ms = (time.perf_counter() - t0) * 1e3
        obj, status = None, "?"
        if tool == "glpsol" and p.returncode == 0 and os.path.exists(sol):
            # glp_write_mip's line: s mip ROWS COLS STATUS OBJ (o: optimal), full precision
            for line in open(sol):
                f = line.split()
                if len(f) == 6 and f[:2] == ["s", "mip"]:
                    status = {"o": "optimal", "f": "feasible"}.get(f[4], f[4])
                    obj = float(f[5])
        elif tool == "cbc":
            m = re.search(r"Objective value:\s+(\S+)", p.stdout)
            obj = float(m.group(1)) if m else None
            status = "optimal" if "Optimal solution found" in p.stdout else "not optimal"
            n = re.search(r"Enumerated nodes:\s+(\d+)", p.stdout)
            status += ", %s nodes" % n.group(1) if n else ""
        if obj is None or ours is None:
            lines.append("%s: no objective (exit %d)" % (tool, p.returncode))
        else:
            same = abs(obj - ours) <= 1e-9 * max(1.0, abs(ours))
            lines.append("%s %.0f ms: %s, objective %.2f, %s clusterc's %.2f" % (
                tool, ms, status, obj, "equal to" if same else "DIFFERS FROM", ours))
    rmtree(d)
    return lines


def bench_shape(clusterc, out, name, repeat, emit=None):
    """A many-switch shape (bench/NAME.cluster) built with the default artifacts (or `emit`, an
    --emit list), against the copy of its output (timed_copy), each the minimum of `repeat`,
    every run into a new directory."""
    spec = os.path.join(HERE, name + ".cluster")
    env = dict(os.environ, CLUSTERC_STDLIB=os.path.join(HERE, "..", "stdlib"))
    row, dirs = {"status": "ok", "load": os.getloadavg()[0]}, []
    for r in range(repeat):
        dest = os.path.join(out, "%s-%d" % (name, r))
        rmtree(dest)
        dirs.append(dest)
        os.sync()
        log = os.path.join(out, "timings-%s.txt" % name)
        with open(log, "w") as err:
            rc, wall, cpu = timed([clusterc, "build", "-q", "--timings", spec, "-o", dest] +
                                  (["--emit", emit] if emit else []), env=env, stderr=err)
        if rc != 0:
            return {"status": "exit %d" % rc}, dirs
        ms, _ = parse_timings(log)
        before = sum(v for k, v in ms.items() if k != "emit")
        row["before_emit"] = min(row.get("before_emit", before), before)
        for k, v in parse_cpu(log).items():
            row[k] = min(row.get(k, v), v)
        row["wall"] = min(row.get("wall", wall), wall)
        row.setdefault("walls", []).append(wall)
        row.setdefault("cpus", []).append(cpu)
    row["bytes"], row["files"] = tree_size(dirs[0])
    for r in range(repeat):
        copy = os.path.join(out, "%s-copy-%d" % (name, r))
        rmtree(copy)
        dirs.append(copy)
        c, ccpu = timed_copy(dirs[0], copy)
        row["copy"] = min(row.get("copy", c), c)
        row.setdefault("copies", []).append(c)
        row.setdefault("copy_cpus", []).append(ccpu)
    row["ratio"] = row["wall"] / row["copy"] if row["copy"] > 0 else 0
    row["sha"] = sha256_ms(out, dirs[0])
    floor_of(row, row["before_emit"], 1.5)
    return row, dirs


def bench_sweep(clusterc, out, repeat, points=200, jobs=2):
    """`clusterc compare --sweep` of examples/wanka.cluster over a grid of `points` points
    (electricity x power budget: the same racks, fabric and workload at every point) on `jobs`
    processes: points per second, the best of `repeat` and the median run (by wall time), and
    the CPU time (user + system of clusterc and its workers) of each, which a loaded machine
    inflates less than the wall time; and the peak resident memory of the largest process (its
    getrusage ru_maxrss, what /usr/bin/time -v says), the most of any run."""
    spec = os.path.join(HERE, "..", "examples", "wanka.cluster")
    grid = os.path.join(out, "sweep-%d.yaml" % points)
    with open(grid, "w") as f:
        f.write("grid:\n  hall_b.electricity: [%s]\n  hall_b.power_budget: [%s]\n" % (
            ", ".join("%.2f CNY/kWh" % (0.30 + 0.03 * i) for i in range(points // 10)),
            ", ".join("%d MW" % (16 + i) for i in range(10))))
    env = dict(os.environ, CLUSTERC_STDLIB=os.path.join(HERE, "..", "stdlib"))
    best, runs, rss = None, [], 0
    for r in range(repeat):
        d = os.path.join(out, "sweep-%d" % r)
        rmtree(d)
        t0 = time.perf_counter()
        p = subprocess.Popen([clusterc, "compare", spec, "--sweep", grid, "--jobs", str(jobs),
                              "-o", d], env=env, stdout=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)  # the rusage of clusterc and its workers
        p.returncode = os.waitstatus_to_exitcode(status)
        s = time.perf_counter() - t0
        rmtree(d)
        if p.returncode != 0:
            return {"status": "exit %d" % p.returncode}
        runs.append((s, ru.ru_utime + ru.ru_stime))
        rss = max(rss, ru.ru_maxrss)
        if best is None or s < best[0]:
            best = runs[-1]
    med = sorted(runs)[len(runs) // 2]  # the median run by wall time (of an odd count)
    return {"status": "ok", "points": points + 1, "s": best[0], "per_s": (points + 1) / best[0],
            "cpu_s": best[1], "runs": len(runs), "median_s": med[0],
            "median_per_s": (points + 1) / med[0], "median_cpu_s": med[1], "rss_kib": rss}


def bench_sweep_ab(new, base, out, rounds, points=200, jobs=2):
    """bench_sweep of two binaries alternated run by run, `rounds` runs each (the base first in
    odd rounds, the new one in even ones), each run's 1-minute load at its start kept: on a
    shared machine a before/after of the sweep says something only as such pairs
    (docs/performance.md, issue 23). Returns {name: [(points/s, CPU s, load, peak RSS KiB), ...]}."""
    got = {"base": [], "new": []}
    for r in range(rounds):
        order = (("base", base), ("new", new)) if r % 2 == 0 else (("new", new), ("base", base))
        for name, binary in order:
            load = os.getloadavg()[0]
            sw = bench_sweep(binary, out, 1, points, jobs)
            if sw["status"] != "ok":
                return {"status": "%s: %s" % (name, sw["status"])}
            got[name].append((sw["per_s"], sw["cpu_s"], load, sw["rss_kib"]))
    got["status"] = "ok"
    return got


def print_sweep_ab(ab, points):
    if ab["status"] != "ok":
        print("sweep A/B: %s" % ab["status"])
        return
    for name in ("base", "new"):
        runs = ab[name]
        rate = sorted(x[0] for x in runs)
        cpu = sorted(x[1] for x in runs)
        load = [x[2] for x in runs]
        print("sweep A/B %s: %d runs, points/s min %.1f median %.1f best %.1f; CPU min %.2f "
              "median %.2f s (%.1f / %.1f ms a point); peak RSS at most %.0f MiB; load %.1f-%.1f" % (
                  name, len(runs), rate[0], median(rate), rate[-1], cpu[0],
                  median(cpu), 1e3 * cpu[0] / (points + 1), 1e3 * median(cpu) / (points + 1),
                  max(x[3] for x in runs) / 1024, min(load), max(load)))
        print("  runs (points/s, CPU s, load, peak RSS MiB): %s" % "; ".join(
            "%.1f, %.2f, %.1f, %.0f" % (x[0], x[1], x[2], x[3] / 1024) for x in runs))


def slurm_conf(**fill):
    """scripts/slurm-loopback.conf.in with its @NAMES@ filled in (tests/compare_slurm.sh uses it
    too)."""
    with open(os.path.join(HERE, "..", "scripts", "slurm-loopback.conf.in")) as f:
        text = f.read()
    for k, v in fill.items():
        text = text.replace("@%s@" % k.upper(), str(v))
    return text



def bench_sweep_slurm(clusterc, out, points=200):
    """The same sweep as bench_sweep through `compare --slurm --submit` on a slurmctld and a
    slurmd started on loopback (as tests/compare_slurm.sh starts them): submission to the
    merge's end, points per second; the merge's files equal a local run's."""
    import getpass, shutil, socket
    if not all(shutil.which(t) for t in ("slurmctld", "slurmd", "sbatch", "scontrol", "sinfo")):
        return {"status": "skipped (slurmctld, slurmd or slurm-client not installed)"}
    d = os.path.join(out, "slurm")
    rmtree(d)
    for sub in ("state", "spool"):
        os.makedirs(os.path.join(d, sub))
    port = 20000 + (os.getpid() * 7) % 20000
    conf = os.path.join(d, "slurm.conf")
    with open(conf, "w") as f:
        f.write(slurm_conf(port=port, port1=port + 1, user=getpass.getuser(), dir=d,
                           host=socket.gethostname(), cpus=os.cpu_count() or 1))
    env = dict(os.environ, SLURM_CONF=conf, CLUSTERC_STDLIB=os.path.join(HERE, "..", "stdlib"))
    log = open(os.path.join(d, "daemons.out"), "w")
    daemons = [subprocess.Popen(["slurmctld", "-D", "-c", "-f", conf], env=env, stdout=log, stderr=log),
               subprocess.Popen(["slurmd", "-D", "-N", "node0", "-f", conf], env=env, stdout=log, stderr=log)]
    try:
        for _ in range(80):
            r = subprocess.run(["sinfo", "-h", "-o", "%T"], env=env, capture_output=True, text=True)
            if "idle" in r.stdout:
                break
            time.sleep(0.25)
        else:
            return {"status": "skipped (the daemons did not come up: %s)" % os.path.join(d, "daemons.out")}
        grid = os.path.join(out, "sweep-%d.yaml" % points)
        spec = os.path.join(HERE, "..", "examples", "wanka.cluster")
        local, merged = os.path.join(d, "local"), os.path.join(d, "merged")
        subprocess.call([clusterc, "compare", "-q", spec, "--sweep", grid, "-o", local], env=env,
                        stderr=subprocess.DEVNULL)
        t0 = time.perf_counter()
        r = subprocess.run([clusterc, "compare", spec, "--sweep", grid, "--slurm", os.path.join(d, "jobs"),
                            "-o", merged, "--submit"], env=env, capture_output=True, text=True)
        m = re.search(r"merge job (\d+)", r.stdout)
        if r.returncode != 0 or not m:
            return {"status": "submit failed: %s" % (r.stdout + r.stderr).strip()}
        state = ""
        while True:
            q = subprocess.run(["scontrol", "show", "job", m.group(1)], env=env, capture_output=True, text=True)
            st = re.search(r"JobState=(\w+)", q.stdout)
            state = st.group(1) if st else state
            if state in ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY"):
                break
            time.sleep(0.2)
        s = time.perf_counter() - t0
        if state != "COMPLETED":
            return {"status": "the merge job ended %s" % state}
        same = all(open(os.path.join(local, f), "rb").read() == open(os.path.join(merged, f), "rb").read()
                   for f in ("comparison.csv", "comparison.json", "comparison.md", "report.html"))
        return {"status": "ok", "points": points + 1, "s": s, "per_s": (points + 1) / s, "same": same}
    finally:
        for p in daemons:
            p.terminate()
            p.wait()
        log.close()
        rmtree(d)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        sys.stderr.write("usage: bench/run.sh CLUSTERC [GPUS ...]  (BENCH_OUT, BENCH_REPEAT, "
                         "BENCH_KEEP)\n")
        return 2
    clusterc = os.path.abspath(argv[1])
    sizes = [int(s) for s in argv[2:]] or [1000, 10000, 100000, 1000000]
    out = os.path.abspath(os.environ.get("BENCH_OUT") or os.path.join(HERE, "out"))
    repeat = max(1, int(os.environ.get("BENCH_REPEAT", "3")))
    if os.environ.get("BENCH_SWEEP_BASE"):
        # Only the sweep, CLUSTERC against BENCH_SWEEP_BASE alternated, BENCH_REPEAT runs each.
        os.makedirs(out, exist_ok=True)
        npoints = max(10, int(os.environ.get("BENCH_SWEEP", "200")))
        ab = bench_sweep_ab(clusterc, os.path.abspath(os.environ["BENCH_SWEEP_BASE"]), out,
                            repeat, npoints)
        print_sweep_ab(ab, npoints)
        return 0 if ab["status"] == "ok" else 1
    keep = os.environ.get("BENCH_KEEP", "") not in ("", "0")
    settle = float(os.environ.get("BENCH_SETTLE", "30"))
    os.makedirs(out, exist_ok=True)
    rows = []
    for i, gpus in enumerate(sizes):
        row, dirs = bench_size(clusterc, out, gpus, repeat)
        rows.append(row)
        print_size(row)
        sys.stdout.flush()
        if not keep:
            for d in dirs:
                rmtree(d)
            if i + 1 < len(sizes) and settle > 0:
                os.sync()
                time.sleep(settle)
    with open(os.path.join(out, "bench.csv"), "w") as f:
        f.write(",".join(CSV) + "\n")
        for r in rows:
            f.write(",".join(csv_value(r, c) for c in CSV) + "\n")
    with open(os.path.join(out, "bench.svg"), "w") as f:
        f.write(svg(rows))
    print()
    print_summary(rows)
    cases = [("choices-8", "8 open choices, 7,680 combinations"),
             ("choices-20", "20 open choices, 2.09e12 combinations, 100,000 GPUs")]
    if os.environ.get("BENCH_CHOICES", "1") in ("", "0"):
        cases = []
    for name, what in cases:
        ch = bench_choices(clusterc, out, repeat, name)
        if ch["status"] == "ok":
            print("optimizer: bench/%s.cluster (%s; MILP %s x %s, %s, gap %s): decide %.1f ms, "
                  "build %.1f ms" % (name, what, format(ch["variables"], ","), ch["constraints"],
                                     ch["solve"], ch["gap"], ch["decide"], ch["total"]))
            print("  min / median ms of %d: decide %s, build wall %s, CPU %s; load %.1f at the "
                  "end" % (len(ch["decides"]), spread(ch["decides"]), spread(ch["totals"]),
                           spread(ch["cpus"]), os.getloadavg()[0]))
            for line in ch["split"]:
                print("  decide: " + line)
            for line in ch["check"]:
                print("  model.lp: " + line)
        else:
            print("optimizer: bench/%s.cluster failed (%s)" % (name, ch["status"]))
    if os.environ.get("BENCH_SHAPES", "1") not in ("", "0"):
        for name, what in (("fattree-k64", "k=64 3-tier fat tree (65,536 GPUs, 5,120 switches)"),
                           ("dragonfly-262k", "dragonfly p=16 a=32 h=16 (262,656 GPUs, 16,416 routers)")):
            # The default artifacts (the per-switch files on demand beyond 1,024 switches),
            # then those files alone (--emit switches).
            for emit in (None, "switches"):
                row, dirs = bench_shape(clusterc, out, name, repeat, emit)
                label = "" if emit is None else ", --emit " + emit
                if row["status"] == "ok":
                    print("shape: bench/%s.cluster%s, %s: build %.1f ms, %.1f MB in %s files, "
                          "copy (cp -r) %.1f ms, build / copy %.2f" % (
                              name, label, what, row["wall"], row["bytes"] / 1e6,
                              format(row["files"], ","), row["copy"], row["ratio"]))
                    print("  min / median ms: build wall %s, CPU %s; copy wall %s, CPU %s; load %.1f "
                          "at the start" % (spread(row["walls"]), spread(row["cpus"]),
                                            spread(row["copies"]), spread(row["copy_cpus"]),
                                            row["load"]))
                    print(floor_line(row))
                else:
                    print("shape: bench/%s.cluster%s failed (%s)" % (name, label, row["status"]))
                sys.stdout.flush()
                if not keep:
                    for d in dirs:
                        rmtree(d)
                os.sync()
                time.sleep(settle)
    npoints = int(os.environ.get("BENCH_SWEEP", "200"))
    sw = bench_sweep(clusterc, out, repeat, max(10, npoints)) if npoints > 0 else {"status": "skipped"}
    if sw["status"] == "ok":
        print("sweep: compare --sweep of examples/wanka.cluster, %d points on 2 jobs: median of %d "
              "%.2f s, %.1f points/s, CPU %.2f s; best %.2f s, %.1f points/s (CPU %.2f s, %.1f ms a "
              "point); peak RSS %.0f MiB" % (sw["points"], sw["runs"], sw["median_s"], sw["median_per_s"],
                          sw["median_cpu_s"], sw["s"], sw["per_s"], sw["cpu_s"],
                          1e3 * sw["cpu_s"] / sw["points"], sw["rss_kib"] / 1024))
    else:
        print("sweep: compare --sweep %s" % sw["status"])
    sl = bench_sweep_slurm(clusterc, out, max(10, npoints)) if npoints > 0 else {"status": "skipped"}
    if sl["status"] == "ok":
        print("sweep: compare --slurm --submit, the same %d points on a loopback slurmd of %d CPUs: "
              "%.2f s from submission to the merge's end, %.1f points/s; files %s a local run's" % (
                  sl["points"], os.cpu_count() or 1, sl["s"], sl["per_s"],
                  "equal" if sl["same"] else "DIFFER FROM"))
    else:
        print("sweep: compare --slurm %s" % sl["status"])
    print("bench: %s and %s" % (os.path.join(out, "bench.csv"), os.path.join(out, "bench.svg")))
    return 0 if all(r["status"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
