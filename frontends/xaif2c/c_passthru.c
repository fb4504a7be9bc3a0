/* c_passthru.c: parameters the C front end passes through untouched
 * (const char **names, void *ctx): they are no variables of the xaif, and
 * the routine's symbol names them, ";xf_pass=POS:NAME:TYPE" (POS their
 * place in the user's C signature, from 1). The wrapper with the user's
 * signature takes them at their places, as Tapenade keeps a passive
 * parameter once and without derivative, and does nothing with them; the
 * inner function, which computes, never sees them (docs/c-backend.md). */
#include <stdlib.h>
#include <string.h>

#include "c_impl.h"

static const char key[] = ";xf_pass=";

/* The next passed-through parameter of @r's annotation from *@at: its
 * place, and its name and type into @name and @type; false at the end. */
static bool
next(const char **at, int *pos, char *name, size_t nlen, char *type, size_t tlen)
{
    const char *p = *at ? strstr(*at, key) : NULL;
    if (!p)
        return false;
    p += sizeof key - 1;
    char *end;
    long v = strtol(p, &end, 10);
    const char *c1 = *end == ':' ? end + 1 : NULL, *c2 = c1 ? strchr(c1, ':') : NULL;
    if (!c2 || (size_t)(c2 - c1) >= nlen)
        return false;
    size_t tl = strcspn(c2 + 1, ";");
    if (tl >= tlen)
        return false;
    memcpy(name, c1, (size_t)(c2 - c1));
    name[c2 - c1] = 0;
    memcpy(type, c2 + 1, tl);
    type[tl] = 0;
    *pos = (int)v;
    *at = c2 + 1 + tl;
    return true;
}

bool
cw_pass_params(const cw *w, FILE *o, const xf_routine *r, int from, int to, bool *any)
{
    (void)w;
    const char *at = r->sym ? r->sym->h.annotation : NULL;
    char name[128], type[256];
    int pos;
    bool wrote = false;
    while (next(&at, &pos, name, sizeof name, type, sizeof type))
        if (pos >= from && pos <= to) {
            size_t n = strlen(type);
            fprintf(o, "%s%s%s%s", *any ? ", " : "", type, n && type[n - 1] == '*' ? "" : " ",
                    name);
            *any = wrote = true;
        }
    return wrote;
}

void
cw_pass_unused(const cw *w, FILE *o, const xf_routine *r)
{
    (void)w;
    const char *at = r->sym ? r->sym->h.annotation : NULL;
    char name[128], type[256];
    int pos;
    while (next(&at, &pos, name, sizeof name, type, sizeof type))
        fprintf(o, "    (void)%s; /* passed through: nothing is read through it */\n", name);
}

bool
cw_pass_static(const char *annotation)
{
    return annotation && !strncmp(annotation, "c:static", 8) &&
           (annotation[8] == 0 || annotation[8] == ';');
}
