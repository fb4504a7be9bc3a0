/* addr_game.c: the token game of address recovery (Utke, Naumann, Lyons et
 * al. [003] §4, Figs. 5-6) on one basic block's dependency graph, and the
 * code it chooses; see addr.h. A token on a node is a value the adjoint
 * knows. The values at the block's exit start with tokens. Then, until
 * every needed value has one: invert an assignment whose left-hand side
 * and other operands are known (k = j + 1 gives j = k - 1; only +, -,
 * unary - and multiplication by a non-zero integer constant invert, each
 * operand read once); else recompute an assignment whose operands are
 * known; else store the node whose token would trigger the most others
 * (heuristic H). Within a block every use is reached by exactly one
 * definition and every use post-dominates nothing it could miss, so
 * saturation along flow edges is the identity of a value with its uses. */
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "build.h"

static const xf_symbol *
leaf_sym(const xf_evertex *v)
{
    if (v->kind != XF_EV_VARREF || xf_varref_arrref(v->u.ref))
        return NULL;
    const xf_symref *s = xf_varref_symref(v->u.ref);
    return s ? s->sym : NULL;
}

static uint32_t
out_edges(const xf_expr *x, uint32_t v, uint32_t *tgt, int64_t *pos)
{
    uint32_t n = 0;
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].src == v) {
            n++;
            *tgt = x->e.v[j].tgt;
            *pos = x->e.v[j].pos;
        }
    return n;
}

static bool
int_const(const xf_evertex *v, int64_t *c)
{
    if (v->kind != XF_EV_CONSTANT || v->u.c.type != XF_TYPE_INTEGER || !v->u.c.value)
        return false;
    char *end;
    *c = strtoll(v->u.c.value, &end, 10);
    return *end == 0 && end != v->u.c.value;
}

/* The step of an inversion: at operation @op, the operand solved for is at @pos. */
typedef struct step {
    uint32_t op;
    int64_t pos;
} step;

enum { MAX_PATH = 64 };

/* Can @x be solved for @s: @s read at one vertex, once, under invertible
 * operations only? The steps from the root down in @path. */
static bool
invertible(const xf_expr *x, const xf_symbol *s, step *path, uint32_t *np)
{
    uint32_t leaf = UINT32_MAX, root = xf_expr_root(x);
    for (uint32_t i = 0; i < x->v.n; i++)
        if (leaf_sym(&x->v.v[i]) == s) {
            if (leaf != UINT32_MAX)
                return false;
            leaf = i;
        }
    if (leaf == UINT32_MAX || root == UINT32_MAX)
        return false;
    uint32_t n = 0;
    for (uint32_t v = leaf; v != root;) {
        uint32_t tgt = 0;
        int64_t pos = 0;
        if (out_edges(x, v, &tgt, &pos) != 1 || n == MAX_PATH)
            return false;
        const xf_evertex *op = &x->v.v[tgt];
        if (op->kind != XF_EV_INTRINSIC)
            return false;
        const char *name = op->u.in.name;
        if (!strcmp(name, "mul_scal_scal")) {
            int64_t c;
            uint32_t other = xf_expr_operand(x, tgt, 3 - pos);
            if (other == UINT32_MAX || !int_const(&x->v.v[other], &c) || c == 0)
                return false;
        } else if (strcmp(name, "add_scal_scal") && strcmp(name, "sub_scal_scal") &&
                   strcmp(name, "minus_scal")) {
            return false;
        }
        path[n++] = (step){.op = tgt, .pos = pos};
        v = tgt;
    }
    for (uint32_t i = 0; i < n / 2; i++) {
        step t = path[i];
        path[i] = path[n - 1 - i];
        path[n - 1 - i] = t;
    }
    *np = n;
    return true;
}

