/*
 * output.c — the output directory, written atomically (PRODUCT §5: "no partial output").
 *
 * Every artifact is written into a temporary directory beside DIR (".DIR.tmp-XXXXXX", same
 * parent, so the final rename never crosses file systems). output_commit() writes
 * manifest.json and then swaps the directories with two renames: a previous DIR is renamed
 * aside (".DIR.old-XXXXXX"), the temporary directory takes its name, and only then is the old
 * one removed. A reader of DIR therefore sees the old output or the new one, whole, never a
 * mix; a failure at any step removes the temporary directory and puts the old DIR back.
 *
 * Safety: a DIR that exists, is not empty and holds no manifest.json of ours is somebody
 * else's; it is replaced only with --force. The check runs again at commit time, in case
 * something appeared in between.
 *
 * Errors: every write is checked when its file is closed (fflush, ferror, fclose catch a full
 * disk whatever the backend called), then the file is read back to hash it with nettle's
 * SHA-256. Messages name the path as the user knows it (DIR/relpath) and strerror.
 */
#include "backends.h"

#include <dirent.h>
#include <errno.h>
#include <nettle/sha2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MANIFEST "manifest.json"
#define MANIFEST_SCHEMA "clusterc.manifest/1"

enum { FILE_BUFFER = 1 << 16 }; /* fewer write calls for the large CSVs */

typedef struct OutFile {
	char *path; /* relative to DIR */
	FILE *f;    /* NULL once closed */
	Artifact a;
} OutFile;

struct Output {
	Ctx *c;
	char *dir;    /* as given, trailing '/' removed */
	char *prefix; /* DIR's parent with its '/' ("a/b/", "/"), or "" */
	char *base;   /* DIR's last component */
	char *tmp;    /* the temporary directory; NULL once renamed into place */
	bool force;
	bool failed;  /* a file could not be written: commit refuses */
	OutFile *files;
	int nfiles, cap;
	NameTable names; /* interned relative path -> its OutFile index + 1 */
	Artifact *list;  /* the sorted copy output_artifacts hands out */
};

typedef enum { DIR_ABSENT, DIR_EMPTY, DIR_OURS, DIR_FOREIGN, DIR_ERROR } DirState;

static Diag *io_error(Output *o, const char *what, const char *path, int err)
{
	Diag *d = diag_error(o->c, NOLOC, "%s '%s': %s", what, path, strerror(err));
	diag_set_code(d, "io");
	return d;
}

static char *join(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *s = xmalloc(na + nb + 2);
	memcpy(s, a, na);
	s[na] = '/';
	memcpy(s + na + 1, b, nb + 1);
	return s;
}

/* prefix + "." + base + suffix: a hidden sibling of DIR. */
static char *sibling(const Output *o, const char *suffix)
{
	size_t n = strlen(o->prefix) + strlen(o->base) + strlen(suffix) + 2;
	char *s = xmalloc(n);
	snprintf(s, n, "%s.%s%s", o->prefix, o->base, suffix);
	return s;
}

/* Removes path and, for a directory, everything under it, without following symbolic links.
 * Returns 0, or an errno of the first failure (it goes on removing what it can). */
static int remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) == 0 ? 0 : errno;
	DIR *dir = opendir(path);
	if (!dir)
		return errno;
	int err = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char *sub = join(path, e->d_name);
		int r = remove_tree(sub);
		if (r && !err)
			err = r;
		free(sub);
	}
	closedir(dir);
	if (!err && rmdir(path) != 0)
		err = errno;
	return err;
}

/* What DIR holds now; *err is the errno behind DIR_ERROR. */
static DirState dir_state(const char *dir, int *err)
{
	struct stat st;
	if (lstat(dir, &st) != 0) {
		*err = errno;
		return errno == ENOENT ? DIR_ABSENT : DIR_ERROR;
	}
	if (!S_ISDIR(st.st_mode))
		return DIR_FOREIGN;
	DIR *dp = opendir(dir);
	if (!dp) {
		*err = errno;
		return DIR_ERROR;
	}
	bool empty = true;
	struct dirent *e;
	while (empty && (e = readdir(dp)))
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(dp);
	if (empty)
		return DIR_EMPTY;
	char *manifest = join(dir, MANIFEST);
	char *schema = NULL;
	if (lstat(manifest, &st) == 0 && S_ISREG(st.st_mode))
		schema = jw_file_schema(manifest);
	DirState state = schema && strcmp(schema, MANIFEST_SCHEMA) == 0 ? DIR_OURS : DIR_FOREIGN;
	free(schema);
	free(manifest);
	return state;
}

/* Diagnoses a DIR that may not be replaced; false then. */
static bool may_replace(Output *o)
{
	int err = 0;
	DirState s = dir_state(o->dir, &err);
	if (s == DIR_ERROR) {
		io_error(o, "cannot write", o->dir, err);
		return false;
	}
	if (s == DIR_FOREIGN && !o->force) {
		Diag *d = diag_error(o->c, NOLOC,
				     "'%s' exists and was not written by clusterc; use --force to "
				     "replace it",
				     o->dir);
		diag_set_code(d, "output-exists");
		return false;
	}
	return true;
}

