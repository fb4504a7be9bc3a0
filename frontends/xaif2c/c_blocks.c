/* c_blocks.c: a structured control-flow graph as C blocks: for, while,
 * if / else and switch, from the tree that frontends/backend/cfg_struct.c
 * makes (the Fortran back end's f_struct.c writes the same tree as DO and
 * IF). A ForLoop is C's for: Initialization, then Condition before each
 * iteration, Update after it, as the interpreter runs it. An early return
 * is a goto the graph's exit label. Each nested body is indented four more
 * columns. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "c_impl.h"
#include "cfg_struct.h"

static void seq(cw *w, const xf_snode *n, const char *exit);

/* Text written between capture_begin and capture_end goes to a string. */
typedef struct capture {
    FILE *saved, *m;
    char *s;
    size_t len;
} capture;

static bool
capture_begin(cw *w, capture *b)
{
    *b = (capture){.saved = w->o};
    if (!(b->m = open_memstream(&b->s, &b->len))) {
        cw_refuse(w, 0, "out of memory");
        return false;
    }
    w->o = b->m;
    return true;
}

/* The text captured (malloc'd; NULL after a refusal). */
static char *
capture_end(cw *w, capture *b)
{
    fclose(b->m);
    w->o = b->saved;
    if (w->failed) {
        free(b->s);
        return NULL;
    }
    return b->s;
}

/* Write @s with four more columns before each non-empty line. */
static void
indented(cw *w, const char *s)
{
    for (const char *p = s; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t k = nl ? (size_t)(nl - p) + 1 : strlen(p);
        fprintf(w->o, "%s%.*s", k > 1 ? "    " : "", (int)k, p);
        p += k;
    }
}

static void
nested(cw *w, const xf_snode *n, const char *exit)
{
    capture b;
    if (n && capture_begin(w, &b)) {
        seq(w, n, exit);
        char *s = capture_end(w, &b);
        indented(w, s);
        free(s);
    }
}

/* Whether @s is one parenthesized group: "(a + b)", not "(a) + (b)". */
static bool
wrapped(const char *s)
{
    size_t n = strlen(s);
    if (n < 2 || s[0] != '(' || s[n - 1] != ')')
        return false;
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
        if (depth == 0 && i + 1 < n)
            return false;
    }
    return true;
}

/* The text of @x at @root (UINT32_MAX: its root) and its type; NULL after
 * a refusal. */
static char *
text(cw *w, const xf_expr *x, uint32_t root, cw_type *t)
{
    capture b;
    if (!capture_begin(w, &b))
        return NULL;
    *t = root == UINT32_MAX ? cw_expr(w, x) : cw_expr_at(w, x, root);
    char *s = capture_end(w, &b);
    if (s && *t == CT_BAD) {
        free(s);
        return NULL;
    }
    return s;
}

/* A statement as it would be written, without its indentation and its
 * ";\n" (for a for's header); NULL when it is not one simple line. */
static char *
stmt_text(cw *w, const xf_stmt *st)
{
    capture b;
    if (!capture_begin(w, &b))
        return NULL;
    cw_stmt(w, st);
    char *s = capture_end(w, &b);
    if (!s)
        return NULL;
    char *p = s + strspn(s, " ");
    size_t n = strlen(p);
    if (n < 2 || strcmp(p + n - 2, ";\n") || memchr(p, '\n', n - 1) || strchr(p, '{') ||
        strchr(p, ';') != p + n - 2) {
        free(s);
        return NULL;
    }
    memmove(s, p, n - 2);
    s[n - 2] = '\0';
    return s;
}

/* Write the test "condition @c (of type @t) equals @k" (@eq) or differs. */
static void
test(cw *w, const char *c, cw_type t, long long k, bool eq)
{
    if (t == CT_BOOL) {
        if (k != 0 && k != 1)
            fputs(eq ? "0" : "1", w->o);
        else if ((k == 1) == eq)
            fputs(c, w->o);
        else
            fprintf(w->o, wrapped(c) ? "!%s" : "!(%s)", c);
    } else
        fprintf(w->o, "%s%s%s %s %lld", t == CT_REAL ? "(long)(" : "", c, t == CT_REAL ? ")" : "",
                eq ? "==" : "!=", k);
}

/* A condition's text for "if (...)": without its outer parentheses. */
static const char *
bare(char *c)
{
    size_t n = strlen(c);
    if (!wrapped(c))
        return c;
    c[n - 1] = '\0';
    return c + 1;
}

/* Loop @n's test: whether its body's edge is taken. */
static bool
loop_test(cw *w, const xf_snode *n)
{
    const xf_cvertex *v = n->v;
    uint32_t up;
    if (xf_cfg_strided_do(v, &up)) { /* DO i = l, u, s (§2.4 of the execution spec) */
        fputs("xf_ad_do_test(", w->o);
        cw_ref(w, &v->update->u.as.lhs, false);
        fputs(", ", w->o);
        cw_expr(w, &v->update->u.as.rhs);
        fputs(", ", w->o);
        cw_expr_at(w, v->cond, up);
        fputs(")", w->o);
        return !w->failed;
    }
    cw_type t;
    char *c = text(w, v->cond, UINT32_MAX, &t);
    if (!c)
        return false;
    capture b;
    if (capture_begin(w, &b)) {
        if (xf_cedge_valued(n->edge))
            test(w, c, t, xf_cedge_value(n->edge), true);
        else /* the exit edge has the value (body_edge of cfg_struct.c) */
            test(w, c, t, xf_cedge_value(n->exit_edge), false);
        char *s = capture_end(w, &b);
        if (s)
            fputs(bare(s), w->o);
        free(s);
    }
    free(c);
    return !w->failed;
}

