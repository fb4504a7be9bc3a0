/* c_unit.c: a whole document as one C translation unit: the comment header
 * that states the conventions, globals, prototypes, and one function per
 * routine with code. An adjoint routine (a ReplacementList) becomes the
 * template that OpenAD's joint or split reversal runs (§5.4 of
 * docs/xaif-execution.md): NAME_tpl routes its placeholders by the mode
 * record, and NAME, the entry a user calls, tapes and adjoins. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "c_impl.h"

void
cw_refuse(cw *w, uint32_t line, const char *fmt, ...)
{
    if (w->failed)
        return;
    w->failed = true;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    xf_error(w->diag, w->doc->filename, line, "cannot write C: %s", msg);
}

const xf_routine *
cw_routine_of(const cw *w, const xf_symbol *sym)
{
    for (uint32_t i = 0; i < w->doc->cg.routines.n; i++) {
        const xf_routine *r = w->doc->cg.routines.v[i];
        if (r->sym == sym && w->hascode[i])
            return r;
    }
    return NULL;
}

static bool
graph_has_entry(const xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i]->kind == XF_CV_ENTRY)
            return true;
    return false;
}

const xf_graph *
cw_placeholder(const xf_routine *r, int k)
{
    char name[8];
    snprintf(name, sizeof name, "%d", k);
    for (uint32_t i = 0; i < r->reps.n; i++)
        if (r->reps.v[i]->placeholder && !strcmp(r->reps.v[i]->placeholder, name) &&
            graph_has_entry(&r->reps.v[i]->g))
            return &r->reps.v[i]->g;
    return NULL;
}

/* ------------------------------------------------------------ declarations */

/* Declare @s; a local only where the function's body @body names it. */
static void
declare(cw *w, FILE *o, const xf_symbol *s, bool global, const char *body)
{
    const cw_sym *c = &w->syms[s->index];
    if (!c->used && !c->dused)
        return;
    bool named[2] = {c->used, c->dused};
    if (!global && body && !cw_rt(s)) {
        named[0] = named[0] && cw_tidy_names(body, c->name);
        named[1] = named[1] && cw_tidy_names(body, c->dname);
        if (!named[0] && !named[1])
            return;
    }
    if (!global && cw_rt(s)) { /* a work array sized at run time (c_extent.c) */
        cw_rt_declare(w, o, s, global ? NULL : body);
        return;
    }
    const char *t = cw_ctype(w, s, 0);
    int64_t n = cw_extent(w, s, 0);
    if (!t || n < 0)
        return;
    const char *pre = global ? "static " : "    ";
    const char *init = global ? "" : xf_shape_rank(s->shape) > 0 ? " = {0}" : " = 0";
    for (int d = 0; d < 2; d++) {
        if (!named[d])
            continue;
        if (xf_shape_rank(s->shape) > 0)
            fprintf(o, "%s%s %s[%lld]%s;\n", pre, d ? cw_dtype(w, s) : t, d ? c->dname : c->name,
                    (long long)(n ? n : 1), init);
        else
            fprintf(o, "%s%s %s%s;\n", pre, d ? cw_dtype(w, s) : t, d ? c->dname : c->name, init);
    }
}

/* The parameter list "(double *X, double *Xd, ...)" (@types) or the names. */
static void
params(cw *w, FILE *o, const xf_routine *r, bool types)
{
    fputs("(", o);
    if (!r->args.n && types)
        fputs("void", o);
    for (int64_t p = 1; p <= (int64_t)r->args.n; p++) {
        const xf_argsym *f = NULL;
        for (uint32_t i = 0; i < r->args.n; i++)
            if (r->args.v[i].pos == p)
                f = &r->args.v[i];
        if (!f || !f->sym) {
            cw_refuse(w, r->h.line, "argument positions of %s are not 1, 2, ...",
                      r->sym ? r->sym->id : "a routine");
            return;
        }
        const cw_sym *c = &w->syms[f->sym->index];
        const char *t = cw_ctype(w, f->sym, f->h.line);
        if (!t)
            return;
        fprintf(o, "%s%s%s%s", p > 1 ? ", " : "", types ? t : "", types ? " *" : "", c->name);
        if (c->dname)
            fprintf(o, ", %s%s%s", types ? cw_dtype(w, f->sym) : "", types ? " *" : "", c->dname);
    }
    fputs(")", o);
}

/* ------------------------------------------------------------ bodies */

