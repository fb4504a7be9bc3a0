/* xmlout.c: see xmlout.h. The state of the innermost open element decides
 * what a call writes first: an element whose start tag is still open
 * (attributes may follow) is closed with ">" (and a newline when the next
 * thing is an element or a comment). Indenting follows xmlTextWriter: a
 * start tag and a comment are indented by the number of open elements, an
 * end tag only when nothing but elements and comments came since the last
 * text; character data switches that off until the next end tag. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "xmlout.h"

enum { BUFSIZE = 1 << 16 };

typedef struct open {
    size_t name; /* offset of its qualified name in names */
    bool text;   /* its start tag is closed */
} open;

struct xf_xo {
    int fd; /* -1: memory */
    char *buf;
    size_t n, cap;
    bool failed;
    const char *unit; /* indent unit; NULL: no indenting */
    size_t ulen;      /* its length */
    char *ind;        /* the unit repeated, indcap bytes */
    size_t indcap;
    bool doindent;
    open *stk;
    size_t depth, stkcap;
    char *names;
    size_t nlen, ncap;
};

static xf_xo *
new_writer(int fd)
{
    xf_xo *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->fd = fd;
    x->cap = BUFSIZE;
    x->buf = malloc(x->cap);
    if (!x->buf) {
        free(x);
        return NULL;
    }
    return x;
}

xf_xo *
xf_xo_new_fd(int fd)
{
    return new_writer(fd);
}

xf_xo *
xf_xo_new_memory(void)
{
    return new_writer(-1);
}

void
xf_xo_free(xf_xo *x)
{
    if (!x)
        return;
    free(x->buf);
    free(x->stk);
    free(x->names);
    free(x->ind);
    free(x);
}

char *
xf_xo_take(xf_xo *x, size_t *len)
{
    if (x->fd >= 0 || x->failed)
        return NULL;
    char *p = realloc(x->buf, x->n + 1);
    if (!p)
        return NULL;
    p[x->n] = 0;
    *len = x->n;
    x->buf = NULL;
    x->n = x->cap = 0;
    return p;
}

int
xf_xo_flush(xf_xo *x)
{
    if (x->failed)
        return -1;
    if (x->fd < 0)
        return 0;
    size_t done = 0;
    while (done < x->n) {
        ssize_t k = write(x->fd, x->buf + done, x->n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            x->failed = true;
            return -1;
        }
        done += (size_t)k;
    }
    x->n = 0;
    return 0;
}

/* Room for @k more bytes. */
static bool
room(xf_xo *x, size_t k)
{
    if (x->failed)
        return false;
    if (x->n + k <= x->cap)
        return true;
    if (x->fd >= 0 && xf_xo_flush(x) != 0)
        return false;
    if (x->n + k <= x->cap)
        return true;
    size_t cap = x->cap ? x->cap : BUFSIZE;
    while (cap < x->n + k)
        cap *= 2;
    char *b = realloc(x->buf, cap);
    if (!b) {
        x->failed = true;
        return false;
    }
    x->buf = b;
    x->cap = cap;
    return true;
}

static void
put_n(xf_xo *x, const char *s, size_t k)
{
    if (k && room(x, k)) {
        memcpy(x->buf + x->n, s, k);
        x->n += k;
    }
}

static void
put(xf_xo *x, const char *s)
{
    put_n(x, s, strlen(s));
}

/* Room for @k bytes at the end of the buffer, which the caller fills and
 * then counts (x->n += k); NULL after an error. */
static char *
reserve(xf_xo *x, size_t k)
{
    return room(x, k) ? x->buf + x->n : NULL;
}

/* Copy @k bytes to @p; returns the end. */
static char *
copy(char *p, const char *s, size_t k)
{
    memcpy(p, s, k);
    return p + k;
}

/* The indent of @levels open elements at @p; NULL when out of memory. */
static char *
indent(xf_xo *x, char *p, size_t levels)
{
    size_t k = levels * x->ulen;
    if (!k)
        return p;
    if (k > x->indcap) {
        size_t cap = 2 * k < 256 ? 256 : 2 * k;
        char *b = realloc(x->ind, cap);
        if (!b) {
            x->failed = true;
            return NULL;
        }
        for (size_t i = 0; i + x->ulen <= cap; i += x->ulen)
            memcpy(b + i, x->unit, x->ulen);
        x->ind = b;
        x->indcap = cap / x->ulen * x->ulen;
    }
    memcpy(p, x->ind, k);
    return p + k;
}

/* The indent of @levels open elements. */
static void
put_indent(xf_xo *x, size_t levels)
{
    size_t k = levels * x->ulen;
    char *p = reserve(x, k);
    if (!p || !indent(x, p, levels))
        return;
    x->n += k;
}

