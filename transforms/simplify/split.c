/* split.c: an assignment whose right-hand side is too large to keep whole
 * (more than XF_SPLIT_ABOVE vertices) becomes a chain of assignments to new
 * temporaries, each right-hand side of about XF_SPLIT_CHUNK vertices, and the
 * assignment itself over the last temporaries:
 *
 *     y = sin(sin(...sin(x)...))    OpenAD_spl_0 = sin(...sin(x)...)
 *                                   OpenAD_spl_1 = sin(...sin(OpenAD_spl_0)...)
 *                                   y = sin(...sin(OpenAD_spl_1)...)
 *
 * Every operation runs on the same operands in the same order, so values
 * are the same, and the chain rule through the temporaries gives the same
 * Jacobian. linearize, preaccumulate and adjoin then see statements of a
 * bounded size, which the long-block pieces (tools/stream_block.c) can cut
 * between; whole, one such statement is one piece of any size.
 *
 * Only a scalar real assignment is split, and only where the value cannot
 * change type: every operation of the expression is one of the real
 * elementary ones below (no int, nint, floor: a real temporary would change
 * what the operation after it computes), every reference is scalar (a
 * whole scalar or an element), and an operation is cut out only when a
 * real leaf lies under it (so its value is real anyway). Corpus
 * expressions are far below the threshold: no output of theirs changes.
 * Needs: nothing; runs before template and linearize (.before). Breaks:
 * nothing. */
#include <string.h>

#include "build.h"
#include "pass.h"

enum {
    XF_SPLIT_ABOVE = 4096, /* an expression of more vertices is split */
    XF_SPLIT_CHUNK = 512   /* a cut is made once a part reaches this size */
};

static const char *const real_ops[] = {
    "add_scal_scal", "sub_scal_scal", "mul_scal_scal",   "div_scal_scal", "minus_scal",
    "sin_scal",      "cos_scal",      "tan_scal",        "exp_scal",      "ln_scal",
    "sqrt_scal",     "tanh_scal",     "sinh_scal",       "cosh_scal",     "arcsin_scal",
    "arccos_scal",   "arctan_scal",   "atan2_scal_scal", "pow_scal_scal", NULL};

static bool
real_op(const char *name)
{
    for (const char *const *p = real_ops; name && *p; p++)
        if (!strcmp(*p, name))
            return true;
    return false;
}

static bool
real_type(xf_type t)
{
    return t == XF_TYPE_REAL || t == XF_TYPE_DOUBLE;
}

/* A reference to a scalar value: a scalar, or an element (no triplet with a bound). */
static bool
scalar_ref(const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    if (!s || !s->sym)
        return false;
    const xf_arrref *a = xf_varref_arrref(r);
    if (!a)
        return s->sym->shape == XF_SHAPE_SCALAR;
    for (uint32_t i = 0; i < a->t.n; i++)
        if (!a->t.v[i].index || a->t.v[i].bound || a->t.v[i].stride)
            return false;
    return true;
}

typedef struct split {
    xf_pass_ctx *ctx;
    xf_doc *doc;
    xf_arena *a; /* scratch, per statement */
    xf_scope *scope;
    unsigned ntemp;
    const xf_expr *x;
    uint32_t *first, *ops;  /* operands of v: ops[first[v] .. first[v+1]), by position */
    uint32_t *size;         /* vertices of v's part not yet cut out (saturating) */
    uint8_t *real;          /* a real leaf lies under v */
    xf_symbol **cut;        /* v's temporary, once cut out */
    uint32_t *stamp, *copy; /* copy[v]: v's vertex in the part being built when stamp[v] is it */
    uint32_t part;
} split;

/* The shape check over the whole expression, and the operand table. */
static bool
eligible(const xf_stmt *s)
{
    const xf_expr *x = &s->u.as.rhs;
    if (x->v.n <= XF_SPLIT_ABOVE || !scalar_ref(&s->u.as.lhs))
        return false;
    const xf_symref *l = xf_varref_symref(&s->u.as.lhs);
    if (!real_type(l->sym->type))
        return false;
    for (uint32_t v = 0; v < x->v.n; v++) {
        const xf_evertex *ev = &x->v.v[v];
        if ((ev->kind == XF_EV_INTRINSIC && !real_op(ev->u.in.name)) ||
            (ev->kind == XF_EV_VARREF && !scalar_ref(ev->u.ref)) ||
            (ev->kind != XF_EV_INTRINSIC && ev->kind != XF_EV_VARREF && ev->kind != XF_EV_CONSTANT))
            return false;
    }
    return true;
}

