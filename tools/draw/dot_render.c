/* dot_render.c: a graphviz graph laid out (gvc, the dot engine) and written
 * to a file in SVG, PNG, PDF or graphviz's own language. Graphviz reports
 * problems through agerr(), which prints to stderr unless a function is
 * installed with agseterrf(); that function gets no context pointer, so the
 * messages of one rendering are collected in a thread-local buffer and then
 * reported to the caller's xf_diag. See dot.h; graphviz's functions are
 * called through the table of dl_graphviz.h. */
#include "dot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"

static const struct {
    const char *name, *format;
} formats[] = {
    {"svg", "svg"}, {"png", "png"}, {"pdf", "pdf"}, {"dot", "dot"}, {"gv", "dot"},
};

const char *
xf_dot_format(const char *name)
{
    for (size_t i = 0; name && i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(formats[i].name, name))
            return formats[i].format;
    return NULL;
}

const char *
xf_dot_formats(void)
{
    return "svg, png, pdf, dot, gv";
}

/* ------------------------------------------------------------ messages */

/* Graphviz's messages during one rendering on this thread (agseterrf has
 * no context argument). Longer output is cut. */
static _Thread_local struct {
    char text[4096];
    size_t n;
} caught;

static int
catch_message(char *piece)
{
    size_t k = strlen(piece);
    if (caught.n + k >= sizeof caught.text)
        k = sizeof caught.text - 1 - caught.n;
    memcpy(caught.text + caught.n, piece, k);
    caught.n += k;
    caught.text[caught.n] = 0;
    return 0;
}

/* Report each caught line ("Error: ..." / "Warning: ..."; a line without
 * the prefix continues the previous message) to @diag. Returns the number
 * of errors. */
static size_t
report_caught(const char *path, xf_diag *diag)
{
    size_t errors = 0;
    bool err = false;
    for (char *p = caught.text; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        if (!strncmp(p, "Error: ", 7)) {
            err = true;
            p += 7;
        } else if (!strncmp(p, "Warning: ", 9)) {
            err = false;
            p += 9;
        }
        while (*p == ' ')
            p++;
        if (*p) {
            if (err) {
                xf_error(diag, path, 0, "graphviz: %s", p);
                errors++;
            } else
                xf_warning(diag, path, 0, "graphviz: %s", p);
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    caught.n = 0;
    caught.text[0] = 0;
    return errors;
}

/* ------------------------------------------------------------ writing */

/* Lay out and write @g to @f in @format. */
static int
emit(GVC_t *gvc, Agraph_t *g, const char *format, FILE *f)
{
    if (!strcmp(format, "dot")) /* the graph itself, without layout */
        return xf_gv()->agwrite(g, f) == 0 ? 0 : -1;
    if (!gvc)
        return -1;
    int rc = xf_gv()->gvLayout(gvc, g, "dot");
    if (rc == 0)
        rc = xf_gv()->gvRender(gvc, g, format, f);
    xf_gv()->gvFreeLayout(gvc, g);
    return rc == 0 ? 0 : -1;
}

/* Write @g to the open descriptor @fd (closed here). */
static int
emit_fd(GVC_t *gvc, Agraph_t *g, const char *format, int fd)
{
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return -1;
    }
    int rc = emit(gvc, g, format, f);
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}

/* Start catching graphviz's messages; returns what to restore. */
typedef struct catching {
    agusererrf f;
    agerrlevel_t level;
} catching;

static catching
catch_start(void)
{
    catching c = {xf_gv()->agseterrf(catch_message), xf_gv()->agseterr(AGWARN)};
    caught.n = 0;
    caught.text[0] = 0;
    return c;
}

static void
catch_stop(catching c)
{
    xf_gv()->agseterrf(c.f);
    xf_gv()->agseterr(c.level);
}

GVC_t *
xf_dot_context(xf_diag *diag)
{
    if (!xf_gv_load(diag))
        return NULL;
    catching c = catch_start();
    GVC_t *gvc = xf_gv()->gvContext();
    catch_stop(c);
    if (report_caught("graphviz", diag) && gvc) {
        xf_gv()->gvFreeContext(gvc);
        return NULL;
    }
    if (!gvc)
        xf_error(diag, "graphviz", 0, "cannot create a graphviz context");
    return gvc;
}

int
xf_dot_render(GVC_t *gvc, Agraph_t *g, const char *format, const char *path, const char *input,
              xf_diag *diag)
{
    bool out = !strcmp(path, "-");
    xf_outfile o = {.fd = -1};
    char why[300];
    if (!out && xf_outfile_open(&o, path, input, why, sizeof why) != 0) {
        xf_error(diag, path, 0, "%s", why);
        return -1;
    }
    catching c = catch_start();
    int rc = out ? emit(gvc, g, format, stdout) : emit_fd(gvc, g, format, o.fd);
    if (out && fflush(stdout) != 0)
        rc = -1;
    catch_stop(c);
    if (report_caught(path, diag))
        rc = -2; /* reported */
    else if (rc != 0)
        xf_error(diag, path, 0, "graphviz could not write the %s picture", format);
    if (!out && xf_outfile_finish(&o, rc == 0, why, sizeof why) != 0 && rc == 0) {
        xf_error(diag, path, 0, "%s", why);
        rc = -1;
    }
    return rc == 0 ? 0 : -1;
}
