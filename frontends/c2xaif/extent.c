/* extent.c: extents of pointer and array parameters known only at run time
 * (docs/c-frontend.md, "Sizes known at run time"). An extent is an integer
 * C expression over the function's int parameters and constants: given by
 * --extent x=n*d, read from a C99 variable-length array parameter (double
 * a[n][m]), or found from the loops that index the pointer (every use
 * p[i] under for (i = 0; i < E; i++), or p[k] with k constant). It is
 * written in the symbol's annotation for the C back end, which evaluates it
 * at run time (docs/c-backend.md). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cf.h"

/* The int parameter of @f named by @id (@len bytes), or NULL. */
static cf_sym *
int_formal(cf_fn *f, const char *id, size_t len)
{
    for (uint32_t i = 0; i < f->formals.n; i++) {
        cf_sym *s = f->formals.v[i];
        if (s->type == CF_INT && s->rank == 0 && strlen(s->name) == len &&
            strncmp(s->name, id, len) == 0)
            return s;
    }
    return NULL;
}

const char *
cf_rt_text(cf *c, cf_fn *f, const char *text, CXCursor at, const char *what)
{
    char *out = cf_alloc(c, strlen(text) + 1), *o = out;
    int depth = 0;
    bool operand = false; /* the last token was an operand */
    for (const char *p = text; *p;) {
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        const char *q = p;
        if (isalpha((unsigned char)*p) || *p == '_') {
            while (isalnum((unsigned char)*q) || *q == '_')
                q++;
            if (operand || !int_formal(f, p, (size_t)(q - p)))
                cf_refuse(c, at,
                          "%s: '%.*s' is no int parameter of '%s' (an extent is an expression of "
                          "the int parameters and integer constants: x=n*d)",
                          what, (int)(q - p), p, f->name);
            operand = true;
        } else if (isdigit((unsigned char)*p)) {
            while (isdigit((unsigned char)*q))
                q++;
            if (operand || isalpha((unsigned char)*q) || *q == '.')
                cf_refuse(c, at, "%s: not an integer expression", what);
            operand = true;
        } else if (strchr("+-*/%", *p) && (operand || *p == '-' || *p == '+')) {
            q++;
            operand = false;
        } else if (*p == '(' && !operand) {
            q++, depth++;
        } else if (*p == ')' && operand && depth > 0) {
            q++, depth--;
        } else
            cf_refuse(c, at,
                      "%s: '%c' is not allowed in an extent (an expression of the int "
                      "parameters and integer constants with + - * / %% and parentheses)",
                      what, *p);
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        p = q;
    }
    *o = 0;
    if (!operand || depth)
        cf_refuse(c, at, "%s: not an integer expression", what);
    return out;
}

/* ------------------------------------------------ extents from the loops */

static bool
expr_eq(const cf_expr *a, const cf_expr *b)
{
    if (a->kind != b->kind || a->nargs != b->nargs || a->nsub != b->nsub)
        return false;
    switch (a->kind) {
    case CF_E_VAR:
        return a->sym == b->sym && a->nsub == 0;
    case CF_E_INT:
        return a->ival == b->ival;
    case CF_E_REAL:
        return false;
    case CF_E_OP:
    case CF_E_BOOL:
        if (strcmp(a->op, b->op))
            return false;
        for (int i = 0; i < a->nargs; i++)
            if (!expr_eq(a->a[i], b->a[i]))
                return false;
        return true;
    }
    return false;
}

/* @e as C text over the int parameters, or false when it names anything
 * else (a local, a real, an element). */
