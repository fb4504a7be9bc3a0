/* test_attrs.c: the attribute table (engine/xaif_attrs.def) agrees with the
 * schema (schema/xaif.xsd and the catalogues' schemas, as built in), and the
 * reader and the writer follow it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "read.h"
#include "schema.h"
#include "suites.h"
#include "write.h"
#include "xaif_attrs.h"
#include "xaif_fixture.h"

#define XSD_NS "http://www.w3.org/2001/XMLSchema"

/* Attributes the schema declares and the IR does not model: the reader keeps
 * them verbatim among the element's extras, the writer writes them back. */
static const struct {
    const char *elem, *attr, *why;
} not_kept[] = {
    {"AssignmentLHS", "live", "xaifBooster's liveness hint; no pass reads it"},
};

/* ------------------------------------------------------ the schema's side */

enum { MAX_ELEMS = 160, MAX_DECLS = 4, MAX_ATTRS = 16 };

/* The declarations of one element (namespace, local name) and the
 * xsd:attribute nodes of each. */
typedef struct selem {
    const xmlChar *ns, *name;
    int ndecl;
    int nattr[MAX_DECLS];
    xmlNodePtr attr[MAX_DECLS][MAX_ATTRS];
} selem;

typedef struct schema_set {
    xmlDocPtr doc[3];
    int ndoc;
    selem el[MAX_ELEMS];
    int nel;
    char err[4096];
    size_t errlen;
    int nerr;
} schema_set;

static void disagree(schema_set *s, const char *fmt, ...) XF_PRINTF(2, 3);

static void
disagree(schema_set *s, const char *fmt, ...)
{
    va_list ap;
    s->nerr++;
    if (s->errlen + 200 >= sizeof s->err)
        return;
    va_start(ap, fmt);
    s->errlen += (size_t)vsnprintf(s->err + s->errlen, sizeof s->err - s->errlen, fmt, ap);
    va_end(ap);
    s->errlen += (size_t)snprintf(s->err + s->errlen, sizeof s->err - s->errlen, "\n");
}

static bool
is_xsd(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && n->ns && xmlStrEqual(n->ns->href, BAD_CAST XSD_NS) &&
           xmlStrEqual(n->name, BAD_CAST name);
}

/* The namespace and local name of the QName in attribute @attr of @n. */
static bool
qname(xmlNodePtr n, const char *attr, const xmlChar **ns, const xmlChar **local)
{
    xmlChar *q = xmlGetProp(n, BAD_CAST attr);
    if (!q)
        return false;
    const char *colon = strchr((const char *)q, ':');
    xmlChar *prefix = colon ? xmlStrndup(q, (int)(colon - (const char *)q)) : NULL;
    xmlNsPtr x = xmlSearchNs(n->doc, n, prefix);
    *ns = x ? x->href : NULL;
    *local = xmlDictLookup(n->doc->dict, BAD_CAST(colon ? colon + 1 : (const char *)q), -1);
    xmlFree(prefix);
    xmlFree(q);
    return *local != NULL;
}

static const xmlChar *
target_ns(xmlNodePtr n)
{
    static const xmlChar none[] = "";
    xmlNodePtr root = xmlDocGetRootElement(n->doc);
    xmlAttrPtr a = xmlHasProp(root, BAD_CAST "targetNamespace");
    return a && a->children ? a->children->content : none;
}

/* The top-level declaration @kind named (@ns, @local) in any of the files. */
static xmlNodePtr
find_global(const schema_set *s, const char *kind, const xmlChar *ns, const xmlChar *local)
{
    for (int i = 0; i < s->ndoc; i++) {
        xmlNodePtr root = xmlDocGetRootElement(s->doc[i]);
        if (!ns || !xmlStrEqual(target_ns(root), ns))
            continue;
        for (xmlNodePtr c = root->children; c; c = c->next) {
            xmlChar *name = is_xsd(c, kind) ? xmlGetProp(c, BAD_CAST "name") : NULL;
            bool hit = name && xmlStrEqual(name, local);
            xmlFree(name);
            if (hit)
                return c;
        }
    }
    return NULL;
}

/* The xsd:attribute nodes that @n (a complexType, an extension, an
 * attributeGroup) declares, with those of its attribute groups and base type. */
