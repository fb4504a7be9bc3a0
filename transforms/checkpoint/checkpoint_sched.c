/* checkpoint_sched.c: the schedules of a checkpointed loop as code in
 * placeholders 2 (ck_forward) and 3 (ck_reverse), written with
 * checkpoint_emit.c. Step c of the loop (from 0) runs with i = L + c S.
 *
 * binomial and periodic:K reverse one step at a time: placeholder 2 runs
 * the steps plainly, taking snapshots, and tapes the last step; placeholder
 * 3 adjoins it, then for each earlier step restores the nearest snapshot,
 * advances plainly to the step (taking snapshots on the way), tapes it and
 * adjoins it. They differ in where snapshots are taken: binomial by
 * Griewank's rule (checkpoint.c), periodic at every multiple of K.
 *
 * two-level:K (paper 001 §5: joint reversal over segments of K steps, split
 * inside): placeholder 2 runs plainly with a snapshot at the start of each
 * segment and tapes the last segment; placeholder 3 adjoins that segment's
 * steps backwards, then for each earlier segment restores its snapshot,
 * tapes its K steps and adjoins them backwards. The tape holds one segment. */
#include <stdio.h>

#include "build.h"
#include "checkpoint.h"

/* Is @v a formal argument of @rt (which the call may have left out)? */
static bool
formal(const xf_routine *rt, const xf_symbol *v)
{
    for (uint32_t k = 0; rt && k < rt->args.n; k++)
        if (rt->args.v[k].sym == v)
            return true;
    return false;
}

/* One call of names[real, integer, bool] per variable of @vars; a formal
 * argument's only when present (it may be optional). */
static void
state_calls(ck_emit *e, const ck_sched *s, const ck_syms *vars, const char *const names[3])
{
    for (uint32_t k = 0; k < vars->n; k++) {
        xf_symbol *v = vars->v[k];
        xf_varref *r = xf_ref_new(e->doc, v);
        if (!r) {
            e->failed = true;
            return;
        }
        xf_mark_ref(r, false, false);
        bool guard = formal(s->rt, v);
        if (guard)
            ck_if_present(e, v);
        ck_call_ref(e, names[v->type == XF_TYPE_INTEGER ? 1 : v->type == XF_TYPE_BOOL ? 2 : 0], r);
        if (guard)
            ck_endif(e);
    }
}

/* Store the state in a new snapshot at step capo. */
static void
take(ck_emit *e, const ck_sched *s)
{
    static const char *const names[3] = {"ckp_store_real", "ckp_store_integer", "ckp_store_bool"};
    ck_call(e, "ckp_take", "capo");
    state_calls(e, s, s->state, names);
    ck_set(e, "n", "n + 1");
    ck_set(e, "top", "capo");
}

/* The state of the top snapshot back; capo its step. */
static void
restore(ck_emit *e, const ck_sched *s)
{
    static const char *const names[3] = {"ckp_restore_real", "ckp_restore_integer",
                                         "ckp_restore_bool"};
    ck_call(e, "ckp_top", "top");
    state_calls(e, s, s->state, names);
    ck_set(e, "capo", "top");
}

/* One step (capo) of the body of @g's loop @l, in @mode. */
static void
step(ck_emit *e, const char *mode, const xf_graph *g, const xf_region *l)
{
    ck_set(e, "i", "lo + capo * st");
    ck_call(e, mode, NULL);
    ck_splice(e, g, l->body_edge->tgt, l->end);
    ck_call(e, "ckp_step_end", NULL);
}

/* l steps from capo on, plainly. */
static void
plain_steps(ck_emit *e, const ck_sched *s)
{
    ck_set(e, "j", "0");
    ck_while(e, "j < l");
    step(e, "ckp_step_plain", s->ph1, s->l1);
    ck_set(e, "capo", "capo + 1");
    ck_set(e, "j", "j + 1");
    ck_endwhile(e);
}

