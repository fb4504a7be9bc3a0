/* fuzz_read.c: libFuzzer target for the reader (and the writer behind it).
 *
 * Each input is read from memory strictly and leniently. A document that is
 * read must be written, and the written text must read again with the same
 * options: a document xaiform wrote must always be readable. Any other
 * outcome aborts, as do the sanitizers. See tests/fuzz/README.md. */
#include <libxml/parser.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "fuzz_fail.h"
#include "read.h"
#include "write.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
quiet(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    xmlInitParser();
    xmlSetGenericErrorFunc(NULL, quiet);
    return 0;
}

/* Report why a round trip broke, with the text it broke on, and abort. */
static void
fail(const char *what, const xf_diag *diag, bool lenient, const char *text, size_t len)
{
    fuzz_fail("fuzz_read", what, lenient ? "lenient" : "strict", diag, text, len);
}

static void
round_trip(const uint8_t *data, size_t size, bool lenient)
{
    xf_read_opts opts = {.lenient = lenient};
    xf_diag *diag = xf_diag_new(NULL);
    if (!diag)
        abort();
    xf_doc *doc = xf_read_memory((const char *)data, size, "fuzz.xaif", &opts, diag);
    if (!doc) {
        xf_diag_free(diag);
        return;
    }
    char *out = NULL;
    size_t len = 0;
    if (xf_write_memory(doc, &out, &len, diag) != 0)
        fail("a document that was read could not be written", diag, lenient, NULL, 0);
    xf_doc_free(doc);
    xf_diag_clear(diag);
    xf_doc *again = xf_read_memory(out, len, "written.xaif", &opts, diag);
    if (!again)
        fail("the written document does not read again", diag, lenient, out, len);
    xf_doc_free(again);
    free(out);
    xf_diag_free(diag);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    round_trip(data, size, false);
    round_trip(data, size, true);
    return 0;
}