static void
collect_attrs(schema_set *s, xmlNodePtr n, selem *e, int depth)
{
    const xmlChar *ns, *local;
    for (xmlNodePtr c = n ? n->children : NULL; c && depth < 10; c = c->next) {
        if (is_xsd(c, "attribute") && e->nattr[e->ndecl] < MAX_ATTRS)
            e->attr[e->ndecl][e->nattr[e->ndecl]++] = c;
        else if (is_xsd(c, "attributeGroup") && qname(c, "ref", &ns, &local))
            collect_attrs(s, find_global(s, "attributeGroup", ns, local), e, depth + 1);
        else if (is_xsd(c, "complexContent") || is_xsd(c, "simpleContent"))
            collect_attrs(s, c, e, depth + 1);
        else if (is_xsd(c, "extension") || is_xsd(c, "restriction")) {
            if (qname(c, "base", &ns, &local))
                collect_attrs(s, find_global(s, "complexType", ns, local), e, depth + 1);
            collect_attrs(s, c, e, depth + 1);
        }
    }
}

static selem *
elem_entry(schema_set *s, const xmlChar *ns, const xmlChar *name)
{
    for (int i = 0; i < s->nel; i++)
        if (xmlStrEqual(s->el[i].ns, ns) && xmlStrEqual(s->el[i].name, name))
            return &s->el[i];
    if (s->nel == MAX_ELEMS)
        return NULL;
    selem *e = &s->el[s->nel++];
    memset(e, 0, sizeof *e);
    e->ns = ns;
    e->name = name;
    return e;
}

/* Every named element declaration below @n, global or local. */
static void
walk(schema_set *s, xmlNodePtr n)
{
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        xmlAttrPtr name = is_xsd(c, "element") ? xmlHasProp(c, BAD_CAST "name") : NULL;
        if (name && name->children) {
            selem *e = elem_entry(s, target_ns(c), name->children->content);
            if (e && e->ndecl < MAX_DECLS) {
                const xmlChar *ns, *local;
                if (qname(c, "type", &ns, &local))
                    collect_attrs(s, find_global(s, "complexType", ns, local), e, 0);
                for (xmlNodePtr k = c->children; k; k = k->next)
                    if (is_xsd(k, "complexType"))
                        collect_attrs(s, k, e, 0);
                e->ndecl++;
            }
        }
        walk(s, c);
    }
}

static void
load_schema(schema_set *s)
{
    static const char *const files[] = {"xaif.xsd", "xaif-inlinable-intrinsics.xsd",
                                        "xaif-noninlinable-intrinsics.xsd"};
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 3; i++) {
        size_t n = 0;
        const char *text = xf_schema_text(files[i], &n);
        ck_assert_ptr_nonnull(text);
        s->doc[i] = xmlReadMemory(text, (int)n, files[i], NULL, XML_PARSE_NONET);
        ck_assert_ptr_nonnull(s->doc[i]);
        s->ndoc++;
    }
    for (int i = 0; i < s->ndoc; i++)
        walk(s, xmlDocGetRootElement(s->doc[i]));
}

static void
free_schema(schema_set *s)
{
    for (int i = 0; i < s->ndoc; i++)
        xmlFreeDoc(s->doc[i]);
}

/* The declaration of @attr in decl @d of @e, or NULL. */
static xmlNodePtr
decl_attr(const selem *e, int d, const char *attr)
{
    for (int i = 0; i < e->nattr[d]; i++) {
        xmlChar *name = xmlGetProp(e->attr[d][i], BAD_CAST "name");
        bool hit = name && xmlStrEqual(name, BAD_CAST attr);
        xmlFree(name);
        if (hit)
            return e->attr[d][i];
    }
    return NULL;
}

static bool
prop_is(xmlNodePtr n, const char *prop, const char *value)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST prop);
    bool is = v && xmlStrEqual(v, BAD_CAST value);
    xmlFree(v);
    return is;
}

/* ------------------------------------------------------- the table's side */

static bool
elem_of(const xmlChar *ns, const xmlChar *name, xf_elem *out)
{
    for (int e = 0; e < XF_EL_COUNT; e++)
        if (xmlStrEqual(BAD_CAST xf_elem_name((xf_elem)e), name) &&
            xmlStrEqual(BAD_CAST xf_ns_uri(xf_elem_ns((xf_elem)e)), ns)) {
            *out = (xf_elem)e;
            return true;
        }
    return false;
}

