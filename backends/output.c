/*
 * output.c — the output directory, written atomically (PRODUCT §5: "no partial output").
 *
 * Every artifact is written into a temporary directory beside DIR (".DIR.tmp-XXXXXX", same
 * parent, so the final rename never crosses file systems). output_commit() writes
 * manifest.json and then has the new directory swapped with DIR in one step. The protocol
 * around it (the lock that keeps a second clusterc out, the ownership token that says DIR is
 * ours to replace, the clean-up after interrupted runs and signals) is lang/outdir.c's: a
 * reader of DIR sees the old output or the new one, whole, never a mix, and a failure at any
 * step leaves DIR as it was.
 *
 * Speed (docs/performance.md): a 100,000-GPU build writes about 8,000 files and 700 MB, and
 * creating, writing and hashing them costs the kernel and nettle about as much as the
 * backends spend making the text. So the files are written on a second thread, the writer:
 * each file is a stdio stream over a Sink (fopencookie) whose blocks go, copied, into a
 * bounded queue (QUEUE_BYTES); the writer takes a file's queued jobs in order, makes its
 * directories (once per directory run), creates it and writes each block, and so does a
 * caller that finds the queue full with nothing to hash (one thread at a time per file: the
 * writes on any thread, below). Every block is hashed with
 * nettle's SHA-256 from memory, so nothing is read back, on whichever thread is free (the
 * writer when it has nothing to write, a caller that finds the queue full, the end: hash_take
 * below). Blocks made whole in a Buf (layout_flush) go without the
 * copy (output_put), their buffers handed back for reuse once written; files made whole in
 * memory likewise (output_write_buf). The bytes written, and their order, are the same as
 * with one thread; should the thread not start, the jobs run on the caller's thread.
 *
 * Artifacts rendered on several threads at once (emit.c) each write into a part of the Output
 * (output_part): its own list of files, the same writer, whose queue takes the jobs of every
 * part's thread (each job names its file, so their interleaving changes nothing written).
 * output_join adds a part's files to the Output's list after its earlier parts', in the order
 * of emit.c's table, so the list, the diagnostics and everything made of them are those of one
 * thread. A part says nothing itself: its diagnostics wait in the part until it is joined.
 *
 * Errors: the thread that writes a file records its first failure (creating its directory or
 * itself, a write, the close: a full disk whatever the backend called); output_artifacts and
 * output_commit wait for the writing and report them, and the commit then refuses. After the
 * first failure, on whichever thread, no more files are created and a failure met meanwhile on
 * another thread is not reported again, so a full disk is one diagnostic. Messages name the
 * path as the user knows it (DIR/relpath) and strerror.
 */
#define _GNU_SOURCE /* fopencookie (glibc, musl) */
#include "backends.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MANIFEST "manifest.json"
#define MANIFEST_SCHEMA "clusterc.manifest/1"

/* FILE_BUFFER: stdio's buffer, so fewer blocks; JOB_MAX: larger writes are split, so the
 * writer starts early; QUEUE_BYTES: what the backends may run ahead of the writer. */
enum { FILE_BUFFER = 1 << 16, JOB_MAX = 1 << 20, QUEUE_BYTES = 16 << 20 };
/* SPARES, SPARE_MAX: how many buffers of output_put the writer keeps for reuse, and up to
 * which size (a fresh buffer costs a page fault every 4 KiB when first written). */
enum { SPARES = 6, SPARE_MAX = 4 << 20 };

typedef struct Writer Writer;
typedef struct Job Job;

/* One file on its way: made by output_file, then the writer's alone until output_wait(). */
typedef struct Sink {
	Writer *w;
	char *full;       /* its path */
	size_t rel;       /* where the part inside the temporary directory starts in full */
	int fd;           /* -1 until created, and once closed */
	int err;          /* the errno of the first failure, 0, or -1: not written, as an earlier
			   * file failed (a full disk is reported once) */
	const char *what; /* what failed: "cannot create", "cannot write" ... */
	uint64_t bytes;
	Hash *sha;        /* SHA-256 of what was written */
	/* Under the writer's mu: */
	bool hashing;     /* a thread is hashing one of its blocks */
	bool running;     /* a thread is running its jobs (they are that thread's until done) */
	Job *jhead, *jtail; /* its jobs queued and not yet taken to run, in order */
	struct Sink *rnext; /* in Writer.ready */
	bool listed;        /* in Writer.ready */
} Sink;

/* JOB_WHOLE: a file in one piece (output_write_buf): open, write, close. JOB_TAKEN: a block of
 * an open file handed over whole (output_put), its buffer recycled once written. */
typedef enum { JOB_OPEN, JOB_DATA, JOB_CLOSE, JOB_WHOLE, JOB_TAKEN } JobKind;

