/* f_stmt.c: statements as Fortran: assignments (whole arrays and sections
 * as Fortran's array syntax), calls (each active formal's derivative after
 * it), derivative propagators and the inlinable calls of OpenAD's runtime
 * (§5.2 and §5.6 of docs/xaif-execution.md): tapes and checkpoints become
 * calls of the module xaiform_ad, propagation plain arithmetic. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "f_impl.h"

/* ------------------------------------------------------------ helpers */

static const xf_varref *
arg_ref(const xf_expr *x)
{
    return x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF ? x->v.v[0].u.ref : NULL;
}

/* Write @x to a string; its type in *@t. NULL after a refusal. */
static char *
text_of(fw *w, const xf_expr *x, fw_type *t)
{
    FILE *saved = w->o;
    char *s = NULL;
    size_t len;
    FILE *m = open_memstream(&s, &len);
    if (!m) {
        fw_refuse(w, x->h.line, "out of memory");
        return NULL;
    }
    w->o = m;
    *t = fw_expr(w, x);
    fclose(m);
    w->o = saved;
    if (*t == FT_BAD) {
        free(s);
        return NULL;
    }
    return s;
}

/* Write @x converted to type @want (dble, int); false after a refusal. */
static bool
converted(fw *w, const xf_expr *x, fw_type want)
{
    fw_type t;
    char *s = text_of(w, x, &t);
    if (!s)
        return false;
    if (want == FT_REAL && t == FT_INT)
        fprintf(w->o, "dble(%s)", s);
    else if (want == FT_INT && t == FT_REAL)
        fprintf(w->o, "int(%s)", s);
    else if ((want == FT_BOOL) != (t == FT_BOOL)) {
        free(s);
        fw_refuse(w, x->h.line, "a logical value where a number is wanted, or the reverse");
        return false;
    } else if ((want == FT_STR) != (t == FT_STR)) {
        free(s);
        fw_refuse(w, x->h.line, "a string where a number or logical is wanted, or the reverse");
        return false;
    } else
        fputs(s, w->o);
    free(s);
    return true;
}

static void ensure_alloc(fw *w, const xf_varref *r, bool deriv);

static void
ref_line(fw *w, const xf_varref *r, bool deriv)
{
    ensure_alloc(w, r, deriv);
    fputs("  ", w->o);
    fw_ref(w, r, deriv);
}

/* Before a store into a section of an allocatable (an automatic array of
 * the source: its extent is in no declaration): allocate it, at first use,
 * from 1 to the section's upper bounds. */
static void
ensure_alloc(fw *w, const xf_varref *r, bool deriv)
{
    const xf_symref *sr = xf_varref_symref(r);
    const xf_arrref *a = xf_varref_arrref(r);
    if (!sr || !sr->sym || !a || !fw_allocatable(w, sr->sym) || !a->t.n)
        return;
    for (uint32_t k = 0; k < a->t.n; k++)
        if (!a->t.v[k].bound || (a->t.v[k].index && !a->t.v[k].bound))
            return;
    const fw_sym *c = &w->syms[sr->sym->index];
    const char *name = deriv ? c->dname : c->name;
    if (!name)
        return;
    fprintf(w->o, "  if (.not. allocated(%s)) allocate(%s(", name, name);
    for (uint32_t k = 0; k < a->t.n; k++) {
        fputs(k ? ", 1:" : "1:", w->o);
        fw_expr(w, a->t.v[k].bound);
    }
    fputs("))\n", w->o);
}

/* ------------------------------------------------------------ propagators */

