/* test_loopdep.c: the data dependence of loops (transforms/loops/loopdep_rules.c):
 * one small program per reason a loop's iterations depend on each other,
 * the cases that must stay independent (private scalars and array
 * elements, additive reductions, loop-invariant subscripts that differ),
 * terminal and not terminal, and the report's line; the iteration-wise
 * adjoint of parallel terminal loops (transforms/loops/iterwise.c), executed. */
#include <stdio.h>
#include <stdlib.h>

#include "derive_fixture.h"
#include "loopdep.h"
#include "suites.h"

/* The analysis of one document: its loops in the order of the report. */
typedef struct la {
    xf_diag *d;
    xf_doc *doc;
    xf_arena *a;
    xf_loopdep_vec v;
} la;

static void
analyse(la *t, xb *b, const char *routine)
{
    t->doc = read_text(xb_build(b), &t->d);
    ck_assert_msg(t->doc != NULL, "%s", first_message(t->d));
    t->a = xf_arena_new();
    t->v = (xf_loopdep_vec){0};
    bool seen = false;
    for (uint32_t r = 0; r < t->doc->cg.routines.n; r++) {
        const xf_routine *rt = t->doc->cg.routines.v[r];
        if (!rt->sym || strcmp(rt->sym->id, routine))
            continue;
        ck_assert_int_eq(xf_loopdep_routine(t->doc, rt, t->a, &t->v), 0);
        seen = true;
    }
    ck_assert_msg(seen, "no routine %s", routine);
    xb_free(b);
}

static void
la_fini(la *t)
{
    xf_arena_free(t->a);
    xf_doc_free(t->doc);
    xf_diag_free(t->d);
}

/* The report's line for loop @k. */
static char *
line_of(const la *t, uint32_t k)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    xf_loopdep_print(f, &t->v.v[k]);
    fclose(f);
    return buf;
}

#define ASSERT_LINE_HAS(t, k, text)                                                                \
    do {                                                                                           \
        char *l_ = line_of((t), (k));                                                              \
        ck_assert_msg(strstr(l_, (text)) != NULL, "'%s' not in: %s", (text), l_);                  \
        free(l_);                                                                                  \
    } while (0)

static const char *
sym_id(const xf_ldref *r)
{
    return r->sym ? r->sym->id : "";
}

/* ---- independent iterations */

/* A scalar set before it is read in each iteration, the element a(i) of
 * the iteration's own, other elements of an array the loop only reads:
 * parallel; nothing after the loop reads t or a, and the loop writes no
 * output: terminal. */
START_TEST(private_scalars_and_elements)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 1, NULL, "real t; real a(12); real c(12); integer i");
    xg_bb(g, "y(1) = x(2)");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "[s1@5] t = x(1) * i; [s2@6] a(i) = t * t; [s3@7] a(i) = a(i) + c(i + 2) * t");
    xg_end(g);
    la t;
    analyse(&t, b, "head");
    ck_assert_uint_eq(t.v.n, 1);
    const xf_loopdep *d = &t.v.v[0];
    ck_assert_msg(d->parallel, "why %s", xf_ldwhy_name(d->why));
    ck_assert_str_eq(d->index->id, "i");
    ck_assert_uint_eq(d->reductions.n, 0);
    ck_assert_int_eq(d->terminal, XF_LT_YES);
    ASSERT_LINE_HAS(&t, 0, "ForLoop i, depth 0: parallel yes; reductions none; terminal yes");
    la_fini(&t);
}
END_TEST

/* s = s + e and r(conn(i)) = r(conn(i)) + e (any subscripts, e not
 * reading the variable) are reductions: parallel, and recorded. */
START_TEST(additive_reductions)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 1, NULL, "real s; real r(4); integer conn(10); integer i; integer k");
    xg_bb(g, "s = 0; k = 0");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "conn(i) = i / 3 + 1");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "[s1@8] s = s + x(1) * i; [s2@9] r(conn(i)) = r(conn(i)) + sin(x(2) * i); "
             "[s3@10] k = k + 1; [s4@11] s = s - x(2)");
    xg_end(g);
    xg_bb(g, "y(1) = s + r(1) + k");
    la t;
    analyse(&t, b, "head");
    ck_assert_uint_eq(t.v.n, 2);
    const xf_loopdep *d = &t.v.v[1];
    ck_assert_msg(d->parallel, "why %s", xf_ldwhy_name(d->why));
    ck_assert_uint_eq(d->reductions.n, 3);
    ck_assert_str_eq(sym_id(&d->reductions.v[0]), "s");
    ck_assert_str_eq(sym_id(&d->reductions.v[1]), "r");
    ck_assert_str_eq(sym_id(&d->reductions.v[2]), "k");
    ASSERT_LINE_HAS(&t, 1, "reductions s, r, k;");
    /* s, r and k are read after the loop */
    ck_assert_int_eq(d->terminal, XF_LT_READ_AFTER);
    /* the first loop writes conn(i) only: parallel, read by the second */
    ck_assert(t.v.v[0].parallel);
    ck_assert_int_eq(t.v.v[0].terminal, XF_LT_READ_AFTER);
    ck_assert_str_eq(sym_id(&t.v.v[0].used), "conn");
    la_fini(&t);
}
END_TEST

/* An update that also reads the variable elsewhere is no reduction:
 * r(conn(i)) = r(conn(i)) + r(1) carries a dependence through r. */
