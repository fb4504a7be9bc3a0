/* c2xaif-test: rk4 3 2 */
#include <math.h>

/* A damped pendulum by the classical Runge-Kutta method: x = (angle,
 * velocity, damping), 50 steps of 0.02. */
static void
pend(const double u[2], double c, double f[2])
{
    f[0] = u[1];
    f[1] = -sin(u[0]) - c * u[1];
}

void
rk4(const double x[3], double y[2])
{
    double u[2] = {x[0], x[1]}, k1[2], k2[2], k3[2], k4[2], w[2];
    const double h = 0.02;
    for (int n = 0; n < 50; n++) {
        pend(u, x[2], k1);
        for (int i = 0; i < 2; i++)
            w[i] = u[i] + 0.5 * h * k1[i];
        pend(w, x[2], k2);
        for (int i = 0; i < 2; i++)
            w[i] = u[i] + 0.5 * h * k2[i];
        pend(w, x[2], k3);
        for (int i = 0; i < 2; i++)
            w[i] = u[i] + h * k3[i];
        pend(w, x[2], k4);
        for (int i = 0; i < 2; i++)
            u[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
    y[0] = u[0];
    y[1] = u[1];
}
