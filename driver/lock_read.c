/*
 * lock_read.c — `clusterc build SPEC --from OLD_DIR`: OLD_DIR/clusterc.lock read back into the
 * Prior the passes keep (passes/design/expand.c). backends/network/lock.c writes the file and
 * says its format; docs/daytwo.md gives it to users.
 *
 * Bad input never reaches the passes: OLD_DIR missing or not a directory, or without
 * clusterc.lock (not a clusterc build, or one older than the lock), is an input error (74); a
 * lock of another format or a damaged row is an error at its file:line:col (1). Nothing is
 * written either way: the build stops before its output directory is opened.
 */
#include "daytwo.h"
#include "driver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { LOCK_COLS = 17 };

static const char *const lock_cols[LOCK_COLS] = {
	"record", "name", "kind", "model", "fabric", "tier", "rack", "row", "pos", "u",
	"a_device", "a_port", "a_port_name", "z_device", "z_port", "z_port_name", "detail"};

enum { C_RECORD, C_NAME, C_KIND, C_MODEL, C_FABRIC, C_TIER, C_RACK, C_ROW, C_POS, C_U,
       C_A_DEVICE, C_A_PORT, C_A_PORT_NAME, C_Z_DEVICE, C_Z_PORT, C_Z_PORT_NAME, C_DETAIL };

/* Field col of row r as a whole number >= 0 (an error at it otherwise). */
static bool lock_int(Ctx *c, const CsvTable *t, int r, int col, int *out)
{
	const char *s = t->rows[r].field[col];
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < 0 || v > (1L << 30)) {
		diag_error(c, csv_loc(t, r, col), "'%s' is not a %s (a whole number)", s,
			   lock_cols[col]);
		return false;
	}
	*out = (int)v;
	return true;
}

/* "KEY=N" in a fabric's detail, or -1. */
static int detail_int(const char *detail, const char *key)
{
	size_t n = strlen(key);
	for (const char *s = detail; (s = strstr(s, key)); s += n)
		if ((s == detail || s[-1] == ' ') && s[n] == '=')
			return atoi(s + n + 1);
	return -1;
}

/* A field that must not be empty. */
static bool lock_name(Ctx *c, const CsvTable *t, int r, int col)
{
	if (*t->rows[r].field[col])
		return true;
	diag_error(c, csv_loc(t, r, col), "a %s row needs its %s", t->rows[r].field[C_RECORD],
		   lock_cols[col]);
	return false;
}

#define GROW(v, n, cap)                                                                   \
	do {                                                                              \
		if ((n) == (cap)) {                                                       \
			(cap) = (cap) ? 2 * (cap) : 64;                                   \
			void *nv_ = arena_alloc(c->arena, sizeof *(v) * (size_t)(cap));   \
			if (n)                                                            \
				memcpy(nv_, (v), sizeof *(v) * (size_t)(n));              \
			(v) = nv_;                                                        \
		}                                                                         \
	} while (0)

