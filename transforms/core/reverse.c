/* reverse.c: control-flow reversal (Utke et al. [000] §4–5). adjoin left,
 * in placeholder 3, one adjoint block per basic block of placeholder 2;
 * this pass builds placeholder 3's control flow around them, in reverse,
 * and adds to placeholder 2 what that needs to know about the forward run:
 *
 *  - a branch: each arm pushes its number (push_i_s0) where it starts; the
 *    adjoint pops it and takes the same arm of a Branch on it;
 *  - a loop: a counter set to 0 before it, incremented where its body
 *    starts, pushed after it; the adjoint pops it and runs a ForLoop that
 *    many times around the reversed body. A ForLoop marked
 *    reversal="explicit" whose header reads i = L; i <= U (<, >=, >, and
 *    != for Fortran's DO); i = i + S is run backwards instead: i from the
 *    last value it took down to L; nothing is taped but the bounds and a
 *    stride that read variables (their values after the loop), unless
 *    they read only constants, the variables of the explicitly reversed
 *    loops around and integer formals nothing writes (bound_again);
 *  - a branch whose condition reads only constants and the variables of
 *    the explicitly reversed loops around it is evaluated again in the
 *    adjoint instead, nothing taped;
 *  - branches and loops without any adjoint code inside are left out.
 *
 * A graph that cfgtree cannot parse (gotos, early returns, exits from
 * loops, loops entered in the middle, PostLoops) is reversed by numbers:
 * every block with adjoint code pushes its number after it runs (0 at the
 * start), and the adjoint is a loop that pops a number and runs that
 * block's adjoint until it pops 0 ([000] §5). Whatever path the run takes,
 * the adjoint replays its blocks backwards; nothing structured is assumed,
 * so no loop runs backwards explicitly (adjoin tapes the subscripts) and no
 * condition is evaluated again. Refused, as the numbers would be wrong or
 * the run undefined: an edge back into Entry (its second 0 would end the
 * adjoint early), a second Entry, an edge without its vertices, a vertex
 * the run may reach without the out-edges the interpreter follows.
 * New vertices are _aug_N (placeholder 2) and _adj_N (placeholder 3); new
 * integers OpenAD_Symbol_*. Needs: adjoin. Breaks: nothing. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "cfgtree.h"
#include "pass.h"
#include "revjoint.h"
#include "unwritten.h"

typedef XF_VEC(xf_cedge *) edgevec;

typedef struct rev {
    xf_pass_ctx *ctx;
    xf_doc *doc;
    xf_routine *rt;
    xf_arena *a;
    xf_graph *fwd, *adj; /* placeholders 2 and 3 */
    xf_graph mirror;     /* adjoin's blocks, by id */
    unsigned nsym, nfv, nfe, nav, nae;
    /* placeholder 2's edges by vertex, in the graph's edge order: out-edges
     * by source, in-edges by the target they had when listed (an edge a
     * split moved is listed again under its new target: check e->tgt) */
    xf_map outs, ins;
    bool *has;          /* by region index: holds adjoint code */
    xf_loopscope loops; /* the explicitly reversed loops around the region at hand */
    bool joint;         /* --reversal joint: bounds nothing writes are read again */
    bool filled;        /* unw holds placeholder 2's writes */
    xf_unwritten unw;
} rev;

/* Where the next vertex of the adjoint attaches: an edge from @from,
 * with condition value @cv when @has_cv. */
typedef struct link {
    xf_cvertex *from;
    bool has_cv;
    int64_t cv;
} link;

static int
oom(rev *r)
{
    return xf_pass_oom(r->ctx);
}

static const char *
fresh_id(rev *r, const char *prefix, unsigned *n)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%s%u", prefix, ++*n);
    return xf_intern(r->doc, buf);
}

static xf_symbol *
int_temp(rev *r)
{
    return xf_fresh_symbol(r->doc, r->rt->cfg_scope, "OpenAD_Symbol_", &r->nsym, XF_TYPE_INTEGER,
                           XF_SHAPE_SCALAR, false);
}

/* ------------------------------------------------------------ statements */

static xf_varref *
var(rev *r, xf_symbol *s)
{
    xf_varref *v = xf_ref_new(r->doc, s);
    if (v)
        xf_mark_ref(v, false, false);
    return v;
}

/* @s = @value */
static xf_stmt *
set_int(rev *r, xf_symbol *s, int64_t value, const char *id)
{
    xf_varref *lhs = var(r, s);
    xf_expr rhs = {0};
    if (!lhs || xf_expr_int(r->doc, &rhs, value) == UINT32_MAX)
        return NULL;
    return xf_stmt_assign(r->doc, id, lhs, &rhs);
}

/* @s = @s + @step */
static xf_stmt *
add_int(rev *r, xf_symbol *s, int64_t step, const char *id)
{
    xf_varref *lhs = var(r, s);
    xf_expr rhs = {0};
    uint32_t a = lhs ? xf_expr_ref(r->doc, &rhs, var(r, s)) : UINT32_MAX;
    uint32_t b = xf_expr_int(r->doc, &rhs, step);
    if (xf_expr_binary(r->doc, &rhs, "add_scal_scal", a, b) == UINT32_MAX)
        return NULL;
    return xf_stmt_assign(r->doc, id, lhs, &rhs);
}

