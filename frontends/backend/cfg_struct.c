/* cfg_struct.c: a control-flow graph parsed into blocks, loops and branches
 * (cfg_struct.h), and the recognition of counted loops. */
#include "cfg_struct.h"

#include <stdlib.h>
#include <string.h>

enum { FREE = 0, PLACED = 1 };
enum { MAX_DEPTH = 400 }; /* deeper nests are written with labels */

typedef struct parser {
    const xf_graph *g;
    const xf_cfg_outs *o;
    xf_stree *t;
    unsigned char *state; /* per vertex */
    bool bad;
} parser;

static xf_snode *
node(parser *p, xf_snkind k, const xf_cvertex *v, const xf_cedge *e)
{
    if (p->t->n >= p->t->cap) {
        p->bad = true;
        return NULL;
    }
    xf_snode *n = &p->t->pool[p->t->n++];
    *n = (xf_snode){.kind = k, .v = v, .edge = e};
    return n;
}

static uint32_t
nout(const parser *p, const xf_cvertex *v)
{
    return p->o->first[v->index + 1] - p->o->first[v->index];
}

static const xf_cedge *
out(const parser *p, const xf_cvertex *v, uint32_t k)
{
    return p->o->e[p->o->first[v->index] + k];
}

/* The body edge of loop header @v: the valued edge whose value is not 0,
 * or the default edge where the other's value is 0. */
static const xf_cedge *
body_edge(const parser *p, const xf_cvertex *v)
{
    if (nout(p, v) != 2)
        return NULL;
    const xf_cedge *a = out(p, v, 0), *b = out(p, v, 1);
    bool va = xf_flag_is(a->has_cv, false), vb = xf_flag_is(b->has_cv, false);
    if (va && !vb)
        return xf_cedge_value(a) ? a : b;
    if (vb && !va)
        return xf_cedge_value(b) ? b : a;
    if (va && vb && !xf_cedge_value(a) != !xf_cedge_value(b))
        return xf_cedge_value(a) ? a : b;
    return NULL;
}

/* Whether @v's out-edges have distinct values and at most one default. */
static bool
distinct_values(const parser *p, const xf_cvertex *v)
{
    uint32_t n = nout(p, v), dflt = 0;
    for (uint32_t i = 0; i < n; i++) {
        const xf_cedge *a = out(p, v, i);
        if (!xf_flag_is(a->has_cv, false)) {
            dflt++;
            continue;
        }
        for (uint32_t j = 0; j < i; j++) {
            const xf_cedge *b = out(p, v, j);
            if (xf_flag_is(b->has_cv, false) && xf_cedge_value(a) == xf_cedge_value(b))
                return false;
        }
    }
    return n > 0 && dflt <= 1;
}

/* Parse the code from @v into the list *@head, up to the EndBranch or
 * EndLoop that ends it (returned), or to an Exit (NULL). */
