/* deadstore.c: assignments of the taping sweep (placeholder 2) whose value
 * nothing reads go.
 *
 * Backward liveness over placeholder 2's control flow, one bit per variable
 * that some removable assignment of the sweep sets. An assignment is
 * removable when it writes a value (not a derivative), its right-hand side
 * calls no function, and its target is a variable (not a pointer) written
 * whole or through one subscript list. Live at the sweep's exit: every
 * variable placeholder 3 (the adjoint) mentions anywhere, and every formal,
 * global and host variable. Live inside: whatever a statement that stays,
 * a condition or a loop header mentions (subscripts, call arguments, the
 * arguments of push, Saxpy and ckp_* calls alike); a call or a function
 * call reads every variable that is not a local (and every local when the
 * routine hosts internal procedures). A whole scalar assigned is dead
 * before its assignment; an array element assigned kills nothing (the
 * array is dead only when no element is read after). A removed assignment
 * reads nothing, so the liveness is that of the statements that stay
 * (faint variables): one fixpoint, a worklist over the blocks. A variable
 * whose alias set in the front end's map overlaps another variable's is
 * never a target. When the routine is too large for the sets (words per
 * set times vertices past a bound) or memory runs out on the way, nothing
 * is removed.
 *
 * --reversal joint: under OpenAD's joint template the taping sweep of a
 * routine that another routine calls runs only in the caller's adjoint
 * sweep, right before its own adjoint sweep (xaif-execution.md §5.4); the
 * caller's adjoint sweep reads no real value the callee writes (what it
 * recomputes it reads before the callee's adjoint, the callee's restore
 * of its arguments overwrites the rest). So there the real formals and
 * globals are live at the exit only where placeholder 3 mentions them;
 * integer and logical ones stay live (loop bounds and address recovery of
 * the caller's adjoint read them). The routine nothing calls (the
 * driver's) keeps them, as do routines whose adjoint calls a routine
 * without a Read list (its restore then does not cover the globals it
 * reads). Without --reversal joint (right under both templates) and with
 * --reversal split, every formal and global is live at the exit.
 *
 * --no-value F:Y,...: the outputs Y of routine F (the user's entry, which
 * no routine of the document calls) are not live at F's exit, so F's
 * adjoint stores no value of them, and what only feeds them goes, as
 * Tapenade's adjoint computes no value. A name Y is a formal of F, F
 * itself for its returned value (the formal F_ret), a struct parameter or
 * a member path of one (s, s.m, s->m: the formals the front end made of
 * its real members, xf_member=), or a global. An F that another routine
 * calls is refused unless --reversal joint (its caller's taping reads its
 * outputs); a Y that names nothing real of F is refused. A call reads
 * such a formal only where it is an argument (a callee reaches F's
 * formals through its arguments alone; aliased formals are no targets).
 *
 * Needs: reverse. Breaks: nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "callfacts.h"
#include "names.h"
#include "pass.h"

#define MAX_SET_WORDS ((uint64_t)1 << 22) /* vertices times words per set */

/* The pass's own options (xf_pass_own). */
typedef struct ds_opts {
    const char *no_value; /* --no-value F:Y,... as given (the caller's text), or NULL */
} ds_opts;

/* Whole-program facts, gathered before any routine is changed. */
typedef struct facts {
    xf_callfacts *calls;
    xf_arena *a;
    xf_map reads_known; /* routine symbol -> itself: it has a non-empty Read list */
    xf_map hosts;       /* scope -> itself: the local scope of a routine that hosts others */
    xf_map defined;     /* routine symbol -> itself: the document has its body */
    XF_VEC(const xf_symbol *) callees; /* the callee of every call, repeats and all */
    int closed;             /* 0 not yet known, 1 every callee is defined, -1 some is not */
    const char *nv_routine; /* --no-value: F's symbol id, or NULL */
} facts;

