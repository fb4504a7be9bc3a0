/* fx_inquiry.c: the intrinsics that ask about a variable rather than
 * compute with its value: lbound, ubound and size of an array of constant
 * bounds (constants), allocated (the flag fx_stmt.c keeps), present (true:
 * a call that omits an argument is refused), maxloc and minloc of a
 * vector (a loop), and transpose (fx_array.c). */
#include <stdlib.h>
#include <string.h>

#include "fx.h"

/* The variable argument of inquiry @name, after its "v". */
static fx_sym *
subject(fx *x, const fx_line *l, int *k, const char *name)
{
    if (strcmp(fx_tok(x, l, k), "v") != 0)
        fx_refuse(x, "%s of an expression is not supported", name);
    fx_sym *s = fx_lookup(x, fx_tok(x, l, k));
    if (atoi(fx_tok(x, l, k)) != 0)
        fx_refuse(x, "%s of an element or section of '%s' is not supported", name, s->name);
    return s;
}

static cf_expr *
shape_of(fx *x, const fx_line *l, int *k, const char *name, int n)
{
    fx_sym *s = subject(x, l, k, name);
    if (!s->sym || !s->rank || s->sym->nobounds || !s->fixed)
        fx_refuse(x,
                  "%s of '%s', whose bounds are not constants, is not supported (pass the "
                  "extent as an argument)",
                  name, s->name);
    int d = -1; /* Fortran's dimension, from 0 */
    if (n == 2) {
        cf_expr *e = fx_expr(x, l, k);
        if (e->kind != CF_E_INT || e->ival < 1 || e->ival > s->rank)
            fx_refuse(x, "%s of '%s' along a dimension that is not a constant", name, s->name);
        d = (int)e->ival - 1;
    } else if (strcmp(name, "size") != 0)
        fx_refuse(x, "%s of '%s' without its dimension (an array) is not supported", name, s->name);
    int64_t v = 1;
    for (int i = 0; i < s->rank; i++) {
        int c = s->rank - 1 - i; /* C order */
        if (d >= 0 && i != d)
            continue;
        if (!strcmp(name, "lbound"))
            v = s->sym->lower[c];
        else if (!strcmp(name, "ubound"))
            v = s->sym->lower[c] + s->sym->dims[c] - 1;
        else
            v *= s->sym->dims[c];
    }
    return fx_int_const(x, v);
}

/* maxloc or minloc of a vector of constant bounds (@n == 2: along its
 * dimension 1, a scalar; else the one element of the result, in an array
 * assignment of extent 1): the position of its first largest (smallest)
 * element, found by a loop into a temporary. */
static cf_expr *
location(fx *x, const fx_line *l, int *k, const char *name, int n)
{
    fx_sym *s = subject(x, l, k, name);
    if (!s->sym || s->rank != 1 || s->sym->nobounds || !s->fixed)
        fx_refuse(x, "%s of '%s', which is not a vector of constant bounds, is not supported", name,
                  s->name);
    if (n == 2) {
        cf_expr *d = fx_expr(x, l, k);
        if (d->kind != CF_E_INT || d->ival != 1)
            fx_refuse(x, "%s of '%s' along a dimension other than 1", name, s->name);
    } else if (x->frame.n != 1 || x->frame.ext[0] != 1)
        fx_refuse(x,
                  "%s of '%s' (an array of one element) is supported only as the subscript "
                  "of one element, or with its dimension: %s(%s, 1)",
                  name, s->name, name, s->name);
    cf *c = &x->c;
    cf_fn *f = c->fn;
    int64_t lo = s->sym->lower[0], ext = s->sym->dims[0];
    cf_sym *pos = cf_temp(c, "OpenAD_loc", CF_INT), *i = cf_temp(c, "OpenAD_i", CF_INT);
    cf_emit_stmt(c, fx_assign_stmt(x, fx_ref_of(x, pos), fx_int_const(x, 1)));
    uint32_t L = cf_g_vertex(c, CF_V_FORLOOP, x->line), E = cf_g_vertex(c, CF_V_ENDLOOP, 0);
    f->v.v[L].init = fx_assign_stmt(x, fx_ref_of(x, i), fx_int_const(x, 2));
    f->v.v[L].cond = fx_op(x, CF_E_BOOL, "less_or_equal", fx_ref_of(x, i), fx_int_const(x, ext));
    f->v.v[L].update =
        fx_assign_stmt(x, fx_ref_of(x, i),
                       fx_op(x, CF_E_OP, "add_scal_scal", fx_ref_of(x, i), fx_int_const(x, 1)));
    cf_g_go(c, L, false);
    cf_g_arm(c, L, true, 1, x->line);
    /* s(lo - 1 + i) against s(lo - 1 + pos) */
    cf_expr *at_i = fx_ref_of(x, s->sym), *at_pos = fx_ref_of(x, s->sym);
    at_i->nsub = at_pos->nsub = 1;
    at_i->sub[0] = fx_op(x, CF_E_OP, "add_scal_scal", fx_ref_of(x, i), fx_int_const(x, lo - 1));
    at_pos->sub[0] = fx_op(x, CF_E_OP, "add_scal_scal", fx_ref_of(x, pos), fx_int_const(x, lo - 1));
    uint32_t B = cf_g_vertex(c, CF_V_BRANCH, x->line);
    f->v.v[B].cond =
        fx_op(x, CF_E_BOOL, name[1] == 'a' ? "greater_than" : "less_than", at_i, at_pos);
    cf_g_go(c, B, false);
    cf_g_arm(c, B, true, 1, x->line);
    cf_emit_stmt(c, fx_assign_stmt(x, fx_ref_of(x, pos), fx_ref_of(x, i)));
    uint32_t J = cf_g_vertex(c, CF_V_ENDBRANCH, 0);
    cf_g_edge(c, f->cur, J, false, 0);
    cf_g_edge(c, B, J, false, 0);
    cf_g_edge(c, J, E, false, 0);
    cf_g_edge(c, E, L, false, 0);
    f->cur = L;
    f->live = true;
    f->open = false;
    return fx_ref_of(x, pos);
}

cf_expr *
fx_inquiry(fx *x, const fx_line *l, int *k, const char *name, int n)
{
    if ((n == 1 || n == 2) &&
        (!strcmp(name, "lbound") || !strcmp(name, "ubound") || !strcmp(name, "size")))
        return shape_of(x, l, k, name, n);
    if (n == 1 && !strcmp(name, "allocated")) {
        fx_sym *s = subject(x, l, k, name);
        if (!s->flag)
            fx_refuse(x,
                      "allocated of '%s', which is not an allocatable local the front end "
                      "knows, is not supported",
                      s->name);
        return fx_ref_of(x, s->flag);
    }
    if (n == 1 && !strcmp(name, "present")) {
        fx_sym *s = subject(x, l, k, name);
        if (s->dummy <= 0 || !strstr(s->attrs, "optional"))
            fx_refuse(x, "present of '%s', which is not an optional argument", s->name);
        if (x->u->fn == x->c.fns.v[0])
            fx_refuse(x,
                      "present of '%s', an optional argument of the top routine, is not "
                      "supported (its caller is not in the files)",
                      s->name);
        return fx_int_const(x, 1); /* fx_call.c refuses calls that omit arguments */
    }
    if ((n == 1 || n == 2) && (!strcmp(name, "maxloc") || !strcmp(name, "minloc")))
        return location(x, l, k, name, n);
    if (n == 1 && !strcmp(name, "transpose"))
        return fx_transpose(x, l, k);
    return NULL;
}
