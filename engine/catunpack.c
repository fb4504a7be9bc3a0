/* catunpack.c: a packed catalogue back into a document (see catpack.h),
 * reading the fields in catpack.c's order. The bytes are the program's
 * own, but every read is bounded, so corrupt bytes give an error. */
#include "catpack.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "catpack_impl.h"
#include "strtab.h"

typedef struct upk {
    const unsigned char *p, *end;
    xf_doc *doc;
    xf_arena *a;
    bool bad;
} upk;

static uint64_t
get_u(upk *u)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (u->p == u->end) {
            u->bad = true;
            return 0;
        }
        unsigned char c = *u->p++;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return v;
    }
    u->bad = true;
    return 0;
}

static uint32_t
get_u32(upk *u)
{
    uint64_t v = get_u(u);
    if (v > UINT32_MAX)
        u->bad = true;
    return (uint32_t)v;
}

static int64_t
get_i(upk *u)
{
    uint64_t v = get_u(u);
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static const char *
get_s(upk *u)
{
    uint64_t n = get_u(u);
    if (n == 0 || u->bad)
        return NULL;
    if (n - 1 > (uint64_t)(u->end - u->p) || n - 1 > INT32_MAX) {
        u->bad = true;
        return NULL;
    }
    const char *s = xf_strtab_intern(u->doc->strs, (const char *)u->p, (int)(n - 1));
    u->p += n - 1;
    if (!s)
        u->bad = true;
    return s;
}

/* Room for the @n elements of @size bytes that follow; NULL when n is 0. */
static void *
get_array(upk *u, uint32_t *n, size_t size)
{
    *n = get_u32(u);
    if (u->bad || *n == 0)
        return NULL;
    /* every element takes a byte at least */
    if (*n > (size_t)(u->end - u->p)) {
        u->bad = true;
        *n = 0;
        return NULL;
    }
    void *v = xf_arena_array(u->a, *n, size);
    if (!v) {
        u->bad = true;
        *n = 0;
    }
    return v;
}

#define GET_VEC(u, vec) ((vec).v = get_array((u), &(vec).n, sizeof *(vec).v), (vec).cap = (vec).n)

static void
get_attrs(upk *u, xf_attr_vec *v)
{
    GET_VEC(u, *v);
    for (uint32_t i = 0; i < v->n && !u->bad; i++) {
        v->v[i].ns = get_s(u);
        v->v[i].prefix = get_s(u);
        v->v[i].name = get_s(u);
        v->v[i].value = get_s(u);
    }
}

static xf_xnode *
get_xnode(upk *u, int depth)
{
    xf_xnode *x = XF_NEW(u->a, xf_xnode);
    if (!x || depth > XF_CATPACK_MAX_DEPTH) {
        u->bad = true;
        return NULL;
    }
    x->kind = (xf_xkind)get_u(u);
    x->line = get_u32(u);
    x->ns = get_s(u);
    x->prefix = get_s(u);
    x->name = get_s(u);
    x->text = get_s(u);
    get_attrs(u, &x->attrs);
    GET_VEC(u, x->kids);
    for (uint32_t i = 0; i < x->kids.n && !u->bad; i++)
        x->kids.v[i] = get_xnode(u, depth + 1);
    return x;
}

static void
get_xnodes(upk *u, xf_xnode_vec *v)
{
    GET_VEC(u, *v);
    for (uint32_t i = 0; i < v->n && !u->bad; i++)
        v->v[i] = get_xnode(u, 0);
}

static void
get_hdr(upk *u, xf_hdr *h)
{
    h->line = get_u32(u);
    h->annotation = get_s(u);
    if (!get_u(u) || u->bad)
        return;
    if (!(h->extra = XF_NEW(u->a, xf_extra))) {
        u->bad = true;
        return;
    }
    get_attrs(u, &h->extra->attrs);
    GET_VEC(u, h->extra->kids);
    for (uint32_t i = 0; i < h->extra->kids.n && !u->bad; i++) {
        h->extra->kids.v[i].before = get_u32(u);
        h->extra->kids.v[i].node = get_xnode(u, 0);
    }
}

static void
get_expr(upk *u, xf_expr *x)
{
    get_hdr(u, &x->h);
    GET_VEC(u, x->v);
    for (uint32_t i = 0; i < x->v.n && !u->bad; i++) {
        xf_evertex *v = &x->v.v[i];
        get_hdr(u, &v->h);
        uint64_t kind = get_u(u);
        v->id = get_s(u);
        v->seq = get_u32(u);
        if (kind > XF_EV_ARGREF) {
            u->bad = true;
            break;
        }
        v->kind = (xf_evkind)kind;
        switch (v->kind) {
        case XF_EV_CONSTANT:
            v->u.c.type = (xf_type)get_u(u);
            v->u.c.fetype = get_s(u);
            v->u.c.value = get_s(u);
            break;
        case XF_EV_INTRINSIC:
        case XF_EV_BOOLOP:
            v->u.in.name = get_s(u);
            v->u.in.type = get_s(u);
            v->u.in.rtype = get_s(u);
            v->u.in.rshape = get_s(u);
            break;
        case XF_EV_ARGREF:
            v->u.arg = get_i(u);
            break;
        case XF_EV_VARREF:
        case XF_EV_FUNCALL:
            u->bad = true;
            break;
        }
    }
    GET_VEC(u, x->e);
    for (uint32_t i = 0; i < x->e.n && !u->bad; i++) {
        xf_eedge *e = &x->e.v[i];
        get_hdr(u, &e->h);
        e->id = get_s(u);
        e->src = get_u32(u);
        e->tgt = get_u32(u);
        e->pos = get_i(u);
        e->seq = get_u32(u);
        if (e->src >= x->v.n || e->tgt >= x->v.n)
            u->bad = true;
    }
}

static void
get_ii(upk *u, xf_ii *ii)
{
    get_hdr(u, &ii->h);
    ii->name = get_s(u);
    ii->nargs = get_i(u);
    ii->return_type = get_s(u);
    ii->shape_change = get_s(u);
    ii->non_smooth = (xf_flag)get_u(u);
    ii->has_fn = get_u(u) != 0;
    get_hdr(u, &ii->fn_h);
    ii->fn_type = get_s(u);
    ii->fn_builtin = get_s(u);
    GET_VEC(u, ii->partials);
    for (uint32_t i = 0; i < ii->partials.n && !u->bad; i++) {
        xf_ii_partial *pa = &ii->partials.v[i];
        pa->id = get_i(u);
        pa->type = get_s(u);
        pa->non_value_inquiry = (xf_flag)get_u(u);
        get_expr(u, &pa->expr);
    }
}

static void
get_nii(upk *u, xf_nii *n)
{
    get_hdr(u, &n->h);
    n->direct = get_u(u) != 0;
    n->name = get_s(u);
    n->jacobian = get_s(u);
    n->return_type = get_s(u);
    n->deriv_action = get_s(u);
    GET_VEC(u, n->partials);
    for (uint32_t i = 0; i < n->partials.n && !u->bad; i++) {
        get_hdr(u, &n->partials.v[i].h);
        n->partials.v[i].dep = get_i(u);
        n->partials.v[i].indep = get_i(u);
        n->partials.v[i].partial = get_i(u);
    }
}

xf_doc *
xf_cat_unpack(const unsigned char *buf, size_t len, const char *name, xf_diag *diag)
{
    size_t mlen = strlen(XF_CATPACK_MAGIC);
    if (len < mlen || memcmp(buf, XF_CATPACK_MAGIC, mlen) != 0) {
        xf_error(diag, name, 0, "not a packed catalogue of this build");
        return NULL;
    }
    xf_doc *doc = xf_doc_new(name);
    if (!doc) {
        xf_error(diag, name, 0, "out of memory");
        return NULL;
    }
    upk u = {.p = buf + mlen, .end = buf + len, .doc = doc, .a = doc->arena};
    doc->kind = (xf_dockind)get_u(&u);
    if (doc->kind != XF_DOC_INLINABLE && doc->kind != XF_DOC_NONINLINABLE)
        u.bad = true;
    GET_VEC(&u, doc->ns);
    for (uint32_t i = 0; i < doc->ns.n && !u.bad; i++) {
        doc->ns.v[i].prefix = get_s(&u);
        doc->ns.v[i].uri = get_s(&u);
    }
    get_xnodes(&u, &doc->before);
    get_xnodes(&u, &doc->after);
    get_hdr(&u, &doc->defs_h);
    doc->language = get_s(&u);
    GET_VEC(&u, doc->ii);
    for (uint32_t i = 0; i < doc->ii.n && !u.bad; i++)
        get_ii(&u, &doc->ii.v[i]);
    GET_VEC(&u, doc->nii);
    for (uint32_t i = 0; i < doc->nii.n && !u.bad; i++)
        get_nii(&u, &doc->nii.v[i]);
    doc->nsymbols = get_u32(&u);
    doc->nscopes = get_u32(&u);
    doc->nroutines = get_u32(&u);
    doc->deriv.what = get_s(&u);
    doc->deriv.detail = get_s(&u);
    doc->deriv.line = get_u32(&u);
    if (u.bad || u.p != u.end) {
        xf_error(diag, name, 0, "a packed catalogue that is cut short or corrupt");
        xf_doc_free(doc);
        return NULL;
    }
    return doc;
}
