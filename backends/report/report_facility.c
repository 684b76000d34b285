/*
 * report_facility.c — the facility as report.json's "facility" object and the "Facility"
 * section of report.md and report.html: the PUE and its parts, the power chain's stages with
 * the kW each has installed and carries, the racks' feeds, the cooling plant of each group of
 * racks with one cooling (its units, their kW and counts), heat reuse, and the zones. Only
 * prints: every figure is the IR's (power_chain.c, cooling_plant.c, model.c); docs/reports.md
 * documents each key.
 *
 * report.md and report.html print the same tables: each is built once as rows of cells
 * (Table) and written in either form.
 */
#include "backends.h"

#include <math.h>
#include <string.h>


static Json *kw(double w)
{
	return jw_real(w / 1e3, 3);
}

static Json *money(double x)
{
	return jw_real(x, 2);
}

static Json *ratio(double x)
{
	return isfinite(x) ? jw_real(x, 4) : jw_null();
}

/* ---- the figures both forms share ---------------------------------------------------------- */

/* Facility energy less the heat reused, over IT energy (ERE, The Green Grid WP 29). */
static double ere(const Totals *t)
{
	double it = t->avg_it_power * SECONDS_PER_YEAR;
	return it > 0 ? (t->annual_energy - t->heat_reused) / it : NAN;
}

/* Racks with feeds, the most one feed is rated at and carries in its failure case. */
static void feeds_max(const Design *d, int *racks, int *per_rack, double *rating, double *failure)
{
	*racks = *per_rack = 0;
	*rating = *failure = 0;
	for (int i = 0; i < d->nracks; i++) {
		const RackInst *r = &d->racks[i];
		if (!r->feeds)
			continue;
		(*racks)++;
		*per_rack = r->feeds > *per_rack ? r->feeds : *per_rack;
		*rating = fmax(*rating, r->feed_rating);
		*failure = fmax(*failure, r->feed_failure_load);
	}
}

/* ---- report.json ----------------------------------------------------------------------------- */

static Json *pue_json(const Design *d)
{
	const Totals *t = &d->t;
	Json *o = jw_object();
	jw_set(o, "source", jw_str(d->t.pue_from_site ? "site" : "plant"));
	jw_set(o, "it_kw", kw(t->it_power));
	jw_set(o, "cooling_kw", kw(t->cooling_power));
	jw_set(o, "power_losses_kw", kw(t->facility_power - t->it_power - t->cooling_power));
	jw_set(o, "cooling_ppue", ratio(t->cooling_ppue));
	jw_set(o, "cooling_ppue_annual", ratio(t->cooling_ppue_annual));
	jw_set(o, "power_efficiency", ratio(t->power_efficiency));
	jw_set(o, "average_it_kw", kw(t->avg_it_power));
	jw_set(o, "average_cooling_kw", kw(t->cooling_avg_power));
	jw_set(o, "free_cooling_hours", jw_real(t->free_cooling_share * HOURS_PER_YEAR, 1));
	return o;
}

static Json *stage_json(const PowerStageInst *s)
{
	const Part *st = s->stage;
	Json *o = jw_object();
	jw_set(o, "name", jw_str(st->name));
	jw_set(o, "stage", jw_str(enum_POWER_STAGE.words[st->stage.stage]));
	jw_set(o, "redundancy", jw_str(enum_REDUNDANCY.words[st->stage.redundancy]));
	jw_set(o, "efficiency", ratio(st->stage.efficiency));
	jw_set(o, "used_kw", kw(s->load));
	jw_set(o, "input_kw", kw(s->input));
	jw_set(o, "loss_kw", kw(s->loss));
	jw_set(o, "installed_kw", kw(s->installed));
	jw_set(o, "units", s->units > 0 ? jw_count(s->units) : jw_null());
	jw_set(o, "unit_kw", isnan(st->stage.unit_capacity) ? jw_null() : kw(st->stage.unit_capacity));
	jw_set(o, "utilization", s->installed > 0 ? ratio(s->load / s->installed) : jw_null());
	jw_set(o, "capex", money(s->capex));
	return o;
}

