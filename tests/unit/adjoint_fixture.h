/* adjoint_fixture.h: running a program's adjoint under both drivers
 * (joint and split) and checking its Jacobian and that every tape word
 * pushed is popped, for test_adjoint.c and test_unstruct.c. */
#ifndef XF_TESTS_ADJOINT_FIXTURE_H
#define XF_TESTS_ADJOINT_FIXTURE_H

#include "derive_fixture.h"

typedef xb *(*program)(const char *name);

static const xf_driver sweeps[2] = {XF_DRIVER_ADJOINT_JOINT, XF_DRIVER_ADJOINT_SPLIT};

/* Run @p's adjoint under both drivers; check the Jacobian and the tapes.
 * @st (may be NULL) receives the joint run's counts. */
static void
adjoint_both(program p, const char *name, const double *want, int m, int n, xf_run_stats *st)
{
    for (int k = 0; k < 2; k++) {
        tg t;
        derive(&t, p(name), "adjoint", XF_ELIM_BEST, sweeps[k], n, m);
        assert_jac(&t, want, m, n);
        for (int w = 0; w < XF_WORD_KINDS; w++)
            ck_assert_msg(t.st.push[w] == t.st.pop[w],
                          "%s: %llu words of kind %d pushed, %llu popped",
                          xf_driver_name(sweeps[k]), (unsigned long long)t.st.push[w], w,
                          (unsigned long long)t.st.pop[w]);
        if (st && k == 0)
            *st = t.st;
        tan_fini(&t);
    }
}

#define ADJOINT(p, st, m, n, ...)                                                                  \
    do {                                                                                           \
        const double want_[] = {__VA_ARGS__};                                                      \
        ck_assert_uint_eq(sizeof want_ / sizeof want_[0], (size_t)(m) * (size_t)(n));              \
        adjoint_both((p), __func__, want_, (m), (n), (st));                                        \
    } while (0)

#endif
