/* f_expr.c: expressions and variable references as Fortran. Arrays keep
 * their declared bounds, so an element, a section (l:u:s) or a whole array
 * is written as the source wrote it. Mixed operands of MIN, MAX, SIGN and
 * MOD are made real first, as Fortran wants one type. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "f_impl.h"
#include "value_kind.h"

#define MAX_DEPTH 2000

fw_type
fw_type_of_sym(const xf_symbol *s)
{
    static const fw_type by_kind[] = {FT_INT, FT_REAL, FT_BOOL, FT_BAD};
    if (fw_is_string(s))
        return FT_STR;
    return by_kind[xf_bk_kind_of(s->type)];
}

/* ------------------------------------------------------------ references */

/* The variable of @r, checked: resolved, of this routine or global, with a
 * derivative when @deriv, of a type Fortran has here. NULL after a refusal. */
static const xf_symbol *
ref_sym(fw *w, const xf_varref *r, bool deriv)
{
    const xf_symref *sr = xf_varref_symref(r);
    if (!sr || !sr->sym) {
        fw_refuse(w, r->h.line, "an unresolved variable reference");
        return NULL;
    }
    if (r->v.n > 2 || (r->v.n == 2 && !xf_varref_arrref(r))) {
        fw_refuse(w, r->h.line, "a variable reference other than x or x(i,...)");
        return NULL;
    }
    const xf_symbol *s = sr->sym;
    fw_sym *c = &w->syms[s->index];
    if (!c->global && (!w->cur || (s->scope != w->cur->cfg_scope && !fw_host_reaches(w, s)))) {
        fw_refuse(w, r->h.line, "%s belongs to another routine (host association)", s->id);
        return NULL;
    }
    if (s->kind != XF_SYMKIND_VARIABLE || !c->name) {
        fw_refuse(w, r->h.line, "%s is no variable", s->id);
        return NULL;
    }
    if (!fw_ftype(w, s, r->h.line))
        return NULL;
    if (deriv && !c->dname) {
        fw_refuse(w, r->h.line, "%s has no derivative component (it is not an active real)", s->id);
        return NULL;
    }
    if (deriv)
        c->dused = true;
    else
        c->used = true;
    return s;
}

static bool
fixed(const xf_triplet *t)
{
    return t->index && !t->bound && !t->stride;
}

/* Write an integer expression (a subscript or a section's bound). */
static bool
int_expr(fw *w, const xf_expr *x, const xf_symbol *s, uint32_t line)
{
    fw_type t = fw_expr(w, x);
    if (t == FT_REAL) {
        fw_refuse(w, line, "a real subscript of %s", s->id);
        return false;
    }
    return t != FT_BAD;
}

bool
fw_is_array(const xf_varref *r)
{
    const xf_symref *sr = xf_varref_symref(r);
    if (!sr || !sr->sym || xf_shape_rank(sr->sym->shape) <= 0)
        return false;
    const xf_arrref *a = xf_varref_arrref(r);
    if (!a)
        return true;
    for (uint32_t k = 0; k < a->t.n; k++)
        if (!fixed(&a->t.v[k]))
            return true;
    return false;
}

fw_type
fw_ref(fw *w, const xf_varref *r, bool deriv)
{
    const xf_symbol *s = ref_sym(w, r, deriv);
    if (!s)
        return FT_BAD;
    const xf_arrref *a = xf_varref_arrref(r);
    int rank = xf_shape_rank(s->shape);
    if (a && rank <= 0) {
        fw_refuse(w, r->h.line, "the scalar %s has subscripts", s->id);
        return FT_BAD;
    }
    fputs(deriv ? w->syms[s->index].dname : w->syms[s->index].name, w->o);
    if (!a)
        return fw_type_of_sym(s);
    if ((int)a->t.n != rank) {
        fw_refuse(w, r->h.line, "%s has rank %d but %u subscripts", s->id, rank, a->t.n);
        return FT_BAD;
    }
    fputs("(", w->o);
    for (uint32_t k = 0; k < a->t.n; k++) {
        const xf_triplet *t = &a->t.v[k];
        uint32_t line = t->h.line ? t->h.line : r->h.line;
        if (k)
            fputs(", ", w->o);
        if (t->index && !int_expr(w, t->index, s, line))
            return FT_BAD;
        if (fixed(t))
            continue;
        fputs(":", w->o);
        if (t->bound && !int_expr(w, t->bound, s, line))
            return FT_BAD;
        if (t->stride) {
            fputs(":", w->o);
            if (!int_expr(w, t->stride, s, line))
                return FT_BAD;
        }
    }
    fputs(")", w->o);
    return fw_type_of_sym(s);
}

