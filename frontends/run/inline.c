/* inline.c: InlinableSubroutineCall, the routines of OpenAD's runtime that
 * xaifBooster's outputs call: tapes (push/pop), derivative propagation
 * (Saxpy, IncDeriv, ...), conversions and allocation helpers of OAD_active,
 * and the argument checkpoints (cp_arg_store_* / cp_arg_restore_*). Names
 * compare without regard to case, as Fortran's do. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rt.h"

static const char *const kind_name[ST_KINDS] = {"real", "integer", "logical", "character"};

/* ------------------------------------------------------------ stacks */

static void
stack_push(rt *m, rt_stack *s, union rt_word w)
{
    if (s->n == s->cap) {
        int64_t cap = s->cap ? s->cap * 2 : 1024;
        union rt_word *nw = realloc(s->w, (size_t)cap * sizeof *nw);
        if (!nw)
            rt_fault(m, "out of memory");
        s->w = nw;
        s->cap = cap;
    }
    s->w[s->n++] = w;
}

static int64_t
words(const rt_stack *s)
{
    int64_t n = 0;
    for (int k = 0; k < ST_KINDS; k++)
        n += s[k].n;
    return n;
}

static void
check_limit(rt *m)
{
    if (words(m->tape) + words(m->cp) > m->lim.max_tape)
        rt_fault(m, "more than %lld words on the tapes (raise the limit with --max-tape)",
                 (long long)m->lim.max_tape);
}

void
rt_push(rt *m, int kind, union rt_word w)
{
    stack_push(m, &m->tape[kind], w);
    m->stats.push[kind]++;
    int64_t n = words(m->tape);
    if (n > m->stats.peak_tape)
        m->stats.peak_tape = n;
    if (m->lt)
        rt_looptape_push(m);
    check_limit(m);
}

union rt_word
rt_pop(rt *m, int kind, const char *what)
{
    rt_stack *s = &m->tape[kind];
    if (!s->n)
        rt_fault(m, "%s pops the empty %s tape", what, kind_name[kind]);
    m->stats.pop[kind]++;
    return s->w[--s->n];
}

static void
cp_push(rt *m, int kind, union rt_word w)
{
    stack_push(m, &m->cp[kind], w);
    m->stats.cp_push[kind]++;
    int64_t n = words(m->cp);
    if (n > m->stats.peak_cp)
        m->stats.peak_cp = n;
    check_limit(m);
}

static union rt_word
cp_pop(rt *m, int kind, const char *what)
{
    rt_stack *s = &m->cp[kind];
    if (!s->n)
        rt_fault(m, "%s restores from the empty %s checkpoint stack", what, kind_name[kind]);
    m->stats.cp_pop[kind]++;
    return s->w[--s->n];
}

/* ------------------------------------------------------------ arguments */

typedef struct args {
    const xf_stmt *s;
    const char *name;
    const xf_arg *by_pos[8];
    int n;
} args;

static void
collect(rt *m, const xf_stmt *s, args *a, int want_min, int want_max)
{
    a->s = s;
    a->name = s->u.icall.name;
    a->n = 0;
    memset(a->by_pos, 0, sizeof a->by_pos);
    for (uint32_t i = 0; i < s->u.icall.args.n; i++) {
        int64_t p = s->u.icall.args.v[i].pos;
        if (p < 1 || p > want_max || p > 8)
            rt_fault(m, "%s has no argument %lld", a->name, (long long)p);
        a->by_pos[p - 1] = &s->u.icall.args.v[i];
        if (p > a->n)
            a->n = (int)p;
    }
    for (int k = 0; k < want_min; k++)
        if (!a->by_pos[k])
            rt_fault(m, "%s needs argument %d", a->name, k + 1);
}

