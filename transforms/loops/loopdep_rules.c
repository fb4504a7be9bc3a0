/* loopdep_rules.c: see loopdep.h. Per loop, the accesses of one iteration (the
 * header's test, then the body) are gathered by loopdep_walk.c; then:
 *
 *  - the loop variable must not be assigned in the body;
 *  - a call whose effects are unknown makes the iterations dependent;
 *  - a variable whose every access is an additive update (s = s + e,
 *    r(v) = r(v) + e, whatever the subscripts) is a reduction: increments
 *    commute, so it carries no order between iterations (F4);
 *  - a scalar written in the body and read before the iteration writes it
 *    carries a value from one iteration to the next;
 *  - for an array written in the body, every pair (write, access) must
 *    fall on different elements in different iterations: some dimension
 *    whose subscripts are c*i + k with the same c != 0 and k (the same
 *    element only in the same iteration), or constants that differ. The
 *    same c and a k that differs by a multiple of c is a dependence at that
 *    distance; anything else (a(conn(i)), a(j) with j assigned in the
 *    loop, a whole array) is a dependence the subscripts cannot exclude;
 *  - a variable written and another variable that the alias map lets
 *    share its storage are dependent.
 *
 * Terminal: the code that runs after the loop before the routine returns
 * (the rest of each enclosing sequence; for an enclosing loop, its update,
 * test and whole body again) must not read, before writing it as a whole,
 * a variable the loop writes; a loop that writes an output of the routine
 * (a formal not of intent in, a global) is terminal in joint reversal only,
 * where the routine's adjoint follows its taping sweep at once, unless no
 * call of the document calls the routine: the top routine's driver runs
 * its adjoint right after its taping sweep in both reversals. */
#include <stdlib.h>
#include <string.h>

#include "loopdep_impl.h"
#include "pass.h"

typedef struct ld {
    ld_walk w;
    const xf_doc *doc;
    const xf_routine *rt;
    xf_arena *a;
    uint32_t *head, *tail;          /* by symbol index: its accesses' chain; UINT32_MAX: none */
    uint8_t *wrote;                 /* by symbol index: written by the loop */
    bool called;                    /* some call of the document calls the routine */
    XF_VEC(const xf_symbol *) syms; /* the symbols met, in order of first access */
    /* after_loop's storage, kept from one loop to the next */
    XF_VEC(ld_acc) after;
    XF_VEC(const ld_acc *) writes;
} ld;

/* ---- subscripts as affine functions of the loop variable */

enum { LIN_TERMS = 4 };

typedef struct lin {
    int64_t ci, c; /* ci * i + c + the terms */
    int nr;
    const xf_symbol *rs[LIN_TERMS]; /* loop-invariant variables, by symbol index */
    int64_t rc[LIN_TERMS];
} lin;

static bool
lin_add_term(lin *l, const xf_symbol *s, int64_t k)
{
    for (int j = 0; j < l->nr; j++)
        if (l->rs[j] == s) {
            l->rc[j] += k;
            return true;
        }
    if (l->nr == LIN_TERMS)
        return false;
    int j = l->nr++;
    while (j > 0 && l->rs[j - 1]->index > s->index) {
        l->rs[j] = l->rs[j - 1];
        l->rc[j] = l->rc[j - 1];
        j--;
    }
    l->rs[j] = s;
    l->rc[j] = k;
    return true;
}

static bool
lin_sum(lin *l, const lin *m, int64_t k)
{
    l->ci += k * m->ci;
    l->c += k * m->c;
    for (int j = 0; j < m->nr; j++)
        if (!lin_add_term(l, m->rs[j], k * m->rc[j]))
            return false;
    return true;
}

static bool
lin_const(const lin *l)
{
    for (int j = 0; j < l->nr; j++)
        if (l->rc[j])
            return false;
    return l->ci == 0;
}

