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
#include "value_kind.h"

/* ------------------------------------------------------------ helpers */

/* The one variable of argument expression @x, or NULL (a constant). */
static const xf_varref *
arg_ref(const xf_expr *x)
{
    return x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF ? x->v.v[0].u.ref : NULL;
}

/* Write argument @x's value (element xf_k of an array; a constant is the
 * same for all). */
static cw_type
arg_value(cw *w, const xf_expr *x)
{
    const xf_varref *r = arg_ref(x);
    if (r)
        return cw_ref(w, r, xf_flag_is(r->deriv, false));
    return cw_expr(w, x);
}

/* Open a loop over the elements of @r, counted by xf_k (@down: from the
 * last); a scalar or one element opens a block. Close with loop_close. */
static bool
loop_open(cw *w, const xf_varref *r, bool down)
{
    if (!cw_is_array(r)) {
        fputs("    {\n", w->o);
        return true;
    }
    fputs("    {\n        long xf_n = ", w->o);
    if (!cw_count(w, r))
        return false;
    fputs(";\n", w->o);
    if (down)
        fputs("        for (long xf_k = xf_n - 1; xf_k >= 0; xf_k--) {\n", w->o);
    else
        fputs("        for (long xf_k = 0; xf_k < xf_n; xf_k++) {\n", w->o);
    w->ek = "xf_k";
    return true;
}

static void
loop_close(cw *w, const xf_varref *r)
{
    fputs(cw_is_array(r) ? "        }\n    }\n" : "    }\n", w->o);
    w->ek = NULL;
}

/* ------------------------------------------------------------ propagators */

