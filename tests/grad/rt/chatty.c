/* rt-test: --function chatty --independent x --dependent y --extent x=n,y=n */
/* Calls of functions the file does not define, kept as they are: printf
 * of active and passive values, puts, assert in the function and in a
 * helper. Their results are not used and their arguments are values, so
 * they are passive: the derivatives print and check too, and are right. */
#include <assert.h>
#include <stdio.h>

static double
scale(double v, int i)
{
    assert(i >= 0);
    printf("scale %d %.3f\n", i, v);
    return v * (1.0 + 0.1 * i);
}

void
chatty(const double *x, double *y, int n)
{
    assert(n > 0 && x[0] > -1e3);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    printf("chatty n=%d s=%g\n", n, s);
    puts("chatty: \"done\"");
    for (int i = 0; i < n; i++)
        y[i] = scale(x[i] * s, i);
}
