/* c2xaif-test: softmax 4 4 */
#include <math.h>

/* Softmax, shifted by the largest input (found with a branch in a loop). */
void
softmax(const double x[4], double y[4])
{
    double m = x[0];
    for (int i = 1; i < 4; i++)
        if (x[i] > m)
            m = x[i];
    double s = 0.0, e[4];
    for (int i = 0; i < 4; i++) {
        e[i] = exp(x[i] - m);
        s += e[i];
    }
    for (int i = 0; i < 4; i++)
        y[i] = e[i] / s;
}
