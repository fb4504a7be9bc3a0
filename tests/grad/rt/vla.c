/* rt-test: --function vla --independent a,x --dependent y */
/* A C99 variable-length array parameter: a is n rows of m, y = tanh(a x). */
#include <math.h>

void
vla(int n, int m, const double a[n][m], const double x[m], double y[n])
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < m; j++)
            s += a[i][j] * x[j];
        y[i] = tanh(s);
    }
}
