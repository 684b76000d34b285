/*
 * emit.c — the artifacts `clusterc build` can write, in the order it writes them: one entry
 * per --emit name. report.json stays last: it lists every file written before it. To add a
 * backend, add its entry here (and its file to CMakeLists.txt).
 */
#include "backends.h"

static int emit_report_json(Output *o, const Design *d, const OptimizerReport *opt)
{
	return report_json_write(o, d, opt);
}

static int emit_report_md(Output *o, const Design *d, const OptimizerReport *opt)
{
	return report_md_write(o, d, opt);
}

static int emit_report_html(Output *o, const Design *d, const OptimizerReport *opt)
{
	return report_html_write(o, d, opt);
}

static int emit_bom(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return bom_csv_write(o, d);
}

static int emit_model_lp(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return model_lp_write(o, d);
}

static int emit_dot(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return topology_write(o, d, true, false);
}

static int emit_switches(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return switch_configs_write(o, d);
}

static int emit_svg(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return topology_write(o, d, false, true);
}

static int emit_cabling(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return cabling_csv_write(o, d);
}

static int emit_netbox(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return netbox_write(o, d);
}

static int emit_racks_csv(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return racks_csv_write(o, d);
}

static int emit_racks_svg(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return racks_svg_write(o, d);
}

static int emit_hostfile(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return hostfile_write(o, d);
}

static int emit_slurm(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return slurm_write(o, d);
}

static int emit_k8s(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return k8s_write(o, d);
}

static int emit_parallelism(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return parallelism_write(o, d);
}

static int emit_infiniband(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return infiniband_write(o, d);
}

const Emitter emit_table[] = {
	{"bom.csv", "bill of materials", emit_bom, NULL},
	{"cabling.csv", "one row per cable: ids, labels, both ends, media, lengths", emit_cabling, NULL},
	{"netbox", "NetBox bulk-import CSVs in netbox/", emit_netbox, NULL},
	{"racks.csv", "rack elevations as a table: every device, its U and power", emit_racks_csv, NULL},
	{"racks.svg", "rack elevations drawn", emit_racks_svg, NULL},
	{"hostfile", "MPI hostfile: one node a line with its accelerators as slots", emit_hostfile, NULL},
	{"slurm", "Slurm topology/tree, topology/block and topology.yaml in slurm/", emit_slurm, NULL},
	{"k8s", "Kubernetes node topology labels and a Kueue Topology in k8s/", emit_k8s, NULL},
	{"infiniband", "InfiniBand fabrics: ibnetdiscover/ibsim topology, node-name map, OpenSM "
		       "fat-tree settings in infiniband/", emit_infiniband, NULL},
	{"parallelism", "each workload's plan, Megatron-LM flags, rankfile, hostfile and Calculon "
			"inputs in parallelism/", emit_parallelism, NULL},
	{"report.md", "the report for people", emit_report_md, NULL},
	{"report.html", "the report for people as one page with charts (no script, no network)",
	 emit_report_html, NULL},
	{"topology.dot", "the fabric graph", emit_dot, NULL},
	{"topology.svg", "the fabric drawing, when small enough", emit_svg, NULL},
	{"switches", "SONiC config_db.json and FRR frr.conf of every Ethernet switch", emit_switches,
	 NULL},
	{"model.lp", "the optimizer's model in CPLEX LP format, when choices were open", emit_model_lp,
	 NULL},
	{"report.json", "the machine-readable report (written last)", emit_report_json, NULL},
	{NULL, NULL, NULL, NULL},
};
