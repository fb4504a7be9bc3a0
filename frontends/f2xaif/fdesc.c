/* fdesc.c: the plugin's description of Fortran units to the C front end's
 * representation: symbols from the "s" records, a control-flow graph from
 * the statement records, expressions from their prefix form (the format
 * and the mapping are in docs/fortran-frontend.md). Calls of functions are
 * hoisted into statements before the one being built, as OpenAD's
 * canonicalisation does; max and min become a Branch. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cf.h"
#include "fdesc.h"

typedef struct fx_line {
    char **tok;
    int n;
} fx_line;

/* A symbol of a unit as the plugin describes it. */
typedef struct fx_sym {
    const char *name, *cat, *param, *attrs;
    int kind, rank, dummy;
    bool fixed; /* all bounds constant */
    int64_t lb[8], ub[8];
    cf_sym *sym; /* NULL: a type or shape the subset leaves out */
} fx_sym;

typedef struct fx_unit {
    const char *kind, *name, *file;
    unsigned line, col;
    fx_line *lines;
    uint32_t nlines;
    fx_sym *syms;
    int nsyms;
    cf_fn *fn;
} fx_unit;

typedef struct fx_jump {
    struct fx_jump *up;
    uint32_t cont;
    XF_VEC(uint32_t) breaks;
} fx_jump;

typedef struct fx {
    cf c;
    xf_c2xaif_opts co;
    XF_VEC(fx_unit) units;
    fx_unit *u; /* being walked */
    const char *file;
    unsigned line, col; /* of the statement being walked */
    fx_jump *jump;
    bool no_calls; /* in a loop condition */
    /* in an array assignment's loops: its array and the loops' indices (C order) */
    const cf_sym *elem;
    cf_sym *idx[CF_MAXRANK];
} fx;

static _Noreturn __attribute__((format(printf, 2, 3))) void
refuse(fx *x, const char *fmt, ...)
{
    fprintf(x->c.err, "%s:%u:%u: error: ", x->file ? x->file : "?", x->line, x->col);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(x->c.err, fmt, ap);
    va_end(ap);
    fputc('\n', x->c.err);
    x->c.status = 1;
    longjmp(x->c.fail, 1);
}

/* ---------------------------------------------------------- reading */

static void
split_lines(fx *x, const char *file, char *text)
{
    fx_unit *u = NULL;
    for (char *p = text; p && *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        fx_line l = {0};
        for (char *t = strtok(p, " "); t; t = strtok(NULL, " ")) {
            char **nt = cf_alloc(&x->c, ((size_t)l.n + 1) * sizeof *nt);
            if (l.n)
                memcpy(nt, l.tok, (size_t)l.n * sizeof *nt);
            nt[l.n++] = t;
            l.tok = nt;
        }
        p = nl ? nl + 1 : NULL;
        if (!l.n)
            continue;
        if (strcmp(l.tok[0], "unit") == 0 && l.n >= 5) {
            fx_unit nu = {.kind = l.tok[1],
                          .name = l.tok[2],
                          .file = file,
                          .line = (unsigned)atoi(l.tok[3]),
                          .col = (unsigned)atoi(l.tok[4])};
            if (!XF_VEC_PUSH(x->c.a, x->units, nu))
                cf_oom(&x->c);
            u = &x->units.v[x->units.n - 1];
            continue;
        }
        if (!u)
            continue;
        if (strcmp(l.tok[0], "end") == 0 && l.n == 1) {
            u = NULL;
            continue;
        }
        /* the unit array may move: lines are kept per unit by index */
        fx_line *nl2 = cf_alloc(&x->c, ((size_t)u->nlines + 1) * sizeof *nl2);
        if (u->nlines)
            memcpy(nl2, u->lines, u->nlines * sizeof *nl2);
        nl2[u->nlines++] = l;
        u->lines = nl2;
    }
}

static fx_unit *
find_unit(fx *x, const char *name, bool procedure)
{
    for (uint32_t i = 0; i < x->units.n; i++)
        if (strcmp(x->units.v[i].name, name) == 0 &&
            (!procedure || strcmp(x->units.v[i].kind, "sub") == 0 ||
             strcmp(x->units.v[i].kind, "fun") == 0))
            return &x->units.v[i];
    return NULL;
}

/* ---------------------------------------------------------- symbols */

static bool
type_of(const fx_sym *s, cf_type *t)
{
    if (strcmp(s->cat, "real") == 0) {
        *t = s->kind == 4 ? CF_FLOAT : CF_DOUBLE;
        return s->kind == 4 || s->kind == 8;
    }
    *t = CF_INT;
    return strcmp(s->cat, "integer") == 0 || strcmp(s->cat, "logical") == 0;
}

static cf_sym *
new_sym(fx *x, const fx_sym *s, cf_type t)
{
    cf_sym *n = cf_alloc(&x->c, sizeof *n);
    n->name = s->name;
    n->type = t;
    n->rank = s->rank;
    for (int k = 0; k < s->rank; k++) { /* C order: Fortran's last dimension first */
        n->dims[k] = s->ub[s->rank - 1 - k] - s->lb[s->rank - 1 - k] + 1;
        n->lower[k] = s->lb[s->rank - 1 - k];
    }
    return n;
}

