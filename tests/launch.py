#!/usr/bin/env python3
"""tests/launch.py CLUSTERC SOURCE_DIR — the files that start a plan, checked as their readers
read them, on every example and spec of tests/megatron/ that has a workload:

  * WORKLOAD.megatron.args: every line a flag of Megatron-LM's parser (tests/megatron/
    arguments.txt, taken from megatron/training/arguments.py) with a value of its kind and
    choices; the checks of Megatron-LM's validate_args that the plan can break (world size
    divisible by TP x PP x CP, global batch by micro-batch x DP, layers per virtual stage,
    --num-query-groups only with --group-query-attention, seq <= max positions, the
    --moe-layer-freq pattern one entry a layer); and every architecture flag the declared model
    needs (the model as parallelism/WORKLOAD.json gives it): RMSNorm, rope, SwiGLU, untied
    embeddings, no bias, GQA groups, dropout, experts, QK norms (and MLA's latent norms);
  * WORKLOAD.rankfile: Open MPI's syntax `rank R=HOST slot=SOCKET:CORES`, ranks 0..N-1 in order
    on the hostfile's hosts, sockets and cores inside the node's, no core given to two ranks of
    one node (a bare `slot=K` is core K: the bug this replaces);
  * WORKLOAD.launch.sh: parses (sh -n), and run as local rank k of each launcher (Slurm, Open
    MPI, torchrun) exports CUDA_VISIBLE_DEVICES = the rank's GPU, LOCAL_RANK=0, RANK,
    WORLD_SIZE; refuses a wrong world size;
  * WORKLOAD.sbatch: parses (bash -n); nodes, tasks and the node list agree with the plan;
  * of a spec in tests/megatron, WORKLOAD.megatron.args equals its golden there
    (SPEC.WORKLOAD.megatron.args; UPDATE_GOLDEN=1 rewrites them);
  * a DualPipe plan (pipeline_schedule = dualpipe) has no megatron.args nor sbatch, which
    Megatron-LM cannot run, and says so (launch_notes); its rankfile and wrapper as any;
  * tests/megatron/rejected: arguments clusterc once wrote that Megatron-LM rejects (the
    thirteenth session's DeepSeek-V3 example: --overlap-moe-expert-parallel-comm at PP 16
    without virtual stages) fail the checks with the rule named beside each.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

clusterc, root = sys.argv[1], sys.argv[2]
failures = []
offloads = []  # the args files with --cpu-offloading-num-layers


quiet = False  # rejected_args: the failures it expects are not printed


def fail(msg):
    failures.append(msg)
    if not quiet:
        print("FAIL:", msg)


def load_flags():
    flags = {}
    for line in open(os.path.join(root, "tests/megatron/arguments.txt")):
        line = line.split("#", 1)[0].split()
        if line:
            flags[line[0]] = (line[1], line[2:])
    return flags


FLAGS = load_flags()
PATTERN = re.compile(r"[^,\d\[\]\(\)\+\*]")


LAYOUT = re.compile(r"^[EtL|()*\d,m]+$")


def expand_layout(text):
    """Megatron's --pipeline-model-parallel-layout expanded: a list of stages, each a string of
    E, t, m and L (PipelineParallelLayerLayout: X*N repeats X, (...)*N a group)."""
    if not LAYOUT.match(text):
        raise ValueError(text)
    s = text.replace(",", "")
    group = re.compile(r"\(([^()]*)\)\*(\d+)")
    while "(" in s:
        s2 = group.sub(lambda mo: mo[1] * int(mo[2]), s)
        if s2 == s:
            raise ValueError(text)
        s = s2
    s = re.sub(r"([EtmL])\*(\d+)", lambda mo: mo[1] * int(mo[2]), s)
    return s.split("|")


def parse_args(path):
    """The args file as Megatron's argparse would see it: {flag: value or True}."""
    args = {}
    for n, line in enumerate(open(path), 1):
        words = line.split()
        if not words:
            fail(f"{path}:{n}: an empty line")
            continue
        flag = words[0]
        if flag not in FLAGS:
            fail(f"{path}:{n}: {flag} is not a Megatron-LM flag (tests/megatron/arguments.txt)")
            continue
        if flag in args:
            fail(f"{path}:{n}: {flag} given twice")
        kind, choices = FLAGS[flag]
        if kind == "flag":
            if len(words) != 1:
                fail(f"{path}:{n}: {flag} takes no value")
            args[flag] = True
            continue
        if kind == "choices":
            if len(words) < 2:
                fail(f"{path}:{n}: {flag} lists no value")
            for w in words[1:]:
                if w not in choices:
                    fail(f"{path}:{n}: {flag} {w}: not one of {choices}")
            if len(set(words[1:])) != len(words) - 1:
                fail(f"{path}:{n}: {flag} lists a value twice")
            args[flag] = words[1:]
            continue
        if len(words) != 2:
            fail(f"{path}:{n}: {flag} takes one value, has {len(words) - 1}")
            continue
        value = words[1]
        try:
            if kind == "int":
                value = int(value)
            elif kind == "float":
                value = float(value)
            elif kind == "choice" and value not in choices:
                fail(f"{path}:{n}: {flag} {value}: not one of {choices}")
            elif kind == "layout":
                value = expand_layout(value)
            elif kind == "pattern":
                if PATTERN.search(value):
                    fail(f"{path}:{n}: {flag} {value}: Megatron's _eval_pattern refuses it")
                else:
                    value = eval(value)  # digits, brackets, + and * only (checked above)
        except ValueError:
            fail(f"{path}:{n}: {flag} {value}: not a {kind}")
        args[flag] = value
    return args


