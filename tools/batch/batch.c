/* batch.c: the worker pool of xaiform batch. Worker processes (fork) each
 * run the caller's init once, then convert the files the parent hands them,
 * one file index at a time over a pipe, and send back a reply (status,
 * seconds, bytes, first error line) over another. The parent waits on the
 * replies with pselect; SIGINT, SIGTERM and SIGHUP stay blocked in it and are
 * polled with sigpending, so no handler and no global flag is needed. See
 * batch.h. */
#include "batch.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"

enum { MAX_MSG = 1024, TICK_NS = 100000000 };

/* A worker's reply for one file; msglen bytes of message follow. The whole
 * reply is under PIPE_BUF, so it is written and read at once. */
typedef struct reply {
    uint32_t index;
    int32_t status; /* xf_batch_status */
    double seconds;
    uint64_t out_bytes;
    uint32_t msglen;
} reply;

typedef struct worker {
    pid_t pid;    /* 0: no process in this slot */
    int to, from; /* the parent's ends: file indices to it, replies from it */
    long job;     /* the file it converts, or -1 */
} worker;

typedef struct pool {
    xf_batch_list *list;
    const xf_batch_ops *ops;
    const xf_batch_events *ev;
    xf_batch_result *res;
    worker *w;
    int nw;
    size_t *order; /* the files in the order they are handed out */
    size_t next;   /* no pending file before this place of order is unassigned */
    size_t ndone, nfailed;
    struct timespec t0;
    sigset_t stop; /* SIGINT, SIGTERM, SIGHUP */
    sigset_t old_mask;
} pool;

static double
since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* Read exactly @n bytes. @returns 1, 0 at end of file before any byte, -1 otherwise. */
static int
read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r == 0 && got == 0 ? 0 : -1;
        got += (size_t)r;
    }
    return 1;
}

static int
write_full(int fd, const void *buf, size_t n)
{
    size_t put = 0;
    while (put < n) {
        ssize_t r = write(fd, (const char *)buf + put, n - put);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        put += (size_t)r;
    }
    return 0;
}

