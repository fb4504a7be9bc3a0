/* f_struct.c: a structured control-flow graph as Fortran blocks: DO, DO
 * WHILE, IF / ELSE and SELECT CASE, from the tree that
 * frontends/backend/cfg_struct.c makes. An early return is a GOTO the
 * routine's exit label. Each nested body is indented two more columns. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_struct.h"
#include "f_impl.h"

static void seq(fw *w, const xf_snode *n);

/* Text written between nest_begin and nest_end is indented two columns. */
typedef struct nest {
    FILE *saved, *m;
    char *s;
    size_t len;
} nest;

static bool
nest_begin(fw *w, nest *b)
{
    *b = (nest){.saved = w->o};
    if (!(b->m = open_memstream(&b->s, &b->len))) {
        fw_refuse(w, 0, "out of memory");
        return false;
    }
    w->o = b->m;
    return true;
}

static void
nest_end(fw *w, nest *b)
{
    fclose(b->m);
    w->o = b->saved;
    for (char *p = b->s; p && *p;) {
        char *nl = strchr(p, '\n');
        size_t k = nl ? (size_t)(nl - p) + 1 : strlen(p);
        fprintf(w->o, "  %.*s", (int)k, p);
        p += k;
    }
    free(b->s);
}

static void
nested(fw *w, const xf_snode *n)
{
    nest b;
    if (n && nest_begin(w, &b)) {
        seq(w, n);
        nest_end(w, &b);
    }
}

static void
write_nested(fw *w, const void *n)
{
    nested(w, n);
}

/* The indented text of @n (malloc'd, "" where it writes nothing); NULL
 * after a refusal. */
static char *
nested_text(fw *w, const xf_snode *n)
{
    return fw_text(w, write_nested, n);
}

/* The text of @x at @root (UINT32_MAX: its root), or of @r when @x is NULL,
 * and its type; NULL after a refusal. */
static char *
text(fw *w, const xf_expr *x, uint32_t root, const xf_varref *r, fw_type *t)
{
    FILE *saved = w->o;
    char *s = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&s, &len);
    if (!m) {
        fw_refuse(w, 0, "out of memory");
        return NULL;
    }
    w->o = m;
    *t = !x ? fw_ref(w, r, false) : root == UINT32_MAX ? fw_expr(w, x) : fw_expr_at(w, x, root);
    fclose(m);
    w->o = saved;
    if (*t == FT_BAD || w->failed) {
        free(s);
        return NULL;
    }
    return s;
}

/* Write the test "condition @c (of type @t) equals @k" (@eq) or differs. */
static void
test(fw *w, const char *c, fw_type t, long long k, bool eq)
{
    if (t == FT_BOOL) {
        if (k != 0 && k != 1)
            fputs(eq ? ".false." : ".true.", w->o);
        else if ((k == 1) == eq)
            fputs(c, w->o);
        else
            fprintf(w->o, ".not. (%s)", c);
    } else
        fprintf(w->o, "%s(%s) %s %lld", t == FT_REAL ? "int" : "", c, eq ? "==" : "/=", k);
}

/* DO WHILE's test of loop @n: whether its body's edge is taken. */
static bool
loop_test(fw *w, const xf_snode *n)
{
    const xf_cvertex *v = n->v;
    uint32_t up;
    if (xf_cfg_strided_do(v, &up)) { /* DO i = l, u, s: i <= u for s > 0, i >= u otherwise */
        for (int neg = 0; neg < 2; neg++) {
            fputs(neg ? " .or. ((" : "((", w->o);
            fw_expr(w, &v->update->u.as.rhs);
            fputs(") - ", w->o);
            fw_ref(w, &v->update->u.as.lhs, false);
            fputs(neg ? " <= 0 .and. " : " > 0 .and. ", w->o);
            fw_ref(w, &v->update->u.as.lhs, false);
            fputs(neg ? " >= " : " <= ", w->o);
            fw_expr_at(w, v->cond, up);
            fputs(")", w->o);
        }
        return !w->failed;
    }
    fw_type t;
    char *c = text(w, v->cond, UINT32_MAX, NULL, &t);
    if (!c)
        return false;
    if (xf_cedge_valued(n->edge))
        test(w, c, t, xf_cedge_value(n->edge), true);
    else /* the exit edge has the value (body_edge of cfg_struct.c) */
        test(w, c, t, xf_cedge_value(n->exit_edge), false);
    free(c);
    return true;
}

