/* rename.c: every routine the document defines gets a new name, the call
 * graph's prefix (OpenAD_ by default) before its symbol's id, as
 * xaifBooster's -r does ("force renaming of all non-external routines"):
 * a new symbol of that name beside the old one in the same scope, the
 * routine and every SubroutineCall of it refer to the new one. Calls of
 * routines the document does not define keep their names. Runs before
 * template (.before), so that the adjoint's ReplacementLists carry the new
 * names; runs once (twice would prefix twice). Needs: nothing. Breaks:
 * nothing. */
#include <stdio.h>
#include <string.h>

#include "build.h"
#include "pass.h"

static void
rename_calls(xf_graph *g, xf_symbol *const *to)
{
    for (uint32_t i = 0; i < g->v.n; i++) {
        xf_cvertex *v = g->v.v[i];
        for (uint32_t k = 0; k < v->stmts.n; k++) {
            xf_stmt *s = v->stmts.v[k];
            if (s->kind == XF_STMT_CALL && s->u.call.sym && to[s->u.call.sym->index])
                s->u.call.sym = to[s->u.call.sym->index];
        }
    }
}

static int
run(xf_pass_ctx *ctx)
{
    xf_doc *doc = ctx->doc;
    xf_callgraph *cg = &doc->cg;
    const char *prefix = cg->prefix && *cg->prefix ? cg->prefix : "OpenAD_";
    uint32_t nsyms = doc->nsymbols;
    /* by symbol index: the new symbol of a renamed routine */
    xf_symbol **to = xf_arena_array(doc->arena, nsyms ? nsyms : 1, sizeof *to);
    if (!to)
        return xf_pass_oom(ctx);
    for (uint32_t r = 0; r < cg->routines.n; r++) {
        xf_routine *rt = cg->routines.v[r];
        xf_symbol *old = rt->sym;
        if (!old || old->index >= nsyms || to[old->index])
            continue;
        char id[1024];
        if ((size_t)snprintf(id, sizeof id, "%s%s", prefix, old->id) >= sizeof id) {
            xf_error(ctx->diag, doc->filename, rt->h.line, "routine name too long to rename: %s",
                     old->id);
            return -1;
        }
        xf_scope *scope = old->scope ? old->scope : rt->scope;
        const char *iid = xf_intern(doc, id);
        if (!iid)
            return xf_pass_oom(ctx);
        if (xf_symbol_find(scope, iid)) {
            xf_error(ctx->diag, doc->filename, rt->h.line,
                     "cannot rename routine %s: scope %s already has a symbol %s", old->id,
                     scope->id, id);
            return -1;
        }
        xf_symbol *s = xf_new_symbol(doc, scope, id, old->type, old->shape, true, true);
        if (!s)
            return xf_pass_oom(ctx);
        s->kind = old->kind;
        to[old->index] = s;
    }
    for (uint32_t r = 0; r < cg->routines.n; r++) {
        xf_routine *rt = cg->routines.v[r];
        if (rt->sym && rt->sym->index < nsyms && to[rt->sym->index])
            rt->sym = to[rt->sym->index];
        rename_calls(&rt->g, to);
        for (uint32_t k = 0; k < rt->reps.n; k++)
            rename_calls(&rt->reps.v[k]->g, to);
    }
    return 0;
}

/* The promise (--verify-each): every routine the document defines has a
 * name that begins with the prefix. */
static int
verify(xf_pass_ctx *ctx)
{
    const xf_callgraph *cg = &ctx->doc->cg;
    const char *prefix = cg->prefix && *cg->prefix ? cg->prefix : "OpenAD_";
    for (uint32_t r = 0; r < cg->routines.n; r++) {
        const xf_routine *rt = cg->routines.v[r];
        if (rt->sym && strncmp(rt->sym->id, prefix, strlen(prefix)) != 0) {
            xf_error(ctx->diag, ctx->doc->filename, rt->h.line, "routine %s does not begin with %s",
                     rt->sym->id, prefix);
            return -1;
        }
    }
    return 0;
}

static const char *const runs_before[] = {"template", NULL};

const xf_pass xf_pass_rename = {
    .name = "rename",
    .summary = "prefix every defined routine's name (xaifBooster's -r)",
    .help = "Every routine the document defines is renamed to the call graph's prefix\n"
            "(OpenAD_) followed by its name, in its definition and in every call, as\n"
            "xaifBooster's -r does; a new symbol of that name joins the routine's scope.",
    .after = NULL,
    .before = runs_before,
    .once = true,
    .run = run,
    .verify = verify,
    .promise = "every routine the document defines is named with the prefix (OpenAD_)",
};
