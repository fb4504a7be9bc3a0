/* cgrad: gmm_wishart --independent alphas,means,icf --dependent err --extent alphas=k,means=k*d,icf=k*(d*(d+1)/2),x=n*d,err=1,qtimes:l=d*(d-1)/2,qtimes:qd=d,qtimes:v=d,qtimes:out=d */
/* A Gaussian mixture's negative log-likelihood with full covariances in
 * the form the benchmarks use: each component's inverse square root
 * Q = (diagonal exp(q), strictly lower part l) packed in icf (d diagonal
 * entries, then d(d-1)/2 lower ones), and a Wishart prior given as a
 * struct of parameters passed by value:
 *   sum_i lse_j(alpha_j + sum q_j - |Q_j (x_i - mu_j)|^2 / 2)
 *   - n lse(alpha) + sum_j (g^2/2 |Q_j|_F^2 - m sum q_j)
 * written from that definition, with work arrays from malloc. */
#include <math.h>
#include <stdlib.h>

typedef struct {
    double gamma;
    int m;
} prior_t;

static double
lse(int n, const double *v)
{
    double mx = v[0], s = 0.0;
    for (int i = 1; i < n; i++)
        mx = fmax(mx, v[i]);
    for (int i = 0; i < n; i++)
        s += exp(v[i] - mx);
    return mx + log(s);
}

/* out = Q v for Q of the diagonal qd (exponentiated) and lower part l */
static void
qtimes(int d, const double *qd, const double *l, const double *v, double *out)
{
    int idx = 0;
    for (int i = 0; i < d; i++)
        out[i] = exp(qd[i]) * v[i];
    for (int j = 0; j < d; j++)
        for (int i = j + 1; i < d; i++)
            out[i] += l[idx++] * v[j];
}

void
gmm_wishart(int d, int k, int n, const double *alphas, const double *means, const double *icf,
            const double *x, prior_t prior, double *err)
{
    int isz = d * (d + 1) / 2;
    double *diff = malloc((size_t)d * sizeof *diff), *qx = malloc((size_t)d * sizeof *qx);
    double *main_term = malloc((size_t)k * sizeof *main_term);
    double slse = 0.0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < k; j++) {
            double sq = 0.0, sumq = 0.0;
            for (int l = 0; l < d; l++) {
                diff[l] = x[i * d + l] - means[j * d + l];
                sumq += icf[j * isz + l];
            }
            qtimes(d, &icf[j * isz], &icf[j * isz + d], diff, qx);
            for (int l = 0; l < d; l++)
                sq += qx[l] * qx[l];
            main_term[j] = alphas[j] + sumq - 0.5 * sq;
        }
        slse += lse(k, main_term);
    }
    double pri = 0.0;
    for (int j = 0; j < k; j++) {
        double fro = 0.0, sumq = 0.0;
        for (int l = 0; l < d; l++) {
            fro += exp(2 * icf[j * isz + l]);
            sumq += icf[j * isz + l];
        }
        for (int l = d; l < isz; l++)
            fro += icf[j * isz + l] * icf[j * isz + l];
        pri += 0.5 * prior.gamma * prior.gamma * fro - prior.m * sumq;
    }
    *err = slse - n * lse(k, alphas) + pri;
    free(diff);
    free(qx);
    free(main_term);
}

#ifdef XF_CHECK
#include "check.h"
void gmm_wishart_d(int d, int k, int n, const double *alphas, const double *alphasd,
                   const double *means, const double *meansd, const double *icf, const double *icfd,
                   const double *x, prior_t prior, double *err, double *errd);
void gmm_wishart_b(int d, int k, int n, const double *alphas, double *alphasb, const double *means,
                   double *meansb, const double *icf, double *icfb, const double *x, prior_t prior,
                   double *err, double *errb);
enum { D = 3, K = 2, NP = 4, ISZ = D * (D + 1) / 2, NX = K + K * D + K * ISZ };
static double pts[NP * D];
static const prior_t pr = {1.5, 2};
XF_SIZES(NX, 1)
XF_POINT(x)
{
    for (int i = 0; i < NX; i++)
        x[i] = 0.4 * cos(0.9 * i + 0.3);
    for (int i = 0; i < NP * D; i++)
        pts[i] = sin(1.3 * i);
}
XF_F(x, y)
{
    gmm_wishart(D, K, NP, x, x + K, x + K + K * D, pts, pr, y);
}
XF_D(x, xd, y, yd)
{
    gmm_wishart_d(D, K, NP, x, xd, x + K, xd + K, x + K + K * D, xd + K + K * D, pts, pr, y, yd);
}
XF_B(x, xb, yb)
{
    double v;
    gmm_wishart_b(D, K, NP, x, xb, x + K, xb + K, x + K + K * D, xb + K + K * D, pts, pr, &v, yb);
}
XF_MAIN
#endif
