/* snapshot.c: the snapshot calls of checkpointed time loops (transforms/
 * checkpoint.c writes them; docs/checkpointing.md names them). Snapshots are
 * frames on a stack of their own, apart from the tape and from the argument
 * checkpoints: a frame holds the step it was taken at and the values of the
 * step's state, in the order they were stored.
 *
 *   ckp_take(step)          open a new frame for step @step
 *   ckp_store_<kind>(v)     append v's values (every element) to the top frame
 *   ckp_top(step)           rewind the top frame: @step := its step, reading from its start
 *   ckp_restore_<kind>(v)   read v's values back, in the order stored
 *   ckp_drop                remove the top frame
 *   ckp_step_plain / ckp_step_tape / ckp_step_adjoint / ckp_step_end
 *                           around one step of the loop: count it and set the
 *                           mode the calls inside it run in (plain; as in the
 *                           taping sweep; as in the adjoint sweep), then go back
 *                           to the mode before
 *
 * <kind> is real, integer or bool. Only values are stored, never derivative
 * components. Peak snapshot words and the steps are counted in the run's
 * statistics. Names compare without regard to case. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rt.h"

enum { MODE_DEPTH = 64 };

struct rt_snap {
    union rt_word *w; /* the words of every frame, oldest first */
    int64_t n, cap;
    int64_t *start; /* per frame: index of its first word (the step) */
    int64_t nf, capf;
    int64_t cursor;            /* next word ckp_restore_* reads */
    rt_mode saved[MODE_DEPTH]; /* ckp_step_*: the modes to go back to */
    int depth;
};

static rt_snap *
snap(rt *m)
{
    if (!m->snap) {
        m->snap = calloc(1, sizeof *m->snap);
        if (!m->snap)
            rt_fault(m, "out of memory");
    }
    return m->snap;
}

static void
put(rt *m, rt_snap *s, union rt_word w)
{
    if (s->n == s->cap) {
        int64_t cap = s->cap ? 2 * s->cap : 1024;
        union rt_word *nw = realloc(s->w, (size_t)cap * sizeof *nw);
        if (!nw)
            rt_fault(m, "out of memory");
        s->w = nw;
        s->cap = cap;
    }
    s->w[s->n++] = w;
    /* the step word of each frame is bookkeeping, not state */
    int64_t words = s->n - s->nf;
    if (words > m->stats.peak_snap)
        m->stats.peak_snap = words;
}

static const xf_varref *
var_arg(rt *m, const xf_stmt *st, const char *name)
{
    const xf_icall *c = &st->u.icall;
    if (c->args.n != 1 || c->args.v[0].val.v.n != 1 || c->args.v[0].val.v.v[0].kind != XF_EV_VARREF)
        rt_fault(m, "%s needs one variable as its argument", name);
    return c->args.v[0].val.v.v[0].u.ref;
}

static int
kind_of(rt *m, const char *t, const char *name)
{
    if (!strcasecmp(t, "real"))
        return ST_REAL;
    if (!strcasecmp(t, "integer"))
        return ST_INT;
    if (!strcasecmp(t, "bool"))
        return ST_BOOL;
    rt_fault(m, "unknown snapshot routine %s", name);
}

static void
store(rt *m, rt_snap *s, const xf_stmt *st, const char *name, int kind)
{
    if (!s->nf)
        rt_fault(m, "%s without a snapshot taken (ckp_take)", name);
    rt_lval lv;
    rt_lvalue(m, var_arg(m, st, name), false, &lv);
    rt_val v = rt_load(m, &lv);
    for (int64_t k = 0; k < v.n; k++) {
        union rt_word w;
        if (kind == ST_REAL)
            w.r = rt_real_at(&v, k);
        else if (kind == ST_INT)
            w.i = rt_int_at(m, &v, k);
        else
            w.b = rt_bool_at(m, &v, k);
        put(m, s, w);
        m->stats.snap_stored++;
    }
}

static void
restore(rt *m, rt_snap *s, const xf_stmt *st, const char *name, int kind)
{
    rt_lval lv;
    rt_lvalue(m, var_arg(m, st, name), false, &lv);
    rt_store *sto = lv.view->st;
    int64_t end = s->nf ? s->n : 0;
    for (int64_t k = 0; k < lv.n; k++) {
        if (s->cursor >= end)
            rt_fault(m, "%s reads past the top snapshot", name);
        union rt_word w = s->w[s->cursor++];
        int64_t at = lv.idx[k];
        switch (sto->type) {
        case RT_REAL:
            sto->v[at] = kind == ST_INT ? (double)w.i : w.r;
            break;
        case RT_INT:
            sto->i[at] = kind == ST_REAL ? (int64_t)w.r : w.i;
            break;
        case RT_BOOL:
            sto->b[at] = w.b;
            break;
        case RT_STR:
            rt_fault(m, "%s cannot restore a character variable", name);
        }
    }
}

