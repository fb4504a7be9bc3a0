/* unused.c: for tests/xaif2f/unused.cmake. z is independent, but no
 * derivative flows from it (a truncation): head_d's zd and head_b's zb are
 * referenced by no statement of the derivative code. The first IF has an
 * empty THEN, the second an empty ELSE; neither may be written empty. */
void
head(double x[2], double z[1], double y[2])
{
    y[0] = (int)z[0] * 2.5;
    if (x[1] > 0.0) {
    } else {
        y[0] = y[0] * x[1];
    }
    if (x[0] > 0.0) {
        y[1] = x[0] * x[1];
    } else {
        ;
    }
}
