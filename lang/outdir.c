/*
 * outdir.c — the output directory's protocol (docs/output.md): how `build -o DIR` and
 * `compare -o DIR` replace DIR so that, whatever happens to the process, DIR is the previous
 * output or the new one, whole, and nothing is left beside it for long.
 *
 *  1. The lock. ".DIR.lock" beside DIR is flock()ed, without waiting: a second clusterc
 *     writing the same DIR fails at once (exit 75) rather than interleaving with the first.
 *     The holder unlinks the file before it lets go; a process that opened the file before
 *     that finds, once it holds the lock, that the path names another file (or none) and
 *     starts again, so two processes never both believe they hold it.
 *  2. Litter. Holding the lock proves that no other clusterc is using ".DIR.tmp-XXXXXX" or
 *     ".DIR.old-XXXXXX": those left by a run that was killed are removed, but only when they
 *     are ours: an ownership token inside bound to the directory itself, or empty. When DIR
 *     is missing and such a directory holds a complete output (a crash between the two
 *     renames of the fallback swap below), it is renamed back to DIR first.
 *  3. Ownership. A token on every directory clusterc makes: its state (pending, complete,
 *     removing), the directory's device and inode numbers, the SHA-256 of its manifest.json,
 *     and a SHA-256 over those lines. It is the extended attribute TOKEN_XATTR of the
 *     directory, so DIR holds exactly the files its manifest lists; where the file system
 *     has no user attributes (NFSv3, FAT, old tmpfs) it is the file TOKEN inside instead.
 *     A copy of the manifest, of the token or of the whole directory (cp -a copies the
 *     attribute) lives at another inode, so it does not verify: a DIR that is not empty is
 *     ours only when its token verifies, its manifest is the one the token names and every
 *     file in it is one the manifest lists (at its size). Anything else is replaced only with
 *     --force. (Against someone who forges a token on purpose nothing short of a secret would
 *     do; the token guards against mistakes, not malice.)
 *  4. The swap. The new output is made in ".DIR.tmp-XXXXXX" (token pending), its manifest
 *     written, its token made complete, and then renameat2(RENAME_EXCHANGE) swaps it with DIR
 *     in one step; the previous output, now under the temporary name, is marked removing and
 *     removed (its token last). On a file system without RENAME_EXCHANGE, DIR is renamed to
 *     ".DIR.old-XXXXXX" and the new one into place: step 2 repairs a crash in between.
 *  5. Signals. While a DIR is being written, SIGINT, SIGTERM and SIGHUP (unless ignored) are
 *     caught by a handler that only writes the signal's number to a pipe; a thread reading
 *     the pipe stops the writing (outdir_interrupted), removes the temporary directory and
 *     the lock under the same mutex the swap holds, and dies of the same signal. SIGKILL
 *     cannot be caught: step 2 of the next run cleans up after it.
 *
 * No fsync: the protocol holds when the process dies at any point, not when the machine loses
 * power (the kernel still writes what was written).
 */
#define _GNU_SOURCE /* renameat2, pipe2 */
#include "lang.h"
#include "hash.h"
#include "json.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define TOKEN OUTDIR_TOKEN
#define TOKEN_XATTR "user.clusterc.output"
#define TOKEN_MAGIC "clusterc.output/1"
#define MANIFEST "manifest.json"
#define MANIFEST_SCHEMA "clusterc.manifest/1"
enum { TOKEN_MAX = 1024, LOCK_TRIES = 64, REMOVE_TRIES = 64 };

typedef enum { TOKEN_PENDING, TOKEN_COMPLETE, TOKEN_REMOVING } TokenState;
static const char *const token_states[] = {"pending", "complete", "removing"};

struct OutDir {
	Ctx *c;
	char *dir;       /* as given, trailing '/' removed */
	char *prefix;    /* DIR's parent with its '/', or "" */
	char *base;      /* DIR's last component */
	char *lock;      /* .DIR.lock */
	int lock_fd;     /* -1 when not held */
	char *tmp;       /* the new output; NULL once in place */
	char *aside;     /* the previous output while it is removed, or NULL */
	pthread_mutex_t mu; /* the swap and the signal thread's clean-up, one at a time */
	bool guarded;
};

static Diag *io_error(Ctx *c, const char *what, const char *path, int err)
{
	Diag *d = diag_error(c, NOLOC, "%s '%s': %s", what, path, strerror(err));
	diag_set_code(d, "io");
	return d;
}

