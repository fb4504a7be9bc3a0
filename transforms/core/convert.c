/* convert.c: an actual argument whose activity differs from its formal's
 * (a passive variable passed where the routine expects an active one, an
 * active one passed to a passive formal or to a routine the document does
 * not define) is passed through a temporary of the formal's kind,
 * OpenAD_tyc_*, as OpenAD's back end needs: in Fortran the active type and
 * REAL do not bind to each other.
 *
 *   oad_AllocateMatching(tyc, a)   when tyc is an array of unknown shape
 *   oad_convert(tyc, a)            unless the formal is intent(out)
 *   call f(..., tyc, ...)
 *   oad_ShapeTest(tyc, a)          when tyc was allocated (and is copied back)
 *   oad_convert(a, tyc)            unless the formal is intent(in)
 *
 * oad_convert copies values only (xaif-execution.md §5.6): the derivative
 * of the passive side is none, that of the active side stays as it was. The
 * temporary has the actual's shape and bounds; an array section gives a
 * temporary of the section's extents; an array element passed to an array
 * formal (sequence association) converts the whole array and passes the
 * temporary's element with the same subscripts. Constants and non-real
 * arguments are left alone. A call without formalArgCount gets it (the
 * callee's formals), as OpenAD's output schema requires.
 * Needs: nothing. Breaks: nothing. */
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "loopcond.h"
#include "pass.h"

typedef struct conv {
    xf_pass_ctx *ctx;
    xf_doc *doc;
    xf_routine *rt;
    bool host;           /* rt hosts internal procedures (xf_hosts_procedures) */
    xf_routine **callee; /* by symbol index: the routine a call reaches, or NULL */
    uint32_t ncallee;
    unsigned ntyc, nsave, nstmt;
    XF_VEC(xf_stmt *) out;
} conv;

static int
oom(conv *c)
{
    return xf_pass_oom(c->ctx);
}

static const xf_argsym *
formal(const xf_routine *r, int64_t pos)
{
    for (uint32_t i = 0; i < r->args.n; i++)
        if (r->args.v[i].pos == pos)
            return &r->args.v[i];
    return NULL;
}

static bool
real_variable(const xf_symbol *s)
{
    return s && s->kind == XF_SYMKIND_VARIABLE &&
           (s->type == XF_TYPE_REAL || s->type == XF_TYPE_DOUBLE || s->type == XF_TYPE_NONE);
}

static bool
is_section(const xf_triplet *t)
{
    return t->bound || t->stride || !t->index;
}

/* The extent of section triplet @t of dimension @d of @s, if constant. */
static bool
extent(const xf_triplet *t, const xf_symbol *s, uint32_t d, int64_t *n)
{
    int64_t lo, hi, st = 1;
    uint32_t rank = s->dims.n;
    const xf_dimbounds *b = d < rank ? &s->dims.v[rank - 1 - d] : NULL; /* last dimension first */
    if (t->index ? !xf_const_int_of(t->index, &lo) : !b)
        return false;
    if (!t->index)
        lo = b->lower;
    if (t->bound ? !xf_const_int_of(t->bound, &hi) : !b)
        return false;
    if (!t->bound)
        hi = b->upper;
    if (t->stride && (!xf_const_int_of(t->stride, &st) || st == 0))
        return false;
    /* (hi - lo) / st + 1 elements, none when the stride points away from hi;
     * in unsigned arithmetic, as hi - lo or -st need not fit in an int64_t */
    if (st > 0 ? hi < lo : hi > lo) {
        *n = 0;
        return true;
    }
    uint64_t span = st > 0 ? (uint64_t)hi - (uint64_t)lo : (uint64_t)lo - (uint64_t)hi;
    uint64_t step = st > 0 ? (uint64_t)st : 0 - (uint64_t)st;
    if (span / step >= (uint64_t)INT64_MAX)
        return false; /* more elements than an int64_t counts: not a known extent */
    *n = (int64_t)(span / step) + 1;
    return true;
}

