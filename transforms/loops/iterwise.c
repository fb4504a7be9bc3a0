/* iterwise.c: the iteration-wise adjoint of a parallel terminal loop
 * (Hascoët, Fidanova, Held [004] §3, F3). With --iteration-wise, for each
 * loop of a routine's original code (placeholder 1) that loopdep finds
 * parallel (additive reductions allowed) and terminal, the adjoint of one
 * iteration runs at the end of that iteration in the taping sweep
 * (placeholder 2): what the iteration pushed is popped at once, and the
 * tape of the loop is the tape of one iteration. The adjoint sweep's loop
 * (placeholder 3) is left empty: the counter its trip count comes from
 * stays 0.
 *
 * Why the result is the same: the iterations are independent, so their
 * adjoints commute and each can follow its own iteration; the loop is
 * terminal, and nothing after it writes a real variable it reads or writes,
 * so the adjoints the loop's adjoint reads (its results') are, in the
 * taping sweep, what they would be when the adjoint sweep came back to it
 * (the seeds, or zero), and nothing after it resets the adjoints it
 * increments. The routine must be the top one (no call of the document
 * calls it): its driver sets the seeds before the taping sweep in joint and
 * split reversal alike. In split reversal the taping and the adjoint sweep
 * run in two activations of the routine: the adjoint added to a local
 * variable in the taping sweep is lost. --iteration-wise therefore leaves
 * a loop that reads a real local variable (other than those it writes)
 * alone; --iteration-wise-joint takes it too, for the joint template only,
 * and also the loops of routines that something calls, terminal but for
 * the routine's outputs: in joint reversal the caller's adjoint sweep
 * calls the routine's taping sweep and then its adjoint sweep, with the
 * adjoints of its outputs set, and nothing in between.
 *
 * Applied only where the shape is the simple one: a loop at the top level
 * of the routine whose body in placeholder 2 and whose adjoint loop's body
 * in placeholder 3 are basic blocks only, without calls, the adjoint
 * assigning no variable of the program (only the temporaries it pops
 * into). A loop reversed by counting loses its counter's increment, so
 * that the adjoint sweep's loop runs no iteration; a loop marked
 * reversal="explicit", run backwards by the adjoint sweep, keeps that loop
 * with its blocks empty (its adjoint reads the loop variable, which holds
 * the iteration's value at the end of the iteration). --report-loops prints, per
 * loop considered, whether it was applied or why not.
 *
 * With --dry-run as well (F5), a parallel loop that is not terminal, of the
 * same shape, counted or inverted: the taping sweep runs it without its
 * pushes and what only they read (iterwise_trim.c); the adjoint sweep's
 * loop takes the loop's own (forward) header and, per iteration, the
 * taping statements and then the adjoint, where the loop's adjoint was.
 * Nothing after the loop may overwrite a value it reads (additive updates
 * apart), and the adjoint sweep outside it may read no value it writes;
 * under --iteration-wise, no local input and not a called routine.
 * Needs: reverse. Runs before checkpoint, once. Breaks: nothing. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cfgtree.h"
#include "checkpoint.h"
#include "iterwise.h"
#include "iterdry.h"
#include "loopdep.h"
#include "pass.h"
#include "tbr.h"

typedef XF_VEC(xf_stmt *) stmtvec;

/* What the selection rule (--loops auto) did to a loop. */
typedef enum rule_act { RULE_LEAVE, RULE_ITERWISE, RULE_DRY_RUN, RULE_PER_ITERATION } rule_act;

static const char *const act_name[] = {"left alone", "iteration-wise", "dry run",
                                       "per-iteration dry run if pass iterdry takes it"};

static bool
program_variable(const xf_stmt *st)
{
    if (st->kind != XF_STMT_ASSIGN)
        return false;
    const xf_symref *s = xf_varref_symref(&st->u.as.lhs);
    return !s || !s->sym ||
           (!xf_flag_is(s->sym->temp, false) && strncmp(s->sym->id, "OpenAD_", 7) != 0);
}

/* ---- what the adjoint sweep reads */

typedef struct mention {
    const uint8_t *in; /* by symbol index: written by the loop */
    uint32_t n;
} mention;

typedef struct mentioning {
    const mention *m;
    bool adjoint; /* the walk's own reference names an adjoint */
} mentioning;

/* Does a reference read or write the value of a variable of the set? A
 * derivative reference (the walk's own when @adjoint, or marked deriv)
 * names the adjoint, not the value: only its subscripts count. */
static xf_walk_go
mention_step(void *ctx, const xf_walk_step *s)
{
    const mentioning *g = ctx;
    const xf_symref *sr = s->ref ? xf_varref_symref(s->ref) : NULL;
    bool adjoint = !s->vertex && !s->in_arg && g->adjoint;
    if (sr && sr->sym && !adjoint && !xf_flag_is(s->ref->deriv, false) &&
        sr->sym->index < g->m->n && g->m->in[sr->sym->index])
        return XF_WALK_STOP;
    return XF_WALK_GO;
}

/* Does @r, or one of its subscripts, mention a variable of the set (so it
 * may when out of memory)? */
static bool
ref_mentions_as(const mention *m, const xf_varref *r, bool adjoint)
{
    mentioning g = {m, adjoint};
    return xf_walk_ref(r, XF_WALK_ARGS, mention_step, &g) != 0;
}

static bool
expr_mentions(const mention *m, const xf_expr *x)
{
    mentioning g = {m, false};
    return xf_walk_expr(x, XF_WALK_ARGS, mention_step, &g) != 0;
}

