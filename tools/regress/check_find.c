/* check_find.c: the example folders of OpenAD's regression layout at or
 * under a folder, for the regression runner. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "regress.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct finder {
    char **v; /* the example folders found */
    size_t n, cap;
    struct visited {
        dev_t dev;
        ino_t ino;
    } * seen; /* every folder entered or taken, so that a symlink loop ends */
    size_t nseen, capseen;
    bool oom;
} finder;

static bool
has(const char *dir, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    int k = snprintf(p, sizeof p, "%s/%s", dir, name);
    return k > 0 && (size_t)k < sizeof p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

bool
xf_check_is_example(const char *dir)
{
    return has(dir, "params.conf") && (has(dir, "tlm.xaif") || has(dir, "adm.xaif"));
}

/* Mark @st's folder as seen; false when it was already. */
static bool
first_visit(finder *f, const struct stat *st)
{
    for (size_t i = 0; i < f->nseen; i++)
        if (f->seen[i].dev == st->st_dev && f->seen[i].ino == st->st_ino)
            return false;
    if (f->nseen == f->capseen) {
        size_t cap = f->capseen ? 2 * f->capseen : 64;
        struct visited *s = realloc(f->seen, cap * sizeof *s);
        if (!s) {
            f->oom = true;
            return false;
        }
        f->seen = s;
        f->capseen = cap;
    }
    f->seen[f->nseen].dev = st->st_dev;
    f->seen[f->nseen++].ino = st->st_ino;
    return true;
}

static void
take(finder *f, const char *path)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        char **v = realloc(f->v, cap * sizeof *v);
        if (!v) {
            f->oom = true;
            return;
        }
        f->v = v;
        f->cap = cap;
    }
    if (!(f->v[f->n] = strdup(path)))
        f->oom = true;
    else
        f->n++;
}

static int
by_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of @dir but hidden ones, sorted (bytes), so that which of two
 * paths to one folder is taken does not depend on the file system's order. */
static char **
entries(const char *dir, size_t *n, bool *oom)
{
    char **v = NULL;
    size_t cap = 0;
    *n = 0;
    DIR *dp = opendir(dir);
    if (!dp)
        return NULL;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (e->d_name[0] == '.')
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 32;
            char **nv = realloc(v, cap * sizeof *v);
            if (!nv) {
                *oom = true;
                break;
            }
            v = nv;
        }
        if (!(v[*n] = strdup(e->d_name))) {
            *oom = true;
            break;
        }
        (*n)++;
    }
    closedir(dp);
    if (*n)
        qsort(v, *n, sizeof *v, by_path);
    return v;
}

/* The examples in the subfolders of @dir, @depth levels below the root. */
static void
search(finder *f, const char *dir, int depth)
{
    size_t n;
    char **names = entries(dir, &n, &f->oom);
    for (size_t i = 0; i < n; i++) {
        char p[PATH_MAX];
        struct stat st;
        int k = snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        free(names[i]);
        if (f->oom || k < 0 || (size_t)k >= sizeof p || stat(p, &st) != 0 || !S_ISDIR(st.st_mode) ||
            !first_visit(f, &st))
            continue;
        if (xf_check_is_example(p))
            take(f, p);
        else if (!has(p, "params.conf") && depth < XF_CHECK_DEPTH)
            search(f, p, depth + 1);
    }
    free(names);
}

long
xf_check_find(const char *root, char ***v, bool *searched, FILE *out)
{
    finder f = {0};
    char path[PATH_MAX];
    size_t len = strlen(root);
    while (len > 1 && root[len - 1] == '/')
        len--;
    if (len >= sizeof path) {
        fprintf(out, "%s: error: cannot read: the path is too long\n", root);
        return -1;
    }
    memcpy(path, root, len);
    path[len] = 0;
    *v = NULL;
    *searched = false;
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(out, "%s: error: cannot read: %s\n", root, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(out, "%s: error: cannot read: not a folder\n", root);
        return -1;
    }
    if (xf_check_is_example(path)) {
        /* the name is the last component: make one of "." or ".." */
        const char *last = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        char real[PATH_MAX];
        if ((!strcmp(last, ".") || !strcmp(last, "..")) && realpath(path, real))
            take(&f, real);
        else
            take(&f, path);
    } else {
        *searched = true;
        first_visit(&f, &st);
        search(&f, path, 1);
    }
    free(f.seen);
    if (f.oom) {
        for (size_t i = 0; i < f.n; i++)
            free(f.v[i]);
        free(f.v);
        fprintf(out, "%s: error: out of memory\n", root);
        return -1;
    }
    if (f.n)
        qsort(f.v, f.n, sizeof *f.v, by_path);
    *v = f.v;
    return (long)f.n;
}
