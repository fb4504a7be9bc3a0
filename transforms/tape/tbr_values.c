/* tbr_values.c: partials the adjoint recomputes from values that no
 * statement overwrites, instead of taping them (to-be-recorded analysis,
 * Naumann et al. [002] §3, D7; see tbr.h).
 *
 * A partial P that a propagator of block B reads (a Saxpy's coefficient)
 * is recomputed in B's adjoint, and its assignment leaves the taping sweep
 * (it is dead there: nothing else reads P), when
 *  - P is a local scalar written once in the routine, by an assignment in
 *    B, and read by no statement but B's propagators;
 *  - that assignment's right-hand side reads constants, intrinsics and
 *    stable variables only, through subscripts that read constants and the
 *    variables of the explicitly reversed loops around B (the adjoint
 *    evaluates them alike);
 *  - a stable variable is one no statement of the routine writes: no
 *    assignment to it or to a variable the alias map lets overlap it, no
 *    loop header, no call that is passed it; when it is not a local (an
 *    argument, a module's or a common block's variable, a variable of a
 *    routine that hosts internal procedures: xf_is_private), no function
 *    call in the routine and no call but of routines that write nothing
 *    but their own formals and locals (xf_tbr_writes_own). Two distinct arguments or module
 *    variables are taken to be apart unless the alias map says otherwise:
 *    Fortran forbids defining either of two that share storage (other
 *    than by EQUIVALENCE or COMMON, which the front end's map shows);
 *    under the joint template only, also a local scalar written once,
 *    outside any loop, earlier in B or in a block that always runs
 *    before B (stable_once, runs_before);
 *    under the joint template only, also an element of a real array the
 *    routine writes, when no write that runs after the read can hit it
 *    (tbr_region.c: the subscripts under the loops' bounds);
 *  - a local scalar that copies a stable value (once, earlier in B) is
 *    replaced in the repeated assignment by what it copies (chained);
 *  - under the joint template, a repeat written alike to the right-hand
 *    side of a local written once in B reads that local (reuse).
 * A stable variable's value at any point of the taping sweep is its value
 * at the sweep's end; the routine's last block (the top sequence must end
 * in one) pushes it there, the whole variable, and its adjoint, the first
 * to run, pops it back, so that the split mode's separate adjoint run sees
 * it too. That costs the variable's size once per run, taken only where
 * the partials it saves, counted once per iteration of the constant-
 * bounded loops around them (none under a branch), are more. An array
 * without bounds is sized by the constant loops whose variables subscript
 * it (the elements they visit); an argument is handed only when a block
 * that always runs reads it (an optional argument may be absent, and
 * pushing it would fault) and it is active (the pop writes it: a passive
 * argument may be bound to a constant; convert gives an active one a
 * variable). */
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "build.h"
#include "revjoint.h"
#include "tbr_impl.h"
#include "tbr_region.h"

/* Counts per symbol over the routine. */
typedef struct use {
    uint32_t writes, reads; /* reads outside propagators */
    const xf_stmt *def;     /* the last assignment to it, in block bb at index at */
    const xf_cvertex *bb;
    uint32_t at;
    bool cand; /* a candidate already */
} use;

/* A partial that may be recomputed. */
typedef struct cand {
    const xf_symbol *p;
    const xf_stmt *def;
    const xf_stmt *rec; /* what the adjoint repeats: def, or def with the
                         * chained temporaries it reads substituted */
    const xf_cvertex *bb;
    uint64_t trips; /* executions per run, at least */
    bool ok;
} cand;

/* A stable variable a candidate reads. */
typedef struct stab {
    const xf_symbol *s;
    const xf_varref *ref; /* one reference to it, for the alias check */
    uint64_t size;        /* words a push of the whole variable takes; UINT64_MAX: unknown */
    uint64_t saves;
    bool hand;
    bool kept;    /* a formal the split callers keep (XF_TAPE_KEPT): read in place */
    bool present; /* a local, a module's variable, or an argument a block
                   * that always runs reads (an optional argument may be
                   * absent: pushing it would fault) */
} stab;

typedef struct vp {
    xf_doc *doc;
    const xf_tbr *plan; /* the dead operations (tbr_live.c) */
    const xf_routine *rt;
    xf_arena *a; /* the analysis' own tables, freed on return */
    xf_map uses; /* symbol -> use */
    bool any_call;
    bool calls;                       /* a call statement, whatever its callee writes */
    XF_VEC(const xf_varref *) writes; /* every assignment's left side and call argument */
    XF_VEC(cand) cands;
    XF_VEC(stab) stabs;
    xf_map stab_of;             /* symbol -> index + 1 in stabs */
    bool joint;                 /* XF_TAPE_JOINT: nothing is handed over */
    bool elements;              /* the element-wise rule (not XF_TAPE_OFF_REGION) */
    bool keep;                  /* XF_TAPE_KEPT: formals xf_revjoint_kept takes need no hand */
    bool host;                  /* the routine hosts internal procedures (xf_is_private) */
    const struct xf_addr *addr; /* address recovery: subscripts it recovers */
    xf_map chain;               /* symbol -> its assignment: a chained temporary */
    unsigned depth;             /* of the chain reads_stable follows now */
    bool chained;               /* the candidate read reads a chained temporary */
    bool recovered;             /* ... or a subscript address recovery gives */
    const xf_cfgtree *t;        /* the routine's regions */
    xf_map region_of;           /* block vertex -> its region (filled on first use) */
    const xf_cvertex *sigbb;    /* the block whose assignments sigs holds */
    xf_map sigs;                /* xf_expr_sig of a right-hand side -> its assignment (reuse) */
    xf_tbr_region *region;      /* the writes' places (tbr_region.c; made on first use) */
} vp;

