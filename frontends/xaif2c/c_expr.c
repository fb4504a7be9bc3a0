/* c_expr.c: expressions and variable references as C. An array element is
 * a flat index, column-major, each subscript less its lower bound; a
 * formal is a pointer, so a scalar formal reads (*x). Whole arrays appear
 * only where c_stmt.c loops over their elements. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "c_impl.h"
#include "value_kind.h"

#define MAX_DEPTH 2000

cw_type
cw_type_of_sym(const xf_symbol *s)
{
    static const cw_type by_kind[] = {CT_INT, CT_REAL, CT_BOOL, CT_BAD};
    return by_kind[xf_bk_kind_of(s->type)];
}

/* ------------------------------------------------------------ references */

/* The variable of @r, checked: resolved, of this routine or global, with a
 * derivative when @deriv, of a type C has. NULL after a refusal. */
static const xf_symbol *
ref_sym(cw *w, const xf_varref *r, bool deriv, bool mark)
{
    const xf_symref *sr = xf_varref_symref(r);
    if (!sr || !sr->sym) {
        cw_refuse(w, r->h.line, "an unresolved variable reference");
        return NULL;
    }
    if (r->v.n > 2 || (r->v.n == 2 && !xf_varref_arrref(r))) {
        cw_refuse(w, r->h.line, "a variable reference other than x or x(i,...)");
        return NULL;
    }
    const xf_symbol *s = sr->sym;
    cw_sym *c = &w->syms[s->index];
    if (!c->global && (!w->cur || s->scope != w->cur->cfg_scope)) {
        cw_refuse(w, r->h.line, "%s belongs to another routine (host association)", s->id);
        return NULL;
    }
    if (s->kind != XF_SYMKIND_VARIABLE || !c->name) {
        cw_refuse(w, r->h.line, "%s is no variable", s->id);
        return NULL;
    }
    if (!cw_ctype(w, s, r->h.line))
        return NULL;
    if (deriv && !c->dname) {
        cw_refuse(w, r->h.line, "%s has no derivative component (it is not an active real)", s->id);
        return NULL;
    }
    if (mark && deriv)
        c->dused = true;
    else if (mark)
        c->used = true;
    return s;
}

static const char *
cname(const cw *w, const xf_symbol *s, bool deriv)
{
    const cw_sym *c = &w->syms[s->index];
    return deriv ? c->dname : c->name;
}

/* A triplet that names one index (the dimension disappears). */
static bool
fixed(const xf_triplet *t)
{
    return t->index && !t->bound && !t->stride;
}

/* Write an integer expression (a subscript or a section's bound). */
static bool
int_expr(cw *w, const xf_expr *x, const xf_symbol *s, uint32_t line)
{
    const char *ek = w->ek; /* a subscript is no elementwise operand */
    w->ek = NULL;
    cw_type t = cw_expr(w, x);
    w->ek = ek;
    if (t == CT_REAL) {
        cw_refuse(w, line, "a real subscript of %s", s->id);
        return false;
    }
    return t != CT_BAD;
}

/* The first index, last index and stride of section dimension @t over the
 * bounds @b (what a triplet leaves out is the whole dimension, stride 1). */
static bool
sect_lo(cw *w, const xf_symbol *s, const xf_triplet *t, const xf_dimbounds *b, uint32_t line)
{
    if (t->index)
        return int_expr(w, t->index, s, line);
    fprintf(w->o, "%lldL", (long long)b->lower);
    return true;
}

static bool
sect_hi(cw *w, const xf_symbol *s, const xf_triplet *t, const xf_dimbounds *b, uint32_t line)
{
    if (t->bound)
        return int_expr(w, t->bound, s, line);
    if (cw_rt(s)) { /* lower + extent - 1, the extent known at run time */
        fprintf(w->o, "(%lldL + ", (long long)b->lower);
        if (!cw_rt_dim(w, s, (uint32_t)(b - s->dims.v), line))
            return false;
        fputs(" - 1L)", w->o);
        return true;
    }
    fprintf(w->o, "%lldL", (long long)b->upper);
    return true;
}

static bool
sect_st(cw *w, const xf_symbol *s, const xf_triplet *t, uint32_t line)
{
    if (t->stride)
        return int_expr(w, t->stride, s, line);
    fputs("1L", w->o);
    return true;
}

