/* driver.c: preparing a document for execution, and OpenAD's generic
 * drivers (plain, divided differences, tangent, joint and split adjoint) as
 * §6 of docs/xaif-execution.md describes them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "names.h"
#include "rt.h"

enum { DEFAULT_MAX_DEPTH = 1000 };
#define DEFAULT_MAX_STEPS ((uint64_t)2000000000)
#define DEFAULT_MAX_TAPE ((int64_t)200000000)

static const char *const driver_names[] = {"plain", "dd", "tangent", "adjoint-joint",
                                           "adjoint-split"};

bool
xf_driver_parse(const char *s, xf_driver *d)
{
    for (int k = 0; k < 5; k++)
        if (!strcmp(s, driver_names[k])) {
            *d = (xf_driver)k;
            return true;
        }
    return false;
}

const char *
xf_driver_name(xf_driver d)
{
    return (unsigned)d < 5 ? driver_names[d] : "?";
}

/* ------------------------------------------------------------ preparation */

static int
placeholder_number(const char *p)
{
    char *end;
    long k = p ? strtol(p, &end, 10) : 0;
    return p && *end == 0 && k >= 1 && k <= 13 ? (int)k : 0;
}

static bool
has_entry(const xf_graph *g)
{
    for (uint32_t i = 0; i < g->v.n; i++)
        if (g->v.v[i]->kind == XF_CV_ENTRY)
            return true;
    return false;
}

static void
prepare(rt *m)
{
    const xf_doc *doc = m->doc;
    uint32_t nsym = doc->nsymbols, nscope = doc->nscopes, nrt = doc->cg.routines.n;
    m->slot = rt_alloc(m, (nsym ? nsym : 1) * sizeof *m->slot);
    m->statics = rt_alloc(m, (nsym ? nsym : 1) * sizeof *m->statics);
    m->by_symbol = rt_alloc(m, (nsym ? nsym : 1) * sizeof *m->by_symbol);
    m->scope_owner = rt_alloc(m, (nscope ? nscope : 1) * sizeof *m->scope_owner);
    m->routines = rt_alloc(m, (nrt ? nrt : 1) * sizeof *m->routines);
    for (uint32_t s = 0; s < doc->cg.scopes.v.n; s++) {
        const xf_scope *sc = doc->cg.scopes.v.v[s];
        for (uint32_t k = 0; k < sc->syms.n; k++) {
            if (sc->syms.v[k]->index >= nsym)
                rt_fault(m, "the document's symbol numbering is broken");
            m->slot[sc->syms.v[k]->index] = (int32_t)k;
        }
    }
    for (uint32_t i = 0; i < nrt; i++) {
        const xf_routine *r = doc->cg.routines.v[i];
        rt_routine *rr = &m->routines[i];
        rr->r = r;
        rr->name = r->sym ? r->sym->id : r->id;
        if (!r->is_rlist) {
            rr->g = &r->g;
            rr->callable = has_entry(&r->g);
        } else
            for (uint32_t k = 0; k < r->reps.n; k++) {
                int p = placeholder_number(r->reps.v[k]->placeholder);
                if (p && has_entry(&r->reps.v[k]->g)) {
                    rr->ph[p] = &r->reps.v[k]->g;
                    /* a module's list has only (empty) checkpoint placeholders */
                    rr->callable = rr->callable || p <= 3;
                }
            }
        int n = 0;
        for (uint32_t k = 0; k < r->args.n; k++)
            if (r->args.v[k].pos > n && r->args.v[k].pos < 1000)
                n = (int)r->args.v[k].pos;
        rr->nformals = n;
        rr->formals = rt_alloc(m, (size_t)(n ? n : 1) * sizeof *rr->formals);
        for (uint32_t k = 0; k < r->args.n; k++) {
            const xf_argsym *a = &r->args.v[k];
            if (a->pos < 1 || a->pos > n || !a->sym)
                rt_fault(m, "routine %s: a formal argument without position or symbol", rr->name);
            rr->formals[a->pos - 1] = a;
        }
        if (r->sym)
            m->by_symbol[r->sym->index] = rr;
        if (rr->callable && r->cfg_scope) {
            if (m->scope_owner[r->cfg_scope->index])
                rt_fault(m, "routines %s and %s share their local scope %s",
                         m->scope_owner[r->cfg_scope->index]->name, rr->name, r->cfg_scope->id);
            m->scope_owner[r->cfg_scope->index] = rr;
            rr->saved_shape = rt_alloc(m, (r->cfg_scope->syms.n ? r->cfg_scope->syms.n : 1) *
                                              sizeof *rr->saved_shape);
        }
    }
}