static const xf_shape shapes[] = {XF_SHAPE_SCALAR,       XF_SHAPE_VECTOR,      XF_SHAPE_MATRIX,
                                  XF_SHAPE_THREE_TENSOR, XF_SHAPE_FOUR_TENSOR, XF_SHAPE_FIVE_TENSOR,
                                  XF_SHAPE_SIX_TENSOR,   XF_SHAPE_SEVEN_TENSOR};

static const char *
stmt_id(conv *c, const char *what, const xf_stmt *call)
{
    return xf_derived_id(c->doc, what, c->nstmt++, call->id);
}

/* An inlinable call @name(@a, @b) with id @what, appended to the output. */
static int
icall2(conv *c, const char *name, const char *what, const xf_stmt *call, const xf_varref *a,
       const xf_varref *b)
{
    xf_stmt *s = xf_stmt_icall(c->doc, stmt_id(c, what, call), name);
    if (!s || !xf_icall_ref(c->doc, s, a) || !xf_icall_ref(c->doc, s, b) ||
        !XF_VEC_PUSH(c->doc->arena, c->out, s))
        return oom(c);
    return 0;
}

/* What one converted argument needs around the call. */
typedef struct pending {
    xf_varref *tyc;  /* the whole temporary */
    xf_varref *src;  /* what it is converted from */
    xf_varref *back; /* and back to: src with its subscripts' values saved */
    bool prior, post, alloc;
} pending;

/* May @call change variable @s? When @s is not a local of the caller (a
 * global or module variable), a variable of a caller that hosts internal
 * procedures (which write it with no argument), or one of the call's
 * arguments. */
static bool
call_may_change(const conv *c, const xf_stmt *call, const xf_symbol *s)
{
    if (s->scope != c->rt->cfg_scope || (c->host && !xf_is_temporary(s)))
        return true;
    for (uint32_t k = 0; k < call->u.call.args.n; k++) {
        const xf_expr *x = &call->u.call.args.v[k].val;
        for (uint32_t i = 0; i < x->v.n; i++) {
            const xf_symref *r =
                x->v.v[i].kind == XF_EV_VARREF ? xf_varref_symref(x->v.v[i].u.ref) : NULL;
            if (r && r->sym == s)
                return true;
        }
    }
    return false;
}

typedef struct changed {
    const conv *c;
    const xf_stmt *call;
} changed;

static xf_walk_go
changed_step(void *ctx, const xf_walk_step *s)
{
    const changed *g = ctx;
    const xf_symref *sr = s->ref ? xf_varref_symref(s->ref) : NULL;
    return s->ref && (!sr || !sr->sym || call_may_change(g->c, g->call, sr->sym)) ? XF_WALK_STOP
                                                                                  : XF_WALK_GO;
}

/* Does @x, or a subscript in it, read a variable that @call may change? So
 * it may when out of memory. */
static bool
reads_changed(const conv *c, const xf_stmt *call, const xf_expr *x)
{
    changed g = {c, call};
    return xf_walk_expr(x, 0, changed_step, &g) != 0;
}

/* The call may change what a subscript of @r reads (an index variable that
 * it modifies): each such subscript expression is saved in an integer
 * temporary before the call (an Assignment appended to the output) and @r
 * reads the temporary instead. */