static char *join(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *s = xmalloc(na + nb + 2);
	memcpy(s, a, na);
	s[na] = '/';
	memcpy(s + na + 1, b, nb + 1);
	return s;
}

static char *sibling(const OutDir *od, const char *suffix)
{
	size_t n = strlen(od->prefix) + strlen(od->base) + strlen(suffix) + 2;
	char *s = xmalloc(n);
	snprintf(s, n, "%s.%s%s", od->prefix, od->base, suffix);
	return s;
}

/* Reads a small regular file (not through a symbolic link) into a heap buffer; NULL when it
 * is missing, not regular or larger than most. */
static char *read_small(const char *path, size_t most, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *buf = NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= most) {
		buf = xmalloc((size_t)st.st_size + 1);
		size_t n = fdio_read_all(fd, buf, (size_t)st.st_size, -1);
		buf[n] = 0;
		*len = n;
	}
	close(fd);
	return buf;
}

/* ---- the token ------------------------------------------------------------------------------ */

/* The token's text for directory st in state s, manifest the SHA-256 of its manifest ("-"
 * while there is none). */
static void token_text(char *out, size_t size, const struct stat *st, TokenState s,
		       const char *manifest)
{
	char body[TOKEN_MAX], check[65];
	int n = snprintf(body, sizeof body, "%s\nstate %s\ndevice %llu\ninode %llu\nmanifest %s\n",
			 TOKEN_MAGIC, token_states[s], (unsigned long long)st->st_dev,
			 (unsigned long long)st->st_ino, manifest);
	hash_hex(body, (size_t)n, check);
	snprintf(out, size, "%scheck %s\n", body, check);
}

/* The file system takes no user attributes: the token is a file (a test can ask for it). */
static bool no_xattr(int err)
{
	return err == ENOTSUP || err == EOPNOTSUPP || err == EPERM;
}

static bool token_file_forced(void)
{
	const char *e = getenv("CLUSTERC_TOKEN_FILE");
	return e && *e == '1';
}

/* Writes dir's token: the attribute, replaced whole, or the file, replaced by rename. */
static int token_write(const char *dir, TokenState s, const char *manifest)
{
	struct stat st;
	if (lstat(dir, &st) != 0)
		return errno;
	char text[TOKEN_MAX + 128];
	token_text(text, sizeof text, &st, s, manifest);
	if (!token_file_forced()) {
		if (lsetxattr(dir, TOKEN_XATTR, text, strlen(text), 0) == 0)
			return 0;
		if (!no_xattr(errno))
			return errno;
	}
	char *path = join(dir, TOKEN), *part = join(dir, TOKEN ".part");
	int err = 0;
	int fd = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd < 0) {
		err = errno;
	} else {
		size_t n = strlen(text);
		if (write(fd, text, n) != (ssize_t)n)
			err = errno ? errno : EIO;
		if (close(fd) != 0 && !err)
			err = errno;
		if (!err && rename(part, path) != 0)
			err = errno;
		if (err)
			unlink(part);
	}
	free(path);
	free(part);
	return err;
}

/* dir's token, when it verifies and is bound to dir itself: its state, and its manifest hash
 * into manifest[65]. -1 otherwise. */
static int token_read(const char *dir, char manifest[65])
{
	struct stat st;
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return -1;
	char *text = xmalloc(TOKEN_MAX + 1);
	ssize_t got = token_file_forced() ? -1 : lgetxattr(dir, TOKEN_XATTR, text, TOKEN_MAX);
	if (got >= 0) {
		text[got] = 0;
	} else {
		free(text);
		char *path = join(dir, TOKEN);
		size_t len = 0;
		text = read_small(path, TOKEN_MAX, &len);
		free(path);
		if (!text)
			return -1;
	}
	int state = -1;
	char want[TOKEN_MAX + 128];
	for (int s = 0; s < 3 && state < 0; s++) {
		/* Its manifest line as written, then the whole text made again for this directory. */
		const char *m = strstr(text, "\nmanifest ");
		char hash[65] = "-";
		if (m && sscanf(m, "\nmanifest %64s", hash) != 1)
			break;
		token_text(want, sizeof want, &st, (TokenState)s, hash);
		if (strcmp(want, text) == 0) {
			state = s;
			memcpy(manifest, hash, sizeof hash);
		}
	}
	free(text);
	return state;
}