/* The number of elements of section dimension @t: xf_ad_ext(lo, hi, st). */
static bool
sect_ext(cw *w, const xf_symbol *s, const xf_triplet *t, const xf_dimbounds *b, uint32_t line)
{
    fputs("xf_ad_ext(", w->o);
    bool ok = sect_lo(w, s, t, b, line);
    fputs(", ", w->o);
    ok = ok && sect_hi(w, s, t, b, line);
    fputs(", ", w->o);
    ok = ok && sect_st(w, s, t, line);
    fputs(")", w->o);
    return ok;
}

/* Write the flat offset of the subscripts of @a into @s's storage; a
 * section's dimensions take element w->ek of the section (column-major). */
static bool
offset(cw *w, const xf_symbol *s, const xf_arrref *a, uint32_t line)
{
    int rank = xf_shape_rank(s->shape);
    if (rank <= 0 || (int)a->t.n != rank) {
        cw_refuse(w, line, "%s has rank %d but %u subscripts", s->id, rank, a->t.n);
        return false;
    }
    if (cw_extent(w, s, line) < 0)
        return false;
    for (int k = 0; k < rank; k++)
        if (!fixed(&a->t.v[k]) && !w->ek) {
            cw_refuse(w, a->t.v[k].h.line ? a->t.v[k].h.line : line,
                      "an array section of %s where one element is wanted", s->id);
            return false;
        }
    /* (i1-l1) + e1*((i2-l2) + e2*(...)); dims are listed last dimension first */
    int nsect = 0;
    for (int k = 0; k < rank; k++) {
        const xf_triplet *t = &a->t.v[k];
        const xf_dimbounds *b = &s->dims.v[rank - 1 - k];
        fputs("(", w->o);
        if (fixed(t)) {
            if (!int_expr(w, t->index, s, line))
                return false;
        } else { /* lo + st * ((ek / (n_1 * ... * n_j-1)) % n_j) */
            if (!sect_lo(w, s, t, b, line))
                return false;
            fputs(" + ", w->o);
            if (!sect_st(w, s, t, line))
                return false;
            fprintf(w->o, " * (%s", w->ek);
            for (int j = 0, m = 0; j < k && m < nsect; j++) {
                const xf_triplet *u = &a->t.v[j];
                if (fixed(u))
                    continue;
                fputs(" / ", w->o);
                if (!sect_ext(w, s, u, &s->dims.v[rank - 1 - j], line))
                    return false;
                m++;
            }
            fputs(" % ", w->o);
            if (!sect_ext(w, s, t, b, line))
                return false;
            fputs(")", w->o);
            nsect++;
        }
        if (b->lower)
            fprintf(w->o, ") - %lld", (long long)b->lower);
        else
            fputs(")", w->o);
        if (k + 1 < rank && cw_rt(s)) {
            fputs(" + ", w->o);
            if (!cw_rt_dim(w, s, (uint32_t)(rank - 1 - k), line))
                return false;
            fputs(" * (", w->o);
        } else if (k + 1 < rank) {
            int64_t e;
            if (!cw_dim_extent(b, &e)) {
                cw_refuse(w, line, "array %s: an extent does not fit in 64 bits", s->id);
                return false;
            }
            fprintf(w->o, " + %lld * (", (long long)e);
        }
    }
    for (int k = 1; k < rank; k++)
        fputs(")", w->o);
    return true;
}

bool
cw_is_array(const xf_varref *r)
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

cw_type
cw_ref(cw *w, const xf_varref *r, bool deriv)
{
    const xf_symbol *s = ref_sym(w, r, deriv, true);
    if (!s)
        return CT_BAD;
    const xf_arrref *a = xf_varref_arrref(r);
    int rank = xf_shape_rank(s->shape);
    if (a && rank <= 0) {
        cw_refuse(w, r->h.line, "the scalar %s has subscripts", s->id);
        return CT_BAD;
    }
    if (!a && rank > 0) {
        int64_t n = cw_extent(w, s, r->h.line);
        if (n < 0)
            return CT_BAD;
        if (!w->ek) {
            cw_refuse(w, r->h.line, "the whole array %s where one element is wanted", s->id);
            return CT_BAD;
        }
        fprintf(w->o, "%s[%s]", cname(w, s, deriv), n == 1 && !cw_rt(s) ? "0" : w->ek);
        return cw_type_of_sym(s);
    }
    if (!a) {
        fprintf(w->o, w->syms[s->index].formal ? "(*%s)" : "%s", cname(w, s, deriv));
        return cw_type_of_sym(s);
    }
    fprintf(w->o, "%s[", cname(w, s, deriv));
    if (!offset(w, s, a, r->h.line))
        return CT_BAD;
    fputs("]", w->o);
    return cw_type_of_sym(s);
}

