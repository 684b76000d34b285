/*
 * source.c — source files and locations. A Source is the text of one spec file (or of a --set
 * value), checked once on loading so that every later stage may assume well-formed UTF-8 text
 * without NUL bytes, no longer than MAX_FILE_BYTES. Locations are byte spans; line and column
 * are computed only when a diagnostic needs them, by binary search over the line starts.
 *
 * Choices:
 * - A leading UTF-8 byte order mark is dropped before anything else, so offset 0 is the first
 *   character people see and columns on line 1 are not shifted by an invisible character.
 *   Offsets therefore count from after the BOM; the NUL-byte message alone reports offsets in
 *   the file as stored, because it is about the file, not about the text.
 * - "\n" ends a line and "\r\n" ends it too (the "\r" belongs to the line ending, not to the
 *   text src_line() returns). A lone "\r" is ordinary text.
 * - Columns count code points, so a caret under Chinese text lands on the right character; a tab
 *   counts as one column.
 * - Every Source, loaded or made from text, is registered in c->sources; its id is its index.
 * - A directory is reported as an input/output error ("cannot read 'd': Is a directory"), like
 *   any other file the operating system cannot hand over as text; so is anything but a regular
 *   file (a FIFO, a device, a socket: reading one could block forever or never end), which is
 *   opened without blocking and refused. Standard input (`-`) may be a pipe or a terminal.
 * - Shown: diagnostics quote lines only of clusterc sources (Source.shown): standard input,
 *   text made in memory (--set values, sweep overrides) and files whose name, as given and
 *   after symbolic links, ends in ".cluster" (specs) or ".yaml" / ".yml" (sweeps). Any other
 *   file (a spec named otherwise, or x.cluster linking to /etc/shadow) still gets
 *   file:line:col, but none of its text is printed. Imports must name .cluster files (load.c).
 */
#include "lang.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const Loc NOLOC = {NULL, 0, 0};

static const char *display_path(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* Computes the line starts of s->text into the arena. */
static void index_lines(Ctx *c, Source *s)
{
	int n = 1;
	const char *t = s->text, *end = s->text + s->len;
	for (const char *p = t; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
		n++;
	s->lines = arena_alloc(c->arena, (size_t)n * sizeof *s->lines);
	s->lines[0] = 0;
	int i = 1;
	for (const char *p = t; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
		s->lines[i++] = (uint32_t)(p - t + 1);
	s->nlines = n;
}

static Source *src_register(Ctx *c, const char *path, char *text, size_t len)
{
	assert(len <= INT_MAX); /* callers keep to MAX_FILE_BYTES */
	Source *s = arena_alloc(c->arena, sizeof *s);
	s->path = path;
	s->text = text;
	s->len = (uint32_t)len;
	s->id = c->sources.n;
	index_lines(c, s);
	vec_push(c->arena, &c->sources, s);
	return s;
}

/* The Source and its copy of the text live in c's arena. Bytes are taken as they are (no UTF-8
 * check): --set values come from the command line and tests build odd text on purpose. */
Source *src_from_text(Ctx *c, const char *name, const char *text, size_t len)
{
	char *copy = arena_alloc(c->arena, len + 1);
	if (len)
		memcpy(copy, text, len);
	Source *s = src_register(c, arena_strdup(c->arena, name), copy, len);
	s->shown = true;
	return s;
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

/* The line holding byte `off`: the last line whose start is <= off. 0-based. */
static int line_index(const Source *s, uint32_t off)
{
	int lo = 0, hi = s->nlines - 1;
	while (lo < hi) {
		int mid = lo + (hi - lo + 1) / 2;
		if (s->lines[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* Offsets past the end are clamped to the end. Columns count code points: one starts at every
 * byte that is not a UTF-8 continuation byte, and at the line's first byte whatever it is, which
 * gives a sane answer on invalid text too (diag.c counts the same way). */
void src_linecol(const Source *s, uint32_t off, int *line, int *col)
{
	if (off > s->len)
		off = s->len;
	int li = line_index(s, off);
	int cp = 0;
	for (uint32_t i = s->lines[li]; i < off; i++)
		cp += i == s->lines[li] || ((unsigned char)s->text[i] & 0xc0) != 0x80;
	*line = li + 1;
	*col = cp + 1;
}

/* Points into s->text (not NUL-terminated at the line's end); "" with *len 0 for a line number
 * out of range. */
const char *src_line(const Source *s, int line, int *len)
{
	if (line < 1 || line > s->nlines) {
		*len = 0;
		return "";
	}
	uint32_t start = s->lines[line - 1];
	uint32_t end = line < s->nlines ? s->lines[line] : s->len;
	if (end > start && s->text[end - 1] == '\n') {
		end--;
		if (end > start && s->text[end - 1] == '\r')
			end--;
	}
	*len = (int)(end - start);
	return s->text + start;
}

/* From a's start to b's end. A missing location yields the other; spans in different files, or
 * b ending before a starts, yield a. */
Loc loc_span(Loc a, Loc b)
{
	if (!a.src)
		return b;
	if (!b.src || a.src != b.src || b.end < a.off)
		return a;
	return (Loc){a.src, a.off, b.end};
}