static use *
use_of(vp *p, const xf_symbol *s)
{
    use *u = xf_map_get(&p->uses, s);
    if (u)
        return u;
    u = XF_NEW(p->a, use);
    if (!u)
        return NULL;
    memset(u, 0, sizeof *u);
    return xf_map_put(&p->uses, p->a, s, u, NULL) ? u : NULL;
}

/* Is @s a formal that the entry keeps between this split callee's
 * sweeps (XF_TAPE_KEPT, revjoint.h)? Then it needs no hand. */
static bool
kept(const vp *p, const xf_symbol *s)
{
    return p->keep && xf_tbr_is_arg(p->rt, s) && xf_revjoint_kept(p->doc, p->rt, s);
}

/* ------------------------------------------------------------ the routine's uses */

typedef struct scanning {
    vp *p;
    bool read; /* the walk's own reference is read */
} scanning;

/* The reads of each variable a reference reaches (the walk's own as said);
 * whether a function is called. */
static xf_walk_go
scan_step(void *ctx, const xf_walk_step *s)
{
    const scanning *c = ctx;
    if (!s->ref) {
        c->p->any_call = true; /* a FunctionCall or ArgumentReference */
        return XF_WALK_GO;
    }
    const xf_symbol *sym = xf_tbr_sym(s->ref);
    if (sym && (s->vertex || c->read)) {
        use *u = use_of(c->p, sym);
        if (!u)
            return XF_WALK_STOP;
        u->reads++;
    }
    return XF_WALK_GO;
}

static bool
scan_ref(vp *p, const xf_varref *r, bool read)
{
    scanning c = {p, read};
    return xf_walk_ref(r, 0, scan_step, &c) == 0;
}

static bool
scan_expr(vp *p, const xf_expr *x)
{
    scanning c = {p, true};
    return xf_walk_expr(x, 0, scan_step, &c) == 0;
}

static bool
write(vp *p, const xf_varref *lhs)
{
    const xf_symbol *s = xf_tbr_sym(lhs);
    use *u = s ? use_of(p, s) : NULL;
    if (s && !u)
        return false;
    if (u)
        u->writes++;
    return XF_VEC_PUSH(p->a, p->writes, lhs) && scan_ref(p, lhs, false);
}

static bool
scan_stmt(vp *p, const xf_stmt *s)
{
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        return write(p, &s->u.as.lhs) && scan_expr(p, &s->u.as.rhs);
    case XF_STMT_CALL:
    case XF_STMT_ICALL: {
        const xf_arg_vec *args = s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args;
        /* a callee that writes only its own formals and locals changes
         * no variable of ours but the actuals, which count as writes */
        if (s->kind == XF_STMT_CALL && !xf_tbr_writes_own(p->doc, s->u.call.sym))
            p->any_call = true;
        p->calls = true;
        for (uint32_t k = 0; k < args->n; k++) {
            const xf_expr *x = &args->v[k].val;
            if (!scan_expr(p, x))
                return false;
            for (uint32_t v = 0; v < x->v.n; v++)
                if (x->v.v[v].kind == XF_EV_VARREF && !write(p, x->v.v[v].u.ref))
                    return false;
        }
        return true;
    }
    case XF_STMT_DERIVPROP:
    case XF_STMT_MARKER:
        return true;
    }
    return true;
}

static bool
scan(vp *p, const xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            const xf_stmt *s = v->stmts.v[k];
            if (!scan_stmt(p, s))
                return false;
            const xf_symbol *y = s->kind == XF_STMT_ASSIGN ? xf_tbr_sym(&s->u.as.lhs) : NULL;
            use *u = y ? xf_map_get(&p->uses, y) : NULL;
            if (u)
                u->def = s, u->bb = v, u->at = k;
        }
        if ((v->init && !scan_stmt(p, v->init)) || (v->update && !scan_stmt(p, v->update)) ||
            (v->cond && !scan_expr(p, v->cond)))
            return false;
    }
    return true;
}

/* ------------------------------------------------------------ candidates */

static bool
is_loopvar(const xf_region *r, const xf_symbol *s)
{
    for (const xf_region *q = r ? r->parent : NULL; q; q = q->parent)
        if (q->kind == XF_RG_LOOP && q->head && q->head->i == s)
            return true;
    return false;
}

static bool stable(const vp *p, const xf_symbol *s, const xf_varref *ref, uint64_t *budget);

/* Does subscript @x read only constants, operations and loop variables of
 * @r, and under the joint template stable integer scalars (a size passed
 * in, which the adjoint in the same activation reads alike)? */
static bool
recomputable(const vp *p, const xf_region *r, const xf_expr *x, uint64_t *budget)
{
    for (uint32_t i = 0; i < x->v.n; i++) {
        const xf_evertex *v = &x->v.v[i];
        if (v->kind == XF_EV_CONSTANT || v->kind == XF_EV_INTRINSIC)
            continue;
        if (v->kind != XF_EV_VARREF || xf_varref_arrref(v->u.ref))
            return false;
        const xf_symbol *s = xf_tbr_sym(v->u.ref);
        if (!is_loopvar(r, s) && (!p->joint || !s || s->type != XF_TYPE_INTEGER ||
                                  xf_shape_rank(s->shape) > 0 || !stable(p, s, v->u.ref, budget)))
            return false;
    }
    return true;
}

