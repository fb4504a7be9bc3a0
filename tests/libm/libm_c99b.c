/* c2xaif-test: libm_c99b 23 19 */
#include <math.h>

/* The other <math.h> functions of C99 that have a derivative almost
 * everywhere, one an output, each of its own inputs, at smooth points. */
void
libm_c99b(const double x[23], double y[19])
{
    int n = 2;
    y[0] = log10(x[0]);
    y[1] = sinh(x[1]);
    y[2] = cosh(x[2] - 1.3);
    y[3] = tanh(x[3] - 2.2);
    y[4] = asinh(x[4] - 3.0);
    y[5] = acosh(x[5]);
    y[6] = atanh(x[6] - 3.5);
    y[7] = erfc(x[7] - 4.0);
    y[8] = lgamma(x[8]);
    y[9] = tgamma(x[9] - 4.5);
    y[10] = fmod(x[11], x[10]);      /* 6.0625 mod 5.5625: 1 and -1 */
    y[11] = remainder(x[12], x[13]); /* 6.5625 - 1 * 7.0625 */
    y[12] = fdim(x[15], x[14]);
    y[13] = fmin(x[16], x[17]) + 2.0 * fmax(x[16], x[17]);
    y[14] = pow(x[18] - 12.0, 3) + pow(x[18], n); /* integer exponents, a negative base */
    y[15] = ldexp(x[19], 3) + scalbn(x[19], -2);
    y[16] = lgamma(x[20] - 11.0); /* at -0.44: digamma's reflection */
    y[17] = tgamma(x[21] - 11.7); /* at -0.64: negative */
    y[18] = rint(x[22]) * x[22] + nearbyint(x[22]);
}
