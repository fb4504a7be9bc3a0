/* xaiform/ad.h: the run-time support of the C that `xaiform xaif2c` writes.
 * Header-only: include it, compile with -std=c99 and link -lm; nothing else.
 *
 * What is here:
 *  - stacks of doubles and of longs that grow without a fixed limit (the
 *    adjoint's tapes and its argument checkpoints), and the mode record
 *    that routes an adjoint routine's pieces (OpenAD's joint and split
 *    templates): xf_ad_state();
 *  - the arithmetic that C lacks in the form Fortran defines it: x**n by
 *    binary powering, SIGN, MIN and MAX as xaif's catalogue defines them.
 *
 * The state is one static object per translation unit (the generated file,
 * xf_ad_s; xf_ad_state() returns it); xf_ad_release() frees the tapes'
 * memory. Not thread-safe: one adjoint at a time per translation unit.
 *
 * A push costs a store and a compare: each stack is one contiguous buffer
 * that doubles when full (the growth out of line); xf_ad_reserve makes room
 * for a known number of pushes at once, after which xf_ad_push_nc stores
 * without a check. Compiled with -DXF_AD_CHECK, every pop checks that its
 * stack is not empty and every unchecked push that the room was reserved,
 * and the most words on the tapes at once are kept (xf_ad_peak()).
 *
 * Out of memory, or (with XF_AD_CHECK) a pop from an empty stack (a tape
 * out of step with its code), prints a message and aborts: generated code
 * has nothing to return an error to. */
#ifndef XAIFORM_AD_H
#define XAIFORM_AD_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stack of doubles. */
typedef struct xf_ad_rstack {
    double *v;
    size_t n, cap;
#ifdef XF_AD_CHECK
    size_t lim; /* the end of the room xf_ad_reserve made */
#endif
} xf_ad_rstack;

/* A stack of longs (integers and logicals). */
typedef struct xf_ad_istack {
    long *v;
    size_t n, cap;
#ifdef XF_AD_CHECK
    size_t lim; /* the end of the room xf_ad_reserve made */
#endif
} xf_ad_istack;

/* Snapshots (ckp_* in docs/checkpointing.md): frames of words, each frame
 * opened by the step it was taken at. */
typedef union xf_ad_word {
    double r;
    long i;
} xf_ad_word;

typedef struct xf_ad_snaps {
    xf_ad_word *w; /* the words of every frame, oldest first */
    size_t n, cap;
    size_t *start; /* per frame: the index of its first word (the step) */
    size_t nf, capf;
    size_t cursor; /* the next word a restore reads */
} xf_ad_snaps;

/* OpenAD's mode record (OAD_rev.f90): which pieces of a routine run. */
typedef struct xf_ad_mode {
    int arg_store, arg_restore, res_store, res_restore, plain, tape, adjoint;
} xf_ad_mode;

typedef struct xf_ad_state_t {
    xf_ad_rstack tape, cp;   /* the tape of values; argument checkpoints */
    xf_ad_istack itape, icp; /* ... of integers */
    xf_ad_snaps snap;        /* snapshots of loop iterations and steps */
    xf_ad_mode mode;
    size_t peak; /* most words on the tapes at once (XF_AD_CHECK) */
} xf_ad_state_t;

/* The state of this translation unit; generated code names it directly. */
static xf_ad_state_t xf_ad_s;

static inline xf_ad_state_t *
xf_ad_state(void)
{
    return &xf_ad_s;
}

#if defined(__GNUC__)
#define XF_AD_LIKELY(c) __builtin_expect(!!(c), 1)
#define XF_AD_COLD __attribute__((noinline, cold))
#else
#define XF_AD_LIKELY(c) (c)
#define XF_AD_COLD
#endif

static inline void
xf_ad_fail(const char *what)
{
    fprintf(stderr, "xaiform/ad.h: %s\n", what);
    abort();
}

