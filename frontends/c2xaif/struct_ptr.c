/* struct_ptr.c: the --extent options of pointer members of structs
 * (docs/c-frontend.md, "Structs"). A pointer member (double *data in
 * typedef struct { int nrows, ncols; double *data; } Matrix) is flattened
 * like every member, into a pointer parameter m_data; its extent is given
 * as --extent m->data=m->nrows*m->ncols (or m.data, and FUNC:m->data=...
 * for a helper), which this file rewrites to the flattened names before
 * the extents are read: m_data=m_nrows*m_ncols. */
#include <ctype.h>
#include <string.h>

#include "cf.h"

/* @in with each "->" or "." that joins two names made '_'. */
static const char *
flatten(cf *c, const char *in)
{
    size_t n = strlen(in);
    char *out = cf_alloc(c, n + 1), *o = out;
    for (const char *p = in; *p;) {
        bool after_name = o > out && (isalnum((unsigned char)o[-1]) || o[-1] == '_');
        size_t skip = p[0] == '-' && p[1] == '>' ? 2 : p[0] == '.' ? 1 : 0;
        if (skip && after_name && (isalpha((unsigned char)p[skip]) || p[skip] == '_')) {
            /* the name before must be one, not the tail of a number (2.5) */
            const char *b = o;
            while (b > out && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
                b--;
            if (!isdigit((unsigned char)*b)) {
                *o++ = '_';
                p += skip;
                continue;
            }
        }
        *o++ = *p++;
    }
    *o = 0;
    return out;
}

const char *const *
cf_struct_flat_extents(cf *c, const char *const *ext)
{
    if (!ext)
        return NULL;
    size_t n = 0;
    while (ext[n])
        n++;
    const char **out = cf_alloc(c, (n + 1) * sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = strstr(ext[i], "->") || strchr(ext[i], '.') ? flatten(c, ext[i]) : ext[i];
    return out;
}
