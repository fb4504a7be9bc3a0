/* f_marker.c: the front ends' Markers and passive statements in Fortran
 * (docs/fortran-backend.md, "Markers and passive statements").
 *
 * OpenAD's front end leaves a statement it does not translate as a Marker
 * whose annotation names its WHIRL node and operator ("{WHIRL_Id#13}
 * [passive: OPR_STID]"), never its text: the text is in the WHIRL file,
 * which is no part of the xaif. A Marker for something that does nothing
 * when the program runs (a directive, a comment, a USE, a label or jump the
 * control-flow graph already has) is left out; one for a statement that
 * does something is refused with its line, except where what it did is
 * visibly not needed (below). A Marker whose annotation is
 * "xf_fortran=TEXT" carries its source's text and is written as TEXT.
 * The C front end's passive calls (InlinableSubroutineCall "xf_passive_NAME",
 * frontends/c2xaif/passive.c) carry their text as string constants and
 * values: assert, abort, exit, puts and printf are written as Fortran. */
#include <stdlib.h>
#include <string.h>

#include "f_impl.h"

/* ------------------------------------------------------------ markers */

/* What the routine reads and writes, per symbol (values, not derivatives). */
typedef struct rw {
    bool *rd, *wr;
} rw;

static void expr_reads(rw *u, const xf_expr *x);

static void
ref_uses(rw *u, const xf_varref *r, bool read, bool write)
{
    const xf_symref *sr = xf_varref_symref(r);
    if (sr && sr->sym && !xf_flag_is(r->deriv, false)) {
        u->rd[sr->sym->index] |= read;
        u->wr[sr->sym->index] |= write;
    }
    for (uint32_t i = 0; i < r->v.n; i++)
        if (r->v.v[i].kind == XF_VR_ARRAY)
            for (uint32_t k = 0; k < r->v.v[i].u.arr.t.n; k++) {
                const xf_triplet *t = &r->v.v[i].u.arr.t.v[k];
                if (t->index)
                    expr_reads(u, t->index);
                if (t->bound)
                    expr_reads(u, t->bound);
                if (t->stride)
                    expr_reads(u, t->stride);
            }
}

static void
expr_reads(rw *u, const xf_expr *x)
{
    for (uint32_t i = 0; i < x->v.n; i++) {
        const xf_evertex *v = &x->v.v[i];
        if (v->kind == XF_EV_VARREF)
            ref_uses(u, v->u.ref, true, false);
        else if (v->kind == XF_EV_FUNCALL)
            for (uint32_t k = 0; k < v->u.fn.args.n; k++)
                ref_uses(u, v->u.fn.args.v[k], true, true);
    }
}

/* An argument of a call: read, and written where it is a variable. */
static void
args_uses(rw *u, const xf_arg_vec *a)
{
    for (uint32_t i = 0; i < a->n; i++) {
        const xf_expr *x = &a->v[i].val;
        expr_reads(u, x);
        for (uint32_t k = 0; k < x->v.n; k++)
            if (x->v.v[k].kind == XF_EV_VARREF)
                ref_uses(u, x->v.v[k].u.ref, false, true);
    }
}

/* Does the runtime's inlinable call @name only read its arguments (a
 * tape push, an argument or snapshot store)? Its reading a variable the
 * code never sets does not set it. */
static bool
saves_only(const char *name)
{
    return name && (strstr(name, "push") || strstr(name, "store"));
}

static void
stmt_uses(rw *u, const xf_stmt *s)
{
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        ref_uses(u, &s->u.as.lhs, false, true);
        expr_reads(u, &s->u.as.rhs);
        return;
    case XF_STMT_CALL:
        args_uses(u, &s->u.call.args);
        return;
    case XF_STMT_ICALL:
        if (saves_only(s->u.icall.name)) /* a push or store reads what it saves */
            for (uint32_t i = 0; i < s->u.icall.args.n; i++)
                expr_reads(u, &s->u.icall.args.v[i].val);
        else
            args_uses(u, &s->u.icall.args);
        return;
    case XF_STMT_MARKER:
        return;
    case XF_STMT_DERIVPROP:
        for (uint32_t i = 0; i < s->u.dp.n; i++)
            for (uint32_t k = 0; k < s->u.dp.v[i].ax.n; k++)
                expr_reads(u, &s->u.dp.v[i].ax.v[k].a);
        return;
    }
}

static void
graph_uses(rw *u, const xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        const xf_cvertex *v = g->v.v[i];
        if (v->cond)
            expr_reads(u, v->cond);
        if (v->init)
            stmt_uses(u, v->init);
        if (v->update)
            stmt_uses(u, v->update);
        for (uint32_t k = 0; k < v->stmts.n; k++)
            stmt_uses(u, v->stmts.v[k]);
    }
}

/* A local of the current routine (no formal) that some statement of it
 * reads and none writes, or NULL. */
