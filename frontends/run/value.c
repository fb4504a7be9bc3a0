/* value.c: the interpreter's memory (pools), storage of variables, name
 * binding (locals, host association, statics, common blocks), element
 * addressing, and loads and stores with Fortran's conversions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/resource.h>

#include "rt.h"

/* ------------------------------------------------------------ faults */

_Noreturn void
rt_fault(rt *m, const char *fmt, ...)
{
    char msg[700], where[300] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    unsigned long line = 0;
    if (m->act) {
        const xf_stmt *s = m->act->stmt;
        int n = snprintf(where, sizeof where, "in %s", m->act->rt->name);
        if (s && n > 0 && (size_t)n < sizeof where) {
            n += snprintf(where + n, sizeof where - (size_t)n, ", statement %s",
                          s->id ? s->id : "(no id)");
            if (s->lineno != XF_NOINT && n > 0 && (size_t)n < sizeof where)
                snprintf(where + n, sizeof where - (size_t)n, " (lineNumber %lld)",
                         (long long)s->lineno);
            line = s->h.line;
        }
    }
    if (where[0])
        xf_error(m->diag, m->doc->filename, line, "%s: %s", where, msg);
    else
        xf_error(m->diag, m->doc->filename, line, "%s", msg);
    longjmp(*m->fault, 1);
}

_Noreturn void
rt_stack_fault(rt *m)
{
    struct rlimit rl;
    long kb = getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                  ? (long)(rl.rlim_cur / 1024)
                  : -1;
    rt_fault(m,
             "expressions and calls nested too deeply for the stack of %ld KB, at call depth %d "
             "(raise the limit with `ulimit -s`)",
             kb, m->depth);
}

/* ------------------------------------------------------------ pools */

struct rt_chunk {
    rt_chunk *prev;
    size_t size, used;
    max_align_t data[];
};

enum { CHUNK = 64 * 1024 };
#define ALIGN (_Alignof(max_align_t))

void *
rt_pool_alloc(rt *m, rt_pool *p, size_t bytes)
{
    if (bytes > SIZE_MAX / 2)
        rt_fault(m, "out of memory");
    bytes = (bytes + ALIGN - 1) & ~(ALIGN - 1);
    if (!bytes)
        bytes = ALIGN;
    rt_chunk *c = p->top;
    if (!c || c->size - c->used < bytes) {
        if (p->spare && p->spare->size >= bytes) {
            c = p->spare;
            p->spare = NULL;
        } else {
            size_t size = bytes > CHUNK ? bytes : CHUNK;
            c = malloc(sizeof(rt_chunk) + size);
            if (!c)
                rt_fault(m, "out of memory");
            c->size = size;
        }
        c->used = 0;
        c->prev = p->top;
        p->top = c;
    }
    void *r = (char *)c->data + c->used;
    c->used += bytes;
    memset(r, 0, bytes);
    return r;
}

rt_mark
rt_pool_mark(const rt_pool *p)
{
    return (rt_mark){p->top, p->top ? p->top->used : 0};
}

void
rt_pool_release(rt_pool *p, rt_mark mk)
{
    while (p->top != mk.c) {
        rt_chunk *c = p->top;
        p->top = c->prev;
        if (!p->spare || p->spare->size < c->size) {
            free(p->spare);
            p->spare = c;
        } else
            free(c);
    }
    if (p->top)
        p->top->used = mk.used;
}

void
rt_pool_free(rt_pool *p)
{
    rt_pool_release(p, (rt_mark){NULL, 0});
    free(p->spare);
    p->spare = NULL;
}

void *
rt_alloc(rt *m, size_t bytes)
{
    void *r = xf_arena_alloc(m->a, bytes);
    if (!r)
        rt_fault(m, "out of memory");
    return r;
}

void *
rt_tmp(rt *m, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        rt_fault(m, "out of memory");
    return rt_pool_alloc(m, &m->tmp, n * size);
}

/* ------------------------------------------------------------ storage */