/* The lists of element @el; their number. */
static int
lists_of(xf_elem el, xf_alist *out, int max)
{
    size_t n;
    const xf_aelem *ae = xf_aelems(&n);
    int k = 0;
    for (size_t i = 0; i < n; i++)
        if (ae[i].el == el && k < max)
            out[k++] = ae[i].list;
    return k;
}

static const xf_attrdef *
row_of(xf_alist l, const char *attr)
{
    size_t n;
    const xf_attrdef *r = xf_alist_rows(l, &n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(xf_aname_text(r[i].name), attr) == 0)
            return &r[i];
    return NULL;
}

static bool
is_not_kept(const xmlChar *el, const char *attr)
{
    for (size_t i = 0; i < sizeof not_kept / sizeof not_kept[0]; i++)
        if (xmlStrEqual(el, BAD_CAST not_kept[i].elem) && strcmp(attr, not_kept[i].attr) == 0)
            return true;
    return false;
}

static bool
is_enum_kind(xf_akind k)
{
    return k == XF_AK_SYMKIND || k == XF_AK_SYMTYPE || k == XF_AK_CTYPE || k == XF_AK_SHAPE ||
           k == XF_AK_INTENT || k == XF_AK_REVERSAL;
}

/* The kind of @row fits the type of the schema's declaration @a. */
static void
check_kind(schema_set *s, const char *el, const xf_attrdef *row, xmlNodePtr a)
{
    const char *attr = xf_aname_text(row->name);
    const xmlChar *ns = NULL, *type = NULL;
    if (!qname(a, "type", &ns, &type)) {
        if (row->kind != XF_AK_STR && row->kind != XF_AK_ID && row->kind != XF_AK_REF)
            disagree(s, "%s@%s: the schema gives no type, the table a kind %d", el, attr,
                     row->kind);
        return;
    }
    bool xsd = ns && xmlStrEqual(ns, BAD_CAST XSD_NS);
    if (row->kind == XF_AK_INT && !(xsd && (xmlStrEqual(type, BAD_CAST "integer") ||
                                            xmlStrEqual(type, BAD_CAST "positiveInteger") ||
                                            xmlStrEqual(type, BAD_CAST "nonNegativeInteger"))))
        disagree(s, "%s@%s: an integer in the table, of type %s in the schema", el, attr, type);
    if (row->kind == XF_AK_FLAG && !(xsd && xmlStrEqual(type, BAD_CAST "boolean")) &&
        !xmlStrEqual(type, BAD_CAST "UseActivity"))
        disagree(s, "%s@%s: a boolean in the table, of type %s in the schema", el, attr, type);
    if (!is_enum_kind(row->kind) && row->kind != XF_AK_FLAG)
        return;
    xmlNodePtr st = xsd ? NULL : find_global(s, "simpleType", ns, type);
    if (!st && is_enum_kind(row->kind)) {
        disagree(s, "%s@%s: an enumeration in the table, of type %s in the schema", el, attr, type);
        return;
    }
    /* every value the schema enumerates is one the table's kind parses */
    for (xmlNodePtr r = st ? st->children : NULL; r; r = r->next)
        for (xmlNodePtr v = is_xsd(r, "restriction") ? r->children : NULL; v; v = v->next) {
            xmlChar *val = is_xsd(v, "enumeration") ? xmlGetProp(v, BAD_CAST "value") : NULL;
            int iv;
            xf_flag f;
            if (val &&
                (row->kind == XF_AK_FLAG ? !xf_flag_parse((const char *)val, &f)
                                         : !xf_akind_parse(row->kind, (const char *)val, &iv)))
                disagree(s, "%s@%s: the schema's value '%s' is none of the table's kind", el, attr,
                         val);
            xmlFree(val);
        }
}

