/*
 * montecarlo.c — a training run simulated under the assumptions of Daly's closed form
 * (reliability.c): failures a Poisson process of mean time M; `work` s of compute in segments of
 * tau, each followed by a checkpoint of delta; a failure loses the segment under way (and its
 * checkpoint), then a restart of r s, itself interrupted by a failure during it. Each trial's
 * wall time; their mean (with the half-width of its 95 % interval), median and 90th percentile.
 *
 * Seeded and deterministic: splitmix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom
 * Number Generators", OOPSLA 2014), exponential variates by inversion. Fast: the failure-free
 * stretch before a failure is skipped whole (the process is memoryless), so a trial costs one
 * draw per failure, not per segment.
 */
#include "plan.h"

#include <math.h>
#include <stdlib.h>

static unsigned long long splitmix64(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* An exponential variate of mean m: -m ln(1 - u), u uniform in [0, 1) on 53 bits. */
static double draw(unsigned long long *s, double m)
{
	double u = (double)(splitmix64(s) >> 11) * (1.0 / 9007199254740992.0);
	return -m * log1p(-u);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The restart: r s, begun again after each failure that strikes during it. */
static double restart(unsigned long long *s, double r, double mtbf)
{
	double t = 0;
	for (;;) {
		double y = draw(s, mtbf);
		if (y >= r)
			return t + r;
		t += y;
	}
}

/* One run: full segments of tau + delta, then the last (the rest of the work) + delta. */
static double trial(unsigned long long *s, double work, double tau, double delta, double r,
		    double mtbf)
{
	double full = ceil(work / tau - 1e-9) - 1;
	if (full < 0)
		full = 0;
	double seg = tau + delta, last = work - full * tau + delta;
	double t = 0;
	for (;;) {
		double x = draw(s, mtbf);
		if (full > 0) {
			double k = floor(x / seg);
			if (k < full) {
				full -= k;
				t += x; /* k segments done, the one under way lost */
				t += restart(s, r, mtbf);
				continue;
			}
			t += full * seg, x -= full * seg, full = 0; /* memoryless: x goes on */
		}
		if (x >= last)
			return t + last;
		t += x + restart(s, r, mtbf);
	}
}

void montecarlo_run(double work, double tau, double delta, double r, double mtbf, int trials,
		    unsigned long long seed, MonteCarlo *out)
{
	*out = (MonteCarlo){.trials = trials, .seed = seed};
	if (trials <= 0 || !(work > 0) || !(tau > 0) || !(mtbf > 0))
		return;
	double *t = xmalloc(sizeof(double) * (size_t)trials);
	unsigned long long s = seed;
	double sum = 0, sum2 = 0;
	for (int i = 0; i < trials; i++) {
		t[i] = isfinite(mtbf) ? trial(&s, work, tau, delta, r, mtbf)
				      : work + ceil(work / tau - 1e-9) * delta;
		sum += t[i];
	}
	out->mean = sum / trials;
	for (int i = 0; i < trials; i++)
		sum2 += (t[i] - out->mean) * (t[i] - out->mean);
	out->sd = trials > 1 ? sqrt(sum2 / (trials - 1)) : 0;
	out->ci95 = 1.96 * out->sd / sqrt(trials);
	qsort(t, (size_t)trials, sizeof *t, cmp_double);
	/* Percentiles by the nearest rank. */
	out->p50 = t[(int)ceil(0.5 * trials) - 1];
	out->p90 = t[(int)ceil(0.9 * trials) - 1];
	free(t);
}
