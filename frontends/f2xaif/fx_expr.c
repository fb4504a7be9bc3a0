/* fx_expr.c: the expressions of the description (prefix form) to the C
 * front end's expression trees: variables, literals, operators, named
 * constants; the conversions an assignment needs. */
#include <stdlib.h>
#include <string.h>

#include "fx.h"

/* ------------------------------------------------------ expressions */

cf_expr *
fx_new_expr(fx *x, cf_ekind k)
{
    cf_expr *e = cf_alloc(&x->c, sizeof *e);
    e->kind = k;
    return e;
}

cf_expr *
fx_op(fx *x, cf_ekind k, const char *name, cf_expr *a, cf_expr *b)
{
    cf_expr *e = fx_new_expr(x, k);
    e->op = name;
    e->a[0] = a;
    e->a[1] = b;
    e->nargs = b ? 2 : 1;
    return e;
}

cf_expr *
fx_convert(fx *x, cf_expr *e, cf_type to)
{
    cf_type from = cf_expr_type(e);
    if (cf_is_real(from) == cf_is_real(to))
        return e;
    if (cf_is_real(to)) {
        if (e->kind == CF_E_INT) {
            cf_expr *r = fx_new_expr(x, CF_E_REAL);
            r->rval = (double)e->ival;
            r->f4 = to == CF_FLOAT;
            return r;
        }
        return fx_op(x, CF_E_OP, "real_scal", e, NULL);
    }
    return fx_op(x, CF_E_OP, "int_scal", e, NULL);
}

const char *
fx_tok(fx *x, const fx_line *l, int *k)
{
    if (*k >= l->n)
        fx_refuse(x,
                  "the description of this statement is cut short (plugin and front end differ)");
    return l->tok[(*k)++];
}

/* A named constant's value. */
cf_expr *
fx_constant(fx *x, const fx_sym *s)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s->param);
    char *us = strchr(buf, '_');
    if (us)
        *us = 0;
    char *end;
    if (strcmp(s->cat, "integer") == 0) {
        cf_expr *e = fx_new_expr(x, CF_E_INT);
        e->ival = strtoll(buf, &end, 10);
        if (!*end)
            return e;
    } else if (strcmp(s->cat, "real") == 0) {
        cf_expr *e = fx_new_expr(x, CF_E_REAL);
        e->rval = strtod(buf, &end);
        e->f4 = s->kind == 4;
        if (!*end)
            return e;
    }
    fx_refuse(x, "named constant '%s' (%s) is not supported", s->name, s->param);
}

cf_expr *
fx_var(fx *x, const fx_line *l, int *k, bool lvalue)
{
    const char *name = fx_tok(x, l, k);
    int n = atoi(fx_tok(x, l, k));
    fx_sym *s = fx_lookup(x, name);
    if (s->param && !lvalue && n == 0)
        return fx_constant(x, s);
    if (!s->sym) {
        if (s->rank > CF_MAXRANK)
            fx_refuse(x, "array '%s' of rank %d (more than %d) is not supported", name, s->rank,
                      CF_MAXRANK);
        if (s->rank && !s->fixed)
            fx_refuse(x, "array '%s' with bounds that are not constant (%s) is not supported", name,
                      strcmp(s->attrs, "-") ? s->attrs : "adjustable or assumed");
        fx_refuse(x, "variable '%s' (%s %d%s%s) is not supported", name, s->cat, s->kind,
                  s->param ? ", a named constant" : "", strstr(l->tok[0], "c") ? "" : "");
    }
    if (n && n != s->rank)
        fx_refuse(x, "'%s' has %d subscripts and rank %d", name, n, s->rank);
    cf_expr *e = fx_new_expr(x, CF_E_VAR);
    e->sym = s->sym;
    if (!s->rank)
        return e;
    if (!n && (lvalue || !x->frame.n))
        return e; /* a whole array: passed on, or refused where it is a value */
    fx_sec sec;
    fx_section(x, l, k, s, n, &sec);
    if (sec.n) {
        if (!x->frame.n || lvalue)
            fx_refuse(x,
                      "an array section of '%s' is supported only in an array assignment "
                      "(copy it to an array of its shape first)",
                      name);
        return fx_framed(x, s, &sec, false);
    }
    e->nsub = n;
    for (int i = 0; i < n; i++)
        e->sub[i] = sec.scal[n - 1 - i]; /* C order */
    return e;
}

