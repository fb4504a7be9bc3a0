/* dot_text.c: statements, expressions and references as one-line
 * pseudo-code for the pictures of xaiform dot ("Y_2(1) = sin_scal(T_3)",
 * "CALL foo(X_1(1), Y_2)", "Sax d(Y) = OpenAD_lin_0*d(X)"). The text is
 * for people: operators of the catalogue's arithmetic intrinsics are shown
 * infix with the parentheses the expression graph needs, long real
 * constants are shortened when that keeps their value, and a text that does
 * not fit its buffer ends in "...". */
#include "dot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Expressions nested deeper than this are shown as "..." (input-driven recursion). */
enum { MAX_DEPTH = 64 };

/* A bounded output buffer: writes past the end are dropped and remembered. */
typedef struct out {
    char *p;
    size_t n, len; /* used (without the NUL), capacity (with it) */
    bool cut;
} out;

static void
put(out *o, const char *s)
{
    size_t k = strlen(s);
    if (o->cut || o->len == 0)
        return;
    if (o->n + k + 1 > o->len) {
        k = o->len - 1 - o->n;
        o->cut = true;
    }
    memcpy(o->p + o->n, s, k);
    o->n += k;
    o->p[o->n] = 0;
}

/* Close @o: a cut text ends in "...". Returns the text. */
static const char *
finish(out *o)
{
    if (o->len == 0)
        return "";
    if (o->cut && o->len >= 4) {
        size_t at = o->n >= 3 ? o->n - 3 : 0;
        memcpy(o->p + at, "...", 4);
    }
    return o->p;
}

static out
out_init(char *buf, size_t len)
{
    out o = {buf, 0, len, false};
    if (len)
        buf[0] = 0;
    return o;
}

/* ------------------------------------------------------------ constants */

/* A real constant's text, shortened to %g when that keeps its value
 * ("3.00000000000000000000e+00" -> "3"). */
static void
put_real(out *o, const char *v)
{
    char *end;
    double d = strtod(v, &end);
    char buf[32];
    if (*v && !*end) {
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, d);
            if (strtod(buf, NULL) == d && strlen(buf) < strlen(v)) {
                put(o, buf);
                return;
            }
        }
    }
    put(o, v);
}

static void
put_constant(out *o, const xf_evertex *c)
{
    const char *v = c->u.c.value ? c->u.c.value : "?";
    switch (c->u.c.type) {
    case XF_TYPE_STRING:
    case XF_TYPE_CHAR:
        put(o, "'");
        put(o, v);
        put(o, "'");
        return;
    case XF_TYPE_REAL:
    case XF_TYPE_DOUBLE:
        put_real(o, v);
        return;
    case XF_TYPE_NONE:
    case XF_TYPE_VOID:
    case XF_TYPE_INTEGER:
    case XF_TYPE_COMPLEX:
    case XF_TYPE_BOOL:
    case XF_TYPE_OPAQUE:
        put(o, v);
        return;
    }
}

/* ------------------------------------------------------------ references */

static void put_expr(out *o, const xf_expr *x, uint32_t v, int need, int depth);

static void
put_sub(out *o, const xf_expr *e, int depth)
{
    if (e)
        put_expr(o, e, xf_expr_root(e), 0, depth + 1);
}

static void
put_ref(out *o, const xf_varref *r, int depth)
{
    if (!r->v.n) {
        put(o, "?");
        return;
    }
    bool first = true;
    for (uint32_t i = 0; i < r->v.n; i++) {
        const xf_vrvertex *v = &r->v.v[i];
        if (v->kind == XF_VR_SYMBOL) {
            if (!first)
                put(o, "%");
            put(o, v->u.sym.sym ? v->u.sym.sym->id : v->u.sym.id ? v->u.sym.id : "?");
            first = false;
            continue;
        }
        put(o, "(");
        for (uint32_t k = 0; k < v->u.arr.t.n; k++) {
            const xf_triplet *t = &v->u.arr.t.v[k];
            if (k)
                put(o, ", ");
            if (depth > MAX_DEPTH) {
                put(o, "...");
                continue;
            }
            put_sub(o, t->index, depth);
            if (t->bound || t->stride || !t->index)
                put(o, ":");
            put_sub(o, t->bound, depth);
            if (t->stride) {
                put(o, ":");
                put_sub(o, t->stride, depth);
            }
        }
        put(o, ")");
    }
}