static bool
lin_of(const ld *L, const xf_expr *x, uint32_t v, const xf_symbol *i, lin *out, int depth)
{
    memset(out, 0, sizeof *out);
    if (v >= x->v.n || depth > 64)
        return false;
    const xf_evertex *ev = &x->v.v[v];
    switch (ev->kind) {
    case XF_EV_CONSTANT: {
        if (ev->u.c.type != XF_TYPE_INTEGER)
            return false;
        char *end;
        out->c = strtoll(ev->u.c.value, &end, 10);
        return *ev->u.c.value && !*end;
    }
    case XF_EV_VARREF: {
        const xf_symref *s = xf_varref_symref(ev->u.ref);
        if (!s || !s->sym || xf_varref_arrref(ev->u.ref))
            return false;
        if (s->sym == i) {
            out->ci = 1;
            return true;
        }
        /* a variable the loop assigns changes between iterations */
        if (s->sym->index >= L->w.nsyms || L->wrote[s->sym->index])
            return false;
        return lin_add_term(out, s->sym, 1);
    }
    case XF_EV_INTRINSIC: {
        const char *op = ev->u.in.name;
        uint32_t a = xf_expr_operand(x, v, 1), b = xf_expr_operand(x, v, 2);
        lin p, q;
        if (!op || !lin_of(L, x, a, i, &p, depth + 1))
            return false;
        if (!strcmp(op, "minus_scal"))
            return lin_sum(out, &p, -1);
        if (!lin_of(L, x, b, i, &q, depth + 1))
            return false;
        if (!strcmp(op, "add_scal_scal") || !strcmp(op, "sub_scal_scal"))
            return lin_sum(out, &p, 1) && lin_sum(out, &q, op[0] == 's' ? -1 : 1);
        if (!strcmp(op, "mul_scal_scal") && (lin_const(&p) || lin_const(&q)))
            return lin_const(&p) ? lin_sum(out, &q, p.c) : lin_sum(out, &p, q.c);
        return false;
    }
    default:
        return false;
    }
}

static bool
lin_same_terms(const lin *p, const lin *q)
{
    lin d = *p;
    if (!lin_sum(&d, q, -1))
        return false;
    for (int j = 0; j < d.nr; j++)
        if (d.rc[j])
            return false;
    return true;
}

/* Can @p and @q, accesses of one array, meet in two different iterations?
 * 0: no; 1: at distance *@dist; 2: the subscripts cannot tell; 3: yes,
 * both name one element, the same in every iteration. */
static int
meet(const ld *L, const ld_acc *p, const ld_acc *q, const xf_symbol *i, int64_t *dist)
{
    const xf_arrref *a = p->ref ? xf_varref_arrref(p->ref) : NULL;
    const xf_arrref *b = q->ref ? xf_varref_arrref(q->ref) : NULL;
    if (!a || !b || a->t.n != b->t.n)
        return 2;
    int verdict = 2;
    bool same = true; /* every dimension one invariant subscript */
    for (uint32_t d = 0; d < a->t.n; d++) {
        const xf_triplet *s = &a->t.v[d], *t = &b->t.v[d];
        lin u, v;
        if (s->bound || s->stride || t->bound || t->stride || !s->index || !t->index ||
            !lin_of(L, s->index, xf_expr_root(s->index), i, &u, 0) ||
            !lin_of(L, t->index, xf_expr_root(t->index), i, &v, 0) || !lin_same_terms(&u, &v) ||
            u.ci != v.ci) {
            same = false;
            continue;
        }
        same = same && u.ci == 0;
        if (u.ci == 0) {
            if (u.c != v.c)
                return 0; /* different constants: never the same element */
            continue;
        }
        int64_t k = u.c - v.c;
        if (k == 0 || k % u.ci != 0)
            return 0;     /* the same element only in the same iteration, or never */
        *dist = k / u.ci; /* @q's iteration minus @p's */
        verdict = 1;
    }
    return verdict == 2 && same ? 3 : verdict;
}

/* ---- one loop */

static void
found(xf_loopdep *d, xf_ldwhy why, const ld_acc *a, const ld_acc *b)
{
    if (!d->parallel)
        return; /* the first dependence found is the one reported */
    d->parallel = false;
    d->why = why;
    if (a)
        d->dep_a = (xf_ldref){a->sym, a->ref, a->line};
    if (b)
        d->dep_b = (xf_ldref){b->sym, b->ref, b->line};
}

