<?xml version="1.0" encoding="UTF-8"?>
<!-- write-file.xsl: tries to write a second file with exsl:document (line 8);
     xaiform forbids stylesheets to write files. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:exsl="http://exslt.org/common" extension-element-prefixes="exsl">
  <xsl:param name="target" select="'written-by-xslt.txt'"/>
  <xsl:template match="/">
    <exsl:document href="{$target}" method="text">written</exsl:document>
    <xsl:copy-of select="."/>
  </xsl:template>
</xsl:stylesheet>