static Json *chain_json(const Design *d)
{
	const Part *ps = d->power_sys;
	Json *o = jw_object();
	jw_set(o, "system", jw_str(ps ? ps->name : NULL));
	jw_set(o, "type", ps ? jw_str(enum_POWER_TYPE.words[ps->power_sys.type]) : jw_null());
	jw_set(o, "redundancy", ps ? jw_str(enum_REDUNDANCY.words[ps->power_sys.redundancy]) : jw_null());
	jw_set(o, "efficiency", ratio(d->t.power_efficiency));
	jw_set(o, "losses_kw", kw(d->t.power_losses));
	Json *a = jw_array();
	for (int k = 0; k < d->nstages; k++)
		jw_push(a, stage_json(&d->stages[k]));
	jw_set(o, "stages", a);
	int racks, per_rack;
	double rating, failure;
	feeds_max(d, &racks, &per_rack, &rating, &failure);
	Json *f = jw_object();
	jw_set(f, "racks", jw_int(racks));
	jw_set(f, "feeds_per_rack", jw_int(per_rack));
	jw_set(f, "total", jw_int((long long)racks * per_rack));
	jw_set(f, "max_rating_kw", kw(rating));
	jw_set(f, "max_failure_load_kw", kw(failure));
	jw_set(o, "feeds", f);
	return o;
}

static Json *unit_json(const CoolingUnitInst *u)
{
	const Part *p = u->unit;
	Json *o = jw_object();
	jw_set(o, "name", jw_str(p->name));
	jw_set(o, "unit", jw_str(enum_COOLING_UNIT.words[p->cunit.unit]));
	jw_set(o, "serves", jw_str(enum_HEAT_SHARE.words[p->cunit.serves]));
	jw_set(o, "redundancy", jw_str(enum_REDUNDANCY.words[p->cunit.redundancy]));
	jw_set(o, "load_kw", kw(u->load));
	jw_set(o, "count", u->units > 0 ? jw_count(u->units) : jw_null());
	jw_set(o, "unit_kw", isnan(p->cunit.capacity) ? jw_null() : kw(p->cunit.capacity));
	jw_set(o, "installed_kw", kw(u->installed));
	jw_set(o, "power_kw", kw(u->power));
	jw_set(o, "average_power_kw", kw(u->avg_power));
	jw_set(o, "capex", money(u->capex));
	return o;
}

static Json *plant_json(const Design *d)
{
	Json *a = jw_array();
	for (int i = 0; i < d->ncool_groups; i++) {
		const CoolingGroup *g = &d->cool_groups[i];
		Json *o = jw_object();
		jw_set(o, "cooling", jw_str(g->cooling->name));
		jw_set(o, "type", jw_str(enum_COOLING_TYPE.words[g->cooling->cooling.type]));
		jw_set(o, "racks", jw_int(g->racks));
		jw_set(o, "free_cooling_hours", jw_real(g->free_share * HOURS_PER_YEAR, 1));
		jw_set(o, "heat_kw", kw(g->heat));
		jw_set(o, "liquid_heat_kw", kw(g->liquid_heat));
		jw_set(o, "air_heat_kw", kw(g->heat - g->liquid_heat));
		jw_set(o, "power_kw", kw(g->power));
		jw_set(o, "average_power_kw", kw(g->avg_power));
		jw_set(o, "ppue", g->heat > 0 ? ratio(1 + g->power / g->heat) : jw_null());
		jw_set(o, "declared_pue", g->nunits ? jw_null() : ratio(g->cooling->cooling.pue));
		jw_set(o, "capex", money(g->capex));
		Json *u = jw_array();
		for (int k = 0; k < g->nunits; k++)
			jw_push(u, unit_json(&g->units[k]));
		jw_set(o, "units", u);
		jw_push(a, o);
	}
	return a;
}

static Json *reuse_json(const Design *d)
{
	const Totals *t = &d->t;
	Json *o = jw_object();
	double it_energy = t->avg_it_power * SECONDS_PER_YEAR;
	jw_set(o, "share", ratio(it_energy > 0 ? t->heat_reused / it_energy : 0));
	jw_set(o, "reused_kwh_per_year", jw_real(t->heat_reused / J_PER_KWH, 3));
	jw_set(o, "credit_per_year", money(t->heat_credit));
	jw_set(o, "gross_energy_cost", money(t->annual_energy_gross_cost));
	jw_set(o, "ere", ratio(ere(t)));
	return o;
}

/* The rack zones (docs/reports.md, facility.zones): one object each, in the cluster's order;
 * the implicit zone "main" of a cluster without zones. Its cooling's partial PUE is its plant's
 * (the groups of its racks, cooling_plant.c). */
