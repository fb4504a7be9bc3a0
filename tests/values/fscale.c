/* fscale: float stays float: a by-value float work variable, a const
 * float array and a float result, all computed in single precision. */
float
fscale(float x, const float *w, int n)
{
    float s = x;
    for (int i = 0; i < n; i++) {
        s = s * w[i] + x * x;
        x = x * 0.5f - w[i];
    }
    return s;
}
