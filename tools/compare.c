/* compare.c: see compare.h. Walks both trees side by side. */
#include "compare.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct cmp {
    char *why;
    size_t whylen;
} cmp;

static int
differ(cmp *c, const xmlNode *a, const xmlNode *b, const char *fmt, ...)
{
    if (c->why && c->whylen) {
        char msg[600];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(c->why, c->whylen, "line %ld / line %ld: %s", a ? xmlGetLineNo(a) : 0L,
                 b ? xmlGetLineNo(b) : 0L, msg);
    }
    return 1;
}

static bool
blank(const xmlChar *s)
{
    for (; s && *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return false;
    return true;
}

/* The next child that counts, from @n on. */
static const xmlNode *
counted(const xmlNode *n)
{
    for (; n; n = n->next) {
        if (n->type == XML_ELEMENT_NODE)
            return n;
        if ((n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) && !blank(n->content))
            return n;
    }
    return NULL;
}

static const char *
uri(const xmlNode *n)
{
    return n->ns && n->ns->href ? (const char *)n->ns->href : "";
}

static const char *
auri(const xmlAttr *a)
{
    return a->ns && a->ns->href ? (const char *)a->ns->href : "";
}

static int
count_attrs(const xmlNode *n)
{
    int k = 0;
    for (const xmlAttr *a = n->properties; a; a = a->next)
        k++;
    return k;
}

static int
compare_attrs(cmp *c, const xmlNode *a, const xmlNode *b)
{
    for (const xmlAttr *x = a->properties; x; x = x->next) {
        const xmlAttr *y = b->properties;
        while (y && !(xmlStrEqual(x->name, y->name) && strcmp(auri(x), auri(y)) == 0))
            y = y->next;
        if (!y)
            return differ(c, a, b, "<%s> lost attribute %s", a->name, x->name);
        xmlChar *vx = xmlNodeListGetString(a->doc, x->children, 1);
        xmlChar *vy = xmlNodeListGetString(b->doc, y->children, 1);
        int same = xmlStrEqual(vx ? vx : BAD_CAST "", vy ? vy : BAD_CAST "");
        int ret = same ? 0
                       : differ(c, a, b, "<%s> attribute %s: '%s' became '%s'", a->name, x->name,
                                vx ? (const char *)vx : "", vy ? (const char *)vy : "");
        xmlFree(vx);
        xmlFree(vy);
        if (ret)
            return ret;
    }
    if (count_attrs(a) != count_attrs(b))
        return differ(c, a, b, "<%s> gained attributes", a->name);
    return 0;
}

/* Compare two elements and their subtrees, iteratively (depth first). */
static int
compare_tree(cmp *c, const xmlNode *a, const xmlNode *b)
{
    const xmlNode *ra = a;
    for (;;) {
        if (!a || !b) {
            if (a || b)
                return differ(c, a, b, a ? "element <%s> is missing" : "extra element <%s>",
                              (const char *)(a ? a->name : b->name));
        } else if (a->type != b->type) {
            return differ(c, a, b, "text and element differ");
        } else if (a->type == XML_ELEMENT_NODE) {
            if (!xmlStrEqual(a->name, b->name) || strcmp(uri(a), uri(b)) != 0)
                return differ(c, a, b, "<%s> became <%s>", a->name, b->name);
            if (compare_attrs(c, a, b))
                return 1;
            const xmlNode *ka = counted(a->children), *kb = counted(b->children);
            if (ka || kb) {
                if (!ka || !kb)
                    return differ(c, a, b, "children of <%s> differ", a->name);
                a = ka;
                b = kb;
                continue;
            }
        } else if (!xmlStrEqual(a->content, b->content)) {
            return differ(c, a, b, "text differs");
        }
        /* next sibling, or climb */
        for (;;) {
            if (a == ra)
                return 0;
            const xmlNode *na = counted(a->next), *nb = counted(b->next);
            if (na || nb) {
                if (!na || !nb)
                    return differ(c, na ? na : a, nb ? nb : b, "%s child count differs under <%s>",
                                  na ? "lower" : "higher", a->parent->name);
                a = na;
                b = nb;
                break;
            }
            a = a->parent;
            b = b->parent;
        }
    }
}

int
xf_xml_compare(const char *a, size_t alen, const char *b, size_t blen, char *why, size_t whylen)
{
    cmp c = {why, whylen};
    if (why && whylen)
        why[0] = 0;
    int opts = XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOBLANKS | XML_PARSE_HUGE |
               XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    xmlDocPtr da = alen <= INT32_MAX ? xmlReadMemory(a, (int)alen, "a", NULL, opts) : NULL;
    xmlDocPtr db = blen <= INT32_MAX ? xmlReadMemory(b, (int)blen, "b", NULL, opts) : NULL;
    int ret;
    if (!da || !db) {
        if (why && whylen)
            snprintf(why, whylen, "document %s does not parse", da ? "b" : "a");
        ret = -1;
    } else
        ret = compare_tree(&c, xmlDocGetRootElement(da), xmlDocGetRootElement(db));
    xmlFreeDoc(da);
    xmlFreeDoc(db);
    return ret;
}

int
xf_xml_compare_files(const char *a, const char *b, char *why, size_t whylen)
{
    cmp c = {why, whylen};
    if (why && whylen)
        why[0] = 0;
    int opts = XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOBLANKS | XML_PARSE_HUGE |
               XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    xmlDocPtr da = xmlReadFile(a, NULL, opts);
    xmlDocPtr db = xmlReadFile(b, NULL, opts);
    int ret;
    if (!da || !db) {
        if (why && whylen)
            snprintf(why, whylen, "%s does not parse", da ? b : a);
        ret = -1;
    } else
        ret = compare_tree(&c, xmlDocGetRootElement(da), xmlDocGetRootElement(db));
    xmlFreeDoc(da);
    xmlFreeDoc(db);
    return ret;
}
