<?xml version="1.0" encoding="UTF-8"?>
<!--
  strip-annotations.xsl: remove attributes that only the front end reads
  from an xaif document, everywhere in it: by default annotation="..." (the
  front end's notes, such as "{Sym_Id#3}", and xaifBooster's, such as
  "cp_entry") and lineNumber="..." (source lines). Everything else is
  copied unchanged, so the result is still valid xaif and describes the
  same program.

  Parameter:
    attributes  the attribute names to remove, separated by blanks; names
                with a prefix as written (xsi:schemaLocation). Default:
                "annotation lineNumber". Names that xaif requires on some
                element (symbol_id, vertex_id, scope_id, edge_id, source,
                target, ...) are refused: the stylesheet stops with a
                message. Remove only what no later tool needs: active,
                shape, intent and the like change the program's meaning.

  Call it as the last step of a verb that writes xaif, with the options
  xslt and param (each written with two dashes, which an XML comment
  cannot show):
    xaiform tangent in.xaif -o out.xaif  xslt strip-annotations.xsl
    xaiform copy in.xaif -o out.xaif  xslt strip-annotations.xsl \
        param attributes "annotation lineNumber feType"
  or on its own (XSLT 1.0): xsltproc strip-annotations.xsl in.xaif > out.xaif
  The installed copy is in share/xaiform/xslt/.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="xml" encoding="UTF-8"/>

  <xsl:param name="attributes" select="'annotation lineNumber'"/>

  <!-- the list as " a b c ", so that " name " finds whole names only -->
  <xsl:variable name="strip" select="concat(' ', normalize-space($attributes), ' ')"/>

  <!-- attributes the xaif schema requires on at least one element -->
  <xsl:variable name="required"
      select="concat(' controlflowgraph_scope_id edge_id from_virtual_address idRef key lower',
                     ' name placeholder position scope_id source statement_id subroutine_name',
                     ' symbol_id target template_name to_virtual_address type upper value',
                     ' vertex_id ')"/>

  <xsl:template match="/">
    <xsl:call-template name="refuse-required">
      <xsl:with-param name="rest" select="normalize-space($attributes)"/>
    </xsl:call-template>
    <xsl:apply-templates/>
  </xsl:template>

  <!-- stop if a name of the list is one that xaif requires -->
  <xsl:template name="refuse-required">
    <xsl:param name="rest"/>
    <xsl:if test="$rest != ''">
      <xsl:variable name="first">
        <xsl:choose>
          <xsl:when test="contains($rest, ' ')">
            <xsl:value-of select="substring-before($rest, ' ')"/>
          </xsl:when>
          <xsl:otherwise>
            <xsl:value-of select="$rest"/>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:variable>
      <xsl:if test="contains($required, concat(' ', $first, ' '))">
        <xsl:message terminate="yes">strip-annotations.xsl: attribute <xsl:value-of
            select="$first"/> is required by xaif and cannot be removed</xsl:message>
      </xsl:if>
      <xsl:call-template name="refuse-required">
        <xsl:with-param name="rest" select="substring-after($rest, ' ')"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>

  <xsl:template match="node()">
    <xsl:copy>
      <xsl:apply-templates select="@*|node()"/>
    </xsl:copy>
  </xsl:template>

  <xsl:template match="@*">
    <xsl:if test="not(contains($strip, concat(' ', name(), ' ')))">
      <xsl:copy/>
    </xsl:if>
  </xsl:template>
</xsl:stylesheet>
