/* test_walk.c: the walk over references and their subscripts (xf_walk_ref,
 * xf_walk_expr) and the signatures of references (xf_ref_sig, xf_expr_sig,
 * xf_refs_alike) in transforms/util.c, on references built by hand: the
 * order of the steps written out, nestings deeper than the walk's frames in
 * place and than the old caps (50 and 64), early stops, and signatures of
 * references longer than the old buffers (512 and 1024 bytes). */
#include <stdio.h>
#include <string.h>

#include "build.h"
#include "pass.h"
#include "suites.h"

static xf_doc *doc;

static void
setup(void)
{
    doc = xf_doc_new("walk.xaif");
    ck_assert_ptr_nonnull(doc);
}

static void
teardown(void)
{
    xf_doc_free(doc);
}

/* A symbol of its own (no scope: neither the walk nor the signature reads one). */
static xf_symbol *
sym(const char *id)
{
    xf_symbol *s = XF_NEW(doc->arena, xf_symbol);
    ck_assert_ptr_nonnull(s);
    s->id = xf_intern(doc, id);
    return s;
}

/* An expression of one reference (taken). */
static xf_expr *
ref_expr(xf_varref *r)
{
    xf_expr *x = XF_NEW(doc->arena, xf_expr);
    ck_assert_ptr_nonnull(x);
    ck_assert_uint_ne(xf_expr_ref(doc, x, r), UINT32_MAX);
    return x;
}

static xf_expr *
int_expr(int64_t v)
{
    xf_expr *x = XF_NEW(doc->arena, xf_expr);
    ck_assert_ptr_nonnull(x);
    ck_assert_uint_ne(xf_expr_int(doc, x, v), UINT32_MAX);
    return x;
}

/* Append to @r a dimension index:bound:stride (each may be NULL). */
static void
dim(xf_varref *r, xf_expr *index, xf_expr *bound, xf_expr *stride)
{
    if (r->v.n == 1) {
        xf_vrvertex v = {.kind = XF_VR_ARRAY, .seq = 1};
        ck_assert(XF_VEC_PUSH(doc->arena, r->v, v));
        xf_vredge e = {.src = 0, .tgt = 1};
        ck_assert(XF_VEC_PUSH(doc->arena, r->e, e));
    }
    xf_triplet t = {.index = index, .bound = bound, .stride = stride};
    ck_assert(XF_VEC_PUSH(doc->arena, r->v.v[1].u.arr.t, t));
}

/* s(s(...s(leaf)...)), @n times s. */
static xf_varref *
chain(xf_symbol *s, xf_symbol *leaf, unsigned n)
{
    xf_varref *r = xf_ref_new(doc, leaf);
    ck_assert_ptr_nonnull(r);
    for (unsigned k = 0; k < n; k++) {
        xf_varref *up = xf_ref_new(doc, s);
        ck_assert_ptr_nonnull(up);
        dim(up, ref_expr(r), NULL, NULL);
        r = up;
    }
    return r;
}

/* ------------------------------------------------------------ the steps, written */

typedef struct steplog {
    char text[1024];
    unsigned steps, max_depth;
    const char *stop_at; /* stop at this symbol's first step */
    const char *skip_at; /* skip this symbol's subscripts */
} steplog;

static const char *
name_of(const xf_varref *r)
{
    const xf_symref *s = xf_varref_symref(r);
    return s && s->sym ? s->sym->id : "?";
}

/* Each step as NAME<depth>: a reference's variable, "call" or "arg";
 * "/" before a second step; "*" after a call's argument, "+" after a
 * reference in an argument's subscripts. */
