/* argstable.c: formals whose argument checkpoint the joint template does
 * not need (argstable.h has the rule).
 *
 * Each routine is read once, on its own (what streaming allows): its
 * formals on its Mod lists, and for each of its calls what every actual
 * is. Whether a local of a caller changes can depend on a callee's Mod
 * lists, which a streamed reader no longer holds when it reads the caller:
 * such a local is recorded with the calls it is passed to, and settled
 * when the first question is asked, after every routine was read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argstable.h"
#include "map.h"
#include "pass.h"

/* What one routine writes of its formals. */
typedef struct rinfo {
    bool lists;   /* it has Mod lists */
    uint64_t mod; /* bit P: its formal at position P is on them (bit 0: one past 63) */
} rinfo;

/* An actual at position pos of a call of callee. */
typedef struct site {
    const xf_symbol *callee;
    int64_t pos;
    bool moved;   /* may change in the caller */
    uint32_t loc; /* else UINT32_MAX, or the local it is (locs) */
} site;

/* A local passed at position pos of a call of callee. */
typedef struct ldep {
    uint32_t loc;
    const xf_symbol *callee;
    int64_t pos;
} ldep;

struct xf_argstable {
    xf_arena *a;
    xf_map info; /* routine symbol -> rinfo */
    XF_VEC(site) sites;
    XF_VEC(bool) locs; /* a caller's local: written by the caller's own statements */
    XF_VEC(ldep) deps;
    bool settled;
    xf_map moved; /* callee symbol -> uint64_t: bit P, an actual at P may change (bit 0: past 63) */
};

xf_argstable *
xf_argstable_new(void)
{
    xf_argstable *t = calloc(1, sizeof *t);
    if (t && !(t->a = xf_arena_new())) {
        free(t);
        return NULL;
    }
    return t;
}

void
xf_argstable_free(xf_argstable *t)
{
    if (!t)
        return;
    xf_arena_free(t->a);
    free(t);
}

static uint64_t
bit(int64_t pos)
{
    return pos >= 1 && pos < 64 ? (uint64_t)1 << pos : 1u;
}

static const xf_symbol *
sym_of(const xf_varref *r)
{
    const xf_symref *s = r ? xf_varref_symref(r) : NULL;
    return s ? s->sym : NULL;
}

/* The variable that expression @x is, or NULL. */
static const xf_symbol *
var_of(const xf_expr *x)
{
    return x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF ? sym_of(x->v.v[0].u.ref) : NULL;
}

/* Is @s on @rt's Mod lists? */
static bool
modified(const xf_routine *rt, const xf_symbol *s)
{
    for (int k = XF_SE_MODLOCAL; k <= XF_SE_MOD; k++)
        for (uint32_t i = 0; i < rt->se[k].refs.n; i++)
            if (sym_of(rt->se[k].refs.v[i]) == s)
                return true;
    return false;
}

/* Pass convert's bookkeeping around a call: a temporary OpenAD_tyc_* that
 * stands for an actual, and the intrinsics that copy between the two. */
static bool
is_tyc(const xf_symbol *s)
{
    return s && !strncmp(s->id, "OpenAD_tyc_", 11);
}

static bool
is_conversion(const xf_stmt *s)
{
    if (s->kind != XF_STMT_ICALL || s->u.icall.args.n != 2 || !s->u.icall.name)
        return false;
    const char *n = s->u.icall.name;
    return !strcmp(n, "oad_convert") || !strcmp(n, "oad_AllocateMatching") ||
           !strcmp(n, "oad_ShapeTest");
}

/* One caller being read: its locals (symbol -> index + 1 in t->locs) and
 * its convert temporaries (symbol -> the actual they stand for). */
typedef struct reading {
    xf_argstable *t;
    const xf_routine *rt;
    bool host; /* rt hosts internal procedures: its variables are not private */
    xf_map loc;
    xf_map tyc;
} reading;

/* @s, or the variable a convert temporary stands for. Read in the whole
 * document (after convert) and streamed (before), a call reads alike. */
static const xf_symbol *
canon(const reading *r, const xf_symbol *s)
{
    const xf_symbol *src = is_tyc(s) ? xf_map_get(&r->tyc, s) : NULL;
    return src ? src : s;
}

/* The index in t->locs of local @v of the caller; UINT32_MAX when out of memory. */
static uint32_t
local(reading *r, const xf_symbol *v)
{
    uintptr_t k = (uintptr_t)xf_map_get(&r->loc, v);
    if (k)
        return (uint32_t)(k - 1);
    xf_argstable *t = r->t;
    if (!XF_VEC_PUSH(t->a, t->locs, false) ||
        !xf_map_put(&r->loc, t->a, v, (void *)(uintptr_t)t->locs.n, NULL))
        return UINT32_MAX;
    return t->locs.n - 1;
}