static xf_stmt *
tape_int(rev *r, bool push, xf_symbol *s)
{
    xf_stmt *st =
        xf_stmt_icall(r->doc, push ? "_cfr_push" : "_cfr_pop", push ? "push_i_s0" : "pop_i_s0");
    xf_varref *v = var(r, s);
    return st && v && xf_icall_ref(r->doc, st, v) ? st : NULL;
}

static xf_stmt *
push_const(rev *r, int64_t value)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%lld", (long long)value);
    xf_stmt *st = xf_stmt_icall(r->doc, "_cfr_push", "push_i_s0");
    return st && xf_icall_const(r->doc, st, XF_TYPE_INTEGER, buf) ? st : NULL;
}

/* ------------------------------------------------------------ placeholder 2 */

/* @v's out-edges (@out) or in-edges in the index; NULL: none. */
static edgevec *
edges_of(rev *r, bool out, const xf_cvertex *v)
{
    return xf_map_get(out ? &r->outs : &r->ins, v);
}

static bool
list_edge(rev *r, xf_map *m, const xf_cvertex *v, xf_cedge *e)
{
    if (!v)
        return true;
    edgevec *l = xf_map_get(m, v);
    if (!l) {
        l = XF_NEW(r->a, edgevec);
        if (!l)
            return false;
        memset(l, 0, sizeof *l);
        if (!xf_map_put(m, r->a, v, l, NULL))
            return false;
    }
    return XF_VEC_PUSH(r->a, *l, e);
}

/* Enter @e (new, or moved to a new target) in the index. */
static bool
index_edge(rev *r, xf_cedge *e, bool moved)
{
    return (moved || list_edge(r, &r->outs, e->src, e)) && list_edge(r, &r->ins, e->tgt, e);
}

/* Move edge @e of placeholder 2 to end at @b, and add the edge from @b
 * to where @e ended. */
static int
reroute(rev *r, xf_cedge *e, xf_cvertex *b)
{
    xf_cvertex *tgt = e->tgt;
    e->tgt = b;
    xf_cedge *n = xf_graph_edge(r->doc, r->fwd, b, tgt, fresh_id(r, "_aug_e", &r->nfe), false, 0);
    return n && index_edge(r, e, true) && index_edge(r, n, false) ? 0 : oom(r);
}

/* A new block in placeholder 2 holding @s (NULL: none yet). */
static xf_cvertex *
fwd_block(rev *r, xf_stmt *s)
{
    xf_cvertex *b =
        xf_graph_vertex(r->doc, r->fwd, XF_CV_BASICBLOCK, fresh_id(r, "_aug_", &r->nfv));
    if (!b)
        return NULL;
    b->scope = r->rt->cfg_scope;
    return !s || XF_VEC_PUSH(r->doc->arena, b->stmts, s) ? b : NULL;
}

/* Put a new block holding @s on edge @e of placeholder 2 (e keeps its
 * condition value and now ends at the block). */
static int
split(rev *r, xf_cedge *e, xf_stmt *s)
{
    xf_cvertex *b = s ? fwd_block(r, s) : NULL;
    if (!b)
        return oom(r);
    return reroute(r, e, b);
}

/* ------------------------------------------------------------ placeholder 3 */

static xf_cvertex *
adj_vertex(rev *r, xf_cvkind kind)
{
    xf_cvertex *v = xf_graph_vertex(r->doc, r->adj, kind, fresh_id(r, "_adj_", &r->nav));
    if (v && kind == XF_CV_BASICBLOCK)
        v->scope = r->rt->cfg_scope;
    return v;
}

static int
attach(rev *r, link *l, xf_cvertex *v)
{
    if (!xf_graph_edge(r->doc, r->adj, l->from, v, fresh_id(r, "", &r->nae), l->has_cv, l->cv))
        return oom(r);
    *l = (link){.from = v};
    return 0;
}

/* A new adjoint block holding @s, attached at @l. */
static int
adj_block(rev *r, link *l, xf_stmt *s)
{
    xf_cvertex *b = adj_vertex(r, XF_CV_BASICBLOCK);
    if (!b || !s || !XF_VEC_PUSH(r->doc->arena, b->stmts, s))
        return oom(r);
    return attach(r, l, b);
}

/* adjoin's block for forward block @v, or NULL. */
static xf_cvertex *
mirror(rev *r, const xf_cvertex *v)
{
    return xf_map_get(&r->mirror.vmap, v->id);
}

/* ------------------------------------------------------------ structured */

/* r->has for every region of @t: a block with adjoint code, or a branch or
 * loop holding one (children before their parents: the pre-order backwards). */
static int
fill_has(rev *r, const xf_cfgtree *t)
{
    r->has = XF_NEW_ARRAY(r->a, t->all.n ? t->all.n : 1, bool);
    if (!r->has)
        return oom(r);
    memset(r->has, 0, (t->all.n ? t->all.n : 1) * sizeof *r->has);
    for (uint32_t i = t->all.n; i-- > 0;) {
        const xf_region *g = t->all.v[i];
        if (g->kind == XF_RG_BLOCK) {
            const xf_cvertex *m = mirror(r, g->v);
            r->has[i] = m && m->stmts.n > 0;
        }
        if (r->has[i] && g->parent)
            r->has[g->parent->index] = true;
    }
    return 0;
}

