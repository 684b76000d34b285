/*
 * arena.c — memory by lifetime. One arena per compilation holds every token, tree node, source
 * text and diagnostic; arena_free() releases them together, so no pass frees anything piecemeal
 * (after QBE's pools and Lua's single allocator).
 *
 * The arena bumps a pointer through large zeroed chunks. Requests of more than a quarter of a
 * chunk get a chunk of their own, so a 10 MB source file does not waste the rest of a chunk.
 * Every block is 16-byte aligned, enough for any scalar type on the machines we target.
 *
 * Pass-through mode gives every allocation its own calloc() and remembers it, so AddressSanitizer
 * and valgrind see each block's bounds and report overruns between neighbours. It is on when the
 * environment says CLUSTERC_ARENA=malloc or the build defines CLUSTERC_ARENA_PASSTHROUGH (the
 * sanitizer build does) and the environment does not say CLUSTERC_ARENA=chunks. Chunks under
 * AddressSanitizer (CLUSTERC_ARENA=chunks in the sanitizer build: what a compare worker's replay
 * of a physical build needs, arena_delta, tests/compare_replay.sh) keep the memory not handed out
 * poisoned: a chunk's free space, and every byte of a chunk no arena holds (kept for reuse,
 * arena_keep_chunks), so a read or write past the last allocation, or through a pointer into a
 * freed arena, is reported. An overrun from one allocation into the next is not (they touch, as
 * in the release build, up to the 16-byte rounding).
 *
 * Also here: the x* wrappers that end the program with exit code 70 when memory runs out (there
 * is nothing sensible a compiler can do then), PtrVec and Buf.
 */
#include "lang.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

enum {
	ALIGN = 16,
	HUGE_PAGE = 2 << 20,          /* x86-64's transparent huge page */
	CHUNK_BYTES = HUGE_PAGE,      /* a chunk with its header: one huge page */
	BIG_REQUEST = CHUNK_BYTES / 4, /* above this a request gets its own chunk */
	HEAP_FIRST = 256 << 20,       /* arena_tune_heap: the heap's first growth */
};

/* A chunk's header is padded to ALIGN so the memory after it starts aligned. */
typedef struct Chunk {
	struct Chunk *next;
	size_t size;   /* usable bytes after the header */
	size_t mapped; /* the length of its own mapping, or 0 when it came from calloc */
	size_t dirty;  /* bytes of mem written (handed out) so far: what a reuse zeroes */
	_Alignas(ALIGN) unsigned char mem[];
} Chunk;

struct Arena {
	bool passthrough;
	Chunk *chunks;      /* the current chunk first, then older and dedicated ones */
	unsigned char *cur; /* next free byte of chunks->mem */
	unsigned char *end;
	size_t bytes;       /* handed out, rounded to ALIGN */
	void **blocks;      /* pass-through: every block, freed by arena_free */
	size_t *sizes;      /* ... and its size (arena_mark copies them) */
	size_t nblocks, capblocks;
};

/* Under AddressSanitizer: the first `used` bytes of ch->mem addressable, the rest not. */
static void chunk_poison(Chunk *ch, size_t used)
{
	UNPOISON(ch->mem, used);
	POISON(ch->mem + used, ch->size - used);
}

void die_invariant(const char *file, int line, const char *what)
{
	fflush(stdout);
	fprintf(stderr, "clusterc: internal error: %s:%d: %s\n", file, line, what);
	exit(EXIT_INTERNAL);
}

void die_oom(void)
{
	fputs("clusterc: fatal: out of memory\n", stderr);
	exit(EXIT_INTERNAL);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom();
	return q;
}

/* The caller owns the copy and frees it with free(). */
char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

Arena *arena_new(void)
{
	Arena *a = xmalloc(sizeof *a);
	memset(a, 0, sizeof *a);
	const char *mode = getenv("CLUSTERC_ARENA");
#ifdef CLUSTERC_ARENA_PASSTHROUGH
	a->passthrough = !mode || strcmp(mode, "chunks") != 0;
#else
	a->passthrough = mode && strcmp(mode, "malloc") == 0;
#endif
	return a;
}