/* Record what statement @s (may be NULL) writes of the caller's locals. */
static bool
writes(reading *r, const xf_stmt *s)
{
    if (!s || is_conversion(s))
        return true;
    const xf_arg_vec *args = NULL;
    const xf_symbol *lhs = NULL;
    if (s->kind == XF_STMT_ASSIGN)
        lhs = canon(r, sym_of(&s->u.as.lhs));
    else if (s->kind == XF_STMT_ICALL || s->kind == XF_STMT_CALL)
        args = s->kind == XF_STMT_ICALL ? &s->u.icall.args : &s->u.call.args;
    if (lhs && xf_is_local(r->rt, lhs)) {
        uint32_t l = local(r, lhs);
        if (l == UINT32_MAX)
            return false;
        r->t->locs.v[l] = true;
    }
    for (uint32_t k = 0; args && k < args->n; k++) {
        const xf_symbol *v = canon(r, var_of(&args->v[k].val));
        if (!v || !xf_is_local(r->rt, v))
            continue;
        uint32_t l = local(r, v);
        if (l == UINT32_MAX)
            return false;
        if (s->kind == XF_STMT_ICALL || !s->u.call.sym)
            r->t->locs.v[l] = true;
        else if (!XF_VEC_PUSH(r->t->a, r->t->deps,
                              ((ldep){l, s->u.call.sym, s->u.call.args.v[k].pos})))
            return false;
    }
    return true;
}

static bool
scan_graph(reading *r, bool (*each)(reading *, const xf_stmt *))
{
    const xf_graph *g = &r->rt->g;
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *b = g->v.v[i];
        for (uint32_t k = 0; k < b->stmts.n; k++)
            if (!each(r, b->stmts.v[k]))
                return false;
        if (!each(r, b->init) || !each(r, b->update))
            return false;
    }
    return true;
}

/* Record what convert temporary statement @s (may be NULL) stands for. */
static bool
temporaries(reading *r, const xf_stmt *s)
{
    if (!s || !is_conversion(s))
        return true;
    const xf_symbol *a = var_of(&s->u.icall.args.v[0].val);
    const xf_symbol *b = var_of(&s->u.icall.args.v[1].val);
    if (is_tyc(b) && !is_tyc(a)) {
        const xf_symbol *x = a;
        a = b;
        b = x;
    }
    if (!is_tyc(a) || !b || is_tyc(b))
        return true;
    return xf_map_put(&r->tyc, r->t->a, a, (void *)b, NULL);
}

/* What may run from statement @k of block @b until the routine returns:
 * the rest of @b, then every block reachable from it (@b whole when it is
 * in a loop). Marks them in @seen (one per block of the graph): 2 whole,
 * 1 from statement @k on (@b only). False when @b is not found. */
static bool
reach_after(const xf_graph *g, const xf_cvertex *b, uint8_t *seen, uint32_t *stack)
{
    uint32_t n = 0, i = b->index;
    if (i >= g->v.n || g->v.v[i] != b)
        return false;
    seen[i] = 1;
    stack[n++] = i;
    while (n) {
        const xf_cvertex *u = g->v.v[stack[--n]];
        for (uint32_t e = 0; e < g->e.n; e++) {
            const xf_cvertex *w = g->e.v[e]->tgt;
            if (g->e.v[e]->src != u || !w || w->index >= g->v.n || g->v.v[w->index] != w)
                continue;
            if (seen[w->index] == 2)
                continue;
            seen[w->index] = 2;
            stack[n++] = w->index;
        }
    }
    return true;
}

/* Does statement @s (may be NULL) write local @v? Set flag @l when it
 * assigns it or passes it to an intrinsic; a call that passes it adds a
 * dependence of @l on the callee's Mod lists (settled later). */
static bool
writes_local(reading *r, const xf_stmt *s, const xf_symbol *v, uint32_t l)
{
    if (!s || is_conversion(s))
        return true;
    if (s->kind == XF_STMT_ASSIGN) {
        if (canon(r, sym_of(&s->u.as.lhs)) == v)
            r->t->locs.v[l] = true;
        return true;
    }
    if (s->kind != XF_STMT_ICALL && s->kind != XF_STMT_CALL)
        return true;
    const xf_arg_vec *args = s->kind == XF_STMT_ICALL ? &s->u.icall.args : &s->u.call.args;
    for (uint32_t k = 0; k < args->n; k++) {
        if (canon(r, var_of(&args->v[k].val)) != v)
            continue;
        if (s->kind == XF_STMT_ICALL || !s->u.call.sym)
            r->t->locs.v[l] = true;
        else if (!XF_VEC_PUSH(r->t->a, r->t->deps, ((ldep){l, s->u.call.sym, args->v[k].pos})))
            return false;
    }
    return true;
}

/* The flag (index in t->locs) of local @v passed by statement @k of block
 * @b: whether what may run after the call in the caller's activation (its
 * taping sweep up to the end, then its adjoint sweep, which writes only
 * what the taping sweep overwrote) writes @v. Writes before the call give
 * the callee's two runs the same value. Without the block: the local's
 * flag for the whole routine. UINT32_MAX when out of memory. */
