/* c_struct.c: struct parameters in the user's signature. The C front end
 * passes each member of a struct parameter as a formal of its own
 * (docs/c-frontend.md, Structs), annotated "xf_member=[const ]BY|TYPE|NAME|PATH"
 * (BY value or pointer), the first one also with the struct types it
 * needs, "xf_ctype=NAME|HEAD|member:type:dims|...". The inner function
 * takes the members; the wrapper takes the struct, as the user wrote it,
 * and passes the addresses of its members. A struct with active members
 * gets a derivative twin holding only the members that are active
 * somewhere in the file, named TYPE_diff as Tapenade names it, passed as a
 * scalar's derivative is: by value in tangent (by pointer for a pointer),
 * by pointer in adjoint, which adds to it (docs/c-backend.md, Structs). */
#include <stdlib.h>
#include <string.h>

#include "c_impl.h"

typedef struct cw_sfield {
    char *name, *type, *dims; /* type: int, float, double or another struct's NAME */
    bool active;              /* holds an active member somewhere in the file */
} cw_sfield;

typedef struct cw_stype {
    char *name, *head;
    cw_sfield *f;
    int nf;
    bool active;
} cw_stype;

typedef struct cw_types {
    cw_stype *t;
    int n;
} cw_types;

/* The value of key @key in annotation @a (up to the next ';'), malloc'd; NULL: none.
 * @from: where to start looking (several xf_ctype keys). */
static char *
key_value(const char *a, const char *key, const char **from)
{
    size_t kl = strlen(key);
    for (const char *p = strstr(*from, key); p; p = strstr(p + 1, key))
        if (p == a || p[-1] == ';') {
            p += kl;
            size_t n = strcspn(p, ";");
            *from = p + n;
            char *r = malloc(n + 1);
            if (r) {
                memcpy(r, p, n);
                r[n] = 0;
            }
            return r;
        }
    return NULL;
}

static cw_stype *
find_type(cw *w, const char *name)
{
    for (int i = 0; w->types && i < w->types->n; i++)
        if (!strcmp(w->types->t[i].name, name))
            return &w->types->t[i];
    return NULL;
}