/* One row of the lock into p; false after a diagnostic. */
static bool lock_row(Ctx *c, const CsvTable *t, int r, Prior *p, int caps[4])
{
	const char **f = (const char **)t->rows[r].field;
	const char *rec = f[C_RECORD];
	if (!strcmp(rec, "cluster")) {
		p->cluster = f[C_NAME];
		p->cluster_loc = csv_loc(t, r, C_NAME);
		return lock_name(c, t, r, C_NAME);
	}
	if (!strcmp(rec, "fabric")) {
		GROW(p->fabrics, p->nfabrics, caps[0]);
		PriorFabric *x = &p->fabrics[p->nfabrics++];
		*x = (PriorFabric){f[C_NAME], f[C_KIND], f[C_MODEL], detail_int(f[C_DETAIL], "rails"),
				   detail_int(f[C_DETAIL], "planes"), detail_int(f[C_DETAIL], "tiers"),
				   detail_int(f[C_DETAIL], "su"), csv_loc(t, r, C_NAME)};
		return lock_name(c, t, r, C_NAME) && lock_name(c, t, r, C_KIND);
	}
	if (!strcmp(rec, "rack")) {
		GROW(p->racks, p->nracks, caps[1]);
		PriorRack *x = &p->racks[p->nracks++];
		x->name = f[C_NAME];
		return lock_name(c, t, r, C_NAME) && lock_int(c, t, r, C_ROW, &x->row) &&
		       lock_int(c, t, r, C_POS, &x->pos);
	}
	if (!strcmp(rec, "device")) {
		GROW(p->devices, p->ndevices, caps[2]);
		PriorDevice *x = &p->devices[p->ndevices++];
		*x = (PriorDevice){f[C_NAME], f[C_KIND], f[C_MODEL], f[C_RACK], 0};
		return lock_name(c, t, r, C_NAME) && lock_name(c, t, r, C_RACK) &&
		       lock_int(c, t, r, C_U, &x->u);
	}
	if (!strcmp(rec, "cable")) {
		GROW(p->cables, p->ncables, caps[3]);
		PriorCable *x = &p->cables[p->ncables++];
		*x = (PriorCable){f[C_NAME], f[C_FABRIC], f[C_TIER], f[C_A_DEVICE], f[C_Z_DEVICE], 0, 0,
				  f[C_A_PORT_NAME], f[C_Z_PORT_NAME]};
		return lock_name(c, t, r, C_NAME) && lock_name(c, t, r, C_FABRIC) &&
		       lock_name(c, t, r, C_A_DEVICE) && lock_name(c, t, r, C_Z_DEVICE) &&
		       lock_int(c, t, r, C_A_PORT, &x->a_port) && lock_int(c, t, r, C_Z_PORT, &x->z_port);
	}
	diag_error(c, csv_loc(t, r, C_RECORD),
		   "unknown record '%s' (a lock has lock, cluster, fabric, rack, device and cable rows)",
		   rec);
	return false;
}

const Prior *lock_read(Ctx *c, const char *dir, int *rc)
{
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		diag_error(c, NOLOC, "--from %s: %s", dir,
			   stat(dir, &st) != 0 ? strerror(errno) : "not a directory");
		*rc = EXIT_IO;
		return NULL;
	}
	const char *path = arena_printf(c->arena, "%s/clusterc.lock", dir);
	if (stat(path, &st) != 0) {
		diag_error(c, NOLOC, "--from %s: no clusterc.lock there: not the output of `clusterc "
				     "build` (every build writes one)", dir);
		*rc = EXIT_IO;
		return NULL;
	}
	bool io = false;
	CsvTable *t = csv_load(c, dir, "clusterc.lock", &io);
	*rc = io ? EXIT_IO : EXIT_SPEC;
	if (!t)
		return NULL;
	for (int i = 0; i < LOCK_COLS; i++)
		if (i >= t->ncols || strcmp(t->cols[i], lock_cols[i])) {
			diag_error(c, (Loc){t->src, 0, 0},
				   "not a clusterc.lock header: column %d should be '%s'", i + 1,
				   lock_cols[i]);
			return NULL;
		}
	if (t->nrows == 0 || strcmp(t->rows[0].field[C_RECORD], "lock") ||
	    strcmp(t->rows[0].field[C_NAME], "clusterc.lock/1")) {
		diag_error(c, t->nrows ? csv_loc(t, 0, C_NAME) : (Loc){t->src, 0, 0},
			   "this lock is not clusterc.lock/1, the format this clusterc reads");
		return NULL;
	}
	Prior *p = arena_alloc(c->arena, sizeof *p);
	*p = (Prior){.dir = dir};
	int caps[4] = {0}, errors = 0;
	for (int r = 1; r < t->nrows && !diag_limit_reached(c); r++)
		errors += !lock_row(c, t, r, p, caps);
	if (!p->cluster && !errors) {
		diag_error(c, (Loc){t->src, 0, 0}, "this lock names no cluster (a cluster row)");
		errors++;
	}
	if (errors)
		return NULL;
	*rc = EXIT_OK;
	return p;
}
