/* main.c: the xaiform program: a verb, then its arguments, as git does. */
#define _DEFAULT_SOURCE /* sigaltstack, SA_ONSTACK */
#include <libxml/parser.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "outfile.h"

#ifndef XF_VERSION
#define XF_VERSION "0.1.0"
#endif

typedef struct xf_verb {
    const char *name;
    int (*run)(int argc, char **argv);
    bool writes; /* writes one output: a stop signal removes its temporary file */
    const char *summary;
} xf_verb;

static const xf_verb verbs[] = {
    {"tangent", xf_cmd_tangent, true, "write the tangent-linear (forward-mode) code"},
    {"adjoint", xf_cmd_adjoint, true, "write the adjoint (reverse-mode) code"},
    {"passes", xf_cmd_passes, true, "run a list of passes; list them"},
    {"copy", xf_cmd_copy, true, "read an xaif file and write it again (no passes)"},
    {"validate", xf_cmd_validate, false, "check xaif files against the xaif schema"},
    {"compare", xf_cmd_compare, false, "compare two xaif files, ignoring formatting"},
    {"run", xf_cmd_run, false, "execute xaif under OpenAD's drivers; print the Jacobian"},
    {"check", xf_cmd_check, false, "run OpenAD's regression examples and compare the Jacobians"},
    {"batch", xf_cmd_batch, false, "convert many files in parallel worker processes"},
    {"dot", xf_cmd_dot, true, "draw the call graph, a control-flow graph, expressions or an LCG"},
#ifdef XF_C_FRONTEND
    {"c2xaif", xf_cmd_c2xaif, true, "translate a C function and its callees into xaif (libclang)"},
    {"grad", xf_cmd_grad, true,
     "the tangent or adjoint of a C function, as C (c2xaif, transform, xaif2c)"},
#endif
    {"f2xaif", xf_cmd_f2xaif, true,
     "translate a Fortran routine and its callees into xaif (Flang 19 plugin)"},
    {"xaif2c", xf_cmd_xaif2c, true, "write C for a program, its tangent or its adjoint"},
    {"xaif2f", xf_cmd_xaif2f, true, "write Fortran for a program, its tangent or its adjoint"},
    {"oad-driver", xf_cmd_oad, true,
     "answer xaifBooster's oadDriver command line (OpenAD's scripts)"},
    {NULL, NULL, false, NULL},
};

static void
help(FILE *f)
{
    fputs("usage: xaiform VERB [OPTIONS] ARGS...\n"
          "\n"
          "xaiform reads xaif (the XML format of the OpenAD tool chain) and writes xaif.\n"
          "\n"
          "verbs:\n",
          f);
    for (const xf_verb *v = verbs; v->name; v++)
        fprintf(f, "  %-10s %s\n", v->name, v->summary);
    fputs("\n"
          "'xaiform VERB --help' describes a verb. Exit status: 0 success, 1 input error\n"
          "(with FILE:LINE messages), 2 usage error, 3 internal error.\n",
          f);
}

int
xf_usage_error(const char *verb, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "xaiform %s: ", verb);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'xaiform %s --help'.\n", verb);
    return XF_EXIT_USAGE;
}

/* SIGINT, SIGTERM, SIGHUP during a verb that writes: its temporary file
 * removed, the exit status 128+N, as batch's (only async-signal-safe calls). */
static void
on_stop(int sig)
{
    xf_outfile_remove_all();
    _exit(128 + sig);
}

/* Catch the stop signals, but not one that was ignored when the program
 * started (nohup; SIGINT of a background job in a script). */
static void
catch_stops(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa = {.sa_handler = on_stop};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < 3; i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    for (size_t i = 0; i < 3; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
    }
}

/* A fatal signal during a verb that writes (a crash; SIGPIPE when the
 * standard output it writes to is closed; a limit): its temporary files
 * removed, then the signal raised again with its default action, so that
 * the process ends as it would have. */
static void
on_fatal(int sig)
{
    xf_outfile_remove_all();
    raise(sig); /* SA_RESETHAND: the default action, when the handler returns */
}

/* Catch the fatal signals on an alternate stack (a stack overflow reaches
 * the handler). Under AddressSanitizer, which reports crashes itself, the
 * crashes are left to it. */
static void
catch_fatal(void)
{
    static char alt[1 << 16];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
    sigaltstack(&ss, NULL);
    static const int sigs[] = {
        SIGABRT,
        SIGPIPE,
        SIGXFSZ,
        SIGXCPU,
#if !defined(__SANITIZE_ADDRESS__)
        SIGSEGV,
        SIGBUS,
        SIGFPE,
        SIGILL,
#endif
    };
    struct sigaction sa = {.sa_handler = on_fatal, .sa_flags = SA_RESETHAND | SA_ONSTACK};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
    }
}

int
main(int argc, char **argv)
{
    char alg[256];
    if (argc > 0 && xf_oad_algorithm(argv[0], alg, sizeof alg)) { /* .../ALG/driver/oadDriver */
        LIBXML_TEST_VERSION
        catch_stops();
        catch_fatal();
        int ret = xf_cmd_oad_argv0(argc, argv, alg);
        xmlCleanupParser();
        return ret;
    }
    if (argc < 2) {
        help(stderr);
        return XF_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        help(stdout);
        return XF_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("xaiform %s (libxml2 %s)\n", XF_VERSION, xmlParserVersion);
        return XF_EXIT_OK;
    }
    for (const xf_verb *v = verbs; v->name; v++)
        if (strcmp(v->name, name) == 0) {
            LIBXML_TEST_VERSION
            if (v->writes) {
                catch_stops();
                catch_fatal();
            }
            int ret = v->run(argc - 1, argv + 1);
            xmlCleanupParser();
            return ret;
        }
    fprintf(stderr, "xaiform: unknown verb '%s'\n", name);
    help(stderr);
    return XF_EXIT_USAGE;
}
