/* dl_xslt.h: libxslt and libexslt, opened with dlopen at their first use
 * (the XSLT stage, --xslt), so that a run without stylesheets does not load
 * them. The table holds a pointer to each function and variable output.c
 * uses, under the library's own name: xf_xslt()->xsltFreeStylesheet(st). */
#ifndef XF_TOOLS_DL_XSLT_H
#define XF_TOOLS_DL_XSLT_H

#include <libexslt/exslt.h>
#include <libxslt/security.h>
#include <libxslt/transform.h>
#include <libxslt/variables.h>
#include <libxslt/xslt.h>
#include <libxslt/xsltInternals.h>
#include <libxslt/xsltutils.h>

#include "diag.h"

/* ORDER: the functions of the table, each also looked up by its name */
#define XF_XSLT_FUNCTIONS(F)                                                                       \
    F(xsltApplyStylesheetUser)                                                                     \
    F(xsltFreeSecurityPrefs)                                                                       \
    F(xsltFreeStylesheet)                                                                          \
    F(xsltFreeTransformContext)                                                                    \
    F(xsltGetDefaultSecurityPrefs)                                                                 \
    F(xsltNewSecurityPrefs)                                                                        \
    F(xsltNewTransformContext)                                                                     \
    F(xsltParseStylesheetDoc)                                                                      \
    F(xsltQuoteUserParams)                                                                         \
    F(xsltSaveResultToFd)                                                                          \
    F(xsltSecurityForbid)                                                                          \
    F(xsltSetCtxtParseOptions)                                                                     \
    F(xsltSetCtxtSecurityPrefs)                                                                    \
    F(xsltSetDefaultSecurityPrefs)                                                                 \
    F(xsltSetGenericErrorFunc)                                                                     \
    F(xsltSetSecurityPrefs)                                                                        \
    F(xsltSetTransformErrorFunc)

typedef struct xf_xslt_api {
#define XF_XSLT_MEMBER(name) __typeof__(name) *name;
    XF_XSLT_FUNCTIONS(XF_XSLT_MEMBER)
#undef XF_XSLT_MEMBER
    /* libxslt's variables (the addresses) */
    __typeof__(xsltGenericError) *xsltGenericError;
    __typeof__(xsltGenericErrorContext) *xsltGenericErrorContext;
    /* libexslt */
    __typeof__(exsltRegisterAll) *exsltRegisterAll;
} xf_xslt_api;

/**
 * xf_xslt_load:
 * Open libxslt and libexslt unless open already (once per process; call from
 * one thread at a time). They stay open until the process ends.
 * @returns the table, or NULL after reporting to @diag (a library or a
 * symbol missing).
 */
const xf_xslt_api *xf_xslt_load(xf_diag *diag);

/** xf_xslt: the table xf_xslt_load filled, or NULL before it succeeded. */
const xf_xslt_api *xf_xslt(void);

#endif
