/* c2xaif-test: logsumexp 5 2 */
#include <math.h>

/* log(sum(exp(x))) with the shift by the largest input (fmax), and the
 * entropy-like sum of x log x. */
void
logsumexp(const double x[5], double y[2])
{
    double m = x[0];
    for (int i = 1; i < 5; i++)
        m = fmax(m, x[i]);
    double s = 0.0, h = 0.0;
    for (int i = 0; i < 5; i++) {
        s += exp(x[i] - m);
        h -= x[i] * log(x[i]);
    }
    y[0] = m + log(s);
    y[1] = h;
}
