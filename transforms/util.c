/* util.c: what the passes share: activity, the catalogue, messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

bool
xf_is_active_sym(const xf_symbol *s)
{
    if (!s || s->kind == XF_SYMKIND_SUBROUTINE)
        return false;
    bool real = s->type == XF_TYPE_REAL || s->type == XF_TYPE_DOUBLE || s->type == XF_TYPE_NONE;
    return real && xf_flag_is(s->active, false);
}

bool
xf_is_active_ref(const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    return s && xf_is_active_sym(s->sym) && !xf_flag_is(r->deriv, false);
}

const xf_ii *
xf_catalogue_find(const xf_doc *cat, const char *name)
{
    if (!cat)
        return NULL;
    for (uint32_t i = 0; i < cat->ii.n; i++)
        if (cat->ii.v[i].name == name || !strcmp(cat->ii.v[i].name, name))
            return &cat->ii.v[i];
    return NULL;
}

const xf_nii *
xf_direct_find(const xf_doc *cat, const char *name)
{
    if (!cat)
        return NULL;
    for (uint32_t i = 0; i < cat->nii.n; i++)
        if (cat->nii.v[i].direct && !strcmp(cat->nii.v[i].name, name))
            return &cat->nii.v[i];
    return NULL;
}

xf_graph *
xf_work_graph(xf_routine *rt)
{
    if (!rt->is_rlist)
        return &rt->g;
    xf_replacement *r = xf_placeholder(rt, "2");
    return r ? &r->g : NULL;
}

xf_replacement *
xf_placeholder(xf_routine *rt, const char *k)
{
    for (uint32_t i = 0; i < rt->reps.n; i++)
        if (rt->reps.v[i]->placeholder && !strcmp(rt->reps.v[i]->placeholder, k))
            return rt->reps.v[i];
    return NULL;
}

bool
xf_const_int_of(const xf_expr *x, int64_t *v)
{
    if (!x || x->v.n != 1 || x->v.v[0].kind != XF_EV_CONSTANT ||
        x->v.v[0].u.c.type != XF_TYPE_INTEGER)
        return false;
    char *end;
    *v = strtoll(x->v.v[0].u.c.value, &end, 10);
    return *x->v.v[0].u.c.value && !*end;
}

/* The address ranges of an alias set, if the map has it. */
static const xf_alias_set *
alias_set(const xf_doc *doc, int64_t key)
{
    if (key == XF_NOINT || key == 0)
        return NULL;
    /* front ends number the sets 0, 1, 2, ... in order: look there first */
    if (key > 0 && (uint64_t)key < doc->cg.alias.sets.n && doc->cg.alias.sets.v[key].key == key)
        return &doc->cg.alias.sets.v[key];
    for (uint32_t i = 0; i < doc->cg.alias.sets.n; i++)
        if (doc->cg.alias.sets.v[i].key == key)
            return &doc->cg.alias.sets.v[i];
    return NULL;
}

bool
xf_is_formal(const xf_routine *rt, const xf_symbol *s)
{
    for (uint32_t k = 0; k < rt->args.n; k++)
        if (rt->args.v[k].sym == s)
            return true;
    return false;
}

bool
xf_is_local(const xf_routine *rt, const xf_symbol *s)
{
    return s && s->scope == rt->cfg_scope && !xf_is_formal(rt, s);
}

bool
xf_is_temporary(const xf_symbol *s)
{
    return xf_flag_is(s->temp, false) || !strncmp(s->id, "OpenAD_", 7);
}

bool
xf_hosts_procedures(const xf_doc *doc, const xf_routine *rt)
{
    for (uint32_t i = 0; rt->cfg_scope && i < doc->cg.scopes.v.n; i++)
        if (doc->cg.scopes.v.v[i]->parent == rt->cfg_scope)
            return true;
    return false;
}

bool
xf_is_private(const xf_routine *rt, bool host, const xf_symbol *s)
{
    return xf_is_local(rt, s) && s->kind == XF_SYMKIND_VARIABLE && (!host || xf_is_temporary(s));
}

/* One address range of a variable, as one of its references' alias set gives it. */
typedef struct arange {
    int64_t from, to;
    const xf_symbol *sym;
} arange;