void
cw_scalar(cw *w, const xf_symbol *s)
{
    fprintf(w->o, w->syms[s->index].formal ? "(*%s)" : "%s", cname(w, s, false));
}

bool
cw_count(cw *w, const xf_varref *r)
{
    const xf_symbol *s = ref_sym(w, r, false, false);
    if (!s)
        return false;
    int rank = xf_shape_rank(s->shape);
    const xf_arrref *a = xf_varref_arrref(r);
    int64_t n = cw_extent(w, s, r->h.line);
    if (n < 0)
        return false;
    if (!a && rank > 0 && cw_rt(s))
        return cw_rt_count(w, s, r->h.line);
    if (!a) {
        fprintf(w->o, "%lldL", (long long)(rank > 0 ? n : 1));
        return true;
    }
    if (rank <= 0 || (int)a->t.n != rank) {
        cw_refuse(w, r->h.line, "%s has rank %d but %u subscripts", s->id, rank, a->t.n);
        return false;
    }
    fputs("1L", w->o);
    for (int k = 0; k < rank; k++) {
        const xf_triplet *t = &a->t.v[k];
        if (fixed(t))
            continue;
        fputs(" * ", w->o);
        if (!sect_ext(w, s, t, &s->dims.v[rank - 1 - k], r->h.line))
            return false;
    }
    return true;
}

bool
cw_mentions(const xf_expr *x, const xf_symbol *s)
{
    for (uint32_t i = 0; i < x->v.n; i++) {
        const xf_evertex *v = &x->v.v[i];
        if (v->kind != XF_EV_VARREF)
            continue;
        const xf_symref *sr = xf_varref_symref(v->u.ref);
        if (sr && sr->sym == s)
            return true;
    }
    return false;
}

void
cw_addr(cw *w, const xf_varref *r, bool deriv)
{
    const xf_symbol *s = ref_sym(w, r, deriv, true);
    if (!s)
        return;
    const char *n = cname(w, s, deriv);
    if (xf_varref_arrref(r)) {
        fputs("&", w->o);
        cw_ref(w, r, deriv);
    } else if (xf_shape_rank(s->shape) > 0 || w->syms[s->index].formal)
        fputs(n, w->o);
    else
        fprintf(w->o, "&%s", n);
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
    {"sin_scal", "sin"},
    {"cos_scal", "cos"},
    {"tan_scal", "tan"},
    {"arcsin_scal", "asin"},
    {"arccos_scal", "acos"},
    {"arctan_scal", "atan"},
    {"sinh_scal", "sinh"},
    {"cosh_scal", "cosh"},
    {"tanh_scal", "tanh"},
    {"exp_scal", "exp"},
    {"ln_scal", "log"},
    {"log10", "log10"},
    {"sqrt_scal", "sqrt"},
    /* C99 <math.h> (schema/intrinsics.xaif) */
    {"cbrt_scal", "cbrt"},
    {"log1p_scal", "log1p"},
    {"expm1_scal", "expm1"},
    {"log2_scal", "log2"},
    {"exp2_scal", "exp2"},
    {"erf_scal", "erf"},
    {"erfc_scal", "erfc"},
    {"asinh_scal", "asinh"},
    {"acosh_scal", "acosh"},
    {"atanh_scal", "atanh"},
    {"lgamma_scal", "lgamma"},
    {"tgamma_scal", "tgamma"},
    {"floor_scal", "floor"},
    {"ceil_scal", "ceil"},
    {"round_scal", "round"},
    {"trunc_scal", "trunc"},
    {"rint_scal", "rint"},
    {"digamma_scal", "xf_ad_digamma"},
};

/* Two real arguments; ldexp's second is an int. */
static const char *const math2[][2] = {
    {"atan2_scal_scal", "atan2"},
    {"hypot_scal_scal", "hypot"},
    {"copysign_scal_scal", "copysign"},
    {"remainder_scal_scal", "remainder"},
};