cf_stmt *
fx_assign_stmt(fx *x, cf_expr *lhs, cf_expr *rhs)
{
    cf_stmt *s = cf_new_stmt(&x->c, CF_S_ASSIGN, x->line);
    s->lhs = lhs;
    s->rhs = fx_convert(x, rhs, lhs->sym->type);
    return s;
}

cf_expr *
fx_ref_of(fx *x, cf_sym *s)
{
    cf_expr *e = fx_new_expr(x, CF_E_VAR);
    e->sym = s;
    return e;
}

cf_expr *
fx_int_const(fx *x, int64_t v)
{
    cf_expr *e = fx_new_expr(x, CF_E_INT);
    e->ival = v;
    return e;
}

static const char *const binops[][2] = {
    {"add", "add_scal_scal"},
    {"sub", "sub_scal_scal"},
    {"mul", "mul_scal_scal"},
    {"div", "div_scal_scal"},
    {"pow", "pow_scal_scal"},
    {"lt", "less_than"},
    {"le", "less_or_equal"},
    {"gt", "greater_than"},
    {"ge", "greater_or_equal"},
    {"eq", "equal"},
    {"ne", "not_equal"},
    {"and", "and"},
    {"or", "or"},
};

cf_expr *
fx_expr(fx *x, const fx_line *l, int *k)
{
    const char *t = fx_tok(x, l, k);
    if (strcmp(t, "v") == 0)
        return fx_var(x, l, k, false);
    if (strcmp(t, "i") == 0 || strcmp(t, "b") == 0) {
        cf_expr *e = fx_new_expr(x, CF_E_INT);
        e->logical = t[0] == 'b';
        e->ival = strtoll(fx_tok(x, l, k), NULL, 10);
        return e;
    }
    if (strcmp(t, "r") == 0) {
        int kind = atoi(fx_tok(x, l, k));
        char buf[128];
        snprintf(buf, sizeof buf, "%s", fx_tok(x, l, k));
        for (char *p = buf; *p; p++) {
            if (*p == 'd' || *p == 'D' || *p == 'q' || *p == 'Q')
                *p = 'e';
            if (*p == '_')
                *p = 0;
            if (!*p)
                break;
        }
        cf_expr *e = fx_new_expr(x, CF_E_REAL);
        e->rval = strtod(buf, NULL);
        e->f4 = kind == 4;
        if (e->f4)
            e->rval = (float)e->rval; /* the value a REAL(4) constant has */
        return e;
    }
    if (strcmp(t, "f") == 0)
        return fx_function(x, l, k);
    if (strcmp(t, "o") == 0) {
        const char *name = fx_tok(x, l, k);
        int n = atoi(fx_tok(x, l, k));
        if (n == 1) {
            cf_expr *a = fx_expr(x, l, k);
            if (strcmp(name, "paren") == 0)
                return a;
            if (strcmp(name, "neg") == 0)
                return fx_op(x, CF_E_OP, "minus_scal", a, NULL);
            if (strcmp(name, "not") == 0)
                return fx_op(x, CF_E_BOOL, "not", a, NULL);
        } else if (n == 2) {
            cf_expr *a = fx_expr(x, l, k), *b = fx_expr(x, l, k);
            for (size_t i = 0; i < sizeof binops / sizeof *binops; i++)
                if (strcmp(name, binops[i][0]) == 0)
                    return fx_op(x, i >= 5 ? CF_E_BOOL : CF_E_OP, binops[i][1], a, b);
        }
        fx_refuse(x, "operator '%s' is not supported", name);
    }
    if (strcmp(t, "x") == 0)
        fx_refuse(x, "%s is not supported", fx_tok(x, l, k));
    fx_refuse(x, "this expression is not supported ('%s' in the description)", t);
}

cf_expr *
fx_cond(fx *x, const fx_line *l, int *k)
{
    cf_expr *e = fx_expr(x, l, k);
    if (e->kind == CF_E_BOOL || (e->kind == CF_E_VAR && e->sym && e->sym->logical) ||
        (e->kind == CF_E_INT && e->logical))
        return e; /* a LOGICAL: a condition as it is */
    cf_expr *zero = fx_new_expr(x, CF_E_INT);
    return fx_op(x, CF_E_BOOL, "not_equal", e, zero);
}
