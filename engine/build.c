/* build.c: see build.h. */
#include "build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strtab.h"

/* New vertices come before new edges when written (seq orders them). */
enum { EDGE_SEQ = 1u << 30 };

/* Write @n in decimal so that it ends just before @end; returns its start. */
static char *
decimal(char *end, uint64_t n)
{
    do
        *--end = (char)('0' + n % 10);
    while (n /= 10);
    return end;
}

const char *
xf_intern_uint(xf_doc *doc, uint64_t n)
{
    char buf[24];
    buf[23] = 0;
    return xf_intern(doc, decimal(buf + 23, n));
}

xf_symbol *
xf_new_symbol(xf_doc *doc, xf_scope *scope, const char *id, xf_type type, xf_shape shape,
              bool active, bool temp)
{
    const char *iid = xf_intern(doc, id);
    if (!iid || xf_symbol_find(scope, iid))
        return NULL;
    /* a scope outlives the routine being transformed (xf_doc.global) */
    xf_arena *a = xf_doc_global(doc);
    xf_symbol *s = XF_NEW(a, xf_symbol);
    if (!s)
        return NULL;
    s->id = iid;
    s->scope = scope;
    s->index = doc->nsymbols++;
    s->kind = XF_SYMKIND_VARIABLE;
    s->type = type;
    s->shape = shape;
    s->fetype = xf_intern(doc, type == XF_TYPE_REAL ? "F8" : type == XF_TYPE_INTEGER ? "I4" : "");
    s->active = xf_flag_of(active);
    s->temp = xf_flag_of(temp);
    s->h.annotation = xf_intern(doc, "");
    if (!s->fetype || !s->h.annotation || !XF_VEC_PUSH(a, scope->syms, s) ||
        !xf_map_put(&scope->symmap, a, iid, s, NULL))
        return NULL;
    return s;
}

xf_symbol *
xf_fresh_symbol(xf_doc *doc, xf_scope *scope, const char *prefix, unsigned *counter, xf_type type,
                xf_shape shape, bool active)
{
    char id[256], digits[16];
    size_t lp = strnlen(prefix, sizeof id - sizeof digits);
    memcpy(id, prefix, lp);
    for (;;) {
        char *d = decimal(digits + sizeof digits, (*counter)++);
        size_t ld = (size_t)(digits + sizeof digits - d);
        memcpy(id + lp, d, ld);
        id[lp + ld] = 0;
        const char *iid = xf_intern(doc, id);
        if (!iid)
            return NULL;
        if (!xf_symbol_find(scope, iid))
            return xf_new_symbol(doc, scope, id, type, shape, active, true);
    }
}

bool
xf_ref_init(xf_doc *doc, xf_varref *r, xf_symbol *sym)
{
    memset(r, 0, sizeof *r);
    r->du_ud = r->alias = XF_NOINT;
    xf_vrvertex v = {.kind = XF_VR_SYMBOL};
    v.u.sym.id = xf_intern_uint(doc, 1);
    v.u.sym.scope = sym->scope;
    v.u.sym.sym = sym;
    return v.u.sym.id && XF_VEC_PUSH(doc->arena, r->v, v);
}

xf_varref *
xf_ref_new(xf_doc *doc, xf_symbol *sym)
{
    xf_varref *r = XF_NEW(doc->arena, xf_varref);
    return r && xf_ref_init(doc, r, sym) ? r : NULL;
}

static bool copy_expr(xf_doc *doc, xf_expr *dst, const xf_expr *src);

