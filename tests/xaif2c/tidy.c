/* tests/xaif2c/tidy.sh: loops the adjoint runs backwards (their index
 * expressions are trip counts, lower bounds and steps) and <math.h>
 * calls on doubles, whose derivative C must read as written by hand. */
#include <math.h>

void
tidy(int n, const double *x, double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 1; j < n; j += 2)
            s += sin(x[i] * x[j]) + exp(x[j]);
    for (int k = n - 1; k >= 0; k--)
        s = tanh(s) + pow(x[k], 2.5);
    y[0] = s;
}
