/* checkpoint.c: checkpointing of time loops (paper 002 §3, checklist D3-D4;
 * paper 001 §5, C7), the pass. For each loop named by --checkpoint-loop
 * ROUTINE:LINE (a DO loop of the routine, its ForLoop's lineNumber LINE, at
 * any depth of loops and branches), after reverse has built placeholders 2
 * and 3, the loop's region in each is replaced by the schedule's code
 * (checkpoint_sched.c, written with checkpoint_emit.c) around copies of
 * the loop's body: placeholder 1's (the plain step), placeholder 2's (the
 * taped step) and placeholder 3's (the adjoint step). The snapshots hold
 * the state of a step (checkpoint_state.c); docs/checkpointing.md names the
 * snapshot calls (ckp_*).
 *
 * The binomial schedule reaches Griewank's minimum r T - C(S+r, S+1) of
 * forward steps for T steps and S snapshots (r the least with C(S+r, S) >=
 * T): from a snapshot at step c with d steps left to reverse and s
 * snapshots (the one at c among them), it advances l = max(C(s+r-2, s) + 1,
 * d - C(s+r-1, s-1)) steps, at most d - 1, with r the least such that
 * C(s+r, s) >= d (checked against the formula for every T <= 1200 and S <=
 * 25 when it was written; tests/unit/test_checkpoint.c checks it on runs).
 * Without --snapshots, S is the least s with C(2s, s) >= T.
 *
 * Refused, naming the reason: a routine or loop not found, unstructured
 * control flow, a header whose trip count is not known when the loop
 * starts (a while loop, or a header other than i = L; i OP U; i = i + S), a
 * body that writes the loop variable or a variable of its bounds, a step
 * state that cannot be stored, and a loop without adjoint code. Needs:
 * reverse. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "build.h"
#include "cfgtree.h"
#include "checkpoint.h"

typedef struct ck {
    xf_pass_ctx *ctx;
    xf_doc *doc;
    xf_routine *rt;
    const char *spec;
    uint32_t line;
    unsigned nth; /* the loop's place among --checkpoint-loop's, from 1: its ids */
    const ck_facts *facts;
    char why[256];
} ck;

static int refuse(ck *c, const char *fmt, ...) XF_PRINTF(2, 3);

static int
refuse(ck *c, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    xf_error(c->ctx->diag, c->doc->filename, c->line,
             "--checkpoint-loop %s: %s; the loop is not checkpointed", c->spec, msg);
    return -1;
}

/* The routine called @name, or @name__N (the front end's suffix). */
static xf_routine *
find_routine(ck *c, const char *name, size_t len, int *count)
{
    xf_routine *found = NULL;
    *count = 0;
    for (uint32_t k = 0; k < c->doc->cg.routines.n; k++) {
        xf_routine *r = c->doc->cg.routines.v[k];
        const char *id = r->sym ? r->sym->id : NULL;
        if (!id || strncasecmp(id, name, len))
            continue;
        const char *t = id + len;
        bool ok = !*t;
        if (t[0] == '_' && t[1] == '_' && t[2]) {
            ok = true;
            for (const char *q = t + 2; *q; q++)
                ok = ok && *q >= '0' && *q <= '9';
        }
        if (ok) {
            found = r;
            ++*count;
        }
    }
    return found;
}

static xf_region *
loop_at(const xf_cfgtree *t, int64_t line)
{
    for (uint32_t k = 0; k < t->all.n; k++) {
        xf_region *r = t->all.v[k];
        if (r->kind == XF_RG_LOOP && r->v->lineno == line)
            return r;
    }
    return NULL;
}

/* The edge into loop region @r from outside (*in): 0, or -1 after a message. */
static int
entry_edge(ck *c, xf_graph *g, const xf_region *r, xf_cedge **in)
{
    *in = NULL;
    for (uint32_t k = 0; k < g->e.n; k++) {
        xf_cedge *e = g->e.v[k];
        if (e->tgt == r->v && e->src != r->end) {
            if (*in)
                return refuse(c, "%s", "the loop is entered from more than one place");
            *in = e;
        }
    }
    return *in ? 0 : refuse(c, "%s", "the loop is not entered");
}