/* Blocks of xf_ad_zeros given back by xf_ad_drop, kept for the next
 * calls: a derivative that allocates its work arrays on every call and
 * frees them all at its end leaves the heap's top free, which glibc gives
 * back to the system and takes again on the next call (a brk each way and
 * the pages faulted in anew: kernel time that the instruction counts do
 * not show; ADBench hand's tangent spent 0.82 ms a call so against 0.30
 * ms with them kept). Each block carries its capacity in the double
 * before it. At most XF_AD_KEEP blocks are kept, until xf_ad_release(). */
#ifndef XF_AD_KEEP
#define XF_AD_KEEP 32
#endif
static struct {
    double *p[XF_AD_KEEP];
    int k;
} xf_ad_kept;

/* the capacity of a block as kept (its start, before the zeros) */
static inline size_t
xf_ad_cap(const double *b)
{
    size_t c;
    memcpy(&c, b, sizeof c);
    return c;
}

/* @n zeros (at least one), from the heap: the derivative of a passive array
 * passed to an active formal whose size is known only at run time, a work
 * array; given back by xf_ad_drop only. The smallest kept block that holds
 * them, or malloc's memory: malloc and memset, not calloc (glibc's calloc
 * skips the per-thread cache, nine times malloc's cost for a small block). */
static inline double *
xf_ad_zeros(long n)
{
    size_t k = (size_t)(n > 0 ? n : 1);
    int best = -1;
    for (int i = 0; i < xf_ad_kept.k; i++)
        if (xf_ad_cap(xf_ad_kept.p[i]) >= k &&
            (best < 0 || xf_ad_cap(xf_ad_kept.p[i]) < xf_ad_cap(xf_ad_kept.p[best])))
            best = i;
    double *z;
    if (best >= 0) {
        z = xf_ad_kept.p[best] + 1;
        xf_ad_kept.p[best] = xf_ad_kept.p[--xf_ad_kept.k];
    } else {
        double *b = k < (size_t)-1 / sizeof *b - 1 ? malloc((k + 1) * sizeof *b) : NULL;
        if (!b)
            xf_ad_fail("out of memory for a zero derivative");
        memcpy(b, &k, sizeof k);
        z = b + 1;
    }
    memset(z, 0, k * sizeof *z);
    return z;
}

/* gives back a block of xf_ad_zeros: kept for the next call while there is
 * room, else freed */
static inline void
xf_ad_drop(double *z)
{
    if (!z)
        return;
    if (xf_ad_kept.k < XF_AD_KEEP)
        xf_ad_kept.p[xf_ad_kept.k++] = z - 1; /* the block's start: a leak checker sees it held */
    else
        free(z - 1);
}

/* @n int zeros (at least one), from the heap: an int array sized at run time
 * (an int member of a local array of structs). */
static inline int *
xf_ad_izeros(long n)
{
    int *z = calloc((size_t)(n > 0 ? n : 1), sizeof *z);
    if (!z)
        xf_ad_fail("out of memory for an int array");
    return z;
}

/* Room for @more elements beyond @n in a stack of @size-byte elements:
 * the capacity doubled (at least 1024) until they fit. */
static XF_AD_COLD void *
xf_ad_grow_to(void *v, size_t n, size_t more, size_t *cap, size_t size)
{
    size_t c = *cap ? *cap : 1024;
    if (more > (size_t)-1 / 2 / size - n)
        xf_ad_fail("a tape too large for memory");
    while (c < n + more)
        c *= 2;
    void *nv = realloc(v, c * size);
    if (!nv)
        xf_ad_fail("out of memory for a tape");
    *cap = c;
    return nv;
}

/* Room for one more element in a stack of @size-byte elements (full now). */
static inline void *
xf_ad_grow(void *v, size_t *cap, size_t size)
{
    return xf_ad_grow_to(v, *cap, 1, cap, size);
}

#ifdef XF_AD_CHECK
static inline void
xf_ad_note_peak(void)
{
    size_t n = xf_ad_s.tape.n + xf_ad_s.itape.n;
    if (n > xf_ad_s.peak)
        xf_ad_s.peak = n;
}

