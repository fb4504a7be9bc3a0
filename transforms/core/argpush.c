/* argpush.c: the integer call arguments that adjoin pushed and that the
 * callee's adjoint does not read leave the tape again.
 *
 * adjoin copies a call's integer scalar argument before the call, pushes
 * the copy after it, and the adjoint sweep pops it and passes it to the
 * callee's adjoint (a size or a count must be the forward call's). The
 * pair is redundant where the callee's adjoint never reads the formal:
 *  - split (the callee's placeholder 3 alone): placeholder 3 does not name
 *    the formal (its loop bounds popped, its subscripts taped or recovered);
 *  - joint (placeholders 6, 2, 3 in a row): under --reversal joint always,
 *    since placeholder 6 restores every formal the callee reads at entry
 *    but those the template proved unchanged between the plain call and
 *    the rerun (argstable.h); without it, when placeholder 6 restores the
 *    formal or neither 2 nor 3 names it;
 *  - without --reversal: both of these.
 * A callee with run-time extents (the C front end's "xf_extent=" arrays,
 * allocated from the formals at entry, before any restore), one outside
 * the document, and a call of the routine to itself keep the pair. The
 * pair is found in one basic block: in placeholder 3 the pop of temporary
 * T nearest before the call, which reads T as that argument; in
 * placeholder 2's block of the same id the push that pop takes back (the
 * two blocks' pushes and pops mirror each other) and the copy T = x
 * nearest before it; T private to each block of both placeholders (adjoin
 * saves equal expressions in one temporary, so several calls may share
 * it). The copy and the push go, the pop goes, and the adjoint's call
 * reads x again (its value then, which the callee does not read). The C
 * front end writes callees first. Routines are done in the document's
 * order, each summed up when done (which formals its adjoint may read at
 * entry, read after its own pairs went: a call made to read x names x); a
 * call of the routine itself keeps its pairs; one of a routine later in
 * the document is judged by a coarser summary from scan (every formal its
 * code names may be read). So the pass runs alike one routine at a time
 * (xf_pm_stream).
 * Needs: reverse. Breaks: nothing. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "pass.h"

/* What a routine done before needs: by formal position 1..n. */
typedef struct needs {
    uint32_t n;
    bool *at; /* at[pos - 1]: its adjoint may read that formal at entry */
} needs;

typedef struct ap {
    xf_pass_ctx *ctx;
    xf_doc *doc;
    xf_arena *a;   /* the summaries, from begin to end */
    xf_map byname; /* routine symbol -> its needs (routines done before) */
    xf_map coarse; /* routine symbol -> the formals its code names (scan) */
} ap;

/* ------------------------------------------------------------ references */

typedef struct refs {
    const xf_symbol *sym;
    unsigned n;
    bool failed; /* a walk ran out of memory: count as named */
} refs;

static xf_walk_go
count_step(void *ctx, const xf_walk_step *s)
{
    refs *c = ctx;
    const xf_symref *sr = s->ref ? xf_varref_symref(s->ref) : NULL;
    if (sr && sr->sym == c->sym)
        c->n++;
    return XF_WALK_GO;
}

static void
walk_ref(refs *c, const xf_varref *r)
{
    if (xf_walk_ref(r, XF_WALK_ARGS, count_step, c) < 0)
        c->failed = true;
}

static void
walk_expr(refs *c, const xf_expr *x)
{
    if (xf_walk_expr(x, XF_WALK_ARGS, count_step, c) < 0)
        c->failed = true;
}

static void
count_args(refs *c, const xf_arg_vec *args)
{
    for (uint32_t k = 0; k < args->n; k++)
        walk_expr(c, &args->v[k].val);
}

