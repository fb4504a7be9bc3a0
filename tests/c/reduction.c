/* c2xaif-test: reduction 6 3 */
/* Reductions: sum, product, a norm and a running maximum with fmax. */
#include <math.h>
#define N 6

void
reduction(const double x[N], double y[3])
{
    double sum = 0.0, prod = 1.0, mx = x[0];
    for (int i = 0; i < N; i++) {
        sum += x[i] * x[i];
        prod *= 1.0 + x[i] / 10.0;
        mx = fmax(mx, sin(x[i]));
    }
    y[0] = sqrt(sum);
    y[1] = prod;
    y[2] = mx;
}