static bool
stmt_mentions(const mention *m, const xf_stmt *st)
{
    if (!st)
        return false;
    switch (st->kind) {
    case XF_STMT_ASSIGN: /* the value assigned is not read */
        return ref_mentions_as(m, &st->u.as.lhs, true) || expr_mentions(m, &st->u.as.rhs);
    case XF_STMT_CALL:
    case XF_STMT_ICALL: {
        const xf_arg_vec *args = st->kind == XF_STMT_CALL ? &st->u.call.args : &st->u.icall.args;
        bool pop =
            st->kind == XF_STMT_ICALL && st->u.icall.name && !strncmp(st->u.icall.name, "pop", 3);
        for (uint32_t k = 0; k < args->n; k++) {
            const xf_expr *x = &args->v[k].val;
            if (pop && x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF
                    ? ref_mentions_as(m, x->v.v[0].u.ref, true)
                    : expr_mentions(m, x))
                return true;
        }
        return false;
    }
    case XF_STMT_DERIVPROP:
        for (uint32_t k = 0; k < st->u.dp.n; k++) {
            const xf_dpop *op = &st->u.dp.v[k];
            /* every reference of a propagator names an adjoint; A is a value */
            if (ref_mentions_as(m, &op->tgt, true) || ref_mentions_as(m, &op->src, true) ||
                ref_mentions_as(m, &op->y, true))
                return true;
            for (uint32_t j = 0; j < op->ax.n; j++)
                if (expr_mentions(m, &op->ax.v[j].a) || ref_mentions_as(m, &op->ax.v[j].x, true))
                    return true;
        }
        return false;
    case XF_STMT_MARKER:
        return false;
    }
    return true;
}

/* Does the adjoint sweep, outside loop @l3's body and header, use the value
 * of a variable the loop writes (which running the loop again changes)?
 * Values it sets before reading them do not count: a loop variable in its
 * loop, a scalar assigned earlier in the same block. */
static bool
adjoint_uses(xf_pass_ctx *ctx, const xf_loopdep *d, const xf_cfgtree *t3, const xf_region *l3)
{
    uint32_t n = ctx->doc->nsymbols;
    uint8_t *in = XF_NEW_ARRAY(ctx->scratch, n + 1, uint8_t);
    if (!in)
        return true;
    for (uint32_t k = 0; k < d->written.n; k++)
        if (d->written.v[k]->index < n)
            in[d->written.v[k]->index] = 1;
    mention m = {in, n};
    XF_VEC(uint32_t) off = {0}; /* cleared while a region is looked at */
    for (uint32_t k = 0; k < t3->all.n; k++) {
        const xf_region *r = t3->all.v[k];
        bool inside = false;
        for (const xf_region *p = r; p && !inside; p = p->parent)
            inside = p == l3;
        if (inside)
            continue;
        off.n = 0;
        /* the variables the loops around it (and it, for a loop) set first */
        for (const xf_region *p = r; p; p = p->parent) {
            const xf_stmt *init = p->kind == XF_RG_LOOP ? p->v->init : NULL;
            const xf_symref *iv =
                init && init->kind == XF_STMT_ASSIGN ? xf_varref_symref(&init->u.as.lhs) : NULL;
            if (iv && iv->sym && iv->sym->index < n && in[iv->sym->index]) {
                in[iv->sym->index] = 0;
                if (!XF_VEC_PUSH(ctx->scratch, off, iv->sym->index))
                    return true;
            }
        }
        const xf_cvertex *v = r->v;
        bool uses = (v->cond && expr_mentions(&m, v->cond)) || stmt_mentions(&m, v->init) ||
                    stmt_mentions(&m, v->update);
        for (uint32_t j = 0; j < v->stmts.n && !uses; j++) {
            const xf_stmt *st = v->stmts.v[j];
            uses = stmt_mentions(&m, st);
            const xf_symref *w = st->kind == XF_STMT_ASSIGN && !xf_varref_arrref(&st->u.as.lhs)
                                     ? xf_varref_symref(&st->u.as.lhs)
                                     : NULL;
            if (!uses && w && w->sym && w->sym->index < n && in[w->sym->index]) {
                in[w->sym->index] = 0;
                if (!XF_VEC_PUSH(ctx->scratch, off, w->sym->index))
                    return true;
            }
        }
        for (uint32_t j = 0; j < off.n; j++)
            in[off.v[j]] = 1;
        if (uses)
            return true;
    }
    /* the vertices no region holds: Entry, Exit, End markers */
    return false;
}

/* Mark the variable @r assigns as a whole (or any element of), in @in. */
static void
mark_ref(uint8_t *in, uint32_t n, const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    if (s && s->sym && s->sym->index < n)
        in[s->sym->index] = 1;
}

/* Mark what @st assigns (left-hand sides, the arguments of pops) in @in. */
static void
mark_assigned(uint8_t *in, uint32_t n, const xf_stmt *st)
{
    if (!st)
        return;
    if (st->kind == XF_STMT_ASSIGN)
        mark_ref(in, n, &st->u.as.lhs);
    else if (st->kind == XF_STMT_ICALL && st->u.icall.name && !strncmp(st->u.icall.name, "pop", 3))
        for (uint32_t k = 0; k < st->u.icall.args.n; k++) {
            const xf_expr *x = &st->u.icall.args.v[k].val;
            if (x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF)
                mark_ref(in, n, x->v.v[0].u.ref);
        }
}

/* Forget, in @in, the scalar that @st assigns as a whole (a value set
 * first, which later reads see), or that a pop fills. */
static void
clear_assigned(uint8_t *in, uint32_t n, const xf_stmt *st)
{
    if (!st)
        return;
    const xf_symref *s = st->kind == XF_STMT_ASSIGN && !xf_varref_arrref(&st->u.as.lhs)
                             ? xf_varref_symref(&st->u.as.lhs)
                             : NULL;
    if (s && s->sym && s->sym->index < n)
        in[s->sym->index] = 0;
    if (st->kind == XF_STMT_ICALL && st->u.icall.name && !strncmp(st->u.icall.name, "pop", 3))
        for (uint32_t a = 0; a < st->u.icall.args.n; a++) {
            const xf_expr *x = &st->u.icall.args.v[a].val;
            const xf_symref *ps =
                x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF && !xf_varref_arrref(x->v.v[0].u.ref)
                    ? xf_varref_symref(x->v.v[0].u.ref)
                    : NULL;
            if (ps && ps->sym && ps->sym->index < n)
                in[ps->sym->index] = 0;
        }
}

