/* fx_stmt.c: the statement records of a routine to its control-flow
 * graph: if chains, DO and DO WHILE loops, jumps, assignments. */
#include <stdlib.h>
#include <string.h>

#include "fx.h"

/* ------------------------------------------------------- statements */

static uint32_t block(fx *x, uint32_t i, const char **stop);

static void
at_line(fx *x, const fx_line *l)
{
    x->line = l->n > 1 ? (unsigned)atoi(l->tok[1]) : x->line;
    x->col = l->n > 2 ? (unsigned)atoi(l->tok[2]) : 0;
}

static void
jump_to(fx *x, uint32_t t)
{
    if (x->c.fn->live)
        cf_g_edge(&x->c, x->c.fn->cur, t, false, 0);
    x->c.fn->live = false;
}

/* An if (from line @i) with its elif/else arms to its endif; the line after. */
static uint32_t
if_chain(fx *x, uint32_t i)
{
    cf *c = &x->c;
    cf_fn *f = c->fn;
    const fx_line *l = &x->u->lines[i];
    at_line(x, l);
    int k = 3;
    cf_expr *e = fx_cond(x, l, &k);
    uint32_t B = cf_g_vertex(c, CF_V_BRANCH, x->line);
    f->v.v[B].cond = e;
    cf_g_go(c, B, false);
    XF_VEC(uint32_t) ends = {0};
    cf_g_arm(c, B, true, 1, x->line);
    const char *stop;
    i = block(x, i + 1, &stop);
    if (f->live && !XF_VEC_PUSH(c->a, ends, f->cur))
        cf_oom(c);
    if (strcmp(stop, "elif") == 0) {
        cf_g_arm(c, B, false, 0, x->line);
        i = if_chain(x, i); /* the elif as an if inside the else arm, to the same endif */
        if (f->live && !XF_VEC_PUSH(c->a, ends, f->cur))
            cf_oom(c);
    } else if (strcmp(stop, "else") == 0) {
        cf_g_arm(c, B, false, 0, x->line);
        i = block(x, i + 1, &stop);
        if (strcmp(stop, "endif") != 0)
            fx_refuse(x, "an else without its end if (the description is malformed)");
        if (f->live && !XF_VEC_PUSH(c->a, ends, f->cur))
            cf_oom(c);
        i++;
    } else if (strcmp(stop, "endif") == 0) {
        if (!XF_VEC_PUSH(c->a, ends, B))
            cf_oom(c);
        i++;
    } else
        fx_refuse(x, "an if without its end if (the description is malformed)");
    if (ends.n == 0) {
        f->live = false;
        return i;
    }
    uint32_t J = cf_g_vertex(c, CF_V_ENDBRANCH, 0);
    for (uint32_t n = 0; n < ends.n; n++)
        cf_g_edge(c, ends.v[n], J, false, 0);
    f->cur = J;
    f->live = true;
    f->open = false;
    return i;
}

/* A loop whose head @L (and end @E) are made: its body from line @i. */
static uint32_t
loop_body(fx *x, uint32_t L, uint32_t E, uint32_t i)
{
    cf *c = &x->c;
    cf_fn *f = c->fn;
    fx_jump j = {.up = x->jump, .cont = E};
    x->jump = &j;
    cf_g_arm(c, L, true, 1, x->line);
    const char *stop;
    i = block(x, i, &stop);
    if (strcmp(stop, "enddo") != 0)
        fx_refuse(x, "a do without its end do (the description is malformed)");
    x->jump = j.up;
    if (f->live)
        cf_g_edge(c, f->cur, E, false, 0);
    cf_g_edge(c, E, L, false, 0);
    f->cur = L;
    f->live = true;
    f->open = false;
    if (j.breaks.n) {
        uint32_t after = cf_g_vertex(c, CF_V_BB, 0);
        for (uint32_t n = 0; n < j.breaks.n; n++)
            cf_g_edge(c, j.breaks.v[n], after, false, 0);
        cf_g_go(c, after, true);
    }
    return i + 1;
}

