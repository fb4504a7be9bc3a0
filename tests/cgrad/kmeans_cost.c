/* cgrad: kmeans_cost --independent centers --dependent kmeans_cost --extent pts=n*d,centers=k*d */
/* The k-means cost: sum over points of the squared distance to the
 * nearest of k centres (fmin), distances by a helper on rows. */
#include <math.h>

static double
dist2(int d, const double *a, const double *b)
{
    double s = 0.0;
    for (int i = 0; i < d; i++)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return s;
}

double
kmeans_cost(int n, int k, int d, const double *pts, const double *centers)
{
    double cost = 0.0;
    for (int i = 0; i < n; i++) {
        double best = dist2(d, &pts[i * d], &centers[0]);
        for (int j = 1; j < k; j++)
            best = fmin(best, dist2(d, &pts[i * d], &centers[j * d]));
        cost += best;
    }
    return cost;
}

#ifdef XF_CHECK
#include "check.h"
double kmeans_cost_d(int n, int k, int d, const double *pts, const double *centers,
                     const double *centersd, double *kmeans_cost);
void kmeans_cost_b(int n, int k, int d, const double *pts, const double *centers, double *centersb,
                   double kmeans_costb);
enum { NP = 6 * XF_SCALE, K = 3 * XF_SCALE, D = 2 };
static double pts[NP * D];
XF_SIZES(K *D, 1)
/* at XF_SCALE 1 these 6 points and 3 centres; larger, copies of them
 * moved a little each */
XF_POINT(x)
{
    static const double p[12] = {0, 0, 1, 0.2, 2.1, 2, 0.3, 1.9, -1, -0.7, 1.4, -1.2};
    static const double c[6] = {0.1, 0.1, 1.8, 1.6, -0.5, -0.9};
    for (int i = 0; i < NP * D; i++)
        pts[i] = p[i % 12] + 0.01 * (i / 12);
    for (int i = 0; i < K * D; i++)
        x[i] = c[i % 6] + 0.013 * (i / 6);
}
XF_F(x, y)
{
    y[0] = kmeans_cost(NP, K, D, pts, x);
}
XF_D(x, xd, y, yd)
{
    yd[0] = kmeans_cost_d(NP, K, D, pts, x, xd, &y[0]);
}
XF_B(x, xb, yb)
{
    kmeans_cost_b(NP, K, D, pts, x, xb, yb[0]);
}
XF_MAIN
#endif
