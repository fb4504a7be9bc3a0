/* checkpoint_emit.c: the builder the checkpoint pass writes its schedules
 * with (checkpoint.h): structured control flow and integer code, from a
 * short text per statement so that the schedule reads like the algorithm. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "checkpoint.h"

static void
fail(ck_emit *e, const char *why)
{
    if (!e->failed)
        e->why = why;
    e->failed = true;
}

static const char *
fresh(ck_emit *e)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s%u", e->pfx, ++e->n);
    return xf_intern(e->doc, buf);
}

/* A new vertex after the attach point. */
static xf_cvertex *
vertex(ck_emit *e, xf_cvkind kind)
{
    if (e->failed)
        return NULL;
    xf_cvertex *v = xf_graph_vertex(e->doc, e->g, kind, fresh(e));
    if (!v || !xf_graph_edge(e->doc, e->g, e->at, v, fresh(e), e->at_cv, e->cv)) {
        fail(e, "out of memory");
        return NULL;
    }
    if (kind == XF_CV_BASICBLOCK)
        v->scope = e->scope;
    e->at = v;
    e->at_cv = false;
    e->open = kind == XF_CV_BASICBLOCK;
    return v;
}

void
ck_stmt(ck_emit *e, xf_stmt *s)
{
    if (!s)
        fail(e, "out of memory");
    if (e->failed)
        return;
    if (!e->open && !vertex(e, XF_CV_BASICBLOCK))
        return;
    if (!XF_VEC_PUSH(e->doc->arena, e->at->stmts, s))
        fail(e, "out of memory");
}

/* ------------------------------------------------------------ expressions */

typedef struct parser {
    ck_emit *e;
    const char *p;
    xf_expr *x;
} parser;

static uint32_t p_or(parser *p);

static void
skip(parser *p)
{
    while (isspace((unsigned char)*p->p))
        p->p++;
}

static bool
eat(parser *p, const char *t)
{
    skip(p);
    size_t n = strlen(t);
    if (strncmp(p->p, t, n))
        return false;
    /* "<" is not "<=" */
    if (n == 1 && (t[0] == '<' || t[0] == '>' || t[0] == '=') && p->p[1] == '=')
        return false;
    p->p += n;
    return true;
}

static xf_symbol *
lookup(ck_emit *e, const char *s, size_t n)
{
    for (int k = 0; k < e->nnames; k++)
        if (strlen(e->names[k].name) == n && !strncmp(e->names[k].name, s, n))
            return e->names[k].sym;
    return NULL;
}

static uint32_t
p_atom(parser *p)
{
    ck_emit *e = p->e;
    skip(p);
    if (eat(p, "(")) {
        uint32_t v = p_or(p);
        if (!eat(p, ")"))
            fail(e, "internal: ')' expected");
        return v;
    }
    if (eat(p, "-"))
        return xf_expr_unary(e->doc, p->x, "minus_scal", p_atom(p));
    if (*p->p == '@') {
        int k = p->p[1] - '0';
        p->p += 2;
        if (k < 0 || k >= CK_EXT || !e->ext[k]) {
            fail(e, "internal: no such operand");
            return UINT32_MAX;
        }
        return xf_expr_copy(e->doc, p->x, e->ext[k], e->ext_root[k]);
    }
    if (isdigit((unsigned char)*p->p)) {
        int64_t v = strtoll(p->p, (char **)&p->p, 10);
        return xf_expr_int(e->doc, p->x, v);
    }
    const char *s = p->p;
    while (isalnum((unsigned char)*p->p) || *p->p == '_')
        p->p++;
    xf_symbol *sym = lookup(e, s, (size_t)(p->p - s));
    if (!sym) {
        fail(e, "internal: unknown name");
        return UINT32_MAX;
    }
    xf_varref *r = xf_ref_new(e->doc, sym);
    if (!r)
        return UINT32_MAX;
    xf_mark_ref(r, false, false);
    return xf_expr_ref(e->doc, p->x, r);
}

static uint32_t
p_term(parser *p)
{
    uint32_t a = p_atom(p);
    for (;;) {
        if (eat(p, "*"))
            a = xf_expr_binary(p->e->doc, p->x, "mul_scal_scal", a, p_atom(p));
        else if (eat(p, "/"))
            a = xf_expr_binary(p->e->doc, p->x, "div_scal_scal", a, p_atom(p));
        else
            return a;
    }
}