static uint32_t
do_loop(fx *x, uint32_t i)
{
    cf *c = &x->c;
    const fx_line *l = &x->u->lines[i];
    at_line(x, l);
    if (l->n < 4)
        fx_refuse(x, "a do loop the description does not give");
    fx_sym *v = fx_lookup(x, l->tok[3]);
    if (!v->sym || v->sym->type != CF_INT || v->rank)
        fx_refuse(x, "do variable '%s' is not an integer scalar", v->name);
    int k = 4;
    cf_expr *lo = fx_expr(x, l, &k), *hi = fx_expr(x, l, &k), *step;
    bool down = false;
    if (strcmp(l->tok[k], "-") == 0) {
        step = fx_new_expr(x, CF_E_INT);
        step->ival = 1;
    } else {
        step = fx_expr(x, l, &k);
        if (step->kind == CF_E_OP && !strcmp(step->op, "minus_scal") &&
            step->a[0]->kind == CF_E_INT)
            down = true;
        else if (step->kind == CF_E_INT)
            down = step->ival < 0;
        else {
            /* a step known at run time: evaluated once, as Fortran does, and
             * its sign picks the test */
            if (cf_is_real(cf_expr_type(step)))
                fx_refuse(x, "a do loop whose step is real is not supported");
            cf_sym *t = cf_temp(c, "OpenAD_step", CF_INT);
            cf_emit_stmt(c, fx_assign_stmt(x, fx_ref_of(x, t), step));
            step = fx_ref_of(x, t);
        }
    }
    cf_fn *f = c->fn;
    uint32_t L = cf_g_vertex(c, CF_V_FORLOOP, x->line), E = cf_g_vertex(c, CF_V_ENDLOOP, 0);
    f->v.v[L].init = fx_assign_stmt(x, fx_ref_of(x, v->sym), lo);
    if (step->kind == CF_E_VAR)
        f->v.v[L].cond = fx_op(
            x, CF_E_BOOL, "or",
            fx_op(x, CF_E_BOOL, "and",
                  fx_op(x, CF_E_BOOL, "greater_than", step, fx_int_const(x, 0)),
                  fx_op(x, CF_E_BOOL, "less_or_equal", fx_ref_of(x, v->sym), hi)),
            fx_op(x, CF_E_BOOL, "and", fx_op(x, CF_E_BOOL, "less_than", step, fx_int_const(x, 0)),
                  fx_op(x, CF_E_BOOL, "greater_or_equal", fx_ref_of(x, v->sym), hi)));
    else
        f->v.v[L].cond = fx_op(x, CF_E_BOOL, down ? "greater_or_equal" : "less_or_equal",
                               fx_ref_of(x, v->sym), hi);
    f->v.v[L].update = fx_assign_stmt(
        x, fx_ref_of(x, v->sym), fx_op(x, CF_E_OP, "add_scal_scal", fx_ref_of(x, v->sym), step));
    cf_g_go(c, L, false);
    return loop_body(x, L, E, i + 1);
}

static uint32_t
while_loop(fx *x, uint32_t i)
{
    cf *c = &x->c;
    const fx_line *l = &x->u->lines[i];
    at_line(x, l);
    int k = 3;
    x->no_calls = true;
    cf_expr *e = fx_cond(x, l, &k);
    x->no_calls = false;
    uint32_t L = cf_g_vertex(c, CF_V_PRELOOP, x->line), E = cf_g_vertex(c, CF_V_ENDLOOP, 0);
    c->fn->v.v[L].cond = e;
    cf_g_go(c, L, false);
    return loop_body(x, L, E, i + 1);
}