static const char *const binop[][2] = {
    {"add_scal_scal", "+"}, {"sub_scal_scal", "-"},
    {"mul_scal_scal", "*"}, {"div_scal_scal", "/"},
    {"less_than", "<"},     {"less_or_equal", "<="},
    {"greater_than", ">"},  {"greater_or_equal", ">="},
    {"equal", "=="},        {"not_equal", "!="},
    {"and", "&&"},          {"or", "||"},
};

static cw_type vertex(cw *w, const ops *o, uint32_t v, int depth);

/* Write operand @pos (from 1) of vertex @v. */
static cw_type
operand(cw *w, const ops *o, uint32_t v, int pos, int depth)
{
    uint32_t n = o->first[v + 1] - o->first[v];
    if ((uint32_t)pos > n) {
        cw_refuse(w, o->x->v.v[v].h.line, "%s lacks operand %d", o->x->v.v[v].u.in.name, pos);
        return CT_BAD;
    }
    const xf_eedge *e = &o->x->e.v[o->edge[o->first[v] + (uint32_t)pos - 1]];
    if (e->pos != pos) {
        cw_refuse(w, e->h.line, "operand positions of %s are not 1, 2, ...",
                  o->x->v.v[v].u.in.name);
        return CT_BAD;
    }
    return vertex(w, o, e->src, depth + 1);
}