/* A reference, as d(REF) when @deriv. */
static void
put_ref_d(out *o, const xf_varref *r, bool deriv, int depth)
{
    if (deriv)
        put(o, "d(");
    put_ref(o, r, depth);
    if (deriv)
        put(o, ")");
}

/* ------------------------------------------------------------ expressions */

/* Operators shown infix: the catalogue's names, their spelling and binding
 * (higher binds tighter); unary ones have no left operand. */
typedef struct infix {
    const char *name, *text;
    int prec;
    bool unary, right; /* right: right-associative */
} infix;

static const infix ops[] = {
    {"or", " or ", 1, false, false},
    {"and", " and ", 2, false, false},
    {"not", "not ", 3, true, false},
    {"less_than", " < ", 4, false, false},
    {"less_or_equal", " <= ", 4, false, false},
    {"greater_than", " > ", 4, false, false},
    {"greater_or_equal", " >= ", 4, false, false},
    {"equal", " == ", 4, false, false},
    {"not_equal", " != ", 4, false, false},
    {"add_scal_scal", " + ", 5, false, false},
    {"sub_scal_scal", " - ", 5, false, false},
    {"mul_scal_scal", "*", 6, false, false},
    {"div_scal_scal", "/", 6, false, false},
    {"minus_scal", "-", 7, true, false},
    {"pow_scal_scal", "**", 8, false, true},
};
enum { PREC_ATOM = 9 };

static const infix *
find_op(const char *name, uint32_t nargs)
{
    for (size_t i = 0; name && i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(ops[i].name, name) && nargs == (ops[i].unary ? 1u : 2u))
            return &ops[i];
    return NULL;
}

/* The operands of vertex @v ordered by position: up to @max indices into
 * @args (edges without a position after the others, in document order).
 * Returns their number. */
static uint32_t
operands(const xf_expr *x, uint32_t v, uint32_t *args, uint32_t max)
{
    int64_t pos[16];
    uint32_t n = 0;
    if (max > 16)
        max = 16;
    for (uint32_t e = 0; e < x->e.n && n < max; e++) {
        const xf_eedge *ed = &x->e.v[e];
        if (ed->tgt != v || ed->src >= x->v.n)
            continue;
        int64_t p = ed->pos == XF_NOINT ? INT64_MAX : ed->pos;
        uint32_t k = n++;
        for (; k > 0 && pos[k - 1] > p; k--) {
            pos[k] = pos[k - 1];
            args[k] = args[k - 1];
        }
        pos[k] = p;
        args[k] = ed->src;
    }
    return n;
}

static void
put_call(out *o, const char *name, const xf_expr *x, const uint32_t *args, uint32_t n, int depth)
{
    put(o, name ? name : "?");
    put(o, "(");
    for (uint32_t k = 0; k < n; k++) {
        if (k)
            put(o, ", ");
        put_expr(o, x, args[k], 0, depth + 1);
    }
    put(o, ")");
}

/* Vertex @v of @x; parenthesized when it binds less tightly than @need. */
static void
put_expr(out *o, const xf_expr *x, uint32_t v, int need, int depth)
{
    if (v >= x->v.n || depth > MAX_DEPTH) {
        put(o, v >= x->v.n ? "?" : "...");
        return;
    }
    const xf_evertex *ev = &x->v.v[v];
    uint32_t args[16] = {0};
    uint32_t n;
    switch (ev->kind) {
    case XF_EV_VARREF:
        if (ev->u.ref)
            put_ref_d(o, ev->u.ref, xf_flag_is(ev->u.ref->deriv, false), depth);
        else
            put(o, "?");
        return;
    case XF_EV_CONSTANT:
        put_constant(o, ev);
        return;
    case XF_EV_ARGREF: {
        char buf[32];
        snprintf(buf, sizeof buf, "arg%lld", (long long)ev->u.arg);
        put(o, buf);
        return;
    }
    case XF_EV_FUNCALL:
        n = operands(x, v, args, 16);
        put_call(o, ev->u.fn.sym ? ev->u.fn.sym->id : "?", x, args, n, depth);
        return;
    case XF_EV_INTRINSIC:
    case XF_EV_BOOLOP:
        break;
    }
    n = operands(x, v, args, 16);
    const infix *p = find_op(ev->u.in.name, n);
    if (!p) {
        put_call(o, ev->u.in.name, x, args, n, depth);
        return;
    }
    bool paren = p->prec < need;
    if (paren)
        put(o, "(");
    if (p->unary) {
        put(o, p->text);
        put_expr(o, x, args[0], p->prec, depth + 1);
    } else {
        put_expr(o, x, args[0], p->right ? p->prec + 1 : p->prec, depth + 1);
        put(o, p->text);
        put_expr(o, x, args[1], p->right ? p->prec : p->prec + 1, depth + 1);
    }
    if (paren)
        put(o, ")");
}

