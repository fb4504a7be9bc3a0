/* fx_array.c: array assignments, y = EXPR for a whole array y, as one
 * ForLoop per dimension with EXPR's whole arrays taken element by element. */
#include <string.h>

#include "fx.h"

/* y = EXPR for the whole array y (from token @k of @l): a ForLoop per
 * dimension, EXPR's whole arrays taken element by element. */
void
fx_array_assignment(fx *x, const fx_line *l, int k, cf_sym *a)
{
    cf *c = &x->c;
    cf_fn *f = c->fn;
    uint32_t L[CF_MAXRANK], E[CF_MAXRANK];
    if (a->nobounds)
        fx_refuse(x,
                  "an assignment to the whole array '%s', whose bounds its caller gives, is not "
                  "supported",
                  a->name);
    for (int d = a->rank - 1; d >= 0; d--) { /* Fortran's first dimension innermost */
        cf_sym *i = cf_temp(c, "OpenAD_i", CF_INT);
        x->idx[d] = i;
        L[d] = cf_g_vertex(c, CF_V_FORLOOP, x->line);
        E[d] = cf_g_vertex(c, CF_V_ENDLOOP, 0);
        f->v.v[L[d]].init = fx_assign_stmt(x, fx_ref_of(x, i), fx_int_const(x, a->lower[d]));
        f->v.v[L[d]].cond = fx_op(x, CF_E_BOOL, "less_or_equal", fx_ref_of(x, i),
                                  fx_int_const(x, a->lower[d] + a->dims[d] - 1));
        f->v.v[L[d]].update =
            fx_assign_stmt(x, fx_ref_of(x, i),
                           fx_op(x, CF_E_OP, "add_scal_scal", fx_ref_of(x, i), fx_int_const(x, 1)));
        cf_g_go(c, L[d], false);
        cf_g_arm(c, L[d], true, 1, x->line);
    }
    cf_expr *lhs = fx_ref_of(x, a);
    lhs->nsub = a->rank;
    for (int d = 0; d < a->rank; d++)
        lhs->sub[d] = fx_ref_of(x, x->idx[d]);
    x->elem = a;
    cf_expr *rhs = fx_expr(x, l, &k);
    x->elem = NULL;
    cf_emit_stmt(c, fx_assign_stmt(x, lhs, rhs));
    for (int d = 0; d < a->rank; d++) {
        if (f->live)
            cf_g_edge(c, f->cur, E[d], false, 0);
        cf_g_edge(c, E[d], L[d], false, 0);
        f->cur = L[d];
        f->live = true;
        f->open = false;
    }
}
