/* schema.c: see schema.h. */
#include "schema.h"

#include <libxml/parserInternals.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlschemas.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct xf_embedded {
    const char *name, *data;
    size_t size;
};
extern const struct xf_embedded xf_embedded_files[];

struct xf_schema {
    xmlSchemaPtr schema;
};

typedef struct errctx {
    xf_diag *diag;
    const char *file;
    int errors;
} errctx;

static void
on_error(void *arg, xmlErrorPtr e)
{
    errctx *c = arg;
    if (!e)
        return;

    char msg[1000];
    snprintf(msg, sizeof msg, "%s", e->message ? e->message : "invalid");
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = 0;
    const char *file = c->file ? c->file : e->file;
    unsigned long line = e->line > 0 ? (unsigned long)e->line : 0;
    if (e->level == XML_ERR_WARNING) {
        xf_warning(c->diag, file, line, "%s", msg);
        return;
    }
    xf_error(c->diag, file, line, "%s", msg);
    c->errors++;
}

const char *
xf_schema_text(const char *name, size_t *size)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    for (const struct xf_embedded *f = xf_embedded_files; f->name; f++)
        if (strcmp(f->name, base) == 0) {
            if (size)
                *size = f->size;
            return f->data;
        }
    return NULL;
}

static xmlExternalEntityLoader next_loader;

/* While the built-in schema is parsed, its imports come from the program. */
static xmlParserInputPtr
embedded_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
    const char *text = url ? xf_schema_text(url, NULL) : NULL;
    if (text)
        return xmlNewStringInputStream(ctxt, (const xmlChar *)text);
    return next_loader(url, id, ctxt);
}

xf_schema *
xf_schema_load(const char *path, xf_diag *diag)
{
    errctx c = {diag, path ? path : "built-in schema xaif.xsd", 0};
    xmlSchemaParserCtxtPtr pc;
    size_t size = 0;
    const char *text = path ? NULL : xf_schema_text("xaif.xsd", &size);
    if (!path && !text) {
        xf_error(diag, NULL, 0, "the program was built without its schema");
        return NULL;
    }
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (path && !f) {
        xf_error(diag, path, 0, "cannot open the schema: %s", strerror(errno));
        return NULL;
    }
    if (f)
        fclose(f);
    if (!path) {
        next_loader = xmlGetExternalEntityLoader();
        xmlSetExternalEntityLoader(embedded_loader);
        pc = xmlSchemaNewMemParserCtxt(text, (int)size);
    } else
        pc = xmlSchemaNewParserCtxt(path);
    xf_schema *s = NULL;
    if (pc) {
        xmlSchemaSetParserStructuredErrors(pc, on_error, &c);
        xmlSchemaPtr sch = xmlSchemaParse(pc);
        xmlSchemaFreeParserCtxt(pc);
        if (sch && !c.errors && (s = xmlMalloc(sizeof *s)))
            s->schema = sch;
        else if (sch)
            xmlSchemaFree(sch);
    }
    if (!path)
        xmlSetExternalEntityLoader(next_loader);
    if (!s && !c.errors)
        xf_error(diag, c.file, 0, "cannot load the schema");
    return s;
}

void
xf_schema_free(xf_schema *s)
{
    if (!s)
        return;
    xmlSchemaFree(s->schema);
    xmlFree(s);
}

static void
ignore(void *arg, xmlErrorPtr e)
{
    (void)arg;
    (void)e;
}

/* Is @path well-formed XML? Streaming, without messages. */
static bool
well_formed(const char *path)
{
    xmlTextReaderPtr r = xmlReaderForFile(path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
    if (!r)
        return false;
    xmlTextReaderSetStructuredErrorHandler(r, ignore, NULL);
    int ret;
    while ((ret = xmlTextReaderRead(r)) == 1)
        ;
    xmlFreeTextReader(r);
    return ret == 0;
}

static int
validate(xf_schema *s, const char *path, const char *buf, size_t len, const char *name,
         bool xml_errors, xf_diag *diag)
{
    errctx c = {diag, name, 0};
    if (!xml_errors && path && !well_formed(path))
        return 1;
    xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(s->schema);
    if (!vc) {
        xf_error(diag, name, 0, "out of memory");
        return -1;
    }
    xmlSchemaSetValidStructuredErrors(vc, on_error, &c);
    int ret;
    if (path)
        ret = xmlSchemaValidateFile(vc, path, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
    else {
        xmlDocPtr doc = len <= INT32_MAX ? xmlReadMemory(buf, (int)len, name, NULL,
                                                         XML_PARSE_NONET | XML_PARSE_BIG_LINES)
                                         : NULL;
        ret = doc ? xmlSchemaValidateDoc(vc, doc) : -1;
        xmlFreeDoc(doc);
    }
    xmlSchemaFreeValidCtxt(vc);
    if (ret == 0 && c.errors == 0)
        return 0;
    if (c.errors == 0)
        xf_error(diag, name, 0, ret < 0 ? "cannot be validated" : "invalid");
    return ret < 0 && c.errors == 0 ? -1 : 1;
}

int
xf_schema_validate_file(xf_schema *s, const char *path, bool xml_errors, xf_diag *diag)
{
    return validate(s, path, NULL, 0, path, xml_errors, diag);
}

int
xf_schema_validate_memory(xf_schema *s, const char *buf, size_t len, const char *name,
                          xf_diag *diag)
{
    return validate(s, NULL, buf, len, name, true, diag);
}