/* ---- removing trees ------------------------------------------------------------------------- */

/* Removes path and everything under it without following symbolic links; the token of a
 * directory goes last, so a removal cut short still proves whose the rest is. Returns 0 or
 * the errno of the first failure (it removes what it can). */
static int remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) == 0 || errno == ENOENT ? 0 : errno;
	DIR *dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? 0 : errno;
	int err = 0;
	bool token = false;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (strcmp(e->d_name, TOKEN) == 0) {
			token = true;
			continue;
		}
		char *sub = join(path, e->d_name);
		int r = remove_tree(sub);
		if (r && !err)
			err = r;
		free(sub);
	}
	closedir(dir);
	if (token && !err) {
		char *t = join(path, TOKEN);
		if (unlink(t) != 0 && errno != ENOENT)
			err = errno;
		free(t);
	}
	if (!err && rmdir(path) != 0 && errno != ENOENT)
		err = errno;
	return err;
}

/* remove_tree until the directory is gone: the writer thread may create one more file in it
 * after it was told to stop (outdir_interrupted). */
static int remove_tree_fully(const char *path)
{
	int err = 0;
	for (int i = 0; i < REMOVE_TRIES; i++)
		if ((err = remove_tree(path)) != ENOTEMPTY && err != EEXIST)
			break;
	return err;
}

/* ---- the lock ------------------------------------------------------------------------------- */