static void
loop(cw *w, const xf_snode *n, const char *exit)
{
    const xf_cvertex *v = n->v;
    char *init = NULL, *update = NULL;
    bool for_loop = v->kind == XF_CV_FORLOOP;
    bool reserve = for_loop && w->nres && (w->nres[2 * v->index] || w->nres[2 * v->index + 1]);
    if (for_loop && v->init && !reserve && !(init = stmt_text(w, v->init)) && !w->failed)
        cw_stmt(w, v->init);
    if (for_loop && v->init && reserve)
        cw_stmt(w, v->init);
    if (for_loop)
        cw_reserve_write(w, v);
    if (for_loop && v->update)
        update = stmt_text(w, v->update);
    if (w->failed)
        goto out;
    if (for_loop && (!v->update || update))
        fprintf(w->o, "    for (%s; ", init ? init : "");
    else
        fputs("    while (", w->o);
    if (!loop_test(w, n))
        goto out;
    if (for_loop && (!v->update || update))
        fprintf(w->o, "; %s) {\n", update ? update : "");
    else
        fputs(") {\n", w->o);
    nested(w, n->body, exit);
    if (for_loop && v->update && !update) {
        capture b;
        if (capture_begin(w, &b)) {
            cw_stmt(w, v->update);
            char *s = capture_end(w, &b);
            indented(w, s);
            free(s);
        }
    }
    fputs("    }\n", w->o);
out:
    free(init);
    free(update);
}

/* The arm's code in braces, after "if (...) " or "else ". */
static void
arm(cw *w, const xf_snode *a, const char *exit)
{
    fputs("{\n", w->o);
    nested(w, a ? a->body : NULL, exit);
    if (!a)
        fputs("        xf_ad_fail(\"no out-edge for this condition value\");\n", w->o);
    fputs("    }", w->o);
}

/* if (first) { ... } else { second }: @first is taken where the condition
 * @c equals @k; @second (NULL: none may be taken) otherwise. */
static void
if_else(cw *w, const char *c, cw_type t, long long k, const xf_snode *first, const xf_snode *second,
        const char *exit)
{
    capture b;
    if (!first->body && second && !second->body)
        return; /* nothing to choose between: the condition has no effect */
    if (!capture_begin(w, &b))
        return;
    test(w, c, t, k, first->body || !second);
    char *s = capture_end(w, &b);
    if (!s)
        return;
    fprintf(w->o, "    if (%s) ", bare(s));
    free(s);
    if (!first->body && second) {
        arm(w, second, exit);
        fputs("\n", w->o);
        return;
    }
    arm(w, first, exit);
    if (!second || second->body) {
        fputs(" else ", w->o);
        arm(w, second, exit);
    }
    fputs("\n", w->o);
}

static void
branch(cw *w, const xf_snode *n, const char *exit)
{
    cw_type t;
    char *c = text(w, n->v->cond, UINT32_MAX, &t);
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
        if (t == CT_BOOL && k != 0 && k != 1)
            continue; /* never taken */
        nval++;
        val = a;
        if (k == 1)
            one = a;
        else if (k == 0)
            zero = a;
    }
    if (t == CT_BOOL) {
        if (one)
            if_else(w, c, t, 1, one, zero ? zero : dflt, exit);
        else if (zero)
            if_else(w, c, t, 0, zero, dflt, exit);
        else if (dflt)
            seq(w, dflt->body, exit);
        else
            fputs("    xf_ad_fail(\"no out-edge for this condition value\");\n", w->o);
    } else if (nval == 1)
        if_else(w, c, t, xf_cedge_value(val->edge), val, dflt, exit);
    else {
        fprintf(w->o, "    switch (%s%s%s) {\n", t == CT_REAL ? "(long)(" : "",
                t == CT_REAL ? c : bare(c), t == CT_REAL ? ")" : "");
        for (const xf_snode *a = n->body; a; a = a->next)
            if (xf_cedge_valued(a->edge)) {
                fprintf(w->o, "    case %lld:\n", xf_cedge_value(a->edge));
                nested(w, a->body, exit);
                fputs("        break;\n", w->o);
            }
        fputs("    default:\n", w->o);
        if (dflt)
            nested(w, dflt->body, exit);
        else
            fputs("        xf_ad_fail(\"no out-edge for this condition value\");\n", w->o);
        fputs("    }\n", w->o);
    }
    free(c);
}

static void
seq(cw *w, const xf_snode *n, const char *exit)
{
    for (; n && !w->failed; n = n->next)
        switch (n->kind) {
        case XF_SN_BLOCK:
            w->push_nc = cw_reserve_nc(w, n->v); /* reserved before the loop */
            for (uint32_t i = 0; i < n->v->stmts.n && !w->failed; i++)
                cw_stmt(w, n->v->stmts.v[i]);
            w->push_nc = false;
            break;
        case XF_SN_EXIT:
            fprintf(w->o, "    goto %s;\n", exit);
            w->exit_used = true;
            break;
        case XF_SN_LOOP:
            loop(w, n, exit);
            break;
        case XF_SN_BRANCH:
            branch(w, n, exit);
            break;
        case XF_SN_ARM:
            break;
        }
}

bool
cw_structured(cw *w, const xf_graph *g, const xf_cfg_outs *o, const char *exit)
{
    xf_stree t;
    if (w->opts && w->opts->labels_only)
        return false;
    if (!xf_cfg_structure(g, o, &t))
        return false;
    seq(w, t.root, exit);
    xf_stree_free(&t);
    return true;
}
