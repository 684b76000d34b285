/*
 * yamlio.h — YAML through libyaml, for every layer: a reader that turns a document into a tree
 * of YrNode (sweep files) and a writer of block-style documents (the Kubernetes files).
 * lang/yamlio.c is the one file that includes <yaml.h>.
 */
#ifndef CLUSTERC_YAMLIO_H
#define CLUSTERC_YAMLIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct Arena Arena;
typedef struct Ctx Ctx;

/* ---- reading ---- */

typedef enum { YR_SCALAR, YR_MAPPING, YR_SEQUENCE } YrKind;

/* How a scalar was written: plain, in single or double quotes, or otherwise (block, folded). */
typedef enum { YR_PLAIN, YR_QUOTED, YR_OTHER } YrStyle;

/* A place in the text as libyaml counts it: 0-based line, and column in characters. */
typedef struct YrMark {
	size_t line, column;
} YrMark;

typedef struct YrNode YrNode;
struct YrNode {
	YrKind kind;
	const char *text; /* a scalar's value (NUL-terminated; len bytes), else NULL */
	size_t len;
	YrStyle style;
	YrMark start, end;
	int n;           /* pairs of a mapping, items of a sequence */
	YrNode **keys;   /* a mapping's keys, in order */
	YrNode **values; /* a mapping's values, a sequence's items */
};

/* libyaml's complaint about text that is not YAML, and where. */
typedef struct YrError {
	const char *problem; /* NULL when libyaml gave none */
	const char *context; /* NULL when libyaml gave none */
	YrMark mark;
} YrError;

/* Parses the first document of n bytes of text into a tree in a (aliases share their node, so
 * the tree's size is the document's). False with *err set when the text is not YAML; *root is
 * NULL for an empty document. */
bool yr_load(Arena *a, const char *text, size_t n, YrNode **root, YrError *err);

/* The node's value when it is a scalar, else NULL (NULL is fine). */
const char *yr_scalar(const YrNode *n);

/* ---- writing ---- */

/* A stream of block-style documents on a FILE, indented by 2, never folded. Scalars are plain
 * when YAML 1.1 and 1.2 both read them as strings, else double-quoted. A failure is diagnosed
 * once on c (as an internal error) and the rest of the stream is skipped. */
typedef struct Yw Yw;

Yw *yw_open(Ctx *c, FILE *f); /* after whatever (comments) is already written to f */
void yw_str(Yw *y, const char *s);
void yw_pair(Yw *y, const char *key, const char *value);
void yw_map(Yw *y);
void yw_map_end(Yw *y);
void yw_seq(Yw *y);
void yw_seq_end(Yw *y);
void yw_doc(Yw *y);
void yw_doc_end(Yw *y);
/* Whether nothing has failed so far. */
bool yw_ok(const Yw *y);
/* Whether yw_str writes s plain (else double-quoted): for writers that write the same text
 * directly (k8s.c's node labels). */
bool yw_plain(const char *s);
/* Ends the stream and releases y; false after a diagnostic. */
bool yw_close(Yw *y);

#endif
