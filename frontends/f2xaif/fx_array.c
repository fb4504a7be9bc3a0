/* fx_array.c: array syntax. An assignment to a whole array or a section,
 * y(LO:HI) = EXPR, becomes one ForLoop per section dimension over y's
 * section; in EXPR every whole array or section of the same shape is taken
 * element by element at the loops' indices (transpose with them swapped).
 * The extents must be constants; a stride must be 1. */
#include <stdlib.h>
#include <string.h>

#include "fx.h"

/* A constant integer expression's value. */
static bool
int_value(const cf_expr *e, int64_t *v)
{
    if (e->kind == CF_E_INT) {
        *v = e->ival;
        return true;
    }
    if (e->kind == CF_E_OP && !strcmp(e->op, "minus_scal") && e->a[0]->kind == CF_E_INT) {
        *v = -e->a[0]->ival;
        return true;
    }
    return false;
}

static int64_t
bound(fx *x, const fx_line *l, int *k, int64_t absent, const char *name)
{
    if (!strcmp(fx_tok(x, l, k), "-"))
        return absent;
    (*k)--;
    int64_t v;
    if (!int_value(fx_expr(x, l, k), &v))
        fx_refuse(x, "a section of '%s' whose bounds are not constants is not supported", name);
    return v;
}

void
fx_section(fx *x, const fx_line *l, int *k, const fx_sym *s, int n, fx_sec *sec)
{
    const cf_sym *a = s->sym;
    memset(sec, 0, sizeof *sec);
    if (n == 0) { /* the whole array */
        if (a->nobounds)
            fx_refuse(x,
                      "the whole array '%s', whose bounds its caller gives, in array syntax is "
                      "not supported (write a DO loop over its elements)",
                      a->name);
        for (int d = 0; d < a->rank; d++) { /* Fortran order */
            sec->dim[d] = d;
            sec->lo[d] = a->lower[a->rank - 1 - d];
            sec->ext[d] = a->dims[a->rank - 1 - d];
        }
        sec->n = a->rank;
        return;
    }
    for (int d = 0; d < n; d++) {
        if (strcmp(l->tok[*k], "t") != 0) {
            sec->scal[d] = fx_expr(x, l, k);
            if (cf_is_real(cf_expr_type(sec->scal[d])))
                fx_refuse(x, "a real subscript of '%s' is not supported", a->name);
            continue;
        }
        (*k)++;
        int c = a->rank - 1 - d; /* C order */
        if (a->nobounds && (!strcmp(l->tok[*k], "-") || !strcmp(l->tok[*k + 1], "-")))
            fx_refuse(x, "a section of '%s', whose bounds its caller gives, without both bounds",
                      a->name);
        int64_t lo = bound(x, l, k, a->lower[c], a->name);
        int64_t hi = bound(x, l, k, a->lower[c] + a->dims[c] - 1, a->name);
        if (bound(x, l, k, 1, a->name) != 1)
            fx_refuse(x, "a section of '%s' with a stride other than 1 is not supported", a->name);
        sec->dim[sec->n] = d;
        sec->lo[sec->n] = lo;
        sec->ext[sec->n] = hi >= lo ? hi - lo + 1 : 0;
        sec->n++;
    }
}

cf_expr *
fx_framed(fx *x, const fx_sym *s, const fx_sec *sec, bool swap)
{
    const char *name = s->sym->name;
    if (sec->n != x->frame.n)
        fx_refuse(x, "'%s' has %d section dimensions where the assignment has %d", name, sec->n,
                  x->frame.n);
    cf_expr *e = fx_new_expr(x, CF_E_VAR);
    e->sym = s->sym;
    e->nsub = s->rank;
    int j = 0;
    for (int d = 0; d < s->rank; d++) { /* Fortran order */
        cf_expr *sub = sec->scal[d];
        if (!sub) {
            int f = swap ? sec->n - 1 - j : j; /* the frame's dimension */
            if (sec->ext[j] != x->frame.ext[f])
                fx_refuse(x, "'%s' and the assignment's left side differ in shape", name);
            sub = fx_ref_of(x, x->frame.idx[f]);
            if (sec->lo[j] != x->frame.lo[f])
                sub = fx_op(x, CF_E_OP, "add_scal_scal", sub,
                            fx_int_const(x, sec->lo[j] - x->frame.lo[f]));
            j++;
        }
        e->sub[s->rank - 1 - d] = sub; /* C order */
    }
    return e;
}

/* transpose(A) in an array assignment: A's element at the swapped indices. */
cf_expr *
fx_transpose(fx *x, const fx_line *l, int *k)
{
    if (!x->frame.n || strcmp(fx_tok(x, l, k), "v") != 0)
        fx_refuse(x, "transpose is supported only of an array variable, in an array assignment");
    fx_sym *s = fx_lookup(x, fx_tok(x, l, k));
    int n = atoi(fx_tok(x, l, k));
    if (!s->sym || s->rank != 2)
        fx_refuse(x, "transpose of '%s', which is not a matrix the front end knows", s->name);
    fx_sec sec;
    fx_section(x, l, k, s, n, &sec);
    if (sec.n != 2)
        fx_refuse(x, "transpose of a section of '%s' that is not a matrix", s->name);
    return fx_framed(x, s, &sec, true);
}

/* The loops over section @sec (outermost its last dimension), their
 * vertices in @L and @E; the frame set to them. */
