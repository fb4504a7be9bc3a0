/* c2xaif-test: ode 3 3 */
/* A small ODE integrator: Heun's method (RK2) on a Lotka-Volterra system
 * whose parameters come from the inputs. */
static void
rhs(const double u[2], const double p[3], double f[2])
{
    f[0] = p[0] * u[0] - p[1] * u[0] * u[1];
    f[1] = p[1] * u[0] * u[1] - p[2] * u[1];
}

void
ode(const double x[3], double y[3])
{
    double u[2], k1[2], k2[2], w[2];
    double h = 0.05;
    u[0] = 1.0;
    u[1] = 0.5;
    for (int n = 0; n < 40; n++) {
        rhs(u, x, k1);
        for (int i = 0; i < 2; i++)
            w[i] = u[i] + h * k1[i];
        rhs(w, x, k2);
        for (int i = 0; i < 2; i++)
            u[i] = u[i] + 0.5 * h * (k1[i] + k2[i]);
    }
    y[0] = u[0];
    y[1] = u[1];
    y[2] = u[0] * u[1];
}
