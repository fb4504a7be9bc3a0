/* batch_list.c: the files of a batch: operands and list files, folders
 * searched, sorted, checked, sharded; output names. See batch.h. */
#include "batch.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "pass.h"

enum { MAX_DEPTH = 64, MAX_SHARDS = 1000000 };

static bool
ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return n >= m && !strcmp(s + n - m, end);
}

/* @a "/" @b, without doubling a '/' that ends @a. */
static char *
join(const char *a, const char *b)
{
    size_t n = strlen(a), len = n + strlen(b) + 2;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s%s%s", a, n > 0 && a[n - 1] != '/' ? "/" : "", b);
    return s;
}

/* A named file's place under the output folder: its path when relative and
 * not going up, without leading "./"; else its file name. */
static const char *
named_rel(const char *input)
{
    const char *p = input;
    while (p[0] == '.' && p[1] == '/') {
        p += 2;
        while (*p == '/')
            p++;
    }
    bool up = *p == '/';
    for (const char *c = p; *c && !up; c += strcspn(c, "/"), c += *c == '/')
        up = c[0] == '.' && c[1] == '.' && (c[2] == '/' || c[2] == 0);
    if (!up && *p)
        return p;
    const char *slash = strrchr(input, '/');
    return slash ? slash + 1 : input;
}

char *
xf_batch_output_name(const char *input, const char *rel, const xf_batch_naming *nm)
{
    char *tmp = NULL;
    const char *base = input;
    if (nm->out_dir) {
        tmp = join(nm->out_dir, rel ? rel : named_rel(input));
        if (!tmp)
            return NULL;
        base = tmp;
    }
    size_t n = strlen(base), m = strlen(nm->suffix);
    if (ends_with(base, ".xaif"))
        n -= 5;
    char *out = n < INT_MAX ? malloc(n + m + 1) : NULL;
    if (out)
        snprintf(out, n + m + 1, "%.*s%s", (int)n, base, nm->suffix);
    free(tmp);
    return out;
}

static int
push(xf_batch_list *l, const char *input, const char *rel, const xf_batch_naming *nm,
     uint64_t bytes)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        xf_batch_file *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    xf_batch_file *f = &l->v[l->n];
    *f = (xf_batch_file){.in_bytes = bytes};
    f->input = strdup(input);
    f->output = f->input ? xf_batch_output_name(input, rel, nm) : NULL;
    if (!f->output) {
        free(f->input);
        return -1;
    }
    l->n++;
    return 0;
}

/* Does @name end in @suffix followed by ".PASS.xaif" for a pass of the
 * registry: the IR an earlier --dump-after wrote beside an output? */
static bool
dump_of(const char *name, const char *suffix)
{
    char tail[256];
    for (const xf_pass *const *p = xf_passes; *p; p++)
        if ((size_t)snprintf(tail, sizeof tail, "%s.%s.xaif", suffix, (*p)->name) < sizeof tail &&
            ends_with(name, tail))
            return true;
    return false;
}

/* Whether a file found in a folder is an input: not an earlier output of
 * any mode, nor a --dump-after file beside one. */
static bool
wanted(const char *name, const xf_batch_naming *nm, xf_batch_list *l)
{
    if (!ends_with(name, ".xaif"))
        return false;
    bool output = dump_of(name, nm->suffix) ||
                  (strcmp(nm->suffix, ".xaif") != 0 && ends_with(name, nm->suffix));
    for (const char *const *o = nm->outputs; o && *o && !output; o++)
        output = dump_of(name, *o) || (strcmp(*o, ".xaif") != 0 && ends_with(name, *o));
    if (output)
        l->skipped++;
    return !output;
}

/* The folder to leave out of a search: the output folder. */
typedef struct skip_dir {
    bool set;
    dev_t dev;
    ino_t ino;
} skip_dir;

static int walk(xf_batch_list *l, const char *dir, const char *rel, const xf_batch_naming *nm,
                const skip_dir *skip, int depth, char *err, size_t errlen);

/* A regular file, or a symbolic link to one (@st from lstat). */
static bool
is_file(const char *path, struct stat *st)
{
    return S_ISREG(st->st_mode) ||
           (S_ISLNK(st->st_mode) && stat(path, st) == 0 && S_ISREG(st->st_mode));
}

