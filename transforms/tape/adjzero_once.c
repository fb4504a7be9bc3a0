/* adjzero_once.c: does a reference read each element of its array at
 * most once per activation (adjzero.h, xf_adjzero_once)?
 *
 * A block runs at most once per iteration of each loop around it, and
 * once per activation outside loops. So the reference reads a different
 * element every time it runs when, for each loop around its block, one
 * subscript of its own is that loop's variable plus or minus a constant:
 * two different runs differ in some loop's variable, hence in that
 * subscript. That holds when the loops are DO loops with a constant step
 * (each iteration a new value of the variable) and nothing in a loop's
 * body assigns its variable or passes it to a call (which may assign it;
 * any call may when the variable is not the routine's own local or the
 * routine hosts procedures); the subscripts are then in bounds as Fortran
 * requires. */
#include <stdlib.h>
#include <string.h>

#include "adjzero.h"
#include "pass.h"

/* Is @x (an index expression) @i, @i + c, c + @i or @i - c, c an integer constant? */
static bool
shifted(const xf_expr *x, const xf_symbol *i)
{
    uint32_t root = x ? xf_expr_root(x) : UINT32_MAX;
    if (root == UINT32_MAX)
        return false;
    const xf_evertex *v = &x->v.v[root];
    if (v->kind == XF_EV_VARREF) {
        const xf_symref *s = xf_varref_symref(v->u.ref);
        return s && s->sym == i && !xf_varref_arrref(v->u.ref) && v->u.ref->v.n == 1;
    }
    if (v->kind != XF_EV_INTRINSIC || !v->u.in.name)
        return false;
    bool add = !strcmp(v->u.in.name, "add_scal_scal");
    if (!add && strcmp(v->u.in.name, "sub_scal_scal"))
        return false;
    uint32_t a = xf_expr_operand(x, root, 1), b = xf_expr_operand(x, root, 2);
    if (a == UINT32_MAX || b == UINT32_MAX)
        return false;
    const xf_evertex *va = &x->v.v[a], *vb = &x->v.v[b];
    const xf_evertex *var = va, *con = vb;
    if (add && va->kind == XF_EV_CONSTANT) {
        var = vb;
        con = va;
    }
    if (var->kind != XF_EV_VARREF || con->kind != XF_EV_CONSTANT ||
        con->u.c.type != XF_TYPE_INTEGER)
        return false;
    const xf_symref *s = xf_varref_symref(var->u.ref);
    return s && s->sym == i && !xf_varref_arrref(var->u.ref) && var->u.ref->v.n == 1;
}

/* Does expression @x (reference @r) mention @i anywhere, subscripts and
 * call arguments included? A reference without a variable may, and so may
 * anything when out of memory. */
static xf_walk_go
mentions_step(void *ctx, const xf_walk_step *s)
{
    const xf_symbol *const *i = ctx;
    const xf_symref *sr = s->ref ? xf_varref_symref(s->ref) : NULL;
    return s->ref && (!sr || sr->sym == *i) ? XF_WALK_STOP : XF_WALK_GO;
}

static bool
mentions(const xf_expr *x, const xf_symbol *i)
{
    return xf_walk_expr(x, XF_WALK_ARGS, mentions_step, &i) != 0;
}

static bool
mentions_ref(const xf_varref *r, const xf_symbol *i)
{
    return xf_walk_ref(r, XF_WALK_ARGS, mentions_step, &i) != 0;
}

/* What a call may assign: the loop variable @i, and whether every call may. */
typedef struct var {
    const xf_symbol *i;
    bool any_call;
} var;

/* May a function call of @x assign @v's variable? */
static bool
calls_with(const xf_expr *x, const var *v)
{
    for (uint32_t k = 0; x && k < x->v.n; k++) {
        const xf_evertex *e = &x->v.v[k];
        if (e->kind != XF_EV_FUNCALL)
            continue;
        if (v->any_call)
            return true;
        for (uint32_t j = 0; j < e->u.fn.args.n; j++)
            if (mentions_ref(e->u.fn.args.v[j], v->i))
                return true;
    }
    return false;
}

/* May statement @s assign @v's variable? An assignment to it, or a call. */
static bool
stmt_assigns(const xf_stmt *s, const var *v)
{
    switch (s->kind) {
    case XF_STMT_ASSIGN: {
        const xf_symref *l = xf_varref_symref(&s->u.as.lhs);
        return !l || l->sym == v->i || calls_with(&s->u.as.rhs, v);
    }
    case XF_STMT_CALL:
    case XF_STMT_ICALL: {
        if (v->any_call)
            return true;
        const xf_arg_vec *args = s->kind == XF_STMT_CALL ? &s->u.call.args : &s->u.icall.args;
        for (uint32_t k = 0; k < args->n; k++)
            if (mentions(&args->v[k].val, v->i))
                return true;
        return false;
    }
    case XF_STMT_DERIVPROP:
    case XF_STMT_MARKER:
        return false;
    }
    return true;
}

/* May anything in sequence @q assign @i (another loop over @i included)?
 * @budget bounds the statements looked at; false when spent (then: may). */
static bool
seq_assigns(const xf_rgseq *q, const var *i, uint64_t *budget)
{
    for (uint32_t k = 0; k < q->v.n; k++) {
        const xf_region *r = q->v.v[k];
        if (!*budget)
            return true;
        (*budget)--;
        switch (r->kind) {
        case XF_RG_BLOCK:
            for (uint32_t j = 0; j < r->v->stmts.n; j++) {
                if (!*budget)
                    return true;
                (*budget)--;
                if (stmt_assigns(r->v->stmts.v[j], i))
                    return true;
            }
            break;
        case XF_RG_BRANCH:
            if (r->v->cond && calls_with(r->v->cond, i))
                return true;
            for (uint32_t a = 0; a < r->arms.n; a++)
                if (seq_assigns(&r->arms.v[a].body, i, budget))
                    return true;
            break;
        case XF_RG_LOOP:
            if ((r->v->init && stmt_assigns(r->v->init, i)) ||
                (r->v->update && stmt_assigns(r->v->update, i)) ||
                (r->v->cond && calls_with(r->v->cond, i)) || seq_assigns(&r->body, i, budget))
                return true;
            break;
        }
    }
    return false;
}

bool
xf_adjzero_once(const xf_region *block, const xf_varref *r, const xf_scope *local, bool hosts,
                uint64_t *budget)
{
    const xf_arrref *ar = xf_varref_arrref(r);
    if (!block || block->kind != XF_RG_BLOCK || !ar || ar->t.n == 0 || ar->t.n > 64)
        return false;
    for (uint32_t k = 0; k < ar->t.n; k++)
        if (!ar->t.v[k].index || ar->t.v[k].bound || ar->t.v[k].stride)
            return false; /* a section */
    bool used[64] = {false};
    for (const xf_region *l = block->parent; l; l = l->parent) {
        if (l->kind != XF_RG_LOOP)
            continue;
        xf_loophead h;
        if (!xf_loop_explicit(l, &h) || h.st_x || h.step == 0 || !h.i)
            return false;
        uint32_t d = 0;
        while (d < ar->t.n && (used[d] || !shifted(ar->t.v[d].index, h.i)))
            d++;
        if (d == ar->t.n)
            return false;
        used[d] = true;
        const var v = {.i = h.i, .any_call = hosts || h.i->scope != local};
        if (seq_assigns(&l->body, &v, budget))
            return false;
    }
    return true;
}