/* Read the "s" records of @u into its table, making the symbols of @f. */
static void
declare(fx *x, fx_unit *u, cf_fn *f)
{
    u->syms = cf_alloc(&x->c, (u->nlines + 1) * sizeof *u->syms);
    cf_sym *result = NULL;
    XF_VEC(cf_sym *) formals = {0};
    int ndummy = 0;
    for (uint32_t i = 0; i < u->nlines; i++) {
        fx_line *l = &u->lines[i];
        if (strcmp(l->tok[0], "s") != 0)
            continue;
        if (l->n < 5)
            continue;
        fx_sym *s = &u->syms[u->nsyms++];
        s->name = l->tok[1];
        s->cat = l->tok[2];
        s->kind = atoi(l->tok[3]);
        s->rank = atoi(l->tok[4]);
        int k = 5;
        s->fixed = s->rank <= CF_MAXRANK && l->n >= k + 2 * s->rank + 5;
        for (int d = 0; s->fixed && d < s->rank; d++) {
            const char *lo = l->tok[k + 2 * d], *hi = l->tok[k + 2 * d + 1];
            if (*lo == '?' || *hi == '?')
                s->fixed = false;
            s->lb[d] = atoll(lo);
            s->ub[d] = atoll(hi);
        }
        if (l->n < k + 2 * s->rank + 5)
            continue;
        k += 2 * s->rank;
        s->dummy = atoi(l->tok[k + 1]);
        const char *owner = l->tok[k + 2];
        s->param = strcmp(l->tok[k + 3], "-") ? l->tok[k + 3] : NULL;
        s->attrs = l->tok[k + 4];
        if (s->dummy > ndummy)
            ndummy = s->dummy;
        cf_type t;
        /* an array argument of bounds the caller gives (x(n), x(*)): without bounds */
        bool open = !s->fixed && s->dummy > 0 && s->rank > 0 && s->rank <= CF_MAXRANK &&
                    !strcmp(s->attrs, "-");
        if (!type_of(s, &t) || (!s->fixed && !open) || s->param)
            continue;
        bool common = strncmp(owner, "common:", 7) == 0;
        if (strncmp(owner, "module:", 7) == 0 || common) {
            /* a module's variable, or a COMMON block's (by its name in this routine) */
            const char *gname = common ? NULL : strchr(owner + 7, ':');
            gname = gname ? gname + 1 : s->name;
            for (uint32_t g = 0; g < x->c.globals.n && !s->sym; g++)
                if (strcmp(x->c.globals.v[g]->name, gname) == 0)
                    s->sym = x->c.globals.v[g];
            if (!s->sym) {
                s->sym = new_sym(x, s, t);
                s->sym->name = gname;
                s->sym->global = true;
                if (!XF_VEC_PUSH(x->c.a, x->c.globals, s->sym))
                    cf_oom(&x->c);
            }
            continue;
        }
        if (!f)
            continue; /* a module's own variables: made where a routine uses them */
        s->sym = new_sym(x, s, t);
        if (open) {
            s->sym->nobounds = true;
            memset(s->sym->dims, 0, sizeof s->sym->dims);
            memset(s->sym->lower, 0, sizeof s->sym->lower);
            s->fixed = true;
        }
        if (!XF_VEC_PUSH(x->c.a, f->syms, s->sym))
            cf_oom(&x->c);
        if (s->dummy > 0) {
            s->sym->formal = s->dummy;
            while (formals.n < (uint32_t)s->dummy)
                if (!XF_VEC_PUSH(x->c.a, formals, NULL))
                    cf_oom(&x->c);
            formals.v[s->dummy - 1] = s->sym;
        } else if (s->dummy < 0)
            result = s->sym;
    }
    if (!f)
        return;
    while (formals.n < (uint32_t)ndummy)
        if (!XF_VEC_PUSH(x->c.a, formals, NULL))
            cf_oom(&x->c);
    for (uint32_t i = 0; i < formals.n; i++) {
        if (!formals.v[i]) {
            x->file = u->file;
            x->line = u->line;
            x->col = u->col;
            for (int k = 0; k < u->nsyms; k++)
                if (u->syms[k].dummy == (int)i + 1)
                    refuse(x, "argument '%s' of '%s' (%s %d%s) is not supported", u->syms[k].name,
                           u->name, u->syms[k].cat, u->syms[k].kind,
                           u->syms[k].fixed ? "" : ", bounds that are not constant");
            refuse(x, "argument %u of '%s' is not supported", i + 1, u->name);
        }
        if (!XF_VEC_PUSH(x->c.a, f->formals, formals.v[i]))
            cf_oom(&x->c);
    }
    if (result) {
        result->formal = (int)f->formals.n + 1;
        f->ret = result;
        if (!XF_VEC_PUSH(x->c.a, f->formals, result))
            cf_oom(&x->c);
    }
}