rt_type
rt_type_of(const xf_symbol *s)
{
    switch (s->type) {
    case XF_TYPE_INTEGER:
        return RT_INT;
    case XF_TYPE_BOOL:
        return RT_BOOL;
    case XF_TYPE_STRING:
    case XF_TYPE_CHAR:
        return RT_STR;
    case XF_TYPE_NONE: /* the schema's default is real */
    case XF_TYPE_REAL:
    case XF_TYPE_DOUBLE:
    case XF_TYPE_COMPLEX:
    case XF_TYPE_OPAQUE:
    case XF_TYPE_VOID:
        break;
    }
    return RT_REAL;
}

static void
alloc_elems(rt *m, rt_pool *p, rt_store *st)
{
    size_t n = (size_t)st->n;
    switch (st->type) {
    case RT_REAL:
        st->v = p ? rt_pool_alloc(m, p, n * sizeof(double)) : rt_alloc(m, n * sizeof(double));
        st->d = p ? rt_pool_alloc(m, p, n * sizeof(double)) : rt_alloc(m, n * sizeof(double));
        break;
    case RT_INT:
        st->i = p ? rt_pool_alloc(m, p, n * sizeof(int64_t)) : rt_alloc(m, n * sizeof(int64_t));
        break;
    case RT_BOOL:
        st->b = p ? rt_pool_alloc(m, p, n * sizeof(bool)) : rt_alloc(m, n * sizeof(bool));
        break;
    case RT_STR:
        st->s = p ? rt_pool_alloc(m, p, n * sizeof(rt_str)) : rt_alloc(m, n * sizeof(rt_str));
        break;
    }
}

static int64_t
count(rt *m, int rank, const int64_t *ext)
{
    int64_t n = 1;
    for (int k = 0; k < rank; k++) {
        if (ext[k] < 0 || (ext[k] && n > INT64_MAX / 8 / ext[k]))
            rt_fault(m, "array too large");
        n *= ext[k];
    }
    if (n > RT_MAX_ELEMENTS)
        rt_fault(m,
                 "array of %lld elements is too large (at most %lld: the interpreter allocates "
                 "every element at once)",
                 (long long)n, (long long)RT_MAX_ELEMENTS);
    return n;
}

int64_t
rt_extent(rt *m, const char *name, const xf_dimbounds *b)
{
    if (b->lower == XF_NOINT || b->upper == XF_NOINT)
        rt_fault(m, "%s: incomplete dimension bounds", name);
    if (b->upper < b->lower)
        return 0;
    /* upper - lower + 1 without overflow: the bounds are within 2^62 of each other */
    if ((b->lower < 0 && b->upper > INT64_MAX / 2 + b->lower) ||
        b->upper - b->lower >= RT_MAX_ELEMENTS)
        rt_fault(m,
                 "%s: dimension bounds %lld:%lld: more than %lld elements (the interpreter "
                 "allocates every element at once)",
                 name, (long long)b->lower, (long long)b->upper, (long long)RT_MAX_ELEMENTS);
    return b->upper - b->lower + 1;
}

/* A store in @p (NULL: the run's arena); ext == NULL: an array whose shape is not known yet. */
static rt_store *
new_store(rt *m, rt_pool *p, rt_type t, int rank, const int64_t *lb, const int64_t *ext)
{
    rt_store *st = p ? rt_pool_alloc(m, p, sizeof *st) : rt_alloc(m, sizeof *st);
    st->type = t;
    st->rank = rank;
    if (rank > 0 && !ext)
        return st; /* not shaped, n = 0 */
    st->shaped = true;
    for (int k = 0; k < rank; k++) {
        st->lb[k] = lb ? lb[k] : 1;
        st->ext[k] = ext[k] < 0 ? 0 : ext[k];
    }
    st->n = count(m, rank, st->ext);
    alloc_elems(m, p, st);
    return st;
}

rt_store *
rt_store_new(rt *m, rt_type t, int rank, const int64_t *lb, const int64_t *ext)
{
    return new_store(m, NULL, t, rank, lb, ext);
}

