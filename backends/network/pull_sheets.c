/*
 * pull_sheets.c — pull sheets for the cabling crew: pull-sheets.csv (one row per cable, in pull
 * order) and pull-sheets.md (the same sheets to print, each with its totals). docs/output.md
 * gives the columns.
 *
 * Sheets: a cable between two racks goes on the sheet of the row its A end stands in (the end
 * nearer the endpoints, where cabling.csv starts it): "row-A"; a cable inside one rack on that
 * rack's sheet: "rack-A01". Row sheets come first, in row order, then rack sheets in rack
 * order. The order of pulls follows how cabling crews sequence a hall (the long runs that fill
 * the overhead trays first, then the shorter ones on top, patching inside a rack last): on a
 * row sheet the runs to another row, then the runs within the row, each longest first (ties:
 * from rack, from U, the cable's link order); on a rack sheet bottom U first. Lengths are the
 * stocked lengths bought (cabling.csv length_m). Trays are not modelled: a sheet is not split
 * tray by tray.
 *
 * An assembly with several legs (a twin-port or breakout cable, a splitter fibre: cage.c) is
 * one part pulled once: its legs follow one another under its first leg's sheet, run and
 * place, the `assembly` column names the first leg's id, and a sheet's totals count parts,
 * not legs.
 *
 * Structured cabling (trunk.c): a trunk is pulled first of all, on the row sheet of its first
 * rack ("trunk" runs, longest first: cable_id and assembly are its name, its ends the panels
 * and first adapters); a link through it is two patch cords, each on the rack sheet of its
 * device's rack ("patch" runs, bottom U first), from the device's port to its panel adapter.
 */
#include "backends.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { RUN_TRUNK, RUN_INTER_ROW, RUN_IN_ROW, RUN_IN_RACK, RUN_PATCH, RUN_UNPLACED, RUN_COUNT };
/* The runs' names and their lengths (the rows copy them by length). */
#define RUN_NAME(s) {s, sizeof s - 1}
static const struct {
	const char *name;
	size_t len;
} runs[RUN_COUNT] = {RUN_NAME("trunk"),   RUN_NAME("inter-row"), RUN_NAME("in-row"),
		     RUN_NAME("in-rack"), RUN_NAME("patch"),     RUN_NAME("unplaced")};
#undef RUN_NAME

/* What a row pulls: a cable, one of the two patch cords of a link through a trunk (its A or
 * Z end to the panel in that end's rack), or a trunk. */
enum { PULL_CABLE, PULL_CORD_A, PULL_CORD_Z, PULL_TRUNK };

typedef struct Pull {
	int what;       /* PULL_* */
	int cable;      /* the cable, or the trunk (PULL_TRUNK) */
	int head;       /* the cable that counts the part: itself, or its assembly's first leg */
	int run;        /* RUN_* */
	int sheet;      /* rows 0 .. R-1, then racks R .. R+K-1, then one for unplaced ends */
	int from_rack, from_u;
	double length;
} Pull;

static int pull_cmp(const void *x, const void *y)
{
	const Pull *a = x, *b = y;
	if (a->sheet != b->sheet)
		return a->sheet < b->sheet ? -1 : 1;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	if (a->run != RUN_IN_RACK && a->run != RUN_PATCH && a->length != b->length)
		return a->length > b->length ? -1 : 1;
	if (a->from_rack != b->from_rack)
		return a->from_rack < b->from_rack ? -1 : 1;
	if (a->from_u != b->from_u)
		return a->from_u < b->from_u ? -1 : 1;
	if (a->head != b->head)
		return a->head < b->head ? -1 : 1;
	if (a->what != b->what)
		return a->what < b->what ? -1 : 1;
	return (a->cable > b->cable) - (a->cable < b->cable);
}

/* A pull's place in its sheet's order as two words compared first: the run, the length longest
 * first (a finite length >= 0 orders as its bits do; the runs ordered bottom U first leave it
 * 0), then from_rack and from_u (31 bits each); pull_cmp decides between equal keys. Where a
 * length of the sheet is not such a number, or a rack or U out of range, the key holds the run
 * alone. */
typedef struct PullKey {
	uint64_t hi, lo;
	int i; /* the pull's index in its sheet */
} PullKey;

/* Whether p's place in the order fits the two words of key_words. */
static bool key_fits(const Pull *p)
{
	return isfinite(p->length) && !signbit(p->length) && p->from_rack >= -1 &&
	       p->from_rack < 1 << 30 && p->from_u >= -1 && p->from_u < 1 << 30;
}

/* p's two words (key_fits): the run, the length longest first, from_rack, from_u. */
static void key_words(const Pull *p, uint64_t *hi, uint64_t *lo)
{
	uint64_t len = 0;
	if (p->run != RUN_IN_RACK && p->run != RUN_PATCH) {
		memcpy(&len, &p->length, sizeof len);
		len = (UINT64_MAX >> 1) - len; /* longest first */
	}
	*hi = (uint64_t)p->run << 61 | len >> 2;
	*lo = (len & 3) << 62 | (uint64_t)((int64_t)p->from_rack + 1) << 31 |
	      (uint64_t)((int64_t)p->from_u + 1);
}