static uint64_t
sym_size(const xf_symbol *s)
{
    int rank = xf_shape_rank(s->shape);
    if (rank <= 0)
        return rank == 0 || rank == -1 ? 1 : UINT64_MAX;
    if (rank > 2 || s->dims.n != (uint32_t)rank || s->type != XF_TYPE_REAL)
        return UINT64_MAX;
    uint64_t n = 1;
    for (uint32_t k = 0; k < s->dims.n; k++) {
        int64_t lo = s->dims.v[k].lower, hi = s->dims.v[k].upper;
        if (lo == XF_NOINT || hi == XF_NOINT || hi < lo || hi - lo >= 1 << 20)
            return UINT64_MAX;
        n *= (uint64_t)(hi - lo + 1);
    }
    return n;
}

/* Is vertex @v of @x an integer constant? Its value in *@out. */
static bool
vertex_int(const xf_expr *x, uint32_t v, int64_t *out)
{
    if (v >= x->v.n || x->v.v[v].kind != XF_EV_CONSTANT || x->v.v[v].u.c.type != XF_TYPE_INTEGER)
        return false;
    char *end;
    *out = strtoll(x->v.v[v].u.c.value, &end, 10);
    return *x->v.v[v].u.c.value && !*end;
}

/* The trip count of loop region @q when its bounds are constants; 0 if not. */
static uint64_t
loop_trips(const xf_region *q)
{
    xf_loophead h;
    int64_t lo, hi;
    if (q->kind != XF_RG_LOOP || !xf_loop_header(q->v, &h) || h.st_x ||
        !vertex_int(h.lo_x, h.lo, &lo) || !vertex_int(h.hi_x, h.hi, &hi) || lo < -(1 << 20) ||
        lo > 1 << 20 || hi < -(1 << 20) || hi > 1 << 20)
        return 0;
    hi += h.adjust;
    int64_t t = h.step > 0 ? (hi - lo) / h.step + 1 : (lo - hi) / -h.step + 1;
    return t > 0 ? (uint64_t)t : 0;
}

/* Executions of block region @r per run, at least: the product of the
 * constant trip counts of the loops around it; 0 under a branch or a loop
 * whose trip count is not a constant (it may not run). */
static uint64_t
trips(const xf_region *r)
{
    uint64_t n = 1;
    for (const xf_region *q = r->parent; q; q = q->parent) {
        uint64_t t = loop_trips(q);
        if (!t)
            return 0;
        if (n < (1ull << 40))
            n *= t;
    }
    return n;
}

/* The size of an array without bounds, as far as @ref in block @r shows
 * it: every subscript the variable of a loop around @r with constant
 * bounds (the elements the loops visit); UINT64_MAX otherwise. */
static uint64_t
visited(const xf_region *r, const xf_varref *ref)
{
    const xf_arrref *ar = xf_varref_arrref(ref);
    uint64_t n = 1;
    for (uint32_t k = 0; ar && k < ar->t.n; k++) {
        const xf_expr *x = ar->t.v[k].index;
        if (!x || x->v.n != 1 || x->v.v[0].kind != XF_EV_VARREF)
            return UINT64_MAX;
        const xf_symbol *i = xf_tbr_sym(x->v.v[0].u.ref);
        uint64_t t = 0;
        for (const xf_region *q = r->parent; q && !t; q = q->parent)
            if (q->kind == XF_RG_LOOP && q->head && q->head->i == i)
                t = loop_trips(q);
        if (!t)
            return UINT64_MAX;
        n *= t;
    }
    return ar ? n : UINT64_MAX;
}

/* Is @s stable (see the file's comment)? @ref: a reference to it. */
static bool
stable(const vp *p, const xf_symbol *s, const xf_varref *ref, uint64_t *budget)
{
    const use *u = xf_map_get(&p->uses, s);
    if (u && u->writes)
        return false;
    /* a host's variable may be written by any call, as a global */
    bool local = xf_is_private(p->rt, p->host, s);
    if (!local && p->any_call)
        return false;
    if (s->type != XF_TYPE_REAL && (s->type != XF_TYPE_INTEGER || xf_shape_rank(s->shape) > 0))
        return false;
    for (uint32_t k = 0; k < p->writes.n; k++) {
        const xf_varref *w = p->writes.v[k];
        const xf_symbol *ws = xf_tbr_sym(w);
        if (*budget == 0)
            return false;
        --*budget;
        if (!ws || xf_refs_may_alias(p->doc, w, ref))
            return false;
    }
    return true;
}

/* Does no write of the routine but @def (its one assignment) touch what
 * @ref names? Each write looked at costs one of @budget. */
static bool
only_write(const vp *p, const xf_varref *def, const xf_varref *ref, uint64_t *budget)
{
    for (uint32_t k = 0; k < p->writes.n; k++) {
        const xf_varref *w = p->writes.v[k];
        if (w == def)
            continue;
        if (*budget == 0)
            return false;
        --*budget;
        if (!xf_tbr_sym(w) || xf_refs_may_alias(p->doc, w, ref))
            return false;
    }
    return true;
}

/* The sequence that holds region @r (the top one, a loop's body, an arm's). */
static const xf_rgseq *
seq_of(const xf_cfgtree *t, const xf_region *r)
{
    const xf_region *q = r->parent;
    if (!q)
        return &t->top;
    if (q->kind == XF_RG_LOOP)
        return &q->body;
    for (uint32_t k = 0; k < q->arms.n; k++)
        for (uint32_t j = 0; j < q->arms.v[k].body.v.n; j++)
            if (q->arms.v[k].body.v.v[j] == r)
                return &q->arms.v[k].body;
    return NULL;
}