struct Job {
	Job *next;         /* in its file's queue of jobs to run */
	Job *hnext;        /* in the queue of blocks to hash */
	JobKind kind;
	Sink *sink;
	_Atomic int refs;  /* a block is freed once written and hashed, by whichever is last */
	size_t n;
	char *owned; /* JOB_WHOLE, JOB_TAKEN: the n bytes, the job's (freed or recycled once
		      * written) */
	size_t cap;  /* JOB_TAKEN: owned's size */
	char data[]; /* JOB_DATA: n bytes */
};

/* The queue between the backends (the callers' threads) and the writer thread. Under mu but
 * `failed`, which is read without it. */
struct Writer {
	pthread_t thread;
	bool threaded;      /* false: jobs run at once on the caller's thread */
	pthread_mutex_t mu;
	pthread_cond_t more, room, idle;
	Sink *ready, *rtail; /* the files with jobs queued and no thread running them, oldest
			      * first */
	int running;        /* files whose jobs a thread runs now */
	Job *hhead, *htail; /* the blocks to hash, in the order they were queued */
	int hashing;        /* blocks being hashed now, on any thread */
	size_t queued;      /* bytes of the blocks queued and not yet both written and hashed */
	bool quit;
	bool asleep;        /* the writer waits for jobs; */
	int full;           /* and this many callers (the threads of parts) for room: wake-ups,
			     * costly in a virtual machine, happen only when someone waits */
	char *made;         /* the directory of the last file created, made */
	struct {            /* JOB_TAKEN's buffers, written, for output_put to hand out again */
		char *s;
		size_t cap;
	} spare[SPARES];
	int nspare;
	atomic_bool failed; /* a file failed, so the later ones are not written (set under mu) */
	int dirfd;          /* the temporary directory, which files and directories are made
			     * relative to (at_path), or AT_FDCWD: their full paths */
};

typedef struct OutFile {
	char *path; /* relative to DIR */
	FILE *f;    /* NULL once closed */
	Sink *sink; /* NULL once its result is in `a` */
	Artifact a;
} OutFile;

/* A diagnostic of a part, said when it is joined: "what 'path': strerror" of code io, or an
 * internal error. */
typedef struct Held {
	char *text;
	bool io;
} Held;

struct Output {
	Ctx *c;       /* NULL in a part: it says nothing until joined */
	Output *root; /* a part's Output (output_part), NULL for an Output itself */
	Held *held;   /* a part's diagnostics, in order */
	int nheld;
	char *dir;    /* as given, trailing '/' removed */
	char *prefix; /* DIR's parent with its '/' ("a/b/", "/"), or "" */
	char *base;   /* DIR's last component */
	char *tmp;    /* the temporary directory (outdir_tmp's) */
	OutDir *od;   /* the protocol: lock, token, swap (lang/outdir.c) */
	bool force;
	bool failed;  /* a file could not be written: commit refuses */
	OutFile *files;
	int nfiles, cap;
	NameTable names; /* interned relative path -> its OutFile index + 1 */
	Artifact *list;  /* the sorted copy output_artifacts hands out */
	Writer *w;       /* NULL until the temporary directory exists */
	Buf memo;        /* output_memo's text ... */
	bool memo_set, memo_ok;
	bool named;      /* the artifacts were named (--emit), not the default set */
	void *ends;      /* output_ends' table (in `arena`) */
	Arena *arena;    /* output_arena's, or NULL */
};

/* A part keeps the text for output_join; an Output says it. */
static void hold(Output *o, char *text, bool io)
{
	o->held = xrealloc(o->held, sizeof *o->held * (size_t)(o->nheld + 1));
	o->held[o->nheld++] = (Held){text, io};
}

static void io_error(Output *o, const char *what, const char *path, int err)
{
	if (o->root) {
		Buf b = {0};
		buf_printf(&b, "%s '%s': %s", what, path, strerror(err));
		hold(o, b.s, true);
		return;
	}
	Diag *d = diag_error(o->c, NOLOC, "%s '%s': %s", what, path, strerror(err));
	diag_set_code(d, "io");
}

static void internal_error(Output *o, const char *fmt, const char *path)
{
	if (o->root) {
		Buf b = {0};
		buf_printf(&b, fmt, path);
		hold(o, b.s, false);
	} else {
		diag_error(o->c, NOLOC, fmt, path);
	}
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

/* Makes DIR's missing parents, as mkdir -p does (they stay when the build fails later: only DIR
 * itself is written atomically). */
static bool make_parents(Output *o)
{
	char *path = xstrdup(o->prefix);
	bool ok = true;
	for (char *p = *path ? strchr(path + 1, '/') : NULL; p && ok; p = strchr(p + 1, '/')) {
		*p = 0;
		if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			Diag *d = diag_error(o->c, NOLOC, "cannot create the directory '%s' for '%s': %s",
					     path, o->dir, strerror(errno));
			diag_set_code(d, "io");
			ok = false;
		}
		*p = '/';
	}
	free(path);
	return ok;
}

