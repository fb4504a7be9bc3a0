/* write_stream.c: see write.h, xf_wstream. The routines and edges go to a
 * spool file as they come; xf_wstream_finish writes the head (the scopes are
 * complete only then), copies the spool after it and closes the call graph.
 * The bytes are those xf_write_file writes of the whole document. */
#define _GNU_SOURCE /* copy_file_range */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"
#include "write.h"
#include "write_impl.h"

struct xf_wstream {
    const xf_doc *doc;
    xf_diag *diag;
    int fd; /* the spool: an unlinked temporary file */
    xf_xo *xo;
    wr w; /* inside the CallGraph element, as the whole-document writer is there */
    xf_wstream_block_fn block; /* xf_wstream_routine_pieces */
    void *block_ctx;
    bool block_failed; /* block reported (not a write error) */
    int spill;         /* xf_wstream_spill's file, or -1 */
    uint64_t spilled;  /* its size */
};

/* An unlinked temporary file in $TMPDIR (or /tmp); -1 with errno. */
static int
spool_file(void)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    size_t n = strlen(dir) + 32;
    char *path = malloc(n);
    if (!path)
        return -1;
    snprintf(path, n, "%s/xaiform-spool-XXXXXX", dir);
    /* a stop signal between the two calls would leave the file: blocked */
    sigset_t stops, old;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stops, &old);
    int fd = mkstemp(path);
    int e = errno;
    if (fd >= 0)
        unlink(path);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    free(path);
    errno = e;
    return fd;
}

/* The writer's state inside the CallGraph after its head: which children
 * (modeled and foreign) the head wrote. Found by writing the head to memory. */
static bool
head_level(const xf_doc *doc, wrlevel *out)
{
    wr *h = calloc(1, sizeof *h);
    xf_xo *mem = xf_xo_new_memory();
    bool ok = h && mem;
    if (ok) {
        h->w = mem;
        h->doc = doc;
        ok = wr_setup(h);
    }
    if (ok) {
        xf_xo_indent(mem, "  ");
        wr_cg_head(h);
        ok = !h->failed && h->depth == 1;
        *out = h->stk[0];
    }
    if (h)
        free(h->names);
    free(h);
    xf_xo_free(mem);
    return ok;
}

xf_wstream *
xf_wstream_new(const xf_doc *doc, xf_diag *diag)
{
    xf_wstream *s = calloc(1, sizeof *s);
    if (!s) {
        xf_error(diag, NULL, 0, "out of memory");
        return NULL;
    }
    s->doc = doc;
    s->diag = diag;
    s->spill = -1;
    s->fd = spool_file();
    if (s->fd < 0) {
        xf_error(diag, NULL, 0, "cannot create a spool file: %s", strerror(errno));
        free(s);
        return NULL;
    }
    s->w.doc = doc;
    s->xo = s->w.w = xf_xo_new_fd(s->fd);
    wrlevel top;
    if (!s->xo || !wr_setup(&s->w) || !head_level(doc, &top)) {
        xf_error(diag, NULL, 0, "out of memory");
        xf_wstream_free(s);
        return NULL;
    }
    xf_xo_indent(s->xo, "  ");
    xf_xo_enter(s->xo, s->w.qname[XF_EL_CALLGRAPH]);
    s->w.stk[0] = top;
    s->w.depth = 1;
    return s;
}

void
xf_wstream_free(xf_wstream *s)
{
    if (!s)
        return;
    xf_xo_free(s->xo);
    free(s->w.names);
    if (s->fd >= 0)
        close(s->fd);
    if (s->spill >= 0)
        close(s->spill);
    free(s);
}

static int
failed(xf_wstream *s, const char *where)
{
    xf_error(s->diag, where, 0, "cannot write: %s", errno ? strerror(errno) : "output error");
    return -1;
}

int
xf_wstream_routine(xf_wstream *s, const xf_routine *rt)
{
    errno = 0;
    wr_routine(&s->w, rt);
    return s->w.failed ? failed(s, "the spool file") : 0;
}

static int
piece_block(void *ctx, const xf_cvertex *b)
{
    xf_wstream *s = ctx;
    if (s->block(s->block_ctx, s, b)) {
        s->block_failed = true;
        return -1;
    }
    return 0;
}

int
xf_wstream_routine_pieces(xf_wstream *s, const xf_routine *rt, xf_wstream_block_fn block, void *ctx)
{
    errno = 0;
    s->block = block;
    s->block_ctx = ctx;
    s->block_failed = false;
    s->w.block = piece_block;
    s->w.block_ctx = s;
    wr_routine(&s->w, rt);
    s->w.block = NULL;
    s->w.block_ctx = NULL;
    if (s->block_failed)
        return -1;
    return s->w.failed ? failed(s, "the spool file") : 0;
}

int
xf_wstream_stmt(xf_wstream *s, const xf_stmt *st)
{
    wr_stmt(&s->w, st);
    return s->w.failed ? -1 : 0;
}