/* ------------------------------------------------------------ expressions */

typedef struct ops {
    const xf_expr *x;
    uint32_t *first, *edge; /* edges sorted by target, then position */
} ops;

typedef struct ekey {
    uint32_t tgt, i;
    int64_t pos;
} ekey;

static int
by_target(const void *a, const void *b)
{
    const ekey *p = a, *q = b;
    if (p->tgt != q->tgt)
        return p->tgt < q->tgt ? -1 : 1;
    return p->pos < q->pos ? -1 : p->pos > q->pos;
}

static const char *const math1[][2] = {
    {"sin_scal", "sin"},     {"cos_scal", "cos"},     {"tan_scal", "tan"},
    {"arcsin_scal", "asin"}, {"arccos_scal", "acos"}, {"arctan_scal", "atan"},
    {"sinh_scal", "sinh"},   {"cosh_scal", "cosh"},   {"tanh_scal", "tanh"},
    {"exp_scal", "exp"},     {"ln_scal", "log"},      {"log10", "log10"},
    {"sqrt_scal", "sqrt"},
};

/* ORDER: the arithmetic ones first (their result is a number) */
static const char *const binop[][2] = {
    {"add_scal_scal", "+"}, {"sub_scal_scal", "-"},     {"mul_scal_scal", "*"},
    {"div_scal_scal", "/"}, {"less_than", "<"},         {"less_or_equal", "<="},
    {"greater_than", ">"},  {"greater_or_equal", ">="}, {"equal", "=="},
    {"not_equal", "/="},    {"and", ".and."},           {"or", ".or."},
};

static fw_type vertex(fw *w, const ops *o, uint32_t v, int depth);

static fw_type
operand(fw *w, const ops *o, uint32_t v, int pos, int depth)
{
    uint32_t n = o->first[v + 1] - o->first[v];
    if ((uint32_t)pos > n) {
        fw_refuse(w, o->x->v.v[v].h.line, "%s lacks operand %d", o->x->v.v[v].u.in.name, pos);
        return FT_BAD;
    }
    const xf_eedge *e = &o->x->e.v[o->edge[o->first[v] + (uint32_t)pos - 1]];
    if (e->pos != pos) {
        fw_refuse(w, e->h.line, "operand positions of %s are not 1, 2, ...",
                  o->x->v.v[v].u.in.name);
        return FT_BAD;
    }
    return vertex(w, o, e->src, depth + 1);
}