/* How often statement @s names @c->sym (added to @c->n). */
static void
count_stmt(refs *c, const xf_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        walk_ref(c, &s->u.as.lhs);
        walk_expr(c, &s->u.as.rhs);
        break;
    case XF_STMT_CALL:
        count_args(c, &s->u.call.args);
        break;
    case XF_STMT_ICALL:
        count_args(c, &s->u.icall.args);
        break;
    case XF_STMT_DERIVPROP:
        for (uint32_t k = 0; k < s->u.dp.n; k++) {
            const xf_dpop *op = &s->u.dp.v[k];
            walk_ref(c, &op->tgt);
            walk_ref(c, &op->src);
            walk_ref(c, &op->y);
            for (uint32_t j = 0; j < op->ax.n; j++) {
                walk_ref(c, &op->ax.v[j].x);
                walk_expr(c, &op->ax.v[j].a);
            }
        }
        break;
    case XF_STMT_MARKER:
        break;
    }
}

/* How often graph @g names @sym: statements, conditions, loop headers
 * (UINT_MAX when out of memory on the way). */
static unsigned
count_graph(const xf_graph *g, const xf_symbol *sym)
{
    refs c = {sym, 0, false};
    for (uint32_t i = 0; g && i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        if (v->cond)
            walk_expr(&c, v->cond);
        count_stmt(&c, v->init);
        count_stmt(&c, v->update);
        for (uint32_t k = 0; k < v->stmts.n; k++)
            count_stmt(&c, v->stmts.v[k]);
    }
    return c.failed ? UINT_MAX : c.n;
}

static const xf_symbol *
one_var(const xf_expr *x)
{
    if (x->v.n != 1 || x->v.v[0].kind != XF_EV_VARREF || xf_varref_arrref(x->v.v[0].u.ref))
        return NULL;
    const xf_symref *s = xf_varref_symref(x->v.v[0].u.ref);
    return s ? s->sym : NULL;
}

/* Is @s an inlinable call named @name whose one argument is @sym? */
static bool
icall_of(const xf_stmt *s, const char *name, const xf_symbol *sym)
{
    return s->kind == XF_STMT_ICALL && s->u.icall.name && !strcmp(s->u.icall.name, name) &&
           s->u.icall.args.n == 1 && one_var(&s->u.icall.args.v[0].val) == sym;
}

/* ------------------------------------------------------------ the callee */

static bool
rt_extents(const xf_routine *c)
{
    for (uint32_t i = 0; c->cfg_scope && i < c->cfg_scope->syms.n; i++) {
        const char *an = c->cfg_scope->syms.v[i]->h.annotation;
        if (an && strstr(an, "xf_extent="))
            return true;
    }
    return false;
}

/* Does placeholder 6 of @c restore @f from the argument checkpoint? */
static bool
restored(xf_routine *c, const xf_symbol *f)
{
    xf_replacement *r = xf_placeholder(c, "6");
    for (uint32_t i = 0; r && i < r->g.v.n; i++) {
        const xf_cvertex *v = r->g.v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            const xf_stmt *s = v->stmts.v[k];
            if (s->kind == XF_STMT_ICALL && s->u.icall.name &&
                !strncmp(s->u.icall.name, "cp_arg_restore", 14) && s->u.icall.args.n == 1 &&
                one_var(&s->u.icall.args.v[0].val) == f)
                return true;
        }
    }
    return false;
}

/* May the adjoint of callee @c (under the --reversal of the output) read
 * its formal at position @pos as it is at entry? */
static bool
needed(const ap *p, xf_routine *c, int64_t pos)
{
    const xf_symbol *f = NULL;
    for (uint32_t k = 0; k < c->args.n; k++)
        if (c->args.v[k].pos == pos)
            f = c->args.v[k].sym;
    xf_replacement *tape = xf_placeholder(c, "2"), *adj = xf_placeholder(c, "3");
    if (!f || !tape || !adj || rt_extents(c))
        return true;
    xf_rev_template rev = p->ctx->opts ? p->ctx->opts->reversal : XF_REV_BOTH;
    bool in_adj = count_graph(&adj->g, f) > 0;
    bool split = in_adj;
    /* joint: placeholder 6 restores every formal the callee reads at entry
     * but those the template proved unchanged between the plain call and
     * the rerun (argstable.h): either way the rerun sees the forward value */
    bool joint = !restored(c, f) && (in_adj || count_graph(&tape->g, f) > 0) &&
                 !(p->ctx->opts && p->ctx->opts->reversal == XF_REV_JOINT);
    return rev == XF_REV_SPLIT ? split : rev == XF_REV_JOINT ? joint : split || joint;
}