/* The edge by which arm @a of branch @g reaches its EndBranch. */
static xf_cedge *
arm_exit(rev *r, const xf_region *g, const xf_rgarm *a)
{
    if (!a->body.v.n)
        return (xf_cedge *)a->edge;
    const xf_region *last = a->body.v.v[a->body.v.n - 1];
    if (last->kind == XF_RG_LOOP)
        return (xf_cedge *)last->exit_edge;
    const xf_cvertex *from = last->kind == XF_RG_BLOCK ? last->v : last->end;
    const edgevec *out = edges_of(r, true, from);
    for (uint32_t j = 0; out && j < out->n; j++)
        if (out->v[j]->tgt == g->end)
            return out->v[j];
    return NULL;
}

/* May the condition of branch @g be evaluated again in the adjoint? When
 * it reads nothing but constants and the variables of the explicitly
 * reversed loops around it (which the adjoint runs backwards through the
 * same values), the arm taken need not be taped. */
static bool
cond_recomputable(const rev *r, const xf_region *g)
{
    const xf_expr *c = g->v->cond;
    if (!c || !c->v.n || !g->parent)
        return false;
    for (uint32_t k = 0; k < g->arms.n; k++)
        if (!g->arms.v[k].edge)
            return false;
    for (uint32_t j = 0; j < c->v.n; j++) {
        const xf_evertex *x = &c->v.v[j];
        if (x->kind == XF_EV_CONSTANT || x->kind == XF_EV_INTRINSIC || x->kind == XF_EV_BOOLOP)
            continue;
        if (x->kind != XF_EV_VARREF || xf_varref_arrref(x->u.ref))
            return false;
        const xf_symref *sr = xf_varref_symref(x->u.ref);
        if (!sr || !xf_loopscope_has(&r->loops, sr->sym))
            return false;
    }
    return true;
}

/* A branch or loop being reversed (NULL: the routine's top): the adjoint's
 * Branch or ForLoop @head and its end; the sequence @s whose regions are
 * reversed from the last to the first (@i of them left), attached at @l;
 * for a branch, the arm @arm that @s is, and whether the condition is
 * evaluated @again. */
typedef struct frame {
    const xf_region *g;
    xf_cvertex *head, *end;
    const xf_rgseq *s;
    uint32_t i, arm;
    link l;
    bool again;
} frame;

/* Start arm @f->arm of the branch of @f. */
static void
next_arm(frame *f)
{
    const xf_rgarm *a = &f->g->arms.v[f->arm];
    f->s = &a->body;
    f->i = a->body.v.n;
    f->l = f->again ? (link){.from = f->head, .has_cv = a->edge->has_cv, .cv = a->edge->cv}
                    : (link){.from = f->head, .has_cv = true, .cv = (int64_t)f->arm + 1};
}

/* The adjoint's Branch for @g, attached at @l, with what the forward sweep
 * tapes for it; @f is set to reverse its first arm. */
static int
open_branch(rev *r, const xf_region *g, link *l, frame *f)
{
    bool again = cond_recomputable(r, g);
    xf_symbol *t = again ? NULL : int_temp(r);
    if (!again && !t)
        return oom(r);
    xf_cvertex *br = adj_vertex(r, again ? g->v->kind : XF_CV_BRANCH),
               *end = adj_vertex(r, XF_CV_ENDBRANCH);
    if (!br || !end || !(br->cond = XF_NEW(r->doc->arena, xf_expr)))
        return oom(r);
    if (again) {
        /* the same condition and condition values; nothing taped */
        if (xf_expr_copy(r->doc, br->cond, g->v->cond, xf_expr_root(g->v->cond)) == UINT32_MAX ||
            attach(r, l, br))
            return oom(r);
    } else if (xf_expr_ref(r->doc, br->cond, var(r, t)) == UINT32_MAX ||
               adj_block(r, l, tape_int(r, false, t)) || attach(r, l, br)) {
        return oom(r);
    }
    /* forward: each arm pushes its number as it reaches the EndBranch, after
     * whatever its contents push (the blocks inner constructs add come before) */
    for (uint32_t k = 0; k < g->arms.n && !again; k++) {
        xf_cedge *e = arm_exit(r, g, &g->arms.v[k]);
        if (!e)
            return oom(r);
        if (split(r, e, push_const(r, (int64_t)k + 1)))
            return -1;
    }
    *f = (frame){.g = g, .head = br, .end = end, .again = again};
    if (g->arms.n)
        next_arm(f);
    return 0;
}

/* S of header @h into @x: the constant, or a copy of its expression. */
static uint32_t
step_expr(xf_doc *doc, xf_expr *x, const xf_loophead *h)
{
    return h->st_x ? xf_expr_copy(doc, x, h->st_x, h->st) : xf_expr_int(doc, x, h->step);
}

/* The reversed header: i = L + ((U' - L + S)/S - 1)*S; i >= L (S > 0),
 * i <= L (S < 0), or (i - L)*S >= 0 when only the run knows S's sign;
 * i = i - S. The last value the forward loop gave i comes first; a loop
 * that ran zero times starts below (above) L and runs zero times. */
