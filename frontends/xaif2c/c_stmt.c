/* c_stmt.c: statements as C: assignments, calls (by reference, with each
 * active formal's derivative after it), derivative propagators and the
 * inlinable calls of OpenAD's runtime (§5.2 and §5.6 of
 * docs/xaif-execution.md): tapes and checkpoints become calls of
 * include/xaiform/ad.h, propagation plain arithmetic. Whole arrays in these
 * are loops over their elements (xf_k). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "c_impl.h"

/* ------------------------------------------------------------ helpers */

/* The one variable of argument expression @x, or NULL (a constant). */
static const xf_varref *
arg_ref(const xf_expr *x)
{
    return x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF ? x->v.v[0].u.ref : NULL;
}

/* Write element xf_k of argument @x's value (a constant is the same for all). */
static cw_type
arg_value(cw *w, const xf_expr *x)
{
    const xf_varref *r = arg_ref(x);
    if (r)
        return cw_elem(w, r, xf_flag_is(r->deriv, false), "xf_k");
    return cw_expr(w, x);
}

/* Open a loop over @n elements (nothing for one). */
static void
loop_open(cw *w, int64_t n, bool down)
{
    if (n > 1) {
        if (down)
            fprintf(w->o, "    for (long xf_k = %lld; xf_k >= 0; xf_k--) {\n", (long long)n - 1);
        else
            fprintf(w->o, "    for (long xf_k = 0; xf_k < %lld; xf_k++) {\n", (long long)n);
    } else
        fputs("    {\n", w->o);
}