/* Does block @d, outside any loop, run before region @r whenever @r runs:
 * is @d earlier than @r, or than a region around @r, in one sequence?
 * Each region looked at costs one of @budget. */
static bool
runs_before(vp *p, const xf_cvertex *d, const xf_region *r, uint64_t *budget)
{
    if (!p->region_of.n)
        for (uint32_t i = 0; i < p->t->all.n; i++)
            if (p->t->all.v[i]->kind == XF_RG_BLOCK &&
                !xf_map_put(&p->region_of, p->a, p->t->all.v[i]->v, p->t->all.v[i], NULL))
                return false;
    const xf_region *dr = xf_map_get(&p->region_of, d);
    if (!dr)
        return false;
    for (const xf_region *q = dr->parent; q; q = q->parent)
        if (q->kind == XF_RG_LOOP)
            return false;
    for (const xf_region *a = r; a; a = a->parent) {
        if (a->parent != dr->parent)
            continue;
        const xf_rgseq *sq = seq_of(p->t, a);
        for (uint32_t j = 0; sq && j < sq->v.n && *budget; j++, --*budget) {
            if (sq->v.v[j] == a)
                return false; /* reached @r's ancestor first */
            if (sq->v.v[j] == dr)
                return true;
        }
        return false;
    }
    return false;
}

/* Under the joint template only (nothing is handed over: the adjoint runs
 * in the taping sweep's activation), a private local scalar that one
 * assignment writes, outside any loop, is as good as stable in the
 * candidate's block @r when that assignment runs first: earlier in @r
 * (before its statement @at), or in a block that runs before @r whenever
 * @r runs (runs_before: earlier in a sequence that holds @r or a region
 * around it; @r may be in a loop). A run writes it once, before the block,
 * and the block's adjoint, which runs before that assignment's, reads the
 * value it left. @ref: a reference to it. */
static bool
stable_once(vp *p, const xf_region *r, const xf_symbol *s, const xf_varref *ref, uint32_t at,
            uint64_t *budget)
{
    const use *u = xf_map_get(&p->uses, s);
    if (!p->joint || !u || u->writes != 1 || !u->def || xf_shape_rank(s->shape) > 0 ||
        xf_varref_arrref(ref) || xf_varref_arrref(&u->def->u.as.lhs) ||
        !xf_is_private(p->rt, p->host, s) ||
        (s->type != XF_TYPE_REAL && s->type != XF_TYPE_INTEGER))
        return false;
    if (u->bb == r->v) {
        if (u->at >= at)
            return false;
        for (const xf_region *q = r->parent; q; q = q->parent)
            if (q->kind == XF_RG_LOOP)
                return false;
    } else if (!runs_before(p, u->bb, r, budget)) {
        return false;
    }
    return only_write(p, &u->def->u.as.lhs, ref, budget);
}

static bool reads_stable(vp *p, const xf_region *r, const xf_expr *x, uint32_t at,
                         uint64_t *budget);
static bool add_stab(vp *p, const xf_region *r, const xf_symbol *s, const xf_varref *ref,
                     uint64_t size);

/* A subscript @x of block @r that reads, besides constants and the
 * variables of the loops around @r, integer scalars that are stable
 * (the `n + i` of a formal n): the adjoint evaluates it alike. Those
 * scalars join p->stabs, so that the split template, which hands over
 * only active arguments, drops the partial again. */
static bool
stable_index(vp *p, const xf_region *r, const xf_expr *x, uint64_t *budget)
{
    for (uint32_t i = 0; i < x->v.n; i++) {
        const xf_evertex *v = &x->v.v[i];
        if (v->kind == XF_EV_CONSTANT || v->kind == XF_EV_INTRINSIC)
            continue;
        if (v->kind != XF_EV_VARREF || xf_varref_arrref(v->u.ref) || v->u.ref->v.n > 1)
            return false;
        const xf_symbol *s = xf_tbr_sym(v->u.ref);
        if (!s || is_loopvar(r, s))
            continue;
        if (s->type != XF_TYPE_INTEGER || xf_shape_rank(s->shape) > 0)
            return false;
        if (xf_map_get(&p->stab_of, s))
            continue;
        if (!stable(p, s, v->u.ref, budget) || !add_stab(p, r, s, v->u.ref, 1))
            return false;
    }
    return true;
}

/* Chains of copies (linearization's d1 = x[i], d2 = x[i] and
 * p1 = d1 + d2): a private local scalar that one assignment writes,
 * earlier in the candidate's block @r (before its statement @at), whose
 * right-hand side is one vertex, a stable value, a constant or another
 * such copy (CHAIN_DEPTH deep at most; wider right-hand sides made the
 * corpus' adjoints compute more; under the joint template also the sum
 * or difference of two such, cheap_rhs), has, wherever the block reads
 * it after that assignment, the value of that right-hand side evaluated
 * again: no statement between writes what it reads (its subscripts read
 * constants and the variables of the loops around @r, which the block
 * does not change; not subscripts of address recovery, which answers for
 * one position). The candidate's repeat gets that right-hand side in
 * place of the temporary (substitute), under both templates: what the
 * substituted assignment reads is stable, handed over as any other. */
enum { CHAIN_DEPTH = 4, CHAIN_VERTICES = 64 };

/* One vertex, or under the joint template a sum or difference of two
 * (x[i] - y[i]): no dearer to evaluate again than a pop. (Under split
 * the stable values they read are handed over at the sweep's end, which
 * raised the corpus' tape words.) */