static void writer_stop(Writer *w);
static void free_sink(Sink *s);

static void output_free(Output *o)
{
	for (int i = 0; i < o->nfiles; i++)
		if (o->files[i].f)
			fclose(o->files[i].f);
	writer_stop(o->w); /* before the files' sinks and the directory go */
	for (int i = 0; i < o->nfiles; i++) {
		free_sink(o->files[i].sink);
		free(o->files[i].path);
	}
	outdir_end(o->od); /* removes the temporary directory unless committed */
	free(o->files);
	free(o->list);
	free(o->tmp);
	free(o->dir);
	free(o->prefix);
	free(o->base);
	buf_free(&o->memo);
	arena_free(o->arena);
	free(o);
}

Buf *output_memo(Output *o, bool **ok, bool *fresh)
{
	if (o->root)
		o = o->root;
	*fresh = !o->memo_set;
	o->memo_set = true;
	*ok = &o->memo_ok;
	return &o->memo;
}

void *output_ends(Output *o)
{
	return o->root ? o->root->ends : o->ends;
}

void output_set_ends(Output *o, void *table)
{
	(o->root ? o->root : o)->ends = table;
}

Arena *output_arena(Output *o)
{
	if (o->root)
		o = o->root;
	if (!o->arena)
		o->arena = arena_new();
	return o->arena;
}

/* ---- the writer ------------------------------------------------------------------------- */

/* The writes on any thread (docs/performance.md, "Emitter, ninth pass"). Each file's jobs wait
 * in its own queue (Sink.jhead), and the files with jobs waiting and no thread running them in
 * Writer.ready, oldest first. A thread takes a file from there, runs every job it finds queued
 * (without the lock) and hands the file back: so one thread at a time runs a file's jobs, in
 * their order, as the blocks of a file are hashed one thread at a time. The writer thread does
 * nothing else; a caller that finds the queue full runs a file's jobs when it has no block to
 * hash, and so does output_artifacts waiting at the end. With one writer thread making every
 * file, two renderers waited for it (the eighth pass). The directory of the last file made is
 * kept under the lock (mkdir of a directory another thread made meanwhile is EEXIST, which is
 * success), and the first failure, whichever thread meets it, stops the files after it
 * (sink_fail). */

static void lock(Writer *w)
{
	if (w->threaded)
		pthread_mutex_lock(&w->mu);
}

static void unlock(Writer *w)
{
	if (w->threaded)
		pthread_mutex_unlock(&w->mu);
}

/* Records that s failed (errno err while `what`), unless another file failed first: then s is
 * only not written (-1), so a full disk is one diagnostic however many threads meet it. */
static void sink_fail(Sink *s, int err, const char *what)
{
	Writer *w = s->w;
	lock(w);
	if (atomic_load_explicit(&w->failed, memory_order_relaxed)) {
		s->err = -1;
	} else {
		s->err = err;
		s->what = what;
		atomic_store_explicit(&w->failed, true, memory_order_relaxed);
	}
	unlock(w);
}

static bool writer_failed(Writer *w)
{
	return atomic_load_explicit(&w->failed, memory_order_relaxed);
}

/* The name s's file is created by, relative to w->dirfd: its path inside the temporary
 * directory, or its full path when the directory could not be opened. Fewer components to look
 * up than the full path for each of a build's thousands of files and directories. */
static char *at_path(const Writer *w, const Sink *s)
{
	return w->dirfd == AT_FDCWD ? s->full : s->full + s->rel;
}

/* Makes the directory `path` names (relative to w->dirfd), EEXIST being success. */
static int make_dir(const Writer *w, const char *path)
{
	return mkdirat(w->dirfd, path, 0777) == 0 || errno == EEXIST ? 0 : errno;
}

/* Makes the directories of s's file inside the temporary directory, unless they are those of
 * the last file created (files come directory by directory) or `again`. Its own directory
 * first, with one mkdir, and its parents only when that says one is missing: a build of 4,000
 * switches makes switches/NAME once each, not switches (EEXIST) and switches/NAME
 * (docs/performance.md, "Emitter, the kernel's share"). The directory is taken as the last
 * made before it is made, so that a thread creating the next file of the same directory at the
 * same time (a switch's config_db.json and frr.conf, one on the writer thread, one on a
 * renderer's) does not make it again: 1,200 of the 4,000 switches' directories were made twice
 * at 100,000 GPUs ("Emitter, sixteenth pass"); that thread may then find it missing, and
 * sink_open makes it `again`. */