static void
derivprop(cw *w, const xf_dpop *op, uint32_t line)
{
    switch (op->kind) {
    case XF_DP_ZERODERIV:
        if (!loop_open(w, &op->tgt, false))
            return;
        fputs("        ", w->o);
        cw_ref(w, &op->tgt, true);
        fputs(" = 0.0;\n", w->o);
        loop_close(w, &op->tgt);
        return;
    case XF_DP_SETDERIV:
    case XF_DP_SETNEGDERIV:
    case XF_DP_INCDERIV:
    case XF_DP_DECDERIV: {
        static const char *const how[] = {" = ", " = -", " += ", " -= "};
        if (!loop_open(w, &op->tgt, false))
            return;
        fprintf(w->o, "        %s xf_t = ", w->rfloat ? "float" : "double");
        cw_ref(w, &op->src, true);
        fputs(";\n        ", w->o);
        cw_ref(w, &op->tgt, true);
        fprintf(w->o, "%sxf_t;\n", how[op->kind - XF_DP_SETDERIV]);
        loop_close(w, &op->tgt);
        return;
    }
    case XF_DP_SAX:
    case XF_DP_SAXPY:
        if (!op->ax.n) {
            cw_refuse(w, line, "a Sax or Saxpy without terms");
            return;
        }
        if (!loop_open(w, &op->y, false))
            return;
        fprintf(w->o, "        %s xf_t = ", w->rfloat ? "float" : "double");
        for (uint32_t j = 0; j < op->ax.n; j++) {
            if (j)
                fputs(" + ", w->o);
            arg_value(w, &op->ax.v[j].a);
            fputs(" * ", w->o);
            cw_ref(w, &op->ax.v[j].x, true);
        }
        fputs(";\n        ", w->o);
        cw_ref(w, &op->y, true);
        fputs(op->kind == XF_DP_SAXPY ? " += xf_t;\n" : " = xf_t;\n", w->o);
        loop_close(w, &op->y);
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

/* Whether @r is a whole array sized at run time. */
static bool
rt_whole(const xf_varref *r)
{
    const xf_symref *sr = xf_varref_symref(r);
    return sr && sr->sym && !xf_varref_arrref(r) && cw_rt(sr->sym);
}

/* Whether @r names a parameter the C code declared const (a pointer to const). */
static bool
const_param(const cw *w, const xf_varref *r, bool deriv)
{
    const xf_symref *sr = xf_varref_symref(r);
    return !deriv && sr && sr->sym && w->syms[sr->sym->index].cconst;
}

/* The pop of a checkpoint's restore into @r, @ind the indentation: into a
 * const parameter only where the value differs, since the caller's data may
 * be defined const (read-only); assigning the same value changes nothing. */
static void
restore_pop(cw *w, const xf_varref *r, bool ints, const char *st, bool deriv, const char *ind)
{
    bool ckp = !strcmp(st, "cp") || !strcmp(st, "icp"); /* not a tape's pop */
    if (!ckp || !const_param(w, r, deriv)) {
        fputs(ind, w->o);
        cw_ref(w, r, deriv);
        fprintf(w->o, " = xf_ad_%s(&xf_ad_s.%s);\n", ints ? "ipop" : "pop", st);
        return;
    }
    fprintf(w->o, "%s%s xf_v = xf_ad_%s(&xf_ad_s.%s);\n%sif (", ind, ints ? "long" : "double",
            ints ? "ipop" : "pop", st, ind);
    if (ints) {
        cw_ref(w, r, deriv);
        fputs(" != xf_v", w->o);
    } else {
        fputs("xf_ad_differs(", w->o);
        cw_ref(w, r, deriv);
        fputs(", xf_v)", w->o);
    }
    fprintf(w->o, ")\n%s    ", ind);
    cw_ref(w, r, deriv);
    fputs(" = xf_v;\n", w->o);
}

/* A whole array sized at run time on a checkpoint stack: its elements, then
 * their number on the integer checkpoint stack, so that the restore takes
 * back exactly what was stored whatever the sizes' variables hold then. */
static void
rt_stack_op(cw *w, const xf_varref *r, bool push, bool ints, bool deriv)
{
    const char *st = ints ? "icp" : "cp";
    if (!ints) { /* reals: copied at once (xf_ad_push_arr, xf_ad_pop_arr) */
        fputs("    {\n        long xf_n = ", w->o);
        if (push && !cw_count(w, r))
            return;
        fputs(push ? ";\n        xf_ad_push_arr(&xf_ad_s.cp, &"
                   : "xf_ad_ipop(&xf_ad_s.icp);\n"
                     "        xf_ad_pop_arr(&xf_ad_s.cp, &",
              w->o);
        w->ek = "0";
        cw_ref(w, r, deriv);
        w->ek = NULL;
        fprintf(w->o, ", xf_n%s);\n", push ? "" : const_param(w, r, deriv) ? ", 1" : ", 0");
        if (push)
            fputs("        xf_ad_ipush(&xf_ad_s.icp, xf_n);\n", w->o);
        fputs("    }\n", w->o);
        return;
    }
    if (push) {
        fputs("    {\n        long xf_n = ", w->o);
        if (!cw_count(w, r))
            return;
        fprintf(w->o, ";\n        xf_ad_%sreserve(&xf_ad_s.%s, xf_n);\n", ints ? "i" : "", st);
        fputs("        for (long xf_k = 0; xf_k < xf_n; xf_k++) {\n", w->o);
    } else
        fputs("    {\n        long xf_n = xf_ad_ipop(&xf_ad_s.icp);\n"
              "        for (long xf_k = xf_n - 1; xf_k >= 0; xf_k--) {\n",
              w->o);
    w->ek = "xf_k";
    if (push) {
        fprintf(w->o, "            xf_ad_%s_nc(&xf_ad_s.%s, ", ints ? "ipush" : "push", st);
        cw_ref(w, r, deriv);
        fputs(");\n", w->o);
    } else
        restore_pop(w, r, ints, st, deriv, "            ");
    w->ek = NULL;
    fputs("        }\n", w->o);
    if (push)
        fputs("        xf_ad_ipush(&xf_ad_s.icp, xf_n);\n", w->o);
    fputs("    }\n", w->o);
}

/* push / pop of a scalar on a tape kept in local variables xf_tr<k> (reals)
 * and xf_ti<k> (integers): cw_joint_local_tape. */
static void
local_op(cw *w, const xf_stmt *s, const iargs *a, bool push, bool ints)
{
    const xf_varref *r = arg_ref(a->by_pos[0]);
    int *n = &w->ln[ints];
    if (push) {
        fprintf(w->o, "    xf_t%c%d = ", ints ? 'i' : 'r', *n);
        if (r)
            cw_ref(w, r, false);
        else
            cw_expr(w, a->by_pos[0]);
        fputs(";\n", w->o);
        if (++*n > w->lmax[ints])
            w->lmax[ints] = *n;
        return;
    }
    if (!(r = need_ref(w, s, a, 0)))
        return;
    if (!*n) {
        w->lbad = true;
        return;
    }
    fputs("    ", w->o);
    cw_ref(w, r, false);
    fprintf(w->o, " = xf_t%c%d;\n", ints ? 'i' : 'r', --*n);
}

/* push / pop of a value on the tape (@cp: a checkpoint stack) of reals or integers. */
static void
stack_op(cw *w, const xf_stmt *s, const iargs *a, bool push, bool ints, bool cp, bool deriv)
{
    if (!cp && w->ltape) {
        local_op(w, s, a, push, ints);
        return;
    }
    const char *st = cp ? (ints ? "icp" : "cp") : (ints ? "itape" : "tape");
    const xf_varref *r = arg_ref(a->by_pos[0]);
    if (!push && !(r = need_ref(w, s, a, 0)))
        return;
    if (cp && r && rt_whole(r)) {
        rt_stack_op(w, r, push, ints, deriv);
        return;
    }
    if (push && r && cw_is_array(r)) { /* room for the elements, then plain stores */
        fputs("    {\n        long xf_n = ", w->o);
        if (!cw_count(w, r))
            return;
        fprintf(w->o, ";\n        xf_ad_%sreserve(&xf_ad_s.%s, xf_n);\n", ints ? "i" : "", st);
        fputs("        for (long xf_k = 0; xf_k < xf_n; xf_k++) {\n", w->o);
        w->ek = "xf_k";
        fprintf(w->o, "            xf_ad_%s_nc(&xf_ad_s.%s, ", ints ? "ipush" : "push", st);
        cw_ref(w, r, deriv);
        fputs(");\n", w->o);
        loop_close(w, r);
        return;
    }
    if (r && !loop_open(w, r, !push)) /* a pop fills the elements in reverse */
        return;
    if (!r)
        fputs("    {\n", w->o);
    if (push) { /* unchecked where the loop reserved room (c_reserve.c) */
        fprintf(w->o, "        xf_ad_%s%s(&xf_ad_s.%s, ", ints ? "ipush" : "push",
                w->push_nc && !cp ? "_nc" : "", st);
        if (r)
            cw_ref(w, r, deriv);
        else
            cw_expr(w, a->by_pos[0]);
        fputs(");\n", w->o);
    } else
        restore_pop(w, r, ints, st, deriv, "        ");
    if (r)
        loop_close(w, r);
    else
        fputs("    }\n", w->o);
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

/* ckp_* (docs/checkpointing.md): the snapshots of per-iteration dry-running
 * and checkpointed loops, on xaiform/ad.h's snapshot frames; false if not one.
 * The steps' modes (ckp_step_*) have no C here. */
static bool
snapshot(cw *w, const xf_stmt *s)
{
    const char *n = s->u.icall.name;
    if (strncasecmp(n, "ckp_", 4))
        return false;
    const char *t = n + 4;
    iargs a;
    const xf_varref *r;
    if (!strcasecmp(t, "take")) {
        if (!collect(w, s, &a, 1))
            return true;
        fputs("    xf_ad_ckp_take((long)(", w->o);
        arg_value(w, a.by_pos[0]);
        fputs("));\n", w->o);
    } else if (!strcasecmp(t, "top")) {
        if (!collect(w, s, &a, 1) || !(r = need_ref(w, s, &a, 0)))
            return true;
        fputs("    ", w->o);
        cw_ref(w, r, false);
        fputs(" = xf_ad_ckp_top();\n", w->o);
    } else if (!strcasecmp(t, "drop")) {
        fputs("    xf_ad_ckp_drop();\n", w->o);
    } else if (!strncasecmp(t, "store_", 6) || !strncasecmp(t, "restore_", 8)) {
        bool store = !strncasecmp(t, "store_", 6);
        const char *k = t + (store ? 6 : 8);
        bool ints = !strcasecmp(k, "integer") || !strcasecmp(k, "bool");
        if (!ints && strcasecmp(k, "real")) {
            cw_refuse(w, s->h.line, "the snapshot routine %s (only reals, integers and logicals)",
                      n);
            return true;
        }
        if (!collect(w, s, &a, 1) || !(r = need_ref(w, s, &a, 0)) || !loop_open(w, r, false))
            return true;
        if (store) {
            fprintf(w->o, "        xf_ad_ckp_store_%c(", ints ? 'i' : 'r');
            cw_ref(w, r, false);
            fputs(");\n", w->o);
        } else {
            fputs("        ", w->o);
            cw_ref(w, r, false);
            fprintf(w->o, " = xf_ad_ckp_restore_%c();\n", ints ? 'i' : 'r');
        }
        loop_close(w, r);
    } else
        cw_refuse(w, s->h.line, "the snapshot routine %s has no C here", n);
    return true;
}

static void
propagate(cw *w, const xf_stmt *s, const iargs *a, int xi, const char *how, bool factor)
{
    const xf_varref *x = need_ref(w, s, a, xi), *y = x ? need_ref(w, s, a, xi + 1) : NULL;
    if (!y || !loop_open(w, y, false))
        return;
    fprintf(w->o, "        %s xf_t = ", w->rfloat ? "float" : "double");
    cw_ref(w, x, true);
    if (factor) {
        fputs(" * ", w->o);
        arg_value(w, a->by_pos[0]);
    }
    fputs(";\n        ", w->o);
    cw_ref(w, y, true);
    fprintf(w->o, " %s xf_t;\n", how);
    loop_close(w, y);
}

static void
icall(cw *w, const xf_stmt *s)
{
    const char *n = s->u.icall.name ? s->u.icall.name : "";
    iargs a;
    if (checkpoint(w, s) || snapshot(w, s) || cw_passive(w, s))
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
        if (!collect(w, s, &a, 1) || !(x = need_ref(w, s, &a, 0)) || !loop_open(w, x, false))
            return;
        fputs("        ", w->o);
        cw_ref(w, x, true);
        fputs(" = 0.0;\n", w->o);
        loop_close(w, x);
    } else if (!strcasecmp(n, "oad_convert") || !strncasecmp(n, "convert_a2p", 11) ||
               !strncasecmp(n, "convert_p2a", 11)) {
        const xf_varref *to;
        if (!collect(w, s, &a, 2) || !(to = need_ref(w, s, &a, 0)) || !loop_open(w, to, false))
            return;
        fputs("        ", w->o);
        cw_ref(w, to, false);
        fputs(" = ", w->o);
        arg_value(w, a.by_pos[1]);
        fputs(";\n", w->o);
        loop_close(w, to);
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

/* Does integer scalar @r go through a copy of formal type @ft (a
 * temporary of the transformation, a long, passed for a C int: the
 * callee's adjoint gets the value its forward call had)? */
static bool
int_copy(cw *w, const xf_varref *r, const char *ft)
{
    const xf_symref *sr = xf_varref_symref(r);
    if (!ft || !sr || !sr->sym || xf_varref_arrref(r) || sr->sym->shape != XF_SHAPE_SCALAR ||
        xf_bk_kind_of(sr->sym->type) != XF_BK_INT)
        return false;
    const char *at = cw_ctype(w, sr->sym, 0);
    return at && strcmp(at, ft) != 0;
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
        if (!r || int_copy(w, r, ft)) {
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
        if (cw_has_deriv(w, f->sym) && cw_rt(f->sym) &&
            (!r || !xf_varref_symref(r) || !cw_has_deriv(w, xf_varref_symref(r)->sym))) {
            if (!cw_rt_zeros(w, r, p, s->h.line))
                goto out;
        } else if (cw_has_deriv(w, f->sym) &&
                   (!r || !xf_varref_symref(r) || !cw_has_deriv(w, xf_varref_symref(r)->sym))) {
            int64_t n = cw_extent(w, f->sym, s->h.line);
            if (n < 0)
                goto out;
            fprintf(w->o, "        %s xf_z%u[%lld] = {0};\n", cw_dtype(w, f->sym), p,
                    (long long)(n ? n : 1));
        }
    }
    fputs("        ", w->o);
    cw_callee(w, callee, s);
    fputs("(", w->o);
    for (uint32_t p = 1; p <= callee->args.n && !w->failed; p++) {
        const xf_argsym *f = formal_at(callee, p);
        const xf_varref *r = arg_ref(act[p - 1]);
        if (p > 1)
            fputs(", ", w->o);
        if (r && !int_copy(w, r, cw_ctype(w, f->sym, s->h.line)))
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
    fputs(");\n", w->o);
    for (uint32_t p = 1; p <= callee->args.n && !w->failed; p++) {
        const xf_argsym *f = formal_at(callee, p);
        const xf_varref *r = arg_ref(act[p - 1]);
        if (r && int_copy(w, r, cw_ctype(w, f->sym, s->h.line))) {
            fputs("        ", w->o);
            cw_ref(w, r, false);
            fprintf(w->o, " = xf_a%u;\n", p);
        }
        if (cw_has_deriv(w, f->sym) && cw_rt(f->sym) &&
            (!r || !xf_varref_symref(r) || !cw_has_deriv(w, xf_varref_symref(r)->sym)))
            fprintf(w->o, "        xf_ad_drop(xf_z%u);\n", p);
    }
    fputs("    }\n", w->o);
out:
    free(act);
}

/* ------------------------------------------------------------ statements */

/* x = e; an array or a section on the left: element by element. Fortran
 * evaluates the whole right side first: when it reads the left side's
 * variable, the elements go through a temporary (xf_buf) first. */
static void
assign(cw *w, const xf_stmt *s)
{
    const xf_varref *lhs = &s->u.as.lhs;
    bool deriv = xf_flag_is(lhs->deriv, false);
    if (!cw_is_array(lhs)) {
        fputs("    ", w->o);
        if (cw_ref(w, lhs, deriv) == CT_BAD)
            return;
        fputs(" = ", w->o);
        if (cw_expr(w, &s->u.as.rhs) == CT_BAD)
            return;
        fputs(";\n", w->o);
        return;
    }
    const xf_symref *sr = xf_varref_symref(lhs);
    if (!cw_mentions(&s->u.as.rhs, sr->sym)) {
        if (!loop_open(w, lhs, false))
            return;
        fputs("        ", w->o);
        if (cw_ref(w, lhs, deriv) == CT_BAD)
            return;
        fputs(" = ", w->o);
        if (cw_expr(w, &s->u.as.rhs) == CT_BAD)
            return;
        fputs(";\n", w->o);
        loop_close(w, lhs);
        return;
    }
    const char *t = deriv ? "double" : cw_ctype(w, sr->sym, s->h.line);
    if (!t)
        return;
    fputs("    {\n        long xf_n = ", w->o);
    if (!cw_count(w, lhs))
        return;
    fprintf(w->o,
            ";\n        %s *xf_buf = malloc((size_t)(xf_n > 0 ? xf_n : 1) * sizeof *xf_buf);\n"
            "        if (!xf_buf)\n"
            "            xf_ad_fail(\"out of memory for an array assignment\");\n"
            "        for (long xf_k = 0; xf_k < xf_n; xf_k++)\n"
            "            xf_buf[xf_k] = ",
            t);
    w->ek = "xf_k";
    if (cw_expr(w, &s->u.as.rhs) == CT_BAD)
        return;
    fputs(";\n        for (long xf_k = 0; xf_k < xf_n; xf_k++)\n            ", w->o);
    if (cw_ref(w, lhs, deriv) == CT_BAD)
        return;
    fputs(" = xf_buf[xf_k];\n        free(xf_buf);\n    }\n", w->o);
    w->ek = NULL;
}

void
cw_stmt(cw *w, const xf_stmt *s)
{
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        assign(w, s);
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
