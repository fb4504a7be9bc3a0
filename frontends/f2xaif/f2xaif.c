/* f2xaif.c: the Fortran front end's driver: run Flang with the plugin on
 * each file (files that define modules first, their .mod files in a
 * temporary folder), find the c$openad pragmas by a scan of the lines
 * (Flang drops comments), and hand the descriptions to fdesc.c. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "f2xaif.h"
#include "fdesc.h"

extern char **environ;

/* The plugin: $XAIFORM_F2XAIF_PLUGIN, else beside the program (the build
 * tree), else where it is installed. */
static const char *
plugin_path(char *buf, size_t len)
{
    const char *e = getenv("XAIFORM_F2XAIF_PLUGIN");
    if (e && *e)
        return e;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *sl = strrchr(exe, '/');
        if (sl) {
            *sl = 0;
            snprintf(buf, len, "%s/f2xaif_plugin.so", exe);
            if (access(buf, R_OK) == 0)
                return buf;
        }
    }
    return XF_F2XAIF_PLUGIN_INSTALLED;
}

static char *
slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap + 1);
    size_t k;
    while (s && (k = fread(s + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *t = realloc(s, 2 * cap + 1);
            if (!t) {
                free(s);
                s = NULL;
                break;
            }
            s = t;
            cap *= 2;
        }
    }
    fclose(f);
    if (s)
        s[n] = 0;
    if (len)
        *len = n;
    return s;
}

/* Does @file define a module (a line "module NAME", not "module procedure")? */
static bool
defines_module(const char *file)
{
    char *s = slurp(file, NULL);
    bool yes = false;
    for (char *p = s; p && *p && !yes;) {
        char *nl = strchr(p, '\n');
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncasecmp(p, "module", 6) == 0 && (p[6] == ' ' || p[6] == '\t')) {
            char *w = p + 7;
            while (*w == ' ' || *w == '\t')
                w++;
            yes = strncasecmp(w, "procedure", 9) != 0;
        }
        p = nl ? nl + 1 : NULL;
    }
    free(s);
    return yes;
}

/* The c$openad INDEPENDENT(x) / DEPENDENT(y) lines of @file, appended to *@p. */
static int
scan_pragmas(const char *file, fx_pragma **p, int *np)
{
    char *s = slurp(file, NULL);
    if (!s)
        return -1;
    unsigned line = 0;
    for (char *q = s; q && *q;) {
        char *nl = strchr(q, '\n');
        if (nl)
            *nl = 0;
        line++;
        char *t = q;
        while (*t == ' ' || *t == '\t')
            t++;
        if ((*t == 'c' || *t == 'C' || *t == '!' || *t == '*') &&
            strncasecmp(t + 1, "$openad", 7) == 0) {
            t += 8;
            while (*t == ' ' || *t == '\t')
                t++;
            bool dep = strncasecmp(t, "dependent", 9) == 0;
            bool ind = strncasecmp(t, "independent", 11) == 0;
            char *open = strchr(t, '(');
            char *close = open ? strchr(open, ')') : NULL;
            if ((dep || ind) && close && close - open - 1 < 64) {
                fx_pragma *v = realloc(*p, ((size_t)*np + 1) * sizeof *v);
                if (!v) {
                    free(s);
                    return -1;
                }
                *p = v;
                fx_pragma *r = &v[(*np)++];
                r->file = file;
                r->line = line;
                r->dep = dep;
                int n = 0;
                for (char *c = open + 1; c < close; c++)
                    if (!isspace((unsigned char)*c))
                        r->name[n++] = (char)tolower((unsigned char)*c);
                r->name[n] = 0;
            }
        }
        q = nl ? nl + 1 : NULL;
    }
    free(s);
    return 0;
}

/* Flang with the plugin on @file: its description in *@text; its messages
 * copied to @err when it fails. */
static int
run_flang(const char *plugin, const char *dir, const char *file, int n, char **text, FILE *err)
{
    char out[4200], errp[4200];
    snprintf(out, sizeof out, "%s/%d.desc", dir, n);
    snprintf(errp, sizeof errp, "%s/%d.err", dir, n);
    size_t fl = strlen(file);
    bool cpp =
        fl > 2 && (!strcmp(file + fl - 2, ".F") || (fl > 4 && !strcmp(file + fl - 4, ".F90")));
    const char *argv[16];
    int a = 0;
    argv[a++] = XF_FLANG;
    argv[a++] = "-fc1";
    argv[a++] = "-module-dir";
    argv[a++] = dir;
    if (cpp)
        argv[a++] = "-cpp";
    argv[a++] = "-load";
    argv[a++] = plugin;
    argv[a++] = "-plugin";
    argv[a++] = "f2xaif";
    argv[a++] = file;
    argv[a] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    int e = posix_spawn(&pid, XF_FLANG, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0) {
        fprintf(err, "xaiform f2xaif: cannot run %s: %s\n", XF_FLANG, strerror(e));
        return 3;
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    char *msg = slurp(errp, NULL);
    int rc = 0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fputs(msg ? msg : "", err);
        if (!msg || !strstr(msg, "error"))
            fprintf(err, "%s: error: Flang failed on it (status %d)\n", file,
                    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        rc = 1;
    } else if (!(*text = slurp(out, NULL)))
        rc = 3;
    free(msg);
    return rc;
}

static void
remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[4400];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

int
xf_f2xaif(const xf_f2xaif_opts *o, FILE *err)
{
    int nf = 0;
    while (o->files[nf])
        nf++;
    for (int i = 0; i < nf; i++)
        if (access(o->files[i], R_OK) != 0) {
            fprintf(err, "%s: error: cannot open: %s\n", o->files[i], strerror(errno));
            return 1;
        }
    char pbuf[4200];
    const char *plugin = plugin_path(pbuf, sizeof pbuf);
    if (access(plugin, R_OK) != 0) {
        fprintf(err, "xaiform f2xaif: the Flang plugin %s is missing: %s\n", plugin,
                strerror(errno));
        return 3;
    }
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/xaiform-f2xaif-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(err, "xaiform f2xaif: cannot make a temporary folder: %s\n", strerror(errno));
        return 3;
    }
    fx_input *in = calloc((size_t)nf + 1, sizeof *in);
    fx_pragma *p = NULL;
    int np = 0, n = 0, rc = in ? 0 : 3;
    for (int pass = 0; pass < 2 && rc == 0; pass++) /* modules first */
        for (int i = 0; i < nf && rc == 0; i++) {
            if (defines_module(o->files[i]) != (pass == 0))
                continue;
            in[n].file = o->files[i];
            rc = run_flang(plugin, dir, o->files[i], n, &in[n].text, err);
            if (rc == 0 && scan_pragmas(o->files[i], &p, &np) != 0)
                rc = 3;
            n++;
        }
    if (rc == 0) {
        /* the top routine's file first: it names the program */
        rc = fx_translate(o, in, n, p, np, err);
    }
    for (int i = 0; in && i < n; i++)
        free(in[i].text);
    free(in);
    free(p);
    remove_dir(dir);
    return rc;
}
