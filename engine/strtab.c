/* strtab.c: xf_strtab over xmlDict. */
#include "strtab.h"

#include <libxml/xmlstring.h>
#include <libxml/xmlmemory.h>
#include <libxml/dict.h>

struct xf_strtab {
    xmlDictPtr dict;
};

xf_strtab *
xf_strtab_new(void)
{
    xf_strtab *t = xmlMalloc(sizeof *t);
    if (!t)
        return NULL;
    t->dict = xmlDictCreate();
    if (!t->dict) {
        xmlFree(t);
        return NULL;
    }
    return t;
}

void
xf_strtab_free(xf_strtab *t)
{
    if (!t)
        return;
    xmlDictFree(t->dict);
    xmlFree(t);
}

const char *
xf_strtab_intern(xf_strtab *t, const char *s, int len)
{
    return (const char *)xmlDictLookup(t->dict, (const xmlChar *)s, len);
}

size_t
xf_strtab_size(const xf_strtab *t)
{
    int n = xmlDictSize(t->dict);
    return n < 0 ? 0 : (size_t)n;
}

size_t
xf_strtab_bytes(const xf_strtab *t)
{
    return xmlDictGetUsage(t->dict);
}