static const xf_cvertex *
seq(parser *p, const xf_cvertex *v, xf_snode **head, int depth)
{
    xf_snode **tail = head;
    if (depth > MAX_DEPTH)
        p->bad = true;
    while (!p->bad) {
        xf_snode *n = NULL;
        if (v->kind == XF_CV_EXIT) {
            if ((n = node(p, XF_SN_EXIT, v, NULL)))
                *tail = n;
            return NULL;
        }
        if (v->kind == XF_CV_ENDBRANCH || v->kind == XF_CV_ENDLOOP)
            return v;
        if (p->state[v->index] != FREE || v->kind == XF_CV_POSTLOOP)
            break;
        p->state[v->index] = PLACED;
        switch (v->kind) {
        case XF_CV_ENTRY:
            if (depth > 0)
                p->bad = true;
            /* fall through */
        case XF_CV_LABEL:
        case XF_CV_GOTO:
        case XF_CV_BASICBLOCK:
            if (nout(p, v) != 1) {
                p->bad = true;
                break;
            }
            if (v->kind == XF_CV_BASICBLOCK && (n = node(p, XF_SN_BLOCK, v, NULL))) {
                *tail = n;
                tail = &n->next;
            }
            v = out(p, v, 0)->tgt;
            continue;
        case XF_CV_FORLOOP:
        case XF_CV_PRELOOP: {
            const xf_cedge *be = body_edge(p, v);
            if (!be || !v->cond || !(n = node(p, XF_SN_LOOP, v, be))) {
                p->bad = true;
                break;
            }
            const xf_cvertex *end = seq(p, be->tgt, &n->body, depth + 1);
            if (p->bad || !end || end->kind != XF_CV_ENDLOOP || p->state[end->index] != FREE ||
                nout(p, end) != 1 || out(p, end, 0)->tgt != v) {
                p->bad = true;
                break;
            }
            p->state[end->index] = PLACED;
            *tail = n;
            tail = &n->next;
            n->exit_edge = out(p, v, 0) == be ? out(p, v, 1) : out(p, v, 0);
            v = n->exit_edge->tgt;
            continue;
        }
        case XF_CV_BRANCH:
        case XF_CV_IF: {
            if (!v->cond || !distinct_values(p, v) || !(n = node(p, XF_SN_BRANCH, v, NULL))) {
                p->bad = true;
                break;
            }
            const xf_cvertex *join = NULL;
            bool some_exit = false;
            xf_snode **arms = &n->body;
            for (uint32_t k = 0; k < nout(p, v) && !p->bad; k++) {
                xf_snode *a = node(p, XF_SN_ARM, v, out(p, v, k));
                if (!a)
                    break;
                *arms = a;
                arms = &a->next;
                const xf_cvertex *end = seq(p, a->edge->tgt, &a->body, depth + 1);
                if (!end)
                    some_exit = true;
                else if (join && end != join)
                    p->bad = true;
                else
                    join = end;
            }
            (void)some_exit;
            if (p->bad)
                break;
            *tail = n;
            tail = &n->next;
            if (!join)
                return NULL; /* every arm leaves the routine */
            if (join->kind == XF_CV_ENDLOOP)
                return join; /* the arms meet where the loop's body ends */
            if (p->state[join->index] != FREE || nout(p, join) != 1) {
                p->bad = true;
                break;
            }
            p->state[join->index] = PLACED;
            v = out(p, join, 0)->tgt;
            continue;
        }
        default:
            p->bad = true;
            break;
        }
    }
    p->bad = true;
    return NULL;
}

bool
xf_cfg_structure(const xf_graph *g, const xf_cfg_outs *o, xf_stree *t)
{
    *t = (xf_stree){0};
    const xf_cvertex *entry = NULL;
    uint32_t entries = 0;
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i]->kind == XF_CV_ENTRY) {
            entry = g->v.v[i];
            entries++;
        }
    if (entries != 1)
        return false;
    parser p = {.g = g, .o = o, .t = t};
    t->cap = g->v.n + g->e.n + 1;
    t->pool = calloc(t->cap, sizeof *t->pool);
    p.state = calloc((size_t)g->v.n + 1, 1);
    if (!t->pool || !p.state)
        p.bad = true;
    else if (seq(&p, entry, &t->root, 0))
        p.bad = true; /* the top level ended at an EndBranch or EndLoop */
    free(p.state);
    if (p.bad) {
        xf_stree_free(t);
        return false;
    }
    /* the final Exit is where the code ends anyway */
    xf_snode **last = &t->root;
    while (*last && (*last)->next)
        last = &(*last)->next;
    if (*last && (*last)->kind == XF_SN_EXIT)
        *last = NULL;
    return true;
}

void
xf_stree_free(xf_stree *t)
{
    free(t->pool);
    *t = (xf_stree){0};
}

/* ------------------------------------------------------- counted loops */

typedef struct guard {
    const xf_symbol **s; /* the variables the body must leave alone */
    uint32_t n, cap;
    bool global; /* one of them is a global */
    bool ok;
} guard;

static void
guard_add(guard *gd, const xf_symbol *s)
{
    if (!s) {
        gd->ok = false;
        return;
    }
    for (uint32_t i = 0; i < gd->n; i++)
        if (gd->s[i] == s)
            return;
    if (gd->n == gd->cap) {
        uint32_t cap = gd->cap ? 2 * gd->cap : 8;
        const xf_symbol **ns = realloc(gd->s, cap * sizeof *ns);
        if (!ns) {
            gd->ok = false;
            return;
        }
        gd->s = ns;
        gd->cap = cap;
    }
    gd->s[gd->n++] = s;
    if (!s->scope || !s->scope->parent)
        gd->global = true;
}

static bool
guarded(const guard *gd, const xf_symbol *s)
{
    for (uint32_t i = 0; i < gd->n; i++)
        if (gd->s[i] == s)
            return true;
    return false;
}

/* Every variable an expression reads (subscripts included). */
static void guard_expr(guard *gd, const xf_expr *x);

