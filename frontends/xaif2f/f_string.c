/* f_string.c: character strings (the xaif types string and char) as
 * Fortran's CHARACTER. The xaif gives no length: a formal is
 * character(len=*) (its length is the actual's), any other scalar
 * character(len=:), allocatable (an assignment gives it the length of what
 * is assigned). Strings have no derivative and no tape here: a push or an
 * argument checkpoint of one is refused where the inlinable call is. */
#include <string.h>

#include "f_impl.h"

bool
fw_is_string(const xf_symbol *s)
{
    return s->type == XF_TYPE_STRING || s->type == XF_TYPE_CHAR;
}

const char *
fw_string_ftype(fw *w, const xf_symbol *s, uint32_t line)
{
    if (w->syms[s->index].formal)
        return "character(len=*)";
    if (xf_shape_rank(s->shape) > 0) {
        fw_refuse(w, line ? line : s->h.line,
                  "%s is an array of strings that is no formal argument (its length is "
                  "nowhere in the xaif)",
                  s->id);
        return NULL;
    }
    return "character(len=:), allocatable";
}

bool
fw_string_const(fw *w, const char *val, uint32_t line)
{
    for (const char *p = val; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e) {
            fw_refuse(w, line, "the string constant '%s' has a character that is not printable",
                      val);
            return false;
        }
    fputc('\'', w->o);
    for (const char *p = val; *p; p++)
        fputs(*p == '\'' ? "''" : (char[2]){*p, 0}, w->o);
    fputc('\'', w->o);
    return true;
}

const char *
fw_string_op(const char *name)
{
    static const char *const ops[][2] = {
        {"string_eq_scal_scal", "equal"},        {"string_ne_scal_scal", "not_equal"},
        {"string_lt_scal_scal", "less_than"},    {"string_le_scal_scal", "less_or_equal"},
        {"string_gt_scal_scal", "greater_than"}, {"string_ge_scal_scal", "greater_or_equal"},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strcmp(name, ops[i][0]))
            return ops[i][1];
    return NULL;
}
