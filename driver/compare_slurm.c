/*
 * compare_slurm.c — a sweep past one machine (docs/comparison.md, "Slurm"): the rows of
 * `clusterc compare` built as a Slurm job array, each task a shard of the rows, and a merge
 * that writes the comparison files exactly as a local run does.
 *
 * A shard (`--shard I/N -o FILE`) builds the rows whose index (base 0, then the scenarios and
 * points in order) is I modulo N, and writes what each row's build sent back, unparsed, in
 * frames: "clusterc-row INDEX BYTES\n", the bytes, "\n". The merge (`--merge DIR`) reads every
 * DIR/NAME.rows, takes each row's frame in place of its build, and goes on as a local run goes on
 * from its builds' output: the same bytes in, the same files out. `--slurm DIR` writes
 * DIR/compare.sbatch (the array: one task a shard) and DIR/merge.sbatch (the merge, into the
 * -o DIR of the command); `--submit` hands both to sbatch, the merge after the array
 * (--dependency=afterok). Paths in the scripts are absolute; arguments are quoted for sh.
 */
#include "driver.h"
#include "compare_slurm.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- shards ------------------------------------------------------------------------------- */

int compare_slurm_shard_write(const char *path, const int *index, Buf *const *out, int n)
{
	Buf tmp = {0};
	buf_printf(&tmp, "%s.tmp%ld", path, (long)getpid());
	FILE *f = fopen(tmp.s, "wb");
	if (!f) {
		fprintf(stderr, "clusterc: cannot write %s: %s\n", tmp.s, strerror(errno));
		buf_free(&tmp);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		fprintf(f, "clusterc-row %d %zu\n", index[i], out[i]->len);
		if (out[i]->len)
			fwrite(out[i]->s, 1, out[i]->len, f);
		fputc('\n', f);
	}
	int rc = ferror(f) | fclose(f);
	if (rc == 0 && rename(tmp.s, path) != 0)
		rc = -1;
	if (rc != 0) {
		fprintf(stderr, "clusterc: cannot write %s: %s\n", path, strerror(errno));
		remove(tmp.s);
	}
	buf_free(&tmp);
	return rc ? -1 : 0;
}

/* One shard file's frames into out[index]. Returns -1 (said why) when it is not one. */
static int shard_read_file(const char *path, Buf *out, bool *have, int n)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "clusterc: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = 0, index;
	size_t len;
	while (rc == 0) {
		int got = fscanf(f, "clusterc-row %d %zu", &index, &len);
		if (got == EOF)
			break;
		if (got != 2 || fgetc(f) != '\n' || index < 0 || index >= n || have[index] ||
		    len > ((size_t)1 << 30)) {
			fprintf(stderr, "clusterc: %s: not a shard of this comparison (a row %d%s)\n",
				path, index, index >= 0 && index < n && have[index] ? " twice" : "");
			rc = -1;
			break;
		}
		char *s = xmalloc(len + 1);
		if (fread(s, 1, len, f) != len || fgetc(f) != '\n') {
			fprintf(stderr, "clusterc: %s: row %d is cut short\n", path, index);
			free(s);
			rc = -1;
			break;
		}
		buf_put(&out[index], s, len);
		free(s);
		have[index] = true;
	}
	fclose(f);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int compare_slurm_shard_read(const char *dir, Buf *out, int n)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "clusterc: cannot read %s: %s\n", dir, strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t nn = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len > 5 && !strcmp(e->d_name + len - 5, ".rows")) {
			names = realloc(names, sizeof *names * (nn + 1));
			if (!names)
				die_oom();
			Buf p = {0};
			buf_printf(&p, "%s/%s", dir, e->d_name);
			names[nn++] = p.s;
		}
	}
	closedir(d);
	qsort(names, nn, sizeof *names, by_name);
	bool *have = calloc((size_t)n + 1, 1);
	if (!have)
		die_oom();
	int rc = 0;
	for (size_t i = 0; i < nn; i++) {
		if (rc == 0)
			rc = shard_read_file(names[i], out, have, n);
		free(names[i]);
	}
	free(names);
	for (int i = 0; i < n && rc == 0; i++)
		if (!have[i]) {
			fprintf(stderr, "clusterc: %s: no shard holds row %d (of %d): a task of the "
					"array did not finish\n", dir, i, n);
			rc = -1;
		}
	free(have);
	return rc;
}