static bool
callable(const xf_routine *r, const void *arg)
{
    const rt *m = arg;
    return m->routines[r->index].callable;
}

/* The top routine: @name, or the one the front end named head (as written:
 * head__24 or OpenAD_head__24 is found, xf_routine_lookup). */
static rt_routine *
find_top(rt *m, const char *name)
{
    const xf_routine *r;
    char msg[600];
    if (xf_routine_lookup(m->doc, name ? name : "head", callable, m, &r, msg, sizeof msg) == 1)
        return &m->routines[r->index];
    if (name)
        rt_fault(m, "%s", msg);
    rt_fault(m, "no top routine: %s; choose one with --top NAME", msg);
}

/* A formal argument of the top routine over a driver array of @n reals. */
static rt_view *
driver_arg(rt *m, rt_routine *top, int pos, rt_store *st)
{
    if (pos > top->nformals || !top->formals[pos - 1])
        rt_fault(m, "the top routine %s has no argument %d: the generic driver calls head(x, y)",
                 top->name, pos);
    const xf_symbol *f = top->formals[pos - 1]->sym;
    rt_view *v = rt_alloc(m, sizeof *v);
    v->name = f->id;
    v->st = st;
    int r = xf_shape_rank(f->shape);
    if (r < 0)
        r = (int)f->dims.n;
    if (rt_type_of(f) != RT_REAL) {
        /* the driver's reals cannot reach it: the routine gets a variable of its own */
        xf_warning(m->diag, m->doc->filename, 0,
                   "argument %s of the top routine is not real; the driver's values do not "
                   "reach it",
                   f->id);
        int64_t ext[RT_MAXRANK];
        for (int k = 0; k < r; k++)
            ext[k] = (int)f->dims.n == r ? rt_extent(m, f->id, &f->dims.v[r - 1 - k]) : st->n;
        v->st = rt_store_new(m, rt_type_of(f), r, NULL, ext);
        *v = *rt_view_whole(m, v->st);
        v->name = f->id;
        return v;
    }
    if (r == 0) {
        v->n = 1;
        return v;
    }
    v->rank = r;
    v->n = 1;
    if ((int)f->dims.n == r) {
        for (int k = 0; k < r; k++) {
            const xf_dimbounds *b = &f->dims.v[r - 1 - k];
            v->lb[k] = b->lower;
            v->ext[k] = rt_extent(m, f->id, b);
            if (v->ext[k] && v->n > RT_MAX_ELEMENTS / v->ext[k])
                rt_fault(m, "argument %s of the top routine: more than %lld elements", f->id,
                         (long long)RT_MAX_ELEMENTS);
            v->n *= v->ext[k];
        }
    } else if (r == 1) {
        v->lb[0] = 1;
        v->ext[0] = st->n;
        v->n = st->n;
    } else
        rt_fault(m, "argument %s of the top routine has rank %d and no bounds", f->id, r);
    if (v->n > st->n)
        rt_fault(m, "argument %s of the top routine needs %lld elements; the driver has %lld",
                 f->id, (long long)v->n, (long long)st->n);
    return v;
}

/* The elements formal @f declares: 1 for a scalar, the product of the
 * extents of an array with bounds; -1 when the call decides (no bounds). */