static int
save_subscripts(conv *c, const xf_stmt *call, xf_varref *r)
{
    xf_arrref *ar = xf_varref_arrref(r);
    for (uint32_t i = 0; ar && i < ar->t.n; i++) {
        xf_expr **parts[3] = {&ar->t.v[i].index, &ar->t.v[i].bound, &ar->t.v[i].stride};
        for (int k = 0; k < 3; k++) {
            xf_expr *x = *parts[k];
            if (!reads_changed(c, call, x))
                continue;
            xf_symbol *t = xf_fresh_symbol(c->doc, c->rt->cfg_scope, "OpenAD_Symbol_", &c->nsave,
                                           XF_TYPE_INTEGER, XF_SHAPE_SCALAR, false);
            xf_varref lhs;
            xf_expr rhs = {0};
            xf_expr *now = XF_NEW(c->doc->arena, xf_expr);
            xf_varref *use = t ? xf_ref_new(c->doc, t) : NULL;
            if (!t || !now || !use || !xf_ref_init(c->doc, &lhs, t) ||
                xf_expr_copy(c->doc, &rhs, x, xf_expr_root(x)) == UINT32_MAX ||
                xf_expr_ref(c->doc, now, use) == UINT32_MAX)
                return oom(c);
            xf_mark_ref(&lhs, false, false);
            xf_mark_ref(use, false, false);
            now->h = x->h;
            xf_stmt *s = xf_stmt_assign(c->doc, stmt_id(c, "save_index", call), &lhs, &rhs);
            if (!s || !XF_VEC_PUSH(c->doc->arena, c->out, s))
                return oom(c);
            *parts[k] = now;
        }
    }
    return 0;
}

/* A C array sized at run time (the C front end's "xf_extent=E,..." in @s's
 * annotation, docs/c-frontend.md) gives its temporary @t the same extents. */
static int
rt_extent(conv *c, const xf_symbol *s, xf_symbol *t)
{
    const char *a = s->h.annotation, *p = a ? strstr(a, "xf_extent=") : NULL;
    while (p && p != a && p[-1] != ';')
        p = strstr(p + 1, "xf_extent=");
    if (!p)
        return 0;
    size_t n = strcspn(p, ";");
    char *buf = malloc(n + 1);
    if (!buf)
        return -1;
    memcpy(buf, p, n);
    buf[n] = 0;
    t->h.annotation = xf_intern(c->doc, buf);
    free(buf);
    return t->h.annotation ? 0 : -1;
}

/* Decide argument @a of @call, a call of @callee (NULL: not in the
 * document); fill @p and rewrite the argument when it is converted. */