/* Most words on the tapes at once (since xf_ad_release). */
static inline size_t
xf_ad_peak(void)
{
    return xf_ad_s.peak;
}
#define XF_AD_NOTE_PEAK() xf_ad_note_peak()
#else
#define XF_AD_NOTE_PEAK() ((void)0)
#endif

/* Room for @k more pushes on a stack of reals (then xf_ad_push_nc). */
static inline void
xf_ad_reserve(xf_ad_rstack *s, long k)
{
    size_t m = k > 0 ? (size_t)k : 0;
    if (!XF_AD_LIKELY(s->cap - s->n >= m))
        s->v = (double *)xf_ad_grow_to(s->v, s->n, m, &s->cap, sizeof *s->v);
#ifdef XF_AD_CHECK
    s->lim = s->n + m;
#endif
}

static inline void
xf_ad_ireserve(xf_ad_istack *s, long k)
{
    size_t m = k > 0 ? (size_t)k : 0;
    if (!XF_AD_LIKELY(s->cap - s->n >= m))
        s->v = (long *)xf_ad_grow_to(s->v, s->n, m, &s->cap, sizeof *s->v);
#ifdef XF_AD_CHECK
    s->lim = s->n + m;
#endif
}

static inline void
xf_ad_push(xf_ad_rstack *s, double x)
{
    if (!XF_AD_LIKELY(s->n < s->cap))
        s->v = (double *)xf_ad_grow(s->v, &s->cap, sizeof *s->v);
    s->v[s->n++] = x;
    XF_AD_NOTE_PEAK();
}

/* A push into room that xf_ad_reserve made. */
static inline void
xf_ad_push_nc(xf_ad_rstack *s, double x)
{
#ifdef XF_AD_CHECK
    if (s->n >= s->lim)
        xf_ad_fail("a push beyond the room reserved for reals");
#endif
    s->v[s->n++] = x;
    XF_AD_NOTE_PEAK();
}

static inline double
xf_ad_pop(xf_ad_rstack *s)
{
#ifdef XF_AD_CHECK
    if (!s->n)
        xf_ad_fail("pop from an empty stack of reals");
#endif
    return s->v[--s->n];
}

/* Pushes the @n reals at @x, in order, at once: an argument checkpoint of
 * an array sized at run time (a copy, not a push per element). */
static inline void
xf_ad_push_arr(xf_ad_rstack *s, const double *x, long n)
{
    if (n <= 0)
        return;
    xf_ad_reserve(s, n);
    memcpy(s->v + s->n, x, (size_t)n * sizeof *x);
    s->n += (size_t)n;
    XF_AD_NOTE_PEAK();
}

/* Pops the @n reals xf_ad_push_arr pushed back into @x; @rconst (@x is a
 * parameter the C code declared const): only the elements whose bits
 * differ are written, so that data defined const (read-only memory), which
 * nothing changed, is never written. */
static inline void
xf_ad_pop_arr(xf_ad_rstack *s, double *x, long n, int rconst)
{
    if (n <= 0)
        return;
#ifdef XF_AD_CHECK
    if (s->n < (size_t)n)
        xf_ad_fail("pop from an empty stack of reals");
#endif
    s->n -= (size_t)n;
    const double *v = s->v + s->n;
    if (!rconst) {
        memcpy(x, v, (size_t)n * sizeof *x);
        return;
    }
    for (long k = 0; k < n; k++)
        if (memcmp(&x[k], &v[k], sizeof *x))
            x[k] = v[k];
}

static inline void
xf_ad_ipush(xf_ad_istack *s, long x)
{
    if (!XF_AD_LIKELY(s->n < s->cap))
        s->v = (long *)xf_ad_grow(s->v, &s->cap, sizeof *s->v);
    s->v[s->n++] = x;
    XF_AD_NOTE_PEAK();
}

static inline void
xf_ad_ipush_nc(xf_ad_istack *s, long x)
{
#ifdef XF_AD_CHECK
    if (s->n >= s->lim)
        xf_ad_fail("a push beyond the room reserved for integers");
#endif
    s->v[s->n++] = x;
    XF_AD_NOTE_PEAK();
}