/* ------------------------------------------------------------ the pairs */

static void
drop(xf_cvertex *v, uint32_t k)
{
    memmove(&v->stmts.v[k], &v->stmts.v[k + 1], (v->stmts.n - k - 1) * sizeof v->stmts.v[0]);
    v->stmts.n--;
}

static bool
is_pop(const xf_stmt *s, const xf_symbol *t)
{
    return icall_of(s, "pop_i_s0", t);
}

static bool
is_push(const xf_stmt *s, const xf_symbol *t)
{
    return icall_of(s, "push_i_s0", t);
}

static bool
is_copy(const xf_stmt *s, const xf_symbol *t)
{
    const xf_symref *sr = s->kind == XF_STMT_ASSIGN ? xf_varref_symref(&s->u.as.lhs) : NULL;
    return sr && sr->sym == t && !xf_varref_arrref(&s->u.as.lhs);
}

/* How often statement @s names @t (UINT_MAX when out of memory). */
static unsigned
names(const xf_stmt *s, const xf_symbol *t)
{
    refs c = {t, 0, false};
    count_stmt(&c, s);
    return c.failed ? UINT_MAX : c.n;
}

/* Does @s give temporary @t a new value: its pop in placeholder 3
 * (@adj), an assignment t = e whose e does not name t in placeholder 2? */
static bool
sets(const xf_stmt *s, const xf_symbol *t, bool adj)
{
    if (adj)
        return is_pop(s, t);
    if (!is_copy(s, t))
        return false;
    refs c = {t, 0, false};
    walk_expr(&c, &s->u.as.rhs);
    return !c.failed && c.n == 0;
}

/* Is @t private to each block of @g: no condition or loop header names
 * it, and in every block the first statement that names it sets it? Then
 * a value it gets is read only in its block, up to the next set. */
static bool
block_local(const xf_graph *g, const xf_symbol *t, bool adj)
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        refs c = {t, 0, false};
        if (v->cond)
            walk_expr(&c, v->cond);
        count_stmt(&c, v->init);
        count_stmt(&c, v->update);
        if (c.failed || c.n)
            return false;
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            unsigned n = names(v->stmts.v[k], t);
            if (n == UINT_MAX || (n && !sets(v->stmts.v[k], t, adj)))
                return false;
            if (n)
                break;
        }
    }
    return true;
}

/* The statement that names @t next after @k in @v (UINT32_MAX: none; a
 * statement whose walk ran out of memory counts). */
static uint32_t
next_naming(const xf_cvertex *v, uint32_t k, const xf_symbol *t)
{
    for (uint32_t j = k + 1; j < v->stmts.n; j++)
        if (names(v->stmts.v[j], t))
            return j;
    return UINT32_MAX;
}

/* The statement that names @t last before @k in @v (UINT32_MAX: none). */
static uint32_t
prev_naming(const xf_cvertex *v, uint32_t k, const xf_symbol *t)
{
    for (uint32_t j = k; j-- > 0;)
        if (names(v->stmts.v[j], t))
            return j;
    return UINT32_MAX;
}

/* Is @s a push (@push) or pop of the tape? Its kind, the name's rest. */
static const char *
tape_op(const xf_stmt *s, bool push)
{
    const char *pre = push ? "push" : "pop";
    size_t n = strlen(pre);
    if (s->kind != XF_STMT_ICALL || !s->u.icall.name || strncmp(s->u.icall.name, pre, n))
        return NULL;
    return s->u.icall.name + n;
}

/* The push in taping block @fb that pop @k of adjoint block @b takes
 * back: the blocks' pushes and pops mirror each other (as many, of the
 * same kinds, in reverse order), so the pop that is m-th of n takes the
 * (n-1-m)-th push. UINT32_MAX when they do not mirror. */