/* The variable an argument names. */
static void
place(rt *m, const args *a, int k, bool deriv, rt_lval *lv)
{
    const xf_expr *x = &a->by_pos[k]->val;
    if (x->v.n != 1 || x->v.v[0].kind != XF_EV_VARREF)
        rt_fault(m, "argument %d of %s must be a variable", k + 1, a->name);
    rt_lvalue(m, x->v.v[0].u.ref, deriv, lv);
    if (deriv && lv->view->st->type != RT_REAL)
        rt_fault(m, "argument %d of %s has no derivative component", k + 1, a->name);
}

static rt_val
value(rt *m, const args *a, int k)
{
    return rt_eval(m, &a->by_pos[k]->val);
}

/* ------------------------------------------------------------ tapes */

static int
tape_kind(rt *m, const char *n, const rt_lval *lv)
{
    if (strstr(n, "_i"))
        return ST_INT;
    if (!strcasecmp(n, "push_b") || !strcasecmp(n, "pop_b"))
        return ST_BOOL;
    if (!strcasecmp(n, "push_s") || !strcasecmp(n, "pop_s"))
        return ST_STR;
    (void)m;
    (void)lv;
    return ST_REAL;
}

/* Element @k of @v as a word of a stack of @kind. */
static union rt_word
word(rt *m, const rt_val *v, int64_t k, int kind)
{
    union rt_word w;
    switch (kind) {
    case ST_REAL:
        w.r = rt_real_at(v, k);
        break;
    case ST_INT:
        w.i = rt_int_at(m, v, k);
        break;
    case ST_BOOL:
        w.b = rt_bool_at(m, v, k);
        break;
    default:
        w.s = rt_str_at(v, k);
        break;
    }
    return w;
}

static void
tape_push(rt *m, const args *a, int kind)
{
    rt_val v = value(m, a, 0);
    for (int64_t k = 0; k < v.n; k++) {
        rt_push(m, kind, word(m, &v, k, kind));
    }
}

static void
tape_pop(rt *m, const args *a, int kind)
{
    rt_lval lv;
    place(m, a, 0, false, &lv);
    /* a block comes back in the order it was pushed */
    rt_val v = lv.rank ? rt_array(m,
                                  kind == ST_REAL   ? RT_REAL
                                  : kind == ST_INT  ? RT_INT
                                  : kind == ST_BOOL ? RT_BOOL
                                                    : RT_STR,
                                  lv.rank, lv.ext)
                       : (rt_val){.n = 1};
    v.type = kind == ST_REAL   ? RT_REAL
             : kind == ST_INT  ? RT_INT
             : kind == ST_BOOL ? RT_BOOL
                               : RT_STR;
    for (int64_t k = lv.n - 1; k >= 0; k--) {
        union rt_word w = rt_pop(m, kind, a->name);
        switch (kind) {
        case ST_REAL:
            if (lv.rank)
                v.r[k] = w.r;
            else
                v.sc.r = w.r;
            break;
        case ST_INT:
            if (lv.rank)
                v.iv[k] = w.i;
            else
                v.sc.i = w.i;
            break;
        case ST_BOOL:
            if (lv.rank)
                v.bv[k] = w.b;
            else
                v.sc.b = w.b;
            break;
        default:
            if (lv.rank)
                v.sv[k] = w.s;
            else
                v.sc.s = w.s;
            break;
        }
    }
    rt_store_val(m, &lv, &v);
}

/* ------------------------------------------------------------ propagation */

/* Saxpy(a, x, y): y.d += x.d * a;  IncDeriv(x, y): y.d += x.d;
 * DecDeriv(x, y): y.d -= x.d;  SetDeriv(x, y): y.d = x.d;
 * CondIncZeroDeriv(x, y): y.d += x.d, x.d = 0 unless x and y are one. */