static int
by_from(const void *a, const void *b)
{
    const arange *x = a, *y = b;
    return x->from < y->from ? -1 : x->from > y->from;
}

bool
xf_alias_overlaps(const xf_doc *doc, const xf_varref *const *refs, uint32_t n, xf_arena *a,
                  bool (*mark)(void *ctx, const xf_symbol *s), void *ctx)
{
    XF_VEC(arange) rg = {0};
    for (uint32_t i = 0; i < n; i++) {
        const xf_symref *sr = xf_varref_symref(refs[i]);
        const xf_alias_set *x = sr ? alias_set(doc, refs[i]->alias) : NULL;
        for (uint32_t k = 0; x && k < x->r.n; k++)
            if (!XF_VEC_PUSH(a, rg, ((arange){x->r.v[k].from, x->r.v[k].to, sr->sym})))
                return false;
    }
    if (rg.n < 2)
        return true;
    arange *h = rg.v;
    qsort(h, rg.n, sizeof *h, by_from);
    /* after: the first range that starts after h[i] and is another
     * variable's starts within h[i]; before: of the ranges that started
     * earlier, the one of another variable that ends last (the two highest
     * ends of distinct variables are kept) reaches h[i] */
    uint32_t *next = xf_arena_array(a, rg.n, sizeof *next);
    if (!next)
        return false;
    next[rg.n - 1] = UINT32_MAX;
    for (uint32_t i = rg.n - 1; i-- > 0;)
        next[i] = h[i + 1].sym != h[i].sym ? i + 1 : next[i + 1];
    arange m1 = {0, INT64_MIN, NULL}, m2 = {0, INT64_MIN, NULL};
    for (uint32_t i = 0; i < rg.n; i++) {
        const arange *o = m1.sym != h[i].sym ? &m1 : &m2;
        bool before = o->sym && o->to >= h[i].from;
        bool after = next[i] != UINT32_MAX && h[next[i]].from <= h[i].to;
        if ((before || after) && !mark(ctx, h[i].sym))
            return false;
        if (h[i].sym == m1.sym) {
            if (h[i].to > m1.to)
                m1.to = h[i].to;
        } else if (h[i].to > m1.to) {
            m2 = m1;
            m1 = h[i];
        } else if (h[i].to > m2.to) {
            m2 = h[i];
        }
    }
    return true;
}

bool
xf_refs_may_alias(const xf_doc *doc, const xf_varref *a, const xf_varref *b)
{
    const xf_symref *sa = xf_varref_symref(a), *sb = xf_varref_symref(b);
    if (!sa || !sb)
        return true;
    if (sa->sym != sb->sym) {
        /* distinct variables: only if the front end's alias map says so */
        const xf_alias_set *x = alias_set(doc, a->alias), *y = alias_set(doc, b->alias);
        if (!x || !y)
            return false;
        for (uint32_t i = 0; i < x->r.n; i++)
            for (uint32_t j = 0; j < y->r.n; j++)
                if (x->r.v[i].from <= y->r.v[j].to && y->r.v[j].from <= x->r.v[i].to)
                    return true;
        return false;
    }
    const xf_arrref *p = xf_varref_arrref(a), *q = xf_varref_arrref(b);
    if (!p || !q || p->t.n != q->t.n)
        return true;
    for (uint32_t i = 0; i < p->t.n; i++) {
        const xf_triplet *s = &p->t.v[i], *t = &q->t.v[i];
        int64_t u, v;
        /* two different constant subscripts in one dimension: disjoint */
        if (!s->bound && !s->stride && !t->bound && !t->stride && xf_const_int_of(s->index, &u) &&
            xf_const_int_of(t->index, &v) && u != v)
            return false;
    }
    return true;
}

