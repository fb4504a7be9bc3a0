/* expect.c: the regression runner's expectations file: read, compared
 * with a run, written from one. */
#include "expect.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"

/* A count column: digits, or "-" for none. */
static bool
count(const char *s, bool *have, uint64_t *v)
{
    if (!strcmp(s, "-")) {
        *have = false;
        *v = 0;
        return true;
    }
    if (*s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end || errno)
        return false;
    *have = true;
    *v = (uint64_t)x;
    return true;
}

/* One line's columns into @x; NULL, or what is wrong with them. A
 * failing line without its reason class passes when not @need_reason. */
static const char *
parse_line(char *line, xf_check_result *x, bool need_reason)
{
    char *tok[10];
    int n = 0;
    for (char *t = strtok(line, " \t\r\n"); t; t = strtok(NULL, " \t\r\n"))
        if (n < 10)
            tok[n++] = t;
        else
            return "too many columns (EXAMPLE MODE STATUS OPS TAPE XB_OPS XB_TAPE [INPUT] "
                   "[REASON])";
    memset(x, 0, sizeof *x);
    if (n >= 4 && xf_check_reason_parse(tok[n - 1], &x->reason))
        n--; /* the reason column: only, and always, on a failing line */
    if ((n == 4 || n == 8) && !strcmp(tok[n - 1], "tlm.xaif")) {
        x->from_tlm = true; /* the input column: only for a mode run from another input */
        n--;
    } else if (n == 4 || n == 8) {
        return "a column after the counts is the input, tlm.xaif, or a failure's reason class "
               "(" XF_EXPECT_REASONS ")";
    }
    if (n != 3 && n != 7)
        return "3 or 7 columns are needed (EXAMPLE MODE STATUS OPS TAPE XB_OPS XB_TAPE), and "
               "the input";
    x->name = tok[0];
    if (!xf_check_mode_parse(tok[1], &x->mode))
        return "unknown mode";
    if (!xf_check_status_parse(tok[2], &x->status))
        return "unknown status (PASS, FAIL, SKIP, PASS-DD, FAIL-DD, PASS-XB, FAIL-XB)";
    if (x->from_tlm && x->mode != XF_CHECK_ADJOINT_JOINT && x->mode != XF_CHECK_ADJOINT_SPLIT &&
        x->mode != XF_CHECK_F_JOINT && x->mode != XF_CHECK_F_SPLIT)
        return "only the adjoint modes run from tlm.xaif";
    if (need_reason && xf_check_status_fails(x->status) && x->reason == XF_FAIL_NONE)
        return "a failing line ends with its reason class (" XF_EXPECT_REASONS ")";
    if (!xf_check_status_fails(x->status) && x->reason != XF_FAIL_NONE)
        return "only a failing line has a reason class";
    if (n == 3)
        return NULL;
    bool h[4];
    if (!count(tok[3], &h[0], &x->ops) || !count(tok[4], &h[1], &x->tape) ||
        !count(tok[5], &h[2], &x->ref_ops) || !count(tok[6], &h[3], &x->ref_tape))
        return "a count is neither a number nor '-'";
    if (h[0] != h[1] || h[2] != h[3] || (h[2] && !h[0]))
        return "operations and tape words go together, and xaifBooster's only with ours";
    x->have_ours = h[0];
    x->have_ref = h[2];
    return NULL;
}

static int
read_file(const char *path, xf_check_results *r, FILE *err, bool need_reason)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(err, "%s: error: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    char buf[1024];
    int line = 0, ret = 0;
    while (ret == 0 && fgets(buf, sizeof buf, f)) {
        line++;
        size_t len = strlen(buf);
        if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
            fprintf(err, "%s:%d: error: line too long\n", path, line);
            ret = -1;
            break;
        }
        const char *s = buf + strspn(buf, " \t\r\n");
        if (!*s || *s == '#')
            continue;
        xf_check_result x;
        const char *why = parse_line(buf, &x, need_reason);
        if (why) {
            fprintf(err, "%s:%d: error: %s\n", path, line, why);
            ret = -1;
        } else if (xf_check_results_add(r, &x) != 0) {
            fprintf(err, "%s: error: out of memory\n", path);
            ret = -1;
        }
    }
    if (ret == 0 && ferror(f)) {
        fprintf(err, "%s: error: cannot read: %s\n", path, strerror(errno));
        ret = -1;
    }
    fclose(f);
    xf_check_results_sort(r);
    for (size_t i = 1; ret == 0 && i < r->n; i++)
        if (!strcmp(r->v[i].name, r->v[i - 1].name) && r->v[i].mode == r->v[i - 1].mode) {
            fprintf(err, "%s: error: %s %s is listed twice\n", path, r->v[i].name,
                    xf_check_mode_name(r->v[i].mode));
            ret = -1;
        }
    return ret;
}

int
xf_expect_read(const char *path, xf_check_results *r, FILE *err)
{
    return read_file(path, r, err, true);
}

int
xf_expect_read_old(const char *path, xf_check_results *r, FILE *err)
{
    return read_file(path, r, err, false);
}