/* Is @st a pop into one whole variable of the program that @changed does
 * not mark? */
static bool
restores_unchanged(const xf_stmt *st, const uint8_t *changed, uint32_t n)
{
    if (st->kind != XF_STMT_ICALL || !st->u.icall.name || strncmp(st->u.icall.name, "pop", 3) ||
        st->u.icall.args.n != 1)
        return false;
    const xf_expr *x = &st->u.icall.args.v[0].val;
    if (x->v.n != 1 || x->v.v[0].kind != XF_EV_VARREF || xf_varref_arrref(x->v.v[0].u.ref))
        return false;
    const xf_symref *s = xf_varref_symref(x->v.v[0].u.ref);
    return s && s->sym && s->sym->index < n && !changed[s->sym->index] &&
           !xf_flag_is(s->sym->temp, false) && strncmp(s->sym->id, "OpenAD_", 7) != 0;
}

static bool
inside(const xf_region *r, const xf_region *l)
{
    for (const xf_region *p = r->parent; p; p = p->parent)
        if (p == l)
            return true;
    return false;
}

/* Does the adjoint of an iteration (the regions in loop @l3's body) read a
 * variable that the adjoint sweep assigns elsewhere (a value popped or
 * computed before the loop's adjoint, which the taping sweep does not have
 * yet), or one that the code after the loop writes (@after: at
 * the end of the iteration it does not hold yet what the adjoint sweep
 * would read), other than the loop variable, @outer (NULL: none) and what
 * the region assigns first itself? */
static bool
reads_from_elsewhere(xf_pass_ctx *ctx, const xf_loopdep *d, const xf_ldsyms *after,
                     const xf_symbol *outer, const xf_cfgtree *t3, const xf_region *l3)
{
    uint32_t n = ctx->doc->nsymbols;
    uint8_t *in = XF_NEW_ARRAY(ctx->scratch, n + 1, uint8_t);
    if (!in)
        return true;
    /* a pop that restores a variable of the program which neither the
     * loop nor what follows it writes gives it the value it has at the end
     * of every iteration: it does not count */
    uint8_t *kept = XF_NEW_ARRAY(ctx->scratch, n + 1, uint8_t);
    if (!kept)
        return true;
    for (uint32_t k = 0; k < d->written.n; k++)
        if (d->written.v[k]->index < n)
            kept[d->written.v[k]->index] = 1;
    for (uint32_t k = 0; k < after->n; k++)
        if (after->v[k]->index < n)
            kept[after->v[k]->index] = 1;
    for (uint32_t k = 0; k < t3->all.n; k++) {
        const xf_region *r = t3->all.v[k];
        if (r == l3 || inside(r, l3))
            continue;
        mark_assigned(in, n, r->v->init);
        mark_assigned(in, n, r->v->update);
        for (uint32_t j = 0; j < r->v->stmts.n; j++) {
            const xf_stmt *st = r->v->stmts.v[j];
            if (restores_unchanged(st, kept, n))
                continue;
            mark_assigned(in, n, st);
        }
    }
    for (uint32_t k = 0; k < after->n; k++)
        if (after->v[k]->index < n)
            in[after->v[k]->index] = 1;
    if (d->index && d->index->index < n)
        in[d->index->index] = 0;
    if (outer && outer->index < n)
        in[outer->index] = 0;
    mention m = {in, n};
    for (uint32_t k = l3->index + 1; k < t3->all.n; k++) {
        const xf_region *r = t3->all.v[k];
        if (!inside(r, l3))
            break; /* the regions in l3 follow it in pre-order */
        const xf_cvertex *v = r->v;
        if (stmt_mentions(&m, v->init))
            return true;
        clear_assigned(in, n, v->init);
        if ((v->cond && expr_mentions(&m, v->cond)) || stmt_mentions(&m, v->update))
            return true;
        for (uint32_t j = 0; j < v->stmts.n; j++) {
            if (stmt_mentions(&m, v->stmts.v[j]))
                return true;
            clear_assigned(in, n, v->stmts.v[j]);
        }
    }
    return false;
}

static bool is_push(const xf_stmt *st);

/* Does a block in loop @l2's body push? */
static bool
tapes(const xf_cfgtree *t2, const xf_region *l2)
{
    for (uint32_t k = l2->index + 1; k < t2->all.n; k++) {
        const xf_region *r = t2->all.v[k];
        if (!inside(r, l2))
            break;
        for (uint32_t j = 0; j < r->v->stmts.n; j++)
            if (is_push(r->v->stmts.v[j]))
                return true;
    }
    return false;
}

/* Does a block in loop @l3's body assign a variable of the program, or call? */
static bool
adjoint_assigns(const xf_cfgtree *t3, const xf_region *l3)
{
    for (uint32_t k = l3->index + 1; k < t3->all.n; k++) {
        const xf_region *r = t3->all.v[k];
        if (!inside(r, l3))
            break;
        for (uint32_t j = 0; j < r->v->stmts.n; j++)
            if (program_variable(r->v->stmts.v[j]) || r->v->stmts.v[j]->kind == XF_STMT_CALL)
                return true;
    }
    return false;
}

/* May a loop be taken whose transformation is right under the joint
 * template only? --iteration-wise-joint, or --loops auto with
 * --reversal joint. */
static bool
joint_ok(const xf_pass_ctx *ctx)
{
    const xf_iw_opts *own = xf_pass_own_c(ctx->opts, &xf_pass_iterwise);
    return own->iterwise >= 2 || (own->loops_auto && ctx->opts->reversal == XF_REV_JOINT);
}

/* The taping loop of @d in @t2. */
static const xf_region *
taping_loop(const xf_loopdep *d, const xf_cfgtree *t2)
{
    for (uint32_t k = 0; k < t2->all.n; k++)
        if (t2->all.v[k]->kind == XF_RG_LOOP && t2->all.v[k]->v->id == d->v->id)
            return t2->all.v[k];
    return NULL;
}