static void
guard_ref(guard *gd, const xf_varref *r)
{
    const xf_symref *sr = xf_varref_symref(r);
    guard_add(gd, sr ? sr->sym : NULL);
    const xf_arrref *a = xf_varref_arrref(r);
    for (uint32_t k = 0; a && k < a->t.n; k++) {
        if (a->t.v[k].index)
            guard_expr(gd, a->t.v[k].index);
        if (a->t.v[k].bound)
            guard_expr(gd, a->t.v[k].bound);
        if (a->t.v[k].stride)
            guard_expr(gd, a->t.v[k].stride);
    }
}

static void
guard_expr(guard *gd, const xf_expr *x)
{
    for (uint32_t i = 0; i < x->v.n; i++)
        if (x->v.v[i].kind == XF_EV_VARREF)
            guard_ref(gd, x->v.v[i].u.ref);
        else if (x->v.v[i].kind == XF_EV_FUNCALL || x->v.v[i].kind == XF_EV_ARGREF)
            gd->ok = false;
}

/* Whether expression @x mentions a guarded variable. */
static bool
mentions(const guard *gd, const xf_expr *x)
{
    for (uint32_t i = 0; i < x->v.n; i++) {
        if (x->v.v[i].kind != XF_EV_VARREF)
            continue;
        const xf_symref *sr = xf_varref_symref(x->v.v[i].u.ref);
        if (!sr || guarded(gd, sr->sym))
            return true;
    }
    return false;
}

static bool
writes(const guard *gd, const xf_stmt *s)
{
    const xf_symref *sr;
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        sr = xf_varref_symref(&s->u.as.lhs);
        return !sr || guarded(gd, sr->sym);
    case XF_STMT_CALL:
        if (gd->global)
            return true;
        for (uint32_t i = 0; i < s->u.call.args.n; i++)
            if (mentions(gd, &s->u.call.args.v[i].val))
                return true;
        return false;
    case XF_STMT_ICALL: {
        const char *nm = s->u.icall.name ? s->u.icall.name : "";
        if (strstr(nm, "push") || strstr(nm, "store") || strstr(nm, "ckp_take"))
            return false; /* reads its arguments */
        for (uint32_t i = 0; i < s->u.icall.args.n; i++)
            if (mentions(gd, &s->u.icall.args.v[i].val))
                return true;
        return false;
    }
    case XF_STMT_MARKER:
    case XF_STMT_DERIVPROP: /* derivative components only */
        return false;
    }
    return true;
}

static bool
body_writes(const guard *gd, const xf_snode *n)
{
    for (; n; n = n->next) {
        const xf_cvertex *v = n->v;
        if (n->kind == XF_SN_BLOCK)
            for (uint32_t i = 0; i < v->stmts.n; i++)
                if (writes(gd, v->stmts.v[i]))
                    return true;
        if (n->kind == XF_SN_LOOP && v->kind == XF_CV_FORLOOP &&
            ((v->init && writes(gd, v->init)) || (v->update && writes(gd, v->update))))
            return true;
        if (n->body && body_writes(gd, n->body))
            return true;
    }
    return false;
}

static bool
is_index(const xf_evertex *e, const xf_symbol *s)
{
    const xf_symref *sr = e->kind == XF_EV_VARREF ? xf_varref_symref(e->u.ref) : NULL;
    return sr && sr->sym == s && !xf_varref_arrref(e->u.ref);
}

/* Whether @e reads @s (in a subscript too: conservative). */
static bool
refers(const xf_evertex *e, const xf_symbol *s)
{
    if (e->kind != XF_EV_VARREF)
        return false;
    guard g = {.ok = true};
    guard_ref(&g, e->u.ref);
    bool r = !g.ok || guarded(&g, s);
    free(g.s);
    return r;
}

/* The operands of @x's vertex @root at positions 1 and 2. */
static bool
operands(const xf_expr *x, uint32_t root, uint32_t side[2])
{
    side[0] = side[1] = UINT32_MAX;
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].tgt == root && (x->e.v[j].pos == 1 || x->e.v[j].pos == 2) &&
            x->e.v[j].src < x->v.n)
            side[x->e.v[j].pos - 1] = x->e.v[j].src;
    return side[0] != UINT32_MAX && side[1] != UINT32_MAX;
}