/* Does the run have any record of @name? */
static bool
ran(const xf_check_results *run, const char *name)
{
    for (int m = 0; m < XF_CHECK_MODES; m++)
        if (xf_check_results_find(run, name, (xf_check_mode)m))
            return true;
    return false;
}

/* Is @y of the expectations within what the run covered? */
static bool
covered(const xf_check_result *y, const xf_check_results *run, const xf_expect_scope *sc)
{
    return sc->modes[y->mode] && (sc->all || ran(run, y->name));
}

static void
num(char *p, size_t len, bool have, uint64_t v)
{
    if (have)
        snprintf(p, len, "%" PRIu64, v);
    else
        snprintf(p, len, "-");
}

/* One count of @what, expected @a, run @b: any difference is a change,
 * a fall as much as a rise, so that a figure cannot fall and climb back
 * unseen. */
static void
compare_count(const xf_check_result *x, const char *what, bool ha, uint64_t a, bool hb, uint64_t b,
              FILE *out, int *changes)
{
    if (ha == hb && a == b)
        return;
    char s[32], t[32];
    num(s, sizeof s, ha, a);
    num(t, sizeof t, hb, b);
    fprintf(out, "changed  %s %s: %s %s -> %s%s\n", x->name, xf_check_mode_name(x->mode), what, s,
            t, ha && hb ? (b > a ? " (a rise)" : " (a fall)") : "");
    (*changes)++;
}

/* "STATUS", or "STATUS (reason)" for a failing one, into @p. */
static void
status_text(char *p, size_t len, const xf_check_result *x)
{
    if (x->reason != XF_FAIL_NONE)
        snprintf(p, len, "%s (%s)", xf_check_status_name(x->status),
                 xf_check_reason_name(x->reason));
    else
        snprintf(p, len, "%s", xf_check_status_name(x->status));
}

int
xf_expect_compare(const xf_check_results *old, const xf_check_results *run,
                  const xf_expect_scope *sc, const char *file, FILE *out)
{
    int changes = 0;
    char a[64], b[64];
    for (size_t i = 1; i < run->n; i++)
        if (!strcmp(run->v[i].name, run->v[i - 1].name) && run->v[i].mode == run->v[i - 1].mode) {
            fprintf(out,
                    "error: two examples are named %s; %s knows an example by its folder's "
                    "name\n",
                    run->v[i].name, file);
            return -1;
        }
    for (size_t i = 0; i < run->n; i++) {
        const xf_check_result *x = &run->v[i];
        const xf_check_result *y = xf_check_results_find(old, x->name, x->mode);
        status_text(b, sizeof b, x);
        if (!y) {
            fprintf(out, "changed  %s %s: not in %s, now %s\n", x->name,
                    xf_check_mode_name(x->mode), file, b);
            changes++;
            continue;
        }
        status_text(a, sizeof a, y);
        if (y->from_tlm != x->from_tlm) {
            /* another input is another example: its counts are not compared */
            fprintf(out, "changed  %s %s: %s from %s in %s -> %s from %s\n", x->name,
                    xf_check_mode_name(x->mode), a, y->from_tlm ? "tlm.xaif" : "adm.xaif", file, b,
                    x->from_tlm ? "tlm.xaif" : "adm.xaif");
            changes++;
            continue;
        }
        if (y->status != x->status || y->reason != x->reason) {
            fprintf(out, "changed  %s %s: %s -> %s\n", x->name, xf_check_mode_name(x->mode), a, b);
            changes++;
            continue;
        }
        compare_count(x, "operations", y->have_ours, y->ops, x->have_ours, x->ops, out, &changes);
        compare_count(x, "tape words", y->have_ours, y->tape, x->have_ours, x->tape, out, &changes);
        compare_count(x, "xaifBooster's operations", y->have_ref, y->ref_ops, x->have_ref,
                      x->ref_ops, out, &changes);
        compare_count(x, "xaifBooster's tape words", y->have_ref, y->ref_tape, x->have_ref,
                      x->ref_tape, out, &changes);
    }
    for (size_t i = 0; i < old->n; i++) {
        const xf_check_result *y = &old->v[i];
        if (covered(y, run, sc) && !xf_check_results_find(run, y->name, y->mode)) {
            status_text(a, sizeof a, y);
            fprintf(out, "changed  %s %s: %s in %s, not found by the run\n", y->name,
                    xf_check_mode_name(y->mode), a, file);
            changes++;
        }
    }
    fprintf(out, "%s: %d change%s\n", file, changes, changes == 1 ? "" : "s");
    if (changes)
        fprintf(out, "(to record the run as expected: the same command with --update)\n");
    return changes;
}

