/*
 * hostlist.c — host names as a Slurm hostlist expression ("dgx[001-031,040],login1"), the way
 * Slurm itself writes a sorted list (`scontrol show hostlistsorted`), so that the files we
 * write read like the ones Slurm prints.
 *
 * Method, after Slurm's src/common/hostlist.c (hostname_create, hostrange_cmp,
 * hostlist_collapse, _get_bracketed_list):
 *  - a name splits into a prefix and its trailing digits: "dgx007" is prefix "dgx", number 7,
 *    width 3 (the digits as written, so zero padding is kept); a name that does not end in a
 *    digit is a single host;
 *  - names sort by prefix in natural order (digit runs compared as numbers, Martin Pool's
 *    strnatcmp, which Slurm uses), single hosts first, then by number when the two widths are
 *    equivalent (one number prints the same at the other's width: 9 and 10, or 100 and 05)
 *    and by width otherwise (so 01 and 001 never merge);
 *  - consecutive numbers of one prefix and equivalent widths join into a range "lo-hi";
 *  - the ranges of one prefix go into one pair of brackets, comma-separated; a prefix with a
 *    single number and no range is written bare ("login1"); groups are joined by commas.
 * Duplicates are kept (clusterc's hostnames are distinct).
 */
#include "backends.h"

#include <stdlib.h>
#include <string.h>