static bool
cheap_rhs(const xf_expr *x, bool joint)
{
    if (x->v.n == 1)
        return true;
    if (!joint)
        return false;
    uint32_t r = xf_expr_root(x);
    if (x->v.n != 3 || r == UINT32_MAX || x->v.v[r].kind != XF_EV_INTRINSIC ||
        (strcmp(x->v.v[r].u.in.name, "add_scal_scal") &&
         strcmp(x->v.v[r].u.in.name, "sub_scal_scal")))
        return false;
    for (uint32_t i = 0; i < 3; i++)
        if (i != r && x->v.v[i].kind == XF_EV_INTRINSIC)
            return false;
    return true;
}

static bool
chained(vp *p, const xf_region *r, const xf_symbol *s, const xf_varref *ref, uint32_t at,
        uint64_t *budget)
{
    const use *u = xf_map_get(&p->uses, s);
    if (p->depth >= CHAIN_DEPTH || !u || u->writes != 1 || !u->def || u->bb != r->v ||
        u->at >= at || u->def->kind != XF_STMT_ASSIGN || xf_shape_rank(s->shape) > 0 ||
        xf_varref_arrref(ref) || xf_varref_arrref(&u->def->u.as.lhs) ||
        !xf_is_private(p->rt, p->host, s) ||
        (s->type != XF_TYPE_REAL && s->type != XF_TYPE_INTEGER) ||
        !cheap_rhs(&u->def->u.as.rhs, p->joint))
        return false;
    if (!only_write(p, &u->def->u.as.lhs, ref, budget))
        return false;
    if (!xf_map_get(&p->chain, s)) {
        p->depth++;
        bool ok = reads_stable(p, r, &u->def->u.as.rhs, u->at, budget);
        p->depth--;
        if (!ok || !xf_map_put(&p->chain, p->a, s, (void *)u->def, NULL))
            return false;
    }
    p->chained = true;
    return true;
}

/* Copy vertex @vi of @src and its operands into @dst, each chained
 * temporary read replaced by its right-hand side; *@left: vertices that
 * may still be copied. Returns the copy's index, UINT32_MAX if none. */
static uint32_t
substitute(vp *p, xf_expr *dst, const xf_expr *src, uint32_t vi, unsigned depth, unsigned *left)
{
    if (vi >= src->v.n || depth > CHAIN_DEPTH || !*left)
        return UINT32_MAX;
    --*left;
    const xf_evertex *v = &src->v.v[vi];
    const xf_stmt *d = v->kind == XF_EV_VARREF && !xf_varref_arrref(v->u.ref)
                           ? xf_map_get(&p->chain, xf_tbr_sym(v->u.ref))
                           : NULL;
    if (d) {
        uint32_t root = xf_expr_root(&d->u.as.rhs);
        return root == UINT32_MAX ? root : substitute(p, dst, &d->u.as.rhs, root, depth + 1, left);
    }
    uint32_t c = xf_expr_copy_vertex(p->doc, dst, src, vi);
    for (uint32_t j = 0; c != UINT32_MAX && j < src->e.n; j++) {
        if (src->e.v[j].tgt != vi)
            continue;
        uint32_t o = substitute(p, dst, src, src->e.v[j].src, depth, left);
        if (o == UINT32_MAX || !xf_expr_edge(p->doc, dst, o, c, src->e.v[j].pos))
            return UINT32_MAX;
    }
    return c;
}

/* @def with the chained temporaries it reads substituted, or NULL. */
static const xf_stmt *
repeat_of(vp *p, const xf_stmt *def)
{
    uint32_t root = xf_expr_root(&def->u.as.rhs);
    xf_stmt *c = root == UINT32_MAX ? NULL : xf_stmt_copy(p->doc, def);
    if (!c)
        return NULL;
    xf_expr rhs = {.h = def->u.as.rhs.h};
    unsigned left = 4 * CHAIN_VERTICES;
    if (substitute(p, &rhs, &def->u.as.rhs, root, 0, &left) == UINT32_MAX)
        return NULL;
    c->u.as.rhs = rhs;
    return c;
}

static bool
fixed_scalar(void *ctx, const xf_symbol *s, const xf_varref *ref)
{
    const vp *p = ctx;
    uint64_t budget = (uint64_t)p->writes.n + 1;
    return stable(p, s, ref, &budget);
}

/* Does the element @ref names (read at statement @at of block @r) keep,
 * from that read to the routine's end, the value read (tbr_region.c)?
 * The variable's other writes are to variables apart from it (as for
 * stable), and no call may write it unseen: none at all unless it is
 * private (what xf_tbr_writes_own knows of a callee differs when the
 * routines are streamed one at a time, and the outputs must not). */
static bool
stable_element(vp *p, const xf_region *r, uint32_t at, const xf_varref *ref, uint64_t *budget)
{
    const xf_symbol *s = xf_tbr_sym(ref);
    if (p->depth > CHAIN_DEPTH || (!xf_is_private(p->rt, p->host, s) && (p->any_call || p->calls)))
        return false;
    for (uint32_t k = 0; k < p->writes.n; k++) {
        const xf_varref *w = p->writes.v[k];
        const xf_symbol *ws = xf_tbr_sym(w);
        if (ws == s)
            continue;
        if (*budget == 0)
            return false;
        --*budget;
        if (!ws || xf_refs_may_alias(p->doc, w, ref))
            return false;
    }
    if (!p->region && !(p->region = xf_tbr_region_new(p->t, p->a, fixed_scalar, p)))
        return false;
    return xf_tbr_region_stable(p->region, r, at, ref, p->writes.v, p->writes.n, budget);
}

