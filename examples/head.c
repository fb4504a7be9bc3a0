/* head.c: the C twin of head.xaif, y(1) = sin(x(1))*x(1) + sin(x(2))*x(2),
 * for `xaiform grad` (README.md, "The ways in"; docs/grad.md). */
#include <math.h>

void
head(const double x[2], double y[1])
{
    y[0] = 0.0;
    for (int i = 0; i < 2; i++)
        y[0] += sin(x[i]) * x[i];
}
