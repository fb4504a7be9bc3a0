/* f_unit.c: a whole document as one Fortran source file: the comment header
 * that states the conventions, a module with the global variables (and
 * their derivative twins), and one subroutine per routine with code. An
 * adjoint routine (a ReplacementList) becomes the template that OpenAD's
 * joint or split reversal runs (§5.4 of docs/xaif-execution.md): NAME_tpl
 * routes its placeholders by the mode record of module xaiform_ad, and NAME,
 * the entry a user calls, tapes and adjoins. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "f_impl.h"

void
fw_refuse(fw *w, uint32_t line, const char *fmt, ...)
{
    if (w->failed)
        return;
    w->failed = true;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    xf_error(w->diag, w->doc->filename, line, "cannot write Fortran: %s", msg);
}

const xf_routine *
fw_routine_of(const fw *w, const xf_symbol *sym)
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

static const xf_graph *
placeholder(const xf_routine *r, int k)
{
    char name[8];
    snprintf(name, sizeof name, "%d", k);
    for (uint32_t i = 0; i < r->reps.n; i++)
        if (r->reps.v[i]->placeholder && !strcmp(r->reps.v[i]->placeholder, name) &&
            graph_has_entry(&r->reps.v[i]->g))
            return &r->reps.v[i]->g;
    return NULL;
}

static const char *
module_name(const fw *w)
{
    return w->mode == FW_TANGENT   ? "xf_tangent"
           : w->mode == FW_ADJOINT ? "xf_adjoint"
                                   : "xf_program";
}

/* ------------------------------------------------------------ declarations */

static const char *
zero_of(const xf_symbol *s, bool deriv)
{
    if (deriv)
        return "0.0d0";
    fw_type t = fw_type_of_sym(s);
    return t == FT_BOOL ? ".false." : t == FT_INT ? "0" : t == FT_STR ? "''" : "0.0d0";
}

bool
fw_optional(const fw *w, const xf_symbol *s)
{
    const xf_routine *top = w->opts->top;
    if (!top || w->opts->optional_from < 1)
        return false;
    for (uint32_t i = 0; i < top->args.n; i++)
        if (top->args.v[i].sym == s && top->args.v[i].pos >= w->opts->optional_from)
            return true;
    return false;
}

static void
declare(fw *w, FILE *o, const xf_symbol *s, bool global)
{
    const fw_sym *c = &w->syms[s->index];
    const char *t = fw_ftype(w, s, 0);
    if (!t)
        return;
    for (int d = 0; d < 2; d++) {
        if (!(d ? c->dused : c->used) && !(c->formal && (d ? c->dname != NULL : true)))
            continue;
        bool alloc = fw_allocatable(w, s);
        fprintf(o, "  %s%s%s :: %s", d ? "double precision" : t, alloc ? ", allocatable" : "",
                c->formal && fw_optional(w, s) ? ", optional" : "", d ? c->dname : c->name);
        if (!fw_dims(w, o, s, 0))
            return;
        if (global && !alloc && fw_type_of_sym(s) != FT_STR) /* deferred length */
            fprintf(o, " = %s", zero_of(s, d));
        fputs("\n", o);
    }
}

/* Locals are zero at each activation (OpenAD's default initialisation). */
static void
zero_locals(fw *w, FILE *o, const xf_scope *sc)
{
    for (uint32_t j = 0; j < sc->syms.n; j++) {
        const xf_symbol *s = sc->syms.v[j];
        const fw_sym *c = &w->syms[s->index];
        if (c->formal || s->kind != XF_SYMKIND_VARIABLE || fw_allocatable(w, s))
            continue;
        if (c->used)
            fprintf(o, "  %s = %s\n", c->name, zero_of(s, false));
        if (c->dused)
            fprintf(o, "  %s = 0.0d0\n", c->dname);
    }
}

static const xf_argsym *
formal_at(const xf_routine *r, int64_t p)
{
    for (uint32_t i = 0; i < r->args.n; i++)
        if (r->args.v[i].pos == p)
            return &r->args.v[i];
    return NULL;
}

/* A derivative formal that no statement reads or writes (no derivative
 * flows through its primal here) stays in the interface that callers and
 * drivers use, f_d(x, xd, ...); a statement that never runs references it,
 * for gfortran -Wall's -Wunused-dummy-argument. */