bool
xf_ref_copy(xf_doc *doc, xf_varref *dst, const xf_varref *src)
{
    *dst = *src;
    memset(&dst->v, 0, sizeof dst->v);
    memset(&dst->e, 0, sizeof dst->e);
    for (uint32_t i = 0; i < src->v.n; i++) {
        xf_vrvertex v = src->v.v[i];
        if (v.kind == XF_VR_SYMBOL) {
            memset(&v.u.sym.props, 0, sizeof v.u.sym.props);
            for (uint32_t k = 0; k < src->v.v[i].u.sym.props.n; k++)
                if (!XF_VEC_PUSH(doc->arena, v.u.sym.props, src->v.v[i].u.sym.props.v[k]))
                    return false;
        } else {
            memset(&v.u.arr.t, 0, sizeof v.u.arr.t);
            for (uint32_t k = 0; k < src->v.v[i].u.arr.t.n; k++) {
                xf_triplet t = src->v.v[i].u.arr.t.v[k];
                xf_expr **parts[3] = {&t.index, &t.bound, &t.stride};
                for (int p = 0; p < 3; p++) {
                    if (!*parts[p])
                        continue;
                    xf_expr *c = XF_NEW(doc->arena, xf_expr);
                    if (!c || !copy_expr(doc, c, *parts[p]))
                        return false;
                    *parts[p] = c;
                }
                if (!XF_VEC_PUSH(doc->arena, v.u.arr.t, t))
                    return false;
            }
        }
        if (!XF_VEC_PUSH(doc->arena, dst->v, v))
            return false;
    }
    for (uint32_t i = 0; i < src->e.n; i++)
        if (!XF_VEC_PUSH(doc->arena, dst->e, src->e.v[i]))
            return false;
    return true;
}

xf_varref *
xf_ref_dup(xf_doc *doc, const xf_varref *src)
{
    xf_varref *r = XF_NEW(doc->arena, xf_varref);
    return r && xf_ref_copy(doc, r, src) ? r : NULL;
}

/* A whole copy of an expression, ids and order kept. */
static bool
copy_expr(xf_doc *doc, xf_expr *dst, const xf_expr *src)
{
    *dst = *src;
    memset(&dst->v, 0, sizeof dst->v);
    memset(&dst->e, 0, sizeof dst->e);
    for (uint32_t i = 0; i < src->v.n; i++) {
        xf_evertex v = src->v.v[i];
        if (v.kind == XF_EV_VARREF && !(v.u.ref = xf_ref_dup(doc, src->v.v[i].u.ref)))
            return false;
        if (v.kind == XF_EV_FUNCALL) {
            memset(&v.u.fn.args, 0, sizeof v.u.fn.args);
            for (uint32_t k = 0; k < src->v.v[i].u.fn.args.n; k++) {
                xf_varref *a = xf_ref_dup(doc, src->v.v[i].u.fn.args.v[k]);
                if (!a || !XF_VEC_PUSH(doc->arena, v.u.fn.args, a))
                    return false;
            }
        }
        if (!XF_VEC_PUSH(doc->arena, dst->v, v))
            return false;
    }
    for (uint32_t i = 0; i < src->e.n; i++)
        if (!XF_VEC_PUSH(doc->arena, dst->e, src->e.v[i]))
            return false;
    return true;
}

static uint32_t
add_vertex(xf_doc *doc, xf_expr *x, xf_evertex v)
{
    v.id = xf_intern_uint(doc, x->v.n + 1);
    v.seq = x->v.n;
    if (!v.id)
        return UINT32_MAX;
    if (v.kind == XF_EV_VARREF)
        v.u.ref->id = v.id;
    return XF_VEC_PUSH(doc->arena, x->v, v) ? x->v.n - 1 : UINT32_MAX;
}

uint32_t
xf_expr_const(xf_doc *doc, xf_expr *x, xf_type type, const char *value)
{
    xf_evertex v = {.kind = XF_EV_CONSTANT};
    v.u.c.type = type;
    v.u.c.value = xf_intern(doc, value);
    v.u.c.fetype = xf_intern(doc, type == XF_TYPE_INTEGER ? "I4"
                                  : type == XF_TYPE_REAL  ? "F8"
                                                          : "");
    if (!v.u.c.value || !v.u.c.fetype)
        return UINT32_MAX;
    return add_vertex(doc, x, v);
}

/* @value as printf's "%.20e" writes it, when it is a whole number below
 * 10^15 in magnitude (exact in a double: the partials of most operations,
 * 1, -1, 2, ...); false otherwise. Much cheaper than printf. */
