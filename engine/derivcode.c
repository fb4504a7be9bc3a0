/* derivcode.c: what marks a document as derivative code already (see
 * xf_derivmark in ir.h): the names of the inlinable calls that only
 * differentiated code makes, and the record of the first such construct. */
#include "ir.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Propagator and tape routines, whole names (xaifBooster's adjoint outputs
 * and ours; OpenAD's run-time library names them so). */
static const char *const whole[] = {
    "SetDeriv", "SetNegDeriv", "IncDeriv", "DecDeriv", "ZeroDeriv", "CondIncZeroDeriv",
    "Sax",      "Saxpy",       "push",     "pop",      "apush",     "apop",
};
/* Families: push_s0, pop_i_s1, cp_arg_store_real_scalar_a, ... */
static const char *const prefix[] = {"push_", "pop_", "cp_arg_", "cp_res_"};

bool
xf_deriv_icall(const char *name)
{
    if (!name)
        return false;
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        if (!strcasecmp(name, whole[i]))
            return true;
    for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
        if (!strncasecmp(name, prefix[i], strlen(prefix[i])))
            return true;
    return false;
}

void
xf_doc_mark_deriv(xf_doc *doc, const char *what, const char *detail, uint32_t line)
{
    if (doc->deriv.what)
        return;
    doc->deriv = (xf_derivmark){.what = what, .detail = detail, .line = line};
}

const char *
xf_derivmark_text(const xf_derivmark *m, char *buf, size_t len)
{
    if (!m->what)
        snprintf(buf, len, "no derivative construct");
    else
        snprintf(buf, len, "<xaif:%s%s%s>", m->what, m->detail ? " " : "",
                 m->detail ? m->detail : "");
    return buf;
}