/* How apply takes a loop: its adjoint loop as found before any change
 * (NULL: look for it), whether "after the loop" is the rest of the
 * enclosing loop's iteration only (that loop adjoined iteration by
 * iteration too), whether only to check. */
typedef struct how {
    const xf_cvertex *adjoint;
    bool in_iter, check;
    /* in_iter: the enclosing loop's variable, which at the end of an inner
     * iteration holds the value the adjoint of that iteration reads */
    const xf_symbol *outer;
} how;

/* The region of @t whose vertex is @v, or NULL. */
static const xf_region *
region_of(const xf_cfgtree *t, const xf_cvertex *v)
{
    for (uint32_t k = 0; v && k < t->all.n; k++)
        if (t->all.v[k]->v == v)
            return t->all.v[k];
    return NULL;
}

/* Why loop @d cannot be adjoined iteration by iteration here, or NULL
 * (then it has been, unless @h->check: graphs @g2 and @g3 changed, their
 * trees are stale). */
static const char *
apply(xf_pass_ctx *ctx, const xf_loopdep *d, xf_graph *g2, const xf_cfgtree *t2, xf_graph *g3,
      const xf_cfgtree *t3, unsigned *serial, const how *h)
{
    bool joint = joint_ok(ctx);
    xf_ldterm term = h->in_iter ? d->terminal_in : d->terminal;
    const xf_ldref *aw = h->in_iter ? &d->after_write_in : &d->after_write;
    if (d->called && !joint)
        return "the routine is called: in split reversal its taping sweep runs before the "
               "caller's adjoint has set the adjoints of its outputs (joint reversal only)";
    if (d->v->kind != XF_CV_FORLOOP)
        return "not a ForLoop";
    if (!d->parallel)
        return "its iterations are not independent";
    if (term != XF_LT_YES && !(joint && term == XF_LT_OUTPUT))
        return "not terminal";
    if (aw->sym)
        return "a real variable it accesses is written after it";
    if (d->local_input.sym && !joint_ok(ctx))
        return "it reads a local variable, whose adjoint does not survive from the taping "
               "to the adjoint sweep in split reversal (joint reversal only)";
    const xf_region *l2 = taping_loop(d, t2);
    if (!l2 || !l2->body.v.n)
        return "its taping sweep has no loop";
    if (xf_iw_region_calls(&l2->body))
        return "its body calls a routine (in the taping sweep the call would not run the "
               "callee's adjoint)";
    if (!tapes(t2, l2))
        return "its iterations push nothing: its tape is one iteration's already";
    const xf_region *l3 =
        h->adjoint ? region_of(t3, h->adjoint) : xf_iw_adjoint_loop(t2, l2, t3, ctx->scratch);
    if (!l3 || l3->kind != XF_RG_LOOP)
        return "its adjoint loop is not found";
    /* the counter's increment (in a block of the body's own sequence) */
    xf_cvertex *count = NULL;
    uint32_t at = 0;
    for (uint32_t k = 0; k < l2->body.v.n && !count; k++) {
        xf_cvertex *b = l2->body.v.v[k]->v;
        for (uint32_t j = 0; l2->body.v.v[k]->kind == XF_RG_BLOCK && j < b->stmts.n; j++)
            if (b->stmts.v[j]->id && !strcmp(b->stmts.v[j]->id, "_cfr_count")) {
                count = b;
                at = j;
            }
    }
    if (!count && !l2->head)
        return "no trip counter in its taping sweep";
    if (adjoint_assigns(t3, l3))
        return "its adjoint assigns a variable of the program";
    if (reads_from_elsewhere(ctx, d, h->in_iter ? &d->written_after_in : &d->written_after,
                             h->outer, t3, l3))
        return "its adjoint reads a value the adjoint sweep sets before it, or that is "
               "written after the loop";
    if (h->check)
        return NULL;
    /* the adjoint of the iteration at the end of the iteration */
    const char *why = xf_iw_move(ctx->doc, ctx->scratch, g2, l2, g3, l3, serial);
    if (why)
        return why;
    /* a counted loop: the trip count stays 0, the adjoint sweep's loop runs
     * no iteration; a loop run backwards (explicit) runs its iterations
     * over the empty block */
    if (count) {
        memmove(&count->stmts.v[at], &count->stmts.v[at + 1],
                (count->stmts.n - at - 1) * sizeof count->stmts.v[0]);
        count->stmts.n--;
    }
    return NULL;
}

/* ---- dry-running (F5): a parallel loop that is not terminal */

static bool
is_push(const xf_stmt *st)
{
    return st->kind == XF_STMT_ICALL && st->u.icall.name && !strncmp(st->u.icall.name, "push", 4);
}

static bool reparse(xf_pass_ctx *ctx, xf_replacement *p2, xf_replacement *p3, xf_cfgtree *t2,
                    xf_cfgtree *t3);

/* dry_run for a body that is more than basic blocks (branches, inner
 * loops): the adjoint loop's body starts with a copy of the taping body
 * (its own trip counter's increment left out), the taping body loses its
 * pushes at every depth; both trees are parsed again. */
