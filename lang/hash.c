/*
 * hash.c — SHA-256 (FIPS 180-4) through nettle's sha2.h; the one file that includes it.
 */
#include "hash.h"
#include "base.h"

#include <nettle/sha2.h>
#include <stdint.h>
#include <stdlib.h>

struct Hash {
	struct sha256_ctx ctx;
};

Hash *hash_new(void)
{
	Hash *h = xmalloc(sizeof *h);
	sha256_init(&h->ctx);
	return h;
}

void hash_update(Hash *h, const void *data, size_t n)
{
	sha256_update(&h->ctx, n, data);
}

void hash_finish(Hash *h, char hex[HASH_HEX])
{
	static const char digits[] = "0123456789abcdef";
	uint8_t digest[SHA256_DIGEST_SIZE];
	sha256_digest(&h->ctx, SHA256_DIGEST_SIZE, digest);
	for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[2 * SHA256_DIGEST_SIZE] = 0;
	free(h);
}

void hash_free(Hash *h)
{
	free(h);
}

void hash_hex(const void *data, size_t n, char hex[HASH_HEX])
{
	Hash *h = hash_new();
	hash_update(h, data, n);
	hash_finish(h, hex);
}

void hash_bytes(const void *data, size_t n, unsigned char out[HASH_BYTES])
{
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	sha256_update(&ctx, n, data);
	sha256_digest(&ctx, HASH_BYTES, out);
}