typedef struct ds {
    xf_pass_ctx *ctx;
    const facts *f;
    const xf_routine *rt;
    xf_arena *a;
    xf_map unsafe; /* symbol -> itself: aliases another variable */
    xf_map idx;    /* symbol -> (uintptr_t)(its bit + 1) */
    XF_VEC(const xf_symbol *) syms;
    uint32_t w;         /* 64-bit words of a set */
    uint64_t *nonlocal; /* the bits of formals, globals, host variables */
    uint64_t *all;
    bool restored;       /* the calls of the adjoint sweep restore what they read (joint) */
    bool host;           /* the routine hosts internal procedures: a call reads its locals */
    bool failed;         /* out of memory on the way: remove nothing */
    bool unknown_callee; /* placeholder 3 calls a routine without a Read list */
    xf_map no_value;     /* symbol -> itself: an output --no-value leaves dead at the exit */
    XF_VEC(const xf_varref *) refs; /* every reference of both sweeps */
} ds;

static const xf_symbol *
sym_of(const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    return s ? s->sym : NULL;
}

/* ------------------------------------------------------------ visiting references */

/* What a visit does with each reference and each call. */
typedef struct visitor {
    void (*ref)(ds *p, void *arg, const xf_varref *r);
    void (*call)(ds *p, void *arg, const xf_symbol *callee); /* a subroutine's or a function's */
    void *arg;
} visitor;

typedef struct visit {
    ds *p;
    const visitor *vis;
} visit;

static xf_walk_go
visit_step(void *ctx, const xf_walk_step *s)
{
    const visit *v = ctx;
    if (s->ref)
        v->vis->ref(v->p, v->vis->arg, s->ref);
    else if (s->vertex->kind == XF_EV_FUNCALL && v->vis->call)
        v->vis->call(v->p, v->vis->arg, s->vertex->u.fn.sym);
    return XF_WALK_GO;
}

/* Each reference of @r (@flags XF_WALK_SUBSCRIPTS: only of its subscripts),
 * subscripts and call arguments included, and each function call. */
static void
visit_ref(ds *p, const visitor *vis, const xf_varref *r, unsigned flags)
{
    visit v = {p, vis};
    if (xf_walk_ref(r, XF_WALK_ARGS | flags, visit_step, &v) < 0)
        p->failed = true;
}

static void
visit_expr(ds *p, const visitor *vis, const xf_expr *x)
{
    visit v = {p, vis};
    if (xf_walk_expr(x, XF_WALK_ARGS, visit_step, &v) < 0)
        p->failed = true;
}

static void
visit_args(ds *p, const visitor *vis, const xf_arg_vec *args)
{
    for (uint32_t k = 0; k < args->n; k++)
        visit_expr(p, vis, &args->v[k].val);
}

/* Every reference of @s (its target too) and its calls. */
static void
visit_stmt(ds *p, const visitor *vis, const xf_stmt *s)
{
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        visit_ref(p, vis, &s->u.as.lhs, 0);
        visit_expr(p, vis, &s->u.as.rhs);
        break;
    case XF_STMT_CALL:
        if (vis->call)
            vis->call(p, vis->arg, s->u.call.sym);
        visit_args(p, vis, &s->u.call.args);
        break;
    case XF_STMT_ICALL:
        visit_args(p, vis, &s->u.icall.args);
        break;
    case XF_STMT_DERIVPROP:
        for (uint32_t k = 0; k < s->u.dp.n; k++) {
            const xf_dpop *op = &s->u.dp.v[k];
            visit_ref(p, vis, &op->tgt, 0);
            visit_ref(p, vis, &op->src, 0);
            visit_ref(p, vis, &op->y, 0);
            for (uint32_t j = 0; j < op->ax.n; j++) {
                visit_ref(p, vis, &op->ax.v[j].x, 0);
                visit_expr(p, vis, &op->ax.v[j].a);
            }
        }
        break;
    case XF_STMT_MARKER:
        break;
    }
}

/* The header of @v (condition, initialization, update). */
static void
visit_header(ds *p, const visitor *vis, const xf_cvertex *v)
{
    if (v->cond)
        visit_expr(p, vis, v->cond);
    if (v->init)
        visit_stmt(p, vis, v->init);
    if (v->update)
        visit_stmt(p, vis, v->update);
}

