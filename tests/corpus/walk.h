/* walk.h: the corpus programs' walk over a folder's .xaif files. */
#ifndef XF_TESTS_CORPUS_WALK_H
#define XF_TESTS_CORPUS_WALK_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The contents of @path (NUL-terminated, *@len bytes), or NULL. */
static char *
slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

static int
by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Visit every .xaif file under @dir, in name order, depth first. */
static void
walk(const char *dir, void (*visit)(const char *path, void *arg), void *arg)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (n + 1) * sizeof *names);
        names[n++] = strdup(e->d_name);
    }
    closedir(dp);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat sb;
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
            walk(path, visit, arg);
        else if (strlen(names[i]) > 5 && strcmp(names[i] + strlen(names[i]) - 5, ".xaif") == 0)
            visit(path, arg);
        free(names[i]);
    }
    free(names);
}

#endif