static void
constant(fw *w, const xf_evertex *c, fw_type *t)
{
    const char *val = c->u.c.value ? c->u.c.value : "";
    switch (c->u.c.type) {
    case XF_TYPE_INTEGER: {
        char *end;
        long long v = strtoll(val, &end, 10);
        if (*val && !*end && v >= -2147483647LL && v <= 2147483647LL) {
            fprintf(w->o, v < 0 ? "(%lld)" : "%lld", v);
            *t = FT_INT;
            return;
        }
        break;
    }
    case XF_TYPE_REAL:
    case XF_TYPE_DOUBLE: {
        char buf[64];
        size_t n = strlen(val);
        if (n == 0 || n >= sizeof buf)
            break;
        for (size_t i = 0; i <= n; i++)
            buf[i] = val[i] == 'd' || val[i] == 'D' ? 'e' : val[i];
        char *end;
        double v = strtod(buf, &end);
        if (*end || !isfinite(v))
            break;
        if (c->u.c.fetype && !strcmp(c->u.c.fetype, "F4"))
            v = (double)(float)v; /* a REAL*4 literal, widened */
        char out[48];
        snprintf(out, sizeof out, "%.17e", v);
        char *e = strchr(out, 'e');
        if (e)
            *e = 'd';
        fprintf(w->o, v < 0 ? "(%s)" : "%s", out);
        *t = FT_REAL;
        return;
    }
    case XF_TYPE_BOOL:
        if (!strcasecmp(val, "true") || !strcmp(val, "1") || !strcasecmp(val, ".true.")) {
            fputs(".true.", w->o);
            *t = FT_BOOL;
            return;
        }
        if (!strcasecmp(val, "false") || !strcmp(val, "0") || !strcasecmp(val, ".false.")) {
            fputs(".false.", w->o);
            *t = FT_BOOL;
            return;
        }
        break;
    case XF_TYPE_CHAR:
    case XF_TYPE_STRING:
        *t = fw_string_const(w, val, c->h.line) ? FT_STR : FT_BAD;
        return;
    case XF_TYPE_NONE:
    case XF_TYPE_VOID:
    case XF_TYPE_COMPLEX:
    case XF_TYPE_OPAQUE:
        break;
    }
    fw_refuse(w, c->h.line, "the constant '%s' of type %s has no Fortran here", val,
              c->u.c.type ? xf_type_name(c->u.c.type) : "(none)");
    *t = FT_BAD;
}

/* Operand @pos written to a string first, so that the caller can pick the
 * Fortran by its type. */
static fw_type
probe(fw *w, const ops *o, uint32_t v, int pos, int depth, char **text)
{
    FILE *saved = w->o;
    size_t len;
    FILE *m = open_memstream(text, &len);
    if (!m) {
        fw_refuse(w, 0, "out of memory");
        return FT_BAD;
    }
    w->o = m;
    fw_type t = operand(w, o, v, pos, depth);
    fclose(m);
    w->o = saved;
    return t;
}

/* The value of @v when it is an integer constant or +, -, *, / (truncating
 * towards zero, as Fortran does) and unary minus of such, into *@val. */
static bool
int_value(const ops *o, uint32_t v, int depth, long long *val)
{
    const xf_evertex *x = &o->x->v.v[v];
    if (depth > MAX_DEPTH)
        return false;
    if (x->kind == XF_EV_CONSTANT) {
        char *end;
        const char *s = x->u.c.value ? x->u.c.value : "";
        *val = strtoll(s, &end, 10);
        return x->u.c.type == XF_TYPE_INTEGER && *s && !*end && llabs(*val) < (1LL << 31);
    }
    if (x->kind != XF_EV_INTRINSIC || !x->u.in.name)
        return false;
    uint32_t n = o->first[v + 1] - o->first[v];
    long long a, b = 0;
    const char *nm = x->u.in.name;
    bool un = !strcmp(nm, "minus_scal");
    if (n != (un ? 1u : 2u) || o->x->e.v[o->edge[o->first[v]]].pos != 1 ||
        !int_value(o, o->x->e.v[o->edge[o->first[v]]].src, depth + 1, &a) ||
        (!un && (o->x->e.v[o->edge[o->first[v] + 1]].pos != 2 ||
                 !int_value(o, o->x->e.v[o->edge[o->first[v] + 1]].src, depth + 1, &b))))
        return false;
    if (un)
        *val = -a;
    else if (!strcmp(nm, "add_scal_scal"))
        *val = a + b;
    else if (!strcmp(nm, "sub_scal_scal"))
        *val = a - b;
    else if (!strcmp(nm, "mul_scal_scal") && llabs(a) < (1LL << 31) && llabs(b) < (1LL << 31))
        *val = a * b;
    else if (!strcmp(nm, "div_scal_scal") && b != 0)
        *val = a / b; /* C99 truncates towards zero, as Fortran */
    else
        return false;
    return llabs(*val) < (1LL << 31);
}

