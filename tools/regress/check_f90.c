/* check_f90.c: run a derivative document as Fortran (the xaif2f modes of
 * `xaiform check`). The driver is written here for the top routine's
 * signature and does what OpenAD's generic drivers do: x0(i) = i/2, a
 * divided-difference pass first (for the state it leaves), then one
 * tangent per input direction or one adjoint per output; it prints the
 * Jacobian as ref/ad.out has it. Like the generic driver of `xaiform run`,
 * it passes the top routine's first two formals only: the others are
 * written OPTIONAL and left out (absent, as the interpreter leaves them). */
#include "check_f90.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "names.h"
#include "xaif2f.h"

extern const char xf_f90_runtime[];

static bool
has_code(const xf_routine *r, const void *arg)
{
    (void)arg;
    if (r->is_rlist)
        return r->reps.n > 0;
    for (uint32_t i = 0; i < r->g.v.n; i++)
        if (r->g.v.v[i]->kind == XF_CV_ENTRY)
            return true;
    return false;
}

/* @dir/@name into @p; false if it does not fit. */
static bool
join(char *p, size_t len, const char *dir, const char *name)
{
    int n = snprintf(p, len, "%s/%s", dir, name);
    return n > 0 && (size_t)n < len;
}

static int
write_text(const char *dir, const char *name, const char *text)
{
    char p[4096];
    join(p, sizeof p, dir, name);
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* The actual for formal @k of the top routine: x or x(1) for a scalar. */
static void
actual(FILE *o, const xf_xaif2f_sig *s, int k, const char *v)
{
    fprintf(o, s->arg[k].rank ? "%s" : "%s(1)", v);
}

static void
call_top(FILE *o, const xf_xaif2f_sig *s, const char *name)
{
    fprintf(o, "    call %s(", name);
    static const char *const v[2][2] = {{"x", "xd"}, {"y", "yd"}};
    for (int k = 0; k < 2; k++) {
        if (k)
            fputs(", ", o);
        if (s->arg[k].type != 'r') { /* the driver's values do not reach it, as in `xaiform run` */
            fputc(s->arg[k].type, o);
            actual(o, s, k, v[k][0]);
            continue;
        }
        actual(o, s, k, v[k][0]);
        if (s->arg[k].deriv) {
            fputs(", ", o);
            actual(o, s, k, v[k][1]);
        }
    }
    fputs(")\n", o);
}

static int
driver(const char *dir, const xf_xaif2f_sig *s, xf_driver drv, const xf_params *par)
{
    char p[4096];
    join(p, sizeof p, dir, "driver.f90");
    FILE *o = fopen(p, "w");
    if (!o)
        return -1;
    bool adj = drv != XF_DRIVER_TANGENT;
    char only[200];
    snprintf(only, sizeof only, adj ? "%s, %s_tpl" : "%s", s->name, s->name);
    int64_t nx = s->arg[0].size > par->n ? s->arg[0].size : par->n;
    int64_t ny = s->arg[1].size > par->m ? s->arg[1].size : par->m;
    fprintf(o,
            "program xf_driver\n%s  use %s, only: %s\n  implicit none\n"
            "  integer, parameter :: n = %d, m = %d\n"
            "  double precision, parameter :: h = %.17e\n"
            "  double precision :: x0(n), x(%lld), xd(%lld), y(%lld), yd(%lld), y0(%lld)\n"
            "  integer :: ix(%lld), iy(%lld)\n  logical :: lx(%lld), ly(%lld)\n"
            "  integer :: i, j, k\n  ix = 0\n  iy = 0\n  lx = .false.\n  ly = .false.\n"
            "  x = 0.0d0\n  xd = 0.0d0\n  y = 0.0d0\n  yd = 0.0d0\n"
            "  do i = 1, n\n    x0(i) = i / 2.0d0\n  end do\n",
            adj ? "  use xaiform_ad, only: xf_mode_set, xf_release, xf_words\n" : "",
            adj ? "xf_adjoint" : "xf_tangent", only, par->n, par->m, par->h, (long long)nx,
            (long long)nx, (long long)ny, (long long)ny, (long long)ny, (long long)nx,
            (long long)ny, (long long)nx, (long long)ny);
    char plain[96];
    snprintf(plain, sizeof plain, "%s%s", s->name, adj ? "_tpl" : "");
    /* the divided-difference pass, for the state it leaves */
    if (adj)
        fputs("  call xf_mode_set(.false., .false., .true., .false., .false.)\n", o);
    fputs("  x(1:n) = x0\n", o);
    call_top(o, s, plain);
    fputs("  y0(1:m) = y(1:m)\n  do i = 1, n\n    x(1:n) = x0\n    x(i) = x0(i) + h\n", o);
    call_top(o, s, plain);
    fputs("  end do\n", o);
    if (!adj) {
        fputs("  do i = 1, n\n    x(1:n) = x0\n    xd = 0.0d0\n    xd(i) = 1.0d0\n", o);
        call_top(o, s, s->name);
        fputs("    do k = 1, m\n      write (*, '(A,I0,A,I0,A,ES26.17E3)') 'F(', k, ',', i, "
              "')=', yd(k)\n    end do\n  end do\n",
              o);
    } else {
        fputs("  call xf_release()\n  do i = 1, m\n    y = 0.0d0\n    yd = 0.0d0\n"
              "    yd(i) = 1.0d0\n    xd = 0.0d0\n    x(1:n) = x0\n",
              o);
        call_top(o, s, s->name);
        fputs("    do k = 1, n\n      write (*, '(A,I0,A,I0,A,ES26.17E3)') 'F(', i, ',', k, "
              "')=', xd(k)\n    end do\n"
              "    if (xf_words() /= 0) write (*, '(A,I0)') 'words left on the tapes: ', "
              "xf_words()\n  end do\n",
              o);
    }
    fputs("  j = 0\n  if (j /= 0) y0 = 0.0d0\nend program xf_driver\n", o);
    return fclose(o) == 0 ? 0 : -1;
}

/* The first line of @dir/@name that mentions "Error", for a reason. */
static void
first_error(const char *dir, const char *name, char *why, size_t len)
{
    char p[4096], line[512];
    join(p, sizeof p, dir, name);
    FILE *f = fopen(p, "r");
    snprintf(why, len, "see %s", name);
    if (!f)
        return;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "Error") || strstr(line, "error")) {
            line[strcspn(line, "\r\n")] = 0;
            snprintf(why, len, "%s", line);
            break;
        }
    fclose(f);
}

