/*
 * netbox_power.c — netbox/power-panels.csv and netbox/power-feeds.csv: the power chain's rack
 * feeds as NetBox imports them (after racks.csv, which they name), one power panel per floor
 * row and side, one power feed per rack feed:
 *
 *   power-panels.csv  site, location, name, description
 *   power-feeds.csv   site, power_panel, location, rack, name, status, type, supply, phase,
 *                     voltage, amperage, max_utilization, description
 *
 * Field names and choices are those of NetBox's import forms (netbox/dcim/forms/bulk_import.py:
 * PowerPanelImportForm, PowerFeedImportForm; netbox/dcim/choices.py: PowerFeedStatusChoices,
 * PowerFeedTypeChoices primary/redundant, PowerFeedSupplyChoices ac/dc, PowerFeedPhaseChoices
 * single-phase/three-phase), read in netbox-community/netbox (v4.x, 2026-12).
 *
 * Choices: a rack's feeds are the chain's rack_feed stage's (power_chain.c): with 2N redundancy
 * half on side A ("primary", panel "Row B side A") and half on side B ("redundant", panel
 * "Row B side B"); otherwise all on side A. Feeds are named RACK-A, RACK-B (RACK-A1, RACK-A2 ... with
 * several a side). Status "planned": the design is not built yet. An AC chain feeds three-phase
 * 400 V (the IEC low voltage); an HVDC chain 240 V DC (China's 240 V HVDC standard, YD/T
 * 2378-2011), which NetBox takes as single-phase. The amperage is the least whole amperes whose
 * power at max_utilization 80 % (the continuous-load rule: a breaker carries 80 % of its rating
 * continuously, NFPA 70 NEC 210.19(A)) covers the feed's rating: A = ceil(rating / (V x 0.8))
 * for DC, ceil(rating / (sqrt(3) x V x 0.8)) for three-phase AC, as NetBox computes a feed's
 * available power (V x A x max_utilization, x sqrt(3) for three-phase).
 */
#include "backends.h"

#include <math.h>

static const double MAX_UTILIZATION = 0.8;

/* The chain's rack feed stage, or NULL. */
static const Part *feed_stage(const Design *d)
{
	for (int k = 0; k < d->nstages; k++)
		if (d->stages[k].stage->stage.stage == PS_RACK_FEED)
			return d->stages[k].stage;
	return NULL;
}

static bool is_dc(const Design *d)
{
	return d->power_sys && d->power_sys->power_sys.type == PWR_HVDC;
}

/* The panel of a row and side: "Row B side A". */
static void panel_name(Buf *b, int row, char side)
{
	char l[16];
	ir_row_name(row, l, sizeof l);
	buf_printf(b, "Row %s side %c", l, side);
}

static int put(Output *o, const char *path, Buf *b)
{
	FILE *f = output_file(o, path);
	if (!f)
		return 1;
	layout_flush(o, f, b, true);
	return output_close(o, f);
}

static int write_panels(Output *o, const Design *d, const Part *st, Buf *b)
{
	buf_puts(b, "site,location,name,description\n");
	int sides = st && st->stage.redundancy == RED_TWO_N ? 2 : 1;
	for (int r = 0, last = -1; st && r < d->nracks; r++) {
		if (d->racks[r].row == last)
			continue;
		last = d->racks[r].row;
		for (int s = 0; s < sides; s++) {
			char l[16];
			ir_row_name(last, l, sizeof l);
			text_csv_field(b, d->site_name);
			buf_printf(b, ",Row %s,", l);
			panel_name(b, last, (char)('A' + s));
			buf_printf(b, ",%s side %c of row %s\n", d->power_sys->name, 'A' + s, l);
		}
	}
	return put(o, "netbox/power-panels.csv", b);
}

int netbox_power_amperage(double rating, double volts, bool three_phase)
{
	double per_amp = volts * MAX_UTILIZATION * (three_phase ? sqrt(3) : 1);
	return rating > 0 ? (int)ceil(rating / per_amp - 1e-9) : 0;
}

static int write_feeds(Output *o, const Design *d, const Part *st, Buf *b)
{
	buf_puts(b, "site,power_panel,location,rack,name,status,type,supply,phase,voltage,amperage,"
		    "max_utilization,description\n");
	bool dc = is_dc(d), two_n = st && st->stage.redundancy == RED_TWO_N;
	int volts = dc ? 240 : 400;
	for (int r = 0; st && r < d->nracks; r++) {
		const RackInst *rk = &d->racks[r];
		int per_side = two_n ? rk->feeds / 2 : rk->feeds;
		int amps = netbox_power_amperage(rk->feed_rating, volts, !dc);
		char l[16];
		ir_row_name(rk->row, l, sizeof l);
		for (int k = 0; k < rk->feeds; k++) {
			char side = two_n && k >= per_side ? 'B' : 'A';
			int n = k % (per_side ? per_side : 1) + 1;
			text_csv_field(b, d->site_name);
			buf_putc(b, ',');
			panel_name(b, rk->row, side);
			buf_printf(b, ",Row %s,", l);
			text_csv_field(b, rk->name);
			buf_putc(b, ',');
			text_csv_field(b, rk->name);
			buf_printf(b, "-%c", side);
			if (per_side > 1)
				buf_printf(b, "%d", n);
			buf_printf(b, ",planned,%s,%s,%s,%d,%d,%d,", side == 'A' ? "primary" : "redundant",
				   dc ? "dc" : "ac", dc ? "single-phase" : "three-phase", volts, amps,
				   (int)(MAX_UTILIZATION * 100));
			buf_printf(b, "%s rated %g kW; %g kW at peak when its redundancy has lost the most it allows\n",
				   st->name, round(rk->feed_rating / 100) / 10,
				   round(rk->feed_failure_load / 100) / 10);
		}
	}
	return put(o, "netbox/power-feeds.csv", b);
}

int netbox_power_write(Output *o, const Design *d)
{
	Buf b = {0};
	const Part *st = feed_stage(d);
	int errors = write_panels(o, d, st, &b);
	errors += write_feeds(o, d, st, &b);
	buf_free(&b);
	return errors;
}
