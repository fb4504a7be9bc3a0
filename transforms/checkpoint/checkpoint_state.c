/* checkpoint_state.c: what a step of a checkpointed loop reads before
 * writing it, from the loop body's side effects (placeholder 1, the
 * original code), in two lists: the state, which the step also writes
 * (assignments; the variable actuals of calls and the Mod lists of the
 * routines called, which may write them), stored with every snapshot; and
 * the inputs, which it only reads, stored once: the adjoint sweep
 * recomputes steps after the code that follows the loop has run (which may
 * write them), and under split reversal in a new activation of the routine,
 * whose locals are new. In a body without branches or inner loops, a whole
 * scalar assigned before any read is neither (a temporary of the step). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"

typedef struct st {
    const xf_doc *doc;
    const xf_symbol *skip;
    const xf_scope *inner; /* the scope of the callee whose code is walked (callee_code), or NULL */
    unsigned depth;        /* callees walked into */
    bool unknown;          /* a callee's code deeper than the walk goes */
    uint8_t *flag;         /* by symbol index: R read before written, W written, K killed */
    bool straight;
    xf_arena *a;
    ck_syms order; /* symbols in the order first met */
    bool oom;
    const ck_facts *facts; /* the routines' summaries (ck_facts_scan) */
    ck_evs *rec;           /* recording a summary: its events (no flags then) */
    uint8_t *seen;         /* recording: by symbol index, R or W recorded */
} st;

enum { R = 1, W = 2, K = 4, SEEN = 8 };

/* A routine's summary, from the scan (the first reading when streaming):
 * what a call of it does to the callers' view, so that a step's state does
 * not need the callee's code. In a callee's code every write is partial (no
 * kill), so meeting a symbol again for the same reason changes nothing:
 * each (symbol, read or write) is kept once, in the order first met. */
enum { EV_R, EV_W, EV_WIF, EV_CALL };

struct ck_ev {
    const xf_symbol *sym;    /* EV_R, EV_W, EV_WIF: the variable */
    const xf_symbol *callee; /* EV_WIF: written if callee writes formal pos; EV_CALL */
    int64_t pos;
    uint8_t kind;
};

typedef struct ck_sum {
    bool code; /* the routine has code (placeholder 1 of a ReplacementList) */
    bool se;   /* it has a Mod or a Read list */
    const xf_scope *scope;
    ck_evs ev;            /* its code's effects on other scopes, with its calls */
    ck_evs se_ev;         /* its side-effect lists' variables of other scopes */
    XF_VEC(int64_t) kept; /* positions of the formals its code neither writes nor passes on */
} ck_sum;

struct ck_facts {
    xf_arena *a;
    xf_map by_sym; /* routine symbol -> ck_sum */
    uint8_t *seen;
    uint32_t nseen;
};

static void
meet(st *s, xf_symbol *sym, uint8_t what)
{
    if (!sym || (sym == s->skip && what == R) || (s->inner && sym->scope == s->inner))
        return;
    if (s->rec) {
        uint8_t bit = what == R ? R : W;
        if (s->seen[sym->index] & bit)
            return;
        s->seen[sym->index] |= bit;
        if (!XF_VEC_PUSH(s->a, *s->rec, ((ck_ev){.sym = sym, .kind = bit == R ? EV_R : EV_W})))
            s->oom = true;
        return;
    }
    uint8_t *f = &s->flag[sym->index];
    if (!(*f & SEEN)) {
        *f |= SEEN;
        if (!XF_VEC_PUSH(s->a, s->order, sym))
            s->oom = true;
    }
    if (what == R && !(*f & K))
        *f |= R;
    if (what == W)
        *f |= W;
    if (what == K)
        *f |= W | (s->straight ? K : 0);
}

/* Each reference reads its variable once its subscripts are read. */
static xf_walk_go
read_step(void *ctx, const xf_walk_step *w)
{
    st *s = ctx;
    const xf_symref *sr = w->ref && w->after ? xf_varref_symref(w->ref) : NULL;
    if (sr)
        meet(s, sr->sym, R);
    return XF_WALK_GO;
}

/* The subscripts of @r are read. */
static void
reads_subscripts(st *s, const xf_varref *r)
{
    if (xf_walk_ref(r, XF_WALK_ARGS | XF_WALK_AFTER | XF_WALK_SUBSCRIPTS, read_step, s) < 0)
        s->oom = true;
}

