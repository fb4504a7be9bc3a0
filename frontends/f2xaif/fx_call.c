/* fx_call.c: calls, as statements and as function references hoisted
 * before the statement, and the intrinsic functions (a catalogue name, a
 * conversion, or max and min as a temporary set by Branches). */
#include <stdlib.h>
#include <string.h>

#include "fx.h"

static const struct {
    const char *f, *xaif;
} unary[] = {
    {"sin", "sin_scal"},     {"cos", "cos_scal"},     {"tan", "tan_scal"},
    {"asin", "arcsin_scal"}, {"acos", "arccos_scal"}, {"atan", "arctan_scal"},
    {"sinh", "sinh_scal"},   {"cosh", "cosh_scal"},   {"tanh", "tanh_scal"},
    {"exp", "exp_scal"},     {"log", "ln_scal"},      {"sqrt", "sqrt_scal"},
    {"abs", "abs_scal"},     {"log10", "log10"},      {"alog", "ln_scal"},
    {"alog10", "log10"},     {"iabs", "abs_scal"},
};

/* max or min of @n operands: a temporary set by Branches. */
static cf_expr *
select_of(fx *x, bool max, cf_expr **a, int n)
{
    if (x->no_calls)
        fx_refuse(x, "max or min in a loop condition is not supported");
    cf_type t = CF_INT;
    for (int i = 0; i < n; i++)
        if (cf_is_real(cf_expr_type(a[i])))
            t = CF_DOUBLE;
    cf *c = &x->c;
    cf_sym *tmp = cf_temp(c, "OpenAD_sel", t);
    cf_emit_stmt(c, fx_assign_stmt(x, fx_ref_of(x, tmp), a[0]));
    for (int i = 1; i < n; i++) {
        cf_fn *f = c->fn;
        uint32_t B = cf_g_vertex(c, CF_V_BRANCH, x->line);
        f->v.v[B].cond =
            fx_op(x, CF_E_BOOL, max ? "greater_than" : "less_than", a[i], fx_ref_of(x, tmp));
        cf_g_go(c, B, false);
        cf_g_arm(c, B, true, 1, x->line);
        cf_emit_stmt(c, fx_assign_stmt(x, fx_ref_of(x, tmp), a[i]));
        uint32_t end1 = f->cur, J = cf_g_vertex(c, CF_V_ENDBRANCH, 0);
        cf_g_edge(c, end1, J, false, 0);
        cf_g_edge(c, B, J, false, 0);
        f->cur = J;
        f->live = true;
        f->open = false;
    }
    return fx_ref_of(x, tmp);
}

/* A section passed to a routine, copied back after the call. */
typedef struct copyback {
    fx_sym var, tmp;
    fx_sec sec, tsec;
} copyback;

/* The arguments of a call to @callee: variables as they are, a section
 * through a temporary array copied in and (in @back) out, anything else
 * through a temporary assigned first. */
static void
call_args(fx *x, const fx_line *l, int *k, cf_stmt *s, cf_fn *callee, int n, copyback *back,
          int *nback)
{
    *nback = 0;
    if ((uint32_t)n != callee->formals.n - (callee->ret ? 1 : 0))
        fx_refuse(x,
                  "'%s' is called with %d arguments and has %u (optional arguments are not "
                  "supported)",
                  callee->name, n, callee->formals.n - (callee->ret ? 1 : 0));
    for (int i = 0; i < n; i++) {
        cf_expr *a;
        fx_sym *v = strcmp(l->tok[*k], "v") == 0 ? fx_lookup(x, l->tok[*k + 1]) : NULL;
        if (v && !v->param && v->sym && v->rank && atoi(l->tok[*k + 2]) == v->rank) {
            *k += 3;
            fx_sec sec;
            fx_section(x, l, k, v, v->rank, &sec);
            if (sec.n) {
                if (*nback == 16)
                    fx_refuse(x, "more than 16 sections in one call");
                copyback *b = &back[(*nback)++];
                b->var = *v;
                b->sec = sec;
                fx_section_arg(x, v, &b->sec, &b->tmp, &b->tsec);
                a = fx_ref_of(x, b->tmp.sym);
            } else {
                a = fx_ref_of(x, v->sym); /* an element */
                a->nsub = v->rank;
                for (int d = 0; d < v->rank; d++)
                    a->sub[d] = sec.scal[v->rank - 1 - d]; /* C order */
            }
        } else if (v && !v->param) {
            (*k)++;
            a = fx_var(x, l, k, true);
        } else {
            cf_expr *e = fx_expr(x, l, k);
            cf_sym *f = callee->formals.v[i];
            if (f->rank)
                fx_refuse(x, "an expression passed to array argument %d of '%s' is not supported",
                          i + 1, callee->name);
            cf_sym *tmp = cf_temp(&x->c, "OpenAD_arg", f->type);
            tmp->logical = f->logical;
            cf_emit_stmt(&x->c, fx_assign_stmt(x, fx_ref_of(x, tmp), e));
            a = fx_ref_of(x, tmp);
        }
        if (!XF_VEC_PUSH(x->c.a, s->args, a))
            cf_oom(&x->c);
    }
}

static void
add_callee(fx *x, cf_fn *callee)
{
    cf_fn *f = x->c.fn;
    for (uint32_t i = 0; i < f->callees.n; i++)
        if (f->callees.v[i] == callee)
            return;
    if (!XF_VEC_PUSH(x->c.a, f->callees, callee))
        cf_oom(&x->c);
}