static void
propagate(rt *m, const args *a, char what)
{
    int xi = what == 'a' ? 1 : 0;
    rt_val factor = what == 'a' ? value(m, a, 0) : rt_scalar_real(1.0);
    rt_lval x, y;
    place(m, a, xi, true, &x);
    place(m, a, xi + 1, true, &y);
    rt_val xd = rt_load(m, &x);
    if ((xd.rank && xd.n != y.n) || (factor.rank && factor.n != y.n))
        rt_fault(m, "%s on arrays of different sizes", a->name);
    double *d = y.view->st->d;
    bool same = x.view->st == y.view->st && x.n == y.n &&
                !memcmp(x.idx, y.idx, (size_t)x.n * sizeof *x.idx);
    for (int64_t k = 0; k < y.n; k++) {
        double v = rt_real_at(&xd, xd.rank ? k : 0);
        switch (what) {
        case 'a':
            d[y.idx[k]] += v * rt_real_at(&factor, factor.rank ? k : 0);
            m->stats.muls++;
            m->stats.adds++;
            break;
        case 'i':
        case 'c':
            if (what == 'c' && same)
                break;
            d[y.idx[k]] += v;
            m->stats.adds++;
            break;
        case 'd':
            d[y.idx[k]] -= v;
            m->stats.adds++;
            break;
        case 's':
            d[y.idx[k]] = v;
            break;
        }
    }
    if (what == 'c' && !same)
        for (int64_t k = 0; k < x.n; k++)
            x.view->st->d[x.idx[k]] = 0.0;
}

static void
zero_deriv(rt *m, const args *a)
{
    rt_lval x;
    place(m, a, 0, true, &x);
    for (int64_t k = 0; k < x.n; k++)
        x.view->st->d[x.idx[k]] = 0.0;
}

/* oad_convert(to, from), convert_a2p_*, convert_p2a_*: values only */
static void
convert(rt *m, const args *a)
{
    rt_lval to;
    place(m, a, 0, false, &to);
    rt_val v = value(m, a, 1);
    rt_store_val(m, &to, &v);
}

/* oad_AllocateMatching(a, b): a takes b's shape;  oad_AllocateShape(a, s1[, s2]) */
static void
allocate(rt *m, const args *a, bool matching)
{
    const xf_expr *x = &a->by_pos[0]->val;
    if (x->v.n != 1 || x->v.v[0].kind != XF_EV_VARREF || xf_varref_arrref(x->v.v[0].u.ref))
        rt_fault(m, "%s allocates a whole variable", a->name);
    rt_view *view = rt_ref_view(m, x->v.v[0].u.ref);
    int rank;
    int64_t ext[RT_MAXRANK];
    if (matching) {
        rt_val b = value(m, a, 1);
        rank = b.rank;
        for (int j = 0; j < rank; j++)
            ext[j] = b.ext[j];
    } else {
        rank = a->n - 1;
        for (int j = 0; j < rank && j < RT_MAXRANK; j++) {
            rt_val s = value(m, a, j + 1);
            ext[j] = rt_int_at(m, &s, 0);
        }
    }
    if (rank != view->rank)
        rt_fault(m, "%s: %s has rank %d, the shape rank %d", a->name, view->name, view->rank, rank);
    if (view->st->shaped && view->n > 0) {
        bool same = true;
        for (int j = 0; j < rank; j++)
            same = same && view->ext[j] == ext[j];
        if (same)
            return;
    }
    rt_store_shape(m, view->st, rank, NULL, ext);
    const char *name = view->name;
    *view = *rt_view_whole(m, view->st);
    view->name = name;
    rt_learn_shape(m, x->v.v[0].u.ref, view->st);
}

/* ------------------------------------------------------------ checkpoints */