static void
reads_expr(st *s, const xf_expr *x)
{
    if (xf_walk_expr(x, XF_WALK_ARGS | XF_WALK_AFTER, read_step, s) < 0)
        s->oom = true;
}

static void
writes_ref(st *s, const xf_varref *r, bool whole_kills)
{
    reads_subscripts(s, r);
    const xf_symref *sr = xf_varref_symref(r);
    if (!sr)
        return;
    bool whole = !xf_varref_arrref(r) && sr->sym && xf_shape_rank(sr->sym->shape) <= 0;
    meet(s, sr->sym, whole && whole_kills ? K : W);
}

static const ck_sum *
summary(const st *s, const xf_symbol *sym)
{
    return sym ? xf_map_get(&s->facts->by_sym, sym) : NULL;
}

/* May the routine summed up in @m write its formal at position @pos? Yes
 * unless its code neither assigns it nor passes it on. */
static bool
formal_written(const ck_sum *m, int64_t pos)
{
    if (!m)
        return true;
    for (uint32_t k = 0; k < m->kept.n; k++)
        if (m->kept.v[k] == pos)
            return false;
    return true;
}

/* Does code @g write formal @f (assigns it, or passes it to a call)? */
static bool
code_writes(const xf_graph *g, const xf_symbol *f)
{
    if (!f || !g || !g->v.n)
        return true;
    for (uint32_t k = 0; k < g->v.n; k++) {
        const xf_cvertex *v = g->v.v[k];
        const xf_stmt *ls[2] = {v->init, v->update};
        for (int j = 0; j < 2; j++)
            if (ls[j] && xf_varref_symref(&ls[j]->u.as.lhs) &&
                xf_varref_symref(&ls[j]->u.as.lhs)->sym == f)
                return true;
        for (uint32_t j = 0; j < v->stmts.n; j++) {
            const xf_stmt *t = v->stmts.v[j];
            if (t->kind == XF_STMT_ASSIGN) {
                const xf_symref *sr = xf_varref_symref(&t->u.as.lhs);
                if (!sr || sr->sym == f)
                    return true;
            } else if (t->kind == XF_STMT_CALL || t->kind == XF_STMT_ICALL) {
                const xf_arg_vec *av = t->kind == XF_STMT_CALL ? &t->u.call.args : &t->u.icall.args;
                for (uint32_t a = 0; a < av->n; a++)
                    for (uint32_t x = 0; x < av->v[a].val.v.n; x++)
                        if (av->v[a].val.v.v[x].kind == XF_EV_VARREF) {
                            const xf_symref *sr = xf_varref_symref(av->v[a].val.v.v[x].u.ref);
                            if (!sr || sr->sym == f)
                                return true;
                        }
            }
        }
    }
    return false;
}

static void stmt(st *s, const xf_stmt *t);
static void call_effects(st *s, const xf_symbol *callee);

/* The code of @r (placeholder 1 of a ReplacementList), or NULL. */
static const xf_graph *
code_of(const xf_routine *r)
{
    if (!r->is_rlist)
        return &r->g;
    for (uint32_t k = 0; k < r->reps.n; k++)
        if (r->reps.v[k]->placeholder && !strcmp(r->reps.v[k]->placeholder, "1"))
            return &r->reps.v[k]->g;
    return NULL;
}

static void
walk_code(st *s, const xf_graph *g)
{
    for (uint32_t k = 0; k < g->v.n; k++) {
        const xf_cvertex *v = g->v.v[k];
        if (v->init)
            stmt(s, v->init);
        if (v->cond)
            reads_expr(s, v->cond);
        if (v->update)
            stmt(s, v->update);
        for (uint32_t j = 0; j < v->stmts.n; j++)
            stmt(s, v->stmts.v[j]);
    }
}

/* A call of the routine summed up in @m, which has neither a Mod nor a
 * Read list (f2xaif writes none): what its code reads and writes of other
 * scopes than its own. Fortran's internal procedures (CONTAINS) read and
 * write their host's variables with no argument; a step that calls one
 * changes them as its own assignments would. Every such write counts as
 * partial (no kill), in any order of the callee's code; calls in that code
 * are followed (a bounded depth, which a recursion meets). */