/* The routine of unit @u (made, with its symbols, on first use). */
static cf_fn *
fn_of(fx *x, fx_unit *u)
{
    if (u->fn)
        return u->fn;
    cf_fn *f = cf_alloc(&x->c, sizeof *f);
    f->name = u->name;
    f->line = u->line;
    f->index = x->c.fns.n;
    u->fn = f;
    if (!XF_VEC_PUSH(x->c.a, x->c.fns, f))
        cf_oom(&x->c);
    declare(x, u, f);
    return f;
}

static fx_sym *
lookup(fx *x, const char *name)
{
    for (int k = 0; k < x->u->nsyms; k++)
        if (strcmp(x->u->syms[k].name, name) == 0)
            return &x->u->syms[k];
    refuse(x, "'%s' is no variable the front end knows", name);
}

/* ------------------------------------------------------ expressions */

static cf_expr *
new_expr(fx *x, cf_ekind k)
{
    cf_expr *e = cf_alloc(&x->c, sizeof *e);
    e->kind = k;
    return e;
}

static cf_expr *
op(fx *x, cf_ekind k, const char *name, cf_expr *a, cf_expr *b)
{
    cf_expr *e = new_expr(x, k);
    e->op = name;
    e->a[0] = a;
    e->a[1] = b;
    e->nargs = b ? 2 : 1;
    return e;
}

static cf_expr *
convert(fx *x, cf_expr *e, cf_type to)
{
    cf_type from = cf_expr_type(e);
    if (cf_is_real(from) == cf_is_real(to))
        return e;
    if (cf_is_real(to)) {
        if (e->kind == CF_E_INT) {
            cf_expr *r = new_expr(x, CF_E_REAL);
            r->rval = (double)e->ival;
            r->f4 = to == CF_FLOAT;
            return r;
        }
        return op(x, CF_E_OP, "real_scal", e, NULL);
    }
    return op(x, CF_E_OP, "int_scal", e, NULL);
}

static const char *
tok(fx *x, const fx_line *l, int *k)
{
    if (*k >= l->n)
        refuse(x, "the description of this statement is cut short (plugin and front end differ)");
    return l->tok[(*k)++];
}

static cf_expr *expr(fx *x, const fx_line *l, int *k);

/* A named constant's value. */
static cf_expr *
constant(fx *x, const fx_sym *s)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s->param);
    char *us = strchr(buf, '_');
    if (us)
        *us = 0;
    char *end;
    if (strcmp(s->cat, "integer") == 0) {
        cf_expr *e = new_expr(x, CF_E_INT);
        e->ival = strtoll(buf, &end, 10);
        if (!*end)
            return e;
    } else if (strcmp(s->cat, "real") == 0) {
        cf_expr *e = new_expr(x, CF_E_REAL);
        e->rval = strtod(buf, &end);
        e->f4 = s->kind == 4;
        if (!*end)
            return e;
    }
    refuse(x, "named constant '%s' (%s) is not supported", s->name, s->param);
}

static cf_expr *
var(fx *x, const fx_line *l, int *k, bool lvalue)
{
    const char *name = tok(x, l, k);
    int n = atoi(tok(x, l, k));
    fx_sym *s = lookup(x, name);
    if (s->param && !lvalue && n == 0)
        return constant(x, s);
    if (!s->sym) {
        if (s->rank > CF_MAXRANK)
            refuse(x, "array '%s' of rank %d (more than %d) is not supported", name, s->rank,
                   CF_MAXRANK);
        if (s->rank && !s->fixed)
            refuse(x, "array '%s' with bounds that are not constant (%s) is not supported", name,
                   strcmp(s->attrs, "-") ? s->attrs : "adjustable or assumed");
        refuse(x, "variable '%s' (%s %d%s%s) is not supported", name, s->cat, s->kind,
               s->param ? ", a named constant" : "", strstr(l->tok[0], "c") ? "" : "");
    }
    cf_expr *e = new_expr(x, CF_E_VAR);
    e->sym = s->sym;
    if (!n && s->rank && x->elem && !lvalue) {
        /* a whole array in an array assignment: its element at the loops' indices */
        const cf_sym *a = x->elem;
        if (a->rank != s->rank)
            refuse(x, "arrays '%s' and '%s' of different ranks in one assignment", a->name, name);
        for (int d = 0; d < a->rank; d++) {
            if (a->dims[d] != s->sym->dims[d] || s->sym->nobounds)
                refuse(x, "arrays '%s' and '%s' of different shapes in one assignment", a->name,
                       name);
            cf_expr *i = new_expr(x, CF_E_VAR);
            i->sym = x->idx[d];
            if (a->lower[d] != s->sym->lower[d]) {
                cf_expr *off = new_expr(x, CF_E_INT);
                off->ival = s->sym->lower[d] - a->lower[d];
                i = op(x, CF_E_OP, "add_scal_scal", i, off);
            }
            e->sub[d] = i;
        }
        e->nsub = a->rank;
        return e;
    }
    if (n && n != s->rank)
        refuse(x, "'%s' has %d subscripts and rank %d", name, n, s->rank);
    e->nsub = n;
    cf_expr *subs[8];
    for (int i = 0; i < n; i++) {
        if (strcmp(l->tok[*k], "t") == 0)
            refuse(x, "an array section of '%s' is not supported", name);
        subs[i] = expr(x, l, k);
        if (cf_is_real(cf_expr_type(subs[i])))
            refuse(x, "a real subscript of '%s' is not supported", name);
    }
    for (int i = 0; i < n; i++)
        e->sub[i] = subs[n - 1 - i]; /* C order */
    return e;
}

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

