/*
 * src_load.c — reading a spec or sweep file into a Source (source.c), with the diagnostics of
 * files that cannot be read as text: missing, a directory or other non-regular file, too
 * large, NUL bytes, invalid UTF-8. The choices are source.c's (its header comment); this file
 * is apart so that diagnostics (diag.c), which quote Sources, and loading, which reports
 * through diagnostics, do not call each other.
 */
#include "lang.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *display_path(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n > k && strcmp(s + n - k, suffix) == 0;
}

bool src_is_clusterc_name(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	return n && (ends_with(path, n, ".cluster") || ends_with(path, n, ".yaml") ||
		     ends_with(path, n, ".yml"));
}

/* Reads all of fd, at most MAX_FILE_BYTES + 1 bytes so an endless or huge input (a pipe,
 * /dev/zero) stops early. `hint` is the size fstat reported, or 0. Returns a heap buffer the
 * caller frees, with its length in *len, or NULL with errno set. */
static char *read_all(int fd, size_t hint, size_t *len)
{
	const size_t most = (size_t)MAX_FILE_BYTES + 1;
	size_t cap = hint ? hint + 1 : 65536, n = 0;
	if (cap > most)
		cap = most;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n == cap) {
			if (cap == most)
				break;
			cap = cap > most / 2 ? most : cap * 2;
			buf = xrealloc(buf, cap);
		}
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			errno = e;
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	*len = n;
	return buf;
}

/* Length of the UTF-8 sequence starting at p (at most n bytes available), or 0 when it is not
 * well formed: overlong forms, surrogates and code points above U+10FFFF are rejected
 * (RFC 3629). */