static int
argument(conv *c, const xf_stmt *call, const xf_routine *callee, xf_arg *a, pending *p, bool *conv_)
{
    *conv_ = false;
    if (a->val.v.n != 1 || a->val.v.v[0].kind != XF_EV_VARREF)
        return 0;
    xf_varref *act = a->val.v.v[0].u.ref;
    const xf_symref *sr = xf_varref_symref(act);
    if (!sr || !real_variable(sr->sym))
        return 0;
    const xf_argsym *f = callee ? formal(callee, a->pos) : NULL;
    if (callee && (!f || !f->sym))
        return 0; /* no such formal: the call is the front end's business */
    bool aact = xf_is_active_sym(sr->sym);
    bool fact = f ? xf_is_active_sym(f->sym) : false; /* external routines are passive */
    if (aact == fact)
        return 0;
    int frank = f ? xf_shape_rank(f->sym->shape) : -1;
    xf_intent intent = f ? f->intent : XF_INTENT_NONE;
    const xf_symbol *s = sr->sym;
    const xf_arrref *ar = xf_varref_arrref(act);

    /* the temporary's shape and bounds, and what it converts */
    int rank = xf_shape_rank(s->shape) > 0 ? xf_shape_rank(s->shape) : 0;
    int64_t ext[8];
    bool bounded = s->dims.n > 0, whole_src = false, keep_subscripts = false;
    if (ar) {
        int srank = 0;
        bool known = true;
        for (uint32_t i = 0; i < ar->t.n; i++)
            if (is_section(&ar->t.v[i])) {
                if (srank < 8)
                    known = known && extent(&ar->t.v[i], s, i, &ext[srank]);
                srank++;
            }
        if (srank > 0) { /* a section: a temporary of its extents */
            rank = srank;
            bounded = known && srank <= 7;
        } else if (frank == 0) { /* an element to a scalar */
            rank = 0;
        } else { /* an element starting a sequence: the whole array */
            whole_src = keep_subscripts = true;
        }
    }
    if (rank > 7)
        return 0;
    xf_symbol *t = xf_fresh_symbol(c->doc, c->rt->cfg_scope, "OpenAD_tyc_", &c->ntyc, XF_TYPE_REAL,
                                   shapes[rank], fact);
    if (!t)
        return oom(c);
    t->fetype = s->fetype ? s->fetype : t->fetype;
    if (rank > 0 && bounded) {
        if (ar && !whole_src)
            for (int d = rank - 1; d >= 0; d--) { /* last dimension first */
                xf_dimbounds b = {.lower = 1, .upper = ext[d]};
                b.h.annotation = t->h.annotation;
                if (!XF_VEC_PUSH(xf_doc_global(c->doc), t->dims, b))
                    return oom(c);
            }
        else
            for (uint32_t d = 0; d < s->dims.n; d++)
                if (!XF_VEC_PUSH(xf_doc_global(c->doc), t->dims, s->dims.v[d]))
                    return oom(c);
        if (!(ar && !whole_src) && rt_extent(c, s, t))
            return oom(c);
    }
    p->tyc = xf_ref_new(c->doc, t);
    p->src = whole_src ? xf_ref_new(c->doc, sr->sym) : xf_ref_dup(c->doc, act);
    p->back = p->src ? xf_ref_dup(c->doc, p->src) : NULL;
    if (!p->tyc || !p->src || !p->back)
        return oom(c);
    xf_mark_ref(p->tyc, fact, false);
    xf_mark_ref(p->src, aact, false);
    xf_mark_ref(p->back, aact, false);
    p->alloc = rank > 0 && t->dims.n == 0;
    p->prior = intent != XF_INTENT_OUT || keep_subscripts;
    p->post = intent != XF_INTENT_IN;
    if (p->post && save_subscripts(c, call, p->back))
        return -1;

    /* the call now passes the temporary */
    xf_varref *now;
    if (keep_subscripts) {
        now = xf_ref_dup(c->doc, act);
        xf_symref *ns = now ? xf_varref_symref(now) : NULL;
        if (!ns)
            return oom(c);
        ns->sym = t;
        ns->scope = t->scope;
        ns->id = xf_intern_uint(c->doc, 1);
        memset(&ns->props, 0, sizeof ns->props);
    } else
        now = xf_ref_new(c->doc, t);
    if (!now)
        return oom(c);
    xf_mark_ref(now, fact, false);
    now->alias = now->du_ud = XF_NOINT;
    a->val.v.v[0].u.ref = now;
    *conv_ = true;
    return 0;
}

static int
call(conv *c, xf_stmt *s)
{
    const xf_routine *callee =
        s->u.call.sym && s->u.call.sym->index < c->ncallee ? c->callee[s->u.call.sym->index] : NULL;
    uint32_t n = s->u.call.args.n;
    /* OpenAD's output schema requires formalArgCount, which some front-end
     * xaif leaves out: the callee's formals, else (not in the document) the actuals */
    if (s->u.call.formal_count == XF_NOINT)
        s->u.call.formal_count = callee ? (int64_t)callee->args.n : (int64_t)n;
    pending *p = calloc(n ? n : 1, sizeof *p);
    bool *done = calloc(n ? n : 1, sizeof *done);
    int ret = p && done ? 0 : oom(c);
    for (uint32_t k = 0; !ret && k < n; k++)
        ret = argument(c, s, callee, &s->u.call.args.v[k], &p[k], &done[k]);
    for (uint32_t k = 0; !ret && k < n; k++)
        if (done[k] && p[k].alloc)
            ret = icall2(c, "oad_AllocateMatching", "allocate", s, p[k].tyc, p[k].src);
    for (uint32_t k = 0; !ret && k < n; k++)
        if (done[k] && p[k].prior)
            ret = icall2(c, "oad_convert", "convert_prior", s, p[k].tyc, p[k].src);
    if (!ret && !XF_VEC_PUSH(c->doc->arena, c->out, s))
        ret = oom(c);
    for (uint32_t k = 0; !ret && k < n; k++)
        if (done[k] && p[k].post && p[k].alloc)
            ret = icall2(c, "oad_ShapeTest", "shape_test", s, p[k].tyc, p[k].back);
    for (uint32_t k = 0; !ret && k < n; k++)
        if (done[k] && p[k].post)
            ret = icall2(c, "oad_convert", "convert_post", s, p[k].back, p[k].tyc);
    free(p);
    free(done);
    return ret;
}