static uint32_t
p_sum(parser *p)
{
    uint32_t a = p_term(p);
    for (;;) {
        if (eat(p, "+"))
            a = xf_expr_binary(p->e->doc, p->x, "add_scal_scal", a, p_term(p));
        else if (eat(p, "-"))
            a = xf_expr_binary(p->e->doc, p->x, "sub_scal_scal", a, p_term(p));
        else
            return a;
    }
}

static uint32_t
boolop(parser *p, const char *name, uint32_t a, uint32_t b)
{
    uint32_t o = xf_expr_op(p->e->doc, p->x, XF_EV_BOOLOP, name);
    return xf_expr_edge(p->e->doc, p->x, a, o, 1) && xf_expr_edge(p->e->doc, p->x, b, o, 2)
               ? o
               : UINT32_MAX;
}

static uint32_t
p_cmp(parser *p)
{
    static const char *const ops[][2] = {{"==", "equal"},         {"!=", "not_equal"},
                                         {"<=", "less_or_equal"}, {">=", "greater_or_equal"},
                                         {"<", "less_than"},      {">", "greater_than"}};
    uint32_t a = p_sum(p);
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (eat(p, ops[k][0]))
            return boolop(p, ops[k][1], a, p_sum(p));
    return a;
}

static uint32_t
p_and(parser *p)
{
    uint32_t a = p_cmp(p);
    while (eat(p, "&"))
        a = boolop(p, "and", a, p_cmp(p));
    return a;
}

static uint32_t
p_or(parser *p)
{
    uint32_t a = p_and(p);
    while (eat(p, "|"))
        a = boolop(p, "or", a, p_and(p));
    return a;
}

/* Parse @text into @x (empty). */
static bool
parse(ck_emit *e, const char *text, xf_expr *x)
{
    parser p = {.e = e, .p = text, .x = x};
    uint32_t r = p_or(&p);
    skip(&p);
    if (r == UINT32_MAX || *p.p)
        fail(e, r == UINT32_MAX ? "out of memory" : "internal: text left after an expression");
    return !e->failed;
}

static const char *
stmt_id(ck_emit *e)
{
    return fresh(e);
}

void
ck_set_ref(ck_emit *e, const xf_varref *lhs, const char *rhs)
{
    xf_expr x = {0};
    if (e->failed || !parse(e, rhs, &x))
        return;
    ck_stmt(e, xf_stmt_assign(e->doc, stmt_id(e), lhs, &x));
}

void
ck_set(ck_emit *e, const char *lhs, const char *rhs)
{
    xf_symbol *s = lookup(e, lhs, strlen(lhs));
    xf_varref *r = s ? xf_ref_new(e->doc, s) : NULL;
    if (!r) {
        fail(e, s ? "out of memory" : "internal: unknown name");
        return;
    }
    xf_mark_ref(r, false, false);
    ck_set_ref(e, r, rhs);
}

void
ck_call_ref(ck_emit *e, const char *name, const xf_varref *ref)
{
    if (e->failed)
        return;
    xf_stmt *s = xf_stmt_icall(e->doc, stmt_id(e), name);
    if (!s || (ref && !xf_icall_ref(e->doc, s, ref))) {
        fail(e, "out of memory");
        return;
    }
    ck_stmt(e, s);
}

void
ck_call(ck_emit *e, const char *name, const char *arg)
{
    if (e->failed)
        return;
    if (!arg) {
        ck_call_ref(e, name, NULL);
        return;
    }
    xf_symbol *sym = lookup(e, arg, strlen(arg));
    if (sym) {
        xf_varref *r = xf_ref_new(e->doc, sym);
        if (!r) {
            fail(e, "out of memory");
            return;
        }
        xf_mark_ref(r, false, false);
        ck_call_ref(e, name, r);
        return;
    }
    char *end;
    (void)strtoll(arg, &end, 10);
    if (end != arg && !*end) { /* an integer literal: a Constant argument */
        xf_stmt *s = xf_stmt_icall(e->doc, stmt_id(e), name);
        if (!s || !xf_icall_const(e->doc, s, XF_TYPE_INTEGER, xf_intern(e->doc, arg))) {
            fail(e, "out of memory");
            return;
        }
        ck_stmt(e, s);
        return;
    }
    xf_stmt *s = xf_stmt_icall(e->doc, stmt_id(e), name);
    xf_arg a = {.pos = 1};
    if (!s || !parse(e, arg, &a.val) || !XF_VEC_PUSH(e->doc->arena, s->u.icall.args, a)) {
        fail(e, "out of memory");
        return;
    }
    ck_stmt(e, s);
}

