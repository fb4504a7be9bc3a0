/* tbr_invert.c: loops whose update the adjoint inverts instead of taping
 * the trip count and the subscripts that read the loop's variable
 * (Naumann et al. [002] §3, D9; see tbr.h).
 *
 * A loop L with header i = lo; i OP hi; i = i + S (xf_loop_header) is
 * taken when
 *  - i is a local scalar of the routine (not an argument, and not
 *    reached by an internal procedure: xf_is_private): the adjoint runs it
 *    backwards, which no caller may see;
 *  - lo, hi and S read only scalars and constants (no function call, no
 *    array element), and lo does not read i;
 *  - nothing in L's body may write i or a variable lo, hi or S read: no
 *    assignment to it or to what the alias map lets overlap it (two
 *    variables neither of which is a local or a formal C passes by value,
 *    c_value, count as overlapping when their types agree), no loop header
 *    of an inner loop, no call that is passed it; when one of them is
 *    neither, no call but of a routine that writes nothing but its own
 *    formals and locals (xf_tbr_writes_own); no function call;
 *  - reversing it explicitly tapes no more than counting does: the bounds
 *    that read variables are taped after the loop (reverse.c), against
 *    one count plus at least one subscript per iteration when a subscript
 *    in the body reads i;
 *  - every loop inside L with a header xf_loop_header accepts is taken
 *    too (the explicit mark is inherited by inner loops).
 * The walk over the loops' bodies is bounded by 64 times the tree's size;
 * beyond, no further loop is taken (counting is always right). */
#include <string.h>

#include "pass.h"
#include "tbr.h"

enum { MAXW = 8 };

/* What a loop's body must not write. */
typedef struct watch {
    const xf_varref *ref[MAXW];
    uint32_t n;
    bool nonlocal; /* one of them is not a local of the routine */
} watch;

typedef struct inv {
    const xf_doc *doc;
    const xf_routine *rt;
    xf_cfgtree *t;
    bool host;       /* the routine hosts internal procedures */
    uint64_t budget; /* statements and headers the walk may still look at */
} inv;

/* A local variable (not a routine or a type) of the routine that no other
 * routine reaches (none, in a host of internal procedures: xf_is_private). */
static bool
is_local(const inv *p, const xf_symbol *s)
{
    return s && s->kind == XF_SYMKIND_VARIABLE && xf_is_private(p->rt, p->host, s);
}

static const xf_symbol *
sym_of(const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    return s ? s->sym : NULL;
}

/* A scalar formal that C passes by value (the annotation c2xaif gives it,
 * "c:int value", not a struct's member): the routine's own copy, or a
 * caller's int parameter that neither routine writes nor takes the address
 * of (c2xaif's intarg.c), so that no other variable of the routine, global
 * or formal, may overlap it. */
static bool
c_value(const inv *p, const xf_symbol *s)
{
    const char *an = s->h.annotation;
    if (!an || strncmp(an, "c:", 2) || strstr(an, "xf_member") || s->kind != XF_SYMKIND_VARIABLE ||
        xf_shape_rank(s->shape) > 0 || !xf_is_formal(p->rt, s))
        return false;
    size_t n = strcspn(an, ";");
    return n > 8 && !strncmp(an + n - 6, " value", 6);
}

/* Memory no routine but this one reaches, but through its arguments: a
 * local (is_local) or a by-value formal (c_value). */
static bool
is_own(const inv *p, const xf_symbol *s)
{
    return s && (is_local(p, s) || c_value(p, s));
}

/* Does the routine of symbol @callee write nothing but its own formals and
 * locals? Its Mod lists are the proof (the front ends close them over the
 * calls); pass template drops them (present = false) when it makes the
 * routine a ReplacementList but keeps their references, so a ReplacementList
 * whose lists name something counts too. No lists, or empty ones: no. */
bool
xf_tbr_writes_own(const xf_doc *doc, const xf_symbol *callee)
{
    const xf_routine *rt = xf_routine_of(doc, callee);
    if (!rt)
        return false;
    uint32_t n = 0;
    bool present = false;
    for (int k = XF_SE_MODLOCAL; k <= XF_SE_MOD; k++) {
        present = present || rt->se[k].present;
        for (uint32_t i = 0; i < rt->se[k].refs.n; i++, n++) {
            const xf_symbol *s = sym_of(rt->se[k].refs.v[i]);
            if (!s || !(xf_is_formal(rt, s) || xf_is_local(rt, s)))
                return false;
        }
    }
    return n > 0 && (present || rt->is_rlist);
}

/* Does expression @x (a subscript of @r) call a function? So it may, when
 * out of memory. */
static xf_walk_go
call_step(void *ctx, const xf_walk_step *s)
{
    (void)ctx;
    return s->ref ? XF_WALK_GO : XF_WALK_STOP; /* a FunctionCall or ArgumentReference */
}