/* ---- the job array ------------------------------------------------------------------------ */

/* s quoted for sh: 'it'\''s'. */
static void sh_quote(Buf *b, const char *s)
{
	buf_putc(b, '\'');
	for (; *s; s++)
		if (*s == '\'')
			buf_puts(b, "'\\''");
		else
			buf_putc(b, *s);
	buf_putc(b, '\'');
}

static void arg(Buf *b, const char *opt, const char *value)
{
	buf_printf(b, " %s ", opt);
	sh_quote(b, value);
}

/* path made absolute against the working directory (it need not exist yet). */
static char *absolute(const char *path)
{
	Buf b = {0};
	if (path[0] == '/') {
		buf_puts(&b, path);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof cwd))
			return NULL;
		buf_printf(&b, "%s/%s", cwd, path);
	}
	return b.s;
}

/* The command every script runs: this clusterc, the spec and the options that choose rows. */
static void command(Buf *b, const Options *o, const char *spec, const char *self)
{
	sh_quote(b, self);
	buf_puts(b, " compare -q");
	if (o->stdlib) {
		buf_puts(b, " ");
		Buf t = {0};
		buf_printf(&t, "--stdlib=%s", o->stdlib);
		sh_quote(b, t.s);
		buf_free(&t);
	}
	for (int i = 0; i < o->nsets; i++)
		arg(b, "--set", o->sets[i].text);
	if (o->scenarios)
		arg(b, "--scenarios", o->scenarios);
	if (o->objectives)
		arg(b, "--objectives", o->objectives);
	if (o->time_limit > 0)
		buf_printf(b, " --time-limit %g", o->time_limit);
	if (o->exhaustive)
		buf_puts(b, " --search=exhaustive");
	arg(b, "--sweep", o->sweep);
	buf_putc(b, ' ');
	sh_quote(b, spec);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "clusterc: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	chmod(path, 0755);
	return 0;
}

