/* digamma.c: xf_ad_digamma of xaiform/ad.h (the derivative of lgamma, and
 * with tgamma of tgamma) against values to 25 digits (mpmath), to 1e-13
 * relative; prints the worst error. Exit status 0 when all hold. */
#include <math.h>
#include <stdio.h>

#include "xaiform/ad.h"

int
main(void)
{
    static const double ref[][2] = {
        {1, -0.5772156649015328606065121},  {0.5, -1.963510026021423479440976},
        {2, 0.4227843350984671393934879},   {10, 2.251752589066721107647456},
        {0.1, -10.42375494041107679516822}, {-0.5, 0.03648997397857652055902367},
        {100, 4.600161852738087400198606},  {1e-5, -100000.5771992156810689863},
        {3.7, 1.167153539361511385873864},  {-2.3, 3.317323157561820123267},
        {25.5, 3.218942472883919766545154}, {1.5, 0.03648997397857652055902367},
        {1e6, 13.81551005796419077077462},
    };
    double worst = 0;
    int bad = 0;
    for (size_t i = 0; i < sizeof ref / sizeof *ref; i++) {
        double got = xf_ad_digamma(ref[i][0]);
        double err = fabs(got - ref[i][1]) / fabs(ref[i][1]);
        if (!(err <= 1e-13)) {
            printf("digamma(%g) = %.17g, not %.17g\n", ref[i][0], got, ref[i][1]);
            bad = 1;
        }
        if (err > worst)
            worst = err;
    }
    /* poles and the ends */
    if (!isnan(xf_ad_digamma(0)) || !isnan(xf_ad_digamma(-3)) || !isnan(xf_ad_digamma(NAN)) ||
        xf_ad_digamma(INFINITY) != INFINITY) {
        printf("digamma at 0, -3, NaN or infinity is wrong\n");
        bad = 1;
    }
    printf("digamma: %zu values, worst relative error %.3g\n", sizeof ref / sizeof *ref, worst);
    return bad;
}
