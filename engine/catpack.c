/* catpack.c: a catalogue's IR into bytes (see catpack.h; catunpack.c reads
 * them back, field for field in the same order). */
#include "catpack.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catpack_impl.h"

typedef struct pk {
    unsigned char *b;
    size_t n, cap;
    bool oom;
    const char *bad; /* what cannot be packed */
} pk;

static void
put_byte(pk *p, unsigned char c)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 4096;
        unsigned char *b = p->oom ? NULL : realloc(p->b, cap);
        if (!b) {
            p->oom = true;
            return;
        }
        p->b = b;
        p->cap = cap;
    }
    p->b[p->n++] = c;
}

static void
put_u(pk *p, uint64_t v)
{
    while (v >= 0x80) {
        put_byte(p, (unsigned char)(v | 0x80));
        v >>= 7;
    }
    put_byte(p, (unsigned char)v);
}

static void
put_i(pk *p, int64_t v)
{
    put_u(p, ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0));
}

static void
put_s(pk *p, const char *s)
{
    size_t len = s ? strlen(s) : 0;
    put_u(p, s ? len + 1 : 0);
    for (size_t i = 0; i < len; i++)
        put_byte(p, (unsigned char)s[i]);
}

static void
put_attrs(pk *p, const xf_attr_vec *v)
{
    put_u(p, v->n);
    for (uint32_t i = 0; i < v->n; i++) {
        put_s(p, v->v[i].ns);
        put_s(p, v->v[i].prefix);
        put_s(p, v->v[i].name);
        put_s(p, v->v[i].value);
    }
}

static void
put_xnode(pk *p, const xf_xnode *x, int depth)
{
    if (depth > XF_CATPACK_MAX_DEPTH) {
        p->bad = "foreign elements nested too deep";
        return;
    }
    put_u(p, x->kind);
    put_u(p, x->line);
    put_s(p, x->ns);
    put_s(p, x->prefix);
    put_s(p, x->name);
    put_s(p, x->text);
    put_attrs(p, &x->attrs);
    put_u(p, x->kids.n);
    for (uint32_t i = 0; i < x->kids.n; i++)
        put_xnode(p, x->kids.v[i], depth + 1);
}

static void
put_xnodes(pk *p, const xf_xnode_vec *v)
{
    put_u(p, v->n);
    for (uint32_t i = 0; i < v->n; i++)
        put_xnode(p, v->v[i], 0);
}

static void
put_hdr(pk *p, const xf_hdr *h)
{
    put_u(p, h->line);
    put_s(p, h->annotation);
    put_u(p, h->extra != NULL);
    if (!h->extra)
        return;
    put_attrs(p, &h->extra->attrs);
    put_u(p, h->extra->kids.n);
    for (uint32_t i = 0; i < h->extra->kids.n; i++) {
        put_u(p, h->extra->kids.v[i].before);
        put_xnode(p, h->extra->kids.v[i].node, 0);
    }
}

static void
put_expr(pk *p, const xf_expr *x)
{
    put_hdr(p, &x->h);
    put_u(p, x->v.n);
    for (uint32_t i = 0; i < x->v.n; i++) {
        const xf_evertex *v = &x->v.v[i];
        put_hdr(p, &v->h);
        put_u(p, v->kind);
        put_s(p, v->id);
        put_u(p, v->seq);
        switch (v->kind) {
        case XF_EV_CONSTANT:
            put_u(p, v->u.c.type);
            put_s(p, v->u.c.fetype);
            put_s(p, v->u.c.value);
            break;
        case XF_EV_INTRINSIC:
        case XF_EV_BOOLOP:
            put_s(p, v->u.in.name);
            put_s(p, v->u.in.type);
            put_s(p, v->u.in.rtype);
            put_s(p, v->u.in.rshape);
            break;
        case XF_EV_ARGREF:
            put_i(p, v->u.arg);
            break;
        case XF_EV_VARREF:
        case XF_EV_FUNCALL:
            p->bad = "a partial with a variable reference or a function call";
            break;
        }
    }
    put_u(p, x->e.n);
    for (uint32_t i = 0; i < x->e.n; i++) {
        const xf_eedge *e = &x->e.v[i];
        put_hdr(p, &e->h);
        put_s(p, e->id);
        put_u(p, e->src);
        put_u(p, e->tgt);
        put_i(p, e->pos);
        put_u(p, e->seq);
    }
}

static void
put_ii(pk *p, const xf_ii *ii)
{
    put_hdr(p, &ii->h);
    put_s(p, ii->name);
    put_i(p, ii->nargs);
    put_s(p, ii->return_type);
    put_s(p, ii->shape_change);
    put_u(p, ii->non_smooth);
    put_u(p, ii->has_fn);
    put_hdr(p, &ii->fn_h);
    put_s(p, ii->fn_type);
    put_s(p, ii->fn_builtin);
    put_u(p, ii->partials.n);
    for (uint32_t i = 0; i < ii->partials.n; i++) {
        const xf_ii_partial *pa = &ii->partials.v[i];
        put_i(p, pa->id);
        put_s(p, pa->type);
        put_u(p, pa->non_value_inquiry);
        put_expr(p, &pa->expr);
    }
}

static void
put_nii(pk *p, const xf_nii *n)
{
    put_hdr(p, &n->h);
    put_u(p, n->direct);
    put_s(p, n->name);
    put_s(p, n->jacobian);
    put_s(p, n->return_type);
    put_s(p, n->deriv_action);
    put_u(p, n->partials.n);
    for (uint32_t i = 0; i < n->partials.n; i++) {
        put_hdr(p, &n->partials.v[i].h);
        put_i(p, n->partials.v[i].dep);
        put_i(p, n->partials.v[i].indep);
        put_i(p, n->partials.v[i].partial);
    }
}

unsigned char *
xf_cat_pack(const xf_doc *cat, size_t *len, xf_diag *diag)
{
    pk p = {0};
    if (cat->kind != XF_DOC_INLINABLE && cat->kind != XF_DOC_NONINLINABLE) {
        xf_error(diag, cat->filename, 0, "not an intrinsics catalogue");
        return NULL;
    }
    for (const char *m = XF_CATPACK_MAGIC; *m; m++)
        put_byte(&p, (unsigned char)*m);
    put_u(&p, cat->kind);
    put_u(&p, cat->ns.n);
    for (uint32_t i = 0; i < cat->ns.n; i++) {
        put_s(&p, cat->ns.v[i].prefix);
        put_s(&p, cat->ns.v[i].uri);
    }
    put_xnodes(&p, &cat->before);
    put_xnodes(&p, &cat->after);
    put_hdr(&p, &cat->defs_h);
    put_s(&p, cat->language);
    put_u(&p, cat->ii.n);
    for (uint32_t i = 0; i < cat->ii.n; i++)
        put_ii(&p, &cat->ii.v[i]);
    put_u(&p, cat->nii.n);
    for (uint32_t i = 0; i < cat->nii.n; i++)
        put_nii(&p, &cat->nii.v[i]);
    put_u(&p, cat->nsymbols);
    put_u(&p, cat->nscopes);
    put_u(&p, cat->nroutines);
    put_s(&p, cat->deriv.what);
    put_s(&p, cat->deriv.detail);
    put_u(&p, cat->deriv.line);
    if (p.oom || p.bad) {
        if (p.bad)
            xf_error(diag, cat->filename, 0, "cannot pack the catalogue: %s", p.bad);
        else
            xf_error(diag, cat->filename, 0, "out of memory");
        free(p.b);
        return NULL;
    }
    *len = p.n;
    return p.b;
}