static bool make_dirs(Writer *w, Sink *s, bool again)
{
	char *path = at_path(w, s);
	char *rel = s->full + s->rel;
	char *slash = strrchr(rel, '/');
	if (!slash)
		return true;
	*slash = 0;
	char *old = NULL;
	lock(w);
	bool same = !again && w->made && strcmp(w->made, rel) == 0;
	if (!same && !again) {
		old = w->made;
		w->made = xstrdup(rel);
	}
	unlock(w);
	free(old);
	int err = same ? 0 : make_dir(w, path);
	if (err == ENOENT) { /* a parent is missing: each, then this one again */
		err = 0;
		for (char *p = strchr(rel, '/'); p && !err; p = strchr(p + 1, '/')) {
			*p = 0;
			err = make_dir(w, path);
			*p = '/';
		}
		if (!err)
			err = make_dir(w, path);
	}
	*slash = '/';
	if (err) {
		sink_fail(s, err, "cannot create the directory of");
		return false;
	}
	return true;
}

/* Writes n bytes to s's file, unless it failed (hash_run hashes them). */
static void sink_data(Sink *s, const char *data, size_t n)
{
	if (!s->err && writer_failed(s->w))
		s->err = -1; /* another file, open at the same time, failed first */
	if (s->fd >= 0 && !s->err) {
		int err = fdio_write_all(s->fd, data, n, -1);
		if (err)
			sink_fail(s, err, "cannot write");
	}
	s->bytes += n;
}

static const char *job_bytes(const Job *j)
{
	return j->kind == JOB_DATA ? j->data : j->owned;
}

/* Lets go of j, which a block's writing and hashing each hold: the last frees it (a JOB_TAKEN's
 * buffer goes to the spares for output_put when there is room) and makes room in the queue.
 * locked: the caller holds w->mu. */
static void job_release(Writer *w, Job *j, bool locked)
{
	if (atomic_fetch_sub_explicit(&j->refs, 1, memory_order_acq_rel) != 1)
		return;
	if (!locked)
		lock(w);
	w->queued -= j->n;
	if (j->kind == JOB_TAKEN && j->cap <= SPARE_MAX && w->nspare < SPARES) {
		w->spare[w->nspare].s = j->owned;
		w->spare[w->nspare++].cap = j->cap;
		j->owned = NULL;
	}
	/* Callers waiting for room are woken once a quarter of the queue is free (or all of it),
	 * not for every file of a few kB. */
	if (w->full && (w->queued <= QUEUE_BYTES - QUEUE_BYTES / 4 || !w->queued))
		pthread_cond_broadcast(&w->room);
	if (!locked)
		unlock(w);
	if (j->kind != JOB_DATA)
		free(j->owned);
	free(j);
}

/* Under w->mu: nothing queued, run or hashed any more (output_artifacts may go on). */
static bool writer_done(const Writer *w)
{
	return !w->ready && !w->running && !w->hhead && !w->hashing;
}

/* Hashing on whichever thread is free (docs/performance.md, "Emitter, sixth pass"). Every
 * block queued to be written (JOB_DATA, JOB_WHOLE, JOB_TAKEN) is also queued to be hashed, in
 * the same order (Writer.hhead), and is freed once it is both written and hashed. The writer
 * thread writes first and hashes when it has nothing to write; a thread that queues a block and
 * finds no room hashes queued blocks instead of waiting, and so does output_artifacts waiting for
 * the writer at the end. So neither thread waits while the other has hashing to do, and the
 * writer, which also makes the files, is not the one thread everything waits for. The blocks of
 * one file are hashed one after the other in their order: hash_take gives out the first block
 * of a file no thread is hashing now, which is the file's first one not yet hashed. The same
 * bytes are hashed in the same order whoever hashes them, so manifest.json is the same. (Hashing
 * whole files on the caller's thread when the writer's queue was over half full, the rule
 * before, left the writer with most of the hashing of large files; hashing them only when the
 * queue had no room was tried: "Emitter, fifth pass".) */

/* Under w->mu: the first queued block whose file no thread is hashing now, taken from the
 * queue to hash (hash_run), or NULL. */
static Job *hash_take(Writer *w)
{
	for (Job *j = w->hhead, *prev = NULL; j; prev = j, j = j->hnext) {
		if (j->sink->hashing)
			continue;
		if (prev)
			prev->hnext = j->hnext;
		else
			w->hhead = j->hnext;
		if (w->htail == j)
			w->htail = prev;
		j->hnext = NULL;
		j->sink->hashing = true;
		w->hashing++;
		return j;
	}
	return NULL;
}