static bool
chain(ld *L)
{
    for (uint32_t k = 0; k < L->w.acc.n; k++) {
        ld_acc *c = &L->w.acc.v[k];
        uint32_t s = c->sym->index;
        if (s >= L->w.nsyms)
            continue;
        if (L->head[s] == UINT32_MAX) {
            L->head[s] = k;
            if (!XF_VEC_PUSH(L->a, L->syms, c->sym))
                return false;
        } else
            L->w.acc.v[L->tail[s]].next = k;
        L->tail[s] = k;
        if (c->write)
            L->wrote[s] = 1;
    }
    return true;
}

static void
unchain(ld *L)
{
    for (uint32_t k = 0; k < L->syms.n; k++) {
        uint32_t s = L->syms.v[k]->index;
        L->head[s] = L->tail[s] = UINT32_MAX;
        L->wrote[s] = 0;
    }
    L->syms.n = 0;
}

static bool called_in(const xf_graph *g, const xf_routine *rt);

/* Does a call graph edge, a call or a function call of @doc name @rt?
 * (A routine nobody calls is the top: its driver runs the taping sweep
 * and then the adjoint, with nothing in between.) */
static bool
called(const xf_doc *doc, const xf_routine *rt)
{
    for (uint32_t k = 0; k < doc->cg.edges.n; k++)
        if (doc->cg.edges.v[k].tgt == rt)
            return true;
    for (uint32_t r = 0; r < doc->cg.routines.n; r++) {
        const xf_routine *c = doc->cg.routines.v[r];
        for (uint32_t p = 0; p < (c->is_rlist ? c->reps.n : 1); p++) {
            const xf_graph *g = c->is_rlist ? &c->reps.v[p]->g : &c->g;
            if (called_in(g, rt))
                return true;
        }
    }
    return false;
}

/* Does a call or a function call of @g name @rt? */
static bool
called_in(const xf_graph *g, const xf_routine *rt)
{
    for (uint32_t v = 0; v < g->v.n; v++)
        for (uint32_t k = 0; k < g->v.v[v]->stmts.n; k++) {
            const xf_stmt *st = g->v.v[v]->stmts.v[k];
            if (st->kind == XF_STMT_CALL && st->u.call.sym == rt->sym)
                return true;
            if (st->kind != XF_STMT_ASSIGN)
                continue;
            for (uint32_t j = 0; j < st->u.as.rhs.v.n; j++)
                if (st->u.as.rhs.v.v[j].kind == XF_EV_FUNCALL &&
                    st->u.as.rhs.v.v[j].u.fn.sym == rt->sym)
                    return true;
        }
    return false;
}

static bool
is_output(const xf_routine *rt, const xf_symbol *s)
{
    for (uint32_t i = 0; i < rt->args.n; i++)
        if (rt->args.v[i].sym == s)
            return rt->args.v[i].intent != XF_INTENT_IN;
    return s->scope != rt->cfg_scope;
}

/* The first access of the chain from @h that reads, other than by an
 * additive update, a value from before the loop (xf_loopdep's
 * input_rewritten), or NULL. */
static const ld_acc *
read_before(const ld_acc *acc, uint32_t h)
{
    for (uint32_t k = h; k != UINT32_MAX; k = acc[k].next)
        if (!acc[k].write && !acc[k].reduction && acc[k].exposed && !acc[k].fresh)
            return &acc[k];
    return NULL;
}