START_TEST(update_reading_itself_elsewhere)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 1, NULL, "real r(4); integer conn(10); integer i");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "[s1@4] r(conn(i)) = r(conn(i)) + r(1) * x(1)");
    xg_end(g);
    xg_bb(g, "y(1) = r(2)");
    la t;
    analyse(&t, b, "head");
    const xf_loopdep *d = &t.v.v[0];
    ck_assert(!d->parallel);
    ck_assert_int_eq(d->why, XF_LD_SUBSCRIPT);
    ck_assert_str_eq(sym_id(&d->dep_a), "r");
    ck_assert_uint_eq(d->reductions.n, 0);
    la_fini(&t);
}
END_TEST

/* Both arms of a branch write t: a later read is covered (parallel). With
 * one arm only, the read sees the last iteration's t. */
START_TEST(branches_cover_reads)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 1, NULL, "real t; real a(10); integer i");
    xg_bb(g, "t = 0");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_if(g, "x(1) > i");
    xg_bb(g, "t = x(1)");
    xg_else(g);
    xg_bb(g, "t = x(2)");
    xg_end(g);
    xg_bb(g, "a(i) = t * 2");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_if(g, "x(1) > i");
    xg_bb(g, "[s1@20] t = x(1) * t");
    xg_end(g);
    xg_bb(g, "[s2@21] a(i) = t * 2");
    xg_end(g);
    xg_bb(g, "y(1) = a(3)");
    la t;
    analyse(&t, b, "head");
    ck_assert_uint_eq(t.v.n, 2);
    ck_assert_msg(t.v.v[0].parallel, "why %s", xf_ldwhy_name(t.v.v[0].why));
    const xf_loopdep *d = &t.v.v[1];
    ck_assert(!d->parallel);
    ck_assert_int_eq(d->why, XF_LD_SCALAR);
    ck_assert_str_eq(sym_id(&d->dep_b), "t");
    ck_assert_int_eq(d->dep_b.line, 20);
    ASSERT_LINE_HAS(&t, 1,
                    "parallel no (scalar t: read at line 20 before the iteration writes "
                    "it at line 20)");
    la_fini(&t);
}
END_TEST

/* ---- dependences */

/* p = p * x(1): a scalar read before the iteration writes it. */
START_TEST(scalar_carried)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 1, NULL, "real p; integer i");
    xg_bb(g, "p = 1");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "[s1@7] p = p * x(1)");
    xg_end(g);
    xg_bb(g, "y(1) = p");
    la t;
    analyse(&t, b, "head");
    const xf_loopdep *d = &t.v.v[0];
    ck_assert(!d->parallel);
    ck_assert_int_eq(d->why, XF_LD_SCALAR);
    ck_assert_str_eq(sym_id(&d->dep_a), "p");
    ck_assert_int_eq(d->dep_a.line, 7);
    ck_assert_uint_eq(d->reductions.n, 0);
    ck_assert_int_eq(d->terminal, XF_LT_READ_AFTER);
    ASSERT_LINE_HAS(&t, 0, "terminal no (p read at line ");
    la_fini(&t);
}
END_TEST

/* a(i) = a(i - 1) * x(1): the element written one iteration earlier. */
START_TEST(array_offsets)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 1, NULL, "real a(10); real c(2, 10); integer i");
    xg_bb(g, "a(1) = x(1)");
    xg_for(g, "i = 2", "i <= 10", "i = i + 1");
    xg_bb(g, "[s1@6] a(i) = a(i - 1) * x(1)");
    xg_end(g);
    /* the same offset in another dimension than a constant that differs:
     * c(1, i) and c(2, i + 1) never meet */
    xg_for(g, "i = 1", "i <= 9", "i = i + 1");
    xg_bb(g, "[s2@8] c(1, i) = c(2, i + 1) * x(2)");
    xg_end(g);
    /* a(2 * i) written, a(2 * i + 1) read: never the same element */
    xg_for(g, "i = 1", "i <= 4", "i = i + 1");
    xg_bb(g, "[s3@10] a(2 * i) = a(2 * i + 1) * x(2)");
    xg_end(g);
    /* a(2 * i) written, a(2 * i + 4) read: two iterations later */
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "[s4@12] a(2 * i) = a(2 * i + 4) * x(2)");
    xg_end(g);
    xg_bb(g, "y(1) = a(10) + c(1, 3)");
    la t;
    analyse(&t, b, "head");
    ck_assert_uint_eq(t.v.n, 4);
    const xf_loopdep *d = &t.v.v[0];
    ck_assert(!d->parallel);
    ck_assert_int_eq(d->why, XF_LD_OFFSET);
    ck_assert_int_eq(d->distance, 1);
    ASSERT_LINE_HAS(&t, 0,
                    "parallel no (offset a: a(i) written at line 6, a(i - 1) at line 6, "
                    "1 iteration later)");
    ck_assert_msg(t.v.v[1].parallel, "why %s", xf_ldwhy_name(t.v.v[1].why));
    ck_assert_msg(t.v.v[2].parallel, "why %s", xf_ldwhy_name(t.v.v[2].why));
    ck_assert(!t.v.v[3].parallel);
    ck_assert_int_eq(t.v.v[3].why, XF_LD_OFFSET);
    ck_assert_int_eq(t.v.v[3].distance, -2);
    la_fini(&t);
}
END_TEST