/* Takes od's lock; false after a diagnostic (busy: c->output_busy). */
static bool lock_take(OutDir *od)
{
	for (int i = 0; i < LOCK_TRIES; i++) {
		int fd = open(od->lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
		if (fd < 0) {
			Diag *d = diag_error(od->c, NOLOC, "cannot write '%s': cannot create its lock '%s': %s",
					     od->dir, od->lock, strerror(errno));
			diag_set_code(d, "io");
			return false;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			int err = errno;
			char pid[32] = "";
			ssize_t n = err == EWOULDBLOCK ? read(fd, pid, sizeof pid - 1) : -1;
			close(fd);
			if (err != EWOULDBLOCK) {
				io_error(od->c, "cannot lock", od->lock, err);
				return false;
			}
			pid[n > 0 ? n : 0] = 0;
			pid[strcspn(pid, "\n")] = 0;
			Diag *d = diag_error(od->c, NOLOC,
					     "'%s' is being written by another clusterc%s%s%s; try again "
					     "once it has finished",
					     od->dir, *pid ? " (process " : "", pid, *pid ? ")" : "");
			diag_set_code(d, "output-busy");
			od->c->output_busy = true;
			return false;
		}
		/* Still the file at that name? The last holder may have unlinked it meanwhile. */
		struct stat held, now;
		if (fstat(fd, &held) == 0 && lstat(od->lock, &now) == 0 && held.st_dev == now.st_dev &&
		    held.st_ino == now.st_ino) {
			char pid[32];
			int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
			if (ftruncate(fd, 0) == 0 && write(fd, pid, (size_t)n) != n) {
				/* The pid is for messages only. */
			}
			od->lock_fd = fd;
			return true;
		}
		close(fd);
	}
	io_error(od->c, "cannot lock", od->lock, EAGAIN);
	return false;
}

static void lock_release(OutDir *od)
{
	if (od->lock_fd < 0)
		return;
	unlink(od->lock);
	close(od->lock_fd);
	od->lock_fd = -1;
}

/* ---- whose DIR is ------------------------------------------------------------------------ */

typedef struct Listed {
	char *path;
	long long bytes;
} Listed;

static int by_listed_path(const void *a, const void *b)
{
	return strcmp(((const Listed *)a)->path, ((const Listed *)b)->path);
}

/* Whether every regular file under dir/rel is listed (at its size); *why names the first
 * that is not. Directories are fine; anything else (links, FIFOs) is not ours. */
static bool all_listed(const char *dir, const char *rel, const Listed *v, size_t n, char **why)
{
	char *path = *rel ? join(dir, rel) : xstrdup(dir);
	DIR *dp = opendir(path);
	bool ok = dp != NULL;
	struct dirent *e;
	while (ok && (e = readdir(dp))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (!*rel && (strcmp(e->d_name, TOKEN) == 0 || strcmp(e->d_name, MANIFEST) == 0))
			continue;
		char *sub = *rel ? join(rel, e->d_name) : xstrdup(e->d_name);
		char *full = join(dir, sub);
		struct stat st;
		if (lstat(full, &st) != 0) {
			ok = false;
		} else if (S_ISDIR(st.st_mode)) {
			ok = all_listed(dir, sub, v, n, why);
		} else {
			Listed key = {sub, 0};
			const Listed *hit = S_ISREG(st.st_mode)
						    ? bsearch(&key, v, n, sizeof *v, by_listed_path)
						    : NULL;
			ok = hit && hit->bytes == (long long)st.st_size;
		}
		if (!ok && !*why)
			*why = xstrdup(sub);
		free(full);
		free(sub);
	}
	if (dp)
		closedir(dp);
	free(path);
	return ok;
}

typedef enum { DIR_ABSENT, DIR_EMPTY, DIR_OURS, DIR_FOREIGN, DIR_ERROR } DirState;

/* What dir holds: *err is the errno behind DIR_ERROR; *why (heap, or NULL) says why a
 * DIR_FOREIGN one is not ours. */
static DirState dir_state(const char *dir, int *err, char **why)
{
	*why = NULL;
	struct stat st;
	if (lstat(dir, &st) != 0) {
		*err = errno;
		return errno == ENOENT ? DIR_ABSENT : DIR_ERROR;
	}
	if (!S_ISDIR(st.st_mode)) {
		*why = xstrdup("it is not a directory");
		return DIR_FOREIGN;
	}
	DIR *dp = opendir(dir);
	if (!dp) {
		*err = errno;
		return DIR_ERROR;
	}
	bool empty = true;
	struct dirent *e;
	while (empty && (e = readdir(dp)))
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(dp);
	if (empty)
		return DIR_EMPTY;
	char hash[65];
	int state = token_read(dir, hash);
	char *manifest = join(dir, MANIFEST);
	size_t len = 0;
	char *text = read_small(manifest, (size_t)MAX_FILE_BYTES, &len);
	free(manifest);
	char *token = join(dir, TOKEN);
	bool has_token = access(token, F_OK) == 0 || lgetxattr(dir, TOKEN_XATTR, NULL, 0) >= 0;
	free(token);
	if (state != TOKEN_COMPLETE) {
		*why = has_token ? xstrdup("its ownership token belongs to another directory: a copy?")
		       : text    ? xstrdup("it holds a manifest.json but no ownership token: a copy, "
					   "or the output of an older clusterc?")
				 : NULL;
		free(text);
		return DIR_FOREIGN;
	}
	char actual[65];
	if (text)
		hash_hex(text, len, actual);
	Json *root = text ? jw_parse(text, len) : NULL;
	free(text);
	Json *files = jw_get(root, "files");
	const char *schema = jw_get_str(root, "schema");
	if (!jw_is_array(files) || !schema || strcmp(schema, MANIFEST_SCHEMA) != 0 ||
	    strcmp(actual, hash) != 0) {
		jw_free(root);
		*why = xstrdup("its manifest.json is not the one clusterc wrote there");
		return DIR_FOREIGN;
	}
	size_t n = jw_len(files);
	Listed *v = xmalloc(sizeof *v * (n + 1));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		Json *f = jw_at(files, i);
		const char *p = jw_get_str(f, "path");
		long long bytes;
		if (p && jw_get_integer(f, "bytes", &bytes))
			v[k++] = (Listed){(char *)p, bytes};
	}
	qsort(v, k, sizeof *v, by_listed_path);
	char *stranger = NULL;
	bool ok = all_listed(dir, "", v, k, &stranger);
	free(v);
	jw_free(root);
	if (ok) {
		free(stranger);
		return DIR_OURS;
	}
	size_t wn = (stranger ? strlen(stranger) : 0) + 64;
	*why = xmalloc(wn);
	snprintf(*why, wn, "it holds '%s', which clusterc did not write there",
		 stranger ? stranger : "?");
	free(stranger);
	return DIR_FOREIGN;
}

/* Diagnoses a DIR that may not be replaced; false then. */
static bool may_replace(OutDir *od, bool force)
{
	int err = 0;
	char *why = NULL;
	DirState s = dir_state(od->dir, &err, &why);
	bool ok = true;
	if (s == DIR_ERROR) {
		io_error(od->c, "cannot write", od->dir, err);
		ok = false;
	} else if (s == DIR_FOREIGN && !force) {
		Diag *d = diag_error(od->c, NOLOC,
				     "'%s' exists and was not written by clusterc%s%s%s; use --force to "
				     "replace it",
				     od->dir, why ? " (" : "", why ? why : "", why ? ")" : "");
		diag_set_code(d, "output-exists");
		ok = false;
	}
	free(why);
	return ok;
}

