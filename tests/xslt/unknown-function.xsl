<?xml version="1.0" encoding="UTF-8"?>
<!-- unknown-function.xsl: an XPath run-time error, a function that does not exist (line 7). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:template match="/">
    <xsl:copy-of select="."/>
    <xsl:if test="/*">
      <xsl:value-of select="no-such-function(1)"/>
    </xsl:if>
  </xsl:template>
</xsl:stylesheet>
