/* c_external.c: a routine whose derivatives the user writes (the C front
 * end's --external-derivative: its symbol's annotation has
 * "xf_external=1"; no statements, every real parameter active). Its inner
 * function, the one the generated calls go to, calls the user's code
 * instead of code of its own:
 *   tangent   xf_fn_F_d: *F_retd = F_d(a, ad, ..., F_ret)
 *   adjoint   F_b_tpl (and its joint functions), by placeholder:
 *     1 plain       *F_ret = F(a, ...)
 *     2 taping      the arguments onto the tape, then as 1
 *     3 adjoint     the arguments off the tape; F_b(a, &ab, ..., *F_retb);
 *                   *F_retb = 0 (F_b adds to ab, as Tapenade's does)
 *     4, 6          the arguments onto and off the argument checkpoints
 * The user's F_d and F_b have the signatures that the wrapper of a routine
 * of the file would have (c_iface.c), and F the one of its declaration;
 * no wrapper is written for F (docs/c-backend.md, External functions). */
#include <stdlib.h>
#include <string.h>

#include "c_impl.h"

bool
cw_ext_read(cw *w)
{
    const xf_callgraph *cg = &w->doc->cg;
    w->rext = calloc((size_t)cg->routines.n + 1, sizeof *w->rext);
    if (!w->rext) {
        cw_refuse(w, 0, "out of memory");
        return false;
    }
    for (uint32_t i = 0; i < cg->routines.n; i++) {
        const xf_routine *r = cg->routines.v[i];
        const char *a = r->sym ? r->sym->h.annotation : NULL;
        w->rext[i] = a && strstr(a, ";xf_external=1");
    }
    return true;
}

/* The formal at position @p of @r (positions are checked by c_unit.c). */
static const cw_sym *
arg(const cw *w, const xf_routine *r, int64_t p, const xf_symbol **sym)
{
    for (uint32_t i = 0; i < r->args.n; i++)
        if (r->args.v[i].pos == p && r->args.v[i].sym) {
            *sym = r->args.v[i].sym;
            return &w->syms[r->args.v[i].sym->index];
        }
    return NULL;
}

/* Whether @r's formals are what the C front end makes of an external:
 * by-value int, float, double, then the result. */
static bool
shape_ok(cw *w, const xf_routine *r)
{
    int64_t n = (int64_t)r->args.n;
    for (int64_t p = 1; p <= n; p++) {
        const xf_symbol *s;
        const cw_sym *c = arg(w, r, p, &s);
        if (!c || !c->ctype || (p < n ? c->how != CW_VALUE : c->how != CW_RETURN || !c->dname)) {
            cw_refuse(w, r->h.line,
                      "external routine %s: a formal is not as the C front end "
                      "writes an external function's",
                      r->sym->id);
            return false;
        }
    }
    return n >= 1;
}

/* The inner function's parameters: every formal and derivative a pointer. */
static void
params(cw *w, FILE *o, const xf_routine *r)
{
    fputc('(', o);
    for (int64_t p = 1; p <= (int64_t)r->args.n; p++) {
        const xf_symbol *s;
        const cw_sym *c = arg(w, r, p, &s);
        fprintf(o, "%s%s *%s", p > 1 ? ", " : "", c->ctype, c->name);
        if (c->dname)
            fprintf(o, ", %s *%s", cw_dtype(w, s), c->dname);
    }
    fputc(')', o);
}

/* The arguments @r's parameters pass on: the values (*a), with @d the
 * derivatives after each (tangent: their values; adjoint: the pointers). */
static void
values(cw *w, FILE *o, const xf_routine *r, bool d)
{
    for (int64_t p = 1; p < (int64_t)r->args.n; p++) {
        const xf_symbol *s;
        const cw_sym *c = arg(w, r, p, &s);
        fprintf(o, "%s*%s", p > 1 ? ", " : "", c->name);
        if (d && c->dname)
            fprintf(o, w->mode == CW_ADJOINT ? ", %s" : ", *%s", c->dname);
    }
}

/* Push (@push) or pop the by-value arguments onto/off stack @st ("tape", "cp"). */
static void
stack(cw *w, FILE *o, const xf_routine *r, const char *st, bool push)
{
    int64_t n = (int64_t)r->args.n - 1;
    for (int64_t k = 1; k <= n; k++) {
        int64_t p = push ? k : n + 1 - k; /* popped in reverse */
        const xf_symbol *s;
        const cw_sym *c = arg(w, r, p, &s);
        bool i = !strcmp(c->ctype, "int");
        if (push)
            fprintf(o, "    xf_ad_%spush(&xf_ad_s.%s%s, *%s);\n", i ? "i" : "", i ? "i" : "", st,
                    c->name);
        else
            fprintf(o, "    *%s = (%s)xf_ad_%spop(&xf_ad_s.%s%s);\n", c->name, c->ctype,
                    i ? "i" : "", i ? "i" : "", st);
    }
}