static void
unused_derivs(fw *w, FILE *o, const xf_routine *r)
{
    for (uint32_t i = 0; i < r->args.n; i++) {
        const fw_sym *c = &w->syms[r->args.v[i].sym->index];
        if (c->dname && !c->dused)
            fprintf(o,
                    "  ! no derivative flows through %s here: %s is only kept\n"
                    "  if (.false.) %s = %s\n",
                    c->name, c->dname, c->dname, c->dname);
    }
}

/* "(x, xd, y, yd)" */
static void
params(fw *w, FILE *o, const xf_routine *r)
{
    fputs("(", o);
    for (int64_t p = 1; p <= (int64_t)r->args.n; p++) {
        const xf_argsym *f = formal_at(r, p);
        if (!f || !f->sym) {
            fw_refuse(w, r->h.line, "argument positions of %s are not 1, 2, ...",
                      r->sym ? r->sym->id : "a routine");
            return;
        }
        const fw_sym *c = &w->syms[f->sym->index];
        fprintf(o, "%s%s", p > 1 ? ", " : "", c->name);
        if (c->dname)
            fprintf(o, ", %s", c->dname);
    }
    fputs(")", o);
}

/* ------------------------------------------------------------ bodies */

static void
mode_set(FILE *o, const char *indent, const char *flags)
{
    /* ORDER: xf_mode_set's arguments */
    static const char *const names[] = {"arg_store", "arg_restore", "plain", "tape", "adjoint"};
    fprintf(o, "%scall xf_mode_set(", indent);
    for (int k = 0; k < 5; k++) {
        const char *f = strstr(flags, names[k]);
        size_t n = strlen(names[k]);
        bool on = f && (f == flags || f[-1] == ' ') && (f[n] == ' ' || !f[n]);
        fprintf(o, "%s%s", k ? ", " : "", on ? ".true." : ".false.");
    }
    fputs(")\n", o);
}

char *
fw_text(fw *w, void (*write)(fw *, const void *), const void *arg)
{
    FILE *saved = w->o;
    char *s = NULL;
    size_t len = 0;
    if (!(w->o = open_memstream(&s, &len))) {
        w->o = saved;
        fw_refuse(w, 0, "out of memory");
        return NULL;
    }
    write(w, arg);
    fclose(w->o);
    w->o = saved;
    if (w->failed) {
        free(s);
        return NULL;
    }
    return s;
}

static void
write_graph(fw *w, const void *g)
{
    fw_graph(w, g);
}

/* @g's code (malloc'd, "" where it writes none); NULL after a refusal. */
static char *
graph_text(fw *w, const xf_graph *g)
{
    return fw_text(w, write_graph, g);
}

/* @text inside an IF block: two more columns. */
static void
in_block(fw *w, const char *text)
{
    for (const char *p = text; p && *p;) {
        size_t k = strcspn(p, "\n");
        fprintf(w->o, "  %.*s\n", (int)k, p);
        p += k + (p[k] == '\n');
    }
}

/* "if (xf_m%FLAG) then", @g's code, "end if"; nothing where @g writes no
 * code (gfortran would compile the empty block, but a reader need not see it). */
static void
flag_block(fw *w, const char *flag, const xf_graph *g)
{
    char *t = g ? graph_text(w, g) : NULL;
    if (t && *t) {
        fprintf(w->o, "  if (xf_m%%%s) then\n", flag);
        in_block(w, t);
        fputs("  end if\n", w->o);
    }
    free(t);
}

/* @g's code inside the IF block of a mode (@g NULL: none). */
static void
graph_block(fw *w, const xf_graph *g)
{
    char *t = g ? graph_text(w, g) : NULL;
    in_block(w, t);
    free(t);
}

/* The template's body: OpenAD's ad_template.joint.f or .split.f. */
static void
template_code(fw *w, const xf_routine *r)
{
    FILE *o = w->o;
    const xf_graph *p[8] = {0};
    for (int k = 1; k <= 6; k++)
        p[k] = placeholder(r, k);
    if (w->opts->reversal == XF_F_SPLIT) {
        static const char *const flag[] = {"", "plain", "tape", "adjoint"};
        for (int k = 1; k <= 3 && !w->failed; k++)
            flag_block(w, flag[k], p[k]);
        return;
    }
    for (int k = 4; k <= 6 && !w->failed; k += 2)
        flag_block(w, k == 4 ? "arg_store" : "arg_restore", p[k]);
    fputs("  if (xf_m%plain) then\n", o);
    in_block(w, "  xf_saved = xf_m\n  xf_m%arg_store = .false.");
    graph_block(w, p[1]);
    in_block(w, "  xf_m = xf_saved");
    fputs("  end if\n  if (xf_m%tape) then\n", o);
    mode_set(o, "    ", "arg_store plain");
    if (!w->failed)
        graph_block(w, p[2]);
    mode_set(o, "    ", "adjoint");
    fputs("  end if\n  if (xf_m%adjoint) then\n", o);
    mode_set(o, "    ", "arg_restore tape");
    if (!w->failed)
        graph_block(w, p[3]);
    mode_set(o, "    ", "arg_restore tape");
    fputs("  end if\n", o);
}