/* cp_{arg,res}_{store,restore}_<type>_<shape>[_a][_d](v) */
static bool
checkpoint(rt *m, const args *a)
{
    const char *n = a->name;
    bool store;
    if (!strncasecmp(n, "cp_arg_store_", 13) || !strncasecmp(n, "cp_res_store_", 13))
        store = true;
    else if (!strncasecmp(n, "cp_arg_restore_", 15) || !strncasecmp(n, "cp_res_restore_", 15))
        store = false;
    else
        return false;
    const char *t = n + (store ? 13 : 15);
    int kind = !strncasecmp(t, "real_", 5)      ? ST_REAL
               : !strncasecmp(t, "integer_", 8) ? ST_INT
               : !strncasecmp(t, "bool_", 5)    ? ST_BOOL
               : !strncasecmp(t, "string_", 7)  ? ST_STR
                                                : -1;
    if (kind < 0)
        rt_fault(m, "unknown checkpoint routine %s", n);
    size_t len = strlen(n);
    bool deriv = len > 2 && !strcasecmp(n + len - 2, "_d");
    rt_lval lv;
    place(m, a, 0, deriv, &lv);
    if (store) {
        rt_val v = rt_load(m, &lv);
        for (int64_t k = 0; k < v.n; k++) {
            cp_push(m, kind, word(m, &v, k, kind));
        }
        return true;
    }
    /* restore: elements in reverse order, so each gets its stored value */
    rt_store *st = lv.view->st;
    for (int64_t k = lv.n - 1; k >= 0; k--) {
        union rt_word w = cp_pop(m, kind, n);
        int64_t at = lv.idx[k];
        switch (st->type) {
        case RT_REAL:
            (deriv ? st->d : st->v)[at] = kind == ST_INT ? (double)w.i : w.r;
            break;
        case RT_INT:
            st->i[at] = kind == ST_REAL ? (int64_t)w.r : w.i;
            break;
        case RT_BOOL:
            st->b[at] = w.b;
            break;
        case RT_STR:
            st->s[at] = w.s;
            break;
        }
    }
    return true;
}

/* ------------------------------------------------------------ dispatch */

void
rt_inline_call(rt *m, const xf_stmt *s)
{
    const char *n = s->u.icall.name;
    args a;
    collect(m, s, &a, 0, 8);
    if (checkpoint(m, &a))
        return;
    if (rt_snapshot_call(m, s))
        return;
    if (!strncasecmp(n, "push", 4) || !strcasecmp(n, "apush")) {
        collect(m, s, &a, 1, 1);
        tape_push(m, &a, tape_kind(m, n, NULL));
    } else if (!strncasecmp(n, "pop", 3) || !strcasecmp(n, "apop")) {
        collect(m, s, &a, 1, 1);
        tape_pop(m, &a, tape_kind(m, n, NULL));
    } else if (!strcasecmp(n, "Saxpy")) {
        collect(m, s, &a, 3, 3);
        propagate(m, &a, 'a');
    } else if (!strcasecmp(n, "IncDeriv")) {
        collect(m, s, &a, 2, 2);
        propagate(m, &a, 'i');
    } else if (!strcasecmp(n, "DecDeriv")) {
        collect(m, s, &a, 2, 2);
        propagate(m, &a, 'd');
    } else if (!strcasecmp(n, "SetDeriv")) {
        collect(m, s, &a, 2, 2);
        propagate(m, &a, 's');
    } else if (!strcasecmp(n, "CondIncZeroDeriv")) {
        collect(m, s, &a, 2, 2);
        propagate(m, &a, 'c');
    } else if (!strcasecmp(n, "ZeroDeriv")) {
        collect(m, s, &a, 1, 1);
        zero_deriv(m, &a);
    } else if (!strcasecmp(n, "oad_convert") || !strncasecmp(n, "convert_a2p", 11) ||
               !strncasecmp(n, "convert_p2a", 11)) {
        collect(m, s, &a, 2, 2);
        convert(m, &a);
    } else if (!strcasecmp(n, "oad_AllocateMatching")) {
        collect(m, s, &a, 2, 2);
        allocate(m, &a, true);
    } else if (!strcasecmp(n, "oad_AllocateShape")) {
        collect(m, s, &a, 2, 8);
        allocate(m, &a, false);
    } else if (!strcasecmp(n, "oad_ShapeTest") || !strcasecmp(n, "countmult") ||
               !strcasecmp(n, "countadd") || !strcasecmp(n, "countcheckpoint") ||
               !strncmp(n, "xf_passive_", 11)) {
        /* no effect on the numbers (xf_passive_: a C call kept as it is, printf, assert:
         * it reads values only, and the interpreter does not run it) */
    } else
        rt_fault(m, "unknown inlinable routine '%s'", n);
}
