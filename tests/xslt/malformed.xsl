<?xml version="1.0" encoding="UTF-8"?>
<!-- malformed.xsl: not well-formed XML (the end tag on line 6 does not match). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:template match="/">
    <xsl:copy-of select="."/>
  </xsl:templat>
</xsl:stylesheet>