/* Remove loop region @r (the loop vertex, its body and EndLoop) and the
 * edge @in into it from @g. */
static int
cut(ck *c, xf_graph *g, const xf_region *r, const xf_cedge *in)
{
    xf_arena *a = c->doc->arena;
    uint8_t *gone = xf_arena_alloc(a, g->v.n);
    uint32_t nb;
    const xf_cvertex **body = ck_body(g, r->body_edge->tgt, r->end, a, &nb, NULL);
    if (!gone || !body)
        return xf_pass_oom(c->ctx);
    memset(gone, 0, g->v.n);
    gone[r->v->index] = 1;
    for (uint32_t k = 0; k < nb; k++)
        gone[body[k]->index] = 1;
    uint32_t nv = 0, ne = 0;
    for (uint32_t k = 0; k < g->e.n; k++) {
        xf_cedge *e = g->e.v[k];
        if (e != in && !gone[e->src->index] && !gone[e->tgt->index])
            g->e.v[ne++] = e;
    }
    for (uint32_t k = 0; k < g->v.n; k++)
        if (!gone[k])
            g->v.v[nv++] = g->v.v[k];
    g->v.n = nv;
    g->e.n = ne;
    xf_map_clear(&g->vmap);
    for (uint32_t k = 0; k < nv; k++) {
        g->v.v[k]->index = k;
        if (!xf_map_put(&g->vmap, a, g->v.v[k]->id, g->v.v[k], NULL))
            return xf_pass_oom(c->ctx);
    }
    return 0;
}

/* ------------------------------------------------------------ one loop */

static unsigned
depth_of(const xf_region *r)
{
    unsigned d = 0;
    for (; r->parent; r = r->parent)
        d++;
    return d;
}

/* The ph3 loop that holds the adjoint of ph2's loop @l2: the region, at
 * @l2's depth of nesting, around a block of the same id as one in @l2
 * (reversal keeps the nesting of what has adjoint code). NULL when there is
 * none; *@oom when out of memory. */
static const xf_region *
adjoint_loop(const xf_cfgtree *t2, const xf_region *l2, const xf_cfgtree *t3, xf_arena *a,
             bool *oom)
{
    unsigned want = depth_of(l2);
    xf_map ids = {0}; /* the ids of l2's blocks */
    *oom = false;
    for (uint32_t j = 0; j < t2->all.n; j++) {
        const xf_region *f = t2->all.v[j];
        if (f->kind != XF_RG_BLOCK)
            continue;
        const xf_region *up = f;
        while (up && up != l2)
            up = up->parent;
        if (up && !xf_map_put(&ids, a, f->v->id, (void *)f, NULL)) {
            *oom = true;
            return NULL;
        }
    }
    for (uint32_t k = 0; k < t3->all.n; k++) {
        const xf_region *b = t3->all.v[k];
        if (b->kind != XF_RG_BLOCK || !xf_map_get(&ids, b->v->id))
            continue;
        unsigned d = depth_of(b);
        if (d <= want)
            return NULL;
        const xf_region *at = b;
        for (; d > want; d--)
            at = at->parent;
        return at->kind == XF_RG_LOOP ? at : NULL;
    }
    return NULL;
}

static bool
reads_sym(const xf_expr *x, const xf_symbol *s)
{
    for (uint32_t k = 0; k < x->v.n; k++)
        if (x->v.v[k].kind == XF_EV_VARREF) {
            const xf_symref *sr = xf_varref_symref(x->v.v[k].u.ref);
            if (sr && sr->sym == s)
                return true;
        }
    return false;
}

/* The routine --checkpoint-loop @c->spec names, and its LINE in *@line:
 * NULL (with a message when @say) if there is none or more than one. */