/* What every subroutine starts with: USE, IMPLICIT NONE, the formals' declarations. */
static void
prologue(fw *w, FILE *o, const xf_routine *r, const char *name)
{
    fprintf(o, "\nsubroutine %s", name);
    params(w, o, r);
    fputs("\n", o);
    for (uint32_t i = 0; i < r->args.n; i++)
        declare(w, o, r->args.v[i].sym, false);
}

void
fw_routine(fw *w, FILE *o, const xf_routine *r)
{
    const xf_scope *sc = r->cfg_scope;
    if (!sc) {
        fw_refuse(w, r->h.line, "routine %s has no local scope", r->sym ? r->sym->id : "?");
        return;
    }
    for (uint32_t i = 0; i < r->args.n; i++) {
        const xf_argsym *f = &r->args.v[i];
        if (!f->sym || f->scope != sc) {
            fw_refuse(w, f->h.line, "a formal of %s is not in its local scope", r->sym->id);
            return;
        }
        w->syms[f->sym->index].formal = true;
    }
    w->cur = r;
    w->labels = 0;
    w->nz = 0;
    w->need_c = false;
    w->need_sh = false;
    for (uint32_t j = 0; j < sc->syms.n; j++) /* a routine's own marks */
        if (!w->syms[sc->syms.v[j]->index].global)
            w->syms[sc->syms.v[j]->index].used = w->syms[sc->syms.v[j]->index].dused = false;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) {
        fw_refuse(w, r->h.line, "out of memory");
        return;
    }
    w->o = m;
    if (r->is_rlist)
        template_code(w, r);
    else
        fw_graph(w, &r->g);
    fclose(m);
    w->o = o;
    char *inner = w->failed ? NULL : fw_contained(w, r); /* its internal procedures */
    const char *name = w->rname[r->index];
    bool tpl = r->is_rlist;
    char *full = malloc(strlen(name) + 8);
    if (!full) {
        fw_refuse(w, r->h.line, "out of memory");
        free(text);
        free(inner);
        return;
    }
    sprintf(full, "%s%s", name, tpl ? "_tpl" : "");
    prologue(w, o, r, full);
    for (uint32_t j = 0; j < sc->syms.n; j++)
        if (!w->syms[sc->syms.v[j]->index].formal &&
            (w->syms[sc->syms.v[j]->index].used || w->syms[sc->syms.v[j]->index].dused))
            declare(w, o, sc->syms.v[j], false);
    if (w->need_c)
        fputs("  integer :: xf_c\n", o);
    if (w->need_sh)
        fputs("  integer :: xf_sh(7)\n", o);
    if (tpl && w->opts->reversal != XF_F_SPLIT)
        fputs("  type(xf_mode_t) :: xf_saved\n", o);
    for (int k = 0; k < w->nz; k++) {
        fprintf(o, "  double precision :: xf_z%d", k + 1);
        fw_dims(w, o, w->z[k], 0);
        fputs("\n", o);
    }
    zero_locals(w, o, sc);
    unused_derivs(w, o, r);
    if (text)
        fputs(text, o);
    if (inner)
        fprintf(o, "\ncontains\n%s", inner);
    fprintf(o, "end subroutine %s\n", full);
    free(text);
    free(inner);
    if (tpl && !fw_host_of(w, r)) { /* the entry a user calls (an internal one has none) */
        prologue(w, o, r, name);
        fputs("  type(xf_mode_t) :: xf_saved\n  xf_saved = xf_m\n", o);
        bool split = w->opts->reversal == XF_F_SPLIT;
        mode_set(o, "  ", split ? "tape" : "tape adjoint");
        fprintf(o, "  call %s", full);
        params(w, o, r);
        fputs("\n", o);
        if (split) {
            mode_set(o, "  ", "adjoint");
            fprintf(o, "  call %s", full);
            params(w, o, r);
            fputs("\n", o);
        }
        fprintf(o, "  xf_m = xf_saved\nend subroutine %s\n", name);
    }
    free(full);
    for (uint32_t i = 0; i < r->args.n; i++)
        w->syms[r->args.v[i].sym->index].formal = false;
    w->cur = NULL;
}