static Json *zones_json(const Design *d)
{
	Json *a = jw_array();
	for (int i = 0; i < d->nzones; i++) {
		const ZoneInst *z = &d->zones[i];
		Json *o = jw_object();
		char row[16];
		jw_set(o, "name", jw_str(z->name));
		jw_set(o, "declared", jw_bool(z->decl != NULL));
		jw_set(o, "rack", jw_str(z->rack_type->name));
		jw_set(o, "cooling", jw_str(z->cooling_type->name));
		jw_set(o, "power_class_kw", isfinite(z->limit) ? kw(z->limit) : jw_null());
		jw_set(o, "rack_cap_kw", isfinite(z->cap) ? kw(z->cap) : jw_null());
		jw_set(o, "holds_network", jw_bool(i == d->net_zone));
		jw_set(o, "nodes", jw_int(z->nodes));
		jw_set(o, "racks", jw_int(z->racks + z->network_racks));
		jw_set(o, "network_racks", jw_int(z->network_racks));
		jw_set(o, "it_power_kw", kw(z->it_power));
		double heat = 0, power = 0;
		for (int k = 0; k < d->ncool_groups; k++)
			if (d->cool_groups[k].zone == i)
				heat += d->cool_groups[k].heat, power += d->cool_groups[k].power;
		jw_set(o, "cooling_pue", heat > 0 ? ratio(1 + power / heat) : jw_null());
		jw_set(o, "cooling_capex", money(z->cooling_capex));
		jw_set(o, "fit_out", money(z->fit_out));
		if (z->first_row >= 0)
			ir_row_name(z->first_row, row, sizeof row);
		jw_set(o, "first_row", z->first_row >= 0 ? jw_str(row) : jw_null());
		jw_set(o, "rows", jw_int(z->rows));
		jw_set(o, "floor_area_m2", jw_real(z->area, 3));
		jw_set(o, "floor_loading_kg_per_m2",
		       isfinite(z->floor_loading) ? jw_real(z->floor_loading, 3) : jw_null());
		jw_set(o, "peak_rack_kw", kw(z->peak_rack_power));
		jw_set(o, "peak_rack_kg",
		       isfinite(z->peak_rack_mass) ? jw_real(z->peak_rack_mass, 3) : jw_null());
		jw_set(o, "peak_floor_load_kg_per_m2",
		       isfinite(z->peak_floor_load) ? jw_real(z->peak_floor_load, 3) : jw_null());
		jw_push(a, o);
	}
	return a;
}

Json *report_facility_json(const Design *d)
{
	const Totals *t = &d->t;
	Json *o = jw_object();
	jw_set(o, "pue", ratio(t->pue));
	jw_set(o, "pue_annual", ratio(t->pue_annual));
	jw_set(o, "pue_parts", pue_json(d));
	jw_set(o, "power_chain", chain_json(d));
	jw_set(o, "cooling_plant", plant_json(d));
	jw_set(o, "heat_reuse", reuse_json(d));
	jw_set(o, "zones", zones_json(d));
	return o;
}

/* ---- report.md and report.html: tables of cells ---------------------------------------------- */

enum { MAX_COLS = 9 };
typedef struct Table {
	Buf cells;           /* each row's cells, NUL-separated */
	int cols, rows;
	const char *head[MAX_COLS];
	bool num[MAX_COLS];  /* right-aligned */
} Table;

static void cell(Table *t, const char *s)
{
	buf_puts(&t->cells, s ? s : "");
	buf_putc(&t->cells, '\0');
}

static void cell_num(Table *t, double x, int decimals)
{
	Buf b = {0};
	text_number(&b, x, decimals, false);
	cell(t, b.s);
	buf_free(&b);
}

static void table_write(Buf *b, Table *t, bool html)
{
	if (html) {
		buf_puts(b, "<table>\n<tr>");
		for (int c = 0; c < t->cols; c++)
			buf_printf(b, "<th%s>%s</th>", t->num[c] ? " class=\"n\"" : "", t->head[c]);
		buf_puts(b, "</tr>\n");
	} else {
		buf_puts(b, "|");
		for (int c = 0; c < t->cols; c++)
			buf_printf(b, " %s |", t->head[c]);
		buf_puts(b, "\n|");
		for (int c = 0; c < t->cols; c++)
			buf_puts(b, t->num[c] ? " ---: |" : " --- |");
		buf_puts(b, "\n");
	}
	const char *s = t->cells.s;
	for (int r = 0; r < t->rows; r++) {
		buf_puts(b, html ? "<tr>" : "|");
		for (int c = 0; c < t->cols; c++, s += strlen(s) + 1) {
			if (html) {
				buf_puts(b, t->num[c] ? "<td class=\"n\">" : "<td>");
				chart_escape(b, s);
				buf_puts(b, "</td>");
			} else {
				buf_putc(b, ' ');
				text_md_cell(b, s);
				buf_puts(b, " |");
			}
		}
		buf_puts(b, html ? "</tr>\n" : "\n");
	}
	buf_puts(b, html ? "</table>\n" : "\n");
	buf_free(&t->cells);
}

