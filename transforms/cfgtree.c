/* cfgtree.c: see cfgtree.h. */
#include <stdlib.h>
#include <string.h>

#include "cfgtree.h"

typedef struct parser {
    const xf_graph *g;
    xf_arena *a;
    xf_cfgtree *t;
    uint8_t *seen;        /* by vertex index: taken by a region */
    uint32_t *first;      /* out-edges of vertex i: out[first[i] .. first[i+1]) */
    const xf_cedge **out; /* in the graph's edge order */
} parser;

bool
xf_is_body_edge(const xf_cedge *e)
{
    return xf_flag_is(e->has_cv, false) && (e->cv == XF_NOINT || e->cv != 0);
}

static uint32_t
index_of(const parser *p, const xf_cvertex *v)
{
    if (v->index < p->g->v.n && p->g->v.v[v->index] == v)
        return v->index;
    for (uint32_t i = 0; i < p->g->v.n; i++)
        if (p->g->v.v[i] == v)
            return i;
    return UINT32_MAX;
}

static uint32_t
degree(const parser *p, uint32_t i)
{
    return p->first[i + 1] - p->first[i];
}

/* The one successor of @v, or NULL. */
static xf_cvertex *
next(const parser *p, const xf_cvertex *v)
{
    uint32_t i = index_of(p, v);
    return i != UINT32_MAX && degree(p, i) == 1 ? p->out[p->first[i]]->tgt : NULL;
}

/* Claim @v for one region; false if it was claimed already. */
static bool
claim(parser *p, const xf_cvertex *v)
{
    uint32_t i = index_of(p, v);
    if (i == UINT32_MAX || p->seen[i])
        return false;
    p->seen[i] = 1;
    return true;
}

/* A new region in @s (and in the pre-order), with what it inherits from
 * @parent: the explicit mark, and for a loop its header when reversed so. */
static xf_region *
region(parser *p, xf_rgkind kind, xf_cvertex *v, xf_region *parent, xf_rgseq *s)
{
    xf_region *r = XF_NEW(p->a, xf_region);
    if (!r)
        return NULL;
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->v = v;
    r->parent = parent;
    r->index = p->t->all.n;
    r->marked =
        (parent && parent->marked) || (kind == XF_RG_LOOP && v->reversal == XF_REVERSAL_EXPLICIT);
    xf_loophead h;
    if (kind == XF_RG_LOOP && r->marked && xf_loop_header(v, &h)) {
        xf_loophead *c = XF_NEW(p->a, xf_loophead);
        if (!c)
            return NULL;
        *c = h;
        r->head = c;
    }
    return XF_VEC_PUSH(p->a, s->v, r) && XF_VEC_PUSH(p->a, p->t->all, r) ? r : NULL;
}

/* One open construct of the parse: the sequence being read into @s, inside
 * @r (a branch's arm @k or a loop's body; NULL: the routine's top). */
typedef struct frame {
    xf_region *r;
    uint32_t k;
    xf_rgseq *s;
} frame;

/* A branch's next arm: where it starts; its body is read into the frame. */
static xf_cvertex *
open_arm(parser *p, frame *f)
{
    uint32_t i = index_of(p, f->r->v);
    xf_rgarm arm = {.edge = p->out[p->first[i] + f->k]};
    if (!XF_VEC_PUSH(p->a, f->r->arms, arm))
        return NULL;
    f->s = &f->r->arms.v[f->k].body;
    return arm.edge->tgt;
}

/* Parse from the Entry's successor to Exit, which is returned; NULL if not
 * structured. The open constructs are on an explicit stack: nesting is
 * bounded by memory only. Every step claims a vertex or closes an arm or
 * body, so the loop ends. */
