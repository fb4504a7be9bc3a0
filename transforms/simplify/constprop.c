/* constprop.c: a real scalar local that the routine sets once, to a
 * constant, before it reads it, is read as that constant; a product by the
 * constant 1 becomes its other factor.
 *
 * `SITOBAR = 1.0` followed by `P = LOCPRES(I,J) * SITOBAR` costs a
 * multiplication each time P is computed, and linearize makes SITOBAR a
 * partial that preaccumulation multiplies in. Read as the constant, the
 * partial is the constant 1 (a unit weight: no multiplication), and the
 * product by 1, exact in floating point (x·1 = x for every x, signed zeros,
 * infinities and NaNs included), goes. The routine's plain code (the
 * adjoint's placeholder 1, the tangent's value computation) gains as much.
 *
 * A candidate is a real scalar variable of the routine's own scope, not an
 * argument, not a pointer, that no other variable's reference may share
 * storage with (the front end's alias map), in a routine that hosts no
 * internal procedure. Its one assignment (no other anywhere: not a
 * subroutine's, function's or intrinsic call's argument either) has a
 * Constant for right-hand side and sits in the basic block that the Entry
 * leads to, which nothing else leads to; nothing in that block before it
 * mentions the variable. That block then runs once, first, and every read
 * of the variable comes after the assignment. The assignment itself stays.
 * Reads in assignment right-hand sides and conditions become the constant.
 * Runs before template and linearize (.before); needs nothing; breaks
 * nothing. */
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "pass.h"

typedef XF_VEC(const xf_varref *) refvec;

typedef struct cand {
    const xf_symbol *sym;
    const xf_varref *lhs;  /* the assignment's left-hand side */
    const xf_evertex *val; /* its constant */
    bool bad;
} cand;

typedef XF_VEC(cand) candvec;

static const xf_symbol *
plain_sym(const xf_varref *r)
{
    const xf_symref *s = r && r->v.n == 1 && !xf_varref_arrref(r) ? xf_varref_symref(r) : NULL;
    return s ? s->sym : NULL;
}

static bool
hosts_procedures(const xf_doc *doc, const xf_routine *rt)
{
    for (uint32_t i = 0; i < doc->cg.scopes.v.n; i++)
        if (doc->cg.scopes.v.v[i]->parent == rt->cfg_scope)
            return true;
    return false;
}

static bool
candidate_sym(const xf_routine *rt, const xf_symbol *y)
{
    return y && y->scope == rt->cfg_scope && y->kind == XF_SYMKIND_VARIABLE &&
           y->type == XF_TYPE_REAL && xf_shape_rank(y->shape) <= 0 && !xf_is_formal(rt, y) &&
           !xf_flag_is(y->pointer, false);
}

/* The one Constant vertex that @x is, or NULL. */
static const xf_evertex *
lone_constant(const xf_expr *x)
{
    return x->v.n == 1 && x->e.n == 0 && x->v.v[0].kind == XF_EV_CONSTANT ? &x->v.v[0] : NULL;
}

/* ------------------------------------------------- walking the references */

typedef struct walk {
    xf_arena *a;
    refvec reads, writes; /* every reference; the left-hand sides and call arguments */
    bool oom;
} walk;

typedef struct walking {
    walk *w;
    bool write; /* the walk's own reference is written */
} walking;

/* Each reference, among the reads or the writes: the walk's own as said,
 * a call's argument written (by reference), the others read. */
static xf_walk_go
walk_step(void *ctx, const xf_walk_step *s)
{
    const walking *g = ctx;
    if (!s->ref)
        return XF_WALK_GO;
    bool write = !s->vertex && (s->in_arg || g->write);
    if (!XF_VEC_PUSH(g->w->a, *(write ? &g->w->writes : &g->w->reads), s->ref))
        g->w->oom = true;
    return XF_WALK_GO;
}

static void
walk_ref(walk *w, const xf_varref *r, bool write)
{
    walking g = {w, write};
    if (xf_walk_ref(r, XF_WALK_ARGS, walk_step, &g) < 0)
        w->oom = true;
}