static bool
expr_text(const cf_expr *e, char *buf, size_t len)
{
    static const char *const ops[][2] = {{"add_scal_scal", "+"},
                                         {"sub_scal_scal", "-"},
                                         {"mul_scal_scal", "*"},
                                         {"div_scal_scal", "/"},
                                         {"mod_scal_scal", "%"}};
    size_t n = strlen(buf);
    if (n + 32 >= len)
        return false;
    switch (e->kind) {
    case CF_E_VAR:
        if (e->nsub || e->sym->type != CF_INT || e->sym->rank || !e->sym->formal)
            return false;
        snprintf(buf + n, len - n, "%s", e->sym->name);
        return true;
    case CF_E_INT:
        snprintf(buf + n, len - n, "%lld", (long long)e->ival);
        return true;
    case CF_E_OP:
        if (e->nargs == 1 && strcmp(e->op, "minus_scal") == 0) {
            strcat(buf, "-(");
            if (!expr_text(e->a[0], buf, len))
                return false;
            strcat(buf, ")");
            return true;
        }
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
            if (e->nargs == 2 && strcmp(e->op, ops[k][0]) == 0) {
                strcat(buf, "(");
                if (!expr_text(e->a[0], buf, len))
                    return false;
                n = strlen(buf);
                if (n + 8 >= len)
                    return false;
                snprintf(buf + n, len - n, " %s ", ops[k][1]);
                if (!expr_text(e->a[1], buf, len))
                    return false;
                n = strlen(buf);
                if (n + 2 >= len)
                    return false;
                strcat(buf, ")");
                return true;
            }
        return false;
    case CF_E_REAL:
    case CF_E_BOOL:
        return false;
    }
    return false;
}

bool
cf_rt_loop(cf *c, const cf_stmt *init, const cf_expr *cond, const cf_stmt *inc, cf_bound *b)
{
    if (!init || !inc || !cond || cond->kind != CF_E_BOOL || cond->nargs != 2)
        return false;
    cf_sym *v = init->lhs->sym;
    bool lt = strcmp(cond->op, "less_than") == 0, le = strcmp(cond->op, "less_or_equal") == 0;
    const cf_expr *r = inc->rhs;
    if (init->rhs->kind != CF_E_INT || init->rhs->ival < 0 || (!lt && !le) ||
        cond->a[0]->kind != CF_E_VAR || cond->a[0]->sym != v || cond->a[0]->nsub ||
        strcmp(r->op, "add_scal_scal") || r->a[1]->kind != CF_E_INT || r->a[1]->ival != 1)
        return false;
    b->var = v;
    b->n = cond->a[1];
    b->plus1 = le;
    b->up = c->bounds;
    c->bounds = b;
    return true;
}

void
cf_rt_use(cf *c, cf_expr *e)
{
    cf_sym *s = e->sym;
    if (!s->ptr || s->dimx[0] || s->use_bad)
        return;
    if (e->nsub != s->rank) { /* passed whole, or a row of (*p)[4] */
        s->use_bad = true;
        return;
    }
    const cf_expr *ix = e->sub[0];
    int64_t c0 = 0; /* p[c0 + i] with i < n, n constant: c0 + n */
    if (ix->kind == CF_E_OP && ix->nargs == 2 && !strcmp(ix->op, "add_scal_scal") &&
        (ix->a[0]->kind == CF_E_INT || ix->a[1]->kind == CF_E_INT)) {
        bool l = ix->a[0]->kind == CF_E_INT;
        c0 = ix->a[l ? 0 : 1]->ival;
        ix = ix->a[l ? 1 : 0];
        if (c0 < 0) {
            s->use_bad = true;
            return;
        }
    }
    for (cf_bound *b = c->bounds; b; b = b->up)
        if (ix->kind == CF_E_VAR && !ix->nsub && ix->sym == b->var && b->n->kind == CF_E_INT) {
            int64_t n = c0 + b->n->ival + (b->plus1 ? 1 : 0);
            if (n > s->use_max)
                s->use_max = n;
            return;
        }
    if (c0 != 0) {
        s->use_bad = true;
        return;
    }
    if (ix->kind == CF_E_INT) {
        if (ix->ival < 0)
            s->use_bad = true;
        else if (ix->ival + 1 > s->use_max)
            s->use_max = ix->ival + 1;
        return;
    }
    for (cf_bound *b = c->bounds; b; b = b->up)
        if (ix->kind == CF_E_VAR && !ix->nsub && ix->sym == b->var) {
            if (s->use_n && (!expr_eq(s->use_n, b->n) || s->use_plus1 != b->plus1))
                s->use_bad = true;
            s->use_n = b->n;
            s->use_plus1 = b->plus1;
            return;
        }
    s->use_bad = true;
}

