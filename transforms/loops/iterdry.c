/* iterdry.c: per-iteration dry-running of a loop that is not parallel
 * (Hascoët, Fidanova, Held [004] §5, F6), pass iterdry, option
 * --per-iteration-dry-run.
 *
 * For a ForLoop of basic blocks at the top level of a routine (the top one,
 * or, for the joint template, one that something calls) whose
 * iterations depend on each other (loopdep: scalar, offset or subscript),
 * the taping sweep runs each iteration untaped, after a snapshot of what
 * the iteration overwrites that the loop reads (the snapshot calls of
 * docs/checkpointing.md: ckp_take(i), ckp_store_*). The adjoint sweep, in
 * its loop over the iterations from the last down, restores the
 * iteration's snapshot (ckp_top(i) sets the loop variable too), runs the
 * iteration's taping statements, its adjoint at once, and restores the
 * snapshot again before dropping it: the state is then the one before the
 * iteration, the one after the iteration before it. The tape holds one
 * iteration; the snapshots, counted apart by `run --stats`, hold the
 * elements each iteration writes.
 *
 * Why the iteration runs again on its own values: what it writes is
 * restored from its snapshot; what earlier iterations wrote, later
 * iterations restored on the way down; what nothing in the loop writes,
 * nothing after the loop overwrites (loopdep's input_overwritten), and
 * nothing after the loop writes what the loop writes. The snapshots are
 * taken at the start of the iteration: the subscripts of what it writes
 * may read the loop variable and what the iteration does not assign. A
 * whole scalar written before it is read in the iteration is a temporary
 * of the iteration, not stored; nor is what the loop never reads.
 *
 * The adjoint sweep must find the routine's local variables as the taping
 * sweep left them: the joint template does; the split template runs the
 * sweeps in two activations, so with --reversal split (and under --loops
 * auto without --reversal joint) the pass leaves
 * alone a loop that reads or writes a local variable other than its own
 * variable. Only where it
 * pays: a loop that tapes nothing per iteration (a recurrence reversed
 * explicitly, say) is left alone. Needs: reverse. */
#include <stdio.h>
#include <string.h>

#include "build.h"
#include "iterwise.h"
#include "iterdry.h"

/* iterdry's own options (xf_pass_own). */
typedef struct dry_opts {
    bool per_iter_dry; /* --per-iteration-dry-run (F6) */
} dry_opts;

typedef XF_VEC(xf_stmt *) stmtvec;
typedef XF_VEC(const xf_varref *) refvec;

static bool
named(const xf_stmt *st, const char *prefix)
{
    return st->kind == XF_STMT_ICALL && st->u.icall.name &&
           !strncmp(st->u.icall.name, prefix, strlen(prefix));
}

static bool
counter(const xf_stmt *st)
{
    return st->id && !strcmp(st->id, "_cfr_count");
}

static const xf_symbol *
sym_of(const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    return s ? s->sym : NULL;
}

typedef struct symset {
    const uint8_t *in; /* by symbol index */
    uint32_t n;
} symset;

static xf_walk_go
in_set_step(void *ctx, const xf_walk_step *s)
{
    const symset *set = ctx;
    const xf_symbol *sym = s->ref ? sym_of(s->ref) : NULL;
    return sym && sym->index < set->n && set->in[sym->index] ? XF_WALK_STOP : XF_WALK_GO;
}

/* Do the subscripts of @r read a variable set in @in? So they may when out
 * of memory. */
static bool
subscripts_read(const uint8_t *in, uint32_t n, const xf_varref *r)
{
    symset set = {in, n};
    return xf_walk_ref(r, XF_WALK_SUBSCRIPTS, in_set_step, &set) != 0;
}

typedef struct f6 {
    xf_pass_ctx *ctx;
    const xf_routine *rt;
    const xf_loopdep *d;
    unsigned n; /* statements made */
    refvec snap;
    char why[256];
} f6;

static const char *
stmt_id(f6 *p)
{
    return xf_derived_id(p->ctx->doc, "f6", ++p->n, p->d->v->id);
}

/* InlinableSubroutineCall @name(@ref), or @name() when @ref is NULL. */
static xf_stmt *
call(f6 *p, const char *name, const xf_varref *ref)
{
    const char *id = stmt_id(p);
    xf_stmt *s = id ? xf_stmt_icall(p->ctx->doc, id, name) : NULL;
    if (s && ref && !xf_icall_ref(p->ctx->doc, s, ref))
        return NULL;
    return s;
}