/* Give @st (not shaped, or shaped anew) this shape, keeping the elements
 * that have the same subscripts. Storage comes from the run's arena. */
void
rt_store_shape(rt *m, rt_store *st, int rank, const int64_t *lb, const int64_t *ext)
{
    rt_store old = *st;
    st->rank = rank;
    st->shaped = true;
    for (int k = 0; k < rank; k++) {
        st->lb[k] = lb ? lb[k] : 1;
        st->ext[k] = ext[k] < 0 ? 0 : ext[k];
    }
    st->n = count(m, rank, st->ext);
    alloc_elems(m, NULL, st);
    if (!old.shaped || !old.n)
        return;
    int64_t sub[RT_MAXRANK];
    for (int64_t k = 0; k < old.n; k++) {
        int64_t r = k, at = 0, stride = 1;
        bool inside = true;
        for (int j = 0; j < old.rank; j++) {
            sub[j] = old.lb[j] + r % old.ext[j];
            r /= old.ext[j];
        }
        for (int j = 0; j < rank && j < old.rank; j++) {
            int64_t o = sub[j] - st->lb[j];
            if (o < 0 || o >= st->ext[j])
                inside = false;
            at += o * stride;
            stride *= st->ext[j];
        }
        if (!inside)
            continue;
        switch (st->type) {
        case RT_REAL:
            st->v[at] = old.v[k];
            st->d[at] = old.d[k];
            break;
        case RT_INT:
            st->i[at] = old.i[k];
            break;
        case RT_BOOL:
            st->b[at] = old.b[k];
            break;
        case RT_STR:
            st->s[at] = old.s[k];
            break;
        }
    }
}

rt_view *
rt_view_whole(rt *m, rt_store *st)
{
    rt_view *v = rt_alloc(m, sizeof *v);
    v->st = st;
    v->rank = st->rank;
    for (int k = 0; k < st->rank; k++) {
        v->lb[k] = st->lb[k];
        v->ext[k] = st->ext[k];
    }
    v->n = st->n;
    return v;
}

/* The declared shape of @s: rank, lower bounds, extents (from its
 * DimensionBounds, which list the last dimension first); false if the
 * symbol is an array without bounds. */
static bool
declared_shape(rt *m, const xf_symbol *s, int *rank, int64_t *lb, int64_t *ext)
{
    int r = xf_shape_rank(s->shape);
    if (r < 0)
        r = s->dims.n ? (int)s->dims.n : 0;
    if (r > RT_MAXRANK)
        rt_fault(m, "%s has rank %d; at most %d is supported", s->id, r, RT_MAXRANK);
    *rank = r;
    if (r == 0)
        return true;
    if (s->dims.n == 0)
        return false;
    if ((int)s->dims.n != r)
        rt_fault(m, "%s has shape %s but %u dimension bounds", s->id, xf_shape_name(s->shape),
                 s->dims.n);
    for (int k = 0; k < r; k++) {
        const xf_dimbounds *b = &s->dims.v[r - 1 - k];
        ext[k] = rt_extent(m, s->id, b);
        lb[k] = b->lower;
    }
    return true;
}

static rt_view *
make_view(rt *m, rt_pool *p, const xf_symbol *s, rt_store *st)
{
    rt_view *v = p ? rt_pool_alloc(m, p, sizeof *v) : rt_alloc(m, sizeof *v);
    v->name = s->id;
    v->st = st;
    v->rank = st->rank;
    for (int k = 0; k < st->rank; k++) {
        v->lb[k] = st->lb[k];
        v->ext[k] = st->ext[k];
    }
    v->n = st->n;
    return v;
}

/* A new variable for @s: zero, shaped as declared (or as learned earlier). */
static rt_view *
new_variable(rt *m, rt_pool *p, const xf_symbol *s, const rt_store *learned)
{
    int rank;
    int64_t lb[RT_MAXRANK], ext[RT_MAXRANK];
    rt_store *st;
    if (declared_shape(m, s, &rank, lb, ext))
        st = new_store(m, p, rt_type_of(s), rank, lb, ext);
    else if (learned && learned->shaped)
        st = new_store(m, p, rt_type_of(s), rank, learned->lb, learned->ext);
    else
        st = new_store(m, p, rt_type_of(s), rank, NULL, NULL);
    return make_view(m, p, s, st);
}