const char *
xf_derived_id(xf_doc *doc, const char *what, unsigned n, const char *id)
{
    if (!id)
        id = "";
    size_t lw = strlen(what), li = strlen(id);
    char small[256], digits[16], *d = digits + sizeof digits;
    do
        *--d = (char)('0' + n % 10);
    while (n /= 10);
    size_t ld = (size_t)(digits + sizeof digits - d), len = 1 + lw + 1 + ld + 5 + li + 1;
    char *buf = len <= sizeof small ? small : malloc(len), *p = buf;
    if (!buf)
        return NULL;
    *p++ = '_';
    memcpy(p, what, lw), p += lw;
    *p++ = '_';
    memcpy(p, d, ld), p += ld;
    memcpy(p, "_for_", 5), p += 5;
    memcpy(p, id, li + 1);
    const char *s = xf_intern(doc, buf);
    if (buf != small)
        free(buf);
    return s;
}

xf_arena *
xf_pass_arena(const xf_pass_ctx *ctx)
{
    xf_arena *a = xf_arena_new();
    if (a && ctx && ctx->fail_private > 0)
        xf_arena_fail_after(a, ctx->fail_private - 1);
    return a;
}

int
xf_pass_oom(xf_pass_ctx *ctx)
{
    xf_error(ctx->diag, ctx->doc->filename, 0, "out of memory");
    return -1;
}

/* ------------------------------------------------------------ walking references */

/* The walk's explicit stack, so that no nesting of subscripts is too deep:
 * the first WALK_FRAMES frames live in the walker itself, more on the heap. */
enum { WALK_FRAMES = 32 };

typedef enum frkind { FR_EXPR, FR_REF, FR_CALL } frkind;

/* An expression and its next vertex (i), a reference and its next subscript
 * (vertex i, triplet t, part k: index, bound, stride), or a FunctionCall
 * vertex and its next argument (i). */
typedef struct frame {
    frkind kind;
    unsigned depth;
    const void *node;
    uint32_t i, t, k;
    const xf_evertex *v; /* FR_REF: the reference's vertex, as in its first step */
    bool in_arg;         /* in a call's argument (FR_REF: or one) */
    bool quiet;          /* FR_REF: XF_WALK_SUBSCRIPTS's own reference: no step after */
} frame;

typedef struct walker {
    frame *f;
    uint32_t n, cap;
    unsigned flags;
    xf_walk_fn fn;
    void *ctx;
    frame local[WALK_FRAMES];
} walker;

/* Room for one more of the @size-byte elements of the stack *@v (@n used,
 * *@cap allocated), which starts in @local and moves to the heap when full. */
static bool
stack_room(void **v, void *local, uint32_t n, uint32_t *cap, size_t size)
{
    if (n < *cap)
        return true;
    if (*cap > UINT32_MAX / 2 || (size_t)*cap * 2 > SIZE_MAX / size)
        return false;
    void *m = *v == local ? malloc((size_t)*cap * 2 * size) : realloc(*v, (size_t)*cap * 2 * size);
    if (!m)
        return false;
    if (*v == local)
        memcpy(m, local, (size_t)*cap * size);
    *v = m;
    *cap *= 2;
    return true;
}

static bool
push_frame(walker *w, frame fr)
{
    void *f = w->f;
    if (!stack_room(&f, w->local, w->n, &w->cap, sizeof fr))
        return false;
    w->f = f;
    w->f[w->n++] = fr;
    return true;
}

/* Tell the callback about reference @r and, unless it says otherwise, go
 * into its subscripts; with XF_WALK_AFTER at once when they are skipped.
 * @returns 1 when the walk stops, 0 to go on, -1 out of memory. */
static int
reach_ref(walker *w, const xf_varref *r, const xf_evertex *v, unsigned depth, bool in_arg)
{
    xf_walk_step s = {.ref = r, .vertex = v, .depth = depth, .in_arg = in_arg};
    xf_walk_go go = w->fn(w->ctx, &s);
    if (go == XF_WALK_STOP)
        return 1;
    bool subscripted = false; /* most references have none: no frame for them */
    for (uint32_t k = 0; k < r->v.n && !subscripted; k++)
        subscripted = r->v.v[k].kind == XF_VR_ARRAY;
    if (go == XF_WALK_GO && subscripted)
        return push_frame(
                   w, (frame){.kind = FR_REF, .node = r, .depth = depth, .v = v, .in_arg = in_arg})
                   ? 0
                   : -1;
    if (w->flags & XF_WALK_AFTER) {
        s.after = true;
        return w->fn(w->ctx, &s) == XF_WALK_STOP;
    }
    return 0;
}

