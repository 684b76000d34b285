/*
 * fuzz_multi.c — specs of several files under a coverage-guided fuzzer (libFuzzer; `make fuzz
 * FUZZ_TARGET=fuzz_multi`). An input is up to 8 files: the text before the first line
 * "--- NAME" is main.cluster, and each such line starts the file NAME (letters, digits, '_',
 * '-', '.' and '/'; at most 48 bytes; no "..") in a fresh directory, where the files import each
 * other (import "b.cluster", import "sub/c.cluster") and the standard library. main.cluster
 * goes through the front end, its diagnostics rendered in both forms. Properties: no crash,
 * leak or sanitizer report, no "internal error" diagnostic; nothing is read outside the
 * directory but the standard library (an import of another place fails to open or is refused).
 */
#include "passes.h"

#include "fuzz.h"

static int name_ok(const char *s, size_t n)
{
	if (n == 0 || n > 48 || s[0] == '/')
		return 0;
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == '.' && s[i + 1] == '.')
			return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./", s[i]))
			return 0;
	return 1;
}

/* Writes dir/name, making its directories. */
static void put(const char *dir, const char *name, const char *text, size_t n)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0777);
		*p = '/';
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		return; /* a name that is a directory already */
	if (n)
		fwrite(text, 1, n, f);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size > 65536)
		return 0;
	static int round;
	char dir[4200];
	snprintf(dir, sizeof dir, "%s/spec", fuzz_dir());
	fuzz_remove(dir);
	if (mkdir(dir, 0777) != 0)
		abort();
	/* Line by line: "--- NAME" ends the file being collected and starts the next. */
	const char *t = (const char *)data, *end = t + size, *start = t;
	char name[64] = "main.cluster";
	int files = 0, ok = 1;
	while (files < 8) {
		const char *nl = memchr(t, '\n', (size_t)(end - t));
		const char *line_end = nl ? nl : end;
		int sep = line_end - t >= 4 && !memcmp(t, "--- ", 4);
		if (sep || !nl) {
			const char *stop = sep ? t : end;
			if (ok)
				put(dir, name, start, (size_t)(stop - start));
			files++;
			if (!sep)
				break;
			size_t n = (size_t)(line_end - t - 4);
			ok = name_ok(t + 4, n);
			if (ok) {
				memcpy(name, t + 4, n);
				name[n] = 0;
			}
			start = nl ? nl + 1 : end;
		}
		if (!nl)
			break;
		t = nl + 1;
	}
	char main_path[4300];
	snprintf(main_path, sizeof main_path, "%s/main.cluster", dir);
	DiagOptions dopt = {.format = round++ % 2 ? DIAG_JSON : DIAG_TEXT,
			    .error_limit = DEFAULT_ERROR_LIMIT};
	Ctx *c = ctx_new(dopt);
	c->stdlib_dir = CLUSTERC_SOURCE_DIR "/stdlib";
	Program p = {.c = c, .dump = -1};
	pipeline_front(&p, main_path, NULL);
	fuzz_no_internal_error(c);
	diag_render(c, fuzz_sink());
	ctx_free(c);
	return 0;
}
