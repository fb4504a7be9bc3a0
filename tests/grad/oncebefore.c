/* c2xaif-test: oncebefore 3 3 */
#include <math.h>

/* Partials read a local written once before the loop they are in
 * (transforms/tape/tbr_values.c, stable_once with runs_before): under
 * joint reversal c is written once, outside any loop, in a block that
 * runs before the loop's body, so the partials c of each iteration are
 * read in place, not taped (3 pushes before). tests/grad/oncebefore.sh
 * counts the pushes; golden.grad checks the gradient. */
void
oncebefore(const double x[3], double y[3])
{
    double c = cos(x[0]);
    for (int i = 0; i < 3; i++)
        y[i] = c * x[i];
}