static void
callee_code(st *s, const ck_sum *m)
{
    if (!m->code || s->depth >= 8) {
        if (m->code)
            s->unknown = true;
        return;
    }
    const xf_scope *inner = s->inner;
    bool straight = s->straight;
    s->inner = m->scope;
    s->straight = false;
    s->depth++;
    for (uint32_t k = 0; k < m->ev.n; k++) {
        const ck_ev *e = &m->ev.v[k];
        if (e->kind == EV_R || e->kind == EV_W)
            meet(s, (xf_symbol *)e->sym, e->kind == EV_R ? R : W);
        else if (e->kind == EV_WIF) {
            if (formal_written(summary(s, e->callee), e->pos))
                meet(s, (xf_symbol *)e->sym, W);
        } else
            call_effects(s, e->callee);
    }
    s->depth--;
    s->inner = inner;
    s->straight = straight;
}

/* What a call of @callee changes beyond its actuals: its code's effects,
 * or its side-effect lists'. */
static void
call_effects(st *s, const xf_symbol *callee)
{
    const ck_sum *m = summary(s, callee);
    if (m && !m->se)
        callee_code(s, m);
    else if (m)
        for (uint32_t k = 0; k < m->se_ev.n; k++)
            meet(s, (xf_symbol *)m->se_ev.v[k].sym, m->se_ev.v[k].kind == EV_R ? R : W);
}

static void
stmt(st *s, const xf_stmt *t)
{
    switch (t->kind) {
    case XF_STMT_ASSIGN:
        reads_expr(s, &t->u.as.rhs);
        writes_ref(s, &t->u.as.lhs, true);
        break;
    case XF_STMT_CALL: {
        /* every actual is read; a variable actual may be written, unless
         * the routine called neither assigns its formal nor passes it on */
        const xf_symbol *rs = t->u.call.sym;
        const ck_sum *m = s->rec ? NULL : summary(s, rs);
        for (uint32_t k = 0; k < t->u.call.args.n; k++)
            reads_expr(s, &t->u.call.args.v[k].val);
        for (uint32_t k = 0; k < t->u.call.args.n; k++) {
            const xf_expr *x = &t->u.call.args.v[k].val;
            int64_t pos = t->u.call.args.v[k].pos;
            if (!s->rec && !formal_written(m, pos))
                continue;
            for (uint32_t j = 0; j < x->v.n; j++) {
                if (x->v.v[j].kind != XF_EV_VARREF)
                    continue;
                if (!s->rec) {
                    writes_ref(s, x->v.v[j].u.ref, false);
                    continue;
                }
                /* recording: the subscripts were read with the actual */
                const xf_symref *sr = xf_varref_symref(x->v.v[j].u.ref);
                if (sr && sr->sym && !(s->inner && sr->sym->scope == s->inner) &&
                    !XF_VEC_PUSH(
                        s->a, *s->rec,
                        ((ck_ev){.sym = sr->sym, .callee = rs, .pos = pos, .kind = EV_WIF})))
                    s->oom = true;
            }
        }
        if (s->rec) {
            if (rs && !XF_VEC_PUSH(s->a, *s->rec, ((ck_ev){.callee = rs, .kind = EV_CALL})))
                s->oom = true;
        } else
            call_effects(s, rs);
        break;
    }
    case XF_STMT_ICALL:
        for (uint32_t k = 0; k < t->u.icall.args.n; k++) {
            const xf_expr *x = &t->u.icall.args.v[k].val;
            reads_expr(s, x);
            for (uint32_t j = 0; j < x->v.n; j++)
                if (x->v.v[j].kind == XF_EV_VARREF)
                    writes_ref(s, x->v.v[j].u.ref, false);
        }
        break;
    default:
        break;
    }
}

