/* passive.c: calls of functions the file does not define, kept as they
 * are in the derivative code (docs/c-frontend.md, "Calls xaiform cannot
 * see"). A call that is a statement of its own, whose result is not used
 * and whose arguments are values (int, float, double expressions and
 * string literals: printf("%g\n", x[0]), puts("..."), abort(), exit(1)),
 * cannot change a variable of the function: it is passive. It becomes an
 * InlinableSubroutineCall named "xf_passive_NAME" whose arguments are
 * temporaries holding the values (OAD_CTMP<n>) or string constants (their
 * C spelling); the C back end writes NAME(args) (c_passive.c). assert(c)
 * becomes "xf_passive_assert" of an int temporary set to c and of the
 * message, "FILE:LINE: assertion failed". */
#include <string.h>

#include "cf.h"

/* @x without parentheses and implicit conversions (UnexposedExpr). */
static CXCursor
bare(cf *c, CXCursor x)
{
    for (;;) {
        x = cf_strip(x);
        if (clang_getCursorKind(x) != CXCursor_UnexposedExpr)
            return x;
        unsigned n;
        CXCursor *k = cf_children(c, x, &n);
        if (n != 1)
            return x;
        x = k[0];
    }
}

/* The source text of @x, tokens joined by a space where they were apart. */
static char *
source_text(cf *c, CXCursor x)
{
    CXToken *t = NULL;
    unsigned n = 0;
    clang_tokenize(c->tu, clang_getCursorExtent(x), &t, &n);
    size_t len = 1;
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(c->tu, t[i]);
        len += strlen(clang_getCString(s)) + 1;
        clang_disposeString(s);
    }
    char *out = cf_alloc(c, len), *o = out;
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(c->tu, t[i]);
        o += sprintf(o, "%s%s", i ? " " : "", clang_getCString(s));
        clang_disposeString(s);
    }
    clang_disposeTokens(c->tu, t, n);
    return out;
}

static cf_expr *
string_arg(cf *c, const char *spelling)
{
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = CF_E_VAR; /* no symbol: a string constant (emit.c) */
    e->str = spelling;
    return e;
}

/* A temporary set to @v, by a statement appended here; its reference. */
static cf_expr *
value_arg(cf *c, cf_expr *v, unsigned line)
{
    cf_type t = cf_expr_type(v);
    cf_sym *tmp = cf_temp(c, "OAD_CTMP", t == CF_FLOAT ? CF_DOUBLE : t);
    cf_stmt *cp = cf_new_stmt(c, CF_S_ASSIGN, line);
    cp->lhs = cf_alloc(c, sizeof *cp->lhs);
    cp->lhs->kind = CF_E_VAR;
    cp->lhs->sym = tmp;
    cp->rhs = v;
    cf_emit_stmt(c, cp);
    cf_expr *e = cf_alloc(c, sizeof *e);
    e->kind = CF_E_VAR;
    e->sym = tmp;
    return e;
}

static cf_stmt *
new_call(cf *c, CXCursor x, const char *name)
{
    if (c->no_calls)
        cf_refuse(c, x, "%s is not supported", c->no_calls);
    cf_stmt *st = cf_new_stmt(c, CF_S_PASSIVE, cf_line(x));
    st->at = x;
    char *n = cf_alloc(c, strlen(name) + 16);
    sprintf(n, "xf_passive_%s", name);
    st->pname = n;
    return st;
}

static void
push(cf *c, cf_stmt *st, cf_expr *e)
{
    if (!XF_VEC_PUSH(c->a, st->args, e))
        cf_oom(c);
}

/* The name of the file that declares the function @x calls (its last
 * component) into @buf; false when that is the file of the call itself. */
static bool
declared_in(CXCursor x, char *buf, size_t len)
{
    CXFile file, here;
    clang_getExpansionLocation(clang_getCursorLocation(clang_getCursorReferenced(x)), &file, NULL,
                               NULL, NULL);
    clang_getExpansionLocation(clang_getCursorLocation(x), &here, NULL, NULL, NULL);
    if (!file || !here)
        return false;
    CXString fs = clang_getFileName(file), hs = clang_getFileName(here);
    const char *path = clang_getCString(fs) ? clang_getCString(fs) : "";
    const char *base = strrchr(path, '/');
    snprintf(buf, len, "%s", base ? base + 1 : path);
    bool other = strcmp(path, clang_getCString(hs) ? clang_getCString(hs) : "") != 0;
    clang_disposeString(fs);
    clang_disposeString(hs);
    return other;
}