static void
constant(cw *w, const xf_evertex *c, cw_type *t)
{
    const char *val = c->u.c.value ? c->u.c.value : "";
    switch (c->u.c.type) {
    case XF_TYPE_INTEGER: {
        char *end;
        long long v = strtoll(val, &end, 10);
        if (*val && !*end) {
            /* An int-sized constant stays int: `i + 1` with an int i is then int
             * arithmetic, which gcc can widen into a pointer-sized induction
             * variable (an int stepped by 1L is truncated each iteration). */
            if (v >= INT_MIN && v <= INT_MAX)
                fprintf(w->o, v < 0 ? "(%lld)" : "%lld", v);
            else
                fprintf(w->o, v < 0 ? "(%lldL)" : "%lldL", v);
            *t = CT_INT;
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
        /* a REAL*4 literal is rounded to single precision; a C float
         * literal (a document from a C front end) is also written as one,
         * so that float arithmetic stays float as in the source */
        bool f4 = c->u.c.fetype && !strcmp(c->u.c.fetype, "F4");
        if (f4)
            v = (double)(float)v;
        f4 = f4 && w->c_types && isfinite(v);
        char out[40];
        snprintf(out, sizeof out, f4 ? "%.9g" : "%.17g", v);
        bool dot = strpbrk(out, ".eE") != NULL;
        fprintf(w->o, v < 0 ? "(%s%s%s)" : "%s%s%s", out, dot ? "" : ".0", f4 ? "f" : "");
        *t = CT_REAL;
        return;
    }
    case XF_TYPE_BOOL:
        if (!strcasecmp(val, "true") || !strcmp(val, "1") || !strcasecmp(val, ".true.")) {
            fputs("1", w->o);
            *t = CT_BOOL;
            return;
        }
        if (!strcasecmp(val, "false") || !strcmp(val, "0") || !strcasecmp(val, ".false.")) {
            fputs("0", w->o);
            *t = CT_BOOL;
            return;
        }
        break;
    case XF_TYPE_NONE:
    case XF_TYPE_VOID:
    case XF_TYPE_COMPLEX:
    case XF_TYPE_CHAR:
    case XF_TYPE_STRING:
    case XF_TYPE_OPAQUE:
        break;
    }
    cw_refuse(w, c->h.line, "the constant '%s' of type %s has no C here", val,
              c->u.c.type ? xf_type_name(c->u.c.type) : "(none)");
    *t = CT_BAD;
}

/* Operand types of @name's operands: written to a scratch stream first so
 * that the call can pick its C function by them. */
static cw_type
probe(cw *w, const ops *o, uint32_t v, int pos, int depth, char **text)
{
    FILE *saved = w->o;
    size_t len;
    FILE *m = open_memstream(text, &len);
    if (!m) {
        cw_refuse(w, 0, "out of memory");
        return CT_BAD;
    }
    w->o = m;
    cw_type t = operand(w, o, v, pos, depth);
    fclose(m);
    w->o = saved;
    return t;
}

/* Integer arithmetic written as it reads: an operation whose one operand is
 * an identity (x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1) is written as its
 * other operand, and x + (-c) as x - c, x - (-c) as x + c. Each is exact
 * for every value, division and overflow included; an identity is dropped
 * only where the other operand is a long already (C's int + 0L is a long,
 * and later arithmetic must stay in long). */

/* The vertex of operand @pos of @v (its positions were checked). */
static uint32_t
operand_vertex(const ops *o, uint32_t v, int pos)
{
    return o->x->e.v[o->edge[o->first[v] + (uint32_t)pos - 1]].src;
}

static bool
int_constant(const ops *o, uint32_t v, long long *c)
{
    const xf_evertex *x = &o->x->v.v[v];
    if (x->kind != XF_EV_CONSTANT || x->u.c.type != XF_TYPE_INTEGER || !x->u.c.value)
        return false;
    char *end;
    errno = 0;
    *c = strtoll(x->u.c.value, &end, 10);
    return *x->u.c.value && !*end && errno == 0 && *c != LLONG_MIN;
}

/* Whether vertex @v is written as a C long: a literal, or arithmetic with
 * a long operand (false where unknown, as for an int variable). */
static bool
long_typed(const ops *o, uint32_t v, int depth)
{
    const xf_evertex *x = &o->x->v.v[v];
    long long c;
    if (int_constant(o, v, &c))
        return true;
    if (depth > 16 || x->kind != XF_EV_INTRINSIC || !x->u.in.name)
        return false;
    const char *n = x->u.in.name;
    uint32_t nops = o->first[v + 1] - o->first[v];
    if (!strcmp(n, "int_scal") || !strcmp(n, "nint_scal"))
        return true;
    bool arith = nops == 2 && (!strcmp(n, "add_scal_scal") || !strcmp(n, "sub_scal_scal") ||
                               !strcmp(n, "mul_scal_scal") || !strcmp(n, "div_scal_scal"));
    if (arith)
        return long_typed(o, operand_vertex(o, v, 1), depth + 1) ||
               long_typed(o, operand_vertex(o, v, 2), depth + 1);
    if (nops == 1 && !strcmp(n, "minus_scal"))
        return long_typed(o, operand_vertex(o, v, 1), depth + 1);
    return false;
}

/* The operand under a chain of integer constants added to or subtracted
 * from @v (and of multiplications and divisions by 1), their sum added to
 * @*sum; @v itself where there is none or the sum would overflow. */
static uint32_t
const_chain(const ops *o, uint32_t v, long long *sum)
{
    for (int depth = 0; depth < 64; depth++) {
        const xf_evertex *x = &o->x->v.v[v];
        long long c, s;
        if (x->kind != XF_EV_INTRINSIC || !x->u.in.name || o->first[v + 1] - o->first[v] != 2)
            return v;
        if (!strcmp(x->u.in.name, "mul_scal_scal") || !strcmp(x->u.in.name, "div_scal_scal")) {
            if (!int_constant(o, operand_vertex(o, v, 2), &c) || c != 1)
                return v;
            v = operand_vertex(o, v, 1); /* x * 1, x / 1 */
            continue;
        }
        bool add = !strcmp(x->u.in.name, "add_scal_scal");
        if (!add && strcmp(x->u.in.name, "sub_scal_scal"))
            return v;
        if (!int_constant(o, operand_vertex(o, v, 2), &c) ||
            __builtin_add_overflow(*sum, add ? c : -c, &s))
            return v;
        *sum = s;
        v = operand_vertex(o, v, 1);
    }
    return v;
}

/* x + c1 + c2 ... (any of them - instead) as x + (c1 + c2 ...), or as x
 * where they sum to 0 and x is a long: its value wherever the original's
 * is defined (the original overflows where the result would). */
static bool
fold_chain(cw *w, const ops *o, uint32_t inner, long long sum, int depth)
{
    uint32_t base = const_chain(o, inner, &sum);
    if (base == inner || (sum == 0 && !long_typed(o, base, 0)) || sum == LLONG_MIN)
        return false;
    if (sum != 0)
        fputc('(', w->o);
    if (vertex(w, o, base, depth + 1) == CT_BAD)
        return true;
    if (sum != 0)
        fprintf(w->o, sum >= -INT_MAX && sum <= INT_MAX ? " %c %lld)" : " %c %lldL)",
                sum < 0 ? '-' : '+', sum < 0 ? -sum : sum);
    return true;
}

/* Write integer operation @op (0 +, 1 -, 2 *, 3 /) of @v folded, if one of
 * the folds above applies; @a and @b are its operands' text. */
static bool
fold_int(cw *w, const ops *o, uint32_t v, int depth, size_t op, const char *a, const char *b)
{
    uint32_t va = operand_vertex(o, v, 1), vb = operand_vertex(o, v, 2);
    long long ca, cb;
    bool ka = int_constant(o, va, &ca), kb = int_constant(o, vb, &cb);
    if (kb && op <= 1 && cb != 0 && fold_chain(w, o, va, op == 0 ? cb : -cb, depth))
        return true;
    if (ka && op == 0 && ca != 0 && fold_chain(w, o, vb, ca, depth))
        return true;
    const char *keep = NULL;
    if (kb && ((op <= 1 && cb == 0) || (op >= 2 && cb == 1)) && long_typed(o, va, 0))
        keep = a;
    else if (ka && ((op == 0 && ca == 0) || (op == 2 && ca == 1)) && long_typed(o, vb, 0))
        keep = b;
    if (keep) {
        fputs(keep, w->o);
        return true;
    }
    if (kb && op <= 1 && cb < 0) {
        fprintf(w->o, -cb <= INT_MAX ? "(%s %s %lld)" : "(%s %s %lldL)", a, op == 0 ? "-" : "+",
                -cb);
        return true;
    }
    return false;
}

/* The cast written before a <math.h> function's argument of type @t: none
 * for a real (C converts a float argument to the prototype's double as the
 * cast would), "(double)" for an integer, so that the conversion shows, and
 * for the runtime's own xf_ad_ functions. */
static const char *
as_double(const char *fn, cw_type t)
{
    return t == CT_REAL && strncmp(fn, "xf_ad_", 6) != 0 ? "" : "(double)";
}

static cw_type
intrinsic(cw *w, const ops *o, uint32_t v, int depth)
{
    const xf_evertex *x = &o->x->v.v[v];
    const char *n = x->u.in.name ? x->u.in.name : "";
    uint32_t nops = o->first[v + 1] - o->first[v];
    char *a = NULL, *b = NULL;
    cw_type ta = CT_BAD, tb = CT_BAD, t = CT_BAD;
    if (nops < 1 || nops > 2) {
        cw_refuse(w, x->h.line, "%s with %u operands", n, nops);
        return CT_BAD;
    }
    ta = probe(w, o, v, 1, depth, &a);
    if (nops == 2)
        tb = probe(w, o, v, 2, depth, &b);
    if (ta == CT_BAD || (nops == 2 && tb == CT_BAD))
        goto out;
    bool real = ta == CT_REAL || (nops == 2 && tb == CT_REAL);
    if (nops == 1) {
        for (size_t i = 0; i < sizeof math1 / sizeof *math1; i++)
            if (!strcmp(n, math1[i][0])) {
                fprintf(w->o, "%s(%s%s)", math1[i][1], as_double(math1[i][1], ta), a);
                t = CT_REAL;
                goto out;
            }
        if (!strcmp(n, "minus_scal")) {
            fprintf(w->o, "(-%s)", a);
            t = ta == CT_REAL ? CT_REAL : CT_INT;
        } else if (!strcmp(n, "abs_scal")) {
            fprintf(w->o, real ? "fabs(%s)" : "labs(%s)", a);
            t = real ? CT_REAL : CT_INT;
        } else if (!strcmp(n, "int_scal")) {
            fprintf(w->o, "((long)%s)", a);
            t = CT_INT;
        } else if (!strcmp(n, "nint_scal")) {
            fprintf(w->o, "lround((double)%s)", a);
            t = CT_INT;
        } else if (!strcmp(n, "real_scal")) {
            fprintf(w->o, "((double)%s)", a);
            t = CT_REAL;
        } else if (!strcmp(n, "not")) {
            fprintf(w->o, "(!%s)", a);
            t = CT_BOOL;
        } else
            cw_refuse(w, x->h.line, "the intrinsic %s has no C here", n);
        goto out;
    }
    for (size_t i = 0; i < sizeof binop / sizeof *binop; i++)
        if (!strcmp(n, binop[i][0])) {
            if (i < 4 && ta == CT_INT && tb == CT_INT && fold_int(w, o, v, depth, i, a, b)) {
                t = CT_INT;
                goto out;
            }
            fprintf(w->o, "(%s %s %s)", a, binop[i][1], b);
            t = i < 4 ? (real ? CT_REAL : CT_INT) : CT_BOOL;
            goto out;
        }
    for (size_t i = 0; i < sizeof math2 / sizeof *math2; i++)
        if (!strcmp(n, math2[i][0])) {
            fprintf(w->o, "%s(%s%s, %s%s)", math2[i][1], as_double(math2[i][1], ta), a,
                    as_double(math2[i][1], tb), b);
            t = CT_REAL;
            goto out;
        }
    if (!strcmp(n, "ldexp_scal_scal")) {
        fprintf(w->o, "ldexp((double)%s, (int)%s)", a, b);
        t = CT_REAL;
    } else if (!strcmp(n, "pow_scal_scal")) {
        if (tb != CT_REAL) {
            fprintf(w->o, ta == CT_REAL ? "xf_ad_powi(%s, %s)" : "xf_ad_ipow(%s, %s)", a, b);
            t = ta == CT_REAL ? CT_REAL : CT_INT;
        } else {
            fprintf(w->o, "pow(%s%s, %s)", as_double("pow", ta), a, b);
            t = CT_REAL;
        }
    } else if (!strcmp(n, "mod_scal_scal")) {
        fprintf(w->o, real ? "fmod((double)%s, (double)%s)" : "(%s %% %s)", a, b);
        t = real ? CT_REAL : CT_INT;
    } else if (!strcmp(n, "sign_scal_scal")) {
        fprintf(w->o, real ? "xf_ad_sign(%s, %s)" : "xf_ad_isign(%s, %s)", a, b);
        t = real ? CT_REAL : CT_INT;
    } else if (!strcmp(n, "nc_min_scal_scal") || !strcmp(n, "nc_max_scal_scal")) {
        bool mx = n[3] == 'm' && n[4] == 'a';
        fprintf(w->o, "xf_ad_%s%s(%s, %s)", real ? "f" : "l", mx ? "max" : "min", a, b);
        t = real ? CT_REAL : CT_INT;
    } else if (!strcmp(n, "xor")) {
        fprintf(w->o, "(!%s != !%s)", a, b);
        t = CT_BOOL;
    } else
        cw_refuse(w, x->h.line, "the intrinsic %s has no C here", n);
out:
    free(a);
    free(b);
    return w->failed ? CT_BAD : t;
}

static cw_type
vertex(cw *w, const ops *o, uint32_t v, int depth)
{
    const xf_evertex *x = &o->x->v.v[v];
    if (depth > MAX_DEPTH) {
        cw_refuse(w, x->h.line, "an expression nested deeper than %d", MAX_DEPTH);
        return CT_BAD;
    }
    cw_type t = CT_BAD;
    switch (x->kind) {
    case XF_EV_VARREF:
        return cw_ref(w, x->u.ref, xf_flag_is(x->u.ref->deriv, false));
    case XF_EV_CONSTANT:
        constant(w, x, &t);
        return t;
    case XF_EV_INTRINSIC:
    case XF_EV_BOOLOP:
        return intrinsic(w, o, v, depth);
    case XF_EV_FUNCALL:
        cw_refuse(w, x->h.line, "a FunctionCall (front ends make these subroutine calls)");
        return CT_BAD;
    case XF_EV_ARGREF:
        cw_refuse(w, x->h.line, "an ArgumentReference outside a catalogue");
        return CT_BAD;
    }
    return CT_BAD;
}

cw_type
cw_expr(cw *w, const xf_expr *x)
{
    uint32_t root = xf_expr_root(x);
    if (root == UINT32_MAX) {
        cw_refuse(w, x->h.line, "an expression without one root");
        return CT_BAD;
    }
    return cw_expr_at(w, x, root);
}

cw_type
cw_expr_at(cw *w, const xf_expr *x, uint32_t root)
{
    ops o = {.x = x};
    o.first = calloc((size_t)x->v.n + 1, sizeof *o.first);
    o.edge = calloc((size_t)x->e.n + 1, sizeof *o.edge);
    ekey *k = calloc((size_t)x->e.n + 1, sizeof *k);
    cw_type t = CT_BAD;
    if (!o.first || !o.edge || !k) {
        cw_refuse(w, x->h.line, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < x->e.n; i++) {
        if (x->e.v[i].tgt >= x->v.n || x->e.v[i].src >= x->v.n) {
            cw_refuse(w, x->e.v[i].h.line, "an expression edge to nowhere");
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