static void output_free(Output *o)
{
	for (int i = 0; i < o->nfiles; i++) {
		if (o->files[i].f)
			fclose(o->files[i].f);
		free(o->files[i].path);
	}
	if (o->tmp)
		remove_tree(o->tmp);
	free(o->files);
	free(o->list);
	free(o->tmp);
	free(o->dir);
	free(o->prefix);
	free(o->base);
	free(o);
}

Output *output_open(Ctx *c, const char *dir, bool force)
{
	Output *o = xmalloc(sizeof *o);
	*o = (Output){.c = c, .force = force};
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	o->dir = xmalloc(n + 1);
	memcpy(o->dir, dir, n);
	o->dir[n] = 0;
	const char *slash = strrchr(o->dir, '/');
	const char *base = slash ? slash + 1 : o->dir;
	o->base = xstrdup(base);
	o->prefix = xstrdup(o->dir);
	o->prefix[base - o->dir] = 0;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		Diag *d = diag_error(c, NOLOC,
				     "cannot write the output into '%s': name a directory that "
				     "clusterc may create or replace",
				     *dir ? dir : "");
		diag_set_code(d, "io");
		output_free(o);
		return NULL;
	}
	if (!may_replace(o)) {
		output_free(o);
		return NULL;
	}
	char *tmp = sibling(o, ".tmp-XXXXXX");
	if (!mkdtemp(tmp)) {
		int err = errno;
		Diag *d = diag_error(c, NOLOC, "cannot create the temporary directory '%s' for '%s': %s",
				     tmp, o->dir, strerror(err));
		diag_set_code(d, "io");
		free(tmp);
		output_free(o);
		return NULL;
	}
	o->tmp = tmp;
	/* mkdtemp makes it private (0700); the output should have mkdir's usual mode. */
	mode_t mask = umask(0);
	umask(mask);
	chmod(tmp, 0777 & ~mask);
	return o;
}

const char *output_dir(const Output *o)
{
	return o->dir;
}

/* Relative, '/'-separated, no empty, "." or ".." part: a name inside the directory. */
static bool valid_relpath(const char *p)
{
	if (!*p || *p == '/')
		return false;
	for (const char *s = p; *s;) {
		size_t n = strcspn(s, "/");
		if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		s += n;
		if (*s == '/' && !*++s)
			return false;
	}
	return true;
}

FILE *output_file(Output *o, const char *relpath)
{
	const char *key = intern_cstr(o->c, relpath);
	if (!valid_relpath(relpath) || strcmp(relpath, MANIFEST) == 0 ||
	    names_get(&o->names, key)) {
		/* A backend's bug, not the user's: say so rather than overwrite. */
		diag_error(o->c, NOLOC, "internal error: artifact path '%s' is invalid or taken",
			   relpath);
		o->failed = true;
		return NULL;
	}
	char *full = join(o->tmp, relpath);
	for (char *s = strchr(full + strlen(o->tmp) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		int r = mkdir(full, 0777);
		int err = errno;
		*s = '/';
		if (r != 0 && err != EEXIST) {
			char *shown = join(o->dir, relpath);
			io_error(o, "cannot create the directory of", shown, err);
			free(shown);
			free(full);
			o->failed = true;
			return NULL;
		}
	}
	FILE *f = fopen(full, "w");
	if (!f) {
		char *shown = join(o->dir, relpath);
		io_error(o, "cannot create", shown, errno);
		free(shown);
		free(full);
		o->failed = true;
		return NULL;
	}
	free(full);
	setvbuf(f, NULL, _IOFBF, FILE_BUFFER);
	if (o->nfiles == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 16;
		o->files = xrealloc(o->files, sizeof *o->files * (size_t)o->cap);
	}
	OutFile *of = &o->files[o->nfiles++];
	*of = (OutFile){.path = xstrdup(relpath), .f = f};
	names_put(o->c, &o->names, key, (void *)(intptr_t)o->nfiles);
	return f;
}

/* Flushes and closes f; 0 or the errno of the first failed write. */
static int finish_stream(FILE *f)
{
	int err = 0;
	if (fflush(f) != 0)
		err = errno;
	else if (ferror(f))
		err = EIO; /* an earlier write failed and its errno is gone */
	if (fclose(f) != 0 && !err)
		err = errno;
	return err;
}

/* Reads path back: its size and SHA-256. 0 or an errno. */
static int hash_file(const char *path, Artifact *a)
{
	static const char hex[] = "0123456789abcdef";
	FILE *f = fopen(path, "rb");
	if (!f)
		return errno;
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	unsigned char chunk[FILE_BUFFER];
	size_t n;
	a->bytes = 0;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		sha256_update(&ctx, n, chunk);
		a->bytes += n;
	}
	int err = ferror(f) ? EIO : 0;
	fclose(f);
	uint8_t digest[SHA256_DIGEST_SIZE];
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
	for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
		a->sha256[2 * i] = hex[digest[i] >> 4];
		a->sha256[2 * i + 1] = hex[digest[i] & 15];
	}
	a->sha256[2 * SHA256_DIGEST_SIZE] = 0;
	return err;
}