/* Hashes a block of hash_take's (without w->mu, which it takes after). */
static void hash_run(Writer *w, Job *j)
{
	hash_update(j->sink->sha, job_bytes(j), j->n);
	pthread_mutex_lock(&w->mu);
	j->sink->hashing = false;
	w->hashing--;
	if (w->asleep) /* the writer may wait for this file's next block, or to quit */
		pthread_cond_signal(&w->more);
	if (w->full && w->hhead) /* callers waiting for room may hash it */
		pthread_cond_broadcast(&w->room);
	if (writer_done(w))
		pthread_cond_broadcast(&w->idle);
	job_release(w, j, true);
	pthread_mutex_unlock(&w->mu);
}

/* Under w->mu: hashes one queued block, if a file's next one is free to hash, with the lock let
 * go meanwhile (a caller waiting for room, or for the writer at the end); false when none is. */
static bool hash_one(Writer *w)
{
	Job *h = hash_take(w);
	if (!h)
		return false;
	pthread_mutex_unlock(&w->mu);
	hash_run(w, h);
	pthread_mutex_lock(&w->mu);
	return true;
}

static void sink_open(Writer *w, Sink *s)
{
	if (writer_failed(w) || outdir_interrupted()) {
		s->err = -1;
	} else if (make_dirs(w, s, false)) {
		int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
		s->fd = openat(w->dirfd, at_path(w, s), flags, 0666);
		/* Its directory being made on another thread (make_dirs): made here too. */
		if (s->fd < 0 && errno == ENOENT && make_dirs(w, s, true))
			s->fd = openat(w->dirfd, at_path(w, s), flags, 0666);
		if (s->fd < 0 && !s->err)
			sink_fail(s, errno, "cannot create");
	}
}

static void sink_done(Sink *s)
{
	if (s->fd >= 0 && close(s->fd) != 0 && !s->err)
		sink_fail(s, errno, "cannot write");
	s->fd = -1;
}

/* Runs j and lets go of it (it may be freed). */
static void run_job(Writer *w, Job *j)
{
	Sink *s = j->sink;
	switch (j->kind) {
	case JOB_OPEN:
		sink_open(w, s);
		break;
	case JOB_CLOSE:
		sink_done(s);
		break;
	case JOB_WHOLE:
		sink_open(w, s);
		sink_data(s, j->owned, j->n);
		sink_done(s);
		break;
	case JOB_DATA:
	case JOB_TAKEN:
		sink_data(s, job_bytes(j), j->n);
		break;
	}
	job_release(w, j, false);
}

/* Under w->mu: puts s, which has jobs queued and no thread running them, in the ready list
 * (first: a file handed back, the oldest with jobs left; else last). */
static void ready_add(Writer *w, Sink *s, bool first)
{
	s->listed = true;
	if (first || !w->ready) {
		s->rnext = w->ready;
		w->ready = s;
		if (!w->rtail)
			w->rtail = s;
	} else {
		s->rnext = NULL;
		w->rtail->rnext = s;
		w->rtail = s;
	}
}

/* Under w->mu: takes the first file of the ready list and runs every job it has queued, with
 * the lock let go meanwhile; false when no file is ready. */
static bool write_one(Writer *w)
{
	Sink *s = w->ready;
	if (!s)
		return false;
	w->ready = s->rnext;
	if (!w->ready)
		w->rtail = NULL;
	s->rnext = NULL;
	s->listed = false;
	s->running = true;
	w->running++;
	do {
		Job *j = s->jhead;
		s->jhead = s->jtail = NULL;
		pthread_mutex_unlock(&w->mu);
		while (j) {
			Job *next = j->next;
			run_job(w, j);
			j = next;
		}
		pthread_mutex_lock(&w->mu);
	} while (s->jhead && !w->ready); /* more of the same file, and nobody else waiting */
	s->running = false;
	w->running--;
	if (s->jhead) {
		ready_add(w, s, true);
		if (w->full) /* callers waiting for room may write it */
			pthread_cond_broadcast(&w->room);
	}
	if (writer_done(w))
		pthread_cond_broadcast(&w->idle);
	return true;
}

static void *writer_main(void *arg)
{
	Writer *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		if (write_one(w) || hash_one(w)) /* writing first, then hashing */
			continue;
		if (writer_done(w)) {
			pthread_cond_broadcast(&w->idle);
			if (w->quit)
				break; /* and nothing left */
		}
		w->asleep = true;
		pthread_cond_wait(&w->more, &w->mu);
		w->asleep = false;
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* The writer of the files in the temporary directory tmp. */
static Writer *writer_start(const char *tmp)
{
	Writer *w = xmalloc(sizeof *w);
	*w = (Writer){0};
	w->dirfd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->dirfd < 0)
		w->dirfd = AT_FDCWD; /* the full paths, as before */
	atomic_init(&w->failed, false);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->more, NULL);
	pthread_cond_init(&w->room, NULL);
	pthread_cond_init(&w->idle, NULL);
	w->threaded = pthread_create(&w->thread, NULL, writer_main, w) == 0;
	return w;
}

