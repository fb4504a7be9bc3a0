/* c2xaif-test: overwrite 2 2 */
/* Loops that read elements of a local array and then overwrite them: the
 * second is not terminal (the third reads b), the third is. Under the loop
 * rule, neither may run again in the adjoint sweep on what its first run
 * left, nor the third be adjoined early in split reversal, where the
 * adjoint of a (a local) does not reach the adjoint sweep. */
#include <math.h>

void
overwrite(const double x[2], double y[2])
{
    double a[10], b[10];
    a[0] = x[0];
    for (int i = 1; i < 10; i++)
        a[i] = a[i - 1] * 0.5 + x[1];
    for (int i = 0; i < 10; i++) {
        b[i] = sin(a[i]) * x[0];
        a[i] = 0.0;
    }
    y[0] = 0.0;
    y[1] = 0.0;
    for (int i = 0; i < 10; i++) {
        y[0] = y[0] + sin(b[i]);
        y[1] = y[1] + b[i] * x[1];
        b[i] = 0.0;
    }
}