static int64_t
declared_size(const xf_symbol *f)
{
    int r = xf_shape_rank(f->shape);
    if (r < 0)
        r = (int)f->dims.n;
    if (r == 0)
        return 1;
    if ((int)f->dims.n != r)
        return -1;
    int64_t n = 1;
    for (int k = 0; k < r; k++) {
        const xf_dimbounds *b = &f->dims.v[k];
        if (b->lower == XF_NOINT || b->upper == XF_NOINT || b->upper < b->lower ||
            b->upper - b->lower >= INT32_MAX || n > INT32_MAX)
            return -1;
        n *= b->upper - b->lower + 1;
    }
    return n;
}

/* n and m must be the sizes of the top routine's x and y where the
 * declarations say them: a larger n or m gives columns or rows of zeros
 * (unless o->loose_sizes: OpenAD's Fortran drivers pass arrays by sequence
 * association, and its example duud2 expects them); a smaller one is a
 * fault of driver_arg. A formal that is not real gets none of the driver's
 * values (driver_arg warns), so its size does not matter. */
static void
check_sizes(rt *m, const xf_run_opts *o, const rt_routine *top)
{
    static const char *const letter[2] = {"n", "m"}, *const role[2] = {"independents",
                                                                       "dependents"};
    const int want[2] = {o->params.n, o->params.m};
    for (int k = 0; k < 2; k++) {
        if (k >= top->nformals || !top->formals[k])
            continue; /* driver_arg says what is missing */
        const xf_symbol *f = top->formals[k]->sym;
        int64_t have = declared_size(f);
        if (have < 0 || have == want[k] || rt_type_of(f) != RT_REAL ||
            (o->loose_sizes && have < want[k]))
            continue;
        char has[64];
        if (xf_shape_rank(f->shape) == 0)
            snprintf(has, sizeof has, "are a scalar");
        else
            snprintf(has, sizeof has, "have %lld element%s", (long long)have, have == 1 ? "" : "s");
        if (o->params_name)
            xf_error(m->diag, o->params_name, 0, "%s = %d, but %s's %s %s in %s %s", letter[k],
                     want[k], top->name, role[k], f->id, m->doc->filename, has);
        else
            xf_error(m->diag, m->doc->filename, 0, "-%s %d, but %s's %s %s %s", letter[k], want[k],
                     top->name, role[k], f->id, has);
        longjmp(*m->fault, 1);
    }
}

/* A tangent or adjoint driver over a document without derivative code
 * would print zeros. A document whose y is no active real variable has a
 * zero Jacobian by the front end's own activity analysis (int_f_arg of
 * OpenAD's examples: an integer y); that one runs. */
static void
check_derivative_code(rt *m, const xf_run_opts *o, const rt_routine *top)
{
    if (m->doc->deriv.what || o->driver == XF_DRIVER_PLAIN || o->driver == XF_DRIVER_DD)
        return;
    if (top->nformals < 2 || !top->formals[1])
        return; /* driver_arg says what is missing */
    const xf_symbol *y = top->formals[1]->sym;
    if (rt_type_of(y) != RT_REAL || !xf_flag_is(y->active, true))
        return;
    bool tangent = o->driver == XF_DRIVER_TANGENT;
    rt_fault(m,
             "%s has no derivative code (no DerivativePropagator, deriv=\"1\" reference, "
             "ReplacementList or tape call) and %s's output %s is active: the %s driver would "
             "print a zero Jacobian; run it on the output of 'xaiform %s', or with --driver plain "
             "or dd",
             m->doc->filename ? m->doc->filename : "the document", top->name, y->id,
             xf_driver_name(o->driver), tangent ? "tangent" : "adjoint");
}

/* ------------------------------------------------------------ drivers */

typedef struct drv {
    rt *m;
    rt_routine *top;
    rt_store *x, *y;
    rt_view *args[2];
    double *x0;
    int n, mm;
} drv;