/* Queues j (the writer's from now on) to be run and, a block, hashed; while the queue is
 * full, hashes queued blocks, or else runs a file's queued jobs, or else waits. */
static void writer_push(Writer *w, Job *j)
{
	bool block = j->kind == JOB_DATA || j->kind == JOB_WHOLE || j->kind == JOB_TAKEN;
	j->next = j->hnext = NULL;
	atomic_init(&j->refs, block ? 2 : 1); /* written (run), hashed */
	if (!w->threaded) {
		const Sink *s = j->sink;
		if (block)
			hash_update(s->sha, job_bytes(j), j->n);
		run_job(w, j);
		if (block)
			job_release(w, j, false);
		return;
	}
	pthread_mutex_lock(&w->mu);
	while (w->queued && w->queued + j->n > QUEUE_BYTES) {
		if (hash_one(w) || write_one(w))
			continue;
		w->full++;
		pthread_cond_wait(&w->room, &w->mu);
		w->full--;
	}
	Sink *s = j->sink;
	if (s->jtail)
		s->jtail->next = j;
	else
		s->jhead = j;
	s->jtail = j;
	if (!s->running && !s->listed)
		ready_add(w, s, false);
	if (block) {
		if (w->htail)
			w->htail->hnext = j;
		else
			w->hhead = j;
		w->htail = j;
	}
	w->queued += j->n;
	if (w->asleep)
		pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->mu);
}

static void writer_job(Writer *w, JobKind kind, Sink *s, const char *data, size_t n)
{
	Job *j = xmalloc(sizeof *j + n);
	*j = (Job){.kind = kind, .sink = s, .n = n};
	if (n)
		memcpy(j->data, data, n);
	writer_push(w, j);
}

/* Returns once every job queued so far has run and every block is hashed (helping with the
 * hashing and the writing meanwhile): their sinks are the caller's again. */
static void writer_wait(Writer *w)
{
	if (!w || !w->threaded)
		return;
	pthread_mutex_lock(&w->mu);
	while (!writer_done(w)) {
		if (hash_one(w) || write_one(w))
			continue;
		pthread_cond_wait(&w->idle, &w->mu);
	}
	pthread_mutex_unlock(&w->mu);
}

/* Runs what is queued, ends the thread and frees w (NULL: nothing). */
static void writer_stop(Writer *w)
{
	if (!w)
		return;
	if (w->threaded) {
		pthread_mutex_lock(&w->mu);
		w->quit = true;
		pthread_cond_signal(&w->more);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->thread, NULL);
	}
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->more);
	pthread_cond_destroy(&w->room);
	pthread_cond_destroy(&w->idle);
	if (w->dirfd >= 0)
		close(w->dirfd);
	free(w->made);
	for (int i = 0; i < w->nspare; i++)
		free(w->spare[i].s);
	free(w);
}

/* The stream's side of a Sink: stdio hands it full buffers (and large writes whole). */
static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	Sink *s = cookie;
	for (size_t done = 0; done < n; done += JOB_MAX)
		writer_job(s->w, JOB_DATA, s, buf + done, n - done < JOB_MAX ? n - done : JOB_MAX);
	return (ssize_t)n;
}

static int sink_close(void *cookie)
{
	Sink *s = cookie;
	writer_job(s->w, JOB_CLOSE, s, NULL, 0);
	return 0;
}

static void free_sink(Sink *s)
{
	if (s) {
		free(s->full);
		hash_free(s->sha);
	}
	free(s);
}

Output *output_open(Ctx *c, const char *dir, bool force)
{
	Output *o = xmalloc(sizeof *o);
	*o = (Output){.c = c, .force = force};
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	o->dir = xmalloc(n + 1);
	memcpy(o->dir, dir, n);
	o->dir[n] = 0;
	const char *slash = strrchr(o->dir, '/');
	const char *base = slash ? slash + 1 : o->dir;
	o->base = xstrdup(base);
	o->prefix = xstrdup(o->dir);
	o->prefix[base - o->dir] = 0;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		Diag *d = diag_error(c, NOLOC,
				     "cannot write the output into '%s': name a directory that "
				     "clusterc may create or replace",
				     *dir ? dir : "");
		diag_set_code(d, "io");
		output_free(o);
		return NULL;
	}
	if (!make_parents(o) || !(o->od = outdir_begin(c, o->dir, force))) {
		output_free(o);
		return NULL;
	}
	o->tmp = xstrdup(outdir_tmp(o->od));
	o->w = writer_start(o->tmp);
	return o;
}

const char *output_dir(const Output *o)
{
	return o->dir;
}

void output_set_named(Output *o, bool named)
{
	o->named = named;
}

bool output_named(const Output *o)
{
	return o->named;
}