static void
assignment(fx *x, const fx_line *l)
{
    int k = 3;
    if (strcmp(fx_tok(x, l, &k), "v") != 0)
        fx_refuse(x, "this assignment's left-hand side is not supported");
    int k0 = k;
    cf_expr *lhs;
    fx_sym *s = fx_lookup(x, fx_tok(x, l, &k));
    int n = atoi(fx_tok(x, l, &k));
    if (s->sym && s->rank && n == 0 && fx_whole_copy(x, l, k, s))
        return;
    if (s->sym && s->rank && (n == s->rank || n == 0)) {
        fx_sec sec;
        fx_section(x, l, &k, s, n, &sec);
        if (sec.n) {
            fx_array_assignment(x, l, k, s, &sec);
            return;
        }
        lhs = fx_ref_of(x, s->sym); /* an element */
        lhs->nsub = n;
        for (int i = 0; i < n; i++)
            lhs->sub[i] = sec.scal[n - 1 - i]; /* C order */
    } else {
        k = k0;
        lhs = fx_var(x, l, &k, true);
    }
    cf_expr *rhs = fx_expr(x, l, &k);
    if (rhs->kind == CF_E_VAR && rhs->sym->rank && !rhs->nsub)
        fx_refuse(x, "an array '%s' as a value is not supported", rhs->sym->name);
    cf_emit_stmt(&x->c, fx_assign_stmt(x, lhs, rhs));
}

/* What to write instead of a construct that the plugin leaves out ("x"
 * records), or "". */
static const char *
instead(const char *what)
{
    static const char *const hints[][2] = {
        {"i/o", " (move the I/O to the driver, outside the differentiated routines)"},
        {"statement", " (OPEN, CLOSE, pointer assignment, ...: keep them out of the "
                      "differentiated routines)"},
        {"internal-subprograms", " (make the internal procedures module procedures and pass "
                                 "the host's variables as arguments)"},
        {"format-entry-or-data-statement", " (initialise with assignments)"},
    };
    for (size_t i = 0; i < sizeof hints / sizeof *hints; i++)
        if (!strcmp(what, hints[i][0]))
            return hints[i][1];
    return "";
}

/* The block that label @n starts (made on first use). */
static fx_label *
label(fx *x, int64_t n)
{
    for (uint32_t i = 0; i < x->labels.n; i++)
        if (x->labels.v[i].n == n)
            return &x->labels.v[i];
    fx_label nl = {.n = n, .v = cf_g_vertex(&x->c, CF_V_BB, x->line)};
    if (!XF_VEC_PUSH(x->c.a, x->labels, nl))
        cf_oom(&x->c);
    return &x->labels.v[x->labels.n - 1];
}

/* "alloc L C NAME N ..." and "dealloc L C NAME": the flag of an allocatable
 * local whose bounds fx_unit.c made constant; other ALLOCATEs are refused. */
static void
allocation(fx *x, const fx_line *l, bool on)
{
    int k = 3;
    fx_sym *s = fx_lookup(x, fx_tok(x, l, &k));
    if (!s->flag)
        fx_refuse(x,
                  "%s of '%s' is not supported: only allocatable locals whose ALLOCATEs all "
                  "give the same constant bounds are (declare '%s' with them instead)",
                  on ? "ALLOCATE" : "DEALLOCATE", s->name, s->name);
    cf_emit_stmt(&x->c, fx_assign_stmt(x, fx_ref_of(x, s->flag), fx_int_const(x, on)));
}

/* Statements from line @i to the first of elif, else, endif, enddo (in
 * *@stop, "" at the end of the unit); the index of that line. */
