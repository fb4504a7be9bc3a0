/* c2xaif-test: lorenz 3 3 */
/* The Lorenz system from the initial state x, explicit Euler, 200 steps. */
void
lorenz(const double x[3], double y[3])
{
    double u = x[0], v = x[1], w = x[2];
    const double sigma = 10.0, rho = 28.0, beta = 8.0 / 3.0, h = 0.001;
    for (int n = 0; n < 200; n++) {
        double du = sigma * (v - u);
        double dv = u * (rho - w) - v;
        double dw = u * v - beta * w;
        u += h * du;
        v += h * dv;
        w += h * dw;
    }
    y[0] = u;
    y[1] = v;
    y[2] = w;
}