/* The count of @r, which must be 1 or @n (broadcast). */
static bool
conforms(cw *w, const xf_varref *r, int64_t n, uint32_t line)
{
    int64_t c = cw_count(w, r);
    if (c < 0)
        return false;
    if (c != 1 && c != n) {
        cw_refuse(w, line, "operands of %lld and %lld elements", (long long)c, (long long)n);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------ propagators */

static void
derivprop(cw *w, const xf_dpop *op, uint32_t line)
{
    int64_t n;
    switch (op->kind) {
    case XF_DP_ZERODERIV:
        if ((n = cw_count(w, &op->tgt)) < 0)
            return;
        loop_open(w, n, false);
        fputs("        ", w->o);
        cw_elem(w, &op->tgt, true, "xf_k");
        fputs(" = 0.0;\n    }\n", w->o);
        return;
    case XF_DP_SETDERIV:
    case XF_DP_SETNEGDERIV:
    case XF_DP_INCDERIV:
    case XF_DP_DECDERIV: {
        static const char *const how[] = {" = ", " = -", " += ", " -= "};
        if ((n = cw_count(w, &op->tgt)) < 0 || !conforms(w, &op->src, n, line))
            return;
        loop_open(w, n, false);
        fputs("        double xf_t = ", w->o);
        cw_elem(w, &op->src, true, "xf_k");
        fputs(";\n        ", w->o);
        cw_elem(w, &op->tgt, true, "xf_k");
        fprintf(w->o, "%sxf_t;\n    }\n", how[op->kind - XF_DP_SETDERIV]);
        return;
    }
    case XF_DP_SAX:
    case XF_DP_SAXPY:
        if ((n = cw_count(w, &op->y)) < 0)
            return;
        if (!op->ax.n) {
            cw_refuse(w, line, "a Sax or Saxpy without terms");
            return;
        }
        for (uint32_t j = 0; j < op->ax.n; j++) {
            const xf_varref *a = arg_ref(&op->ax.v[j].a);
            if (!conforms(w, &op->ax.v[j].x, n, line) || (a && !conforms(w, a, n, line)))
                return;
        }
        loop_open(w, n, false);
        fputs("        double xf_t = ", w->o);
        for (uint32_t j = 0; j < op->ax.n; j++) {
            if (j)
                fputs(" + ", w->o);
            arg_value(w, &op->ax.v[j].a);
            fputs(" * ", w->o);
            cw_elem(w, &op->ax.v[j].x, true, "xf_k");
        }
        fputs(";\n        ", w->o);
        cw_elem(w, &op->y, true, "xf_k");
        fputs(op->kind == XF_DP_SAXPY ? " += xf_t;\n    }\n" : " = xf_t;\n    }\n", w->o);
        return;
    }
}

/* ------------------------------------------------------------ inlinable calls */

typedef struct iargs {
    const xf_expr *by_pos[8];
    int n;
} iargs;

static bool
collect(cw *w, const xf_stmt *s, iargs *a, int want)
{
    memset(a, 0, sizeof *a);
    for (uint32_t i = 0; i < s->u.icall.args.n; i++) {
        int64_t p = s->u.icall.args.v[i].pos;
        if (p < 1 || p > want) {
            cw_refuse(w, s->h.line, "%s has no argument %lld", s->u.icall.name, (long long)p);
            return false;
        }
        a->by_pos[p - 1] = &s->u.icall.args.v[i].val;
    }
    for (int k = 0; k < want; k++)
        if (!a->by_pos[k]) {
            cw_refuse(w, s->h.line, "%s needs argument %d", s->u.icall.name, k + 1);
            return false;
        }
    a->n = want;
    return true;
}

static const xf_varref *
need_ref(cw *w, const xf_stmt *s, const iargs *a, int k)
{
    const xf_varref *r = arg_ref(a->by_pos[k]);
    if (!r)
        cw_refuse(w, s->h.line, "argument %d of %s must be a variable", k + 1, s->u.icall.name);
    return r;
}

/* push / pop of a value on the tape (@cp: a checkpoint stack) of reals or integers. */
static void
stack_op(cw *w, const xf_stmt *s, const iargs *a, bool push, bool ints, bool cp, bool deriv)
{
    const char *st = cp ? (ints ? "icp" : "cp") : (ints ? "itape" : "tape");
    const xf_varref *r = arg_ref(a->by_pos[0]);
    int64_t n = 1;
    if (r && (n = cw_count(w, r)) < 0)
        return;
    if (!push && !(r = need_ref(w, s, a, 0)))
        return;
    loop_open(w, n, !push); /* a pop fills the elements in reverse */
    if (push) {
        fprintf(w->o, "        xf_ad_%s(&xf_ad_state()->%s, ", ints ? "ipush" : "push", st);
        if (r)
            cw_elem(w, r, deriv, "xf_k");
        else
            cw_expr(w, a->by_pos[0]);
        fputs(");\n    }\n", w->o);
    } else {
        fputs("        ", w->o);
        cw_elem(w, r, deriv, "xf_k");
        fprintf(w->o, " = xf_ad_%s(&xf_ad_state()->%s);\n    }\n", ints ? "ipop" : "pop", st);
    }
}

/* cp_arg_store_<type>_<shape>[_a][_d](v), cp_arg_restore_...: false if no checkpoint */
static bool
checkpoint(cw *w, const xf_stmt *s)
{
    const char *n = s->u.icall.name;
    bool store;
    if (!strncasecmp(n, "cp_arg_store_", 13) || !strncasecmp(n, "cp_res_store_", 13))
        store = true;
    else if (!strncasecmp(n, "cp_arg_restore_", 15) || !strncasecmp(n, "cp_res_restore_", 15))
        store = false;
    else
        return false;
    const char *t = n + (store ? 13 : 15);
    bool ints;
    if (!strncasecmp(t, "real_", 5))
        ints = false;
    else if (!strncasecmp(t, "integer_", 8) || !strncasecmp(t, "bool_", 5))
        ints = true;
    else {
        cw_refuse(w, s->h.line, "the checkpoint %s (only reals, integers and logicals)", n);
        return true;
    }
    size_t len = strlen(n);
    bool deriv = len > 2 && !strcasecmp(n + len - 2, "_d");
    iargs a;
    if (collect(w, s, &a, 1) && need_ref(w, s, &a, 0))
        stack_op(w, s, &a, store, ints, true, deriv);
    return true;
}

static void
propagate(cw *w, const xf_stmt *s, const iargs *a, int xi, const char *how, bool factor)
{
    const xf_varref *x = need_ref(w, s, a, xi), *y = x ? need_ref(w, s, a, xi + 1) : NULL;
    int64_t n;
    if (!y || (n = cw_count(w, y)) < 0 || !conforms(w, x, n, s->h.line))
        return;
    const xf_varref *f = factor ? arg_ref(a->by_pos[0]) : NULL;
    if (f && !conforms(w, f, n, s->h.line))
        return;
    loop_open(w, n, false);
    fputs("        double xf_t = ", w->o);
    cw_elem(w, x, true, "xf_k");
    if (factor) {
        fputs(" * ", w->o);
        arg_value(w, a->by_pos[0]);
    }
    fputs(";\n        ", w->o);
    cw_elem(w, y, true, "xf_k");
    fprintf(w->o, " %s xf_t;\n    }\n", how);
}

static void
icall(cw *w, const xf_stmt *s)
{
    const char *n = s->u.icall.name ? s->u.icall.name : "";
    iargs a;
    if (checkpoint(w, s))
        return;
    if (!strncasecmp(n, "push", 4) || !strncasecmp(n, "pop", 3)) {
        bool push = !strncasecmp(n, "push", 4);
        if (!strcasecmp(n, "push_s") || !strcasecmp(n, "pop_s")) {
            cw_refuse(w, s->h.line, "%s: strings have no C here", n);
            return;
        }
        bool ints = strstr(n, "_i") || !strcasecmp(n, "push_b") || !strcasecmp(n, "pop_b");
        if (collect(w, s, &a, 1))
            stack_op(w, s, &a, push, ints, false, false);
    } else if (!strcasecmp(n, "Saxpy")) {
        if (collect(w, s, &a, 3))
            propagate(w, s, &a, 1, "+=", true);
    } else if (!strcasecmp(n, "IncDeriv")) {
        if (collect(w, s, &a, 2))
            propagate(w, s, &a, 0, "+=", false);
    } else if (!strcasecmp(n, "DecDeriv")) {
        if (collect(w, s, &a, 2))
            propagate(w, s, &a, 0, "-=", false);
    } else if (!strcasecmp(n, "SetDeriv")) {
        if (collect(w, s, &a, 2))
            propagate(w, s, &a, 0, "=", false);
    } else if (!strcasecmp(n, "ZeroDeriv")) {
        const xf_varref *x;
        int64_t c;
        if (!collect(w, s, &a, 1) || !(x = need_ref(w, s, &a, 0)) || (c = cw_count(w, x)) < 0)
            return;
        loop_open(w, c, false);
        fputs("        ", w->o);
        cw_elem(w, x, true, "xf_k");
        fputs(" = 0.0;\n    }\n", w->o);
    } else if (!strcasecmp(n, "oad_convert") || !strncasecmp(n, "convert_a2p", 11) ||
               !strncasecmp(n, "convert_p2a", 11)) {
        const xf_varref *to;
        int64_t c;
        if (!collect(w, s, &a, 2) || !(to = need_ref(w, s, &a, 0)) || (c = cw_count(w, to)) < 0)
            return;
        const xf_varref *from = arg_ref(a.by_pos[1]);
        if (from && !conforms(w, from, c, s->h.line))
            return;
        loop_open(w, c, false);
        fputs("        ", w->o);
        cw_elem(w, to, false, "xf_k");
        fputs(" = ", w->o);
        arg_value(w, a.by_pos[1]);
        fputs(";\n    }\n", w->o);
    } else if (!strcasecmp(n, "oad_ShapeTest")) {
        /* shapes are fixed by the declarations */
    } else
        cw_refuse(w, s->h.line, "the inlinable routine %s has no C here", n);
}

/* ------------------------------------------------------------ calls */

static const xf_argsym *
formal_at(const xf_routine *r, int64_t pos)
{
    for (uint32_t i = 0; i < r->args.n; i++)
        if (r->args.v[i].pos == pos)
            return &r->args.v[i];
    return NULL;
}

static void
call(cw *w, const xf_stmt *s)
{
    const xf_call *c = &s->u.call;
    const xf_routine *callee = c->sym ? cw_routine_of(w, c->sym) : NULL;
    if (!callee) {
        cw_refuse(w, s->h.line, "a call of %s, which this document gives no code",
                  c->sym ? c->sym->id : "an unresolved routine");
        return;
    }
    const xf_expr **act = calloc(callee->args.n + 1, sizeof *act);
    if (!act) {
        cw_refuse(w, s->h.line, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < c->args.n; i++) {
        int64_t p = c->args.v[i].pos;
        if (p < 1 || p > (int64_t)callee->args.n || !formal_at(callee, p)) {
            cw_refuse(w, s->h.line, "argument %lld of a call of %s, which has %u", (long long)p,
                      c->sym->id, callee->args.n);
            goto out;
        }
        act[p - 1] = &c->args.v[i].val;
    }
    /* temporaries for constants and for the derivatives of passive actuals */
    fputs("    {\n", w->o);
    for (uint32_t p = 1; p <= callee->args.n && !w->failed; p++) {
        const xf_argsym *f = formal_at(callee, p);
        if (!f || !f->sym || !act[p - 1]) {
            cw_refuse(w, s->h.line, "formal %u of %s is not given (optional arguments have no C)",
                      p, c->sym->id);
            goto out;
        }
        const char *ft = cw_ctype(w, f->sym, s->h.line);
        if (!ft)
            goto out;
        const xf_varref *r = arg_ref(act[p - 1]);
        if (!r) {
            fprintf(w->o, "        %s xf_a%u = ", ft, p);
            if (cw_expr(w, act[p - 1]) == CT_BAD)
                goto out;
            fputs(";\n", w->o);
        } else {
            const xf_symref *sr = xf_varref_symref(r);
            if (sr && sr->sym && cw_type_of_sym(sr->sym) != cw_type_of_sym(f->sym)) {
                cw_refuse(w, s->h.line, "%s passed for %s of %s: their types differ", sr->sym->id,
                          f->sym->id, c->sym->id);
                goto out;
            }
        }
        if (cw_has_deriv(w, f->sym) &&
            (!r || !xf_varref_symref(r) || !cw_has_deriv(w, xf_varref_symref(r)->sym))) {
            int64_t n = cw_extent(w, f->sym, s->h.line);
            if (n < 0)
                goto out;
            fprintf(w->o, "        double xf_z%u[%lld] = {0};\n", p, (long long)(n ? n : 1));
        }
    }
    const char *name = w->rname[callee->index];
    fprintf(w->o, "        %s%s(", name, w->mode == CW_ADJOINT && callee->is_rlist ? "_tpl" : "");
    for (uint32_t p = 1; p <= callee->args.n && !w->failed; p++) {
        const xf_argsym *f = formal_at(callee, p);
        const xf_varref *r = arg_ref(act[p - 1]);
        if (p > 1)
            fputs(", ", w->o);
        if (r)
            cw_addr(w, r, false);
        else
            fprintf(w->o, "&xf_a%u", p);
        if (cw_has_deriv(w, f->sym)) {
            if (r && xf_varref_symref(r) && cw_has_deriv(w, xf_varref_symref(r)->sym)) {
                fputs(", ", w->o);
                cw_addr(w, r, true);
            } else
                fprintf(w->o, ", xf_z%u", p);
        }
    }
    fputs(");\n    }\n", w->o);
out:
    free(act);
}

/* ------------------------------------------------------------ statements */

void
cw_stmt(cw *w, const xf_stmt *s)
{
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        fputs("    ", w->o);
        if (cw_ref(w, &s->u.as.lhs, xf_flag_is(s->u.as.lhs.deriv, false)) == CT_BAD)
            return;
        fputs(" = ", w->o);
        if (cw_expr(w, &s->u.as.rhs) == CT_BAD)
            return;
        fputs(";\n", w->o);
        return;
    case XF_STMT_CALL:
        call(w, s);
        return;
    case XF_STMT_ICALL:
        icall(w, s);
        return;
    case XF_STMT_MARKER:
        return;
    case XF_STMT_DERIVPROP:
        for (uint32_t i = 0; i < s->u.dp.n && !w->failed; i++)
            derivprop(w, &s->u.dp.v[i], s->h.line);
        return;
    }
}