/* Common-block members and module variables are global symbols, one per
 * routine that uses them (G_29, G_35 for g of /cb/): one storage per name
 * without its trailing _<digits>. Symbols xaifBooster generated keep their own. */
static const char *
common_key(rt *m, const xf_symbol *s)
{
    if (xf_flag_is(s->temp, false) || strncmp(s->id, "OpenAD_", 7) == 0)
        return NULL;
    size_t n = strlen(s->id);
    size_t k = n;
    while (k > 0 && s->id[k - 1] >= '0' && s->id[k - 1] <= '9')
        k--;
    if (k == n || k < 2 || s->id[k - 1] != '_')
        return NULL;
    char buf[512];
    if (k - 1 >= sizeof buf)
        return NULL;
    memcpy(buf, s->id, k - 1);
    buf[k - 1] = 0;
    const char *key = xf_intern((xf_doc *)m->doc, buf);
    if (!key)
        rt_fault(m, "out of memory");
    return key;
}

rt_view *
rt_bind(rt *m, const xf_scope *scope, const xf_symbol *sym)
{
    rt_routine *owner = m->scope_owner[scope->index];
    if (owner && owner->callable) {
        rt_act *act = m->act && m->act->rt == owner ? m->act : owner->top;
        if (!act)
            rt_fault(m, "%s is a local of %s, which is not running", sym->id, owner->name);
        int32_t slot = m->slot[sym->index];
        if (act->views[slot] == &m->absent)
            rt_fault(m, "optional argument %s is not present", sym->id);
        if (!act->views[slot]) {
            /* a local of the running routine lives with its activation; one
             * of a host reached from an internal procedure, for the run */
            rt_pool *p = act == m->act ? &m->locals : NULL;
            const rt_store *learned = owner->saved_shape ? owner->saved_shape[slot] : NULL;
            act->views[slot] = new_variable(m, p, sym, learned);
        }
        return act->views[slot];
    }
    rt_view *v = m->statics[sym->index];
    if (v)
        return v;
    const char *key = scope->parent ? NULL : common_key(m, sym);
    if (key && (v = xf_map_get(&m->common, key))) {
        m->statics[sym->index] = v;
        return v;
    }
    v = new_variable(m, NULL, sym, NULL);
    m->statics[sym->index] = v;
    if (key && !xf_map_put(&m->common, m->a, key, v, NULL))
        rt_fault(m, "out of memory");
    return v;
}

/* ------------------------------------------------------------ elements */

int64_t
rt_view_index(rt *m, const rt_view *v, const int64_t *sub)
{
    int64_t k = 0, stride = 1;
    for (int j = 0; j < v->rank; j++) {
        int64_t o = sub[j] - v->lb[j];
        if (o < 0 || o >= v->ext[j])
            rt_fault(m, "subscript %lld of dimension %d of %s is out of its bounds %lld:%lld",
                     (long long)sub[j], j + 1, v->name ? v->name : "?", (long long)v->lb[j],
                     (long long)(v->lb[j] + v->ext[j] - 1));
        k += o * stride;
        stride *= v->ext[j];
    }
    return k;
}

int64_t
rt_storage(const rt_view *v, int64_t k)
{
    return v->map ? v->map[k] : v->off + k;
}

/* ------------------------------------------------------------ values */

rt_val
rt_scalar_real(double r)
{
    rt_val v = {.type = RT_REAL, .n = 1};
    v.sc.r = r;
    return v;
}

rt_val
rt_scalar_int(int64_t i)
{
    rt_val v = {.type = RT_INT, .n = 1};
    v.sc.i = i;
    return v;
}