/* Subscripts that cannot tell iterations apart: an element named by a
 * variable the loop assigns, an indirect write that is no reduction, one
 * element in every iteration. A subscript that does not change with i but
 * differs in both accesses by a constant stays independent. */
START_TEST(subscripts_that_do_not_separate)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 1, NULL,
                     "real a(10); real r(10); integer conn(10); integer i; integer j; integer n");
    xg_bb(g, "n = 2");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "j = 4 - i; [s1@5] a(j) = x(1) * i");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "[s2@7] r(conn(i)) = x(1) * i");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "[s3@9] y(1) = y(1) * x(2)");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "[s4@11] a(n + 1) = a(n) * x(2)");
    xg_end(g);
    la t;
    analyse(&t, b, "head");
    ck_assert_uint_eq(t.v.n, 4);
    for (int k = 0; k < 3; k++) {
        ck_assert_msg(!t.v.v[k].parallel, "loop %d", k);
        ck_assert_int_eq(t.v.v[k].why, XF_LD_SUBSCRIPT);
    }
    ck_assert_str_eq(sym_id(&t.v.v[0].dep_a), "a");
    ck_assert_str_eq(sym_id(&t.v.v[1].dep_a), "r");
    ck_assert(!t.v.v[1].same_element);
    ck_assert(t.v.v[2].same_element);
    ASSERT_LINE_HAS(&t, 2,
                    "y(1) written at line 9, y(1) at line 9, the same element in every "
                    "iteration");
    /* a(n + 1) written, a(n) read: the same two elements in every
     * iteration, so a dependence too */
    ck_assert(!t.v.v[3].parallel);
    la_fini(&t);
}
END_TEST

/* The body assigns the loop variable; a while loop has none. */
START_TEST(index_written_and_while)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 1, NULL, "real a(10); integer i; integer k");
    xg_for(g, "i = 1", "i <= 9", "i = i + 1");
    xg_bb(g, "a(i) = x(1); [s1@5] i = i + 1");
    xg_end(g);
    xg_bb(g, "k = 3");
    xg_while(g, "k > 0");
    xg_bb(g, "a(k) = x(2); k = k - 1");
    xg_end(g);
    xg_bb(g, "y(1) = a(1)");
    la t;
    analyse(&t, b, "head");
    ck_assert_uint_eq(t.v.n, 2);
    ck_assert(!t.v.v[0].parallel);
    ck_assert_int_eq(t.v.v[0].why, XF_LD_INDEX_WRITTEN);
    ck_assert_int_eq(t.v.v[0].dep_a.line, 5);
    ck_assert(!t.v.v[1].parallel);
    ck_assert_int_eq(t.v.v[1].why, XF_LD_NO_INDEX);
    ck_assert_ptr_null(t.v.v[1].index);
    ASSERT_LINE_HAS(&t, 1, "PreLoop, depth 0: parallel no (while");
    la_fini(&t);
}
END_TEST

/* ---- calls */

/* @text with @ins inserted after the first occurrence of @after (malloc'd). */
static char *
insert_after(const char *text, const char *after, const char *ins)
{
    const char *at = strstr(text, after);
    ck_assert_msg(at != NULL, "fixture: '%s' not found", after);
    at += strlen(after);
    size_t n1 = (size_t)(at - text), n2 = strlen(ins), n3 = strlen(at);
    char *out = malloc(n1 + n2 + n3 + 1);
    ck_assert_ptr_nonnull(out);
    memcpy(out, text, n1);
    memcpy(out + n1, ins, n2);
    memcpy(out + n1 + n2, at, n3 + 1);
    return out;
}

/* The side-effect lists of f(a, c), after its ArgumentList: @mod and @read
 * are SymbolReferences (scope:symbol pairs "3:a 1:g"). */
static char *
with_lists(const char *text, const char *mod, const char *read)
{
    char lists[2048];
    size_t n = 0;
    const char *spec[2] = {mod, read}, *el[2] = {"Mod", "Read"};
    for (int k = 0; k < 2; k++) {
        n += (size_t)snprintf(lists + n, sizeof lists - n, "<xaif:%sLocal/><xaif:%s>\n", el[k],
                              el[k]);
        char buf[256];
        snprintf(buf, sizeof buf, "%s", spec[k]);
        for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
            char *colon = strchr(tok, ':');
            ck_assert_ptr_nonnull(colon);
            *colon = 0;
            n += (size_t)snprintf(lists + n, sizeof lists - n,
                                  "<xaif:SideEffectReference vertex_id=\"1\">"
                                  "<xaif:SymbolReference vertex_id=\"1\" scope_id=\"%s\" "
                                  "symbol_id=\"%s\"/></xaif:SideEffectReference>\n",
                                  tok, colon + 1);
        }
        n += (size_t)snprintf(lists + n, sizeof lists - n, "</xaif:%s>\n", el[k]);
    }
    /* ModLocal, Mod, ReadLocal, Read: the schema's order */
    return insert_after(text,
                        "controlflowgraph_scope_id=\"3\">\n<xaif:ArgumentList>\n"
                        "<xaif:ArgumentSymbolReference position=\"1\" scope_id=\"3\" "
                        "symbol_id=\"a\"/>\n<xaif:ArgumentSymbolReference position=\"2\" "
                        "scope_id=\"3\" symbol_id=\"c\"/>\n</xaif:ArgumentList>\n",
                        lists);
}

