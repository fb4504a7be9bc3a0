/* c2xaif-test: calls 3 3 */
/* Calls with arrays: a callee that writes an array parameter, a function
 * whose value is used in an expression, a scalar parameter the callee
 * changes (the caller's variable must not change), nested calls. */
static void
scale(double v[3], double f)
{
    for (int i = 0; i < 3; i++)
        v[i] = v[i] * f;
    f = 0.0;
}

static double
dot(const double a[3], const double b[3])
{
    double s = 0.0;
    for (int i = 0; i < 3; i++)
        s += a[i] * b[i];
    return s;
}

static double
sq(double a)
{
    return a * a;
}

void
calls(const double x[3], double y[3])
{
    double w[3];
    double f = x[1];
    for (int i = 0; i < 3; i++)
        w[i] = x[i] + 1.0;
    scale(w, f);
    y[0] = dot(w, x) * f;
    y[1] = sq(dot(x, x)) + sq(w[2]);
    y[2] = w[0];
}
