/* names.c: a routine by the name written in the source. The Fortran front
 * end makes each symbol_id unique by a number: head becomes head__24, a
 * module procedure foo FOO_24; a user on the command line writes head. */
#include "names.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *
xf_routine_symbol(const xf_routine *r)
{
    return r->sym && r->sym->id ? r->sym->id : r->id ? r->id : "?";
}

/* Is @id (less @prefix if it starts so) @name in any case, then nothing or
 * '_'s followed by digits? */
static bool
as_written(const char *id, const char *name, const char *prefix)
{
    size_t p = prefix ? strlen(prefix) : 0, n = strlen(name);
    if (p && strncmp(id, prefix, p) == 0 && as_written(id + p, name, NULL))
        return true;
    if (strncasecmp(id, name, n) != 0)
        return false;
    const char *s = id + n;
    if (!*s)
        return true;
    if (*s != '_')
        return false;
    while (*s == '_')
        s++;
    if (*s < '0' || *s > '9')
        return false;
    while (*s >= '0' && *s <= '9')
        s++;
    return !*s;
}

static bool
looked_at(const xf_routine *r, xf_routine_filter keep, const void *arg)
{
    return !keep || keep(r, arg);
}

/* A message being written: @k bytes of @len used; @full after "...". */
typedef struct msgbuf {
    char *p;
    size_t len, k;
    bool full;
} msgbuf;

static void
put(msgbuf *b, const char *a, const char *c)
{
    if (b->k >= b->len)
        return;
    int w = snprintf(b->p + b->k, b->len - b->k, "%s%s", a, c);
    b->k = w < 0 ? b->len : b->k + (size_t)w < b->len ? b->k + (size_t)w : b->len;
}

/* ", name" (or "name" first), or ", ..." once the list would leave no room
 * for the end of the message (@tail bytes). */
static void
put_name(msgbuf *b, bool first, const char *name, size_t tail)
{
    if (b->full)
        return;
    if (b->k + strlen(name) + 2 + tail + 5 >= b->len) {
        put(b, first ? "" : ", ", "...");
        b->full = true;
        return;
    }
    put(b, first ? "" : ", ", name);
}

size_t
xf_routine_lookup(const xf_doc *doc, const char *name, xf_routine_filter keep, const void *arg,
                  const xf_routine **found, char *msg, size_t len)
{
    xf_routine *const *rs = doc->cg.routines.v;
    uint32_t n = doc->cg.routines.n;
    *found = NULL;
    /* exact: the symbol_id, else the vertex_id */
    for (uint32_t i = 0; i < n; i++)
        if (rs[i]->sym && rs[i]->sym->id && !strcmp(rs[i]->sym->id, name) &&
            looked_at(rs[i], keep, arg)) {
            *found = rs[i];
            return 1;
        }
    for (uint32_t i = 0; i < n; i++)
        if (rs[i]->id && !strcmp(rs[i]->id, name) && looked_at(rs[i], keep, arg)) {
            *found = rs[i];
            return 1;
        }
    size_t hits = 0;
    for (uint32_t i = 0; i < n; i++)
        if (rs[i]->sym && rs[i]->sym->id && as_written(rs[i]->sym->id, name, doc->cg.prefix) &&
            looked_at(rs[i], keep, arg) && hits++ == 0)
            *found = rs[i];
    if (hits == 1)
        return 1;
    *found = NULL;
    if (!msg || !len)
        return hits;
    static const char tail_none[] = ")", tail_some[] = "): give one's full name";
    const char *tail = hits ? tail_some : tail_none;
    msgbuf b = {msg, len, 0, false};
    msg[0] = 0;
    char head[48];
    snprintf(head, sizeof head, "%zu routines are named ", hits);
    put(&b, hits ? head : "no routine named ", name);
    put(&b, hits ? " (" : " (routines: ", "");
    bool first = true;
    for (uint32_t i = 0; i < n; i++) {
        const xf_routine *r = rs[i];
        if (!looked_at(r, keep, arg) ||
            (hits && !(r->sym && r->sym->id && as_written(r->sym->id, name, doc->cg.prefix))))
            continue;
        put_name(&b, first, xf_routine_symbol(r), strlen(tail));
        first = false;
    }
    if (first)
        put(&b, "none", "");
    put(&b, tail, "");
    return hits;
}
