/* loopdep_walk.c: the reads and writes of structured code in execution
 * order (loopdep_impl.h). A write without subscripts sets the whole
 * variable: a later read is covered when such a write lies on every path
 * before it (both arms of a branch; not the body of a loop, which may run
 * no iteration). Calls read and write what the callee's side-effect lists
 * say (its formals mapped to the actual arguments); a call whose effects
 * are unknown reads and writes every argument and is recorded. An additive
 * update s = s + e, s = e + s or s = s - e (e not reading s) marks its read
 * and its write of s as a reduction. */
#include <string.h>

#include "loopdep_impl.h"
#include "pass.h"

bool
ld_walk_init(ld_walk *w, const xf_doc *doc, xf_arena *a)
{
    memset(w, 0, sizeof *w);
    w->doc = doc;
    w->a = a;
    w->nsyms = doc->nsymbols;
    w->budget = UINT64_MAX;
    w->must = XF_NEW_ARRAY(a, w->nsyms + 1, uint8_t);
    return w->must != NULL;
}

void
ld_walk_undo(ld_walk *w, uint32_t n)
{
    while (w->log.n > n)
        w->must[w->log.v[--w->log.n]] = 0;
}

void
ld_walk_reset(ld_walk *w)
{
    ld_walk_undo(w, 0);
    w->acc.n = 0;
    w->elems.n = 0;
    w->unknown_call = NULL;
    w->unknown_line = XF_NOINT;
}

void
ld_walk_mark(ld_walk *w, const xf_symbol *sym)
{
    if (!sym || sym->index >= w->nsyms || w->must[sym->index])
        return;
    w->must[sym->index] = 1;
    if (!XF_VEC_PUSH(w->a, w->log, sym->index))
        w->oom = true;
}

/* Does a subscript of @r read @sym? */
static xf_walk_go
reads_sym(void *ctx, const xf_walk_step *s)
{
    const xf_symbol **sym = ctx;
    const xf_symref *sr = s->ref ? xf_varref_symref(s->ref) : NULL;
    if (sr && sr->sym == *sym) {
        *sym = NULL;
        return XF_WALK_STOP;
    }
    return XF_WALK_GO;
}

/* A write of @sym at @ref: the element writes whose subscripts read @sym
 * no longer name the elements they wrote; @ref's element is written (a
 * later write of another element of its array leaves it written in the
 * walk, whatever value it holds). */
static void
elem_written(ld_walk *w, const xf_symbol *sym, const xf_varref *ref)
{
    /* a killed entry stays, NULL, so that a region's exit can drop what
     * the region added by truncating to the count at its start */
    for (uint32_t j = 0; j < w->elems.n; j++) {
        const xf_symbol *s = sym;
        if (w->elems.v[j] &&
            xf_walk_ref(w->elems.v[j], XF_WALK_ARGS | XF_WALK_SUBSCRIPTS, reads_sym, &s) < 0)
            w->oom = true;
        if (!s)
            w->elems.v[j] = NULL;
    }
    if (ref && xf_varref_arrref(ref) && !XF_VEC_PUSH(w->a, w->elems, ref))
        w->oom = true;
}

static bool
elem_fresh(const ld_walk *w, const xf_varref *ref)
{
    for (uint32_t j = 0; ref && xf_varref_arrref(ref) && j < w->elems.n; j++)
        if (w->elems.v[j] && xf_refs_alike(w->elems.v[j], ref))
            return true;
    return false;
}

static void
push(ld_walk *w, const xf_symbol *sym, const xf_varref *ref, int64_t line, bool write, bool red)
{
    if (!sym)
        return;
    ld_acc c = {.sym = sym,
                .ref = ref,
                .line = line,
                .write = write,
                .exposed = !write && (sym->index >= w->nsyms || !w->must[sym->index]),
                .fresh = !write && elem_fresh(w, ref),
                .reduction = red,
                .next = UINT32_MAX};
    if (!XF_VEC_PUSH(w->a, w->acc, c))
        w->oom = true;
    if (write)
        elem_written(w, sym, ref);
}