int
xf_wstream_spill(xf_wstream *s, xf_stmt *const *v, uint32_t n, uint64_t *end)
{
    errno = 0;
    if (s->spill < 0 && (s->spill = spool_file()) < 0)
        return failed(s, "a spill file");
    if (lseek(s->spill, (off_t)s->spilled, SEEK_SET) < 0)
        return failed(s, "the spill file");
    xf_xo_mark m;
    if (xf_xo_divert(s->xo, s->spill, &m) != 0)
        return failed(s, "the spool file");
    for (uint32_t i = 0; i < n && !s->w.failed; i++)
        wr_stmt(&s->w, v[i]);
    bool bad = s->w.failed;
    if (xf_xo_undivert(s->xo, &m) != 0 || bad)
        return failed(s, "the spill file");
    off_t at = lseek(s->spill, 0, SEEK_CUR);
    if (at < 0)
        return failed(s, "the spill file");
    *end = s->spilled = (uint64_t)at;
    return 0;
}

int
xf_wstream_unspill(xf_wstream *s, uint64_t from, uint64_t to)
{
    enum { CHUNK = 1 << 16 };
    char *buf = malloc(CHUNK);
    if (!buf) {
        xf_error(s->diag, NULL, 0, "out of memory");
        return -1;
    }
    errno = 0;
    int ret = 0;
    while (from < to && ret == 0) {
        size_t want = to - from < CHUNK ? (size_t)(to - from) : CHUNK;
        ssize_t k = pread(s->spill, buf, want, (off_t)from);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0 || xf_xo_raw(s->xo, buf, (size_t)k) != 0)
            ret = -1;
        else
            from += (uint64_t)k;
    }
    free(buf);
    return ret ? failed(s, "the spill file") : 0;
}

void
xf_wstream_spill_reset(xf_wstream *s)
{
    s->spilled = 0;
    if (s->spill >= 0 && ftruncate(s->spill, 0) != 0) {
        close(s->spill); /* a new one next time */
        s->spill = -1;
    }
}

int
xf_wstream_edge(xf_wstream *s, const xf_cgedge *e)
{
    errno = 0;
    wr_cg_edge(&s->w, e);
    return s->w.failed ? failed(s, "the spool file") : 0;
}

/* Copy the spool to @fd: in the kernel where it can (copy_file_range),
 * else through a buffer. */
static int
copy_spool(xf_wstream *s, int fd)
{
    if (lseek(s->fd, 0, SEEK_SET) != 0)
        return -1;
#ifdef __linux__
    for (;;) {
        ssize_t k = copy_file_range(s->fd, NULL, fd, NULL, (size_t)1 << 30, 0);
        if (k == 0)
            return 0;
        if (k < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP &&
                errno != EBADF)
                return -1;
            break; /* not between these files: copy through a buffer from where it stopped */
        }
    }
#endif
    enum { CHUNK = 1 << 20 };
    char *buf = malloc(CHUNK);
    if (!buf)
        return -1;
    int ret = 0;
    for (;;) {
        ssize_t k = read(s->fd, buf, CHUNK);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            ret = k < 0 ? -1 : 0;
            break;
        }
        for (ssize_t done = 0; done < k;) {
            ssize_t m = write(fd, buf + done, (size_t)(k - done));
            if (m < 0 && errno == EINTR)
                continue;
            if (m <= 0) {
                free(buf);
                return -1;
            }
            done += m;
        }
    }
    free(buf);
    return ret;
}

/* Head, spool, tail to @fd. */
static int
write_all(xf_wstream *s, int fd, const char *where)
{
    const xf_doc *doc = s->doc;
    errno = 0;
    if (s->w.failed || xf_xo_flush(s->xo) != 0)
        return failed(s, "the spool file");
    wr *o = calloc(1, sizeof *o);
    xf_xo *xo = xf_xo_new_fd(fd);
    if (!o || !xo || (o->w = xo, o->doc = doc, !wr_setup(o))) {
        if (o)
            free(o->names);
        free(o);
        xf_xo_free(xo);
        xf_error(s->diag, where, 0, "out of memory");
        return -1;
    }
    xf_xo_indent(xo, "  ");
    xf_xo_start_document(xo);
    for (uint32_t i = 0; i < doc->before.n; i++)
        wr_xnode(o, doc->before.v[i], NULL);
    wr_cg_head(o);
    int ret = o->failed || xf_xo_flush(xo) != 0 || copy_spool(s, fd) != 0 ? -1 : 0;
    if (ret == 0) {
        /* the children the spool wrote */
        o->stk[0] = s->w.stk[0];
        wr_close(o);
        for (uint32_t i = 0; i < doc->after.n; i++)
            wr_xnode(o, doc->after.v[i], NULL);
        xf_xo_end_document(xo);
        ret = o->failed || xf_xo_flush(xo) != 0 ? -1 : 0;
    }
    free(o->names);
    free(o);
    xf_xo_free(xo);
    return ret ? failed(s, where) : 0;
}

int
xf_wstream_finish(xf_wstream *s, const char *path)
{
    if (strcmp(path, "-") == 0)
        return write_all(s, STDOUT_FILENO, "<stdout>");
    xf_outfile o;
    char why[300];
    if (xf_outfile_open(&o, path, s->doc->filename, why, sizeof why) != 0) {
        xf_error(s->diag, path, 0, "%s", why);
        return -1;
    }
    int ret = write_all(s, o.fd, path);
    if (close(o.fd) != 0 && ret == 0) {
        xf_error(s->diag, path, 0, "cannot write: %s", strerror(errno));
        ret = -1;
    }
    if (xf_outfile_finish(&o, ret == 0, why, sizeof why) != 0 && ret == 0) {
        xf_error(s->diag, path, 0, "%s", why);
        ret = -1;
    }
    return ret;
}
