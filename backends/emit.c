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

static int emit_bom(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return bom_csv_write(o, d);
}

static int emit_dot(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return topology_write(o, d, true, false);
}

static int emit_svg(Output *o, const Design *d, const OptimizerReport *opt)
{
	(void)opt;
	return topology_write(o, d, false, true);
}

const Emitter emitters[] = {
	{"bom.csv", "bill of materials", emit_bom},
	{"report.md", "the report for people", emit_report_md},
	{"topology.dot", "the fabric graph", emit_dot},
	{"topology.svg", "the fabric drawing, when small enough", emit_svg},
	{"report.json", "the machine-readable report (written last)", emit_report_json},
	{NULL, NULL, NULL},
};
