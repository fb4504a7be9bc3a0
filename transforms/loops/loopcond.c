/* loopcond.c: a ForLoop condition that offsets the loop variable, as C
 * writes a window's loop (`for (i = 0; i + k <= n; i++)`), is rewritten
 * with the variable alone on one side, the form xf_loop_header accepts:
 *
 *   i + k OP n,  k + i OP n   ->  i OP n - k
 *   i - k OP n                ->  i OP n + k
 *   n OP i + k (and the rest)  ->  i OP' n - k   (OP' the mirrored comparison)
 *
 * OP is <, <=, > or >=. The rewrite holds in integer arithmetic, so it is
 * made only where i is an integer scalar (the header's variable, set by
 * the init and the update) and k and n are integer expressions (integer
 * variables, constants, +, -, *) that do not read i and call nothing.
 * Whether k or n change in the loop does not matter: each evaluation of
 * the new condition is that of the old. */
#include <string.h>

#include "build.h"
#include "cfgtree.h"
#include "loopcond.h"

/* Is vertex @v of @x an integer expression of variables and constants? */
static bool
int_expr(const xf_expr *x, uint32_t v, int depth)
{
    if (v >= x->v.n || depth > 64)
        return false;
    const xf_evertex *e = &x->v.v[v];
    if (e->kind == XF_EV_CONSTANT)
        return e->u.c.type == XF_TYPE_INTEGER;
    if (e->kind == XF_EV_VARREF) {
        const xf_symref *sr = xf_varref_symref(e->u.ref);
        return sr && sr->sym && sr->sym->type == XF_TYPE_INTEGER;
    }
    if (e->kind != XF_EV_INTRINSIC ||
        (strcmp(e->u.in.name, "add_scal_scal") && strcmp(e->u.in.name, "sub_scal_scal") &&
         strcmp(e->u.in.name, "mul_scal_scal")))
        return false;
    uint32_t a = xf_expr_operand(x, v, 1), b = xf_expr_operand(x, v, 2);
    return int_expr(x, a, depth + 1) && int_expr(x, b, depth + 1);
}

/* The comparison with its operands swapped (a < b is b > a), or NULL. */
static const char *
mirrored(const char *op)
{
    static const char *const pairs[][2] = {{"less_than", "greater_than"},
                                           {"less_or_equal", "greater_or_equal"},
                                           {"greater_than", "less_than"},
                                           {"greater_or_equal", "less_or_equal"}};
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        if (!strcmp(op, pairs[k][0]))
            return pairs[k][1];
    return NULL;
}

/* Is @o (an operand of the comparison) i + k, k + i or i - k with k an
 * integer expression that does not read @i? Sets *@k and *@inv (the
 * operation that moves k to the other side). */
static bool
offset(const xf_expr *x, uint32_t o, const xf_symbol *i, uint32_t *k, const char **inv)
{
    if (o >= x->v.n || x->v.v[o].kind != XF_EV_INTRINSIC)
        return false;
    const char *op = x->v.v[o].u.in.name;
    uint32_t a = xf_expr_operand(x, o, 1), b = xf_expr_operand(x, o, 2);
    if (a == UINT32_MAX || b == UINT32_MAX)
        return false;
    if (!strcmp(op, "add_scal_scal") && xf_expr_is_var(x, a, i))
        *k = b, *inv = "sub_scal_scal";
    else if (!strcmp(op, "add_scal_scal") && xf_expr_is_var(x, b, i))
        *k = a, *inv = "sub_scal_scal";
    else if (!strcmp(op, "sub_scal_scal") && xf_expr_is_var(x, a, i))
        *k = b, *inv = "add_scal_scal";
    else
        return false;
    return int_expr(x, *k, 0) && !xf_expr_reads(x, *k, i);
}

/* Rewrite loop @v's condition if it has one of the forms above. 1: done,
 * 0: left alone, -1: out of memory. */
static int
normalise(xf_doc *doc, xf_cvertex *v)
{
    if (v->kind != XF_CV_FORLOOP || !v->init || !v->update || !v->cond ||
        v->init->kind != XF_STMT_ASSIGN || v->update->kind != XF_STMT_ASSIGN)
        return 0;
    const xf_symref *s = xf_varref_symref(&v->init->u.as.lhs);
    const xf_symref *su = xf_varref_symref(&v->update->u.as.lhs);
    if (!s || !su || s->sym != su->sym || xf_varref_arrref(&v->init->u.as.lhs) ||
        s->sym->type != XF_TYPE_INTEGER)
        return 0;
    const xf_symbol *i = s->sym;
    const xf_expr *c = v->cond;
    uint32_t cr = xf_expr_root(c);
    if (cr == UINT32_MAX || (c->v.v[cr].kind != XF_EV_BOOLOP && c->v.v[cr].kind != XF_EV_INTRINSIC))
        return 0;
    const char *op = c->v.v[cr].u.in.name;
    if (!mirrored(op))
        return 0;
    uint32_t lhs = xf_expr_operand(c, cr, 1), rhs = xf_expr_operand(c, cr, 2);
    uint32_t k, n;
    const char *inv;
    if (offset(c, lhs, i, &k, &inv))
        n = rhs;
    else if (offset(c, rhs, i, &k, &inv))
        n = lhs, op = mirrored(op);
    else
        return 0;
    if (!int_expr(c, n, 0) || xf_expr_reads(c, n, i))
        return 0;
    xf_expr *nc = XF_NEW(doc->arena, xf_expr);
    if (!nc)
        return -1;
    /* the variable: copied from whichever operand of the offset holds it */
    uint32_t off = n == rhs ? lhs : rhs;
    uint32_t a = xf_expr_operand(c, off, 1);
    uint32_t ivx = xf_expr_is_var(c, a, i) ? a : xf_expr_operand(c, off, 2);
    uint32_t vi = xf_expr_copy(doc, nc, c, ivx);
    uint32_t vn = xf_expr_copy(doc, nc, c, n);
    uint32_t vk = xf_expr_copy(doc, nc, c, k);
    uint32_t bound = xf_expr_binary(doc, nc, inv, vn, vk);
    uint32_t root = xf_expr_copy_vertex(doc, nc, c, cr); /* the comparison, its kind kept */
    if (vi == UINT32_MAX || bound == UINT32_MAX || root == UINT32_MAX ||
        !(nc->v.v[root].u.in.name = xf_intern(doc, op)))
        return -1;
    if (!xf_expr_edge(doc, nc, vi, root, 1) || !xf_expr_edge(doc, nc, bound, root, 2))
        return -1;
    v->cond = nc;
    return 1;
}

int
xf_loopcond_routine(xf_doc *doc, xf_routine *rt)
{
    int n = 0;
    for (uint32_t k = 0; k < rt->g.v.n; k++) {
        int r = normalise(doc, rt->g.v.v[k]);
        if (r < 0)
            return -1;
        n += r;
    }
    return n;
}
