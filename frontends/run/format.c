/* format.c: the files of OpenAD's regression suite: params.conf, and the
 * Jacobians ad.out / dd.out printed with Fortran's EN26.16E3 edit
 * descriptor, rounded twice as OpenAD's runtime does (§6.5 of
 * docs/xaif-execution.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

/* Engineering notation: 1 to 3 integer digits, 16 fraction digits, an
 * exponent that is a multiple of 3. The value is first correctly rounded to
 * 19 significant digits, then that decimal string half-up to the digits
 * shown. */
void
xf_format_en(double v, char *out)
{
    char field[64];
    if (isnan(v)) {
        snprintf(out, 27, "%26s", "NaN");
        return;
    }
    if (isinf(v)) {
        snprintf(out, 27, "%26s", v < 0 ? "-Infinity" : "Infinity");
        return;
    }
    if (v == 0.0) {
        snprintf(out, 27, "%26s", "0.0000000000000000E+000");
        return;
    }
    char s[40];
    snprintf(s, sizeof s, "%.18e", fabs(v)); /* d.dddddddddddddddddde+XX */
    char dig[24];
    int nd = 0;
    for (const char *p = s; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            dig[nd++] = *p;
    int e10 = atoi(strchr(s, 'e') + 1);
    for (;;) {
        int eng = (int)floor(e10 / 3.0) * 3;
        int intd = e10 - eng + 1; /* 1..3 */
        int show = intd + 16;     /* 17..19 */
        char r[24];
        memcpy(r, dig, (size_t)nd);
        bool carry = show < nd && r[show] >= '5';
        for (int k = show - 1; carry && k >= 0; k--) {
            if (r[k] == '9')
                r[k] = '0';
            else {
                r[k]++;
                carry = false;
            }
        }
        if (carry) { /* 999.9... became 1000.0...: one more digit before the point */
            dig[0] = '1';
            for (int k = 1; k < nd; k++)
                dig[k] = '0';
            e10++;
            continue;
        }
        int n = 0;
        if (v < 0)
            field[n++] = '-';
        for (int k = 0; k < intd; k++)
            field[n++] = r[k];
        field[n++] = '.';
        for (int k = intd; k < show; k++)
            field[n++] = r[k];
        snprintf(field + n, sizeof field - (size_t)n, "E%c%03d", eng < 0 ? '-' : '+',
                 eng < 0 ? -eng : eng);
        break;
    }
    size_t len = strlen(field); /* at most 1 + 3 + 1 + 16 + 5 = 26 */
    if (len > 26)
        len = 26;
    memset(out, ' ', 26 - len);
    memcpy(out + 26 - len, field, len);
    out[26] = 0;
}

void
xf_jacobian_print(FILE *f, const xf_jacobian *j, const char *header)
{
    if (header)
        fprintf(f, "%s\n", header);
    char buf[32];
    for (int i = 0; i < j->n; i++)
        for (int k = 0; k < j->m; k++) {
            xf_format_en(j->f[(size_t)i * j->m + k], buf);
            fprintf(f, "F(%3d,%3d)=%s\n", k + 1, i + 1, buf);
        }
}

int
xf_jacobian_read(const char *path, xf_jacobian *j, xf_diag *diag)
{
    memset(j, 0, sizeof *j);
    FILE *f = fopen(path, "r");
    if (!f) {
        xf_error(diag, path, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    typedef struct ent {
        int k, i;
        double v;
    } ent;
    ent *e = NULL;
    size_t n = 0, cap = 0;
    char line[512];
    unsigned long ln = 0;
    int ret = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        int k, i, used = 0;
        char *p = line;
        while (*p == ' ')
            p++;
        if (*p != 'F')
            continue; /* " AD", " DD" and blank lines */
        if (sscanf(p, "F(%d,%d)=%n", &k, &i, &used) != 2 || used == 0 || k < 1 || i < 1 ||
            k > 100000 || i > 100000) {
            xf_error(diag, path, ln, "not a Jacobian entry 'F(k,i)=value'");
            ret = -1;
            break;
        }
        char *end;
        errno = 0;
        double v = strtod(p + used, &end);
        while (*end == ' ' || *end == '\n' || *end == '\r')
            end++;
        if (end == p + used || *end) {
            xf_error(diag, path, ln, "the value of F(%d,%d) is no number", k, i);
            ret = -1;
            break;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            ent *ne = realloc(e, cap * sizeof *e);
            if (!ne) {
                ret = -1;
                break;
            }
            e = ne;
        }
        e[n++] = (ent){k, i, v};
        if (k > j->m)
            j->m = k;
        if (i > j->n)
            j->n = i;
    }
    fclose(f);
    if (ret == 0) {
        j->f = calloc((size_t)(j->m ? j->m : 1) * (size_t)(j->n ? j->n : 1), sizeof *j->f);
        if (!j->f)
            ret = -1;
        for (size_t q = 0; ret == 0 && q < n; q++)
            j->f[(size_t)(e[q].i - 1) * j->m + (e[q].k - 1)] = e[q].v;
    }
    free(e);
    if (ret != 0)
        xf_jacobian_fini(j);
    return ret;
}

/* A real as Fortran's F8.1 reads it: an explicit decimal point wins; without
 * one, the last digit of the mantissa is the fraction. */
static bool
fortran_real(const char *s, double *out)
{
    char buf[64];
    size_t n = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    bool point = false;
    for (; *s && *s != '\n' && *s != '\r' && n + 1 < sizeof buf; s++) {
        char c = *s;
        if (c == 'D' || c == 'd')
            c = 'e';
        if (c == '.')
            point = true;
        if (c != ' ')
            buf[n++] = c;
    }
    buf[n] = 0;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end == buf || *end || errno == ERANGE)
        return false;
    if (!point) { /* put the point before the mantissa's last digit, then read once */
        char fixed[72];
        char *e = strchr(buf, 'e');
        size_t mant = e ? (size_t)(e - buf) : strlen(buf);
        if (mant == 0 || buf[mant - 1] < '0' || buf[mant - 1] > '9')
            return false;
        snprintf(fixed, sizeof fixed, "%.*s.%c%s", (int)(mant - 1), buf, buf[mant - 1], e ? e : "");
        v = strtod(fixed, &end);
        if (*end)
            return false;
    }
    *out = v;
    return true;
}

int
xf_params_read(const char *path, xf_params *p, xf_diag *diag)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        xf_error(diag, path, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    char line[4][128];
    int got = 0;
    while (got < 4 && fgets(line[got], sizeof line[got], f))
        got++;
    fclose(f);
    if (got < 3) {
        xf_error(diag, path, (unsigned long)got + 1, "params.conf needs n, m and h on lines 1-3");
        return -1;
    }
    char *end;
    long n = strtol(line[0], &end, 10), m = strtol(line[1], &end, 10);
    if (n < 1 || n > 100000) {
        xf_error(diag, path, 1, "n (the number of inputs) must be a positive integer");
        return -1;
    }
    if (m < 1 || m > 100000) {
        xf_error(diag, path, 2, "m (the number of outputs) must be a positive integer");
        return -1;
    }
    p->n = (int)n;
    p->m = (int)m;
    if (!fortran_real(line[2], &p->h) || p->h == 0.0) {
        xf_error(diag, path, 3, "h (the divided-difference step) must be a nonzero number");
        return -1;
    }
    p->tol = 1e-6;
    if (got == 4 && !fortran_real(line[3], &p->tol)) {
        xf_error(diag, path, 4, "the tolerance must be a number");
        return -1;
    }
    return 0;
}

void
xf_stats_print(FILE *f, const xf_run_stats *s)
{
    fprintf(f, "stats: statements %llu\n", (unsigned long long)s->statements);
    fprintf(f, "stats: flops %llu (add %llu, mul %llu, div %llu, intrinsic %llu)\n",
            (unsigned long long)(s->adds + s->muls + s->divs + s->intrinsics),
            (unsigned long long)s->adds, (unsigned long long)s->muls, (unsigned long long)s->divs,
            (unsigned long long)s->intrinsics);
    fprintf(f,
            "stats: tape pushed %llu (real %llu, integer %llu, logical %llu, character %llu), "
            "popped %llu, peak %lld words\n",
            (unsigned long long)(s->push[0] + s->push[1] + s->push[2] + s->push[3]),
            (unsigned long long)s->push[0], (unsigned long long)s->push[1],
            (unsigned long long)s->push[2], (unsigned long long)s->push[3],
            (unsigned long long)(s->pop[0] + s->pop[1] + s->pop[2] + s->pop[3]),
            (long long)s->peak_tape);
    fprintf(f,
            "stats: checkpoints stored %llu (real %llu, integer %llu, logical %llu, "
            "character %llu), restored %llu, peak %lld words\n",
            (unsigned long long)(s->cp_push[0] + s->cp_push[1] + s->cp_push[2] + s->cp_push[3]),
            (unsigned long long)s->cp_push[0], (unsigned long long)s->cp_push[1],
            (unsigned long long)s->cp_push[2], (unsigned long long)s->cp_push[3],
            (unsigned long long)(s->cp_pop[0] + s->cp_pop[1] + s->cp_pop[2] + s->cp_pop[3]),
            (long long)s->peak_cp);
    if (s->steps_fwd + s->steps_tape + s->steps_adj + s->snap_stored)
        fprintf(f,
                "stats: checkpointed loops: steps forward %llu, taped %llu, adjoint %llu; "
                "snapshot words stored %llu, peak %lld words\n",
                (unsigned long long)s->steps_fwd, (unsigned long long)s->steps_tape,
                (unsigned long long)s->steps_adj, (unsigned long long)s->snap_stored,
                (long long)s->peak_snap);
}