/* Relative, '/'-separated, no empty, "." or ".." part: a name inside the directory. */
static bool valid_relpath(const char *p)
{
	if (!*p || *p == '/')
		return false;
	for (const char *s = p; *s;) {
		size_t n = strcspn(s, "/");
		if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		s += n;
		if (*s == '/' && !*++s)
			return false;
	}
	return true;
}

/* A new file RELPATH: its Sink, and its entry in o->files (f NULL). NULL after a diagnostic. */
static OutFile *new_file(Output *o, const char *relpath)
{
	/* A part leaves the names to output_join (the Output's table is the main thread's). */
	const char *key = o->root ? NULL : intern_cstr(o->c, relpath);
	if (!valid_relpath(relpath) || strcmp(relpath, MANIFEST) == 0 ||
	    strcmp(relpath, OUTDIR_TOKEN) == 0 ||
	    (key && table_get(&o->names, key))) {
		/* A backend's bug, not the user's: say so rather than overwrite. */
		internal_error(o, "internal error: artifact path '%s' is invalid or taken", relpath);
		o->failed = true;
		return NULL;
	}
	Sink *s = xmalloc(sizeof *s);
	*s = (Sink){.w = o->w, .full = join(o->tmp, relpath), .rel = strlen(o->tmp) + 1, .fd = -1};
	s->sha = hash_new();
	if (o->nfiles == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 16;
		o->files = xrealloc(o->files, sizeof *o->files * (size_t)o->cap);
	}
	OutFile *of = &o->files[o->nfiles++];
	*of = (OutFile){.path = xstrdup(relpath), .sink = s};
	if (key)
		table_put(o->c, &o->names, key, (void *)(intptr_t)o->nfiles);
	return of;
}

/* The sink of f, a stream of o's output_file still open, or NULL (output_put). Searched from
 * the last file, as output_close does: a writer's open streams are its latest files. o is one
 * thread's (an Output, or a part on its thread), so nothing here is shared. */
static Sink *stream_sink(const Output *o, const FILE *f)
{
	for (int i = o->nfiles - 1; i >= 0; i--)
		if (o->files[i].f == f)
			return o->files[i].sink;
	return NULL;
}

bool output_put(Output *o, FILE *f, Buf *b, bool more)
{
	Sink *s = stream_sink(o, f);
	if (!s || !b->len || fflush(f) != 0) /* what stdio holds of f goes first */
		return false;
	Writer *w = s->w;
	Job *j = xmalloc(sizeof *j);
	*j = (Job){.kind = JOB_TAKEN, .sink = s, .n = b->len, .owned = b->s, .cap = b->cap};
	size_t cap = b->cap;
	*b = (Buf){0};
	if (!more) {
		writer_push(w, j);
		return true;
	}
	lock(w);
	if (w->nspare) {
		w->nspare--;
		b->s = w->spare[w->nspare].s;
		b->cap = w->spare[w->nspare].cap;
	}
	unlock(w);
	writer_push(w, j);
	if (!b->s) { /* the same size again, not grown to it piece by piece */
		b->s = xmalloc(cap);
		b->cap = cap;
	}
	b->s[0] = 0;
	return true;
}

FILE *output_file(Output *o, const char *relpath)
{
	OutFile *of = new_file(o, relpath);
	if (!of)
		return NULL;
	Sink *s = of->sink;
	FILE *f = fopencookie(s, "w", (cookie_io_functions_t){.write = sink_write, .close = sink_close});
	if (!f) {
		char *shown = join(o->dir, relpath);
		io_error(o, "cannot create", shown, errno);
		free(shown);
		of->a.path = of->path; /* written as nothing: commit refuses */
		s->err = -1;
		o->failed = true;
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, FILE_BUFFER);
	writer_job(o->w, JOB_OPEN, s, NULL, 0);
	of->f = f;
	return f;
}

int output_write_buf(Output *o, const char *relpath, Buf *b)
{
	OutFile *of = new_file(o, relpath);
	if (!of)
		return 1;
	of->a.path = of->path;
	Writer *w = o->w;
	Job *j = xmalloc(sizeof *j);
	*j = (Job){.kind = JOB_WHOLE, .sink = of->sink, .n = b->len, .owned = b->s};
	*b = (Buf){0};
	if (!j->owned)
		j->owned = xstrdup("");
	writer_push(w, j);
	return 0;
}

/* Flushes and closes f; 0 or the errno of the first failed write. */
static int finish_stream(FILE *f)
{
	int err = 0;
	if (fflush(f) != 0)
		err = errno;
	else if (ferror(f))
		err = EIO; /* an earlier write failed and its errno is gone */
	if (fclose(f) != 0 && !err)
		err = errno;
	return err;
}

/* Closes of's stream: its last blocks go to the writer. What the writer makes of them shows
 * in collect(). */
