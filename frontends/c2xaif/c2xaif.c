/* c2xaif.c: the C front end's driver: parse the file with libclang, find
 * the top function, walk it and every function it calls, analyse, write. */
#define _DEFAULT_SOURCE /* sigaltstack, setenv */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cf.h"

void
cf_refuse(cf *c, CXCursor at, const char *fmt, ...)
{
    if (c->tu) {
        CXFile file;
        unsigned line = 0, col = 0;
        clang_getSpellingLocation(clang_getCursorLocation(at), &file, &line, &col, NULL);
        CXString name = clang_getFileName(file);
        const char *fn = clang_getCString(name);
        fprintf(c->err, "%s:%u:%u: error: ", fn && *fn ? fn : c->o->file, line, col);
        clang_disposeString(name);
    } else /* the Fortran front end (no cursors): its top routine's file and line */
        fprintf(c->err, "%s:%u: error: ", c->o->file, c->fns.n ? c->fns.v[0]->line : 0);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(c->err, fmt, ap);
    va_end(ap);
    fputc('\n', c->err);
    c->status = 1;
    longjmp(c->fail, 1);
}

void
cf_enter(cf *c, CXCursor x)
{
    if (++c->depth > CF_MAX_DEPTH)
        cf_refuse(c, x, "an expression or statement nested deeper than %d levels is not supported",
                  CF_MAX_DEPTH);
}

void
cf_oom(cf *c)
{
    fprintf(c->err, "xaiform c2xaif: out of memory\n");
    c->status = 3;
    longjmp(c->fail, 1);
}

void *
cf_alloc(cf *c, size_t n)
{
    void *p = xf_arena_alloc(c->a, n);
    if (!p)
        cf_oom(c);
    return p;
}

const char *
cf_strdup(cf *c, const char *s)
{
    char *p = xf_arena_strndup(c->a, s, strlen(s));
    if (!p)
        cf_oom(c);
    return p;
}

unsigned
cf_line(CXCursor x)
{
    unsigned line = 0;
    clang_getSpellingLocation(clang_getCursorLocation(x), NULL, &line, NULL, NULL);
    return line;
}

typedef struct kids {
    cf *c;
    XF_VEC(CXCursor) v;
} kids;

static enum CXChildVisitResult
collect(CXCursor x, CXCursor parent, CXClientData d)
{
    (void)parent;
    kids *k = d;
    if (!XF_VEC_PUSH(k->c->a, k->v, x))
        cf_oom(k->c);
    return CXChildVisit_Continue;
}

CXCursor *
cf_children(cf *c, CXCursor p, unsigned *n)
{
    kids k = {.c = c};
    clang_visitChildren(p, collect, &k);
    *n = k.v.n;
    return k.v.v;
}

static enum CXChildVisitResult
first_child(CXCursor x, CXCursor parent, CXClientData d)
{
    (void)parent;
    *(CXCursor *)d = x;
    return CXChildVisit_Break;
}

CXCursor
cf_strip(CXCursor x)
{
    while (clang_getCursorKind(x) == CXCursor_ParenExpr) {
        CXCursor in = clang_getNullCursor();
        clang_visitChildren(x, first_child, &in);
        if (clang_Cursor_isNull(in))
            break;
        x = in;
    }
    return x;
}

bool
cf_names(CXCursor x, CXCursor decl)
{
    x = cf_strip(x);
    return clang_getCursorKind(x) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(x), decl);
}

cf_fn *
cf_find_fn(cf *c, CXCursor callee)
{
    CXCursor def = clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_FunctionDecl)
        return c->o->externals ? cf_ext_fn(c, callee) : NULL;
    for (uint32_t i = 0; i < c->fns.n; i++)
        if (clang_equalCursors(c->fns.v[i]->decl, def))
            return c->fns.v[i];
    cf_fn *f = cf_alloc(c, sizeof *f);
    CXString s = clang_getCursorSpelling(def);
    f->name = cf_strdup(c, clang_getCString(s));
    clang_disposeString(s);
    f->decl = def;
    f->index = c->fns.n;
    if (!XF_VEC_PUSH(c->a, c->fns, f))
        cf_oom(c);
    return f;
}