/* ------------------------------------------------------------ the file */

static void
header(fw *w, FILE *o)
{
    const char *what = w->mode == FW_PLAIN     ? "the program itself"
                       : w->mode == FW_TANGENT ? "its tangent-linear code (forward mode)"
                                               : "its adjoint code (reverse mode)";
    fprintf(o, "! Written by xaiform xaif2f from %s:\n! %s.\n!\n",
            w->opts->source    ? w->opts->source
            : w->doc->filename ? w->doc->filename
                               : "an xaif document",
            what);
    fprintf(o,
            "! Arguments are passed by reference and arrays keep their declared bounds,\n"
            "! as in the source. The routines and the global variables (with their\n"
            "! derivatives) are in module %s: 'use %s' to call them.\n",
            module_name(w), module_name(w));
    if (w->mode == FW_TANGENT)
        fputs("! Tangent: routine f is f_d; each active real argument x is followed by\n"
              "! its derivative xd. On return yd = J * xd for every output y.\n",
              o);
    if (w->mode == FW_ADJOINT)
        fprintf(o,
                "! Adjoint (%s reversal): routine f is f_b; each active real argument x is\n"
                "! followed by its adjoint xb. f_b adds J^T * yb to xb and consumes yb (the\n"
                "! adjoints of outputs are zero on return), as Tapenade's f_b does. Tapes\n"
                "! and checkpoints live in module xaiform_ad (xaiform_ad.f90); call\n"
                "! xf_release() to free them.\n",
                w->opts->reversal == XF_F_SPLIT ? "split" : "joint");
    fputs("! Routines:", o);
    int col = 11;
    for (uint32_t i = 0; i < w->doc->cg.routines.n; i++)
        if (w->rname[i]) {
            int n = (int)(strlen(w->rname[i]) + strlen(w->doc->cg.routines.v[i]->sym->id) + 4);
            if (col + n > 100) {
                fputs("\n!", o);
                col = 1;
            }
            fprintf(o, " %s (%s)", w->rname[i], w->doc->cg.routines.v[i]->sym->id);
            col += n;
        }
    fputs(".\n", o);
}

/* Write @text with every line longer than 100 characters continued (&) at
 * a blank: no token, and no string of the generated code, holds one. */
static int
fw_put_lines(const char *text, FILE *out)
{
    enum { WIDTH = 100 };
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        bool first = true;
        while (n > WIDTH && p[0] != '!') { /* a comment may be long */
            size_t cut = WIDTH;
            while (cut > 10 && p[cut] != ' ')
                cut--;
            if (cut <= 10 || memchr(p, '\'', cut))
                break; /* no blank to break at: left long */
            if (fprintf(out, "%s%.*s &\n", first ? "" : "  & ", (int)cut, p) < 0)
                return -1;
            first = false;
            p += cut + 1;
            n -= cut + 1;
        }
        if (fprintf(out, "%s%.*s\n", first ? "" : "  & ", (int)n, p) < 0)
            return -1;
        p += n + (e ? 1 : 0);
    }
    return 0;
}

static void
signature(fw *w)
{
    const xf_routine *r = w->opts->top;
    xf_xaif2f_sig *sig = w->opts->sig;
    memset(sig, 0, sizeof *sig);
    if (!r || !w->rname[r->index] || r->args.n > XF_F_MAXARGS)
        return;
    snprintf(sig->name, sizeof sig->name, "%s", w->rname[r->index]);
    sig->nargs = (int)r->args.n;
    for (int p = 1; p <= sig->nargs; p++) {
        const xf_argsym *f = formal_at(r, p);
        if (!f || !f->sym)
            return;
        const xf_symbol *s = f->sym;
        fw_type t = fw_type_of_sym(s);
        sig->arg[p - 1].type = t == FT_REAL ? 'r' : t == FT_INT ? 'i' : 'l';
        int rank = xf_shape_rank(s->shape);
        sig->arg[p - 1].rank = rank > 0 ? rank : 0;
        int64_t n = 1;
        if (rank > 0 && (int)s->dims.n != rank)
            n = -1;
        for (int k = 0; rank > 0 && n > 0 && k < rank; k++)
            n *= s->dims.v[k].upper - s->dims.v[k].lower + 1;
        sig->arg[p - 1].size = n;
        sig->arg[p - 1].deriv = w->syms[s->index].dname != NULL;
    }
    sig->found = true;
}