static void
remove_dir(const char *dir)
{
    static const char *const files[] = {"f.f90",
                                        "driver.f90",
                                        "xaiform_ad.f90",
                                        "xaiform_ad.mod",
                                        "xf_globals_d.mod",
                                        "xf_globals_b.mod",
                                        "drv",
                                        "cc.log",
                                        "out.txt",
                                        "run.log"};
    char p[4096];
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        unlink(p);
    }
    rmdir(dir);
}

int
xf_f90_run(const xf_doc *doc, xf_driver drv, const xf_params *par, xf_jacobian *got, char *why,
           size_t len, int *refused)
{
    *refused = 0;
    memset(got, 0, sizeof *got);
    const xf_routine *top = NULL;
    char msg[600];
    if (xf_routine_lookup(doc, "head", has_code, NULL, &top, msg, sizeof msg) != 1) {
        snprintf(why, len, "no top routine: %s", msg);
        return -1;
    }
    const char *tmp = getenv("TMPDIR");
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/xaif2f-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        snprintf(why, len, "cannot make a temporary folder");
        return -1;
    }
    int ret = -1;
    xf_xaif2f_sig sig;
    xf_xaif2f_opts fo = {.reversal = drv == XF_DRIVER_ADJOINT_SPLIT ? XF_F_SPLIT : XF_F_JOINT,
                         .as_tangent = drv == XF_DRIVER_TANGENT,
                         .top = top,
                         .optional_from = 3, /* the generic driver binds x and y only */
                         .sig = &sig};
    char p[4096];
    join(p, sizeof p, dir, "f.f90");
    FILE *f = fopen(p, "w");
    xf_diag *d = xf_diag_new(NULL);
    int wr = f && d ? xf_xaif2f_write(doc, f, &fo, d) : -1;
    if (f && fclose(f) != 0)
        wr = -1;
    if (wr != 0) {
        const char *m = d ? xf_diag_message(d, 0) : NULL;
        const char *e = m ? strstr(m, "cannot write Fortran: ") : NULL;
        snprintf(why, len, "xaif2f refused: %s", e ? e + 22 : m ? m : "cannot write");
        *refused = 1;
        goto out;
    }
    if (!sig.found || sig.nargs < 2) {
        snprintf(why, len, "the top routine is not head(x, y, ...)");
        goto out;
    }
    if (driver(dir, &sig, drv, par) != 0 || write_text(dir, "xaiform_ad.f90", xf_f90_runtime)) {
        snprintf(why, len, "cannot write the driver");
        goto out;
    }
    const char *fc = getenv("XF_FC");
    char cmd[8192 + 256];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s -O0 -o drv %s f.f90 driver.f90 >cc.log 2>&1", dir,
             fc && *fc ? fc : "gfortran", drv == XF_DRIVER_TANGENT ? "" : "xaiform_ad.f90");
    if (system(cmd) != 0) {
        char e[512];
        first_error(dir, "cc.log", e, sizeof e);
        snprintf(why, len, "gfortran: %s", e);
        goto out;
    }
    snprintf(cmd, sizeof cmd, "cd '%s' && timeout 120 ./drv >out.txt 2>run.log", dir);
    if (system(cmd) != 0) {
        char e[512];
        first_error(dir, "run.log", e, sizeof e);
        snprintf(why, len, "the compiled code failed: %s", e);
        goto out;
    }
    join(p, sizeof p, dir, "out.txt");
    xf_diag *rd = xf_diag_new(NULL);
    if (xf_jacobian_read(p, got, rd) != 0) {
        snprintf(why, len, "cannot read its Jacobian: %s",
                 rd && xf_diag_message(rd, 0) ? xf_diag_message(rd, 0) : "?");
        xf_diag_free(rd);
        goto out;
    }
    xf_diag_free(rd);
    ret = 0;
out:
    xf_diag_free(d);
    if (!getenv("XF_KEEP_F90"))
        remove_dir(dir);
    else
        fprintf(stderr, "xaif2f: kept %s\n", dir);
    return ret;
}
