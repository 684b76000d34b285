/*
 * bom_csv.c — bom.csv, the bill of materials for procurement: one row per BomLine in the order
 * the model produced them, then a `total` row with the sum of the totals and of the power.
 *
 * Format: RFC 4180 fields (quoted only when they hold a comma, quote or line break; a text
 * field that a spreadsheet would take for a formula is quoted with a leading '), '\n' line ends, '.' decimals without grouping so spreadsheets and scripts read the numbers as
 * numbers. Money has two decimals, power three (kW); quantities are whole numbers when they
 * are whole (pieces), else three decimals (plant sized in kW). Empty cells for unknown values.
 */
#include "backends.h"

#include <math.h>
#include <string.h>

static const char header[] =
	"part,model,description,quantity,unit,unit_price,total,currency,unit_power_kw,power_kw\n";

static void put_quantity(Buf *b, double q)
{
	if (isfinite(q) && q == floor(q) && fabs(q) < 1e15)
		text_fixed(b, q, 0);
	else
		text_fixed(b, q, 3);
}

static void put_line(Buf *b, const BomLine *l, const char *currency)
{
	text_csv_field(b, l->part);
	buf_putc(b, ',');
	text_csv_field(b, l->model);
	buf_putc(b, ',');
	text_csv_field(b, l->description);
	buf_putc(b, ',');
	put_quantity(b, l->quantity);
	buf_putc(b, ',');
	text_csv_field(b, l->unit);
	buf_putc(b, ',');
	text_fixed(b, l->unit_price, 2);
	buf_putc(b, ',');
	text_fixed(b, l->total, 2);
	buf_putc(b, ',');
	text_csv_field(b, currency);
	buf_putc(b, ',');
	text_fixed(b, l->unit_power / 1e3, 3);
	buf_putc(b, ',');
	text_fixed(b, l->power / 1e3, 3);
	buf_putc(b, '\n');
}

int bom_csv_write(Output *o, const Design *d)
{
	FILE *f = output_file(o, "bom.csv");
	if (!f)
		return 1;
	const char *currency = currency_name(d->currency);
	Buf b = {0};
	buf_puts(&b, header);
	double total = 0, power = 0;
	for (int i = 0; i < d->nbom; i++) {
		const BomLine *l = &d->bom[i];
		put_line(&b, l, currency);
		if (isfinite(l->total))
			total += l->total;
		if (isfinite(l->power))
			power += l->power;
	}
	buf_puts(&b, "total,,,,,,");
	text_fixed(&b, total, 2);
	buf_putc(&b, ',');
	text_csv_field(&b, currency);
	buf_puts(&b, ",,");
	text_fixed(&b, power / 1e3, 3);
	buf_putc(&b, '\n');
	fwrite(b.s, 1, b.len, f);
	buf_free(&b);
	return output_close(o, f);
}