static uint32_t
block(fx *x, uint32_t i, const char **stop)
{
    cf *c = &x->c;
    while (i < x->u->nlines) {
        const fx_line *l = &x->u->lines[i];
        const char *t = l->tok[0];
        if (!strcmp(t, "elif") || !strcmp(t, "else") || !strcmp(t, "endif") ||
            !strcmp(t, "enddo")) {
            *stop = t;
            return i;
        }
        if (!strcmp(t, "s")) {
            i++;
            continue;
        }
        at_line(x, l);
        if (!strcmp(t, "if"))
            i = if_chain(x, i);
        else if (!strcmp(t, "do"))
            i = do_loop(x, i);
        else if (!strcmp(t, "while"))
            i = while_loop(x, i);
        else {
            if (!strcmp(t, "a"))
                assignment(x, l);
            else if (!strcmp(t, "c"))
                fx_call(x, l);
            else if (!strcmp(t, "lbl") && l->n == 4) {
                fx_label *lb = label(x, atoll(l->tok[3]));
                lb->defined = true;
                cf_g_go(c, lb->v, true);
            } else if (!strcmp(t, "goto") && l->n == 4) {
                fx_label *lb = label(x, atoll(l->tok[3]));
                if (!lb->defined) {
                    lb->line = x->line;
                    lb->col = x->col;
                }
                jump_to(x, lb->v);
            } else if (!strcmp(t, "alloc") || !strcmp(t, "dealloc"))
                allocation(x, l, t[0] == 'a');
            else if (!strcmp(t, "ret"))
                jump_to(x, c->fn->exit);
            else if (!strcmp(t, "exit") || !strcmp(t, "cycle")) {
                if (!x->jump)
                    fx_refuse(x, "%s outside a loop", t);
                if (t[0] == 'c')
                    jump_to(x, x->jump->cont);
                else {
                    if (c->fn->live && !XF_VEC_PUSH(c->a, x->jump->breaks, c->fn->cur))
                        cf_oom(c);
                    c->fn->live = false;
                }
            } else if (!strcmp(t, "stop"))
                fx_refuse(x, "STOP is not supported");
            else if (!strcmp(t, "x"))
                fx_refuse(x, "%s is not supported%s", l->n > 3 ? l->tok[3] : "this statement",
                          instead(l->n > 3 ? l->tok[3] : ""));
            else
                fx_refuse(x, "statement record '%s' is unknown (plugin and front end differ)", t);
            i++;
        }
    }
    *stop = "";
    return i;
}

void
fx_walk(fx *x, cf_fn *f)
{
    fx_unit *u = NULL;
    for (uint32_t i = 0; i < x->units.n && !u; i++)
        if (x->units.v[i].fn == f)
            u = &x->units.v[i];
    x->u = u;
    x->file = u->file;
    x->line = u->line;
    x->col = u->col;
    x->c.fn = f;
    x->jump = NULL;
    uint32_t entry = cf_g_vertex(&x->c, CF_V_ENTRY, u->line);
    f->exit = cf_g_vertex(&x->c, CF_V_EXIT, 0);
    f->cur = entry;
    f->live = true;
    f->open = false;
    x->labels.n = 0;
    for (int k = 0; k < u->nsyms; k++)
        if (u->syms[k].alloc) { /* not allocated on entry */
            u->syms[k].flag = cf_temp(&x->c, "OpenAD_allocated", CF_INT);
            cf_emit_stmt(&x->c,
                         fx_assign_stmt(x, fx_ref_of(x, u->syms[k].flag), fx_int_const(x, 0)));
        }
    const char *stop;
    uint32_t i = block(x, 0, &stop);
    if (*stop) {
        at_line(x, &u->lines[i]);
        fx_refuse(x, "'%s' without its opening statement (the description is malformed)", stop);
    }
    for (uint32_t k = 0; k < x->labels.n; k++)
        if (!x->labels.v[k].defined) {
            x->line = x->labels.v[k].line;
            x->col = x->labels.v[k].col;
            fx_refuse(x,
                      "GOTO %lld: its label is not on a simple statement (put it on a "
                      "CONTINUE)",
                      (long long)x->labels.v[k].n);
        }
    if (f->live)
        cf_g_edge(&x->c, f->cur, f->exit, false, 0);
    x->c.fn = NULL;
}