static void
frame_open(fx *x, const fx_sec *sec, uint32_t *L, uint32_t *E)
{
    cf *c = &x->c;
    cf_fn *f = c->fn;
    if (x->frame.n)
        fx_refuse(x, "an array assignment inside another (the description is malformed)");
    x->frame.n = sec->n;
    for (int j = sec->n - 1; j >= 0; j--) { /* Fortran's first dimension innermost */
        cf_sym *i = cf_temp(c, "OpenAD_i", CF_INT);
        x->frame.idx[j] = i;
        x->frame.lo[j] = sec->lo[j];
        x->frame.ext[j] = sec->ext[j];
        L[j] = cf_g_vertex(c, CF_V_FORLOOP, x->line);
        E[j] = cf_g_vertex(c, CF_V_ENDLOOP, 0);
        f->v.v[L[j]].init = fx_assign_stmt(x, fx_ref_of(x, i), fx_int_const(x, sec->lo[j]));
        f->v.v[L[j]].cond = fx_op(x, CF_E_BOOL, "less_or_equal", fx_ref_of(x, i),
                                  fx_int_const(x, sec->lo[j] + sec->ext[j] - 1));
        f->v.v[L[j]].update =
            fx_assign_stmt(x, fx_ref_of(x, i),
                           fx_op(x, CF_E_OP, "add_scal_scal", fx_ref_of(x, i), fx_int_const(x, 1)));
        cf_g_go(c, L[j], false);
        cf_g_arm(c, L[j], true, 1, x->line);
    }
}

static void
frame_close(fx *x, const uint32_t *L, const uint32_t *E)
{
    cf_fn *f = x->c.fn;
    for (int j = 0; j < x->frame.n; j++) {
        if (f->live)
            cf_g_edge(&x->c, f->cur, E[j], false, 0);
        cf_g_edge(&x->c, E[j], L[j], false, 0);
        f->cur = L[j];
        f->live = true;
        f->open = false;
    }
    x->frame.n = 0;
}

void
fx_array_assignment(fx *x, const fx_line *l, int k, const fx_sym *s, const fx_sec *sec)
{
    uint32_t L[CF_MAXRANK], E[CF_MAXRANK];
    frame_open(x, sec, L, E);
    cf_expr *lhs = fx_framed(x, s, sec, false);
    cf_expr *rhs = fx_expr(x, l, &k);
    cf_emit_stmt(&x->c, fx_assign_stmt(x, lhs, rhs));
    frame_close(x, L, E);
}

void
fx_copy(fx *x, const fx_sym *dst, const fx_sec *dsec, const fx_sym *src, const fx_sec *ssec)
{
    uint32_t L[CF_MAXRANK], E[CF_MAXRANK];
    frame_open(x, dsec, L, E);
    cf_expr *lhs = fx_framed(x, dst, dsec, false);
    cf_emit_stmt(&x->c, fx_assign_stmt(x, lhs, fx_framed(x, src, ssec, false)));
    frame_close(x, L, E);
}

void
fx_section_arg(fx *x, const fx_sym *s, fx_sec *sec, fx_sym *tmp, fx_sec *tsec)
{
    if (x->frame.n)
        fx_refuse(x, "a section of '%s' passed to a function in array syntax is not supported",
                  s->name);
    for (int d = 0; d < s->rank; d++) /* the section as it is at the call */
        if (sec->scal[d] && sec->scal[d]->kind != CF_E_INT) {
            cf_sym *t = cf_temp(&x->c, "OpenAD_sub", CF_INT);
            cf_emit_stmt(&x->c, fx_assign_stmt(x, fx_ref_of(x, t), sec->scal[d]));
            sec->scal[d] = fx_ref_of(x, t);
        }
    memset(tmp, 0, sizeof *tmp);
    memset(tsec, 0, sizeof *tsec);
    tmp->sym = cf_temp(&x->c, "OpenAD_sec", s->sym->type);
    tmp->sym->logical = s->sym->logical;
    tmp->name = tmp->sym->name;
    tmp->rank = tmp->sym->rank = sec->n;
    tmp->fixed = true;
    tsec->n = sec->n;
    for (int j = 0; j < sec->n; j++) {
        tmp->sym->dims[sec->n - 1 - j] = sec->ext[j]; /* C order */
        tmp->sym->lower[sec->n - 1 - j] = 1;
        tsec->dim[j] = j;
        tsec->lo[j] = 1;
        tsec->ext[j] = sec->ext[j];
    }
    fx_copy(x, tmp, tsec, s, sec);
}

bool
fx_whole_copy(fx *x, const fx_line *l, int k, const fx_sym *s)
{
    if (l->n != k + 3 || strcmp(l->tok[k], "v") != 0 || strcmp(l->tok[k + 2], "0") != 0)
        return false;
    const fx_sym *r = fx_lookup(x, l->tok[k + 1]);
    if (!r->sym || r->rank != s->rank || r->param || (!s->sym->nobounds && !r->sym->nobounds))
        return false;
    if (s->sym->type != r->sym->type)
        fx_refuse(x, "a copy between the arrays '%s' and '%s' of different types is not supported",
                  s->name, r->name);
    for (int d = 0; d < s->rank && !s->sym->nobounds && !r->sym->nobounds; d++)
        if (s->sym->dims[d] != r->sym->dims[d])
            fx_refuse(x, "'%s' and '%s' differ in shape", s->name, r->name);
    cf_emit_stmt(&x->c, fx_assign_stmt(x, fx_ref_of(x, s->sym), fx_ref_of(x, r->sym)));
    return true;
}
