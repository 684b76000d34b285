/*
 * expand_names.c — what the day-two passes (expand.c, expand_wire.c, expand_plan.c) look up by
 * name: sorted (name, index) tables searched by bisection, and every device of the new build
 * that stands in a rack.
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

static int named_cmp(const void *a, const void *b)
{
	const ExpandName *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

void expand_sort_names(ExpandName *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, named_cmp);
}

int expand_find(const ExpandName *v, int n, const char *name)
{
	int lo = 0, hi = n - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(v[mid].name, name);
		if (c == 0) {
			while (mid > 0 && !strcmp(v[mid - 1].name, name))
				mid--;
			return v[mid].index;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* ---- the new build's devices by name --------------------------------------------------------- */

/* Every device standing in a rack: nodes, switches, extra devices, storage appliances, each as
 * an End (kind, index) with its rack; *n of them (heap). */
ExpandDevice *expand_devices(const Design *d, int *n)
{
	int cap = d->nnodes + d->nswitches + d->nextras + d->nappliances + 1, k = 0;
	ExpandDevice *v = xmalloc(sizeof *v * (size_t)cap);
	for (int i = 0; i < d->nnodes; i++)
		v[k++] = (ExpandDevice){d->nodes[i].hostname, {END_NODE, i, 0}, &d->nodes[i].rack,
					&d->nodes[i].u};
	for (int i = 0; i < d->nswitches; i++)
		if (d->switches[i].rack >= 0)
			v[k++] = (ExpandDevice){d->switches[i].name, {END_SWITCH, i, 0},
						&d->switches[i].rack, &d->switches[i].u};
	for (int i = 0; i < d->nextras; i++)
		if (d->extras[i].rack >= 0 && d->extras[i].appliance < 0)
			v[k++] = (ExpandDevice){d->extras[i].name, {END_EXTRA, i, 0}, &d->extras[i].rack,
						&d->extras[i].u};
	for (int i = 0; i < d->nappliances; i++)
		v[k++] = (ExpandDevice){d->appliances[i].name, {EXPAND_END_STORAGE, i, 0},
					&d->appliances[i].rack, &d->appliances[i].u};
	*n = k;
	return v;
}