static void
derivprop(fw *w, const xf_dpop *op, uint32_t line)
{
    switch (op->kind) {
    case XF_DP_ZERODERIV:
        ref_line(w, &op->tgt, true);
        fputs(" = 0.0d0\n", w->o);
        return;
    case XF_DP_SETDERIV:
    case XF_DP_SETNEGDERIV:
    case XF_DP_INCDERIV:
    case XF_DP_DECDERIV:
        ref_line(w, &op->tgt, true);
        fputs(" = ", w->o);
        if (op->kind == XF_DP_INCDERIV || op->kind == XF_DP_DECDERIV) {
            fw_ref(w, &op->tgt, true);
            fputs(op->kind == XF_DP_INCDERIV ? " + " : " - ", w->o);
        } else if (op->kind == XF_DP_SETNEGDERIV)
            fputs("-", w->o);
        /* an element from a section of one (the interpreter refuses other
         * counts): Fortran's ranks want that one element, its sum */
        bool one = !fw_is_array(&op->tgt) && fw_is_array(&op->src);
        fputs(one ? "sum(" : "", w->o);
        fw_ref(w, &op->src, true);
        fputs(one ? ")\n" : "\n", w->o);
        return;
    case XF_DP_SAX:
    case XF_DP_SAXPY:
        if (!op->ax.n) {
            fw_refuse(w, line, "a Sax or Saxpy without terms");
            return;
        }
        ref_line(w, &op->y, true);
        fputs(" = ", w->o);
        if (op->kind == XF_DP_SAXPY) {
            fw_ref(w, &op->y, true);
            fputs(" + ", w->o);
        }
        for (uint32_t j = 0; j < op->ax.n; j++) {
            if (j)
                fputs(" + ", w->o);
            fputs("(", w->o);
            fw_expr(w, &op->ax.v[j].a);
            fputs(") * ", w->o);
            fw_ref(w, &op->ax.v[j].x, true);
        }
        fputs("\n", w->o);
        return;
    }
}

/* ------------------------------------------------------------ inlinable calls */

typedef struct iargs {
    const xf_expr *by_pos[8];
    int n;
} iargs;

static bool
collect(fw *w, const xf_stmt *s, iargs *a, int want)
{
    memset(a, 0, sizeof *a);
    for (uint32_t i = 0; i < s->u.icall.args.n; i++) {
        int64_t p = s->u.icall.args.v[i].pos;
        if (p < 1 || p > want) {
            fw_refuse(w, s->h.line, "%s has no argument %lld", s->u.icall.name, (long long)p);
            return false;
        }
        a->by_pos[p - 1] = &s->u.icall.args.v[i].val;
    }
    for (int k = 0; k < want; k++)
        if (!a->by_pos[k]) {
            fw_refuse(w, s->h.line, "%s needs argument %d", s->u.icall.name, k + 1);
            return false;
        }
    a->n = want;
    return true;
}

static const xf_varref *
need_ref(fw *w, const xf_stmt *s, const iargs *a, int k)
{
    const xf_varref *r = arg_ref(a->by_pos[k]);
    if (!r)
        fw_refuse(w, s->h.line, "argument %d of %s must be a variable", k + 1, s->u.icall.name);
    return r;
}

/* A push or pop on stack @st ('t' tape, 'c' argument checkpoints, 's'
 * snapshots) of kind @k ('r', 'i', 'l'): xf_push_<st><k>(v), or the array
 * form xf_push_<st><k>a(v, size(v)), which pops in reverse. */
