/*
 * sha256_floor.c DIR — the CPU time nettle's SHA-256 takes over every file under DIR, one core:
 * the hashing a build must do for manifest.json (docs/PRODUCT.md keeps SHA-256), part of the
 * floor bench.py prints ("floor" lines; docs/performance.md, "Emitter, sixth pass"). Each file is
 * read in 1 MiB blocks into one buffer (the reads are not timed) and hashed as output.c hashes
 * it, with sha256_update on each block and sha256_digest at its end; only those calls are timed
 * (this thread's CPU clock). Prints "BYTES FILES MS". bench.py compiles it with
 * `cc -O2 ... -lnettle` (package nettle-dev, already a build dependency).
 */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static unsigned char buf[1 << 20];
static double ms;
static unsigned long long bytes, files;

static double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type != FTW_F)
		return 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	double t = cpu_ms();
	sha256_init(&ctx);
	ms += cpu_ms() - t;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0) {
			perror(path);
			close(fd);
			return 1;
		}
		if (n == 0)
			break;
		t = cpu_ms();
		sha256_update(&ctx, (size_t)n, buf);
		ms += cpu_ms() - t;
		bytes += (unsigned long long)n;
	}
	t = cpu_ms();
	sha256_digest(&ctx, sizeof digest, digest);
	ms += cpu_ms() - t;
	close(fd);
	files++;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: sha256_floor DIR\n");
		return 2;
	}
	if (nftw(argv[1], one, 64, FTW_PHYS) != 0)
		return 1;
	printf("%llu %llu %.1f\n", bytes, files, ms);
	return 0;
}
