/* inout.c: every argument of every routine becomes intent(inout), as
 * xaifBooster's -I does for the adjoint ("change all argument INTENTs for
 * checkpoints and adjoint propagation"): OpenAD's joint-mode template
 * restores and checkpoints arguments whatever their declared intent, and
 * the adjoint sweep writes the adjoints of intent(in) arguments, so the
 * Fortran the back end writes must allow both. Only the ArgumentList
 * changes; the code does not. Needs: nothing. Breaks: nothing. */
#include "pass.h"

static int
run_routine(xf_pass_ctx *ctx, xf_routine *rt)
{
    (void)ctx;
    for (uint32_t k = 0; k < rt->args.n; k++)
        rt->args.v[k].intent = XF_INTENT_INOUT;
    return 0;
}

/* The promise (--verify-each): every argument is intent(inout). */
static int
verify(xf_pass_ctx *ctx)
{
    for (uint32_t r = 0; r < ctx->doc->cg.routines.n; r++) {
        const xf_routine *rt = ctx->doc->cg.routines.v[r];
        for (uint32_t k = 0; k < rt->args.n; k++)
            if (rt->args.v[k].intent != XF_INTENT_INOUT) {
                xf_error(ctx->diag, ctx->doc->filename, rt->h.line,
                         "routine %s: argument %u is not intent(inout)",
                         rt->sym ? rt->sym->id : "?", k + 1);
                return -1;
            }
    }
    return 0;
}

const xf_pass xf_pass_inout = {
    .name = "inout",
    .summary = "make every argument intent(inout) (xaifBooster's -I)",
    .help = "Every ArgumentSymbolReference gets intent=\"inout\", as xaifBooster's -I\n"
            "does for joint-mode adjoints; the code is unchanged.",
    .after = NULL,
    .run_routine = run_routine,
    .verify = verify,
    .promise = "every argument is intent(inout)",
};
