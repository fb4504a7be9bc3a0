/* cgrad: spring_energy --independent s,x --dependent spring_energy --extent s=n,x=n+1,relay:s=n,relay:x=n+1,chain:x=n+1 */
/* An array of structs that the top function never indexes itself but
 * passes whole to a helper, which passes it on to one that indexes it
 * (s[i].k): it is an array of structs in all three, as in the callee. The
 * energy of a chain of n springs between n + 1 positions. */
typedef struct {
    double k;    /* stiffness */
    double rest; /* rest length */
} spring_t;

static double
chain(int n, const spring_t *s, const double *x)
{
    double e = 0.0;
    for (int i = 0; i < n; i++) {
        double d = x[i + 1] - x[i] - s[i].rest;
        e += 0.5 * s[i].k * d * d;
    }
    return e;
}

static double
relay(int n, const spring_t *s, const double *x)
{
    return chain(n, s, x) * (1.0 + 0.1 * x[0]);
}

double
spring_energy(int n, const spring_t *s, const double *x)
{
    return relay(n, s, x) + x[n] * x[n];
}

#ifdef XF_CHECK
#include "check.h"
typedef struct {
    double k;
    double rest;
} spring_t_diff;
double spring_energy_d(int n, const spring_t *s, const spring_t_diff *sd, const double *x,
                       const double *xd, double *spring_energy);
void spring_energy_b(int n, const spring_t *s, spring_t_diff *sb, const double *x, double *xb,
                     double spring_energyb);
enum { N = 3, NX = 2 * N + N + 1 };
XF_SIZES(NX, 1)
XF_POINT(x)
{
    for (int i = 0; i < NX; i++)
        x[i] = 0.4 + 0.31 * i - 0.2 * (i % 3);
}
static void
springs(const double *x, spring_t *s)
{
    for (int i = 0; i < N; i++)
        s[i].k = x[2 * i], s[i].rest = x[2 * i + 1];
}
static void
dsprings(const double *x, spring_t_diff *s)
{
    for (int i = 0; i < N; i++)
        s[i].k = x[2 * i], s[i].rest = x[2 * i + 1];
}
XF_F(x, y)
{
    spring_t s[N];
    springs(x, s);
    y[0] = spring_energy(N, s, x + 2 * N);
}
XF_D(x, xd, y, yd)
{
    spring_t s[N];
    spring_t_diff sd[N];
    springs(x, s);
    dsprings(xd, sd);
    yd[0] = spring_energy_d(N, s, sd, x + 2 * N, xd + 2 * N, &y[0]);
}
XF_B(x, xb, yb)
{
    spring_t s[N];
    spring_t_diff sb[N];
    springs(x, s);
    dsprings(xb, sb);
    spring_energy_b(N, s, sb, x + 2 * N, xb + 2 * N, yb[0]);
    for (int i = 0; i < N; i++)
        xb[2 * i] = sb[i].k, xb[2 * i + 1] = sb[i].rest;
}
XF_MAIN
#endif
