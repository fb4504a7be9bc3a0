/* dl_clang.h: libclang, opened with dlopen when the C front end first runs
 * (xf_clang_load), so that the other verbs of the program do not load it:
 * it is 30 MB and a hundred thousand relocations, most of a small run's
 * time. Every file of the front end includes this header instead of
 * clang-c/Index.h; the calls it makes go through the table under their
 * own names (clang_getCursorKind(x) is xf_clang()->clang_getCursorKind(x)). */
#ifndef XF_C2XAIF_DL_CLANG_H
#define XF_C2XAIF_DL_CLANG_H

#include <clang-c/Index.h>
#include <stdio.h>

/* ORDER: the functions of the table, each also looked up by its name */
#define XF_CLANG_FUNCTIONS(F)                                                                      \
    F(clang_Cursor_Evaluate)                                                                       \
    F(clang_Cursor_getArgument)                                                                    \
    F(clang_Cursor_getNumArguments)                                                                \
    F(clang_Cursor_getStorageClass)                                                                \
    F(clang_Cursor_isNull)                                                                         \
    F(clang_EvalResult_dispose)                                                                    \
    F(clang_EvalResult_getAsDouble)                                                                \
    F(clang_EvalResult_getAsLongLong)                                                              \
    F(clang_EvalResult_getKind)                                                                    \
    F(clang_createIndex)                                                                           \
    F(clang_disposeDiagnostic)                                                                     \
    F(clang_disposeIndex)                                                                          \
    F(clang_disposeString)                                                                         \
    F(clang_disposeTokens)                                                                         \
    F(clang_disposeTranslationUnit)                                                                \
    F(clang_equalCursors)                                                                          \
    F(clang_formatDiagnostic)                                                                      \
    F(clang_getArrayElementType)                                                                   \
    F(clang_getArraySize)                                                                          \
    F(clang_getCString)                                                                            \
    F(clang_getCanonicalType)                                                                      \
    F(clang_getCursorDefinition)                                                                   \
    F(clang_getCursorExtent)                                                                       \
    F(clang_getCursorKind)                                                                         \
    F(clang_getCursorKindSpelling)                                                                 \
    F(clang_getCursorLocation)                                                                     \
    F(clang_getCursorReferenced)                                                                   \
    F(clang_getCursorResultType)                                                                   \
    F(clang_getCursorSemanticParent)                                                               \
    F(clang_getCursorSpelling)                                                                     \
    F(clang_getCursorType)                                                                         \
    F(clang_getDiagnostic)                                                                         \
    F(clang_getDiagnosticSeverity)                                                                 \
    F(clang_getFileName)                                                                           \
    F(clang_getNullCursor)                                                                         \
    F(clang_getNumDiagnostics)                                                                     \
    F(clang_getPointeeType)                                                                        \
    F(clang_getRangeEnd)                                                                           \
    F(clang_getRangeStart)                                                                         \
    F(clang_getSpellingLocation)                                                                   \
    F(clang_getTokenKind)                                                                          \
    F(clang_getTokenLocation)                                                                      \
    F(clang_getTokenSpelling)                                                                      \
    F(clang_getTranslationUnitCursor)                                                              \
    F(clang_getTypeSpelling)                                                                       \
    F(clang_getTypeDeclaration)                                                                    \
    F(clang_isCursorDefinition)                                                                    \
    F(clang_getExpansionLocation)                                                                  \
    F(clang_getLocationForOffset)                                                                  \
    F(clang_getRange)                                                                              \
    F(clang_File_isEqual)                                                                          \
    F(clang_isConstQualifiedType)                                                                  \
    F(clang_getEnumConstantDeclValue)                                                              \
    F(clang_isExpression)                                                                          \
    F(clang_parseTranslationUnit2)                                                                 \
    F(clang_tokenize)                                                                              \
    F(clang_visitChildren)

typedef struct xf_clang_api {
#define XF_CLANG_MEMBER(name) __typeof__(name) *name;
    XF_CLANG_FUNCTIONS(XF_CLANG_MEMBER)
#undef XF_CLANG_MEMBER
} xf_clang_api;

/**
 * xf_clang_load:
 * Open libclang unless open already (once per process; call from one
 * thread at a time). It stays open until the process ends.
 * @returns 0, or -1 after a message to @err (the library or a function
 * missing).
 */
int xf_clang_load(FILE *err);

/** xf_clang: the table xf_clang_load filled (NULL before it succeeded). */
const xf_clang_api *xf_clang(void);

