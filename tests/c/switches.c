/* c2xaif-test: switches 3 2 */
/* switch on an integer: cases, a shared label, fall-through, default. */
void
switches(const double x[3], double y[2])
{
    double s = 0.0;
    for (int i = 0; i < 6; i++) {
        switch (i % 4) {
        case 0:
            s = s + x[0];
            break;
        case 1:
        case 2:
            s = s * x[1];
            /* fall through */
        case 3:
            s = s + x[2] * i;
            break;
        }
        switch (i) {
        case 5:
            s = s - 1.0;
            break;
        default:
            s = s * 0.9;
        }
    }
    y[0] = s;
    y[1] = s * x[0];
}