static const char *
dry_run_region(xf_pass_ctx *ctx, const xf_loopdep *d, xf_replacement *p2, xf_cfgtree *t2,
               const xf_region *l2, xf_replacement *p3, xf_cfgtree *t3, unsigned *serial, bool keep)
{
    const xf_region *l3 = xf_iw_adjoint_loop(t2, l2, t3, ctx->scratch);
    if (!l3 || l3->v->kind != XF_CV_FORLOOP)
        return "not terminal, and its adjoint loop is not found";
    if (adjoint_assigns(t3, l3))
        return "not terminal, and its adjoint assigns a variable of the program";
    if (adjoint_uses(ctx, d, t3, l3))
        return "not terminal, and the adjoint sweep uses a value it writes (no dry run)";
    xf_iw_snap snap;
    const char *nokeep =
        keep ? xf_iw_snap_plan(ctx, d, &p2->g, t2, l2, &p3->g, t3, l3, &snap) : NULL;
    if (nokeep)
        return nokeep;
    const xf_stmt *count = NULL;
    for (uint32_t k = 0; k < l2->body.v.n; k++) {
        const xf_cvertex *b = l2->body.v.v[k]->v;
        for (uint32_t j = 0; l2->body.v.v[k]->kind == XF_RG_BLOCK && j < b->stmts.n; j++)
            if (b->stmts.v[j]->id && !strcmp(b->stmts.v[j]->id, "_cfr_count"))
                count = b->stmts.v[j];
    }
    const char *why =
        xf_iw_copy_body(ctx->doc, ctx->scratch, &p2->g, l2, &p3->g, l3, count, serial);
    if (why)
        return why;
    if (keep && xf_iw_snap_emit(ctx, d, &p2->g, &p3->g, &snap, serial))
        return "out of memory";
    l3->v->init = l2->v->init;
    l3->v->cond = l2->v->cond;
    l3->v->update = l2->v->update;
    for (uint32_t k = l2->index + 1; k < t2->all.n; k++) {
        const xf_region *r = t2->all.v[k];
        if (!inside(r, l2))
            break;
        if (r->kind != XF_RG_BLOCK)
            continue;
        uint32_t w = 0;
        for (uint32_t j = 0; j < r->v->stmts.n; j++)
            if (!is_push(r->v->stmts.v[j]))
                r->v->stmts.v[w++] = r->v->stmts.v[j];
        r->v->stmts.n = w;
    }
    /* the partials nothing reads now, out of the untaped run (the copy
     * in the adjoint sweep keeps them; t3, not parsed again yet, is read
     * only outside l3) */
    if (xf_dry_trim(ctx, t2, l2, t3, l3, 0, 0))
        return "out of memory";
    return reparse(ctx, p2, p3, t2, t3) ? NULL : "the adjoint does not nest";
}

/* Why loop @d cannot be dry-run, or NULL (then it has been): the taping
 * sweep runs it without taping; the adjoint sweep runs it again where its
 * adjoint was, forwards, each iteration taped and adjoined at once. */
static const char *
dry_run(xf_pass_ctx *ctx, const xf_loopdep *d, xf_replacement *p2, xf_cfgtree *t2,
        xf_replacement *p3, xf_cfgtree *t3, unsigned *serial, bool *kept)
{
    *kept = false;
    if (d->v->kind != XF_CV_FORLOOP || d->depth)
        return "not terminal, and not a ForLoop at the routine's top level (no dry run)";
    if (d->input_overwritten.sym)
        return "not terminal, and a value it reads is overwritten after it (no dry run)";
    if (d->input_rewritten.sym)
        return "it overwrites a value it reads from before it: run again, it would read the new "
               "one (no dry run)";
    const xf_region *l2 = taping_loop(d, t2);
    if (!l2 || !l2->body.v.n)
        return "not terminal, and its taping sweep has no loop";
    if (!tapes(t2, l2))
        return "its iterations push nothing: its tape is one iteration's already (no dry run)";
    if (xf_iw_region_calls(&l2->body))
        return "not terminal, and its body calls a routine";
    /* the split template's adjoint sweep has neither the activation's
     * locals nor, for a called routine, the arguments as the loop read
     * them: they are kept (iterwise_snap.c) */
    bool keep =
        !joint_ok(ctx) && (d->called || d->local_input.sym || xf_dry_local_input(ctx, d, l2));
    *kept = keep;
    const xf_region *l3 = xf_iw_blocks_only(&l2->body) ? xf_iw_blocks_adjoint(t3, &l2->body) : NULL;
    if (!l3 || !xf_iw_blocks_only(&l3->body))
        return dry_run_region(ctx, d, p2, t2, l2, p3, t3, serial, keep);
    if (l3->v->kind != XF_CV_FORLOOP)
        return "not terminal, and its adjoint is not a loop of basic blocks";
    for (uint32_t k = 0; k < l3->body.v.n; k++) {
        const xf_cvertex *b = l3->body.v.v[k]->v;
        for (uint32_t j = 0; j < b->stmts.n; j++)
            if (program_variable(b->stmts.v[j]))
                return "not terminal, and its adjoint assigns a variable of the program";
    }
    if (adjoint_uses(ctx, d, t3, l3))
        return "not terminal, and the adjoint sweep uses a value it writes (no dry run)";
    xf_iw_snap snap;
    const char *nokeep =
        keep ? xf_iw_snap_plan(ctx, d, &p2->g, t2, l2, &p3->g, t3, l3, &snap) : NULL;
    if (nokeep)
        return nokeep;
    if (keep && xf_iw_snap_emit(ctx, d, &p2->g, &p3->g, &snap, serial))
        return "out of memory";
    /* the adjoint sweep's iteration: the taping iteration, then its adjoint */
    stmtvec again = {0};
    for (uint32_t k = 0; k < l2->body.v.n; k++) {
        const xf_cvertex *b = l2->body.v.v[k]->v;
        for (uint32_t j = 0; j < b->stmts.n; j++) {
            xf_stmt *st = b->stmts.v[j];
            if (st->id && !strcmp(st->id, "_cfr_count"))
                continue;
            if (!XF_VEC_PUSH(ctx->doc->arena, again, st))
                return "out of memory";
        }
    }
    xf_cvertex *first = l3->body.v.v[0]->v;
    uint32_t nrun = again.n;
    for (uint32_t j = 0; j < first->stmts.n; j++)
        if (!XF_VEC_PUSH(ctx->doc->arena, again, first->stmts.v[j]))
            return "out of memory";
    first->stmts.v = again.v;
    first->stmts.n = again.n;
    first->stmts.cap = again.cap;
    /* ... over the loop's own header, forwards */
    l3->v->init = l2->v->init;
    l3->v->cond = l2->v->cond;
    l3->v->update = l2->v->update;
    /* the taping sweep runs the loop without taping */
    for (uint32_t k = 0; k < l2->body.v.n; k++) {
        xf_cvertex *b = l2->body.v.v[k]->v;
        uint32_t w = 0;
        for (uint32_t j = 0; j < b->stmts.n; j++)
            if (!is_push(b->stmts.v[j]))
                b->stmts.v[w++] = b->stmts.v[j];
        b->stmts.n = w;
    }
    /* what neither run needs (iterwise_trim.c) */
    if (xf_dry_trim(ctx, t2, l2, t3, l3, 0, nrun))
        return "out of memory";
    /* a block made for the snapshot is not in the trees yet */
    if (keep && !reparse(ctx, p2, p3, t2, t3))
        return "the adjoint does not nest";
    return NULL;
}

