/* util.c: what the passes share: activity, the catalogue, messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

bool
xf_is_active_sym(const xf_symbol *s)
{
    if (!s || s->kind == XF_SYMKIND_SUBROUTINE)
        return false;
    bool real = s->type == XF_TYPE_REAL || s->type == XF_TYPE_DOUBLE || s->type == XF_TYPE_NONE;
    return real && xf_flag_is(s->active, false);
}

bool
xf_is_active_ref(const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    return s && xf_is_active_sym(s->sym) && !xf_flag_is(r->deriv, false);
}

const xf_ii *
xf_catalogue_find(const xf_doc *cat, const char *name)
{
    if (!cat)
        return NULL;
    for (uint32_t i = 0; i < cat->ii.n; i++)
        if (cat->ii.v[i].name == name || !strcmp(cat->ii.v[i].name, name))
            return &cat->ii.v[i];
    return NULL;
}

const xf_nii *
xf_direct_find(const xf_doc *cat, const char *name)
{
    if (!cat)
        return NULL;
    for (uint32_t i = 0; i < cat->nii.n; i++)
        if (cat->nii.v[i].direct && !strcmp(cat->nii.v[i].name, name))
            return &cat->nii.v[i];
    return NULL;
}

xf_graph *
xf_work_graph(xf_routine *rt)
{
    if (!rt->is_rlist)
        return &rt->g;
    xf_replacement *r = xf_placeholder(rt, "2");
    return r ? &r->g : NULL;
}

xf_replacement *
xf_placeholder(xf_routine *rt, const char *k)
{
    for (uint32_t i = 0; i < rt->reps.n; i++)
        if (rt->reps.v[i]->placeholder && !strcmp(rt->reps.v[i]->placeholder, k))
            return rt->reps.v[i];
    return NULL;
}

bool
xf_const_int_of(const xf_expr *x, int64_t *v)
{
    if (!x || x->v.n != 1 || x->v.v[0].kind != XF_EV_CONSTANT ||
        x->v.v[0].u.c.type != XF_TYPE_INTEGER)
        return false;
    char *end;
    *v = strtoll(x->v.v[0].u.c.value, &end, 10);
    return *x->v.v[0].u.c.value && !*end;
}

/* The address ranges of an alias set, if the map has it. */
static const xf_alias_set *
alias_set(const xf_doc *doc, int64_t key)
{
    if (key == XF_NOINT || key == 0)
        return NULL;
    /* front ends number the sets 0, 1, 2, ... in order: look there first */
    if (key > 0 && (uint64_t)key < doc->cg.alias.sets.n && doc->cg.alias.sets.v[key].key == key)
        return &doc->cg.alias.sets.v[key];
    for (uint32_t i = 0; i < doc->cg.alias.sets.n; i++)
        if (doc->cg.alias.sets.v[i].key == key)
            return &doc->cg.alias.sets.v[i];
    return NULL;
}

bool
xf_is_formal(const xf_routine *rt, const xf_symbol *s)
{
    for (uint32_t k = 0; k < rt->args.n; k++)
        if (rt->args.v[k].sym == s)
            return true;
    return false;
}

bool
xf_is_local(const xf_routine *rt, const xf_symbol *s)
{
    return s && s->scope == rt->cfg_scope && !xf_is_formal(rt, s);
}

bool
xf_is_temporary(const xf_symbol *s)
{
    return xf_flag_is(s->temp, false) || !strncmp(s->id, "OpenAD_", 7);
}

/* One address range of a variable, as one of its references' alias set gives it. */
typedef struct arange {
    int64_t from, to;
    const xf_symbol *sym;
} arange;

static int
by_from(const void *a, const void *b)
{
    const arange *x = a, *y = b;
    return x->from < y->from ? -1 : x->from > y->from;
}

bool
xf_alias_overlaps(const xf_doc *doc, const xf_varref *const *refs, uint32_t n, xf_arena *a,
                  bool (*mark)(void *ctx, const xf_symbol *s), void *ctx)
{
    XF_VEC(arange) rg = {0};
    for (uint32_t i = 0; i < n; i++) {
        const xf_symref *sr = xf_varref_symref(refs[i]);
        const xf_alias_set *x = sr ? alias_set(doc, refs[i]->alias) : NULL;
        for (uint32_t k = 0; x && k < x->r.n; k++)
            if (!XF_VEC_PUSH(a, rg, ((arange){x->r.v[k].from, x->r.v[k].to, sr->sym})))
                return false;
    }
    if (rg.n < 2)
        return true;
    arange *h = rg.v;
    qsort(h, rg.n, sizeof *h, by_from);
    /* after: the first range that starts after h[i] and is another
     * variable's starts within h[i]; before: of the ranges that started
     * earlier, the one of another variable that ends last (the two highest
     * ends of distinct variables are kept) reaches h[i] */
    uint32_t *next = xf_arena_array(a, rg.n, sizeof *next);
    if (!next)
        return false;
    next[rg.n - 1] = UINT32_MAX;
    for (uint32_t i = rg.n - 1; i-- > 0;)
        next[i] = h[i + 1].sym != h[i].sym ? i + 1 : next[i + 1];
    arange m1 = {0, INT64_MIN, NULL}, m2 = {0, INT64_MIN, NULL};
    for (uint32_t i = 0; i < rg.n; i++) {
        const arange *o = m1.sym != h[i].sym ? &m1 : &m2;
        bool before = o->sym && o->to >= h[i].from;
        bool after = next[i] != UINT32_MAX && h[next[i]].from <= h[i].to;
        if ((before || after) && !mark(ctx, h[i].sym))
            return false;
        if (h[i].sym == m1.sym) {
            if (h[i].to > m1.to)
                m1.to = h[i].to;
        } else if (h[i].to > m1.to) {
            m2 = m1;
            m1 = h[i];
        } else if (h[i].to > m2.to) {
            m2 = h[i];
        }
    }
    return true;
}