/* head calls f(t, x(1)) in a loop and reads t after the call; f's lists decide. */
static xb *
calling(void)
{
    xb *b = xb_new("calling");
    head_scopes(b, 2, 1, "sub f; real g", "real t; real a(10); integer i");
    xg *g = xb_cfg(b, "head", 2, "x y");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "[s1@5] call f(t, x(1)); [s2@6] a(i) = t * i");
    xg_end(g);
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real a; real c");
    xg_bb(xb_cfg(b, "f", 3, "a c"), "a = c * c; g = g + a");
    return b;
}

static void
analyse_text(la *t, const char *text)
{
    t->doc = read_text(text, &t->d);
    ck_assert_msg(t->doc != NULL, "%s", first_message(t->d));
    t->a = xf_arena_new();
    t->v = (xf_loopdep_vec){0};
    ck_assert_int_eq(xf_loopdep_routine(t->doc, t->doc->cg.routines.v[0], t->a, &t->v), 0);
}

START_TEST(calls_by_their_side_effects)
{
    /* f writes its first formal and reads its second: t is set by the call
     * in each iteration, then read: private */
    xb *b = calling();
    char *text = with_lists(xb_build(b), "3:a", "3:c");
    la t;
    analyse_text(&t, text);
    ck_assert_uint_eq(t.v.n, 1);
    ck_assert_msg(t.v.v[0].parallel, "why %s", xf_ldwhy_name(t.v.v[0].why));
    la_fini(&t);
    free(text);
    /* f also reads and writes the global g: carried through g, at the call */
    text = with_lists(xb_build(b), "3:a 1:g", "3:c 1:g");
    analyse_text(&t, text);
    ck_assert(!t.v.v[0].parallel);
    ck_assert_int_eq(t.v.v[0].why, XF_LD_SCALAR);
    ck_assert_str_eq(sym_id(&t.v.v[0].dep_b), "g");
    ck_assert_int_eq(t.v.v[0].dep_b.line, 5);
    la_fini(&t);
    free(text);
    /* f writes g only: no dependence; g is global, but nobody calls head
     * (the top routine): terminal */
    text = with_lists(xb_build(b), "3:a 1:g", "3:c");
    analyse_text(&t, text);
    ck_assert(t.v.v[0].parallel);
    ck_assert_int_eq(t.v.v[0].terminal, XF_LT_YES);
    la_fini(&t);
    free(text);
    /* without lists: the call's effects are unknown */
    analyse_text(&t, xb_build(b));
    ck_assert(!t.v.v[0].parallel);
    ck_assert_int_eq(t.v.v[0].why, XF_LD_CALL);
    ck_assert_str_eq(t.v.v[0].callee, "f");
    ASSERT_LINE_HAS(&t, 0, "parallel no (call f at line 5: its effects are unknown)");
    la_fini(&t);
    xb_free(b);
}
END_TEST

/* @text with every @from replaced by @to (malloc'd). */
static char *
replace_all(const char *text, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), n = 0;
    for (const char *p = strstr(text, from); p; p = strstr(p + nf, from))
        n++;
    char *out = malloc(strlen(text) + n * (nt + 1) + 1), *o = out;
    ck_assert_ptr_nonnull(out);
    for (const char *p = text, *q; *p; p = q + nf) {
        q = strstr(p, from);
        if (!q) {
            strcpy(o, p);
            return out;
        }
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, to, nt);
        o += nt;
        *o = 0;
    }
    return out;
}

/* p(i) = q(i) * x(1): independent, unless the alias map lets p and q share
 * storage (as formals bound to overlapping actuals may). */
START_TEST(aliased_storage)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 1, NULL, "real p(10); real q(10); integer i");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "[s1@4] p(i) = q(i) * x(1)");
    xg_end(g);
    xg_bb(g, "y(1) = p(2)");
    const char *text = xb_build(b);
    static const char *const maps[2] = {
        "<xaif:AliasSet key=\"1\"><xaif:AliasRange from_virtual_address=\"1\" "
        "to_virtual_address=\"10\"/></xaif:AliasSet><xaif:AliasSet key=\"2\"><xaif:AliasRange "
        "from_virtual_address=\"11\" to_virtual_address=\"20\"/></xaif:AliasSet>",
        "<xaif:AliasSet key=\"1\"><xaif:AliasRange from_virtual_address=\"1\" "
        "to_virtual_address=\"10\"/></xaif:AliasSet><xaif:AliasSet key=\"2\"><xaif:AliasRange "
        "from_virtual_address=\"5\" to_virtual_address=\"14\"/></xaif:AliasSet>"};
    for (int k = 0; k < 2; k++) {
        char map[600];
        snprintf(map, sizeof map, "<xaif:AliasSet key=\"0\"/>%s", maps[k]);
        char *t1 = replace_all(text, "<xaif:AliasSet key=\"0\"/>", map);
        char *t2 = replace_all(
            t1,
            "<xaif:AssignmentLHS><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "
            "symbol_id=\"p\"/>",
            "<xaif:AssignmentLHS alias=\"1\"><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "
            "symbol_id=\"p\"/>");
        char *t3 = replace_all(
            t2, "\"><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" symbol_id=\"q\"/>",
            "\" alias=\"2\"><xaif:SymbolReference vertex_id=\"1\" scope_id=\"2\" "
            "symbol_id=\"q\"/>");
        la t;
        analyse_text(&t, t3);
        ck_assert_uint_eq(t.v.n, 1);
        if (k == 0)
            ck_assert_msg(t.v.v[0].parallel, "why %s", xf_ldwhy_name(t.v.v[0].why));
        else {
            ck_assert(!t.v.v[0].parallel);
            ck_assert_int_eq(t.v.v[0].why, XF_LD_ALIAS);
            ck_assert_str_eq(sym_id(&t.v.v[0].dep_a), "p");
            ck_assert_str_eq(sym_id(&t.v.v[0].dep_b), "q");
            ASSERT_LINE_HAS(&t, 0,
                            "parallel no (alias p: p(i) written at line 4, may share storage "
                            "with q(i) at line 4)");
        }
        la_fini(&t);
        free(t1);
        free(t2);
        free(t3);
    }
    xb_free(b);
}
END_TEST