static bool
push_stmt(xf_pass_ctx *ctx, stmtvec *v, xf_stmt *s)
{
    return s && XF_VEC_PUSH(ctx->doc->arena, *v, s);
}

/* ckp_top(i) (or ckp_take(i)) and ckp_restore_* (or ckp_store_*) of the
 * snapshot, appended to @v. */
static bool
snapshot_calls(f6 *p, stmtvec *v, const xf_varref *iref, bool take)
{
    char name[64];
    if (!push_stmt(p->ctx, v, call(p, take ? "ckp_take" : "ckp_top", iref)))
        return false;
    for (uint32_t k = 0; k < p->snap.n; k++) {
        snprintf(name, sizeof name, "ckp_%s_%s", take ? "store" : "restore",
                 xf_dry_snap_kind(sym_of(p->snap.v[k])));
        if (!push_stmt(p->ctx, v, call(p, xf_intern(p->ctx->doc, name), p->snap.v[k])))
            return false;
    }
    return true;
}

/* The snapshot: what the iteration (the statements of @l2's body)
 * overwrites that the loop reads; NULL, or why not. */
static const char *
snapshot(f6 *p, const xf_region *l2)
{
    xf_pass_ctx *ctx = p->ctx;
    uint32_t n = ctx->doc->nsymbols;
    uint8_t *assigned = XF_NEW_ARRAY(ctx->scratch, n + 1, uint8_t);
    uint8_t *read = XF_NEW_ARRAY(ctx->scratch, n + 1, uint8_t);
    int32_t *all = XF_NEW_ARRAY(ctx->scratch, n + 1, int32_t); /* reads, own ones too */
    int32_t *so_far = XF_NEW_ARRAY(ctx->scratch, n + 1, int32_t);
    if (!assigned || !read || !all || !so_far)
        return "out of memory";
    for (uint32_t k = 0; k < l2->body.v.n; k++) {
        const xf_cvertex *b = l2->body.v.v[k]->v;
        for (uint32_t j = 0; j < b->stmts.n; j++) {
            const xf_stmt *st = b->stmts.v[j];
            const xf_symbol *s = st->kind == XF_STMT_ASSIGN ? sym_of(&st->u.as.lhs) : NULL;
            if (s && s->index < n)
                assigned[s->index] = 1;
            xf_dry_stmt_reads_own(all, n, st, 1);
        }
    }
    for (uint32_t k = 0; k < l2->body.v.n; k++) {
        const xf_cvertex *b = l2->body.v.v[k]->v;
        for (uint32_t j = 0; j < b->stmts.n; j++) {
            const xf_stmt *st = b->stmts.v[j];
            const xf_symbol *s = st->kind == XF_STMT_ASSIGN ? sym_of(&st->u.as.lhs) : NULL;
            bool first_write = s && s->index < n && !read[s->index] &&
                               !xf_varref_arrref(&st->u.as.lhs) && xf_shape_rank(s->shape) == 0;
            /* what this statement reads, before its write */
            if (s && s->index < n)
                so_far[s->index] = 0;
            xf_dry_stmt_reads_own(so_far, n, st, 1);
            if (s && s->index < n && so_far[s->index])
                first_write = false;
            for (uint32_t i = 0; i < n; i++)
                if (so_far[i])
                    read[i] = 1, so_far[i] = 0;
            if (!s || s->index >= n || xf_is_temporary(s) || counter(st) || first_write ||
                all[s->index] <= 0)
                continue;
            if (!xf_dry_snap_kind(s)) {
                snprintf(p->why, sizeof p->why,
                         "%s, which it overwrites, is neither real, integer nor logical", s->id);
                return p->why;
            }
            if (subscripts_read(assigned, n, &st->u.as.lhs)) {
                snprintf(p->why, sizeof p->why,
                         "the element of %s it writes is named by a value the iteration computes",
                         s->id);
                return p->why;
            }
            bool dup = false;
            for (uint32_t q = 0; q < p->snap.n && !dup; q++)
                dup = xf_refs_alike(&st->u.as.lhs, p->snap.v[q]);
            if (!dup && !XF_VEC_PUSH(ctx->scratch, p->snap, &st->u.as.lhs))
                return "out of memory";
        }
    }
    return NULL;
}