/* @a as a real: dble(a) for an integer. */
static void
as_real(fw *w, const char *a, fw_type t)
{
    fprintf(w->o, t == FT_INT ? "dble(%s)" : "%s", a);
}

/* The catalogue's intrinsics that are Fortran's own, written as calls of
 * it with all their operands: name, Fortran's name, result ('i' integer,
 * 'l' logical, 'r' real, '1' / '2': the type of that operand). */
static const char *const native[][3] = {
    {"size", "size", "i"},
    {"lbound", "lbound", "i"},
    {"ubound", "ubound", "i"},
    {"allocated", "allocated", "l"},
    {"present", "present", "l"},
    {"maxval", "maxval", "1"},
    {"minval", "minval", "1"},
    {"nc_maxval", "maxval", "1"},
    {"nc_minval", "minval", "1"},
    {"maxloc", "maxloc", "i"},
    {"minloc", "minloc", "i"},
    {"maxloc_arr", "maxloc", "i"},
    {"minloc_arr", "minloc", "i"},
    {"transpose_arr", "transpose", "1"},
    {"reshape_arr", "reshape", "1"},
    {"shape", "shape", "i"},
    {"shape_arr", "shape", "i"},
    {"transfer", "transfer", "2"},
    {"sum_arr", "sum", "1"},
    {"abs", "abs", "1"},
    {"sin", "sin", "r"},
    {"cos", "cos", "r"},
    {"tan", "tan", "r"},
    {"asin", "asin", "r"},
    {"acos", "acos", "r"},
    {"atan", "atan", "r"},
    {"sinh", "sinh", "r"},
    {"cosh", "cosh", "r"},
    {"tanh", "tanh", "r"},
    {"exp", "exp", "r"},
    {"log", "log", "r"},
    {"sqrt", "sqrt", "r"},
    {"int", "int", "i"},
    {"nint", "nint", "i"},
    {"real", "dble", "r"},
    {"mod", "mod", "1"},
    {"sign", "sign", "1"},
    {"max", "max", "1"},
    {"min", "min", "1"},
    {"len", "len", "i"},
    {"trim", "trim", "1"},
    {"scan", "scan", "i"},
    {"ichar", "ichar", "i"},
};

/* Whether @v's only operand is a variable of rank 1 (or a section of one). */
static bool
rank1(const ops *o, uint32_t v)
{
    const xf_eedge *e = &o->x->e.v[o->edge[o->first[v]]];
    const xf_evertex *a = &o->x->v.v[e->src];
    const xf_symref *sr = a->kind == XF_EV_VARREF ? xf_varref_symref(a->u.ref) : NULL;
    return sr && sr->sym && xf_shape_rank(sr->sym->shape) == 1;
}

static fw_type
native_call(fw *w, const ops *o, uint32_t v, int depth, const char *const *nat)
{
    uint32_t nops = o->first[v + 1] - o->first[v];
    fw_type t1 = FT_BAD, t2 = FT_BAD;
    if (!strcmp(nat[0], "present")) {
        /* the xaif marks no argument optional, and a call that leaves one
         * out is refused (f_stmt.c): every formal is present, but those
         * that opts->optional_from makes optional */
        const xf_evertex *a = nops == 1 ? &o->x->v.v[o->x->e.v[o->edge[o->first[v]]].src] : NULL;
        const xf_symref *sr = a && a->kind == XF_EV_VARREF ? xf_varref_symref(a->u.ref) : NULL;
        if (sr && sr->sym && fw_optional(w, sr->sym) && w->syms[sr->sym->index].name) {
            fprintf(w->o, "present(%s)", w->syms[sr->sym->index].name);
            return FT_BOOL;
        }
        fputs(".true.", w->o);
        return FT_BOOL;
    }
    fprintf(w->o, "%s(", nat[1]);
    for (uint32_t k = 1; k <= nops; k++) {
        if (k > 1)
            fputs(", ", w->o);
        fw_type t = operand(w, o, v, (int)k, depth);
        if (t == FT_BAD)
            return FT_BAD;
        if (k == 1)
            t1 = t;
        if (k == 2)
            t2 = t;
    }
    if (nops == 1 && (!strcmp(nat[1], "maxloc") || !strcmp(nat[1], "minloc")) && rank1(o, v))
        fputs(", 1", w->o); /* a scalar, as the xaif means it, not an array of one */
    fputs(")", w->o);
    switch (nat[2][0]) {
    case 'i':
        return FT_INT;
    case 'l':
        return FT_BOOL;
    case 'r':
        return FT_REAL;
    case '2':
        return t2;
    default:
        return t1;
    }
}