static void subscripts(ld_walk *w, const xf_varref *r, int64_t line);
static void expr_reads(ld_walk *w, const xf_expr *x, int64_t line, uint32_t red_v);

static const xf_symbol *
sym_of(const xf_varref *r)
{
    const xf_symref *s = r ? xf_varref_symref(r) : NULL;
    return s ? s->sym : NULL;
}

static void
write_ref(ld_walk *w, const xf_varref *r, int64_t line, bool red)
{
    subscripts(w, r, line);
    push(w, sym_of(r), r, line, true, red);
    if (!xf_varref_arrref(r))
        ld_walk_mark(w, sym_of(r));
}

/* ---- calls */

static const xf_routine *
callee(const xf_doc *doc, const xf_symbol *sym)
{
    return xf_routine_of(doc, sym);
}

static bool
listed(const xf_routine *rt, xf_selist_kind k1, xf_selist_kind k2, const xf_symbol *s)
{
    const xf_selist *l[2] = {&rt->se[k1], &rt->se[k2]};
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; i < l[k]->refs.n; i++)
            if (sym_of(l[k]->refs.v[i]) == s)
                return true;
    return false;
}

static const xf_argsym *
formal(const xf_routine *rt, int64_t pos)
{
    for (uint32_t i = 0; i < rt->args.n; i++)
        if (rt->args.v[i].pos == pos)
            return &rt->args.v[i];
    return NULL;
}

/* A call of @sym: without side-effect lists, the first such call is noted
 * for the report. */
static void
call_begin(ld_walk *w, const xf_symbol *sym, int64_t line)
{
    const xf_routine *rt = callee(w->doc, sym);
    bool lists = rt && (rt->se[XF_SE_MOD].present || rt->se[XF_SE_MODLOCAL].present);
    if (!lists && !w->unknown_call) {
        w->unknown_call = sym ? sym->id : "?";
        w->unknown_line = line;
    }
}

/* What a call of @sym with actual arguments @act[0..n) (NULL: a constant)
 * at positions 1..n reads and writes, once the subscripts of the arguments
 * are read. */
static void
call_end(ld_walk *w, const xf_symbol *sym, const xf_varref *const *act, uint32_t n, int64_t line)
{
    const xf_routine *rt = callee(w->doc, sym);
    bool lists = rt && (rt->se[XF_SE_MOD].present || rt->se[XF_SE_MODLOCAL].present);
    bool rd[64], wr[64];
    for (uint32_t k = 0; k < n && k < 64; k++) {
        const xf_argsym *f = rt ? formal(rt, (int64_t)k + 1) : NULL;
        xf_intent in = f ? f->intent : XF_INTENT_NONE;
        /* with side-effect lists, the lists (and intent in) say; else the intent */
        rd[k] =
            !lists || in == XF_INTENT_IN || (f && listed(rt, XF_SE_READ, XF_SE_READLOCAL, f->sym));
        wr[k] = lists ? f && listed(rt, XF_SE_MOD, XF_SE_MODLOCAL, f->sym) : in != XF_INTENT_IN;
    }
    for (uint32_t k = 0; k < n && k < 64; k++)
        if (act[k] && rd[k])
            push(w, sym_of(act[k]), act[k], line, false, false);
    /* globals the callee reads, then those it writes (whole variables) */
    for (int pass = 0; lists && pass < 2; pass++) {
        const xf_selist *l[2] = {&rt->se[pass ? XF_SE_MOD : XF_SE_READ],
                                 &rt->se[pass ? XF_SE_MODLOCAL : XF_SE_READLOCAL]};
        for (int k = 0; k < 2; k++)
            for (uint32_t i = 0; i < l[k]->refs.n; i++) {
                const xf_symbol *s = sym_of(l[k]->refs.v[i]);
                if (!s || xf_is_formal(rt, s) || s->scope == rt->cfg_scope)
                    continue;
                push(w, s, NULL, line, pass == 1, false);
            }
    }
    for (uint32_t k = 0; k < n && k < 64; k++)
        if (act[k] && wr[k]) {
            push(w, sym_of(act[k]), act[k], line, true, false);
            if (!xf_varref_arrref(act[k]))
                ld_walk_mark(w, sym_of(act[k]));
        }
}