static bool key_less(const PullKey *a, const PullKey *b, const Pull *v)
{
	if (a->hi != b->hi)
		return a->hi < b->hi;
	if (a->lo != b->lo)
		return a->lo < b->lo;
	return pull_cmp(&v[a->i], &v[b->i]) < 0;
}

/* Sorts v (n pulls of one sheet) by pull_cmp: a merge sort of the keys (runs of 8 by
 * insertion, then merges to and fro, a pair already in order copied), then the pulls moved
 * into that order through tmp. Before, qsort of the pulls: pointers sorted by calls through
 * pull_cmp, about twice the instructions (docs/performance.md, "Emitter, tenth pass").
 * pull_cmp is a total order, so the order is the same. k: 2 n keys; tmp: n pulls. */
static void pull_sort(Pull *v, int n, PullKey *k, Pull *tmp)
{
	bool bits = true; /* every length such a number, every rack and U in -1 .. 2^30 - 1 */
	for (int i = 0; i < n && bits; i++)
		bits = key_fits(&v[i]);
	for (int i = 0; i < n; i++) {
		k[i].i = i;
		if (bits) {
			key_words(&v[i], &k[i].hi, &k[i].lo);
		} else {
			k[i].hi = (uint64_t)v[i].run;
			k[i].lo = 0;
		}
	}
	enum { RUN = 8 };
	for (int lo = 0; lo < n; lo += RUN) {
		int hi = lo + RUN < n ? lo + RUN : n;
		for (int i = lo + 1; i < hi; i++) {
			PullKey x = k[i];
			int j = i;
			for (; j > lo && key_less(&x, &k[j - 1], v); j--)
				k[j] = k[j - 1];
			k[j] = x;
		}
	}
	PullKey *src = k, *dst = k + n;
	for (int w = RUN; w < n; w *= 2) {
		for (int lo = 0; lo < n; lo += 2 * w) {
			int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			if (mid == hi || !key_less(&src[mid], &src[mid - 1], v)) {
				memcpy(dst + lo, src + lo, sizeof *src * (size_t)(hi - lo));
				continue;
			}
			int i = lo, j = mid, o = lo;
			while (i < mid && j < hi)
				dst[o++] = key_less(&src[j], &src[i], v) ? src[j++] : src[i++];
			while (i < mid)
				dst[o++] = src[i++];
			while (j < hi)
				dst[o++] = src[j++];
		}
		PullKey *t = src;
		src = dst;
		dst = t;
	}
	for (int i = 0; i < n; i++)
		tmp[i] = v[src[i].i];
	memcpy(v, tmp, sizeof *v * (size_t)n);
}

/* A pull's place in the whole order as one word (pull_radix), and its index before the sort. */
typedef struct PullRec {
	uint64_t key;
	int i;
} PullRec;

/* How many bits hold 0 .. max. */
static int bits_for(uint64_t max)
{
	int b = 0;
	while (b < 64 && max >> b)
		b++;
	return b;
}

static int by_length_down(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a < b) - (a > b);
}

/* LENGTHS: the slots of pull_radix's table of distinct lengths, at most half of them used. */
enum { LENGTHS = 4096, LENGTH_BITS = 12 };

/* The slot of the table whose entry is length bits x (stored as x + 1), or the empty one where
 * it goes: a multiplicative hash, then linear probing. */
static unsigned length_slot(const uint64_t *slot_bits, uint64_t x)
{
	unsigned h = (unsigned)((x * 0x9E3779B97F4A7C15u) >> (64 - LENGTH_BITS));
	while (slot_bits[h] && slot_bits[h] != x + 1)
		h = (h + 1) & (LENGTHS - 1);
	return h;
}

/* pull_radix's digits: 11 bits (2,048 counts a digit), six of them for a word. The words
 * differ in their low 29 bits at k = 64, 31 at 100,000 GPUs and 39 for the 262k dragonfly:
 * three passes over the pulls where a byte a digit took four, and four where it took five
 * (docs/performance.md, "Emitter, fifteenth pass"). */
enum { RADIX_BITS = 11, RADIX_DIGITS = (64 + RADIX_BITS - 1) / RADIX_BITS,
       RADIX_MASK = (1 << RADIX_BITS) - 1 };

/* Sorts all n pulls by sheet, then pull_cmp, when their places fit one word (false, nothing
 * done, otherwise): the sheet, the run, the length's rank among the distinct lengths longest
 * first (a few stocked lengths: a table of their bits), from_rack + 1 and from_u + 1, each in
 * the bits its largest value needs; then an LSD radix sort of the words 11 bits at a time
 * (stable), skipping the digits every word has alike, and each run of equal words (the pulls of
 * one U of one rack, most often one or a few) put in pull_cmp's order by insertion. Stable, so
 * such a run is in the order the pulls were made in, which for cables is already the cables'
 * (pull_cmp's tie-break). The same order as the sheet-by-sheet merge sort (pull_sort), which
 * stays the way when the places do not fit (docs/performance.md, "Emitter, eleventh pass"). */