static uint32_t
local_after(reading *r, const xf_cvertex *b, uint32_t k, const xf_symbol *v)
{
    const xf_graph *g = &r->rt->g;
    uint8_t *seen = b && g->v.n ? calloc(g->v.n, 1) : NULL;
    uint32_t *stack = seen ? calloc(g->v.n, sizeof *stack) : NULL;
    xf_argstable *t = r->t;
    uint32_t l = UINT32_MAX;
    if (!stack || !reach_after(g, b, seen, stack)) {
        free(seen);
        free(stack);
        return local(r, v);
    }
    if (!XF_VEC_PUSH(t->a, t->locs, false))
        goto out;
    l = t->locs.n - 1;
    for (uint32_t i = 0; i < g->v.n && l != UINT32_MAX; i++) {
        const xf_cvertex *u = g->v.v[i];
        if (!seen[i])
            continue;
        uint32_t from = seen[i] == 2 ? 0 : k; /* the call itself: another actual */
        for (uint32_t j = from; j < u->stmts.n; j++)
            if (!writes_local(r, u->stmts.v[j], v, l))
                l = UINT32_MAX;
        if (seen[i] == 2 && l != UINT32_MAX &&
            (!writes_local(r, u->init, v, l) || !writes_local(r, u->update, v, l)))
            l = UINT32_MAX;
    }
out:
    free(seen);
    free(stack);
    return l;
}

/* Record the actuals of call @s (may be NULL), statement @k of block @b
 * (NULL for a loop's initialization or update). */
static bool
calls(reading *r, const xf_cvertex *b, uint32_t k, const xf_stmt *s)
{
    if (!s || s->kind != XF_STMT_CALL || !s->u.call.sym)
        return true;
    const xf_routine *rt = r->rt;
    bool lists = rt->se[XF_SE_MOD].present || rt->se[XF_SE_MODLOCAL].present;
    for (uint32_t j = 0; j < s->u.call.args.n; j++) {
        const xf_symbol *v = canon(r, var_of(&s->u.call.args.v[j].val));
        site x = {s->u.call.sym, s->u.call.args.v[j].pos, true, UINT32_MAX};
        if (v && v->kind == XF_SYMKIND_VARIABLE) {
            if (xf_is_private(rt, r->host, v)) {
                x.moved = false;
                if ((x.loc = local_after(r, b, k, v)) == UINT32_MAX)
                    return false;
            } else /* a host's variable: its internal procedures may change it */
                x.moved = !lists || modified(rt, v) || (r->host && xf_is_local(rt, v));
        }
        if (!XF_VEC_PUSH(r->t->a, r->t->sites, x))
            return false;
    }
    return true;
}

static bool
scan_calls(reading *r)
{
    const xf_graph *g = &r->rt->g;
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *b = g->v.v[i];
        for (uint32_t k = 0; k < b->stmts.n; k++)
            if (!calls(r, b, k, b->stmts.v[k]))
                return false;
        if (!calls(r, NULL, 0, b->init) || !calls(r, NULL, 0, b->update))
            return false;
    }
    return true;
}

bool
xf_argstable_routine(xf_argstable *t, const xf_routine *rt, bool host)
{
    if (rt->is_rlist || !rt->sym)
        return true;
    rinfo *ri = XF_NEW(t->a, rinfo);
    if (!ri || !xf_map_put(&t->info, t->a, rt->sym, ri, NULL))
        return false;
    ri->lists = rt->se[XF_SE_MOD].present || rt->se[XF_SE_MODLOCAL].present;
    for (uint32_t i = 0; i < rt->args.n; i++)
        if (host || modified(rt, rt->args.v[i].sym)) /* a host's: its procedures' too */
            ri->mod |= bit(rt->args.v[i].pos);
    reading r = {.t = t, .rt = rt, .host = host};
    return scan_graph(&r, temporaries) && scan_graph(&r, writes) && scan_calls(&r);
}

/* Does @callee's formal at @pos stay unwritten? */
static bool
kept(const xf_argstable *t, const xf_symbol *callee, int64_t pos)
{
    const rinfo *ri = xf_map_get(&t->info, callee);
    return ri && ri->lists && !(ri->mod & bit(pos));
}

static bool
settle(xf_argstable *t)
{
    for (uint32_t i = 0; i < t->deps.n; i++)
        if (!kept(t, t->deps.v[i].callee, t->deps.v[i].pos))
            t->locs.v[t->deps.v[i].loc] = true;
    for (uint32_t i = 0; i < t->sites.n; i++) {
        const site *x = &t->sites.v[i];
        uint64_t *m = xf_map_get(&t->moved, x->callee);
        if (!m) {
            if (!(m = XF_NEW(t->a, uint64_t)) || !xf_map_put(&t->moved, t->a, x->callee, m, NULL))
                return false;
        }
        if (x->moved || (x->loc != UINT32_MAX && t->locs.v[x->loc]))
            *m |= bit(x->pos);
    }
    t->settled = true;
    return true;
}

int
xf_argstable_skip(xf_argstable *t, const xf_routine *callee, const xf_argsym *f)
{
    if (!t->settled && !settle(t))
        return -1;
    if (f->pos < 1 || f->pos >= 64 || !kept(t, callee->sym, f->pos))
        return 0;
    const uint64_t *m = xf_map_get(&t->moved, callee->sym);
    return m && !(*m & 1u) && !(*m & bit(f->pos));
}