static uint32_t
mirror(const xf_cvertex *fb, const xf_cvertex *b, uint32_t k)
{
    uint32_t j = 0, i = fb->stmts.n, found = UINT32_MAX;
    for (;;) {
        while (j < b->stmts.n && !tape_op(b->stmts.v[j], false))
            j++;
        while (i > 0 && !tape_op(fb->stmts.v[i - 1], true))
            i--;
        if (j == b->stmts.n || i == 0)
            return j == b->stmts.n && i == 0 ? found : UINT32_MAX;
        if (strcmp(tape_op(b->stmts.v[j], false), tape_op(fb->stmts.v[i - 1], true)))
            return UINT32_MAX;
        if (j == k)
            found = i - 1;
        j++;
        i--;
    }
}

/* Argument @i of call @k in block @b of routine @rt's placeholder 3: drop
 * its pair when the callee does not need it. The pair: the pop of a
 * temporary T that the call reads as the argument, the push that pop
 * takes back, and the copy T = x before that push in placeholder 2's
 * block of the same id; T private to each block in both placeholders
 * (adjoin may use one temporary for several calls: each of its values is
 * read up to the next one only). 1 dropped, 0 kept, -1 out of memory. */
static int
argument(ap *p, xf_routine *rt, xf_graph *tape, xf_graph *adj, xf_cvertex *b, uint32_t k,
         uint32_t i)
{
    xf_stmt *s = b->stmts.v[k];
    xf_arg *arg = &s->u.call.args.v[i];
    const xf_symbol *t = one_var(&arg->val);
    if (!t || t->scope != rt->cfg_scope || t->type != XF_TYPE_INTEGER ||
        t->shape != XF_SHAPE_SCALAR || names(s, t) != 1)
        return 0;
    xf_cvertex *fb = b->id ? xf_map_get(&tape->vmap, b->id) : NULL;
    uint32_t pop = prev_naming(b, k, t), after = next_naming(b, k, t);
    if (!fb || pop == UINT32_MAX || !is_pop(b->stmts.v[pop], t) ||
        (after != UINT32_MAX && !sets(b->stmts.v[after], t, true)))
        return 0;
    uint32_t push = mirror(fb, b, pop);
    if (push == UINT32_MAX || !is_push(fb->stmts.v[push], t))
        return 0;
    uint32_t copy = prev_naming(fb, push, t), later = next_naming(fb, push, t);
    if (copy == UINT32_MAX || !sets(fb->stmts.v[copy], t, false) ||
        (later != UINT32_MAX && !sets(fb->stmts.v[later], t, false)) ||
        !block_local(adj, t, true) || !block_local(tape, t, false))
        return 0;
    const xf_expr *x = &fb->stmts.v[copy]->u.as.rhs;
    const xf_symbol *xs = one_var(x);
    if (!xs || xs->type != XF_TYPE_INTEGER || xs->shape != XF_SHAPE_SCALAR)
        return 0;
    const needs *c = NULL;
    if (s->u.call.sym != rt->sym && !(c = xf_map_get(&p->byname, s->u.call.sym)))
        c = xf_map_get(&p->coarse, s->u.call.sym);
    if (!c || arg->pos < 1 || arg->pos > c->n || c->at[arg->pos - 1])
        return 0;
    xf_expr nx = {0};
    if (xf_expr_copy(p->doc, &nx, x, xf_expr_root(x)) == UINT32_MAX)
        return xf_pass_oom(p->ctx);
    nx.h = arg->val.h;
    arg->val = nx;
    drop(b, pop);
    drop(fb, push);
    drop(fb, copy);
    return 1;
}

/* A summary for @rt's formals, all false; NULL when out of memory. */
static needs *
new_needs(ap *p, const xf_routine *rt)
{
    needs *n = XF_NEW(p->a, needs);
    int64_t max = 0;
    for (uint32_t k = 0; k < rt->args.n; k++)
        max = rt->args.v[k].pos > max ? rt->args.v[k].pos : max;
    if (!n || max > 1 << 20 ||
        (max > 0 && !(n->at = xf_arena_alloc(p->a, (size_t)max * sizeof *n->at))))
        return NULL;
    n->n = (uint32_t)max;
    for (uint32_t k = 0; k < n->n; k++)
        n->at[k] = false;
    return n;
}