static int
tables(split *sp)
{
    const xf_expr *x = sp->x;
    uint32_t nv = x->v.n;
    sp->first = XF_NEW_ARRAY(sp->a, nv + 1, uint32_t);
    sp->ops = XF_NEW_ARRAY(sp->a, x->e.n + 1, uint32_t);
    sp->size = XF_NEW_ARRAY(sp->a, nv, uint32_t);
    sp->real = XF_NEW_ARRAY(sp->a, nv, uint8_t);
    sp->cut = XF_NEW_ARRAY(sp->a, nv, xf_symbol *);
    sp->stamp = XF_NEW_ARRAY(sp->a, nv, uint32_t);
    sp->copy = XF_NEW_ARRAY(sp->a, nv, uint32_t);
    uint8_t *taken = XF_NEW_ARRAY(sp->a, x->e.n + 1, uint8_t);
    if (!sp->first || !sp->ops || !sp->size || !sp->real || !sp->cut || !sp->stamp || !sp->copy ||
        !taken)
        return -1;
    for (uint32_t j = 0; j < x->e.n; j++) {
        if (x->e.v[j].tgt >= nv || x->e.v[j].src >= nv)
            return 1;
        sp->first[x->e.v[j].tgt + 1]++;
    }
    for (uint32_t v = 0; v < nv; v++)
        sp->first[v + 1] += sp->first[v];
    for (uint32_t j = 0; j < x->e.n; j++) {
        const xf_eedge *e = &x->e.v[j];
        uint32_t n = sp->first[e->tgt + 1] - sp->first[e->tgt];
        if (e->pos < 1 || e->pos > n || taken[sp->first[e->tgt] + (uint32_t)(e->pos - 1)])
            return 1; /* left as it is: linearize reports it */
        taken[sp->first[e->tgt] + (uint32_t)(e->pos - 1)] = 1;
        sp->ops[sp->first[e->tgt] + (uint32_t)(e->pos - 1)] = e->src;
    }
    return 0;
}

typedef XF_VEC(xf_stmt *) stmtvec;

typedef struct frame {
    uint32_t v, o, i; /* vertex of sp->x, its copy, next operand */
} frame;

/* Vertex @u of sp->x as a vertex of @dst: its temporary, the copy already
 * made in this part, or a copy of the leaf; UINT32_MAX for an operation
 * still to build (or out of memory, *@oom). */
static uint32_t
leaf(split *sp, xf_expr *dst, uint32_t u, bool *oom)
{
    if (sp->cut[u]) {
        xf_varref *r = xf_ref_new(sp->doc, sp->cut[u]);
        uint32_t c = r ? xf_expr_ref(sp->doc, dst, r) : UINT32_MAX;
        *oom = c == UINT32_MAX;
        return c;
    }
    if (sp->stamp[u] == sp->part)
        return sp->copy[u];
    if (sp->x->v.v[u].kind == XF_EV_INTRINSIC)
        return UINT32_MAX;
    uint32_t c = xf_expr_copy_vertex(sp->doc, dst, sp->x, u);
    *oom = c == UINT32_MAX;
    sp->stamp[u] = sp->part;
    sp->copy[u] = c;
    return c;
}

/* The part of sp->x under operation @v, its cut operands as their
 * temporaries, into @dst. Explicit stack: the depth is unbounded. */
static bool
build_part(split *sp, xf_expr *dst, uint32_t v)
{
    sp->part++;
    XF_VEC(frame) st = {0};
    uint32_t o = xf_expr_copy_vertex(sp->doc, dst, sp->x, v);
    if (o == UINT32_MAX || !XF_VEC_PUSH(sp->a, st, ((frame){v, o, 0})))
        return false;
    sp->stamp[v] = sp->part;
    sp->copy[v] = o;
    while (st.n) {
        frame *f = &st.v[st.n - 1];
        if (f->i == sp->first[f->v + 1] - sp->first[f->v]) {
            st.n--;
            continue;
        }
        uint32_t u = sp->ops[sp->first[f->v] + f->i];
        bool oom = false;
        uint32_t c = leaf(sp, dst, u, &oom);
        if (oom)
            return false;
        if (c != UINT32_MAX) {
            f->i++;
            if (!xf_expr_edge(sp->doc, dst, c, f->o, (int64_t)f->i))
                return false;
            continue;
        }
        c = xf_expr_copy_vertex(sp->doc, dst, sp->x, u);
        if (c == UINT32_MAX)
            return false;
        sp->stamp[u] = sp->part;
        sp->copy[u] = c;
        f->i++;
        if (!xf_expr_edge(sp->doc, dst, c, f->o, (int64_t)f->i) ||
            !XF_VEC_PUSH(sp->a, st, ((frame){u, c, 0})))
            return false;
    }
    return true;
}

