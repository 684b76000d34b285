/*
 * cmd_fmt.c — `clusterc fmt FILE... [--check]`: canonical layout in place.
 *
 * A file with syntax errors is left alone (diagnostics, exit 1). A rewritten file is written to
 * a temporary file beside it and renamed over it, keeping its permissions, so an interrupted
 * run never leaves half a file. With --check nothing is written: each file that would change
 * is named on standard output and the exit status is 1. `-` formats standard input to standard
 * output.
 */
#include "driver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_atomically(const char *path, const char *text, size_t len)
{
	struct stat st;
	mode_t mode = stat(path, &st) == 0 ? st.st_mode & 07777 : 0644;
	size_t n = strlen(path);
	char *tmp = xmalloc(n + 16);
	snprintf(tmp, n + 16, "%s.fmt-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "clusterc: cannot write '%s': %s\n", path, strerror(errno));
		free(tmp);
		return EXIT_IO;
	}
	FILE *f = fdopen(fd, "w");
	bool ok = f && fwrite(text, 1, len, f) == len;
	ok = (f ? fclose(f) == 0 : (close(fd), false)) && ok;
	ok = ok && chmod(tmp, mode) == 0 && rename(tmp, path) == 0;
	if (!ok) {
		fprintf(stderr, "clusterc: cannot write '%s': %s\n", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return EXIT_IO;
	}
	free(tmp);
	return EXIT_OK;
}

static int fmt_one(const Options *o, const char *path)
{
	Ctx *c = ctx_new(o->dopt);
	bool io_error = false;
	int rc = EXIT_OK;
	Source *src = src_load(c, path, NOLOC, &io_error);
	File *f = src ? parse_file(c, src) : NULL;
	if (!src) {
		rc = io_error ? EXIT_IO : EXIT_SPEC;
	} else if (!f->parsed_ok) {
		rc = EXIT_SPEC;
	} else {
		size_t len;
		char *out = fmt_file(f, &len);
		bool same = len == src->len && memcmp(out, src->text, len) == 0;
		if (o->fmt_check) {
			if (!same) {
				printf("%s\n", src->path); /* <stdin> for - */
				rc = EXIT_SPEC;
			}
		} else if (strcmp(path, "-") == 0) {
			if (fwrite(out, 1, len, stdout) != len)
				rc = EXIT_IO;
		} else if (!same) {
			rc = write_atomically(path, out, len);
		}
		free(out);
	}
	diag_render(c, stderr);
	ctx_free(c);
	return rc;
}

int cmd_fmt(const Options *o, const char **files, int nfiles)
{
	int rc = EXIT_OK;
	for (int i = 0; i < nfiles; i++) {
		int r = fmt_one(o, files[i]);
		if (r == EXIT_IO || rc == EXIT_OK)
			rc = r ? r : rc;
	}
	if (fflush(stdout) != 0)
		rc = EXIT_IO;
	return rc;
}

int cmd_tokens(const Options *o, const char *path)
{
	Ctx *c = ctx_new(o->dopt);
	bool io_error = false;
	Source *src = src_load(c, path, NOLOC, &io_error);
	int rc = src ? EXIT_OK : io_error ? EXIT_IO : EXIT_SPEC;
	if (src) {
		Buf b = {0};
		lex_dump(c, src, &b);
		if (b.len && fwrite(b.s, 1, b.len, stdout) != b.len)
			rc = EXIT_IO;
		buf_free(&b);
		if (diag_errors(c))
			rc = EXIT_SPEC;
	}
	diag_render(c, stderr);
	ctx_free(c);
	return rc;
}