static xf_walk_go
log_step(void *ctx, const xf_walk_step *s)
{
    steplog *l = ctx;
    const char *name = s->ref                             ? name_of(s->ref)
                       : s->vertex->kind == XF_EV_FUNCALL ? "call"
                                                          : "argref";
    const char *mark = s->ref && s->in_arg ? (s->vertex ? "+" : "*") : "";
    size_t n = strlen(l->text);
    snprintf(l->text + n, sizeof l->text - n, "%s%s%s%u", n ? " " : "", s->after ? "/" : "", name,
             s->depth);
    n = strlen(l->text);
    snprintf(l->text + n, sizeof l->text - n, "%s", mark);
    l->steps++;
    if (s->depth > l->max_depth)
        l->max_depth = s->depth;
    if (!s->after && l->stop_at && !strcmp(name, l->stop_at))
        return XF_WALK_STOP;
    if (!s->after && l->skip_at && !strcmp(name, l->skip_at))
        return XF_WALK_SKIP;
    return XF_WALK_GO;
}

/* A(i + B(m) + f(C(p)), k:n:2), the operations' vertices last:
 * index vertices i, B(m), the call f(C(p)), then the operations. */
static xf_varref *
sample(void)
{
    xf_varref *b = xf_ref_new(doc, sym("B"));
    dim(b, ref_expr(xf_ref_new(doc, sym("m"))), NULL, NULL);
    xf_varref *c = xf_ref_new(doc, sym("C"));
    dim(c, ref_expr(xf_ref_new(doc, sym("p"))), NULL, NULL);

    xf_expr *ix = XF_NEW(doc->arena, xf_expr);
    uint32_t vi = xf_expr_ref(doc, ix, xf_ref_new(doc, sym("i")));
    uint32_t vb = xf_expr_ref(doc, ix, b);
    xf_evertex call = {.kind = XF_EV_FUNCALL};
    ck_assert(XF_VEC_PUSH(doc->arena, call.u.fn.args, c));
    ck_assert(XF_VEC_PUSH(doc->arena, ix->v, call));
    uint32_t vf = ix->v.n - 1;
    uint32_t s1 = xf_expr_binary(doc, ix, "add_scal_scal", vi, vb);
    ck_assert_uint_ne(xf_expr_binary(doc, ix, "add_scal_scal", s1, vf), UINT32_MAX);

    xf_varref *a = xf_ref_new(doc, sym("A"));
    dim(a, ix, NULL, NULL);
    dim(a, ref_expr(xf_ref_new(doc, sym("k"))), ref_expr(xf_ref_new(doc, sym("n"))), int_expr(2));
    return a;
}

START_TEST(steps_in_order)
{
    xf_varref *a = sample();
    steplog l = {.text = ""};
    ck_assert_int_eq(xf_walk_ref(a, XF_WALK_ARGS, log_step, &l), 0);
    ck_assert_str_eq(l.text, "A0 i1 B1 m2 call1 C1* p2+ k1 n1");

    memset(&l, 0, sizeof l);
    ck_assert_int_eq(xf_walk_ref(a, XF_WALK_ARGS | XF_WALK_AFTER, log_step, &l), 0);
    ck_assert_str_eq(l.text, "A0 i1 /i1 B1 m2 /m2 /B1 call1 C1* p2+ /p2+ /C1* /call1 k1 /k1 n1 "
                             "/n1 /A0");

    /* without the arguments; the subscripts alone */
    memset(&l, 0, sizeof l);
    ck_assert_int_eq(xf_walk_ref(a, XF_WALK_AFTER | XF_WALK_SUBSCRIPTS, log_step, &l), 0);
    ck_assert_str_eq(l.text, "i1 /i1 B1 m2 /m2 /B1 call1 /call1 k1 /k1 n1 /n1");

    /* the expression of the first subscript, from the top */
    memset(&l, 0, sizeof l);
    ck_assert_int_eq(xf_walk_expr(a->v.v[1].u.arr.t.v[0].index, XF_WALK_ARGS, log_step, &l), 0);
    ck_assert_str_eq(l.text, "i0 B0 m1 call0 C0* p1+");

    /* nothing to walk */
    memset(&l, 0, sizeof l);
    ck_assert_int_eq(xf_walk_ref(NULL, XF_WALK_ARGS, log_step, &l), 0);
    ck_assert_int_eq(xf_walk_expr(NULL, XF_WALK_ARGS, log_step, &l), 0);
    ck_assert_uint_eq(l.steps, 0);
}
END_TEST