/* One entry @name of folder @dir (@rel relative to the command-line folder). */
static int
entry(xf_batch_list *l, const char *dir, const char *rel, const char *name,
      const xf_batch_naming *nm, const skip_dir *skip, int depth, char *err, size_t errlen)
{
    char *path = join(dir, name), *sub = rel ? join(rel, name) : strdup(name);
    int ret = path && sub ? 0 : -1;
    struct stat st;
    if (ret == 0 && lstat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            if (!(skip->set && st.st_dev == skip->dev && st.st_ino == skip->ino))
                ret = walk(l, path, sub, nm, skip, depth + 1, err, errlen);
        } else if (is_file(path, &st) && wanted(name, nm, l)) {
            ret = push(l, path, sub, nm, (uint64_t)st.st_size);
            if (ret != 0)
                snprintf(err, errlen, "out of memory");
        }
    } else if (ret != 0)
        snprintf(err, errlen, "out of memory");
    free(path);
    free(sub);
    return ret;
}

static int
walk(xf_batch_list *l, const char *dir, const char *rel, const xf_batch_naming *nm,
     const skip_dir *skip, int depth, char *err, size_t errlen)
{
    if (depth > MAX_DEPTH) {
        snprintf(err, errlen, "%s: folders nested more than %d deep", dir, MAX_DEPTH);
        return -1;
    }
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: cannot read the folder: %s", dir, strerror(errno));
        return -1;
    }
    int ret = 0;
    struct dirent *e;
    while (ret == 0 && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            ret = entry(l, dir, rel, e->d_name, nm, skip, depth, err, errlen);
    closedir(d);
    return ret;
}