/* The assignment of operation @v's part to a new temporary, appended to @out. */
static int
cut_out(split *sp, const xf_stmt *s, uint32_t v, stmtvec *out)
{
    const xf_symref *l = xf_varref_symref(&s->u.as.lhs);
    xf_symbol *t = xf_fresh_symbol(sp->doc, sp->scope, "OpenAD_spl_", &sp->ntemp, l->sym->type,
                                   XF_SHAPE_SCALAR, xf_is_active_sym(l->sym));
    xf_expr rhs = {.h = s->u.as.rhs.h};
    xf_varref lhs;
    if (!t || !build_part(sp, &rhs, v) || !xf_ref_init(sp->doc, &lhs, t))
        return -1;
    xf_stmt *a =
        xf_stmt_assign(sp->doc, xf_derived_id(sp->doc, "spl", sp->ntemp - 1, s->id), &lhs, &rhs);
    if (!a || !a->id)
        return -1;
    a->h.line = s->h.line;
    a->lineno = s->lineno;
    sp->cut[v] = t;
    return XF_VEC_PUSH(sp->doc->arena, *out, a) ? 0 : -1;
}

/* Split assignment @s, appending its chain and itself to @out. */
static int
split_stmt(split *sp, xf_stmt *s, stmtvec *out)
{
    const xf_expr *x = sp->x = &s->u.as.rhs;
    int r = tables(sp);
    if (r)
        return r < 0 ? -1 : 0;
    uint32_t root = xf_expr_root(x);
    if (root == UINT32_MAX)
        return 0; /* linearize reports it */
    /* operands before their operations, each vertex once */
    XF_VEC(frame) st = {0};
    uint8_t *seen = XF_NEW_ARRAY(sp->a, x->v.n, uint8_t);
    if (!seen || !XF_VEC_PUSH(sp->a, st, ((frame){root, 0, 0})))
        return -1;
    seen[root] = 1;
    while (st.n) {
        frame *f = &st.v[st.n - 1];
        uint32_t v = f->v, n = sp->first[v + 1] - sp->first[v];
        if (f->i < n) {
            uint32_t u = sp->ops[sp->first[v] + f->i++];
            if (!seen[u]) {
                seen[u] = 1;
                if (!XF_VEC_PUSH(sp->a, st, ((frame){u, 0, 0})))
                    return -1;
            }
            continue;
        }
        st.n--;
        const xf_evertex *ev = &x->v.v[v];
        uint64_t size = 1;
        bool real = (ev->kind == XF_EV_CONSTANT && real_type(ev->u.c.type)) ||
                    (ev->kind == XF_EV_VARREF && real_type(xf_varref_symref(ev->u.ref)->sym->type));
        for (uint32_t i = 0; i < n; i++) {
            uint32_t u = sp->ops[sp->first[v] + i];
            size += sp->size[u];
            real = real || sp->real[u];
        }
        sp->size[v] = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
        sp->real[v] = real;
        if (v != root && ev->kind == XF_EV_INTRINSIC && real && size >= XF_SPLIT_CHUNK) {
            if (cut_out(sp, s, v, out))
                return -1;
            sp->size[v] = 1;
        }
    }
    xf_expr rhs = {.h = x->h};
    if (!build_part(sp, &rhs, root))
        return -1;
    s->u.as.rhs = rhs;
    return 0;
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    xf_graph *g = xf_work_graph(rt);
    if (!g || !rt->cfg_scope)
        return 0;
    split sp = {.ctx = ctx, .doc = ctx->doc, .a = ctx->scratch, .scope = rt->cfg_scope};
    for (uint32_t i = 0; i < g->v.n; i++) {
        xf_cvertex *b = g->v.v[i];
        bool any = false;
        for (uint32_t k = 0; b->kind == XF_CV_BASICBLOCK && k < b->stmts.n && !any; k++)
            any = b->stmts.v[k]->kind == XF_STMT_ASSIGN && eligible(b->stmts.v[k]);
        if (!any)
            continue;
        stmtvec out = {0};
        for (uint32_t k = 0; k < b->stmts.n; k++) {
            xf_stmt *s = b->stmts.v[k];
            if (s->kind == XF_STMT_ASSIGN && eligible(s) && split_stmt(&sp, s, &out))
                return xf_pass_oom(ctx);
            if (!XF_VEC_PUSH(sp.doc->arena, out, s))
                return xf_pass_oom(ctx);
        }
        b->stmts.v = out.v;
        b->stmts.n = out.n;
        b->stmts.cap = out.cap;
    }
    return 0;
}

static const char *const after[] = {NULL};
static const char *const runs_before[] = {"template", "linearize", NULL};
const xf_pass xf_pass_split = {
    .name = "split",
    .summary = "cut a right-hand side of more than 4096 vertices into assignments of 512",
    .help = "An assignment to a scalar real variable whose right-hand side has more\n"
            "than 4096 vertices becomes a chain of assignments to new temporaries of\n"
            "about 512 vertices each, then the assignment over the last ones. The\n"
            "same operations on the same operands: values and derivatives are the same.\n"
            "Only real elementary operations are cut out.",
    .after = after,
    .before = runs_before,
    .run_routine = run_routine,
};