/* Are the candidates @x reads at statement @k known (@s excepted)? */
static bool
leaves_known(const xf_addr *p, const xf_ablock *b, const xf_expr *x, int32_t k,
             const xf_symbol *except, const uint8_t *kn)
{
    for (uint32_t i = 0; i < x->v.n; i++) {
        const xf_symbol *s = leaf_sym(&x->v.v[i]);
        if (!s || s == except || !xf_addr_is_cand(p, s))
            continue;
        uint32_t r = xf_addr_reach(b, s, k);
        if (r == UINT32_MAX || !kn[r])
            return false;
    }
    return true;
}

/* One inversion: *@n from assignment *@w. */
static bool
find_inversion(const xf_addr *p, const xf_ablock *b, const uint8_t *kn, uint32_t *n, uint32_t *w)
{
    step path[MAX_PATH];
    uint32_t np;
    for (uint32_t i = 0; i < b->n.n; i++) {
        const xf_anode *a = &b->n.v[i];
        if (!kn[i] || a->stmt < 0 || !a->evaluable)
            continue;
        for (uint32_t j = 0; j < a->rhs->v.n; j++) {
            const xf_symbol *s = leaf_sym(&a->rhs->v.v[j]);
            if (!s || !xf_addr_is_cand(p, s))
                continue;
            uint32_t r = xf_addr_reach(b, s, a->stmt);
            if (r == UINT32_MAX || kn[r] || !invertible(a->rhs, s, path, &np) ||
                !leaves_known(p, b, a->rhs, a->stmt, s, kn))
                continue;
            *n = r;
            *w = i;
            return true;
        }
    }
    return false;
}

/* One forward recomputation: *@n. */
static bool
find_forward(const xf_addr *p, const xf_ablock *b, const uint8_t *kn, uint32_t *n)
{
    for (uint32_t i = 0; i < b->n.n; i++) {
        const xf_anode *a = &b->n.v[i];
        if (!kn[i] && a->stmt >= 0 && a->evaluable &&
            leaves_known(p, b, a->rhs, a->stmt, NULL, kn)) {
            *n = i;
            return true;
        }
    }
    return false;
}

/* |T(v)|: how many tokens placing one on @v triggers by inversion and recomputation. */
static uint32_t
trigger(const xf_addr *p, const xf_ablock *b, const uint8_t *kn, uint32_t v, uint8_t *sim)
{
    memcpy(sim, kn, b->n.n);
    sim[v] = 1;
    uint32_t count = 1, n, w;
    for (;;) {
        if (find_inversion(p, b, sim, &n, &w) || find_forward(p, b, sim, &n)) {
            sim[n] = 1;
            count++;
        } else {
            return count;
        }
    }
}

static void
mark(xf_ablock *b, const xf_addr *p, uint32_t i, int depth)
{
    if (i >= b->n.n)
        return;
    xf_anode *a = &b->n.v[i];
    if (a->used || depth > 1000)
        return;
    a->used = true;
    const xf_expr *x = NULL;
    int32_t k = 0;
    const xf_symbol *skip = NULL;
    if (a->how == XF_ADDR_FORWARD) {
        x = a->rhs;
        k = a->stmt;
    } else if (a->how == XF_ADDR_INVERT) {
        mark(b, p, a->via, depth + 1);
        x = b->n.v[a->via].rhs;
        k = b->n.v[a->via].stmt;
        skip = a->var;
    }
    for (uint32_t j = 0; x && j < x->v.n; j++) {
        const xf_symbol *s = leaf_sym(&x->v.v[j]);
        if (s && s != skip && xf_addr_is_cand(p, s))
            mark(b, p, xf_addr_reach(b, s, k), depth + 1);
    }
}

/* The entry nodes of E ∩ W: what the adjoint hands back. */
static bool
restored(const xf_ablock *b, const xf_anode *a)
{
    return a->stmt < 0 && xf_addr_has(b->entry_in.v, b->entry_in.n, a->var) &&
           xf_addr_has(b->written.v, b->written.n, a->var);
}