static void
stack_op(fw *w, const xf_stmt *s, const iargs *a, bool push, char k, char st, bool deriv)
{
    const xf_varref *r = arg_ref(a->by_pos[0]);
    if (!push && !(r = need_ref(w, s, a, 0)))
        return;
    bool arr = r && fw_is_array(r);
    const xf_symref *sr = r ? xf_varref_symref(r) : NULL;
    if (r && !xf_varref_arrref(r) && sr && sr->sym && fw_allocatable(w, sr->sym) &&
        xf_shape_rank(sr->sym->shape) <= 7) {
        /* an allocatable: its extents and a flag (1: allocated) go on the
         * integer tape after it, so that a pop in another activation (the
         * split adjoint sweep) can allocate it */
        int rank = xf_shape_rank(sr->sym->shape);
        fw_sym *c = &w->syms[sr->sym->index];
        const char *nm = deriv ? c->dname : c->name;
        if (!nm) {
            fw_refuse(w, s->h.line, "%s has no derivative component", sr->sym->id);
            return;
        }
        if (deriv)
            c->dused = true;
        else
            c->used = true;
        if (push) {
            fprintf(w->o, "  if (allocated(%s)) then\n  call xf_push_%c%ca(%s, size(%s))\n", nm, st,
                    k, nm, nm);
            for (int d = 1; d <= rank; d++)
                fprintf(w->o, "  call xf_push_ti(size(%s, %d))\n", nm, d);
            fputs("  call xf_push_ti(1)\n  else\n  call xf_push_ti(0)\n  end if\n", w->o);
        } else {
            w->need_c = w->need_sh = true;
            fputs("  call xf_pop_ti(xf_c)\n  if (xf_c == 1) then\n", w->o);
            for (int d = rank; d >= 1; d--)
                fprintf(w->o, "  call xf_pop_ti(xf_sh(%d))\n", d);
            fprintf(w->o, "  if (.not. allocated(%s)) allocate(%s(", nm, nm);
            for (int d = 1; d <= rank; d++)
                fprintf(w->o, "%sxf_sh(%d)", d > 1 ? ", " : "", d);
            fprintf(w->o, "))\n  call xf_pop_%c%ca(%s, size(%s))\n  end if\n", st, k, nm, nm);
        }
        return;
    }
    fprintf(w->o, "  call xf_%s_%c%c%s(", push ? "push" : "pop", st, k, arr ? "a" : "");
    if (r) {
        fw_ref(w, r, deriv);
        if (arr) {
            fputs(", size(", w->o);
            fw_ref(w, r, deriv);
            fputs(")", w->o);
        }
    } else
        converted(w, a->by_pos[0], k == 'r' ? FT_REAL : k == 'i' ? FT_INT : FT_BOOL);
    fputs(")\n", w->o);
}

static char
kind_of(const char *t)
{
    if (!strncasecmp(t, "real", 4))
        return 'r';
    if (!strncasecmp(t, "integer", 7))
        return 'i';
    if (!strncasecmp(t, "bool", 4))
        return 'l';
    return 0;
}

/* cp_arg_store_<type>_<shape>[_a][_d](v), cp_arg_restore_...: false if none */
static bool
checkpoint(fw *w, const xf_stmt *s)
{
    const char *n = s->u.icall.name;
    bool store;
    if (!strncasecmp(n, "cp_arg_store_", 13) || !strncasecmp(n, "cp_res_store_", 13))
        store = true;
    else if (!strncasecmp(n, "cp_arg_restore_", 15) || !strncasecmp(n, "cp_res_restore_", 15))
        store = false;
    else
        return false;
    char k = kind_of(n + (store ? 13 : 15));
    if (!k) {
        fw_refuse(w, s->h.line, "the checkpoint %s (only reals, integers and logicals)", n);
        return true;
    }
    size_t len = strlen(n);
    bool deriv = len > 2 && !strcasecmp(n + len - 2, "_d");
    iargs a;
    if (collect(w, s, &a, 1) && need_ref(w, s, &a, 0))
        stack_op(w, s, &a, store, k, 'c', deriv);
    return true;
}

/* ckp_* (docs/checkpointing.md): the snapshots of per-iteration dry-running,
 * on xaiform_ad's snapshot frames; false if not one. */
static bool
snapshot(fw *w, const xf_stmt *s)
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
        fputs("  call xf_ckp_take(", w->o);
        converted(w, a.by_pos[0], FT_INT);
        fputs(")\n", w->o);
    } else if (!strcasecmp(t, "top")) {
        if (!collect(w, s, &a, 1) || !(r = need_ref(w, s, &a, 0)))
            return true;
        fputs("  call xf_ckp_top(", w->o);
        fw_ref(w, r, false);
        fputs(")\n", w->o);
    } else if (!strcasecmp(t, "drop")) {
        fputs("  call xf_ckp_drop()\n", w->o);
    } else if (!strncasecmp(t, "store_", 6) || !strncasecmp(t, "restore_", 8)) {
        bool store = !strncasecmp(t, "store_", 6);
        char k = kind_of(t + (store ? 6 : 8));
        if (!k) {
            fw_refuse(w, s->h.line, "the snapshot routine %s (only reals, integers and logicals)",
                      n);
            return true;
        }
        if (!collect(w, s, &a, 1) || !(r = need_ref(w, s, &a, 0)))
            return true;
        bool arr = fw_is_array(r);
        fprintf(w->o, "  call xf_ckp_%s_%c%s(", store ? "store" : "restore", k, arr ? "a" : "");
        fw_ref(w, r, false);
        if (arr) {
            fputs(", size(", w->o);
            fw_ref(w, r, false);
            fputs(")", w->o);
        }
        fputs(")\n", w->o);
    } else
        fw_refuse(w, s->h.line, "the snapshot routine %s has no Fortran here", n);
    return true;
}