bool
cf_passive_call(cf *c, CXCursor x, const char *name)
{
    int nargs = clang_Cursor_getNumArguments(x);
    char header[128];
    if (!declared_in(x, header, sizeof header))
        return false; /* the user's own: to be defined in the file */
    /* the generated code includes <stdio.h> and <stdlib.h> (xaiform/ad.h), no other header */
    if (strcmp(header, "stdio.h") && strcmp(header, "stdlib.h"))
        cf_refuse(c, x,
                  "call to '%s' (from <%s>), which xaiform does not differentiate: a call of a "
                  "function this file does not define is kept only when it comes from "
                  "<stdio.h> or <stdlib.h> and its arguments are values (printf, puts, abort, "
                  "exit); call it outside the function to differentiate",
                  name, header);
    /* every argument first: a pointer is refused before any statement is emitted */
    for (int i = 0; i < nargs; i++) {
        CXCursor a = bare(c, clang_Cursor_getArgument(x, (unsigned)i));
        if (clang_getCursorKind(a) == CXCursor_StringLiteral)
            continue;
        enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(a)).kind;
        if (k != CXType_Double && k != CXType_Float && k != CXType_Int)
            cf_refuse(c, a,
                      "argument %d of '%s', which xaiform cannot see, is not a value: a call of a "
                      "function this file does not define is kept only as a statement whose "
                      "arguments are int, float or double values and string literals (it can "
                      "then change no variable); call it outside the function to differentiate",
                      i + 1, name);
    }
    cf_stmt *st = new_call(c, x, name);
    for (int i = 0; i < nargs; i++) {
        CXCursor a = bare(c, clang_Cursor_getArgument(x, (unsigned)i));
        if (clang_getCursorKind(a) == CXCursor_StringLiteral)
            push(c, st, string_arg(c, source_text(c, a)));
        else
            push(c, st, value_arg(c, cf_expr_of(c, a), cf_line(a)));
    }
    cf_emit_stmt(c, st);
    return true;
}

void
cf_passive_assert(cf *c, CXCursor x)
{
    CXCursor e = bare(c, x);
    unsigned n;
    CXCursor *k = cf_children(c, e, &n);
    if (clang_getCursorKind(e) != CXCursor_ConditionalOperator || n != 3)
        cf_refuse(c, x,
                  "this assert is not supported: xaiform reads assert(c) as the C library's "
                  "macro writes it under -std=c99; define NDEBUG (xaiform grad -D NDEBUG) to "
                  "leave it out");
    cf_expr *cond = cf_cond_of(c, k[0]);
    cf_expr *one = cf_alloc(c, sizeof *one), *zero = cf_alloc(c, sizeof *zero);
    one->kind = zero->kind = CF_E_INT;
    one->ival = 1;
    cf_expr *holds = cf_select(c, x, cond, one, zero);
    /* the message as a C string literal, "FILE:LINE: assertion failed" (the
     * condition's text is inside the macro's expansion, which has no tokens) */
    CXFile file;
    unsigned line;
    clang_getExpansionLocation(clang_getCursorLocation(x), &file, &line, NULL, NULL);
    CXString fs = clang_getFileName(file);
    const char *path = clang_getCString(fs) ? clang_getCString(fs) : "";
    char *msg = cf_alloc(c, 2 * strlen(path) + 64), *o = msg;
    *o++ = '"';
    for (const char *p = path; *p; p++) {
        if (*p == '"' || *p == '\\')
            *o++ = '\\';
        *o++ = *p;
    }
    sprintf(o, ":%u: assertion failed\"", line);
    clang_disposeString(fs);
    cf_stmt *st = new_call(c, x, "assert");
    push(c, st, value_arg(c, holds, cf_line(x)));
    push(c, st, string_arg(c, msg));
    cf_emit_stmt(c, st);
}
