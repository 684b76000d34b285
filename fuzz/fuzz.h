/*
 * fuzz.h — what the fuzz targets share: a private temporary directory for the files an input
 * becomes (removed at exit), writing a file, a sink for rendered diagnostics, and the checks
 * of properties every artifact must have (a broken one aborts: libFuzzer reports a crash).
 * Header-only: each target is one translation unit, linked with or without libFuzzer
 * (replay_main.c).
 */
#ifndef CLUSTERC_FUZZ_H
#define CLUSTERC_FUZZ_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char fuzz_dir_path[4096];

static void fuzz_remove(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char sub[4096];
			snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
			fuzz_remove(sub);
		}
		if (d)
			closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static void fuzz_cleanup(void)
{
	if (fuzz_dir_path[0])
		fuzz_remove(fuzz_dir_path);
}

/* The process's temporary directory (in $TMPDIR), made on first use. */
static const char *fuzz_dir(void)
{
	if (!fuzz_dir_path[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/clusterc-fuzz-XXXXXX",
			 t && *t ? t : "/tmp");
		if (!mkdtemp(fuzz_dir_path))
			abort();
		atexit(fuzz_cleanup);
	}
	return fuzz_dir_path;
}

static void fuzz_write(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0)
		abort();
}

static FILE *fuzz_sink(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

/* A diagnostic that says "internal error" is a bug whatever the input. */
static void fuzz_no_internal_error(const Ctx *c)
{
	for (int i = 0; i < c->diags.n; i++) {
		const Diag *d = c->diags.v[i];
		if (strncmp(d->msg, "internal error", 14) == 0) { /* not a quoted "internal error" */
			fprintf(stderr, "internal error diagnostic: %s\n", d->msg);
			abort();
		}
	}
}

/* Whether s, a whole cell, is a number as a spreadsheet reads one (1e308 written out in full
 * is 309 digits). */
static int fuzz_is_number(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	char *buf = malloc(n + 1);
	if (!buf)
		abort();
	memcpy(buf, s, n);
	buf[n] = 0;
	char *end;
	strtod(buf, &end);
	int number = *end == 0;
	free(buf);
	return number;
}

/* Every cell of the CSV text: none starts a formula (= + - @ tab CR) unless a number. */
static void fuzz_check_csv(const char *path, const char *t, size_t n)
{
	size_t i = 0;
	char *cell = malloc(n + 1);
	if (!cell)
		abort();
	while (i <= n) {
		size_t len = 0;
		int quoted = i < n && t[i] == '"';
		char first = 0;
		if (quoted) {
			i++;
			while (i < n) {
				if (t[i] == '"' && i + 1 < n && t[i + 1] == '"') {
					i += 2;
					if (len++ == 0)
						first = '"';
					continue;
				}
				if (t[i] == '"') {
					i++;
					break;
				}
				cell[len] = t[i];
				if (len++ == 0)
					first = t[i];
				i++;
			}
		} else {
			while (i < n && t[i] != ',' && t[i] != '\n') {
				cell[len] = t[i];
				if (len++ == 0)
					first = t[i];
				i++;
			}
		}
		if (len && strchr("=+-@\t\r", first) && !fuzz_is_number(cell, len)) {
			fprintf(stderr, "%s: a cell starts a formula: %.*s\n", path, (int)len, cell);
			abort();
		}
		if (i >= n)
			break;
		i++; /* the ',' or '\n' */
	}
	free(cell);
}

static char *fuzz_slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		abort();
	size_t cap = 65536, len = 0, got;
	char *buf = malloc(cap + 1);
	while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap)
			buf = realloc(buf, (cap *= 2) + 1);
	}
	fclose(f);
	if (!buf)
		abort();
	buf[len] = 0;
	*n = len;
	return buf;
}

/* Whether Markdown text has a '<' outside code spans (CommonMark: a run of n backticks up to
 * the next run of exactly n; what is inside is shown literally; a backslash escapes the next
 * character outside them). */
static int fuzz_md_raw_lt(const char *t, size_t n)
{
	for (size_t i = 0; i < n;) {
		if (t[i] == '<')
			return 1;
		if (t[i] == '\\') { /* an escaped character: never markup, never a fence */
			i += 2;
			continue;
		}
		if (t[i] != '`') {
			i++;
			continue;
		}
		size_t run = 0;
		while (i + run < n && t[i + run] == '`')
			run++;
		size_t j = i + run, close = 0;
		while (j < n && !close) {
			size_t r = 0;
			while (j + r < n && t[j + r] == '`')
				r++;
			if (r == run)
				close = j + r;
			j += r ? r : 1;
		}
		i = close ? close : i + run; /* no closing run: the backticks are text */
	}
	return 0;
}

/* The properties of an output directory: a manifest; CSV cells that are no formulas; no raw
 * '<' in Markdown but in code spans; no <script in HTML. */
static void fuzz_check_output(const char *dir, int top)
{
	DIR *d = opendir(dir);
	if (!d)
		abort();
	int manifest = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(path, &st) != 0)
			abort();
		if (S_ISDIR(st.st_mode)) {
			fuzz_check_output(path, 0);
			continue;
		}
		manifest |= !strcmp(e->d_name, "manifest.json");
		size_t n = strlen(e->d_name), len;
		int csv = n > 4 && !strcmp(e->d_name + n - 4, ".csv");
		int md = n > 3 && !strcmp(e->d_name + n - 3, ".md");
		int html = n > 5 && !strcmp(e->d_name + n - 5, ".html");
		if (!csv && !md && !html)
			continue;
		char *t = fuzz_slurp(path, &len);
		if (csv)
			fuzz_check_csv(path, t, len);
		if (md && fuzz_md_raw_lt(t, len)) {
			fprintf(stderr, "%s: a raw '<' in Markdown\n", path);
			abort();
		}
		if (html && (strstr(t, "<script") || strstr(t, "<SCRIPT"))) {
			fprintf(stderr, "%s: a script in HTML\n", path);
			abort();
		}
		free(t);
	}
	closedir(d);
	if (top && !manifest) {
		fprintf(stderr, "%s: no manifest.json\n", dir);
		abort();
	}
}

#endif