/* One step of the frame on top. @returns as reach_ref. */
static int
walk_step(walker *w)
{
    frame *f = &w->f[w->n - 1];
    unsigned depth = f->depth;
    switch (f->kind) {
    case FR_EXPR: {
        const xf_expr *x = f->node;
        if (f->i >= x->v.n) {
            w->n--;
            return 0;
        }
        const xf_evertex *v = &x->v.v[f->i++];
        /* constants and operations are no steps: past them at once */
        while (
            (v->kind == XF_EV_CONSTANT || v->kind == XF_EV_INTRINSIC || v->kind == XF_EV_BOOLOP) &&
            f->i < x->v.n)
            v = &x->v.v[f->i++];
        switch (v->kind) {
        case XF_EV_VARREF:
            return reach_ref(w, v->u.ref, v, depth, f->in_arg);
        case XF_EV_FUNCALL:
        case XF_EV_ARGREF: {
            xf_walk_step s = {.vertex = v, .depth = depth, .in_arg = f->in_arg};
            xf_walk_go go = w->fn(w->ctx, &s);
            if (go == XF_WALK_STOP)
                return 1;
            if (v->kind != XF_EV_FUNCALL)
                return 0;
            if (go == XF_WALK_GO && (w->flags & XF_WALK_ARGS))
                return push_frame(
                           w,
                           (frame){.kind = FR_CALL, .node = v, .depth = depth, .in_arg = f->in_arg})
                           ? 0
                           : -1;
            if (w->flags & XF_WALK_AFTER) {
                s.after = true;
                return w->fn(w->ctx, &s) == XF_WALK_STOP;
            }
            return 0;
        }
        case XF_EV_CONSTANT:
        case XF_EV_INTRINSIC:
        case XF_EV_BOOLOP:
            return 0;
        }
        return 0; /* not reached: every kind returns */
    }
    case FR_CALL: {
        const xf_evertex *v = f->node;
        if (f->i >= v->u.fn.args.n) {
            w->n--;
            if (w->flags & XF_WALK_AFTER) {
                xf_walk_step s = {.vertex = v, .depth = depth, .in_arg = f->in_arg, .after = true};
                return w->fn(w->ctx, &s) == XF_WALK_STOP;
            }
            return 0;
        }
        return reach_ref(w, v->u.fn.args.v[f->i++], NULL, depth, true);
    }
    case FR_REF: {
        const xf_varref *r = f->node;
        for (; f->i < r->v.n; f->i++, f->t = 0, f->k = 0) {
            if (r->v.v[f->i].kind != XF_VR_ARRAY)
                continue;
            const xf_arrref *a = &r->v.v[f->i].u.arr;
            for (; f->t < a->t.n; f->t++, f->k = 0)
                while (f->k < 3) {
                    const xf_triplet *t = &a->t.v[f->t];
                    const xf_expr *part = f->k == 0 ? t->index : f->k == 1 ? t->bound : t->stride;
                    f->k++;
                    if (part)
                        return push_frame(w, (frame){.kind = FR_EXPR,
                                                     .node = part,
                                                     .depth = depth + 1,
                                                     .in_arg = f->in_arg})
                                   ? 0
                                   : -1;
                }
        }
        w->n--;
        if ((w->flags & XF_WALK_AFTER) && !f->quiet) {
            xf_walk_step s = {
                .ref = r, .vertex = f->v, .depth = depth, .in_arg = f->in_arg, .after = true};
            return w->fn(w->ctx, &s) == XF_WALK_STOP;
        }
        return 0;
    }
    }
    return 0; /* not reached: every kind returns */
}

static int
walk_run(walker *w)
{
    int rc = 0;
    while (w->n > 0 && rc == 0)
        rc = walk_step(w);
    if (w->f != w->local)
        free(w->f);
    return rc;
}

static void
walk_init(walker *w, unsigned flags, xf_walk_fn fn, void *ctx)
{
    w->f = w->local;
    w->n = 0;
    w->cap = WALK_FRAMES;
    w->flags = flags;
    w->fn = fn;
    w->ctx = ctx;
}

