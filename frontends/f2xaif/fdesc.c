/* fdesc.c: the plugin's descriptions of Fortran units to xaif: the top
 * routine and its independents and dependents, then each routine's graph
 * (fx_stmt.c), the C front end's analysis and writer. The format and the
 * mapping are in docs/fortran-frontend.md. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fx.h"

/* ---------------------------------------------------------------- top */

static const char **
names(fx *x, const char *const *given, const fx_pragma *p, int np, bool dep, const fx_unit *top)
{
    if (given)
        return (const char **)given;
    const char **v = cf_alloc(&x->c, ((size_t)np + 1) * sizeof *v);
    int n = 0;
    for (int i = 0; i < np; i++) {
        if (p[i].dep != dep || strcmp(p[i].file, top->file) != 0 || p[i].line < top->line)
            continue;
        /* the unit the line belongs to: the last one of the file starting before it */
        const fx_unit *in = NULL;
        for (uint32_t k = 0; k < x->units.n; k++)
            if (x->units.v[k].file == top->file && x->units.v[k].line <= p[i].line &&
                (!in || x->units.v[k].line > in->line))
                in = &x->units.v[k];
        if (in == top)
            v[n++] = cf_strdup(&x->c, p[i].name);
    }
    return v;
}

int
fx_translate(const xf_f2xaif_opts *o, fx_input *in, int nin, const fx_pragma *p, int np, FILE *err)
{
    fx *x = calloc(1, sizeof *x);
    if (!x) {
        fprintf(err, "xaiform f2xaif: out of memory\n");
        return 3;
    }
    x->c.err = err;
    x->c.a = xf_arena_new();
    x->c.o = &x->co;
    int status = 0;
    if (!x->c.a) {
        free(x);
        fprintf(err, "xaiform f2xaif: out of memory\n");
        return 3;
    }
    if (setjmp(x->c.fail)) {
        status = x->c.status;
        goto out;
    }
    for (int i = 0; i < nin; i++)
        fx_split_lines(x, in[i].file, in[i].text);
    /* the modules' variables first, so that they keep their declared order */
    for (uint32_t i = 0; i < x->units.n; i++)
        if (strcmp(x->units.v[i].kind, "mod") == 0)
            fx_declare(x, &x->units.v[i], NULL);
    char lower[256];
    snprintf(lower, sizeof lower, "%s", o->function ? o->function : "head");
    for (char *q = lower; *q; q++)
        *q = (char)tolower((unsigned char)*q);
    fx_unit *top = fx_find_unit(x, lower, true);
    for (uint32_t i = 0; !top && !o->function && i < x->units.n; i++)
        if (x->units.v[i].file == in[nin - 1].file && strcmp(x->units.v[i].kind, "mod") != 0)
            top = &x->units.v[i]; /* no head: the first routine of the last file */
    if (!top) {
        fprintf(err, "%s: error: no subroutine or function '%s'\n", in[0].file,
                o->function ? o->function : "head");
        status = 1;
        goto out;
    }
    x->co.file = top->file;
    x->co.function = top->name;
    x->co.out = o->out;
    x->co.indep = names(x, o->indep, p, np, false, top);
    x->co.dep = names(x, o->dep, p, np, true, top);
    if (!x->co.indep[0] || !x->co.dep[0]) {
        fprintf(err, "%s:%u: error: no %s for '%s': give --%s or a c$openad %s(NAME) line in it\n",
                top->file, top->line, !x->co.indep[0] ? "independents" : "dependents", top->name,
                !x->co.indep[0] ? "independent" : "dependent",
                !x->co.indep[0] ? "INDEPENDENT" : "DEPENDENT");
        status = 1;
        goto out;
    }
    cf_fn *f = fx_fn_of(x, top);
    for (uint32_t i = 0; i < x->c.fns.n; i++)
        fx_walk(x, x->c.fns.v[i]);
    cf_analyze(&x->c, f);
    if (cf_write(&x->c, o->out) != 0)
        status = 1;
out:
    xf_arena_free(x->c.a);
    free(x);
    return status;
}