/* ---- litter --------------------------------------------------------------------------------- */

/* Whether name is ".BASE" + kind + six characters of mkdtemp's alphabet. */
static bool litter_name(const OutDir *od, const char *name, const char *kind)
{
	size_t nb = strlen(od->base), nk = strlen(kind);
	if (name[0] != '.' || strncmp(name + 1, od->base, nb) != 0 ||
	    strncmp(name + 1 + nb, kind, nk) != 0)
		return false;
	const char *x = name + 1 + nb + nk;
	for (int i = 0; i < 6; i++)
		if (!((x[i] >= 'a' && x[i] <= 'z') || (x[i] >= 'A' && x[i] <= 'Z') ||
		      (x[i] >= '0' && x[i] <= '9')))
			return false;
	return x[6] == 0;
}

static bool is_empty_dir(const char *path)
{
	DIR *dp = opendir(path);
	if (!dp)
		return false;
	bool empty = true;
	struct dirent *e;
	while (empty && (e = readdir(dp)))
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(dp);
	return empty;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Under the lock: the temporary and old directories runs that were killed left beside DIR.
 * Ours (a token bound to them, or empty) are removed; others are left with a warning. A
 * complete output among them is put back first when DIR is missing. */
static void clean_litter(OutDir *od)
{
	const char *parent = *od->prefix ? od->prefix : ".";
	DIR *dp = opendir(parent);
	if (!dp)
		return;
	PtrVec found = {0};
	struct dirent *e;
	while ((e = readdir(dp)))
		if (litter_name(od, e->d_name, ".tmp-") || litter_name(od, e->d_name, ".old-"))
			vec_push(od->c->arena, &found, arena_printf(od->c->arena, "%s%s", od->prefix,
								    e->d_name));
	closedir(dp);
	if (found.n > 1)
		qsort(found.v, (size_t)found.n, sizeof *found.v, by_string);
	struct stat st;
	bool absent = lstat(od->dir, &st) != 0 && errno == ENOENT;
	for (int i = 0; i < found.n; i++) {
		const char *path = found.v[i];
		char hash[65];
		int state = lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid()
				    ? token_read(path, hash)
				    : -2;
		if (absent && state == TOKEN_COMPLETE) {
			int err = 0;
			char *why = NULL;
			char *back = xstrdup(path);
			/* Complete means its manifest still matches and nothing of it is missing. */
			DirState ds = dir_state(back, &err, &why);
			free(why);
			if (ds == DIR_OURS && rename(back, od->dir) == 0) {
				absent = false;
				Diag *d = diag_warning(od->c, NOLOC,
						       "'%s' was missing after an interrupted run: put "
						       "back from '%s'",
						       od->dir, back);
				diag_set_code(d, "io");
				free(back);
				continue;
			}
			free(back);
		}
		if (state >= 0 || (state == -1 && is_empty_dir(path))) {
			if (state == TOKEN_COMPLETE)
				token_write(path, TOKEN_REMOVING, "-");
			int err = remove_tree(path);
			if (err)
				diag_set_code(diag_warning(od->c, NOLOC, "cannot remove the leftover '%s': %s",
							   path, strerror(err)), "io");
		} else {
			Diag *d = diag_warning(od->c, NOLOC,
					       "'%s' looks like the leftover of an interrupted clusterc "
					       "but holds no token of ours: left alone",
					       path);
			diag_set_code(d, "io");
		}
	}
}

/* ---- signals -------------------------------------------------------------------------------- */

static const int guarded_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { NGUARDED = sizeof guarded_signals / sizeof guarded_signals[0] };

static struct {
	pthread_mutex_t mu;    /* who is guarded */
	OutDir *od;
	int pipe[2];           /* the handler's bytes to the thread; made once */
	pthread_t thread;
	struct sigaction old[NGUARDED];
	bool caught[NGUARDED]; /* our handler is installed */
} guard = {.mu = PTHREAD_MUTEX_INITIALIZER, .pipe = {-1, -1}};

static atomic_int interrupted;

bool outdir_interrupted(void)
{
	return atomic_load_explicit(&interrupted, memory_order_relaxed) != 0;
}

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;
	ssize_t r = write(guard.pipe[1], &b, 1);
	(void)r;
	errno = saved;
}

