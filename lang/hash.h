/*
 * hash.h — SHA-256 through nettle, for the output directory's token and manifest and the
 * artifacts' digests. lang/hash.c is the one file that includes nettle.
 */
#ifndef CLUSTERC_HASH_H
#define CLUSTERC_HASH_H

#include <stddef.h>

enum { HASH_HEX = 65 }; /* 64 lowercase hex digits and a NUL */

/* A SHA-256 in progress over data given in pieces. */
typedef struct Hash Hash;

Hash *hash_new(void);
void hash_update(Hash *h, const void *data, size_t n);
/* The digest of everything given, in hex; releases h. */
void hash_finish(Hash *h, char hex[HASH_HEX]);
void hash_free(Hash *h); /* releases h unfinished; NULL is fine */

/* The digest of n bytes at data, in hex. */
void hash_hex(const void *data, size_t n, char hex[HASH_HEX]);

/* The digest of n bytes at data, as its HASH_BYTES bytes (no allocation: for many small keys). */
enum { HASH_BYTES = 32 };
void hash_bytes(const void *data, size_t n, unsigned char out[HASH_BYTES]);

#endif