static void
subroutine_call(ld_walk *w, const xf_call *c, int64_t line)
{
    const xf_varref *act[64] = {0};
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->args.n; i++) {
        int64_t p = c->args.v[i].pos;
        const xf_expr *x = &c->args.v[i].val;
        if (p < 1 || p > 64)
            continue;
        if ((uint32_t)p > n)
            n = (uint32_t)p;
        if (x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF)
            act[p - 1] = x->v.v[0].u.ref;
        else
            expr_reads(w, x, line, UINT32_MAX);
    }
    call_begin(w, c->sym, line);
    for (uint32_t k = 0; k < n; k++)
        if (act[k])
            subscripts(w, act[k], line);
    call_end(w, c->sym, act, n, line);
}

/* ---- expressions and statements */

typedef struct reading {
    ld_walk *w;
    int64_t line;
    const xf_evertex *red; /* the reduction's read, or NULL */
} reading;

/* Each reference in an expression is read after its subscripts; a function
 * call reads (writes) its arguments after their subscripts. */
static xf_walk_go
read_step(void *ctx, const xf_walk_step *s)
{
    const reading *g = ctx;
    if (s->ref) {
        if (s->after && s->vertex)
            push(g->w, sym_of(s->ref), s->ref, g->line, false, s->vertex == g->red);
        return XF_WALK_GO;
    }
    if (s->vertex->kind != XF_EV_FUNCALL)
        return XF_WALK_GO;
    if (!s->after) {
        call_begin(g->w, s->vertex->u.fn.sym, g->line);
        return XF_WALK_GO;
    }
    const xf_varref *act[64] = {0};
    uint32_t n = s->vertex->u.fn.args.n < 64 ? s->vertex->u.fn.args.n : 64;
    for (uint32_t k = 0; k < n; k++)
        act[k] = s->vertex->u.fn.args.v[k];
    call_end(g->w, s->vertex->u.fn.sym, act, n, g->line);
    return XF_WALK_GO;
}

static void
subscripts(ld_walk *w, const xf_varref *r, int64_t line)
{
    reading g = {w, line, NULL};
    if (xf_walk_ref(r, XF_WALK_ARGS | XF_WALK_AFTER | XF_WALK_SUBSCRIPTS, read_step, &g) < 0)
        w->oom = true;
}

static void
expr_reads(ld_walk *w, const xf_expr *x, int64_t line, uint32_t red_v)
{
    w->work += x->v.n;
    reading g = {w, line, red_v < x->v.n ? &x->v.v[red_v] : NULL};
    if (xf_walk_expr(x, XF_WALK_ARGS | XF_WALK_AFTER, read_step, &g) < 0)
        w->oom = true;
}

void
ld_walk_expr(ld_walk *w, const xf_expr *x, int64_t line)
{
    expr_reads(w, x, line, UINT32_MAX);
}

/* Is @as an additive update of its left-hand side? The vertex of the
 * read of it in *@v. */
static bool
reduction(const xf_assign *as, uint32_t *v)
{
    const xf_expr *x = &as->rhs;
    uint32_t root = xf_expr_root(x);
    if (root == UINT32_MAX || x->v.v[root].kind != XF_EV_INTRINSIC)
        return false;
    const char *op = x->v.v[root].u.in.name;
    bool add = op && !strcmp(op, "add_scal_scal"), sub = op && !strcmp(op, "sub_scal_scal");
    if (!add && !sub)
        return false;
    const xf_symbol *s = sym_of(&as->lhs);
    if (!s)
        return false;
    for (int64_t pos = 1; pos <= (add ? 2 : 1); pos++) {
        uint32_t c = xf_expr_operand(x, root, pos), o = xf_expr_operand(x, root, 3 - pos);
        if (c == UINT32_MAX || o == UINT32_MAX || x->v.v[c].kind != XF_EV_VARREF)
            continue;
        if (!xf_refs_alike(&as->lhs, x->v.v[c].u.ref) || xf_expr_reads(x, o, s))
            continue;
        *v = c;
        return true;
    }
    return false;
}