/* ------------------------------------------------------------ control flow */

static struct ck_frame *
push(ck_emit *e, char kind, xf_cvertex *v)
{
    if (e->depth == CK_DEPTH) {
        fail(e, "internal: nested too deep");
        return NULL;
    }
    struct ck_frame *f = &e->stk[e->depth++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->v = v;
    return f;
}

static xf_cvertex *
cond_vertex(ck_emit *e, xf_cvkind kind, const char *cond)
{
    xf_expr *x = xf_arena_alloc(e->doc->arena, sizeof *x);
    if (!x) {
        fail(e, "out of memory");
        return NULL;
    }
    memset(x, 0, sizeof *x);
    if (!parse(e, cond, x))
        return NULL;
    xf_cvertex *v = vertex(e, kind);
    if (v)
        v->cond = x;
    return v;
}

void
ck_if(ck_emit *e, const char *cond)
{
    xf_cvertex *v = cond_vertex(e, XF_CV_BRANCH, cond);
    if (!v || !push(e, 'i', v))
        return;
    e->at_cv = true;
    e->cv = 1;
}

void
ck_if_present(ck_emit *e, xf_symbol *sym)
{
    xf_expr *x = xf_arena_alloc(e->doc->arena, sizeof *x);
    xf_varref *r = xf_ref_new(e->doc, sym);
    if (!x || !r) {
        fail(e, "out of memory");
        return;
    }
    memset(x, 0, sizeof *x);
    xf_mark_ref(r, false, false);
    uint32_t a = xf_expr_ref(e->doc, x, r);
    if (xf_expr_unary(e->doc, x, "present", a) == UINT32_MAX) {
        fail(e, "out of memory");
        return;
    }
    xf_cvertex *v = vertex(e, XF_CV_BRANCH);
    if (!v || !push(e, 'i', v))
        return;
    v->cond = x;
    e->at_cv = true;
    e->cv = 1;
}

void
ck_else(ck_emit *e)
{
    if (e->failed)
        return;
    struct ck_frame *f = &e->stk[e->depth - 1];
    f->has_then = true;
    f->then_end = e->at;
    f->then_cv = e->at_cv;
    f->then_cvv = e->cv;
    f->in_else = true;
    e->at = f->v;
    e->at_cv = false;
    e->open = false;
}

void
ck_endif(ck_emit *e)
{
    if (e->failed)
        return;
    if (!e->stk[e->depth - 1].in_else)
        ck_else(e); /* an empty else arm: the Branch's default edge */
    struct ck_frame f = e->stk[--e->depth];
    /* the else arm ends at e->at; the then arm at f.then_end */
    xf_cvertex *join = vertex(e, XF_CV_ENDBRANCH);
    if (join && !xf_graph_edge(e->doc, e->g, f.then_end, join, fresh(e), f.then_cv, f.then_cvv))
        fail(e, "out of memory");
    e->open = false;
}

void
ck_while(ck_emit *e, const char *cond)
{
    xf_cvertex *v = cond_vertex(e, XF_CV_PRELOOP, cond);
    if (!v || !push(e, 'w', v))
        return;
    e->at_cv = true;
    e->cv = 1;
}

void
ck_endwhile(ck_emit *e)
{
    if (e->failed)
        return;
    struct ck_frame f = e->stk[--e->depth];
    xf_cvertex *end = vertex(e, XF_CV_ENDLOOP);
    if (end && !xf_graph_edge(e->doc, e->g, end, f.v, fresh(e), false, 0))
        fail(e, "out of memory");
    e->at = f.v;
    e->at_cv = false;
    e->open = false;
}

void
ck_join(ck_emit *e, xf_cvertex *to)
{
    if (!e->failed && !xf_graph_edge(e->doc, e->g, e->at, to, fresh(e), e->at_cv, e->cv))
        fail(e, "out of memory");
}

/* ------------------------------------------------------------ copies */

const xf_cvertex **
ck_body(const xf_graph *g, const xf_cvertex *first, const xf_cvertex *end, xf_arena *a, uint32_t *n,
        uint32_t **outs)
{
    uint32_t nv = g->v.n, ne = g->e.n;
    /* the out-edges by source vertex (counting sort) */
    uint32_t *start = xf_arena_alloc(a, ((size_t)nv + 1) * sizeof *start);
    const xf_cvertex **tgt = xf_arena_alloc(a, ((size_t)ne + 1) * sizeof *tgt);
    uint8_t *seen = xf_arena_alloc(a, (size_t)nv + 1);
    uint32_t *todo = xf_arena_alloc(a, ((size_t)ne + 2) * sizeof *todo);
    const xf_cvertex **out = xf_arena_alloc(a, ((size_t)nv + 1) * sizeof *out);
    if (!start || !tgt || !seen || !todo || !out)
        return NULL;
    memset(start, 0, ((size_t)nv + 1) * sizeof *start);
    memset(seen, 0, (size_t)nv + 1);
    for (uint32_t k = 0; k < ne; k++)
        start[g->e.v[k]->src->index + 1]++;
    for (uint32_t v = 0; v < nv; v++)
        start[v + 1] += start[v];
    uint32_t *fill = xf_arena_alloc(a, ((size_t)nv + 1) * sizeof *fill);
    if (!fill)
        return NULL;
    memcpy(fill, start, ((size_t)nv + 1) * sizeof *fill);
    for (uint32_t k = 0; k < ne; k++)
        tgt[fill[g->e.v[k]->src->index]++] = g->e.v[k]->tgt;
    if (outs) {
        *outs = fill;
        for (uint32_t v = 0; v < nv; v++)
            fill[v] = start[v + 1] - start[v];
    }
    uint32_t nt = 0, no = 0;
    todo[nt++] = first->index;
    while (nt) {
        const xf_cvertex *v = g->v.v[todo[--nt]];
        if (seen[v->index])
            continue;
        seen[v->index] = 1;
        out[no++] = v;
        if (v == end)
            continue;
        for (uint32_t k = start[v->index]; k < start[v->index + 1]; k++)
            if (!seen[tgt[k]->index])
                todo[nt++] = tgt[k]->index;
    }
    *n = no;
    return out;
}

void
ck_splice(ck_emit *e, const xf_graph *src, const xf_cvertex *first, const xf_cvertex *end)
{
    if (e->failed)
        return;
    xf_arena *a = e->doc->arena;
    uint32_t nv = src->v.n, ne = src->e.n; /* what was there before the copy */
    uint32_t nb;
    const xf_cvertex **body = ck_body(src, first, end, a, &nb, NULL);
    xf_cvertex **copy = xf_arena_alloc(a, (size_t)nv * sizeof *copy);
    if (!body || !copy) {
        fail(e, "out of memory");
        return;
    }
    memset(copy, 0, (size_t)nv * sizeof *copy);
    for (uint32_t b = 0; b < nb; b++) {
        const xf_cvertex *v = body[b];
        xf_cvertex *c = xf_graph_vertex(e->doc, e->g, v->kind, fresh(e));
        if (!c) {
            fail(e, "out of memory");
            return;
        }
        const char *id = c->id;
        uint32_t seq = c->seq, index = c->index;
        *c = *v;
        c->id = id;
        c->seq = seq;
        c->index = index;
        c->stmts.v = NULL;
        c->stmts.n = c->stmts.cap = 0;
        if (v == end) {
            c->kind = XF_CV_BASICBLOCK;
            c->scope = e->scope;
            c->cond = NULL;
        } else
            for (uint32_t k = 0; k < v->stmts.n; k++) {
                xf_stmt *s = xf_stmt_copy(e->doc, v->stmts.v[k]);
                if (!s || !XF_VEC_PUSH(a, c->stmts, s)) {
                    fail(e, "out of memory");
                    return;
                }
            }
        copy[v->index] = c;
    }
    if (!copy[end->index]) {
        fail(e, "internal: the loop body does not reach its end");
        return;
    }
    for (uint32_t k = 0; k < ne; k++) {
        const xf_cedge *ed = src->e.v[k];
        if (ed->src == end || !copy[ed->src->index])
            continue;
        if (!copy[ed->tgt->index]) {
            fail(e, "internal: an edge leaves the loop body");
            return;
        }
        if (!xf_graph_edge(e->doc, e->g, copy[ed->src->index], copy[ed->tgt->index], fresh(e),
                           xf_flag_is(ed->has_cv, false), ed->cv)) {
            fail(e, "out of memory");
            return;
        }
    }
    if (!xf_graph_edge(e->doc, e->g, e->at, copy[first->index], fresh(e), e->at_cv, e->cv))
        fail(e, "out of memory");
    e->at = copy[end->index];
    e->at_cv = false;
    e->open = true;
}
