/* cmd.h: the verbs of the xaiform program. Each takes the arguments after
 * its name (argv[0] is the verb) and returns the exit status:
 * 0 success, 1 input error, 2 usage error, 3 internal error. */
#ifndef XF_TOOLS_CMD_H
#define XF_TOOLS_CMD_H

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

/** xf_usage_error: print "xaiform VERB: message" and a hint to stderr; returns 2. */
int xf_usage_error(const char *verb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