static bool
ref_has_call(const xf_varref *r)
{
    return xf_walk_ref(r, 0, call_step, NULL) != 0;
}

static bool
has_call(const xf_expr *x)
{
    return xf_walk_expr(x, 0, call_step, NULL) != 0;
}

/* May a write to @lhs change what @w watches? */
static bool
conflicts(const inv *p, const watch *w, const xf_varref *lhs)
{
    const xf_symbol *s = sym_of(lhs);
    if (!s)
        return true;
    for (uint32_t k = 0; k < w->n; k++) {
        const xf_symbol *ws = sym_of(w->ref[k]);
        if (s == ws || xf_refs_may_alias(p->doc, lhs, w->ref[k]))
            return true;
        if (!ws || (!is_own(p, s) && !is_own(p, ws) && s->type == ws->type))
            return true;
    }
    return false;
}

/* Add the variables read by the subexpression of @x under @v to @w; false
 * if it reads anything but scalar variables, constants and operations. */
static bool
collect(const inv *p, const xf_expr *x, uint32_t v, watch *w, int depth)
{
    if (v >= x->v.n || depth > 64)
        return false;
    const xf_evertex *e = &x->v.v[v];
    if (e->kind == XF_EV_VARREF) {
        const xf_symbol *s = sym_of(e->u.ref);
        if (!s || xf_varref_arrref(e->u.ref) || xf_shape_rank(s->shape) > 0 || w->n == MAXW)
            return false;
        w->ref[w->n++] = e->u.ref;
        w->nonlocal = w->nonlocal || !is_own(p, s);
        return true;
    }
    if (e->kind != XF_EV_CONSTANT && e->kind != XF_EV_INTRINSIC && e->kind != XF_EV_BOOLOP)
        return false;
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].tgt == v && !collect(p, x, x->e.v[j].src, w, depth + 1))
            return false;
    return true;
}

/* Does a subscript of @r read @i? */
static bool
subscript_reads(const xf_varref *r, const xf_symbol *i)
{
    const xf_arrref *ar = xf_varref_arrref(r);
    for (uint32_t k = 0; ar && k < ar->t.n; k++) {
        const xf_expr *q[3] = {ar->t.v[k].index, ar->t.v[k].bound, ar->t.v[k].stride};
        for (int j = 0; j < 3; j++)
            for (uint32_t v = 0; q[j] && v < q[j]->v.n; v++)
                if (q[j]->v.v[v].kind == XF_EV_VARREF && sym_of(q[j]->v.v[v].u.ref) == i)
                    return true;
    }
    return false;
}

static bool
expr_subscript_reads(const xf_expr *x, const xf_symbol *i)
{
    for (uint32_t v = 0; v < x->v.n; v++)
        if (x->v.v[v].kind == XF_EV_VARREF && subscript_reads(x->v.v[v].u.ref, i))
            return true;
    return false;
}

/* Is statement @s harmless to @w? *@uses: it has a subscript reading @i. */
static bool
stmt_ok(const inv *p, const watch *w, const xf_stmt *s, const xf_symbol *i, bool *uses)
{
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        /* adjoin tapes the subscripts of derivative references only: a
         * direct action's, a propagator's, a call's */
        *uses =
            *uses || (xf_flag_is(s->u.as.lhs.deriv, false) &&
                      (subscript_reads(&s->u.as.lhs, i) || expr_subscript_reads(&s->u.as.rhs, i)));
        return !conflicts(p, w, &s->u.as.lhs) && !ref_has_call(&s->u.as.lhs) &&
               !has_call(&s->u.as.rhs);
    case XF_STMT_CALL:
    case XF_STMT_ICALL: {
        const xf_arg_vec *args = s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args;
        if (w->nonlocal && (s->kind != XF_STMT_CALL || !xf_tbr_writes_own(p->doc, s->u.call.sym)))
            return false;
        for (uint32_t k = 0; k < args->n; k++) {
            const xf_expr *x = &args->v[k].val;
            if (has_call(x))
                return false;
            *uses = *uses || expr_subscript_reads(x, i);
            for (uint32_t v = 0; v < x->v.n; v++)
                if (x->v.v[v].kind == XF_EV_VARREF && conflicts(p, w, x->v.v[v].u.ref))
                    return false;
        }
        return true;
    }
    case XF_STMT_DERIVPROP:
        for (uint32_t k = 0; k < s->u.dp.n && !*uses; k++) {
            const xf_dpop *op = &s->u.dp.v[k];
            *uses = subscript_reads(&op->tgt, i) || subscript_reads(&op->src, i) ||
                    subscript_reads(&op->y, i);
            for (uint32_t j = 0; j < op->ax.n && !*uses; j++)
                *uses = subscript_reads(&op->ax.v[j].x, i);
        }
        return true;
    case XF_STMT_MARKER:
        return true;
    }
    return false;
}

