/* template.c: every routine becomes a ReplacementList for OpenAD's
 * subroutine template (Utke et al. [001] §4): the code variants the template
 * routes between, by placeholder number:
 *    1  the original code (after convert)
 *    2  the taping code: the routine itself, which linearize, preaccumulate
 *       and adjoin then turn into the augmented forward sweep
 *    3  the adjoint sweep (filled by adjoin and reverse)
 *    4  store the arguments: cp_arg_store_* of what the routine reads
 *    6  restore them: cp_arg_restore_*, in the reverse order
 *    5, 7, 8, 9, 12, 13  (results, time-stepping and derivative checkpoints)
 *       an empty block; 10, 11 nothing (xaif-execution.md §5.3).
 * What the routine reads is its Read side-effect list (when the document
 * has no such list: all its formals, and every variable of another scope
 * that its code names: globals, module variables, a host's variables that
 * an internal procedure reads by host association); a formal is stored
 * only when some routine of the document calls it, and not when every call
 * passes a constant there, nor under --reversal joint when neither the
 * routine nor any caller writes it after the call (argstable.h); a
 * variable that is not a formal (a global) always.
 * Needs: nothing. Runs before linearize (.before: placeholder 1 keeps the
 * original code, the passes that differentiate work on placeholder 2) and
 * once. Breaks: nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argstable.h"
#include "build.h"
#include "callfacts.h"
#include "pass.h"

typedef struct tpl {
    xf_pass_ctx *ctx;
    xf_doc *doc;
    xf_callfacts *calls;  /* what the document's calls pass to each routine */
    xf_argstable *stable; /* --reversal joint: the formals no checkpoint needs */
    xf_map cps;           /* --reversal joint: routine symbol -> its cpset (routines done) */
    xf_arena *a;          /* cps and its sets (the document's arena may go routine by routine) */
} tpl;

/* What a routine done stores: the formal position of each variable (0: not a formal). */
typedef struct cpset {
    uint32_t n;
    int64_t *pos;
} cpset;

static int
oom(tpl *t)
{
    return xf_pass_oom(t->ctx);
}

/* The formal of @rt that is @sym, or NULL. */
static const xf_argsym *
formal_of(const xf_routine *rt, const xf_symbol *sym)
{
    for (uint32_t i = 0; i < rt->args.n; i++)
        if (rt->args.v[i].sym == sym)
            return &rt->args.v[i];
    return NULL;
}

static const char *
type_name(const xf_symbol *s)
{
    switch (s->type) {
    case XF_TYPE_INTEGER:
        return "integer";
    case XF_TYPE_BOOL:
        return "bool";
    case XF_TYPE_STRING:
    case XF_TYPE_CHAR:
        return "string";
    default:
        return "real";
    }
}

static const char *
shape_name(const xf_symbol *s)
{
    static const char *const names[] = {"scalar",      "vector",      "matrix",     "three_tensor",
                                        "four_tensor", "five_tensor", "six_tensor", "seven_tensor"};
    int r = xf_shape_rank(s->shape);
    return names[r > 0 && r < 8 ? r : 0];
}

/* A placeholder: Entry 1 -> BasicBlock 3 -> Exit 2 in the routine's scope. */
static xf_cvertex *
simple_graph(tpl *t, xf_graph *g, xf_scope *scope)
{
    xf_cvertex *e = xf_graph_vertex(t->doc, g, XF_CV_ENTRY, "1");
    xf_cvertex *x = xf_graph_vertex(t->doc, g, XF_CV_EXIT, "2");
    xf_cvertex *b = xf_graph_vertex(t->doc, g, XF_CV_BASICBLOCK, "3");
    if (!e || !x || !b || !xf_graph_edge(t->doc, g, e, b, "1", false, 0) ||
        !xf_graph_edge(t->doc, g, b, x, "2", false, 0))
        return NULL;
    b->scope = scope;
    return b;
}

/* cp_arg_store_* (@store) or cp_arg_restore_* of @sym, appended to @b. */
static int
checkpoint(tpl *t, xf_cvertex *b, xf_symbol *sym, bool store)
{
    char name[96];
    snprintf(name, sizeof name, "cp_arg_%s_%s_%s%s", store ? "store" : "restore", type_name(sym),
             shape_name(sym), xf_is_active_sym(sym) ? "_a" : "");
    xf_stmt *s = xf_stmt_icall(t->doc, store ? "cp_arg_store" : "cp_arg_restore", name);
    xf_varref *r = xf_ref_new(t->doc, sym);
    if (!s || !r)
        return oom(t);
    xf_mark_ref(r, xf_is_active_sym(sym), false);
    if (!xf_icall_ref(t->doc, s, r) || !XF_VEC_PUSH(t->doc->arena, b->stmts, s))
        return oom(t);
    return 0;
}