static void
graph_code(cw *w, const xf_graph *g, int ph)
{
    char exit[32];
    snprintf(exit, sizeof exit, "xf_exit%d", ph);
    w->ph = ph;
    w->exit_used = false;
    cw_graph(w, g, exit);
    if (w->exit_used)
        fprintf(w->o, "%s:;\n", exit);
}

void
cw_mode_set(FILE *o, const char *indent, const char *flags)
{
    /* ORDER: xf_ad_mode_set's arguments */
    static const char *const names[] = {"arg_store", "arg_restore", "plain", "tape", "adjoint"};
    fprintf(o, "%sxf_ad_mode_set(xf_m", indent);
    for (int k = 0; k < 5; k++) {
        const char *f = strstr(flags, names[k]);
        size_t n = strlen(names[k]);
        bool on = f && (f == flags || f[-1] == ' ') && (f[n] == ' ' || !f[n]);
        fprintf(o, ", %d", on);
    }
    fputs(");\n", o);
}

/* The template's body: OpenAD's ad_template.joint.f or .split.f. */
static void
template_code(cw *w, const xf_routine *r)
{
    FILE *o = w->o;
    fputs("    xf_ad_mode *xf_m = &xf_ad_state()->mode;\n", o);
    const xf_graph *p[8] = {0};
    for (int k = 1; k <= 6; k++)
        p[k] = cw_placeholder(r, k);
    if (w->opts->reversal == XF_C_SPLIT) {
        static const char *const flag[] = {"", "plain", "tape", "adjoint"};
        for (int k = 1; k <= 3 && !w->failed; k++) {
            if (!p[k])
                continue;
            fprintf(o, "    if (xf_m->%s) {\n", flag[k]);
            graph_code(w, p[k], k);
            fputs("    }\n", o);
        }
        return;
    }
    for (int k = 4; k <= 6 && !w->failed; k += 2) {
        if (!p[k])
            continue;
        fprintf(o, "    if (xf_m->%s) {\n", k == 4 ? "arg_store" : "arg_restore");
        graph_code(w, p[k], k);
        fputs("    }\n", o);
    }
    fputs("    if (xf_m->plain) {\n        xf_ad_mode xf_saved = *xf_m;\n"
          "        xf_m->arg_store = 0;\n",
          o);
    if (p[1])
        graph_code(w, p[1], 1);
    fputs("        *xf_m = xf_saved;\n    }\n    if (xf_m->tape) {\n", o);
    cw_mode_set(o, "        ", "arg_store plain");
    if (p[2] && !w->failed)
        graph_code(w, p[2], 2);
    cw_mode_set(o, "        ", "adjoint");
    fputs("    }\n    if (xf_m->adjoint) {\n", o);
    cw_mode_set(o, "        ", "arg_restore tape");
    if (p[3] && !w->failed)
        graph_code(w, p[3], 3);
    cw_mode_set(o, "        ", "arg_restore tape");
    fputs("    }\n", o);
}

/* One function of routine @r into @o: the template resolved for mode
 * @variant (a cw_jvariant), or (-1) the routine's code or template. */
static void
function(cw *w, FILE *o, const xf_routine *r, int variant)
{
    const xf_scope *sc = r->cfg_scope;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) {
        cw_refuse(w, r->h.line, "out of memory");
        return;
    }
    w->o = m;
    w->ltape = variant >= 0 && cw_joint_local_tape(w, r, (cw_jvariant)variant);
    w->lbad = false;
    w->ln[0] = w->ln[1] = w->lmax[0] = w->lmax[1] = 0;
    if (variant >= 0)
        for (const int *k = cw_variant_phs(w, (cw_jvariant)variant); *k && !w->failed; k++) {
            const xf_graph *g = cw_placeholder(r, *k);
            if (g)
                graph_code(w, g, *k);
        }
    else if (r->is_rlist)
        template_code(w, r);
    else
        graph_code(w, &r->g, 0);
    fclose(m);
    w->o = o;
    const char **locals = calloc(2 * (size_t)sc->syms.n + 1, sizeof *locals);
    size_t nl = 0;
    for (uint32_t j = 0; locals && j < sc->syms.n; j++) {
        const xf_symbol *s = sc->syms.v[j];
        const cw_sym *c = &w->syms[s->index];
        if (c->formal || c->global || cw_rt(s))
            continue;
        if (c->used)
            locals[nl++] = c->name;
        if (c->dused)
            locals[nl++] = c->dname;
    }
    if (locals)
        text = cw_tidy(text, locals, nl);
    free(locals);
    const char *iname = w->iname[r->index];
    fprintf(o, "\n%svoid\n", iname ? "static " : "");
    if (variant >= 0)
        cw_variant_name(w, o, r, (cw_jvariant)variant);
    else
        fputs(iname ? iname : w->rname[r->index], o);
    params(w, o, r, true);
    fputs("\n{\n", o);
    for (uint32_t j = 0; j < sc->syms.n; j++)
        if (!w->syms[sc->syms.v[j]->index].formal)
            declare(w, o, sc->syms.v[j], false, text);
    if (w->ltape && (w->lbad || w->ln[0] || w->ln[1]))
        cw_refuse(w, r->h.line, "internal: the local tape of %s is out of step", r->sym->id);
    for (int k = 0; k < w->lmax[0] + w->lmax[1]; k++) /* its local tape */
        fprintf(o, "    %s xf_t%c%d = 0;\n", k < w->lmax[0] ? "double" : "long",
                k < w->lmax[0] ? 'r' : 'i', k < w->lmax[0] ? k : k - w->lmax[0]);
    w->ltape = false;
    if (text)
        fputs(text, o);
    cw_rt_free(w, o, sc, text);
    fputs("}\n", o);
    free(text);
}

