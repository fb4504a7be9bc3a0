/* outfile.h: an output file written through a temporary file beside it
 * (PATH.tmp.XXXXXX, given the mode a plain creation would have) and
 * renamed into place only when it is complete, so that a failed run never
 * leaves a partial output and an existing file stays as it was. Used by
 * every writer of the project: xaif (write.c), the XSLT stage, pictures,
 * the batch report. */
#ifndef XF_ENGINE_OUTFILE_H
#define XF_ENGINE_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct xf_outfile {
    const char *path; /* the caller's */
    char *tmp;        /* the temporary file's name */
    int fd;           /* open on tmp after xf_outfile_open; the caller closes it */
} xf_outfile;

/**
 * xf_outfile_open:
 * Create the temporary file for @path and open it for writing in @o->fd.
 * @returns 0, or -1 with the reason in @why ("cannot create a temporary
 * file: ..."); nothing is left behind then.
 */
int xf_outfile_open(xf_outfile *o, const char *path, char *why, size_t len);

/**
 * xf_outfile_finish:
 * After the caller has closed @o->fd: rename the temporary file into place
 * when @ok, remove it otherwise (or when the rename fails), and free @o.
 * @returns 0 when @ok and the file is in place, or -1 (with the reason in
 * @why when the rename failed; @why untouched when !@ok).
 */
int xf_outfile_finish(xf_outfile *o, bool ok, char *why, size_t len);

#endif