bool
xf_refs_may_alias(const xf_doc *doc, const xf_varref *a, const xf_varref *b)
{
    const xf_symref *sa = xf_varref_symref(a), *sb = xf_varref_symref(b);
    if (!sa || !sb)
        return true;
    if (sa->sym != sb->sym) {
        /* distinct variables: only if the front end's alias map says so */
        const xf_alias_set *x = alias_set(doc, a->alias), *y = alias_set(doc, b->alias);
        if (!x || !y)
            return false;
        for (uint32_t i = 0; i < x->r.n; i++)
            for (uint32_t j = 0; j < y->r.n; j++)
                if (x->r.v[i].from <= y->r.v[j].to && y->r.v[j].from <= x->r.v[i].to)
                    return true;
        return false;
    }
    const xf_arrref *p = xf_varref_arrref(a), *q = xf_varref_arrref(b);
    if (!p || !q || p->t.n != q->t.n)
        return true;
    for (uint32_t i = 0; i < p->t.n; i++) {
        const xf_triplet *s = &p->t.v[i], *t = &q->t.v[i];
        int64_t u, v;
        /* two different constant subscripts in one dimension: disjoint */
        if (!s->bound && !s->stride && !t->bound && !t->stride && xf_const_int_of(s->index, &u) &&
            xf_const_int_of(t->index, &v) && u != v)
            return false;
    }
    return true;
}

const char *
xf_derived_id(xf_doc *doc, const char *what, unsigned n, const char *id)
{
    if (!id)
        id = "";
    size_t lw = strlen(what), li = strlen(id);
    char small[256], digits[16], *d = digits + sizeof digits;
    do
        *--d = (char)('0' + n % 10);
    while (n /= 10);
    size_t ld = (size_t)(digits + sizeof digits - d), len = 1 + lw + 1 + ld + 5 + li + 1;
    char *buf = len <= sizeof small ? small : malloc(len), *p = buf;
    if (!buf)
        return NULL;
    *p++ = '_';
    memcpy(p, what, lw), p += lw;
    *p++ = '_';
    memcpy(p, d, ld), p += ld;
    memcpy(p, "_for_", 5), p += 5;
    memcpy(p, id, li + 1);
    const char *s = xf_intern(doc, buf);
    if (buf != small)
        free(buf);
    return s;
}

int
xf_pass_oom(xf_pass_ctx *ctx)
{
    xf_error(ctx->diag, ctx->doc->filename, 0, "out of memory");
    return -1;
}

/* ------------------------------------------------------------ signatures */

static void
put(char *buf, size_t len, size_t *n, const char *s)
{
    size_t k = strlen(s);
    if (*n + k + 1 < len) {
        memcpy(buf + *n, s, k);
        *n += k;
        buf[*n] = 0;
    } else
        *n = len; /* too long: no signature */
}

void
xf_sig_ref(const xf_varref *r, char *buf, size_t len, size_t *n, int depth)
{
    const xf_symref *s = xf_varref_symref(r);
    /* the symbol's address, as printf's %p writes it */
    char tmp[24], *h = tmp + sizeof tmp - 1;
    *h = 0;
    uintptr_t addr = (uintptr_t)(s ? s->sym : NULL);
    if (!addr)
        h = memcpy(tmp, "(nil)", 6);
    else {
        for (; addr; addr >>= 4)
            *--h = "0123456789abcdef"[addr & 15];
        *--h = 'x';
        *--h = '0';
    }
    put(buf, len, n, h);
    const xf_arrref *a = xf_varref_arrref(r);
    if (!a)
        return;
    put(buf, len, n, "(");
    for (uint32_t i = 0; i < a->t.n; i++) {
        const xf_triplet *t = &a->t.v[i];
        put(buf, len, n, i ? "," : "");
        if (t->index)
            xf_sig_expr(t->index, buf, len, n, depth + 1);
        if (t->bound || t->stride || !t->index) {
            put(buf, len, n, ":");
            if (t->bound)
                xf_sig_expr(t->bound, buf, len, n, depth + 1);
            put(buf, len, n, ":");
            if (t->stride)
                xf_sig_expr(t->stride, buf, len, n, depth + 1);
        }
    }
    put(buf, len, n, ")");
}

static void
sig_vertex(const xf_expr *x, uint32_t v, char *buf, size_t len, size_t *n, int depth)
{
    if (depth > 50 || *n >= len)
        return;
    const xf_evertex *ev = &x->v.v[v];
    switch (ev->kind) {
    case XF_EV_CONSTANT:
        put(buf, len, n, ev->u.c.value);
        return;
    case XF_EV_VARREF:
        xf_sig_ref(ev->u.ref, buf, len, n, depth);
        return;
    default:
        put(buf, len, n, ev->kind == XF_EV_FUNCALL ? "?" : ev->u.in.name);
        put(buf, len, n, "[");
        for (int64_t p = 1; p <= 8; p++)
            for (uint32_t j = 0; j < x->e.n; j++)
                if (x->e.v[j].tgt == v && x->e.v[j].pos == p) {
                    put(buf, len, n, p > 1 ? "," : "");
                    sig_vertex(x, x->e.v[j].src, buf, len, n, depth + 1);
                }
        put(buf, len, n, "]");
        return;
    }
}

void
xf_sig_expr(const xf_expr *x, char *buf, size_t len, size_t *n, int depth)
{
    uint32_t r = xf_expr_root(x);
    if (r == UINT32_MAX)
        put(buf, len, n, "?");
    else
        sig_vertex(x, r, buf, len, n, depth);
}