int
xf_xaif2f_write(const xf_doc *doc, FILE *out, const xf_xaif2f_opts *opts, xf_diag *diag)
{
    static const xf_xaif2f_opts dflt = {0};
    fw w = {.doc = doc, .diag = diag, .opts = opts ? opts : &dflt};
    if (doc->kind != XF_DOC_CALLGRAPH) {
        fw_refuse(&w, 0, "the document is an intrinsics catalogue, not a call graph");
        return -1;
    }
    const xf_callgraph *cg = &doc->cg;
    w.mode = doc->deriv.what || w.opts->as_tangent ? FW_TANGENT : FW_PLAIN;
    for (uint32_t i = 0; i < cg->routines.n; i++)
        if (cg->routines.v[i]->is_rlist)
            w.mode = FW_ADJOINT;
    w.syms = calloc((size_t)doc->nsymbols + 1, sizeof *w.syms);
    w.rname = calloc((size_t)cg->routines.n + 1, sizeof *w.rname);
    w.hascode = calloc((size_t)cg->routines.n + 1, sizeof *w.hascode);
    char *units = NULL, *text = NULL;
    size_t ulen = 0, tlen = 0;
    FILE *u = NULL, *t = NULL;
    if (!w.syms || !w.rname || !w.hascode) {
        fw_refuse(&w, 0, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < cg->routines.n; i++) {
        const xf_routine *r = cg->routines.v[i];
        if (r->index != i) {
            fw_refuse(&w, r->h.line, "internal: routine index out of order");
            goto out;
        }
        bool code = false;
        if (r->is_rlist)
            for (int k = 1; k <= 13; k++)
                code = code || placeholder(r, k);
        else
            code = graph_has_entry(&r->g);
        w.hascode[i] = code && r->sym;
    }
    if (!fw_names(&w) || !fw_hosts(&w))
        goto out;
    /* which globals are used: a first pass over every routine into nowhere */
    bool globals = false;
    for (int pass = 0; pass < 2 && !w.failed; pass++) {
        free(units);
        units = NULL;
        if (!(u = open_memstream(&units, &ulen))) {
            fw_refuse(&w, 0, "out of memory");
            goto out;
        }
        for (uint32_t i = 0; i < cg->routines.n && !w.failed; i++)
            if (w.hascode[i] && !fw_host_of(&w, cg->routines.v[i])) /* not internal */
                fw_routine(&w, u, cg->routines.v[i]);
        fclose(u);
        u = NULL;
        for (uint32_t i = 0; i < doc->nsymbols; i++) /* a shared variable is declared once */
            if (w.syms[i].same) {
                w.syms[w.syms[i].same - 1].used |= w.syms[i].used;
                w.syms[w.syms[i].same - 1].dused |= w.syms[i].dused;
                w.syms[i].used = w.syms[i].dused = false;
            }
        for (uint32_t i = 0; i < doc->nsymbols; i++)
            globals = globals || (w.syms[i].global && (w.syms[i].used || w.syms[i].dused));
    }
    if (w.failed)
        goto out;
    if (w.opts->sig)
        signature(&w);
    if (!(t = open_memstream(&text, &tlen))) {
        fw_refuse(&w, 0, "out of memory");
        goto out;
    }
    header(&w, t);
    fprintf(t, "\nmodule %s\n%s  implicit none\n", module_name(&w),
            w.mode == FW_ADJOINT ? "  use xaiform_ad\n" : "");
    if (globals) {
        for (uint32_t i = 0; i < cg->scopes.v.n; i++) {
            const xf_scope *sc = cg->scopes.v.v[i];
            for (uint32_t j = 0; j < sc->syms.n; j++) {
                const fw_sym *c = &w.syms[sc->syms.v[j]->index];
                if (c->global && (c->used || c->dused))
                    declare(&w, t, sc->syms.v[j], true);
            }
        }
    }
    fputs("\ncontains\n", t);
    fputs(units ? units : "", t);
    fprintf(t, "\nend module %s\n", module_name(&w));
    fclose(t);
    t = NULL;
    if (!w.failed && fw_put_lines(text, out) != 0)
        fw_refuse(&w, 0, "cannot write the output");
out:
    if (u)
        fclose(u);
    if (t)
        fclose(t);
    free(units);
    free(text);
    fw_names_free(&w);
    free(w.syms);
    free(w.rname);
    free(w.hascode);
    free(w.host);
    free(w.lbl);
    free(w.z);
    return w.failed ? -1 : 0;
}