static xf_routine *
spec_routine(ck *c, long *line, bool say)
{
    const char *colon = strrchr(c->spec, ':');
    char *endp = NULL;
    *line = colon ? strtol(colon + 1, &endp, 10) : 0;
    if (!colon || colon == c->spec || !endp || *endp || *line <= 0) {
        if (say)
            refuse(c, "%s", "expected ROUTINE:LINE (the routine's name, the DO's line)");
        return NULL;
    }
    int count;
    xf_routine *rt = find_routine(c, c->spec, (size_t)(colon - c->spec), &count);
    if ((!rt || count > 1) && say)
        refuse(c, "%s", !rt ? "no routine of that name" : "more than one routine of that name");
    return count == 1 ? rt : NULL;
}

static int
one_loop(ck *c, xf_routine *rt, long line)
{
    c->rt = rt;
    c->line = rt->h.line; /* until the loop is found: the routine's */
    xf_replacement *r1 = xf_placeholder(rt, "1"), *r2 = xf_placeholder(rt, "2"),
                   *r3 = xf_placeholder(rt, "3");
    if (!rt->is_rlist || !r1 || !r2 || !r3 || !r2->g.v.n)
        return refuse(c, "%s", "the routine has no adjoint code (it is not active)");
    xf_arena *a = c->ctx->scratch ? c->ctx->scratch : c->doc->arena;
    xf_cfgtree t1, t2, t3;
    if (!xf_cfgtree_parse(&r1->g, a, &t1) || !xf_cfgtree_parse(&r2->g, a, &t2) ||
        !xf_cfgtree_parse(&r3->g, a, &t3))
        return refuse(c, "%s", "the routine's control flow is unstructured");
    xf_region *l1 = loop_at(&t1, line), *l2 = loop_at(&t2, line);
    if (!l1 || !l2)
        return refuse(c, "%s", "no loop at that line in the routine");
    c->line = l2->v->h.line;
    if (l2->v->kind != XF_CV_FORLOOP)
        return refuse(c, "%s", "the trip count is unknown when the loop starts (a while loop)");
    xf_loophead h;
    if (!xf_loop_header(l2->v, &h) || (!h.st_x && h.step == 0))
        return refuse(c, "%s",
                      "the trip count is unknown when the loop starts (the header is not "
                      "i = L; i <= U; i = i + S)");
    bool oom;
    const xf_region *l3 = adjoint_loop(&t2, l2, &t3, a, &oom);
    if (oom)
        return xf_pass_oom(c->ctx);
    if (!l3)
        return refuse(c, "%s", "the loop has no adjoint code");
    ck_syms state = {0}, inputs = {0}, all = {0};
    const char *why = NULL;
    if (ck_state(c->doc, c->facts, &r1->g, l1->body_edge->tgt, l1->end, h.i, a, &state, &inputs,
                 &all, &why, c->why, sizeof c->why))
        return refuse(c, "%s", why);
    /* the trip count is fixed when the loop starts: the body must not write
     * the loop variable or what the bounds read */
    for (uint32_t k = 0; k < all.n; k++) {
        xf_symbol *v = all.v[k];
        if (v == h.i || reads_sym(h.lo_x, v) || reads_sym(h.hi_x, v) ||
            (h.st_x && reads_sym(h.st_x, v)))
            return refuse(c, "the body writes %s, which the loop's header reads", v->id);
    }

    /* the names of the schedule */
    static const char *const vars[] = {"T", "S",  "n",  "capo", "fine",  "top", "d",  "s", "r",
                                       "b", "b1", "b2", "l",    "first", "lo",  "st", "j"};
    enum { NV = sizeof vars / sizeof vars[0] };
    ck_name names[NV + 1];
    int nnames = 0;
    unsigned counter = 0; /* xf_fresh_symbol skips the numbers taken */
    for (int k = 0; k < NV; k++) {
        char pfx[32];
        snprintf(pfx, sizeof pfx, "ckp_%s_", vars[k]);
        xf_symbol *sym = xf_fresh_symbol(c->doc, rt->cfg_scope, pfx, &counter, XF_TYPE_INTEGER,
                                         XF_SHAPE_SCALAR, false);
        if (!sym)
            return xf_pass_oom(c->ctx);
        names[nnames++] = (ck_name){vars[k], sym};
    }
    names[nnames++] = (ck_name){"i", h.i};
    const xf_ckp_opts *o = xf_pass_own_c(c->ctx->opts, &xf_pass_checkpoint);
    ck_sched s = {.kind = (ck_kind)o->schedule,
                  .k = o->k,
                  .snaps = o->snaps,
                  .adjust = h.adjust,
                  .state = &state,
                  .inputs = &inputs,
                  .rt = rt,
                  .ph1 = &r1->g,
                  .ph2 = &r2->g,
                  .ph3 = &r3->g,
                  .l1 = l1,
                  .l2 = l2,
                  .l3 = l3};

    /* placeholder 3 first: it copies placeholder 2's body before that goes */
    xf_cvertex *pred = NULL, *succ = NULL;
    xf_cedge *in = NULL;
    char pfx[32];
    for (int ph = 3; ph >= 2; ph--) {
        xf_graph *g = ph == 3 ? &r3->g : &r2->g;
        const xf_region *l = ph == 3 ? l3 : l2;
        snprintf(pfx, sizeof pfx, "_ckp%u_%d_", c->nth, ph);
        ck_emit e = {.doc = c->doc, .g = g, .scope = rt->cfg_scope, .pfx = pfx};
        e.names = names;
        e.nnames = nnames;
        e.ext[0] = h.hi_x;
        e.ext_root[0] = h.hi;
        e.ext[1] = h.lo_x;
        e.ext_root[1] = h.lo;
        xf_expr stx = {0};
        if (h.st_x) {
            e.ext[2] = h.st_x;
            e.ext_root[2] = h.st;
        } else {
            uint32_t v = xf_expr_int(c->doc, &stx, h.step);
            if (v == UINT32_MAX)
                return xf_pass_oom(c->ctx);
            e.ext[2] = &stx;
            e.ext_root[2] = v;
        }
        if (entry_edge(c, g, l, &in))
            return -1;
        pred = in->src;
        succ = l->exit_edge->tgt;
        e.at = pred;
        e.at_cv = xf_flag_is(in->has_cv, false);
        e.cv = in->cv;
        if (ph == 3)
            ck_reverse(&e, &s);
        else
            ck_forward(&e, &s);
        ck_join(&e, succ);
        if (e.failed)
            return e.why && strncmp(e.why, "out of memory", 13) ? refuse(c, "%s", e.why)
                                                                : xf_pass_oom(c->ctx);
        if (cut(c, g, l, in))
            return -1;
        xf_graph_renumber(g);
    }
    return 0;
}