static int
reversed_header(rev *r, const xf_loophead *h, xf_cvertex *loop)
{
    xf_doc *doc = r->doc;
    xf_expr init = {0};
    uint32_t u = xf_expr_copy(doc, &init, h->hi_x, h->hi);
    if (h->adjust)
        u = xf_expr_binary(doc, &init, "add_scal_scal", u, xf_expr_int(doc, &init, h->adjust));
    uint32_t l1 = xf_expr_copy(doc, &init, h->lo_x, h->lo);
    uint32_t t = xf_expr_binary(doc, &init, "sub_scal_scal", u, l1);
    t = xf_expr_binary(doc, &init, "add_scal_scal", t, step_expr(doc, &init, h));
    t = xf_expr_binary(doc, &init, "div_scal_scal", t, step_expr(doc, &init, h));
    t = xf_expr_binary(doc, &init, "sub_scal_scal", t, xf_expr_int(doc, &init, 1));
    t = xf_expr_binary(doc, &init, "mul_scal_scal", t, step_expr(doc, &init, h));
    uint32_t l2 = xf_expr_copy(doc, &init, h->lo_x, h->lo);
    if (xf_expr_binary(doc, &init, "add_scal_scal", l2, t) == UINT32_MAX)
        return oom(r);
    xf_varref *iv = var(r, h->i);
    loop->init = iv ? xf_stmt_assign(doc, "_cfr_reversed_init", iv, &init) : NULL;
    loop->cond = XF_NEW(doc->arena, xf_expr);
    if (!loop->init || !loop->cond)
        return oom(r);
    xf_expr *c = loop->cond;
    uint32_t ci = xf_expr_ref(doc, c, var(r, h->i));
    uint32_t cl = xf_expr_copy(doc, c, h->lo_x, h->lo);
    if (h->sign == 0) {
        /* (i - L)*S >= 0 */
        ci = xf_expr_binary(doc, c, "sub_scal_scal", ci, cl);
        ci = xf_expr_binary(doc, c, "mul_scal_scal", ci, step_expr(doc, c, h));
        cl = xf_expr_int(doc, c, 0);
    }
    uint32_t cop =
        xf_expr_op(doc, c, XF_EV_BOOLOP, h->sign >= 0 ? "greater_or_equal" : "less_or_equal");
    if (!xf_expr_edge(doc, c, ci, cop, 1) || !xf_expr_edge(doc, c, cl, cop, 2))
        return oom(r);
    if (h->st_x) {
        /* i = i - S */
        xf_expr up = {0};
        uint32_t a = xf_expr_ref(doc, &up, var(r, h->i)), b = step_expr(doc, &up, h);
        xf_varref *lhs = var(r, h->i);
        loop->update = lhs && xf_expr_binary(doc, &up, "sub_scal_scal", a, b) != UINT32_MAX
                           ? xf_stmt_assign(doc, "_cfr_reversed_update", lhs, &up)
                           : NULL;
    } else {
        loop->update = add_int(r, h->i, -h->step, "_cfr_reversed_update");
    }
    loop->reversal = XF_REVERSAL_EXPLICIT;
    return loop->update ? 0 : oom(r);
}

/* Does anything in the taping sweep write @s: an assignment, a loop
 * header, a call or an inlinable call that is passed it (but a push)? */
static bool
fwd_writes(const rev *r, const xf_symbol *s)
{
    for (uint32_t i = 0; i < r->fwd->v.n; i++) {
        const xf_cvertex *v = r->fwd->v.v[i];
        const xf_stmt *hs[2] = {v->init, v->update};
        for (uint32_t k = 0; k < v->stmts.n + 2; k++) {
            const xf_stmt *st = k < 2 ? hs[k] : v->stmts.v[k - 2];
            if (!st)
                continue;
            if (st->kind == XF_STMT_ASSIGN) {
                const xf_symref *l = xf_varref_symref(&st->u.as.lhs);
                if (!l || l->sym == s)
                    return true;
                continue;
            }
            if (st->kind == XF_STMT_ICALL && !strncmp(st->u.icall.name, "push", 4))
                continue;
            const xf_arg_vec *args = st->kind == XF_STMT_CALL    ? &st->u.call.args
                                     : st->kind == XF_STMT_ICALL ? &st->u.icall.args
                                                                 : NULL;
            for (uint32_t a = 0; args && a < args->n; a++)
                if (xf_expr_reads(&args->v[a].val, xf_expr_root(&args->v[a].val), s))
                    return true;
        }
    }
    return false;
}

/* Can the adjoint evaluate the bound at @v of @x again, before the loop
 * of variable @i? When it reads only constants, the variables of the
 * explicitly reversed loops around (which run through the same values)
 * and integer scalars of the routine's own that the taping sweep never
 * writes (a size passed in), it is not taped. */