static void
set_int(rt *m, const xf_stmt *st, const char *name, int64_t value)
{
    rt_lval lv;
    rt_lvalue(m, var_arg(m, st, name), false, &lv);
    if (lv.view->st->type != RT_INT || lv.n != 1)
        rt_fault(m, "the argument of %s must be one integer", name);
    lv.view->st->i[lv.idx[0]] = value;
}

static int64_t
int_arg(rt *m, const xf_stmt *st, const char *name)
{
    const xf_icall *c = &st->u.icall;
    if (c->args.n != 1)
        rt_fault(m, "%s needs one argument", name);
    return rt_eval_int(m, &c->args.v[0].val);
}

/* The modes the joint and split templates run placeholders 2 and 3 in (exec.c). */
static void
step(rt *m, rt_snap *s, char what)
{
    if (what == 'e') {
        if (!s->depth)
            rt_fault(m, "ckp_step_end without a step begun");
        m->mode = s->saved[--s->depth];
        return;
    }
    if (s->depth == MODE_DEPTH)
        rt_fault(m, "checkpointed steps nested deeper than %d", MODE_DEPTH);
    s->saved[s->depth++] = m->mode;
    switch (what) {
    case 'p':
        m->stats.steps_fwd++;
        m->mode = (rt_mode){.plain = true};
        break;
    case 't':
        m->stats.steps_tape++;
        m->mode = m->split ? (rt_mode){.tape = true} : (rt_mode){.arg_store = true, .plain = true};
        break;
    default:
        m->stats.steps_adj++;
        m->mode =
            m->split ? (rt_mode){.adjoint = true} : (rt_mode){.arg_restore = true, .tape = true};
        break;
    }
}

bool
rt_snapshot_call(rt *m, const xf_stmt *st)
{
    const char *n = st->u.icall.name;
    if (strncasecmp(n, "ckp_", 4))
        return false;
    rt_snap *s = snap(m);
    const char *t = n + 4;
    if (!strcasecmp(t, "take")) {
        int64_t at = int_arg(m, st, n);
        if (s->nf == s->capf) {
            int64_t cap = s->capf ? 2 * s->capf : 64;
            int64_t *ns = realloc(s->start, (size_t)cap * sizeof *ns);
            if (!ns)
                rt_fault(m, "out of memory");
            s->start = ns;
            s->capf = cap;
        }
        s->start[s->nf++] = s->n;
        put(m, s, (union rt_word){.i = at});
    } else if (!strncasecmp(t, "store_", 6)) {
        store(m, s, st, n, kind_of(m, t + 6, n));
    } else if (!strcasecmp(t, "top")) {
        if (!s->nf)
            rt_fault(m, "%s: no snapshot is held", n);
        int64_t at = s->start[s->nf - 1];
        set_int(m, st, n, s->w[at].i);
        s->cursor = at + 1;
    } else if (!strncasecmp(t, "restore_", 8)) {
        restore(m, s, st, n, kind_of(m, t + 8, n));
    } else if (!strcasecmp(t, "drop")) {
        if (!s->nf)
            rt_fault(m, "%s: no snapshot is held", n);
        s->n = s->start[--s->nf];
        s->cursor = s->n;
    } else if (!strcasecmp(t, "step_plain")) {
        step(m, s, 'p');
    } else if (!strcasecmp(t, "step_tape")) {
        step(m, s, 't');
    } else if (!strcasecmp(t, "step_adjoint")) {
        step(m, s, 'a');
    } else if (!strcasecmp(t, "step_end")) {
        step(m, s, 'e');
    } else
        rt_fault(m, "unknown snapshot routine %s", n);
    return true;
}

void
rt_snapshot_reset(rt *m)
{
    if (m->snap) {
        m->snap->n = m->snap->nf = m->snap->cursor = 0;
        m->snap->depth = 0;
    }
}

void
rt_snapshot_free(rt *m)
{
    if (m->snap) {
        free(m->snap->w);
        free(m->snap->start);
        free(m->snap);
        m->snap = NULL;
    }
}