static void
call_top(drv *d)
{
    rt_mark mk = rt_pool_mark(&d->m->frames);
    d->m->act = NULL;
    rt_call(d->m, d->top, d->args, 2);
    rt_pool_release(&d->m->frames, mk);
}

static void
set_x(drv *d, int perturb, double h)
{
    for (int j = 0; j < d->n; j++)
        d->x->v[j] = d->x0[j] + (j == perturb ? h : 0.0);
}

/* The divided-difference pass that OpenAD's drivers run first; kept for the
 * state it leaves (statics, y). */
static void
dd_pass(drv *d, double h, double *f)
{
    set_x(d, -1, 0.0);
    call_top(d);
    double *y0 = rt_alloc(d->m, (size_t)(d->mm ? d->mm : 1) * sizeof *y0);
    memcpy(y0, d->y->v, (size_t)d->mm * sizeof *y0);
    for (int i = 0; i < d->n; i++) {
        set_x(d, i, h);
        call_top(d);
        if (f)
            for (int k = 0; k < d->mm; k++)
                f[(size_t)i * d->mm + k] = (d->y->v[k] - y0[k]) / h;
    }
}

static void
reset_stats(rt *m)
{
    memset(&m->stats, 0, sizeof m->stats);
    m->steps = 0;
    if (m->lt)
        rt_looptape_reset(m);
}

static void
run_driver(rt *m, const xf_run_opts *o, xf_jacobian *out)
{
    drv d = {.m = m, .n = o->params.n, .mm = o->params.m};
    if (d.n < 1 || d.mm < 1)
        rt_fault(m, "the driver needs n >= 1 inputs and m >= 1 outputs");
    bool adjoint = o->driver == XF_DRIVER_ADJOINT_JOINT || o->driver == XF_DRIVER_ADJOINT_SPLIT;
    d.top = find_top(m, o->top);
    if (adjoint && d.top->g)
        rt_fault(m,
                 "the %s driver needs an adjoint document (ReplacementLists); %s is a "
                 "ControlFlowGraph",
                 xf_driver_name(o->driver), d.top->name);
    check_derivative_code(m, o, d.top);
    check_sizes(m, o, d.top);
    int64_t n = d.n, mm = d.mm;
    d.x = rt_store_new(m, RT_REAL, 1, NULL, &n);
    d.y = rt_store_new(m, RT_REAL, 1, NULL, &mm);
    d.args[0] = driver_arg(m, d.top, 1, d.x);
    d.args[1] = driver_arg(m, d.top, 2, d.y);
    d.x0 = rt_alloc(m, (size_t)d.n * sizeof *d.x0);
    for (int i = 0; i < d.n; i++)
        d.x0[i] = (i + 1) / 2.0;
    out->m = d.mm;
    out->n = o->driver == XF_DRIVER_PLAIN ? 1 : d.n;
    out->f = calloc((size_t)out->m * (size_t)out->n, sizeof *out->f);
    if (!out->f)
        rt_fault(m, "out of memory");
    /* templates of adjoint documents: the plain pass runs placeholder 1 */
    m->mode = (rt_mode){.plain = true};
    m->split = o->driver == XF_DRIVER_ADJOINT_SPLIT;
    switch (o->driver) {
    case XF_DRIVER_PLAIN:
        set_x(&d, -1, 0.0);
        call_top(&d);
        memcpy(out->f, d.y->v, (size_t)d.mm * sizeof *out->f);
        return;
    case XF_DRIVER_DD:
        dd_pass(&d, o->params.h, out->f);
        return;
    case XF_DRIVER_TANGENT:
        dd_pass(&d, o->params.h, NULL);
        reset_stats(m);
        for (int i = 0; i < d.n; i++) {
            for (int j = 0; j < d.n; j++) {
                d.x->v[j] = d.x0[j];
                d.x->d[j] = i == j;
            }
            call_top(&d);
            for (int k = 0; k < d.mm; k++)
                out->f[(size_t)i * d.mm + k] = d.y->d[k];
        }
        return;
    case XF_DRIVER_ADJOINT_JOINT:
    case XF_DRIVER_ADJOINT_SPLIT:
        dd_pass(&d, o->params.h, NULL);
        for (int k = 0; k < ST_KINDS; k++)
            m->tape[k].n = m->cp[k].n = 0;
        rt_snapshot_reset(m);
        reset_stats(m);
        for (int i = 0; i < d.mm; i++) {
            for (int j = 0; j < d.mm; j++) {
                d.y->v[j] = 0.0;
                d.y->d[j] = i == j;
            }
            for (int k = 0; k < d.n; k++) {
                d.x->d[k] = 0.0;
                d.x->v[k] = d.x0[k];
            }
            if (m->split) {
                m->mode = (rt_mode){.tape = true};
                call_top(&d);
                m->mode = (rt_mode){.adjoint = true};
                call_top(&d);
            } else {
                m->mode = (rt_mode){.tape = true, .adjoint = true};
                call_top(&d);
            }
            for (int k = 0; k < d.n; k++)
                out->f[(size_t)k * d.mm + i] = d.x->d[k];
            for (int k = 0; k < ST_KINDS; k++)
                if (m->tape[k].n)
                    xf_warning(m->diag, m->doc->filename, 0,
                               "%lld words left on the %s tape after adjoint sweep %d",
                               (long long)m->tape[k].n, k == ST_REAL ? "real" : "integer", i + 1);
        }
        return;
    }
}