static void stage_table(Table *t, const Design *d)
{
	*t = (Table){.cols = 7, .head = {"stage", "kind", "redundancy", "efficiency", "units",
					  "installed (kW)", "used (kW)"},
		     .num = {false, false, false, true, true, true, true}};
	for (int k = 0; k < d->nstages; k++) {
		const PowerStageInst *s = &d->stages[k];
		cell(t, s->stage->name);
		cell(t, enum_POWER_STAGE.words[s->stage->stage.stage]);
		cell(t, enum_REDUNDANCY.words[s->stage->stage.redundancy]);
		cell_num(t, s->stage->stage.efficiency, 4);
		if (s->units > 0)
			cell_num(t, s->units, 0);
		else
			cell(t, "-");
		cell_num(t, s->installed / 1e3, 1);
		cell_num(t, s->load / 1e3, 1);
		t->rows++;
	}
}

static void plant_table(Table *t, const Design *d)
{
	*t = (Table){.cols = 8, .head = {"cooling", "unit", "kind", "serves", "count",
					  "installed (kW)", "heat (kW)", "power (kW)"},
		     .num = {false, false, false, false, true, true, true, true}};
	for (int i = 0; i < d->ncool_groups; i++) {
		const CoolingGroup *g = &d->cool_groups[i];
		for (int k = 0; k < g->nunits; k++) {
			const CoolingUnitInst *u = &g->units[k];
			cell(t, g->cooling->name);
			cell(t, u->unit->name);
			cell(t, enum_COOLING_UNIT.words[u->unit->cunit.unit]);
			cell(t, enum_HEAT_SHARE.words[u->unit->cunit.serves]);
			if (u->units > 0)
				cell_num(t, u->units, 0);
			else
				cell(t, "-");
			cell_num(t, u->installed / 1e3, 1);
			cell_num(t, u->load / 1e3, 1);
			cell_num(t, u->power / 1e3, 1);
			t->rows++;
		}
	}
}

/* The paragraph that opens the section: the PUE and what it is made of. */
static void summary(Buf *b, const Design *d)
{
	const Totals *t = &d->t;
	buf_puts(b, "PUE ");
	text_number(b, t->pue, 3, true);
	buf_puts(b, " at peak, ");
	text_number(b, t->pue_annual, 3, true);
	buf_puts(b, " over the year");
	if (d->t.pue_from_site) {
		buf_puts(b, " (the site's pue).");
	} else {
		buf_puts(b, ": IT ");
		text_number(b, t->it_power / 1e3, 0, false);
		buf_puts(b, " kW, cooling ");
		text_number(b, t->cooling_power / 1e3, 0, false);
		buf_puts(b, " kW (partial PUE ");
		text_number(b, t->cooling_ppue, 3, true);
		buf_puts(b, "; ");
		text_number(b, t->free_cooling_share * HOURS_PER_YEAR, 0, false);
		buf_puts(b, " h of free cooling a year), power chain efficiency ");
		text_number(b, t->power_efficiency, 4, true);
		buf_puts(b, ".");
	}
	if (t->heat_reused > 0) {
		buf_puts(b, " Heat reused: ");
		text_number(b, t->heat_reused / J_PER_KWH / 1e3, 0, false);
		buf_puts(b, " MWh a year, a credit of ");
		text_money(b, t->heat_credit);
		buf_printf(b, " %s a year off the energy cost (ERE ", currency_name(d->currency));
		text_number(b, ere(t), 3, true);
		buf_puts(b, ").");
	}
}

static void facility_write(Buf *b, const Design *d, bool html)
{
	Table t;
	buf_puts(b, html ? "<section id=\"facility\">\n<h2>Facility</h2>\n<p>" : "## Facility\n\n");
	summary(b, d);
	buf_puts(b, html ? "</p>\n" : "\n\n");
	if (d->nstages) {
		buf_printf(b, html ? "<h3>Power chain: %s</h3>\n" : "### Power chain: %s\n\n",
			   d->power_sys->name);
		stage_table(&t, d);
		table_write(b, &t, html);
	}
	plant_table(&t, d);
	if (t.rows) {
		buf_puts(b, html ? "<h3>Cooling plant</h3>\n" : "### Cooling plant\n\n");
		table_write(b, &t, html);
	} else {
		buf_free(&t.cells);
	}
	if (html)
		buf_puts(b, "</section>\n");
}

void report_facility_md(Buf *b, const Design *d)
{
	facility_write(b, d, false);
}

void report_facility_html(Buf *b, const Design *d)
{
	facility_write(b, d, true);
}
