/* cgrad: gmm_diag --independent alphas,means,logsig --dependent loglik --extent alphas=k,means=k*d,logsig=k*d,x=n*d */
/* The log-likelihood of n points in d dimensions under a mixture of k
 * Gaussians with diagonal covariances:
 *   sum_i log sum_j w_j N(x_i; mu_j, diag(sigma_j^2)),
 * w = softmax(alphas), sigma_j = exp(logsig_j), written from the
 * definition with a log-sum-exp helper and a work array from malloc. */
#include <math.h>
#include <stdlib.h>

static double
lse(int n, const double *v)
{
    double m = v[0], s = 0.0;
    for (int i = 1; i < n; i++)
        if (v[i] > m)
            m = v[i];
    for (int i = 0; i < n; i++)
        s += exp(v[i] - m);
    return m + log(s);
}

void
gmm_diag(int d, int k, int n, const double *alphas, const double *means, const double *logsig,
         const double *x, double *loglik)
{
    double *term = malloc((size_t)k * sizeof *term);
    double la = lse(k, alphas), total = 0.0;
    for (int i = 0; i < n; i++) {
        const double *xi = &x[i * d];
        for (int j = 0; j < k; j++) {
            const double *mu = &means[j * d], *ls = &logsig[j * d];
            double q = 0.0, logdet = 0.0;
            for (int l = 0; l < d; l++) {
                double z = (xi[l] - mu[l]) * exp(-ls[l]);
                q += z * z;
                logdet += ls[l];
            }
            term[j] = alphas[j] - la - logdet - 0.5 * q - 0.5 * d * log(2 * 3.14159265358979323846);
        }
        total += lse(k, term);
    }
    *loglik = total;
    free(term);
}

#ifdef XF_CHECK
#include "check.h"
void gmm_diag_d(int d, int k, int n, const double *alphas, const double *alphasd,
                const double *means, const double *meansd, const double *logsig,
                const double *logsigd, const double *x, double *loglik, double *loglikd);
void gmm_diag_b(int d, int k, int n, const double *alphas, double *alphasb, const double *means,
                double *meansb, const double *logsig, double *logsigb, const double *x,
                double *loglik, double *loglikb);
enum { D = 2, K = 3, NP = 5, NX = K + 2 * K * D };
static double pts[NP * D];
XF_SIZES(NX, 1)
XF_POINT(x)
{
    for (int i = 0; i < NX; i++)
        x[i] = 0.3 * sin(1.0 + i);
    for (int i = 0; i < NP * D; i++)
        pts[i] = cos(0.7 * i);
}
XF_F(x, y)
{
    gmm_diag(D, K, NP, x, x + K, x + K + K * D, pts, y);
}
XF_D(x, xd, y, yd)
{
    gmm_diag_d(D, K, NP, x, xd, x + K, xd + K, x + K + K * D, xd + K + K * D, pts, y, yd);
}
XF_B(x, xb, yb)
{
    double v;
    gmm_diag_b(D, K, NP, x, xb, x + K, xb + K, x + K + K * D, xb + K + K * D, pts, &v, yb);
}
XF_MAIN
#endif