/* DO var = lower, upper, step, when every bound is an integer. */
static bool
counted(fw *w, const xf_snode *n, const xf_cfg_do *d)
{
    fw_type tv, tl, tu, ts;
    char *var = text(w, NULL, 0, d->var, &tv);
    char *lo = var ? text(w, d->lower, UINT32_MAX, NULL, &tl) : NULL;
    char *hi = lo ? text(w, d->upper, d->upper_v, NULL, &tu) : NULL;
    char *st = hi ? text(w, d->step, d->step_v, NULL, &ts) : NULL;
    bool ok = st && tv == FT_INT && tl == FT_INT && tu == FT_INT && ts == FT_INT;
    if (ok) {
        fprintf(w->o, "  do %s = %s, ", var, lo);
        if (d->adjust)
            fprintf(w->o, "(%s) %c 1", hi, d->adjust < 0 ? '-' : '+');
        else
            fputs(hi, w->o);
        if (d->minus)
            fprintf(w->o, ", -(%s)", st);
        else if (strcmp(st, "1"))
            fprintf(w->o, ", %s", st);
        fputs("\n", w->o);
        nested(w, n->body);
        fputs("  end do\n", w->o);
    }
    free(var);
    free(lo);
    free(hi);
    free(st);
    return ok;
}

/* Does the code of @n (and what follows it) call a routine? */
static bool
calls(const xf_snode *n)
{
    for (; n; n = n->next) {
        for (uint32_t i = 0; n->kind == XF_SN_BLOCK && i < n->v->stmts.n; i++)
            if (n->v->stmts.v[i]->kind == XF_STMT_CALL)
                return true;
        if (n->body && calls(n->body))
            return true;
    }
    return false;
}

/* Does expression @x name a host's variable (fw_host_var)? */
static bool
names_host_var(const fw *w, const xf_expr *x)
{
    for (uint32_t i = 0; x && i < x->v.n; i++) {
        const xf_symref *sr =
            x->v.v[i].kind == XF_EV_VARREF ? xf_varref_symref(x->v.v[i].u.ref) : NULL;
        if (sr && fw_host_var(w, sr->sym))
            return true;
    }
    return false;
}

/* May a call in the body of DO loop @n change its variable or what its
 * bounds read? An internal routine writes its host's variables with no
 * argument (cfg_struct.c sees only the arguments and the globals); and
 * gfortran refuses a DO variable that a routine called in the loop may
 * set, as an argument checkpoint's restore does. */
static bool
host_do(const fw *w, const xf_snode *n, const xf_cfg_do *d)
{
    const xf_symref *sr = xf_varref_symref(d->var);
    return (fw_host_var(w, sr ? sr->sym : NULL) || names_host_var(w, d->lower) ||
            names_host_var(w, d->upper) || names_host_var(w, d->step)) &&
           calls(n->body);
}

static void
loop(fw *w, const xf_snode *n)
{
    const xf_cvertex *v = n->v;
    xf_cfg_do d;
    if (xf_cfg_counted_do(n, &d) && !host_do(w, n, &d) && counted(w, n, &d))
        return;
    if (w->failed)
        return;
    bool for_loop = v->kind == XF_CV_FORLOOP;
    if (for_loop && v->init)
        fw_stmt(w, v->init);
    fputs("  do while (", w->o);
    if (!loop_test(w, n))
        return;
    fputs(")\n", w->o);
    nested(w, n->body);
    nest b;
    if (for_loop && v->update && nest_begin(w, &b)) {
        fw_stmt(w, v->update);
        nest_end(w, &b);
    }
    fputs("  end do\n", w->o);
}