static void
visit_graph(ds *p, const visitor *vis, const xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        visit_header(p, vis, v);
        for (uint32_t k = 0; k < v->stmts.n; k++)
            visit_stmt(p, vis, v->stmts.v[k]);
    }
}

/* ------------------------------------------------------------ sets */

static uint32_t
bit_of(const ds *p, const xf_symbol *s)
{
    uintptr_t b = s ? (uintptr_t)xf_map_get(&p->idx, s) : 0;
    return b ? (uint32_t)(b - 1) : UINT32_MAX;
}

static void
set_or(uint64_t *d, const uint64_t *s, uint32_t w)
{
    for (uint32_t k = 0; k < w; k++)
        d[k] |= s[k];
}

/* A reference to the value of a variable makes it live; one to its
 * derivative (deriv="1") does not (its subscripts do, visit_ref). */
static void
gen_ref(ds *p, void *arg, const xf_varref *r)
{
    if (xf_flag_is(r->deriv, false))
        return;
    uint32_t b = bit_of(p, sym_of(r));
    if (b != UINT32_MAX)
        ((uint64_t *)arg)[b / 64] |= (uint64_t)1 << (b % 64);
}

static void
gen_call(ds *p, void *arg, const xf_symbol *callee)
{
    (void)callee;
    if (!p->restored)
        set_or(arg, p->host ? p->all : p->nonlocal, p->w);
}

/* ------------------------------------------------------------ candidates */

/* The variable assignment @s sets, if it may go when that is dead. */
static const xf_symbol *
target(const xf_stmt *s)
{
    if (s->kind != XF_STMT_ASSIGN || xf_flag_is(s->u.as.lhs.deriv, false))
        return NULL;
    const xf_varref *l = &s->u.as.lhs;
    const xf_symbol *y = sym_of(l);
    if (!y || y->kind != XF_SYMKIND_VARIABLE || xf_flag_is(y->pointer, false) ||
        (l->v.n != 1 && !(l->v.n == 2 && xf_varref_arrref(l))))
        return NULL;
    const xf_expr *x = &s->u.as.rhs;
    for (uint32_t v = 0; v < x->v.n; v++)
        if (x->v.v[v].kind == XF_EV_FUNCALL || x->v.v[v].kind == XF_EV_ARGREF)
            return NULL;
    return y;
}

/* Does assignment @s write the whole of its (scalar) target? */
static bool
kills(const xf_stmt *s, const xf_symbol *y)
{
    return s->u.as.lhs.v.n == 1 && xf_shape_rank(y->shape) == 0;
}

static void
note_ref(ds *p, void *arg, const xf_varref *r)
{
    (void)arg;
    if (!XF_VEC_PUSH(p->a, p->refs, r))
        p->failed = true;
}

/* @s's address ranges overlap another variable's: never a target. */
static bool
mark_unsafe(void *ctx, const xf_symbol *s)
{
    ds *p = ctx;
    return xf_map_put(&p->unsafe, p->a, s, (void *)s, NULL);
}

/* The targets of the sweep's removable assignments, one bit each. */
static bool
universe(ds *p, const xf_graph *g2)
{
    for (uint32_t i = 0; i < g2->v.n; i++) {
        const xf_cvertex *v = g2->v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            const xf_symbol *y = target(v->stmts.v[k]);
            if (!y || xf_map_get(&p->unsafe, y) || bit_of(p, y) != UINT32_MAX)
                continue;
            uintptr_t b = p->syms.n + 1;
            if (!XF_VEC_PUSH(p->a, p->syms, y) || !xf_map_put(&p->idx, p->a, y, (void *)b, NULL))
                return false;
        }
    }
    return true;
}

/* ------------------------------------------------------------ the flow */

/* Statement by statement backwards through block @v: @live, what is live
 * after it, becomes what is live before it. With @dead, the statements
 * whose target is dead are noted there (by position), not only skipped. */