/* ---- terminal */

/* Nested loops: the inner one writes b(j, i), which the outer one reads
 * after it: the inner loop is not terminal. The outer one writes y, an
 * output of head, which drv calls: terminal in joint reversal only. A
 * variable written again as a whole after the loop before it is read does
 * not count (t, i). */
START_TEST(terminal_loops)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 3, "sub drv", "real b(4, 3); real t; integer i; integer j");
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_for(g, "j = 1", "j <= 4", "j = j + 1");
    xg_bb(g, "[s1@6] b(j, i) = x(1) * j * i");
    xg_end(g);
    xg_bb(g, "[s2@8] y(i) = b(1, i) + b(4, i)");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 3", "i = i + 1");
    xg_bb(g, "t = x(2) * i");
    xg_end(g);
    xg_bb(g, "t = 2; i = 1; y(2) = t * i");
    /* head has a caller */
    xb_scope(b, 3, 1);
    xb_syms(b, 3, "real u(2); real v(3)");
    xg_bb(xb_cfg(b, "drv", 3, "u v"), "call head(u, v)");
    la t;
    analyse(&t, b, "head");
    ck_assert_uint_eq(t.v.n, 3);
    ck_assert_int_eq(t.v.v[1].depth, 1);
    ck_assert(t.v.v[0].parallel && t.v.v[1].parallel);
    ck_assert_int_eq(t.v.v[0].terminal, XF_LT_OUTPUT);
    ck_assert_str_eq(sym_id(&t.v.v[0].used), "y");
    ck_assert_int_eq(t.v.v[1].terminal, XF_LT_READ_AFTER);
    ck_assert_str_eq(sym_id(&t.v.v[1].used), "b");
    ck_assert_int_eq(t.v.v[1].used.line, 8);
    /* t and i are set again before y reads them */
    ck_assert(t.v.v[2].parallel);
    ck_assert_int_eq(t.v.v[2].terminal, XF_LT_YES);
    ASSERT_LINE_HAS(&t, 0, "terminal joint (writes y(i) at line 8, an output of the routine");
    la_fini(&t);
}
END_TEST

/* An inner loop whose results the next outer iteration reads (and writes
 * again) but nothing else in its own outer iteration: not terminal, a real
 * it accesses written after it, and terminal within the outer iteration,
 * with nothing written after it there; with a read of y after it in the
 * outer body, not terminal within the iteration either. At the top level
 * the facts within an iteration are the facts. */
START_TEST(terminal_within_iteration)
{
    for (int after = 0; after < 2; after++) {
        xb *b = XB_NEW();
        xg *g = head_cfg(b, 2, 2, NULL, "real t; real u; integer i; integer j");
        xg_for(g, "i = 1", "i <= 6", "i = i + 1");
        xg_bb(g, "t = x(1) * i; y(2) = y(2) + cos_scal(t) * x(2)");
        xg_for(g, "j = 1", "j <= 4", "j = j + 1");
        xg_bb(g, "y(1) = y(1) + sin_scal(t * j) * x(2)");
        xg_end(g);
        if (after)
            xg_bb(g, "[s1@9] u = y(1) * 2");
        xg_end(g);
        la t;
        analyse(&t, b, "head");
        ck_assert_uint_eq(t.v.n, 2);
        const xf_loopdep *o = &t.v.v[0], *d = &t.v.v[1];
        ck_assert(d->parallel);
        ck_assert_int_eq(d->terminal, XF_LT_READ_AFTER);
        ck_assert_ptr_nonnull(d->after_write.sym); /* t, in the next outer iteration */
        ck_assert_ptr_null(d->after_write_in.sym);
        ck_assert_int_eq(d->terminal_in, after ? XF_LT_READ_AFTER : XF_LT_YES);
        ck_assert_int_eq(o->terminal_in, o->terminal);
        ck_assert_ptr_eq(o->after_write_in.sym, o->after_write.sym);
        la_fini(&t);
    }
}
END_TEST

/* A nest of 200 loops around 400 assignments (issue 26): each loop's
 * terminal test walks the enclosing bodies once per level, not once per
 * loop around them, so the analysis stays inside its work budget
 * (D x D x B walked before: about 56 million, past the budget; now about
 * a million), with the facts of a small nest: t carried by every loop,
 * and read in the next outer iteration after the innermost. */