/* The dependences between the iterations of the loop whose accesses L holds, into @d. */
static bool
iterations(ld *L, xf_loopdep *d)
{
    const xf_symbol *i = d->index;
    ld_acc *acc = L->w.acc.v;
    for (uint32_t k = 0; k < L->w.acc.n && i; k++)
        if (acc[k].sym == i && acc[k].write)
            found(d, XF_LD_INDEX_WRITTEN, &acc[k], NULL);
    if (L->w.unknown_call && d->parallel) {
        d->parallel = false;
        d->why = XF_LD_CALL;
        d->callee = L->w.unknown_call;
        d->dep_a.line = L->w.unknown_line;
    }
    for (uint32_t n = 0; n < L->syms.n; n++) {
        const xf_symbol *s = L->syms.v[n];
        xf_type ty = s->type;
        const ld_acc *pre =
            s != i && L->wrote[s->index] ? read_before(acc, L->head[s->index]) : NULL;
        if (pre && !d->input_rewritten.sym)
            d->input_rewritten = (xf_ldref){s, pre->ref, pre->line};
        if ((!L->wrote[s->index] || pre) && !d->local_input.sym && s->scope == L->rt->cfg_scope &&
            !xf_is_formal(L->rt, s) &&
            (ty == XF_TYPE_REAL || ty == XF_TYPE_DOUBLE || ty == XF_TYPE_COMPLEX)) {
            const ld_acc *c = pre ? pre : &acc[L->head[s->index]];
            d->local_input = (xf_ldref){s, c->ref, c->line};
        }
        if (s == i || !L->wrote[s->index])
            continue;
        uint32_t h = L->head[s->index], all = 0, red = 0;
        for (uint32_t k = h; k != UINT32_MAX; k = acc[k].next)
            all++, red += acc[k].reduction;
        if (red == all) {
            if (!XF_VEC_PUSH(L->a, d->reductions, ((xf_ldref){s, acc[h].ref, acc[h].line})))
                return false;
            continue;
        }
        bool array = xf_shape_rank(s->shape) > 0;
        for (uint32_t k = h; k != UINT32_MAX && !array; k = acc[k].next)
            array = acc[k].ref && xf_varref_arrref(acc[k].ref);
        if (!array) {
            const ld_acc *rd = NULL, *wr = NULL;
            for (uint32_t k = h; k != UINT32_MAX; k = acc[k].next) {
                if (!acc[k].write && acc[k].exposed && !rd)
                    rd = &acc[k];
                if (acc[k].write && !wr)
                    wr = &acc[k];
            }
            if (rd)
                found(d, XF_LD_SCALAR, wr, rd);
            continue;
        }
        for (uint32_t p = h; p != UINT32_MAX && d->parallel; p = acc[p].next) {
            if (!acc[p].write)
                continue;
            for (uint32_t q = h; q != UINT32_MAX; q = acc[q].next) {
                int64_t dist = 0;
                int m = meet(L, &acc[p], &acc[q], i, &dist);
                if (m == 0)
                    continue;
                found(d, m == 1 ? XF_LD_OFFSET : XF_LD_SUBSCRIPT, &acc[p], &acc[q]);
                d->distance = dist;
                d->same_element = m == 3;
                break;
            }
        }
    }
    /* storage shared by two variables, one of them written */
    if (L->doc->cg.alias.sets.n > 1)
        for (uint32_t p = 0; p < L->w.acc.n && d->parallel; p++) {
            if (!acc[p].write || !acc[p].ref)
                continue;
            for (uint32_t q = 0; q < L->w.acc.n; q++)
                if (acc[q].sym != acc[p].sym && acc[q].ref &&
                    xf_refs_may_alias(L->doc, acc[p].ref, acc[q].ref)) {
                    found(d, XF_LD_ALIAS, &acc[p], &acc[q]);
                    break;
                }
        }
    return true;
}

/* The sequence that holds @r, and @r's place in it. */
static const xf_rgseq *
holder(const xf_cfgtree *t, const xf_region *r, uint32_t *at)
{
    const xf_region *p = r->parent;
    const xf_rgseq *s = &t->top;
    if (p && p->kind == XF_RG_LOOP)
        s = &p->body;
    else if (p)
        for (uint32_t k = 0; k < p->arms.n; k++)
            for (uint32_t j = 0; j < p->arms.v[k].body.v.n; j++)
                if (p->arms.v[k].body.v.v[j] == r)
                    s = &p->arms.v[k].body;
    for (uint32_t j = 0; j < s->v.n; j++)
        if (s->v.v[j] == r)
            *at = j;
    return s;
}

/* What the accesses after loop @d (in L->w.acc; the loop's own in
 * @saved[0..@nsaved)) tell: what is written after it, whether it is
 * terminal. */