static void
transfer(ds *p, const xf_cvertex *v, uint64_t *live, bool *dead)
{
    visitor gen = {gen_ref, gen_call, live};
    for (uint32_t k = v->stmts.n; k-- > 0;) {
        const xf_stmt *s = v->stmts.v[k];
        const xf_symbol *y = target(s);
        uint32_t b = bit_of(p, y);
        if (b != UINT32_MAX) {
            uint64_t m = (uint64_t)1 << (b % 64);
            if (!(live[b / 64] & m)) {
                if (dead)
                    dead[k] = true;
                continue;
            }
            if (kills(s, y))
                live[b / 64] &= ~m;
            /* the target's subscripts, the right-hand side */
            visit_ref(p, &gen, &s->u.as.lhs, XF_WALK_SUBSCRIPTS);
            visit_expr(p, &gen, &s->u.as.rhs);
            continue;
        }
        visit_stmt(p, &gen, s);
    }
    visit_header(p, &gen, v);
}

/* Does every call of the document (of a subroutine, or of a function in an
 * expression) name a routine whose body it has? Then
 * a callee without a Read list still sees at its rerun what its first run
 * saw: the template checkpoints every formal of such a routine and every
 * variable of another scope its code names, and its callees do the same
 * for theirs. */
static bool
closed(facts *f)
{
    if (!f->closed) {
        f->closed = 1;
        for (uint32_t i = 0; i < f->callees.n; i++)
            if (!xf_map_get(&f->defined, f->callees.v[i]))
                f->closed = -1;
    }
    return f->closed > 0;
}

static void
note_callee(ds *p, void *arg, const xf_symbol *callee)
{
    (void)arg;
    facts *f = p->ctx->state;
    if (!callee ||
        (!xf_map_get(&f->reads_known, callee) && !(closed(f) && xf_map_get(&f->defined, callee))))
        p->unknown_callee = true;
}

static void
no_ref(ds *p, void *arg, const xf_varref *r)
{
    (void)p, (void)arg, (void)r;
}

static void
push_callee(ds *p, void *arg, const xf_symbol *callee)
{
    facts *f = arg;
    if (!callee)
        f->closed = -1; /* a function the document does not name */
    else if (!XF_VEC_PUSH(f->a, f->callees, callee))
        p->failed = true;
}

/* Is real formal or global @s left dead at the exit (mode 2)? */
static bool
trimmed(const ds *p, const xf_symbol *s)
{
    return s->type == XF_TYPE_REAL && (xf_is_formal(p->rt, s) || (s->scope && !s->scope->parent));
}

/* What is live at the sweep's exit. */
static void
roots(ds *p, const xf_graph *g3, uint64_t *live)
{
    bool joint = p->ctx->opts && p->ctx->opts->reversal == XF_REV_JOINT &&
                 xf_callfacts_called(p->f->calls, p->rt->sym, 0);
    if (joint && g3) {
        visitor calls = {no_ref, note_callee, NULL};
        visit_graph(p, &calls, g3);
    }
    for (uint32_t b = 0; b < p->syms.n; b++)
        if (!xf_is_local(p->rt, p->syms.v[b]) && !xf_map_get(&p->no_value, p->syms.v[b]) &&
            !(joint && !p->unknown_callee && trimmed(p, p->syms.v[b])))
            live[b / 64] |= (uint64_t)1 << (b % 64);
    /* a call of the adjoint sweep (the callee's rerun and adjoint) restores
     * the real formals and globals it reads before it reads them; the
     * other nonlocals are live already */
    p->restored = joint && !p->unknown_callee && !p->host;
    if (g3) {
        visitor gen = {gen_ref, gen_call, live};
        visit_graph(p, &gen, g3);
    }
    p->restored = false;
}

