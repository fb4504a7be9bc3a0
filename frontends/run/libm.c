/* libm.c: the intrinsics of schema/intrinsics.xaif that are C99 <math.h>
 * functions (atan2_scal_scal, lgamma_scal, ...), computed by the C library,
 * and digamma, which C lacks (the partials of lgamma and tgamma). Real
 * results, elementwise over arrays with scalars broadcast. */
#include <math.h>
#include <string.h>

#include "rt.h"

typedef double (*fn1)(double);
typedef double (*fn2)(double, double);

/* psi(x) = Gamma'(x)/Gamma(x): the recurrence psi(x) = psi(x + 1) - 1/x up
 * to x >= 10, then the asymptotic series of psi to x**-14; the reflection
 * psi(x) = psi(1 - x) - pi cot(pi x) below 0. */
static double
digamma(double x)
{
    static const double c[] = {1.0 / 12,  -1.0 / 120,       1.0 / 252, -1.0 / 240,
                               1.0 / 132, -691.0 / 32760.0, 1.0 / 12};
    const double pi = 3.14159265358979323846;
    double acc = 0;
    if (isnan(x) || x == INFINITY)
        return x;
    if (x <= 0) {
        double f = x - floor(x);
        if (f == 0 || isinf(x))
            return NAN;
        acc = -pi / tan(pi * f);
        x = 1 - x;
    }
    for (; x < 10; x += 1)
        acc -= 1 / x;
    double z = 1 / (x * x), p = z, s = 0;
    for (size_t k = 0; k < sizeof c / sizeof *c; k++, p *= z)
        s += c[k] * p;
    return acc + log(x) - 0.5 / x - s;
}

static double
ldexp2(double x, double n)
{
    return ldexp(x, (int)n);
}

static const struct {
    const char *name;
    fn1 f1;
    fn2 f2;
} table[] = {
    {"cbrt_scal", cbrt, NULL},
    {"log1p_scal", log1p, NULL},
    {"expm1_scal", expm1, NULL},
    {"log2_scal", log2, NULL},
    {"exp2_scal", exp2, NULL},
    {"erf_scal", erf, NULL},
    {"erfc_scal", erfc, NULL},
    {"asinh_scal", asinh, NULL},
    {"acosh_scal", acosh, NULL},
    {"atanh_scal", atanh, NULL},
    {"lgamma_scal", lgamma, NULL},
    {"tgamma_scal", tgamma, NULL},
    {"digamma_scal", digamma, NULL},
    {"floor_scal", floor, NULL},
    {"ceil_scal", ceil, NULL},
    {"round_scal", round, NULL},
    {"trunc_scal", trunc, NULL},
    {"rint_scal", rint, NULL},
    {"atan2_scal_scal", NULL, atan2},
    {"hypot_scal_scal", NULL, hypot},
    {"copysign_scal_scal", NULL, copysign},
    {"remainder_scal_scal", NULL, remainder},
    {"ldexp_scal_scal", NULL, ldexp2},
};

bool
rt_libm(rt *m, const char *name, int nops, const rt_val *args, rt_val *out)
{
    size_t i = 0;
    while (i < sizeof table / sizeof *table && strcmp(table[i].name, name) != 0)
        i++;
    if (i == sizeof table / sizeof *table)
        return false;
    int want = table[i].f1 ? 1 : 2;
    if (nops != want)
        rt_fault(m, "%s takes %d arguments, not %d", name, want, nops);
    const rt_val *a = &args[0], *b = nops > 1 ? &args[1] : NULL;
    for (int k = 0; k < nops; k++)
        if (args[k].type == RT_STR || args[k].type == RT_BOOL)
            rt_fault(m, "%s of a string or a logical", name);
    const rt_val *shape = a->rank ? a : b && b->rank ? b : NULL;
    if (a->rank && b && b->rank && a->n != b->n)
        rt_fault(m, "%s of arrays of %lld and %lld elements", name, (long long)a->n,
                 (long long)b->n);
    rt_val r = shape ? rt_array(m, RT_REAL, shape->rank, shape->ext) : rt_scalar_real(0);
    int64_t n = shape ? shape->n : 1;
    for (int64_t k = 0; k < n; k++) {
        double x = rt_real_at(a, a->rank ? k : 0), z;
        if (b) {
            z = table[i].f2(x, rt_real_at(b, b->rank ? k : 0));
        } else
            z = table[i].f1(x);
        if (shape)
            r.r[k] = z;
        else
            r.sc.r = z;
    }
    m->stats.intrinsics += (uint64_t)n;
    *out = r;
    return true;
}