int
xf_walk_ref(const xf_varref *r, unsigned flags, xf_walk_fn fn, void *ctx)
{
    walker w;
    walk_init(&w, flags, fn, ctx);
    if (!r)
        return 0;
    if (flags & XF_WALK_SUBSCRIPTS) {
        w.f[w.n++] = (frame){.kind = FR_REF, .node = r, .quiet = true};
    } else {
        int rc = reach_ref(&w, r, NULL, 0, false);
        if (rc)
            return rc;
    }
    return walk_run(&w);
}

int
xf_walk_expr(const xf_expr *x, unsigned flags, xf_walk_fn fn, void *ctx)
{
    walker w;
    walk_init(&w, flags & ~(unsigned)XF_WALK_SUBSCRIPTS, fn, ctx);
    if (!x)
        return 0;
    w.f[w.n++] = (frame){.kind = FR_EXPR, .node = x};
    return walk_run(&w);
}

/* ------------------------------------------------------------ signatures */

/* A signature is written into a buffer that grows on the heap, then
 * interned: a reference has one whatever its length. What is left to write
 * waits on an explicit stack, last first, so any nesting is written. */
enum { SIG_ITEMS = 32, SIG_BYTES = 256 };

typedef enum sgkind {
    SG_TEXT,    /* text */
    SG_REF,     /* ref */
    SG_EXPR,    /* x, from its root */
    SG_OPERAND, /* x, the operand of edge e: a comma unless it is the first */
} sgkind;

typedef struct sgitem {
    sgkind kind;
    const char *text;
    const xf_varref *ref;
    const xf_expr *x;
    uint32_t e;
} sgitem;

typedef struct sig {
    char *s;
    uint32_t n, cap;
    sgitem *v;
    uint32_t nv, capv;
    bool oom;
    char local_s[SIG_BYTES];
    sgitem local_v[SIG_ITEMS];
} sig;

static void
sig_put(sig *g, const char *t)
{
    size_t k = strlen(t);
    if (g->oom || k >= UINT32_MAX - g->n)
        goto fail;
    while (g->n + k + 1 > g->cap) {
        void *s = g->s;
        if (!stack_room(&s, g->local_s, g->cap, &g->cap, 1))
            goto fail;
        g->s = s;
    }
    memcpy(g->s + g->n, t, k + 1);
    g->n += (uint32_t)k;
    return;
fail:
    g->oom = true;
}

static void
sig_push(sig *g, sgitem it)
{
    void *v = g->v;
    if (g->oom || !stack_room(&v, g->local_v, g->nv, &g->capv, sizeof it)) {
        g->oom = true;
        return;
    }
    g->v = v;
    g->v[g->nv++] = it;
}

static void
sig_text(sig *g, const char *t)
{
    sig_push(g, (sgitem){.kind = SG_TEXT, .text = t});
}

/* The symbol's address, as printf's %p writes it: equal for one symbol. */
static void
sig_symbol(sig *g, const xf_symbol *sym)
{
    char tmp[24], *h = tmp + sizeof tmp - 1;
    *h = 0;
    uintptr_t addr = (uintptr_t)sym;
    if (!addr)
        h = memcpy(tmp, "(nil)", 6);
    else {
        for (; addr; addr >>= 4)
            *--h = "0123456789abcdef"[addr & 15];
        *--h = 'x';
        *--h = '0';
    }
    sig_put(g, h);
}

/* The variable, then (subscripts, index:bound:stride each). */
static void
sig_ref(sig *g, const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    sig_symbol(g, s ? s->sym : NULL);
    const xf_arrref *a = xf_varref_arrref(r);
    if (!a)
        return;
    sig_put(g, "(");
    sig_text(g, ")");
    for (uint32_t i = a->t.n; i-- > 0;) {
        const xf_triplet *t = &a->t.v[i];
        if (t->bound || t->stride || !t->index) {
            if (t->stride)
                sig_push(g, (sgitem){.kind = SG_EXPR, .x = t->stride});
            sig_text(g, ":");
            if (t->bound)
                sig_push(g, (sgitem){.kind = SG_EXPR, .x = t->bound});
            sig_text(g, ":");
        }
        if (t->index)
            sig_push(g, (sgitem){.kind = SG_EXPR, .x = t->index});
        if (i)
            sig_text(g, ",");
    }
}