/* The fixpoint over @g2 and the removal. @returns statements removed, or -1. */
static int64_t
flow(ds *p, const xf_graph *g2, const xf_graph *g3)
{
    uint32_t n = g2->v.n, w = p->w;
    if ((uint64_t)n * w * 2 > MAX_SET_WORDS)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (g2->v.v[i]->index != i)
            return 0; /* not indexed: leave it */
    uint64_t *in = xf_arena_array(p->a, (size_t)n * w, sizeof *in);
    uint64_t *exit = xf_arena_array(p->a, w, sizeof *exit);
    uint64_t *tmp = xf_arena_array(p->a, w, sizeof *tmp);
    uint32_t *nsucc = xf_arena_array(p->a, n, sizeof *nsucc);
    uint32_t *npred = xf_arena_array(p->a, n + 1, sizeof *npred);
    uint32_t *work = xf_arena_array(p->a, n, sizeof *work);
    bool *queued = xf_arena_array(p->a, n, sizeof *queued);
    if (!in || !exit || !tmp || !nsucc || !npred || !work || !queued)
        return -1;
    roots(p, g3, exit);
    /* successors and predecessors as index lists */
    const xf_cedge **succ = xf_arena_array(p->a, g2->e.n + 1, sizeof *succ);
    uint32_t *pred = xf_arena_array(p->a, g2->e.n + 1, sizeof *pred);
    uint32_t *sstart = xf_arena_array(p->a, n + 1, sizeof *sstart);
    if (!succ || !pred || !sstart)
        return -1;
    for (uint32_t e = 0; e < g2->e.n; e++) {
        const xf_cedge *ed = g2->e.v[e];
        if (!ed->src || !ed->tgt || ed->src->index >= n || ed->tgt->index >= n ||
            g2->v.v[ed->src->index] != ed->src || g2->v.v[ed->tgt->index] != ed->tgt)
            return 0;
        nsucc[ed->src->index]++;
        npred[ed->tgt->index + 1]++;
    }
    for (uint32_t i = 0; i < n; i++) {
        sstart[i + 1] = sstart[i] + nsucc[i];
        npred[i + 1] += npred[i];
    }
    uint32_t *sfill = xf_arena_array(p->a, n, sizeof *sfill);
    uint32_t *pfill = xf_arena_array(p->a, n, sizeof *pfill);
    if (!sfill || !pfill)
        return -1;
    for (uint32_t e = 0; e < g2->e.n; e++) {
        const xf_cedge *ed = g2->e.v[e];
        uint32_t s = ed->src->index, t = ed->tgt->index;
        succ[sstart[s] + sfill[s]++] = ed;
        pred[npred[t] + pfill[t]++] = s;
    }
    /* the worklist: every vertex once, then the predecessors of a change */
    uint32_t head = 0, count = n;
    for (uint32_t i = 0; i < n; i++)
        work[i] = n - 1 - i, queued[i] = true;
    /* a backward pass in this order settles a loop nest of depth d in about
     * d + 2 passes: past 8 passes (a nest deeper than about 6) the work
     * would grow with the depth times the size; such a routine keeps its
     * stores */
    uint64_t budget = (uint64_t)n * 8 + 1024;
    while (count) {
        if (!budget--)
            return 0; /* not settled: remove nothing */
        uint32_t i = work[head];
        head = (head + 1) % n;
        count--;
        queued[i] = false;
        const xf_cvertex *v = g2->v.v[i];
        memset(tmp, 0, (size_t)w * sizeof *tmp);
        if (v->kind == XF_CV_EXIT)
            set_or(tmp, exit, w);
        else if (!nsucc[i])
            set_or(tmp, p->all, w); /* stops elsewhere: keep all */
        for (uint32_t k = sstart[i]; k < sstart[i + 1]; k++)
            set_or(tmp, in + (size_t)succ[k]->tgt->index * w, w);
        transfer(p, v, tmp, NULL);
        uint64_t *old = in + (size_t)i * w;
        bool changed = false;
        for (uint32_t k = 0; k < w; k++)
            if ((tmp[k] | old[k]) != old[k])
                changed = true, old[k] |= tmp[k];
        for (uint32_t k = npred[i]; changed && k < npred[i + 1]; k++)
            if (!queued[pred[k]]) {
                queued[pred[k]] = true;
                work[(head + count++) % n] = pred[k];
            }
    }
    if (p->failed)
        return 0;
    /* the removal, block by block, from what is live after each */
    int64_t removed = 0;
    for (uint32_t i = 0; i < n; i++) {
        xf_cvertex *v = g2->v.v[i];
        if (v->kind != XF_CV_BASICBLOCK || !v->stmts.n)
            continue;
        memset(tmp, 0, (size_t)w * sizeof *tmp);
        if (!nsucc[i])
            set_or(tmp, p->all, w);
        for (uint32_t k = sstart[i]; k < sstart[i + 1]; k++)
            set_or(tmp, in + (size_t)succ[k]->tgt->index * w, w);
        bool *dead = xf_arena_array(p->a, v->stmts.n, sizeof *dead);
        if (!dead)
            return -1;
        transfer(p, v, tmp, dead);
        uint32_t m = 0;
        for (uint32_t k = 0; k < v->stmts.n; k++)
            if (!dead[k])
                v->stmts.v[m++] = v->stmts.v[k];
        removed += v->stmts.n - m;
        v->stmts.n = m;
    }
    return removed;
}

