/* iterwise.c: the iteration-wise adjoint of a parallel terminal loop
 * (Hascoët, Fidanova, Held [004] §3, F3). With --iteration-wise, for each
 * loop of a routine's original code (placeholder 1) that loopdep finds
 * parallel (additive reductions allowed) and terminal, the adjoint of one
 * iteration runs at the end of that iteration in the taping sweep
 * (placeholder 2): what the iteration pushed is popped at once, and the
 * tape of the loop is the tape of one iteration. The adjoint sweep's loop
 * (placeholder 3) is left empty: the counter its trip count comes from
 * stays 0.
 *
 * Why the result is the same: the iterations are independent, so their
 * adjoints commute and each can follow its own iteration; the loop is
 * terminal, and nothing after it writes a real variable it reads or writes,
 * so the adjoints the loop's adjoint reads (its results') are, in the
 * taping sweep, what they would be when the adjoint sweep came back to it
 * (the seeds, or zero), and nothing after it resets the adjoints it
 * increments. The routine must be the top one (no call of the document
 * calls it): its driver sets the seeds before the taping sweep in joint and
 * split reversal alike. In split reversal the taping and the adjoint sweep
 * run in two activations of the routine: the adjoint added to a local
 * variable in the taping sweep is lost. --iteration-wise therefore leaves
 * a loop that reads a real local variable (other than those it writes)
 * alone; --iteration-wise-joint takes it too, for the joint template only,
 * and also the loops of routines that something calls, terminal but for
 * the routine's outputs: in joint reversal the caller's adjoint sweep
 * calls the routine's taping sweep and then its adjoint sweep, with the
 * adjoints of its outputs set, and nothing in between.
 *
 * Applied only where the shape is the simple one: a loop at the top level
 * of the routine whose body in placeholder 2 and whose adjoint loop's body
 * in placeholder 3 are basic blocks only, without calls, the adjoint
 * assigning no variable of the program (only the temporaries it pops
 * into). A loop reversed by counting loses its counter's increment, so
 * that the adjoint sweep's loop runs no iteration; a loop marked
 * reversal="explicit", run backwards by the adjoint sweep, keeps that loop
 * with its blocks empty (its adjoint reads the loop variable, which holds
 * the iteration's value at the end of the iteration). --report-loops prints, per
 * loop considered, whether it was applied or why not.
 * Needs: reverse. Breaks: nothing. */
#include <string.h>

#include "cfgtree.h"
#include "loopdep.h"
#include "pass.h"

/* Is every region of @s a basic block without calls? */
static bool
blocks_only(const xf_rgseq *s)
{
    for (uint32_t k = 0; k < s->v.n; k++) {
        const xf_region *r = s->v.v[k];
        if (r->kind != XF_RG_BLOCK)
            return false;
        for (uint32_t j = 0; j < r->v->stmts.n; j++)
            if (r->v->stmts.v[j]->kind == XF_STMT_CALL)
                return false;
    }
    return true;
}

/* Does a block of @s have the id @id? */
static bool
holds_id(const xf_rgseq *s, const char *id)
{
    for (uint32_t k = 0; k < s->v.n; k++)
        if (s->v.v[k]->v->id == id)
            return true;
    return false;
}

/* The loop of placeholder 3 that holds the adjoint of @body's blocks. */
static const xf_region *
adjoint_loop(const xf_cfgtree *t3, const xf_rgseq *body)
{
    for (uint32_t k = 0; k < t3->all.n; k++) {
        const xf_region *r = t3->all.v[k];
        if (r->kind != XF_RG_LOOP || !r->body.v.n)
            continue;
        bool all = true;
        for (uint32_t j = 0; j < r->body.v.n && all; j++)
            all = r->body.v.v[j]->kind == XF_RG_BLOCK && holds_id(body, r->body.v.v[j]->v->id);
        if (all)
            return r;
    }
    return NULL;
}

static bool
program_variable(const xf_stmt *st)
{
    if (st->kind != XF_STMT_ASSIGN)
        return false;
    const xf_symref *s = xf_varref_symref(&st->u.as.lhs);
    return !s || !s->sym ||
           (!xf_flag_is(s->sym->temp, false) && strncmp(s->sym->id, "OpenAD_", 7) != 0);
}

/* Why loop @d cannot be adjoined iteration by iteration here, or NULL
 * (then it has been). */