static int close_file(Output *o, OutFile *of)
{
	FILE *f = of->f;
	of->f = NULL;
	int err = finish_stream(f); /* the sink itself never fails */
	of->a.path = of->path;
	if (err) {
		char *shown = join(o->dir, of->path);
		io_error(o, "cannot write", shown, err);
		free(shown);
		o->failed = true;
		return 1;
	}
	return 0;
}

/* Once the writer is idle: each closed file's size and hash, or its failure diagnosed. */
static void collect(Output *o)
{
	writer_wait(o->w);
	for (int i = 0; i < o->nfiles; i++) {
		OutFile *of = &o->files[i];
		Sink *s = of->sink;
		if (of->f || !s)
			continue;
		if (s->err > 0) {
			char *shown = join(o->dir, of->path);
			io_error(o, s->what, shown, s->err);
			free(shown);
		}
		if (s->err)
			o->failed = true;
		hash_finish(s->sha, of->a.sha256);
		s->sha = NULL;
		of->a.bytes = s->bytes;
		free_sink(s);
		of->sink = NULL;
	}
}

int output_close(Output *o, FILE *f)
{
	for (int i = o->nfiles - 1; i >= 0; i--)
		if (o->files[i].f == f)
			return close_file(o, &o->files[i]);
	internal_error(o, "internal error: output_close of a file it did not open%s", "");
	o->failed = true;
	return 1;
}

Output *output_part(Output *o)
{
	Output *p = xmalloc(sizeof *p);
	*p = (Output){.root = o, .dir = o->dir, .tmp = o->tmp, .w = o->w, .named = o->named};
	return p;
}

int output_join(Output *o, Output *p)
{
	int errors = 0;
	for (int i = 0; i < p->nheld; i++) {
		Diag *d = diag_error(o->c, NOLOC, "%s", p->held[i].text);
		if (p->held[i].io)
			diag_set_code(d, "io");
		free(p->held[i].text); /* an error its writer counted */
	}
	for (int i = 0; i < p->nfiles; i++) {
		const char *key = intern_cstr(o->c, p->files[i].path);
		bool taken = table_get(&o->names, key) != NULL;
		if (taken) {
			internal_error(o, "internal error: artifact path '%s' is invalid or taken",
				       p->files[i].path);
			o->failed = true;
			errors++;
		}
		if (o->nfiles == o->cap) {
			o->cap = o->cap ? o->cap * 2 : 16;
			o->files = xrealloc(o->files, sizeof *o->files * (size_t)o->cap);
		}
		o->files[o->nfiles++] = p->files[i]; /* its sink and stream go with it */
		if (!taken)
			table_put(o->c, &o->names, key, (void *)(intptr_t)o->nfiles);
	}
	o->failed |= p->failed;
	free(p->files);
	free(p->held);
	free(p);
	return errors;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const Artifact *)a)->path, ((const Artifact *)b)->path);
}

int output_artifacts(Output *o, const Artifact **list)
{
	for (int i = 0; i < o->nfiles; i++)
		if (o->files[i].f)
			close_file(o, &o->files[i]);
	collect(o);
	if (o->failed)
		return -1;
	o->list = xrealloc(o->list, sizeof *o->list * (size_t)(o->nfiles ? o->nfiles : 1));
	for (int i = 0; i < o->nfiles; i++)
		o->list[i] = o->files[i].a;
	qsort(o->list, (size_t)o->nfiles, sizeof *o->list, by_path);
	*list = o->list;
	return o->nfiles;
}

static int write_manifest(Output *o, const Artifact *list, int n)
{
	char *full = join(o->tmp, MANIFEST);
	FILE *f = fopen(full, "w");
	free(full);
	int err = f ? 0 : errno;
	if (f) {
		Json *root = jw_object();
		jw_set(root, "schema", jw_str(MANIFEST_SCHEMA));
		jw_set(root, "generator", jw_str("clusterc " CLUSTERC_VERSION));
		Json *files = jw_array();
		for (int i = 0; i < n; i++) {
			Json *e = jw_object();
			jw_set(e, "path", jw_str(list[i].path));
			jw_set(e, "bytes", jw_int((long long)list[i].bytes));
			jw_set(e, "sha256", jw_str(list[i].sha256));
			jw_push(files, e);
		}
		jw_set(root, "files", files);
		jw_write(f, root);
		err = finish_stream(f);
	}
	if (err) {
		char *shown = join(o->dir, MANIFEST);
		io_error(o, "cannot write", shown, err);
		free(shown);
		return 1;
	}
	return 0;
}

int output_commit(Output *o)
{
	const Artifact *list = NULL;
	int n = o->failed ? -1 : output_artifacts(o, &list);
	int errors = n < 0 || write_manifest(o, list, n) || outdir_commit(o->od, o->force);
	output_free(o);
	return errors;
}

void output_abort(Output *o)
{
	if (o)
		output_free(o);
}