/* y' (how) x' [* a] for inlinable propagation: x at argument @xi, y after it. */
static void
propagate(fw *w, const xf_stmt *s, const iargs *a, int xi, const char *how, bool factor)
{
    const xf_varref *x = need_ref(w, s, a, xi), *y = x ? need_ref(w, s, a, xi + 1) : NULL;
    if (!y)
        return;
    ref_line(w, y, true);
    fputs(" = ", w->o);
    if (*how != '=') {
        fw_ref(w, y, true);
        fprintf(w->o, " %c ", *how);
    }
    fw_ref(w, x, true);
    if (factor) {
        fputs(" * (", w->o);
        fw_expr(w, a->by_pos[0]);
        fputs(")", w->o);
    }
    fputs("\n", w->o);
}

static void
icall(fw *w, const xf_stmt *s)
{
    const char *n = s->u.icall.name ? s->u.icall.name : "";
    iargs a;
    if (checkpoint(w, s) || snapshot(w, s) || fw_passive(w, s))
        return;
    if (!strncasecmp(n, "push", 4) || !strncasecmp(n, "pop", 3)) {
        bool push = !strncasecmp(n, "push", 4);
        if (!strcasecmp(n, "push_s") || !strcasecmp(n, "pop_s")) {
            fw_refuse(w, s->h.line, "%s: string tapes have no Fortran here", n);
            return;
        }
        char k = !strcasecmp(n, "push_b") || !strcasecmp(n, "pop_b") ? 'l'
                 : strstr(n, "_i")                                   ? 'i'
                                                                     : 'r';
        if (collect(w, s, &a, 1))
            stack_op(w, s, &a, push, k, 't', false);
    } else if (!strcasecmp(n, "Saxpy")) {
        if (collect(w, s, &a, 3))
            propagate(w, s, &a, 1, "+", true);
    } else if (!strcasecmp(n, "IncDeriv")) {
        if (collect(w, s, &a, 2))
            propagate(w, s, &a, 0, "+", false);
    } else if (!strcasecmp(n, "DecDeriv")) {
        if (collect(w, s, &a, 2))
            propagate(w, s, &a, 0, "-", false);
    } else if (!strcasecmp(n, "SetDeriv")) {
        if (collect(w, s, &a, 2))
            propagate(w, s, &a, 0, "=", false);
    } else if (!strcasecmp(n, "ZeroDeriv")) {
        const xf_varref *x;
        if (!collect(w, s, &a, 1) || !(x = need_ref(w, s, &a, 0)))
            return;
        ref_line(w, x, true);
        fputs(" = 0.0d0\n", w->o);
    } else if (!strcasecmp(n, "oad_convert") || !strncasecmp(n, "convert_a2p", 11) ||
               !strncasecmp(n, "convert_p2a", 11)) {
        const xf_varref *to;
        if (!collect(w, s, &a, 2) || !(to = need_ref(w, s, &a, 0)))
            return;
        const xf_symref *sr = xf_varref_symref(to);
        ref_line(w, to, false);
        fputs(" = ", w->o);
        converted(w, a.by_pos[1], sr && sr->sym ? fw_type_of_sym(sr->sym) : FT_REAL);
        fputs("\n", w->o);
    } else if (!strcasecmp(n, "oad_AllocateMatching")) {
        /* an allocatable takes the shape and bounds of the other; a
         * declared one has them already */
        const xf_varref *to, *like;
        if (!collect(w, s, &a, 2) || !(to = need_ref(w, s, &a, 0)) ||
            !(like = need_ref(w, s, &a, 1)))
            return;
        const xf_symref *sr = xf_varref_symref(to);
        if (!sr || !sr->sym || !fw_allocatable(w, sr->sym))
            return;
        bool d = xf_flag_is(to->deriv, false);
        fputs("  if (allocated(", w->o);
        fw_ref(w, to, d);
        fputs(")) deallocate(", w->o);
        fw_ref(w, to, d);
        fputs(")\n  allocate(", w->o);
        fw_ref(w, to, d);
        fputs(", mold=", w->o);
        fw_ref(w, like, xf_flag_is(like->deriv, false));
        fputs(")\n", w->o);
    } else if (!strcasecmp(n, "oad_ShapeTest")) {
        /* shapes are fixed by the declarations */
    } else
        fw_refuse(w, s->h.line, "the inlinable routine %s has no Fortran here", n);
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

/* A zero derivative shaped as formal @f: the number k of xf_z<k>. */
static int
zero_temp(fw *w, const xf_symbol *f)
{
    if (w->nz == w->zcap) {
        int cap = w->zcap ? 2 * w->zcap : 8;
        const xf_symbol **z = realloc(w->z, (size_t)cap * sizeof *z);
        if (!z) {
            fw_refuse(w, f->h.line, "out of memory");
            return 0;
        }
        w->z = z;
        w->zcap = cap;
    }
    w->z[w->nz++] = f;
    return w->nz;
}

/* Where Fortran 77's sequence association let the source pass an actual of
 * another rank, which a module procedure's explicit interface refuses:
 * RF_SECTION, an element x(i) of a rank-1 array for an assumed-shape rank-1
 * formal, is passed as x(i:) (the elements from x(i) on, as the source's
 * callee saw them); RF_FIRST, a whole array for a scalar formal, as its
 * first element. */
enum { RF_NONE, RF_SECTION, RF_FIRST };

static int
rank_fix(const xf_varref *r, const xf_symbol *f)
{
    const xf_symref *sr = xf_varref_symref(r);
    const xf_arrref *a = xf_varref_arrref(r);
    if (!sr || !sr->sym)
        return RF_NONE;
    int fr = xf_shape_rank(f->shape), ar = xf_shape_rank(sr->sym->shape);
    if (fr == 1 && !f->dims.n && ar == 1 && a && a->t.n == 1 && a->t.v[0].index &&
        !a->t.v[0].bound && !a->t.v[0].stride)
        return RF_SECTION;
    if (fr <= 0 && ar > 0 && ar <= 7 && !a)
        return RF_FIRST;
    return RF_NONE;
}

static void
actual(fw *w, const xf_varref *r, bool deriv, int fix)
{
    if (fix == RF_NONE) {
        fw_ref(w, r, deriv);
        return;
    }
    FILE *saved = w->o;
    char *s = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&s, &len);
    if (!m) {
        fw_refuse(w, r->h.line, "out of memory");
        return;
    }
    w->o = m;
    fw_ref(w, r, deriv);
    fclose(m);
    w->o = saved;
    if (fix == RF_SECTION && len > 1 && s[len - 1] == ')')
        fprintf(w->o, "%.*s:)", (int)(len - 1), s);
    else if (fix == RF_FIRST) {
        int rank = xf_shape_rank(xf_varref_symref(r)->sym->shape);
        fprintf(w->o, "%s(", s);
        for (int d = 1; d <= rank; d++)
            fprintf(w->o, "%slbound(%s, %d)", d > 1 ? ", " : "", s, d);
        fputs(")", w->o);
    } else
        fputs(s ? s : "", w->o);
    free(s);
}