const char *
xf_dot_expr_text(const xf_expr *x, uint32_t v, char *buf, size_t len)
{
    out o = out_init(buf, len);
    if (v == UINT32_MAX)
        v = xf_expr_root(x);
    if (x->v.n == 0)
        put(&o, "");
    else
        put_expr(&o, x, v, 0, 0);
    return finish(&o);
}

const char *
xf_dot_ref_text(const xf_varref *r, char *buf, size_t len)
{
    out o = out_init(buf, len);
    put_ref(&o, r, 0);
    return finish(&o);
}

/* ------------------------------------------------------------ statements */

static void
put_args(out *o, const xf_arg_vec *a)
{
    put(o, "(");
    for (uint32_t k = 0; k < a->n; k++) {
        if (k)
            put(o, ", ");
        const xf_expr *x = &a->v[k].val;
        put_expr(o, x, x->v.n == 1 ? 0 : xf_expr_root(x), 0, 1);
    }
    put(o, ")");
}

static void
put_dpop(out *o, const xf_dpop *op)
{
    switch (op->kind) {
    case XF_DP_SETDERIV:
    case XF_DP_SETNEGDERIV:
    case XF_DP_INCDERIV:
    case XF_DP_DECDERIV: {
        static const char *const names[] = {"SetDeriv ", "SetNegDeriv ", "IncDeriv ", "DecDeriv "};
        static const char *const mid[] = {" = ", " = -", " += ", " -= "};
        put(o, names[op->kind - XF_DP_SETDERIV]);
        put_ref_d(o, &op->tgt, true, 0);
        put(o, mid[op->kind - XF_DP_SETDERIV]);
        put_ref_d(o, &op->src, true, 0);
        return;
    }
    case XF_DP_ZERODERIV:
        put(o, "ZeroDeriv ");
        put_ref_d(o, &op->tgt, true, 0);
        put(o, " = 0");
        return;
    case XF_DP_SAX:
    case XF_DP_SAXPY:
        put(o, op->kind == XF_DP_SAX ? "Sax " : "Saxpy ");
        put_ref_d(o, &op->y, true, 0);
        put(o, op->kind == XF_DP_SAX ? " = " : " += ");
        for (uint32_t k = 0; k < op->ax.n; k++) {
            const xf_ax *ax = &op->ax.v[k];
            if (k)
                put(o, " + ");
            /* a factor binds as a product's left operand */
            put_expr(o, &ax->a, xf_expr_root(&ax->a), 6, 1);
            put(o, "*");
            put_ref_d(o, &ax->x, true, 0);
        }
        return;
    }
}

uint32_t
xf_dot_stmt_lines(const xf_stmt *s)
{
    return s->kind == XF_STMT_DERIVPROP ? s->u.dp.n : 1;
}

const char *
xf_dot_stmt_text(const xf_stmt *s, uint32_t k, char *buf, size_t len)
{
    out o = out_init(buf, len);
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        put_ref_d(&o, &s->u.as.lhs, xf_flag_is(s->u.as.lhs.deriv, false), 0);
        put(&o, " = ");
        put_expr(&o, &s->u.as.rhs, xf_expr_root(&s->u.as.rhs), 0, 0);
        break;
    case XF_STMT_CALL:
        put(&o, "CALL ");
        put(&o, s->u.call.sym ? s->u.call.sym->id : "?");
        put_args(&o, &s->u.call.args);
        break;
    case XF_STMT_ICALL:
        put(&o, s->u.icall.name ? s->u.icall.name : "?");
        put_args(&o, &s->u.icall.args);
        break;
    case XF_STMT_MARKER:
        put(&o, "marker");
        break;
    case XF_STMT_DERIVPROP:
        if (k < s->u.dp.n)
            put_dpop(&o, &s->u.dp.v[k]);
        break;
    }
    return finish(&o);
}