static xf_cvertex *
parse(parser *p, xf_cvertex *v)
{
    XF_VEC(frame) st = {0};
    if (!XF_VEC_PUSH(p->a, st, ((frame){.s = &p->t->top})))
        return NULL;
    uint64_t limit = 2 * ((uint64_t)p->g->v.n + p->g->e.n) + 2;
    for (uint64_t steps = 0; v && steps <= limit; steps++) {
        frame *f = &st.v[st.n - 1];
        switch (v->kind) {
        case XF_CV_EXIT:
        case XF_CV_ENDBRANCH:
        case XF_CV_ENDLOOP: {
            xf_region *r = f->r;
            if (!r)
                return v;
            if (r->kind == XF_RG_BRANCH) {
                if (v->kind != XF_CV_ENDBRANCH || (r->end && v != r->end))
                    return NULL;
                r->end = v;
                if (++f->k < degree(p, index_of(p, r->v))) {
                    v = open_arm(p, f);
                    break;
                }
                if (!claim(p, r->end))
                    return NULL;
                st.n--;
                v = next(p, r->end);
            } else {
                if (v->kind != XF_CV_ENDLOOP || next(p, v) != r->v || !claim(p, v))
                    return NULL;
                r->end = v;
                st.n--;
                v = r->exit_edge->tgt;
            }
            break;
        }
        case XF_CV_LABEL:
        case XF_CV_GOTO:
            if (!claim(p, v))
                return NULL;
            v = next(p, v);
            break;
        case XF_CV_BASICBLOCK:
            if (!claim(p, v) || !region(p, XF_RG_BLOCK, v, f->r, f->s))
                return NULL;
            v = next(p, v);
            break;
        case XF_CV_BRANCH:
        case XF_CV_IF: {
            uint32_t i = index_of(p, v);
            xf_region *r = claim(p, v) ? region(p, XF_RG_BRANCH, v, f->r, f->s) : NULL;
            if (!r || degree(p, i) == 0 || !XF_VEC_PUSH(p->a, st, ((frame){.r = r})))
                return NULL;
            v = open_arm(p, &st.v[st.n - 1]);
            break;
        }
        case XF_CV_FORLOOP:
        case XF_CV_PRELOOP: {
            uint32_t i = index_of(p, v);
            xf_region *r = claim(p, v) ? region(p, XF_RG_LOOP, v, f->r, f->s) : NULL;
            if (!r || degree(p, i) != 2)
                return NULL;
            const xf_cedge *a = p->out[p->first[i]], *b = p->out[p->first[i] + 1];
            if (xf_is_body_edge(a) == xf_is_body_edge(b))
                return NULL;
            r->body_edge = xf_is_body_edge(a) ? a : b;
            r->exit_edge = xf_is_body_edge(a) ? b : a;
            if (!XF_VEC_PUSH(p->a, st, ((frame){.r = r, .s = &r->body})))
                return NULL;
            v = r->body_edge->tgt;
            break;
        }
        default: /* Entry inside, PostLoop: not handled as structured */
            return NULL;
        }
    }
    return NULL;
}

bool
xf_cfgtree_parse(const xf_graph *g, xf_arena *a, xf_cfgtree *t)
{
    memset(t, 0, sizeof *t);
    uint32_t n = g->v.n;
    parser p = {.g = g, .a = a, .t = t};
    p.seen = XF_NEW_ARRAY(a, n ? n : 1, uint8_t);
    p.first = XF_NEW_ARRAY(a, n + 1, uint32_t);
    p.out = XF_NEW_ARRAY(a, g->e.n ? g->e.n : 1, const xf_cedge *);
    uint32_t *fill = XF_NEW_ARRAY(a, n ? n : 1, uint32_t);
    if (!p.seen || !p.first || !p.out || !fill)
        return false;
    memset(p.seen, 0, n ? n : 1);
    memset(p.first, 0, (n + 1) * sizeof *p.first);
    memset(fill, 0, (n ? n : 1) * sizeof *fill);
    for (uint32_t j = 0; j < g->e.n; j++) {
        uint32_t i = g->e.v[j]->src ? index_of(&p, g->e.v[j]->src) : UINT32_MAX;
        if (i == UINT32_MAX || !g->e.v[j]->tgt || index_of(&p, g->e.v[j]->tgt) == UINT32_MAX)
            return false;
        p.first[i + 1]++;
    }
    for (uint32_t i = 0; i < n; i++)
        p.first[i + 1] += p.first[i];
    for (uint32_t j = 0; j < g->e.n; j++) {
        uint32_t i = index_of(&p, g->e.v[j]->src);
        p.out[p.first[i] + fill[i]++] = g->e.v[j];
    }
    for (uint32_t i = 0; i < n; i++)
        if (g->v.v[i]->kind == XF_CV_ENTRY) {
            if (t->entry)
                return false;
            t->entry = g->v.v[i];
        }
    if (!t->entry || !claim(&p, t->entry))
        return false;
    xf_cvertex *end = parse(&p, next(&p, t->entry));
    if (!end || end->kind != XF_CV_EXIT || !claim(&p, end))
        return false;
    t->exit = end;
    /* every vertex reachable from Entry must be in the tree */
    uint32_t *stack = XF_NEW_ARRAY(a, n ? n : 1, uint32_t);
    uint8_t *reach = XF_NEW_ARRAY(a, n ? n : 1, uint8_t);
    if (!stack || !reach)
        return false;
    memset(reach, 0, n ? n : 1);
    uint32_t sp = 0, e = index_of(&p, t->entry);
    stack[sp++] = e;
    reach[e] = 1;
    while (sp) {
        uint32_t i = stack[--sp];
        if (!p.seen[i])
            return false;
        for (uint32_t k = p.first[i]; k < p.first[i + 1]; k++) {
            uint32_t j = index_of(&p, p.out[k]->tgt);
            if (!reach[j]) {
                reach[j] = 1;
                stack[sp++] = j;
            }
        }
    }
    return true;
}

