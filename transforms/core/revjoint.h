/* revjoint.h: under the split template, which routines run both sweeps in
 * one activation (xf_opts.entry_joint, set by `xaiform grad --reversal
 * split`).
 *
 * OpenAD's split driver calls the top routine's taping sweep and its
 * adjoint sweep separately, so every routine's adjoint sweep runs in an
 * activation of its own. The user's f_b that `grad` writes runs the top
 * routine's two sweeps back to back, in one activation, as the joint
 * template runs every routine: the top routine (the --function, which no
 * call of the document reaches) may then take the rules of joint reversal
 * (values read in place, loop bounds read again), while the routines it
 * calls keep their split sweeps (_fwd, _bwd). Between a callee's two
 * sweeps only the top routine's code then runs: the rest of its taping
 * sweep, and its adjoint sweep down to the call's adjoint. */
#ifndef XF_TRANSFORMS_REVJOINT_H
#define XF_TRANSFORMS_REVJOINT_H

#include <stdbool.h>

#include "ir.h"

struct xf_pass_ctx;

/** xf_revjoint: does @rt take the rules of joint reversal: --reversal
 * joint, or --reversal split with entry_joint and no call-graph edge
 * into @rt? */
bool xf_revjoint(const struct xf_pass_ctx *ctx, const xf_routine *rt);

/** xf_revjoint_callee: is @rt, under --reversal split with entry_joint,
 * called only by routines that xf_revjoint takes (at least one call)? Its
 * two sweeps then have only such a caller's code between them. */
bool xf_revjoint_callee(const struct xf_pass_ctx *ctx, const xf_routine *rt);

/** xf_revjoint_kept: is formal @f of @rt (a routine xf_revjoint_callee
 * takes) the same between its two sweeps? At every call of @rt, the
 * actual at @f's position is one variable (its elements alike) that is a
 * formal of the caller or a variable of another scope, and off the
 * caller's Mod lists (which must be there, not empty): then nothing
 * writes it while the callee's sweeps run apart, and its adjoint may read
 * it in place; @rt must not write @f itself (tbr_values.c checks it).
 * Reads the calls of placeholder 1, the original code. */
bool xf_revjoint_kept(const xf_doc *doc, const xf_routine *rt, const xf_symbol *f);

#endif