/* isdigit without the locale's table: a digit is 0-9 in every locale (C11 7.4.1.5). */
static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* More digits than this and the name is a single host (Slurm's number is an unsigned long). */
enum { HOSTLIST_MAX_DIGITS = 18 };

typedef struct Host {
	const char *name;
	size_t plen;              /* prefix length */
	unsigned long long num;
	int width;                /* digits of the number as written */
	bool single;              /* no trailing digits */
} Host;

static Host host_parse(const char *name)
{
	size_t n = strlen(name), i = n;
	while (i > 0 && is_digit(name[i - 1]))
		i--;
	Host h = {.name = name, .plen = i};
	if (i == n || n - i > HOSTLIST_MAX_DIGITS) {
		h.plen = n;
		h.single = true;
		return h;
	}
	h.width = (int)(n - i);
	for (size_t k = i; k < n; k++)
		h.num = h.num * 10 + (unsigned long long)(name[k] - '0');
	return h;
}

/* Natural order of two digit runs, right-aligned (no leading zero): the longer run is the
 * larger number, else the first differing digit decides. Advances past both runs. */
static int digits_right(const char **pa, const char **pb)
{
	const char *a = *pa, *b = *pb;
	int bias = 0;
	for (;; a++, b++) {
		bool da = is_digit(*a), db = is_digit(*b);
		if (!da || !db) {
			*pa = a, *pb = b;
			return !da && !db ? bias : !da ? -1 : 1;
		}
		if (!bias && *a != *b)
			bias = *a < *b ? -1 : 1;
	}
}

/* Digit runs with a leading zero compare as fractions: left-aligned, digit by digit. */
static int digits_left(const char **pa, const char **pb)
{
	const char *a = *pa, *b = *pb;
	for (;; a++, b++) {
		bool da = is_digit(*a), db = is_digit(*b);
		if (!da || !db) {
			*pa = a, *pb = b;
			return !da && !db ? 0 : !da ? -1 : 1;
		}
		if (*a != *b)
			return *a < *b ? -1 : 1;
	}
}

/* strnatcmp over the first na and nb bytes (prefixes hold no NUL of their own). The bytes both
 * begin with decide nothing: the walk starts where they first differ, backed up to the start of
 * the digit run that position is in (the walk from the start reaches that point in both at once,
 * every run before it equal), as configdb_natcmp does. Most neighbours of a list share their
 * prefix ("leaf-p01-" of a switch's 32 children), and the walk of it digit run by digit run was
 * 92 M of slurm's 234 M instructions at k = 64 (docs/performance.md, "Stages before emit and
 * switch writer, thirteenth session"). */
static int natcmp(const char *a, size_t na, const char *b, size_t nb)
{
	const char *ea = a + na, *eb = b + nb;
	size_t i = 0, n = na < nb ? na : nb;
	while (i < n && a[i] == b[i])
		i++;
	if (i == na && i == nb)
		return 0;
	while (i > 0 && is_digit(a[i - 1]))
		i--;
	a += i, b += i;
	while (a < ea || b < eb) {
		if (a < ea && b < eb && is_digit(*a) && is_digit(*b)) {
			/* Prefixes end before their trailing digits, so a digit run never crosses
			 * the end of either prefix. */
			int r = *a == '0' || *b == '0' ? digits_left(&a, &b) : digits_right(&a, &b);
			if (r)
				return r;
			continue;
		}
		int ca = a < ea ? (unsigned char)*a : 0, cb = b < eb ? (unsigned char)*b : 0;
		if (ca != cb)
			return ca < cb ? -1 : 1;
		a++, b++;
	}
	return 0;
}

/* Zero padding of num printed at width. */
static int padding(unsigned long long num, int width)
{
	int n = 1;
	while (num /= 10)
		n++;
	return width > n ? width - n : 0;
}

/* Slurm's _width_equiv: one of the two numbers prints the same at the other's width. */
static bool widths_equivalent(unsigned long long n, int wn, unsigned long long m, int wm)
{
	if (wn == wm)
		return true;
	return padding(n, wn) == padding(n, wm) || padding(m, wm) == padding(m, wn);
}

/* Whether a's and b's prefixes are the same bytes. */
static bool same_prefix(const Host *a, const Host *b)
{
	return a->plen == b->plen && memcmp(a->name, b->name, a->plen) == 0;
}

static int host_cmp(const Host *a, const Host *b)
{
	int r = natcmp(a->name, a->plen, b->name, b->plen);
	if (r)
		return r;
	if (a->single != b->single)
		return a->single ? -1 : 1;
	if (a->single)
		return 0;
	if (widths_equivalent(a->num, a->width, b->num, b->width))
		return a->num < b->num ? -1 : a->num > b->num;
	return a->width < b->width ? -1 : 1;
}

/* Stable merge sort: the same order on every C library. */
static void host_sort(Host *v, Host *tmp, int n)
{
	for (int w = 1; w < n; w *= 2) {
		for (int lo = 0; lo < n; lo += 2 * w) {
			int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			int i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = host_cmp(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		memcpy(v, tmp, sizeof *v * (size_t)n);
	}
}

typedef struct Range {
	const Host *h;           /* its first host: prefix, width */
	unsigned long long lo, hi;
} Range;

/* Whether two ranges go into one pair of brackets (Slurm's hostrange_within_range). */
static bool bracketed_together(const Range *a, const Range *b)
{
	return !a->h->single && !b->h->single && same_prefix(a->h, b->h);
}

/* num zero-padded to width, as "%0*llu" prints it, without printf (slurm's topology files
 * print tens of thousands of these; num has at most HOSTLIST_MAX_DIGITS digits). */
static void number_put(Buf *b, unsigned long long num, int width)
{
	for (int pad = padding(num, width); pad > 0; pad--)
		buf_putc(b, '0');
	layout_int(b, (long long)num);
}

static void range_put(Buf *b, const Range *r)
{
	number_put(b, r->lo, r->h->width);
	if (r->hi > r->lo) {
		buf_putc(b, '-');
		number_put(b, r->hi, r->h->width);
	}
}

void hostlist_ranged(Buf *b, const char *const *names, int n)
{
	if (n <= 0) {
		buf_put(b, "", 0);
		return;
	}
	Host *v = xmalloc(sizeof *v * (size_t)n * 2);
	Range *r = xmalloc(sizeof *r * (size_t)n);
	for (int i = 0; i < n; i++)
		v[i] = host_parse(names[i]);
	/* Most lists come sorted (a switch's children, a rack's nodes): then the stable sort
	 * would leave them as they are, and one pass says so. */
	int in_order = 1;
	while (in_order < n && host_cmp(&v[in_order], &v[in_order - 1]) >= 0)
		in_order++;
	if (in_order < n)
		host_sort(v, v + n, n);
	int nr = 0;
	for (int i = 0; i < n; i++) {
		Range *last = nr ? &r[nr - 1] : NULL;
		if (last && !v[i].single && !last->h->single && same_prefix(last->h, &v[i]) &&
		    v[i].num == last->hi + 1 &&
		    widths_equivalent(last->lo, last->h->width, v[i].num, v[i].width)) {
			last->hi = v[i].num;
			continue;
		}
		r[nr++] = (Range){&v[i], v[i].num, v[i].num};
	}
	for (int i = 0; i < nr;) {
		if (i)
			buf_putc(b, ',');
		const Range *first = &r[i];
		buf_put(b, first->h->name, first->h->plen);
		if (first->h->single) {
			i++;
			continue;
		}
		bool brackets = first->hi > first->lo ||
				(i + 1 < nr && bracketed_together(first, &r[i + 1]));
		if (brackets)
			buf_putc(b, '[');
		do {
			if (&r[i] != first)
				buf_putc(b, ',');
			range_put(b, &r[i]);
			i++;
		} while (i < nr && bracketed_together(&r[i - 1], &r[i]));
		if (brackets)
			buf_putc(b, ']');
	}
	free(r);
	free(v);
}
