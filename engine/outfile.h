/* outfile.h: an output file. A regular file (or a name that does not exist
 * yet) is written through a temporary file beside it (NAME.tmp.XXXXXX, with
 * the mode of the file it replaces, or the mode a plain creation would have)
 * and renamed into place only when it is complete, so that a failed run never
 * leaves a partial output and an existing file stays as it was. A symbolic
 * link is followed: its target is replaced and the link stays a link.
 * Anything else is written straight to and never replaced: a character device
 * (/dev/null), a FIFO, a socket, and the names of open descriptors
 * (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the descriptor
 * itself is written to). An output that is the input file is refused.
 *
 * Used by every writer of the project: xaif (write.c), the XSLT stage,
 * pictures, the batch report.
 *
 * Signals: the names of the temporary files open in the process are the one
 * piece of process-wide state here, kept so that a signal handler can remove
 * them (xf_outfile_remove_all); they are entered and taken out with SIGINT,
 * SIGTERM and SIGHUP blocked, so a handler of those sees either no temporary
 * file or one that is listed. */
#ifndef XF_ENGINE_OUTFILE_H
#define XF_ENGINE_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct xf_outfile {
    const char *path; /* the caller's */
    char *target;     /* @path with symbolic links followed: what the rename replaces */
    char *tmp;        /* the temporary file's name; NULL when written straight to */
    int fd;           /* open for writing after xf_outfile_open; the caller closes it */
} xf_outfile;

/**
 * xf_outfile_open:
 * Open @path for writing in @o->fd: a temporary file beside the regular file
 * @path names (after symbolic links), or @path itself when it is no regular
 * file. When @input is not NULL and names the same regular file as @path
 * (same device and inode: another spelling, a symbolic or a hard link), the
 * output is refused.
 * @returns 0, or -1 with the reason in @why ("the output is the input file
 * IN; ...", "cannot create a temporary file: ...", "cannot open: ...");
 * nothing is left behind then.
 */
int xf_outfile_open(xf_outfile *o, const char *path, const char *input, char *why, size_t len);

/**
 * xf_outfile_finish:
 * After the caller has closed @o->fd: rename the temporary file into place
 * when @ok, remove it otherwise (or when the rename fails), and free @o.
 * Written straight to, there is nothing to undo.
 * @returns 0 when @ok and the output is complete, or -1 (with the reason in
 * @why when the rename failed; @why untouched when !@ok).
 */
int xf_outfile_finish(xf_outfile *o, bool ok, char *why, size_t len);

/**
 * xf_outfile_same:
 * @returns whether @a and @b name the same existing regular file (same
 * device and inode, symbolic links followed).
 */
bool xf_outfile_same(const char *a, const char *b);

/**
 * xf_outfile_target:
 * The name beside which the temporary files of @path are made
 * (NAME.tmp.XXXXXX): @path with its symbolic links followed. For one who
 * removes what a killed writer left.
 * @returns a malloc'd name (the caller frees it), or NULL when @path names a
 * descriptor (/dev/stdout, /dev/fd/N) or cannot be followed.
 */
char *xf_outfile_target(const char *path);

/**
 * xf_outfile_remove_all:
 * Remove every temporary file the process has open through xf_outfile_open.
 * Async-signal-safe: for a handler of SIGINT, SIGTERM or SIGHUP, which then
 * ends the process (_exit), or of a fatal signal, which then raises it
 * again; the xf_outfile structures are left as they are.
 */
void xf_outfile_remove_all(void);

#endif