START_TEST(stop_and_skip)
{
    xf_varref *a = sample();
    steplog l = {.text = "", .stop_at = "m"};
    ck_assert_int_eq(xf_walk_ref(a, XF_WALK_ARGS | XF_WALK_AFTER, log_step, &l), 1);
    ck_assert_str_eq(l.text, "A0 i1 /i1 B1 m2");

    /* B's subscripts skipped (its second step at once), C's call not entered */
    memset(&l, 0, sizeof l);
    l.skip_at = "B";
    ck_assert_int_eq(xf_walk_ref(a, XF_WALK_ARGS | XF_WALK_AFTER, log_step, &l), 0);
    ck_assert_str_eq(l.text, "A0 i1 /i1 B1 /B1 call1 C1* p2+ /p2+ /C1* /call1 k1 /k1 n1 /n1 /A0");
    memset(&l, 0, sizeof l);
    l.skip_at = "call";
    ck_assert_int_eq(xf_walk_ref(a, XF_WALK_ARGS, log_step, &l), 0);
    ck_assert_str_eq(l.text, "A0 i1 B1 m2 call1 k1 n1");

    /* the first step can stop it */
    memset(&l, 0, sizeof l);
    l.stop_at = "A";
    ck_assert_int_eq(xf_walk_ref(a, XF_WALK_ARGS | XF_WALK_AFTER, log_step, &l), 1);
    ck_assert_str_eq(l.text, "A0");
}
END_TEST

/* ------------------------------------------------------------ deep nesting */

typedef struct deep {
    unsigned steps, afters, max_depth, last_depth;
    bool ordered;   /* each first step one deeper than the one before */
    unsigned leafd; /* the depth of the leaf's step */
    unsigned stop;  /* stop at this depth (0: never) */
} deep;

static xf_walk_go
deep_step(void *ctx, const xf_walk_step *s)
{
    deep *d = ctx;
    if (s->after) {
        d->ordered = d->ordered && s->depth + 1 == d->last_depth;
        d->last_depth = s->depth;
        d->afters++;
        return XF_WALK_GO;
    }
    d->ordered = d->ordered && s->depth == d->steps;
    d->steps++;
    d->last_depth = s->depth + 1;
    if (s->depth > d->max_depth)
        d->max_depth = s->depth;
    if (!strcmp(name_of(s->ref), "i"))
        d->leafd = s->depth;
    return d->stop && s->depth == d->stop ? XF_WALK_STOP : XF_WALK_GO;
}

START_TEST(nesting_deeper_than_any_cap)
{
    enum { N = 1000 }; /* past the old caps (50, 64, 100) and the 32 frames in place */
    xf_varref *r = chain(sym("a"), sym("i"), N);
    deep d = {.ordered = true};
    ck_assert_int_eq(xf_walk_ref(r, XF_WALK_ARGS, deep_step, &d), 0);
    ck_assert_uint_eq(d.steps, N + 1);
    ck_assert_uint_eq(d.max_depth, N);
    ck_assert_uint_eq(d.leafd, N);
    ck_assert(d.ordered);

    /* second steps innermost first, back to the top */
    memset(&d, 0, sizeof d);
    d.ordered = true;
    ck_assert_int_eq(xf_walk_ref(r, XF_WALK_AFTER, deep_step, &d), 0);
    ck_assert_uint_eq(d.steps, N + 1);
    ck_assert_uint_eq(d.afters, N + 1);
    ck_assert_uint_eq(d.last_depth, 0);
    ck_assert(d.ordered);

    /* a stop deep down, with the stack on the heap (nothing leaks) */
    memset(&d, 0, sizeof d);
    d.ordered = true;
    d.stop = 700;
    ck_assert_int_eq(xf_walk_expr(ref_expr(r), XF_WALK_AFTER, deep_step, &d), 1);
    ck_assert_uint_eq(d.steps, 701);
    ck_assert_uint_eq(d.afters, 0);
    ck_assert_uint_eq(d.leafd, 0);
}
END_TEST

