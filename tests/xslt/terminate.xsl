<?xml version="1.0" encoding="UTF-8"?>
<!-- terminate.xsl: a note (line 7), then xsl:message terminate="yes" (line 8). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:param name="why" select="'no reason'"/>
  <xsl:template match="/">
    <xsl:copy-of select="."/>
    <xsl:message>looking at <xsl:value-of select="/*/@program_name"/></xsl:message>
    <xsl:message terminate="yes">stopped: <xsl:value-of select="$why"/></xsl:message>
  </xsl:template>
</xsl:stylesheet>
