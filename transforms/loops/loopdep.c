/* loopdep.c: the per-loop report (xf_loopdep_print) and the pass
 * that writes it (loopdep, option --report-loops). The pass changes
 * nothing in the document. */
#include <stdlib.h>
#include <string.h>

#include "cfgtree.h"
#include "iterdry.h"
#include "loopdep.h"
#include "pass.h"

const char *
xf_ldwhy_name(xf_ldwhy w)
{
    static const char *const names[] = {"none",   "unstructured", "while", "index", "scalar",
                                        "offset", "subscript",    "alias", "call"};
    return (unsigned)w < sizeof names / sizeof names[0] ? names[w] : "?";
}

/* ---- expressions as text (subscripts of the report) */

static void put_ref(FILE *f, const xf_varref *r, int depth);

static void
put_vertex(FILE *f, const xf_expr *x, uint32_t v, int depth)
{
    if (v >= x->v.n || depth > 20) {
        fputs("?", f);
        return;
    }
    const xf_evertex *ev = &x->v.v[v];
    static const struct {
        const char *name, *op;
    } infix[] = {{"add_scal_scal", " + "},
                 {"sub_scal_scal", " - "},
                 {"mul_scal_scal", " * "},
                 {"div_scal_scal", " / "}};
    switch (ev->kind) {
    case XF_EV_CONSTANT:
        fputs(ev->u.c.value ? ev->u.c.value : "?", f);
        return;
    case XF_EV_VARREF:
        put_ref(f, ev->u.ref, depth + 1);
        return;
    case XF_EV_INTRINSIC:
        for (size_t k = 0; k < sizeof infix / sizeof infix[0]; k++)
            if (ev->u.in.name && !strcmp(ev->u.in.name, infix[k].name)) {
                fputs(depth ? "(" : "", f);
                put_vertex(f, x, xf_expr_operand(x, v, 1), depth + 1);
                fputs(infix[k].op, f);
                put_vertex(f, x, xf_expr_operand(x, v, 2), depth + 1);
                fputs(depth ? ")" : "", f);
                return;
            }
        break;
    default:
        break;
    }
    fprintf(f, "%s(",
            ev->kind == XF_EV_FUNCALL && ev->u.fn.sym      ? ev->u.fn.sym->id
            : ev->kind == XF_EV_INTRINSIC && ev->u.in.name ? ev->u.in.name
                                                           : "?");
    for (int64_t p = 1;; p++) {
        uint32_t o = xf_expr_operand(x, v, p);
        if (o == UINT32_MAX)
            break;
        fputs(p > 1 ? ", " : "", f);
        put_vertex(f, x, o, depth + 1);
    }
    fputs(")", f);
}

static void
put_expr(FILE *f, const xf_expr *x, int depth)
{
    uint32_t r = xf_expr_root(x);
    if (r == UINT32_MAX)
        fputs("?", f);
    else
        put_vertex(f, x, r, depth);
}

static void
put_ref(FILE *f, const xf_varref *r, int depth)
{
    const xf_symref *s = xf_varref_symref(r);
    fputs(s && s->sym ? s->sym->id : "?", f);
    const xf_arrref *a = xf_varref_arrref(r);
    if (!a)
        return;
    fputs("(", f);
    for (uint32_t i = 0; i < a->t.n; i++) {
        const xf_triplet *t = &a->t.v[i];
        fputs(i ? ", " : "", f);
        if (t->index)
            put_expr(f, t->index, depth);
        if (t->bound || t->stride || !t->index) {
            fputs(":", f);
            if (t->bound)
                put_expr(f, t->bound, depth);
            if (t->stride) {
                fputs(":", f);
                put_expr(f, t->stride, depth);
            }
        }
    }
    fputs(")", f);
}

static void
put_ldref(FILE *f, const xf_ldref *r)
{
    if (r->ref)
        put_ref(f, r->ref, 0);
    else
        fputs(r->sym ? r->sym->id : "?", f);
}

static void
put_line(FILE *f, int64_t line)
{
    if (line == XF_NOINT)
        fputs("line ?", f);
    else
        fprintf(f, "line %lld", (long long)line);
}