typedef XF_VEC(xf_symbol *) symvec;

/* Add @sym to @v unless there already; false when out of memory. */
static bool
add_once(tpl *t, symvec *v, xf_symbol *sym)
{
    for (uint32_t k = 0; k < v->n; k++)
        if (v->v[k] == sym)
            return true;
    return XF_VEC_PUSH(t->doc->arena, *v, sym) != 0;
}

typedef struct outer {
    tpl *t;
    const xf_routine *rt;
    symvec *v;
} outer;

/* A variable of another scope than the routine's own that a reference
 * reaches (a global, a module's variable, its host's variable). */
static xf_walk_go
outer_step(void *ctx, const xf_walk_step *s)
{
    const outer *o = ctx;
    const xf_symref *sr = s->ref ? xf_varref_symref(s->ref) : NULL;
    xf_symbol *sym = sr ? sr->sym : NULL;
    if (sym && sym->kind == XF_SYMKIND_VARIABLE && sym->scope != o->rt->cfg_scope &&
        !add_once(o->t, o->v, sym))
        return XF_WALK_STOP;
    return XF_WALK_GO;
}

static bool
outer_stmt(outer *o, const xf_stmt *s)
{
    const xf_arg_vec *args = NULL;
    switch (s->kind) {
    case XF_STMT_ASSIGN:
        return xf_walk_ref(&s->u.as.lhs, XF_WALK_ARGS, outer_step, o) == 0 &&
               xf_walk_expr(&s->u.as.rhs, XF_WALK_ARGS, outer_step, o) == 0;
    case XF_STMT_CALL:
        args = &s->u.call.args;
        break;
    case XF_STMT_ICALL:
        args = &s->u.icall.args;
        break;
    case XF_STMT_DERIVPROP:
    case XF_STMT_MARKER:
        return true;
    }
    for (uint32_t k = 0; args && k < args->n; k++)
        if (xf_walk_expr(&args->v[k].val, XF_WALK_ARGS, outer_step, o))
            return false;
    return true;
}

/* Without a Read list, what the routine reads besides its formals: every
 * variable of another scope its code names (Fortran's internal procedures
 * read their host's variables with no argument, and a rerun of the
 * routine under the joint template must see them as the first run did). */
static int
outer_vars(tpl *t, const xf_routine *rt, symvec *v)
{
    outer o = {t, rt, v};
    for (uint32_t i = 0; i < rt->g.v.n; i++) {
        const xf_cvertex *cv = rt->g.v.v[i];
        for (uint32_t k = 0; k < cv->stmts.n; k++)
            if (!outer_stmt(&o, cv->stmts.v[k]))
                return oom(t);
        if ((cv->init && !outer_stmt(&o, cv->init)) ||
            (cv->update && !outer_stmt(&o, cv->update)) ||
            (cv->cond && xf_walk_expr(cv->cond, XF_WALK_ARGS, outer_step, &o)))
            return oom(t);
    }
    return 0;
}

/* The variables placeholders 4 and 6 store and restore. */
static int
checkpointed(tpl *t, const xf_routine *rt, xf_symbol ***out, uint32_t *n)
{
    symvec v = {0};
    bool called = xf_callfacts_called(t->calls, rt->sym, 0);
    const xf_selist *rd = &rt->se[XF_SE_READ];
    /* without a Read list (a front end that computes no side effects): every formal */
    uint32_t count = rd->present ? rd->refs.n : rt->args.n;
    for (uint32_t i = 0; i < count; i++) {
        const xf_symref *sr = rd->present ? xf_varref_symref(rd->refs.v[i]) : NULL;
        xf_symbol *sym = rd->present ? (sr ? sr->sym : NULL) : rt->args.v[i].sym;
        if (!sym || sym->kind != XF_SYMKIND_VARIABLE)
            continue;
        const xf_argsym *f = formal_of(rt, sym);
        if (f && (!called || !xf_callfacts_called(t->calls, rt->sym, f->pos)))
            continue;
        int skip = f && t->stable ? xf_argstable_skip(t->stable, rt, f) : 0;
        if (skip < 0)
            return oom(t);
        if (skip)
            continue;
        if (!add_once(t, &v, sym))
            return oom(t);
    }
    if (!rd->present && outer_vars(t, rt, &v))
        return -1;
    *out = v.v;
    *n = v.n;
    return 0;
}

static xf_replacement *
replacement(tpl *t, xf_routine *rt, int k)
{
    xf_replacement *r = XF_NEW(t->doc->arena, xf_replacement);
    if (!r || !(r->placeholder = xf_intern_uint(t->doc, (uint64_t)k)) ||
        !XF_VEC_PUSH(t->doc->arena, rt->reps, r))
        return NULL;
    return r;
}