static int
routine(ap *p, xf_routine *rt)
{
    xf_replacement *tape = xf_placeholder(rt, "2"), *adj = xf_placeholder(rt, "3");
    for (uint32_t i = 0; tape && adj && i < adj->g.v.n; i++) {
        xf_cvertex *b = adj->g.v.v[i];
        for (uint32_t k = 0; k < b->stmts.n; k++) {
            xf_stmt *s = b->stmts.v[k];
            if (s->kind != XF_STMT_CALL)
                continue;
            bool dropped = false;
            for (uint32_t j = 0; j < s->u.call.args.n; j++) {
                int r = argument(p, rt, &tape->g, &adj->g, b, k, j);
                if (r < 0)
                    return -1;
                if (r > 0) {
                    dropped = true;
                    break;
                }
            }
            if (dropped)
                k = UINT32_MAX; /* a pop before the call went: the block again */
        }
    }
    if (!rt->sym)
        return 0;
    needs *n = new_needs(p, rt);
    if (!n)
        return xf_pass_oom(p->ctx);
    for (uint32_t k = 0; k < n->n; k++)
        n->at[k] = needed(p, rt, k + 1);
    return xf_map_put(&p->byname, p->a, rt->sym, n, NULL) ? 0 : xf_pass_oom(p->ctx);
}

static int
begin(xf_pass_ctx *ctx)
{
    ap *p = calloc(1, sizeof *p);
    if (!p || !(p->a = xf_arena_new())) {
        free(p);
        return xf_pass_oom(ctx);
    }
    ctx->state = p;
    return 0;
}

/* The coarse summary of a routine not done yet (a call of it comes
 * first): its adjoint may read every formal its code names, and all with
 * run-time extents. Its code is the routine as read when streamed, and
 * placeholder 1 (the original code after convert, which no pass after
 * template changes) in the whole document: convert, constprop and sink
 * neither add nor remove the last reference to a formal, so both name
 * the same formals. Adjoin, reverse and the template only read what the
 * code names, so a formal not named is read by no placeholder. */
static int
scan(xf_pass_ctx *ctx, const xf_routine *rt)
{
    ap *p = ctx->state;
    p->ctx = ctx;
    if (!rt->sym)
        return 0;
    xf_replacement *orig = rt->is_rlist ? xf_placeholder((xf_routine *)rt, "1") : NULL;
    const xf_graph *g = orig ? &orig->g : &rt->g;
    needs *n = new_needs(p, rt);
    if (!n)
        return xf_pass_oom(ctx);
    bool all = rt_extents(rt);
    for (uint32_t k = 0; k < n->n; k++)
        n->at[k] = true; /* a position with no formal: kept */
    for (uint32_t k = 0; k < rt->args.n; k++) {
        int64_t pos = rt->args.v[k].pos;
        if (pos >= 1 && !all && count_graph(g, rt->args.v[k].sym) == 0)
            n->at[pos - 1] = false;
    }
    return xf_map_put(&p->coarse, p->a, rt->sym, n, NULL) ? 0 : xf_pass_oom(ctx);
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    ap *p = ctx->state;
    p->ctx = ctx;
    p->doc = ctx->doc;
    return rt->is_rlist ? routine(p, rt) : 0;
}

static void
end(xf_pass_ctx *ctx)
{
    ap *p = ctx->state;
    if (p)
        xf_arena_free(p->a);
    free(p);
}

static const char *const after[] = {"reverse", NULL};

const xf_pass xf_pass_argpush = {
    .name = "argpush",
    .summary = "integer call arguments the callee's adjoint does not read leave the tape",
    .help = "adjoin pushes a call's integer scalar arguments after the call and the\n"
            "adjoint passes them popped to the callee's adjoint. Where that adjoint does\n"
            "not read the formal (split: placeholder 3 does not name it; joint: the\n"
            "argument checkpoint restores it, or placeholders 2 and 3 do not name it;\n"
            "without --reversal both), the copy, the push and the pop go. Callees with\n"
            "run-time extents or outside the document keep them; one later in it keeps\n"
            "them for every formal its code names.\n",
    .after = after,
    .once = true,
    .run_routine = run_routine,
    .begin = begin,
    .scan = scan,
    .end = end,
};