static bool
whole_e20(double value, char *buf)
{
    if (!(value > -1e15 && value < 1e15) || value != (double)(int64_t)value)
        return false;
    int64_t v = (int64_t)value;
    char *p = buf;
    if (v < 0 || (v == 0 && signbit(value)))
        *p++ = '-';
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char d[20];
    int n = 0;
    do
        d[n++] = (char)('0' + u % 10);
    while (u /= 10);
    int e = n - 1; /* 0 for 0 */
    *p++ = d[n - 1];
    *p++ = '.';
    for (int i = 0; i < 20; i++)
        *p++ = i < n - 1 ? d[n - 2 - i] : '0';
    *p++ = 'e';
    *p++ = '+';
    *p++ = (char)('0' + e / 10);
    *p++ = (char)('0' + e % 10);
    *p = 0;
    return true;
}

uint32_t
xf_expr_real(xf_doc *doc, xf_expr *x, double value)
{
    char buf[40];
    if (!whole_e20(value, buf))
        snprintf(buf, sizeof buf, "%.20e", value); /* the 21 digits xaif files carry */
    return xf_expr_const(doc, x, XF_TYPE_REAL, buf);
}

uint32_t
xf_expr_int(xf_doc *doc, xf_expr *x, int64_t value)
{
    char buf[24];
    buf[23] = 0;
    char *p = decimal(buf + 23, value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value);
    if (value < 0)
        *--p = '-';
    return xf_expr_const(doc, x, XF_TYPE_INTEGER, p);
}

uint32_t
xf_expr_ref(xf_doc *doc, xf_expr *x, xf_varref *ref)
{
    xf_evertex v = {.kind = XF_EV_VARREF, .u.ref = ref};
    return ref ? add_vertex(doc, x, v) : UINT32_MAX;
}

uint32_t
xf_expr_op(xf_doc *doc, xf_expr *x, xf_evkind kind, const char *name)
{
    xf_evertex v = {.kind = kind};
    v.u.in.name = xf_intern(doc, name);
    if (!v.u.in.name)
        return UINT32_MAX;
    return add_vertex(doc, x, v);
}

bool
xf_expr_edge(xf_doc *doc, xf_expr *x, uint32_t src, uint32_t tgt, int64_t pos)
{
    if (src == UINT32_MAX || tgt == UINT32_MAX)
        return false;
    xf_eedge e = {.src = src, .tgt = tgt, .pos = pos, .seq = EDGE_SEQ + x->e.n};
    e.id = xf_intern_uint(doc, x->e.n + 1);
    return e.id && XF_VEC_PUSH(doc->arena, x->e, e);
}

uint32_t
xf_expr_unary(xf_doc *doc, xf_expr *x, const char *op, uint32_t a)
{
    uint32_t o = xf_expr_op(doc, x, XF_EV_INTRINSIC, op);
    return xf_expr_edge(doc, x, a, o, 1) ? o : UINT32_MAX;
}

uint32_t
xf_expr_binary(xf_doc *doc, xf_expr *x, const char *op, uint32_t a, uint32_t b)
{
    uint32_t o = xf_expr_op(doc, x, XF_EV_INTRINSIC, op);
    return xf_expr_edge(doc, x, a, o, 1) && xf_expr_edge(doc, x, b, o, 2) ? o : UINT32_MAX;
}

uint32_t
xf_expr_copy_vertex(xf_doc *doc, xf_expr *dst, const xf_expr *src, uint32_t vi)
{
    if (vi >= src->v.n)
        return UINT32_MAX;
    xf_evertex v = src->v.v[vi];
    if (v.kind == XF_EV_VARREF && !(v.u.ref = xf_ref_dup(doc, src->v.v[vi].u.ref)))
        return UINT32_MAX;
    return add_vertex(doc, dst, v);
}

/* A frame of the copy: vertex @vi of src became @nv; its operands from @k on
 * are still to copy. */
typedef struct copy_frame {
    uint32_t vi, nv, k;
} copy_frame;

/* Each vertex before its operands, the edge to an operand after the
 * operand's own subgraph, operands in edge order; a vertex reached twice is
 * copied once. Explicit stack: the depth of an expression is unbounded.
 * Time and scratch memory O(vertices + edges) of @src. */