static bool
bound_again(const rev *r, const xf_expr *x, uint32_t v, const xf_symbol *i, int depth)
{
    if (v >= x->v.n || depth > 64)
        return false;
    const xf_evertex *e = &x->v.v[v];
    if (e->kind == XF_EV_VARREF) {
        const xf_symref *sr = xf_varref_symref(e->u.ref);
        const xf_symbol *s = sr ? sr->sym : NULL;
        if (!s || xf_varref_arrref(e->u.ref) || s == i)
            return false;
        return xf_loopscope_has(&r->loops, s) ||
               (s->type == XF_TYPE_INTEGER && s->shape == XF_SHAPE_SCALAR &&
                s->scope == r->rt->cfg_scope && !fwd_writes(r, s));
    }
    if (e->kind != XF_EV_CONSTANT && e->kind != XF_EV_INTRINSIC)
        return false;
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].tgt == v && !bound_again(r, x, x->e.v[j].src, i, depth + 1))
            return false;
    return true;
}

/* Does a bound need the tape? Not when it reads no variable, nor when the
 * reversed header can evaluate it again (bound_again: sizes and the
 * enclosing reversed loops' variables), nor, under the joint template, when every variable it reads
 * is a scalar no statement of placeholder 2 writes (unwritten.h): the adjoint, in the same
 * activation, evaluates it again. -1 when out of memory. */
static int
taped(rev *r, const xf_expr *x, uint32_t v)
{
    if (!xf_expr_reads(x, v, NULL) || bound_again(r, x, v, NULL, 0))
        return 0;
    if (!r->joint)
        return 1;
    if (!r->filled && !xf_unwritten_fill(&r->unw, r->a, r->doc, r->rt, r->fwd))
        return oom(r);
    r->filled = true;
    return !xf_unwritten_expr(&r->unw, x, v);
}

/* A bound of an explicitly reversed loop that reads variables is taped:
 * placeholder 2 saves its value after the loop (block @after) and pushes
 * it; the adjoint pops it (into @pops) before the reversed loop and reads
 * the temporary. *@x, *@v then point at an expression holding that temporary. */
static int
tape_bound(rev *r, const xf_expr **x, uint32_t *v, xf_cvertex *after, xf_cvertex *pops)
{
    int need = taped(r, *x, *v);
    if (need <= 0)
        return need;
    xf_symbol *t = int_temp(r);
    xf_varref *lhs = t ? var(r, t) : NULL;
    xf_expr val = {0};
    xf_expr *use = XF_NEW(r->doc->arena, xf_expr);
    if (!lhs || !use || xf_expr_copy(r->doc, &val, *x, *v) == UINT32_MAX ||
        xf_expr_ref(r->doc, use, var(r, t)) == UINT32_MAX)
        return oom(r);
    xf_stmt *save = xf_stmt_assign(r->doc, "_cfr_bound", lhs, &val);
    xf_stmt *push = tape_int(r, true, t), *pop = tape_int(r, false, t);
    if (!save || !push || !pop || !XF_VEC_PUSH(r->doc->arena, after->stmts, save) ||
        !XF_VEC_PUSH(r->doc->arena, after->stmts, push))
        return oom(r);
    /* the pops run in the reverse order of the pushes */
    if (!XF_VEC_PUSH(r->doc->arena, pops->stmts, pop))
        return oom(r);
    for (uint32_t i = pops->stmts.n - 1; i > 0; i--) {
        xf_stmt *tmp = pops->stmts.v[i];
        pops->stmts.v[i] = pops->stmts.v[i - 1];
        pops->stmts.v[i - 1] = tmp;
    }
    *x = use;
    *v = 0;
    return 0;
}

/* for k = 1; k <= count; k = k + 1 */
static int
counting_header(rev *r, xf_cvertex *loop, xf_symbol *count)
{
    xf_symbol *k = int_temp(r);
    if (!k)
        return oom(r);
    loop->init = set_int(r, k, 1, "_cfr_loop_init");
    loop->update = add_int(r, k, 1, "_cfr_loop_update");
    loop->cond = XF_NEW(r->doc->arena, xf_expr);
    if (!loop->init || !loop->update || !loop->cond)
        return oom(r);
    uint32_t a = xf_expr_ref(r->doc, loop->cond, var(r, k));
    uint32_t b = xf_expr_ref(r->doc, loop->cond, var(r, count));
    uint32_t op = xf_expr_op(r->doc, loop->cond, XF_EV_BOOLOP, "less_or_equal");
    if (!xf_expr_edge(r->doc, loop->cond, a, op, 1) || !xf_expr_edge(r->doc, loop->cond, b, op, 2))
        return oom(r);
    loop->reversal = XF_REVERSAL_ANONYMOUS;
    return 0;
}

/* The adjoint's ForLoop for @g, attached at @l, with what the forward sweep
 * tapes for it; @f is set to reverse its body. */