/* The guard's thread: on a signal, stops the writing, removes what the run made, and dies of
 * the signal; on a 0 byte, returns. */
static void *guard_main(void *arg)
{
	OutDir *od = arg;
	for (;;) {
		unsigned char b;
		ssize_t r = read(guard.pipe[0], &b, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || b == 0)
			return NULL;
		atomic_store(&interrupted, 1);
		pthread_mutex_lock(&od->mu); /* never released: the process ends here */
		if (od->tmp)
			remove_tree_fully(od->tmp);
		if (od->aside)
			remove_tree_fully(od->aside);
		lock_release(od);
		int sig = b;
		signal(sig, SIG_DFL);
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, sig);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
		_exit(128 + sig);
	}
}

static void guard_start(OutDir *od)
{
	pthread_mutex_lock(&guard.mu);
	if (guard.od || (guard.pipe[0] < 0 && pipe2(guard.pipe, O_CLOEXEC) != 0)) {
		pthread_mutex_unlock(&guard.mu); /* one guarded DIR at a time */
		return;
	}
	if (pthread_create(&guard.thread, NULL, guard_main, od) != 0) {
		pthread_mutex_unlock(&guard.mu);
		return;
	}
	guard.od = od;
	od->guarded = true;
	for (int i = 0; i < NGUARDED; i++) {
		struct sigaction sa = {.sa_handler = on_signal};
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		guard.caught[i] = sigaction(guarded_signals[i], NULL, &guard.old[i]) == 0 &&
				  guard.old[i].sa_handler != SIG_IGN &&
				  sigaction(guarded_signals[i], &sa, NULL) == 0;
	}
	pthread_mutex_unlock(&guard.mu);
}

static void guard_stop(OutDir *od)
{
	if (!od->guarded)
		return;
	pthread_mutex_lock(&guard.mu);
	for (int i = 0; i < NGUARDED; i++)
		if (guard.caught[i])
			sigaction(guarded_signals[i], &guard.old[i], NULL);
	unsigned char zero = 0;
	while (write(guard.pipe[1], &zero, 1) < 0 && errno == EINTR)
		;
	pthread_join(guard.thread, NULL);
	guard.od = NULL;
	od->guarded = false;
	pthread_mutex_unlock(&guard.mu);
}

/* ---- the protocol ------------------------------------------------------------------------- */

static void outdir_free(OutDir *od)
{
	free(od->dir);
	free(od->prefix);
	free(od->base);
	free(od->lock);
	free(od->tmp);
	free(od->aside);
	pthread_mutex_destroy(&od->mu);
	free(od);
}

OutDir *outdir_begin(Ctx *c, const char *dir, bool force)
{
	OutDir *od = xmalloc(sizeof *od);
	*od = (OutDir){.c = c, .lock_fd = -1};
	pthread_mutex_init(&od->mu, NULL);
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	od->dir = xmalloc(n + 1);
	memcpy(od->dir, dir, n);
	od->dir[n] = 0;
	const char *slash = strrchr(od->dir, '/');
	const char *base = slash ? slash + 1 : od->dir;
	od->base = xstrdup(base);
	od->prefix = xstrdup(od->dir);
	od->prefix[base - od->dir] = 0;
	od->lock = sibling(od, ".lock");
	guard_start(od);
	pthread_mutex_lock(&od->mu);
	bool ok = lock_take(od);
	if (ok) {
		clean_litter(od);
		ok = may_replace(od, force);
	}
	if (ok) {
		char *tmp = sibling(od, ".tmp-XXXXXX");
		if (!mkdtemp(tmp)) {
			Diag *d = diag_error(c, NOLOC,
					     "cannot create the temporary directory '%s' for '%s': %s", tmp,
					     od->dir, strerror(errno));
			diag_set_code(d, "io");
			free(tmp);
			ok = false;
		} else {
			od->tmp = tmp;
			/* mkdtemp makes it private (0700); the output gets mkdir's usual mode. */
			mode_t mask = umask(0);
			umask(mask);
			chmod(tmp, 0777 & ~mask);
			int err = token_write(tmp, TOKEN_PENDING, "-");
			if (err) {
				io_error(c, "cannot write in", tmp, err);
				ok = false;
			}
		}
	}
	pthread_mutex_unlock(&od->mu);
	if (!ok) {
		outdir_end(od);
		return NULL;
	}
	return od;
}

