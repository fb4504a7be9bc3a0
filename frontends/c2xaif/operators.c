/* operators.c: which operator a BinaryOperator, CompoundAssignOperator or
 * UnaryOperator cursor is, which libclang 14 does not say: the one
 * punctuation token written between its operands (between its start and
 * its operand, or its operand and its end, for a unary operator). It is
 * looked for where the tokens are spelled, else where they were expanded:
 * operands that are object-like macros (i < N) or macro arguments work; an
 * operator inside the body of a function-like macro is refused rather than
 * guessed. */
#include <stdio.h>
#include <string.h>

#include "cf.h"

typedef struct place {
    CXFile file;
    unsigned off;
} place;

static place
spelled(CXSourceLocation l)
{
    place p = {0};
    clang_getSpellingLocation(l, &p.file, NULL, NULL, &p.off);
    return p;
}

static place
expanded(CXSourceLocation l)
{
    place p = {0};
    clang_getExpansionLocation(l, &p.file, NULL, NULL, &p.off);
    return p;
}

/* The one token in [a, b) of one file, if it is punctuation, into @buf. */
static bool
one_token(cf *c, place a, place b, char *buf, size_t len)
{
    if (!a.file || !b.file || !clang_File_isEqual(a.file, b.file) || a.off >= b.off)
        return false;
    CXSourceRange r = clang_getRange(clang_getLocationForOffset(c->tu, a.file, a.off),
                                     clang_getLocationForOffset(c->tu, b.file, b.off));
    CXToken *t = NULL;
    unsigned n = 0;
    clang_tokenize(c->tu, r, &t, &n);
    int found = 0;
    for (unsigned i = 0; i < n; i++) {
        place p = spelled(clang_getTokenLocation(c->tu, t[i]));
        if (p.off < a.off || p.off >= b.off)
            continue;
        found++;
        if (clang_getTokenKind(t[i]) != CXToken_Punctuation) {
            found = 2;
            break;
        }
        CXString s = clang_getTokenSpelling(c->tu, t[i]);
        snprintf(buf, len, "%s", clang_getCString(s));
        clang_disposeString(s);
    }
    clang_disposeTokens(c->tu, t, n);
    return found == 1;
}

/* The operator between locations @a and @b. */
static bool
between(cf *c, CXSourceLocation a, CXSourceLocation b, char *buf, size_t len)
{
    return one_token(c, spelled(a), spelled(b), buf, len) ||
           one_token(c, expanded(a), expanded(b), buf, len);
}

/* The end of the operand @x: that of its right operand when it is a binary
 * operator itself. libclang finds the extent of a binary operator from its
 * first token, down the left operands: asked once per level of a sum of N
 * terms (left-nested), that was N^2/2 steps (100 000 terms: 40 s). */
static CXSourceLocation
end_of(cf *c, CXCursor x)
{
    unsigned n;
    CXCursor *k;
    while (clang_getCursorKind(x) == CXCursor_BinaryOperator && (k = cf_children(c, x, &n)) &&
           n == 2)
        x = k[1];
    return clang_getRangeEnd(clang_getCursorExtent(x));
}

const char *
cf_binop_spelling(cf *c, CXCursor x, char *buf, size_t len)
{
    unsigned nk;
    CXCursor *k = cf_children(c, x, &nk);
    if (nk != 2)
        cf_refuse(c, x, "this operator is not supported");
    if (!between(c, end_of(c, k[0]), clang_getRangeStart(clang_getCursorExtent(k[1])), buf, len))
        cf_refuse(c, x, "an operator written inside a macro's definition is not supported");
    return buf;
}

const char *
cf_unop_spelling(cf *c, CXCursor x, char *buf, size_t len, bool *postfix)
{
    unsigned nk;
    CXCursor *k = cf_children(c, x, &nk);
    if (nk != 1)
        cf_refuse(c, x, "this unary operator is not supported");
    *postfix = false;
    /* a prefix operator: between the starts of @x and its operand, which
     * clang_getCursorLocation gives without the extents (each of which
     * libclang finds down to the innermost operand: N^2/2 steps for N
     * nested minus signs) */
    if (between(c, clang_getCursorLocation(x), clang_getCursorLocation(k[0]), buf, len))
        return buf;
    CXSourceRange whole = clang_getCursorExtent(x), in = clang_getCursorExtent(k[0]);
    if (between(c, clang_getRangeStart(whole), clang_getRangeStart(in), buf, len))
        return buf;
    *postfix = true;
    if (between(c, clang_getRangeEnd(in), clang_getRangeEnd(whole), buf, len))
        return buf;
    cf_refuse(c, x, "an operator written inside a macro's definition is not supported");
}