int
ck_state(const xf_doc *doc, const ck_facts *facts, const xf_graph *g, const xf_cvertex *first,
         const xf_cvertex *end, const xf_symbol *skip, xf_arena *a, ck_syms *out, ck_syms *inputs,
         ck_syms *written, const char **why, char *buf, size_t len)
{
    st s = {.doc = doc, .facts = facts, .skip = skip, .a = a, .straight = true};
    s.flag = xf_arena_alloc(a, doc->nsymbols + 1);
    if (!s.flag) {
        *why = "out of memory";
        return -1;
    }
    memset(s.flag, 0, doc->nsymbols + 1);
    /* the body's vertices; straight when a chain of basic blocks */
    uint32_t no, *outs;
    const xf_cvertex **order = ck_body(g, first, end, a, &no, &outs);
    if (!order) {
        *why = "out of memory";
        return -1;
    }
    for (uint32_t k = 0; k < no; k++)
        if (order[k] != end && (order[k]->kind != XF_CV_BASICBLOCK || outs[order[k]->index] != 1))
            s.straight = false;
    for (uint32_t k = 0; k < no; k++) {
        const xf_cvertex *v = order[k];
        if (v->init)
            stmt(&s, v->init);
        if (v->cond)
            reads_expr(&s, v->cond);
        if (v->update)
            stmt(&s, v->update);
        for (uint32_t j = 0; j < v->stmts.n; j++)
            stmt(&s, v->stmts.v[j]);
    }
    if (s.oom) {
        *why = "out of memory";
        return -1;
    }
    if (s.unknown) {
        *why = "the step calls routines without side-effect lists more than 8 deep (a "
               "recursion?): what they change of other scopes is not known";
        return -1;
    }
    for (uint32_t k = 0; k < s.order.n; k++) {
        xf_symbol *sym = s.order.v[k];
        uint8_t f = s.flag[sym->index];
        if ((f & W) && written && !XF_VEC_PUSH(a, *written, sym)) {
            *why = "out of memory";
            return -1;
        }
        if (!(f & R) || sym == skip)
            continue;
        if (sym->type != XF_TYPE_REAL && sym->type != XF_TYPE_DOUBLE &&
            sym->type != XF_TYPE_INTEGER && sym->type != XF_TYPE_BOOL) {
            snprintf(buf, len, "the step's state holds %s, of type %s, which cannot be stored",
                     sym->id, xf_type_name(sym->type));
            *why = buf;
            return -1;
        }
        ck_syms *to = (f & W) ? out : inputs;
        if (!XF_VEC_PUSH(a, *to, sym)) {
            *why = "out of memory";
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ the facts */

ck_facts *
ck_facts_new(void)
{
    xf_arena *a = xf_arena_new();
    ck_facts *f = a ? xf_arena_alloc(a, sizeof *f) : NULL;
    if (!f) {
        xf_arena_free(a);
        return NULL;
    }
    *f = (ck_facts){.a = a};
    return f;
}

void
ck_facts_free(ck_facts *f)
{
    if (f) {
        free(f->seen);
        xf_arena_free(f->a);
    }
}

int
ck_facts_scan(ck_facts *f, const xf_doc *doc, const xf_routine *r)
{
    if (!r->sym)
        return 0;
    ck_sum *m = xf_arena_alloc(f->a, sizeof *m);
    if (!m)
        return -1;
    *m = (ck_sum){.scope = r->cfg_scope};
    const xf_graph *g = code_of(r);
    m->code = g != NULL;
    m->se = r->se[XF_SE_MOD].present || r->se[XF_SE_READ].present;
    for (int l = 0; l < XF_SE_COUNT; l++)
        for (uint32_t k = 0; k < r->se[l].refs.n; k++) {
            const xf_symref *sr = xf_varref_symref(r->se[l].refs.v[k]);
            bool w = l == XF_SE_MOD || l == XF_SE_MODLOCAL;
            if (sr && sr->sym && sr->sym->scope != r->cfg_scope &&
                !XF_VEC_PUSH(f->a, m->se_ev, ((ck_ev){.sym = sr->sym, .kind = w ? EV_W : EV_R})))
                return -1;
        }
    for (uint32_t k = 0; k < r->args.n; k++)
        if (!code_writes(g, r->args.v[k].sym) && !XF_VEC_PUSH(f->a, m->kept, r->args.v[k].pos))
            return -1;
    if (g && !m->se) {
        if (doc->nsymbols + 1 > f->nseen) {
            free(f->seen);
            f->nseen = doc->nsymbols + 1;
            if (!(f->seen = calloc(f->nseen, 1)))
                return -1;
        }
        st s = {.doc = doc, .a = f->a, .inner = r->cfg_scope, .rec = &m->ev, .seen = f->seen};
        walk_code(&s, g);
        for (uint32_t k = 0; k < m->ev.n; k++)
            if (m->ev.v[k].sym)
                f->seen[m->ev.v[k].sym->index] = 0;
        if (s.oom)
            return -1;
    }
    return xf_map_put(&f->by_sym, f->a, r->sym, m, NULL) ? 0 : -1;
}
