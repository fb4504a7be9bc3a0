/* xmlout.h: an XML text writer of our own, for the writer (write.c). It
 * writes what libxml2 2.9's xmlTextWriter writes with indenting on (the
 * same bytes: tests/corpus and the golden outputs compare them), for the
 * calls write.c makes, at a fraction of the cost: one buffer, no list of
 * open elements to walk, escaping in one pass. Output goes to a file
 * descriptor (buffered) or to memory. */
#ifndef XF_ENGINE_XMLOUT_H
#define XF_ENGINE_XMLOUT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct xf_xo xf_xo;

/** xf_xo_new_fd: a writer to @fd (not closed by xf_xo_free). NULL when out of memory. */
xf_xo *xf_xo_new_fd(int fd);

/** xf_xo_new_memory: a writer to memory (xf_xo_take). NULL when out of memory. */
xf_xo *xf_xo_new_memory(void);

/**
 * xf_xo_take:
 * The text written to a memory writer, NUL-terminated, its length in
 * *@len; the caller frees it. NULL when out of memory or not a memory writer.
 */
char *xf_xo_take(xf_xo *x, size_t *len);

/** xf_xo_free: release @x (without flushing). NULL is allowed. */
void xf_xo_free(xf_xo *x);

/* Each call below returns 0, or -1 on an error (a write error, out of
 * memory, a call where it is not allowed), as xmlTextWriter's do. */

/** xf_xo_indent: indent with @unit per open element (NULL: do not indent). */
int xf_xo_indent(xf_xo *x, const char *unit);
/** xf_xo_start_document: the XML declaration (version 1.0, UTF-8). */
int xf_xo_start_document(xf_xo *x);
/** xf_xo_end_document: close what is open. */
int xf_xo_end_document(xf_xo *x);
/** xf_xo_flush: write out what is buffered (a file descriptor writer). */
int xf_xo_flush(xf_xo *x);
/** xf_xo_start: open element @prefix:@name (@prefix NULL: @name). */
int xf_xo_start(xf_xo *x, const char *prefix, const char *name);
/** xf_xo_enter: be inside element @qname, whose start tag another writer
 * wrote and closed: what follows is written as its content, xf_xo_end
 * writes its end tag. For writing a document in pieces. */
int xf_xo_enter(xf_xo *x, const char *qname);
/* Diverting a writer: what is written between xf_xo_divert and
 * xf_xo_undivert goes to another file, as the content of the innermost open
 * element after its start tag is closed, and leaves the writer's state as it
 * was; xf_xo_raw later puts such text back as that element's content. */
typedef struct xf_xo_mark {
    int fd;
    bool text, doindent;
} xf_xo_mark;
/** xf_xo_divert: flush, then write to @fd (a file descriptor writer inside an element). */
int xf_xo_divert(xf_xo *x, int fd, xf_xo_mark *m);
/** xf_xo_undivert: flush to the diverted file, then back to where xf_xo_divert found @x. */
int xf_xo_undivert(xf_xo *x, const xf_xo_mark *m);
/** xf_xo_raw: the @n bytes @s, written while diverted, as content of the innermost element. */
int xf_xo_raw(xf_xo *x, const char *s, size_t n);
/** xf_xo_end: close the innermost open element. */
int xf_xo_end(xf_xo *x);
/** xf_xo_attr: attribute @prefix:@name (@prefix NULL: @name) = @value, escaped. */
int xf_xo_attr(xf_xo *x, const char *prefix, const char *name, const char *value);
/** xf_xo_text: character data @text, escaped. */
int xf_xo_text(xf_xo *x, const char *text);
/** xf_xo_cdata: a CDATA section holding @text. */
int xf_xo_cdata(xf_xo *x, const char *text);
/** xf_xo_comment: a comment holding @text. */
int xf_xo_comment(xf_xo *x, const char *text);
/** xf_xo_pi: a processing instruction @target @text (@text NULL: none). */
int xf_xo_pi(xf_xo *x, const char *target, const char *text);

#endif