int compare_slurm_write(const Options *o, const char *spec, int nrows, const char *dir, int *tasks)
{
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len <= 0) {
		fprintf(stderr, "clusterc: cannot tell where clusterc is (/proc/self/exe)\n");
		return -1;
	}
	self[len] = 0;
	/* The spec, the sweep and -o as given, from the working directory (--chdir): the files
	 * name the spec as the command was given it, as a local run's do. */
	char *adir = absolute(dir), *aspec = strdup(spec), *out = strdup(o->output ? o->output : "compare");
	char cwd[PATH_MAX];
	if (!adir || !aspec || !out || !getcwd(cwd, sizeof cwd)) {
		fprintf(stderr, "clusterc: cannot tell the working directory: %s\n", strerror(errno));
		free(adir), free(aspec), free(out);
		return -1;
	}
	/* A task builds ROWS_PER_TASK rows (about a minute of the flagship's): fewer tasks than
	 * that leave the scheduler's overhead to dominate; more rows per task, the array's
	 * parallelism. At most MAX_TASKS tasks (Slurm's default MaxArraySize is 1001). */
	enum { ROWS_PER_TASK = 32, MAX_TASKS = 1000 };
	int n = (nrows + ROWS_PER_TASK - 1) / ROWS_PER_TASK;
	n = n < 1 ? 1 : n > MAX_TASKS ? MAX_TASKS : n;
	*tasks = n;
	Buf shards = {0}, logs = {0};
	buf_printf(&shards, "%s/shards", adir);
	buf_printf(&logs, "%s/logs", adir);
	int rc = 0;
	if ((mkdir(adir, 0777) && errno != EEXIST) || (mkdir(shards.s, 0777) && errno != EEXIST) ||
	    (mkdir(logs.s, 0777) && errno != EEXIST)) {
		fprintf(stderr, "clusterc: cannot make %s: %s\n", adir, strerror(errno));
		rc = -1;
	}
	Buf a = {0}, m = {0};
	buf_printf(&a, "#!/bin/sh\n# Written by clusterc compare --slurm: %d rows in %d tasks; each "
		       "task builds the rows\n# whose index is its own modulo %d into shards/TASK.rows "
		       "(docs/comparison.md, \"Slurm\").\n", nrows, n, n);
	buf_puts(&a, "#SBATCH --job-name=clusterc-compare\n");
	buf_printf(&a, "#SBATCH --array=0-%d\n", n - 1);
	buf_puts(&a, "#SBATCH --chdir=");
	buf_puts(&a, cwd);
	buf_printf(&a, "\n#SBATCH --output=%s/%%a.out\nset -eu\n", logs.s);
	buf_puts(&a, "exec ");
	command(&a, o, aspec, self);
	buf_printf(&a, " --shard \"$SLURM_ARRAY_TASK_ID/%d\" -o ", n);
	sh_quote(&a, shards.s);
	buf_puts(&a, "/\"$(printf %05d \"$SLURM_ARRAY_TASK_ID\")\".rows\n");
	buf_puts(&m, "#!/bin/sh\n# Written by clusterc compare --slurm: the comparison from the "
		     "shards, into -o DIR, as a\n# local run writes it (after the array: sbatch "
		     "--dependency=afterok:ARRAY_JOB).\n#SBATCH --job-name=clusterc-merge\n");
	buf_printf(&m, "#SBATCH --chdir=%s\n#SBATCH --output=%s/merge.out\nset -eu\nexec ", cwd, logs.s);
	command(&m, o, aspec, self);
	buf_puts(&m, " --merge ");
	sh_quote(&m, shards.s);
	buf_puts(&m, " --force -o ");
	sh_quote(&m, out);
	buf_putc(&m, '\n');
	Buf pa = {0}, pm = {0};
	buf_printf(&pa, "%s/compare.sbatch", adir);
	buf_printf(&pm, "%s/merge.sbatch", adir);
	if (rc == 0)
		rc = write_file(pa.s, a.s) | write_file(pm.s, m.s);
	buf_free(&a), buf_free(&m), buf_free(&pa), buf_free(&pm), buf_free(&shards), buf_free(&logs);
	free(adir), free(aspec), free(out);
	return rc ? -1 : 0;
}

/* sbatch --parsable ARGS... SCRIPT; the job id it prints into id. */
static int sbatch(const char *dependency, const char *script, char *id, size_t idlen)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		if (dependency)
			execlp("sbatch", "sbatch", "--parsable", dependency, script, (char *)NULL);
		else
			execlp("sbatch", "sbatch", "--parsable", script, (char *)NULL);
		fprintf(stderr, "clusterc: cannot run sbatch: %s\n", strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	ssize_t got = read(fds[0], id, idlen - 1);
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	id[got > 0 ? got : 0] = 0;
	id[strcspn(id, ";\n")] = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 && id[0] ? 0 : -1;
}

int compare_slurm_submit(const char *dir, bool quiet)
{
	Buf pa = {0}, pm = {0}, dep = {0};
	buf_printf(&pa, "%s/compare.sbatch", dir);
	buf_printf(&pm, "%s/merge.sbatch", dir);
	char array[64], merge[64];
	int rc = sbatch(NULL, pa.s, array, sizeof array);
	if (rc == 0) {
		buf_printf(&dep, "--dependency=afterok:%s", array);
		rc = sbatch(dep.s, pm.s, merge, sizeof merge);
	}
	if (rc == 0 && !quiet)
		printf("submitted: array job %s, merge job %s\n", array, merge);
	if (rc != 0)
		fprintf(stderr, "clusterc: sbatch did not take %s\n", rc ? (dep.s ? pm.s : pa.s) : "");
	buf_free(&pa), buf_free(&pm), buf_free(&dep);
	return rc;
}