/* Make @rt a ReplacementList; @cp (@ncp of them) are its checkpointed variables. */
static int
routine(tpl *t, xf_routine *rt, xf_symbol **cp, uint32_t ncp)
{
    xf_graph original = rt->g;
    memset(&rt->g, 0, sizeof rt->g);
    memset(&rt->reps, 0, sizeof rt->reps);
    for (int k = 1; k <= 13; k++) {
        xf_replacement *r = replacement(t, rt, k);
        if (!r)
            return oom(t);
        if (k <= 3)
            r->structured = rt->structured; /* the routine's flag moves to its code variants */
        switch (k) {
        case 1:
            if (!xf_graph_copy(t->doc, &r->g, &original))
                return oom(t);
            break;
        case 2:
            r->g = original;
            break;
        case 3:
        case 10:
        case 11:
            break;
        default: {
            xf_cvertex *b = simple_graph(t, &r->g, rt->cfg_scope);
            if (!b)
                return oom(t);
            for (uint32_t i = 0; (k == 4 || k == 6) && i < ncp; i++)
                if (checkpoint(t, b, cp[k == 4 ? i : ncp - 1 - i], k == 4))
                    return -1;
        }
        }
    }
    rt->is_rlist = true;
    xf_doc_mark_deriv(t->doc, "ReplacementList", NULL, 0);
    rt->template_name = xf_intern(t->doc, "reverse_subroutine_template");
    rt->active = XF_FLAG_NONE;
    rt->structured = XF_FLAG_NONE;
    /* not written any more; the references stay for tbr_invert.c (writes_own) */
    for (int k = 0; k < XF_SE_COUNT; k++)
        rt->se[k].present = false;
    return rt->template_name ? 0 : oom(t);
}

/* Record what @rt stores (@cp, @ncp of them) for the calls of the routines after it. */
static int
remember(tpl *t, const xf_routine *rt, xf_symbol **cp, uint32_t ncp)
{
    cpset *c = XF_NEW(t->a, cpset);
    if (!c || (ncp && !(c->pos = xf_arena_alloc(t->a, ncp * sizeof *c->pos))))
        return oom(t);
    c->n = ncp;
    for (uint32_t i = 0; i < ncp; i++) {
        const xf_argsym *f = formal_of(rt, cp[i]);
        c->pos[i] = f ? f->pos : 0;
    }
    return xf_map_put(&t->cps, t->a, rt->sym, c, NULL) ? 0 : oom(t);
}

/* The calls of @rt at which the callee's argument checkpoint is not
 * needed: the callee is done (its store known), stores something, and
 * every variable it stores is a formal whose actual keeps its value to the
 * rerun (argstable.h, call by call). The call's annotation gets "xf_nocp",
 * for the C back end, which calls there the callee's functions without
 * the store and the restore; only for grad (xf_opts.call_marks): OpenAD's
 * schema allows no annotation on a SubroutineCall. */
static int
per_call(tpl *t, xf_routine *rt)
{
    xf_argcall *c = NULL;
    uint32_t n = 0;
    if (xf_argstable_calls(t->stable, rt, xf_hosts_procedures(t->doc, rt), &c, &n))
        return oom(t);
    for (uint32_t i = 0; i < n; i++) {
        const cpset *cs = c[i].callee ? xf_map_get(&t->cps, c[i].callee) : NULL;
        bool none = cs && cs->n;
        for (uint32_t k = 0; none && k < cs->n; k++)
            none = xf_argstable_kept_at(t->stable, &c[i], cs->pos[k]);
        if (!none)
            continue;
        xf_stmt *s = (xf_stmt *)c[i].call;
        const char *a = s->h.annotation ? s->h.annotation : "";
        size_t len = strlen(a);
        char *buf = malloc(len + 9);
        if (!buf)
            return oom(t);
        snprintf(buf, len + 9, "%s%sxf_nocp", a, len ? ";" : "");
        s->h.annotation = xf_intern(t->doc, buf);
        free(buf);
        if (!s->h.annotation)
            return oom(t);
    }
    return 0;
}

/* What each routine stores depends on the calls of all: scan records what
 * every call passes before any routine is made a ReplacementList. */
static int
begin(xf_pass_ctx *ctx)
{
    tpl *t = calloc(1, sizeof *t);
    bool joint = ctx->opts && ctx->opts->reversal == XF_REV_JOINT;
    if (!t || !(t->calls = xf_callfacts_new(ctx)) ||
        (joint && (!(t->stable = xf_argstable_new(ctx)) || !(t->a = xf_pass_arena(ctx))))) {
        if (t) {
            xf_callfacts_free(t->calls);
            xf_argstable_free(t->stable);
        }
        free(t);
        return xf_pass_oom(ctx);
    }
    ctx->state = t;
    return 0;
}