START_TEST(a_deep_nest_stays_within_the_budget)
{
    enum { D = 200, B = 400 };
    char *locals = malloc(32 * D + 64), *body = malloc(32 * B + 64);
    ck_assert(locals && body);
    size_t n = (size_t)sprintf(locals, "real t");
    for (int k = 1; k <= D; k++)
        n += (size_t)sprintf(locals + n, "; integer i%d", k);
    n = 0;
    for (int k = 0; k < B; k++)
        n += (size_t)sprintf(body + n, "t = t * x(1) + x(2); ");
    sprintf(body + n, "y(1) = t");
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 1, NULL, locals);
    for (int k = 1; k <= D; k++) {
        char init[32], cond[32], upd[48];
        snprintf(init, sizeof init, "i%d = 1", k);
        snprintf(cond, sizeof cond, "i%d <= 2", k);
        snprintf(upd, sizeof upd, "i%d = i%d + 1", k, k);
        xg_for(g, init, cond, upd);
    }
    xg_bb(g, body);
    for (int k = 1; k <= D; k++)
        xg_end(g);
    la t;
    analyse(&t, b, "head");
    ck_assert_uint_eq(t.v.n, D);
    const xf_loopdep *outer = &t.v.v[0], *inner = &t.v.v[D - 1];
    ck_assert_uint_eq(inner->depth, D - 1);
    ck_assert(!outer->parallel && !inner->parallel);
    ck_assert_int_eq(inner->why, XF_LD_SCALAR);
    ck_assert_str_eq(sym_id(&inner->dep_b), "t");
    ck_assert_int_eq(inner->terminal, XF_LT_READ_AFTER);
    ck_assert_str_eq(sym_id(&inner->used), "t");
    ck_assert_str_eq(sym_id(&inner->after_write), "t");
    ck_assert_int_eq(inner->terminal_in, XF_LT_YES);
    la_fini(&t);
    free(locals);
    free(body);
}
END_TEST

/* Control flow that does not nest: reported, not analysed. */
START_TEST(unstructured_not_analysed)
{
    xb *b = XB_NEW();
    head_scopes(b, 2, 1, NULL, "integer i");
    xb_unstructured(b, "head");
    xg *g = xb_cfg_raw(b, "head", 2, "x y");
    int e = xg_v_plain(g, "Entry");
    int l = xg_v_for(g, "i = 1", "i <= 3", "i = i + 1");
    int body = xg_v_bb(g, "y(1) = y(1) * x(1)");
    int out = xg_v_bb(g, "y(1) = y(1) + 1");
    int end = xg_v_plain(g, "EndLoop");
    int x = xg_v_plain(g, "Exit");
    xg_edge(g, e, l, LONG_MIN);
    xg_edge(g, l, body, 1);
    xg_edge(g, l, end, 0);
    xg_edge(g, body, l, LONG_MIN); /* back to the header past EndLoop */
    xg_edge(g, body, out, LONG_MIN);
    xg_edge(g, end, out, LONG_MIN);
    xg_edge(g, out, x, LONG_MIN);
    la t;
    analyse(&t, b, "head");
    ck_assert_uint_eq(t.v.n, 1);
    ck_assert(!t.v.v[0].parallel);
    ck_assert_int_eq(t.v.v[0].why, XF_LD_UNSTRUCTURED);
    ck_assert_int_eq(t.v.v[0].terminal, XF_LT_UNKNOWN);
    la_fini(&t);
}
END_TEST

/* ---- the iteration-wise adjoint (iterwise.c), executed */

/* The adjoint of @b with --iteration-wise (@iw 1) or --iteration-wise-joint
 * (2) or neither (0), validated, run under @drv with n = 2 inputs and m = 2
 * outputs: the Jacobian in *@J, the counts in *@st. */
static void
iw_run_as(xb *b, int iw, bool dry, bool no_invert, xf_driver drv, xf_jacobian *J, xf_run_stats *st)
{
    xf_diag *d;
    xf_doc *doc = read_text(xb_build(b), &d);
    ck_assert_msg(doc != NULL, "%s", first_message(d));
    const xf_pass *passes[XF_PM_MAX];
    char err[256];
    int n = xf_pipeline_parse("adjoint", passes, XF_PM_MAX, err, sizeof err);
    ck_assert_msg(n > 0, "%s", err);
    /* through the options' own parsers, as the command line sets them */
    xf_opts o;
    xf_pm_opts_init(&o);
    if (iw)
        ck_assert_int_eq(xf_pm_option(&o, iw == 2 ? "iteration-wise-joint" : "iteration-wise", NULL,
                                      err, sizeof err),
                         0);
    if (dry)
        ck_assert_int_eq(xf_pm_option(&o, "dry-run", NULL, err, sizeof err), 0);
    if (no_invert)
        ck_assert_int_eq(xf_pm_option(&o, "tape-off", "invert", err, sizeof err), 0);
    xf_pass_ctx ctx = {.doc = doc, .opts = &o, .diag = d, .catalogue = cat, .direct = direct};
    ck_assert_msg(xf_pipeline_run(&ctx, passes, n) == 0, "%s", first_message(d));
    char *text;
    size_t len;
    ck_assert_int_eq(xf_write_memory(doc, &text, &len, d), 0);
    xf_doc_free(doc);
    ck_assert_msg(xf_schema_validate_memory(schema, text, len, "iw.xaif", d) == 0, "%s",
                  first_message(d));
    xf_doc *out = xf_read_memory(text, len, "iw.xaif", NULL, d);
    ck_assert_ptr_nonnull(out);
    xf_run_opts ro = {.driver = drv, .params = {.n = 2, .m = 2, .h = 1e-7}};
    ck_assert_msg(xf_run(out, &ro, J, st, d) == 0, "%s", first_message(d));
    for (int w = 0; w < XF_WORD_KINDS; w++)
        ck_assert_uint_eq(st->push[w], st->pop[w]);
    xf_doc_free(out);
    free(text);
    xf_diag_free(d);
    xb_free(b);
}

