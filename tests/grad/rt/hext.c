/* rt-test: --function hext --independent x --dependent y --extent x=n,y=n-1,diffs:a=k+1,ends:e=2 */
/* --extent FUNC:PARAM=E for helpers whose uses say nothing of their
 * extent: diffs() reads a[i + 1] under i < k (k + 1 elements, given as
 * diffs:a=k+1, an expression of diffs' own parameter k) and ends() reads
 * e[j] with j a local (2 elements, given as ends:e=2). */
static void
diffs(int k, const double *a, double *out)
{
    for (int i = 0; i < k; i++)
        out[i] = a[i + 1] * a[i + 1] - a[i];
}

static double
ends(const double *e)
{
    int j = 1;
    return e[0] * e[j];
}

void
hext(const double *x, double *y, int n)
{
    diffs(n - 1, x, y);
    y[0] = y[0] + ends(x) + ends(&x[n - 2]);
}
