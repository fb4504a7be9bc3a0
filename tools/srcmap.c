/* srcmap.c: xaif lines of a front end's document -> source file and line
 * (srcmap.h). */
#include "srcmap.h"

#include <stdlib.h>
#include <string.h>

static bool
add(xf_srcmap *m, unsigned long x, unsigned long s, int f)
{
    if (m->n == m->cap) {
        size_t k = m->cap ? 2 * m->cap : 256;
        unsigned long *a = realloc(m->xl, k * sizeof *a);
        if (a)
            m->xl = a;
        unsigned long *b = a ? realloc(m->sl, k * sizeof *b) : NULL;
        if (b)
            m->sl = b;
        int *c = b ? realloc(m->fl, k * sizeof *c) : NULL;
        if (!c)
            return false;
        m->fl = c;
        m->cap = k;
    }
    m->xl[m->n] = x;
    m->sl[m->n] = s;
    m->fl[m->n++] = f;
    return true;
}

/* @s (@k bytes) in the @n bytes at @p, or NULL. */
static const char *
find(const char *p, size_t n, const char *s, size_t k)
{
    for (size_t i = 0; i + k <= n; i++)
        if (p[i] == s[0] && memcmp(p + i, s, k) == 0)
            return p + i;
    return NULL;
}

static void
build(xf_srcmap *m)
{
    static const char num[] = "lineNumber=\"", cfg[] = "<xaif:ControlFlowGraph ",
                      sym[] = "symbol_id=\"";
    m->built = true;
    const char *p = m->text, *end = m->text + m->len;
    int file = 0;
    for (unsigned long at = 1; p < end; at++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *k = find(p, n, num, sizeof num - 1), *g;
        bool ok = true;
        if (k)
            ok = add(m, at, strtoul(k + sizeof num - 1, NULL, 10), file);
        else if ((g = find(p, n, cfg, sizeof cfg - 1))) {
            /* a routine's start: the line that defines it, where it is known */
            const char *s = find(g, n - (size_t)(g - p), sym, sizeof sym - 1);
            unsigned long line = 0;
            file = 0;
            if (s && m->routine) {
                s += sizeof sym - 1;
                const char *q = s;
                while (q < p + n && *q != '"')
                    q++;
                if (!m->routine(m->arg, s, (size_t)(q - s), &file, &line))
                    file = 0, line = 0;
            }
            ok = add(m, at, line, file);
        }
        if (!ok)
            return;
        p += n + 1;
    }
}

void
xf_srcmap_where(void *arg, const char **file, unsigned long *line)
{
    xf_srcmap *m = arg;
    if (!*file || strcmp(*file, m->xaif) != 0)
        return;
    if (!m->built)
        build(m);
    size_t lo = 0, hi = m->n; /* after the last entry at or above *line */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->xl[mid] <= *line)
            lo = mid + 1;
        else
            hi = mid;
    }
    *file = m->files[lo > 0 ? m->fl[lo - 1] : 0];
    *line = lo > 0 ? m->sl[lo - 1] : 0;
}

void
xf_srcmap_free(xf_srcmap *m)
{
    free(m->xl);
    free(m->sl);
    free(m->fl);
    m->xl = m->sl = NULL;
    m->fl = NULL;
    m->n = m->cap = 0;
}