/* An attribute value: markup characters and white space other than blanks
 * as references; other bytes (UTF-8 beyond ASCII too) as they are. */
static void
put_attr_value(xf_xo *x, const char *s)
{
    const unsigned char *base = (const unsigned char *)s, *c = base;
    while (*c) {
        const char *rep = NULL;
        switch (*c) {
        case '\n':
            rep = "&#10;";
            break;
        case '\r':
            rep = "&#13;";
            break;
        case '\t':
            rep = "&#9;";
            break;
        case '"':
            rep = "&quot;";
            break;
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        case '&':
            rep = "&amp;";
            break;
        default:
            break;
        }
        if (rep) {
            put_n(x, (const char *)base, (size_t)(c - base));
            put(x, rep);
            base = ++c;
            continue;
        }
        c++;
    }
    put_n(x, (const char *)base, (size_t)(c - base));
}

/* Character data: < > & " and carriage returns as references. */
static void
put_text(xf_xo *x, const char *s)
{
    const char *base = s, *c = s;
    for (; *c; c++) {
        const char *rep = *c == '<'    ? "&lt;"
                          : *c == '>'  ? "&gt;"
                          : *c == '&'  ? "&amp;"
                          : *c == '"'  ? "&quot;"
                          : *c == '\r' ? "&#13;"
                                       : NULL;
        if (rep) {
            put_n(x, base, (size_t)(c - base));
            put(x, rep);
            base = c + 1;
        }
    }
    put_n(x, base, (size_t)(c - base));
}

static open *
top(xf_xo *x)
{
    return x->depth ? &x->stk[x->depth - 1] : NULL;
}

/* Close the innermost start tag if it is open; @nl: a newline after it
 * when indenting. */
static void
close_tag(xf_xo *x, bool nl)
{
    open *t = top(x);
    if (t && !t->text) {
        size_t k = nl && x->unit ? 2 : 1;
        char *p = reserve(x, k);
        if (p) {
            p[0] = '>';
            p[k - 1] = k == 2 ? '\n' : '>';
            x->n += k;
        }
        t->text = true;
    }
}

static int
status(const xf_xo *x)
{
    return x->failed ? -1 : 0;
}

int
xf_xo_indent(xf_xo *x, const char *unit)
{
    x->unit = unit;
    x->ulen = unit ? strlen(unit) : 0;
    x->indcap = 0;
    x->doindent = true;
    return 0;
}

