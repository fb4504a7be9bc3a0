/* c2xaif-test: libm_c99a 19 14 */
#define NDEBUG /* assert is then (void)0, which c2xaif leaves out */
#include <assert.h>
#include <math.h>

/* The 14 <math.h> functions that issue 23 found missing, one an output, each
 * of its own inputs (so each Jacobian column checks one function), at points
 * where each is smooth for the checker's x0 and the interpreter's. */
void
libm_c99a(const double x[19], double y[14])
{
    assert(x[0] > 0);
    y[0] = atan2(x[0], x[1]);
    y[1] = hypot(x[2], x[3]);
    y[2] = cbrt(x[4] - 3.0); /* negative */
    y[3] = log1p(x[5] - 3.5);
    y[4] = expm1(x[6] - 3.5);
    y[5] = erf(x[7] - 4.0);
    y[6] = floor(x[8]) * x[8]; /* d/dx = floor(x): floor's own is 0 */
    y[7] = ceil(x[9]) * x[9];
    y[8] = round(x[10]) * x[10];
    y[9] = trunc(-x[11]) * x[11];
    y[10] = copysign(x[12] - 7.0, x[13]); /* |x12 - 7| with x13's sign: -1 and 0 */
    y[11] = log2(x[14]);
    y[12] = exp2(x[15] - 8.0);
    y[13] = fma(x[16], x[17], x[18]);
}