const char *outdir_tmp(const OutDir *od)
{
	return od->tmp;
}

/* Swaps the complete output in tmp with DIR; 0 or 1 after a diagnostic. Holds od->mu. */
static int swap_in(OutDir *od)
{
	struct stat st;
	if (lstat(od->dir, &st) != 0) {
		if (errno != ENOENT) {
			io_error(od->c, "cannot write", od->dir, errno);
			return 1;
		}
		if (rename(od->tmp, od->dir) != 0) {
			io_error(od->c, "cannot create", od->dir, errno);
			return 1;
		}
		free(od->tmp);
		od->tmp = NULL;
		return 0;
	}
	const char *no_exchange = getenv("CLUSTERC_NO_RENAME_EXCHANGE"); /* tests the fallback */
	if (no_exchange && *no_exchange == '1') {
		errno = EINVAL;
	} else if (renameat2(AT_FDCWD, od->tmp, AT_FDCWD, od->dir, RENAME_EXCHANGE) == 0) {
		od->aside = od->tmp; /* the previous output, under the temporary name */
		od->tmp = NULL;
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
		io_error(od->c, "cannot replace", od->dir, errno);
		return 1;
	}
	/* No RENAME_EXCHANGE here: DIR aside, then the new one in its place. */
	char *aside = sibling(od, ".old-XXXXXX");
	if (!mkdtemp(aside)) {
		io_error(od->c, "cannot create a directory beside", od->dir, errno);
		free(aside);
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		rmdir(aside); /* a directory replaces the empty one; anything else needs the name */
	if (rename(od->dir, aside) != 0) {
		io_error(od->c, "cannot move aside the previous", od->dir, errno);
		rmdir(aside);
		free(aside);
		return 1;
	}
	od->aside = aside;
	if (rename(od->tmp, od->dir) != 0) {
		int err = errno;
		if (rename(aside, od->dir) != 0)
			io_error(od->c, "cannot restore the previous output from", aside, errno);
		else
			od->aside = NULL, free(aside);
		io_error(od->c, "cannot create", od->dir, err);
		return 1;
	}
	free(od->tmp);
	od->tmp = NULL;
	return 0;
}

int outdir_commit(OutDir *od, bool force)
{
	pthread_mutex_lock(&od->mu);
	int errors = 0;
	char *manifest = join(od->tmp, MANIFEST);
	size_t len = 0;
	char *text = read_small(manifest, (size_t)MAX_FILE_BYTES, &len);
	free(manifest);
	char hash[65];
	if (!text) {
		io_error(od->c, "cannot read back", MANIFEST, errno ? errno : EIO);
		errors = 1;
	} else {
		hash_hex(text, len, hash);
		free(text);
		int err = token_write(od->tmp, TOKEN_COMPLETE, hash);
		if (err) {
			io_error(od->c, "cannot write in", od->tmp, err);
			errors = 1;
		}
	}
	/* Again at the end: something other than clusterc may have made DIR meanwhile. */
	if (!errors && (!may_replace(od, force) || swap_in(od)))
		errors = 1;
	if (!errors && od->aside) {
		struct stat st;
		if (lstat(od->aside, &st) == 0 && S_ISDIR(st.st_mode))
			token_write(od->aside, TOKEN_REMOVING, "-");
		int err = remove_tree(od->aside);
		if (err) {
			Diag *d = diag_warning(od->c, NOLOC,
					       "cannot remove the previous output, now '%s': %s",
					       od->aside, strerror(err));
			diag_set_code(d, "io");
		}
		free(od->aside);
		od->aside = NULL;
	}
	pthread_mutex_unlock(&od->mu);
	return errors;
}

void outdir_end(OutDir *od)
{
	if (!od)
		return;
	pthread_mutex_lock(&od->mu);
	if (od->tmp)
		remove_tree_fully(od->tmp);
	free(od->tmp);
	od->tmp = NULL;
	lock_release(od);
	pthread_mutex_unlock(&od->mu);
	guard_stop(od);
	outdir_free(od);
}

bool outdir_owned(const char *dir)
{
	int err = 0;
	char *why = NULL;
	DirState s = dir_state(dir, &err, &why);
	free(why);
	return s == DIR_OURS;
}