static const xf_symbol *
read_never_set(fw *w)
{
    const xf_routine *r = w->cur;
    const xf_scope *sc = r ? r->cfg_scope : NULL;
    const xf_symbol *found = NULL;
    rw u = {calloc((size_t)w->doc->nsymbols + 1, 1), calloc((size_t)w->doc->nsymbols + 1, 1)};
    if (!u.rd || !u.wr) {
        fw_refuse(w, r ? r->h.line : 0, "out of memory");
        goto out;
    }
    graph_uses(&u, &r->g);
    for (uint32_t i = 0; i < r->reps.n; i++)
        graph_uses(&u, &r->reps.v[i]->g);
    for (uint32_t j = 0; sc && j < sc->syms.n && !found; j++) {
        const xf_symbol *s = sc->syms.v[j];
        if (s->kind == XF_SYMKIND_VARIABLE && !w->syms[s->index].formal && u.rd[s->index] &&
            !u.wr[s->index])
            found = s;
    }
out:
    free(u.rd);
    free(u.wr);
    return found;
}

/* Whether the current routine has an allocatable local (an array without
 * bounds that is no formal): the writer allocates it itself. */
static bool
has_allocatable(const fw *w)
{
    const xf_scope *sc = w->cur ? w->cur->cfg_scope : NULL;
    for (uint32_t j = 0; sc && j < sc->syms.n; j++)
        if (!w->syms[sc->syms.v[j]->index].formal && fw_allocatable(w, sc->syms.v[j]))
            return true;
    return false;
}

static const char text_key[] = "xf_fortran=";

void
fw_marker(fw *w, const xf_stmt *s)
{
    const char *an = s->h.annotation ? s->h.annotation : "";
    if (!strncmp(an, text_key, sizeof text_key - 1)) { /* the source's own text */
        const char *p = an + sizeof text_key - 1;
        while (*p) {
            size_t k = strcspn(p, "\n");
            fprintf(w->o, "  %.*s\n", (int)k, p);
            p += k + (p[k] == '\n');
        }
        return;
    }
    /* nothing happens there when the program runs */
    static const char *const inert[] = {"OPR_PRAGMA", "OPR_XPRAGMA", "OPR_COMMENT", "OPR_USE",
                                        "OPR_RETURN", "{StmtLabel#", "{StmtGoto#"};
    for (size_t i = 0; i < sizeof inert / sizeof *inert; i++)
        if (strstr(an, inert[i]))
            return;
    if (!*an)
        return;
    if (strstr(an, "OPR_STID") || strstr(an, "OPR_ISTORE") || strstr(an, "OPR_PSTORE")) {
        /* a store: it matters where the routine reads a local that nothing
         * else sets (the loop-bound temporaries t__N it sets are never read) */
        const xf_symbol *v = read_never_set(w);
        if (v)
            fw_refuse(w, s->h.line,
                      "the Marker '%s' stands for a store the front end did not write out, and "
                      "%s is read but set by no statement: its value is not in the xaif",
                      an, v->id);
        return;
    }
    if (strstr(an, "OPR_CALL")) {
        /* OpenAD's front end leaves ALLOCATE so; the writer allocates an
         * allocatable local at its first store (docs/fortran-backend.md) */
        if (!has_allocatable(w))
            fw_refuse(w, s->h.line,
                      "the Marker '%s' stands for a call the front end did not write out "
                      "(its text is not in the xaif)",
                      an);
        return;
    }
    const char *what = strstr(an, "cassignstmt") ? "a character assignment"
                       : strstr(an, "***]")      ? "an I/O statement"
                                                 : "a statement";
    fw_refuse(w, s->h.line,
              "the Marker '%s' stands for %s whose text is not in the xaif (only a Marker "
              "annotated '%s...' carries its text)",
              an, what, text_key);
}

/* ------------------------------------------------------------ passive calls */

/* Write the C string literal(s) @c (their C spelling: "..." "...") as
 * non-advancing writes to @unit, at most 60 characters each, a newline
 * ending the record; false where an escape has no meaning here. */
static bool
c_string(fw *w, const char *ind, const char *unit, const char *c)
{
    char buf[64];
    int n = 0;
    bool open = false;
    for (const char *p = c; *p; p++) {
        if (!open) {
            if (*p == '"')
                open = true;
            else if (*p != ' ')
                return false;
            continue;
        }
        char ch = *p;
        bool nl = false;
        if (ch == '"') {
            open = false;
            continue;
        }
        if (ch == '\\') {
            char e = *++p;
            if (!e)
                return false;
            ch = e == '\\' ? '\\' : e == '"' ? '"' : e == '\'' ? '\'' : e == 't' ? '\t' : 0;
            nl = e == 'n';
            if (!ch && !nl)
                return false;
        }
        if (n && (nl || n >= 58 || ch == '\t')) {
            fprintf(w->o, "%swrite (%s, '(a)', advance='no') '%.*s'\n", ind, unit, n, buf);
            n = 0;
        }
        if (nl)
            fprintf(w->o, "%swrite (%s, '(a)') ''\n", ind, unit);
        else if (ch == '\t')
            fprintf(w->o, "%swrite (%s, '(a)', advance='no') achar(9)\n", ind, unit);
        else {
            if (ch == '\'')
                buf[n++] = '\'';
            buf[n++] = ch;
        }
    }
    if (n)
        fprintf(w->o, "%swrite (%s, '(a)', advance='no') '%.*s'\n", ind, unit, n, buf);
    return !open;
}