static void
iw_run(xb *b, int iw, xf_driver drv, xf_jacobian *J, xf_run_stats *st)
{
    iw_run_as(b, iw, false, false, drv, J, st);
}

/* a(i) from x (a loop whose results the next one reads), then y from a
 * and x in a terminal loop with reductions; with @formals_only the
 * terminal loop reads x alone. */
static xb *
two_loops_as(bool formals_only, const char *reversal)
{
    xb *b = xb_new("two_loops");
    xg *g = head_cfg(b, 2, 2, NULL, "real a(10); real t; integer i");
    xg_bb(g, "y(1) = 0; y(2) = 0");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "a(i) = x(1) * i + sin_scal(x(2) * i)");
    xg_end(g);
    xg_bb(g, "y(1) = a(3) * x(2)");
    g->reversal = reversal;
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    if (formals_only)
        xg_bb(g, "t = exp_scal(x(1) * 0.1 * i); y(1) = y(1) + t * x(2); y(2) = y(2) + t * t");
    else
        xg_bb(g, "t = exp_scal(a(i) * 0.1); y(1) = y(1) + t * x(2); y(2) = y(2) + t * a(i)");
    xg_end(g);
    return b;
}

static xb *
two_loops(bool formals_only)
{
    return two_loops_as(formals_only, NULL);
}

static void
assert_same_jacobian(const xf_jacobian *a, const xf_jacobian *b)
{
    assert_jacobians_equal(a, b, "without the iteration-wise adjoint");
}

/* The terminal loop reads only the formal x: --iteration-wise applies, in
 * joint and split reversal; the same Jacobian, and the peak tape falls by
 * at least one word per iteration (10). */
START_TEST(iteration_wise_formals)
{
    for (int s = 0; s < 2; s++) {
        xf_driver drv = s ? XF_DRIVER_ADJOINT_SPLIT : XF_DRIVER_ADJOINT_JOINT;
        xf_jacobian J0, J1;
        xf_run_stats st0, st1;
        iw_run(two_loops(true), 0, drv, &J0, &st0);
        iw_run(two_loops(true), 1, drv, &J1, &st1);
        assert_same_jacobian(&J1, &J0);
        ck_assert_msg(st0.peak_tape - st1.peak_tape >= 10, "%s: peak tape %lld, was %lld",
                      xf_driver_name(drv), (long long)st1.peak_tape, (long long)st0.peak_tape);
        /* the same work: every word pushed is still pushed and popped */
        ck_assert_uint_eq(st1.muls, st0.muls);
        xf_jacobian_fini(&J0);
        xf_jacobian_fini(&J1);
    }
}
END_TEST

/* --dry-run: the first loop, parallel but not terminal (y(1) reads a(3)
 * after it), reading only x, runs untaped in the taping sweep and again,
 * iteration by iteration, in the adjoint sweep: the same Jacobian under
 * both drivers, the peak at least one word per iteration (10) lower than
 * with --iteration-wise alone. */
START_TEST(dry_run_not_terminal)
{
    for (int s = 0; s < 2; s++) {
        xf_driver drv = s ? XF_DRIVER_ADJOINT_SPLIT : XF_DRIVER_ADJOINT_JOINT;
        xf_jacobian J0, J1;
        xf_run_stats st0, st1;
        /* the baseline with loop inversion, as --dry-run has it */
        iw_run_as(two_loops(true), 1, false, false, drv, &J0, &st0);
        iw_run_as(two_loops(true), 1, true, false, drv, &J1, &st1);
        assert_same_jacobian(&J1, &J0);
        ck_assert_msg(st0.peak_tape - st1.peak_tape >= 10, "%s: peak tape %lld, was %lld",
                      xf_driver_name(drv), (long long)st1.peak_tape, (long long)st0.peak_tape);
        /* the loop runs twice: more operations, the same tape words */
        ck_assert_uint_eq(st1.push[0] + st1.push[1], st0.push[0] + st0.push[1]);
        ck_assert_uint_gt(st1.muls, st0.muls);
        xf_jacobian_fini(&J0);
        xf_jacobian_fini(&J1);
    }
}
END_TEST

/* A parallel loop whose input is overwritten after it cannot run again
 * (a(i) from b(i), then b(1) = 0): no dry run. */