/* A call chain that comes back to @f: recursion, which xaiform refuses
 * (docs/c-frontend.md), naming the cycle: @path holds the @depth functions
 * of the chain that led to @f. */
static void
check_recursion(cf *c, cf_fn *f, cf_fn **path, uint32_t depth)
{
    if (f->done)
        return;
    if (f->busy) {
        uint32_t from = depth;
        while (from > 0 && path[from - 1] != f)
            from--;
        char cycle[512];
        size_t len = 0;
        cycle[0] = '\0';
        for (uint32_t k = from - 1; k < depth && len < sizeof cycle; k++) {
            int w = snprintf(cycle + len, sizeof cycle - len,
                             k + 1 == from ? "'%s' calls " : "'%s', which calls ", path[k]->name);
            len += w > 0 ? (size_t)w : 0;
        }
        if (len < sizeof cycle)
            snprintf(cycle + len, sizeof cycle - len, "'%s'", f->name);
        cf_refuse(c, f->decl,
                  "recursion is not supported: %s; xaiform differentiates no function that "
                  "calls itself, directly or through others: write the recursion as a loop",
                  cycle);
    }
    f->busy = true;
    path[depth] = f;
    for (uint32_t i = 0; i < f->callees.n; i++)
        check_recursion(c, f->callees.v[i], path, depth + 1);
    f->busy = false;
    f->done = true;
}

/* Clang's own errors, as FILE:LINE:COL: error: ... */
static bool
report_clang_errors(cf *c)
{
    bool bad = false;
    unsigned n = clang_getNumDiagnostics(c->tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(c->tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation |
                                                       CXDiagnostic_DisplayColumn);
            fprintf(c->err, "%s\n", clang_getCString(s));
            clang_disposeString(s);
            bad = true;
        }
        clang_disposeDiagnostic(d);
    }
    return bad;
}

typedef struct finder {
    const char *name;
    CXCursor found;
} finder;

static enum CXChildVisitResult
find_top(CXCursor x, CXCursor parent, CXClientData d)
{
    (void)parent;
    finder *f = d;
    if (clang_getCursorKind(x) == CXCursor_FunctionDecl && clang_isCursorDefinition(x)) {
        CXString s = clang_getCursorSpelling(x);
        if (strcmp(clang_getCString(s), f->name) == 0)
            f->found = x;
        clang_disposeString(s);
    }
    return CXChildVisit_Continue;
}