static void
walk_expr(walk *w, const xf_expr *x)
{
    walking g = {w, false};
    if (xf_walk_expr(x, XF_WALK_ARGS, walk_step, &g) < 0)
        w->oom = true;
}

static void
walk_args(walk *w, const xf_arg_vec *args)
{
    for (uint32_t k = 0; k < args->n; k++)
        for (uint32_t i = 0; i < args->v[k].val.v.n; i++)
            if (args->v[k].val.v.v[i].kind == XF_EV_VARREF)
                walk_ref(w, args->v[k].val.v.v[i].u.ref, true);
            else
                walk_expr(w, &args->v[k].val);
}

static void
walk_stmt(walk *w, const xf_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        walk_ref(w, &s->u.as.lhs, true);
        walk_expr(w, &s->u.as.rhs);
        break;
    case XF_STMT_CALL:
        walk_args(w, &s->u.call.args);
        break;
    case XF_STMT_ICALL:
        walk_args(w, &s->u.icall.args);
        break;
    default:
        break;
    }
}

/* Does statement @s mention symbol @y anywhere? */
static bool
mentions(xf_arena *a, const xf_stmt *s, const xf_symbol *y)
{
    walk w = {.a = a};
    walk_stmt(&w, s);
    if (w.oom)
        return true;
    for (uint32_t i = 0; i < w.reads.n; i++)
        if (xf_varref_symref(w.reads.v[i]) && xf_varref_symref(w.reads.v[i])->sym == y)
            return true;
    for (uint32_t i = 0; i < w.writes.n; i++)
        if (xf_varref_symref(w.writes.v[i]) && xf_varref_symref(w.writes.v[i])->sym == y)
            return true;
    return false;
}

/* ------------------------------------------------------------ rewriting */

static const cand *
find_cand(const candvec *cs, const xf_varref *r)
{
    const xf_symbol *y = plain_sym(r);
    for (uint32_t i = 0; y && i < cs->n; i++)
        if (!cs->v[i].bad && cs->v[i].sym == y)
            return &cs->v[i];
    return NULL;
}

/* Is vertex @v the constant 1 (as written: a real or integer literal)? */
static bool
is_one(const xf_evertex *v)
{
    if (v->kind != XF_EV_CONSTANT || !v->u.c.value ||
        (v->u.c.type != XF_TYPE_REAL && v->u.c.type != XF_TYPE_INTEGER))
        return false;
    char buf[64];
    size_t n = strlen(v->u.c.value);
    if (n == 0 || n >= sizeof buf)
        return false;
    for (size_t i = 0; i <= n; i++) {
        char c = v->u.c.value[i];
        buf[i] = c == 'd' || c == 'D' || c == 'q' || c == 'Q' ? 'e' : c;
    }
    char *end;
    double d = strtod(buf, &end);
    while (*end == '_' || (*end >= '0' && *end <= '9')) /* a Fortran kind suffix */
        end++;
    return *end == 0 && d == 1.0;
}

/* Remove the product vertex @m and its unit factor @one from @x: @m's
 * other factor takes @m's place. */
static void
drop_unit_factor(xf_expr *x, uint32_t m, uint32_t one)
{
    uint32_t other = UINT32_MAX;
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].tgt == m && x->e.v[j].src != one)
            other = x->e.v[j].src;
    if (other == UINT32_MAX)
        return;
    /* edges: drop those into m; an edge out of m now leaves other */
    uint32_t ne = 0;
    for (uint32_t j = 0; j < x->e.n; j++) {
        xf_eedge e = x->e.v[j];
        if (e.tgt == m)
            continue;
        if (e.src == m)
            e.src = other;
        x->e.v[ne++] = e;
    }
    x->e.n = ne;
    /* vertices: drop m and one, renumbering the edges */
    uint32_t nv = 0;
    uint32_t *map = malloc((size_t)x->v.n * sizeof *map);
    if (!map)
        return; /* leave the orphaned vertices: impossible to write then, so */
    for (uint32_t i = 0; i < x->v.n; i++) {
        if (i == m || i == one) {
            map[i] = UINT32_MAX;
            continue;
        }
        map[i] = nv;
        x->v.v[nv++] = x->v.v[i];
    }
    for (uint32_t j = 0; j < x->e.n; j++) {
        x->e.v[j].src = map[x->e.v[j].src];
        x->e.v[j].tgt = map[x->e.v[j].tgt];
    }
    x->v.n = nv;
    free(map);
}