static fw_type
intrinsic(fw *w, const ops *o, uint32_t v, int depth)
{
    const xf_evertex *x = &o->x->v.v[v];
    const char *n = x->u.in.name ? x->u.in.name : "";
    if (fw_string_op(n)) /* string_eq_scal_scal: Fortran's == */
        n = fw_string_op(n);
    uint32_t nops = o->first[v + 1] - o->first[v];
    char *a = NULL, *b = NULL;
    fw_type ta = FT_BAD, tb = FT_BAD, t = FT_BAD;
    for (size_t i = 0; i < sizeof native / sizeof *native; i++)
        if (!strcmp(n, native[i][0]))
            return native_call(w, o, v, depth, native[i]);
    if (nops < 1 || nops > 2) {
        fw_refuse(w, x->h.line, "%s with %u operands", n, nops);
        return FT_BAD;
    }
    ta = probe(w, o, v, 1, depth, &a);
    if (nops == 2)
        tb = probe(w, o, v, 2, depth, &b);
    if (ta == FT_BAD || (nops == 2 && tb == FT_BAD))
        goto out;
    bool real = ta == FT_REAL || (nops == 2 && tb == FT_REAL);
    if (nops == 1) {
        for (size_t i = 0; i < sizeof math1 / sizeof *math1; i++)
            if (!strcmp(n, math1[i][0])) {
                fprintf(w->o, "%s(", math1[i][1]);
                as_real(w, a, ta);
                fputs(")", w->o);
                t = FT_REAL;
                goto out;
            }
        if (!strcmp(n, "minus_scal")) {
            fprintf(w->o, "(-%s)", a);
            t = ta == FT_REAL ? FT_REAL : FT_INT;
        } else if (!strcmp(n, "abs_scal")) {
            fprintf(w->o, "abs(%s)", a);
            t = real ? FT_REAL : FT_INT;
        } else if (!strcmp(n, "int_scal")) {
            fprintf(w->o, "int(%s)", a);
            t = FT_INT;
        } else if (!strcmp(n, "nint_scal")) {
            fputs("nint(", w->o);
            as_real(w, a, ta);
            fputs(")", w->o);
            t = FT_INT;
        } else if (!strcmp(n, "real_scal")) {
            fprintf(w->o, "dble(%s)", a);
            t = FT_REAL;
        } else if (!strcmp(n, "not")) {
            fprintf(w->o, "(.not. %s)", a);
            t = FT_BOOL;
        } else
            fw_refuse(w, x->h.line, "the intrinsic %s has no Fortran here", n);
        goto out;
    }
    long long q;
    if (!real && !strcmp(n, "div_scal_scal") && int_value(o, v, depth, &q)) {
        /* written as its value: gfortran -Wall warns of a constant integer
         * division that truncates (a reversed loop's start) */
        fprintf(w->o, q < 0 ? "(%lld)" : "%lld", q);
        t = FT_INT;
        goto out;
    }
    for (size_t i = 0; i < sizeof binop / sizeof *binop; i++)
        if (!strcmp(n, binop[i][0])) {
            const char *op = binop[i][1];
            if (ta == FT_BOOL && tb == FT_BOOL && !strcmp(op, "=="))
                op = ".eqv.";
            else if (ta == FT_BOOL && tb == FT_BOOL && !strcmp(op, "/="))
                op = ".neqv.";
            fprintf(w->o, "(%s %s %s)", a, op, b);
            t = i < 4 ? (real ? FT_REAL : FT_INT) : FT_BOOL;
            goto out;
        }
    if (!strcmp(n, "pow_scal_scal")) {
        fprintf(w->o, "(%s ** %s)", a, b);
        t = real ? FT_REAL : FT_INT;
    } else if (!strcmp(n, "mod_scal_scal") || !strcmp(n, "sign_scal_scal") ||
               !strcmp(n, "nc_min_scal_scal") || !strcmp(n, "nc_max_scal_scal")) {
        const char *f = n[0] == 'm'                  ? "mod"
                        : n[0] == 's'                ? "sign"
                        : n[3] == 'm' && n[4] == 'i' ? "min"
                                                     : "max";
        fprintf(w->o, "%s(", f);
        if (real) {
            as_real(w, a, ta);
            fputs(", ", w->o);
            as_real(w, b, tb);
        } else
            fprintf(w->o, "%s, %s", a, b);
        fputs(")", w->o);
        t = real ? FT_REAL : FT_INT;
    } else if (!strcmp(n, "xor")) {
        fprintf(w->o, "(%s .neqv. %s)", a, b);
        t = FT_BOOL;
    } else
        fw_refuse(w, x->h.line, "the intrinsic %s has no Fortran here", n);
out:
    free(a);
    free(b);
    return w->failed ? FT_BAD : t;
}