/* Does the taping sweep (@t2) write, after loop @l2, a variable the loop
 * writes (its own variable apart, which ckp_top restores), or call a
 * routine? */
static const char *
written_after(f6 *p, const xf_cfgtree *t2, const xf_region *l2)
{
    uint32_t n = p->ctx->doc->nsymbols;
    uint8_t *w = XF_NEW_ARRAY(p->ctx->scratch, n + 1, uint8_t);
    if (!w)
        return "out of memory";
    for (uint32_t k = 0; k < p->d->written.n; k++)
        if (p->d->written.v[k]->index < n && p->d->written.v[k] != p->d->index)
            w[p->d->written.v[k]->index] = 1;
    uint32_t last = l2->index;
    for (uint32_t k = l2->index + 1; k < t2->all.n && xf_dry_inside(t2->all.v[k], l2); k++)
        last = k;
    for (uint32_t k = last + 1; k < t2->all.n; k++) {
        const xf_cvertex *v = t2->all.v[k]->v;
        const xf_stmt *hs[2] = {v->init, v->update};
        for (int h = 0; h < 2; h++) {
            const xf_symbol *s =
                hs[h] && hs[h]->kind == XF_STMT_ASSIGN ? sym_of(&hs[h]->u.as.lhs) : NULL;
            if (s && s->index < n && w[s->index]) {
                snprintf(p->why, sizeof p->why, "%s, which it writes, is written after it", s->id);
                return p->why;
            }
        }
        for (uint32_t j = 0; j < v->stmts.n; j++) {
            const xf_stmt *st = v->stmts.v[j];
            if (st->kind == XF_STMT_CALL)
                return "a routine is called after it";
            const xf_symbol *s = st->kind == XF_STMT_ASSIGN ? sym_of(&st->u.as.lhs) : NULL;
            if (s && s->index < n && w[s->index]) {
                snprintf(p->why, sizeof p->why, "%s, which it writes, is written after it", s->id);
                return p->why;
            }
        }
    }
    return NULL;
}

/* Must the loops be right under the split template? --reversal split; and
 * --loops auto without --reversal joint (the output is then for both
 * templates). --per-iteration-dry-run is for the joint template unless
 * --reversal split says otherwise. */
static bool
split_rules(const xf_opts *o)
{
    const dry_opts *own = xf_pass_own_c(o, &xf_pass_iterdry);
    return o->reversal == XF_REV_SPLIT || (o->reversal == XF_REV_BOTH && !own->per_iter_dry);
}

