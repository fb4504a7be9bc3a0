/* tbr_opts.c: adjoin's --tape-off LIST (tbr.h): the tape savings to leave
 * out, for comparisons and tests. */
#include <stdio.h>
#include <string.h>

#include "pass.h"
#include "tbr.h"

static const struct {
    const char *name;
    unsigned bit;
} names[] = {
    {"invert", XF_TAPE_OFF_INVERT}, {"values", XF_TAPE_OFF_VALUES}, {"live", XF_TAPE_OFF_LIVE},
    {"cut", XF_TAPE_OFF_CUT},       {"all", XF_TAPE_OFF_ALL},       {"none", 0},
};

int
xf_tbr_parse_off(unsigned *out, const char *arg, char *err, size_t len)
{
    unsigned off = 0;
    const char *p = arg;
    while (*p) {
        size_t n = strcspn(p, ",");
        size_t k = 0;
        while (k < sizeof names / sizeof names[0] &&
               (strlen(names[k].name) != n || strncmp(names[k].name, p, n) != 0))
            k++;
        if (k == sizeof names / sizeof names[0]) {
            snprintf(err, len,
                     "unknown tape saving '%.*s' (invert, values, live, cut, all or none)", (int)n,
                     p);
            return -1;
        }
        off |= names[k].bit;
        p += n + (p[n] == ',');
    }
    *out = off;
    return 0;
}
