/* c2xaif-test: everyday 4 4 */
/* Everyday C that changes nothing or counts as it goes: a cast to void
 * of an unused value, a work array from malloc whose size is cast to
 * size_t and written with sizeof *w, and '++' and '--' on int counters
 * inside the statements that use them. */
#include <stdlib.h>

#define NX 4

void
everyday(const double x[NX], double y[NX])
{
    int unused = NX;
    (void)unused;
    (void)(x[0] + 1.0);
    double *w = malloc(2 * (size_t)NX * sizeof *w);
    int k = 0;
    for (int i = 0; i < NX; i++) {
        w[k++] = x[i] * x[i];
        w[k++] = 2.0 * x[i];
    }
    int j = 2 * NX;
    for (int i = 0; i < NX; i++)
        y[i] = w[--j];
    int m = NX - 1;
    for (int i = 0; i < NX; i++)
        y[i] += x[m--] * w[i];
    free(w);
}