static int
open_loop(rev *r, const xf_region *g, link *l, frame *f)
{
    xf_loophead h;
    xf_cvertex *loop = adj_vertex(r, XF_CV_FORLOOP), *end = adj_vertex(r, XF_CV_ENDLOOP);
    if (!loop || !end)
        return oom(r);
    if (xf_loop_explicit(g, &h)) {
        /* bounds and a stride that read variables: taped after the loop,
         * popped before it */
        int lo = taped(r, h.lo_x, h.lo), hi = taped(r, h.hi_x, h.hi),
            st = h.st_x ? taped(r, h.st_x, h.st) : 0;
        if (lo < 0 || hi < 0 || st < 0)
            return -1;
        if (lo || hi || st) {
            xf_cvertex *pops = adj_vertex(r, XF_CV_BASICBLOCK), *after = fwd_block(r, NULL);
            if (!pops || !after)
                return oom(r);
            if (reroute(r, (xf_cedge *)g->exit_edge, after) ||
                tape_bound(r, &h.lo_x, &h.lo, after, pops) ||
                tape_bound(r, &h.hi_x, &h.hi, after, pops) ||
                (h.st_x && tape_bound(r, &h.st_x, &h.st, after, pops)) || attach(r, l, pops))
                return oom(r);
        }
        if (reversed_header(r, &h, loop))
            return -1;
    } else {
        /* forward: count the iterations, push the count after the loop */
        xf_symbol *c = int_temp(r);
        if (!c)
            return oom(r);
        /* on every edge into the loop but its EndLoop's (the index lists
         * them in the graph's order, as they are now) */
        edgevec *in = edges_of(r, false, g->v);
        for (uint32_t j = 0, n = in ? in->n : 0; j < n; j++) {
            xf_cedge *e = in->v[j];
            if (e->tgt == g->v && e->src != g->end &&
                split(r, e, set_int(r, c, 0, "_cfr_count_init")))
                return -1;
        }
        if (split(r, (xf_cedge *)g->body_edge, add_int(r, c, 1, "_cfr_count")) ||
            split(r, (xf_cedge *)g->exit_edge, tape_int(r, true, c)))
            return -1;
        if (adj_block(r, l, tape_int(r, false, c)) || counting_header(r, loop, c))
            return -1;
    }
    if (attach(r, l, loop))
        return -1;
    *f = (frame){.g = g, .head = loop, .end = end, .s = &g->body, .i = g->body.v.n};
    f->l = (link){.from = loop, .has_cv = true, .cv = 1};
    return 0;
}

/* Build the adjoint of the regions of @t from @l on: the sequences from
 * their last region to their first, each branch and loop reversed around
 * its contents. The open branches and loops are on an explicit stack:
 * nesting is bounded by memory only. */
static int
reverse_tree(rev *r, const xf_cfgtree *t, link *l)
{
    XF_VEC(frame) st = {0};
    if (!XF_VEC_PUSH(r->a, st, ((frame){.s = &t->top, .i = t->top.v.n, .l = *l})))
        return oom(r);
    for (;;) {
        frame *f = &st.v[st.n - 1];
        if (f->i > 0) {
            const xf_region *g = f->s->v.v[--f->i];
            if (!r->has[g->index])
                continue;
            if (g->kind == XF_RG_BLOCK) {
                xf_cvertex *m = mirror(r, g->v);
                if (!xf_graph_adopt(r->doc, r->adj, m))
                    return oom(r);
                if (attach(r, &f->l, m))
                    return -1;
                continue;
            }
            frame in;
            if (!xf_loopscope_move(&r->loops, g))
                return oom(r);
            if (g->kind == XF_RG_BRANCH ? open_branch(r, g, &f->l, &in)
                                        : open_loop(r, g, &f->l, &in))
                return -1;
            if (!XF_VEC_PUSH(r->a, st, in))
                return oom(r);
            continue;
        }
        /* the sequence is done */
        if (!f->g) {
            *l = f->l;
            return 0;
        }
        if (attach(r, &f->l, f->end))
            return -1;
        if (f->g->kind == XF_RG_BRANCH && ++f->arm < f->g->arms.n) {
            next_arm(f);
            continue;
        }
        link after = {.from = f->end};
        if (f->g->kind == XF_RG_LOOP) {
            if (!xf_graph_edge(r->doc, r->adj, f->end, f->head, fresh_id(r, "", &r->nae), false, 0))
                return oom(r);
            after.from = f->head;
        }
        st.n--;
        st.v[st.n - 1].l = after;
    }
}

/* ------------------------------------------------------------ unstructured */

/* A graph the numbering cannot reverse, named to the user: @line of the
 * input, what is wrong. */
static int refuse(rev *r, uint32_t line, const char *fmt, ...) XF_PRINTF(3, 4);

static int
refuse(rev *r, uint32_t line, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    xf_error(r->ctx->diag, r->doc->filename, line,
             "adjoint of routine %s: %s; its control flow cannot be reversed",
             r->rt->sym && r->rt->sym->id ? r->rt->sym->id : "?", what);
    return -1;
}

static const char *
str(const char *s)
{
    return s ? s : "?";
}

static bool
one_successor(xf_cvkind k)
{
    switch (k) {
    case XF_CV_ENTRY:
    case XF_CV_BASICBLOCK:
    case XF_CV_ENDBRANCH:
    case XF_CV_ENDLOOP:
    case XF_CV_LABEL:
    case XF_CV_GOTO:
        return true;
    case XF_CV_EXIT:
    case XF_CV_BRANCH:
    case XF_CV_IF:
    case XF_CV_FORLOOP:
    case XF_CV_PRELOOP:
    case XF_CV_POSTLOOP:
        return false;
    }
    return false;
}