/* The stable variables @x reads, added to p->stabs; false if it reads
 * anything else, or a subscript the adjoint cannot evaluate. */
static bool
reads_stable(vp *p, const xf_region *r, const xf_expr *x, uint32_t at, uint64_t *budget)
{
    for (uint32_t i = 0; i < x->v.n; i++) {
        const xf_evertex *v = &x->v.v[i];
        if (v->kind == XF_EV_CONSTANT || v->kind == XF_EV_INTRINSIC)
            continue;
        if (v->kind != XF_EV_VARREF)
            return false;
        const xf_varref *ref = v->u.ref;
        const xf_symbol *s = xf_tbr_sym(ref);
        const xf_arrref *ar = xf_varref_arrref(ref);
        if (!s || ref->v.n > 2)
            return false;
        for (uint32_t k = 0; ar && k < ar->t.n; k++) {
            if (ar->t.v[k].bound || ar->t.v[k].stride || !ar->t.v[k].index)
                return false;
            if (recomputable(p, r, ar->t.v[k].index, budget) ||
                stable_index(p, r, ar->t.v[k].index, budget))
                continue;
            if (!p->addr || p->depth ||
                !xf_addr_subscript(p->doc, p->addr, r->v, at, ar->t.v[k].index))
                return false;
            p->recovered = true; /* adjoin rewrites it where the def stands */
        }
        uintptr_t known = (uintptr_t)xf_map_get(&p->stab_of, s);
        uint64_t size = sym_size(s);
        if (size == UINT64_MAX && xf_shape_rank(s->shape) > 0 && s->type == XF_TYPE_REAL &&
            !s->dims.n)
            size = visited(r, ref);
        if (size == UINT64_MAX && !p->joint && !kept(p, s))
            return false;
        /* a real array the routine writes: stable where this element is;
         * under the joint template only (under split the array would be
         * handed over whole, which cost rotate_points more instructions
         * than the values tbr_cut.c tapes for the same words) */
        const use *wu = ar && p->joint && p->elements ? xf_map_get(&p->uses, s) : NULL;
        bool elem = wu && wu->writes && s->type == XF_TYPE_REAL;
        if (elem && !stable_element(p, r, at, ref, budget))
            return false;
        /* an argument: present (read where the routine always goes), and
         * bound to a variable, which its adjoint's pop may write: an active
         * one is (convert passes anything else through a temporary), a
         * passive one may be a constant */
        bool present = !xf_tbr_is_arg(p->rt, s) || (trips(r) > 0 && xf_is_active_sym(s));
        if (known) {
            stab *k = &p->stabs.v[known - 1];
            if (size > k->size)
                k->size = size;
            k->present = k->present || present;
            continue;
        }
        if (!elem && !stable(p, s, ref, budget)) {
            if (!stable_once(p, r, s, ref, at, budget) && !chained(p, r, s, ref, at, budget))
                return false;
            continue; /* checked again at each use: its block decides */
        }
        stab st = {.s = s, .ref = ref, .size = size, .kept = kept(p, s), .present = present};
        if (!XF_VEC_PUSH(p->a, p->stabs, st) ||
            !xf_map_put(&p->stab_of, p->a, s, (void *)(uintptr_t)p->stabs.n, NULL))
            return false;
    }
    return true;
}

/* Under the joint template only: a repeat whose right-hand side is
 * written alike (xf_expr_sig) to that of another assignment of its block
 * @r, to a private local real scalar V that no other statement writes and
 * that statements other than propagators read (so no candidate, and kept
 * by tbr_live.c), with no loop around @r, reads V instead: when the
 * block's adjoint runs, V holds what that assignment left, and the
 * right-hand side reads the same values there as at the repeat's place
 * when it reads stable values at V's assignment (stable_once's ones
 * written before it). The partial of cos(t), sin(t), is then the
 * s = sin(t) the routine computed, not a second sine. Only right-hand
 * sides of at most REUSE_VERTICES vertices with an intrinsic are looked
 * at. Returns @rec itself when none fits. */
enum { REUSE_VERTICES = 16 };

static bool
worth_reuse(const xf_expr *x)
{
    if (x->v.n < 2 || x->v.n > REUSE_VERTICES)
        return false;
    for (uint32_t i = 0; i < x->v.n; i++)
        if (x->v.v[i].kind == XF_EV_FUNCALL)
            return false;
    for (uint32_t i = 0; i < x->v.n; i++)
        if (x->v.v[i].kind == XF_EV_INTRINSIC)
            return true;
    return false;
}

static bool
fill_sigs(vp *p, const xf_cvertex *bb)
{
    p->sigbb = bb;
    memset(&p->sigs, 0, sizeof p->sigs);
    for (uint32_t k = 0; k < bb->stmts.n; k++) {
        const xf_stmt *s = bb->stmts.v[k];
        if (s->kind != XF_STMT_ASSIGN || xf_varref_arrref(&s->u.as.lhs) ||
            !worth_reuse(&s->u.as.rhs))
            continue;
        const xf_symbol *v = xf_tbr_sym(&s->u.as.lhs);
        const use *u = v ? xf_map_get(&p->uses, v) : NULL;
        if (!u || u->writes != 1 || u->def != s || !u->reads || v->type != XF_TYPE_REAL ||
            xf_shape_rank(v->shape) > 0 || !xf_is_private(p->rt, p->host, v))
            continue;
        const char *sig = xf_expr_sig(p->doc, &s->u.as.rhs);
        if (!sig ||
            (!xf_map_get(&p->sigs, sig) && !xf_map_put(&p->sigs, p->a, sig, (void *)s, NULL)))
            return false;
    }
    return true;
}

