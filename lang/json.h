/*
 * json.h — JSON documents through jansson, for every layer (diagnostics, the output
 * directory's manifest, report.json and the comparison files). lang/json.c is the one file
 * that includes <jansson.h>.
 */
#ifndef CLUSTERC_JSON_H
#define CLUSTERC_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>


/* jansson's json_t, declared here so that no other file needs <jansson.h>. Every constructor
 * returns a new reference; jw_set and jw_push take over the one they are given. */
typedef struct json_t Json;

Json *jw_object(void);
Json *jw_array(void);
void jw_set(Json *object, const char *key, Json *value); /* keys keep insertion order */
void jw_push(Json *array, Json *value);
Json *jw_str(const char *s);      /* NULL gives null; bytes that are not UTF-8 become '?' */
Json *jw_strn(const char *s, size_t n);
Json *jw_int(long long v);
Json *jw_bool(bool v);
Json *jw_null(void);
/* x rounded to `decimals` places, always written as a real (12750.0, 1.1); never -0; null when
 * x is NaN or infinite. Rounding first is what makes the text deterministic. */
Json *jw_real(double x, int decimals);
/* A count: the nearest integer (null when not finite). */
Json *jw_count(double x);

/* Writes root indented by 2, keys in insertion order, and a final newline; releases root.
 * Write errors show when the file is closed (output_close), so nothing is returned. */
void jw_write(FILE *f, Json *root);
void jw_free(Json *j); /* releases a document without writing it */

/* Reading: a document parsed from n bytes of text (NULL when it is not JSON; jw_free it), and
 * its parts, borrowed from it. Missing keys and other types read as NULL, NAN, false, 0. */
Json *jw_parse(const char *text, size_t n);
/* As jw_parse; on a syntax error NULL with the error's line and column (from 1) and jansson's
 * words for it in why (why_size bytes). */
Json *jw_parse_at(const char *text, size_t n, int *line, int *col, char *why, size_t why_size);
Json *jw_get(const Json *object, const char *key);
/* An object's members in the document's order: how many, and the i-th key (its value in
 * *value); NULL past the end or when object is not an object. */
size_t jw_object_size(const Json *object);
const char *jw_object_key(const Json *object, size_t i, Json **value);
bool jw_is_object(const Json *value);
/* A number's value in *out (false when value is not a number); a boolean's (-1 when it is not
 * one). */
bool jw_number(const Json *value, double *out);
int jw_bool_value(const Json *value);
double jw_get_real(const Json *object, const char *key);
const char *jw_get_str(const Json *object, const char *key);
const char *jw_string(const Json *value);
bool jw_get_bool(const Json *object, const char *key);
size_t jw_len(const Json *array);
bool jw_is_array(const Json *value);
/* Whether object[key] is an integer, stored in *out. */
bool jw_get_integer(const Json *object, const char *key, long long *out);
Json *jw_at(const Json *array, size_t i);
Json *jw_copy(const Json *value); /* a deep copy, a new reference */

/* The string value of the top-level "schema" key of the JSON file at path, malloc'ed, or NULL
 * when the file cannot be read, is not JSON or has none. */
char *jw_file_schema(const char *path);

#endif
