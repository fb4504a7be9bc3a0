<?xml version="1.0" encoding="UTF-8"?>
<!-- read-network.xsl: reads a document over http with document() (line 6);
     xaiform forbids stylesheets to use the network, so nothing is fetched. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:template match="/">
    <r><xsl:value-of select="count(document('http://example.com/x.xml'))"/></r>
  </xsl:template>
</xsl:stylesheet>
