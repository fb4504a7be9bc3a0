/* regress_door.c: the derivative of an example made by xaifBooster's driver
 * programs, or by xaiform's links in their place (`xaiform check
 * --xaifbooster-root ROOT`): ROOT/xaifBooster/algorithms/ALG/driver/oadDriver,
 * ALG BasicBlockPreaccumulation for the tangent and ...Reverse for the
 * adjoint, run as a child process as OpenAD's regression Makefile runs it:
 *
 *   oadDriver -v -V -i IN -c CATALOGUE -o OUT [-I] OPTIONS
 *
 * -I in joint mode; OPTIONS from the example's `options` file (a Python
 * dictionary: {'xaifBooster':{'opts':'...','majorMode':'adm','ctrMode':'split'}}),
 * taken under the condition OpenAD's testAll.py writes. ${XAIFSCHEMAROOT}
 * stands for the xaif repository; in the shared corpus its schema/ is
 * xaif-schema/ and its schema/examples/ is xaif-examples/, found in the
 * example's folder or one above it (up to four levels). */
#define _DEFAULT_SOURCE /* P_tmpdir */
#include "regress_door.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "read.h"

enum { MAX_ARGS = 64 };

static bool
is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The folder at or above @dir that holds xaif-examples/, into @buf. */
static bool
corpus_root(const char *dir, char *buf, size_t len)
{
    char p[4096];
    for (int up = 0; up <= 4; up++) {
        int n = snprintf(buf, len, "%s", dir);
        for (int k = 0; k < up && n > 0 && (size_t)n < len; k++)
            n += snprintf(buf + n, len - (size_t)n, "/..");
        if (n < 0 || (size_t)n >= len)
            return false;
        if ((size_t)snprintf(p, sizeof p, "%s/xaif-examples", buf) < sizeof p && is_dir(p))
            return true;
    }
    return false;
}

/* The value of 'KEY':'VALUE' in @dict (the text after the xaifBooster key), or "". */
static void
dict_value(const char *dict, const char *key, char *out, size_t len)
{
    char k[64];
    snprintf(k, sizeof k, "'%s'", key);
    out[0] = 0;
    const char *p = strstr(dict, k);
    if (!p)
        return;
    p += strlen(k);
    while (*p == ' ' || *p == ':')
        p++;
    if (*p != '\'')
        return;
    const char *e = strchr(++p, '\'');
    if (e && (size_t)(e - p) < len) {
        memcpy(out, p, (size_t)(e - p));
        out[e - p] = 0;
    }
}

/* The xaifBooster options of @dir's options file for @major/@ctr, with
 * ${XAIFSCHEMAROOT}/schema(/examples) replaced, into @out ("" if none). */
static int
example_options(const char *dir, const char *root, const char *major, const char *ctr, char *out,
                size_t len, char *why, size_t wlen)
{
    char path[4096], text[4096];
    out[0] = 0;
    snprintf(path, sizeof path, "%s/options", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    const char *xb = strstr(text, "'xaifBooster'");
    if (!xb)
        return 0;
    const char *end = strchr(xb, '}');
    char dict[1024];
    size_t dn = end ? (size_t)(end - xb) : strlen(xb);
    if (dn >= sizeof dict)
        dn = sizeof dict - 1;
    memcpy(dict, xb, dn);
    dict[dn] = 0;
    char opts[1024], mm[32], cm[32];
    dict_value(dict, "opts", opts, sizeof opts);
    dict_value(dict, "majorMode", mm, sizeof mm);
    dict_value(dict, "ctrMode", cm, sizeof cm);
    /* testAll.py: not majorMode or (majorMode matches and not ctrMode) or ctrMode matches */
    if (!(!*mm || (!strcmp(mm, major) && !*cm) || (*cm && !strcmp(cm, ctr))))
        return 0;
    static const struct {
        const char *from, *to;
    } subst[] = {{"${XAIFSCHEMAROOT}/schema/examples", "xaif-examples"},
                 {"${XAIFSCHEMAROOT}/schema", "xaif-schema"}};
    size_t o = 0;
    for (const char *p = opts; *p;) {
        size_t k = 0;
        while (k < 2 && strncmp(p, subst[k].from, strlen(subst[k].from)))
            k++;
        int w = k < 2 ? snprintf(out + o, len - o, "%s/%s", root, subst[k].to)
                      : snprintf(out + o, len - o, "%c", *p);
        if (w < 0 || (size_t)w >= len - o) {
            snprintf(why, wlen, "options too long");
            return -1;
        }
        o += (size_t)w;
        p += k < 2 ? strlen(subst[k].from) : 1;
    }
    return 0;
}

/* The first line of @path that says "error:" (else its first line), into @why. */
static void
first_error(const char *path, char *why, size_t len)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    bool first = true;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (first || strstr(line, "error:"))
            snprintf(why, len, "%s", line);
        if (strstr(line, "error:"))
            break;
        first = false;
    }
    if (f)
        fclose(f);
}