static int
translate(const xf_c2xaif_opts *o, FILE *err)
{
    cf c = {.o = o, .err = err};
    if (o->text)
        *o->text = NULL;
    c.a = xf_arena_new();
    if (!c.a) {
        fprintf(err, "xaiform c2xaif: out of memory\n");
        return 3;
    }
    FILE *probe = fopen(o->file, "r");
    if (!probe) {
        fprintf(err, "%s: error: cannot open: %s\n", o->file, strerror(errno));
        xf_arena_free(c.a);
        return 1;
    }
    fclose(probe);
    if (xf_clang_load(err) != 0) {
        xf_arena_free(c.a);
        return 3;
    }
    CXIndex index = clang_createIndex(0, 0);
    int nargs = 0;
    while (o->clang_args && o->clang_args[nargs])
        nargs++;
    const char **args = calloc((size_t)nargs + 2, sizeof *args);
    if (!args) {
        xf_arena_free(c.a);
        clang_disposeIndex(index);
        return 3;
    }
    args[0] = "-std=c99";
    for (int i = 0; i < nargs; i++)
        args[i + 1] = o->clang_args[i];
    volatile int status = 0;
    enum CXErrorCode ec = clang_parseTranslationUnit2(index, o->file, args, nargs + 1, NULL, 0,
                                                      CXTranslationUnit_None, &c.tu);
    if (ec != CXError_Success || !c.tu) {
        fprintf(err, "%s: error: clang cannot parse the file (libclang error %d)\n", o->file,
                (int)ec);
        status = 1;
        goto out;
    }
    if (report_clang_errors(&c)) {
        status = 1;
        goto out;
    }
    if (setjmp(c.fail)) {
        status = c.status;
        goto out;
    }
    xf_c2xaif_opts flat = *o; /* --extent m->data=m->rows*m->cols: the members' names */
    flat.extents = cf_struct_flat_extents(&c, o->extents);
    c.o = &flat;
    finder fd = {.name = o->function, .found = clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(c.tu), find_top, &fd);
    if (clang_Cursor_isNull(fd.found)) {
        fprintf(err, "%s: error: no definition of function '%s'\n", o->file, o->function);
        status = 1;
        goto out;
    }
    cf_fn *top = cf_find_fn(&c, fd.found);
    for (uint32_t i = 0; i < c.fns.n; i++)
        (c.fns.v[i]->external ? cf_ext_walk : cf_walk_fn)(&c, c.fns.v[i]);
    cf_fn **path = cf_alloc(&c, ((size_t)c.fns.n + 1) * sizeof *path);
    for (uint32_t i = 0; i < c.fns.n; i++)
        check_recursion(&c, c.fns.v[i], path, 0);
    cf_fn_extents_check(&c, top);
    cf_rt_settle(&c);
    cf_extents(&c);
    cf_rt_copies(&c);
    cf_analyze(&c, top);
    cf_rt_check(&c);
    if (cf_write(&c, o->out) != 0)
        status = 1; /* reported by cf_write */
out:
    free(args);
    if (c.tu)
        clang_disposeTranslationUnit(c.tu);
    clang_disposeIndex(index);
    xf_arena_free(c.a);
    return status;
}

/* ------------------------------------------------------------ on a stack of its own */

/* The translation runs on a thread with a stack of CF_STACK_MB MiB (address
 * space; only what is used is ever mapped), because three things recurse
 * over a C expression: clang's parser and semantic checks, libclang's walks
 * of the tree, and this front end's (CF_MAX_DEPTH bounds its own). A sum
 * of N terms is a left-nested tree N deep: on the 8 MiB of a main thread
 * 20 000 terms overflowed the stack, and clang alone (clang -fsyntax-only)
 * stops near 100 000. LIBCLANG_NOTHREADS makes libclang parse on this
 * thread rather than on one of its own, which has 8 MiB. The front end's
 * own walk (about 480 bytes a level) reaches CF_MAX_DEPTH in a tenth of
 * the stack; clang's parser, which spends about 2 KiB a level on nested
 * prefix operators, can still overflow it before the walk begins (500 000
 * of them: docs/c-frontend.md has the figures).
 *
 * The thread has its own alternate signal stack, so that a fatal signal's
 * handler (tools/main.c: removes the temporary files) runs there too. */
enum { CF_STACK_MB = 1024 };

typedef struct job {
    const xf_c2xaif_opts *o;
    FILE *err;
    int status;
} job;

static void *
run_job(void *arg)
{
    job *j = arg;
    stack_t ss = {.ss_size = 1 << 16}, old;
    ss.ss_sp = malloc(ss.ss_size);
    bool alt = ss.ss_sp && sigaltstack(&ss, &old) == 0;
    j->status = translate(j->o, j->err);
    if (alt) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
    }
    free(ss.ss_sp);
    return NULL;
}

int
xf_c2xaif(const xf_c2xaif_opts *o, FILE *err)
{
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    job j = {.o = o, .err = err, .status = 3};
    pthread_attr_t at;
    pthread_t t;
    int e = pthread_attr_init(&at);
    if (e == 0) {
        e = pthread_attr_setstacksize(&at, (size_t)CF_STACK_MB << 20);
        if (e == 0)
            e = pthread_create(&t, &at, run_job, &j);
        pthread_attr_destroy(&at);
    }
    if (e != 0) {
        fprintf(err, "xaiform c2xaif: cannot start the front end on a stack of %d MiB: %s\n",
                CF_STACK_MB, strerror(e));
        return 3;
    }
    pthread_join(t, NULL);
    return j.status;
}