static const char header[] =
    "# The expected results of xaiform's regression runner: one line per example\n"
    "# and mode, sorted by example (bytes), then mode. `xaiform check --expect FILE\n"
    "# DIR...` fails on any difference from this file, better or worse: a status\n"
    "# or a failure's reason class, a count, an example in one and not the other;\n"
    "# `--update` rewrites this file from the run (lines of modes or examples the\n"
    "# run did not cover are kept); `xaiform check --summary FILE` prints the totals.\n"
    "#\n"
    "# status: PASS, FAIL (against ref/ad.out; for dd ref/dd.out), SKIP (no input\n"
    "#   or reference for the mode), PASS-DD, FAIL-DD (against ref/dd.out: a\n"
    "#   FAILREASON file says OpenAD's is wrong), PASS-XB, FAIL-XB (custom driver:\n"
    "#   against xaifBooster's output under the generic one)\n"
    "# ops, tape: floating-point operations and tape words pushed by our derivative\n"
    "#   code, in the passing tangent, adjoint-joint and adjoint-split modes;\n"
    "# xb_ops, xb_tape: the same of xaifBooster's output, where it passes against\n"
    "#   ref/ad.out too; '-': none\n"
    "# input: tlm.xaif where an adjoint mode ran from it for want of adm.xaif\n"
    "#   (judged by ref/dd.out); else left out\n"
    "# reason: on a failing line (FAIL, FAIL-DD, FAIL-XB) only, the stage that\n"
    "#   failed: example-error (params.conf or the reference unreadable),\n"
    "#   read-error (the xaif), transform-error (our pipeline), schema-invalid\n"
    "#   (the derivative, against --schema), run-error (the interpreter),\n"
    "#   jacobian-shape, jacobian-mismatch (against the reference)\n";

int
xf_expect_write(const char *path, const xf_check_results *old, const xf_check_results *run,
                const xf_expect_scope *sc, const char *made_by, FILE *err)
{
    xf_check_results all = {0};
    int ret = 0;
    for (size_t i = 0; i < run->n && ret == 0; i++)
        ret = xf_check_results_add(&all, &run->v[i]);
    for (size_t i = 0; i < old->n && ret == 0; i++)
        if (!covered(&old->v[i], run, sc))
            ret = xf_check_results_add(&all, &old->v[i]);
    if (ret != 0) {
        fprintf(err, "%s: error: out of memory\n", path);
        xf_check_results_fini(&all);
        return -1;
    }
    xf_check_results_sort(&all);
    for (size_t i = 0; i < all.n; i++)
        if (xf_check_status_fails(all.v[i].status) != (all.v[i].reason != XF_FAIL_NONE)) {
            fprintf(err,
                    "%s: error: %s %s: a failing line needs a reason class, another none (a "
                    "line from before the classes, outside the run: run its mode)\n",
                    path, all.v[i].name, xf_check_mode_name(all.v[i].mode));
            xf_check_results_fini(&all);
            return -1;
        } else if (all.v[i].name[strcspn(all.v[i].name, " \t\r\n")] || all.v[i].name[0] == '#') {
            fprintf(err, "%s: error: the example name '%s' cannot be written as a column\n", path,
                    all.v[i].name);
            xf_check_results_fini(&all);
            return -1;
        } else if (i && !strcmp(all.v[i].name, all.v[i - 1].name) &&
                   all.v[i].mode == all.v[i - 1].mode) {
            fprintf(err, "%s: error: two examples are named %s\n", path, all.v[i].name);
            xf_check_results_fini(&all);
            return -1;
        }
    xf_outfile of;
    char why[512];
    if (xf_outfile_open(&of, path, NULL, why, sizeof why) != 0) {
        fprintf(err, "%s: error: %s\n", path, why);
        xf_check_results_fini(&all);
        return -1;
    }
    FILE *f = fdopen(of.fd, "w");
    bool ok = f != NULL;
    if (f) {
        fprintf(f, "%s# made by: %s\n#\n", header, made_by);
        fprintf(f, "# %-32s %-13s %-7s %7s %6s %7s %6s %s\n", "example", "mode", "status", "ops",
                "tape", "xb_ops", "xb_tape", "[input] [reason]");
        for (size_t i = 0; i < all.n; i++) {
            const xf_check_result *x = &all.v[i];
            char c[4][32];
            num(c[0], sizeof c[0], x->have_ours, x->ops);
            num(c[1], sizeof c[1], x->have_ours, x->tape);
            num(c[2], sizeof c[2], x->have_ref, x->ref_ops);
            num(c[3], sizeof c[3], x->have_ref, x->ref_tape);
            fprintf(f, "%-34s %-13s %-7s %7s %6s %7s %6s%s%s%s\n", x->name,
                    xf_check_mode_name(x->mode), xf_check_status_name(x->status), c[0], c[1], c[2],
                    c[3], x->from_tlm ? " tlm.xaif" : "", x->reason != XF_FAIL_NONE ? " " : "",
                    x->reason != XF_FAIL_NONE ? xf_check_reason_name(x->reason) : "");
        }
        ok = !ferror(f);
        ok = fclose(f) == 0 && ok;
    } else {
        close(of.fd);
    }
    xf_check_results_fini(&all);
    if (xf_outfile_finish(&of, ok, why, sizeof why) != 0) {
        fprintf(err, "%s: error: %s\n", path, ok ? why : "cannot write");
        return -1;
    }
    return 0;
}