/* Is vertex @v surely real-valued (so that v·1 and v have one type)? A
 * real variable's reference or a real constant. */
static bool
is_real(const xf_evertex *v)
{
    if (v->kind == XF_EV_CONSTANT)
        return v->u.c.type == XF_TYPE_REAL;
    const xf_symref *s = v->kind == XF_EV_VARREF ? xf_varref_symref(v->u.ref) : NULL;
    return s && s->sym && s->sym->type == XF_TYPE_REAL;
}

/* A product in @x with a unit factor: the product's index, the factor's in *@one. */
static uint32_t
unit_product(const xf_expr *x, uint32_t *one)
{
    for (uint32_t i = 0; i < x->v.n; i++) {
        const xf_evertex *v = &x->v.v[i];
        if (v->kind != XF_EV_INTRINSIC || !v->u.in.name || strcmp(v->u.in.name, "mul_scal_scal"))
            continue;
        uint32_t nin = 0, f = UINT32_MAX;
        for (uint32_t j = 0; j < x->e.n; j++)
            if (x->e.v[j].tgt == i) {
                nin++;
                uint32_t s = x->e.v[j].src;
                /* the factor must be this product's alone */
                uint32_t nout = 0;
                for (uint32_t k = 0; k < x->e.n; k++)
                    nout += x->e.v[k].src == s;
                if (nout == 1 && is_one(&x->v.v[s]))
                    f = s;
            }
        uint32_t o = UINT32_MAX; /* the other factor */
        for (uint32_t j = 0; j < x->e.n; j++)
            if (x->e.v[j].tgt == i && x->e.v[j].src != f)
                o = x->e.v[j].src;
        if (nin == 2 && f != UINT32_MAX && o != UINT32_MAX && is_real(&x->v.v[o])) {
            *one = f;
            return i;
        }
    }
    return UINT32_MAX;
}

/* Read the candidates of @cs in @x as their constants, then drop the unit
 * factors that made. @returns how many references became constants. */
static unsigned
rewrite_expr(xf_expr *x, const candvec *cs)
{
    unsigned n = 0;
    for (uint32_t i = 0; x && i < x->v.n; i++) {
        xf_evertex *v = &x->v.v[i];
        const cand *c = v->kind == XF_EV_VARREF ? find_cand(cs, v->u.ref) : NULL;
        if (!c)
            continue;
        xf_evertex k = *c->val;
        k.id = v->id;
        k.seq = v->seq;
        k.h = (xf_hdr){.line = v->h.line};
        *v = k;
        n++;
    }
    if (!n)
        return 0;
    uint32_t one, m;
    while ((m = unit_product(x, &one)) != UINT32_MAX) {
        uint32_t before = x->v.n;
        drop_unit_factor(x, m, one);
        if (x->v.n == before)
            break;
    }
    return n;
}

static unsigned
rewrite_stmt(xf_stmt *s, const candvec *cs)
{
    return s && s->kind == XF_STMT_ASSIGN ? rewrite_expr(&s->u.as.rhs, cs) : 0;
}