/* Element @e of the schema against its lists in the table. */
static void
check_elem(schema_set *s, const selem *e)
{
    const char *el = (const char *)e->name;
    xf_elem x;
    xf_alist lists[4];
    if (!elem_of(e->ns, e->name, &x)) {
        disagree(s, "%s: in the schema, not in xaif_elements.def", el);
        return;
    }
    int nl = lists_of(x, lists, 4);
    if (nl == 0) {
        disagree(s, "%s: no attribute list in xaif_attrs.def", el);
        return;
    }
    /* the schema's attributes: kept by the table or listed in not_kept */
    for (int d = 0; d < e->ndecl; d++)
        for (int i = 0; i < e->nattr[d]; i++) {
            xmlChar *an = xmlGetProp(e->attr[d][i], BAD_CAST "name");
            const char *attr = (const char *)an;
            bool seen = false; /* in an earlier declaration */
            for (int d0 = 0; d0 < d && !seen; d0++)
                seen = decl_attr(e, d0, attr) != NULL;
            const xf_attrdef *row = NULL;
            for (int l = 0; l < nl && !row; l++)
                row = row_of(lists[l], attr);
            if (seen || !an)
                ;
            else if (!row || row->use == XF_AU_EXT) {
                if (!is_not_kept(e->name, attr))
                    disagree(s, "%s@%s: in the schema, not in the table (nor in not_kept)", el,
                             attr);
            } else {
                bool sreq = true, treq = true;
                const char *sdflt = NULL;
                xmlChar *dflt = NULL;
                for (int dd = 0; dd < e->ndecl; dd++) {
                    xmlNodePtr a = decl_attr(e, dd, attr);
                    sreq = sreq && a && prop_is(a, "use", "required");
                    if (a && !dflt)
                        dflt = xmlGetProp(a, BAD_CAST "default");
                }
                sdflt = (const char *)dflt;
                for (int l = 0; l < nl; l++) {
                    const xf_attrdef *r = row_of(lists[l], attr);
                    treq = treq && r && (r->use == XF_AU_REQ || r->use == XF_AU_SREQ);
                    if (r && !(r->dflt ? sdflt && strcmp(r->dflt, sdflt) == 0 : !sdflt))
                        disagree(s, "%s@%s: default '%s' in the table (%s), '%s' in the schema", el,
                                 attr, r->dflt ? r->dflt : "(none)", xf_alist_name(lists[l]),
                                 sdflt ? sdflt : "(none)");
                    if (r)
                        check_kind(s, el, r, e->attr[d][i]);
                }
                if (sreq != treq)
                    disagree(s, "%s@%s: %s in the schema, %s in the table", el, attr,
                             sreq ? "required" : "optional", treq ? "required" : "optional");
                xmlFree(dflt);
            }
            xmlFree(an);
        }
    /* the table's attributes: in the schema, unless marked EXT (and then not) */
    for (int l = 0; l < nl; l++) {
        size_t n;
        const xf_attrdef *r = xf_alist_rows(lists[l], &n);
        for (size_t i = 0; i < n; i++) {
            const char *attr = xf_aname_text(r[i].name);
            bool in_schema = false;
            for (int d = 0; d < e->ndecl && !in_schema; d++)
                in_schema = decl_attr(e, d, attr) != NULL;
            if (r[i].use != XF_AU_EXT && !in_schema)
                disagree(s, "%s@%s (%s): in the table, not in the schema", el, attr,
                         xf_alist_name(lists[l]));
            if (r[i].use == XF_AU_EXT && in_schema)
                disagree(s, "%s@%s (%s): marked EXT, but the schema declares it", el, attr,
                         xf_alist_name(lists[l]));
        }
    }
}

START_TEST(table_agrees_with_the_schema)
{
    schema_set *s = calloc(1, sizeof *s);
    ck_assert_ptr_nonnull(s);
    load_schema(s);
    ck_assert_int_gt(s->nel, 80); /* the walk found the schema's elements */
    for (int i = 0; i < s->nel; i++)
        check_elem(s, &s->el[i]);
    /* and every element of the table is one of the schema's */
    size_t n;
    const xf_aelem *ae = xf_aelems(&n);
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (int k = 0; k < s->nel && !found; k++)
            found = xmlStrEqual(s->el[k].name, BAD_CAST xf_elem_name(ae[i].el)) &&
                    xmlStrEqual(s->el[k].ns, BAD_CAST xf_ns_uri(xf_elem_ns(ae[i].el)));
        if (!found)
            disagree(s, "%s: in the table, not in the schema", xf_elem_name(ae[i].el));
    }
    ck_assert_msg(s->nerr == 0, "%d disagreements:\n%s", s->nerr, s->err);
    free_schema(s);
    free(s);
}
END_TEST

START_TEST(every_element_has_a_list)
{
    for (int e = 0; e < XF_EL_COUNT; e++) {
        xf_alist l[4];
        ck_assert_msg(lists_of((xf_elem)e, l, 4) > 0, "%s has no attribute list",
                      xf_elem_name((xf_elem)e));
    }
}
END_TEST