/* The calls through the table (not in dl_clang.c, which fills it). */
#ifndef XF_CLANG_NO_REDIRECT
#define clang_Cursor_Evaluate (xf_clang()->clang_Cursor_Evaluate)
#define clang_Cursor_getArgument (xf_clang()->clang_Cursor_getArgument)
#define clang_Cursor_getNumArguments (xf_clang()->clang_Cursor_getNumArguments)
#define clang_Cursor_getStorageClass (xf_clang()->clang_Cursor_getStorageClass)
#define clang_Cursor_isNull (xf_clang()->clang_Cursor_isNull)
#define clang_EvalResult_dispose (xf_clang()->clang_EvalResult_dispose)
#define clang_EvalResult_getAsDouble (xf_clang()->clang_EvalResult_getAsDouble)
#define clang_EvalResult_getAsLongLong (xf_clang()->clang_EvalResult_getAsLongLong)
#define clang_EvalResult_getKind (xf_clang()->clang_EvalResult_getKind)
#define clang_createIndex (xf_clang()->clang_createIndex)
#define clang_disposeDiagnostic (xf_clang()->clang_disposeDiagnostic)
#define clang_disposeIndex (xf_clang()->clang_disposeIndex)
#define clang_disposeString (xf_clang()->clang_disposeString)
#define clang_disposeTokens (xf_clang()->clang_disposeTokens)
#define clang_disposeTranslationUnit (xf_clang()->clang_disposeTranslationUnit)
#define clang_equalCursors (xf_clang()->clang_equalCursors)
#define clang_formatDiagnostic (xf_clang()->clang_formatDiagnostic)
#define clang_getArrayElementType (xf_clang()->clang_getArrayElementType)
#define clang_getArraySize (xf_clang()->clang_getArraySize)
#define clang_getCString (xf_clang()->clang_getCString)
#define clang_getCanonicalType (xf_clang()->clang_getCanonicalType)
#define clang_getCursorDefinition (xf_clang()->clang_getCursorDefinition)
#define clang_getCursorExtent (xf_clang()->clang_getCursorExtent)
#define clang_getCursorKind (xf_clang()->clang_getCursorKind)
#define clang_getCursorKindSpelling (xf_clang()->clang_getCursorKindSpelling)
#define clang_getCursorLocation (xf_clang()->clang_getCursorLocation)
#define clang_getCursorReferenced (xf_clang()->clang_getCursorReferenced)
#define clang_getCursorResultType (xf_clang()->clang_getCursorResultType)
#define clang_getCursorSemanticParent (xf_clang()->clang_getCursorSemanticParent)
#define clang_getCursorSpelling (xf_clang()->clang_getCursorSpelling)
#define clang_getCursorType (xf_clang()->clang_getCursorType)
#define clang_getDiagnostic (xf_clang()->clang_getDiagnostic)
#define clang_getDiagnosticSeverity (xf_clang()->clang_getDiagnosticSeverity)
#define clang_getFileName (xf_clang()->clang_getFileName)
#define clang_getNullCursor (xf_clang()->clang_getNullCursor)
#define clang_getNumDiagnostics (xf_clang()->clang_getNumDiagnostics)
#define clang_getPointeeType (xf_clang()->clang_getPointeeType)
#define clang_getRangeEnd (xf_clang()->clang_getRangeEnd)
#define clang_getRangeStart (xf_clang()->clang_getRangeStart)
#define clang_getSpellingLocation (xf_clang()->clang_getSpellingLocation)
#define clang_getTokenKind (xf_clang()->clang_getTokenKind)
#define clang_getTokenLocation (xf_clang()->clang_getTokenLocation)
#define clang_getTokenSpelling (xf_clang()->clang_getTokenSpelling)
#define clang_getTranslationUnitCursor (xf_clang()->clang_getTranslationUnitCursor)
#define clang_getTypeSpelling (xf_clang()->clang_getTypeSpelling)
#define clang_getTypeDeclaration (xf_clang()->clang_getTypeDeclaration)
#define clang_isCursorDefinition (xf_clang()->clang_isCursorDefinition)
#define clang_getExpansionLocation (xf_clang()->clang_getExpansionLocation)
#define clang_getLocationForOffset (xf_clang()->clang_getLocationForOffset)
#define clang_getRange (xf_clang()->clang_getRange)
#define clang_File_isEqual (xf_clang()->clang_File_isEqual)
#define clang_isConstQualifiedType (xf_clang()->clang_isConstQualifiedType)
#define clang_getEnumConstantDeclValue (xf_clang()->clang_getEnumConstantDeclValue)
#define clang_isExpression (xf_clang()->clang_isExpression)
#define clang_parseTranslationUnit2 (xf_clang()->clang_parseTranslationUnit2)
#define clang_tokenize (xf_clang()->clang_tokenize)
#define clang_visitChildren (xf_clang()->clang_visitChildren)
#endif

#endif