static const xf_stmt *
reuse(vp *p, const xf_region *r, const xf_stmt *rec, uint64_t *budget)
{
    if (!p->joint || !worth_reuse(&rec->u.as.rhs))
        return rec;
    for (const xf_region *q = r->parent; q; q = q->parent)
        if (q->kind == XF_RG_LOOP)
            return rec;
    if (p->sigbb != r->v && !fill_sigs(p, r->v))
        return NULL;
    const char *sig = xf_expr_sig(p->doc, &rec->u.as.rhs);
    const xf_stmt *d = sig ? xf_map_get(&p->sigs, sig) : NULL;
    if (!d)
        return rec;
    const use *u = xf_map_get(&p->uses, xf_tbr_sym(&d->u.as.lhs));
    bool chained = p->chained, recovered = p->recovered;
    p->chained = p->recovered = false;
    bool ok = only_write(p, &d->u.as.lhs, &d->u.as.lhs, budget) &&
              reads_stable(p, r, &d->u.as.rhs, u->at, budget) && !p->chained && !p->recovered;
    p->chained = chained, p->recovered = recovered;
    if (!ok)
        return rec;
    xf_stmt *c = xf_stmt_copy(p->doc, rec);
    xf_varref *v = xf_ref_dup(p->doc, &d->u.as.lhs);
    xf_expr rhs = {.h = rec->u.as.rhs.h};
    if (!c || !v || xf_expr_ref(p->doc, &rhs, v) == UINT32_MAX)
        return NULL;
    c->u.as.rhs = rhs;
    return c;
}

/* Stable @s (@ref: a reference to it, in block @r) joins p->stabs. */
static bool
add_stab(vp *p, const xf_region *r, const xf_symbol *s, const xf_varref *ref, uint64_t size)
{
    bool present = !xf_tbr_is_arg(p->rt, s) || (trips(r) > 0 && xf_is_active_sym(s));
    stab st = {.s = s, .ref = ref, .size = size, .kept = kept(p, s), .present = present};
    return XF_VEC_PUSH(p->a, p->stabs, st) &&
           xf_map_put(&p->stab_of, p->a, s, (void *)(uintptr_t)p->stabs.n, NULL);
}

/* The candidates of block region @r. */
static bool
block_cands(vp *p, const xf_region *r, uint64_t *budget)
{
    const xf_cvertex *bb = r->v;
    for (uint32_t k = 0; k < bb->stmts.n; k++) {
        const xf_stmt *s = bb->stmts.v[k];
        if (s->kind != XF_STMT_DERIVPROP)
            continue;
        for (uint32_t o = 0; o < s->u.dp.n; o++) {
            const xf_dpop *op = &s->u.dp.v[o];
            if ((op->kind != XF_DP_SAX && op->kind != XF_DP_SAXPY) ||
                xf_map_get(&p->plan->deadop, op))
                continue; /* no partial, or no adjoint (tbr_live.c) */
            for (uint32_t t = 0; t < op->ax.n; t++) {
                const xf_expr *a = &op->ax.v[t].a;
                if (a->v.n != 1 || a->v.v[0].kind != XF_EV_VARREF)
                    continue;
                const xf_varref *pr = a->v.v[0].u.ref;
                const xf_symbol *ps = xf_tbr_sym(pr);
                use *u = ps ? xf_map_get(&p->uses, ps) : NULL;
                if (!ps || xf_varref_arrref(pr) || xf_shape_rank(ps->shape) > 0 || !u ||
                    u->writes != 1 || u->reads || !xf_tbr_is_local(p->rt, ps) ||
                    xf_map_get(&p->stab_of, ps))
                    continue;
                /* its assignment: earlier in this block */
                const xf_stmt *def = u->bb == bb && u->at < k ? u->def : NULL;
                p->chained = p->recovered = false;
                if (!def || u->cand || xf_varref_arrref(&def->u.as.lhs) ||
                    !reads_stable(p, r, &def->u.as.rhs, u->at, budget))
                    continue;
                /* adjoin finds a repeat's recovered subscripts by its
                 * place in the block, which a substituted one has not */
                const xf_stmt *rec = !p->chained ? def : p->recovered ? NULL : repeat_of(p, def);
                if (rec && !p->recovered)
                    rec = reuse(p, r, rec, budget);
                if (!rec)
                    continue;
                cand c = {.p = ps, .def = def, .rec = rec, .bb = bb, .trips = trips(r), .ok = true};
                if (!XF_VEC_PUSH(p->a, p->cands, c))
                    return false;
                u->cand = true;
            }
        }
    }
    return true;
}

/* The stable variables candidate @c reads, by index into p->stabs, are
 * visited by @f. */
static void
each_stab(vp *p, cand *c, void (*f)(vp *, cand *, stab *))
{
    const xf_expr *x = &c->rec->u.as.rhs;
    for (uint32_t i = 0; i < x->v.n; i++) {
        if (x->v.v[i].kind != XF_EV_VARREF)
            continue;
        uintptr_t k = (uintptr_t)xf_map_get(&p->stab_of, xf_tbr_sym(x->v.v[i].u.ref));
        if (k)
            f(p, c, &p->stabs.v[k - 1]);
    }
}

static void
add_saves(vp *p, cand *c, stab *s)
{
    (void)p;
    s->saves += c->trips;
}

