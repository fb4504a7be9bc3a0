/* code_out.c: a back end's code written to OUT (code_out.h). */
#include "code_out.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "outfile.h"
#include "read.h"

void
xf_code_test_signal(void)
{
    const char *v = getenv("XAIFORM_TEST_SIGNAL");
    if (v && strcmp(v, "TERM") == 0)
        raise(SIGTERM);
    if (v && strcmp(v, "ABRT") == 0)
        raise(SIGABRT);
}

bool
xf_code_write(const xf_doc *doc, const char *out, const char *src, xf_code_writer w,
              const void *opts, xf_diag *diag)
{
    if (!strcmp(out, "-"))
        return w(doc, stdout, opts, diag) == 0 && fflush(stdout) == 0;
    xf_outfile of = {0};
    char why[512];
    if (xf_outfile_open(&of, out, src, why, sizeof why) != 0) {
        xf_error(diag, out, 0, "%s", why);
        return false;
    }
    FILE *f = fdopen(of.fd, "w");
    if (!f) {
        close(of.fd);
        xf_outfile_finish(&of, false, why, sizeof why);
        xf_error(diag, out, 0, "cannot open for writing");
        return false;
    }
    xf_code_test_signal();
    bool ok = w(doc, f, opts, diag) == 0;
    if (fclose(f) != 0 && ok) {
        xf_error(diag, out, 0, "cannot write");
        ok = false;
    }
    if (xf_outfile_finish(&of, ok, why, sizeof why) != 0 && ok) {
        xf_error(diag, out, 0, "%s", why);
        ok = false;
    }
    return ok;
}

int
xf_code_cmd(const char *in, const char *out, xf_code_writer w, const void *opts)
{
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag)
        return XF_EXIT_INTERNAL;
    int ret = XF_EXIT_INPUT;
    xf_doc *doc = xf_read_file(in, NULL, diag);
    if (doc && xf_code_write(doc, out, in, w, opts, diag))
        ret = XF_EXIT_OK;
    if (xf_diag_internal_errors(diag))
        ret = XF_EXIT_INTERNAL;
    xf_doc_free(doc);
    xf_diag_free(diag);
    return ret;
}
