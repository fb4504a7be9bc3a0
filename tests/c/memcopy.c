/* c2xaif-test: memcopy 4 4 x=4,y=4 */
/* memcpy and memset between arrays of double, lowered to loops of element
 * assignments: a work array filled by memcpy, smoothed into t, y cleared
 * by memset and refilled at an offset from t. (A malloc'ed work array is
 * left out: it made this case take about 60 s; tests/cgrad has one.) */
#include <string.h>

void
memcopy(const double *x, double *y)
{
    double w[4];
    double t[4];
    memcpy(w, x, 4 * sizeof *w);
    for (int i = 0; i < 4; i++)
        t[i] = w[i] * w[3 - i] + w[i];
    memset(y, 0, 4 * sizeof(double));
    memcpy(y + 1, &t[1], sizeof(double) * 3);
    y[0] = y[0] + t[0] * x[2];
}
