/* opts_fixture.h: the passes' options for a test, set as the command line
 * sets them (xf_pm_option), since each pass keeps its own (xf_pass_own). */
#ifndef XF_TESTS_OPTS_FIXTURE_H
#define XF_TESTS_OPTS_FIXTURE_H

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "passmgr.h"

/* Set option @name (with @arg, NULL for a switch) of @o; the test fails if refused. */
static inline void
opt_set(xf_opts *o, const char *name, const char *arg)
{
    char err[300];
    ck_assert_msg(xf_pm_option(o, name, arg, err, sizeof err) == 0, "--%s %s: %s", name,
                  arg ? arg : "", err);
}

/* The defaults, with preaccumulate's --elimination @e. */
static inline void
opt_init(xf_opts *o, xf_elimination e)
{
    static const char *const names[] = {[XF_ELIM_BEST] = "best",
                                        [XF_ELIM_FORWARD] = "forward",
                                        [XF_ELIM_REVERSE] = "reverse",
                                        [XF_ELIM_MARKOWITZ] = "markowitz"};
    xf_pm_opts_init(o);
    opt_set(o, "elimination", names[e]);
}

/* adjoin's --tape-off from the bits of tbr.h (1 invert, 2 values, 4 live, 8 cut). */
static inline void
opt_tape_off(xf_opts *o, unsigned bits)
{
    static const char *const names[] = {"invert", "values", "live", "cut"};
    char list[64] = "none";
    size_t at = 0;
    for (unsigned k = 0; k < 4; k++)
        if (bits & (1u << k))
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", at ? "," : "", names[k]);
    opt_set(o, "tape-off", list);
}

#endif
