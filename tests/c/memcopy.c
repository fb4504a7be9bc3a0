/* c2xaif-test: memcopy 4 4 x=4,y=4 */
/* memcpy and memset between arrays of double, lowered to loops of element
 * assignments: a work array from malloc filled by memcpy, smoothed into y,
 * a part of y cleared by memset and refilled from another part of t. */
#include <stdlib.h>
#include <string.h>

void
memcopy(const double *x, double *y)
{
    double *w = malloc(4 * sizeof *w);
    double t[4];
    memcpy(w, x, 4 * sizeof *w);
    for (int i = 0; i < 4; i++)
        t[i] = w[i] * w[3 - i] + w[i];
    memset(y, 0, 4 * sizeof(double));
    memcpy(y + 1, &t[1], sizeof(double) * 3);
    y[0] = y[0] + t[0] * x[2];
    free(w);
}