/* One routine into @o: its function(s). */
static void
routine(cw *w, FILE *o, const xf_routine *r)
{
    const xf_scope *sc = r->cfg_scope;
    if (!sc) {
        cw_refuse(w, r->h.line, "routine %s has no local scope", r->sym ? r->sym->id : "?");
        return;
    }
    for (uint32_t i = 0; i < r->args.n; i++) {
        const xf_argsym *f = &r->args.v[i];
        if (!f->sym || f->scope != sc) {
            cw_refuse(w, f->h.line, "a formal of %s is not in its local scope", r->sym->id);
            return;
        }
        w->syms[f->sym->index].formal = true;
    }
    if (w->rext[r->index]) { /* the user's derivatives */
        cw_ext_routine(w, o, r);
        for (uint32_t i = 0; i < r->args.n; i++)
            w->syms[r->args.v[i].sym->index].formal = false;
        return;
    }
    w->cur = r;
    w->rfloat = cw_float_routine(w, r);
    bool tpl = r->is_rlist;
    bool joint = tpl && w->joint;
    for (int v = 0; v < (joint ? CW_JV_COUNT : 1) && !w->failed; v++)
        if (!joint || (w->jneed[r->index] >> v & 1))
            function(w, o, r, joint ? v : -1);
    const char *name = w->rname[r->index];
    if (w->wrapped[r->index]) { /* the entry a user calls, with the user's signature */
        if (!cw_iface_dead(w, r->index))
            cw_iface_wrapper(w, o, r);
    } else if (tpl) { /* the entry a user calls */
        fprintf(o, "\nvoid\n%s", name);
        params(w, o, r, true);
        fputs("\n{\n", o);
        bool split = w->opts->reversal == XF_C_SPLIT;
        cw_entry_mode(w, o, split ? "tape" : "tape adjoint");
        fprintf(o, "    %s_tpl", name);
        params(w, o, r, false);
        fputs(";\n", o);
        if (split && !w->split) {
            cw_mode_set(o, "    ", "adjoint");
            fprintf(o, "    %s_tpl", name);
            params(w, o, r, false);
            fputs(";\n", o);
        }
        cw_entry_restore(w, o);
        fputs("}\n", o);
    }
    for (uint32_t i = 0; i < r->args.n; i++)
        w->syms[r->args.v[i].sym->index].formal = false;
    w->cur = NULL;
    w->rfloat = false;
}

/* ------------------------------------------------------------ the unit */

