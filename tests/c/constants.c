/* c2xaif-test: constants 2 2 */
/* File-scope constants and enumerations are values, as object-like macros
 * are; a function-like macro whose body has no operator of its own. */
#include <math.h>

static const double SCALE = 2.5;
static const float HALF = 0.5f;
static const int STEPS = 3;
enum { ONE = 1, FOUR = 4 };
#define SHIFT 0.25
#define NX 2
#define SQUARE(a) pow(a, 2)

void
constants(const double x[2], double y[2])
{
    double s = x[0];
    for (int i = ONE; i <= STEPS; i++)
        s = s * SCALE / (i + FOUR) + HALF * x[1];
    y[0] = SQUARE(s + SHIFT) - SHIFT * x[0];
    y[1] = x[1] * STEPS - ONE;
    for (int k = 0; NX > k; k++) /* a loop condition that starts with a macro */
        y[1] = y[1] * x[k];
}
