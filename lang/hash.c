/*
 * hash.c — SHA-256 (FIPS 180-4) through nettle's sha2.h; the one file that includes it.
 *
 * hash_update2 hashes two independent streams at once: on a CPU with the SHA extensions their
 * blocks go through the rounds interleaved (sha2_ni below), since one stream's rounds wait on
 * each other (each SHA256RNDS2 needs the last one's state) and the CPU can run the other
 * stream's meanwhile: nettle 3.8.1's SHA-NI compress 1.43-1.52 GB/s on one stream against
 * 2.37-2.53 GB/s for two interleaved, on this project's 2-core machine (AMD EPYC, family 26;
 * docs/performance.md, "Emitter, seventeenth pass"). Elsewhere it is two sha256_update calls.
 */
#include "hash.h"
#include "base.h"

#include <nettle/sha2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HASH_SHA_NI 1
#include <cpuid.h>
#include <immintrin.h>
#endif

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

#ifdef HASH_SHA_NI
/* The round constants K0..K63 of FIPS 180-4 section 4.2.2. */
static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define SHA_NI __attribute__((target("sha,sse4.1,ssse3")))

/* The state a..h as the SHA256RNDS2 instruction takes it, ABEF and CDGH (Intel, "Intel SHA
 * Extensions", Gulley et al., 2013, section "SHA-256"), and back. */
SHA_NI static inline void sha_ni_load(const uint32_t *st, __m128i *abef, __m128i *cdgh)
{
	__m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&st[0]), 0xB1);
	__m128i hgfe = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&st[4]), 0x1B);
	*abef = _mm_alignr_epi8(dcba, hgfe, 8);
	*cdgh = _mm_blend_epi16(hgfe, dcba, 0xF0);
}

SHA_NI static inline void sha_ni_store(uint32_t *st, __m128i abef, __m128i cdgh)
{
	__m128i feba = _mm_shuffle_epi32(abef, 0x1B);
	__m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
	_mm_storeu_si128((__m128i *)&st[0], _mm_blend_epi16(feba, dchg, 0xF0));
	_mm_storeu_si128((__m128i *)&st[4], _mm_alignr_epi8(dchg, feba, 8));
}

/* The message schedule's next 4 words from the last 16 (FIPS 180-4 section 6.2.2 step 1):
 * SHA256MSG1 adds sigma0 of W[t-15] to W[t-16], the add brings W[t-7], SHA256MSG2 adds
 * sigma1 of W[t-2]. */
SHA_NI static inline __m128i sha_ni_next(__m128i w0, __m128i w1, __m128i w2, __m128i w3)
{
	__m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), _mm_alignr_epi8(w3, w2, 4));
	return _mm_sha256msg2_epu32(t, w3);
}

/* Compresses nblocks 64-byte blocks of each stream into its state (a: sa and pa, b: sb and
 * pb), the two streams' rounds interleaved. */
SHA_NI static void sha2_ni(uint32_t *sa, const uint8_t *pa, uint32_t *sb, const uint8_t *pb,
			   size_t nblocks)
{
	const __m128i be = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i a0, a1, b0, b1;
	sha_ni_load(sa, &a0, &a1);
	sha_ni_load(sb, &b0, &b1);
	for (; nblocks; nblocks--, pa += 64, pb += 64) {
		__m128i sa0 = a0, sa1 = a1, sb0 = b0, sb1 = b1;
		__m128i wa[4], wb[4]; /* the schedule's last 16 words of each, 4 to a register */
#pragma GCC unroll 16
		for (int g = 0; g < 16; g++) { /* rounds 4g .. 4g+3 */
			__m128i ma, mb;
			if (g < 4) {
				ma = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(pa + 16 * g)), be);
				mb = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(pb + 16 * g)), be);
			} else {
				ma = sha_ni_next(wa[g & 3], wa[(g + 1) & 3], wa[(g + 2) & 3], wa[(g + 3) & 3]);
				mb = sha_ni_next(wb[g & 3], wb[(g + 1) & 3], wb[(g + 2) & 3], wb[(g + 3) & 3]);
			}
			wa[g & 3] = ma;
			wb[g & 3] = mb;
			__m128i k = _mm_loadu_si128((const __m128i *)&sha_k[4 * g]);
			ma = _mm_add_epi32(ma, k);
			mb = _mm_add_epi32(mb, k);
			a1 = _mm_sha256rnds2_epu32(a1, a0, ma);
			b1 = _mm_sha256rnds2_epu32(b1, b0, mb);
			a0 = _mm_sha256rnds2_epu32(a0, a1, _mm_shuffle_epi32(ma, 0x0E));
			b0 = _mm_sha256rnds2_epu32(b0, b1, _mm_shuffle_epi32(mb, 0x0E));
		}
		a0 = _mm_add_epi32(a0, sa0);
		a1 = _mm_add_epi32(a1, sa1);
		b0 = _mm_add_epi32(b0, sb0);
		b1 = _mm_add_epi32(b1, sb1);
	}
	sha_ni_store(sa, a0, a1);
	sha_ni_store(sb, b0, b1);
}

/* Whether this CPU has the SHA extensions and SSSE3 and SSE4.1 (CPUID leaf 7 EBX bit 29; leaf
 * 1 ECX bits 9 and 19: Intel SDM volume 2A, CPUID). */
static bool sha_ni_have(void)
{
	static int have = -1;
	if (have < 0) {
		unsigned a, b, c, d;
		bool sse = __get_cpuid(1, &a, &b, &c, &d) && (c >> 9 & 1) && (c >> 19 & 1);
		have = sse && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 29 & 1);
	}
	return have;
}
#endif

/* Gives ctx what completes its partial block, so that it holds none (unless the data ends
 * first): nettle 3.8.1's sha256_update compresses a block once whole (md-hash.h, MD_UPDATE). */
static void fill_block(struct sha256_ctx *ctx, const uint8_t **p, size_t *n)
{
	if (ctx->index && *n) {
		size_t k = SHA256_BLOCK_SIZE - ctx->index;
		if (k > *n)
			k = *n;
		sha256_update(ctx, k, *p);
		*p += k;
		*n -= k;
	}
}

void hash_update2(Hash *a, const void *da, size_t na, Hash *b, const void *db, size_t nb)
{
#ifdef HASH_SHA_NI
	if (sha_ni_have()) {
		/* Each stream's partial block first; then, both on a block boundary, the blocks
		 * they both have go through sha2_ni together, counted as nettle counts them
		 * (sha256_ctx.count: blocks compressed; sha2.h); the rest through nettle. */
		const uint8_t *pa = da, *pb = db;
		fill_block(&a->ctx, &pa, &na);
		fill_block(&b->ctx, &pb, &nb);
		size_t m = (na < nb ? na : nb) / SHA256_BLOCK_SIZE;
		if (m && !a->ctx.index && !b->ctx.index) {
			sha2_ni(a->ctx.state, pa, b->ctx.state, pb, m);
			a->ctx.count += m;
			b->ctx.count += m;
			pa += m * SHA256_BLOCK_SIZE;
			pb += m * SHA256_BLOCK_SIZE;
			na -= m * SHA256_BLOCK_SIZE;
			nb -= m * SHA256_BLOCK_SIZE;
		}
		da = pa;
		db = pb;
	}
#endif
	sha256_update(&a->ctx, na, da);
	sha256_update(&b->ctx, nb, db);
}