/* Whether vertex @k of @x is an integer constant or minus_scal of one (*@val). */
static bool
int_constant(const xf_expr *x, uint32_t k, long long *val)
{
    const xf_evertex *e = &x->v.v[k];
    int sign = 1;
    if (e->kind == XF_EV_INTRINSIC && e->u.in.name && !strcmp(e->u.in.name, "minus_scal")) {
        uint32_t op[2];
        operands(x, k, op);
        if (op[0] == UINT32_MAX)
            return false;
        e = &x->v.v[op[0]];
        sign = -1;
    }
    if (e->kind != XF_EV_CONSTANT || e->u.c.type != XF_TYPE_INTEGER || !e->u.c.value)
        return false;
    char *end;
    long long v = strtoll(e->u.c.value, &end, 10);
    if (*end || end == e->u.c.value)
        return false;
    *val = sign * v;
    return true;
}

bool
xf_cfg_counted_do(const xf_snode *n, xf_cfg_do *d)
{
    const xf_cvertex *v = n->v;
    if (n->kind != XF_SN_LOOP || v->kind != XF_CV_FORLOOP || !v->init || !v->update || !v->cond ||
        v->init->kind != XF_STMT_ASSIGN || v->update->kind != XF_STMT_ASSIGN ||
        xf_varref_arrref(&v->init->u.as.lhs) || xf_varref_arrref(&v->update->u.as.lhs))
        return false;
    const xf_symref *ir = xf_varref_symref(&v->init->u.as.lhs);
    const xf_symref *ur = xf_varref_symref(&v->update->u.as.lhs);
    const xf_symbol *i = ir ? ir->sym : NULL;
    if (!i || !ur || ur->sym != i || i->type != XF_TYPE_INTEGER || i->dims.n)
        return false;
    *d = (xf_cfg_do){.var = &v->init->u.as.lhs,
                     .lower = &v->init->u.as.rhs,
                     .upper = v->cond,
                     .step = &v->update->u.as.rhs};
    /* the update: i = i + s, i = s + i or i = i - s */
    const xf_expr *u = d->step;
    uint32_t ut = xf_expr_root(u), us[2];
    if (ut == UINT32_MAX || u->v.v[ut].kind != XF_EV_INTRINSIC || !operands(u, ut, us))
        return false;
    const char *op = u->v.v[ut].u.in.name;
    if (!strcmp(op, "add_scal_scal") && is_index(&u->v.v[us[0]], i))
        d->step_v = us[1];
    else if (!strcmp(op, "add_scal_scal") && is_index(&u->v.v[us[1]], i))
        d->step_v = us[0];
    else if (!strcmp(op, "sub_scal_scal") && is_index(&u->v.v[us[0]], i)) {
        d->step_v = us[1];
        d->minus = true;
    } else
        return false;
    /* the condition: i OP u, OP's direction that of a constant step */
    const xf_expr *c = v->cond;
    uint32_t ct = xf_expr_root(c), cs[2];
    if (ct == UINT32_MAX || c->v.v[ct].kind != XF_EV_BOOLOP || !operands(c, ct, cs) ||
        !is_index(&c->v.v[cs[0]], i))
        return false;
    d->upper_v = cs[1];
    const char *rel = c->v.v[ct].u.in.name;
    uint32_t up;
    if (!strcmp(rel, "not_equal")) {
        if (d->minus || !xf_cfg_strided_do(v, &up) || up != d->upper_v)
            return false;
    } else {
        long long s;
        if (!int_constant(u, d->step_v, &s) || !s)
            return false;
        bool up_dir = (s > 0) != d->minus;
        if (!strcmp(rel, "less_or_equal") && up_dir)
            d->adjust = 0;
        else if (!strcmp(rel, "less_than") && up_dir)
            d->adjust = -1;
        else if (!strcmp(rel, "greater_or_equal") && !up_dir)
            d->adjust = 0;
        else if (!strcmp(rel, "greater_than") && !up_dir)
            d->adjust = 1;
        else
            return false;
    }
    /* the bound and the step do not read the index (DO reads them once) */
    for (uint32_t k = 0; k < c->v.n; k++)
        if (k != cs[0] && refers(&c->v.v[k], i))
            return false;
    for (uint32_t k = 0; k < u->v.n; k++)
        if (k != us[0] && k != us[1] && refers(&u->v.v[k], i))
            return false;
    if (refers(&u->v.v[d->step_v], i))
        return false;
    /* the body leaves the index, the bound and the step alone */
    guard gd = {.ok = true};
    guard_add(&gd, i);
    guard_expr(&gd, c);
    guard_expr(&gd, u);
    bool ok = gd.ok && !body_writes(&gd, n->body);
    free(gd.s);
    return ok;
}
