/* fuzz_fail.h: how a fuzz target reports what broke and stops: the target
 * and its mode, the diagnostics, and the text it broke on, then abort()
 * (libFuzzer keeps the input). For the fuzz targets only. */
#ifndef XF_TESTS_FUZZ_FAIL_H
#define XF_TESTS_FUZZ_FAIL_H

#include <stdio.h>
#include <stdlib.h>

#include "diag.h"

static void
fuzz_fail(const char *target, const char *what, const char *mode, const xf_diag *diag,
          const char *text, size_t len)
{
    fprintf(stderr, "%s: %s (%s)\n", target, what, mode);
    for (size_t i = 0; i < xf_diag_count(diag); i++)
        fprintf(stderr, "  %s\n", xf_diag_message(diag, i));
    if (text)
        fprintf(stderr, "--- written text (%zu bytes) ---\n%.*s\n---\n", len,
                len > 4000 ? 4000 : (int)len, text);
    abort();
}

#endif