/* Chunks of one huge page kept by arena_free for the next arena (arena_keep_chunks): a process
 * that compiles many designs one after another (a worker of `clusterc compare`) would otherwise
 * map, fault in and zero its chunks again for each (docs/performance.md). At most KEEP_CHUNKS. */
enum { KEEP_CHUNKS = 256 };
static bool keep_chunks;
static int keep_chunks_max = KEEP_CHUNKS; /* KEEP_CHUNKS, or the test hook's (arena_keep_chunks) */
static Chunk *kept;
static int nkept;
/* The kept chunks are the process's, and arenas of several threads may take and give them
 * (emit.c makes the cable ends' table in an arena of its own on one thread while writers
 * allocate in the design's on another): under this lock, taken once per chunk. */
static pthread_mutex_t keep_mu = PTHREAD_MUTEX_INITIALIZER;
/* And the larger chunks of single big requests (a design's links, cables, ports: MiBs each),
 * which were mapped, faulted in, zeroed by the kernel and unmapped again for every row: kept
 * up to KEEP_BIG_BYTES, and handed to the next request they hold (the smallest that does),
 * zeroed over what was written of them. */
#define KEEP_BIG_BYTES ((size_t)512 << 20)
static size_t keep_big_max = KEEP_BIG_BYTES;
static Chunk *kept_big;
static size_t kept_big_bytes;

/* A test hook: CLUSTERC_TEST_KEEP_MIB=N keeps at most N MiB on each list (N / 2 chunks of a huge
 * page, N MiB of big chunks) instead of 512 MiB, so that a test can make a row's release overflow
 * them (tests/compare.sh, the unit test of the deltas: a kept physical build whose chunks were
 * released). Read when keeping is turned on. */
void arena_keep_chunks(bool on)
{
	keep_chunks = on;
	keep_chunks_max = KEEP_CHUNKS;
	keep_big_max = KEEP_BIG_BYTES;
	const char *mib = on ? getenv("CLUSTERC_TEST_KEEP_MIB") : NULL;
	if (mib && *mib) {
		char *end;
		unsigned long n = strtoul(mib, &end, 10);
		if (!*end && n <= 512) {
			keep_chunks_max = (int)((n << 20) / CHUNK_BYTES);
			keep_big_max = (size_t)n << 20;
		}
	}
}

/* What a chunk takes: its mapping, or its header and memory when it came from calloc. */
static size_t chunk_bytes(const Chunk *ch)
{
	return ch->mapped ? ch->mapped : sizeof(Chunk) + ch->size;
}

/* A chunk no arena uses any more: kept for the next (arena_keep_chunks), else unmapped or freed.
 * A big request's chunk is kept whether it was mapped or (under a huge page) came from calloc:
 * the next row's request of the same size then gets the same memory (and the physical build a
 * compare worker replays, arena_delta_apply, finds its chunks where they were).
 * ch->dirty says how much of it was written. */
static void chunk_release(Chunk *ch)
{
	bool kept_it = false;
	if (keep_chunks) {
		pthread_mutex_lock(&keep_mu);
		/* poisoned before another thread can take it (chunk_new unpoisons it) */
		if (ch->mapped == CHUNK_BYTES && nkept < keep_chunks_max) {
			POISON(ch->mem, ch->size); /* no arena's: any access is a stale pointer's */
			ch->next = kept;
			kept = ch;
			nkept++;
			kept_it = true;
		} else if (ch->mapped != CHUNK_BYTES && ch->size > BIG_REQUEST &&
			   kept_big_bytes + chunk_bytes(ch) <= keep_big_max) {
			POISON(ch->mem, ch->size);
			ch->next = kept_big;
			kept_big = ch;
			kept_big_bytes += chunk_bytes(ch);
			kept_it = true;
		}
		pthread_mutex_unlock(&keep_mu);
	}
	if (kept_it)
		return;
	UNPOISON(ch->mem, ch->size); /* the address may be handed out again, by anyone */
	if (ch->mapped) {
		munmap(ch, ch->mapped);
	} else {
		free(ch);
	}
}