static void
drop_if_unhanded(vp *p, cand *c, stab *s)
{
    (void)p;
    if (!s->hand)
        c->ok = false;
}

/* ------------------------------------------------------------ the plan */

static xf_stmt *
tape(xf_doc *doc, const xf_symbol *s, bool push)
{
    int rank = xf_shape_rank(s->shape);
    bool i = s->type == XF_TYPE_INTEGER;
    static const char *const name[2][3] = {{"pop_s0", "pop_s1", "pop_s2"},
                                           {"push_s0", "push_s1", "push_s2"}};
    const char *n = i ? (push ? "push_i_s0" : "pop_i_s0") : name[push][rank < 0 ? 0 : rank];
    xf_stmt *st = xf_stmt_icall(
        doc, i ? (push ? "inline_push_i" : "inline_pop_i") : (push ? "inline_push" : "inline_pop"),
        n);
    xf_varref *r = xf_ref_new(doc, (xf_symbol *)s);
    if (!st || !r)
        return NULL;
    xf_mark_ref(r, xf_is_active_sym(s), false); /* its value (as template's checkpoints) */
    return xf_icall_ref(doc, st, r) ? st : NULL;
}

static int
values(xf_doc *doc, const xf_routine *rt, const xf_graph *g, const xf_cfgtree *t,
       const struct xf_addr *addr, unsigned off, xf_arena *own, xf_arena *a, xf_tbr *plan)
{
    bool joint = (off & XF_TAPE_JOINT) != 0;
    /* the last region of the routine must be a block: it hands the values
     * (none under the joint template only) */
    bool last = t->top.v.n && t->top.v.v[t->top.v.n - 1]->kind == XF_RG_BLOCK;
    if (!last && !joint)
        return 0;
    vp p = {.doc = doc,
            .plan = plan,
            .rt = rt,
            .a = own,
            .joint = joint,
            .elements = !(off & XF_TAPE_OFF_REGION),
            .keep = (off & XF_TAPE_KEPT) != 0,
            .t = t,
            .host = xf_hosts_procedures(doc, rt),
            .addr = addr};
    if (!scan(&p, g))
        return 0; /* too deep to look at: tape everything */
    uint64_t budget = 64 * ((uint64_t)g->v.n + p.writes.n + 16);
    for (uint32_t i = 0; i < t->all.n; i++)
        if (t->all.v[i]->kind == XF_RG_BLOCK && !block_cands(&p, t->all.v[i], &budget))
            return -1;
    if (!p.cands.n)
        return 0;
    /* hand a variable where the partials it saves are at least its size;
     * a partial is recomputed only if every variable it reads is handed;
     * under the joint template only, every candidate is recomputed and
     * nothing is handed */
    for (int round = 0; round < 4 && !joint; round++) {
        for (uint32_t k = 0; k < p.stabs.n; k++)
            p.stabs.v[k].saves = 0;
        for (uint32_t c = 0; c < p.cands.n; c++)
            if (p.cands.v[c].ok)
                each_stab(&p, &p.cands.v[c], add_saves);
        for (uint32_t k = 0; k < p.stabs.n; k++)
            p.stabs.v[k].hand = p.stabs.v[k].kept ||
                                (p.stabs.v[k].present && p.stabs.v[k].saves > p.stabs.v[k].size);
        for (uint32_t c = 0; c < p.cands.n; c++)
            if (p.cands.v[c].ok)
                each_stab(&p, &p.cands.v[c], drop_if_unhanded);
    }
    plan->last = last ? t->top.v.v[t->top.v.n - 1]->v : NULL;
    for (uint32_t c = 0; c < p.cands.n; c++) {
        const cand *cd = &p.cands.v[c];
        if (!cd->ok)
            continue;
        if (!xf_map_put(&plan->recomp, a, cd->p, (void *)cd->rec, NULL) ||
            !xf_map_put(&plan->dead, a, cd->def, (void *)cd->def, NULL))
            return -1;
        plan->recomputed++;
    }
    for (uint32_t k = 0; k < p.stabs.n; k++) {
        const stab *s = &p.stabs.v[k];
        if (joint || s->kept || !s->hand || !s->saves)
            continue;
        xf_stmt *push = tape(doc, s->s, true), *pop = tape(doc, s->s, false);
        if (!push || !pop || !XF_VEC_PUSH(a, plan->push, push) || !XF_VEC_PUSH(a, plan->pop, pop))
            return -1;
        plan->handed += (unsigned)s->size;
    }
    /* the pops run in the reverse order of the pushes */
    for (uint32_t i = 0, j = plan->pop.n; i + 1 < j; i++, j--) {
        xf_stmt *tmp = plan->pop.v[i];
        plan->pop.v[i] = plan->pop.v[j - 1];
        plan->pop.v[j - 1] = tmp;
    }
    return 0;
}

/* The uses, candidates and stable values live in an arena of their own
 * that dies on return; only the plan stays in @a (issue 26: 22 of
 * adjoin's 98 MB on a block of 300 000 assignments). */
int
xf_tbr_values_into(xf_doc *doc, const xf_routine *rt, const xf_graph *g, const xf_cfgtree *t,
                   const struct xf_addr *addr, unsigned off, xf_arena *a, xf_tbr *plan)
{
    xf_arena *own = xf_arena_new_like(a);
    if (!own)
        return -1;
    int r = values(doc, rt, g, t, addr, off, own, a, plan);
    if (xf_arena_failed(own))
        r = -1;
    xf_arena_free(own);
    return r;
}