/* The binomial rule: from a snapshot at capo with d = fine - capo steps
 * left and s = S - n + 1 snapshots, l = max(C(s+r-2, s) + 1, d -
 * C(s+r-1, s-1)), at most d - 1, r the least with C(s+r, s) >= d. */
static void
binomial_split(ck_emit *e)
{
    ck_set(e, "d", "fine - capo");
    ck_set(e, "s", "S - n + 1");
    ck_set(e, "r", "0");
    ck_set(e, "b", "1");
    ck_set(e, "b1", "0");
    ck_set(e, "b2", "0");
    ck_while(e, "b < d");
    ck_set(e, "r", "r + 1");
    ck_set(e, "b2", "b1");
    ck_set(e, "b1", "b");
    ck_set(e, "b", "b * (s + r) / r");
    ck_endwhile(e);
    ck_set(e, "l", "b2 + 1");
    ck_if(e, "d - b * s / (s + r) > l");
    ck_set(e, "l", "d - b * s / (s + r)");
    ck_endif(e);
    ck_if(e, "l > d - 1");
    ck_set(e, "l", "d - 1");
    ck_endif(e);
}

/* Advance from capo until one step is left before fine, taking snapshots
 * where the schedule says. */
static void
advance(ck_emit *e, const ck_sched *s)
{
    char buf[160];
    ck_while(e, "fine - capo > 1");
    if (s->kind == CK_PERIODIC) {
        snprintf(buf, sizeof buf, "(n == 0 | top != capo) & capo - capo / %lld * %lld == 0",
                 (long long)s->k, (long long)s->k);
        ck_if(e, buf);
    } else
        ck_if(e, "n == 0 | top != capo");
    take(e, s);
    ck_else(e);
    if (s->kind == CK_PERIODIC) {
        /* to the next multiple of K, or to the last step */
        snprintf(buf, sizeof buf, "%lld - (capo - capo / %lld * %lld)", (long long)s->k,
                 (long long)s->k, (long long)s->k);
        ck_set(e, "l", buf);
        ck_if(e, "l > fine - 1 - capo");
        ck_set(e, "l", "fine - 1 - capo");
        ck_endif(e);
    } else
        binomial_split(e);
    plain_steps(e, s);
    ck_endif(e);
    ck_endwhile(e);
}

static void
prologue(ck_emit *e, const ck_sched *s)
{
    char buf[128];
    ck_set(e, "lo", "@1");
    ck_set(e, "st", "@2");
    snprintf(buf, sizeof buf, "(@0 + %lld - lo + st) / st", (long long)s->adjust);
    ck_set(e, "T", buf);
    ck_if(e, "T < 0");
    ck_set(e, "T", "0");
    ck_endif(e);
    if (s->kind != CK_BINOMIAL)
        snprintf(buf, sizeof buf, "%lld", (long long)s->k);
    else if (s->snaps > 0)
        snprintf(buf, sizeof buf, "%lld", (long long)s->snaps);
    if (s->kind != CK_BINOMIAL || s->snaps > 0)
        ck_set(e, "S", buf);
    else {
        /* the least S with C(2S, S) >= T */
        ck_set(e, "S", "1");
        ck_set(e, "b", "2");
        ck_while(e, "b < T");
        ck_set(e, "S", "S + 1");
        ck_set(e, "b", "b * (4 * S - 2) / S");
        ck_endwhile(e);
    }
    ck_set(e, "n", "0");
    ck_set(e, "capo", "0");
    ck_set(e, "fine", "T");
    ck_set(e, "top", "0 - 1");
}

static void
epilogue(ck_emit *e, const ck_sched *s)
{
    static const char *const names[3] = {"ckp_store_real", "ckp_store_integer", "ckp_store_bool"};
    if (s->inputs->n) {
        /* what the steps only read, once, on top of the loop's snapshots */
        ck_call(e, "ckp_take", "-1");
        state_calls(e, s, s->inputs, names);
    }
    ck_set(e, "i", "lo + T * st");
    static const char *const saved[] = {"lo", "st", "T", "S", "n"};
    for (int k = 0; k < 5; k++)
        ck_call(e, "push_i_s0", saved[k]);
}