static cf_stmt *
assign_stmt(fx *x, cf_expr *lhs, cf_expr *rhs)
{
    cf_stmt *s = cf_new_stmt(&x->c, CF_S_ASSIGN, x->line);
    s->lhs = lhs;
    s->rhs = convert(x, rhs, lhs->sym->type);
    return s;
}

static cf_expr *
ref_of(fx *x, cf_sym *s)
{
    cf_expr *e = new_expr(x, CF_E_VAR);
    e->sym = s;
    return e;
}

/* max or min of @n operands: a temporary set by Branches. */
static cf_expr *
select_of(fx *x, bool max, cf_expr **a, int n)
{
    if (x->no_calls)
        refuse(x, "max or min in a loop condition is not supported");
    cf_type t = CF_INT;
    for (int i = 0; i < n; i++)
        if (cf_is_real(cf_expr_type(a[i])))
            t = CF_DOUBLE;
    cf *c = &x->c;
    cf_sym *tmp = cf_temp(c, "OpenAD_sel", t);
    cf_emit_stmt(c, assign_stmt(x, ref_of(x, tmp), a[0]));
    for (int i = 1; i < n; i++) {
        cf_fn *f = c->fn;
        uint32_t B = cf_g_vertex(c, CF_V_BRANCH, x->line);
        f->v.v[B].cond = op(x, CF_E_BOOL, max ? "greater_than" : "less_than", a[i], ref_of(x, tmp));
        cf_g_go(c, B, false);
        cf_g_arm(c, B, true, 1, x->line);
        cf_emit_stmt(c, assign_stmt(x, ref_of(x, tmp), a[i]));
        uint32_t end1 = f->cur, J = cf_g_vertex(c, CF_V_ENDBRANCH, 0);
        cf_g_edge(c, end1, J, false, 0);
        cf_g_edge(c, B, J, false, 0);
        f->cur = J;
        f->live = true;
        f->open = false;
    }
    return ref_of(x, tmp);
}

/* The arguments of a call to @callee: variables as they are, anything else
 * through a temporary assigned first. */