void
xf_loopdep_print(FILE *f, const xf_loopdep *d)
{
    fprintf(f, "loops: %s ", d->rt->sym ? d->rt->sym->id : "?");
    put_line(f, d->v->lineno);
    fprintf(f, ": %s", xf_cvkind_name(d->v->kind));
    if (d->index)
        fprintf(f, " %s", d->index->id);
    fprintf(f, ", depth %u: parallel %s", d->depth, d->parallel ? "yes" : "no");
    switch (d->why) {
    case XF_LD_NONE:
        break;
    case XF_LD_UNSTRUCTURED:
        fputs(" (unstructured: the routine's control flow does not nest, not analysed)", f);
        break;
    case XF_LD_NO_INDEX:
        fputs(" (while: no loop variable, each test needs the iteration before)", f);
        break;
    case XF_LD_INDEX_WRITTEN:
        fprintf(f, " (index: the body assigns %s at ", d->dep_a.sym->id);
        put_line(f, d->dep_a.line);
        fputs(")", f);
        break;
    case XF_LD_SCALAR:
        fprintf(f, " (scalar %s: read at ", d->dep_b.sym->id);
        put_line(f, d->dep_b.line);
        fputs(" before the iteration writes it at ", f);
        put_line(f, d->dep_a.line);
        fputs(")", f);
        break;
    case XF_LD_OFFSET:
    case XF_LD_SUBSCRIPT:
    case XF_LD_ALIAS:
        fprintf(f, " (%s %s: ", xf_ldwhy_name(d->why), d->dep_a.sym->id);
        put_ldref(f, &d->dep_a);
        fputs(" written at ", f);
        put_line(f, d->dep_a.line);
        fputs(d->why == XF_LD_ALIAS ? ", may share storage with " : ", ", f);
        put_ldref(f, &d->dep_b);
        fputs(" at ", f);
        put_line(f, d->dep_b.line);
        if (d->why == XF_LD_OFFSET)
            fprintf(f, ", %lld iteration%s %s", (long long)llabs(d->distance),
                    d->distance == 1 || d->distance == -1 ? "" : "s",
                    d->distance > 0 ? "later" : "earlier");
        else if (d->why == XF_LD_SUBSCRIPT)
            fputs(d->same_element ? ", the same element in every iteration"
                                  : ", subscripts that do not tell iterations apart",
                  f);
        fputs(")", f);
        break;
    case XF_LD_CALL:
        fprintf(f, " (call %s at ", d->callee ? d->callee : "?");
        put_line(f, d->dep_a.line);
        fputs(": its effects are unknown)", f);
        break;
    }
    fputs("; reductions", f);
    if (!d->reductions.n)
        fputs(" none", f);
    for (uint32_t k = 0; k < d->reductions.n; k++)
        fprintf(f, "%s%s", k ? ", " : " ", d->reductions.v[k].sym->id);
    fputs("; terminal ", f);
    switch (d->terminal) {
    case XF_LT_YES:
        fputs("yes", f);
        break;
    case XF_LT_READ_AFTER:
        fputs("no (", f);
        put_ldref(f, &d->used);
        fputs(" read at ", f);
        put_line(f, d->used.line);
        fputs(" after the loop)", f);
        break;
    case XF_LT_OUTPUT:
        fputs("joint (writes ", f);
        put_ldref(f, &d->used);
        fputs(" at ", f);
        put_line(f, d->used.line);
        fputs(", an output of the routine: in split reversal the caller reads it first)", f);
        break;
    case XF_LT_UNKNOWN:
        fputs("unknown", f);
        break;
    }
    fputs("\n", f);
}

/* ---- the pass */

int
xf_loopdep_failed(xf_pass_ctx *ctx, const xf_loopdep_vec *v, int ret, const char *option)
{
    if (ret != XF_LOOPDEP_BUDGET || !v->n)
        return xf_pass_oom(ctx);
    const xf_loopdep *d = &v->v[v->n - 1];
    int64_t line = d->v->lineno != XF_NOINT ? d->v->lineno : d->rt->h.line;
    xf_error(ctx->diag, ctx->doc->filename, line,
             "the loop analysis of %s gives up at this loop: its work grows with the loops' "
             "nesting times their bodies' size, past %d + %d x the routine's size in statements "
             "and expression vertices; drop %s",
             d->rt->sym ? d->rt->sym->id : "?", (int)XF_LOOPDEP_WORK_FLOOR,
             (int)XF_LOOPDEP_WORK_PER_VERTEX, option);
    return -1;
}

/* Without --report-loops or a loop option the pass does nothing (and the
 * adjoint may be made one routine at a time). With a loop option it
 * analyses the loops before the adjoint is made, so that a nest whose
 * analysis would give up later (iterwise, iterdry) is refused in seconds,
 * not after the whole adjoint (issue 26). */
static bool
idle(const xf_opts *o)
{
    return !o->report_loops && !xf_loop_options(o);
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    if (!ctx->opts || idle(ctx->opts))
        return 0;
    xf_loopdep_vec v = {0};
    int ret = xf_loopdep_routine(ctx->doc, rt, ctx->scratch, &v);
    const char *opt = xf_loop_options(ctx->opts);
    if (ret != 0)
        return xf_loopdep_failed(ctx, &v, ret, opt ? opt : "--report-loops");
    if (!ctx->opts->report_loops)
        return 0;
    for (uint32_t k = 0; k < v.n; k++)
        xf_loopdep_print(ctx->opts->report_loops, &v.v[k]);
    return 0;
}

static int
parse_report_loops(xf_opts *o, void *own, const char *arg, char *err, size_t len)
{
    (void)own, (void)arg, (void)err, (void)len;
    o->report_loops = stderr;
    return 0;
}

static const xf_pass_opt opts[] = {
    {.name = "report-loops",
     .help = "print, per loop, whether its iterations are\n"
             "independent (or the dependence), its additive\n"
             "reductions and whether it is terminal, on stderr\n"
             "(docs/loops.md)\n",
     .parse = parse_report_loops},
    {0},
};

const xf_pass xf_pass_loopdep = {
    .name = "loopdep",
    .summary = "data dependence of loops: parallel, reductions, terminal (a report)",
    .help = "Per loop of each routine, as the front end wrote it: are its iterations\n"
            "independent (no value carried from one to the next through a scalar, an\n"
            "array element, a call's side effects or aliased storage; additive reductions\n"
            "s = s + e allowed), and is it terminal (nothing after it reads what it\n"
            "writes)? Changes nothing; --report-loops prints one line per loop.\n",
    .opts = opts,
    .run_routine = run_routine,
    .idle = idle,
    .needs_document = true, /* callers and callees' side effects */
};