uint32_t
xf_expr_copy(xf_doc *doc, xf_expr *dst, const xf_expr *src, uint32_t root)
{
    uint32_t nv = src->v.n, ne = src->e.n;
    if (root >= nv)
        return UINT32_MAX;
    uint32_t *map = malloc((size_t)nv * sizeof *map);
    uint32_t *first = calloc((size_t)nv + 1, sizeof *first); /* in-edges of v: */
    uint32_t *in = malloc(((size_t)ne + 1) * sizeof *in);    /* in[first[v] .. first[v+1]) */
    copy_frame *stack = malloc(((size_t)nv + 1) * sizeof *stack);
    uint32_t ret = UINT32_MAX;
    if (!map || !first || !in || !stack)
        goto out;
    for (uint32_t j = 0; j < ne; j++)
        if (src->e.v[j].tgt < nv)
            first[src->e.v[j].tgt + 1]++;
    for (uint32_t i = 0; i < nv; i++) {
        first[i + 1] += first[i];
        map[i] = 0; /* for now: in-edges of i placed so far */
    }
    for (uint32_t j = 0; j < ne; j++)
        if (src->e.v[j].tgt < nv)
            in[first[src->e.v[j].tgt] + map[src->e.v[j].tgt]++] = j;
    for (uint32_t i = 0; i < nv; i++)
        map[i] = UINT32_MAX;
    {
        uint32_t sp = 0, c = xf_expr_copy_vertex(doc, dst, src, root);
        if (c == UINT32_MAX)
            goto out;
        map[root] = c;
        stack[sp++] = (copy_frame){root, c, 0};
        while (sp) {
            copy_frame *f = &stack[sp - 1];
            if (f->k == first[f->vi + 1] - first[f->vi]) {
                sp--;
                continue;
            }
            const xf_eedge *e = &src->e.v[in[first[f->vi] + f->k]];
            if (e->src >= nv)
                goto out;
            if (map[e->src] == UINT32_MAX) { /* copy the operand first, then come back */
                if ((c = xf_expr_copy_vertex(doc, dst, src, e->src)) == UINT32_MAX)
                    goto out;
                map[e->src] = c;
                stack[sp++] = (copy_frame){e->src, c, 0};
                continue;
            }
            if (!xf_expr_edge(doc, dst, map[e->src], f->nv, e->pos))
                goto out;
            f->k++;
        }
        ret = map[root];
    }
out:
    free(map);
    free(first);
    free(in);
    free(stack);
    return ret;
}

xf_stmt *
xf_stmt_assign(xf_doc *doc, const char *id, const xf_varref *lhs, const xf_expr *rhs)
{
    xf_stmt *s = XF_NEW(doc->arena, xf_stmt);
    if (!s)
        return NULL;
    s->kind = XF_STMT_ASSIGN;
    s->id = xf_intern(doc, id);
    s->lineno = XF_NOINT;
    s->u.as.do_chain = XF_NOINT;
    s->u.as.lhs = *lhs;
    s->u.as.rhs = *rhs;
    return s->id ? s : NULL;
}

xf_stmt *
xf_stmt_icall(xf_doc *doc, const char *id, const char *name)
{
    xf_stmt *s = XF_NEW(doc->arena, xf_stmt);
    if (!s)
        return NULL;
    s->kind = XF_STMT_ICALL;
    s->id = xf_intern(doc, id);
    s->lineno = XF_NOINT;
    s->u.icall.name = xf_intern(doc, name);
    if (xf_deriv_icall(name))
        xf_doc_mark_deriv(doc, "InlinableSubroutineCall", NULL, 0);
    return s->id && s->u.icall.name ? s : NULL;
}

static bool
icall_arg(xf_doc *doc, xf_stmt *s, xf_arg *a)
{
    a->pos = s->u.icall.args.n + 1;
    return XF_VEC_PUSH(doc->arena, s->u.icall.args, *a);
}