/* The routine of each symbol, for the formals of a call's callee: made at
 * the first routine, when every routine is known (streamed: as
 * xf_read_stream keeps them). */
static int
callees(conv *c)
{
    xf_doc *doc = c->doc;
    c->ncallee = doc->nsymbols;
    c->callee = calloc(c->ncallee ? c->ncallee : 1, sizeof *c->callee);
    if (!c->callee)
        return oom(c);
    for (uint32_t r = 0; r < doc->cg.routines.n; r++) {
        xf_routine *rt = doc->cg.routines.v[r];
        if (rt->sym && rt->sym->index < c->ncallee)
            c->callee[rt->sym->index] = rt;
    }
    return 0;
}

static int
begin(xf_pass_ctx *ctx)
{
    return (ctx->state = calloc(1, sizeof(conv))) ? 0 : xf_pass_oom(ctx);
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    conv *c = ctx->state;
    c->ctx = ctx;
    c->doc = ctx->doc;
    if (!c->callee && callees(c))
        return -1;
    if (rt->is_rlist || !rt->cfg_scope)
        return 0;
    if (xf_loopcond_routine(c->doc, rt) < 0) /* i + k <= n as i <= n - k */
        return oom(c);
    xf_doc *doc = c->doc;
    int ret = 0;
    c->rt = rt;
    c->host = xf_hosts_procedures(doc, rt);
    c->nstmt = c->ntyc = c->nsave = 0;
    for (uint32_t i = 0; !ret && i < rt->g.v.n; i++) {
        xf_cvertex *v = rt->g.v.v[i];
        if (v->kind != XF_CV_BASICBLOCK)
            continue;
        bool any = false;
        for (uint32_t k = 0; k < v->stmts.n && !any; k++)
            any = v->stmts.v[k]->kind == XF_STMT_CALL;
        if (!any)
            continue;
        memset(&c->out, 0, sizeof c->out);
        for (uint32_t k = 0; !ret && k < v->stmts.n; k++) {
            xf_stmt *s = v->stmts.v[k];
            if (s->kind == XF_STMT_CALL)
                ret = call(c, s);
            else if (!XF_VEC_PUSH(doc->arena, c->out, s))
                ret = oom(c);
        }
        if (!ret) {
            v->stmts.v = c->out.v;
            v->stmts.n = c->out.n;
            v->stmts.cap = c->out.cap;
        }
    }
    return ret;
}

static void
end(xf_pass_ctx *ctx)
{
    conv *c = ctx->state;
    if (c)
        free(c->callee);
    free(c);
}

static const char *const after[] = {NULL};

const xf_pass xf_pass_convert = {
    .name = "convert",
    .summary = "arguments whose activity differs from the formal's, through temporaries",
    .help = "An actual argument that is passive where the called routine's formal is\n"
            "active, or active where it is passive (or the routine is not in the\n"
            "document), is copied into a temporary OpenAD_tyc_* of the formal's kind\n"
            "before the call (oad_convert, unless the formal is intent(out)) and back\n"
            "after it (unless intent(in)); a temporary array of unknown shape is\n"
            "allocated first (oad_AllocateMatching) and its shape checked after the call\n"
            "(oad_ShapeTest). Only values are copied, as in xaifBooster's outputs.\n",
    .after = after,
    .once = true,
    .run_routine = run_routine,
    .begin = begin,
    .end = end,
};