rt_val
rt_scalar_bool(bool b)
{
    rt_val v = {.type = RT_BOOL, .n = 1};
    v.sc.b = b;
    return v;
}

rt_val
rt_array(rt *m, rt_type t, int rank, const int64_t *ext)
{
    rt_val v = {.type = t, .rank = rank};
    for (int k = 0; k < rank; k++)
        v.ext[k] = ext[k];
    v.n = count(m, rank, ext);
    size_t n = v.n ? (size_t)v.n : 1;
    switch (t) {
    case RT_REAL:
        v.r = rt_tmp(m, n, sizeof(double));
        break;
    case RT_INT:
        v.iv = rt_tmp(m, n, sizeof(int64_t));
        break;
    case RT_BOOL:
        v.bv = rt_tmp(m, n, sizeof(bool));
        break;
    case RT_STR:
        v.sv = rt_tmp(m, n, sizeof(rt_str));
        break;
    }
    return v;
}

double
rt_real_at(const rt_val *v, int64_t k)
{
    switch (v->type) {
    case RT_REAL:
        return v->rank ? v->r[k] : v->sc.r;
    case RT_INT:
        return (double)(v->rank ? v->iv[k] : v->sc.i);
    case RT_BOOL:
        return (v->rank ? v->bv[k] : v->sc.b) ? 1.0 : 0.0;
    case RT_STR:
        break;
    }
    return 0.0;
}

int64_t
rt_int_at(rt *m, const rt_val *v, int64_t k)
{
    switch (v->type) {
    case RT_INT:
        return v->rank ? v->iv[k] : v->sc.i;
    case RT_REAL: {
        double r = v->rank ? v->r[k] : v->sc.r;
        if (!(r > -9.2e18 && r < 9.2e18))
            rt_fault(m, "the real %g has no integer value", r);
        return (int64_t)r; /* truncation toward zero, as Fortran's INT */
    }
    case RT_BOOL:
        return (v->rank ? v->bv[k] : v->sc.b) ? 1 : 0;
    case RT_STR:
        break;
    }
    rt_fault(m, "a string where a number belongs");
}

bool
rt_bool_at(rt *m, const rt_val *v, int64_t k)
{
    switch (v->type) {
    case RT_BOOL:
        return v->rank ? v->bv[k] : v->sc.b;
    case RT_INT:
        return (v->rank ? v->iv[k] : v->sc.i) != 0;
    case RT_REAL:
        return (v->rank ? v->r[k] : v->sc.r) != 0.0;
    case RT_STR:
        break;
    }
    rt_fault(m, "a string where a logical belongs");
}

rt_str
rt_str_at(const rt_val *v, int64_t k)
{
    if (v->type != RT_STR)
        return (rt_str){NULL, 0};
    return v->rank ? v->sv[k] : v->sc.s;
}

rt_val
rt_load(rt *m, const rt_lval *lv)
{
    const rt_store *st = lv->view->st;
    rt_type t = st->type;
    if (lv->deriv && t != RT_REAL)
        rt_fault(m, "%s has no derivative component", lv->view->name);
    rt_val v;
    if (lv->substr) {
        rt_str s = st->s[lv->idx[0]];
        v = (rt_val){.type = RT_STR, .n = 1};
        int64_t n = lv->sub_hi - lv->sub_lo + 1;
        if (n < 0)
            n = 0;
        char *p = rt_tmp(m, (size_t)n + 1, 1);
        for (int64_t k = 0; k < n; k++) /* beyond the string's end: blanks */
            p[k] = lv->sub_lo - 1 + k < s.len ? s.p[lv->sub_lo - 1 + k] : ' ';
        v.sc.s = (rt_str){p, n};
        return v;
    }
    if (lv->rank == 0) {
        int64_t at = lv->idx[0];
        v = (rt_val){.type = t, .n = 1};
        switch (t) {
        case RT_REAL:
            v.sc.r = lv->deriv ? st->d[at] : st->v[at];
            break;
        case RT_INT:
            v.sc.i = st->i[at];
            break;
        case RT_BOOL:
            v.sc.b = st->b[at];
            break;
        case RT_STR:
            v.sc.s = st->s[at];
            break;
        }
        return v;
    }
    v = rt_array(m, t, lv->rank, lv->ext);
    for (int64_t k = 0; k < lv->n; k++) {
        int64_t at = lv->idx[k];
        switch (t) {
        case RT_REAL:
            v.r[k] = lv->deriv ? st->d[at] : st->v[at];
            break;
        case RT_INT:
            v.iv[k] = st->i[at];
            break;
        case RT_BOOL:
            v.bv[k] = st->b[at];
            break;
        case RT_STR:
            v.sv[k] = st->s[at];
            break;
        }
    }
    return v;
}