/* Without --iteration-wise[-joint] nothing is done (and the adjoint may be
 * made one routine at a time). */
static bool
idle(const xf_opts *o)
{
    const xf_iw_opts *own = xf_pass_own_c(o, &xf_pass_iterwise);
    return !own->iterwise && !own->loops_auto;
}

/* ---- the selection rule (F8, [004] §5) */

static bool
reparse(xf_pass_ctx *ctx, xf_replacement *p2, xf_replacement *p3, xf_cfgtree *t2, xf_cfgtree *t3)
{
    return xf_cfgtree_parse(&p2->g, ctx->scratch, t2) && xf_cfgtree_parse(&p3->g, ctx->scratch, t3);
}

/* What the rule does to a loop, and why; the reasons of the refusals are
 * apply's and dry_run's. */
/* Does --checkpoint-loop ROUTINE:LINE name loop @d of @rt (ROUTINE as the
 * source spells it, the front end's __N suffix apart, any case)? */
static bool
named_for_checkpoint(const xf_opts *o, const xf_routine *rt, const xf_loopdep *d)
{
    const char *id = rt->sym ? rt->sym->id : NULL;
    const xf_ckp_opts *ckp = xf_pass_own_c(o, &xf_pass_checkpoint);
    for (int k = 0; id && k < ckp->nloops; k++) {
        const char *spec = ckp->loops[k], *colon = strrchr(spec, ':');
        if (!colon || strtoll(colon + 1, NULL, 10) != d->v->lineno)
            continue;
        size_t len = (size_t)(colon - spec);
        if (strncasecmp(id, spec, len) != 0)
            continue;
        const char *t = id + len;
        bool ok = !*t || (t[0] == '_' && t[1] == '_' && t[2]);
        for (const char *q = *t ? t + 2 : t; ok && *q; q++)
            ok = *q >= '0' && *q <= '9';
        if (ok)
            return true;
    }
    return false;
}

/* Loops that are checkpointed, or hold one or are held by one: the
 * checkpoint pass (after this one: .before) needs their adjoint where
 * reverse put it. */
static bool *
checkpoint_nests(xf_pass_ctx *ctx, const xf_routine *rt, const xf_loopdep_vec *v)
{
    bool *keep = XF_NEW_ARRAY(ctx->scratch, v->n + 1, bool);
    for (uint32_t k = 0; keep && k < v->n; k++) {
        if (!named_for_checkpoint(ctx->opts, rt, &v->v[k]))
            continue;
        keep[k] = true;
        for (uint32_t j = k + 1; j < v->n && v->v[j].depth > v->v[k].depth; j++)
            keep[j] = true;
        unsigned depth = v->v[k].depth;
        for (uint32_t j = k; j-- > 0 && depth > 0;)
            if (v->v[j].depth < depth) {
                keep[j] = true;
                depth = v->v[j].depth;
            }
    }
    return keep;
}

/* One routine's loops, graphs and trees while the pass runs. */
typedef struct iw_rt {
    xf_pass_ctx *ctx;
    const xf_loopdep_vec *v;
    xf_replacement *p2, *p3;
    xf_cfgtree t2, t3;
    bool ok; /* the trees parse */
    unsigned serial;
    const xf_cvertex **adj; /* by loop: its adjoint loop, found before any change */
    bool *within;           /* by loop: adjoined within the iterations of the loop around it */
    bool *needed;           /* by loop: an inner loop counts on its iteration-wise adjoint */
    const bool *keep;       /* by loop: checkpointed, or in or around a loop that is */
} iw_rt;

/* The iteration-wise adjoint of loop @k, or why not. A loop inside another
 * that is not terminal, or is followed by writes, only because of what the
 * next iterations of the loop around it do, is taken when that loop passes
 * apply's checks: it will be adjoined iteration by iteration too (loops are
 * taken inner first, and an inner loop's move only takes statements out of
 * the outer loop's adjoint), so nothing after the inner loop's iteration
 * but the rest of the outer iteration runs before the inner adjoint. */
static const char *
try_iterwise(iw_rt *s, uint32_t k)
{
    const xf_loopdep *d = &s->v->v[k];
    if (!s->ok)
        return "the adjoint does not nest";
    if (s->keep[k])
        return "checkpointed, or in or around a loop that is (--checkpoint-loop)";
    how h = {.adjoint = s->adj[k]};
    const char *why = apply(s->ctx, d, &s->p2->g, &s->t2, &s->p3->g, &s->t3, &s->serial, &h);
    if (why && d->depth > 0 && strcmp(why, "out of memory") != 0) {
        uint32_t e = k;
        while (e > 0 && s->v->v[e - 1].depth >= d->depth)
            e--;
        if (e > 0 && s->v->v[e - 1].depth + 1 == d->depth) {
            e--;
            how he = {.adjoint = s->adj[e], .check = true};
            if (s->keep[e])
                return why;
            how hi = {.adjoint = s->adj[k], .in_iter = true, .outer = s->v->v[e].index};
            if (!apply(s->ctx, &s->v->v[e], &s->p2->g, &s->t2, &s->p3->g, &s->t3, &s->serial,
                       &he)) {
                const char *w =
                    apply(s->ctx, d, &s->p2->g, &s->t2, &s->p3->g, &s->t3, &s->serial, &hi);
                char *b = w ? XF_NEW_ARRAY(s->ctx->scratch, strlen(w) + 80, char) : NULL;
                if (!w) {
                    why = NULL;
                    s->within[k] = s->needed[e] = true;
                } else if (b && strcmp(w, "out of memory") != 0) {
                    sprintf(b, "%s; within each iteration of the loop around it: %s", why, w);
                    why = b;
                }
            }
        }
    }
    if (!why)
        s->ok = reparse(s->ctx, s->p2, s->p3, &s->t2, &s->t3);
    return why;
}