bool
xf_icall_ref(xf_doc *doc, xf_stmt *s, const xf_varref *ref)
{
    xf_arg a = {0};
    xf_varref *r = xf_ref_dup(doc, ref);
    return r && xf_expr_ref(doc, &a.val, r) != UINT32_MAX && icall_arg(doc, s, &a);
}

bool
xf_icall_const(xf_doc *doc, xf_stmt *s, xf_type type, const char *value)
{
    xf_arg a = {0};
    return xf_expr_const(doc, &a.val, type, value) != UINT32_MAX && icall_arg(doc, s, &a);
}

xf_stmt *
xf_stmt_derivprop(xf_doc *doc)
{
    xf_stmt *s = XF_NEW(doc->arena, xf_stmt);
    if (!s)
        return NULL;
    s->kind = XF_STMT_DERIVPROP;
    s->lineno = XF_NOINT;
    xf_doc_mark_deriv(doc, "DerivativePropagator", NULL, 0);
    return s;
}

void
xf_mark_ref(xf_varref *r, bool active, bool deriv)
{
    r->active = active ? XF_FLAG_TRUE : XF_FLAG_FALSE;
    r->deriv = xf_flag_of(deriv);
    r->constant = XF_FLAG_0;
}

/* ------------------------------------------------------------ statements */

static bool
copy_args(xf_doc *doc, xf_arg_vec *dst, const xf_arg_vec *src)
{
    memset(dst, 0, sizeof *dst);
    for (uint32_t i = 0; i < src->n; i++) {
        xf_arg a = src->v[i];
        if (!copy_expr(doc, &a.val, &src->v[i].val) || !XF_VEC_PUSH(doc->arena, *dst, a))
            return false;
    }
    return true;
}

static bool
copy_dpop(xf_doc *doc, xf_dpop *dst, const xf_dpop *src)
{
    *dst = *src;
    memset(&dst->ax, 0, sizeof dst->ax);
    if (!xf_ref_copy(doc, &dst->tgt, &src->tgt) || !xf_ref_copy(doc, &dst->src, &src->src) ||
        !xf_ref_copy(doc, &dst->y, &src->y))
        return false;
    for (uint32_t i = 0; i < src->ax.n; i++) {
        xf_ax ax = src->ax.v[i];
        if (!copy_expr(doc, &ax.a, &src->ax.v[i].a) || !xf_ref_copy(doc, &ax.x, &src->ax.v[i].x) ||
            !XF_VEC_PUSH(doc->arena, dst->ax, ax))
            return false;
    }
    return true;
}

xf_stmt *
xf_stmt_copy(xf_doc *doc, const xf_stmt *s)
{
    if (!s)
        return NULL;
    xf_stmt *c = XF_NEW(doc->arena, xf_stmt);
    if (!c)
        return NULL;
    *c = *s;
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        if (!xf_ref_copy(doc, &c->u.as.lhs, &s->u.as.lhs) ||
            !copy_expr(doc, &c->u.as.rhs, &s->u.as.rhs))
            return NULL;
        break;
    case XF_STMT_CALL:
        if (!copy_args(doc, &c->u.call.args, &s->u.call.args))
            return NULL;
        break;
    case XF_STMT_ICALL:
        if (!copy_args(doc, &c->u.icall.args, &s->u.icall.args))
            return NULL;
        break;
    case XF_STMT_DERIVPROP:
        memset(&c->u.dp, 0, sizeof c->u.dp);
        for (uint32_t i = 0; i < s->u.dp.n; i++) {
            xf_dpop op;
            if (!copy_dpop(doc, &op, &s->u.dp.v[i]) || !XF_VEC_PUSH(doc->arena, c->u.dp, op))
                return NULL;
        }
        break;
    case XF_STMT_MARKER:
        break;
    }
    return c;
}

/* ------------------------------------------------------------ graphs */

/* The next place in @g's written order (vertices and edges interleave by seq). */
static uint32_t
next_seq(const xf_graph *g)
{
    uint32_t s = 0;
    if (g->v.n && g->v.v[g->v.n - 1]->seq >= s)
        s = g->v.v[g->v.n - 1]->seq + 1;
    if (g->e.n && g->e.v[g->e.n - 1]->seq >= s)
        s = g->e.v[g->e.n - 1]->seq + 1;
    return s;
}