const char *
xf_batch_signal_name(int sig, char *buf, size_t len)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
        {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"},
        {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"}, {SIGPIPE, "SIGPIPE"},
        {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
#ifdef SIGSYS
        {SIGSYS, "SIGSYS"},
#endif
#ifdef SIGTRAP
        {SIGTRAP, "SIGTRAP"},
#endif
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    snprintf(buf, len, "signal %d", sig);
    return buf;
}

/* ---- in a worker */

/* Create the folders of @path's folder. @returns 0, or -1 with errno set. */
static int
make_parents(const char *path)
{
    char *p = strdup(path);
    if (!p)
        return -1;
    int ret = 0;
    for (char *s = strchr(p + 1, '/'); s && ret == 0; s = strchr(s + 1, '/')) {
        *s = 0;
        struct stat st;
        if (mkdir(p, 0777) != 0 && !(errno == EEXIST && stat(p, &st) == 0 && S_ISDIR(st.st_mode)))
            ret = -1;
        *s = '/';
    }
    int e = errno;
    free(p);
    errno = e;
    return ret;
}

/* The first error that @d kept (a warning is not the reason of a failure). */
static const char *
first_error(const xf_diag *d)
{
    for (size_t i = 0; i < xf_diag_count(d); i++) {
        const char *m = xf_diag_message(d, i), *e = strstr(m, ": error: ");
        const char *w = strstr(m, ": warning: "), *n = strstr(m, ": note: ");
        if (e && (!w || e < w) && (!n || e < n))
            return m;
    }
    return xf_diag_count(d) ? xf_diag_message(d, 0) : "the conversion failed";
}

static void
convert(const pool *p, void *state, uint32_t idx, xf_diag *diag, reply *r, char *msg)
{
    const xf_batch_file *f = &p->list->v[idx];
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    xf_diag_clear(diag);
    int ret;
    if (make_parents(f->output) != 0) {
        snprintf(msg, MAX_MSG, "%s: cannot create its folder: %s", f->output, strerror(errno));
        ret = -1;
    } else if ((ret = p->ops->convert(state, f->input, f->output, diag)) != 0)
        snprintf(msg, MAX_MSG, "%s", first_error(diag));
    r->seconds = since(&t0);
    struct stat st;
    if (ret == 0 && stat(f->output, &st) == 0)
        r->out_bytes = (uint64_t)st.st_size;
    r->status = ret == 0                        ? XF_BATCH_OK
                : xf_diag_internal_errors(diag) ? XF_BATCH_INTERNAL
                                                : XF_BATCH_FAILED;
}

static int
send_reply(int fd, const reply *r, const char *msg)
{
    char buf[sizeof *r + MAX_MSG];
    reply h = *r;
    h.msglen = (uint32_t)strlen(msg);
    memcpy(buf, &h, sizeof h);
    memcpy(buf + sizeof h, msg, h.msglen);
    return write_full(fd, buf, sizeof h + h.msglen);
}

/* The worker process: never returns. The parent's other pipes are closed
 * first, so that each worker sees the end of its own pipe. */
static void
worker_main(pool *p, int self, int in, int out)
{
    for (int i = 0; i < p->nw; i++)
        if (i != self && p->w[i].pid) {
            close(p->w[i].to);
            close(p->w[i].from);
        }
    /* The parent decides what a Ctrl-C does to the workers. */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    sigprocmask(SIG_SETMASK, &p->old_mask, NULL);
    xf_diag *diag = xf_diag_new(NULL);
    void *state = diag ? p->ops->init(p->ops->arg, diag) : NULL;
    char msg[MAX_MSG], init_err[MAX_MSG];
    snprintf(init_err, sizeof init_err, "%s",
             diag ? first_error(diag) : "out of memory in a worker");
    uint32_t idx;
    while (read_full(in, &idx, sizeof idx) == 1 && idx < p->list->n) {
        reply r = {.index = idx, .status = XF_BATCH_INTERNAL};
        msg[0] = 0;
        if (state)
            convert(p, state, idx, diag, &r, msg);
        else
            snprintf(msg, sizeof msg, "%s", init_err);
        if (send_reply(out, &r, msg) != 0)
            break;
    }
    if (state)
        p->ops->fini(state);
    xf_diag_free(diag);
    close(in);
    close(out);
    exit(0);
}

/* ---- in the parent */

static void
finish(pool *p, xf_batch_file *f, xf_batch_status status, const char *msg)
{
    f->status = status;
    if (status != XF_BATCH_OK) {
        if (msg != f->error || !msg) {
            free(f->error);
            f->error = strdup(msg && *msg ? msg : "failed");
        }
        p->nfailed++;
    }
    p->ndone++;
    if (p->ev && p->ev->done)
        p->ev->done(p->ev->arg, f, p->ndone, p->nfailed, since(&p->t0));
}

/* Remove what engine/outfile.c leaves when a writer dies: NAME.tmp.XXXXXX
 * beside the file @path names (its symbolic links followed). */
static void
remove_temporaries(const char *path)
{
    char *output = xf_outfile_target(path);
    if (!output)
        return;
    const char *slash = strrchr(output, '/');
    size_t dlen = slash ? (size_t)(slash - output) : 0;
    const char *base = slash ? slash + 1 : output;
    size_t blen = strlen(base);
    char *dir = slash ? strndup(output, dlen ? dlen : 1) : strdup(".");
    DIR *d = dir ? opendir(dir) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (strlen(e->d_name) != blen + 11 || strncmp(e->d_name, base, blen) != 0 ||
            strncmp(e->d_name + blen, ".tmp.", 5) != 0)
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *name = malloc(n);
        if (name) {
            snprintf(name, n, "%s/%s", dir, e->d_name);
            unlink(name);
        }
        free(name);
    }
    if (d)
        closedir(d);
    free(dir);
    free(output);
}

static void
close_pair(int fd[2])
{
    close(fd[0]);
    close(fd[1]);
}

static int
spawn(pool *p, int i)
{
    int to[2], from[2];
    if (pipe(to) != 0)
        return -1;
    if (pipe(from) != 0) {
        close_pair(to);
        return -1;
    }
    if (to[1] >= FD_SETSIZE || from[0] >= FD_SETSIZE) {
        close_pair(to);
        close_pair(from);
        errno = EMFILE;
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(to[1]);
        close(from[0]);
        worker_main(p, i, to[0], from[1]);
    }
    close(to[0]);
    close(from[1]);
    if (pid < 0) {
        close(to[1]);
        close(from[0]);
        return -1;
    }
    p->w[i] = (worker){.pid = pid, .to = to[1], .from = from[0], .job = -1};
    return 0;
}

/* Why worker @who ended (wait status @st). */
static void
describe_end(const char *who, int st, char *buf, size_t len)
{
    char num[32];
    if (WIFSIGNALED(st))
        snprintf(buf, len, "%s was killed by %s (%s)", who,
                 xf_batch_signal_name(WTERMSIG(st), num, sizeof num), strsignal(WTERMSIG(st)));
    else
        snprintf(buf, len, "%s exited with status %d", who, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* Read the reply of @w. @returns 1, 0 when the worker has gone, -1 on a garbled reply. */
static int
read_reply(pool *p, worker *w)
{
    reply r;
    char msg[MAX_MSG];
    int got = read_full(w->from, &r, sizeof r);
    if (got <= 0)
        return got;
    if (r.msglen >= MAX_MSG || read_full(w->from, msg, r.msglen) != 1 || w->job < 0 ||
        r.index != (uint32_t)w->job)
        return -1;
    msg[r.msglen] = 0;
    xf_batch_file *f = &p->list->v[w->job];
    f->seconds = r.seconds;
    f->out_bytes = r.out_bytes;
    w->job = -1;
    finish(p, f, (xf_batch_status)r.status, msg);
    return 1;
}

/* Wait for the ended worker @w; its file (if any) fails (@killed: stays pending). */
static void
reap(pool *p, worker *w, bool killed)
{
    if (w->to >= 0) /* stop_workers may have closed it */
        close(w->to);
    close(w->from);
    int st = 0;
    while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (w->job >= 0) {
        xf_batch_file *f = &p->list->v[w->job];
        remove_temporaries(f->output);
        char why[200];
        describe_end("the worker converting it", st, why, sizeof why);
        if (!killed)
            finish(p, f, XF_BATCH_FAILED, why);
    } else if (!killed && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
        describe_end("a worker between files", st, p->res->trouble, sizeof p->res->trouble);
    *w = (worker){.job = -1, .to = -1, .from = -1};
}

/* The next pending file to hand out, or list->n. */
static size_t
next_pending(pool *p)
{
    while (p->next < p->list->n && p->list->v[p->order[p->next]].status != XF_BATCH_PENDING)
        p->next++;
    return p->next < p->list->n ? p->order[p->next] : p->list->n;
}

/* Hand a file to each idle worker, starting workers as needed. @returns busy workers. */
static int
dispatch(pool *p)
{
    int busy = 0;
    for (int i = 0; i < p->nw; i++) {
        worker *w = &p->w[i];
        if (w->pid && w->job >= 0) {
            busy++;
            continue;
        }
        size_t j = next_pending(p);
        if (j == p->list->n || (!w->pid && spawn(p, i) != 0))
            continue;
        uint32_t idx = (uint32_t)j;
        if (write_full(w->to, &idx, sizeof idx) != 0) {
            reap(p, w, false);
            continue;
        }
        w->job = (long)j;
        p->next++;
        busy++;
    }
    return busy;
}

/* A stop signal that arrived (and is now taken), or 0. */
static int
stop_signal(const pool *p)
{
    sigset_t pending;
    if (sigpending(&pending) != 0)
        return 0;
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigismember(&pending, sigs[i]) == 1) {
            sigset_t one;
            sigemptyset(&one);
            sigaddset(&one, sigs[i]);
            struct timespec zero = {0, 0};
            sigtimedwait(&one, NULL, &zero);
            return sigs[i];
        }
    (void)p;
    return 0;
}

/* Wait for replies (or a tick); handle them. @returns -1 when the wait failed. */
static int
wait_replies(pool *p)
{
    fd_set rd;
    FD_ZERO(&rd);
    int max = -1;
    for (int i = 0; i < p->nw; i++)
        if (p->w[i].pid) {
            FD_SET(p->w[i].from, &rd);
            max = p->w[i].from > max ? p->w[i].from : max;
        }
    struct timespec tick = {0, TICK_NS};
    int n = pselect(max + 1, &rd, NULL, NULL, &tick, NULL);
    if (n < 0)
        return errno == EINTR ? 0 : -1;
    for (int i = 0; i < p->nw && n > 0; i++) {
        worker *w = &p->w[i];
        if (!w->pid || !FD_ISSET(w->from, &rd))
            continue;
        int got = read_reply(p, w);
        if (got <= 0) {
            if (got < 0)
                kill(w->pid, SIGKILL);
            reap(p, w, false);
        }
    }
    return 0;
}

/* Stop every worker: on a signal killed at once (a reply already sent is
 * still read), else told to finish by the end of its pipe. */
static void
stop_workers(pool *p, bool now)
{
    for (int i = 0; i < p->nw; i++) {
        worker *w = &p->w[i];
        if (!w->pid)
            continue;
        if (now)
            kill(w->pid, SIGKILL);
        else {
            close(w->to);
            w->to = -1;
        }
    }
    for (int i = 0; i < p->nw; i++) {
        worker *w = &p->w[i];
        if (!w->pid)
            continue;
        if (now && w->job >= 0)
            read_reply(p, w);
        reap(p, w, now);
    }
}

static void
fail_rest(pool *p, const char *why)
{
    for (size_t j = next_pending(p); j < p->list->n; j = next_pending(p))
        finish(p, &p->list->v[j], XF_BATCH_FAILED, why);
}

/* Block the stop signals and ignore SIGPIPE; undo() puts them back. */
static void
setup_signals(pool *p, struct sigaction *old_pipe)
{
    sigemptyset(&p->stop);
    sigaddset(&p->stop, SIGINT);
    sigaddset(&p->stop, SIGTERM);
    sigaddset(&p->stop, SIGHUP);
    sigprocmask(SIG_BLOCK, &p->stop, &p->old_mask);
    struct sigaction ign = {.sa_handler = SIG_IGN};
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, old_pipe);
}

static void
undo_signals(const pool *p, const struct sigaction *old_pipe)
{
    sigaction(SIGPIPE, old_pipe, NULL);
    sigprocmask(SIG_SETMASK, &p->old_mask, NULL);
}

typedef struct sized {
    uint64_t bytes;
    size_t index;
} sized;

static int
larger_first(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The order files are handed out in: with several workers the largest first,
 * so that no large file is left to run alone at the end; else the list's. */
static size_t *
make_order(const xf_batch_list *list, int workers)
{
    size_t n = list->n ? list->n : 1;
    size_t *order = malloc(n * sizeof *order);
    sized *s = workers > 1 ? malloc(n * sizeof *s) : NULL;
    if (order && s) {
        for (size_t i = 0; i < list->n; i++)
            s[i] = (sized){list->v[i].in_bytes, i};
        qsort(s, list->n, sizeof *s, larger_first);
        for (size_t i = 0; i < list->n; i++)
            order[i] = s[i].index;
    } else if (order)
        for (size_t i = 0; i < list->n; i++)
            order[i] = i;
    free(s);
    return order;
}

void
xf_batch_run(xf_batch_list *list, int jobs, const xf_batch_ops *ops, const xf_batch_events *ev,
             xf_batch_result *res)
{
    *res = (xf_batch_result){0};
    pool p = {.list = list, .ops = ops, .ev = ev, .res = res};
    clock_gettime(CLOCK_MONOTONIC, &p.t0);
    size_t pending = 0;
    for (size_t i = 0; i < list->n; i++) {
        if (list->v[i].status == XF_BATCH_PENDING)
            pending++;
        else
            finish(&p, &list->v[i], list->v[i].status, list->v[i].error);
    }
    p.nw = (size_t)jobs < pending ? jobs : (int)pending;
    p.w = calloc(p.nw ? (size_t)p.nw : 1, sizeof *p.w);
    p.order = make_order(list, p.nw);
    if (!p.w || !p.order) {
        free(p.w);
        free(p.order);
        snprintf(res->trouble, sizeof res->trouble, "out of memory");
        for (size_t i = 0; i < list->n; i++)
            if (list->v[i].status == XF_BATCH_PENDING)
                finish(&p, &list->v[i], XF_BATCH_FAILED, "not converted: out of memory");
        return;
    }
    for (int i = 0; i < p.nw; i++)
        p.w[i] = (worker){.job = -1, .to = -1, .from = -1};
    struct sigaction old_pipe;
    setup_signals(&p, &old_pipe);
    while (p.ndone < list->n) {
        if (dispatch(&p) == 0) {
            snprintf(res->trouble, sizeof res->trouble, "cannot start a worker: %s",
                     strerror(errno));
            fail_rest(&p, "not converted: no worker could be started");
            break;
        }
        if (wait_replies(&p) != 0) {
            snprintf(res->trouble, sizeof res->trouble, "waiting for the workers: %s",
                     strerror(errno));
            break;
        }
        if ((res->signal = stop_signal(&p)) != 0)
            break;
        if (ev && ev->tick)
            ev->tick(ev->arg, p.ndone, p.nfailed, since(&p.t0));
    }
    stop_workers(&p, p.ndone < list->n);
    undo_signals(&p, &old_pipe);
    free(p.w);
    free(p.order);
    res->seconds = since(&p.t0);
}
