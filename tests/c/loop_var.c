/* c2xaif-test: loop_var 3 2 */
/* Trip counts that depend on the data: (int) of an input, and a while loop
 * that runs until a value passes a bound. */
void
loop_var(const double x[3], double y[2])
{
    int n = 2 + (int)(3.0 * x[1]); /* 5 at the driver's point */
    double a = x[0];
    for (int k = 1; k <= n; k++)
        a = a * x[2] / k + x[0];
    y[0] = a;
    double b = x[2];
    int steps = 0;
    while (b < 10.0) {
        b = b * 1.5 + x[1];
        steps++;
    }
    y[1] = b + steps;
}
