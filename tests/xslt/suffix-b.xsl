<?xml version="1.0" encoding="UTF-8"?>
<!-- suffix-b.xsl: appends "-b" to the CallGraph's program_name (with suffix-a.xsl: the order of a chain shows). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="xml" encoding="UTF-8"/>
  <xsl:template match="@*|node()">
    <xsl:copy>
      <xsl:apply-templates select="@*|node()"/>
    </xsl:copy>
  </xsl:template>
  <xsl:template match="/*/@program_name">
    <xsl:attribute name="program_name"><xsl:value-of select="concat(., '-b')"/></xsl:attribute>
  </xsl:template>
</xsl:stylesheet>