void arena_free(Arena *a)
{
	if (!a)
		return;
	if (a->chunks)
		a->chunks->dirty = (size_t)(a->cur - a->chunks->mem);
	for (Chunk *ch = a->chunks, *next; ch; ch = next) {
		next = ch->next;
		chunk_release(ch);
	}
	for (size_t i = 0; i < a->nblocks; i++)
		free(a->blocks[i]);
	free(a->blocks);
	free(a->sizes);
	free(a);
}

/* Chunks of a huge page or more are mapped on huge-page boundaries and marked for transparent
 * huge pages (where the kernel has them: Debian's default is on request, "madvise"), so one
 * page fault maps 2 MiB rather than 4 KiB. Faults are dear in a virtual machine: on the 2-core
 * development VM, touching 64 MiB took 290 ms in 4 KiB pages and 5 ms in huge pages, and the
 * arena holds some 40 MiB at 100,000 GPUs (docs/performance.md). Smaller chunks, and any
 * system without mmap's help, use calloc. Both give zeroed memory. */
static Chunk *chunk_new(size_t size)
{
	if (size > SIZE_MAX - sizeof(Chunk) - 2 * (size_t)HUGE_PAGE)
		die_oom();
	size_t total = sizeof(Chunk) + size;
	Chunk *ch = NULL;
	pthread_mutex_lock(&keep_mu);
	if (kept && total == CHUNK_BYTES) {
		ch = kept;
		kept = ch->next;
		nkept--;
	} else if (kept_big && total != CHUNK_BYTES) {
		Chunk **best = NULL;
		for (Chunk **at = &kept_big; *at; at = &(*at)->next)
			if ((*at)->size >= size && (!best || (*at)->size < (*best)->size))
				best = at;
		if (best) {
			ch = *best;
			*best = ch->next;
			kept_big_bytes -= chunk_bytes(ch);
		}
	}
	pthread_mutex_unlock(&keep_mu);
	if (ch) {
		UNPOISON(ch->mem, ch->size);
		memset(ch->mem, 0, ch->dirty < ch->size ? ch->dirty : ch->size);
		ch->next = NULL;
		ch->dirty = 0;
		return ch;
	}
	if (total >= HUGE_PAGE) {
		size_t len = (total + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
		char *p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (p != MAP_FAILED) {
			char *q = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
			if (q > p)
				munmap(p, (size_t)(q - p));
			if (p + len + HUGE_PAGE > q + len)
				munmap(q + len, (size_t)(p + len + HUGE_PAGE - (q + len)));
#ifdef MADV_HUGEPAGE
			madvise(q, len, MADV_HUGEPAGE);
#endif
			ch = (Chunk *)q;
			ch->size = len - sizeof(Chunk);
			ch->mapped = len;
			return ch;
		}
	}
	ch = calloc(1, total);
	if (!ch)
		die_oom();
	ch->size = size;
	return ch;
}

static void *passthrough_alloc(Arena *a, size_t n)
{
	if (a->nblocks == a->capblocks) {
		a->capblocks = a->capblocks ? 2 * a->capblocks : 256;
		a->blocks = xrealloc(a->blocks, a->capblocks * sizeof *a->blocks);
		a->sizes = xrealloc(a->sizes, a->capblocks * sizeof *a->sizes);
	}
	void *p = calloc(1, n ? n : 1);
	if (!p)
		die_oom();
	a->sizes[a->nblocks] = n;
	a->blocks[a->nblocks++] = p;
	return p;
}

/* The C library's heap in huge pages too, for a build: what is not in an arena (the text of the
 * artifacts, the writer's queue, buffers) comes from malloc. The heap's first growth reserves
 * HEAP_FIRST, marked for huge pages here (address space only: a huge page is faulted in, and
 * zeroed, where first touched), later ones 64 MiB each; it is never trimmed (a build's buffers
 * come and go by the thousand), and blocks up to 32 MiB come from it rather than from mmaps of
 * their own. Every thread allocates from this one heap (M_ARENA_MAX 1): glibc gives a second
 * thread an arena of its own, mmapped in 64 MiB heaps without huge pages, so the emitter's
 * second renderer (CLUSTERC_THREADS=2) faulted its buffers in 4 KiB at a time, some 10,000
 * faults at 100,000 GPUs against 800 with one, at about 6 us each on the development VM
 * (docs/performance.md, "Emitter, eleventh pass"); the threads' small blocks come from their
 * own caches (tcache) without the heap's lock. glibc only (mallopt); nothing under the
 * sanitizers, whose allocator has no heap. */
void arena_tune_heap(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !defined(CLUSTERC_ARENA_PASSTHROUGH)
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_TOP_PAD, HEAP_FIRST);
	char *before = sbrk(0);
	free(xmalloc(1 << 20)); /* past the top: the heap grows by the pad */
	char *after = sbrk(0);
	mallopt(M_TOP_PAD, 64 << 20);
	uintptr_t lo = ((uintptr_t)before + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	uintptr_t hi = (uintptr_t)after & ~(uintptr_t)(HUGE_PAGE - 1);
	if (before != (char *)-1 && after != (char *)-1 && hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#endif
}

/* Zeroed memory that lives until arena_free(a). */
void *arena_alloc(Arena *a, size_t n)
{
	if (n > SIZE_MAX - ALIGN)
		die_oom();
	size_t rounded = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	a->bytes += rounded;
	if (a->passthrough)
		return passthrough_alloc(a, n);
	if (rounded > BIG_REQUEST) {
		/* A dedicated chunk goes behind the current one, which keeps its free space. */
		Chunk *ch = chunk_new(rounded);
		ch->dirty = rounded; /* all that is ever written of it */
		chunk_poison(ch, rounded);
		if (a->chunks) {
			ch->next = a->chunks->next;
			a->chunks->next = ch;
		} else {
			a->chunks = ch;
			a->cur = a->end = ch->mem + rounded;
		}
		return ch->mem;
	}
	if ((size_t)(a->end - a->cur) < rounded) {
		Chunk *ch = chunk_new(CHUNK_BYTES - sizeof(Chunk));
		if (a->chunks)
			a->chunks->dirty = (size_t)(a->cur - a->chunks->mem);
		ch->next = a->chunks;
		a->chunks = ch;
		a->cur = ch->mem;
		a->end = ch->mem + ch->size;
		chunk_poison(ch, 0);
	}
	void *p = a->cur;
	a->cur += rounded;
	UNPOISON(p, rounded);
	return p;
}

/* Copies at most n bytes of s, stopping at a NUL, and terminates the copy. */
char *arena_strndup(Arena *a, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = arena_alloc(a, len + 1);
	memcpy(p, s, len);
	return p;
}

char *arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

/* Printed once where the string will stand when it fits the current chunk's free space (its
 * names, thousands a build): the bytes and their place are those of the two passes below, which
 * measure, allocate and print. A string that does not fit leaves the free space zeroed again. */
char *arena_vprintf(Arena *a, const char *fmt, va_list ap)
{
	if (!a->passthrough && a->cur && a->end > a->cur) {
		size_t room = (size_t)(a->end - a->cur);
		UNPOISON(a->cur, room); /* printed into, then poisoned again past what it took */
		va_list ap1;
		va_copy(ap1, ap);
		int n = vsnprintf((char *)a->cur, room, fmt, ap1);
		va_end(ap1);
		size_t rounded = n >= 0 ? ((size_t)n + 1 + ALIGN - 1) & ~(size_t)(ALIGN - 1) : 0;
		if (n >= 0 && rounded <= room && rounded <= BIG_REQUEST) {
			char *p = (char *)a->cur;
			a->cur += rounded;
			a->bytes += rounded;
			POISON(a->cur, room - rounded);
			return p;
		}
		memset(a->cur, 0, n < 0 ? room : ((size_t)n + 1 < room ? (size_t)n + 1 : room));
		POISON(a->cur, room);
	}
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		n = 0; /* an encoding error: an empty string beats a crash */
	char *p = arena_alloc(a, (size_t)n + 1);
	if (n > 0)
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}

size_t arena_bytes(const Arena *a)
{
	return a ? a->bytes : 0;
}

/* ---- marks: an arena taken back to what it held (a compare worker's front end, loaded once) --
 *
 * arena_mark copies every byte handed out so far (the chunks' written part, or the pass-through
 * blocks); arena_rewind gives back every chunk or block allocated since, writes the copied bytes
 * back over whatever the later passes changed in them, and zeroes what was handed out since in
 * the chunk then current. The arena is then byte for byte what it was at the mark, so the
 * structures in it (a parsed program that resolve, the overrides and check write into) are as
 * the mark found them, at the same addresses. Only the arena's memory: what points out of it
 * (the interner's table, ctx.c) is the caller's to restore. */
struct ArenaMark {
	int n;              /* chunks (or blocks) at the mark, in list order */
	Chunk **chunks;
	size_t *used;       /* bytes written of each: the copy's */
	unsigned char *copy; /* their bytes, one after the other */
	size_t cur, end;    /* the current chunk's free space then, as offsets into its mem */
	size_t bytes;
};

ArenaMark *arena_mark(const Arena *a)
{
	ArenaMark *m = xmalloc(sizeof *m);
	memset(m, 0, sizeof *m);
	m->bytes = a->bytes;
	size_t total = 0;
	if (a->passthrough) {
		m->n = (int)a->nblocks;
		m->used = xmalloc(sizeof *m->used * (a->nblocks + 1));
		for (size_t i = 0; i < a->nblocks; i++)
			total += m->used[i] = a->sizes[i];
		m->copy = xmalloc(total + 1);
		total = 0;
		for (size_t i = 0; i < a->nblocks; i++) {
			memcpy(m->copy + total, a->blocks[i], m->used[i]);
			total += m->used[i];
		}
		return m;
	}
	for (const Chunk *ch = a->chunks; ch; ch = ch->next)
		m->n++;
	m->chunks = xmalloc(sizeof *m->chunks * (size_t)(m->n + 1));
	m->used = xmalloc(sizeof *m->used * (size_t)(m->n + 1));
	int i = 0;
	for (Chunk *ch = a->chunks; ch; ch = ch->next, i++) {
		m->chunks[i] = ch;
		m->used[i] = ch == a->chunks ? (size_t)(a->cur - ch->mem) : ch->dirty;
		total += m->used[i];
	}
	if (a->chunks) {
		m->cur = (size_t)(a->cur - a->chunks->mem);
		m->end = (size_t)(a->end - a->chunks->mem);
	}
	m->copy = xmalloc(total + 1);
	total = 0;
	for (i = 0; i < m->n; i++) {
		memcpy(m->copy + total, m->chunks[i]->mem, m->used[i]);
		total += m->used[i];
	}
	return m;
}

void arena_rewind(Arena *a, const ArenaMark *m)
{
	a->bytes = m->bytes;
	size_t total = 0;
	if (a->passthrough) {
		for (size_t i = (size_t)m->n; i < a->nblocks; i++)
			free(a->blocks[i]);
		a->nblocks = (size_t)m->n;
		for (size_t i = 0; i < a->nblocks; i++) {
			memcpy(a->blocks[i], m->copy + total, m->used[i]);
			total += m->used[i];
		}
		return;
	}
	if (a->chunks)
		a->chunks->dirty = (size_t)(a->cur - a->chunks->mem);
	for (Chunk *ch = a->chunks, *next; ch; ch = next) {
		next = ch->next;
		bool marked = false;
		for (int i = 0; i < m->n && !marked; i++)
			marked = m->chunks[i] == ch;
		if (!marked)
			chunk_release(ch);
	}
	for (int i = 0; i < m->n; i++) {
		Chunk *ch = m->chunks[i];
		/* Only the chunk current at the mark can have been handed out from since. */
		if (i == 0 && ch->dirty > m->used[0])
			memset(ch->mem + m->used[0], 0, ch->dirty - m->used[0]);
		memcpy(ch->mem, m->copy + total, m->used[i]);
		total += m->used[i];
		ch->next = i + 1 < m->n ? m->chunks[i + 1] : NULL;
		ch->dirty = m->used[i];
		chunk_poison(ch, m->used[i]);
	}
	a->chunks = m->n ? m->chunks[0] : NULL;
	a->cur = a->chunks ? a->chunks->mem + m->cur : NULL;
	a->end = a->chunks ? a->chunks->mem + m->end : NULL;
}

void arena_mark_free(ArenaMark *m)
{
	if (!m)
		return;
	free(m->chunks);
	free(m->used);
	free(m->copy);
	free(m);
}

/* Doubles the storage when full; the old storage stays in the arena, unused. */
void vec_push(Arena *a, PtrVec *vec, void *p)
{
	if (vec->n == vec->cap) {
		if (vec->cap > (1 << 29))
			die_oom();
		int cap = vec->cap ? 2 * vec->cap : 8;
		void **v = arena_alloc(a, (size_t)cap * sizeof *v);
		if (vec->n)
			memcpy(v, vec->v, (size_t)vec->n * sizeof *v);
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->n++] = p;
}

/* Makes room for n more bytes plus the NUL that keeps b->s a C string. */
void buf_reserve(Buf *b, size_t n)
{
	if (n > SIZE_MAX / 2 - b->len)
		die_oom();
	size_t need = b->len + n + 1;
	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

/* b->s is always NUL-terminated once anything was put; the buffer owns it until buf_free(). */
void buf_put_grow(Buf *b, const char *s, size_t n)
{
	buf_reserve(b, n);
	if (n)
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char tmp[256];
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		buf_put(b, tmp, (size_t)n);
		return;
	}
	buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void buf_free(Buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

/* ---- deltas: what a span of passes wrote, replayed into a later run (a compare worker) ---------
 *
 * A compare worker's rows often build the very same physical design (driver/compare_physical.c):
 * a row whose state before the span is the kept row's, but for bytes
 * the span neither reads nor writes, ends the span in the kept row's state but for those bytes.
 * arena_delta records, at the end of the span, what it did to the arena since a mark taken at
 * its start: the bytes it changed in the chunks then held, the bytes it handed out after the
 * mark's current position, and the chunks it added (their addresses, order and bytes).
 * arena_delta_apply replays that into an arena laid out as the mark found the kept one (the same
 * chunks, the same bytes handed out: arena_same_layout), taking the added chunks back, at their
 * addresses, from the chunks kept for reuse (arena_keep_chunks): the pointers the span stored
 * into them then hold. When one of them is gone it replays nothing (false). Not in pass-through
 * mode (no chunks). */
typedef struct DeltaRun {
	unsigned char *at;  /* in a chunk of the mark */
	size_t len, off;    /* its bytes at off in ArenaDelta.bytes */
} DeltaRun;

typedef struct DeltaChunk {
	Chunk *ch;          /* at the span's end, in list order */
	bool added;         /* not in the mark: its written bytes at off */
	size_t size;        /* ch->size: ch itself is not read once the span's row is over (an
			     * added chunk the keep lists could not take is unmapped then) */
	size_t dirty, off;
} DeltaChunk;

struct ArenaDelta {
	DeltaRun *runs;     /* sorted by address */
	size_t nruns;
	DeltaChunk *chunks;
	int nchunks;
	unsigned char *bytes;
	size_t cur, end, bytes_out; /* the current chunk's free space at the end, bytes handed out */
};

bool arena_same_layout(const Arena *a, const ArenaMark *m)
{
	if (a->passthrough || !a->chunks || a->bytes != m->bytes ||
	    (size_t)(a->cur - a->chunks->mem) != m->cur || (size_t)(a->end - a->chunks->mem) != m->end)
		return false;
	int i = 0;
	for (const Chunk *ch = a->chunks; ch; ch = ch->next, i++)
		if (i >= m->n || m->chunks[i] != ch ||
		    m->used[i] != (ch == a->chunks ? (size_t)(a->cur - ch->mem) : ch->dirty))
			return false;
	return i == m->n;
}

/* Calls f on each run of bytes, in the chunks of mark m, where a differs from the mark's copy
 * (a laid out as m: arena_same_layout); stops and returns false when f does. */
bool arena_diff(const ArenaMark *m,
		bool (*f)(void *, unsigned char *now, const unsigned char *then, size_t n), void *arg)
{
	size_t total = 0;
	for (int i = 0; i < m->n; i++) {
		unsigned char *mem = m->chunks[i]->mem;
		const unsigned char *copy = m->copy + total;
		size_t n = m->used[i];
		total += n;
		for (size_t k = 0; k < n;) {
			size_t block = n - k < 256 ? n - k : 256;
			if (!memcmp(mem + k, copy + k, block)) {
				k += block;
				continue;
			}
			size_t end = k + block;
			while (k < end) {
				if (mem[k] == copy[k]) {
					k++;
					continue;
				}
				size_t j = k;
				while (j < n && mem[j] != copy[j])
					j++;
				if (!f(arg, mem + k, copy + k, j - k))
					return false;
				k = j;
			}
		}
	}
	return true;
}

typedef struct DeltaBuild {
	DeltaRun *runs;
	size_t nruns, cap;
	Buf bytes;
} DeltaBuild;

static bool delta_run(void *arg, unsigned char *now, const unsigned char *then, size_t n)
{
	(void)then;
	DeltaBuild *b = arg;
	if (b->nruns == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->runs = xrealloc(b->runs, sizeof *b->runs * b->cap);
	}
	b->runs[b->nruns++] = (DeltaRun){now, n, b->bytes.len};
	buf_put(&b->bytes, (const char *)now, n);
	return true;
}

static int run_order(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)((const DeltaRun *)x)->at, b = (uintptr_t)((const DeltaRun *)y)->at;
	return a < b ? -1 : a > b;
}

ArenaDelta *arena_delta(const Arena *a, const ArenaMark *m)
{
	if (a->passthrough || !a->chunks || !m->n)
		return NULL;
	DeltaBuild b = {0};
	arena_diff(m, delta_run, &b);
	ArenaDelta *dl = xmalloc(sizeof *dl);
	memset(dl, 0, sizeof *dl);
	for (const Chunk *ch = a->chunks; ch; ch = ch->next)
		dl->nchunks++;
	dl->chunks = xmalloc(sizeof *dl->chunks * (size_t)dl->nchunks);
	int i = 0;
	for (Chunk *ch = a->chunks; ch; ch = ch->next, i++) {
		size_t used = ch == a->chunks ? (size_t)(a->cur - ch->mem) : ch->dirty;
		int k = 0;
		while (k < m->n && m->chunks[k] != ch)
			k++;
		DeltaChunk *c = &dl->chunks[i];
		*c = (DeltaChunk){.ch = ch, .added = k == m->n, .size = ch->size, .dirty = used, .off = b.bytes.len};
		if (c->added)
			buf_put(&b.bytes, (const char *)ch->mem, used);
		else if (used > m->used[k])
			delta_run(&b, ch->mem + m->used[k], NULL, used - m->used[k]);
	}
	qsort(b.runs, b.nruns, sizeof *b.runs, run_order);
	dl->runs = b.runs, dl->nruns = b.nruns;
	dl->bytes = (unsigned char *)b.bytes.s;
	dl->cur = (size_t)(a->cur - a->chunks->mem);
	dl->end = (size_t)(a->end - a->chunks->mem);
	dl->bytes_out = a->bytes;
	return dl;
}

bool arena_delta_writes(const ArenaDelta *dl, const void *p, size_t n)
{
	uintptr_t lo = (uintptr_t)p, hi = lo + n;
	size_t l = 0, h = dl->nruns;
	while (l < h) { /* the first run that ends after lo */
		size_t mid = l + (h - l) / 2;
		if ((uintptr_t)dl->runs[mid].at + dl->runs[mid].len <= lo)
			l = mid + 1;
		else
			h = mid;
	}
	if (l < dl->nruns && (uintptr_t)dl->runs[l].at < hi)
		return true;
	for (int i = 0; i < dl->nchunks; i++) {
		const DeltaChunk *c = &dl->chunks[i];
		if (c->added && lo < (uintptr_t)(c->ch->mem + c->size) && hi > (uintptr_t)c->ch->mem)
			return true;
	}
	return false;
}

bool arena_holds(const Arena *a, uintptr_t v)
{
	for (const Chunk *ch = a->chunks; ch; ch = ch->next)
		if (v >= (uintptr_t)ch && v <= (uintptr_t)(ch->mem + ch->size))
			return true;
	return false;
}

bool arena_delta_holds(const ArenaDelta *dl, uintptr_t v)
{
	for (int i = 0; i < dl->nchunks; i++) {
		const Chunk *ch = dl->chunks[i].ch;
		if (v >= (uintptr_t)ch && v <= (uintptr_t)(ch->mem + dl->chunks[i].size))
			return true;
	}
	return false;
}

/* Every added chunk still kept for reuse: the same address and size (another chunk mapped where
 * a released one was would take the span's bytes into less memory). Under keep_mu. */
static bool delta_ready_locked(const ArenaDelta *dl)
{
	for (int i = 0; i < dl->nchunks; i++) {
		if (!dl->chunks[i].added)
			continue;
		bool found = false;
		for (const Chunk *ch = kept; ch && !found; ch = ch->next)
			found = ch == dl->chunks[i].ch && ch->size == dl->chunks[i].size;
		for (const Chunk *ch = kept_big; ch && !found; ch = ch->next)
			found = ch == dl->chunks[i].ch && ch->size == dl->chunks[i].size;
		if (!found)
			return false;
	}
	return true;
}

bool arena_delta_ready(const ArenaDelta *dl)
{
	pthread_mutex_lock(&keep_mu);
	bool ok = delta_ready_locked(dl);
	pthread_mutex_unlock(&keep_mu);
	return ok;
}

bool arena_delta_apply(Arena *a, const ArenaDelta *dl)
{
	pthread_mutex_lock(&keep_mu);
	if (!delta_ready_locked(dl)) {
		pthread_mutex_unlock(&keep_mu);
		return false;
	}
	for (int i = 0; i < dl->nchunks; i++) {
		if (!dl->chunks[i].added)
			continue;
		Chunk *want = dl->chunks[i].ch;
		for (Chunk **at = &kept; *at; at = &(*at)->next)
			if (*at == want) {
				*at = want->next;
				nkept--;
				break;
			}
		for (Chunk **at = &kept_big; *at; at = &(*at)->next)
			if (*at == want) {
				*at = want->next;
				kept_big_bytes -= chunk_bytes(want);
				break;
			}
	}
	pthread_mutex_unlock(&keep_mu);
	if (a->chunks)
		a->chunks->dirty = (size_t)(a->cur - a->chunks->mem);
	for (int i = 0; i < dl->nchunks; i++) {
		const DeltaChunk *c = &dl->chunks[i];
		Chunk *ch = c->ch;
		if (c->added) {
			UNPOISON(ch->mem, ch->size); /* kept for reuse: poisoned (chunk_release) */
			/* a kept chunk is zero beyond what was written of it (chunk_new's contract) */
			if (ch->dirty > c->dirty)
				memset(ch->mem + c->dirty, 0, ch->dirty - c->dirty);
			memcpy(ch->mem, dl->bytes + c->off, c->dirty);
		}
		/* what the span handed out of it addressable (the runs below write there) */
		chunk_poison(ch, i == 0 ? dl->cur : c->dirty);
		ch->dirty = c->dirty;
		ch->next = i + 1 < dl->nchunks ? dl->chunks[i + 1].ch : NULL;
	}
	for (size_t i = 0; i < dl->nruns; i++)
		memcpy(dl->runs[i].at, dl->bytes + dl->runs[i].off, dl->runs[i].len);
	a->chunks = dl->chunks[0].ch;
	a->cur = a->chunks->mem + dl->cur;
	a->end = a->chunks->mem + dl->end;
	a->bytes = dl->bytes_out;
	return true;
}

void arena_delta_free(ArenaDelta *dl)
{
	if (!dl)
		return;
	free(dl->runs);
	free(dl->chunks);
	free(dl->bytes);
	free(dl);
}