void
ld_walk_stmt(ld_walk *w, const xf_stmt *st, int64_t line)
{
    if (!st)
        return;
    w->work++;
    if (st->lineno != XF_NOINT)
        line = st->lineno;
    switch (st->kind) {
    case XF_STMT_ASSIGN: {
        uint32_t v = UINT32_MAX;
        bool red = reduction(&st->u.as, &v);
        expr_reads(w, &st->u.as.rhs, line, v);
        write_ref(w, &st->u.as.lhs, line, red);
        break;
    }
    case XF_STMT_CALL:
        subroutine_call(w, &st->u.call, line);
        break;
    case XF_STMT_ICALL:
        for (uint32_t i = 0; i < st->u.icall.args.n; i++) {
            const xf_expr *x = &st->u.icall.args.v[i].val;
            expr_reads(w, x, line, UINT32_MAX);
            if (x->v.n == 1 && x->v.v[0].kind == XF_EV_VARREF)
                push(w, sym_of(x->v.v[0].u.ref), x->v.v[0].u.ref, line, true, false);
        }
        break;
    case XF_STMT_MARKER:
    case XF_STMT_DERIVPROP:
        break;
    }
}

/* ---- regions */

void
ld_walk_region(ld_walk *w, const xf_region *r)
{
    const xf_cvertex *v = r->v;
    switch (r->kind) {
    case XF_RG_BLOCK:
        for (uint32_t i = 0; i < v->stmts.n; i++)
            ld_walk_stmt(w, v->stmts.v[i], v->lineno);
        return;
    case XF_RG_LOOP: {
        if (v->kind == XF_CV_FORLOOP)
            ld_walk_stmt(w, v->init, v->lineno);
        if (r == w->skip)
            return;
        if (v->cond)
            expr_reads(w, v->cond, v->lineno, UINT32_MAX);
        uint32_t n = w->log.n, ne = w->elems.n;
        ld_walk_seq(w, &r->body, 0);
        if (v->kind == XF_CV_FORLOOP)
            ld_walk_stmt(w, v->update, v->lineno);
        ld_walk_undo(w, n);
        w->elems.n = ne < w->elems.n ? ne : w->elems.n;
        return;
    }
    case XF_RG_BRANCH: {
        if (v->cond)
            expr_reads(w, v->cond, v->lineno, UINT32_MAX);
        uint32_t n = w->log.n, narms = r->arms.n;
        /* what each arm writes as a whole; the branch writes what all do */
        XF_VEC(uint32_t) set = {0};
        XF_VEC(uint32_t) ends = {0};
        uint32_t ne = w->elems.n;
        for (uint32_t k = 0; k < narms; k++) {
            w->elems.n = ne < w->elems.n ? ne : w->elems.n;
            ld_walk_seq(w, &r->arms.v[k].body, 0);
            for (uint32_t j = n; j < w->log.n; j++)
                if (!XF_VEC_PUSH(w->a, set, w->log.v[j]))
                    w->oom = true;
            if (!XF_VEC_PUSH(w->a, ends, set.n))
                w->oom = true;
            ld_walk_undo(w, n);
        }
        w->elems.n = ne < w->elems.n ? ne : w->elems.n;
        if (narms == 0 || w->oom)
            return;
        /* in the first arm's list: count the arms that have each symbol */
        uint32_t first = ends.v[0];
        for (uint32_t j = 0; j < first; j++) {
            uint32_t s = set.v[j], in = 1;
            for (uint32_t k = 1; k < narms; k++) {
                bool has = false;
                for (uint32_t m = ends.v[k - 1]; m < ends.v[k] && !has; m++)
                    has = set.v[m] == s;
                in += has;
            }
            if (in == narms && !w->must[s]) {
                w->must[s] = 1;
                if (!XF_VEC_PUSH(w->a, w->log, s))
                    w->oom = true;
            }
        }
        return;
    }
    }
}

void
ld_walk_seq(ld_walk *w, const xf_rgseq *s, uint32_t from)
{
    for (uint32_t i = from; i < s->v.n && !w->oom && !w->over; i++) {
        ld_walk_region(w, s->v.v[i]);
        w->over = w->work > w->budget;
    }
}