void
cf_rt_infer(cf *c, cf_fn *f)
{
    for (uint32_t i = 0; i < f->formals.n; i++) {
        cf_sym *s = f->formals.v[i];
        if (!s->ptr || s->dims[0] != -1 || s->use_bad || s->pending)
            continue;
        if (s->use_n) {
            char buf[512] = "";
            if (!expr_text(s->use_n, buf, sizeof buf - 8))
                continue;
            if (s->use_plus1)
                strcat(buf, " + 1");
            s->dimx[0] = cf_strdup(c, buf);
            s->dims[0] = CF_RT_EXTENT;
        } else if (s->use_max > 0 && s->rank == 1) {
            s->dims[0] = s->use_max;
            s->by_use = true;
        }
    }
}

const char *
cf_rt_expr_text(cf *c, const cf_expr *e)
{
    char buf[512] = "";
    return expr_text(e, buf, sizeof buf - 8) ? cf_strdup(c, buf) : NULL;
}

/* The int parameters that an extent names must keep their values: the
 * generated code reads them wherever it needs the size. */
void
cf_rt_check(cf *c)
{
    for (uint32_t i = 0; i < c->fns.n; i++) {
        cf_fn *f = c->fns.v[i];
        for (uint32_t k = 0; k < f->syms.n; k++) {
            const cf_sym *s = f->syms.v[k];
            for (int d = 0; d < s->rank; d++)
                for (const char *p = s->dimx[d]; p && *p;) {
                    const char *q = p;
                    while (isalnum((unsigned char)*q) || *q == '_')
                        q++;
                    if (q == p) {
                        p++;
                        continue;
                    }
                    const cf_sym *n =
                        isdigit((unsigned char)*p) ? NULL : int_formal(f, p, (size_t)(q - p));
                    if (n && n->written)
                        cf_refuse(c, s->where,
                                  "the extent of '%s' is '%s', and '%s' writes '%s': copy it into "
                                  "a local and change the copy",
                                  s->name, s->dimx[d], f->name, n->name);
                    p = q;
                }
        }
    }
}

/* ------------------------------------ variable-length array parameters */

int
cf_rt_brackets(cf *c, CXCursor d, const char *name, const char **groups, int max)
{
    CXToken *tok = NULL;
    unsigned nt = 0;
    clang_tokenize(c->tu, clang_getCursorExtent(d), &tok, &nt);
    int ng = 0, depth = 0;
    bool after = false;
    char buf[512];
    size_t len = 0;
    for (unsigned i = 0; i < nt && ng <= max; i++) {
        CXString s = clang_getTokenSpelling(c->tu, tok[i]);
        const char *t = clang_getCString(s);
        if (!after)
            after = clang_getTokenKind(tok[i]) == CXToken_Identifier && strcmp(t, name) == 0;
        else if (strcmp(t, "[") == 0 && depth++ == 0)
            len = 0, buf[0] = 0;
        else if (strcmp(t, "]") == 0 && --depth == 0) {
            if (ng < max)
                groups[ng] = cf_strdup(c, buf);
            ng++;
        } else if (depth > 0 && len + strlen(t) + 2 < sizeof buf) {
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", len ? " " : "", t);
        } else if (depth == 0 && strcmp(t, ",") && strcmp(t, ")")) {
            clang_disposeString(s);
            break;
        }
        clang_disposeString(s);
    }
    clang_disposeTokens(c->tu, tok, nt);
    return ng;
}

/* A callee's extent found from its uses is right at run time; the number
 * in its DimensionBounds is for `xaiform run` (which allows no formal
 * longer than its actual): the size all its calls pass when they agree,
 * else CF_RT_EXTENT. Only the top function's and VLA parameters' keep
 * CF_RT_EXTENT always. */
void
cf_rt_nominal(cf_sym *s, int64_t size)
{
    if (!s->dimx[0] || s->formal == 0 || s->nominal == 2)
        return;
    if (size <= 0 || (s->nominal == 1 && s->dims[0] != size)) {
        s->nominal = 2;
        s->dims[0] = CF_RT_EXTENT;
    } else if (s->nominal == 0) {
        s->nominal = 1;
        s->dims[0] = size;
    }
}
