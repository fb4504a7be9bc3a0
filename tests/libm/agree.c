/* agree.c: the compiled side of agree.sh: for F(const double x[N],
 * double y[M]) and its tangent F_D (named by -DF=, -DF_D=, declared as
 * tests/grad/check.c declares them), at the interpreter's point
 * x0(i) = (i+1)/2 (OpenAD's drivers: x(i) = i/2 from 1), prints
 *   Y k value          for each output, k from 1
 *   F k i value        for each entry of the Jacobian by F_D
 * with 17 significant digits, the lines `xaiform run` gives in its own format.
 *
 *   agree N M */
#include <stdio.h>
#include <stdlib.h>

void F(const double *x, double *y);
void F_D(double *x, double *xd, double *y, double *yd);

int
main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int n = atoi(argv[1]), m = atoi(argv[2]);
    double *x = calloc((size_t)n, sizeof *x), *xd = calloc((size_t)n, sizeof *xd);
    double *y = calloc((size_t)m, sizeof *y), *yd = calloc((size_t)m, sizeof *yd);
    if (!x || !xd || !y || !yd)
        return 2;
    for (int i = 0; i < n; i++)
        x[i] = (i + 1) / 2.0;
    F(x, y);
    for (int k = 0; k < m; k++)
        printf("Y %d %.17g\n", k + 1, y[k]);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            x[j] = (j + 1) / 2.0, xd[j] = i == j;
        F_D(x, xd, y, yd);
        for (int k = 0; k < m; k++)
            printf("F %d %d %.17g\n", k + 1, i + 1, yd[k]);
    }
    free(x);
    free(xd);
    free(y);
    free(yd);
    return 0;
}