/* ------------------------------------------------------------ signatures */

START_TEST(signatures_of_alike_references)
{
    xf_symbol *a = sym("a"), *i = sym("i"), *j = sym("j");
    xf_varref *r1 = xf_ref_new(doc, a), *r2 = xf_ref_new(doc, a), *r3 = xf_ref_new(doc, a);
    dim(r1, ref_expr(xf_ref_new(doc, i)), NULL, NULL);
    dim(r2, ref_expr(xf_ref_new(doc, i)), NULL, NULL);
    dim(r3, ref_expr(xf_ref_new(doc, j)), NULL, NULL);
    const char *s1 = xf_ref_sig(doc, r1), *s2 = xf_ref_sig(doc, r2), *s3 = xf_ref_sig(doc, r3);
    ck_assert_ptr_nonnull(s1);
    ck_assert_ptr_eq(s1, s2); /* interned: alike is == */
    ck_assert_ptr_ne(s1, s3);
    ck_assert(xf_refs_alike(r1, r2));
    ck_assert(!xf_refs_alike(r1, r3));

    /* a(i) against a(i:), a(i::), the whole of a */
    xf_varref *r4 = xf_ref_new(doc, a), *r5 = xf_ref_new(doc, a);
    dim(r4, ref_expr(xf_ref_new(doc, i)), int_expr(3), NULL);
    dim(r5, ref_expr(xf_ref_new(doc, i)), NULL, int_expr(3));
    const char *s4 = xf_ref_sig(doc, r4), *s5 = xf_ref_sig(doc, r5);
    ck_assert(s4 != s1 && s5 != s1 && s4 != s5);
    ck_assert_ptr_ne(xf_ref_sig(doc, xf_ref_new(doc, a)), s1);

    /* operands by position, whatever the order of the edges */
    xf_expr *x = XF_NEW(doc->arena, xf_expr), *y = XF_NEW(doc->arena, xf_expr);
    uint32_t xi = xf_expr_ref(doc, x, xf_ref_new(doc, i)),
             xj = xf_expr_ref(doc, x, xf_ref_new(doc, j));
    ck_assert_uint_ne(xf_expr_binary(doc, x, "sub_scal_scal", xi, xj), UINT32_MAX);
    uint32_t yj = xf_expr_ref(doc, y, xf_ref_new(doc, j)),
             yi = xf_expr_ref(doc, y, xf_ref_new(doc, i));
    uint32_t o = xf_expr_op(doc, y, XF_EV_INTRINSIC, "sub_scal_scal");
    ck_assert(xf_expr_edge(doc, y, yj, o, 2) && xf_expr_edge(doc, y, yi, o, 1));
    ck_assert_ptr_eq(xf_expr_sig(doc, x), xf_expr_sig(doc, y));
    xf_expr *z = XF_NEW(doc->arena, xf_expr);
    uint32_t zj = xf_expr_ref(doc, z, xf_ref_new(doc, j)),
             zi = xf_expr_ref(doc, z, xf_ref_new(doc, i));
    ck_assert_uint_ne(xf_expr_binary(doc, z, "sub_scal_scal", zj, zi), UINT32_MAX);
    ck_assert_ptr_ne(xf_expr_sig(doc, x), xf_expr_sig(doc, z));
}
END_TEST

/* The text itself: each variable as its address (%p), subscripts as
 * index:bound:stride, operations as name[operands] by position. */
