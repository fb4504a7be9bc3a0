/* outfile.c: see outfile.h. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* ------------------------------------------------------------ the temporary files open */

/* Read and cleared by a signal handler: lock-free atomics only. */
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "a signal handler reads these pointers");
enum { MAX_OPEN = 16 };
static _Atomic(char *) open_tmps[MAX_OPEN];

/* Enter @name (a full table only loses the clean-up on a signal). */
static void
watch(char *name)
{
    for (size_t i = 0; i < MAX_OPEN; i++) {
        char *none = NULL;
        if (atomic_compare_exchange_strong(&open_tmps[i], &none, name))
            return;
    }
}

static void
unwatch(char *name)
{
    for (size_t i = 0; i < MAX_OPEN; i++) {
        char *was = name;
        if (atomic_compare_exchange_strong(&open_tmps[i], &was, NULL))
            return;
    }
}

void
xf_outfile_remove_all(void)
{
    for (size_t i = 0; i < MAX_OPEN; i++) {
        char *name = atomic_load(&open_tmps[i]);
        if (name)
            unlink(name);
    }
}

/* Block the signals whose handler removes the temporary files. */
static void
block_stops(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &s, old);
}

static void
unblock_stops(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* ------------------------------------------------------------ what the name is */

/* The process's umask, read without changing it where Linux allows. */
static mode_t
current_umask(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned m;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &m) == 1) {
            fclose(f);
            return (mode_t)m;
        }
    if (f)
        fclose(f);
    mode_t old = umask(022);
    umask(old);
    return old;
}

/* The open descriptor @name stands for (/dev/stdin, /dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N), or -1. */
static int
descriptor_name(const char *name)
{
    static const char *const std[] = {"/dev/stdin", "/dev/stdout", "/dev/stderr"};
    for (int i = 0; i < 3; i++)
        if (strcmp(name, std[i]) == 0)
            return i;
    static const char *const dirs[] = {"/dev/fd/", "/proc/self/fd/"};
    for (size_t i = 0; i < 2; i++) {
        size_t k = strlen(dirs[i]);
        if (strncmp(name, dirs[i], k) != 0 || !name[k])
            continue;
        int n = 0;
        for (const char *p = name + k; *p; p++) {
            if (*p < '0' || *p > '9' || n > (INT_MAX - 9) / 10)
                return -1;
            n = 10 * n + (*p - '0');
        }
        return n;
    }
    return -1;
}

/* @path with its symbolic links followed, one by one, to a name that is no
 * link (it may not exist) or a descriptor's name (its number in @fd, else
 * -1). Malloc'd; NULL with errno set. */
static char *
follow(const char *path, int *fd)
{
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if ((*fd = descriptor_name(cur)) >= 0 || lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        char link[PATH_MAX];
        ssize_t n = hops < 40 ? readlink(cur, link, sizeof link) : -1;
        if (hops == 40)
            errno = ELOOP;
        else if (n == (ssize_t)sizeof link)
            errno = ENAMETOOLONG;
        if (n < 0 || n == (ssize_t)sizeof link)
            break;
        link[n] = 0;
        /* a relative link is relative to the folder of the link */
        const char *slash = strrchr(cur, '/');
        size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (!next)
            break;
        memcpy(next, cur, dir);
        memcpy(next + dir, link, (size_t)n + 1);
        free(cur);
        cur = next;
    }
    int e = errno;
    free(cur);
    errno = e;
    return NULL;
}

/* Open @name, which is no regular file (@st), for writing as it is: a
 * socket is connected to, anything else opened. */
static int
open_straight(const char *name, const struct stat *st)
{
    if (!S_ISSOCK(st->st_mode))
        return open(name, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(name) >= sizeof a.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(a.sun_path, name, strlen(name) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, (const struct sockaddr *)&a, sizeof a) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        fd = -1;
    }
    return fd;
}

char *
xf_outfile_target(const char *path)
{
    int fd;
    char *t = follow(path, &fd);
    if (t && fd >= 0) {
        free(t);
        return NULL;
    }
    return t;
}

bool
xf_outfile_same(const char *a, const char *b)
{
    struct stat x, y;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && S_ISREG(x.st_mode) && S_ISREG(y.st_mode) &&
           x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* ------------------------------------------------------------ open, finish */

/* The temporary file beside @o->target, with mode @mode. */
static int
open_tmp(xf_outfile *o, mode_t mode, char *why, size_t len)
{
    size_t n = strlen(o->target) + 16;
    if (!(o->tmp = malloc(n))) {
        snprintf(why, len, "cannot create a temporary file: out of memory");
        return -1;
    }
    snprintf(o->tmp, n, "%s.tmp.XXXXXX", o->target);
    sigset_t old;
    block_stops(&old);
    o->fd = mkstemp(o->tmp);
    int e = errno;
    if (o->fd >= 0)
        watch(o->tmp);
    unblock_stops(&old);
    if (o->fd < 0) {
        snprintf(why, len, "cannot create a temporary file: %s", strerror(e));
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    /* mkstemp makes the file private; give it the mode it is to have */
    if (fchmod(o->fd, mode) != 0) {
        snprintf(why, len, "cannot set the mode of the output: %s", strerror(errno));
        close(o->fd);
        o->fd = -1;
        block_stops(&old);
        unlink(o->tmp);
        unwatch(o->tmp);
        unblock_stops(&old);
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    return 0;
}

int
xf_outfile_open(xf_outfile *o, const char *path, const char *input, char *why, size_t len)
{
    *o = (xf_outfile){.path = path, .fd = -1};
    if (input && xf_outfile_same(path, input)) {
        snprintf(why, len, "the output is the input file %s; it is not overwritten", input);
        return -1;
    }
    int fd;
    char *target = follow(path, &fd);
    if (!target) {
        snprintf(why, len, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    bool exists = fd < 0 && stat(target, &st) == 0;
    if (fd >= 0) { /* a descriptor: written to itself, after what stdio holds for it */
        if (fd == STDOUT_FILENO || fd == STDERR_FILENO)
            fflush(fd == STDOUT_FILENO ? stdout : stderr);
        o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    } else if (exists && !S_ISREG(st.st_mode))
        o->fd = open_straight(target, &st);
    else {
        o->target = target;
        if (open_tmp(o, exists ? st.st_mode & 0777 : 0666 & ~current_umask(), why, len) != 0) {
            free(target);
            *o = (xf_outfile){.fd = -1};
            return -1;
        }
        return 0;
    }
    if (o->fd < 0) {
        snprintf(why, len, "cannot open: %s", strerror(errno));
        free(target);
        return -1;
    }
    o->target = target;
    return 0;
}

int
xf_outfile_finish(xf_outfile *o, bool ok, char *why, size_t len)
{
    int ret = ok ? 0 : -1;
    if (!o->target)
        return -1;
    if (o->tmp) {
        sigset_t old;
        block_stops(&old);
        if (ok && rename(o->tmp, o->target) != 0) {
            snprintf(why, len, "cannot rename the temporary file into place: %s", strerror(errno));
            ret = -1;
        }
        if (ret != 0)
            unlink(o->tmp);
        unwatch(o->tmp);
        unblock_stops(&old);
        free(o->tmp);
    }
    free(o->target);
    *o = (xf_outfile){.fd = -1};
    return ret;
}