/* Is the forward graph one the numbering reverses? The forward sweep must
 * run the blocks the original runs, and its 0 must mark the start of the
 * routine's run only: one Entry, no edge back into it, every edge between
 * two vertices, and no vertex the run may reach with several out-edges
 * but no condition to choose one. *@entry: the Entry,
 * or NULL for a graph without one (nothing runs, nothing to reverse). */
static int
numbered_check(rev *r, xf_cvertex **entry)
{
    const xf_graph *g = r->fwd;
    *entry = NULL;
    for (uint32_t i = 0; i < g->v.n; i++) {
        xf_cvertex *v = g->v.v[i];
        if (v->kind != XF_CV_ENTRY)
            continue;
        if (*entry)
            return refuse(r, v->h.line, "a second Entry vertex, %s (the first is %s)", str(v->id),
                          str((*entry)->id));
        *entry = v;
    }
    for (uint32_t j = 0; j < g->e.n; j++) {
        const xf_cedge *e = g->e.v[j];
        if (!e->src || !e->tgt)
            return refuse(r, e->h.line, "control-flow edge %s has no %s vertex", str(e->id),
                          e->src ? "target" : "source");
        if (e->tgt == *entry)
            return refuse(r, e->h.line,
                          "control-flow edge %s leads back into Entry vertex %s (a jump to the "
                          "start of the routine)",
                          str(e->id), str(e->tgt->id));
    }
    if (!*entry)
        return 0;
    /* out-edges by source: out[first[i] .. first[i+1]) */
    uint32_t n = g->v.n, sp = 0;
    uint32_t *first = XF_NEW_ARRAY(r->a, n + 1, uint32_t);
    uint32_t *fill = XF_NEW_ARRAY(r->a, n ? n : 1, uint32_t);
    uint32_t *stack = XF_NEW_ARRAY(r->a, n ? n : 1, uint32_t);
    const xf_cedge **out = XF_NEW_ARRAY(r->a, g->e.n ? g->e.n : 1, const xf_cedge *);
    uint8_t *seen = XF_NEW_ARRAY(r->a, n ? n : 1, uint8_t);
    if (!first || !fill || !stack || !out || !seen)
        return oom(r);
    memset(first, 0, (n + 1) * sizeof *first);
    memset(fill, 0, (n ? n : 1) * sizeof *fill);
    memset(seen, 0, n ? n : 1);
    for (uint32_t i = 0; i < n; i++)
        g->v.v[i]->index = i;
    for (uint32_t j = 0; j < g->e.n; j++)
        first[g->e.v[j]->src->index + 1]++;
    for (uint32_t i = 0; i < n; i++)
        first[i + 1] += first[i];
    for (uint32_t j = 0; j < g->e.n; j++) {
        uint32_t i = g->e.v[j]->src->index;
        out[first[i] + fill[i]++] = g->e.v[j];
    }
    stack[sp++] = (*entry)->index;
    seen[(*entry)->index] = 1;
    while (sp) {
        uint32_t i = stack[--sp];
        const xf_cvertex *v = g->v.v[i];
        uint32_t deg = first[i + 1] - first[i];
        /* a dead end (no out-edge) stops the run, in the interpreter too;
         * two ways out of a vertex without a condition have no meaning */
        if (one_successor(v->kind) && deg > 1)
            return refuse(r, v->h.line, "%s vertex %s has %u out-edges, not one",
                          xf_cvkind_name(v->kind), str(v->id), deg);
        for (uint32_t k = first[i]; k < first[i + 1]; k++) {
            uint32_t t = out[k]->tgt->index;
            if (!seen[t]) {
                seen[t] = 1;
                stack[sp++] = t;
            }
        }
    }
    return 0;
}

/* Every block with adjoint code pushes its number after it; the adjoint pops
 * numbers and dispatches until it pops 0. */