START_TEST(signature_text)
{
    xf_symbol *a = sym("a"), *i = sym("i"), *k = sym("k"), *n = sym("n");
    xf_varref *r = xf_ref_new(doc, a);
    xf_expr *x = XF_NEW(doc->arena, xf_expr);
    uint32_t two = xf_expr_int(doc, x, 2), vi = xf_expr_ref(doc, x, xf_ref_new(doc, i));
    uint32_t o = xf_expr_op(doc, x, XF_EV_INTRINSIC, "sub_scal_scal");
    ck_assert(xf_expr_edge(doc, x, two, o, 2) && xf_expr_edge(doc, x, vi, o, 1));
    dim(r, x, NULL, NULL);
    dim(r, ref_expr(xf_ref_new(doc, k)), ref_expr(xf_ref_new(doc, n)), int_expr(3));
    dim(r, NULL, NULL, NULL);
    char want[256];
    snprintf(want, sizeof want, "%p(sub_scal_scal[%p,2],%p:%p:3,::)", (void *)a, (void *)i,
             (void *)k, (void *)n);
    ck_assert_str_eq(xf_ref_sig(doc, r), want);
    snprintf(want, sizeof want, "sub_scal_scal[%p,2]", (void *)i);
    ck_assert_str_eq(xf_expr_sig(doc, x), want);
}
END_TEST

START_TEST(long_references_have_one_signature)
{
    /* a(123456789, ..., 123456789, k), 200 dimensions: about 2 000 bytes,
     * past both old buffers (512, 1024 bytes) */
    xf_symbol *a = sym("a"), *k = sym("k"), *m = sym("m");
    xf_varref *r = xf_ref_new(doc, a), *q = xf_ref_new(doc, a);
    for (int d = 0; d < 199; d++) {
        xf_expr *c1 = XF_NEW(doc->arena, xf_expr), *c2 = XF_NEW(doc->arena, xf_expr);
        ck_assert_uint_ne(xf_expr_const(doc, c1, XF_TYPE_INTEGER, "123456789"), UINT32_MAX);
        ck_assert_uint_ne(xf_expr_const(doc, c2, XF_TYPE_INTEGER, "123456789"), UINT32_MAX);
        dim(r, c1, NULL, NULL);
        dim(q, c2, NULL, NULL);
    }
    dim(r, ref_expr(xf_ref_new(doc, k)), NULL, NULL);
    dim(q, ref_expr(xf_ref_new(doc, k)), NULL, NULL);
    const char *s = xf_ref_sig(doc, r);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_gt(strlen(s), 1024);
    /* the same in each use: a copy, another reference written alike */
    xf_varref *copy = xf_ref_dup(doc, r);
    ck_assert_ptr_eq(xf_ref_sig(doc, copy), s);
    ck_assert_ptr_eq(xf_ref_sig(doc, q), s);
    ck_assert_ptr_eq(xf_ref_sig(doc, r), s);
    ck_assert(xf_refs_alike(r, q));
    /* the last subscript tells them apart */
    q->v.v[1].u.arr.t.v[199].index = ref_expr(xf_ref_new(doc, m));
    ck_assert_ptr_ne(xf_ref_sig(doc, q), s);
    ck_assert(!xf_refs_alike(r, q));
}
END_TEST

START_TEST(deep_references_are_told_apart)
{
    /* a(a(...a(i)...)) against a(a(...a(j)...)), 300 deep: the old cap (50)
     * gave both the same signature */
    xf_symbol *a = sym("a");
    xf_varref *ri = chain(a, sym("i"), 300), *rj = chain(a, sym("j"), 300);
    const char *si = xf_ref_sig(doc, ri), *sj = xf_ref_sig(doc, rj);
    ck_assert_ptr_nonnull(si);
    ck_assert_ptr_nonnull(sj);
    ck_assert_ptr_ne(si, sj);
    ck_assert(!xf_refs_alike(ri, rj));
    ck_assert_ptr_eq(xf_ref_sig(doc, xf_ref_dup(doc, ri)), si);
}
END_TEST

Suite *
test_walk_suite(void)
{
    Suite *s = suite_create("walk");
    TCase *t = tcase_create("walk");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, steps_in_order);
    tcase_add_test(t, stop_and_skip);
    tcase_add_test(t, nesting_deeper_than_any_cap);
    suite_add_tcase(s, t);
    t = tcase_create("signature");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, signatures_of_alike_references);
    tcase_add_test(t, signature_text);
    tcase_add_test(t, long_references_have_one_signature);
    tcase_add_test(t, deep_references_are_told_apart);
    suite_add_tcase(s, t);
    return s;
}
