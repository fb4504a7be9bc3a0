<?xml version="1.0" encoding="UTF-8"?>
<!--
  rename-prefix.xsl: give the temporaries that the AD tool generated
  (OpenAD_lin_1, OpenAD_aux_2, OpenAD_acc_3, OpenAD_prp_4, OpenAD_tyc_5,
  OpenAD_Symbol_6, ...) another prefix, e.g. XF_lin_1, so that they cannot
  clash with a program's own names or so that a later tool finds them.

  What is renamed: every variable (a Symbol whose kind is "variable", the
  default) whose symbol_id starts with the old prefix, and every reference
  to such a variable (SymbolReference, ArgumentSymbolReference: any element
  whose scope_id and symbol_id name it), consistently: the old prefix is
  replaced, the rest of the name kept. Other symbols and references are left
  alone, routines included (xaifBooster's renamed routines, OpenAD_head__28,
  keep their names). The CallGraph's prefix attribute, when it is the old
  prefix, becomes the new one.

  Parameters:
    prefix  the new prefix (required): letters, digits and _, a letter
            first, so that the names stay Fortran names; may be empty
    from    the old prefix (default OpenAD_)
  The stylesheet stops with a message when prefix is missing or not a name
  start, or when a new name is already a symbol of the same scope.

  Call it as the last step of a verb that writes xaif, with the options
  xslt and param (each written with two dashes, which an XML comment
  cannot show):
    xaiform tangent in.xaif -o out.xaif  xslt rename-prefix.xsl  param prefix XF_
  or on its own (XSLT 1.0):
    xsltproc -stringparam prefix XF_ rename-prefix.xsl in.xaif > out.xaif
  The installed copy is in share/xaiform/xslt/.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:xaif="http://www.mcs.anl.gov/XAIF" exclude-result-prefixes="xaif">
  <xsl:output method="xml" encoding="UTF-8"/>

  <xsl:param name="prefix" select="' unset'"/>
  <xsl:param name="from" select="'OpenAD_'"/>

  <xsl:variable name="letters" select="'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'"/>
  <xsl:variable name="namechars" select="concat($letters, '0123456789_')"/>

  <!-- every symbol by "scope name", and the variables that are renamed -->
  <xsl:key name="symbol" match="xaif:Symbol" use="concat(../../@vertex_id, ' ', @symbol_id)"/>
  <xsl:key name="renamed" match="xaif:Symbol[not(@kind) or @kind = 'variable']"
           use="concat(../../@vertex_id, ' ', @symbol_id)"/>

  <xsl:template match="/">
    <xsl:if test="$prefix = ' unset'">
      <xsl:message terminate="yes">rename-prefix.xsl: the new prefix is needed: --param prefix NEW</xsl:message>
    </xsl:if>
    <xsl:if test="$from = ''">
      <xsl:message terminate="yes">rename-prefix.xsl: the old prefix (parameter from) is empty</xsl:message>
    </xsl:if>
    <xsl:if test="translate($prefix, $namechars, '') != ''
                  or ($prefix != '' and translate(substring($prefix, 1, 1), $letters, '') != '')">
      <xsl:message terminate="yes">rename-prefix.xsl: prefix '<xsl:value-of select="$prefix"/>' does not start a Fortran name (letters, digits and _, a letter first)</xsl:message>
    </xsl:if>
    <xsl:for-each select="//xaif:Symbol[not(@kind) or @kind = 'variable'][starts-with(@symbol_id, $from)]">
      <xsl:variable name="new" select="concat($prefix, substring(@symbol_id, string-length($from) + 1))"/>
      <xsl:if test="not(starts-with($new, $from)) and key('symbol', concat(../../@vertex_id, ' ', $new))">
        <xsl:message terminate="yes">rename-prefix.xsl: renaming <xsl:value-of select="@symbol_id"/> to <xsl:value-of
            select="$new"/> would clash with symbol <xsl:value-of select="$new"/> of scope <xsl:value-of
            select="../../@vertex_id"/></xsl:message>
      </xsl:if>
      <xsl:if test="translate(substring($new, 1, 1), $letters, '') != ''">
        <xsl:message terminate="yes">rename-prefix.xsl: renaming <xsl:value-of select="@symbol_id"/> to <xsl:value-of
            select="$new"/> would not give a Fortran name</xsl:message>
      </xsl:if>
    </xsl:for-each>
    <xsl:apply-templates/>
  </xsl:template>

  <xsl:template match="@*|node()">
    <xsl:copy>
      <xsl:apply-templates select="@*|node()"/>
    </xsl:copy>
  </xsl:template>

  <!-- a renamed variable's declaration -->
  <xsl:template match="xaif:Symbol/@symbol_id">
    <xsl:call-template name="rename">
      <xsl:with-param name="scope" select="../../../@vertex_id"/>
    </xsl:call-template>
  </xsl:template>

  <!-- a reference to it, by (scope_id, symbol_id) -->
  <xsl:template match="xaif:*[@scope_id]/@symbol_id">
    <xsl:call-template name="rename">
      <xsl:with-param name="scope" select="../@scope_id"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template name="rename">
    <xsl:param name="scope"/>
    <xsl:choose>
      <xsl:when test="starts-with(., $from) and key('renamed', concat($scope, ' ', .))">
        <xsl:attribute name="symbol_id">
          <xsl:value-of select="concat($prefix, substring(., string-length($from) + 1))"/>
        </xsl:attribute>
      </xsl:when>
      <xsl:otherwise>
        <xsl:copy/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="xaif:CallGraph/@prefix">
    <xsl:choose>
      <xsl:when test=". = $from">
        <xsl:attribute name="prefix">
          <xsl:value-of select="$prefix"/>
        </xsl:attribute>
      </xsl:when>
      <xsl:otherwise>
        <xsl:copy/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
