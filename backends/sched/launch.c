/*
 * launch.c — the files that start a workload's plan on its nodes, as the plan placed it
 * (plan.c: the nodes, and per local rank its GPU, socket and cores):
 *   WORKLOAD.hostfile   the nodes used, "HOST slots=N" (mpirun --hostfile);
 *   WORKLOAD.rankfile   Open MPI rankfile, "rank R=HOST slot=S:LO-HI": rank R on the physical
 *                       cores LO..HI of socket S of its node (Open MPI, mpirun(1), "Rankfiles":
 *                       a bare `slot=K` is core K, not GPU K); the GPU is given by the wrapper
 *                       below, which the rankfile cannot do;
 *   WORKLOAD.launch.sh  the per-rank wrapper every launcher runs (srun, mpirun, torchrun
 *                       --no-python): it reads the launcher's rank variables, exports
 *                       CUDA_VISIBLE_DEVICES = the rank's one GPU with LOCAL_RANK = 0 (so
 *                       Megatron-LM's torch.cuda.set_device(LOCAL_RANK) picks it), RANK,
 *                       WORLD_SIZE, MASTER_ADDR/PORT, pins the process to its GPU's socket
 *                       (numactl, unless mpirun's rankfile already bound it), then runs the
 *                       command it was given;
 *   WORKLOAD.sbatch     a Slurm batch script: the nodes, one task per GPU, exclusive, then srun
 *                       of the wrapper on pretrain_gpt.py with WORKLOAD.megatron.args (extra
 *                       arguments to sbatch's script, such as data and tokenizer flags, are
 *                       passed on).
 * Rendering only: every number is the IR's.
 */
#include "backends.h"

#include <stdlib.h>
#include <string.h>

static const char *host(const Design *d, const WorkloadPlan *wp, int i)
{
	return d->nodes[wp->hosts[i]].hostname;
}

/* A buffer flushed to f once past 1 MiB (a 100,000-GPU rankfile is 4 MB). */
static void flush_big(Buf *b, FILE *f, bool force)
{
	if (b->len && (force || b->len > (1u << 20))) {
		fwrite(b->s, 1, b->len, f);
		b->len = 0;
	}
}

static int write_hostfile(Output *o, const Design *d, const WorkloadPlan *wp, const char *path)
{
	int n = wp->ranks_per_node, gpus = wp->r.best.gpus;
	FILE *f = output_file(o, path);
	if (!f)
		return 1;
	for (int i = 0; i < wp->nodes; i++)
		fprintf(f, "%s slots=%d\n", host(d, wp, i), gpus - i * n < n ? gpus - i * n : n);
	return output_close(o, f);
}

static int write_rankfile(Output *o, const Design *d, const WorkloadPlan *wp, const char *path)
{
	int n = wp->ranks_per_node, gpus = wp->r.best.gpus;
	FILE *f = output_file(o, path);
	if (!f)
		return 1;
	Buf b = {0};
	for (int r = 0; r < gpus; r++) {
		const PlanBind *k = &wp->bind[r % n];
		/* "rank R=HOST slot=S:LO[-HI]", put piece by piece (a line a GPU: printf was most
		 * of this file's cost, docs/performance.md "Emitter, seventh pass") */
		buf_put(&b, "rank ", 5);
		layout_int(&b, r);
		buf_putc(&b, '=');
		buf_puts(&b, host(d, wp, r / n));
		buf_put(&b, " slot=", 6);
		layout_int(&b, k->socket);
		buf_putc(&b, ':');
		layout_int(&b, k->core_lo);
		if (k->core_hi > k->core_lo) {
			buf_putc(&b, '-');
			layout_int(&b, k->core_hi);
		}
		buf_putc(&b, '\n');
		flush_big(&b, f, false);
	}
	flush_big(&b, f, true);
	buf_free(&b);
	return output_close(o, f);
}