/* What the rule does to loop @k, and why; the reasons of the refusals are
 * apply's and dry_run's. */
static const char *
decide(iw_rt *s, uint32_t k, rule_act *act)
{
    const xf_loopdep *d = &s->v->v[k];
    xf_pass_ctx *ctx = s->ctx;
    *act = RULE_LEAVE;
    if (!s->ok)
        return "the adjoint does not nest";
    if (d->why == XF_LD_UNSTRUCTURED)
        return "not analysed: the routine's control flow does not nest";
    if (!d->parallel) {
        *act = RULE_PER_ITERATION;
        char *b = XF_NEW_ARRAY(ctx->scratch, 200, char);
        if (!b)
            return "out of memory";
        snprintf(b, 200, "not parallel: %s%s%s", xf_ldwhy_name(d->why),
                 d->dep_a.sym ? " "
                 : d->callee  ? " "
                              : "",
                 d->dep_a.sym ? d->dep_a.sym->id
                 : d->callee  ? d->callee
                              : "");
        return b;
    }
    bool joint = joint_ok(ctx);
    bool terminal = d->terminal == XF_LT_YES || (d->terminal == XF_LT_OUTPUT && joint);
    bool terminal_in =
        d->depth > 0 && (d->terminal_in == XF_LT_YES || (d->terminal_in == XF_LT_OUTPUT && joint));
    if (terminal || terminal_in) {
        const char *why = try_iterwise(s, k);
        if (why && (joint || d->depth || !strcmp(why, "out of memory")))
            return why;
        if (why) { /* split: dry-running, its inputs kept, may still take it */
            *act = RULE_DRY_RUN;
            return NULL;
        }
        *act = RULE_ITERWISE;
        return s->within[k]               ? "parallel, terminal within each iteration of the "
                                            "loop around it, adjoined so too"
               : d->terminal == XF_LT_YES ? "parallel, terminal"
                                          : "parallel, terminal in joint reversal";
    }
    *act = RULE_DRY_RUN; /* to be tried by decide_dry, after the terminal loops */
    return NULL;
}

/* The second half of the rule, in execution order: a parallel loop that is
 * not terminal is dry-run (loops after it in the routine, dry-run already,
 * would otherwise count as reading what it writes). */
static const char *
decide_dry(iw_rt *s, uint32_t k, rule_act *act)
{
    const xf_loopdep *d = &s->v->v[k];
    bool kept = false;
    const char *why = !s->ok ? "the adjoint does not nest"
                      : s->keep[k]
                          ? "checkpointed, or in or around a loop that is (--checkpoint-loop)"
                          : dry_run(s->ctx, d, s->p2, &s->t2, s->p3, &s->t3, &s->serial, &kept);
    if (why) {
        *act = RULE_LEAVE;
        return why;
    }
    const char *what = d->terminal == XF_LT_YES ? "parallel, terminal, not adjoined in the taping "
                                                  "sweep of split reversal"
                       : d->terminal == XF_LT_OUTPUT ? "parallel, terminal in joint reversal only"
                                                     : "parallel, not terminal";
    if (!kept)
        return what;
    char *b = XF_NEW_ARRAY(s->ctx->scratch, strlen(what) + 80, char);
    if (!b)
        return "out of memory";
    sprintf(b, "%s; what it reads kept for the adjoint sweep of split reversal", what);
    return b;
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    if (!ctx->opts || idle(ctx->opts) || !rt->is_rlist)
        return 0;
    const xf_iw_opts *own = xf_pass_own_c(ctx->opts, &xf_pass_iterwise);
    xf_replacement *p1 = xf_placeholder(rt, "1"), *p2 = xf_placeholder(rt, "2"),
                   *p3 = xf_placeholder(rt, "3");
    if (!p1 || !p2 || !p3)
        return 0;
    xf_loopdep_vec v = {0};
    int ret = xf_loopdep_graph(ctx->doc, rt, &p1->g, ctx->scratch, &v);
    if (ret != 0)
        return xf_loopdep_failed(ctx, &v, ret, xf_loop_options(ctx->opts));
    if (!v.n)
        return 0;
    iw_rt s = {.ctx = ctx, .v = &v, .p2 = p2, .p3 = p3};
    s.ok = reparse(ctx, p2, p3, &s.t2, &s.t3);
    const char **why = XF_NEW_ARRAY(ctx->scratch, v.n, const char *);
    bool *dry = XF_NEW_ARRAY(ctx->scratch, v.n, bool);
    rule_act *act = XF_NEW_ARRAY(ctx->scratch, v.n, rule_act);
    s.adj = XF_NEW_ARRAY(ctx->scratch, v.n, const xf_cvertex *);
    s.within = XF_NEW_ARRAY(ctx->scratch, v.n, bool);
    s.needed = XF_NEW_ARRAY(ctx->scratch, v.n, bool);
    s.keep = checkpoint_nests(ctx, rt, &v);
    if (!why || !dry || !act || !s.adj || !s.within || !s.needed || !s.keep)
        return xf_pass_oom(ctx);
    /* each loop's adjoint loop, while the adjoint's blocks still have the
     * taping blocks' ids */
    for (uint32_t k = 0; k < v.n && s.ok; k++) {
        const xf_region *l2 = taping_loop(&v.v[k], &s.t2);
        const xf_region *l3 = l2 ? xf_iw_adjoint_loop(&s.t2, l2, &s.t3, ctx->scratch) : NULL;
        s.adj[k] = l3 ? l3->v : NULL;
    }
    bool rule = own->loops_auto;
    /* the iteration-wise adjoint, inner loops first: an outer loop's
     * adjoint then holds theirs, moved */
    for (uint32_t k = v.n; k-- > 0;) {
        why[k] = rule ? decide(&s, k, &act[k]) : try_iterwise(&s, k);
        if (why[k] && !strcmp(why[k], "out of memory"))
            return xf_pass_oom(ctx);
        if (s.needed[k] && (rule ? act[k] != RULE_ITERWISE : why[k] != NULL)) {
            xf_error(ctx->diag, ctx->doc->filename, rt->h.line,
                     "iterwise: the loop at line %lld, which passed its checks before, is not "
                     "adjoined iteration by iteration (%s), and a loop inside it counts on it",
                     (long long)v.v[k].v->lineno, why[k]);
            return -1;
        }
    }
    /* dry-running, in execution order */
    for (uint32_t k = 0; k < v.n; k++) {
        const xf_loopdep *d = &v.v[k];
        bool kept = false;
        if (rule && act[k] == RULE_DRY_RUN && !why[k])
            why[k] = decide_dry(&s, k, &act[k]);
        else if (!rule) {
            dry[k] = why[k] && s.ok && !s.keep[k] && own->dry_run && d->parallel &&
                     d->terminal != XF_LT_YES;
            if (dry[k])
                why[k] = dry_run(ctx, d, p2, &s.t2, p3, &s.t3, &s.serial, &kept);
        }
        if (why[k] && !strcmp(why[k], "out of memory"))
            return xf_pass_oom(ctx);
    }
    FILE *f = ctx->opts->report_loops;
    for (uint32_t k = 0; k < v.n && f; k++) {
        const char *name = rt->sym ? rt->sym->id : "?";
        char line[24] = "?";
        if (v.v[k].v->lineno != XF_NOINT)
            snprintf(line, sizeof line, "%lld", (long long)v.v[k].v->lineno);
        if (rule)
            fprintf(f, "decision: %s line %s: %s (%s)\n", name, line, act_name[act[k]], why[k]);
        else
            fprintf(f, "iteration-wise: %s line %s: %s%s\n", name, line,
                    why[k]   ? "no, "
                    : dry[k] ? "yes, dry run"
                             : "yes",
                    why[k] ? why[k] : "");
    }
    return 0;
}