/* ------------------------------------------------------------- the pass */

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    if (rt->is_rlist || hosts_procedures(ctx->doc, rt))
        return 0;
    xf_graph *g = &rt->g;
    xf_arena *a = ctx->scratch;
    /* the block the Entry leads to, when nothing else leads there */
    xf_cvertex *entry = NULL, *first = NULL;
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i]->kind == XF_CV_ENTRY)
            entry = g->v.v[i];
    unsigned nout = 0, nin = 0;
    for (uint32_t j = 0; entry && j < g->e.n; j++)
        if (g->e.v[j]->src == entry) {
            nout++;
            first = g->e.v[j]->tgt;
        }
    if (nout != 1 || !first || first->kind != XF_CV_BASICBLOCK)
        return 0;
    for (uint32_t j = 0; j < g->e.n; j++)
        nin += g->e.v[j]->tgt == first;
    if (nin != 1)
        return 0;
    /* candidates: constant assignments of that block, nothing before mentioning them */
    candvec cs = {0};
    for (uint32_t k = 0; k < first->stmts.n; k++) {
        const xf_stmt *s = first->stmts.v[k];
        if (s->kind != XF_STMT_ASSIGN)
            continue;
        const xf_symbol *y = plain_sym(&s->u.as.lhs);
        const xf_evertex *val = lone_constant(&s->u.as.rhs);
        if (!candidate_sym(rt, y) || !val || val->u.c.type != XF_TYPE_REAL)
            continue;
        bool seen = false;
        for (uint32_t i = 0; i < cs.n; i++)
            if (cs.v[i].sym == y) {
                cs.v[i].bad = true; /* assigned twice */
                seen = true;
            }
        for (uint32_t p = 0; !seen && p < k; p++)
            seen = mentions(a, first->stmts.v[p], y);
        cand c = {.sym = y, .lhs = &s->u.as.lhs, .val = val, .bad = seen};
        if (!XF_VEC_PUSH(a, cs, c))
            return xf_pass_oom(ctx);
    }
    if (!cs.n)
        return 0;
    /* every reference of the routine */
    walk w = {.a = a};
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        for (uint32_t k = 0; v->kind == XF_CV_BASICBLOCK && k < v->stmts.n; k++)
            walk_stmt(&w, v->stmts.v[k]);
        walk_stmt(&w, v->init);
        walk_stmt(&w, v->update);
        walk_expr(&w, v->cond);
    }
    if (w.oom)
        return xf_pass_oom(ctx);
    for (uint32_t c = 0; c < cs.n; c++) {
        cand *cd = &cs.v[c];
        for (uint32_t i = 0; !cd->bad && i < w.writes.n; i++) {
            const xf_symref *s = xf_varref_symref(w.writes.v[i]);
            if (w.writes.v[i] != cd->lhs && s && s->sym == cd->sym)
                cd->bad = true; /* written again, or passed to a call */
        }
        for (int rw = 0; rw < 2 && !cd->bad; rw++) {
            const refvec *rv = rw ? &w.writes : &w.reads;
            for (uint32_t i = 0; !cd->bad && i < rv->n; i++) {
                const xf_symref *s = xf_varref_symref(rv->v[i]);
                if ((!s || s->sym != cd->sym) && xf_refs_may_alias(ctx->doc, cd->lhs, rv->v[i]))
                    cd->bad = true; /* another variable may share its storage */
            }
        }
    }
    /* rewrite the reads */
    unsigned n = 0;
    for (uint32_t i = 0; i < g->v.n; i++) {
        xf_cvertex *v = g->v.v[i];
        for (uint32_t k = 0; v->kind == XF_CV_BASICBLOCK && k < v->stmts.n; k++)
            n += rewrite_stmt(v->stmts.v[k], &cs);
        n += rewrite_stmt(v->init, &cs);
        n += rewrite_stmt(v->update, &cs);
        n += rewrite_expr(v->cond, &cs);
    }
    (void)n;
    return 0;
}

static const char *const after[] = {NULL};
static const char *const runs_before[] = {"template", "linearize", NULL};
const xf_pass xf_pass_constprop = {
    .name = "constprop",
    .summary = "read a real local set once to a constant as that constant; drop products by 1",
    .help = "A real scalar local assigned one constant, in the routine's first block\n"
            "before anything mentions it, and nowhere else (no call receives it, no\n"
            "other variable shares its storage), is read as that constant; a product\n"
            "by the constant 1 becomes its other factor (exact). Saves the\n"
            "multiplications of the value and of the partials (a unit weight).",
    .after = after,
    .before = runs_before,
    .run_routine = run_routine,
};