/* Why loop @d cannot be dry-run per iteration, or NULL (then it has been). */
static const char *
apply(f6 *p, const xf_cfgtree *t2, const xf_cfgtree *t3)
{
    const xf_loopdep *d = p->d;
    xf_pass_ctx *ctx = p->ctx;
    bool split = split_rules(ctx->opts);
    if (d->called && split)
        return "the routine is called: in split reversal its adjoint sweep runs after its "
               "caller has run on";
    if (d->v->kind != XF_CV_FORLOOP || d->depth || !d->index)
        return "not a ForLoop at the routine's top level";
    if (d->parallel)
        return "its iterations are independent (--iteration-wise, --dry-run)";
    if (d->why != XF_LD_SCALAR && d->why != XF_LD_OFFSET && d->why != XF_LD_SUBSCRIPT)
        return "its dependence is not through variables the body assigns";
    if (d->input_overwritten.sym)
        return "a value it reads from before it is overwritten after it";
    if (d->after_write.sym)
        return "a real variable it accesses is written after it";
    if (split && d->local_input.sym)
        return "it reads a local variable, which the adjoint sweep of split reversal does not "
               "have";
    const xf_region *l2 = NULL;
    for (uint32_t k = 0; k < t2->all.n && !l2; k++)
        if (t2->all.v[k]->kind == XF_RG_LOOP && t2->all.v[k]->v->id == d->v->id)
            l2 = t2->all.v[k];
    if (!l2 || !l2->body.v.n || !xf_iw_blocks_only(&l2->body))
        return "its taping sweep is not a loop of basic blocks without calls";
    bool tapes = false;
    for (uint32_t k = 0; k < l2->body.v.n && !tapes; k++)
        for (uint32_t j = 0; j < l2->body.v.v[k]->v->stmts.n && !tapes; j++)
            tapes = named(l2->body.v.v[k]->v->stmts.v[j], "push");
    if (!tapes)
        return "it tapes nothing per iteration";
    const xf_region *l3 = xf_iw_blocks_adjoint(t3, &l2->body);
    if (!l3 || !xf_iw_blocks_only(&l3->body) || l3->v->kind != XF_CV_FORLOOP)
        return "its adjoint is not a loop of basic blocks";
    for (uint32_t k = 0; k < l3->body.v.n; k++) {
        const xf_cvertex *b = l3->body.v.v[k]->v;
        for (uint32_t j = 0; j < b->stmts.n; j++) {
            const xf_stmt *st = b->stmts.v[j];
            const xf_symbol *s = st->kind == XF_STMT_ASSIGN ? sym_of(&st->u.as.lhs) : NULL;
            if (st->kind == XF_STMT_ASSIGN && (!s || !xf_is_temporary(s)))
                return "its adjoint assigns a variable of the program";
        }
    }
    if (split) {
        for (uint32_t k = 0; k < d->written.n; k++)
            if (d->written.v[k] != d->index && xf_is_local(p->rt, d->written.v[k]) &&
                !xf_is_temporary(d->written.v[k]))
                return "it writes a local variable, which the adjoint sweep of split reversal "
                       "does not have";
    }
    const char *why = written_after(p, t2, l2);
    if (!why)
        why = snapshot(p, l2);
    if (why)
        return why;
    /* the iteration as the adjoint sweep runs it again: the taping statements */
    stmtvec run = {0};
    for (uint32_t k = 0; k < l2->body.v.n; k++) {
        const xf_cvertex *b = l2->body.v.v[k]->v;
        for (uint32_t j = 0; j < b->stmts.n; j++)
            if (!counter(b->stmts.v[j]) && !push_stmt(ctx, &run, b->stmts.v[j]))
                return "out of memory";
    }
    xf_varref *iref = xf_ref_new(ctx->doc, (xf_symbol *)d->index);
    if (!iref)
        return "out of memory";
    xf_mark_ref(iref, false, false);
    /* the adjoint sweep: restore, the taping statements, the adjoint,
     * restore again, drop */
    stmtvec head = {0}, tail = {0};
    if (!snapshot_calls(p, &head, iref, false))
        return "out of memory";
    uint32_t from = head.n;
    for (uint32_t j = 0; j < run.n; j++)
        if (!push_stmt(ctx, &head, run.v[j]))
            return "out of memory";
    xf_cvertex *first = l3->body.v.v[0]->v, *last = l3->body.v.v[l3->body.v.n - 1]->v;
    for (uint32_t j = 0; j < first->stmts.n; j++)
        if (!push_stmt(ctx, &head, first->stmts.v[j]))
            return "out of memory";
    first->stmts.v = head.v, first->stmts.n = head.n, first->stmts.cap = head.cap;
    if (!snapshot_calls(p, &tail, iref, false) || !push_stmt(ctx, &tail, call(p, "ckp_drop", NULL)))
        return "out of memory";
    for (uint32_t j = 0; j < tail.n; j++)
        if (!XF_VEC_PUSH(ctx->doc->arena, last->stmts, tail.v[j]))
            return "out of memory";
    /* the taping sweep: the snapshot, then the iteration untaped */
    stmtvec fwd = {0};
    if (!snapshot_calls(p, &fwd, iref, true))
        return "out of memory";
    for (uint32_t k = 0; k < l2->body.v.n; k++) {
        xf_cvertex *b = l2->body.v.v[k]->v;
        stmtvec keep = k ? (stmtvec){0} : fwd;
        for (uint32_t j = 0; j < b->stmts.n; j++)
            if (!named(b->stmts.v[j], "push") && !push_stmt(ctx, &keep, b->stmts.v[j]))
                return "out of memory";
        b->stmts.v = keep.v, b->stmts.n = keep.n, b->stmts.cap = keep.cap;
    }
    if (xf_dry_trim(ctx, t2, l2, t3, l3, from, run.n))
        return "out of memory";
    snprintf(p->why, sizeof p->why, "%u", p->snap.n);
    return NULL;
}

