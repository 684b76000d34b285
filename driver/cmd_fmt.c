/*
 * cmd_fmt.c — `clusterc fmt FILE... [--check]`: canonical layout in place.
 *
 * A file with syntax errors is left alone (diagnostics, exit 1). With --check nothing is
 * written: each file that would change is named on standard output and the exit status is 1.
 * `-` formats standard input to standard output.
 *
 * In place means the same file: a symbolic link is followed and its target rewritten (the link
 * stays a link); the inode is kept, so are its owner, group, mode, ACLs and every hard link.
 * Renaming a new file over the old one would break all of those, so the text is first written,
 * and synced, to a private copy beside the target (".NAME.fmt-XXXXXX", mode 0600), and then
 * over the target itself: written from its start, truncated to the new length, synced, and
 * the copy removed. SIGINT, SIGTERM, SIGHUP and SIGTSTP are held back during that last step,
 * so only SIGKILL or a crash can cut it short, and then the copy still holds the whole new
 * text; the next fmt of the file names such a copy rather than guess which text is wanted.
 * A write that fails half way (a full disk) puts the old text back.
 */
#include "driver.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fmt_error(const char *path, const char *what, int err)
{
	fprintf(stderr, "clusterc: cannot %s '%s': %s\n", what, path, strerror(err));
	return EXIT_IO;
}

/* The directory of real (a canonical path) with its '/', and its last component. */
static void split_path(const char *real, char **dir, const char **base)
{
	const char *slash = strrchr(real, '/');
	size_t n = slash ? (size_t)(slash - real) + 1 : 0;
	*dir = xmalloc(n + 1);
	memcpy(*dir, real, n);
	(*dir)[n] = 0;
	*base = slash ? slash + 1 : real;
}

/* Names a copy an interrupted fmt left beside real, if any (a warning; nothing is touched). */
static void report_leftover(const char *real)
{
	char *dir;
	const char *base;
	split_path(real, &dir, &base);
	DIR *dp = opendir(*dir ? dir : ".");
	size_t nb = strlen(base);
	struct dirent *e;
	while (dp && (e = readdir(dp)))
		if (e->d_name[0] == '.' && strncmp(e->d_name + 1, base, nb) == 0 &&
		    strncmp(e->d_name + 1 + nb, ".fmt-", 5) == 0 && strlen(e->d_name + 6 + nb) == 6)
			fprintf(stderr,
				"clusterc: warning: '%s%s' was left by an interrupted clusterc fmt: it "
				"holds the formatted text of '%s'; compare, then remove it\n",
				dir, e->d_name, real);
	if (dp)
		closedir(dp);
	free(dir);
}

/* Reads all of fd from its start into a heap buffer (the bytes to put back). */
static char *read_back(int fd, size_t size, size_t *len)
{
	char *buf = xmalloc(size + 1);
	*len = fdio_read_all(fd, buf, size, 0);
	return buf;
}

/* Rewrites the file at path (through symbolic links) with text, in the same inode (see the
 * top of the file). */
static int rewrite_in_place(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return fmt_error(path, "write", errno);
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return fmt_error(path, "write", errno ? errno : EINVAL);
	}
	size_t oldlen;
	char *old = read_back(fd, (size_t)st.st_size, &oldlen);
	char *real = realpath(path, NULL);
	char *dir = NULL, *copy = NULL;
	const char *base = NULL;
	if (real) {
		report_leftover(real);
		split_path(real, &dir, &base);
		size_t n = strlen(dir) + strlen(base) + 16;
		copy = xmalloc(n);
		snprintf(copy, n, "%s.%s.fmt-XXXXXX", dir, base);
	}
	/* The copy: a directory we cannot write in only costs it (the rewrite is then unguarded
	 * against SIGKILL, still against everything else). */
	int cfd = copy ? mkstemp(copy) : -1;
	if (cfd >= 0) {
		int err = fdio_write_all(cfd, text, len, 0);
		if (!err && fsync(cfd) != 0)
			err = errno;
		close(cfd);
		if (err) {
			unlink(copy);
			free(copy);
			free(dir);
			free(real);
			free(old);
			close(fd);
			return fmt_error(path, "write a copy beside", err);
		}
	} else {
		free(copy);
		copy = NULL;
	}
	sigset_t hold, was;
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGTSTP);
	sigprocmask(SIG_BLOCK, &hold, &was);
	int err = fdio_write_all(fd, text, len, 0);
	if (!err && ftruncate(fd, (off_t)len) != 0)
		err = errno;
	if (!err && fsync(fd) != 0 && errno != EINVAL)
		err = errno;
	if (err) {
		/* Put the old text back; the copy stays when that fails too. */
		bool back = fdio_write_all(fd, old, oldlen, 0) == 0 && ftruncate(fd, (off_t)oldlen) == 0;
		if (back && copy)
			unlink(copy);
		else if (copy)
			fprintf(stderr, "clusterc: '%s' may be incomplete; its formatted text is in '%s'\n",
				path, copy);
	} else if (copy) {
		unlink(copy);
	}
	if (close(fd) != 0 && !err)
		err = errno;
	sigprocmask(SIG_SETMASK, &was, NULL);
	free(old);
	free(copy);
	free(dir);
	free(real);
	return err ? fmt_error(path, "write", err) : EXIT_OK;
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
			rc = rewrite_in_place(path, out, len);
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