static void
after_facts(ld *L, xf_loopdep *d, const ld_acc *saved, uint32_t nsaved)
{
    for (uint32_t k = 0; k < L->w.acc.n; k++) {
        const ld_acc *c = &L->w.acc.v[k];
        xf_type ty = c->sym->type;
        if (!c->write || c->sym->index >= L->w.nsyms || L->head[c->sym->index] == UINT32_MAX)
            continue;
        bool listed = c->sym == d->index;
        for (uint32_t j = 0; j < d->written_after.n && !listed; j++)
            listed = d->written_after.v[j] == c->sym;
        if (!listed && !XF_VEC_PUSH(L->a, d->written_after, c->sym))
            L->w.oom = true;
        if (!d->after_write.sym &&
            (ty == XF_TYPE_REAL || ty == XF_TYPE_DOUBLE || ty == XF_TYPE_COMPLEX))
            d->after_write = (xf_ldref){c->sym, c->ref, c->line};
        /* a value the loop reads from before it (not an increment's) */
        bool array = xf_shape_rank(c->sym->shape) > 0;
        for (uint32_t j = L->head[c->sym->index]; j != UINT32_MAX && !d->input_overwritten.sym;
             j = saved[j].next)
            if (!saved[j].write && !saved[j].reduction && (array || saved[j].exposed))
                d->input_overwritten = (xf_ldref){c->sym, c->ref, c->line};
    }
    d->terminal = XF_LT_YES;
    for (uint32_t k = 0; k < L->w.acc.n && d->terminal == XF_LT_YES; k++) {
        const ld_acc *c = &L->w.acc.v[k];
        if (c->write || !c->exposed)
            continue;
        bool hit = c->sym->index < L->w.nsyms && L->wrote[c->sym->index];
        for (uint32_t j = 0; j < L->writes.n && !hit && c->ref; j++)
            hit = L->writes.v[j]->sym != c->sym &&
                  xf_refs_may_alias(L->doc, L->writes.v[j]->ref, c->ref);
        if (hit) {
            d->terminal = XF_LT_READ_AFTER;
            d->used = (xf_ldref){c->sym, c->ref, c->line};
        }
    }
    for (uint32_t n = 0; n < L->syms.n && d->terminal == XF_LT_YES; n++) {
        const xf_symbol *s = L->syms.v[n];
        if (L->wrote[s->index] && is_output(L->rt, s) && L->called) {
            d->terminal = XF_LT_OUTPUT;
            d->used = (xf_ldref){s, NULL, XF_NOINT};
            for (uint32_t k = 0; k < nsaved; k++)
                if (saved[k].sym == s && saved[k].write) {
                    d->used = (xf_ldref){s, saved[k].ref, saved[k].line};
                    break;
                }
        }
    }
}

/* Is loop @r terminal, and what does the code after it write? The loop's
 * writes are in L->wrote (chained). With @in_iter, "after it" is the rest
 * of the enclosing loop's iteration only. */
static void
after_loop(ld *L, const xf_cfgtree *t, const xf_region *r, xf_loopdep *d, bool in_iter)
{
    L->writes.n = 0;
    for (uint32_t k = 0; k < L->w.acc.n; k++)
        if (L->w.acc.v[k].write && L->w.acc.v[k].ref)
            if (!XF_VEC_PUSH(L->a, L->writes, &L->w.acc.v[k]))
                L->w.oom = true;
    if (L->w.oom)
        return;
    /* the loop's accesses stay in 'saved'; the walk gathers what follows
     * in L->after (one vector for every loop: the scratch arena does not
     * grow with the number of loops) */
    ld_acc *saved = L->w.acc.v;
    uint32_t nsaved = L->w.acc.n, capsaved = L->w.acc.cap;
    L->w.acc.v = L->after.v;
    L->w.acc.cap = L->after.cap;
    L->w.acc.n = 0;
    ld_walk_undo(&L->w, 0);
    /* Each enclosing loop's body is walked once: when the walk climbs from
     * loop p to the loop around it, p's test, body and update are already
     * in the accesses, so the outer body's walk skips them (ld_walk.skip).
     * A loop at depth D then costs one walk of its outermost loop, not D. */
    L->w.skip = NULL;
    for (const xf_region *c = r; c && !L->w.oom && !L->w.over;) {
        uint32_t at = 0;
        const xf_rgseq *s = holder(t, c, &at);
        ld_walk_seq(&L->w, s, at + 1);
        const xf_region *p = c->parent;
        if (p && p->kind == XF_RG_LOOP && in_iter)
            break;
        if (p && p->kind == XF_RG_LOOP) {
            /* the enclosing loop's next iteration */
            if (p->v->kind == XF_CV_FORLOOP)
                ld_walk_stmt(&L->w, p->v->update, p->v->lineno);
            if (p->v->cond)
                ld_walk_expr(&L->w, p->v->cond, p->v->lineno);
            uint32_t n = L->w.log.n;
            ld_walk_seq(&L->w, &p->body, 0);
            ld_walk_undo(&L->w, n);
            L->w.skip = p;
        }
        c = p;
    }
    L->w.skip = NULL;
    if (!L->w.oom && !L->w.over)
        after_facts(L, d, saved, nsaved);
    L->after.v = L->w.acc.v;
    L->after.cap = L->w.acc.cap;
    L->w.acc.v = saved;
    L->w.acc.n = nsaved;
    L->w.acc.cap = capsaved;
}

