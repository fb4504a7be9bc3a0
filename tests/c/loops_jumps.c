/* c2xaif-test: loops_jumps 3 3 */
/* do-while, while with break and continue, a for loop left by break. */
void
loops_jumps(const double x[3], double y[3])
{
    double a = x[0];
    int k = 0;
    do {
        a = a * x[1] + 0.25;
        k++;
    } while (k < 4);
    y[0] = a;

    double b = 0.0;
    int i = 0;
    while (i < 10) {
        i++;
        if (i % 3 == 0)
            continue;
        b = b + x[2] * i;
        if (b > 20.0)
            break;
    }
    y[1] = b;

    double c = x[1];
    for (int j = 0; j < 100; j++) {
        c = c * 1.1 + x[0];
        if (c > 5.0)
            break;
    }
    y[2] = c;
}
