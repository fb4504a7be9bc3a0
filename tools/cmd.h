/* cmd.h: the verbs of the xaiform program. Each takes the arguments after
 * its name (argv[0] is the verb) and returns the exit status:
 * 0 success, 1 input error, 2 usage error, 3 internal error. */
#ifndef XF_TOOLS_CMD_H
#define XF_TOOLS_CMD_H

#include <stdbool.h>
#include <stddef.h>

enum { XF_EXIT_OK = 0, XF_EXIT_INPUT = 1, XF_EXIT_USAGE = 2, XF_EXIT_INTERNAL = 3 };

int xf_cmd_copy(int argc, char **argv);
int xf_cmd_validate(int argc, char **argv);
int xf_cmd_compare(int argc, char **argv);
int xf_cmd_run(int argc, char **argv);
int xf_cmd_check(int argc, char **argv);
int xf_cmd_tangent(int argc, char **argv);
int xf_cmd_adjoint(int argc, char **argv);
int xf_cmd_passes(int argc, char **argv);
int xf_cmd_batch(int argc, char **argv);
int xf_cmd_dot(int argc, char **argv);
int xf_cmd_oad(int argc, char **argv);
int xf_cmd_c2xaif(int argc, char **argv);
int xf_cmd_f2xaif(int argc, char **argv);
int xf_cmd_grad(int argc, char **argv);
/** xf_grad_is_fortran: is grad's input file (its first operand) a Fortran source? */
bool xf_grad_is_fortran(int argc, char **argv);
/** xf_grad_fortran: grad for Fortran (cmd_fgrad.c): f2xaif, transform, xaif2f. */
int xf_grad_fortran(int argc, char **argv);
/**
 * xf_c2xaif_verb:
 * xaiform c2xaif's command line, for grad: as xf_cmd_c2xaif, but the C file
 * (argv's operand, NULL on a usage error) goes to *@file; when @final
 * (grad's own output; may be NULL) names that C file, it is refused (exit 1)
 * before anything is parsed; and when @text is not NULL, the xaif is not
 * written to a file (no -o then) but handed over in *@text (malloc'd, the
 * caller frees it; NULL on failure) and *@len.
 */
int xf_c2xaif_verb(int argc, char **argv, const char *final, const char **file, char **text,
                   size_t *len);
int xf_cmd_xaif2c(int argc, char **argv);
int xf_cmd_xaif2f(int argc, char **argv);

/**
 * xf_oad_algorithm:
 * Was the program started as xaifBooster's driver, .../ALG/driver/oadDriver
 * (@argv0, looked up in $PATH when it has no '/', or a symbolic link on the
 * way from it to the program)? Then ALG goes to @alg ("" when it cannot be
 * told). /proc/self/exe would name the program, not the link, so only
 * @argv0 is asked.
 * @returns 1 if so, 0 if not.
 */
int xf_oad_algorithm(const char *argv0, char *alg, size_t len);
/** xf_cmd_oad_argv0: run as xaifBooster's driver of @alg ("": unknown); argv[0] is the program. */
int xf_cmd_oad_argv0(int argc, char **argv, const char *alg);

/** xf_usage_error: print "xaiform VERB: message" and a hint to stderr; returns 2. */
int xf_usage_error(const char *verb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
