/* names.h: routines by the name a user writes on the command line. */
#ifndef XF_ENGINE_NAMES_H
#define XF_ENGINE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "ir.h"

/* Which routines a lookup may find; @arg is the caller's. */
typedef bool (*xf_routine_filter)(const xf_routine *r, const void *arg);

/**
 * xf_routine_lookup:
 * The routine of @doc that @name names. A routine whose symbol_id, or else
 * whose vertex_id, is @name exactly always wins. Otherwise @name is taken as
 * written in the source: it finds the symbol_id the front end decorated
 * with a number (head -> head__24, foo -> FOO_24: the name in any case, then
 * '_'s and digits), with or without the call graph's prefix (OpenAD_head__24,
 * as xaifBooster's -r renames), when exactly one routine matches.
 * @keep: when not NULL, only the routines it accepts are looked at
 * @found: the routine, when exactly one is found
 * @msg: when none or several are found, the error message (of at most @len
 * bytes): "no routine named X (routines: ...)" listing every routine, or
 * "N routines are named X (...): give one's full name" listing those
 * @returns how many routines match: 1 when *@found is set
 */
size_t xf_routine_lookup(const xf_doc *doc, const char *name, xf_routine_filter keep,
                         const void *arg, const xf_routine **found, char *msg, size_t len);

/** xf_routine_symbol: the name of @r in messages: its symbol_id, else its vertex_id, else "?". */
const char *xf_routine_symbol(const xf_routine *r);

#endif