static inline long
xf_ad_ipop(xf_ad_istack *s)
{
#ifdef XF_AD_CHECK
    if (!s->n)
        xf_ad_fail("pop from an empty stack of integers");
#endif
    return s->v[--s->n];
}

/* Whether a restored value @v differs from @x (NaNs alike, signed zeros
 * apart): a checkpoint restores an argument the C code declared const only
 * then, so that data defined const (read-only memory) is never written. */
static inline int
xf_ad_differs(double x, double v)
{
    if (x != x && v != v)
        return 0;
    return !(x == v && signbit(x) == signbit(v));
}

/* Words on the tapes, checkpoint stacks and snapshots now (0 after a whole
 * adjoint). */
static inline size_t
xf_ad_words(void)
{
    xf_ad_state_t *s = xf_ad_state();
    return s->tape.n + s->itape.n + s->cp.n + s->icp.n + s->snap.n;
}

/* ckp_take(step): open a frame for @step. */
static inline void
xf_ad_ckp_take(long step)
{
    xf_ad_snaps *s = &xf_ad_s.snap;
    if (s->nf == s->capf)
        s->start = (size_t *)xf_ad_grow(s->start, &s->capf, sizeof *s->start);
    s->start[s->nf++] = s->n;
    if (s->n == s->cap)
        s->w = (xf_ad_word *)xf_ad_grow(s->w, &s->cap, sizeof *s->w);
    s->w[s->n++].i = step;
}

/* ckp_store_*: append one word to the top frame. */
static inline void
xf_ad_ckp_put(xf_ad_word x)
{
    xf_ad_snaps *s = &xf_ad_s.snap;
    if (!s->nf)
        xf_ad_fail("a snapshot stored without a frame taken (ckp_take)");
    if (s->n == s->cap)
        s->w = (xf_ad_word *)xf_ad_grow(s->w, &s->cap, sizeof *s->w);
    s->w[s->n++] = x;
}

static inline void
xf_ad_ckp_store_r(double x)
{
    xf_ad_word w;
    w.r = x;
    xf_ad_ckp_put(w);
}

static inline void
xf_ad_ckp_store_i(long x)
{
    xf_ad_word w;
    w.i = x;
    xf_ad_ckp_put(w);
}

/* ckp_top(k): the top frame's step; the next restore reads from its start. */
static inline long
xf_ad_ckp_top(void)
{
    xf_ad_snaps *s = &xf_ad_s.snap;
    if (!s->nf)
        xf_ad_fail("ckp_top without a snapshot held");
    size_t at = s->start[s->nf - 1];
    s->cursor = at + 1;
    return s->w[at].i;
}

/* ckp_restore_*: the next word of the top frame, in the order stored. */
static inline xf_ad_word
xf_ad_ckp_get(void)
{
    xf_ad_snaps *s = &xf_ad_s.snap;
    if (!s->nf || s->cursor >= s->n)
        xf_ad_fail("a restore reads past the top snapshot");
    return s->w[s->cursor++];
}

static inline double
xf_ad_ckp_restore_r(void)
{
    return xf_ad_ckp_get().r;
}

static inline long
xf_ad_ckp_restore_i(void)
{
    return xf_ad_ckp_get().i;
}

/* ckp_drop: remove the top frame. */
static inline void
xf_ad_ckp_drop(void)
{
    xf_ad_snaps *s = &xf_ad_s.snap;
    if (!s->nf)
        xf_ad_fail("ckp_drop without a snapshot held");
    s->n = s->start[--s->nf];
    s->cursor = s->n;
}

/* Free the stacks' memory (they start again empty) and the work blocks
 * kept by xf_ad_drop. */
static inline void
xf_ad_release(void)
{
    while (xf_ad_kept.k > 0)
        free(xf_ad_kept.p[--xf_ad_kept.k]);
    xf_ad_state_t *s = xf_ad_state();
    free(s->tape.v);
    free(s->cp.v);
    free(s->itape.v);
    free(s->icp.v);
    free(s->snap.w);
    free(s->snap.start);
    memset(s, 0, sizeof *s);
}

