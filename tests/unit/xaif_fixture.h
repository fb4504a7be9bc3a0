/* xaif_fixture.h: small xaif documents for the unit tests, and helpers. */
#ifndef XF_TESTS_XAIF_FIXTURE_H
#define XF_TESTS_XAIF_FIXTURE_H

#include <string.h>

#include "diag.h"
#include "read.h"

#define XAIF_HEAD                                                                                  \
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                                                 \
    "<xaif:CallGraph xmlns:xaif=\"http://www.mcs.anl.gov/XAIF\" program_name=\"p\" "               \
    "prefix=\"OpenAD_\">\n"

/* A scope hierarchy: global scope 1 with the routine symbol, local scope 2
 * with x (vector 1:3), y, i (integer). Lines 3-16. */
#define XAIF_SCOPES                                                                                \
    "  <xaif:ScopeHierarchy>\n"                                                                    \
    "    <xaif:Scope vertex_id=\"1\">\n"                                                           \
    "      <xaif:SymbolTable>\n"                                                                   \
    "        <xaif:Symbol symbol_id=\"head\" kind=\"subroutine\" type=\"void\"/>\n"                \
    "      </xaif:SymbolTable>\n"                                                                  \
    "    </xaif:Scope>\n"                                                                          \
    "    <xaif:Scope vertex_id=\"2\">\n"                                                           \
    "      <xaif:SymbolTable>\n"                                                                   \
    "        <xaif:Symbol symbol_id=\"x\" kind=\"variable\" type=\"real\" shape=\"vector\" "       \
    "active=\"true\"><xaif:DimensionBounds lower=\"1\" upper=\"3\"/></xaif:Symbol>\n"              \
    "        <xaif:Symbol symbol_id=\"y\" kind=\"variable\" type=\"real\" shape=\"scalar\" "       \
    "active=\"1\"/>\n"                                                                             \
    "        <xaif:Symbol symbol_id=\"i\" kind=\"variable\" type=\"integer\" active=\"0\"/>\n"     \
    "      </xaif:SymbolTable>\n"                                                                  \
    "    </xaif:Scope>\n"                                                                          \
    "    <xaif:ScopeEdge edge_id=\"1\" source=\"2\" target=\"1\"/>\n"                              \
    "  </xaif:ScopeHierarchy>\n"

#define XAIF_MAPS                                                                                  \
    "  <xaif:AliasSetMap><xaif:AliasSet key=\"0\"/></xaif:AliasSetMap>\n"                          \
    "  <xaif:DUUDSetMap><xaif:StmtIdSet key=\"0\"/></xaif:DUUDSetMap>\n"                           \
    "  <xaif:DOSetMap><xaif:StmtIdSet key=\"0\"/></xaif:DOSetMap>\n"

#define XAIF_CFG_OPEN                                                                              \
    "  <xaif:ControlFlowGraph vertex_id=\"10\" scope_id=\"1\" symbol_id=\"head\" "                 \
    "controlflowgraph_scope_id=\"2\">\n"

#define XAIF_TAIL "  </xaif:ControlFlowGraph>\n</xaif:CallGraph>\n"

/* Read @text strictly; the messages land in *diag (created here). */
static inline xf_doc *
read_text(const char *text, xf_diag **diag)
{
    *diag = xf_diag_new(NULL);
    return xf_read_memory(text, strlen(text), "t.xaif", NULL, *diag);
}

/* The first message of @d, or "". */
static inline const char *
first_message(const xf_diag *d)
{
    const char *m = xf_diag_message(d, 0);
    return m ? m : "";
}

#endif
