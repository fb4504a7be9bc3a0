/* batch.h: converting many xaif files: the list of files (folders searched,
 * list files read, sorted, sharded, output names chosen), a pool of worker
 * processes that convert them, and what is reported (progress, summary,
 * JSON). The verb is tools/cmd_batch.c; what a worker does with one file is
 * the caller's (xf_batch_ops), so this module knows no pass. */
#ifndef XF_TOOLS_BATCH_H
#define XF_TOOLS_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"

typedef enum xf_batch_status {
    XF_BATCH_PENDING, /* not converted (yet): the batch was interrupted */
    XF_BATCH_OK,
    XF_BATCH_FAILED,   /* an input error, a refused output, or a worker that died */
    XF_BATCH_INTERNAL, /* failed with an internal error of xaiform */
} xf_batch_status;

/* One file of the batch. Strings are owned by the list (xf_batch_list_fini). */
typedef struct xf_batch_file {
    char *input;       /* the path as named or found */
    char *output;      /* where the result goes */
    uint64_t in_bytes; /* size of the input when the list was made (0 when missing) */
    uint64_t out_bytes;
    double seconds; /* the worker's time for the file: read, passes, write */
    xf_batch_status status;
    char *error; /* the first error line when it failed, else NULL */
} xf_batch_file;

typedef struct xf_batch_list {
    xf_batch_file *v;
    size_t n, cap;
    size_t total;   /* files before sharding */
    size_t skipped; /* files found in folders taken for earlier outputs (xf_batch_naming) */
} xf_batch_list;

/* Where outputs go: next to the input, or under out_dir. */
typedef struct xf_batch_naming {
    const char *out_dir; /* NULL: next to the input */
    const char *suffix;  /* replaces ".xaif", e.g. ".tangent.xaif" */
    /* other endings of earlier outputs that a folder search leaves out (the
     * default suffixes of every mode, ".adjoint.xaif", ...), NULL-terminated;
     * NULL: none */
    const char *const *outputs;
} xf_batch_naming;

/* ---- batch_list.c: the files */

/**
 * xf_batch_list_add:
 * Add @path to @list: a folder is searched recursively for *.xaif files
 * (hidden entries and files ending in @nm->suffix or in one of @nm->outputs,
 * taken for earlier outputs, are skipped and counted in @list->skipped;
 * symbolic links to folders are not followed); anything else is
 * taken as a file, even one that does not exist (it then fails when converted).
 * Output names follow @nm (xf_batch_output_name).
 * @returns 0, or -1 after a message on @err (out of memory, a folder that
 * cannot be read).
 */
int xf_batch_list_add(xf_batch_list *list, const char *path, const xf_batch_naming *nm, char *err,
                      size_t errlen);

/**
 * xf_batch_list_read:
 * Add each path listed in @f (one a line; blank lines and lines starting
 * with '#' are ignored; spaces around a path are dropped) as
 * xf_batch_list_add does. @name names @f in messages.
 * @returns 0, or -1 after a message on @err.
 */
int xf_batch_list_read(xf_batch_list *list, FILE *f, const char *name, const xf_batch_naming *nm,
                       char *err, size_t errlen);

/**
 * xf_batch_list_finish:
 * Sort @list by input path (bytes, not locale), drop repeated paths, refuse
 * (as failed files) outputs that would overwrite an input or that two inputs
 * share, then keep shard @k of @n (xf_shard_keep; 1/1 keeps all).
 * @returns 0, or -1 when out of memory.
 */
int xf_batch_list_finish(xf_batch_list *list, unsigned k, unsigned n);

/** xf_batch_list_fini: free what @list owns (not @list itself). */
void xf_batch_list_fini(xf_batch_list *list);

/**
 * xf_batch_list_line:
 * The path on one line of a list file: @line with spaces, tabs and the line
 * end stripped, in place. @returns it, or NULL for a blank or '#' line.
 */
char *xf_batch_list_line(char *line);

/**
 * xf_batch_output_name:
 * The output for @input. @rel is @input's path relative to the folder named
 * on the command line where it was found, or NULL for a file named directly.
 * Without an output folder the output is @input with its ".xaif" ending (if
 * any) replaced by the suffix. With one, it is out_dir/REL with that ending
 * replaced, where REL is @rel, or for a named file its path when relative and
 * not going up ("./" dropped), else its file name.
 * @returns a new string (free()), or NULL when out of memory.
 */
char *xf_batch_output_name(const char *input, const char *rel, const xf_batch_naming *nm);

/**
 * xf_shard_parse:
 * Parse "K/N" (1 <= K <= N <= 1000000) into *@k and *@n.
 * @returns 0, or -1 when @s is not such a pair.
 */
