/*
 * json.c — JSON documents through jansson (diagnostics, the manifest, report.json). The
 * one file that includes <jansson.h>: the others build documents with the jw_ calls
 * declared in json.h.
 *
 * Determinism: objects keep insertion order (JSON_PRESERVE_ORDER) and reals are rounded to a
 * fixed number of decimals before they are printed with 15 significant digits. Any decimal
 * with at most 15 significant digits survives the trip through a double, so a rounded value
 * prints as exactly its decimal form ("0.35", not "0.34999999999999998"), and the same input
 * gives the same bytes. Larger magnitudes (1e15 and up) keep 15 digits, still deterministic.
 */
#include "json.h"
#include "base.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { REAL_DIGITS = 15 }; /* the most a double always round-trips through decimal */

Json *jw_object(void)
{
	json_t *j = json_object();
	if (!j)
		die_oom();
	return j;
}

Json *jw_array(void)
{
	json_t *j = json_array();
	if (!j)
		die_oom();
	return j;
}

void jw_set(Json *object, const char *key, Json *value)
{
	if (json_object_set_new(object, key, value ? value : json_null()) != 0)
		die_oom();
}

void jw_push(Json *array, Json *value)
{
	if (json_array_append_new(array, value ? value : json_null()) != 0)
		die_oom();
}

/* jansson refuses bytes that are not UTF-8 (a path from the command line may hold some):
 * those become '?', one per byte, as diag.c does. */
Json *jw_strn(const char *s, size_t n)
{
	if (!s)
		return json_null();
	json_t *j = json_stringn(s, n);
	if (j)
		return j;
	char *copy = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		copy[i] = (unsigned char)s[i] < 0x80 && s[i] ? s[i] : '?';
	copy[n] = 0;
	j = json_stringn(copy, n);
	free(copy);
	if (!j)
		die_oom();
	return j;
}

Json *jw_str(const char *s)
{
	return s ? jw_strn(s, strlen(s)) : json_null();
}

Json *jw_int(long long v)
{
	json_t *j = json_integer(v);
	if (!j)
		die_oom();
	return j;
}

Json *jw_bool(bool v)
{
	return json_boolean(v);
}

Json *jw_null(void)
{
	return json_null();
}

Json *jw_real(double x, int decimals)
{
	if (!isfinite(x))
		return json_null();
	double scale = pow(10, decimals);
	double r = round(x * scale) / scale;
	if (!isfinite(r)) /* x * scale overflowed: x is far beyond any rounding that matters */
		r = x;
	if (r == 0)
		r = 0; /* -0 compares equal to 0: this stores +0 */
	json_t *j = json_real(r);
	if (!j)
		die_oom();
	return j;
}

Json *jw_count(double x)
{
	if (!isfinite(x) || fabs(x) >= 9.2e18)
		return json_null();
	return jw_int(llround(x));
}

void jw_write(FILE *f, Json *root)
{
	char *text = json_dumps(root, JSON_PRESERVE_ORDER | JSON_INDENT(2) |
					      JSON_REAL_PRECISION(REAL_DIGITS));
	json_decref(root);
	if (!text)
		die_oom();
	fputs(text, f);
	fputc('\n', f);
	free(text);
}

void jw_free(Json *j)
{
	json_decref(j);
}

char *jw_file_schema(const char *path)
{
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err);
	if (!root)
		return NULL;
	json_t *schema = json_is_object(root) ? json_object_get(root, "schema") : NULL;
	char *s = json_is_string(schema) ? xstrdup(json_string_value(schema)) : NULL;
	json_decref(root);
	return s;
}

Json *jw_parse(const char *text, size_t n)
{
	json_error_t err;
	return json_loadb(text, n, 0, &err);
}

Json *jw_parse_at(const char *text, size_t n, int *line, int *col, char *why, size_t why_size)
{
	json_error_t err;
	json_t *j = json_loadb(text, n, 0, &err);
	if (!j) {
		*line = err.line > 0 ? err.line : 1;
		*col = err.column > 0 ? err.column : 1;
		snprintf(why, why_size, "%s", err.text);
	}
	return j;
}

size_t jw_object_size(const Json *object)
{
	return json_is_object(object) ? json_object_size(object) : 0;
}

bool jw_number(const Json *value, double *out)
{
	if (!json_is_number(value))
		return false;
	*out = json_number_value(value);
	return true;
}

int jw_bool_value(const Json *value)
{
	return json_is_boolean(value) ? json_is_true(value) : -1;
}

bool jw_is_object(const Json *value)
{
	return json_is_object(value);
}

const char *jw_object_key(const Json *object, size_t i, Json **value)
{
	if (!json_is_object(object))
		return NULL;
	size_t k = 0;
	for (void *it = json_object_iter((json_t *)object); it;
	     it = json_object_iter_next((json_t *)object, it), k++) {
		if (k == i) {
			*value = json_object_iter_value(it);
			return json_object_iter_key(it);
		}
	}
	return NULL;
}

Json *jw_get(const Json *object, const char *key)
{
	return json_is_object(object) ? json_object_get(object, key) : NULL;
}

double jw_get_real(const Json *object, const char *key)
{
	json_t *v = jw_get(object, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *jw_string(const Json *value)
{
	return json_is_string(value) ? json_string_value(value) : NULL;
}

const char *jw_get_str(const Json *object, const char *key)
{
	return jw_string(jw_get(object, key));
}

bool jw_get_bool(const Json *object, const char *key)
{
	return json_is_true(jw_get(object, key));
}

size_t jw_len(const Json *array)
{
	return json_is_array(array) ? json_array_size(array) : 0;
}

bool jw_is_array(const Json *value)
{
	return json_is_array(value);
}

bool jw_get_integer(const Json *object, const char *key, long long *out)
{
	json_t *v = jw_get(object, key);
	if (!json_is_integer(v))
		return false;
	*out = (long long)json_integer_value(v);
	return true;
}

Json *jw_at(const Json *array, size_t i)
{
	return json_is_array(array) ? json_array_get(array, i) : NULL;
}

Json *jw_copy(const Json *value)
{
	json_t *j = json_deep_copy(value);
	if (!j)
		die_oom();
	return j;
}