static int utf8_seq_len(const unsigned char *p, size_t n)
{
	unsigned char b = p[0];
	if (b < 0x80)
		return 1;
	int len;
	unsigned char lo = 0x80, hi = 0xbf;
	if (b >= 0xc2 && b <= 0xdf) {
		len = 2;
	} else if (b >= 0xe0 && b <= 0xef) {
		len = 3;
		if (b == 0xe0)
			lo = 0xa0;
		else if (b == 0xed)
			hi = 0x9f;
	} else if (b >= 0xf0 && b <= 0xf4) {
		len = 4;
		if (b == 0xf0)
			lo = 0x90;
		else if (b == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if ((size_t)len > n)
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (int i = 2; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* Returns the offset of the first byte that is not well-formed UTF-8, or -1 when all is well;
 * *line and *col then say where it is (1-based, col in code points). */
static long utf8_check(const char *text, size_t len, int *line, int *col)
{
	const unsigned char *t = (const unsigned char *)text;
	size_t line_start = 0, i = 0;
	int ln = 1;
	while (i < len) {
		if (t[i] < 0x80) {
			if (t[i] == '\n') {
				ln++;
				line_start = i + 1;
			}
			i++;
			continue;
		}
		int n = utf8_seq_len(t + i, len - i);
		if (n == 0) {
			int cp = 0;
			for (size_t j = line_start; j < i; j++)
				cp += (t[j] & 0xc0) != 0x80;
			*line = ln;
			*col = cp + 1;
			return (long)i;
		}
		i += (size_t)n;
	}
	return -1;
}

/* Opens and reads path into a heap buffer the caller frees; NULL after a diagnostic. */
static char *read_file(Ctx *c, const char *path, const char *shown, Loc from, bool *io_error,
		       size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	/* O_NONBLOCK: opening a FIFO with no writer would wait forever; what is not a regular
	 * file is refused below. It does nothing to a regular file's reads. */
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		diag_set_code(diag_error(c, from, "cannot open '%s': %s", shown, strerror(errno)), "io");
		*io_error = true;
		return NULL;
	}
	struct stat st;
	bool have_st = fstat(fd, &st) == 0;
	bool regular = have_st && S_ISREG(st.st_mode);
	char *buf = NULL;
	if (have_st && S_ISDIR(st.st_mode)) {
		diag_set_code(diag_error(c, from, "cannot read '%s': %s", shown, strerror(EISDIR)), "io");
		*io_error = true;
	} else if (!is_stdin && have_st && !regular) {
		const char *what = S_ISFIFO(st.st_mode)  ? "a FIFO"
				   : S_ISCHR(st.st_mode) ? "a character device"
				   : S_ISBLK(st.st_mode) ? "a block device"
				   : S_ISSOCK(st.st_mode) ? "a socket"
							  : "not a regular file";
		diag_set_code(diag_error(c, from,
					 "cannot read '%s': %s, not a regular file (use - for standard "
					 "input)",
					 shown, what), "io");
		*io_error = true;
	} else if (regular && st.st_size > MAX_FILE_BYTES) {
		diag_set_code(diag_error(c, from, "'%s' is too large (%.1f MiB; the limit is %d MiB)",
					 shown, (double)st.st_size / (1 << 20), MAX_FILE_BYTES >> 20),
			      "limit");
	} else {
		buf = read_all(fd, regular ? (size_t)st.st_size : 0, len);
		if (!buf) {
			diag_set_code(diag_error(c, from, "cannot read '%s': %s", shown, strerror(errno)),
				      "io");
			*io_error = true;
		} else if (*len > MAX_FILE_BYTES) {
			/* A pipe, or a file that grew while we read it: its size is unknown. */
			int mib = MAX_FILE_BYTES >> 20;
			diag_set_code(diag_error(c, from,
						 "'%s' is too large (more than %d MiB; the limit is %d MiB)",
						 shown, mib, mib), "limit");
			free(buf);
			buf = NULL;
		}
	}
	if (!is_stdin)
		close(fd);
	return buf;
}

/* Checks that text is a spec rather than binary data or text in another encoding; false after
 * a diagnostic. */
static bool check_text(Ctx *c, const char *text, size_t len, const char *shown, Loc from)
{
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		diag_set_code(diag_error(c, from,
					 "'%s' is a binary file (NUL byte at offset %ld), not a clusterc spec",
					 shown, (long)(nul - text)), "encoding");
		return false;
	}
	size_t bom = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	int line, col;
	long bad = utf8_check(text + bom, len - bom, &line, &col);
	if (bad >= 0) {
		diag_set_code(diag_error(c, from, "'%s': invalid UTF-8 at line %d, column %d (byte 0x%02x)",
					 shown, line, col, (unsigned char)text[bom + (size_t)bad]),
			      "encoding");
		return false;
	}
	return true;
}

/* The messages name the file near their start, so they read well both at an import's location
 * and on their own as command-line errors (from.src == NULL). The Source, its path, text and
 * line index live in c's arena; NULL after a diagnostic. */
Source *src_load(Ctx *c, const char *path, Loc from, bool *io_error)
{
	const char *shown = display_path(path);
	bool io = false;
	size_t len;
	char *buf = read_file(c, path, shown, from, &io, &len);
	if (io_error)
		*io_error = io;
	if (!buf)
		return NULL;
	if (!check_text(c, buf, len, shown, from)) {
		free(buf);
		return NULL;
	}
	size_t bom = len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	char *text = arena_alloc(c->arena, len - bom + 1);
	memcpy(text, buf + bom, len - bom);
	free(buf);

	Source *s = src_register(c, arena_strdup(c->arena, shown), text, len - bom);
	s->shown = strcmp(path, "-") == 0;
	if (strcmp(path, "-") != 0) {
		char *real = realpath(path, NULL);
		/* Without a canonical path (the file vanished meanwhile), the path as given still
		 * identifies the file within this run. */
		s->abspath = arena_strdup(c->arena, real ? real : path);
		s->shown = real && src_is_clusterc_name(path) && src_is_clusterc_name(real);
		free(real);
	}
	return s;
}