int
xf_addr_game(xf_addr *p, xf_ablock *b)
{
    uint32_t nn = b->n.n;
    if (!nn)
        return 0;
    uint8_t *kn = xf_arena_alloc(p->a, nn), *sim = xf_arena_alloc(p->a, nn);
    if (!kn || !sim)
        return -1;
    memset(kn, 0, nn);
    for (uint32_t i = 0; i < nn; i++) {
        b->n.v[i].how = XF_ADDR_UNKNOWN;
        b->n.v[i].used = b->n.v[i].emitted = false;
    }
    for (uint32_t i = 0; i < nn; i++) {
        /* V_O: the values used after the block, and those handed through it */
        const xf_symbol *s = b->n.v[i].var;
        if (!xf_addr_has(b->live_out.v, b->live_out.n, s) &&
            !(xf_addr_has(b->entry_in.v, b->entry_in.n, s) &&
              !xf_addr_has(b->written.v, b->written.n, s)))
            continue;
        uint32_t e = xf_addr_reach(b, s, INT32_MAX);
        if (e != UINT32_MAX && !kn[e]) {
            kn[e] = 1;
            b->n.v[e].how = XF_ADDR_EXIT;
        }
    }
    for (;;) {
        bool done = true;
        for (uint32_t i = 0; i < b->targets.n && done; i++)
            done = kn[b->targets.v[i]];
        for (uint32_t i = 0; i < nn && done; i++)
            done = !restored(b, &b->n.v[i]) || kn[i];
        if (done)
            break;
        uint32_t n, w;
        if (!b->capped && find_inversion(p, b, kn, &n, &w)) {
            b->n.v[n].how = XF_ADDR_INVERT;
            b->n.v[n].via = w;
        } else if (!b->capped && find_forward(p, b, kn, &n)) {
            b->n.v[n].how = XF_ADDR_FORWARD;
        } else {
            /* H: the node with the largest trigger set */
            uint32_t best = UINT32_MAX, most = 0;
            for (uint32_t i = 0; i < nn; i++) {
                if (kn[i] || (b->capped && !restored(b, &b->n.v[i])))
                    continue;
                /* the trigger sets cost O(n^3) each: past 32 nodes, the first will do */
                uint32_t t = b->capped || nn > 32 ? 1 : trigger(p, b, kn, i, sim);
                if (t > most) {
                    most = t;
                    best = i;
                }
            }
            if (best == UINT32_MAX)
                break;
            n = best;
            b->n.v[n].how = XF_ADDR_STORE;
        }
        kn[n] = 1;
    }
    for (uint32_t i = 0; i < b->targets.n; i++)
        mark(b, p, b->targets.v[i], 0);
    for (uint32_t i = 0; i < nn; i++)
        if (restored(b, &b->n.v[i]))
            mark(b, p, i, 0);
    return 0;
}

/* ------------------------------------------------------------ code */

static xf_varref *
ref_to(xf_doc *doc, xf_symbol *s)
{
    xf_varref *r = xf_ref_new(doc, s);
    if (r)
        xf_mark_ref(r, false, false);
    return r;
}

/* Replace, in vertices @from.. of @x, each candidate read at statement @k
 * by the node's holder. false: a node not recovered (with @need_used). */
static bool
substitute(xf_doc *doc, const xf_addr *p, const xf_ablock *b, xf_expr *x, uint32_t from, int32_t k,
           bool need_used)
{
    for (uint32_t i = from; i < x->v.n; i++) {
        const xf_symbol *s = leaf_sym(&x->v.v[i]);
        if (!s || !xf_addr_is_cand(p, s))
            continue;
        uint32_t r = xf_addr_reach(b, s, k);
        if (r == UINT32_MAX)
            return false;
        const xf_anode *a = &b->n.v[r];
        if ((need_used && !a->used) || !a->holder)
            return false;
        if (a->holder == s)
            continue;
        xf_varref *r2 = ref_to(doc, a->holder);
        if (!r2)
            return false;
        r2->id = x->v.v[i].u.ref->id;
        x->v.v[i].u.ref = r2;
    }
    return true;
}

