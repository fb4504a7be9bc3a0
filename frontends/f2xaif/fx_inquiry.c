/* fx_inquiry.c: the intrinsics that ask about a variable rather than
 * compute with its value: lbound, ubound and size of an array of constant
 * bounds (constants), allocated (the flag fx_stmt.c keeps), present (true:
 * a call that omits an argument is refused), and transpose (fx_array.c). */
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
    if (n == 1 && !strcmp(name, "transpose"))
        return fx_transpose(x, l, k);
    return NULL;
}