/* One xf_ctype value: NAME|HEAD|member:type:dims|... (split in place). */
static bool
add_type(cw *w, char *v)
{
    char *name = strtok(v, "|"), *head = strtok(NULL, "|");
    if (!name || !head)
        return false;
    if (find_type(w, name))
        return true;
    cw_types *ts = w->types;
    cw_stype *nt = realloc(ts->t, ((size_t)ts->n + 1) * sizeof *nt);
    if (!nt)
        return false;
    ts->t = nt;
    cw_stype *t = &ts->t[ts->n++];
    memset(t, 0, sizeof *t);
    t->name = strdup(name);
    t->head = strdup(head);
    for (char *m = strtok(NULL, "|"); m; m = strtok(NULL, "|")) {
        char *c1 = strchr(m, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            return false;
        *c1 = *c2 = 0;
        cw_sfield *nf = realloc(t->f, ((size_t)t->nf + 1) * sizeof *nf);
        if (!nf)
            return false;
        t->f = nf;
        cw_sfield *f = &t->f[t->nf++];
        f->name = strdup(m);
        f->type = strdup(c1 + 1);
        f->dims = strdup(c2 + 1);
        f->active = false;
        if (!f->name || !f->type || !f->dims)
            return false;
    }
    return t->name && t->head;
}

bool
cw_struct_read(cw *w)
{
    const xf_callgraph *cg = &w->doc->cg;
    for (uint32_t i = 0; i < cg->scopes.v.n; i++) {
        const xf_scope *sc = cg->scopes.v.v[i];
        for (uint32_t j = 0; j < sc->syms.n; j++) {
            const xf_symbol *s = sc->syms.v[j];
            const char *a = s->h.annotation, *from = a;
            if (!a || s->kind != XF_SYMKIND_VARIABLE || !strstr(a, "xf_member="))
                continue;
            char *m = key_value(a, "xf_member=", &from);
            if (!m)
                continue;
            if (!w->types && !(w->types = calloc(1, sizeof *w->types))) {
                free(m);
                cw_refuse(w, 0, "out of memory");
                return false;
            }
            cw_member *mem = calloc(1, sizeof *mem);
            char *by = strtok(m, "|"), *rt = strtok(NULL, "|"), *rn = strtok(NULL, "|"),
                 *path = strtok(NULL, "|"), *star = strtok(NULL, "|");
            if (!mem || !by || !rt || !rn || !path) {
                free(mem);
                free(m);
                cw_refuse(w, s->h.line, "%s: a malformed xf_member annotation", s->id);
                return false;
            }
            mem->rconst = !strncmp(by, "const ", 6);
            mem->pmem = star && !strcmp(star, "*");
            mem->array = strstr(by, "array") != NULL;
            mem->pointer = mem->array || strstr(by, "pointer") != NULL;
            mem->rtype = strdup(rt);
            mem->rname = strdup(rn);
            mem->path = strdup(path);
            free(m);
            w->syms[s->index].mem = mem;
            from = a;
            if (mem->array && (mem->ext = key_value(a, "xf_extent=", &from))) {
                char *comma = strchr(mem->ext, ',');
                if (comma && mem->pmem) /* the second: each element's block */
                    mem->blk = strdup(comma + 1);
                if (comma)
                    *comma = 0; /* the first dimension's */
            }
            if (mem->array && mem->pmem && !mem->blk) {
                cw_refuse(w, s->h.line, "%s: an array of structs' pointer member without an extent",
                          s->id);
                return false;
            }
            if (mem->array && !mem->ext) {
                cw_refuse(w, s->h.line, "%s: an array of structs without an extent", s->id);
                return false;
            }
            from = a;
            for (char *v; (v = key_value(a, "xf_ctype=", &from));) {
                bool ok = add_type(w, v);
                free(v);
                if (!ok) {
                    cw_refuse(w, s->h.line, "%s: a malformed xf_ctype annotation", s->id);
                    return false;
                }
            }
        }
    }
    return true;
}

/* Mark the fields on member @m's path active (it is active in some routine). */
static void
mark_active(cw *w, const cw_member *m)
{
    cw_stype *t = find_type(w, m->rtype);
    char buf[300];
    snprintf(buf, sizeof buf, "%s", m->path);
    for (char *p = strtok(buf, "."); p && t; p = strtok(NULL, ".")) {
        t->active = true;
        cw_stype *next = NULL;
        for (int i = 0; i < t->nf; i++)
            if (!strcmp(t->f[i].name, p)) {
                t->f[i].active = true;
                next = find_type(w, t->f[i].type);
            }
        t = next;
    }
}

/* The name of @t's derivative: NAME_diff, struct TAG_diff. */
static void
diff_name(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s_diff", name);
}

static void
write_type(cw *w, FILE *o, const cw_stype *t, bool diff)
{
    char dn[300];
    diff_name(t->name, dn, sizeof dn);
    const char *name = diff ? dn : t->name;
    if (!strncmp(name, "struct ", 7))
        fprintf(o, "%s {\n", name);
    else if (!strcmp(t->head, "T"))
        fputs("typedef struct {\n", o);
    else
        fprintf(o, "typedef struct %s%s {\n", t->head + 2, diff ? "_diff" : "");
    for (int i = 0; i < t->nf; i++) {
        const cw_sfield *f = &t->f[i];
        if (diff && !f->active)
            continue;
        char tn[300];
        snprintf(tn, sizeof tn, "%s", f->type);
        if (!strcmp(f->dims, "*")) { /* a pointer member; its derivative points to a copy */
            fprintf(o, "    %s *%s;\n", diff && !strncmp(tn, "const ", 6) ? tn + 6 : tn, f->name);
            continue;
        }
        if (diff && strcmp(f->type, "float") && strcmp(f->type, "double")) {
            const cw_stype *ft = find_type(w, f->type);
            if (!ft)
                continue;
            diff_name(f->type, tn, sizeof tn);
        }
        fprintf(o, "    %s %s", tn, f->name);
        char dims[64];
        snprintf(dims, sizeof dims, "%s", f->dims);
        for (char *d = strtok(dims, ","); d; d = strtok(NULL, ","))
            fprintf(o, "[%s]", d);
        fputs(";\n", o);
    }
    if (!strncmp(name, "struct ", 7))
        fputs("};\n", o);
    else
        fprintf(o, "} %s;\n", name);
}

void
cw_struct_types(cw *w, FILE *o)
{
    if (!w->types || !w->types->n)
        return;
    for (uint32_t i = 0; i < w->doc->nsymbols; i++)
        if (w->syms[i].mem && w->syms[i].dname)
            mark_active(w, w->syms[i].mem);
    fputs("\n/* the struct types of the source (define XF_USER_TYPES_DEFINED when they are "
          "already) */\n#ifndef XF_USER_TYPES_DEFINED\n",
          o);
    for (int i = 0; i < w->types->n; i++)
        write_type(w, o, &w->types->t[i], false);
    fputs("#endif\n", o);
    bool any = false;
    for (int i = 0; i < w->types->n; i++)
        any = any || w->types->t[i].active;
    if (!any || w->mode == CW_PLAIN)
        return;
    fputs("/* their derivatives: the members active somewhere in this file */\n", o);
    for (int i = 0; i < w->types->n; i++)
        if (w->types->t[i].active)
            write_type(w, o, &w->types->t[i], true);
}

/* The formal at @pos of @r, or NULL. */
static const xf_argsym *
formal(const xf_routine *r, int64_t pos)
{
    for (uint32_t i = 0; i < r->args.n; i++)
        if (r->args.v[i].pos == pos)
            return &r->args.v[i];
    return NULL;
}

static const cw_sym *
sym_at(const cw *w, const xf_routine *r, int64_t p)
{
    const xf_argsym *f = formal(r, p);
    return f && f->sym ? &w->syms[f->sym->index] : NULL;
}

bool
cw_struct_first(const cw *w, const xf_routine *r, int64_t p)
{
    const cw_sym *c = sym_at(w, r, p), *b = p > 1 ? sym_at(w, r, p - 1) : NULL;
    return !b || !b->mem || strcmp(b->mem->rname, c->mem->rname) != 0;
}

/* Whether the struct whose first member is formal @p has an active member in @r. */
static bool
struct_active(const cw *w, const xf_routine *r, int64_t p)
{
    const cw_sym *c = sym_at(w, r, p);
    for (int64_t q = p; q <= (int64_t)r->args.n; q++) {
        const cw_sym *d = sym_at(w, r, q);
        if (!d || !d->mem || strcmp(d->mem->rname, c->mem->rname) != 0)
            break;
        if (d->dname)
            return true;
    }
    return false;
}

/* Whether the struct whose first member is formal @p has an active member that is no pointer
 * member (by value, the adjoint of its copy is gathered in a twin of its own). */
static bool
struct_copied(const cw *w, const xf_routine *r, int64_t p)
{
    const cw_sym *c = sym_at(w, r, p);
    for (int64_t q = p; q <= (int64_t)r->args.n; q++) {
        const cw_sym *d = sym_at(w, r, q);
        if (!d || !d->mem || strcmp(d->mem->rname, c->mem->rname) != 0)
            break;
        if (d->dname && !d->mem->pmem)
            return true;
    }
    return false;
}

static const char *
dsuffix(const cw *w)
{
    return w->mode == CW_ADJOINT ? "b" : "d";
}

void
cw_struct_param(cw *w, FILE *o, const xf_routine *r, int64_t p, bool *any)
{
    const cw_sym *c = sym_at(w, r, p);
    if (!cw_struct_first(w, r, p))
        return;
    const cw_member *m = c->mem;
    const char *cq = m->rconst ? "const " : "";
    fprintf(o, "%s%s%s %s%s", *any ? ", " : "", cq, m->rtype, m->pointer ? "*" : "", m->rname);
    *any = true;
    if (w->mode == CW_PLAIN || !struct_active(w, r, p))
        return;
    char dn[300];
    diff_name(m->rtype, dn, sizeof dn);
    if (w->mode == CW_ADJOINT)
        fprintf(o, ", %s *%s%s", dn, m->rname, dsuffix(w));
    else if (m->pointer)
        fprintf(o, ", %s%s *%s%s", cq, dn, m->rname, dsuffix(w));
    else
        fprintf(o, ", %s %s%s", dn, m->rname, dsuffix(w));
}

/* Write the address of member @m of struct expression @base (. or -> by @ptr) for
 * a member of @rank dimensions. */
static void
address(FILE *o, const char *base, bool ptr, const cw_member *m, int rank)
{
    fprintf(o, "&%s%s%s", base, ptr ? "->" : ".", m->path + 1);
    for (int k = 0; k < rank; k++)
        fputs("[0]", o);
}

void
cw_struct_arg(cw *w, FILE *o, const xf_routine *r, int64_t p)
{
    const xf_argsym *f = formal(r, p);
    const cw_sym *c = &w->syms[f->sym->index];
    const cw_member *m = c->mem;
    int rank = (int)xf_shape_rank(f->sym->shape);
    const char *t = cw_ctype(w, f->sym, f->h.line), *dt = cw_dtype(w, f->sym);
    if (m->array) { /* the copies (cw_struct_before) */
        fprintf(o, "xf_a%lld", (long long)p);
        if (c->dname)
            fprintf(o, ", xf_a%lldd", (long long)p);
        return;
    }
    if (m->rconst || m->pmem) /* const cast away, as for arrays (a const double *data too) */
        fprintf(o, "(%s *)", t);
    if (m->pmem) /* the array it points to, by the user's pointer */
        fprintf(o, "%s%s%s", m->rname, m->pointer ? "->" : ".", m->path + 1);
    else
        address(o, m->rname, m->pointer, m, rank);
    if (!c->dname)
        return;
    fputs(", ", o);
    char dn[160];
    snprintf(dn, sizeof dn, "%s%s", m->rname, dsuffix(w));
    if (m->pmem) /* the twin's pointer: by pointer in adjoint */
        fprintf(o, "%s%s%s", dn, m->pointer || w->mode == CW_ADJOINT ? "->" : ".", m->path + 1);
    else if (w->mode == CW_ADJOINT && !m->pointer) {
        int64_t q = p;
        while (!cw_struct_first(w, r, q))
            q--;
        snprintf(dn, sizeof dn, "xf_s%lld", (long long)q);
        address(o, dn, false, m, rank);
    } else {
        if (m->rconst && w->mode != CW_ADJOINT)
            fprintf(o, "(%s *)", dt);
        address(o, dn, m->pointer, m, rank);
    }
}

/* The number of elements of a member of one struct of an array: dims after the first. */
static long long
per_struct(const xf_symbol *s)
{
    long long n = 1;
    for (uint32_t k = 1; k < s->dims.n; k++)
        n *= s->dims.v[k].upper - s->dims.v[k].lower + 1;
    return n;
}

/* Copy member @p of the array of structs between the user's (@user, "b", "bd") and the
 * copy @copy: @in, into the copy, else out of it. A pointer member's blocks (jagged:
 * b[i].data, each its own) are rows of @k elements of the copy. */
static void
copy_member(FILE *o, const cw_member *m, const char *t, const char *user, const char *copy,
            const char *k, bool in)
{
    fprintf(o,
            "    for (long xf_i = 0; xf_i < (long)(%s); xf_i++)\n"
            "        for (long xf_k = 0; xf_k < (long)(%s); xf_k++)\n",
            m->ext, k);
    if (m->pmem && in)
        fprintf(o, "            %s[xf_i * (long)(%s) + xf_k] = %s[xf_i]%s[xf_k];\n", copy, k, user,
                m->path);
    else if (m->pmem)
        fprintf(o, "            %s[xf_i]%s[xf_k] = %s[xf_i * (long)(%s) + xf_k];\n", user, m->path,
                copy, k);
    else if (in)
        fprintf(o, "            %s[xf_i * %s + xf_k] = ((const %s *)&%s[xf_i]%s)[xf_k];\n", copy, k,
                t, user, m->path);
    else
        fprintf(o, "            ((%s *)&%s[xf_i]%s)[xf_k] = %s[xf_i * %s + xf_k];\n", t, user,
                m->path, copy, k);
}

static void
arrays(cw *w, FILE *o, const xf_routine *r, bool before)
{
    for (int64_t p = 1; p <= (int64_t)r->args.n; p++) {
        const xf_argsym *f = formal(r, p);
        const cw_sym *c = f && f->sym ? &w->syms[f->sym->index] : NULL;
        if (!c || !c->mem || !c->mem->array)
            continue;
        const cw_member *m = c->mem;
        const char *t = cw_ctype(w, f->sym, f->h.line), *dt = cw_dtype(w, f->sym);
        char k[200];
        if (m->pmem)
            snprintf(k, sizeof k, "%s", m->blk);
        else
            snprintf(k, sizeof k, "%lld", per_struct(f->sym));
        char copy[40], dcopy[40], du[160];
        snprintf(copy, sizeof copy, "xf_a%lld", (long long)p);
        snprintf(dcopy, sizeof dcopy, "xf_a%lldd", (long long)p);
        snprintf(du, sizeof du, "%s%s", m->rname, dsuffix(w));
        for (int d = 0; d < (c->dname ? 2 : 1); d++) {
            const char *cp = d ? dcopy : copy, *ty = d ? dt : t;
            if (before) {
                fprintf(o,
                        "    %s *%s = malloc(sizeof *%s * ((size_t)(%s) * (size_t)(%s) + 1));\n"
                        "    if (!%s)\n        xf_ad_fail(\"out of memory for an array of "
                        "structs\");\n",
                        ty, cp, cp, m->ext, k, cp);
                copy_member(o, m, ty, d ? du : m->rname, cp, k, true);
                continue;
            }
            if (!m->rconst || m->pmem || (d && w->mode == CW_ADJOINT))
                copy_member(o, m, ty, d ? du : m->rname, cp, k, false);
            fprintf(o, "    free(%s);\n", cp);
        }
    }
}

void
cw_struct_before(cw *w, FILE *o, const xf_routine *r)
{
    arrays(w, o, r, true);
    for (int64_t p = 1; w->mode == CW_ADJOINT && p <= (int64_t)r->args.n; p++) {
        const cw_sym *c = sym_at(w, r, p);
        if (!c || !c->mem || c->mem->pointer || !cw_struct_first(w, r, p) ||
            !struct_copied(w, r, p))
            continue;
        char dn[300];
        diff_name(c->mem->rtype, dn, sizeof dn);
        fprintf(o, "    %s xf_s%lld = {0}; /* the adjoint of the copy %s */\n", dn, (long long)p,
                c->mem->rname);
    }
}

void
cw_struct_after(cw *w, FILE *o, const xf_routine *r)
{
    arrays(w, o, r, false);
    int64_t first = 0;
    for (int64_t p = 1; w->mode == CW_ADJOINT && p <= (int64_t)r->args.n; p++) {
        const xf_argsym *f = formal(r, p);
        const cw_sym *c = f && f->sym ? &w->syms[f->sym->index] : NULL;
        if (!c || !c->mem || c->mem->pointer)
            continue;
        if (cw_struct_first(w, r, p))
            first = p;
        if (!c->dname || c->mem->pmem) /* a pointer member's adjoint went to its array */
            continue;
        const cw_member *m = c->mem;
        long long n = 1;
        for (uint32_t k = 0; k < f->sym->dims.n; k++)
            n *= f->sym->dims.v[k].upper - f->sym->dims.v[k].lower + 1;
        int rank = (int)xf_shape_rank(f->sym->shape);
        char src[64];
        snprintf(src, sizeof src, "xf_s%lld", (long long)first);
        if (rank == 0) {
            fprintf(o, "    %sb->%s += %s.%s;\n", m->rname, m->path + 1, src, m->path + 1);
            continue;
        }
        fprintf(o, "    for (long xf_i = 0; xf_i < %lld; xf_i++)\n        (", n);
        char dn[160];
        snprintf(dn, sizeof dn, "%sb", m->rname);
        address(o, dn, true, m, rank);
        fputs(")[xf_i] += (", o);
        address(o, src, false, m, rank);
        fputs(")[xf_i];\n", o);
    }
}

void
cw_struct_free(cw *w)
{
    if (w->syms)
        for (uint32_t i = 0; i < w->doc->nsymbols; i++)
            if (w->syms[i].mem) {
                free(w->syms[i].mem->rtype);
                free(w->syms[i].mem->rname);
                free(w->syms[i].mem->path);
                free(w->syms[i].mem->ext);
                free(w->syms[i].mem->blk);
                free(w->syms[i].mem);
            }
    if (!w->types)
        return;
    for (int i = 0; i < w->types->n; i++) {
        cw_stype *t = &w->types->t[i];
        for (int k = 0; k < t->nf; k++) {
            free(t->f[k].name);
            free(t->f[k].type);
            free(t->f[k].dims);
        }
        free(t->f);
        free(t->name);
        free(t->head);
    }
    free(w->types->t);
    free(w->types);
}