/* The code of placeholder @k (the header's table). */
static void
piece(cw *w, FILE *o, const xf_routine *r, int k)
{
    const xf_symbol *s;
    const cw_sym *res = arg(w, r, (int64_t)r->args.n, &s);
    switch (k) {
    case 2:
        stack(w, o, r, "tape", true);
        /* fall through */
    case 1:
        fprintf(o, "    *%s = %s(", res->name, r->sym->id);
        values(w, o, r, false);
        fputs(");\n", o);
        break;
    case 3:
        stack(w, o, r, "tape", false);
        fprintf(o, "    %s(", w->rname[r->index]);
        values(w, o, r, true);
        fprintf(o, "%s*%s);\n    *%s = 0;\n", r->args.n > 1 ? ", " : "", res->dname, res->dname);
        break;
    case 4:
    case 6:
        stack(w, o, r, "cp", k == 4);
        break;
    default:
        break;
    }
}

/* F's own declaration, for the plain computations of the adjoint. */
static void
primal(cw *w, FILE *o, const xf_routine *r)
{
    const xf_symbol *s;
    fprintf(o, "\n%s %s(", arg(w, r, (int64_t)r->args.n, &s)->ctype, r->sym->id);
    for (int64_t p = 1; p < (int64_t)r->args.n; p++) {
        const cw_sym *c = arg(w, r, p, &s);
        fprintf(o, "%s%s %s", p > 1 ? ", " : "", c->ctype, c->name);
    }
    fputs(r->args.n > 1 ? ");\n" : "void);\n", o);
}

static void
head(cw *w, FILE *o, const xf_routine *r, const char *suffix)
{
    fprintf(o, "\nstatic void\n%s%s", w->iname[r->index], suffix);
    params(w, o, r);
    fputs("\n{\n", o);
}

void
cw_ext_routine(cw *w, FILE *o, const xf_routine *r)
{
    if (!w->iname[r->index] || !shape_ok(w, r))
        return;
    if (w->mode == CW_TANGENT) {
        const xf_symbol *s;
        const cw_sym *res = arg(w, r, (int64_t)r->args.n, &s);
        head(w, o, r, "");
        fprintf(o, "    *%s = %s(", res->dname, w->rname[r->index]);
        values(w, o, r, true);
        fprintf(o, "%s%s);\n}\n", r->args.n > 1 ? ", " : "", res->name);
        return;
    }
    primal(w, o, r);
    if (w->joint) { /* resolved: one function a mode (c_joint.c, c_split.c) */
        /* no entry of the user's (F_b is theirs): its function is not written, nor declared */
        w->jneed[r->index] &= (unsigned char)~(1u << CW_JV_TOP);
        for (int v = 0; v < CW_JV_COUNT; v++) {
            if (!(w->jneed[r->index] >> v & 1))
                continue;
            fputs("\nstatic void\n", o);
            cw_variant_name(w, o, r, (cw_jvariant)v); /* split's NAME_fwd, NAME_bwd too */
            params(w, o, r);
            fputs("\n{\n", o);
            for (const int *k = cw_variant_phs(w, (cw_jvariant)v); *k; k++)
                piece(w, o, r, *k);
            fputs("}\n", o);
        }
        return;
    }
    /* routed at run time by the mode record, as c_unit.c's template */
    head(w, o, r, "");
    fputs("    xf_ad_mode *xf_m = &xf_ad_state()->mode;\n", o);
    if (w->opts->reversal == XF_C_SPLIT) {
        static const char *const flag[] = {"", "plain", "tape", "adjoint"};
        for (int k = 1; k <= 3; k++) {
            fprintf(o, "    if (xf_m->%s) {\n", flag[k]);
            piece(w, o, r, k);
            fputs("    }\n", o);
        }
        fputs("}\n", o);
        return;
    }
    fputs("    if (xf_m->arg_store) {\n", o);
    piece(w, o, r, 4);
    fputs("    }\n    if (xf_m->arg_restore) {\n", o);
    piece(w, o, r, 6);
    fputs("    }\n    if (xf_m->plain) {\n", o);
    piece(w, o, r, 1);
    fputs("    }\n    if (xf_m->tape) {\n", o);
    cw_mode_set(o, "        ", "arg_store plain");
    piece(w, o, r, 2);
    cw_mode_set(o, "        ", "adjoint");
    fputs("    }\n    if (xf_m->adjoint) {\n", o);
    cw_mode_set(o, "        ", "arg_restore tape");
    piece(w, o, r, 3);
    cw_mode_set(o, "        ", "arg_restore tape");
    fputs("    }\n}\n", o);
}
