/*
 * money.c — amounts in the report currency. clusterc never converts currencies silently: a price
 * in another currency converts only through a rate the cluster states (exchange_rates, either
 * way round); design_init checks once that every price in use has one.
 */
#include "passes.h"

/* A direct rate between the two currencies, either way round. */
bool money_convert(Design *d, double amount, Dim from_dim, Loc loc, bool report, double *out)
{
	int from = dim_currency(from_dim);
	if (from < 0 || from == d->currency) {
		*out = amount;
		return true;
	}
	const Value *rates = field_value(d->cluster, FLD_CLUSTER_EXCHANGE_RATES);
	for (int i = 0; rates && i < rates->n; i++) {
		if (!rates->items[i])
			continue;
		Dim r = rates->items[i]->q.dim;
		double v = rates->items[i]->q.v;
		if (r.e[DIM_FIRST_CURRENCY + d->currency] == 1 && r.e[DIM_FIRST_CURRENCY + from] == -1) {
			*out = amount * v;
			return true;
		}
		if (r.e[DIM_FIRST_CURRENCY + d->currency] == -1 && r.e[DIM_FIRST_CURRENCY + from] == 1) {
			*out = amount / v;
			return true;
		}
	}
	if (report) {
		const char *to = currency_name(d->currency), *fr = currency_name(from);
		Diag *dg = diag_error(d->p->c, loc,
				      "this price is in %s but cluster '%s' reports in %s, and no "
				      "exchange rate connects them; add exchange_rates = [RATE %s/%s] "
				      "to the cluster",
				      fr, d->cluster->name, to, to, fr);
		diag_set_code(dg, "no-exchange-rate");
		diag_note(dg, d->cluster->name_loc, "cluster '%s' is declared here", d->cluster->name);
	}
	*out = amount;
	return false;
}

double money_field(Design *d, const Decl *x, FieldId f)
{
	const Value *v = field_value(x, f);
	if (!v || v->kind != VAL_QTY)
		return 0;
	double out;
	money_convert(d, v->q.v, v->q.dim, v->loc, false, &out);
	return out;
}

