/* check.h: what a test of tests/cgrad/ writes under #ifdef XF_CHECK, a
 * shim from flat vectors to its function's arguments, with Tapenade's
 * conventions for the derivatives (docs/testing.md, "tests/cgrad"):
 *
 *   XF_SIZES(n, m)          n inputs x, m outputs y
 *   XF_POINT(x) { ... }     the point of the checks: x[0..n)
 *   XF_F(x, y) { ... }      y = f(x), through the function itself
 *   XF_D(x, xd, y, yd) {}   y = f(x) and yd = J xd, through F_d
 *   XF_B(x, xb, yb) { ... } xb += J^T yb, through F_b (yb may be changed)
 *   XF_MAIN
 *
 * The harness compiles the test with -DXF_WANT_D when F_d exists and
 * -DXF_WANT_B when F_b does; a shim function whose derivative is missing
 * becomes an unused static inline one, so that it references nothing. */
#ifndef XF_CGRAD_CHECK_H
#define XF_CGRAD_CHECK_H

#include <stddef.h>

/* a test whose function takes its sizes at run time may multiply them by
 * XF_SCALE (tools/bench/cgrad-cost.sh -n, -t); the checks run at 1 */
#ifndef XF_SCALE
#define XF_SCALE 1
#endif

typedef void xf_fn(double *x, double *y);
typedef void xf_dfn(double *x, double *xd, double *y, double *yd);
typedef void xf_bfn(double *x, double *xb, double *yb);

/* runs the checks the derivatives present allow; prints one line each;
 * returns 0 when all hold (check.c) */
int xf_check_main(int n, int m, void (*point)(double *), xf_fn *f, xf_dfn *d, xf_bfn *b);

#define XF_SIZES(n, m) static const int xf_n = (n), xf_m = (m);
#define XF_POINT(x) static void xf_point(double *x)
#define XF_F(x, y) static void xf_f(double *x, double *y)
#ifdef XF_WANT_D
#define XF_D(x, xd, y, yd) static void xf_d(double *x, double *xd, double *y, double *yd)
#define XF_D_FN xf_d
#else
#define XF_D(x, xd, y, yd) static inline void xf_d_off(double *x, double *xd, double *y, double *yd)
#define XF_D_FN NULL
#endif
#ifdef XF_WANT_B
#define XF_B(x, xb, yb) static void xf_b(double *x, double *xb, double *yb)
#define XF_B_FN xf_b
#else
#define XF_B(x, xb, yb) static inline void xf_b_off(double *x, double *xb, double *yb)
#define XF_B_FN NULL
#endif
#define XF_MAIN                                                                                    \
    int main(void)                                                                                 \
    {                                                                                              \
        return xf_check_main(xf_n, xf_m, xf_point, xf_f, XF_D_FN, XF_B_FN);                        \
    }

#endif