int xf_shard_parse(const char *s, unsigned *k, unsigned *n);

/** xf_shard_keep: whether the file at 0-based position @pos belongs to shard @k of @n. */
bool xf_shard_keep(size_t pos, unsigned k, unsigned n);

/* ---- batch.c: the worker pool */

/* What a worker does. init and fini run once in each worker process;
 * convert turns @in into @out (its folder exists) and returns 0, or -1
 * after reporting to @diag. */
typedef struct xf_batch_ops {
    void *(*init)(const void *arg, xf_diag *diag); /* NULL after reporting to @diag */
    int (*convert)(void *state, const char *in, const char *out, xf_diag *diag);
    void (*fini)(void *state);
    const void *arg;
} xf_batch_ops;

/* What the pool tells its caller as it goes (each may be NULL). */
typedef struct xf_batch_events {
    void (*done)(void *arg, const xf_batch_file *f, size_t ndone, size_t nfailed, double elapsed);
    void (*tick)(void *arg, size_t ndone, size_t nfailed, double elapsed);
    void *arg;
} xf_batch_events;

/* How the run ended. */
typedef struct xf_batch_result {
    double seconds;    /* wall time */
    int signal;        /* the signal (SIGINT, SIGTERM, SIGHUP) that stopped it, or 0 */
    char trouble[240]; /* empty, or why the pool itself failed (no worker could be
                          started; a worker that ended abnormally between files) */
} xf_batch_result;

/**
 * xf_batch_run:
 * Convert the pending files of @list with @jobs worker processes (fork),
 * each running @ops->init once, then @ops->convert on the files handed to it
 * one at a time over a pipe, reporting over a pipe. A worker that dies on a
 * file makes that file fail with the signal's name (its temporary output is
 * removed) and is replaced. SIGINT, SIGTERM and SIGHUP stop the batch: the
 * workers are killed, their temporaries removed, unconverted files stay
 * XF_BATCH_PENDING. The signals' dispositions and mask are restored after.
 * Fills each file's status, error, seconds and out_bytes, and *@res.
 */
void xf_batch_run(xf_batch_list *list, int jobs, const xf_batch_ops *ops, const xf_batch_events *ev,
                  xf_batch_result *res);

/**
 * xf_batch_signal_name:
 * "SIGSEGV" and the like for the signals a worker may die of; "signal N"
 * (in @buf) for others. @returns a string valid as long as @buf.
 */
const char *xf_batch_signal_name(int sig, char *buf, size_t len);

/* ---- batch_report.c: progress, summary, JSON */

/* The progress display, on a stream (stderr). */
typedef struct xf_batch_progress {
    FILE *out;
    bool bar;     /* a one-line bar redrawn in place (a terminal); else a line per file */
    size_t total; /* files to convert */
    double last;  /* when the bar was last drawn */
    bool drawn;   /* the bar is on the screen */
} xf_batch_progress;

/** xf_batch_progress_done: an xf_batch_events.done for an xf_batch_progress. */
void xf_batch_progress_done(void *arg, const xf_batch_file *f, size_t ndone, size_t nfailed,
                            double elapsed);

/** xf_batch_progress_tick: an xf_batch_events.tick for an xf_batch_progress. */
void xf_batch_progress_tick(void *arg, size_t ndone, size_t nfailed, double elapsed);

/** xf_batch_progress_end: take the bar off the screen. */
void xf_batch_progress_end(xf_batch_progress *p);

/** xf_batch_summary: converted, failed (each with its reason), not run, time, MB/s. */
void xf_batch_summary(FILE *out, const xf_batch_list *list, const xf_batch_result *res);

/** One option of the command, for the report ("mode": "tangent"). value NULL: null. */
typedef struct xf_batch_option {
    const char *name, *value;
    bool number; /* value is written as a JSON number */
} xf_batch_option;

/**
 * xf_batch_report_write:
 * Write the JSON report of @list to @path ("-": standard output) through a
 * temporary file renamed into place: the options (@nopts of @opts, and the
 * @nargs operands @args), each file, the totals.
 * @returns 0, or -1 after a message on @err.
 */
int xf_batch_report_write(const char *path, const xf_batch_list *list, const xf_batch_result *res,
                          const xf_batch_option *opts, size_t nopts, char *const *args,
                          size_t nargs, char *err, size_t errlen);

/**
 * xf_json_string:
 * Write @s to @f as a JSON string, quotes included: '"' and '\\' escaped,
 * control characters as \n, \t, ... or \u00XX, valid UTF-8 passed through,
 * each byte of an invalid UTF-8 sequence as \ufffd. NULL is written as null.
 */
void xf_json_string(FILE *f, const char *s);

#endif