static bool
idle(const xf_opts *o)
{
    const dry_opts *own = xf_pass_own_c(o, &xf_pass_iterdry);
    const xf_iw_opts *iw = xf_pass_own_c(o, &xf_pass_iterwise);
    return !own->per_iter_dry && !iw->loops_auto;
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    if (!ctx->opts || idle(ctx->opts) || !rt->is_rlist)
        return 0;
    xf_replacement *p1 = xf_placeholder(rt, "1"), *p2 = xf_placeholder(rt, "2"),
                   *p3 = xf_placeholder(rt, "3");
    if (!p1 || !p2 || !p3)
        return 0;
    xf_loopdep_vec v = {0};
    int ret = xf_loopdep_graph(ctx->doc, rt, &p1->g, ctx->scratch, &v);
    if (ret != 0)
        return xf_loopdep_failed(ctx, &v, ret, xf_loop_options(ctx->opts));
    xf_cfgtree t2, t3;
    bool ok = v.n && xf_cfgtree_parse(&p2->g, ctx->scratch, &t2) &&
              xf_cfgtree_parse(&p3->g, ctx->scratch, &t3);
    for (uint32_t k = 0; k < v.n; k++) {
        f6 p = {.ctx = ctx, .rt = rt, .d = &v.v[k]};
        const char *why = ok ? apply(&p, &t2, &t3) : "the adjoint does not nest";
        if (why && !strcmp(why, "out of memory"))
            return xf_pass_oom(ctx);
        if (ctx->opts->report_loops) {
            char line[32] = "?";
            if (v.v[k].v->lineno >= 0)
                snprintf(line, sizeof line, "%lld", (long long)v.v[k].v->lineno);
            if (why)
                fprintf(ctx->opts->report_loops, "per-iteration dry run: %s line %s: no, %s\n",
                        rt->sym ? rt->sym->id : "?", line, why);
            else
                fprintf(ctx->opts->report_loops,
                        "per-iteration dry run: %s line %s: yes, %s variable(s) in the "
                        "snapshot of an iteration\n",
                        rt->sym ? rt->sym->id : "?", line, p.why);
        }
        /* a loop taken changed the trees' statements, not their shape */
    }
    return 0;
}

const char *
xf_loop_options(const xf_opts *o)
{
    const dry_opts *own = xf_pass_own_c(o, &xf_pass_iterdry);
    const xf_iw_opts *iw = xf_pass_own_c(o, &xf_pass_iterwise);
    if (iw->loops_auto)
        return "--loops auto";
    if (own->per_iter_dry)
        return iw->iterwise ? "--per-iteration-dry-run and --iteration-wise"
                            : "--per-iteration-dry-run";
    if (iw->iterwise)
        return iw->dry_run ? "--iteration-wise and --dry-run" : "--iteration-wise";
    return NULL;
}

static int
parse_per_iteration(xf_opts *o, void *own, const char *arg, char *err, size_t len)
{
    (void)o, (void)arg, (void)err, (void)len;
    ((dry_opts *)own)->per_iter_dry = true;
    return 0;
}

static const xf_pass_opt opts[] = {
    {.name = "per-iteration-dry-run",
     .help = "run each iteration of a loop that is not parallel\n"
             "untaped in the taping sweep, after a snapshot of what\n"
             "it overwrites; the adjoint sweep restores it, tapes the\n"
             "iteration and adjoins it at once (loops of basic\n"
             "blocks that tape something; docs/loops.md); for\n"
             "the joint template; with --reversal split, loops\n"
             "that touch no local variable\n",
     .parse = parse_per_iteration},
    {0},
};

static const char *const after[] = {"reverse", NULL};

const xf_pass xf_pass_iterdry = {
    .name = "iterdry",
    .summary = "per-iteration dry-running of loops that are not parallel (--per-iteration-dry-run)",
    .help = "With --per-iteration-dry-run: for each ForLoop of basic blocks at the top level\n"
            "of a routine whose iterations depend on each other, the taping sweep runs\n"
            "each iteration untaped after a snapshot (ckp_take, ckp_store_*) of what it\n"
            "overwrites; the adjoint sweep restores the snapshot, tapes the iteration and\n"
            "adjoins it at once. The tape holds one iteration.\n",
    .after = after,
    .once = true,
    .opts = opts,
    .own_size = sizeof(dry_opts),
    .run_routine = run_routine,
    .idle = idle,
    .needs_document = true, /* callers and callees' side effects (loopdep) */
};
