<?xml version="1.0" encoding="UTF-8"?>
<!-- identity.xsl: copies every node; through xaiform's XSLT stage the output
     must be byte-identical to the output without it. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="xml" encoding="UTF-8"/>
  <xsl:template match="@*|node()">
    <xsl:copy>
      <xsl:apply-templates select="@*|node()"/>
    </xsl:copy>
  </xsl:template>
</xsl:stylesheet>
