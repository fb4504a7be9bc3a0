<?xml version="1.0" encoding="UTF-8"?>
<!-- bad-xpath.xsl: an XPath expression that does not compile (line 6). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:template match="/">
    <xsl:copy-of select="."/>
    <xsl:value-of select="count(("/>
  </xsl:template>
</xsl:stylesheet>