def check_args(path, plan):
    a = parse_args(path)
    m, p = plan["model"], plan["plan"]
    tp, pp, cp = (a.get(f"--{k}-parallel-size", 1) for k in
                  ("tensor-model", "pipeline-model", "context"))
    world = p["gpus"]
    if world % (tp * pp * cp):
        fail(f"{path}: world size {world} not divisible by TP x PP x CP = {tp * pp * cp}")
        return
    dp = world // (tp * pp * cp)
    if a.get("--global-batch-size", 0) % (a.get("--micro-batch-size", 1) * dp):
        fail(f"{path}: global batch not divisible by micro-batch x DP {dp}")
    L = a.get("--num-layers", 0)
    first = a.get("--decoder-first-pipeline-num-layers")
    last = a.get("--decoder-last-pipeline-num-layers")
    layout = a.get("--pipeline-model-parallel-layout")
    if layout is not None:
        if first is not None or "--num-layers-per-virtual-pipeline-stage" in a:
            fail(f"{path}: a layout with the first/last or virtual-stage flags")
        if len(layout) % pp or len(layout) < pp:
            fail(f"{path}: {len(layout)} layout stages, not a multiple of PP {pp}")
        # A stage without layers only as the embedding alone first or the loss alone last
        # (Llama 3's layout; Megatron-LM's own DeepSeek-V3 layout ends in "|L").
        if "".join(layout).count("t") != L or not layout[0].startswith("E") or \
                not layout[-1].endswith("L") or \
                any(st.count("t") == 0 and not (i == 0 and st == "E") and
                    not (i == len(layout) - 1 and st == "L") for i, st in enumerate(layout)):
            fail(f"{path}: layout {layout} does not place {L} layers, E first and L last")
        if len(layout) > pp:
            v = len(layout) // pp
            mb = a.get("--global-batch-size", 0) // (a.get("--micro-batch-size", 1) * dp)
            if mb % pp:
                fail(f"{path}: interleaving over {v} chunks with {mb} micro-batches, not a multiple of PP")
    elif first is None and last is None:
        if L % pp:
            fail(f"{path}: {L} layers do not split over PP {pp}")
    elif first is None or last is None or pp < 2 or \
            (pp > 2 and (L - first - last) % (pp - 2)) or (pp == 2 and first + last != L) or \
            "--num-layers-per-virtual-pipeline-stage" in a:
        fail(f"{path}: first {first} and last {last} stage layers do not split {L} over PP {pp}")
    if "--num-layers-per-virtual-pipeline-stage" in a:
        v = a["--num-layers-per-virtual-pipeline-stage"]
        if pp < 2 or (a["--num-layers"] // pp) % v:
            fail(f"{path}: --num-layers-per-virtual-pipeline-stage {v} with PP {pp}")
    if "--num-query-groups" in a and "--group-query-attention" not in a:
        fail(f"{path}: --num-query-groups without --group-query-attention")
    if a.get("--seq-length", 0) > a.get("--max-position-embeddings", 0):
        fail(f"{path}: --seq-length above --max-position-embeddings")
    if "--sequence-parallel" in a and tp == 1:
        fail(f"{path}: --sequence-parallel with TP 1")
    # validate_args: Megatron-FSDP only with its checkpoint format; and its sharding strategies
    # (optim_grads: ZeRO-2), which Megatron-LM reads only under it.
    if "--use-megatron-fsdp" in a and a.get("--ckpt-format") != "fsdp_dtensor":
        fail(f"{path}: --use-megatron-fsdp without --ckpt-format fsdp_dtensor")
    if a.get("--data-parallel-sharding-strategy", "no_shard") != "no_shard" and \
            "--use-megatron-fsdp" not in a:
        fail(f"{path}: --data-parallel-sharding-strategy without --use-megatron-fsdp")
    # Megatron-Core's TransformerConfig (__post_init__): CPU offloading of 0 to num_layers - 1
    # layers, without a pipeline and without recomputation.
    if "--cpu-offloading-num-layers" in a:
        k = a["--cpu-offloading-num-layers"]
        if not 0 < k < L or pp != 1 or "--recompute-granularity" in a:
            fail(f"{path}: --cpu-offloading-num-layers {k} with {L} layers, PP {pp}"
                 + (", recomputation" if "--recompute-granularity" in a else ""))
        offloads.append(path)
    # TransformerConfig.__post_init__ (transformer_config.py at 002526d): the modules under
    # selective granularity only; mla_up_proj with MLA; moe_act with grouped GEMMs; moe_act and
    # layernorm under FP8 not with delayed scaling (Megatron-LM's default recipe).
    mods = a.get("--recompute-modules", [])
    if mods and a.get("--recompute-granularity") != "selective":
        fail(f"{path}: --recompute-modules without --recompute-granularity selective")
    if "mla_up_proj" in mods and "--multi-latent-attention" not in a:
        fail(f"{path}: --recompute-modules mla_up_proj without --multi-latent-attention")
    if "moe_act" in mods and "--moe-grouped-gemm" not in a:
        fail(f"{path}: --recompute-modules moe_act without --moe-grouped-gemm")
    if ({"moe_act", "layernorm"} & set(mods)) and "--fp8-format" in a and \
            a.get("--fp8-recipe", "delayed") == "delayed":
        fail(f"{path}: --recompute-modules moe_act or layernorm under FP8 delayed scaling")
    # TransformerConfig.__post_init__ (transformer_config.py at d2c5e8b): full granularity with
    # a method and a count (it checks no range; clusterc's own bound: at most the largest
    # virtual stage); selective with neither. Uniform's groups tile every virtual stage, whose
    # layers the block's loop indexes unclamped (transformer_block.py at 767a8a8,
    # _checkpointed_forward): the stages as the flags lay them out.
    if layout is not None:
        blocks = [st.count("t") for st in layout]
    elif first is not None and last is not None and pp > 2:
        blocks = [first, last] + [(L - first - last) // (pp - 2)] * (pp - 2)
    elif first is not None and last is not None:
        blocks = [first, last]
    else:
        blocks = [a.get("--num-layers-per-virtual-pipeline-stage", L // pp)]
    gran, nrc = a.get("--recompute-granularity"), a.get("--recompute-num-layers")
    if gran == "full" and (nrc is None or "--recompute-method" not in a or
                           not 1 <= nrc <= max(blocks)):
        fail(f"{path}: full recomputation of {nrc} layers, method {a.get('--recompute-method')}, "
             f"virtual stages of {sorted(set(blocks))} layers")
    if gran == "full" and a.get("--recompute-method") == "uniform" and nrc and \
            any(b % nrc for b in blocks):
        fail(f"{path}: uniform groups of {nrc} layers in virtual stages of {sorted(set(blocks))}")
    if gran == "selective" and (nrc is not None or "--recompute-method" in a):
        fail(f"{path}: --recompute-num-layers or --recompute-method with selective recomputation")
    # TransformerConfig.__post_init__ (transformer_config.py at 002526d) with
    # overlap_moe_expert_parallel_comm, every rule an arguments file can break: virtual stages
    # with a pipeline ("virtual_pipeline_model_parallel_size must be specified when
    # pipeline_model_parallel_size > 1": --num-layers-per-virtual-pipeline-stage or a layout of
    # more stages than PP); expert parallelism ("only supported with expert model
    # parallelism"); the alltoall or flex dispatcher; no recompute_method nor
    # recompute_num_layers, full recomputation's included; "disable moe in recompute_modules";
    # bf16 or fp16; no --moe-shared-expert-overlap; at most one MTP layer; no CUDA graph of the
    # MoE or MLP. And delay_wgrad_compute only with it.
    if "--overlap-moe-expert-parallel-comm" in a:
        ep = a.get("--expert-model-parallel-size", 1)
        virtual = "--num-layers-per-virtual-pipeline-stage" in a or \
            "--num-virtual-stages-per-pipeline-rank" in a or \
            (layout is not None and len(layout) > pp)
        if pp > 1 and not virtual:
            fail(f"{path}: --overlap-moe-expert-parallel-comm with PP {pp} and no virtual "
                 "pipeline stages")
        if ep <= 1:
            fail(f"{path}: --overlap-moe-expert-parallel-comm with EP {ep}")
        if a.get("--moe-token-dispatcher-type", "allgather") not in ("alltoall", "flex"):
            fail(f"{path}: --overlap-moe-expert-parallel-comm with the "
                 f"{a.get('--moe-token-dispatcher-type', 'allgather')} dispatcher")
        if "moe" in mods:
            fail(f"{path}: --overlap-moe-expert-parallel-comm with --recompute-modules moe")
        for flag in ("--recompute-method", "--recompute-num-layers"):
            if flag in a:
                fail(f"{path}: --overlap-moe-expert-parallel-comm with {flag}")
        if "--bf16" not in a and "--fp16" not in a:
            fail(f"{path}: --overlap-moe-expert-parallel-comm without --bf16 or --fp16")
        if "--moe-shared-expert-overlap" in a:
            fail(f"{path}: --overlap-moe-expert-parallel-comm with --moe-shared-expert-overlap")
        if a.get("--mtp-num-layers", 1) > 1:
            fail(f"{path}: --overlap-moe-expert-parallel-comm with --mtp-num-layers "
                 f"{a['--mtp-num-layers']}")
        if a.get("--cuda-graph-impl", "none") != "none" or "--enable-cuda-graph" in a:
            fail(f"{path}: --overlap-moe-expert-parallel-comm with CUDA graphs")
    elif "--delay-wgrad-compute" in a:
        fail(f"{path}: --delay-wgrad-compute without --overlap-moe-expert-parallel-comm")
    # What the declared model needs.
    need = {"--num-layers": m["layers"], "--hidden-size": m["hidden"],
            "--num-attention-heads": m["heads"], "--seq-length": m["seq"],
            "--normalization": "RMSNorm" if m["norm"] == "rmsnorm" else "LayerNorm",
            "--position-embedding-type": "rope" if m["position"] == "rope" else "learned_absolute",
            "--attention-dropout": m["dropout"], "--hidden-dropout": m["dropout"]}
    if m["experts"] > 1:
        need.update({"--num-experts": m["experts"], "--moe-router-topk": m["top_k"],
                     "--moe-ffn-hidden-size": m["expert_ffn"]})
        if m["dense_layers"] > 0:
            need["--moe-layer-freq"] = [0] * m["dense_layers"] + [1] * (m["layers"] - m["dense_layers"])
    else:
        need["--ffn-hidden-size"] = m["ffn"]
    if m["query_groups"] != m["heads"]:
        need.update({"--group-query-attention": True, "--num-query-groups": m["query_groups"]})
    if m["activation"] == "swiglu":
        need["--swiglu"] = True
    if not m["tied_embeddings"]:
        need["--untie-embeddings-and-output-weights"] = True
    if not m["bias"]:
        need["--disable-bias-linear"] = True
    if m["position"] == "rope":
        need["--rotary-base"] = m["rope_base"]
    # Standard attention's QK norms, or MLA's latent norms (gpt_layer_specs.py: qk_layernorm
    # makes MLA's up-projections LayerNorm linears; DeepSeek-V3 has them).
    if m.get("qk_norm") or m.get("mla"):
        need["--qk-layernorm"] = True
    if m["head_dim"] * m["heads"] != m["hidden"]:
        need["--kv-channels"] = m["head_dim"]
    mla = m.get("mla")
    if mla:
        need.update({"--multi-latent-attention": True, "--kv-lora-rank": mla["kv_lora_rank"],
                     "--qk-head-dim": m["head_dim"], "--qk-pos-emb-head-dim": mla["rope_head_dim"],
                     "--v-head-dim": mla["v_head_dim"]})
        if mla["q_lora_rank"] > 0:
            need["--q-lora-rank"] = mla["q_lora_rank"]
    # Multi-token prediction (the model's mtp_layers; its mtp_loss_weight where declared).
    if m.get("mtp_layers"):
        need["--mtp-num-layers"] = m["mtp_layers"]
        if "mtp_loss_weight" in m:
            need["--mtp-loss-scaling-factor"] = m["mtp_loss_weight"]
    for flag in ("--mtp-num-layers", "--mtp-loss-scaling-factor"):
        if flag in a and flag not in need:
            fail(f"{path}: {flag}, which the model does not declare")
    for flag, value in need.items():
        if a.get(flag) != value:
            fail(f"{path}: the model needs {flag} {value}, the file has {a.get(flag)}")
    for flag in ("--swiglu", "--untie-embeddings-and-output-weights", "--disable-bias-linear",
                 "--group-query-attention", "--multi-latent-attention", "--qk-layernorm"):
        if flag in a and flag not in need:
            fail(f"{path}: {flag}, which the model does not declare")


RANK = re.compile(r"^rank (\d+)=(\S+) slot=(\d+):(\d+)(?:-(\d+))?$")


def check_rankfile(path, hostfile, plan):
    hosts = []
    for line in open(hostfile):
        h, slots = line.split()
        hosts += [h] * int(slots.split("=")[1])
    bind = plan["placement"]["binding"]
    sockets = 1 + max(b["socket"] for b in bind)
    taken = {}
    lines = open(path).read().splitlines()
    if len(lines) != plan["plan"]["gpus"]:
        fail(f"{path}: {len(lines)} ranks, the plan has {plan['plan']['gpus']}")
    for n, line in enumerate(lines):
        mo = RANK.match(line)
        if not mo:
            fail(f"{path}:{n + 1}: not Open MPI's `rank R=HOST slot=SOCKET:CORES`: {line}")
            return
        r, host, socket, lo = int(mo[1]), mo[2], int(mo[3]), int(mo[4])
        hi = int(mo[5]) if mo[5] else lo
        if r != n or n >= len(hosts) or host != hosts[n]:
            fail(f"{path}:{n + 1}: rank {r} on {host}, the hostfile puts rank {n} elsewhere")
        if socket >= sockets or hi < lo:
            fail(f"{path}:{n + 1}: socket {socket} cores {lo}-{hi}")
        for core in range(lo, hi + 1):
            key = (host, socket, core)
            if key in taken:
                fail(f"{path}:{n + 1}: core {socket}:{core} of {host} already given to rank {taken[key]}")
                return
            taken[key] = r


def run_wrapper(path, env, expect_rc=0):
    full = {"PATH": "/usr/bin:/bin"}
    full.update(env)
    out = subprocess.run(["sh", path, "env"], env=full, capture_output=True, text=True)
    if out.returncode != expect_rc:
        fail(f"{path} with {env}: exit {out.returncode}, expected {expect_rc}: {out.stderr.strip()}")
        return {}
    return dict(l.split("=", 1) for l in out.stdout.splitlines() if "=" in l)


def check_wrapper(path, plan):
    if subprocess.run(["sh", "-n", path]).returncode:
        fail(f"{path}: sh -n")
        return
    world = str(plan["plan"]["gpus"])
    bind = plan["placement"]["binding"]
    k = len(bind) - 1
    launchers = [{"SLURM_LOCALID": str(k), "SLURM_PROCID": str(k), "SLURM_NTASKS": world},
                 {"OMPI_COMM_WORLD_LOCAL_RANK": str(k), "OMPI_COMM_WORLD_RANK": str(k),
                  "OMPI_COMM_WORLD_SIZE": world},
                 {"LOCAL_RANK": str(k), "RANK": str(k), "WORLD_SIZE": world}]
    for env in launchers:
        got = run_wrapper(path, env)
        want = {"CUDA_VISIBLE_DEVICES": str(bind[k]["gpu"]), "LOCAL_RANK": "0", "RANK": str(k),
                "WORLD_SIZE": world}
        for key, value in want.items():
            if got and got.get(key) != value:
                fail(f"{path} as local rank {k} ({sorted(env)[0]}): {key}={got.get(key)}, want {value}")
    run_wrapper(path, {"SLURM_LOCALID": "0", "SLURM_PROCID": "0", "SLURM_NTASKS": world + "1"}, 64)
    run_wrapper(path, {}, 64)


def check_sbatch(path, plan, hostfile):
    if subprocess.run(["bash", "-n", path]).returncode:
        fail(f"{path}: bash -n")
    text = open(path).read()
    opts = dict(re.findall(r"^#SBATCH --([a-z-]+)=(\S+)$", text, re.M))
    nodes = len(open(hostfile).read().splitlines())
    if opts.get("nodes") != str(nodes) or opts.get("ntasks") != str(plan["plan"]["gpus"]):
        fail(f"{path}: --nodes {opts.get('nodes')} --ntasks {opts.get('ntasks')}, the plan "
             f"{nodes} nodes, {plan['plan']['gpus']} GPUs")
    if "nodelist" not in opts or "exclusive" not in text:
        fail(f"{path}: no --nodelist or --exclusive")
    if "launch.sh" not in text or "megatron.args" not in text:
        fail(f"{path}: does not run the wrapper on the Megatron-LM arguments")


def check_dualpipe(base, plan):
    """A DualPipe plan (pipeline_schedule = dualpipe): Megatron-LM has no such schedule, so
    neither the arguments nor the sbatch script that runs Megatron-LM on them is written, and
    the plan says why (launch_notes)."""
    for ext in (".megatron.args", ".sbatch"):
        if os.path.exists(base + ext):
            fail(f"{base}{ext}: written for a DualPipe plan, which Megatron-LM cannot run")
    if not any("DualPipe" in n for n in plan.get("launch_notes", [])):
        fail(f"{base}.json: a DualPipe plan without its launch_notes")


def rejected_args():
    """tests/megatron/rejected/NAME.megatron.args: arguments clusterc once wrote that
    Megatron-LM rejects, each beside NAME.json (the model and GPU count it was written for) and
    NAME.rule (one line: the failure check_args must report for it). Returns how many."""
    global failures, quiet
    here = os.path.join(root, "tests/megatron/rejected")
    n = 0
    for path in sorted(glob.glob(os.path.join(here, "*.megatron.args"))):
        base = path[:-len(".megatron.args")]
        want = open(base + ".rule").read().strip()
        saved, failures, quiet = failures, [], True
        check_args(path, json.load(open(base + ".json")))
        got, failures, quiet = failures, saved, False
        if not any(want in g for g in got):
            fail(f"{path}: accepted, where Megatron-LM rejects it ({want}); the checks said {got}")
        n += 1
    return n


def check_golden(spec, path):
    """A spec of tests/megatron: its args file equals tests/megatron/SPEC.WORKLOAD.megatron.args
    (UPDATE_GOLDEN=1 rewrites it: review the diff)."""
    here = os.path.join(os.path.abspath(root), "tests/megatron")
    if os.path.dirname(os.path.abspath(spec)) != here:
        return
    name = os.path.basename(spec)[:-len(".cluster")]
    golden = os.path.join(root, "tests/megatron", f"{name}.{os.path.basename(path)}")
    text = open(path).read()
    if os.environ.get("UPDATE_GOLDEN") == "1":
        with open(golden, "w") as f:
            f.write(text)
    elif not os.path.exists(golden) or open(golden).read() != text:
        fail(f"{path} differs from {golden}")


specs = sorted(glob.glob(os.path.join(root, "examples/*.cluster")) +
               glob.glob(os.path.join(root, "tests/megatron/*.cluster")))
checked = 0
with tempfile.TemporaryDirectory() as tmp:
    for spec in specs:
        if "workload" not in open(spec).read():
            continue
        out = os.path.join(tmp, os.path.basename(spec))
        r = subprocess.run([clusterc, "build", "-q", spec, "-o", out], capture_output=True, text=True)
        if r.returncode:
            fail(f"build {spec}: exit {r.returncode}: {r.stderr[:300]}")
            continue
        for js in sorted(glob.glob(os.path.join(out, "parallelism/*.json"))):
            base = js[:-len(".json")]
            plan = json.load(open(js))
            if plan["plan"].get("pipeline_schedule") == "dualpipe":
                check_dualpipe(base, plan)
                check_rankfile(base + ".rankfile", base + ".hostfile", plan)
                check_wrapper(base + ".launch.sh", plan)
                checked += 1
                continue
            check_args(base + ".megatron.args", plan)
            check_golden(spec, base + ".megatron.args")
            check_rankfile(base + ".rankfile", base + ".hostfile", plan)
            check_wrapper(base + ".launch.sh", plan)
            # validate_args: Megatron-FSDP asserts CUDA_DEVICE_MAX_CONNECTIONS is not 1.
            if "--use-megatron-fsdp" in open(base + ".megatron.args").read().split() and \
                    "CUDA_DEVICE_MAX_CONNECTIONS=1" in open(base + ".launch.sh").read():
                fail(f"{base}.launch.sh: CUDA_DEVICE_MAX_CONNECTIONS=1 with Megatron-FSDP")
            check_sbatch(base + ".sbatch", plan, base + ".hostfile")
            checked += 1
# The arguments Megatron-LM rejects that clusterc once wrote: the checks must refuse each.
if rejected_args() == 0:
    fail("tests/megatron/rejected: no arguments to check")
# tests/megatron/gb200-offload.cluster: the planner offloads there by itself.
if not any("gb200-offload" in p for p in offloads):
    fail("gb200-offload.cluster: no --cpu-offloading-num-layers")
print(f"launch: {checked} plans checked, {len(failures)} failures")
sys.exit(1 if failures or checked == 0 else 0)
