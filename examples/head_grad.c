/* head_grad.c: the gradient of head (head.c) by its adjoint head_b, which
 * `xaiform grad ... --mode adjoint -o head_b.c` writes, and by central
 * differences, at OpenAD's point x0 = (0.5, 1.0). */
#include <math.h>
#include <stdio.h>

void head(const double x[2], double y[1]);
void head_b(const double *x, double *xb, double *y, double *yb);

int
main(void)
{
    double x[2] = {0.5, 1.0}, xb[2] = {0.0, 0.0}, y[1], yb[1] = {1.0};
    head_b(x, xb, y, yb); /* xb += J^T yb */
    for (int i = 0; i < 2; i++) {
        double h = 1e-6, xp[2] = {x[0], x[1]}, yp[1], ym[1];
        xp[i] = x[i] + h;
        head(xp, yp);
        xp[i] = x[i] - h;
        head(xp, ym);
        printf("dy/dx%d: adjoint %.15f, central differences %.15f\n", i + 1, xb[i],
               (yp[0] - ym[0]) / (2 * h));
    }
    return 0;
}