static void
terminal(ld *L, const xf_cfgtree *t, const xf_region *r, xf_loopdep *d)
{
    after_loop(L, t, r, d, false);
    d->terminal_in = d->terminal;
    d->after_write_in = d->after_write;
    d->written_after_in = d->written_after;
    const xf_region *p = r->parent;
    while (p && p->kind != XF_RG_LOOP)
        p = p->parent;
    if (!p)
        return;
    xf_loopdep in = *d;
    in.used = in.after_write = in.input_overwritten = (xf_ldref){0};
    memset(&in.written_after, 0, sizeof in.written_after);
    after_loop(L, t, r, &in, true);
    d->terminal_in = in.terminal;
    d->after_write_in = in.after_write;
    d->written_after_in = in.written_after;
}

static unsigned
depth_of(const xf_region *r)
{
    unsigned n = 0;
    for (const xf_region *p = r->parent; p; p = p->parent)
        n += p->kind == XF_RG_LOOP;
    return n;
}

/* The work budget ran out in loop @r: its entry, unanalysed, ends @out. */
static int
over_budget(ld *L, const xf_region *r, xf_loopdep_vec *out)
{
    xf_loopdep d = {.rt = L->rt, .v = r->v, .why = XF_LD_UNSTRUCTURED, .terminal = XF_LT_UNKNOWN};
    return XF_VEC_PUSH(L->a, *out, d) ? XF_LOOPDEP_BUDGET : -1;
}

static int
one_loop(ld *L, const xf_cfgtree *t, const xf_region *r, xf_loopdep_vec *out)
{
    xf_loopdep d = {
        .rt = L->rt, .v = r->v, .depth = depth_of(r), .parallel = true, .called = L->called};
    xf_loophead h;
    if (r->v->kind == XF_CV_FORLOOP && r->v->init && r->v->init->kind == XF_STMT_ASSIGN) {
        const xf_symref *s = xf_varref_symref(&r->v->init->u.as.lhs);
        d.index = xf_loop_header(r->v, &h) ? h.i : s ? s->sym : NULL;
    }
    ld_walk_reset(&L->w);
    /* one iteration: the test (with the loop variable set), the body, the update */
    if (d.index)
        ld_walk_mark(&L->w, d.index);
    if (r->v->cond)
        ld_walk_expr(&L->w, r->v->cond, r->v->lineno);
    ld_walk_seq(&L->w, &r->body, 0);
    if (r->v->kind == XF_CV_FORLOOP)
        ld_walk_stmt(&L->w, r->v->update, r->v->lineno);
    if (L->w.over)
        return over_budget(L, r, out);
    if (L->w.oom || !chain(L))
        return -1;
    if (!d.index) {
        d.parallel = false;
        d.why = XF_LD_NO_INDEX;
    }
    /* the update writes the loop variable: not a write of the body */
    if (d.index && r->v->kind == XF_CV_FORLOOP && r->v->update) {
        for (uint32_t k = L->w.acc.n; k-- > 0;)
            if (L->w.acc.v[k].sym == d.index && L->w.acc.v[k].write) {
                L->w.acc.v[k].write = false; /* counted in wrote[] already */
                L->w.acc.v[k].exposed = false;
                break;
            }
    }
    for (uint32_t n = 0; n < L->syms.n; n++)
        if (L->wrote[L->syms.v[n]->index] && !XF_VEC_PUSH(L->a, d.written, L->syms.v[n]))
            return -1;
    if (!iterations(L, &d))
        return -1;
    terminal(L, t, r, &d);
    unchain(L);
    if (L->w.over && !L->w.oom)
        return over_budget(L, r, out);
    if (L->w.oom || !XF_VEC_PUSH(L->a, *out, d))
        return -1;
    return 0;
}