/* ------------------------------------------------------------ --no-value */

/* Does the member path @m (".a.b" in an annotation, ended by '|', ';' or
 * its end) begin with @y's (@n bytes: none, ".a" or "->a", '.' and "->"
 * alike)? */
static bool
path_begins(const char *m, const char *y, size_t n)
{
    for (size_t i = 0; i < n;) {
        if (!*m || strchr("|;", *m))
            return false;
        if (y[i] == '-' && i + 1 < n && y[i + 1] == '>' && *m == '.')
            m++, i += 2;
        else if (*m == y[i])
            m++, i++;
        else
            return false;
    }
    return !*m || strchr("|;.", *m);
}

/* Does output name @y (@n bytes) of --no-value name real formal or global
 * @s of routine @rt: by its id, F for the returned value F_ret, or as a
 * struct parameter or member path of one (the front end's
 * xf_member=BY|TYPE|NAME|PATH)? */
static bool
names(const xf_routine *rt, const xf_symbol *s, const char *y, size_t n)
{
    const char *f = xf_routine_symbol(rt), *m = s->h.annotation;
    size_t id = strlen(s->id), rl = strcspn(y, ".-");
    if (id == n && !strncmp(s->id, y, n))
        return true;
    if (strlen(f) == n && !strncmp(f, y, n) && id == n + 4 && !strncmp(s->id, y, n) &&
        !strcmp(s->id + n, "_ret"))
        return true;
    m = m ? strstr(m, "xf_member=") : NULL;
    for (int k = 0; m && k < 2; k++) /* past BY and TYPE */
        if ((m = strchr(m, '|')))
            m++;
    if (rl > n)
        rl = n;
    return m && !strncmp(m, y, rl) && m[rl] == '|' && path_begins(m + rl + 1, y + rl, n - rl);
}

/* The outputs of --no-value's list into p->no_value; 0, or -1 after
 * reporting a name that is no real output of the routine. */
static int
no_value_outputs(ds *p, const char *list)
{
    xf_pass_ctx *ctx = p->ctx;
    const xf_scopes *sc = &ctx->doc->cg.scopes;
    for (const char *y = list; *y;) {
        size_t n = strcspn(y, ","), hits = 0;
        for (uint32_t k = 0; k < p->rt->args.n; k++) {
            const xf_symbol *s = p->rt->args.v[k].sym;
            if (s && s->type == XF_TYPE_REAL && names(p->rt, s, y, n)) {
                if (!xf_map_put(&p->no_value, p->a, s, (void *)s, NULL))
                    return xf_pass_oom(ctx);
                hits++;
            }
        }
        for (uint32_t i = 0; !hits && i < sc->v.n; i++) /* a global */
            for (uint32_t k = 0; !sc->v.v[i]->parent && k < sc->v.v[i]->syms.n; k++) {
                const xf_symbol *s = sc->v.v[i]->syms.v[k];
                if (s->type == XF_TYPE_REAL && strlen(s->id) == n && !strncmp(s->id, y, n)) {
                    if (!xf_map_put(&p->no_value, p->a, s, (void *)s, NULL))
                        return xf_pass_oom(ctx);
                    hits++;
                }
            }
        if (!hits) {
            xf_error(ctx->diag, ctx->doc->filename, p->rt->h.line,
                     "--no-value: '%.*s' is no real output of %s", (int)n, y,
                     xf_routine_symbol(p->rt));
            return -1;
        }
        y += n + (y[n] == ',');
    }
    return 0;
}