static fw_type
vertex(fw *w, const ops *o, uint32_t v, int depth)
{
    const xf_evertex *x = &o->x->v.v[v];
    if (depth > MAX_DEPTH) {
        fw_refuse(w, x->h.line, "an expression nested deeper than %d", MAX_DEPTH);
        return FT_BAD;
    }
    fw_type t = FT_BAD;
    switch (x->kind) {
    case XF_EV_VARREF:
        return fw_ref(w, x->u.ref, xf_flag_is(x->u.ref->deriv, false));
    case XF_EV_CONSTANT:
        constant(w, x, &t);
        return t;
    case XF_EV_INTRINSIC:
    case XF_EV_BOOLOP:
        return intrinsic(w, o, v, depth);
    case XF_EV_FUNCALL:
        fw_refuse(w, x->h.line, "a FunctionCall (front ends make these subroutine calls)");
        return FT_BAD;
    case XF_EV_ARGREF:
        fw_refuse(w, x->h.line, "an ArgumentReference outside a catalogue");
        return FT_BAD;
    }
    return FT_BAD;
}

fw_type
fw_expr(fw *w, const xf_expr *x)
{
    uint32_t root = xf_expr_root(x);
    if (root == UINT32_MAX) {
        fw_refuse(w, x->h.line, "an expression without one root");
        return FT_BAD;
    }
    return fw_expr_at(w, x, root);
}

fw_type
fw_expr_at(fw *w, const xf_expr *x, uint32_t root)
{
    ops o = {.x = x};
    o.first = calloc((size_t)x->v.n + 1, sizeof *o.first);
    o.edge = calloc((size_t)x->e.n + 1, sizeof *o.edge);
    ekey *k = calloc((size_t)x->e.n + 1, sizeof *k);
    fw_type t = FT_BAD;
    if (!o.first || !o.edge || !k) {
        fw_refuse(w, x->h.line, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < x->e.n; i++) {
        if (x->e.v[i].tgt >= x->v.n || x->e.v[i].src >= x->v.n) {
            fw_refuse(w, x->e.v[i].h.line, "an expression edge to nowhere");
            goto out;
        }
        k[i] = (ekey){.tgt = x->e.v[i].tgt, .i = i, .pos = x->e.v[i].pos};
        o.first[x->e.v[i].tgt + 1]++;
    }
    for (uint32_t v = 0; v < x->v.n; v++)
        o.first[v + 1] += o.first[v];
    qsort(k, x->e.n, sizeof *k, by_target);
    for (uint32_t i = 0; i < x->e.n; i++)
        o.edge[i] = k[i].i;
    t = vertex(w, &o, root, 0);
out:
    free(k);
    free(o.first);
    free(o.edge);
    return t;
}
