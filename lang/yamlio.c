/*
 * yamlio.c — YAML through libyaml: the one file that includes <yaml.h>. It deletes every parser,
 * document, emitter and event it creates.
 *
 * Reading loads libyaml's document (its composer resolves aliases to node ids) and copies it
 * into YrNodes in the caller's arena, one per document node, so an alias is a shared pointer
 * and a "billion laughs" document costs its size, not its expansion.
 */
#include "yamlio.h"
#include "base.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

/* ---- reading ---- */

static YrMark mark(yaml_mark_t m)
{
	return (YrMark){m.line, m.column};
}

static YrStyle style_of(yaml_scalar_style_t s)
{
	switch (s) {
	case YAML_PLAIN_SCALAR_STYLE:
		return YR_PLAIN;
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		return YR_QUOTED;
	default:
		return YR_OTHER;
	}
}

bool yr_load(Arena *a, const char *text, size_t n, YrNode **root, YrError *err)
{
	*root = NULL;
	*err = (YrError){0};
	yaml_parser_t parser;
	yaml_document_t doc;
	if (!yaml_parser_initialize(&parser))
		die_oom();
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, n);
	if (!yaml_parser_load(&parser, &doc)) {
		err->problem = parser.problem ? arena_strdup(a, parser.problem) : NULL;
		err->context = parser.context ? arena_strdup(a, parser.context) : NULL;
		err->mark = mark(parser.problem_mark);
		yaml_parser_delete(&parser);
		return false;
	}
	yaml_parser_delete(&parser);
	size_t count = (size_t)(doc.nodes.top - doc.nodes.start);
	YrNode *nodes = count ? arena_alloc(a, sizeof *nodes * count) : NULL;
	/* Node ids are 1-based indexes into doc.nodes; a pair or item names its nodes by id. */
	for (size_t i = 0; i < count; i++) {
		const yaml_node_t *y = &doc.nodes.start[i];
		YrNode *r = &nodes[i];
		*r = (YrNode){.start = mark(y->start_mark), .end = mark(y->end_mark)};
		if (y->type == YAML_SCALAR_NODE) {
			r->kind = YR_SCALAR;
			r->len = y->data.scalar.length;
			r->text = arena_strndup(a, (const char *)y->data.scalar.value, r->len);
			r->style = style_of(y->data.scalar.style);
		} else if (y->type == YAML_MAPPING_NODE) {
			r->kind = YR_MAPPING;
			r->n = (int)(y->data.mapping.pairs.top - y->data.mapping.pairs.start);
			r->keys = arena_alloc(a, sizeof *r->keys * (size_t)(r->n + 1));
			r->values = arena_alloc(a, sizeof *r->values * (size_t)(r->n + 1));
			for (int k = 0; k < r->n; k++) {
				r->keys[k] = &nodes[y->data.mapping.pairs.start[k].key - 1];
				r->values[k] = &nodes[y->data.mapping.pairs.start[k].value - 1];
			}
		} else {
			r->kind = YR_SEQUENCE;
			r->n = (int)(y->data.sequence.items.top - y->data.sequence.items.start);
			r->values = arena_alloc(a, sizeof *r->values * (size_t)(r->n + 1));
			for (int k = 0; k < r->n; k++)
				r->values[k] = &nodes[y->data.sequence.items.start[k] - 1];
		}
	}
	*root = count ? &nodes[0] : NULL; /* the composer adds the root first */
	yaml_document_delete(&doc);
	return true;
}

const char *yr_scalar(const YrNode *n)
{
	return n && n->kind == YR_SCALAR ? n->text : NULL;
}

/* ---- writing ---- */

struct Yw {
	yaml_emitter_t e;
	Ctx *c;
	bool inited; /* the emitter was initialized: delete it */
	bool ok;
};

static void emit(Yw *y, yaml_event_t *ev, int made)
{
	if (!made) {
		if (y->ok)
			diag_error(y->c, NOLOC, "internal error: libyaml: no event");
		y->ok = false;
		return;
	}
	if (!y->ok) {
		yaml_event_delete(ev);
		return;
	}
	/* The emitter takes the event, and deletes it even when it fails. */
	if (!yaml_emitter_emit(&y->e, ev)) {
		y->ok = false;
		diag_error(y->c, NOLOC, "internal error: libyaml: %s",
			   y->e.problem ? y->e.problem : "cannot emit");
	}
}

/* Plain when YAML 1.1 and 1.2 read it as a string: a letter first, then letters, digits and
 * '-', '_', '.', '/', and no boolean or null word. */
static bool plain_ok(const char *s)
{
	if (!isalpha((unsigned char)*s))
		return false;
	const char *p = s;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.' && *p != '/')
			return false;
	/* Only a word of the text's length can be it: a text of more than five letters is
	 * compared with none, a host "n0001" with "false" alone, not by nine strcasecmp calls
	 * (k8s/node-labels.yaml asked some 115,000 times at k = 64, docs/performance.md, "Stages
	 * before emit and switch writer, thirteenth session"). */
	if (p - s > 5)
		return true;
	static const struct {
		const char *w;
		ptrdiff_t n;
	} words[] = {{"y", 1}, {"n", 1}, {"yes", 3}, {"no", 2}, {"on", 2}, {"off", 3},
		     {"true", 4}, {"false", 5}, {"null", 4}};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (words[i].n == p - s && !strcasecmp(s, words[i].w))
			return false;
	return true;
}

bool yw_plain(const char *s)
{
	return plain_ok(s);
}

void yw_str(Yw *y, const char *s)
{
	yaml_event_t ev;
	yaml_scalar_style_t style = plain_ok(s) ? YAML_PLAIN_SCALAR_STYLE
						: YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	int made = yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s),
						1, 1, style);
	emit(y, &ev, made);
}

void yw_pair(Yw *y, const char *key, const char *value)
{
	yw_str(y, key);
	yw_str(y, value);
}

void yw_map(Yw *y)
{
	yaml_event_t ev;
	emit(y, &ev,
	     yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE));
}

void yw_map_end(Yw *y)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_mapping_end_event_initialize(&ev));
}

void yw_seq(Yw *y)
{
	yaml_event_t ev;
	emit(y, &ev,
	     yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE));
}

void yw_seq_end(Yw *y)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_sequence_end_event_initialize(&ev));
}

void yw_doc(Yw *y)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0));
}

void yw_doc_end(Yw *y)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_document_end_event_initialize(&ev, 1));
}

Yw *yw_open(Ctx *c, FILE *f)
{
	Yw *y = xmalloc(sizeof *y);
	y->c = c;
	y->inited = y->ok = yaml_emitter_initialize(&y->e) != 0;
	if (!y->ok) {
		diag_error(c, NOLOC, "internal error: libyaml: cannot start an emitter");
		return y;
	}
	yaml_emitter_set_output_file(&y->e, f);
	yaml_emitter_set_indent(&y->e, 2);
	yaml_emitter_set_width(&y->e, -1); /* never fold a line */
	yaml_emitter_set_break(&y->e, YAML_LN_BREAK);
	yaml_event_t ev;
	emit(y, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
	return y;
}

bool yw_ok(const Yw *y)
{
	return y->ok;
}

bool yw_close(Yw *y)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_stream_end_event_initialize(&ev));
	if (y->ok && !yaml_emitter_flush(&y->e))
		y->ok = false;
	if (y->inited)
		yaml_emitter_delete(&y->e);
	bool ok = y->ok;
	free(y);
	return ok;
}