static void
header(cw *w, FILE *o)
{
    const char *what = w->mode == CW_PLAIN     ? "the program itself"
                       : w->mode == CW_TANGENT ? "its tangent-linear code (forward mode)"
                                               : "its adjoint code (reverse mode)";
    fprintf(o, "/* Written by xaiform xaif2c from %s: %s.\n *\n",
            w->opts && w->opts->source ? w->opts->source
            : w->doc->filename         ? w->doc->filename
                                       : "an xaif document",
            what);
    bool wrapped = false, stat = false;
    for (uint32_t i = 0; i < w->doc->cg.routines.n; i++) {
        wrapped = wrapped || w->wrapped[i];
        stat = stat || (w->wrapped[i] && w->rstatic[i] && !cw_iface_dead(w, i));
    }
    if (!wrapped)
        fputs(" * Every argument is passed by reference (a pointer), as in xaif; arrays are\n"
              " * flat, column-major, and indexed from their declared lower bounds.\n",
              o);
    if (w->mode == CW_TANGENT)
        fputs(" * Tangent: routine f is f_d; each active real argument x is followed by\n"
              " * its derivative xd. On return yd = J * xd for every output y.\n",
              o);
    if (w->mode == CW_ADJOINT && w->opts->split_as_joint)
        fputs(" * Split reversal was asked for: a single routine that calls none runs\n"
              " * both sweeps back to back in one call, which is its joint reversal.\n",
              o);
    if (w->mode == CW_ADJOINT)
        fprintf(o,
                " * Adjoint (%s reversal): routine f is f_b; each active real argument x is\n"
                " * followed by its adjoint xb. f_b adds J^T * yb to xb and consumes yb (the\n"
                " * adjoints of outputs are zero on return), as Tapenade's f_b does. Tapes\n"
                " * and checkpoints live in xaiform/ad.h (xf_ad_state); xf_ad_release()\n"
                " * frees them.\n",
                w->opts->reversal == XF_C_SPLIT ? "split" : "joint");
    if (wrapped)
        fputs(" * Each C function keeps its own signature (docs/c-backend.md, C interfaces):\n"
              " * by-value parameters stay by value and are the function's own copies;\n"
              " * const is kept; tangent: T f_d(..., x, xd, ..., T *f) returns the\n"
              " * derivative of the result and writes its value through the last\n"
              " * argument; adjoint: void f_b(..., x, T *xb, ..., T fb) adds to xb, fb by\n"
              " * value. The generated calls go to an inner function (NAME_tpl, xf_fn_NAME)\n"
              " * that passes every argument by reference.\n",
              o);
    fputs(" * Routines:", o);
    for (uint32_t i = 0; i < w->doc->cg.routines.n; i++)
        if (w->rname[i])
            fprintf(o, " %s (%s)", w->rname[i], w->doc->cg.routines.v[i]->sym->id);
    fprintf(o, ".\n */\n#include <math.h>\n\n#include \"%s\"\n",
            w->opts->header ? w->opts->header : "xaiform/ad.h");
    if (stat) /* a static function's wrapper may have no caller in this file */
        fputs("\n#if defined(__GNUC__)\n#define XF_UNUSED __attribute__((unused))\n#else\n"
              "#define XF_UNUSED\n#endif\n",
              o);
}