/* IF (first) THEN ... ELSE (second) ...: @first is taken where the condition
 * @c equals @k; @second (NULL: none may be taken) otherwise. An arm that
 * writes no code is left out (no empty THEN or ELSE). */
static void
if_else(fw *w, const char *c, fw_type t, long long k, const xf_snode *first, const xf_snode *second)
{
    char *a = nested_text(w, first->body);
    char *b = a && second ? nested_text(w, second->body) : NULL;
    if (!a || (second && !b)) {
        free(a);
        return;
    }
    static const char stop[] = "    error stop 'xaiform: no out-edge for this condition value'\n";
    const char *other = second ? b : stop;
    if (*a || *other) { /* else nothing to choose between: no effect */
        bool neg = !*a; /* IF (.NOT. c) THEN other */
        fputs("  if (", w->o);
        test(w, c, t, k, !neg);
        fprintf(w->o, ") then\n%s", neg ? other : a);
        if (!neg && *other)
            fprintf(w->o, "  else\n%s", other);
        fputs("  end if\n", w->o);
    }
    free(a);
    free(b);
}

static void
branch(fw *w, const xf_snode *n)
{
    fw_type t;
    char *c = text(w, n->v->cond, UINT32_MAX, NULL, &t);
    if (!c)
        return;
    const xf_snode *dflt = NULL, *one = NULL, *zero = NULL, *val = NULL;
    uint32_t nval = 0;
    for (const xf_snode *a = n->body; a; a = a->next) {
        if (!xf_cedge_valued(a->edge)) {
            dflt = a;
            continue;
        }
        long long k = xf_cedge_value(a->edge);
        if (t == FT_BOOL && k != 0 && k != 1)
            continue; /* never taken */
        nval++;
        val = a;
        if (k == 1)
            one = a;
        else if (k == 0)
            zero = a;
    }
    if (t == FT_BOOL) {
        if (one)
            if_else(w, c, t, 1, one, zero ? zero : dflt);
        else if (zero)
            if_else(w, c, t, 0, zero, dflt);
        else if (dflt)
            seq(w, dflt->body);
        else
            fputs("  error stop 'xaiform: no out-edge for this condition value'\n", w->o);
    } else if (nval == 1 && dflt)
        if_else(w, c, t, xf_cedge_value(val->edge), val, dflt);
    else {
        fprintf(w->o, "  select case (%s%s%s)\n", t == FT_REAL ? "int(" : "", c,
                t == FT_REAL ? ")" : "");
        for (const xf_snode *a = n->body; a; a = a->next)
            if (xf_cedge_valued(a->edge)) {
                fprintf(w->o, "  case (%lld)\n", xf_cedge_value(a->edge));
                nested(w, a->body);
            }
        fputs("  case default\n", w->o);
        if (dflt)
            nested(w, dflt->body);
        else
            fputs("    error stop 'xaiform: no out-edge for this condition value'\n", w->o);
        fputs("  end select\n", w->o);
    }
    free(c);
}

static void
seq(fw *w, const xf_snode *n)
{
    for (; n && !w->failed; n = n->next)
        switch (n->kind) {
        case XF_SN_BLOCK:
            for (uint32_t i = 0; i < n->v->stmts.n && !w->failed; i++)
                fw_stmt(w, n->v->stmts.v[i]);
            break;
        case XF_SN_EXIT:
            fprintf(w->o, "  goto %d\n", w->exit_label);
            w->exit_used = true;
            break;
        case XF_SN_LOOP:
            loop(w, n);
            break;
        case XF_SN_BRANCH:
            branch(w, n);
            break;
        case XF_SN_ARM:
            break;
        }
}

bool
fw_structured(fw *w, const xf_graph *g, const xf_cfg_outs *o)
{
    xf_stree t;
    if (w->opts && w->opts->labels_only)
        return false;
    if (!xf_cfg_structure(g, o, &t))
        return false;
    seq(w, t.root);
    xf_stree_free(&t);
    return true;
}