cf_expr *
fx_function(fx *x, const fx_line *l, int *k)
{
    bool intrinsic = strcmp(fx_tok(x, l, k), "i") == 0;
    const char *name = fx_tok(x, l, k);
    int n = atoi(fx_tok(x, l, k));
    if (!intrinsic) {
        fx_unit *u = fx_find_unit(x, name, true);
        if (!u || strcmp(u->kind, "fun") != 0)
            fx_refuse(x, "function '%s' is not in the given files", name);
        if (x->no_calls)
            fx_refuse(x, "a call of '%s' in a loop condition is not supported", name);
        fx_unit *saved = x->u;
        cf_fn *callee = fx_fn_of(x, u);
        x->u = saved;
        cf_stmt *s = cf_new_stmt(&x->c, CF_S_CALL, x->line);
        s->callee = callee;
        copyback back[16];
        int nback;
        call_args(x, l, k, s, callee, n, back, &nback);
        cf_sym *tmp = cf_temp(&x->c, "OpenAD_res", callee->ret->type);
        tmp->logical = callee->ret->logical;
        if (!XF_VEC_PUSH(x->c.a, s->args, fx_ref_of(x, tmp)))
            cf_oom(&x->c);
        s->id = ++x->c.fn->nstmt; /* after the temporaries' assignments */
        cf_emit_stmt(&x->c, s);
        for (int i = 0; i < nback; i++)
            fx_copy(x, &back[i].var, &back[i].sec, &back[i].tmp, &back[i].tsec);
        add_callee(x, callee);
        return fx_ref_of(x, tmp);
    }
    cf_expr *q = fx_inquiry(x, l, k, name, n);
    if (q)
        return q;
    static const char *const known[] = {"dble", "real",  "float", "dfloat", "sngl",
                                        "int",  "idint", "ifix",  "mod",    "dmod",
                                        "amod", "dmax1", "amax1", "dmin1",  "amin1"};
    bool ok = !strncmp(name, "max", 3) || !strncmp(name, "min", 3);
    ok = ok && strcmp(name, "maxloc") && strcmp(name, "minloc") && strcmp(name, "maxval") &&
         strcmp(name, "minval") && strcmp(name, "maxexponent") && strcmp(name, "minexponent");
    for (size_t i = 0; !ok && i < sizeof known / sizeof *known; i++)
        ok = !strcmp(name, known[i]);
    const char *b = name[0] == 'd' && strcmp(name, "dim") ? name + 1 : name;
    for (size_t i = 0; !ok && i < sizeof unary / sizeof *unary; i++)
        ok = !strcmp(b, unary[i].f) || !strcmp(name, unary[i].f);
    if (!ok) /* before its arguments, which may be arrays */
        fx_refuse(x, "intrinsic '%s' is not supported", name);
    cf_expr *a[16];
    if (n < 1 || n > 16)
        fx_refuse(x, "intrinsic '%s' with %d arguments is not supported", name, n);
    for (int i = 0; i < n; i++)
        a[i] = fx_expr(x, l, k);
    const char *base = name;
    if (base[0] == 'd' && strcmp(base, "dble") && strcmp(base, "dfloat") && strcmp(base, "dim"))
        base++; /* dsin, dexp, ...: the specific of the generic */
    for (size_t i = 0; i < sizeof unary / sizeof *unary; i++)
        if (strcmp(base, unary[i].f) == 0 && n == 1)
            return fx_op(x, CF_E_OP, unary[i].xaif, a[0], NULL);
    if (n == 1 && (!strcmp(name, "dble") || !strcmp(name, "real") || !strcmp(name, "float") ||
                   !strcmp(name, "dfloat") || !strcmp(name, "sngl")))
        return fx_convert(x, a[0], CF_DOUBLE);
    if (n == 1 && (!strcmp(name, "int") || !strcmp(name, "idint") || !strcmp(name, "ifix")))
        return fx_convert(x, a[0], CF_INT);
    if (n == 2 && (!strcmp(name, "mod") || !strcmp(name, "dmod") || !strcmp(name, "amod")))
        return fx_op(x, CF_E_OP, "mod_scal_scal", a[0], a[1]);
    if (n >= 2 && (!strncmp(name, "max", 3) || !strcmp(name, "dmax1") || !strcmp(name, "amax1")))
        return select_of(x, true, a, n);
    if (n >= 2 && (!strncmp(name, "min", 3) || !strcmp(name, "dmin1") || !strcmp(name, "amin1")))
        return select_of(x, false, a, n);
    fx_refuse(x, "intrinsic '%s' is not supported", name);
}

void
fx_call(fx *x, const fx_line *l)
{
    int k = 3;
    const char *name = fx_tok(x, l, &k);
    int n = atoi(fx_tok(x, l, &k));
    fx_unit *u = fx_find_unit(x, name, true);
    if (!u || strcmp(u->kind, "sub") != 0)
        fx_refuse(x, "subroutine '%s' is not in the given files", name);
    fx_unit *saved = x->u;
    cf_fn *callee = fx_fn_of(x, u);
    x->u = saved;
    cf_stmt *s = cf_new_stmt(&x->c, CF_S_CALL, x->line);
    s->callee = callee;
    copyback back[16];
    int nback;
    call_args(x, l, &k, s, callee, n, back, &nback);
    s->id = ++x->c.fn->nstmt;
    cf_emit_stmt(&x->c, s);
    for (int i = 0; i < nback; i++)
        fx_copy(x, &back[i].var, &back[i].sec, &back[i].tmp, &back[i].tsec);
    add_callee(x, callee);
}