xf_cvertex *
xf_graph_vertex(xf_doc *doc, xf_graph *g, xf_cvkind kind, const char *id)
{
    const char *iid = xf_intern(doc, id);
    if (!iid || xf_map_get(&g->vmap, iid))
        return NULL;
    xf_cvertex *v = XF_NEW(doc->arena, xf_cvertex);
    if (!v)
        return NULL;
    v->kind = kind;
    v->id = iid;
    v->seq = next_seq(g);
    v->index = g->v.n;
    v->lineno = XF_NOINT;
    v->h.annotation = xf_intern(doc, "");
    if (!v->h.annotation || !xf_map_put(&g->vmap, doc->arena, iid, v, NULL) ||
        !XF_VEC_PUSH(doc->arena, g->v, v))
        return NULL;
    return v;
}

bool
xf_graph_adopt(xf_doc *doc, xf_graph *g, xf_cvertex *v)
{
    if (xf_map_get(&g->vmap, v->id))
        return false;
    v->seq = next_seq(g);
    v->index = g->v.n;
    return xf_map_put(&g->vmap, doc->arena, v->id, v, NULL) && XF_VEC_PUSH(doc->arena, g->v, v);
}

xf_cedge *
xf_graph_edge(xf_doc *doc, xf_graph *g, xf_cvertex *src, xf_cvertex *tgt, const char *id,
              bool has_cv, int64_t cv)
{
    xf_cedge *e = XF_NEW(doc->arena, xf_cedge);
    if (!e)
        return NULL;
    e->id = xf_intern(doc, id);
    e->src = src;
    e->tgt = tgt;
    e->has_cv = xf_flag_of(has_cv);
    e->cv = has_cv ? cv : XF_NOINT;
    e->seq = next_seq(g);
    e->h.annotation = xf_intern(doc, "");
    return e->id && e->h.annotation && XF_VEC_PUSH(doc->arena, g->e, e) ? e : NULL;
}

void
xf_graph_renumber(xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        g->v.v[i]->seq = i;
        g->v.v[i]->index = i;
    }
    for (uint32_t j = 0; j < g->e.n; j++)
        g->e.v[j]->seq = g->v.n + j;
}

bool
xf_graph_copy(xf_doc *doc, xf_graph *dst, const xf_graph *src)
{
    memset(dst, 0, sizeof *dst);
    for (uint32_t i = 0; i < src->v.n; i++) {
        const xf_cvertex *s = src->v.v[i];
        xf_cvertex *v = XF_NEW(doc->arena, xf_cvertex);
        if (!v)
            return false;
        *v = *s;
        memset(&v->stmts, 0, sizeof v->stmts);
        for (uint32_t k = 0; k < s->stmts.n; k++) {
            xf_stmt *c = xf_stmt_copy(doc, s->stmts.v[k]);
            if (!c || !XF_VEC_PUSH(doc->arena, v->stmts, c))
                return false;
        }
        if ((s->init && !(v->init = xf_stmt_copy(doc, s->init))) ||
            (s->update && !(v->update = xf_stmt_copy(doc, s->update))))
            return false;
        if (s->cond) {
            v->cond = XF_NEW(doc->arena, xf_expr);
            if (!v->cond || !copy_expr(doc, v->cond, s->cond))
                return false;
        }
        v->index = dst->v.n;
        if (!xf_map_put(&dst->vmap, doc->arena, v->id, v, NULL) ||
            !XF_VEC_PUSH(doc->arena, dst->v, v))
            return false;
    }
    for (uint32_t j = 0; j < src->e.n; j++) {
        const xf_cedge *s = src->e.v[j];
        xf_cedge *e = XF_NEW(doc->arena, xf_cedge);
        if (!e)
            return false;
        *e = *s;
        e->src = xf_map_get(&dst->vmap, s->src->id);
        e->tgt = xf_map_get(&dst->vmap, s->tgt->id);
        if (!e->src || !e->tgt || !XF_VEC_PUSH(doc->arena, dst->e, e))
            return false;
    }
    return true;
}