int
xf_xaif2c_write(const xf_doc *doc, FILE *out, const xf_xaif2c_opts *opts, xf_diag *diag)
{
    static const xf_xaif2c_opts dflt = {0};
    cw w = {.doc = doc, .diag = diag, .opts = opts ? opts : &dflt};
    if (doc->kind != XF_DOC_CALLGRAPH) {
        cw_refuse(&w, 0, "the document is an intrinsics catalogue, not a call graph");
        return -1;
    }
    const xf_callgraph *cg = &doc->cg;
    w.mode = doc->deriv.what ? CW_TANGENT : CW_PLAIN;
    for (uint32_t i = 0; i < cg->routines.n; i++)
        if (cg->routines.v[i]->is_rlist)
            w.mode = CW_ADJOINT;
    w.syms = calloc((size_t)doc->nsymbols + 1, sizeof *w.syms);
    w.rname = calloc((size_t)cg->routines.n + 1, sizeof *w.rname);
    w.hascode = calloc((size_t)cg->routines.n + 1, sizeof *w.hascode);
    w.wrapped = calloc((size_t)cg->routines.n + 1, sizeof *w.wrapped);
    w.rstatic = calloc((size_t)cg->routines.n + 1, sizeof *w.rstatic);
    w.iname = calloc((size_t)cg->routines.n + 1, sizeof *w.iname);
    char *units = NULL, *text = NULL;
    size_t ulen = 0, tlen = 0;
    FILE *u = NULL, *t = NULL;
    if (!w.syms || !w.rname || !w.hascode || !w.wrapped || !w.rstatic || !w.iname) {
        cw_refuse(&w, 0, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < cg->routines.n; i++) {
        const xf_routine *r = cg->routines.v[i];
        if (r->index != i) {
            cw_refuse(&w, r->h.line, "internal: routine index out of order");
            goto out;
        }
        bool code = false;
        if (r->is_rlist)
            for (int k = 1; k <= 13; k++)
                code = code || cw_placeholder(r, k);
        else
            code = graph_has_entry(&r->g);
        w.hascode[i] = code && r->sym;
    }
    if (!cw_iface_read(&w) || !cw_ext_read(&w) || !cw_names(&w) || !cw_joint_init(&w))
        goto out;
    for (uint32_t i = 0; i < cg->routines.n; i++) { /* the functions the calls go to */
        if (!w.rname[i] || (!cg->routines.v[i]->is_rlist && !w.wrapped[i]))
            continue;
        size_t n = strlen(w.rname[i]) + 8;
        if (!(w.iname[i] = malloc(n))) {
            cw_refuse(&w, 0, "out of memory");
            goto out;
        }
        snprintf(w.iname[i], n, cg->routines.v[i]->is_rlist ? "%s_tpl" : "xf_fn_%s", w.rname[i]);
    }
    if (!cw_split_init(&w))
        goto out;
    if (!(u = open_memstream(&units, &ulen))) {
        cw_refuse(&w, 0, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < cg->routines.n && !w.failed; i++)
        if (w.hascode[i])
            routine(&w, u, cg->routines.v[i]);
    fclose(u);
    u = NULL;
    if (w.failed)
        goto out;
    if (!(t = open_memstream(&text, &tlen))) {
        cw_refuse(&w, 0, "out of memory");
        goto out;
    }
    header(&w, t);
    cw_struct_types(&w, t);
    if (w.opts->prototypes)
        cw_struct_types(&w, w.opts->prototypes);
    for (uint32_t i = 0; i < doc->nsymbols; i++) /* a shared variable is declared once */
        if (w.syms[i].same) {
            w.syms[w.syms[i].same - 1].used |= w.syms[i].used;
            w.syms[w.syms[i].same - 1].dused |= w.syms[i].dused;
            w.syms[i].used = w.syms[i].dused = false;
        }
    bool any = false;
    for (uint32_t i = 0; i < cg->scopes.v.n; i++) {
        const xf_scope *sc = cg->scopes.v.v[i];
        for (uint32_t j = 0; j < sc->syms.n; j++)
            if (w.syms[sc->syms.v[j]->index].global) {
                if (!any &&
                    (w.syms[sc->syms.v[j]->index].used || w.syms[sc->syms.v[j]->index].dused))
                    fputs("\n/* global variables */\n", t);
                any =
                    any || w.syms[sc->syms.v[j]->index].used || w.syms[sc->syms.v[j]->index].dused;
                declare(&w, t, sc->syms.v[j], true, NULL);
            }
    }
    fputs("\n", t);
    for (uint32_t i = 0; i < cg->routines.n; i++) {
        const xf_routine *r = cg->routines.v[i];
        if (!w.hascode[i])
            continue;
        if (w.wrapped[i] && cw_iface_dead(&w, i)) {
            /* no wrapper: its inner functions only */
        } else if (w.wrapped[i]) {
            cw_iface_signature(&w, t, r, false);
            fputs(";\n", t);
            if (w.opts->prototypes && !w.rstatic[i]) {
                cw_iface_signature(&w, w.opts->prototypes, r, false);
                fputs(";\n", w.opts->prototypes);
            }
        } else {
            fprintf(t, "void %s", w.rname[i]);
            params(&w, t, r, true);
            fputs(";\n", t);
            if (w.opts->prototypes) {
                fprintf(w.opts->prototypes, "void %s", w.rname[i]);
                params(&w, w.opts->prototypes, r, true);
                fputs(";\n", w.opts->prototypes);
            }
        }
        for (int v = 0; w.iname[i] && v < CW_JV_COUNT; v++) {
            bool joint = w.joint && r->is_rlist;
            if (joint ? !(w.jneed[i] >> v & 1) : v > 0)
                continue;
            fputs("static void ", t);
            if (joint)
                cw_variant_name(&w, t, r, (cw_jvariant)v);
            else
                fputs(w.iname[i], t);
            params(&w, t, r, true);
            fputs(";\n", t);
        }
    }
    fputs(units ? units : "", t);
    fclose(t);
    t = NULL;
    if (!w.failed && fwrite(text, 1, tlen, out) != tlen)
        cw_refuse(&w, 0, "cannot write the output");
out:
    if (u)
        fclose(u);
    if (t)
        fclose(t);
    free(units);
    free(text);
    cw_names_free(&w);
    cw_struct_free(&w);
    cw_joint_free(&w);
    cw_split_free(&w);
    free(w.syms);
    free(w.rname);
    free(w.hascode);
    if (w.iname)
        for (uint32_t i = 0; i < doc->cg.routines.n; i++)
            free(w.iname[i]);
    free(w.iname);
    free(w.wrapped);
    free(w.rstatic);
    free(w.rext);
    free(w.lbl);
    free(w.nck);
    free(w.nres);
    return w.failed ? -1 : 0;
}
