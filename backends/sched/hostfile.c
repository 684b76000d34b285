/*
 * hostfile.c — hostfile, the MPI host list: one line per node in node order,
 * "HOSTNAME slots=N" with N the node's accelerators (Open MPI's hostfile format, mpirun
 * --hostfile; DeepSpeed and Horovod read the same lines). The hot spares (NodeInst.spare) are
 * not listed: jobs start on the nodes in service.
 */
#include "backends.h"

int hostfile_write(Output *o, const Design *d)
{
	FILE *f = output_file(o, "hostfile");
	if (!f)
		return 1;
	Buf b = {0};
	for (int i = 0; i < d->nnodes; i++) {
		const NodeInst *n = &d->nodes[i];
		if (n->spare)
			continue;
		buf_printf(&b, "%s slots=%d\n", n->hostname, n->type->node.accelerators);
		layout_flush(o, f, &b, false);
	}
	layout_flush(o, f, &b, true);
	buf_free(&b);
	return output_close(o, f);
}
