/* c_extent.c: array formals whose extents are known only at run time. The
 * C front end writes them in the symbol's annotation, "xf_extent=E1,E2,..."
 * (one integer C expression per dimension, in C's order, over the integer
 * formals of the same routine and integer constants); their DimensionBounds
 * carry XF_RT_EXTENT elements, a number no generated code may use. Every
 * place that needs such an array's size writes the expression instead, so
 * that the code is right and memory-safe for any size (docs/c-backend.md). */
#include <ctype.h>
#include <string.h>

#include "c_impl.h"

static const char key[] = "xf_extent=";

/* The text after "xf_extent=" in @s's annotation, or NULL. */
static const char *
rt_text(const xf_symbol *s)
{
    const char *a = s->h.annotation;
    if (!a)
        return NULL;
    for (const char *p = strstr(a, key); p; p = strstr(p + 1, key))
        if (p == a || p[-1] == ';')
            return p + sizeof key - 1;
    return NULL;
}

bool
cw_rt(const xf_symbol *s)
{
    return xf_shape_rank(s->shape) > 0 && rt_text(s) != NULL;
}

bool
cw_rt_sentinel(const xf_symbol *s)
{
    for (uint32_t k = 0; k < s->dims.n; k++) {
        int64_t e;
        if (cw_dim_extent(&s->dims.v[k], &e) && e == XF_RT_EXTENT)
            return true;
    }
    return false;
}

/* Write dimension @j (C order) of @s's extent text: identifiers become the
 * integer formals' values, everything else is copied. */
static bool
write_dim(cw *w, const xf_symbol *s, const char *t, uint32_t j, uint32_t line)
{
    for (; j > 0 && *t && *t != ';'; t++)
        if (*t == ',')
            j--;
    if (j > 0 || !*t || *t == ';' || *t == ',') {
        cw_refuse(w, line, "%s: its run-time extent '%s' has too few dimensions", s->id,
                  rt_text(s));
        return false;
    }
    fputs("((long)(", w->o);
    while (*t && *t != ',' && *t != ';') {
        if (isalpha((unsigned char)*t) || *t == '_') {
            char id[128];
            size_t n = 0;
            while ((isalnum((unsigned char)*t) || *t == '_') && n + 1 < sizeof id)
                id[n++] = *t++;
            id[n] = 0;
            const xf_symbol *v = NULL; /* the map's keys are interned: compare the text */
            for (uint32_t i = 0; i < s->scope->syms.n && !v; i++)
                if (!strcmp(s->scope->syms.v[i]->id, id))
                    v = s->scope->syms.v[i];
            if (!v || v->type != XF_TYPE_INTEGER || xf_shape_rank(v->shape) > 0 ||
                !w->syms[v->index].name) {
                cw_refuse(w, line, "%s: the extent names '%s', which is no integer of its routine",
                          s->id, id);
                return false;
            }
            w->syms[v->index].used = true;
            cw_scalar(w, v);
        } else
            fputc(*t++, w->o);
    }
    fputs("))", w->o);
    return true;
}

bool
cw_rt_dim(cw *w, const xf_symbol *s, uint32_t j, uint32_t line)
{
    const char *t = rt_text(s);
    if (!t || j >= s->dims.n) {
        int64_t e = 1;
        if (j < s->dims.n && !cw_dim_extent(&s->dims.v[j], &e)) {
            cw_refuse(w, line, "array %s: an extent does not fit in 64 bits", s->id);
            return false;
        }
        fprintf(w->o, "%lldL", (long long)e);
        return true;
    }
    return write_dim(w, s, t, j, line);
}

bool
cw_rt_count(cw *w, const xf_symbol *s, uint32_t line)
{
    fputs("(1L", w->o);
    for (uint32_t j = 0; j < s->dims.n; j++) {
        fputs(" * ", w->o);
        if (!cw_rt_dim(w, s, j, line))
            return false;
    }
    fputs(")", w->o);
    return true;
}

bool
cw_rt_zeros(cw *w, const xf_varref *r, uint32_t p, uint32_t line)
{
    /* the callee's extent is in its own formals: the actual's whole size
     * (an element passed gives the callee at most the rest of its array) */
    const xf_symref *sr = r ? xf_varref_symref(r) : NULL;
    const xf_symbol *a = sr ? sr->sym : NULL;
    fprintf(w->o, "        double *xf_z%u = xf_ad_zeros(", p);
    if (a && cw_rt(a)) {
        if (!cw_rt_count(w, a, line))
            return false;
    } else {
        int64_t n = a ? cw_extent(w, a, line) : 1;
        if (n < 0)
            return false;
        fprintf(w->o, "%lldL", (long long)n);
    }
    fputs(");\n", w->o);
    return true;
}

/* ------------------------------------------ local arrays of run-time size */

/* Does the function's body @body (NULL: not known) name component @d
 * (0 the value, 1 the derivative) of the run-time array @c? Each variant
 * of a joint template (its plain, taping and adjoint sweeps) allocates
 * only what it names. */
static bool
rt_named(const cw_sym *c, int d, const char *body)
{
    if (!(d ? c->dused : c->used))
        return false;
    return !body || cw_tidy_names(body, d ? c->dname : c->name);
}

/* A local array sized at run time (the C front end's malloc'ed work arrays):
 * zeros from the heap at each activation, as every local starts at zero,
 * and its derivative likewise, each where the body @body names it;
 * cw_rt_free frees both at the routine's end. */
bool
cw_rt_declare(cw *w, FILE *o, const xf_symbol *s, const char *body)
{
    const cw_sym *c = &w->syms[s->index];
    bool in = s->type == XF_TYPE_INTEGER; /* an array of structs' int member */
    if (s->type != XF_TYPE_REAL && s->type != XF_TYPE_DOUBLE && !in) {
        cw_refuse(w, s->h.line, "%s: only real and int arrays can be sized at run time", s->id);
        return false;
    }
    FILE *saved = w->o;
    w->o = o;
    for (int d = 0; d < 2; d++) {
        if (!rt_named(c, d, body) || (d && in))
            continue;
        fprintf(o, in ? "    int *%s = xf_ad_izeros(" : "    double *%s = xf_ad_zeros(",
                d ? c->dname : c->name);
        if (!cw_rt_count(w, s, s->h.line))
            break;
        fputs(");\n", o);
    }
    w->o = saved;
    return !w->failed;
}

void
cw_rt_free(cw *w, FILE *o, const xf_scope *sc, const char *body)
{
    for (uint32_t j = 0; j < sc->syms.n; j++) {
        const xf_symbol *s = sc->syms.v[j];
        const cw_sym *c = &w->syms[s->index];
        if (c->formal || c->global || !cw_rt(s))
            continue;
        if (rt_named(c, 0, body))
            fprintf(o, s->type == XF_TYPE_INTEGER ? "    free(%s);\n" : "    xf_ad_drop(%s);\n",
                    c->name);
        if (rt_named(c, 1, body) && s->type != XF_TYPE_INTEGER)
            fprintf(o, "    xf_ad_drop(%s);\n", c->dname);
    }
}