/* ------------------------------------------------------------ the pass */

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    if (!rt->is_rlist)
        return 0;
    ds p = {.ctx = ctx, .f = ctx->state, .rt = rt, .a = ctx->scratch};
    if (p.f->nv_routine && !strcmp(xf_routine_symbol(rt), p.f->nv_routine)) {
        if (xf_callfacts_called(p.f->calls, rt->sym, 0) &&
            !(ctx->opts && ctx->opts->reversal == XF_REV_JOINT)) {
            xf_error(ctx->diag, ctx->doc->filename, rt->h.line,
                     "--no-value: %s is called by another routine, whose taping reads its outputs "
                     "(only --reversal joint allows it)",
                     p.f->nv_routine);
            return -1;
        }
        const ds_opts *own = xf_pass_own_c(ctx->opts, &xf_pass_deadstore);
        if (no_value_outputs(&p, strchr(own->no_value, ':') + 1) != 0)
            return -1;
    }
    xf_replacement *r2 = xf_placeholder(rt, "2"), *r3 = xf_placeholder(rt, "3");
    if (!r2 || !r2->g.v.n)
        return 0;
    p.host = rt->cfg_scope && xf_map_get(&p.f->hosts, rt->cfg_scope);
    visitor refs = {note_ref, NULL, NULL};
    visit_graph(&p, &refs, &r2->g);
    if (r3)
        visit_graph(&p, &refs, &r3->g);
    if (p.failed)
        return 0;
    if (!xf_alias_overlaps(ctx->doc, p.refs.v, p.refs.n, p.a, mark_unsafe, &p) ||
        !universe(&p, &r2->g))
        return xf_pass_oom(ctx);
    if (!p.syms.n)
        return 0;
    p.w = (p.syms.n + 63) / 64;
    p.nonlocal = xf_arena_array(p.a, p.w, sizeof *p.nonlocal);
    p.all = xf_arena_array(p.a, p.w, sizeof *p.all);
    if (!p.nonlocal || !p.all)
        return xf_pass_oom(ctx);
    for (uint32_t b = 0; b < p.syms.n; b++) {
        const xf_symbol *s = p.syms.v[b];
        p.all[b / 64] |= (uint64_t)1 << (b % 64);
        /* a callee reaches a formal only through its arguments (visited
         * as references): a --no-value output stays dead across calls */
        if (!xf_is_local(rt, s) && !(xf_map_get(&p.no_value, s) && xf_is_formal(rt, s)))
            p.nonlocal[b / 64] |= (uint64_t)1 << (b % 64);
    }
    int64_t removed = flow(&p, &r2->g, r3 ? &r3->g : NULL);
    return removed < 0 ? xf_pass_oom(ctx) : 0;
}

static int
begin(xf_pass_ctx *ctx)
{
    facts *f = calloc(1, sizeof *f);
    if (!f || !(f->calls = xf_callfacts_new(ctx)) || !(f->a = xf_pass_arena(ctx))) {
        if (f)
            xf_callfacts_free(f->calls);
        free(f);
        return xf_pass_oom(ctx);
    }
    ctx->state = f;
    const ds_opts *own = xf_pass_own_c(ctx->opts, &xf_pass_deadstore);
    if (own && own->no_value) {
        /* --no-value F:Y,...: the routine F names */
        const char *list = own->no_value;
        size_t n = strcspn(list, ":");
        char *name = xf_arena_alloc(f->a, n + 1);
        char msg[400];
        const xf_routine *r = NULL;
        if (!name)
            return xf_pass_oom(ctx);
        memcpy(name, list, n);
        name[n] = 0;
        if (xf_routine_lookup(ctx->doc, name, NULL, NULL, &r, msg, sizeof msg) != 1) {
            xf_error(ctx->diag, ctx->doc->filename, 0, "--no-value: %s", msg);
            return -1;
        }
        f->nv_routine = xf_routine_symbol(r);
    }
    const xf_scopes *sc = &ctx->doc->cg.scopes;
    for (uint32_t i = 0; i < sc->v.n; i++) {
        const xf_scope *s = sc->v.v[i];
        if (s->parent && s->parent->parent &&
            !xf_map_put(&f->hosts, f->a, s->parent, (void *)s->parent, NULL))
            return xf_pass_oom(ctx);
    }
    return 0;
}