START_TEST(rows_are_well_formed)
{
    for (int l = 0; l < XF_AL_COUNT; l++) {
        size_t n;
        const xf_attrdef *r = xf_alist_rows((xf_alist)l, &n);
        const xf_alistdef *ld = xf_alist_def((xf_alist)l);
        size_t nint = 0, nreq = 0;
        for (size_t i = 0; i < n; i++) {
            nint += r[i].kind == XF_AK_INT;
            nreq += r[i].use == XF_AU_REQ;
        }
        ck_assert_uint_eq(ld->n, n);
        ck_assert_uint_eq(ld->nint, nint);
        ck_assert_uint_eq(ld->nreq, nreq);
        for (size_t i = 0; i < n; i++) {
            const char *what = xf_alist_name((xf_alist)l);
            ck_assert_str_eq(r[i].text, xf_aname_text(r[i].name));
            ck_assert_msg(r[i].list == (xf_alist)l, "a row of %s lies under another list", what);
            ck_assert_msg(r[i].name > XF_AN_UNKNOWN && r[i].name < XF_AN_COUNT, "%s", what);
            ck_assert_msg((r[i].use == XF_AU_REQ) == (r[i].missing != NULL),
                          "%s@%s: a required row says what is missing, no other", what,
                          xf_aname_text(r[i].name));
            ck_assert_msg(r[i].kind != XF_AK_REF || r[i].off < XF_REF_COUNT, "%s", what);
        }
    }
}
END_TEST

/* The reader refuses an element without a REQ attribute with the table's
 * words, at the element's line. */
START_TEST(required_attribute_missing)
{
    static const char doc[] =
        XAIF_HEAD XAIF_SCOPES XAIF_MAPS XAIF_CFG_OPEN "    <xaif:Entry vertex_id=\"1\"/>\n"
                                                      "    <xaif:Exit/>\n" XAIF_TAIL;
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *x = xf_read_memory(doc, strlen(doc), "m.xaif", NULL, d);
    ck_assert_ptr_null(x);
    ck_assert_msg(strstr(first_message(d), "error: <Exit> without vertex_id") != NULL, "%s",
                  first_message(d));
    xf_diag_free(d);
}
END_TEST

/* Attributes come out in the table's order whatever the input's, with the
 * kinds' spellings kept; unknown ones follow, as written. */
START_TEST(written_in_table_order)
{
    static const char doc[] =
        XAIF_HEAD "  <xaif:ScopeHierarchy>\n"
                  "    <xaif:Scope vertex_id=\"1\">\n"
                  "      <xaif:SymbolTable>\n"
                  "        <xaif:Symbol pointer=\"false\" zz=\"9\" shape=\"vector\" temp=\"1\" "
                  "type=\"integer\" kind=\"variable\" symbol_id=\"s\" active=\"0\">\n"
                  "          <xaif:DimensionBounds upper=\"3\" lower=\"-2\"/>\n"
                  "        </xaif:Symbol>\n"
                  "      </xaif:SymbolTable>\n"
                  "    </xaif:Scope>\n"
                  "  </xaif:ScopeHierarchy>\n" XAIF_MAPS "</xaif:CallGraph>\n";
    xf_diag *d = xf_diag_new(NULL);
    xf_doc *x = xf_read_memory(doc, strlen(doc), "m.xaif", NULL, d);
    ck_assert_msg(x != NULL, "%s", first_message(d));
    char *out = NULL;
    size_t len = 0;
    ck_assert_int_eq(xf_write_memory(x, &out, &len, d), 0);
    ck_assert_msg(strstr(out, "<xaif:Symbol symbol_id=\"s\" kind=\"variable\" type=\"integer\" "
                              "shape=\"vector\" active=\"0\" temp=\"1\" pointer=\"false\" "
                              "zz=\"9\">") != NULL,
                  "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "<xaif:DimensionBounds lower=\"-2\" upper=\"3\"/>"));
    free(out);
    xf_doc_free(x);
    xf_diag_free(d);
}
END_TEST

Suite *
test_attrs_suite(void)
{
    Suite *s = suite_create("attrs");
    TCase *tc = tcase_create("attrs");
    tcase_add_test(tc, table_agrees_with_the_schema);
    tcase_add_test(tc, every_element_has_a_list);
    tcase_add_test(tc, rows_are_well_formed);
    tcase_add_test(tc, required_attribute_missing);
    tcase_add_test(tc, written_in_table_order);
    suite_add_tcase(s, tc);
    return s;
}
