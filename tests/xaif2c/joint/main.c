/* joint.sh's driver: f_b of leaf.c against the gradient by hand, at one
 * point, to 1e-13 relative; the tapes empty afterwards. Exit 0 when all
 * hold. */
#include <math.h>
#include <stdio.h>

#include "xaiform/ad.h"

void f_b(const double *x, double *xb, double *y, double *yb);

int
main(void)
{
    double x[4] = {0.3, -0.7, 1.1, 0.4}, xb[4] = {0}, y[1], yb[1] = {1.0}, g[4] = {0};
    double s = x[0] * x[1] + x[1] * x[2] + x[2] * x[3];
    /* y = (1 - x0^2) x1 + 1 - s^2 */
    g[0] = -2 * x[0] * x[1] - 2 * s * x[1];
    g[1] = 1 - x[0] * x[0] - 2 * s * (x[0] + x[2]);
    g[2] = -2 * s * (x[1] + x[3]);
    g[3] = -2 * s * x[2];
    for (int round = 0; round < 2; round++) { /* twice: the tapes are reused */
        for (int i = 0; i < 4; i++)
            xb[i] = 0;
        yb[0] = 1.0;
        f_b(x, xb, y, yb);
        for (int i = 0; i < 4; i++)
            if (fabs(xb[i] - g[i]) > 1e-13 * fabs(g[i])) {
                printf("joint: xb[%d] = %.17g, expected %.17g\n", i, xb[i], g[i]);
                return 1;
            }
        if (xf_ad_words() != 0) {
            printf("joint: %zu words left on the tapes\n", xf_ad_words());
            return 1;
        }
    }
    xf_ad_release();
    puts("joint: f_b right, tapes empty");
    return 0;
}
