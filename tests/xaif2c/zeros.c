/* zeros.c: xf_ad_zeros (include/xaiform/ad.h) takes its memory from
 * malloc and zeroes it, not from calloc, which glibc serves without its
 * per-thread cache (about 370 instructions a call against malloc's 41 in
 * ADBench LSTM's joint adjoint, which allocates a work array per call of
 * lstm_model). This program's own calloc counts its calls; the zeros
 * must be zeros even in a block that malloc hands back dirty, and in a
 * block xf_ad_drop kept. Exit 0 when xf_ad_zeros called no calloc,
 * returned zeros and gave a dropped block back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xaiform/ad.h"

static int callocs;

void *
calloc(size_t n, size_t size)
{
    callocs++;
    if (size && n > (size_t)-1 / size)
        return NULL;
    unsigned char *p = malloc(n * size);
    for (size_t i = 0; p && i < n * size; i++)
        ((volatile unsigned char *)p)[i] = 0; /* no memset: gcc makes it calloc */
    return p;
}

int
main(void)
{
    for (int round = 0; round < 3; round++) {
        double *dirty = malloc(56 * sizeof *dirty);
        if (!dirty)
            return 2;
        for (int i = 0; i < 56; i++)
            dirty[i] = 1.0 + i;
        free(dirty);
        int before = callocs;
        double *z = xf_ad_zeros(56);
        if (callocs != before) {
            fprintf(stderr, "zeros: xf_ad_zeros called calloc\n");
            return 1;
        }
        for (int i = 0; i < 56; i++)
            if (z[i] != 0.0) {
                fprintf(stderr, "zeros: element %d is %g\n", i, z[i]);
                return 1;
            }
        xf_ad_drop(z);
    }
    /* a dropped block is kept: the next request it holds gets it back,
     * zeroed (the heap's top is not given back and taken again) */
    double *a = xf_ad_zeros(100), *b = xf_ad_zeros(40);
    for (int i = 0; i < 100; i++)
        a[i] = 2.0 + i;
    xf_ad_drop(a);
    xf_ad_drop(b);
    double *c = xf_ad_zeros(90);
    if (c != a) {
        fprintf(stderr, "zeros: a dropped block of 100 was not given back for 90\n");
        return 1;
    }
    for (int i = 0; i < 90; i++)
        if (c[i] != 0.0) {
            fprintf(stderr, "zeros: kept block, element %d is %g\n", i, c[i]);
            return 1;
        }
    xf_ad_drop(c);
    if (xf_ad_kept.k == 0) {
        fprintf(stderr, "zeros: no block kept after xf_ad_drop\n");
        return 1;
    }
    xf_ad_release(); /* frees the kept blocks too */
    if (xf_ad_kept.k != 0) {
        fprintf(stderr, "zeros: xf_ad_release left %d blocks kept\n", xf_ad_kept.k);
        return 1;
    }
    puts("zeros: xf_ad_zeros zeroes malloc's memory, no calloc, keeps dropped blocks until "
         "xf_ad_release");
    return 0;
}