void
rt_store_val(rt *m, const rt_lval *lv, const rt_val *v)
{
    rt_store *st = lv->view->st;
    if (lv->deriv && st->type != RT_REAL)
        rt_fault(m, "%s has no derivative component", lv->view->name);
    if (v->rank > 0 && v->n != lv->n)
        rt_fault(m, "assigning %lld elements to %lld elements of %s", (long long)v->n,
                 (long long)lv->n, lv->view->name);
    if ((st->type == RT_STR) != (v->type == RT_STR))
        rt_fault(m, "assigning a %s to %s", v->type == RT_STR ? "string" : "number",
                 lv->view->name);
    if (lv->substr) { /* s(lo:hi) = v: v padded with blanks or cut to hi-lo+1 */
        rt_str old = st->s[lv->idx[0]], val = rt_str_at(v, 0);
        int64_t len = old.len > lv->sub_hi ? old.len : lv->sub_hi;
        rt_str c = {rt_alloc(m, (size_t)len + 1), len};
        for (int64_t k = 0; k < len; k++)
            c.p[k] = k < old.len ? old.p[k] : ' ';
        for (int64_t k = lv->sub_lo - 1; k < lv->sub_hi; k++) {
            int64_t from = k - (lv->sub_lo - 1);
            c.p[k] = from < val.len ? val.p[from] : ' ';
        }
        st->s[lv->idx[0]] = c;
        return;
    }
    for (int64_t k = 0; k < lv->n; k++) {
        int64_t at = lv->idx[k], from = v->rank ? k : 0;
        switch (st->type) {
        case RT_REAL:
            (lv->deriv ? st->d : st->v)[at] = rt_real_at(v, from);
            break;
        case RT_INT:
            st->i[at] = rt_int_at(m, v, from);
            break;
        case RT_BOOL:
            st->b[at] = rt_bool_at(m, v, from);
            break;
        case RT_STR: {
            rt_str s = rt_str_at(v, from);
            rt_str c = {rt_alloc(m, (size_t)s.len + 1), s.len};
            if (s.len)
                memcpy(c.p, s.p, (size_t)s.len);
            st->s[at] = c;
            break;
        }
        }
    }
}

bool
rt_bind_present(rt *m, const xf_scope *scope, const xf_symbol *sym)
{
    rt_routine *owner = m->scope_owner[scope->index];
    if (!owner || !owner->callable)
        return true;
    rt_act *act = m->act && m->act->rt == owner ? m->act : owner->top;
    return !act || act->views[m->slot[sym->index]] != &m->absent;
}

/* Remember the shape an array without bounds took, for later activations
 * of its routine (§1.3 rule 6). */
void
rt_learn_shape(rt *m, const xf_varref *r, const rt_store *st)
{
    const xf_symref *s = xf_varref_symref(r);
    if (!s || !s->scope || !s->sym || !st->shaped)
        return;
    rt_routine *owner = m->scope_owner[s->scope->index];
    if (!owner || !owner->saved_shape)
        return;
    rt_store *keep = rt_alloc(m, sizeof *keep);
    *keep = *st;
    keep->v = keep->d = NULL;
    keep->i = NULL;
    keep->b = NULL;
    keep->s = NULL;
    owner->saved_shape[m->slot[s->sym->index]] = keep;
}