static void
pop_saved(ck_emit *e, const ck_sched *s)
{
    static const char *const names[3] = {"ckp_restore_real", "ckp_restore_integer",
                                         "ckp_restore_bool"};
    static const char *const saved[] = {"n", "S", "T", "st", "lo"};
    for (int k = 0; k < 5; k++)
        ck_call(e, "pop_i_s0", saved[k]);
    if (s->inputs->n) {
        ck_call(e, "ckp_top", "top");
        state_calls(e, s, s->inputs, names);
        ck_call(e, "ckp_drop", NULL);
    }
    ck_set(e, "top", "0 - 1");
    ck_if(e, "n > 0");
    ck_call(e, "ckp_top", "top");
    ck_endif(e);
}

/* two-level: S holds K. Placeholder 2: segments [c, c + K) plainly with a
 * snapshot at c, then the last segment taped (d: its first step). */
static void
segments_forward(ck_emit *e, const ck_sched *s)
{
    ck_if(e, "T > 0");
    ck_set(e, "d", "(T - 1) / S * S");
    ck_while(e, "capo < d");
    ck_if(e, "capo - capo / S * S == 0");
    take(e, s);
    ck_endif(e);
    ck_set(e, "l", "1");
    plain_steps(e, s);
    ck_endwhile(e);
    ck_while(e, "capo < T");
    step(e, "ckp_step_tape", s->ph2, s->l2);
    ck_set(e, "capo", "capo + 1");
    ck_endwhile(e);
    ck_endif(e);
}

/* two-level, placeholder 3: segment by segment from the last. */
static void
segments_reverse(ck_emit *e, const ck_sched *s)
{
    ck_set(e, "first", "1");
    ck_while(e, "fine > 0");
    ck_set(e, "d", "(fine - 1) / S * S");
    ck_if(e, "first == 0");
    restore(e, s);
    ck_call(e, "ckp_drop", NULL);
    ck_set(e, "n", "n - 1");
    ck_while(e, "capo < fine");
    step(e, "ckp_step_tape", s->ph2, s->l2);
    ck_set(e, "capo", "capo + 1");
    ck_endwhile(e);
    ck_endif(e);
    ck_set(e, "first", "0");
    ck_set(e, "capo", "fine - 1");
    ck_while(e, "capo >= d");
    step(e, "ckp_step_adjoint", s->ph3, s->l3);
    ck_set(e, "capo", "capo - 1");
    ck_endwhile(e);
    ck_set(e, "fine", "d");
    ck_endwhile(e);
}

void
ck_forward(ck_emit *e, const ck_sched *s)
{
    prologue(e, s);
    if (s->kind == CK_TWO_LEVEL)
        segments_forward(e, s);
    else {
        ck_if(e, "T > 0");
        advance(e, s);
        step(e, "ckp_step_tape", s->ph2, s->l2);
        ck_endif(e);
    }
    epilogue(e, s);
}

void
ck_reverse(ck_emit *e, const ck_sched *s)
{
    pop_saved(e, s);
    ck_set(e, "fine", "T");
    if (s->kind == CK_TWO_LEVEL) {
        segments_reverse(e, s);
        return;
    }
    ck_set(e, "capo", "T - 1");
    ck_set(e, "first", "1");
    ck_while(e, "fine > 0");
    ck_if(e, "first == 0");
    restore(e, s);
    advance(e, s);
    step(e, "ckp_step_tape", s->ph2, s->l2);
    ck_endif(e);
    ck_set(e, "first", "0");
    step(e, "ckp_step_adjoint", s->ph3, s->l3);
    ck_set(e, "fine", "capo");
    ck_if(e, "n > 0");
    ck_if(e, "top == capo");
    ck_call(e, "ckp_drop", NULL);
    ck_set(e, "n", "n - 1");
    ck_if(e, "n > 0");
    ck_call(e, "ckp_top", "top");
    ck_endif(e);
    ck_endif(e);
    ck_endif(e);
    ck_endwhile(e);
}