int
xf_xo_start_document(xf_xo *x)
{
    if (x->depth)
        return -1;
    put(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    return status(x);
}

int
xf_xo_start(xf_xo *x, const char *prefix, const char *name)
{
    if (!name || !*name)
        return -1;
    close_tag(x, true);
    size_t lp = prefix ? strlen(prefix) + 1 : 0, ln = strlen(name);
    if (x->nlen + lp + ln + 1 > x->ncap) {
        size_t cap = x->ncap ? x->ncap : 1024;
        while (cap < x->nlen + lp + ln + 1)
            cap *= 2;
        char *p = realloc(x->names, cap);
        if (!p)
            return x->failed = true, -1;
        x->names = p;
        x->ncap = cap;
    }
    if (x->depth == x->stkcap) {
        size_t cap = x->stkcap ? 2 * x->stkcap : 64;
        open *p = realloc(x->stk, cap * sizeof *p);
        if (!p)
            return x->failed = true, -1;
        x->stk = p;
        x->stkcap = cap;
    }
    char *q = x->names + x->nlen;
    if (prefix) {
        memcpy(q, prefix, lp - 1);
        q[lp - 1] = ':';
    }
    memcpy(q + lp, name, ln + 1);
    x->stk[x->depth++] = (open){.name = x->nlen};
    x->nlen += lp + ln + 1;
    size_t levels = x->unit ? x->depth - 1 : 0;
    size_t k = levels * x->ulen + 1 + lp + ln;
    char *p = reserve(x, k);
    if (!p || !(p = indent(x, p, levels)))
        return -1;
    *p++ = '<';
    copy(p, q, lp + ln);
    x->n += k;
    return status(x);
}

int
xf_xo_enter(xf_xo *x, const char *qname)
{
    if (xf_xo_start(x, NULL, qname) != 0)
        return -1;
    /* undo the start tag's text: only the open element stays */
    x->n -= (x->unit ? (x->depth - 1) * x->ulen : 0) + 1 + strlen(qname);
    x->stk[x->depth - 1].text = true;
    x->doindent = true;
    return status(x);
}

int
xf_xo_divert(xf_xo *x, int fd, xf_xo_mark *m)
{
    open *t = top(x);
    if (!t || x->fd < 0 || fd < 0 || xf_xo_flush(x) != 0)
        return -1;
    *m = (xf_xo_mark){.fd = x->fd, .text = t->text, .doindent = x->doindent};
    x->fd = fd;
    t->text = true;
    x->doindent = true;
    return 0;
}

int
xf_xo_undivert(xf_xo *x, const xf_xo_mark *m)
{
    open *t = top(x);
    int ret = xf_xo_flush(x);
    x->fd = m->fd;
    if (t)
        t->text = m->text;
    x->doindent = m->doindent;
    return ret;
}

int
xf_xo_raw(xf_xo *x, const char *s, size_t n)
{
    if (!top(x))
        return -1;
    close_tag(x, true);
    put_n(x, s, n);
    x->doindent = true;
    return status(x);
}

int
xf_xo_end(xf_xo *x)
{
    open *t = top(x);
    if (!t)
        return -1;
    const char *name = x->names + t->name;
    size_t ln = x->nlen - t->name - 1, u = x->ulen, levels = 0;
    size_t k;
    if (!t->text) {
        if (x->unit)
            x->doindent = true;
        k = 2; /* /> */
    } else {
        if (x->unit && x->doindent)
            levels = x->depth - 1;
        x->doindent = true;
        k = levels * u + 3 + ln; /* </name> */
    }
    k += x->unit ? 1 : 0;
    char *p = reserve(x, k);
    if (!p)
        return -1;
    if (!t->text) {
        *p++ = '/';
        *p++ = '>';
    } else {
        if (!(p = indent(x, p, levels)))
            return -1;
        *p++ = '<';
        *p++ = '/';
        p = copy(p, name, ln);
        *p++ = '>';
    }
    if (x->unit)
        *p = '\n';
    x->n += k;
    x->nlen = t->name;
    x->depth--;
    return status(x);
}

int
xf_xo_attr(xf_xo *x, const char *prefix, const char *name, const char *value)
{
    open *t = top(x);
    if (!t || t->text || !name || !*name)
        return -1;
    size_t lp = prefix ? strlen(prefix) : 0, ln = strlen(name);
    /* the value as it is when it has nothing to escape, the common case */
    size_t lv = value ? strcspn(value, "\n\r\t\"<>&") : 0;
    bool plain = !value || !value[lv];
    size_t k = 1 + (prefix ? lp + 1 : 0) + ln + 2 + (plain ? lv + 1 : 0);
    char *p = reserve(x, k);
    if (!p)
        return -1;
    *p++ = ' ';
    if (prefix) {
        p = copy(p, prefix, lp);
        *p++ = ':';
    }
    p = copy(p, name, ln);
    *p++ = '=';
    *p++ = '"';
    if (plain) {
        memcpy(p, value ? value : "", lv);
        p[lv] = '"';
    }
    x->n += k;
    if (!plain) {
        put_attr_value(x, value);
        put(x, "\"");
    }
    return status(x);
}

int
xf_xo_text(xf_xo *x, const char *text)
{
    if (!text)
        return 0;
    bool inside = x->depth > 0;
    close_tag(x, false);
    if (x->unit)
        x->doindent = false;
    if (inside)
        put_text(x, text);
    else
        put(x, text); /* outside the root, as libxml2: not escaped */
    return status(x);
}

int
xf_xo_cdata(xf_xo *x, const char *text)
{
    close_tag(x, false);
    put(x, "<![CDATA[");
    if (text) {
        if (x->unit)
            x->doindent = false;
        put(x, text);
    }
    put(x, "]]>");
    return status(x);
}

int
xf_xo_comment(xf_xo *x, const char *text)
{
    close_tag(x, true);
    if (x->unit)
        put_indent(x, x->depth);
    put(x, "<!--");
    if (text) {
        if (x->unit)
            x->doindent = false;
        put(x, text);
    }
    put(x, "-->");
    if (x->unit)
        put(x, "\n");
    return status(x);
}

int
xf_xo_pi(xf_xo *x, const char *target, const char *text)
{
    if (!target || !*target || !strcasecmp(target, "xml"))
        return -1;
    close_tag(x, false);
    put(x, "<?");
    put(x, target);
    if (text) {
        put(x, " ");
        if (x->unit)
            x->doindent = false;
        put(x, text);
    }
    put(x, "?>");
    if (x->unit)
        put(x, "\n");
    return status(x);
}

int
xf_xo_end_document(xf_xo *x)
{
    while (x->depth)
        if (xf_xo_end(x) != 0)
            return -1;
    if (!x->unit)
        put(x, "\n");
    return status(x);
}