xf_expr *
xf_addr_copy_at(xf_doc *doc, const xf_addr *p, const xf_ablock *b, const xf_expr *x, int32_t k,
                bool need_used)
{
    xf_expr *c = XF_NEW(doc->arena, xf_expr);
    if (!c)
        return NULL;
    memset(c, 0, sizeof *c);
    c->h = x->h;
    if (xf_expr_copy(doc, c, x, xf_expr_root(x)) == UINT32_MAX ||
        !substitute(doc, p, b, c, 0, k, need_used))
        return NULL;
    return c;
}

static int
push_to(xf_arena *a, xf_addr_stmts *v, xf_stmt *s)
{
    return s && XF_VEC_PUSH(a, *v, s) ? 0 : -1;
}

static xf_stmt *
int_tape(xf_doc *doc, bool push, xf_symbol *s)
{
    xf_stmt *st = xf_stmt_icall(doc, push ? "inline_push_i" : "inline_pop_i",
                                push ? "push_i_s0" : "pop_i_s0");
    xf_varref *r = ref_to(doc, s);
    return st && r && xf_icall_ref(doc, st, r) ? st : NULL;
}

static xf_stmt *
assign(xf_doc *doc, const char *id, xf_symbol *lhs_sym, const xf_expr *rhs)
{
    xf_varref lhs;
    if (!rhs || !xf_ref_init(doc, &lhs, lhs_sym))
        return NULL;
    xf_mark_ref(&lhs, false, false);
    return xf_stmt_assign(doc, id, &lhs, rhs);
}

/* holder(a) = the value of assignment @w solved for a. */
static xf_stmt *
inverse(xf_addr *p, xf_ablock *b, const xf_anode *a, const xf_anode *w)
{
    xf_doc *doc = p->doc;
    step path[MAX_PATH];
    uint32_t np;
    if (!invertible(w->rhs, a->var, path, &np))
        return NULL;
    xf_expr r = {0};
    uint32_t cur = xf_expr_ref(doc, &r, ref_to(doc, w->holder));
    for (uint32_t i = 0; i < np && cur != UINT32_MAX; i++) {
        const char *name = w->rhs->v.v[path[i].op].u.in.name;
        if (!strcmp(name, "minus_scal")) {
            cur = xf_expr_unary(doc, &r, "minus_scal", cur);
            continue;
        }
        uint32_t ov = xf_expr_operand(w->rhs, path[i].op, 3 - path[i].pos);
        uint32_t from = r.v.n;
        uint32_t o = ov == UINT32_MAX ? UINT32_MAX : xf_expr_copy(doc, &r, w->rhs, ov);
        if (o == UINT32_MAX || !substitute(doc, p, b, &r, from, w->stmt, false))
            return NULL;
        if (!strcmp(name, "add_scal_scal"))
            cur = xf_expr_binary(doc, &r, "sub_scal_scal", cur, o);
        else if (!strcmp(name, "sub_scal_scal"))
            cur = path[i].pos == 1 ? xf_expr_binary(doc, &r, "add_scal_scal", cur, o)
                                   : xf_expr_binary(doc, &r, "sub_scal_scal", o, cur);
        else /* mul_scal_scal by a constant: exact */
            cur = xf_expr_binary(doc, &r, "div_scal_scal", cur, o);
    }
    return cur == UINT32_MAX ? NULL : assign(doc, "_addr_invert", a->holder, &r);
}