/* ------------------------------------------------------------ loop headers */

/* The integer constant that vertex @v of @x is, if it is one. */
static bool
vertex_int(const xf_expr *x, uint32_t v, int64_t *out)
{
    if (v >= x->v.n || x->v.v[v].kind != XF_EV_CONSTANT || x->v.v[v].u.c.type != XF_TYPE_INTEGER)
        return false;
    char *end;
    *out = strtoll(x->v.v[v].u.c.value, &end, 10);
    return *x->v.v[v].u.c.value && !*end;
}

/* The operand at @pos of vertex @v of @x, or UINT32_MAX. */
uint32_t
xf_expr_operand(const xf_expr *x, uint32_t v, int64_t pos)
{
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].tgt == v && x->e.v[j].pos == pos)
            return x->e.v[j].src;
    return UINT32_MAX;
}

bool
xf_expr_is_var(const xf_expr *x, uint32_t v, const xf_symbol *s)
{
    if (v >= x->v.n || x->v.v[v].kind != XF_EV_VARREF || xf_varref_arrref(x->v.v[v].u.ref))
        return false;
    const xf_symref *sr = xf_varref_symref(x->v.v[v].u.ref);
    return sr && sr->sym == s;
}

static bool
reads(const xf_expr *x, uint32_t v, const xf_symbol *s, int depth)
{
    if (v >= x->v.n || depth > 1000 || x->v.v[v].kind == XF_EV_FUNCALL)
        return true;
    if (x->v.v[v].kind == XF_EV_VARREF) {
        const xf_symref *sr = xf_varref_symref(x->v.v[v].u.ref);
        if (!s || !sr || sr->sym == s)
            return true;
    }
    for (uint32_t j = 0; j < x->e.n; j++)
        if (x->e.v[j].tgt == v && reads(x, x->e.v[j].src, s, depth + 1))
            return true;
    return false;
}

bool
xf_expr_reads(const xf_expr *x, uint32_t v, const xf_symbol *s)
{
    return reads(x, v, s, 0);
}

bool
xf_loop_explicit(const xf_region *r, xf_loophead *h)
{
    if (r->kind != XF_RG_LOOP || !r->head)
        return false;
    *h = *r->head;
    return true;
}

