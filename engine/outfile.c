/* outfile.c: see outfile.h. */
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int
xf_outfile_open(xf_outfile *o, const char *path, char *why, size_t len)
{
    *o = (xf_outfile){.path = path, .fd = -1};
    size_t n = strlen(path) + 16;
    if (!(o->tmp = malloc(n))) {
        snprintf(why, len, "cannot create a temporary file: out of memory");
        return -1;
    }
    snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
    o->fd = mkstemp(o->tmp);
    if (o->fd < 0) {
        snprintf(why, len, "cannot create a temporary file: %s", strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    /* mkstemp makes the file private; give it the mode a plain creation would */
    if (fchmod(o->fd, 0666 & ~current_umask()) != 0) {
        snprintf(why, len, "cannot set the mode of the output: %s", strerror(errno));
        close(o->fd);
        unlink(o->tmp);
        free(o->tmp);
        *o = (xf_outfile){.fd = -1};
        return -1;
    }
    return 0;
}

int
xf_outfile_finish(xf_outfile *o, bool ok, char *why, size_t len)
{
    int ret = ok ? 0 : -1;
    if (!o->tmp)
        return -1;
    if (ok && rename(o->tmp, o->path) != 0) {
        snprintf(why, len, "cannot rename the temporary file into place: %s", strerror(errno));
        ret = -1;
    }
    if (ret != 0)
        unlink(o->tmp);
    free(o->tmp);
    *o = (xf_outfile){.fd = -1};
    return ret;
}