int
xf_batch_list_add(xf_batch_list *list, const char *path, const xf_batch_naming *nm, char *err,
                  size_t errlen)
{
    struct stat st;
    if (err && errlen)
        err[0] = 0;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        skip_dir skip = {0};
        struct stat o;
        if (nm->out_dir && stat(nm->out_dir, &o) == 0)
            skip = (skip_dir){.set = true, .dev = o.st_dev, .ino = o.st_ino};
        return walk(list, path, NULL, nm, &skip, 0, err, errlen);
    }
    uint64_t bytes = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
    if (push(list, path, NULL, nm, bytes) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

char *
xf_batch_list_line(char *line)
{
    size_t n = strlen(line);
    while (n && strchr(" \t\r\n", line[n - 1]))
        line[--n] = 0;
    line += strspn(line, " \t");
    return line[0] && line[0] != '#' ? line : NULL;
}

int
xf_batch_list_read(xf_batch_list *list, FILE *f, const char *name, const xf_batch_naming *nm,
                   char *err, size_t errlen)
{
    char *buf = NULL, msg[600];
    size_t cap = 0;
    unsigned long lineno = 0;
    int ret = 0;
    while (ret == 0 && getline(&buf, &cap, f) >= 0) {
        lineno++;
        char *path = xf_batch_list_line(buf);
        if (path && (ret = xf_batch_list_add(list, path, nm, msg, sizeof msg)) != 0)
            snprintf(err, errlen, "%s:%lu: %s", name, lineno, msg);
    }
    if (ret == 0 && ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", name, strerror(errno));
        ret = -1;
    }
    free(buf);
    return ret;
}

static void file_fini(xf_batch_file *f);

void
xf_batch_list_fini(xf_batch_list *list)
{
    for (size_t i = 0; i < list->n; i++)
        file_fini(&list->v[i]);
    free(list->v);
    *list = (xf_batch_list){0};
}

int
xf_shard_parse(const char *s, unsigned *k, unsigned *n)
{
    unsigned long v[2];
    const char *p = s;
    for (int i = 0; i < 2; i++) {
        if (*p < '0' || *p > '9')
            return -1;
        char *end;
        errno = 0;
        v[i] = strtoul(p, &end, 10);
        if (errno || *end != (i == 0 ? '/' : 0))
            return -1;
        p = end + 1;
    }
    if (v[0] < 1 || v[0] > v[1] || v[1] > MAX_SHARDS)
        return -1;
    *k = (unsigned)v[0];
    *n = (unsigned)v[1];
    return 0;
}

bool
xf_shard_keep(size_t pos, unsigned k, unsigned n)
{
    return n > 0 && pos % n == (size_t)k - 1;
}

/* ---- checking the sorted list */

static int
by_input(const void *a, const void *b)
{
    const xf_batch_file *x = a, *y = b;
    int c = strcmp(x->input, y->input);
    return c ? c : strcmp(x->output, y->output);
}

static int
input_is(const void *key, const void *elem)
{
    return strcmp(key, ((const xf_batch_file *)elem)->input);
}

/* Mark @f failed: "OUTPUT WHY OTHER". */
static void
refuse(xf_batch_file *f, const char *why, const char *other)
{
    size_t n = strlen(f->output) + strlen(why) + (other ? strlen(other) : 0) + 4;
    char *e = malloc(n);
    if (e)
        snprintf(e, n, "%s %s%s", f->output, why, other ? other : "");
    free(f->error);
    f->error = e;
    f->status = XF_BATCH_FAILED;
}

typedef struct file_id {
    dev_t dev;
    ino_t ino;
} file_id;

static int
by_id(const void *a, const void *b)
{
    const file_id *x = a, *y = b;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Outputs that are inputs: by name, or (existing ones) by device and inode. */
static int
refuse_overwrites(xf_batch_list *l)
{
    file_id *ids = malloc((l->n ? l->n : 1) * sizeof *ids);
    if (!ids)
        return -1;
    size_t nids = 0;
    struct stat st;
    for (size_t i = 0; i < l->n; i++)
        if (stat(l->v[i].input, &st) == 0)
            ids[nids++] = (file_id){st.st_dev, st.st_ino};
    qsort(ids, nids, sizeof *ids, by_id);
    for (size_t i = 0; i < l->n; i++) {
        bool same = bsearch(l->v[i].output, l->v, l->n, sizeof *l->v, input_is) != NULL;
        if (!same && stat(l->v[i].output, &st) == 0) {
            file_id id = {st.st_dev, st.st_ino};
            same = bsearch(&id, ids, nids, sizeof *ids, by_id) != NULL;
        }
        if (same)
            refuse(&l->v[i], "would overwrite an input", NULL);
    }
    free(ids);
    return 0;
}

static int
by_output(const void *a, const void *b)
{
    const xf_batch_file *const *x = a, *const *y = b;
    int c = strcmp((*x)->output, (*y)->output);
    return c ? c : (*x < *y ? -1 : *x > *y);
}

/* Outputs that two inputs share: the later inputs are refused. */
static int
refuse_shared(xf_batch_list *l)
{
    xf_batch_file **p = malloc((l->n ? l->n : 1) * sizeof(xf_batch_file *));
    if (!p)
        return -1;
    for (size_t i = 0; i < l->n; i++)
        p[i] = &l->v[i];
    qsort(p, l->n, sizeof(xf_batch_file *), by_output);
    size_t first = 0;
    for (size_t i = 1; i < l->n; i++) {
        if (strcmp(p[i]->output, p[first]->output) != 0)
            first = i;
        else if (p[i]->status != XF_BATCH_FAILED)
            refuse(p[i], "is also the output of ", p[first]->input);
    }
    free(p);
    return 0;
}

static void
file_fini(xf_batch_file *f)
{
    free(f->input);
    free(f->output);
    free(f->error);
}

int
xf_batch_list_finish(xf_batch_list *list, unsigned k, unsigned n)
{
    if (list->n > 1) /* v may be NULL */
        qsort(list->v, list->n, sizeof *list->v, by_input);
    size_t m = 0;
    for (size_t i = 0; i < list->n; i++) {
        if (m && !strcmp(list->v[m - 1].input, list->v[i].input))
            file_fini(&list->v[i]);
        else
            list->v[m++] = list->v[i];
    }
    list->n = m;
    if (refuse_overwrites(list) != 0 || refuse_shared(list) != 0)
        return -1;
    list->total = list->n;
    m = 0;
    for (size_t i = 0; i < list->n; i++) {
        if (xf_shard_keep(i, k, n))
            list->v[m++] = list->v[i];
        else
            file_fini(&list->v[i]);
    }
    list->n = m;
    return 0;
}