static int
reverse_numbered(rev *r, link *l)
{
    xf_cvertex *entry;
    if (numbered_check(r, &entry))
        return -1;
    uint32_t blocks = 0;
    for (uint32_t i = 0; i < r->fwd->v.n && entry; i++) {
        xf_cvertex *m = r->fwd->v.v[i]->kind == XF_CV_BASICBLOCK ? mirror(r, r->fwd->v.v[i]) : NULL;
        blocks += m && m->stmts.n;
    }
    if (!blocks)
        return 0; /* no adjoint code: nothing to tape, nothing to dispatch */
    xf_symbol *t = int_temp(r);
    if (!t)
        return oom(r);
    xf_cvertex *loop = adj_vertex(r, XF_CV_PRELOOP), *end = adj_vertex(r, XF_CV_ENDLOOP);
    xf_cvertex *br = adj_vertex(r, XF_CV_BRANCH), *join = adj_vertex(r, XF_CV_ENDBRANCH);
    if (!loop || !end || !br || !join)
        return oom(r);
    loop->cond = XF_NEW(r->doc->arena, xf_expr);
    br->cond = XF_NEW(r->doc->arena, xf_expr);
    if (!loop->cond || !br->cond || xf_expr_ref(r->doc, br->cond, var(r, t)) == UINT32_MAX)
        return oom(r);
    uint32_t a = xf_expr_ref(r->doc, loop->cond, var(r, t));
    uint32_t z = xf_expr_int(r->doc, loop->cond, 0);
    uint32_t ne = xf_expr_op(r->doc, loop->cond, XF_EV_BOOLOP, "not_equal");
    if (!xf_expr_edge(r->doc, loop->cond, a, ne, 1) || !xf_expr_edge(r->doc, loop->cond, z, ne, 2))
        return oom(r);
    /* forward: 0 where the routine starts, a block's number after it */
    uint32_t nv = r->fwd->v.n;
    edgevec *out = edges_of(r, true, entry);
    for (uint32_t j = 0, n = out ? out->n : 0; j < n; j++)
        if (split(r, out->v[j], push_const(r, 0)))
            return -1;
    if (adj_block(r, l, tape_int(r, false, t)) || attach(r, l, loop))
        return -1;
    link body = {.from = loop, .has_cv = true, .cv = 1};
    if (attach(r, &body, br))
        return -1;
    int64_t number = 0;
    for (uint32_t i = 0; i < nv; i++) {
        xf_cvertex *v = r->fwd->v.v[i];
        xf_cvertex *m = v->kind == XF_CV_BASICBLOCK ? mirror(r, v) : NULL;
        if (!m || !m->stmts.n)
            continue;
        number++;
        out = edges_of(r, true, v);
        for (uint32_t j = 0, n = out ? out->n : 0; j < n; j++)
            if (split(r, out->v[j], push_const(r, number)))
                return -1;
        if (!xf_graph_adopt(r->doc, r->adj, m))
            return oom(r);
        link arm = {.from = br, .has_cv = true, .cv = number};
        if (attach(r, &arm, m) || attach(r, &arm, join))
            return -1;
    }
    link after = {.from = join};
    if (adj_block(r, &after, tape_int(r, false, t)) || attach(r, &after, end) ||
        !xf_graph_edge(r->doc, r->adj, end, loop, fresh_id(r, "", &r->nae), false, 0))
        return oom(r);
    *l = (link){.from = loop};
    return 0;
}

/* ------------------------------------------------------------ routines */

static int
routine(rev *r, xf_routine *rt)
{
    xf_replacement *p2 = xf_placeholder(rt, "2"), *p3 = xf_placeholder(rt, "3");
    if (!p2 || !p3 || !p2->g.v.n)
        return 0;
    r->rt = rt;
    r->fwd = &p2->g;
    r->adj = &p3->g;
    r->nfv = r->nfe = r->nav = r->nae = 0;
    r->joint = xf_revjoint(r->ctx, rt);
    r->filled = false;
    /* adjoin's blocks move into the graph as the reversal reaches them */
    r->mirror = p3->g;
    memset(&p3->g, 0, sizeof p3->g);
    memset(&r->outs, 0, sizeof r->outs);
    memset(&r->ins, 0, sizeof r->ins);
    for (uint32_t j = 0; j < r->fwd->e.n; j++)
        if (!index_edge(r, r->fwd->e.v[j], false))
            return oom(r);
    xf_loopscope_init(&r->loops, r->a);
    xf_cfgtree t;
    bool structured = xf_cfgtree_parse(r->fwd, r->a, &t);
    if (structured && fill_has(r, &t))
        return -1;
    xf_cvertex *entry = adj_vertex(r, XF_CV_ENTRY), *exit = adj_vertex(r, XF_CV_EXIT);
    if (!entry || !exit)
        return oom(r);
    link l = {.from = entry};
    if (structured ? reverse_tree(r, &t, &l) : reverse_numbered(r, &l))
        return -1;
    if (attach(r, &l, exit))
        return -1;
    /* the schema wants a graph's vertices before its edges */
    xf_graph_renumber(r->fwd);
    xf_graph_renumber(r->adj);
    return 0;
}

/* The temporaries' counter runs over the document: state from begin to end. */
static int
begin(xf_pass_ctx *ctx)
{
    return (ctx->state = calloc(1, sizeof(rev))) ? 0 : xf_pass_oom(ctx);
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    rev *r = ctx->state;
    if (!rt->is_rlist)
        return 0;
    r->ctx = ctx;
    r->doc = ctx->doc;
    r->a = ctx->scratch;
    int ret = routine(r, rt);
    r->a = NULL;
    return ret;
}

static void
end(xf_pass_ctx *ctx)
{
    free(ctx->state);
}

static const char *const after[] = {"adjoin", NULL};

const xf_pass xf_pass_reverse = {
    .name = "reverse",
    .summary = "control-flow reversal: the adjoint sweep's control flow, and its taping",
    .help = "Builds placeholder 3's control flow around adjoin's blocks, in reverse: a\n"
            "branch pops the number of the arm the forward run took (which placeholder 2\n"
            "now pushes), a loop pops its iteration count and runs that many times (a\n"
            "ForLoop marked explicit runs its variable backwards instead, nothing taped).\n"
            "Branches and loops without adjoint code are left out. Unstructured graphs\n"
            "(gotos, early returns, exits from loops, loops entered in the middle) push\n"
            "each block's number and dispatch on it in a loop. Refused (an error naming\n"
            "the routine): an edge back into Entry, a second Entry, an edge without its\n"
            "vertices, a vertex with several out-edges and no condition.\n",
    .after = after,
    .once = true,
    .run_routine = run_routine,
    .begin = begin,
    .end = end,
};