bool
xf_loop_header(const xf_cvertex *v, xf_loophead *h)
{
    if (v->kind != XF_CV_FORLOOP || !v->init || !v->update || !v->cond ||
        v->init->kind != XF_STMT_ASSIGN || v->update->kind != XF_STMT_ASSIGN)
        return false;
    const xf_symref *s = xf_varref_symref(&v->init->u.as.lhs);
    const xf_symref *su = xf_varref_symref(&v->update->u.as.lhs);
    if (!s || !su || s->sym != su->sym || xf_varref_arrref(&v->init->u.as.lhs) ||
        s->sym->type != XF_TYPE_INTEGER)
        return false;
    memset(h, 0, sizeof *h);
    h->i = s->sym;
    h->lo_x = &v->init->u.as.rhs;
    h->lo = xf_expr_root(h->lo_x);
    /* update: i + S, S + i or i - S with S constant */
    const xf_expr *u = &v->update->u.as.rhs;
    uint32_t ur = xf_expr_root(u);
    if (ur == UINT32_MAX || u->v.v[ur].kind != XF_EV_INTRINSIC)
        return false;
    const char *op = u->v.v[ur].u.in.name;
    uint32_t a = xf_expr_operand(u, ur, 1), b = xf_expr_operand(u, ur, 2);
    if (a == UINT32_MAX || b == UINT32_MAX)
        return false;
    int64_t st;
    if (!strcmp(op, "add_scal_scal") && xf_expr_is_var(u, a, h->i) && vertex_int(u, b, &st))
        h->step = st;
    else if (!strcmp(op, "add_scal_scal") && xf_expr_is_var(u, b, h->i) && vertex_int(u, a, &st))
        h->step = st;
    else if (!strcmp(op, "sub_scal_scal") && xf_expr_is_var(u, a, h->i) && vertex_int(u, b, &st))
        h->step = st == INT64_MIN ? INT64_MIN : -st; /* INT64_MIN: refused below */
    else if (!strcmp(op, "add_scal_scal") && xf_expr_is_var(u, a, h->i) &&
             !xf_expr_reads(u, b, h->i))
        h->st_x = u, h->st = b;
    else if (!strcmp(op, "add_scal_scal") && xf_expr_is_var(u, b, h->i) &&
             !xf_expr_reads(u, a, h->i))
        h->st_x = u, h->st = a;
    else
        return false;
    if ((h->step == 0 && !h->st_x) || h->step == INT64_MIN)
        return false; /* INT64_MIN: the reversed loop's step, -step, is no int64_t */
    /* condition: i OP U */
    const xf_expr *c = v->cond;
    uint32_t cr = xf_expr_root(c);
    if (cr == UINT32_MAX || (c->v.v[cr].kind != XF_EV_BOOLOP && c->v.v[cr].kind != XF_EV_INTRINSIC))
        return false;
    const char *cop = c->v.v[cr].u.in.name;
    uint32_t ca = xf_expr_operand(c, cr, 1), cb = xf_expr_operand(c, cr, 2);
    if (ca == UINT32_MAX || cb == UINT32_MAX || !xf_expr_is_var(c, ca, h->i) ||
        xf_expr_reads(c, cb, h->i))
        return false;
    h->hi_x = c;
    h->hi = cb;
    int dir = h->step > 0 ? 1 : h->step < 0 ? -1 : 0; /* 0: S not a constant */
    if (!strcmp(cop, "not_equal") && strcmp(op, "add_scal_scal") != 0)
        return false; /* i != U with i = i - S is not a DO loop (see the interpreter) */
    if (!strcmp(cop, "not_equal") && !h->st_x)
        h->sign = dir; /* a DO loop with a constant stride */
    else if (!strcmp(cop, "not_equal"))
        h->sign = 0; /* DO with a run-time stride: either way */
    else if (!strcmp(cop, "less_or_equal") && dir >= 0)
        h->sign = 1;
    else if (!strcmp(cop, "less_than") && dir >= 0)
        h->sign = 1, h->adjust = -1;
    else if (!strcmp(cop, "greater_or_equal") && dir <= 0)
        h->sign = -1;
    else if (!strcmp(cop, "greater_than") && dir <= 0)
        h->sign = -1, h->adjust = 1;
    else
        return false;
    return h->lo != UINT32_MAX;
}

/* ------------------------------------------------------------ loop scope */

void
xf_loopscope_init(xf_loopscope *s, xf_arena *a)
{
    memset(s, 0, sizeof *s);
    s->a = a;
}

/* Add @d to the count of @r's loop variable, if @r is reversed explicitly. */
static bool
count(xf_loopscope *s, const xf_region *r, int d)
{
    if (r->kind != XF_RG_LOOP || !r->head)
        return true;
    uintptr_t n = (uintptr_t)xf_map_get(&s->count, r->head->i) + (uintptr_t)(intptr_t)d;
    return xf_map_put(&s->count, s->a, r->head->i, (void *)n, NULL);
}

bool
xf_loopscope_move(xf_loopscope *s, const xf_region *r)
{
    if (s->last && r->parent == s->last) {
        if (!XF_VEC_PUSH(s->a, s->open, s->last) || !count(s, s->last, 1))
            return false;
    }
    while (s->open.n && s->open.v[s->open.n - 1] != r->parent)
        if (!count(s, s->open.v[--s->open.n], -1))
            return false;
    s->last = r;
    return true;
}

bool
xf_loopscope_has(const xf_loopscope *s, const xf_symbol *sym)
{
    return xf_map_get(&s->count, sym) != NULL;
}
