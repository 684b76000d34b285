/*
 * emit.c — the artifacts `clusterc build` can write, in the order it writes them: one entry
 * per --emit name, each a writer of one signature (backends.h). report.json stays last: it
 * lists every file written before it. To add a backend, add its entry here (and its file to
 * CMakeLists.txt).
 */
#include "backends.h"

const Emitter emit_table[] = {
	{"bom.csv", "bill of materials", bom_csv_write},
	{"cabling.csv", "one row per cable: ids, labels, both ends, media, lengths", cabling_csv_write},
	{"pull-sheets", "pull-sheets.csv and .md: what to pull, from where to where, in which order, "
			"per row and per rack", pull_sheets_write},
	{"wiring.csv", "each cable's ends as ibnetdiscover or LLDP names them: the plan clusterc verify "
		       "checks", wiring_csv_write},
	{"clusterc.lock", "every fabric's shape, rack, device and cable by name and port: what "
			  "`build --from` grows from", lock_write},
	{"expansion", "a build grown with --from: the change plan in expansion/ (cables to add, move "
		      "and remove, devices to install, in pull order)", expansion_write},
	{"labels.csv", "cable tags for a label printer: id, both ends, length", labels_csv_write},
	{"trunks.csv", "structured cabling: trunks between patch panels, when a fabric has them",
	 trunks_csv_write},
	{"netbox", "NetBox bulk-import CSVs in netbox/", netbox_write},
	{"one-line", "the power one-line diagram: facility/one-line.svg", one_line_write},
	{"racks.csv", "rack elevations as a table: every device, its U and power", racks_csv_write},
	{"racks.svg", "rack elevations drawn", racks_svg_write},
	{"hostfile", "MPI hostfile: one node a line with its accelerators as slots", hostfile_write},
	{"slurm", "Slurm topology/tree, topology/block and topology.yaml in slurm/", slurm_write},
	{"k8s", "Kubernetes node topology labels and a Kueue Topology in k8s/", k8s_write},
	{"infiniband", "InfiniBand fabrics: ibnetdiscover/ibsim topology, node-name map, OpenSM "
		       "fat-tree settings in infiniband/", infiniband_write},
	{"parallelism", "each workload's plan, Megatron-LM flags, rankfile, hostfile and Calculon "
			"inputs in parallelism/", parallelism_write},
	{"report.md", "the report for people", report_md_write},
	{"report.html", "the report for people as one page with charts (no script, no network)",
	 report_html_write},
	{"topology.dot", "the fabric graph", topology_dot_write},
	{"topology.svg", "the fabric drawing, when small enough", topology_svg_write},
	{"switches", ("SONiC config_db.json and FRR frr.conf of every Ethernet switch (beyond 1,024 "
		      "switches only when named)"), switch_configs_write},
	{"model.lp", "the optimizer's model in CPLEX LP format, when choices were open", model_lp_write},
	{"report.json", "the machine-readable report (written last)", report_json_write},
	{NULL, NULL, NULL},
};