int
xf_loopdep_routine(const xf_doc *doc, const xf_routine *rt, xf_arena *a, xf_loopdep_vec *out)
{
    const xf_graph *g = rt->is_rlist ? xf_work_graph((xf_routine *)rt) : &rt->g;
    return g ? xf_loopdep_graph(doc, rt, g, a, out) : 0;
}

/* The work (statements and expression vertices walked) allowed for the
 * loops of @g: a multiple of its size, so that the analysis of a routine
 * stays within a constant times a walk of it (a nest of D loops around a
 * body of B vertices costs D x D x B walked; 1 000 loops around 100 000
 * vertices would take hours and terabytes), plus a floor that no routine
 * of the corpus comes near (docs/scaling.md). */
static uint64_t
budget(const xf_graph *g)
{
    uint64_t size = 0;
    for (uint32_t k = 0; k < g->v.n; k++) {
        const xf_cvertex *v = g->v.v[k];
        size += 1 + (v->cond ? v->cond->v.n : 0);
        for (uint32_t j = 0; j < v->stmts.n; j++) {
            const xf_stmt *st = v->stmts.v[j];
            size += 1 + (st->kind == XF_STMT_ASSIGN ? st->u.as.rhs.v.n : 0);
        }
    }
    return XF_LOOPDEP_WORK_FLOOR + XF_LOOPDEP_WORK_PER_VERTEX * size;
}

int
xf_loopdep_graph(const xf_doc *doc, const xf_routine *rt, const xf_graph *g, xf_arena *a,
                 xf_loopdep_vec *out)
{
    bool any = false;
    for (uint32_t k = 0; g && k < g->v.n && !any; k++)
        any = g->v.v[k]->kind == XF_CV_FORLOOP || g->v.v[k]->kind == XF_CV_PRELOOP ||
              g->v.v[k]->kind == XF_CV_POSTLOOP;
    if (!any)
        return 0;
    xf_cfgtree t;
    if (!xf_cfgtree_parse(g, a, &t)) {
        for (uint32_t k = 0; k < g->v.n; k++) {
            const xf_cvertex *v = g->v.v[k];
            if (v->kind != XF_CV_FORLOOP && v->kind != XF_CV_PRELOOP && v->kind != XF_CV_POSTLOOP)
                continue;
            xf_loopdep d = {.rt = rt, .v = v, .why = XF_LD_UNSTRUCTURED, .terminal = XF_LT_UNKNOWN};
            if (!XF_VEC_PUSH(a, *out, d))
                return -1;
        }
        return 0;
    }
    ld L = {.doc = doc, .rt = rt, .a = a, .called = called(doc, rt)};
    if (!ld_walk_init(&L.w, doc, a))
        return -1;
    L.head = XF_NEW_ARRAY(a, L.w.nsyms + 1, uint32_t);
    L.tail = XF_NEW_ARRAY(a, L.w.nsyms + 1, uint32_t);
    L.wrote = XF_NEW_ARRAY(a, L.w.nsyms + 1, uint8_t);
    if (!L.head || !L.tail || !L.wrote)
        return -1;
    memset(L.head, 0xff, (L.w.nsyms + 1) * sizeof *L.head);
    memset(L.tail, 0xff, (L.w.nsyms + 1) * sizeof *L.tail);
    L.w.budget = budget(g);
    for (uint32_t k = 0; k < t.all.n; k++)
        if (t.all.v[k]->kind == XF_RG_LOOP) {
            int ret = one_loop(&L, &t, t.all.v[k], out);
            if (ret)
                return ret;
        }
    return 0;
}