static void
call(fw *w, const xf_stmt *s)
{
    const xf_call *c = &s->u.call;
    const xf_routine *callee = c->sym ? fw_routine_of(w, c->sym) : NULL;
    if (!callee) {
        fw_refuse(w, s->h.line, "a call of %s, which this document gives no code",
                  c->sym ? c->sym->id : "an unresolved routine");
        return;
    }
    const xf_expr **act = calloc(callee->args.n + 1, sizeof *act);
    int *z = calloc(callee->args.n + 1, sizeof *z);
    if (!act || !z) {
        fw_refuse(w, s->h.line, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < c->args.n; i++) {
        int64_t p = c->args.v[i].pos;
        if (p < 1 || p > (int64_t)callee->args.n || !formal_at(callee, p)) {
            fw_refuse(w, s->h.line, "argument %lld of a call of %s, which has %u", (long long)p,
                      c->sym->id, callee->args.n);
            goto out;
        }
        act[p - 1] = &c->args.v[i].val;
    }
    for (uint32_t p = 1; p <= callee->args.n && !w->failed; p++) {
        const xf_argsym *f = formal_at(callee, p);
        if (!f || !f->sym || !act[p - 1]) {
            fw_refuse(w, s->h.line, "formal %u of %s is not given (optional arguments)", p,
                      c->sym->id);
            goto out;
        }
        if (!fw_ftype(w, f->sym, s->h.line))
            goto out;
        const xf_varref *r = arg_ref(act[p - 1]);
        const xf_symref *sr = r ? xf_varref_symref(r) : NULL;
        if (r && sr && sr->sym) {
            if (fw_type_of_sym(sr->sym) != fw_type_of_sym(f->sym)) {
                fw_refuse(w, s->h.line, "%s passed for %s of %s: their types differ", sr->sym->id,
                          f->sym->id, c->sym->id);
                goto out;
            }
            if (xf_shape_rank(f->sym->shape) > 0 && xf_shape_rank(sr->sym->shape) <= 0) {
                fw_refuse(w, s->h.line, "the scalar %s passed for the array %s of %s", sr->sym->id,
                          f->sym->id, c->sym->id);
                goto out;
            }
        }
        if (fw_has_deriv(w, f->sym) && (!sr || !sr->sym || !fw_has_deriv(w, sr->sym))) {
            if (xf_shape_rank(f->sym->shape) > 0 &&
                (int)f->sym->dims.n != xf_shape_rank(f->sym->shape)) {
                fw_refuse(w, s->h.line, "a passive actual for %s of %s, which has no bounds",
                          f->sym->id, c->sym->id);
                goto out;
            }
            if (!(z[p - 1] = zero_temp(w, f->sym)))
                goto out;
            fprintf(w->o, "  xf_z%d = 0.0d0\n", z[p - 1]);
        }
    }
    fprintf(w->o, "  call %s%s(", w->rname[callee->index],
            w->mode == FW_ADJOINT && callee->is_rlist ? "_tpl" : "");
    for (uint32_t p = 1; p <= callee->args.n && !w->failed; p++) {
        const xf_argsym *f = formal_at(callee, p);
        const xf_varref *r = arg_ref(act[p - 1]);
        int fix = r ? rank_fix(r, f->sym) : 0;
        if (p > 1)
            fputs(", ", w->o);
        if (r)
            actual(w, r, false, fix);
        else
            converted(w, act[p - 1], fw_type_of_sym(f->sym));
        if (fw_has_deriv(w, f->sym)) {
            fputs(", ", w->o);
            if (z[p - 1])
                fprintf(w->o, "xf_z%d", z[p - 1]);
            else
                actual(w, r, true, fix);
        }
    }
    fputs(")\n", w->o);
out:
    free(act);
    free(z);
}

/* ------------------------------------------------------------ statements */

static void
assign(fw *w, const xf_stmt *s)
{
    const xf_varref *lhs = &s->u.as.lhs;
    bool deriv = xf_flag_is(lhs->deriv, false);
    const xf_symref *sr = xf_varref_symref(lhs);
    ensure_alloc(w, lhs, deriv);
    fputs("  ", w->o);
    if (fw_ref(w, lhs, deriv) == FT_BAD)
        return;
    fputs(" = ", w->o);
    converted(w, &s->u.as.rhs, deriv ? FT_REAL : fw_type_of_sym(sr->sym));
    fputs("\n", w->o);
}

void
fw_stmt(fw *w, const xf_stmt *s)
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
        fw_marker(w, s);
        return;
    case XF_STMT_DERIVPROP:
        for (uint32_t i = 0; i < s->u.dp.n && !w->failed; i++)
            derivprop(w, &s->u.dp.v[i], s->h.line);
        return;
    }
}