/* The pass's state: the routines' facts, and whether the names of
 * --checkpoint-loop were checked. */
typedef struct ck_run {
    ck_facts *facts;
    bool checked;
} ck_run;

static int
begin(xf_pass_ctx *ctx)
{
    ck_run *r = calloc(1, sizeof *r);
    if (!r || !(r->facts = ck_facts_new())) {
        free(r);
        return xf_pass_oom(ctx);
    }
    ctx->state = r;
    return 0;
}

static int
scan(xf_pass_ctx *ctx, const xf_routine *rt)
{
    ck_run *r = ctx->state;
    return ck_facts_scan(r->facts, ctx->doc, rt) ? xf_pass_oom(ctx) : 0;
}

static void
end(xf_pass_ctx *ctx)
{
    ck_run *r = ctx->state;
    if (r)
        ck_facts_free(r->facts);
    free(r);
    ctx->state = NULL;
}

/* The loops of @rt that --checkpoint-loop names; before the first routine,
 * the names that match no routine or more than one are refused. */
static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    ck_run *r = ctx->state;
    const xf_ckp_opts *o = xf_pass_own_c(ctx->opts, &xf_pass_checkpoint);
    bool say = !r->checked;
    r->checked = true;
    int rc = 0;
    for (int k = 0; o && k < o->nloops; k++) {
        ck c = {.ctx = ctx,
                .doc = ctx->doc,
                .spec = o->loops[k],
                .nth = (unsigned)k + 1,
                .facts = r->facts};
        long line;
        xf_routine *at = spec_routine(&c, &line, say);
        if (!at && say)
            rc = -1;
        if (at && at->sym == rt->sym && one_loop(&c, rt, line))
            rc = -1;
    }
    return rc;
}