/* Set the mode record to exactly these flags. */
static inline void
xf_ad_mode_set(xf_ad_mode *m, int arg_store, int arg_restore, int plain, int tape, int adjoint)
{
    memset(m, 0, sizeof *m);
    m->arg_store = arg_store;
    m->arg_restore = arg_restore;
    m->plain = plain;
    m->tape = tape;
    m->adjoint = adjoint;
}

/* The number of elements of the section lo:hi:st (0 when empty). */
static inline long
xf_ad_ext(long lo, long hi, long st)
{
    long n = st ? (hi - lo + st) / st : 0;
    return n > 0 ? n : 0;
}

/* Fortran's DO i = l, u, s with a stride known only at run time, written
 * as the condition i != u and the update i = i + s: whether the loop goes
 * on, i <= u for s > 0, i >= u otherwise (@next is i + s). */
static inline int
xf_ad_do_test(long i, long next, long u)
{
    return next - i > 0 ? i <= u : i >= u;
}

/* x**n for an integer n, by binary powering as compiled Fortran does. */
static inline double
xf_ad_powi(double x, long n)
{
    unsigned long e = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;
    double y = e % 2 ? x : 1.0;
    while (e >>= 1) {
        x = x * x;
        if (e % 2)
            y = y * x;
    }
    return n < 0 ? 1.0 / y : y;
}

/* a**n for integers (0 for a negative n unless |a| = 1, as Fortran). */
static inline long
xf_ad_ipow(long a, long n)
{
    if (n < 0)
        return a == 1 ? 1 : a == -1 ? (n % 2 ? -1 : 1) : 0;
    unsigned long y = 1, b = (unsigned long)a;
    while (n) {
        if (n & 1)
            y *= b;
        b *= b;
        n >>= 1;
    }
    return (long)y;
}

/* SIGN(a, b): |a| with the sign of b (b = 0 counts as positive). */
static inline double
xf_ad_sign(double a, double b)
{
    return b >= 0 ? fabs(a) : -fabs(a);
}

static inline long
xf_ad_isign(long a, long b)
{
    long m = a < 0 ? -a : a;
    return b >= 0 ? m : -m;
}

/* MIN and MAX as the catalogue defines them: the first argument on ties. */
static inline double
xf_ad_fmin(double a, double b)
{
    return b < a ? b : a;
}

static inline double
xf_ad_fmax(double a, double b)
{
    return b > a ? b : a;
}

static inline long
xf_ad_lmin(long a, long b)
{
    return b < a ? b : a;
}

static inline long
xf_ad_lmax(long a, long b)
{
    return b > a ? b : a;
}

/* The digamma function psi = Gamma'/Gamma, which <math.h> lacks: the
 * catalogue's derivative of lgamma (psi) and of tgamma (tgamma * psi).
 * For x > 0, psi(x) = psi(x + n) - 1/x - ... - 1/(x + n - 1) with x + n >= 10,
 * where the asymptotic series to x**-14 is exact to 5e-17; for x < 0 the
 * reflection psi(x) = psi(1 - x) - pi / tan(pi x); NaN at 0, -1, -2, ...
 * Relative error under 1e-14 away from psi's zero at 1.4616... (measured
 * against values to 20 digits in tests/libm/digamma.c). */
static inline double
xf_ad_digamma(double x)
{
    const double pi = 3.14159265358979323846;
    double r = 0;
    if (x != x || x == HUGE_VAL)
        return x;
    if (x == -HUGE_VAL)
        return NAN;
    if (x <= 0) {
        double f = x - floor(x); /* pi x modulo pi, exactly */
        if (f == 0)
            return NAN;
        r = -pi / tan(pi * f);
        x = 1 - x;
    }
    while (x < 10) {
        r -= 1 / x;
        x += 1;
    }
    double z = 1 / (x * x);
    double s =
        z * (1.0 / 12 -
             z * (1.0 / 120 -
                  z * (1.0 / 252 -
                       z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z * (1.0 / 12)))))));
    return r + log(x) - 0.5 / x - s;
}

#endif