static int
parse_iterwise(xf_opts *opts, void *own, const char *arg, char *err, size_t len)
{
    (void)opts, (void)arg, (void)err, (void)len;
    xf_iw_opts *o = own;
    if (o->iterwise < 1)
        o->iterwise = 1;
    return 0;
}

static int
parse_iterwise_joint(xf_opts *opts, void *own, const char *arg, char *err, size_t len)
{
    (void)opts, (void)arg, (void)err, (void)len;
    xf_iw_opts *o = own;
    o->iterwise = 2;
    return 0;
}

static int
parse_dry_run(xf_opts *opts, void *own, const char *arg, char *err, size_t len)
{
    (void)opts, (void)arg, (void)err, (void)len;
    xf_iw_opts *o = own;
    o->dry_run = true;
    if (o->iterwise < 1)
        o->iterwise = 1;
    return 0;
}

static int
parse_loops(xf_opts *opts, void *own, const char *arg, char *err, size_t len)
{
    (void)opts;
    xf_iw_opts *o = own;
    if (!arg || (strcmp(arg, "auto") != 0 && strcmp(arg, "off") != 0)) {
        snprintf(err, len, "unknown loop rule '%s' (auto or off)", arg ? arg : "");
        return -1;
    }
    o->loops_auto = !strcmp(arg, "auto");
    return 0;
}

static const xf_pass_opt opts[] = {
    {.name = "loops",
     .arg = "RULE",
     .help = "auto: per loop, the selection rule of [004] sec. 5\n"
             "(docs/loops.md): parallel and terminal, the\n"
             "iteration-wise adjoint; parallel, not terminal,\n"
             "dry-running; not parallel, per-iteration dry-running\n"
             "(pass iterdry); else left alone. Right under\n"
             "the template of --reversal (both when not given:\n"
             "split's rules);\n"
             "--report-loops prints each decision. off: none\n",
     .parse = parse_loops},
    {.name = "iteration-wise",
     .help = "adjoin each parallel terminal loop of the top\n"
             "routine iteration by iteration in the taping sweep:\n"
             "the loop's tape is one iteration's (docs/loops.md);\n"
             "correct in joint and split reversal\n",
     .parse = parse_iterwise},
    {.name = "iteration-wise-joint",
     .help = "the same, also for loops that read local variables\n"
             "and for loops of routines that something calls:\n"
             "correct in joint reversal only (the back end must\n"
             "expand the joint template)\n",
     .parse = parse_iterwise_joint},
    {.name = "dry-run",
     .help = "with --iteration-wise(-joint) (alone, it implies\n"
             "--iteration-wise): also a parallel loop\n"
             "that is not terminal, when nothing after it overwrites\n"
             "what it reads: the taping sweep runs it untaped, the\n"
             "adjoint sweep runs it again, iteration-wise (forwards,\n"
             "whether counted or inverted)\n",
     .parse = parse_dry_run},
    {0},
};

static const char *const after[] = {"reverse", NULL};
static const char *const runs_before[] = {"checkpoint", NULL};
const xf_pass xf_pass_iterwise = {
    .name = "iterwise",
    .summary = "the iteration-wise adjoint of parallel terminal loops (--iteration-wise)",
    .help = "With --iteration-wise: for each loop of the original code that loopdep finds\n"
            "parallel and terminal, with nothing after it writing a real variable it\n"
            "accesses, in the top routine, the adjoint of an iteration runs at the end of\n"
            "that iteration in the taping sweep, and the adjoint sweep's loop runs no\n"
            "iteration. The tape of the loop is the tape of one iteration.\n",
    .after = after,
    .before = runs_before,
    .once = true,
    .opts = opts,
    .own_size = sizeof(xf_iw_opts),
    .run_routine = run_routine,
    .idle = idle,
    .needs_document = true, /* callers and callees' side effects (loopdep) */
};