/* The calls (of the original code: placeholder 1 once the template has
 * run) and whether the routine's Read list names what it reads. */
static int
scan(xf_pass_ctx *ctx, const xf_routine *rt)
{
    facts *f = ctx->state;
    const xf_graph *g = &rt->g;
    if (rt->is_rlist) {
        xf_replacement *r1 = xf_placeholder((xf_routine *)rt, "1");
        g = r1 ? &r1->g : NULL;
    }
    for (uint32_t i = 0; g && i < g->v.n; i++)
        for (uint32_t k = 0; k < g->v.v[i]->stmts.n; k++)
            if (!xf_callfacts_stmt(f->calls, g->v.v[i]->stmts.v[k]))
                return xf_pass_oom(ctx);
    /* every callee, a FunctionCall's in any expression too */
    ds d = {.ctx = ctx};
    visitor calls = {no_ref, push_callee, f};
    if (g)
        visit_graph(&d, &calls, g);
    if (d.failed)
        return xf_pass_oom(ctx);
    if (rt->sym && !xf_map_put(&f->defined, f->a, rt->sym, (void *)rt->sym, NULL))
        return xf_pass_oom(ctx);
    if (rt->sym && rt->se[XF_SE_READ].refs.n &&
        !xf_map_put(&f->reads_known, f->a, rt->sym, (void *)rt->sym, NULL))
        return xf_pass_oom(ctx);
    return 0;
}

static void
end(xf_pass_ctx *ctx)
{
    facts *f = ctx->state;
    if (f) {
        xf_callfacts_free(f->calls);
        xf_arena_free(f->a);
    }
    free(f);
    ctx->state = NULL;
}

/* --no-value F:Y[,Y...]: the text is kept as given (the caller's, which
 * outlives the run). */
static int
parse_no_value(xf_opts *o, void *own, const char *arg, char *err, size_t len)
{
    (void)o;
    const char *c = strchr(arg, ':');
    size_t n = strlen(arg);
    if (!c || c == arg || !c[1] || c[1] == ',' || arg[n - 1] == ',' || strstr(c, ",,")) {
        snprintf(err, len, "--no-value F:Y[,Y...] (a routine, then its outputs), not '%s'", arg);
        return -1;
    }
    ((ds_opts *)own)->no_value = arg;
    return 0;
}

static const char *
show_no_value(const xf_opts *o, const void *own)
{
    (void)o;
    return ((const ds_opts *)own)->no_value;
}

static const xf_pass_opt opts[] = {
    {.name = "no-value",
     .arg = "F:Y,...",
     .help = "the adjoint of routine F (the user's entry) does not\n"
             "store the values of its outputs Y,...: they are not live\n"
             "at F's exit, so what only feeds them goes too (Tapenade's\n"
             "adjoint computes no value); Y is a formal, F for F's\n"
             "returned value, a struct parameter or s.m, or a global\n",
     .parse = parse_no_value,
     .show = show_no_value},
    {0},
};

static const char *const after[] = {"reverse", NULL};

const xf_pass xf_pass_deadstore = {
    .name = "deadstore",
    .summary = "assignments of the taping sweep whose value nothing reads go (liveness)",
    .help = "Backward liveness over each taping sweep (placeholder 2): an assignment\n"
            "without function calls whose target nothing after it reads (the rest of\n"
            "the sweep, the adjoint sweep, and at the exit every formal and global)\n"
            "goes. With --reversal joint, the real formals and globals of a routine\n"
            "that another routine calls are not live at the exit unless the adjoint\n"
            "sweep reads them: under the joint template its taping sweep reruns in\n"
            "the caller's adjoint sweep, which does not read them. With --no-value\n"
            "F:Y,..., the outputs Y of routine F are not live at F's exit.\n",
    .after = after,
    .opts = opts,
    .own_size = sizeof(ds_opts),
    .run_routine = run_routine,
    .begin = begin,
    .scan = scan,
    .end = end,
};