static const xf_expr *
string_const(const xf_expr *x)
{
    return x && x->v.n == 1 && x->v.v[0].kind == XF_EV_CONSTANT &&
                   x->v.v[0].u.c.type == XF_TYPE_STRING && x->v.v[0].u.c.value
               ? x
               : NULL;
}

/* A value printed as printf's conversion @conv would, in Fortran's g0 (i0
 * for an integer) form: width and precision are not kept. */
static bool
value(fw *w, const xf_expr *x, char conv)
{
    if (!x || string_const(x) || !strchr("diufeEgGc", conv))
        return false;
    char *t = NULL;
    size_t len = 0;
    FILE *saved = w->o, *m = open_memstream(&t, &len);
    if (!m)
        return false;
    w->o = m;
    fw_type ty = fw_expr(w, x);
    fclose(m);
    w->o = saved;
    if (ty == FT_BAD || ty == FT_BOOL) {
        free(t);
        return false;
    }
    fprintf(w->o, "  write (*, '(%s)', advance='no') %s\n", ty == FT_INT ? "i0" : "g0", t);
    free(t);
    return true;
}

/* printf(FMT, args): FMT's text and the values in order. FMT is the C
 * spelling ("x = %g\\n"): it is cut at each conversion into pieces, each
 * written as a string of its own. */
static bool
printf_call(fw *w, const xf_expr *const *arg, uint32_t n)
{
    const char *f = string_const(arg[0]) ? arg[0]->v.v[0].u.c.value : NULL;
    char *piece = f ? malloc(strlen(f) + 3) : NULL;
    if (!piece)
        return false;
    uint32_t next = 1;
    size_t k = 0;
    bool ok = true, open = false;
    for (const char *p = f; *p && ok; p++) {
        if (*p == '"')
            open = !open;
        if (open && *p == '\\' && p[1]) {
            piece[k++] = *p++;
            piece[k++] = *p;
            continue;
        }
        if (!open || *p != '%' || p[1] == '%') {
            piece[k++] = *p;
            p += open && *p == '%';
            continue;
        }
        piece[k++] = '"';
        piece[k] = 0;
        ok = c_string(w, "  ", "*", piece);
        k = 0;
        piece[k++] = '"';
        p += strspn(p + 1, "-+ #0123456789.lhz") + 1; /* flags, width, precision, length */
        ok = ok && *p && next < n && value(w, arg[next++], *p);
    }
    piece[k] = 0;
    ok = ok && c_string(w, "  ", "*", piece) && next == n;
    free(piece);
    return ok;
}

bool
fw_passive(fw *w, const xf_stmt *s)
{
    const char *n = s->u.icall.name;
    if (!n || strncmp(n, "xf_passive_", 11))
        return false;
    n += 11;
    const xf_expr *arg[32] = {0};
    uint32_t na = s->u.icall.args.n;
    for (uint32_t i = 0; i < na; i++) {
        int64_t p = s->u.icall.args.v[i].pos;
        if (na > 32 || p < 1 || p > (int64_t)na || arg[p - 1]) {
            fw_refuse(w, s->h.line, "%s: argument %lld out of place", s->u.icall.name,
                      (long long)p);
            return true;
        }
        arg[p - 1] = &s->u.icall.args.v[i].val;
    }
    bool ok = false;
    if (!strcmp(n, "assert") && na == 2 && !string_const(arg[0]) && string_const(arg[1])) {
        fputs("  if (", w->o);
        if (fw_expr(w, arg[0]) == FT_BAD)
            return true;
        fputs(" == 0) then\n    block\n      use, intrinsic :: iso_fortran_env, only: "
              "xf_err => error_unit\n",
              w->o);
        ok = c_string(w, "      ", "xf_err", arg[1]->v.v[0].u.c.value);
        fputs("      write (xf_err, '(a)') ''\n    end block\n    error stop\n  end if\n", w->o);
    } else if (!strcmp(n, "abort") && na == 0) {
        fputs("  error stop\n", w->o);
        ok = true;
    } else if (!strcmp(n, "exit") && na == 1 && !string_const(arg[0])) {
        fputs("  if ((", w->o);
        ok = fw_expr(w, arg[0]) == FT_INT;
        fputs(") == 0) stop\n  error stop\n", w->o);
    } else if (!strcmp(n, "puts") && na == 1 && string_const(arg[0])) {
        ok = c_string(w, "  ", "*", arg[0]->v.v[0].u.c.value);
        fputs("  write (*, '(a)') ''\n", w->o);
    } else if (!strcmp(n, "printf") && na >= 1)
        ok = printf_call(w, arg, na);
    if (!ok && !w->failed)
        fw_refuse(w, s->h.line,
                  "the passive call %s: only assert, abort, exit, puts and printf (a literal "
                  "format whose conversions are d, i, u, f, e, g or c of numbers) have Fortran "
                  "here",
                  n);
    return true;
}