static bool
idle(const xf_opts *o)
{
    const xf_ckp_opts *own = xf_pass_own_c(o, &xf_pass_checkpoint);
    return own->nloops == 0;
}

/* ------------------------------------------------------------ options */

static int
parse_loop(xf_opts *opts, void *own, const char *arg, char *err, size_t len)
{
    (void)opts;
    xf_ckp_opts *o = own;
    const char *colon = strrchr(arg, ':');
    if (!colon || colon == arg || !colon[1]) {
        snprintf(err, len, "--checkpoint-loop '%s': expected ROUTINE:LINE", arg);
        return -1;
    }
    for (int k = 0; k < o->nloops; k++)
        if (!strcmp(o->loops[k], arg))
            return 0; /* the same loop named again: checkpointed once */
    if (o->nloops == XF_CKP_MAX) {
        snprintf(err, len, "--checkpoint-loop: at most %d loops", XF_CKP_MAX);
        return -1;
    }
    o->loops[o->nloops++] = arg;
    return 0;
}

static int
parse_snaps(xf_opts *opts, void *own, const char *arg, char *err, size_t len)
{
    (void)opts;
    xf_ckp_opts *o = own;
    char *end;
    long long v = strtoll(arg, &end, 10);
    if (*end || v < 1 || v > 1000000) {
        snprintf(err, len, "--snapshots '%s': expected a number of snapshots >= 1", arg);
        return -1;
    }
    o->snaps = v;
    return 0;
}

static int
parse_schedule(xf_opts *opts, void *own, const char *arg, char *err, size_t len)
{
    (void)opts;
    xf_ckp_opts *o = own;
    if (!strcmp(arg, "binomial")) {
        o->schedule = CK_BINOMIAL;
        return 0;
    }
    int kind = !strncmp(arg, "periodic:", 9)     ? CK_PERIODIC
               : !strncmp(arg, "two-level:", 10) ? CK_TWO_LEVEL
                                                 : -1;
    if (kind < 0) {
        snprintf(err, len, "unknown schedule '%s' (binomial, periodic:K or two-level:K)", arg);
        return -1;
    }
    char *end;
    long long k = strtoll(strchr(arg, ':') + 1, &end, 10);
    if (*end || k < 1 || k > 1000000000) {
        snprintf(err, len, "--schedule %s: K must be a number of steps >= 1", arg);
        return -1;
    }
    o->schedule = kind;
    o->k = k;
    return 0;
}

static const xf_pass_opt opts[] = {
    {.name = "checkpoint-loop",
     .arg = "ROUTINE:LINE",
     .help = "checkpoint the DO loop at line LINE of ROUTINE (binomial:\n"
             "the tape holds one step, the snapshots at most S states);\n"
             "repeatable (a loop named twice is checkpointed once)\n",
     .parse = parse_loop},
    {.name = "snapshots",
     .arg = "S",
     .help = "snapshots of a checkpointed loop (default: the least S\n"
             "with C(2S, S) >= the trip count, at run time)\n",
     .parse = parse_snaps},
    {.name = "schedule",
     .arg = "KIND",
     .help = "the checkpointing schedule: binomial (the default);\n"
             "periodic:K, a snapshot every K steps, one step taped at\n"
             "a time; two-level:K, a snapshot every K steps, each\n"
             "segment of K steps taped whole, then adjoined\n",
     .parse = parse_schedule},
    {0},
};

static const char *const after[] = {"reverse", NULL};

const xf_pass xf_pass_checkpoint = {
    .name = "checkpoint",
    .summary = "binomial checkpointing of the time loops --checkpoint-loop names",
    .help = "Each named DO loop's taping sweep runs the loop plainly, storing snapshots\n"
            "of the step's state as Griewank's binomial schedule says, and tapes its last\n"
            "step only; the adjoint sweep restores, recomputes, tapes and adjoins one\n"
            "step at a time. Without --checkpoint-loop nothing changes.\n",
    .after = after,
    .once = true,
    .opts = opts,
    .own_size = sizeof(xf_ckp_opts),
    .run_routine = run_routine,
    .begin = begin,
    .scan = scan,
    .end = end,
    .idle = idle,
};