static bool pull_radix(Pull *v, int n)
{
	for (int i = 0; i < n; i++)
		if (!key_fits(&v[i]))
			return false;
	uint64_t *slot_bits = calloc(LENGTHS, sizeof *slot_bits); /* a length's bits + 1, or 0 */
	uint16_t *rank = calloc(LENGTHS, sizeof *rank);
	uint16_t *slot = xmalloc(sizeof *slot * (size_t)(n + 1));
	double *lengths = xmalloc(sizeof *lengths * (LENGTHS / 2));
	if (!slot_bits || !rank)
		die_oom();
	int m = 0, max_sheet = 0, max_rack = 0, max_u = 0;
	bool fit = true;
	for (int i = 0; i < n && fit; i++) {
		const Pull *p = &v[i];
		max_sheet = p->sheet > max_sheet ? p->sheet : max_sheet;
		max_rack = p->from_rack + 1 > max_rack ? p->from_rack + 1 : max_rack;
		max_u = p->from_u + 1 > max_u ? p->from_u + 1 : max_u;
		slot[i] = 0;
		if (p->run == RUN_IN_RACK || p->run == RUN_PATCH)
			continue; /* ordered bottom U first: the length plays no part */
		uint64_t x;
		memcpy(&x, &p->length, sizeof x);
		unsigned h = length_slot(slot_bits, x);
		if (!slot_bits[h]) {
			if (m == LENGTHS / 2) {
				fit = false;
				break;
			}
			slot_bits[h] = x + 1;
			lengths[m++] = p->length;
		}
		slot[i] = (uint16_t)h;
	}
	int lbits = bits_for((uint64_t)m), rbits = bits_for((uint64_t)max_rack),
	    ubits = bits_for((uint64_t)max_u);
	fit = fit && max_sheet >= 0 && bits_for((uint64_t)max_sheet) + 3 + lbits + rbits + ubits <= 64;
	PullRec *a = NULL;
	if (fit) {
		qsort(lengths, (size_t)m, sizeof *lengths, by_length_down);
		for (int r = 0; r < m; r++) {
			uint64_t x;
			memcpy(&x, &lengths[r], sizeof x);
			rank[length_slot(slot_bits, x)] = (uint16_t)r;
		}
		a = xmalloc(sizeof *a * (size_t)(2 * n + 1));
	}
	free(lengths);
	free(slot_bits);
	if (!fit) {
		free(rank);
		free(slot);
		return false;
	}
	PullRec *b = a + n;
	uint64_t any = 0, all = UINT64_MAX;
	for (int i = 0; i < n; i++) {
		const Pull *p = &v[i];
		uint64_t lrank = p->run == RUN_IN_RACK || p->run == RUN_PATCH ? 0 : rank[slot[i]];
		uint64_t k = (uint64_t)p->sheet << 3 | (uint64_t)p->run;
		k = k << lbits | lrank;
		k = k << rbits | (uint64_t)(p->from_rack + 1);
		k = k << ubits | (uint64_t)(p->from_u + 1);
		a[i] = (PullRec){k, i};
		any |= k;
		all &= k;
	}
	free(rank);
	free(slot);
	/* the digits that differ somewhere, least significant first */
	int digit[RADIX_DIGITS], nd = 0;
	for (int d = 0; d < RADIX_DIGITS; d++)
		if (((any ^ all) >> (RADIX_BITS * d)) & RADIX_MASK)
			digit[nd++] = d;
	uint32_t(*count)[RADIX_MASK + 1] = calloc((size_t)(nd ? nd : 1), sizeof *count);
	if (!count)
		die_oom();
	for (int i = 0; i < n; i++)
		for (int j = 0; j < nd; j++)
			count[j][(a[i].key >> (RADIX_BITS * digit[j])) & RADIX_MASK]++;
	for (int j = 0; j < nd; j++) {
		uint32_t at = 0;
		for (int c = 0; c <= RADIX_MASK; c++) {
			uint32_t k = count[j][c];
			count[j][c] = at;
			at += k;
		}
		int shift = RADIX_BITS * digit[j];
		for (int i = 0; i < n; i++)
			b[count[j][(a[i].key >> shift) & RADIX_MASK]++] = a[i];
		PullRec *t = a;
		a = b;
		b = t;
	}
	for (int lo = 0, hi; lo < n; lo = hi) {
		for (hi = lo + 1; hi < n && a[hi].key == a[lo].key; hi++)
			;
		for (int i = lo + 1; i < hi; i++) {
			PullRec x = a[i];
			int j = i;
			for (; j > lo && pull_cmp(&v[x.i], &v[a[j - 1].i]) < 0; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
	}
	free(count);
	Pull *tmp = xmalloc(sizeof *tmp * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		tmp[i] = v[a[i].i];
	memcpy(v, tmp, sizeof *v * (size_t)n);
	free(tmp);
	free(a < b ? a : b);
	return true;
}

static int floor_rows(const Design *d)
{
	int rows = 0;
	for (int r = 0; r < d->nracks; r++)
		if (d->racks[r].row + 1 > rows)
			rows = d->racks[r].row + 1;
	return rows;
}

/* The pulls of structured cabling (trunk.c): each trunk on the row sheet of its first rack,
 * each link's two cords on the rack sheets of their racks. Returns how many it added at v. */
static int trunk_pulls(const Design *d, int rows, Pull *v)
{
	int n = 0;
	for (int i = 0; i < d->ntrunks; i++) {
		const TrunkInst *t = &d->trunks[i];
		v[n++] = (Pull){PULL_TRUNK, i, -1 - i, RUN_TRUNK, d->racks[t->rack_a].row, t->rack_a,
				d->panels[t->panel_a].u, t->length};
	}
	for (int i = 0; i < d->ncables; i++) {
		const CableInst *c = &d->cables[i];
		if (c->trunk < 0)
			continue;
		const LinkInst *l = &d->links[c->link];
		const CableLeg *g = ir_cable_leg(d, c);
		for (int e = 0; e < 2; e++) {
			int r, u;
			ir_end_place(d, e ? l->z : l->a, &r, &u);
			v[n++] = (Pull){e ? PULL_CORD_Z : PULL_CORD_A, i, i, RUN_PATCH, rows + r, r, u,
					e ? g->cord_z : g->cord_a};
		}
	}
	return n;
}

/* Every pull with its sheet and run, sorted in pull order (heap: free() it); *count of them.
 * The ends' places are the ends' table's. */
static Pull *pull_order(const Design *d, const EndTable *et, int rows, int *count)
{
	int cords = 0;
	for (int i = 0; i < d->ncables; i++)
		cords += d->cables[i].trunk >= 0;
	Pull *v = xmalloc(sizeof *v * (size_t)(d->ncables + cords + d->ntrunks + 1));
	int n = 0;
	for (int i = 0; i < d->ncables; i++) {
		if (d->cables[i].trunk >= 0)
			continue; /* its cords and trunk: trunk_pulls */
		/* A leg is pulled with its assembly: the sheet, run and place of the first leg. */
		int head = d->cables[i].assembly >= 0 ? d->cables[i].assembly : i;
		const CableInst *c = &d->cables[head];
		const EndText *a = &et->ends[2 * (size_t)head], *z = a + 1;
		int ra = a->rack, ua = a->u, rz = z->rack;
		Pull *p = &v[n++];
		*p = (Pull){PULL_CABLE, i, head, RUN_UNPLACED, rows + d->nracks, ra, ua, c->length};
		if (ra < 0 || rz < 0)
			continue;
		if (ra == rz) {
			p->run = RUN_IN_RACK;
			p->sheet = rows + ra;
		} else {
			p->run = d->racks[ra].row == d->racks[rz].row ? RUN_IN_ROW : RUN_INTER_ROW;
			p->sheet = d->racks[ra].row;
		}
	}
	n += trunk_pulls(d, rows, v + n);
	*count = n;
	if (pull_radix(v, n))
		return v;
	/* By sheet first (counting: sheets are few, the pulls many), then each sheet's pulls by
	 * pull_cmp, a total order (the cable decides last), so the order is the one a sort of the
	 * whole by it gives, with fewer comparisons. */
	int nsheets = rows + d->nracks + 1;
	int *start = xmalloc(sizeof *start * (size_t)(2 * nsheets + 2)), *next = start + nsheets + 1;
	memset(start, 0, sizeof *start * (size_t)(nsheets + 1));
	for (int i = 0; i < n; i++)
		start[v[i].sheet + 1]++;
	for (int s = 0; s < nsheets; s++)
		start[s + 1] += start[s];
	memcpy(next, start, sizeof *start * (size_t)(nsheets + 1));
	for (int s = 0; s < nsheets; s++) /* in place: each swap puts one pull in its sheet */
		while (next[s] < start[s + 1]) {
			Pull x = v[next[s]];
			if (x.sheet == s) {
				next[s]++;
				continue;
			}
			v[next[s]] = v[next[x.sheet]];
			v[next[x.sheet]++] = x;
		}
	int most = 0;
	for (int s = 0; s < nsheets; s++)
		if (start[s + 1] - start[s] > most)
			most = start[s + 1] - start[s];
	Pull *tmp = xmalloc(sizeof *tmp * (size_t)(most + 1));
	PullKey *keys = xmalloc(sizeof *keys * (size_t)(2 * most + 1));
	for (int s = 0; s < nsheets; s++)
		if (start[s + 1] - start[s] > 1)
			pull_sort(v + start[s], start[s + 1] - start[s], keys, tmp);
	free(keys);
	free(tmp);
	free(start);
	return v;
}

static void sheet_name(const Design *d, int rows, int sheet, Buf *b)
{
	char row[16];
	if (sheet < rows) {
		ir_row_name(sheet, row, sizeof row);
		buf_puts(b, "row-");
		buf_puts(b, row);
	} else if (sheet < rows + d->nracks) {
		buf_puts(b, "rack-");
		buf_puts(b, d->racks[sheet - rows].name);
	} else {
		buf_puts(b, "unplaced");
	}
}

void pull_end_text(Buf *b, const Design *d, End e)
{
	int rack, u;
	ir_end_place(d, e, &rack, &u);
	if (rack >= 0) {
		buf_puts(b, d->racks[rack].name);
		buf_puts(b, " U");
		layout_int(b, u);
		buf_putc(b, ' ');
	}
	buf_puts(b, ir_end_device(d, e));
	buf_putc(b, ' ');
	ir_end_port(b, d, e);
}

static const char csv_header[] =
	"sheet,seq,cable_id,assembly,run,length_m,cable_model,media,a_optic,z_optic,from_row,from_rack,"
	"from_u,from_device,from_port,to_row,to_rack,to_u,to_device,to_port,fabric,tier\n";

static const char *part_name(const Part *p)
{
	return p ? p->name : "";
}

/* row, rack, U, panel and adapter ("p5") of a panel end (structured cabling). */
static void csv_panel(Buf *b, const Design *d, int panel, int adapter)
{
	const PanelInst *p = &d->panels[panel];
	char row[16];
	ir_row_name(d->racks[p->rack].row, row, sizeof row);
	buf_puts(b, row);
	buf_putc(b, ',');
	text_csv_field(b, d->racks[p->rack].name);
	buf_putc(b, ',');
	layout_int(b, p->u);
	buf_putc(b, ',');
	text_csv_field(b, p->name);
	buf_printf(b, ",p%d,", adapter);
}

/* A panel end as the printed sheet gives it: "A01 U48 A01-PP1 p5". */
static void panel_text(Buf *b, const Design *d, int panel, int adapter)
{
	const PanelInst *p = &d->panels[panel];
	buf_printf(b, "%s U%d %s p%d", d->racks[p->rack].name, p->u, p->name, adapter);
}

/* The id a pull goes by and its length in *len: the cable's (its length the ends' table's), or
 * the trunk's name, made in name (valid until name is written again). */
static const char *pull_id(Buf *name, const Design *d, const EndTable *et, const Pull *p,
			   int cable, size_t *len)
{
	if (p->what == PULL_TRUNK) {
		name->len = 0;
		ir_trunk_name(name, d, p->cable);
		*len = name->len;
		return name->s;
	}
	*len = et->id_len[cable];
	return d->cable_ids[cable];
}

static const Part *pull_part(const Design *d, const Pull *p)
{
	return p->what == PULL_TRUNK ? d->trunks[p->cable].part : d->cables[p->cable].cable;
}

/* A sheet's sequence number, 1, 2, ..., as decimal text counted up in place (layout_int's
 * bytes, without a division a digit). */
typedef struct Seq {
	int at;        /* the first digit: text[at .. sizeof text - 1] */
	char text[24];
} Seq;

static void seq_start(Seq *q)
{
	q->at = (int)sizeof q->text - 1;
	q->text[q->at] = '1';
}

static size_t seq_len(const Seq *q)
{
	return sizeof q->text - (size_t)q->at;
}

static void seq_next(Seq *q)
{
	int i = (int)sizeof q->text - 1;
	while (i >= q->at && q->text[i] == '9')
		q->text[i--] = '0';
	if (i < q->at)
		q->text[--q->at] = '1';
	else
		q->text[i]++;
}

/* Cells that repeat from row to row, made again only when what they name changes (the same
 * strings: names are the design's): one part's name as a CSV cell or a Markdown one, or
 * pull-sheets.csv's "cable_model,media,a_optic,z_optic," and "fabric,tier\n". */
typedef struct Cell {
	const char *key[4];
	bool set;
	Buf text;
} Cell;

/* pull-sheets.csv's "RUN,LENGTH," and pull-sheets.md's "RUN | LENGTH | PART | " for a run of
 * rows of one run, length (by its bits) and part (the md's): one copy a row where there were
 * two and three, and the length's and part's kept texts asked only when it changes
 * (docs/performance.md, "Emitter, fifteenth pass"). */
typedef struct RunCell {
	int run;
	uint64_t bits;
	const char *part;
	bool set;
	Buf text;
} RunCell;

/* Whether c holds the text of run, the length's bits and part; if not, it is emptied for them. */
static bool run_cell_same(RunCell *c, int run, double length, const char *part)
{
	uint64_t bits;
	memcpy(&bits, &length, sizeof bits);
	if (c->set && c->run == run && c->bits == bits && c->part == part)
		return true;
	c->set = true, c->run = run, c->bits = bits, c->part = part;
	c->text.len = 0;
	return false;
}

typedef struct Cells {
	Cell part, parts, fabric; /* pull-sheets.csv's (part: a trunk's row) */
	Cell md_part;             /* pull-sheets.md's */
	RunCell run, md_run;      /* "RUN,LENGTH," and the md's "RUN | LENGTH | PART | " */
	NumberText length, md_length; /* the csv's, the md's: 2 places (a sheet's runs are
					 * longest first, so lengths come in runs) */
	Buf name; /* a trunk's name (pull_id), made for its row */
} Cells;

/* Whether c holds the cells of keys k0 .. k3; if not, it is emptied for them. */
static bool cell_same(Cell *c, const char *k0, const char *k1, const char *k2, const char *k3)
{
	if (c->set && c->key[0] == k0 && c->key[1] == k1 && c->key[2] == k2 && c->key[3] == k3)
		return true;
	c->set = true;
	c->key[0] = k0;
	c->key[1] = k1;
	c->key[2] = k2;
	c->key[3] = k3;
	c->text.len = 0;
	return false;
}

/* s as one cell, CSV or Markdown (md). */
static const Buf *cell_text(Cell *c, const char *s, bool md)
{
	if (!cell_same(c, s, NULL, NULL, NULL)) {
		if (md)
			text_md_cell(&c->text, s);
		else
			text_csv_field(&c->text, s);
	}
	return &c->text;
}

static void cells_free(Cells *c)
{
	Cell *all[] = {&c->part, &c->parts, &c->fabric, &c->md_part};
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		buf_free(&all[i]->text);
	buf_free(&c->length.text);
	buf_free(&c->md_length.text);
	buf_free(&c->run.text);
	buf_free(&c->md_run.text);
	buf_free(&c->name);
}

/* A trunk's row (structured cabling). */
static void csv_trunk_row(Buf *b, const Design *d, const Pull *p, Cells *cells)
{
	const TrunkInst *t = &d->trunks[p->cable];
	const Buf *part = cell_text(&cells->part, part_name(t->part), false);
	buf_put(b, part->s, part->len);
	buf_puts(b, ",trunk,,,");
	csv_panel(b, d, t->panel_a, t->port_a);
	csv_panel(b, d, t->panel_z, t->port_z);
	text_csv_field(b, d->fabrics[t->fabric].name);
	buf_puts(b, ",\n");
}

/* cell: the sheet's name as a CSV cell and its comma, made once a sheet. The row up to its
 * ends at a pointer after a check for room, and a cable's ends after a second. */
static void csv_row(Buf *b, const Design *d, const EndTable *et, const Pull *p, const Seq *seq,
		    const Buf *cell, Cells *cells)
{
	RunCell *rl = &cells->run; /* "RUN,LENGTH," */
	if (!run_cell_same(rl, p->run, p->length, NULL)) {
		buf_put(&rl->text, runs[p->run].name, runs[p->run].len);
		buf_putc(&rl->text, ',');
		const Buf *len = layout_number_kept(&cells->length, p->length, 2);
		buf_put(&rl->text, len->s, len->len);
		buf_putc(&rl->text, ',');
	}
	bool trunk = p->what == PULL_TRUNK;
	size_t id_len, head_len;
	const char *id = pull_id(&cells->name, d, et, p, p->cable, &id_len);
	const char *head = trunk ? id : pull_id(&cells->name, d, et, p, p->head, &head_len);
	if (trunk)
		head_len = id_len; /* a trunk's head is itself */
	text_room(b, cell->len + seq_len(seq) + id_len + head_len + rl->text.len + 3);
	char *q = b->s + b->len;
	q = buf_put_at(q, cell->s, cell->len);
	q = buf_put_at(q, seq->text + seq->at, seq_len(seq));
	*q++ = ',';
	q = buf_put_at(q, id, id_len);
	*q++ = ',';
	q = buf_put_at(q, head, head_len);
	*q++ = ',';
	q = buf_put_at(q, rl->text.s, rl->text.len);
	buf_end_at(b, q);
	if (trunk) {
		csv_trunk_row(b, d, p, cells);
		return;
	}
	const CableInst *c = &d->cables[p->cable];
	const LinkInst *l = &d->links[c->link];
	/* "cable_model,media,a_optic,z_optic,": a cord plugs into the optic at its device end
	 * only */
	const char *part = part_name(c->cable);
	const char *media = c->media >= 0 ? enum_MEDIA.words[c->media] : "";
	const char *optic_a = part_name(p->what == PULL_CORD_Z ? NULL : c->optic_a);
	const char *optic_z = part_name(p->what == PULL_CORD_A ? NULL : c->optic_z);
	Cell *parts = &cells->parts;
	if (!cell_same(parts, part, media, optic_a, optic_z)) {
		const char *k[4] = {part, media, optic_a, optic_z};
		for (int i = 0; i < 4; i++) {
			text_csv_field(&parts->text, k[i]);
			buf_putc(&parts->text, ',');
		}
	}
	/* "fabric,tier\n" */
	const char *fabric = l->fabric >= 0 ? d->fabrics[l->fabric].name : "";
	const char *tier = ir_link_tier_names[l->tier];
	Cell *ft = &cells->fabric;
	if (!cell_same(ft, fabric, tier, NULL, NULL)) {
		text_csv_field(&ft->text, fabric);
		buf_putc(&ft->text, ',');
		buf_puts(&ft->text, tier);
		buf_putc(&ft->text, '\n');
	}
	const EndText *a = &et->ends[2 * (size_t)p->cable], *z = a + 1;
	if (p->what != PULL_CABLE) {
		const EndText *from = p->what == PULL_CORD_A ? a : z;
		buf_put(b, parts->text.s, parts->text.len);
		buf_put(b, from->csv, from->csv_len);
		const CableLeg *g = ir_cable_leg(d, c);
		if (p->what == PULL_CORD_A)
			csv_panel(b, d, g->panel_a, g->port_a);
		else
			csv_panel(b, d, g->panel_z, g->port_z);
		buf_put(b, ft->text.s, ft->text.len);
		return;
	}
	text_room(b, parts->text.len + a->csv_len + z->csv_len + ft->text.len);
	q = b->s + b->len;
	q = buf_put_at(q, parts->text.s, parts->text.len);
	q = buf_put_at(q, a->csv, a->csv_len);
	q = buf_put_at(q, z->csv, z->csv_len);
	q = buf_put_at(q, ft->text.s, ft->text.len);
	buf_end_at(b, q);
}

/* The two ends of a pull as the printed sheet gives them. */
static void pull_ends(Buf *from, Buf *to, const Design *d, const EndTable *et, const Pull *p)
{
	if (p->what == PULL_TRUNK) {
		const TrunkInst *t = &d->trunks[p->cable];
		panel_text(from, d, t->panel_a, t->port_a);
		buf_puts(from, "+");
		panel_text(to, d, t->panel_z, t->port_z);
		buf_puts(to, "+");
		return;
	}
	const CableInst *c = &d->cables[p->cable];
	const EndText *a = &et->ends[2 * (size_t)p->cable], *z = a + 1;
	if (p->what == PULL_CORD_A) {
		const CableLeg *g = ir_cable_leg(d, c);
		ends_pull_text(from, a);
		panel_text(to, d, g->panel_a, g->port_a);
	} else if (p->what == PULL_CORD_Z) {
		const CableLeg *g = ir_cable_leg(d, c);
		ends_pull_text(from, z);
		panel_text(to, d, g->panel_z, g->port_z);
	} else {
		ends_pull_text(from, a);
		ends_pull_text(to, z);
	}
}

/* A sheet's totals: cables and metres, and per part and length how many. */
typedef struct PartTotal {
	const Part *part;
	double length;
	int count;
} PartTotal;

static int part_total_cmp(const void *x, const void *y)
{
	const PartTotal *a = x, *b = y;
	const char *na = part_name(a->part), *nb = part_name(b->part);
	int c = strcmp(na, nb);
	if (c)
		return c;
	return (a->length > b->length) - (a->length < b->length);
}

static void md_totals(Buf *b, const Design *d, const Pull *v, int n)
{
	PartTotal *t = xmalloc(sizeof *t * (size_t)(n + 1));
	int nt = 0, parts = 0, at = 0;
	double metres = 0;
	for (int i = 0; i < n; i++) {
		if (v[i].what == PULL_CABLE && v[i].cable != v[i].head)
			continue; /* a further leg of an assembly counted at its first */
		parts++;
		const Part *part = pull_part(d, &v[i]);
		double length = v[i].length;
		metres += length;
		/* the pull before's total first (lengths come in runs), then all of them: the
		 * totals are distinct, so the one found is the same */
		if (!(at < nt && t[at].part == part && t[at].length == length))
			for (at = 0; at < nt; at++)
				if (t[at].part == part && t[at].length == length)
					break;
		if (at == nt)
			t[nt++] = (PartTotal){part, length, 0};
		t[at].count++;
	}
	qsort(t, (size_t)nt, sizeof *t, part_total_cmp);
	buf_puts(b, "Totals: ");
	layout_int(b, parts);
	buf_puts(b, parts == 1 ? " cable, " : " cables, ");
	layout_number(b, metres, 2);
	buf_puts(b, " m.\n\n| part | length m | cables |\n| --- | ---: | ---: |\n");
	for (int k = 0; k < nt; k++) {
		buf_puts(b, "| ");
		text_md_cell(b, t[k].part ? t[k].part->name : "(none in scope)");
		buf_puts(b, " | ");
		layout_number(b, t[k].length, 2);
		buf_puts(b, " | ");
		layout_int(b, t[k].count);
		buf_puts(b, " |\n");
	}
	free(t);
}

/* pull-sheets.md's "RUN | LENGTH | PART | " for a row of run `run`, length `length` and part
 * named `part` (a design's string: the same name, the same pointer). */
static const Buf *md_run_cell(Cells *cells, int run, double length, const char *part)
{
	RunCell *c = &cells->md_run;
	if (run_cell_same(c, run, length, part))
		return &c->text;
	const Buf *len = layout_number_kept(&cells->md_length, length, 2);
	const Buf *cell = cell_text(&cells->md_part, part, true);
	buf_put(&c->text, runs[run].name, runs[run].len);
	buf_put(&c->text, " | ", 3);
	buf_put(&c->text, len->s, len->len);
	buf_put(&c->text, " | ", 3);
	buf_put(&c->text, cell->s, cell->len);
	buf_put(&c->text, " | ", 3);
	return &c->text;
}

static void md_sheet(Output *o, FILE *f, Buf *b, const Design *d, const EndTable *et,
		     const Pull *v, int n, Buf *sheet, Buf *text, Buf *text2, Cells *cells)
{
	buf_puts(b, "\n## ");
	buf_puts(b, sheet->s);
	buf_puts(b, "\n\n");
	md_totals(b, d, v, n);
	buf_puts(b, "\n| # | cable | run | length m | part | from | to |\n"
		    "| ---: | --- | --- | ---: | --- | --- | --- |\n");
	Seq seq;
	seq_start(&seq);
	for (int i = 0; i < n; i++, seq_next(&seq)) {
		const Pull *p = &v[i];
		const Buf *rlp = md_run_cell(cells, p->run, p->length, part_name(pull_part(d, p)));
		const char *num = seq.text + seq.at;
		size_t num_len = seq_len(&seq);
		const EndText *a = p->what == PULL_CABLE ? &et->ends[2 * (size_t)p->cable] : NULL;
		/* plain: nothing in either end for text_md_cell to escape, the row as it is */
		bool plain = a && a->pull_md && a[1].pull_md;
		size_t id_len;
		const char *id = pull_id(&cells->name, d, et, p, p->cable, &id_len);
		/* "| N | ID | RUN | LENGTH | PART | " and plain ends at a pointer after one check
		 * for room */
		text_room(b, num_len + id_len + rlp->len + (plain ? a->pull_len + a[1].pull_len : 0) +
				     32);
		char *q = b->s + b->len;
		q = buf_put_at(q, "| ", 2);
		q = text_pipe_cell_at(q, num, num_len);
		q = text_pipe_cell_at(q, id, id_len);
		q = buf_put_at(q, rlp->s, rlp->len);
		if (plain) {
			q = text_pipe_cell_at(q, a->csv + a->csv_len, a->pull_len);
			q = buf_put_at(q, a[1].csv + a[1].csv_len, a[1].pull_len);
			q = buf_put_at(q, " |\n", 3);
			buf_end_at(b, q);
		} else {
			buf_end_at(b, q);
			text->len = text2->len = 0;
			pull_ends(text, text2, d, et, p);
			text_md_cell(b, text->s);
			buf_puts(b, " | ");
			text_md_cell(b, text2->s);
			buf_puts(b, " |\n");
		}
		layout_flush(o, f, b, false);
	}
}

static const char md_intro[] =
	"# Pull sheets\n\n"
	"One sheet per floor row for the cables between racks (on the row of their A end) and one "
	"per rack for the cables inside it. Pull in the order given: on a row sheet the runs to "
	"other rows, then the runs within the row, each longest first; on a rack sheet from the "
	"bottom U up. Ends are rack, U, device and port; lengths are the stocked lengths. The legs "
	"of one twin-port or breakout cable or splitter fibre follow one another: one part, pulled "
	"once; the totals count parts (pull-sheets.csv has the same rows and an assembly column, "
	"docs/output.md). Where a fabric runs structured cabling, its trunks between patch panels "
	"are pulled first, on their row's sheet, and each link through one is two patch cords on "
	"the sheets of their racks, from the device to the panel.\n";

int pull_sheets_write(Output *o, const Design *d)
{
	FILE *csv = output_file(o, "pull-sheets.csv");
	if (!csv)
		return 1;
	FILE *md = output_file(o, "pull-sheets.md");
	if (!md) {
		output_close(o, csv);
		return 1;
	}
	int rows = floor_rows(d), n;
	const EndTable *et = ends_table(o, d);
	Pull *v = pull_order(d, et, rows, &n);
	Buf b = {0}, m = {0}, sheet = {0}, cell = {0}, port = {0}, port2 = {0};
	Cells cells = {0};
	buf_puts(&b, csv_header);
	buf_puts(&m, md_intro);
	for (int i = 0, end; i < n; i = end) {
		for (end = i + 1; end < n && v[end].sheet == v[i].sheet; end++)
			;
		sheet.len = 0;
		sheet_name(d, rows, v[i].sheet, &sheet);
		cell.len = 0;
		text_csv_field(&cell, sheet.s);
		buf_putc(&cell, ',');
		Seq seq;
		seq_start(&seq);
		for (int k = i; k < end; k++, seq_next(&seq)) {
			csv_row(&b, d, et, &v[k], &seq, &cell, &cells);
			layout_flush(o, csv, &b, false);
		}
		md_sheet(o, md, &m, d, et, v + i, end - i, &sheet, &port, &port2, &cells);
	}
	layout_flush(o, csv, &b, true);
	layout_flush(o, md, &m, true);
	free(v);
	buf_free(&b);
	buf_free(&m);
	buf_free(&sheet);
	buf_free(&cell);
	buf_free(&port);
	buf_free(&port2);
	cells_free(&cells);
	int rc = output_close(o, csv);
	return output_close(o, md) || rc;
}