xf_doc *
xf_door_run(const char *xbroot, const char *dir, const char *file, const char *major,
            const char *ctr, xf_diag *d, char *why, size_t len)
{
    char root[4096], in[4096], cat[4200], opts[2048], out[4096], err[4096], door[4200];
    snprintf(door, sizeof door, "%s/xaifBooster/algorithms/%s/driver/oadDriver", xbroot,
             strcmp(major, "tlm") ? "BasicBlockPreaccumulationReverse"
                                  : "BasicBlockPreaccumulation");
    if (!corpus_root(dir, root, sizeof root)) {
        snprintf(why, len, "no xaif-examples/ above %s for ${XAIFSCHEMAROOT}", dir);
        return NULL;
    }
    snprintf(in, sizeof in, "%s/%s", dir, file);
    snprintf(cat, sizeof cat, "%s/xaif-examples/inlinable_intrinsics.xaif", root);
    if (example_options(dir, root, major, ctr, opts, sizeof opts, why, len) != 0)
        return NULL;
    const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : P_tmpdir;
    snprintf(out, sizeof out, "%s/xaiform-door-XXXXXX", tmp);
    snprintf(err, sizeof err, "%s/xaiform-door-XXXXXX", tmp);
    int fo = mkstemp(out), fe = fo >= 0 ? mkstemp(err) : -1;
    if (fo < 0 || fe < 0) {
        snprintf(why, len, "cannot make a temporary file: %s", strerror(errno));
        if (fo >= 0) {
            close(fo);
            unlink(out);
        }
        return NULL;
    }
    close(fo);
    char *argv[MAX_ARGS];
    int n = 0;
    argv[n++] = (char *)door;
    const char *fixed[] = {"-v", "-V", "-i", in, "-c", cat, "-o", out};
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
        argv[n++] = (char *)fixed[k];
    if (!strcmp(ctr, "joint"))
        argv[n++] = (char *)"-I";
    for (char *w = strtok(opts, " \t\n"); w && n < MAX_ARGS - 1; w = strtok(NULL, " \t\n"))
        argv[n++] = w;
    argv[n] = NULL;
    xf_doc *doc = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int nul = open("/dev/null", O_RDWR);
        dup2(nul, 0);
        dup2(nul, 1);
        dup2(fe, 2);
        execv(door, argv);
        _exit(127);
    }
    int st = 0;
    if (pid < 0)
        snprintf(why, len, "cannot start %s: %s", door, strerror(errno));
    else if (waitpid(pid, &st, 0) < 0)
        snprintf(why, len, "waiting for %s: %s", door, strerror(errno));
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        doc = xf_read_file(out, NULL, d);
    else {
        snprintf(why, len, "%s %s", door, WIFEXITED(st) ? "failed" : "was stopped by a signal");
        first_error(err, why, len);
    }
    if (!doc && pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
        snprintf(why, len, "%s", xf_diag_message(d, 0) ? xf_diag_message(d, 0) : "unreadable");
    close(fe);
    unlink(out);
    unlink(err);
    return doc;
}