static int
emit(xf_addr *p, xf_ablock *b, uint32_t i, int depth)
{
    if (i >= b->n.n)
        return -1;
    xf_anode *a = &b->n.v[i];
    if (a->emitted || depth > 1000)
        return 0;
    a->emitted = true;
    const xf_expr *x = NULL;
    int32_t k = 0;
    if (a->how == XF_ADDR_FORWARD) {
        x = a->rhs;
        k = a->stmt;
    } else if (a->how == XF_ADDR_INVERT) {
        if (emit(p, b, a->via, depth + 1))
            return -1;
        x = b->n.v[a->via].rhs;
        k = b->n.v[a->via].stmt;
    }
    for (uint32_t j = 0; x && j < x->v.n; j++) {
        const xf_symbol *s = leaf_sym(&x->v.v[j]);
        if (s && s != (a->how == XF_ADDR_INVERT ? a->var : NULL) && xf_addr_is_cand(p, s) &&
            emit(p, b, xf_addr_reach(b, s, k), depth + 1))
            return -1;
    }
    switch (a->how) {
    case XF_ADDR_FORWARD:
        p->counts.recomputed++;
        return push_to(p->a, &b->code.head,
                       assign(p->doc, "_addr_recompute", a->holder,
                              xf_addr_copy_at(p->doc, p, b, a->rhs, a->stmt, false)));
    case XF_ADDR_INVERT:
        p->counts.inverted++;
        return push_to(p->a, &b->code.head, inverse(p, b, a, &b->n.v[a->via]));
    case XF_ADDR_STORE:
    case XF_ADDR_EXIT:
    case XF_ADDR_UNKNOWN:
        break;
    }
    return 0;
}

int
xf_addr_emit(xf_addr *p, xf_ablock *b)
{
    xf_doc *doc = p->doc;
    xf_addr_code *c = &b->code;
    uint32_t ns = b->v->stmts.n;
    c->after = XF_NEW_ARRAY(p->a, ns ? ns : 1, xf_addr_stmts);
    if (!c->after)
        return -1;
    memset(c->after, 0, sizeof *c->after * (ns ? ns : 1));
    for (uint32_t i = 0; i < b->n.n; i++) {
        xf_anode *a = &b->n.v[i];
        if (!a->used)
            continue;
        if (a->how == XF_ADDR_EXIT) {
            a->holder = a->var;
        } else {
            a->holder = xf_fresh_symbol(doc, p->rt->cfg_scope, "OpenAD_Symbol_", p->nsym,
                                        XF_TYPE_INTEGER, XF_SHAPE_SCALAR, false);
            if (!a->holder)
                return -1;
        }
    }
    /* the promised values of the routine's end, then the stored ones: pushed
     * last in the taping sweep, popped first in the adjoint */
    XF_VEC(xf_stmt *) pops = {0};
    for (uint32_t i = 0; i < b->n.n; i++) {
        xf_anode *a = &b->n.v[i];
        if (!a->used || a->how != XF_ADDR_STORE)
            continue;
        p->counts.stored++;
        xf_stmt *copy = NULL;
        xf_expr val = {0};
        if (xf_expr_ref(doc, &val, ref_to(doc, a->var)) == UINT32_MAX ||
            !(copy = assign(doc, "_addr_store", a->holder, &val)) ||
            push_to(p->a, a->stmt < 0 ? &c->first : &c->after[a->stmt], copy) ||
            push_to(p->a, &c->last, int_tape(doc, true, a->holder)) ||
            push_to(p->a, (void *)&pops, int_tape(doc, false, a->holder)))
            return -1;
    }
    for (uint32_t i = 0; b->last && i < p->handed.n; i++)
        if (push_to(p->a, &c->last, int_tape(doc, true, p->handed.v[i])) ||
            push_to(p->a, (void *)&pops, int_tape(doc, false, p->handed.v[i])))
            return -1;
    for (uint32_t i = pops.n; i-- > 0;)
        if (push_to(p->a, &c->head, pops.v[i]))
            return -1;
    for (uint32_t i = 0; i < b->targets.n; i++)
        if (emit(p, b, b->targets.v[i], 0))
            return -1;
    for (uint32_t i = 0; i < b->n.n; i++) {
        xf_anode *a = &b->n.v[i];
        if (!restored(b, a))
            continue;
        xf_expr val = {0};
        if (emit(p, b, i, 0) || xf_expr_ref(doc, &val, ref_to(doc, a->holder)) == UINT32_MAX ||
            push_to(p->a, &c->tail, assign(doc, "_addr_restore", a->var, &val)))
            return -1;
    }
    return 0;
}