/* Is loop @r, with header @h, to be run backwards? */
static bool
loop_ok(inv *p, const xf_region *r, const xf_loophead *h, uint32_t last)
{
    const xf_cvertex *lv = r->v;
    if (!is_local(p, h->i) || xf_shape_rank(h->i->shape) > 0 || xf_expr_reads(h->lo_x, h->lo, h->i))
        return false;
    watch w = {.n = 1, .ref = {&lv->init->u.as.lhs}};
    watch b = {0}; /* the bounds' variables, to count them */
    int tapes = 0;
    const xf_expr *bx[3] = {h->lo_x, h->hi_x, h->st_x};
    uint32_t bv[3] = {h->lo, h->hi, h->st};
    for (int k = 0; k < 3; k++) {
        if (!bx[k])
            continue;
        uint32_t before = b.n;
        if (!collect(p, bx[k], bv[k], &b, 0))
            return false;
        tapes += b.n > before;
    }
    for (uint32_t k = 0; k < b.n; k++) {
        if (w.n == MAXW)
            return false;
        w.ref[w.n++] = b.ref[k];
    }
    w.nonlocal = b.nonlocal;
    /* the body: every region after @r in pre-order up to @last */
    bool uses = false;
    for (uint32_t k = r->index + 1; k <= last; k++) {
        const xf_region *q = p->t->all.v[k];
        const xf_cvertex *v = q->v;
        if (p->budget == 0)
            return false;
        p->budget--;
        if (q->kind == XF_RG_BLOCK) {
            for (uint32_t j = 0; j < v->stmts.n; j++) {
                if (p->budget == 0 || !stmt_ok(p, &w, v->stmts.v[j], h->i, &uses))
                    return false;
                p->budget--;
            }
            continue;
        }
        if (v->cond && has_call(v->cond))
            return false;
        const xf_stmt *hs[2] = {v->init, v->update};
        for (int j = 0; j < 2; j++)
            if (hs[j] && (hs[j]->kind != XF_STMT_ASSIGN || !stmt_ok(p, &w, hs[j], h->i, &uses)))
                return false;
    }
    return tapes <= 1 + (uses ? 1 : 0);
}

int
xf_tbr_invert_loops(const xf_doc *doc, const xf_routine *rt, xf_cfgtree *t, xf_arena *a,
                    unsigned *n)
{
    uint32_t nr = t->all.n;
    if (n)
        *n = 0;
    if (!nr)
        return 0;
    uint32_t *last = xf_arena_alloc(a, nr * sizeof *last);
    uint8_t *ok = xf_arena_alloc(a, nr), *bad = xf_arena_alloc(a, nr);
    xf_loophead *heads = xf_arena_alloc(a, nr * sizeof *heads);
    if (!last || !ok || !bad || !heads)
        return -1;
    for (uint32_t k = 0; k < nr; k++)
        last[k] = k, ok[k] = 0, bad[k] = 0;
    /* children first: the last region each one holds */
    for (uint32_t k = nr; k-- > 0;) {
        const xf_region *q = t->all.v[k];
        if (q->parent && last[k] > last[q->parent->index])
            last[q->parent->index] = last[k];
    }
    inv p = {.doc = doc,
             .rt = rt,
             .t = t,
             .host = xf_hosts_procedures(doc, rt),
             .budget = 64 * ((uint64_t)nr + 16)};
    for (uint32_t k = 0; k < nr; k++) {
        const xf_region *q = t->all.v[k];
        if (q->kind == XF_RG_BLOCK)
            p.budget += q->v->stmts.n * 64;
    }
    /* children first: which loops may be taken, which regions hold one
     * with a header that may not */
    for (uint32_t k = nr; k-- > 0;) {
        const xf_region *q = t->all.v[k];
        bool header = false;
        if (q->kind == XF_RG_LOOP) {
            if (q->marked) {
                ok[k] = 1;
                header = true;
            } else if (xf_loop_header(q->v, &heads[k])) {
                header = true;
                ok[k] = !bad[k] && loop_ok(&p, q, &heads[k], last[k]);
            }
        }
        if (q->parent && (bad[k] || (header && !ok[k])))
            bad[q->parent->index] = 1;
    }
    /* parents first: take them; what a taken loop holds inherits its mark */
    for (uint32_t k = 0; k < nr; k++) {
        xf_region *q = t->all.v[k];
        if (q->marked)
            continue;
        bool inherit = q->parent && q->parent->marked;
        if (q->kind == XF_RG_LOOP && ok[k] && !bad[k]) {
            q->head = &heads[k];
            q->marked = true;
            q->v->reversal = XF_REVERSAL_EXPLICIT;
            if (n)
                ++*n;
        } else if (inherit) {
            q->marked = true; /* a loop here has no header the reversal takes */
        }
    }
    return 0;
}