static int
scan(xf_pass_ctx *ctx, const xf_routine *rt)
{
    tpl *t = ctx->state;
    if (t->stable && !xf_argstable_routine(t->stable, rt, xf_hosts_procedures(ctx->doc, rt)))
        return xf_pass_oom(ctx);
    return xf_callfacts_routine(t->calls, rt) ? 0 : xf_pass_oom(ctx);
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    tpl *t = ctx->state;
    t->ctx = ctx;
    t->doc = ctx->doc;
    if (rt->is_rlist)
        return 0;
    if (!rt->cfg_scope) {
        xf_error(ctx->diag, ctx->doc->filename, rt->h.line,
                 "routine %s has no controlflowgraph_scope_id", rt->id ? rt->id : "?");
        return -1;
    }
    xf_symbol **cp = NULL;
    uint32_t ncp = 0;
    if (checkpointed(t, rt, &cp, &ncp) ||
        (t->stable && (remember(t, rt, cp, ncp) || (ctx->opts->call_marks && per_call(t, rt)))))
        return -1;
    return routine(t, rt, cp, ncp);
}

static void
end(xf_pass_ctx *ctx)
{
    tpl *t = ctx->state;
    if (t) {
        xf_callfacts_free(t->calls);
        xf_argstable_free(t->stable);
        xf_arena_free(t->a);
    }
    free(t);
}

static int
parse_reversal(xf_opts *o, void *own, const char *arg, char *err, size_t len)
{
    (void)own;
    if (strcmp(arg, "joint") != 0 && strcmp(arg, "split") != 0) {
        snprintf(err, len, "unknown reversal '%s' (joint or split)", arg);
        return -1;
    }
    o->reversal = !strcmp(arg, "split") ? XF_REV_SPLIT : XF_REV_JOINT;
    return 0;
}

static int
parse_entry_joint(xf_opts *o, void *own, const char *arg, char *err, size_t len)
{
    (void)own, (void)arg, (void)err, (void)len;
    o->entry_joint = true;
    return 0;
}

/* The template the back end expands decides the reversal. Without the
 * option the output is right under both templates; --reversal joint lets
 * deadstore trim the joint rerun of called routines and --loops auto take
 * what joint allows (iterwise.c); split keeps split's rules. */
static const xf_pass_opt opts[] = {
    {.name = "reversal",
     .letter = 'R',
     .arg = "MODE",
     .help = "joint or split: the template OpenAD's back\n"
             "end will expand. Not given: the output is right\n"
             "under both. joint: for the joint template only\n"
             "(the taping sweep of a called routine loses the\n"
             "stores only its caller's taping would read;\n"
             "--loops auto takes what joint allows); split:\n"
             "as not given, --loops auto by split's rules\n",
     .parse = parse_reversal},
    {.name = "entry-joint",
     .help = "with --reversal split: the routine no call reaches\n"
             "runs both sweeps in one activation (as the f_b of\n"
             "xaiform grad does), so it takes the rules of joint\n"
             "reversal and its callees keep their split sweeps\n"
             "(revjoint.h); not for OpenAD's split driver, which\n"
             "runs the sweeps apart\n",
     .parse = parse_entry_joint},
    {0},
};

static const char *const after[] = {NULL};
static const char *const runs_before[] = {"linearize", NULL};

/* The promise (--verify-each): every routine is a ReplacementList. */
static int
verify(xf_pass_ctx *ctx)
{
    for (uint32_t r = 0; r < ctx->doc->cg.routines.n; r++) {
        const xf_routine *rt = ctx->doc->cg.routines.v[r];
        if (!rt->is_rlist) {
            xf_error(ctx->diag, ctx->doc->filename, rt->h.line,
                     "routine %s is not a ReplacementList", rt->sym ? rt->sym->id : "?");
            return -1;
        }
    }
    return 0;
}

const xf_pass xf_pass_template = {
    .name = "template",
    .summary = "ReplacementLists for OpenAD's subroutine template (adjoint code variants)",
    .help = "Every routine becomes a ReplacementList with the placeholders OpenAD's\n"
            "subroutine template routes between: 1 the original code, 2 the taping code\n"
            "(which the next passes differentiate), 3 the adjoint (filled by adjoin and\n"
            "reverse), 4 and 6 the argument checkpoints (cp_arg_store_*/cp_arg_restore_*\n"
            "of what the routine reads), the others empty.\n",
    .after = after,
    .before = runs_before,
    .once = true,
    .opts = opts,
    .run_routine = run_routine,
    .begin = begin,
    .scan = scan,
    .end = end,
    .verify = verify,
    .promise = "every routine is a ReplacementList",
};
