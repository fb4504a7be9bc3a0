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
#include "flow.h"
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
    const xf_stmt *call; /* the call statement */
    int64_t pos;
    bool moved; /* may change in the caller after the call */
} site;

/* Site @site changes when @callee's formal at @pos is on its Mod lists:
 * its actual, a local, is passed there at or after the site's call. */
typedef struct ldep {
    uint32_t site;
    const xf_symbol *callee;
    int64_t pos;
} ldep;

/* A statement of the caller being read that writes its local @loc: at
 * statement @s of vertex @v (0 for a loop's own statements); through
 * @callee's formal at @pos when @callee (then only if that formal is on
 * the callee's Mod lists), else for certain. */
typedef struct lwrite {
    uint32_t loc, v, s;
    const xf_symbol *callee;
    int64_t pos;
} lwrite;

struct xf_argstable {
    xf_arena *a;
    xf_map info; /* routine symbol -> rinfo */
    XF_VEC(site) sites;
    XF_VEC(ldep) deps;
    bool settled;
    xf_map moved; /* callee symbol -> uint64_t: bit P, an actual at P may change (bit 0: past 63) */
};

xf_argstable *
xf_argstable_new(const xf_pass_ctx *ctx)
{
    xf_argstable *t = calloc(1, sizeof *t);
    if (t && !(t->a = xf_pass_arena(ctx))) {
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

/* One caller being read: its locals (symbol -> index + 1), its convert
 * temporaries (symbol -> the actual they stand for), the statements that
 * write its locals, the place of the statement being read, and the flow
 * (xf_flow_*) that tells which statements may follow a call. */
typedef struct reading {
    xf_argstable *t;
    const xf_routine *rt;
    bool host; /* rt hosts internal procedures: its variables are not private */
    xf_map loc;
    uint32_t nloc;
    xf_map tyc;
    XF_VEC(lwrite) w;
    uint32_t v, s; /* the statement being read: vertex index, statement index */
    xf_flow *flow;
} reading;

/* @s, or the variable a convert temporary stands for. Read in the whole
 * document (after convert) and streamed (before), a call reads alike. */
static const xf_symbol *
canon(const reading *r, const xf_symbol *s)
{
    const xf_symbol *src = is_tyc(s) ? xf_map_get(&r->tyc, s) : NULL;
    return src ? src : s;
}

/* The index of local @v of the caller; UINT32_MAX when out of memory. */
static uint32_t
local(reading *r, const xf_symbol *v)
{
    uintptr_t k = (uintptr_t)xf_map_get(&r->loc, v);
    if (k)
        return (uint32_t)(k - 1);
    if (!xf_map_put(&r->loc, r->t->a, v, (void *)(uintptr_t)(r->nloc + 1), NULL))
        return UINT32_MAX;
    return r->nloc++;
}

/* Record that the statement being read writes local @l (through
 * @callee's formal at @pos when @callee). */
static bool
wrote(reading *r, uint32_t l, const xf_symbol *callee, int64_t pos)
{
    return XF_VEC_PUSH(r->t->a, r->w, ((lwrite){l, r->v, r->s, callee, pos}));
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
        if (l == UINT32_MAX || !wrote(r, l, NULL, 0))
            return false;
    }
    for (uint32_t k = 0; args && k < args->n; k++) {
        const xf_symbol *v = canon(r, var_of(&args->v[k].val));
        if (!v || !xf_is_local(r->rt, v))
            continue;
        uint32_t l = local(r, v);
        if (l == UINT32_MAX)
            return false;
        bool known = s->kind == XF_STMT_CALL && s->u.call.sym;
        if (!wrote(r, l, known ? s->u.call.sym : NULL, known ? s->u.call.args.v[k].pos : 0))
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
        r->v = i;
        for (uint32_t k = 0; k < b->stmts.n; k++) {
            r->s = k;
            if (!each(r, b->stmts.v[k]))
                return false;
        }
        r->s = 0;
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

/* Record the actuals of call @s (may be NULL). */
static bool
calls(reading *r, const xf_stmt *s)
{
    if (!s || s->kind != XF_STMT_CALL || !s->u.call.sym)
        return true;
    const xf_routine *rt = r->rt;
    bool lists = rt->se[XF_SE_MOD].present || rt->se[XF_SE_MODLOCAL].present;
    for (uint32_t j = 0; j < s->u.call.args.n; j++) {
        const xf_symbol *v = canon(r, var_of(&s->u.call.args.v[j].val));
        site x = {s->u.call.sym, s, s->u.call.args.v[j].pos, true};
        if (v && v->kind == XF_SYMKIND_VARIABLE) {
            if (xf_is_private(rt, r->host, v)) {
                /* a private local: changed by a statement that may run at
                 * or after the call (the call itself included) */
                x.moved = false;
                uintptr_t k = (uintptr_t)xf_map_get(&r->loc, v);
                for (uint32_t i = 0; k && i < r->w.n && !x.moved; i++) {
                    const lwrite *w = &r->w.v[i];
                    if (w->loc != k - 1 || !xf_flow_follows(r->flow, r->v, r->s, w->v, w->s))
                        continue;
                    if (!w->callee)
                        x.moved = true;
                    else if (!XF_VEC_PUSH(r->t->a, r->t->deps,
                                          ((ldep){r->t->sites.n, w->callee, w->pos})))
                        return false;
                }
            } else /* a host's variable: its internal procedures may change it */
                x.moved = !lists || modified(rt, v) || (r->host && xf_is_local(rt, v));
        }
        if (!XF_VEC_PUSH(r->t->a, r->t->sites, x))
            return false;
    }
    return true;
}

/* Read @rt's graph: its convert temporaries, the writes of its locals and
 * its calls' actuals (appended to t->sites, their dependences to t->deps). */
static bool
read_calls(xf_argstable *t, const xf_routine *rt, bool host)
{
    reading r = {.t = t, .rt = rt, .host = host};
    bool ok = scan_graph(&r, temporaries) && scan_graph(&r, writes) &&
              (r.flow = xf_flow_new(&rt->g)) && scan_graph(&r, calls);
    xf_flow_free(r.flow);
    return ok;
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
    return read_calls(t, rt, host);
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
            t->sites.v[t->deps.v[i].site].moved = true;
    for (uint32_t i = 0; i < t->sites.n; i++) {
        const site *x = &t->sites.v[i];
        uint64_t *m = xf_map_get(&t->moved, x->callee);
        if (!m) {
            if (!(m = XF_NEW(t->a, uint64_t)) || !xf_map_put(&t->moved, t->a, x->callee, m, NULL))
                return false;
        }
        if (x->moved)
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

int
xf_argstable_calls(xf_argstable *t, const xf_routine *rt, bool host, xf_argcall **out, uint32_t *n)
{
    *out = NULL;
    *n = 0;
    if (!t->settled && !settle(t))
        return -1;
    if (rt->is_rlist || !rt->sym)
        return 0;
    uint32_t s0 = t->sites.n, d0 = t->deps.n;
    if (!read_calls(t, rt, host))
        return -1;
    for (uint32_t i = d0; i < t->deps.n; i++)
        if (!kept(t, t->deps.v[i].callee, t->deps.v[i].pos))
            t->sites.v[t->deps.v[i].site].moved = true;
    xf_argcall *v = NULL;
    uint32_t k = 0;
    if (t->sites.n > s0 && !(v = xf_arena_alloc(t->a, (t->sites.n - s0) * sizeof *v)))
        return -1;
    for (uint32_t i = s0; i < t->sites.n; i++) {
        const site *x = &t->sites.v[i];
        if (!k || v[k - 1].call != x->call)
            v[k++] = (xf_argcall){x->call, x->callee, 0};
        if (x->moved)
            v[k - 1].moved |= bit(x->pos);
    }
    t->sites.n = s0; /* the answer is the caller's; the table stays as settled */
    t->deps.n = d0;
    *out = v;
    *n = k;
    return 0;
}

bool
xf_argstable_kept_at(const xf_argstable *t, const xf_argcall *c, int64_t pos)
{
    return pos >= 1 && pos < 64 && kept(t, c->callee, pos) && !(c->moved & 1u) &&
           !(c->moved & bit(pos));
}
