/* cgrad: mlp_loss --independent w1,b1,w2 --dependent mlp_loss --extent w1=nh*nin,b1=nh,w2=nh,x=nin */
/* The squared error of a one-hidden-layer perceptron (tanh units, weights
 * row-major nh x nin) on one sample; the hidden layer in a work array from
 * malloc; the target a by-value scalar. */
#include <math.h>
#include <stdlib.h>

double
mlp_loss(int nin, int nh, const double *w1, const double *b1, const double *w2, const double *x,
         double target)
{
    double *hid = malloc((size_t)nh * sizeof *hid), out = 0.0;
    for (int j = 0; j < nh; j++) {
        double a = b1[j];
        for (int i = 0; i < nin; i++)
            a += w1[j * nin + i] * x[i];
        hid[j] = tanh(a);
    }
    for (int j = 0; j < nh; j++)
        out += w2[j] * hid[j];
    free(hid);
    return 0.5 * (out - target) * (out - target);
}

#ifdef XF_CHECK
#include "check.h"
double mlp_loss_d(int nin, int nh, const double *w1, const double *w1d, const double *b1,
                  const double *b1d, const double *w2, const double *w2d, const double *x,
                  double target, double *mlp_loss);
void mlp_loss_b(int nin, int nh, const double *w1, double *w1b, const double *b1, double *b1b,
                const double *w2, double *w2b, const double *x, double target, double mlp_lossb);
enum { NI = 3, NH = 4, NX = NH * NI + 2 * NH };
static const double in[NI] = {0.5, -0.25, 1.0};
XF_SIZES(NX, 1)
XF_POINT(x)
{
    for (int i = 0; i < NX; i++)
        x[i] = 0.5 * cos(1.7 * i);
}
XF_F(x, y)
{
    y[0] = mlp_loss(NI, NH, x, x + NH * NI, x + NH * NI + NH, in, 0.3);
}
XF_D(x, xd, y, yd)
{
    yd[0] = mlp_loss_d(NI, NH, x, xd, x + NH * NI, xd + NH * NI, x + NH * NI + NH,
                       xd + NH * NI + NH, in, 0.3, &y[0]);
}
XF_B(x, xb, yb)
{
    mlp_loss_b(NI, NH, x, xb, x + NH * NI, xb + NH * NI, x + NH * NI + NH, xb + NH * NI + NH, in,
               0.3, yb[0]);
}
XF_MAIN
#endif