START_TEST(dry_run_refused_input_overwritten)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 2, NULL, "real a(10); real c(10); integer i");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "c(i) = x(1) * i");
    xg_end(g);
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "[s1@6] a(i) = sin_scal(c(i))");
    xg_end(g);
    xg_bb(g, "[s2@8] c(1) = 0; y(1) = a(2) * x(2); y(2) = c(1)");
    la t;
    analyse(&t, b, "head");
    ck_assert_uint_eq(t.v.n, 2);
    ck_assert(t.v.v[1].parallel);
    ck_assert_int_eq(t.v.v[1].terminal, XF_LT_READ_AFTER);
    ck_assert_str_eq(sym_id(&t.v.v[1].input_overwritten), "c");
    ck_assert_int_eq(t.v.v[1].input_overwritten.line, 8);
    la_fini(&t);
}
END_TEST

/* The same with the terminal loop marked reversal="explicit" (the adjoint
 * sweep runs it backwards; it keeps running, over empty blocks). */
START_TEST(iteration_wise_explicit_loop)
{
    for (int s = 0; s < 2; s++) {
        xf_driver drv = s ? XF_DRIVER_ADJOINT_SPLIT : XF_DRIVER_ADJOINT_JOINT;
        xf_jacobian J0, J1;
        xf_run_stats st0, st1;
        iw_run(two_loops_as(true, "explicit"), 0, drv, &J0, &st0);
        iw_run(two_loops_as(true, "explicit"), 1, drv, &J1, &st1);
        assert_same_jacobian(&J1, &J0);
        ck_assert_msg(st0.peak_tape - st1.peak_tape >= 10, "%s: peak tape %lld, was %lld",
                      xf_driver_name(drv), (long long)st1.peak_tape, (long long)st0.peak_tape);
        xf_jacobian_fini(&J0);
        xf_jacobian_fini(&J1);
    }
}
END_TEST

/* The terminal loop reads the local a: --iteration-wise leaves it (split
 * reversal would lose a's adjoint); --iteration-wise-joint takes it, right
 * under the joint driver. */
START_TEST(iteration_wise_locals_joint_only)
{
    xf_jacobian J0, J1, J2;
    xf_run_stats st0, st1, st2;
    iw_run(two_loops(false), 0, XF_DRIVER_ADJOINT_JOINT, &J0, &st0);
    iw_run(two_loops(false), 1, XF_DRIVER_ADJOINT_JOINT, &J1, &st1);
    iw_run(two_loops(false), 2, XF_DRIVER_ADJOINT_JOINT, &J2, &st2);
    assert_same_jacobian(&J1, &J0);
    ck_assert_int_eq(st1.peak_tape, st0.peak_tape);
    assert_same_jacobian(&J2, &J0);
    ck_assert_msg(st0.peak_tape - st2.peak_tape >= 10, "peak tape %lld, was %lld",
                  (long long)st2.peak_tape, (long long)st0.peak_tape);
    xf_jacobian_fini(&J0);
    xf_jacobian_fini(&J1);
    xf_jacobian_fini(&J2);
}
END_TEST

/* A terminal parallel loop followed by a statement that writes what it
 * reads: not adjoined early (the adjoint of that write would reset what
 * the loop's adjoint added). */
START_TEST(iteration_wise_refused_after_write)
{
    xb *b = XB_NEW();
    xg *g = head_cfg(b, 2, 2, NULL, "real t; integer i");
    xg_bb(g, "y(1) = 0; y(2) = x(2)");
    xg_for(g, "i = 1", "i <= 10", "i = i + 1");
    xg_bb(g, "[s1@5] t = sin_scal(x(1) * i); y(1) = y(1) + t * x(2)");
    xg_end(g);
    xg_bb(g, "[s2@8] x(2) = 0");
    la t;
    analyse(&t, b, "head");
    ck_assert(t.v.v[0].parallel);
    ck_assert_int_eq(t.v.v[0].terminal, XF_LT_YES);
    ck_assert_str_eq(sym_id(&t.v.v[0].after_write), "x");
    ck_assert_int_eq(t.v.v[0].after_write.line, 8);
    ck_assert_ptr_null(t.v.v[0].local_input.sym);
    la_fini(&t);
}
END_TEST

Suite *
test_loopdep_suite(void)
{
    Suite *s = suite_create("loopdep");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, private_scalars_and_elements);
    tcase_add_test(tc, additive_reductions);
    tcase_add_test(tc, update_reading_itself_elsewhere);
    tcase_add_test(tc, branches_cover_reads);
    tcase_add_test(tc, scalar_carried);
    tcase_add_test(tc, array_offsets);
    tcase_add_test(tc, subscripts_that_do_not_separate);
    tcase_add_test(tc, index_written_and_while);
    tcase_add_test(tc, calls_by_their_side_effects);
    tcase_add_test(tc, aliased_storage);
    tcase_add_test(tc, terminal_loops);
    tcase_add_test(tc, terminal_within_iteration);
    tcase_add_test(tc, a_deep_nest_stays_within_the_budget);
    tcase_add_test(tc, unstructured_not_analysed);
    tcase_add_test(tc, iteration_wise_refused_after_write);
    tcase_add_test(tc, dry_run_refused_input_overwritten);
    suite_add_tcase(s, tc);
    TCase *run = tcase_create("iterwise");
    tcase_add_checked_fixture(run, setup, teardown);
    tcase_set_timeout(run, 60);
    tcase_add_test(run, iteration_wise_formals);
    tcase_add_test(run, iteration_wise_explicit_loop);
    tcase_add_test(run, dry_run_not_terminal);
    tcase_add_test(run, iteration_wise_locals_joint_only);
    suite_add_tcase(s, run);
    return s;
}