static int write_wrapper(Output *o, const WorkloadPlan *wp, const char *path)
{
	const PlanConfig *c = &wp->r.best;
	const char *w = wp->name;
	FILE *f = output_file(o, path);
	if (!f)
		return 1;
	/* Under DualPipe there is no Megatron-LM command to show (parallelism.c, launch_notes). */
	Buf srun = {0};
	if (c->dualpipe)
		buf_printf(&srun, "#   srun ... sh %s.launch.sh DUALPIPE_TRAINER ...  (DualPipe: Megatron-LM "
				  "cannot run it, so no\n#   megatron.args nor sbatch; %s.json's launch_notes)\n",
			   w, w);
	else
		buf_printf(&srun, "#   srun ... sh %s.launch.sh python pretrain_gpt.py $(cat %s.megatron.args)"
				  "  (%s.sbatch)\n", w, w, w);
	fprintf(f,
		"#!/bin/sh\n"
		"# %s.launch.sh: one process of workload '%s' (TP %d PP %d DP %d CP %d EP %d on %d GPUs,\n"
		"# %d per node), written by clusterc from parallelism/%s.json.\n"
		"# Run by every launcher, one process per GPU, before the training command:\n"
		"%s"
		"#   mpirun --hostfile %s.hostfile --rankfile %s.rankfile sh %s.launch.sh python ...\n"
		"#   torchrun --nnodes %d --nproc-per-node %d --no-python sh %s.launch.sh python ...\n"
		"# Each rank sees only its GPU (CUDA_VISIBLE_DEVICES, LOCAL_RANK=0 for Megatron-LM's\n"
		"# torch.cuda.set_device) and runs on that GPU's socket.\n"
		"set -eu\n"
		"local_rank=${SLURM_LOCALID:-${OMPI_COMM_WORLD_LOCAL_RANK:-${LOCAL_RANK:-}}}\n"
		"rank=${SLURM_PROCID:-${OMPI_COMM_WORLD_RANK:-${RANK:-}}}\n"
		"world=${SLURM_NTASKS:-${OMPI_COMM_WORLD_SIZE:-${WORLD_SIZE:-}}}\n"
		"if [ -z \"$local_rank\" ] || [ -z \"$rank\" ] || [ -z \"$world\" ]; then\n"
		"\techo \"%s.launch.sh: no rank from a launcher (SLURM_LOCALID, OMPI_COMM_WORLD_LOCAL_RANK or "
		"LOCAL_RANK)\" >&2\n"
		"\texit 64\n"
		"fi\n"
		"if [ \"$world\" -ne %d ]; then\n"
		"\techo \"%s.launch.sh: the plan has %d ranks, the launcher started $world\" >&2\n"
		"\texit 64\n"
		"fi\n"
		"case $local_rank in\n",
		w, w, c->tp, c->pp, c->dp, c->cp, c->ep, c->gpus, wp->ranks_per_node, w,
		srun.s, w, w, w,
		wp->nodes, wp->ranks_per_node, w, w, c->gpus, w, c->gpus);
	buf_free(&srun);
	for (int k = 0; k < wp->ranks_per_node; k++) {
		const PlanBind *b = &wp->bind[k];
		fprintf(f, "%d) gpu=%d socket=%d ;;\n", k, b->gpu, b->socket);
	}
	fprintf(f,
		"*) echo \"%s.launch.sh: local rank $local_rank, but a node runs %d\" >&2; exit 64 ;;\n"
		"esac\n"
		"export CUDA_VISIBLE_DEVICES=$gpu LOCAL_RANK=0 RANK=$rank WORLD_SIZE=$world\n"
		"export MASTER_ADDR=${MASTER_ADDR:-%s} MASTER_PORT=${MASTER_PORT:-6000}\n",
		w, wp->ranks_per_node, wp->first_host);
	/* Megatron-FSDP (ZeRO-2 here) asserts the opposite: validate_args in
	 * megatron/training/arguments.py, "FSDP always requires CUDA_DEVICE_MAX_CONNECTIONS value
	 * large than one", and warns with TP or CP. */
	if ((c->tp > 1 || c->sp) && !c->zero2)
		fprintf(f, "# Megatron-LM requires one CUDA connection with tensor or sequence parallelism\n"
			   "export CUDA_DEVICE_MAX_CONNECTIONS=1\n");
	if (wp->hw.sharp)
		fprintf(f, "# the fabric's switches reduce in the network (SHARP): NCCL's CollNet, which\n"
			   "# needs the SHARP plugin (nccl-rdma-sharp-plugins) on the nodes\n"
			   "export NCCL_COLLNET_ENABLE=${NCCL_COLLNET_ENABLE:-1}\n");
	fprintf(f, "if [ -z \"${OMPI_COMM_WORLD_RANK:-}\" ] && command -v numactl >/dev/null 2>&1; then\n"
		   "\texec numactl --cpunodebind=\"$socket\" --membind=\"$socket\" \"$@\"\n"
		   "fi\n"
		   "exec \"$@\"\n");
	return output_close(o, f);
}

