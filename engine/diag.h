/* diag.h: diagnostics. Every message carries FILE:LINE when it has one and
 * goes to a stream and/or is kept for the caller; nothing below main exits. */
#ifndef XF_ENGINE_DIAG_H
#define XF_ENGINE_DIAG_H

#include <stddef.h>
#include <stdio.h>

typedef struct xf_diag xf_diag;

typedef enum xf_severity { XF_NOTE, XF_WARNING, XF_ERROR, XF_INTERNAL } xf_severity;

#if defined(__GNUC__)
#define XF_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define XF_PRINTF(f, a)
#endif

/**
 * xf_diag_new:
 * @out: stream that each message is written to as it comes (NULL: keep only)
 * @returns a sink for messages (free with xf_diag_free), NULL when out of memory.
 */
xf_diag *xf_diag_new(FILE *out);

/** xf_diag_free: release @d and the messages it kept. NULL is allowed. */
void xf_diag_free(xf_diag *d);

/**
 * xf_diag_report:
 * Report "FILE:LINE: error: message" (FILE: or LINE: left out when NULL / 0).
 * The first messages are kept for xf_diag_message; all are counted.
 */
void xf_diag_report(xf_diag *d, xf_severity sev, const char *file, unsigned long line,
                    const char *fmt, ...) XF_PRINTF(5, 6);

/* A rewriter of locations: called with the FILE and LINE of each report,
 * it may change them (to name the file a temporary file was made from). */
typedef void (*xf_diag_where)(void *arg, const char **file, unsigned long *line);

/**
 * xf_diag_set_where:
 * Pass the location of every later report through @fn (NULL: none) with
 * @arg, which stays the caller's and must outlive the reports.
 */
void xf_diag_set_where(xf_diag *d, xf_diag_where fn, void *arg);

/** xf_diag_errors: number of errors (and internal errors) reported so far. */
size_t xf_diag_errors(const xf_diag *d);

/** xf_diag_internal_errors: number of internal errors reported so far. */
size_t xf_diag_internal_errors(const xf_diag *d);

/** xf_diag_count: number of messages kept. */
size_t xf_diag_count(const xf_diag *d);

/** xf_diag_message: the i-th kept message, formatted as printed (no newline), owned by @d. */
const char *xf_diag_message(const xf_diag *d, size_t i);

/** xf_diag_clear: forget all messages and counts. */
void xf_diag_clear(xf_diag *d);

#define xf_error(d, file, line, ...) xf_diag_report((d), XF_ERROR, (file), (line), __VA_ARGS__)
#define xf_warning(d, file, line, ...) xf_diag_report((d), XF_WARNING, (file), (line), __VA_ARGS__)
/* An internal error names the C source place, as "internal error at engine/read.c:212". */
#define xf_internal(d, what)                                                                       \
    xf_diag_report((d), XF_INTERNAL, NULL, 0, "internal error at %s:%d: %s", __FILE__, __LINE__,   \
                   (what))

#endif
