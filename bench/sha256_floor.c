/*
 * sha256_floor.c DIR — the CPU time SHA-256 takes over every file under DIR, one core, with
 * nettle (what lang/hash.c uses) and with libcrypto's EVP interface (OpenSSL 3, which uses the
 * CPU's SHA extensions where it has them): the hashing a build must do for manifest.json
 * (docs/PRODUCT.md keeps SHA-256), part of the floor bench.py prints ("floor" lines;
 * docs/performance.md, "The floor, per case"). The files are read in batches of about 64 MiB
 * into one buffer (the reads are not timed); each batch is then hashed file by file by one of
 * the two and then by the other (which goes first alternates from batch to batch, so neither
 * always finds the bytes warmer in the cache), an update per MiB and the digest at each file's
 * end, as output.c hashes a file's blocks. Each batch's hashing is timed as a whole (this
 * thread's CPU clock: a clock read per file would cost the 32,832 files of the dragonfly's
 * switches more than their hashing), and the two digests of every file are compared (exit 1 if
 * they differ). Prints "BYTES FILES NETTLE_MS LIBCRYPTO_MS". A benchmark tool, apart from the
 * project on purpose (it must not link it): bench.py compiles it with
 * `cc -O2 ... -lnettle -lcrypto` (packages nettle-dev and libssl-dev), or, without libssl-dev,
 * with -DNO_LIBCRYPTO -lnettle (LIBCRYPTO_MS then "-").
 */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <nettle/sha2.h>
#ifndef NO_LIBCRYPTO
#include <openssl/evp.h>
#else
#define EVP_MAX_MD_SIZE 64
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { BATCH = 64 << 20, BLOCK = 1 << 20, DIGEST = SHA256_DIGEST_SIZE };

/* The batch: the bytes of its files one after the other, and where each starts and ends. */
static unsigned char *buf;
static size_t cap, used;
static struct {
	size_t at, n;
	uint8_t digest[DIGEST];
} *file;
static size_t nfile, capfile;
static double ms_nettle, ms_evp;
static unsigned long long bytes, files, batches;
#ifndef NO_LIBCRYPTO
static EVP_MD_CTX *evp;
static const EVP_MD *sha256;
#endif
static int failed;

static double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void hash_nettle(void)
{
	double t = cpu_ms();
	for (size_t i = 0; i < nfile; i++) {
		struct sha256_ctx ctx;
		sha256_init(&ctx);
		for (size_t k = 0; k < file[i].n; k += BLOCK)
			sha256_update(&ctx, file[i].n - k < BLOCK ? file[i].n - k : BLOCK,
				      buf + file[i].at + k);
		sha256_digest(&ctx, DIGEST, file[i].digest);
	}
	ms_nettle += cpu_ms() - t;
}

/* libcrypto's digests, compared with nettle's once both are made (not timed). */
static void hash_evp(uint8_t (*out)[EVP_MAX_MD_SIZE])
{
#ifdef NO_LIBCRYPTO
	(void)out;
#else
	double t = cpu_ms();
	for (size_t i = 0; i < nfile; i++) {
		unsigned int len = 0;
		int ok = EVP_DigestInit_ex(evp, sha256, NULL);
		for (size_t k = 0; k < file[i].n; k += BLOCK)
			ok &= EVP_DigestUpdate(evp, buf + file[i].at + k,
					       file[i].n - k < BLOCK ? file[i].n - k : BLOCK);
		ok &= EVP_DigestFinal_ex(evp, out[i], &len);
		if (!ok || len != DIGEST)
			failed = 1;
	}
	ms_evp += cpu_ms() - t;
#endif
}

static void hash_batch(void)
{
	if (!nfile)
		return;
	uint8_t (*other)[EVP_MAX_MD_SIZE] = malloc(sizeof *other * nfile);
	if (!other) {
		perror("sha256_floor");
		exit(1);
	}
	/* A byte of every page read, before the clocks: in this VM (PVM) the first time the
	 * process touches a page the kernel has just filled (read) costs it about 6 us, which made
	 * whichever library hashed a batch first up to 3x slower; a build hashes pages it has
	 * written itself. */
	volatile unsigned char sink = 0;
	for (size_t k = 0; k < used; k += 4096)
		sink ^= buf[k];
	(void)sink;
	if (batches++ % 2) {
		hash_nettle();
		hash_evp(other);
	} else {
		hash_evp(other);
		hash_nettle();
	}
#ifndef NO_LIBCRYPTO
	for (size_t i = 0; i < nfile && !failed; i++)
		if (memcmp(file[i].digest, other[i], DIGEST) != 0) {
			fprintf(stderr, "sha256_floor: nettle and libcrypto differ\n");
			failed = 1;
		}
#endif
	free(other);
	nfile = used = 0;
}

static int one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_F)
		return 0;
	size_t size = (size_t)st->st_size;
	if (used + size > cap && nfile)
		hash_batch();
	if (size > cap) { /* a file larger than a batch is a batch of its own */
		free(buf);
		cap = size;
		if (!(buf = malloc(cap))) {
			perror("sha256_floor");
			return 1;
		}
	}
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	size_t got = 0;
	for (ssize_t n; got < size && (n = read(fd, buf + used + got, size - got)) != 0; got += (size_t)n)
		if (n < 0) {
			perror(path);
			close(fd);
			return 1;
		}
	close(fd);
	if (nfile == capfile) {
		capfile = capfile ? 2 * capfile : 1024;
		if (!(file = realloc(file, sizeof *file * capfile))) {
			perror("sha256_floor");
			return 1;
		}
	}
	file[nfile].at = used, file[nfile].n = got;
	nfile++, used += got, bytes += got, files++;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: sha256_floor DIR\n");
		return 2;
	}
#ifndef NO_LIBCRYPTO
	evp = EVP_MD_CTX_new();
	sha256 = EVP_sha256();
	if (!evp || !sha256) {
		fprintf(stderr, "sha256_floor: libcrypto has no SHA-256\n");
		return 1;
	}
#endif
	cap = BATCH;
	if (!(buf = malloc(cap))) {
		perror("sha256_floor");
		return 1;
	}
	/* Each library's first call, untimed: libcrypto's finds its provider and the CPU's
	 * features then (tens of ms), which no build repeats per file. */
	file = malloc(sizeof *file);
	if (!file) {
		perror("sha256_floor");
		return 1;
	}
	capfile = nfile = 1, file[0].at = 0, file[0].n = BLOCK;
	hash_batch();
	ms_nettle = ms_evp = 0, batches = 0;
	int rc = nftw(argv[1], one, 64, FTW_PHYS) != 0;
	if (!rc)
		hash_batch();
#ifndef NO_LIBCRYPTO
	EVP_MD_CTX_free(evp);
#endif
	free(buf);
	free(file);
	if (rc || failed)
		return 1;
#ifdef NO_LIBCRYPTO
	printf("%llu %llu %.1f -\n", bytes, files, ms_nettle);
#else
	printf("%llu %llu %.1f %.1f\n", bytes, files, ms_nettle, ms_evp);
#endif
	return 0;
}