static int write_sbatch(Output *o, const Design *d, const WorkloadPlan *wp, const char *path)
{
	const PlanConfig *c = &wp->r.best;
	const char *w = wp->name;
	FILE *f = output_file(o, path);
	if (!f)
		return 1;
	const char **names = xmalloc(sizeof(char *) * (size_t)(wp->nodes > 0 ? wp->nodes : 1));
	for (int i = 0; i < wp->nodes; i++)
		names[i] = host(d, wp, i);
	Buf list = {0};
	hostlist_ranged(&list, names, wp->nodes);
	free(names);
	fprintf(f,
		"#!/bin/bash\n"
		"# %s.sbatch: workload '%s' as planned by clusterc (parallelism/%s.json): TP %d PP %d DP %d\n"
		"# CP %d EP %d, micro-batch %d, on %d GPUs of %d nodes. From the output directory:\n"
		"#   sbatch parallelism/%s.sbatch --data-path ... --tokenizer-type ...   (passed on)\n"
		"# MEGATRON names pretrain_gpt.py (default: ./pretrain_gpt.py).\n"
		"#SBATCH --job-name=%s\n"
		"#SBATCH --nodes=%d\n"
		"#SBATCH --ntasks=%d\n",
		w, w, w, c->tp, c->pp, c->dp, c->cp, c->ep, c->micro, c->gpus, wp->nodes, w, w, wp->nodes,
		c->gpus);
	if (c->gpus % wp->ranks_per_node == 0)
		fprintf(f, "#SBATCH --ntasks-per-node=%d\n", wp->ranks_per_node);
	fprintf(f,
		"#SBATCH --gpus-per-node=%d\n"
		"#SBATCH --nodelist=%s\n"
		"#SBATCH --exclusive\n"
		"set -euo pipefail\n"
		"set -f  # the arguments hold patterns such as --moe-layer-freq ([0]*3+[1]*58)\n"
		"cd \"${SLURM_SUBMIT_DIR:-.}\"\n"
		"export MASTER_ADDR=${MASTER_ADDR:-%s} MASTER_PORT=${MASTER_PORT:-6000}\n"
		"srun --kill-on-bad-exit=1 --distribution=block:block --cpu-bind=none \\\n"
		"\tsh parallelism/%s.launch.sh python \"${MEGATRON:-pretrain_gpt.py}\" \\\n"
		"\t$(cat parallelism/%s.megatron.args) \"$@\"\n",
		wp->hw.per_node, list.s ? list.s : "", wp->first_host, w, w);
	buf_free(&list);
	return output_close(o, f);
}

int launch_write(Output *o, const Design *d, const WorkloadPlan *wp)
{
	static const char *const ext[] = {"hostfile", "rankfile", "launch.sh", "sbatch"};
	int errors = 0;
	Buf p = {0};
	/* The sbatch script runs Megatron-LM on its arguments, which a DualPipe plan has not
	 * (parallelism.c, launch_notes). */
	for (int i = 0; i < (wp->r.best.dualpipe ? 3 : 4); i++) {
		p.len = 0;
		buf_printf(&p, "parallelism/%s.%s", wp->name, ext[i]);
		errors += i == 0   ? write_hostfile(o, d, wp, p.s)
			  : i == 1 ? write_rankfile(o, d, wp, p.s)
			  : i == 2 ? write_wrapper(o, wp, p.s)
				   : write_sbatch(o, d, wp, p.s);
	}
	buf_free(&p);
	return errors;
}
