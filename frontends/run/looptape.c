/* looptape.c: the tape of each loop as the program runs (xaiform run
 * --loop-tape). For every ForLoop and PreLoop that runs, per sweep (the
 * graph it belongs to: a routine's placeholder 2 is the taping sweep, 3 the
 * adjoint sweep, 1 or a ControlFlowGraph plain code), it records the tape
 * height when the loop starts and when it ends, the most words one
 * iteration adds above the height it began with, and whether every
 * iteration ends at most as high as it began ("released": the loop's tape
 * is one iteration's). Heights are the words on all tapes together; the
 * checkpoint stacks do not count. Only what runs after the driver's
 * preliminary plain pass is recorded (rt_looptape_reset). */
#include <string.h>

#include "rt.h"

typedef struct lt_rec lt_rec;
struct lt_rec {
    const xf_cvertex *v;
    const char *routine;
    const char *sweep;
    uint64_t runs, iters;
    int64_t entry, exit; /* of the first run */
    int64_t kept;        /* the most words a run left above its entry height */
    int64_t growth;      /* the most words an iteration rose above its start */
    bool released;       /* every iteration ended at most at its start height */
    lt_rec *next;
};

typedef struct lt_frame {
    const xf_cvertex *v;
    const xf_graph *g;
    const rt_act *act;
    lt_rec *rec;
    int64_t h0, hs, top; /* entry, start of the iteration, highest in it */
    bool in_iter;
} lt_frame;

struct rt_looptape {
    FILE *out;
    xf_map recs; /* vertex -> lt_rec */
    lt_rec *first, **last;
    lt_frame *f;
    uint32_t n, cap;
};

static int64_t
height(const rt *m)
{
    int64_t h = 0;
    for (int k = 0; k < ST_KINDS; k++)
        h += m->tape[k].n;
    return h;
}

void
rt_looptape_init(rt *m, FILE *out)
{
    if (!out)
        return;
    m->lt = rt_alloc(m, sizeof *m->lt);
    m->lt->out = out;
    m->lt->last = &m->lt->first;
}

void
rt_looptape_reset(rt *m)
{
    if (!m->lt)
        return;
    for (lt_rec *r = m->lt->first; r; r = r->next) {
        r->runs = r->iters = 0;
        r->entry = r->exit = r->kept = r->growth = 0;
        r->released = true;
    }
    m->lt->n = 0;
}

void
rt_looptape_push(rt *m)
{
    int64_t h = height(m);
    for (uint32_t k = 0; k < m->lt->n; k++)
        if (m->lt->f[k].top < h)
            m->lt->f[k].top = h;
}

static const char *
sweep_of(const rt *m, const xf_graph *g)
{
    const rt_routine *r = m->act ? m->act->rt : NULL;
    if (!r || r->g == g || r->ph[1] == g)
        return "plain";
    if (r->ph[2] == g)
        return "taping sweep";
    if (r->ph[3] == g)
        return "adjoint sweep";
    return "other";
}

static lt_rec *
record(rt *m, const xf_graph *g, const xf_cvertex *v)
{
    lt_rec *r = xf_map_get(&m->lt->recs, v);
    if (r)
        return r;
    r = rt_alloc(m, sizeof *r);
    r->v = v;
    r->routine = m->act && m->act->rt->name ? m->act->rt->name : "?";
    r->sweep = sweep_of(m, g);
    r->released = true;
    if (!xf_map_put(&m->lt->recs, m->a, v, r, NULL))
        rt_fault(m, "out of memory");
    *m->lt->last = r;
    m->lt->last = &r->next;
    return r;
}

static void
end_iteration(lt_frame *f, int64_t h)
{
    if (!f->in_iter)
        return;
    f->rec->iters++;
    if (f->top - f->hs > f->rec->growth)
        f->rec->growth = f->top - f->hs;
    if (h > f->hs)
        f->rec->released = false;
    f->in_iter = false;
}

static void
end_run(lt_frame *f, int64_t h)
{
    lt_rec *r = f->rec;
    if (!r->runs++) {
        r->entry = f->h0;
        r->exit = h;
    }
    if (h - f->h0 > r->kept)
        r->kept = h - f->h0;
}

void
rt_looptape_loop(rt *m, const xf_graph *g, const xf_cvertex *v, bool enter_body)
{
    rt_looptape *lt = m->lt;
    int64_t h = height(m);
    /* an open run of this loop in this activation: an iteration has ended
     * (frames above it were left by a jump) */
    uint32_t at = lt->n;
    while (at > 0 && !(lt->f[at - 1].v == v && lt->f[at - 1].act == m->act))
        at--;
    lt_frame *f;
    if (at > 0) {
        lt->n = at;
        f = &lt->f[at - 1];
        end_iteration(f, h);
    } else {
        if (lt->n == lt->cap) {
            uint32_t cap = lt->cap ? 2 * lt->cap : 16;
            lt_frame *nf = rt_alloc(m, cap * sizeof *nf);
            if (lt->n)
                memcpy(nf, lt->f, lt->n * sizeof *nf);
            lt->f = nf;
            lt->cap = cap;
        }
        f = &lt->f[lt->n++];
        *f = (lt_frame){.v = v, .g = g, .act = m->act, .rec = record(m, g, v), .h0 = h};
    }
    if (enter_body) {
        f->hs = f->top = h;
        f->in_iter = true;
        return;
    }
    end_run(f, h);
    lt->n--;
}

void
rt_looptape_leave(rt *m, const xf_graph *g)
{
    rt_looptape *lt = m->lt;
    int64_t h = height(m);
    while (lt->n && lt->f[lt->n - 1].act == m->act && lt->f[lt->n - 1].g == g) {
        lt_frame *f = &lt->f[lt->n - 1];
        end_iteration(f, h);
        end_run(f, h);
        lt->n--;
    }
}

void
rt_looptape_print(const rt *m)
{
    if (!m->lt)
        return;
    for (const lt_rec *r = m->lt->first; r; r = r->next) {
        if (!r->runs)
            continue;
        char line[24] = "?";
        if (r->v->lineno != XF_NOINT)
            snprintf(line, sizeof line, "%lld", (long long)r->v->lineno);
        fprintf(m->lt->out,
                "loop-tape: %s line %s, %s: runs %llu, iterations %llu, entry %lld, exit "
                "%lld, kept %lld, largest iteration %lld, released %s\n",
                r->routine, line, r->sweep, (unsigned long long)r->runs,
                (unsigned long long)r->iters, (long long)r->entry, (long long)r->exit,
                (long long)r->kept, (long long)r->growth, r->released ? "yes" : "no");
    }
}