/* The lowest address the interpreter's recursion may reach: the stack's
 * limit below this frame, less a quarter of it (at most 256 KB) for the
 * frames above this one and for the fault's message. */
static uintptr_t
stack_floor(void)
{
    size_t room = (size_t)8 << 20;
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0)
        room = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > ((rlim_t)1 << 30)
                   ? (size_t)1 << 30
                   : (size_t)rl.rlim_cur;
    size_t margin = room / 4 < ((size_t)256 << 10) ? room / 4 : (size_t)256 << 10;
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    return here > room - margin ? here - (room - margin) : 0;
}

int
xf_run(const xf_doc *doc, const xf_run_opts *o, xf_jacobian *out, xf_run_stats *stats,
       xf_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (doc->kind != XF_DOC_CALLGRAPH) {
        xf_error(diag, doc->filename, 0, "an intrinsics catalogue cannot be run");
        return -1;
    }
    jmp_buf jb;
    rt *m = calloc(1, sizeof *m);
    if (!m) {
        xf_error(diag, doc->filename, 0, "out of memory");
        return -1;
    }
    m->doc = doc;
    m->diag = diag;
    m->fault = &jb;
    m->stack_floor = stack_floor();
    m->lim = o->lim;
    if (!m->lim.max_steps)
        m->lim.max_steps = DEFAULT_MAX_STEPS;
    if (!m->lim.max_tape)
        m->lim.max_tape = DEFAULT_MAX_TAPE;
    if (!m->lim.max_depth)
        m->lim.max_depth = DEFAULT_MAX_DEPTH;
    int ret = -1;
    m->a = xf_arena_new();
    if (!m->a) {
        xf_error(diag, doc->filename, 0, "out of memory");
    } else if (setjmp(jb) == 0) {
        prepare(m);
        rt_looptape_init(m, o->loop_tape);
        run_driver(m, o, out);
        rt_looptape_print(m);
        ret = 0;
    }
    if (ret != 0)
        xf_jacobian_fini(out);
    if (stats)
        *stats = m->stats;
    rt_snapshot_free(m);
    rt_pool_free(&m->locals);
    rt_pool_free(&m->frames);
    rt_pool_free(&m->tmp);
    for (int k = 0; k < ST_KINDS; k++) {
        free(m->tape[k].w);
        free(m->cp[k].w);
    }
    xf_arena_free(m->a);
    free(m);
    return ret;
}

void
xf_jacobian_fini(xf_jacobian *j)
{
    free(j->f);
    j->f = NULL;
    j->m = j->n = 0;
}