static int close_file(Output *o, OutFile *of)
{
	FILE *f = of->f;
	of->f = NULL;
	char *full = join(o->tmp, of->path);
	int err = finish_stream(f);
	if (!err)
		err = hash_file(full, &of->a);
	free(full);
	of->a.path = of->path;
	if (err) {
		char *shown = join(o->dir, of->path);
		io_error(o, "cannot write", shown, err);
		free(shown);
		o->failed = true;
		return 1;
	}
	return 0;
}

int output_close(Output *o, FILE *f)
{
	for (int i = o->nfiles - 1; i >= 0; i--)
		if (o->files[i].f == f)
			return close_file(o, &o->files[i]);
	diag_error(o->c, NOLOC, "internal error: output_close of a file it did not open");
	o->failed = true;
	return 1;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const Artifact *)a)->path, ((const Artifact *)b)->path);
}

int output_artifacts(Output *o, const Artifact **list)
{
	for (int i = 0; i < o->nfiles; i++)
		if (o->files[i].f)
			close_file(o, &o->files[i]);
	if (o->failed)
		return -1;
	o->list = xrealloc(o->list, sizeof *o->list * (size_t)(o->nfiles ? o->nfiles : 1));
	for (int i = 0; i < o->nfiles; i++)
		o->list[i] = o->files[i].a;
	qsort(o->list, (size_t)o->nfiles, sizeof *o->list, by_path);
	*list = o->list;
	return o->nfiles;
}

static int write_manifest(Output *o, const Artifact *list, int n)
{
	char *full = join(o->tmp, MANIFEST);
	FILE *f = fopen(full, "w");
	free(full);
	int err = f ? 0 : errno;
	if (f) {
		Json *root = jw_object();
		jw_set(root, "schema", jw_str(MANIFEST_SCHEMA));
		jw_set(root, "generator", jw_str("clusterc " CLUSTERC_VERSION));
		Json *files = jw_array();
		for (int i = 0; i < n; i++) {
			Json *e = jw_object();
			jw_set(e, "path", jw_str(list[i].path));
			jw_set(e, "bytes", jw_int((long long)list[i].bytes));
			jw_set(e, "sha256", jw_str(list[i].sha256));
			jw_push(files, e);
		}
		jw_set(root, "files", files);
		jw_write(f, root);
		err = finish_stream(f);
	}
	if (err) {
		char *shown = join(o->dir, MANIFEST);
		io_error(o, "cannot write", shown, err);
		free(shown);
		return 1;
	}
	return 0;
}

/* Puts the temporary directory in DIR's place (see the top of the file). */
static int install(Output *o)
{
	char *aside = NULL;
	struct stat st;
	if (lstat(o->dir, &st) == 0) {
		aside = sibling(o, ".old-XXXXXX");
		if (!mkdtemp(aside)) {
			io_error(o, "cannot create a directory beside", o->dir, errno);
			free(aside);
			return 1;
		}
		/* A directory replaces the empty one mkdtemp made; anything else needs the name free. */
		if (!S_ISDIR(st.st_mode))
			rmdir(aside);
		if (rename(o->dir, aside) != 0) {
			io_error(o, "cannot move aside the previous", o->dir, errno);
			rmdir(aside);
			free(aside);
			return 1;
		}
	} else if (errno != ENOENT) {
		io_error(o, "cannot write", o->dir, errno);
		return 1;
	}
	if (rename(o->tmp, o->dir) != 0) {
		int err = errno;
		if (aside && rename(aside, o->dir) != 0)
			io_error(o, "cannot restore the previous output from", aside, errno);
		io_error(o, "cannot create", o->dir, err);
		free(aside);
		return 1;
	}
	free(o->tmp);
	o->tmp = NULL;
	if (aside) {
		int err = remove_tree(aside);
		if (err) {
			Diag *d = diag_warning(o->c, NOLOC, "cannot remove the previous output, now '%s': %s",
					       aside, strerror(err));
			diag_set_code(d, "io");
		}
		free(aside);
	}
	return 0;
}

int output_commit(Output *o)
{
	const Artifact *list = NULL;
	int n = o->failed ? -1 : output_artifacts(o, &list);
	int errors = n < 0 || write_manifest(o, list, n) || !may_replace(o) || install(o);
	output_free(o);
	return errors;
}

void output_abort(Output *o)
{
	if (o)
		output_free(o);
}