static void
call_args(fx *x, const fx_line *l, int *k, cf_stmt *s, cf_fn *callee, int n)
{
    if ((uint32_t)n != callee->formals.n - (callee->ret ? 1 : 0))
        refuse(x,
               "'%s' is called with %d arguments and has %u (optional arguments are not "
               "supported)",
               callee->name, n, callee->formals.n - (callee->ret ? 1 : 0));
    for (int i = 0; i < n; i++) {
        cf_expr *a;
        if (strcmp(l->tok[*k], "v") == 0 && !lookup(x, l->tok[*k + 1])->param) {
            (*k)++;
            a = var(x, l, k, true);
        } else {
            cf_expr *e = expr(x, l, k);
            cf_sym *f = callee->formals.v[i];
            if (f->rank)
                refuse(x, "an expression passed to array argument %d of '%s' is not supported",
                       i + 1, callee->name);
            cf_sym *tmp = cf_temp(&x->c, "OpenAD_arg", f->type);
            cf_emit_stmt(&x->c, assign_stmt(x, ref_of(x, tmp), e));
            a = ref_of(x, tmp);
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

static cf_expr *
function(fx *x, const fx_line *l, int *k)
{
    bool intrinsic = strcmp(tok(x, l, k), "i") == 0;
    const char *name = tok(x, l, k);
    int n = atoi(tok(x, l, k));
    if (!intrinsic) {
        fx_unit *u = find_unit(x, name, true);
        if (!u || strcmp(u->kind, "fun") != 0)
            refuse(x, "function '%s' is not in the given files", name);
        if (x->no_calls)
            refuse(x, "a call of '%s' in a loop condition is not supported", name);
        fx_unit *saved = x->u;
        cf_fn *callee = fn_of(x, u);
        x->u = saved;
        cf_stmt *s = cf_new_stmt(&x->c, CF_S_CALL, x->line);
        s->callee = callee;
        call_args(x, l, k, s, callee, n);
        cf_sym *tmp = cf_temp(&x->c, "OpenAD_res", callee->ret->type);
        if (!XF_VEC_PUSH(x->c.a, s->args, ref_of(x, tmp)))
            cf_oom(&x->c);
        s->id = ++x->c.fn->nstmt; /* after the temporaries' assignments */
        cf_emit_stmt(&x->c, s);
        add_callee(x, callee);
        return ref_of(x, tmp);
    }
    cf_expr *a[16];
    if (n < 1 || n > 16)
        refuse(x, "intrinsic '%s' with %d arguments is not supported", name, n);
    for (int i = 0; i < n; i++)
        a[i] = expr(x, l, k);
    const char *base = name;
    if (base[0] == 'd' && strcmp(base, "dble") && strcmp(base, "dfloat") && strcmp(base, "dim"))
        base++; /* dsin, dexp, ...: the specific of the generic */
    for (size_t i = 0; i < sizeof unary / sizeof *unary; i++)
        if (strcmp(base, unary[i].f) == 0 && n == 1)
            return op(x, CF_E_OP, unary[i].xaif, a[0], NULL);
    if (n == 1 && (!strcmp(name, "dble") || !strcmp(name, "real") || !strcmp(name, "float") ||
                   !strcmp(name, "dfloat") || !strcmp(name, "sngl")))
        return convert(x, a[0], CF_DOUBLE);
    if (n == 1 && (!strcmp(name, "int") || !strcmp(name, "idint") || !strcmp(name, "ifix")))
        return convert(x, a[0], CF_INT);
    if (n == 2 && (!strcmp(name, "mod") || !strcmp(name, "dmod") || !strcmp(name, "amod")))
        return op(x, CF_E_OP, "mod_scal_scal", a[0], a[1]);
    if (n >= 2 && (!strncmp(name, "max", 3) || !strcmp(name, "dmax1") || !strcmp(name, "amax1")))
        return select_of(x, true, a, n);
    if (n >= 2 && (!strncmp(name, "min", 3) || !strcmp(name, "dmin1") || !strcmp(name, "amin1")))
        return select_of(x, false, a, n);
    refuse(x, "intrinsic '%s' is not supported", name);
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

static cf_expr *
expr(fx *x, const fx_line *l, int *k)
{
    const char *t = tok(x, l, k);
    if (strcmp(t, "v") == 0)
        return var(x, l, k, false);
    if (strcmp(t, "i") == 0 || strcmp(t, "b") == 0) {
        cf_expr *e = new_expr(x, CF_E_INT);
        e->ival = strtoll(tok(x, l, k), NULL, 10);
        return e;
    }
    if (strcmp(t, "r") == 0) {
        int kind = atoi(tok(x, l, k));
        char buf[128];
        snprintf(buf, sizeof buf, "%s", tok(x, l, k));
        for (char *p = buf; *p; p++) {
            if (*p == 'd' || *p == 'D' || *p == 'q' || *p == 'Q')
                *p = 'e';
            if (*p == '_')
                *p = 0;
            if (!*p)
                break;
        }
        cf_expr *e = new_expr(x, CF_E_REAL);
        e->rval = strtod(buf, NULL);
        e->f4 = kind == 4;
        if (e->f4)
            e->rval = (float)e->rval; /* the value a REAL(4) constant has */
        return e;
    }
    if (strcmp(t, "f") == 0)
        return function(x, l, k);
    if (strcmp(t, "o") == 0) {
        const char *name = tok(x, l, k);
        int n = atoi(tok(x, l, k));
        if (n == 1) {
            cf_expr *a = expr(x, l, k);
            if (strcmp(name, "paren") == 0)
                return a;
            if (strcmp(name, "neg") == 0)
                return op(x, CF_E_OP, "minus_scal", a, NULL);
            if (strcmp(name, "not") == 0)
                return op(x, CF_E_BOOL, "not", a, NULL);
        } else if (n == 2) {
            cf_expr *a = expr(x, l, k), *b = expr(x, l, k);
            for (size_t i = 0; i < sizeof binops / sizeof *binops; i++)
                if (strcmp(name, binops[i][0]) == 0)
                    return op(x, i >= 5 ? CF_E_BOOL : CF_E_OP, binops[i][1], a, b);
        }
        refuse(x, "operator '%s' is not supported", name);
    }
    if (strcmp(t, "x") == 0)
        refuse(x, "%s is not supported", tok(x, l, k));
    refuse(x, "this expression is not supported ('%s' in the description)", t);
}

static cf_expr *
cond(fx *x, const fx_line *l, int *k)
{
    cf_expr *e = expr(x, l, k);
    if (e->kind == CF_E_BOOL)
        return e;
    cf_expr *zero = new_expr(x, CF_E_INT);
    return op(x, CF_E_BOOL, "not_equal", e, zero);
}

/* ------------------------------------------------------- statements */

static uint32_t block(fx *x, uint32_t i, const char **stop);

static void
at_line(fx *x, const fx_line *l)
{
    x->line = l->n > 1 ? (unsigned)atoi(l->tok[1]) : x->line;
    x->col = l->n > 2 ? (unsigned)atoi(l->tok[2]) : 0;
}

static void
jump_to(fx *x, uint32_t t)
{
    if (x->c.fn->live)
        cf_g_edge(&x->c, x->c.fn->cur, t, false, 0);
    x->c.fn->live = false;
}

/* An if (from line @i) with its elif/else arms to its endif; the line after. */
static uint32_t
if_chain(fx *x, uint32_t i)
{
    cf *c = &x->c;
    cf_fn *f = c->fn;
    const fx_line *l = &x->u->lines[i];
    at_line(x, l);
    int k = 3;
    cf_expr *e = cond(x, l, &k);
    uint32_t B = cf_g_vertex(c, CF_V_BRANCH, x->line);
    f->v.v[B].cond = e;
    cf_g_go(c, B, false);
    XF_VEC(uint32_t) ends = {0};
    cf_g_arm(c, B, true, 1, x->line);
    const char *stop;
    i = block(x, i + 1, &stop);
    if (f->live && !XF_VEC_PUSH(c->a, ends, f->cur))
        cf_oom(c);
    if (strcmp(stop, "elif") == 0) {
        cf_g_arm(c, B, false, 0, x->line);
        i = if_chain(x, i); /* the elif as an if inside the else arm, to the same endif */
        if (f->live && !XF_VEC_PUSH(c->a, ends, f->cur))
            cf_oom(c);
    } else if (strcmp(stop, "else") == 0) {
        cf_g_arm(c, B, false, 0, x->line);
        i = block(x, i + 1, &stop);
        if (strcmp(stop, "endif") != 0)
            refuse(x, "an else without its end if (the description is malformed)");
        if (f->live && !XF_VEC_PUSH(c->a, ends, f->cur))
            cf_oom(c);
        i++;
    } else if (strcmp(stop, "endif") == 0) {
        if (!XF_VEC_PUSH(c->a, ends, B))
            cf_oom(c);
        i++;
    } else
        refuse(x, "an if without its end if (the description is malformed)");
    if (ends.n == 0) {
        f->live = false;
        return i;
    }
    uint32_t J = cf_g_vertex(c, CF_V_ENDBRANCH, 0);
    for (uint32_t n = 0; n < ends.n; n++)
        cf_g_edge(c, ends.v[n], J, false, 0);
    f->cur = J;
    f->live = true;
    f->open = false;
    return i;
}

/* A loop whose head @L (and end @E) are made: its body from line @i. */
static uint32_t
loop_body(fx *x, uint32_t L, uint32_t E, uint32_t i)
{
    cf *c = &x->c;
    cf_fn *f = c->fn;
    fx_jump j = {.up = x->jump, .cont = E};
    x->jump = &j;
    cf_g_arm(c, L, true, 1, x->line);
    const char *stop;
    i = block(x, i, &stop);
    if (strcmp(stop, "enddo") != 0)
        refuse(x, "a do without its end do (the description is malformed)");
    x->jump = j.up;
    if (f->live)
        cf_g_edge(c, f->cur, E, false, 0);
    cf_g_edge(c, E, L, false, 0);
    f->cur = L;
    f->live = true;
    f->open = false;
    if (j.breaks.n) {
        uint32_t after = cf_g_vertex(c, CF_V_BB, 0);
        for (uint32_t n = 0; n < j.breaks.n; n++)
            cf_g_edge(c, j.breaks.v[n], after, false, 0);
        cf_g_go(c, after, true);
    }
    return i + 1;
}

static uint32_t
do_loop(fx *x, uint32_t i)
{
    cf *c = &x->c;
    const fx_line *l = &x->u->lines[i];
    at_line(x, l);
    if (l->n < 4)
        refuse(x, "a do loop the description does not give");
    fx_sym *v = lookup(x, l->tok[3]);
    if (!v->sym || v->sym->type != CF_INT || v->rank)
        refuse(x, "do variable '%s' is not an integer scalar", v->name);
    int k = 4;
    cf_expr *lo = expr(x, l, &k), *hi = expr(x, l, &k), *step;
    bool down = false;
    if (strcmp(l->tok[k], "-") == 0) {
        step = new_expr(x, CF_E_INT);
        step->ival = 1;
    } else {
        step = expr(x, l, &k);
        if (step->kind == CF_E_OP && !strcmp(step->op, "minus_scal") &&
            step->a[0]->kind == CF_E_INT)
            down = true;
        else if (step->kind != CF_E_INT)
            refuse(x, "a do loop whose step is not a constant is not supported");
        down = down || step->ival < 0;
    }
    cf_fn *f = c->fn;
    uint32_t L = cf_g_vertex(c, CF_V_FORLOOP, x->line), E = cf_g_vertex(c, CF_V_ENDLOOP, 0);
    f->v.v[L].init = assign_stmt(x, ref_of(x, v->sym), lo);
    f->v.v[L].cond =
        op(x, CF_E_BOOL, down ? "greater_or_equal" : "less_or_equal", ref_of(x, v->sym), hi);
    f->v.v[L].update =
        assign_stmt(x, ref_of(x, v->sym), op(x, CF_E_OP, "add_scal_scal", ref_of(x, v->sym), step));
    cf_g_go(c, L, false);
    return loop_body(x, L, E, i + 1);
}

static uint32_t
while_loop(fx *x, uint32_t i)
{
    cf *c = &x->c;
    const fx_line *l = &x->u->lines[i];
    at_line(x, l);
    int k = 3;
    x->no_calls = true;
    cf_expr *e = cond(x, l, &k);
    x->no_calls = false;
    uint32_t L = cf_g_vertex(c, CF_V_PRELOOP, x->line), E = cf_g_vertex(c, CF_V_ENDLOOP, 0);
    c->fn->v.v[L].cond = e;
    cf_g_go(c, L, false);
    return loop_body(x, L, E, i + 1);
}

static cf_expr *
int_const(fx *x, int64_t v)
{
    cf_expr *e = new_expr(x, CF_E_INT);
    e->ival = v;
    return e;
}

/* y = EXPR for the whole array y (from token @k of @l): a ForLoop per
 * dimension, EXPR's whole arrays taken element by element. */
static void
array_assignment(fx *x, const fx_line *l, int k, cf_sym *a)
{
    cf *c = &x->c;
    cf_fn *f = c->fn;
    uint32_t L[CF_MAXRANK], E[CF_MAXRANK];
    if (a->nobounds)
        refuse(x,
               "an assignment to the whole array '%s', whose bounds its caller gives, is not "
               "supported",
               a->name);
    for (int d = a->rank - 1; d >= 0; d--) { /* Fortran's first dimension innermost */
        cf_sym *i = cf_temp(c, "OpenAD_i", CF_INT);
        x->idx[d] = i;
        L[d] = cf_g_vertex(c, CF_V_FORLOOP, x->line);
        E[d] = cf_g_vertex(c, CF_V_ENDLOOP, 0);
        f->v.v[L[d]].init = assign_stmt(x, ref_of(x, i), int_const(x, a->lower[d]));
        f->v.v[L[d]].cond = op(x, CF_E_BOOL, "less_or_equal", ref_of(x, i),
                               int_const(x, a->lower[d] + a->dims[d] - 1));
        f->v.v[L[d]].update = assign_stmt(
            x, ref_of(x, i), op(x, CF_E_OP, "add_scal_scal", ref_of(x, i), int_const(x, 1)));
        cf_g_go(c, L[d], false);
        cf_g_arm(c, L[d], true, 1, x->line);
    }
    cf_expr *lhs = ref_of(x, a);
    lhs->nsub = a->rank;
    for (int d = 0; d < a->rank; d++)
        lhs->sub[d] = ref_of(x, x->idx[d]);
    x->elem = a;
    cf_expr *rhs = expr(x, l, &k);
    x->elem = NULL;
    cf_emit_stmt(c, assign_stmt(x, lhs, rhs));
    for (int d = 0; d < a->rank; d++) {
        if (f->live)
            cf_g_edge(c, f->cur, E[d], false, 0);
        cf_g_edge(c, E[d], L[d], false, 0);
        f->cur = L[d];
        f->live = true;
        f->open = false;
    }
}

static void
assignment(fx *x, const fx_line *l)
{
    int k = 3;
    if (strcmp(tok(x, l, &k), "v") != 0)
        refuse(x, "this assignment's left-hand side is not supported");
    cf_expr *lhs = var(x, l, &k, true);
    if (lhs->sym->rank && !lhs->nsub) {
        array_assignment(x, l, k, lhs->sym);
        return;
    }
    cf_expr *rhs = expr(x, l, &k);
    if (rhs->kind == CF_E_VAR && rhs->sym->rank && !rhs->nsub)
        refuse(x, "an array '%s' as a value is not supported", rhs->sym->name);
    cf_emit_stmt(&x->c, assign_stmt(x, lhs, rhs));
}

static void
call(fx *x, const fx_line *l)
{
    int k = 3;
    const char *name = tok(x, l, &k);
    int n = atoi(tok(x, l, &k));
    fx_unit *u = find_unit(x, name, true);
    if (!u || strcmp(u->kind, "sub") != 0)
        refuse(x, "subroutine '%s' is not in the given files", name);
    fx_unit *saved = x->u;
    cf_fn *callee = fn_of(x, u);
    x->u = saved;
    cf_stmt *s = cf_new_stmt(&x->c, CF_S_CALL, x->line);
    s->callee = callee;
    call_args(x, l, &k, s, callee, n);
    s->id = ++x->c.fn->nstmt;
    cf_emit_stmt(&x->c, s);
    add_callee(x, callee);
}

/* Statements from line @i to the first of elif, else, endif, enddo (in
 * *@stop, "" at the end of the unit); the index of that line. */
static uint32_t
block(fx *x, uint32_t i, const char **stop)
{
    cf *c = &x->c;
    while (i < x->u->nlines) {
        const fx_line *l = &x->u->lines[i];
        const char *t = l->tok[0];
        if (!strcmp(t, "elif") || !strcmp(t, "else") || !strcmp(t, "endif") ||
            !strcmp(t, "enddo")) {
            *stop = t;
            return i;
        }
        if (!strcmp(t, "s")) {
            i++;
            continue;
        }
        at_line(x, l);
        if (!strcmp(t, "if"))
            i = if_chain(x, i);
        else if (!strcmp(t, "do"))
            i = do_loop(x, i);
        else if (!strcmp(t, "while"))
            i = while_loop(x, i);
        else {
            if (!strcmp(t, "a"))
                assignment(x, l);
            else if (!strcmp(t, "c"))
                call(x, l);
            else if (!strcmp(t, "ret"))
                jump_to(x, c->fn->exit);
            else if (!strcmp(t, "exit") || !strcmp(t, "cycle")) {
                if (!x->jump)
                    refuse(x, "%s outside a loop", t);
                if (t[0] == 'c')
                    jump_to(x, x->jump->cont);
                else {
                    if (c->fn->live && !XF_VEC_PUSH(c->a, x->jump->breaks, c->fn->cur))
                        cf_oom(c);
                    c->fn->live = false;
                }
            } else if (!strcmp(t, "stop"))
                refuse(x, "STOP is not supported");
            else if (!strcmp(t, "x"))
                refuse(x, "%s is not supported", l->n > 3 ? l->tok[3] : "this statement");
            else
                refuse(x, "statement record '%s' is unknown (plugin and front end differ)", t);
            i++;
        }
    }
    *stop = "";
    return i;
}

static void
walk(fx *x, cf_fn *f)
{
    fx_unit *u = NULL;
    for (uint32_t i = 0; i < x->units.n && !u; i++)
        if (x->units.v[i].fn == f)
            u = &x->units.v[i];
    x->u = u;
    x->file = u->file;
    x->line = u->line;
    x->col = u->col;
    x->c.fn = f;
    x->jump = NULL;
    uint32_t entry = cf_g_vertex(&x->c, CF_V_ENTRY, u->line);
    f->exit = cf_g_vertex(&x->c, CF_V_EXIT, 0);
    f->cur = entry;
    f->live = true;
    f->open = false;
    const char *stop;
    uint32_t i = block(x, 0, &stop);
    if (*stop) {
        at_line(x, &u->lines[i]);
        refuse(x, "'%s' without its opening statement (the description is malformed)", stop);
    }
    if (f->live)
        cf_g_edge(&x->c, f->cur, f->exit, false, 0);
    x->c.fn = NULL;
}

/* ---------------------------------------------------------------- top */

static const char **
names(fx *x, const char *const *given, const fx_pragma *p, int np, bool dep, const fx_unit *top)
{
    if (given)
        return (const char **)given;
    const char **v = cf_alloc(&x->c, ((size_t)np + 1) * sizeof *v);
    int n = 0;
    for (int i = 0; i < np; i++) {
        if (p[i].dep != dep || strcmp(p[i].file, top->file) != 0 || p[i].line < top->line)
            continue;
        /* the unit the line belongs to: the last one of the file starting before it */
        const fx_unit *in = NULL;
        for (uint32_t k = 0; k < x->units.n; k++)
            if (x->units.v[k].file == top->file && x->units.v[k].line <= p[i].line &&
                (!in || x->units.v[k].line > in->line))
                in = &x->units.v[k];
        if (in == top)
            v[n++] = cf_strdup(&x->c, p[i].name);
    }
    return v;
}

int
fx_translate(const xf_f2xaif_opts *o, fx_input *in, int nin, const fx_pragma *p, int np, FILE *err)
{
    fx *x = calloc(1, sizeof *x);
    if (!x) {
        fprintf(err, "xaiform f2xaif: out of memory\n");
        return 3;
    }
    x->c.err = err;
    x->c.a = xf_arena_new();
    x->c.o = &x->co;
    int status = 0;
    if (!x->c.a) {
        free(x);
        fprintf(err, "xaiform f2xaif: out of memory\n");
        return 3;
    }
    if (setjmp(x->c.fail)) {
        status = x->c.status;
        goto out;
    }
    for (int i = 0; i < nin; i++)
        split_lines(x, in[i].file, in[i].text);
    /* the modules' variables first, so that they keep their declared order */
    for (uint32_t i = 0; i < x->units.n; i++)
        if (strcmp(x->units.v[i].kind, "mod") == 0)
            declare(x, &x->units.v[i], NULL);
    char lower[256];
    snprintf(lower, sizeof lower, "%s", o->function ? o->function : "head");
    for (char *q = lower; *q; q++)
        *q = (char)tolower((unsigned char)*q);
    fx_unit *top = find_unit(x, lower, true);
    for (uint32_t i = 0; !top && !o->function && i < x->units.n; i++)
        if (x->units.v[i].file == in[nin - 1].file && strcmp(x->units.v[i].kind, "mod") != 0)
            top = &x->units.v[i]; /* no head: the first routine of the last file */
    if (!top) {
        fprintf(err, "%s: error: no subroutine or function '%s'\n", in[0].file,
                o->function ? o->function : "head");
        status = 1;
        goto out;
    }
    x->co.file = top->file;
    x->co.function = top->name;
    x->co.out = o->out;
    x->co.indep = names(x, o->indep, p, np, false, top);
    x->co.dep = names(x, o->dep, p, np, true, top);
    if (!x->co.indep[0] || !x->co.dep[0]) {
        fprintf(err, "%s:%u: error: no %s for '%s': give --%s or a c$openad %s(NAME) line in it\n",
                top->file, top->line, !x->co.indep[0] ? "independents" : "dependents", top->name,
                !x->co.indep[0] ? "independent" : "dependent",
                !x->co.indep[0] ? "INDEPENDENT" : "DEPENDENT");
        status = 1;
        goto out;
    }
    cf_fn *f = fn_of(x, top);
    for (uint32_t i = 0; i < x->c.fns.n; i++)
        walk(x, x->c.fns.v[i]);
    cf_analyze(&x->c, f);
    if (cf_write(&x->c, o->out) != 0)
        status = 1;
out:
    xf_arena_free(x->c.a);
    free(x);
    return status;
}