static const char *
apply(xf_pass_ctx *ctx, const xf_loopdep *d, const xf_cfgtree *t2, const xf_cfgtree *t3)
{
    bool joint = ctx->opts->iterwise >= 2;
    if (d->called && !joint)
        return "the routine is called: in split reversal its taping sweep runs before the "
               "caller's adjoint has set the adjoints of its outputs (--iteration-wise-joint)";
    if (d->v->kind != XF_CV_FORLOOP || d->depth)
        return "not a ForLoop at the routine's top level";
    if (!d->parallel)
        return "its iterations are not independent";
    if (d->terminal != XF_LT_YES && !(joint && d->terminal == XF_LT_OUTPUT))
        return "not terminal";
    if (d->after_write.sym)
        return "a real variable it accesses is written after it";
    if (d->local_input.sym && ctx->opts->iterwise < 2)
        return "it reads a local variable, whose adjoint does not survive from the taping "
               "to the adjoint sweep in split reversal (--iteration-wise-joint)";
    const xf_region *l2 = NULL;
    for (uint32_t k = 0; k < t2->all.n && !l2; k++)
        if (t2->all.v[k]->kind == XF_RG_LOOP && t2->all.v[k]->v->id == d->v->id)
            l2 = t2->all.v[k];
    if (!l2 || !l2->body.v.n || !blocks_only(&l2->body))
        return "its taping sweep is not a loop of basic blocks without calls";
    const xf_region *l3 = adjoint_loop(t3, &l2->body);
    if (!l3 || !blocks_only(&l3->body))
        return "its adjoint is not a loop of basic blocks";
    /* the counter's increment, and the block the adjoint goes into */
    xf_cvertex *count = NULL, *last = l2->body.v.v[l2->body.v.n - 1]->v;
    uint32_t at = 0;
    for (uint32_t k = 0; k < l2->body.v.n && !count; k++) {
        xf_cvertex *b = l2->body.v.v[k]->v;
        for (uint32_t j = 0; j < b->stmts.n; j++)
            if (b->stmts.v[j]->id && !strcmp(b->stmts.v[j]->id, "_cfr_count")) {
                count = b;
                at = j;
            }
    }
    if (!count && !l2->head)
        return "no trip counter in its taping sweep";
    for (uint32_t k = 0; k < l3->body.v.n; k++) {
        const xf_cvertex *b = l3->body.v.v[k]->v;
        for (uint32_t j = 0; j < b->stmts.n; j++)
            if (program_variable(b->stmts.v[j]))
                return "its adjoint assigns a variable of the program";
    }
    /* the adjoint of the iteration at the end of the iteration */
    for (uint32_t k = 0; k < l3->body.v.n; k++) {
        xf_cvertex *b = l3->body.v.v[k]->v;
        for (uint32_t j = 0; j < b->stmts.n; j++)
            if (!XF_VEC_PUSH(ctx->doc->arena, last->stmts, b->stmts.v[j]))
                return "out of memory";
        b->stmts.n = 0;
    }
    /* a counted loop: the trip count stays 0, the adjoint sweep's loop runs
     * no iteration; a loop run backwards (explicit) runs its iterations
     * over the empty blocks */
    if (count) {
        memmove(&count->stmts.v[at], &count->stmts.v[at + 1],
                (count->stmts.n - at - 1) * sizeof count->stmts.v[0]);
        count->stmts.n--;
    }
    return NULL;
}

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    if (!ctx->opts || !ctx->opts->iterwise || !rt->is_rlist)
        return 0;
    xf_replacement *p1 = xf_placeholder(rt, "1"), *p2 = xf_placeholder(rt, "2"),
                   *p3 = xf_placeholder(rt, "3");
    if (!p1 || !p2 || !p3)
        return 0;
    xf_loopdep_vec v = {0};
    if (xf_loopdep_graph(ctx->doc, rt, &p1->g, ctx->scratch, &v) != 0)
        return xf_pass_oom(ctx);
    if (!v.n)
        return 0;
    xf_cfgtree t2, t3;
    bool ok =
        xf_cfgtree_parse(&p2->g, ctx->scratch, &t2) && xf_cfgtree_parse(&p3->g, ctx->scratch, &t3);
    for (uint32_t k = 0; k < v.n; k++) {
        const char *why = ok ? apply(ctx, &v.v[k], &t2, &t3) : "the adjoint does not nest";
        if (why && !strcmp(why, "out of memory"))
            return xf_pass_oom(ctx);
        if (ctx->opts->report_loops)
            fprintf(ctx->opts->report_loops, "iteration-wise: %s line %lld: %s%s\n",
                    rt->sym ? rt->sym->id : "?", (long long)v.v[k].v->lineno, why ? "no, " : "yes",
                    why ? why : "");
    }
    return 0;
}

static int
parse_iterwise(xf_opts *o, const char *arg, char *err, size_t len)
{
    (void)arg, (void)err, (void)len;
    if (o->iterwise < 1)
        o->iterwise = 1;
    return 0;
}

static int
parse_iterwise_joint(xf_opts *o, const char *arg, char *err, size_t len)
{
    (void)arg, (void)err, (void)len;
    o->iterwise = 2;
    return 0;
}

static const xf_pass_opt opts[] = {
    {.name = "iteration-wise",
     .help = "adjoin each parallel terminal loop of the top\n"
             "routine iteration by iteration in the taping sweep:\n"
             "the loop's tape is one iteration's (docs/loops.md);\n"
             "correct in joint and split reversal\n",
     .parse = parse_iterwise},
    {.name = "iteration-wise-joint",
     .help = "the same, also for loops that read local variables\n"
             "and for loops of routines that something calls:\n"
             "correct in joint reversal only (the back end must\n"
             "expand the joint template)\n",
     .parse = parse_iterwise_joint},
    {0},
};

static const char *const after[] = {"reverse", NULL};

const xf_pass xf_pass_iterwise = {
    .name = "iterwise",
    .summary = "the iteration-wise adjoint of parallel terminal loops (--iteration-wise)",
    .help = "With --iteration-wise: for each loop of the original code that loopdep finds\n"
            "parallel and terminal, with nothing after it writing a real variable it\n"
            "accesses, in the top routine, the adjoint of an iteration runs at the end of\n"
            "that iteration in the taping sweep, and the adjoint sweep's loop runs no\n"
            "iteration. The tape of the loop is the tape of one iteration.\n",
    .after = after,
    .opts = opts,
    .run_routine = run_routine,
};