/* A constant's text, a reference, or an operation's name and
 * [operands], in the order of their positions. */
static void
sig_vertex(sig *g, const xf_expr *x, uint32_t v)
{
    const xf_evertex *ev = &x->v.v[v];
    switch (ev->kind) {
    case XF_EV_CONSTANT:
        sig_put(g, ev->u.c.value ? ev->u.c.value : "");
        return;
    case XF_EV_VARREF:
        sig_ref(g, ev->u.ref);
        return;
    case XF_EV_ARGREF:
        sig_put(g, "$");
        char num[24];
        snprintf(num, sizeof num, "%lld", (long long)ev->u.arg);
        sig_put(g, num);
        return;
    case XF_EV_FUNCALL:
    case XF_EV_INTRINSIC:
    case XF_EV_BOOLOP:
        break;
    }
    sig_put(g, ev->kind == XF_EV_FUNCALL || !ev->u.in.name ? "?" : ev->u.in.name);
    sig_put(g, "[");
    sig_text(g, "]");
    /* the operand edges, to be taken by position, ties in edge order:
     * on the stack the last comes first */
    uint32_t from = g->nv;
    for (uint32_t j = 0; j < x->e.n && !g->oom; j++) {
        if (x->e.v[j].tgt != v || x->e.v[j].src >= x->v.n)
            continue;
        sig_push(g, (sgitem){.kind = SG_OPERAND, .x = x, .e = j});
        for (uint32_t k = g->nv - 1; k > from && x->e.v[g->v[k - 1].e].pos <= x->e.v[j].pos; k--) {
            sgitem t = g->v[k];
            g->v[k] = g->v[k - 1];
            g->v[k - 1] = t;
        }
    }
}

static void
sig_run(sig *g)
{
    while (g->nv > 0 && !g->oom) {
        sgitem it = g->v[--g->nv];
        switch (it.kind) {
        case SG_TEXT:
            sig_put(g, it.text);
            break;
        case SG_REF:
            sig_ref(g, it.ref);
            break;
        case SG_EXPR: {
            uint32_t r = xf_expr_root(it.x);
            if (r == UINT32_MAX)
                sig_put(g, "?");
            else
                sig_vertex(g, it.x, r);
            break;
        }
        case SG_OPERAND:
            if (it.x->e.v[it.e].pos > 1)
                sig_put(g, ",");
            sig_vertex(g, it.x, it.x->e.v[it.e].src);
            break;
        }
    }
}

/* Write the signature of @first into @g; sig_free after. false: out of memory. */
static bool
sig_build(sig *g, sgitem first)
{
    g->s = g->local_s;
    g->n = 0;
    g->cap = SIG_BYTES;
    g->s[0] = 0;
    g->v = g->local_v;
    g->nv = 0;
    g->capv = SIG_ITEMS;
    g->oom = false;
    sig_push(g, first);
    sig_run(g);
    return !g->oom;
}

static void
sig_free(sig *g)
{
    if (g->s != g->local_s)
        free(g->s);
    if (g->v != g->local_v)
        free(g->v);
}

static const char *
sig_interned(xf_doc *doc, sgitem first)
{
    sig g;
    const char *s = sig_build(&g, first) ? xf_intern(doc, g.s) : NULL;
    sig_free(&g);
    return s;
}

const char *
xf_ref_sig(xf_doc *doc, const xf_varref *r)
{
    return sig_interned(doc, (sgitem){.kind = SG_REF, .ref = r});
}

const char *
xf_expr_sig(xf_doc *doc, const xf_expr *x)
{
    return sig_interned(doc, (sgitem){.kind = SG_EXPR, .x = x});
}

bool
xf_refs_alike(const xf_varref *a, const xf_varref *b)
{
    sig ga, gb;
    bool ok = sig_build(&ga, (sgitem){.kind = SG_REF, .ref = a});
    ok = sig_build(&gb, (sgitem){.kind = SG_REF, .ref = b}) && ok;
    bool same = ok && ga.n == gb.n && !memcmp(ga.s, gb.s, ga.n);
    sig_free(&ga);
    sig_free(&gb);
    return same;
}
