/* bench.c: xaiform-bench, the speed and memory of reading and writing xaif
 * through the engine's public API (xf_read_file, xf_write_file or
 * xf_write_memory), with plain libxml2 loops over the same files for the
 * ceiling of these APIs; with --transform, of a pipeline of passes between
 * the reading and the writing. See tools/bench/README.md. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>

#include "diag.h"
#include "ir.h"
#include "pipeline.h"
#include "read.h"
#include "write.h"

#ifndef XF_BENCH_CORPUS_DIR
#define XF_BENCH_CORPUS_DIR "../shared/corpus"
#endif
#ifndef XF_BENCH_SYNTH_FILE
#define XF_BENCH_SYNTH_FILE "synthetic-100MB.xaif"
#endif
#ifndef XF_BENCH_BUILD_TYPE
#define XF_BENCH_BUILD_TYPE "?"
#endif

/* A build with sanitizers measures the sanitizers. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(XF_BENCH_SANITIZED)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif
#ifdef __OPTIMIZE__
#define OPTIMIZED 1
#else
#define OPTIMIZED 0
#endif

/* The reader's parser options (engine/read.c), for the ceiling loops. */
enum { PARSE_OPTIONS = XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_COMPACT };

static const char usage[] =
    "usage: xaiform-bench [options] [FILE...]\n"
    "\n"
    "Time reading and writing xaif with the engine (best of N runs, wall clock),\n"
    "measure the peak resident memory of one read+write in a fresh process, and\n"
    "print a Markdown table. Without FILEs and without --corpus: the 5 largest\n"
    ".xaif files of " XF_BENCH_CORPUS_DIR "\n"
    "and " XF_BENCH_SYNTH_FILE " (when present).\n"
    "\n"
    "  -c, --corpus DIR    add the N largest .xaif files under DIR\n"
    "  -t, --top N         how many corpus files (default 5)\n"
    "  -n, --runs N        timed runs per file, the best counts (default 3)\n"
    "  -T, --min-time S    and more runs until S seconds per file (default 1)\n"
    "  -o, --outdir DIR    where xf_write_file writes its scratch output (default .)\n"
    "  -m, --write-memory  time xf_write_memory instead of xf_write_file\n"
    "  -x, --transform P   run the passes or pipeline P (e.g. tangent) between\n"
    "                      reading and writing, and time them; the corpus files\n"
    "                      are then the front ends' (tlm.xaif, adm.xaif)\n"
    "  -C, --ceiling       also time plain libxml2 loops (xmlTextReader, SAX2,\n"
    "                      xmlTextWriter, a hand-written writer) on the same files\n"
    "      --no-peak       skip the peak-memory child processes\n"
    "      --force         run even in an unoptimized or sanitizer build\n"
    "  -h, --help          this text\n";

typedef struct opts {
    int runs, top;
    double min_time; /* seconds of timed runs per file, at least */
    const char *outdir;
    bool write_memory, ceiling, peak, force;
    const char *transform; /* a pass list, or NULL */
} opts;

/* The passes of --transform and their catalogues (loaded once, not timed). */
static struct {
    const xf_pass *v[32];
    int n;
    xf_doc *cat, *direct;
} pipe_;

static bool
pipe_load(const char *list)
{
    char err[256];
    pipe_.n = xf_pipeline_parse(list, pipe_.v, 32, err, sizeof err);
    if (pipe_.n < 0) {
        fprintf(stderr, "xaiform-bench: %s\n", err);
        return false;
    }
    xf_diag *d = xf_diag_new(stderr);
    pipe_.cat = xf_catalogue_load(NULL, d);
    pipe_.direct = pipe_.cat ? xf_direct_load(NULL, d) : NULL;
    xf_diag_free(d);
    return pipe_.direct != NULL;
}

static void
pipe_free(void)
{
    xf_doc_free(pipe_.cat);
    xf_doc_free(pipe_.direct);
    memset(&pipe_, 0, sizeof pipe_);
}

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *
xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("xaiform-bench: out of memory\n", stderr);
        exit(3);
    }
    return p;
}

static void *
xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fputs("xaiform-bench: out of memory\n", stderr);
        exit(3);
    }
    return p;
}

static char *
xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

/* ------------------------------------------------------------ the files */

typedef struct file {
    char *path;
    const char *name; /* for the table */
    double size;      /* bytes */
} file;

typedef struct files {
    file *v;
    size_t n, cap;
} files;

static void
add_file(files *fs, const char *path, double size)
{
    if (fs->n == fs->cap) {
        fs->cap = fs->cap ? 2 * fs->cap : 64;
        fs->v = xrealloc(fs->v, fs->cap * sizeof *fs->v);
    }
    fs->v[fs->n].path = xstrdup(path);
    fs->v[fs->n].name = fs->v[fs->n].path;
    fs->v[fs->n].size = size;
    fs->n++;
}

static void
free_files(files *fs)
{
    for (size_t i = 0; i < fs->n; i++)
        free(fs->v[i].path);
    free(fs->v);
    fs->v = NULL;
    fs->n = fs->cap = 0;
}

/* Name @f in the table by its last path component. */
static void
short_name(file *f)
{
    const char *slash = strrchr(f->path, '/');
    f->name = slash ? slash + 1 : f->path;
}

static bool
ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Front-end xaif: the inputs of xaifBooster in OpenAD's example layout. */
static bool
front_end_file(const char *path)
{
    return ends_with(path, "/tlm.xaif") || ends_with(path, "/adm.xaif");
}

static bool scan_front_end; /* --transform: only front-end files */

static void
scan(files *fs, const char *dir, int depth)
{
    DIR *d = depth < 32 ? opendir(dir) : NULL;
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *p = xmalloc(n);
        snprintf(p, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                scan(fs, p, depth + 1);
            else if (S_ISREG(st.st_mode) && ends_with(p, ".xaif") &&
                     (!scan_front_end || front_end_file(p)))
                add_file(fs, p, (double)st.st_size);
        }
        free(p);
    }
    closedir(d);
}

static int
by_size_desc(const void *a, const void *b)
{
    double x = ((const file *)a)->size, y = ((const file *)b)->size;
    return x < y ? 1 : x > y ? -1 : strcmp(((const file *)a)->path, ((const file *)b)->path);
}

/* The @top largest .xaif files under @dir, appended to @out; names relative to @dir. */
static void
corpus_files(files *out, const char *dir, int top)
{
    files all = {0};
    scan(&all, dir, 0);
    if (!all.n) {
        fprintf(stderr, "xaiform-bench: no .xaif files under %s\n", dir);
        return;
    }
    qsort(all.v, all.n, sizeof *all.v, by_size_desc);
    size_t skip = strlen(dir) + 1;
    for (size_t i = 0; i < all.n; i++) {
        if ((int)i < top) {
            add_file(out, all.v[i].path, all.v[i].size);
            out->v[out->n - 1].name = out->v[out->n - 1].path + skip;
        }
        free(all.v[i].path);
    }
    free(all.v);
}

/* ------------------------------------------------------------ the engine */

typedef struct result {
    double read, passes, write, total; /* best seconds */
    double out_size;                   /* bytes written */
    size_t ir;                         /* xf_doc_bytes */
    long base_kb, peak_kb;             /* ru_maxrss before reading and at the end (child) */
    bool ok, peak_ok;
} result;

static char *
scratch_path(const opts *o)
{
    size_t n = strlen(o->outdir) + 64;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/xaiform-bench.%ld.out.xaif", o->outdir, (long)getpid());
    return p;
}

/* The seconds of one run's phases. */
typedef struct times {
    double read, passes, write;
    size_t ir;       /* xf_doc_bytes after reading */
    double out_size; /* bytes written */
} times;

/* One read, the passes of --transform (if any) and one write; false after an
 * error (reported on stderr). */
static bool
read_write(const char *path, const char *out, bool memory, times *t)
{
    memset(t, 0, sizeof *t);
    xf_diag *diag = xf_diag_new(stderr);
    if (!diag)
        return false;
    double t0 = now();
    xf_doc *doc = xf_read_file(path, NULL, diag);
    double t1 = now(), t2 = t1;
    bool ok = doc != NULL;
    if (ok) {
        t->ir = xf_doc_bytes(doc);
        if (pipe_.n > 0) {
            xf_opts po;
            xf_pm_opts_init(&po);
            xf_pass_ctx ctx = {.doc = doc,
                               .opts = &po,
                               .diag = diag,
                               .catalogue = pipe_.cat,
                               .direct = pipe_.direct};
            ok = xf_pipeline_run(&ctx, pipe_.v, pipe_.n) == 0;
            t2 = now();
        }
    }
    if (ok) {
        if (memory) {
            char *buf = NULL;
            size_t len = 0;
            ok = xf_write_memory(doc, &buf, &len, diag) == 0;
            t->out_size = (double)len;
            free(buf);
        } else {
            ok = xf_write_file(doc, out, diag) == 0;
            struct stat st;
            if (ok && stat(out, &st) == 0)
                t->out_size = (double)st.st_size;
        }
    }
    double t3 = now();
    xf_doc_free(doc);
    xf_diag_free(diag);
    t->read = t1 - t0;
    t->passes = t2 - t1;
    t->write = t3 - t2;
    return ok;
}

static long
maxrss_kb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

/* The child: read (transform) and write @path once, print "BASE_KB PEAK_KB". */
static int
peak_child(const char *path, const char *out, bool memory, const char *transform)
{
    xmlInitParser();
    if (transform[0] && !pipe_load(transform))
        return 1;
    long base = maxrss_kb();
    times t;
    bool ok = read_write(path, out, memory, &t);
    pipe_free();
    if (!memory)
        unlink(out);
    long peak = maxrss_kb();
    printf("%ld %ld\n", base, peak);
    return ok ? 0 : 1;
}

/* Run the child in a fresh process (fork and exec, so that nothing of this
 * process counts) and read its figures. */
static bool
measure_peak(const file *f, const opts *o, const char *out, result *r)
{
    int fd[2];
    if (pipe(fd) != 0)
        return false;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return false;
    }
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        char *argv[] = {(char *)"xaiform-bench",
                        (char *)"--peak-child",
                        f->path,
                        (char *)out,
                        (char *)(o->write_memory ? "memory" : "file"),
                        (char *)(o->transform ? o->transform : ""),
                        NULL};
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    close(fd[1]);
    char buf[128] = {0};
    size_t n = 0;
    ssize_t k;
    while (n < sizeof buf - 1 && (k = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)k;
    close(fd[0]);
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return false;
    return sscanf(buf, "%ld %ld", &r->base_kb, &r->peak_kb) == 2;
}

static void
bench_engine(const file *f, const opts *o, result *r)
{
    char *out = scratch_path(o);
    memset(r, 0, sizeof *r);
    if (o->peak)
        r->peak_ok = measure_peak(f, o, out, r);
    r->read = r->passes = r->write = r->total = 1e300;
    r->ok = true;
    double start = now();
    for (int i = 0; r->ok && (i < o->runs || now() - start < o->min_time); i++) {
        times t;
        r->ok = read_write(f->path, out, o->write_memory, &t);
        r->ir = t.ir;
        r->out_size = t.out_size;
        if (t.read < r->read)
            r->read = t.read;
        if (t.passes < r->passes)
            r->passes = t.passes;
        if (t.write < r->write)
            r->write = t.write;
        if (t.read + t.passes + t.write < r->total)
            r->total = t.read + t.passes + t.write;
    }
    if (!o->write_memory)
        unlink(out);
    free(out);
}

/* ------------------------------------------------------------ the ceiling */

/* What the xmlTextReader loop saw: every start tag with its attributes, as
 * events for the writers. */
enum { EV_START, EV_ATTR, EV_END };

typedef struct event {
    uint32_t kind, name, value; /* offsets into the pool */
} event;

typedef struct events {
    event *v;
    size_t n, cap;
    char *pool;
    size_t used, size;
    size_t elements, attributes;
} events;

static uint32_t
pool_add(events *e, const char *s)
{
    size_t n = strlen(s) + 1;
    if (e->used + n > e->size) {
        while (e->used + n > e->size)
            e->size = e->size ? 2 * e->size : 1 << 20;
        e->pool = xrealloc(e->pool, e->size);
    }
    if (e->used + n > UINT32_MAX) {
        fputs("xaiform-bench: file too large for the writer ceiling\n", stderr);
        exit(3);
    }
    memcpy(e->pool + e->used, s, n);
    uint32_t off = (uint32_t)e->used;
    e->used += n;
    return off;
}

static void
push(events *e, uint32_t kind, uint32_t name, uint32_t value)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 4096;
        e->v = xrealloc(e->v, e->cap * sizeof *e->v);
    }
    e->v[e->n++] = (event){kind, name, value};
}

/* A small table of the names already in the pool (names repeat, values
 * are kept as they come). */
typedef struct names {
    const char **key;
    uint32_t *off;
    size_t cap, n;
} names;

static uint32_t
name_off(names *t, events *e, const char *s)
{
    if ((t->n + 1) * 2 > t->cap) {
        names u = {.cap = t->cap ? 2 * t->cap : 256};
        u.key = calloc(u.cap, sizeof *u.key);
        u.off = calloc(u.cap, sizeof *u.off);
        if (!u.key || !u.off)
            exit(3);
        for (size_t i = 0; i < t->cap; i++)
            if (t->key[i]) {
                size_t h = 0;
                for (const char *p = t->key[i]; *p; p++)
                    h = h * 31 + (unsigned char)*p;
                size_t j = h & (u.cap - 1);
                while (u.key[j])
                    j = (j + 1) & (u.cap - 1);
                u.key[j] = t->key[i];
                u.off[j] = t->off[i];
            }
        free(t->key);
        free(t->off);
        u.n = t->n;
        *t = u;
    }
    size_t h = 0;
    for (const char *p = s; *p; p++)
        h = h * 31 + (unsigned char)*p;
    size_t j = h & (t->cap - 1);
    while (t->key[j]) {
        if (strcmp(t->key[j], s) == 0)
            return t->off[j];
        j = (j + 1) & (t->cap - 1);
    }
    t->key[j] = xstrdup(s);
    t->off[j] = pool_add(e, s);
    t->n++;
    return t->off[j];
}

static void
names_free(names *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free((void *)t->key[i]);
    free(t->key);
    free(t->off);
}

/* Where the loops leave a checksum of what they looked at, so that the
 * compiler keeps the looking. */
static volatile size_t sink;

/* The plain reader loop: visit every node and every attribute (name and
 * value) and build nothing; with @rec, also record the events (untimed). */
static bool
reader_loop(const char *path, events *rec)
{
    xmlTextReaderPtr r = xmlReaderForFile(path, NULL, PARSE_OPTIONS);
    if (!r)
        return false;
    names t = {0};
    size_t n = 0, sum = 0;
    int ret;
    while ((ret = xmlTextReaderRead(r)) == 1) {
        n++;
        int type = xmlTextReaderNodeType(r);
        if (type == XML_READER_TYPE_ELEMENT) {
            const xmlChar *name = xmlTextReaderConstName(r);
            sum += (size_t)xmlTextReaderConstLocalName(r)[0];
            sum += xmlTextReaderConstNamespaceUri(r) != NULL;
            bool empty = xmlTextReaderIsEmptyElement(r) == 1;
            if (rec) {
                push(rec, EV_START, name_off(&t, rec, (const char *)name), 0);
                rec->elements++;
            }
            while (xmlTextReaderMoveToNextAttribute(r) == 1) {
                const xmlChar *an = xmlTextReaderConstName(r);
                const xmlChar *av = xmlTextReaderConstValue(r);
                sum += (size_t)xmlTextReaderConstLocalName(r)[0] + (av ? av[0] : 0);
                if (rec) {
                    push(rec, EV_ATTR, name_off(&t, rec, (const char *)an),
                         pool_add(rec, av ? (const char *)av : ""));
                    rec->attributes++;
                }
            }
            xmlTextReaderMoveToElement(r);
            if (empty && rec)
                push(rec, EV_END, 0, 0);
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            if (rec)
                push(rec, EV_END, 0, 0);
        } else {
            const xmlChar *v = xmlTextReaderConstValue(r);
            sum += v ? v[0] : 0;
        }
    }
    xmlFreeTextReader(r);
    names_free(&t);
    sink = n + sum;
    return ret == 0;
}

/* SAX2 without a tree: libxml2's parser alone. */
typedef struct saxcount {
    size_t elements, attributes, bytes;
} saxcount;

static void
sax_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
          int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
          const xmlChar **attributes)
{
    saxcount *c = ctx;
    (void)localname, (void)prefix, (void)uri, (void)nb_namespaces, (void)namespaces;
    (void)nb_defaulted;
    c->elements++;
    for (int i = 0; i < nb_attributes; i++) {
        c->attributes++;
        c->bytes += (size_t)(attributes[5 * i + 4] - attributes[5 * i + 3]);
    }
}

static void
sax_chars(void *ctx, const xmlChar *ch, int len)
{
    (void)ch;
    ((saxcount *)ctx)->bytes += (size_t)len;
}

static bool
sax_loop(const char *path)
{
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = sax_start;
    sax.characters = sax_chars;
    saxcount c = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char buf[65536];
    size_t n = fread(buf, 1, 4, f);
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, &c, buf, (int)n, path);
    if (!ctxt) {
        fclose(f);
        return false;
    }
    xmlCtxtUseOptions(ctxt, PARSE_OPTIONS);
    bool ok = true;
    while (ok && (n = fread(buf, 1, sizeof buf, f)) > 0)
        ok = xmlParseChunk(ctxt, buf, (int)n, 0) == 0;
    ok = ok && xmlParseChunk(ctxt, buf, 0, 1) == 0 && ctxt->wellFormed;
    sink = c.elements + c.attributes + c.bytes;
    xmlFreeParserCtxt(ctxt);
    fclose(f);
    return ok;
}

/* xmlTextWriter, as the engine sets it up (indent "  ", to a file). */
static bool
textwriter_loop(const events *e, const char *out)
{
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return false;
    xmlOutputBufferPtr ob = xmlOutputBufferCreateFd(fd, NULL);
    xmlTextWriterPtr w = ob ? xmlNewTextWriter(ob) : NULL;
    if (!w) {
        close(fd);
        return false;
    }
    bool ok = xmlTextWriterSetIndent(w, 1) >= 0 &&
              xmlTextWriterSetIndentString(w, BAD_CAST "  ") >= 0 &&
              xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) >= 0;
    for (size_t i = 0; ok && i < e->n; i++) {
        const event *v = &e->v[i];
        switch (v->kind) {
        case EV_START:
            ok = xmlTextWriterStartElement(w, BAD_CAST(e->pool + v->name)) >= 0;
            break;
        case EV_ATTR:
            ok = xmlTextWriterWriteAttribute(w, BAD_CAST(e->pool + v->name),
                                             BAD_CAST(e->pool + v->value)) >= 0;
            break;
        default:
            ok = xmlTextWriterEndElement(w) >= 0;
        }
    }
    ok = ok && xmlTextWriterEndDocument(w) >= 0 && xmlTextWriterFlush(w) >= 0;
    xmlFreeTextWriter(w);
    close(fd);
    return ok;
}

/* A hand-written writer of the same text: a 64 KiB buffer, write(2). */
typedef struct rawout {
    int fd;
    bool ok;
    size_t n;
    char buf[1 << 16];
} rawout;

static void
raw_flush(rawout *o)
{
    size_t done = 0;
    while (o->ok && done < o->n) {
        ssize_t k = write(o->fd, o->buf + done, o->n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            o->ok = false;
        else
            done += (size_t)k;
    }
    o->n = 0;
}

static void
raw_put(rawout *o, const char *s, size_t n)
{
    if (o->n + n > sizeof o->buf)
        raw_flush(o);
    if (n > sizeof o->buf) {
        o->ok = o->ok && write(o->fd, s, n) == (ssize_t)n;
        return;
    }
    memcpy(o->buf + o->n, s, n);
    o->n += n;
}

static void
raw_escaped(rawout *o, const char *s)
{
    const char *run = s;
    for (; *s; s++) {
        const char *rep;
        switch (*s) {
        case '&':
            rep = "&amp;";
            break;
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        case '"':
            rep = "&quot;";
            break;
        case '\n':
            rep = "&#10;";
            break;
        case '\r':
            rep = "&#13;";
            break;
        case '\t':
            rep = "&#9;";
            break;
        default:
            continue;
        }
        raw_put(o, run, (size_t)(s - run));
        raw_put(o, rep, strlen(rep));
        run = s + 1;
    }
    raw_put(o, run, (size_t)(s - run));
}

static bool
raw_loop(const events *e, const char *out)
{
    static rawout o;
    if (!e->pool)
        return false;
    o.fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (o.fd < 0)
        return false;
    o.ok = true;
    o.n = 0;
    static const char spaces[] = "                                                                ";
    uint32_t names_stk[512];
    int depth = 0;
    raw_put(&o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 39);
    for (size_t i = 0; i < e->n; i++) {
        const event *v = &e->v[i];
        if (v->kind == EV_START) {
            size_t ind = (size_t)depth * 2;
            raw_put(&o, spaces, ind < sizeof spaces - 1 ? ind : sizeof spaces - 1);
            raw_put(&o, "<", 1);
            raw_put(&o, e->pool + v->name, strlen(e->pool + v->name));
            size_t j = i + 1;
            for (; j < e->n && e->v[j].kind == EV_ATTR; j++) {
                raw_put(&o, " ", 1);
                raw_put(&o, e->pool + e->v[j].name, strlen(e->pool + e->v[j].name));
                raw_put(&o, "=\"", 2);
                raw_escaped(&o, e->pool + e->v[j].value);
                raw_put(&o, "\"", 1);
            }
            if (j < e->n && e->v[j].kind == EV_END) {
                raw_put(&o, "/>\n", 3);
                i = j;
            } else {
                raw_put(&o, ">\n", 2);
                if (depth < 512)
                    names_stk[depth] = v->name;
                depth++;
                i = j - 1;
            }
        } else if (v->kind == EV_END && depth > 0) {
            depth--;
            size_t ind = (size_t)depth * 2;
            raw_put(&o, spaces, ind < sizeof spaces - 1 ? ind : sizeof spaces - 1);
            raw_put(&o, "</", 2);
            const char *name = depth < 512 ? e->pool + names_stk[depth] : "?";
            raw_put(&o, name, strlen(name));
            raw_put(&o, ">\n", 2);
        }
    }
    raw_flush(&o);
    bool ok = o.ok;
    close(o.fd);
    return ok;
}

typedef struct ceiling {
    double reader, sax, textwriter, raw; /* best seconds */
    size_t elements, attributes;
    bool ok;
} ceiling;

static void
bench_ceiling(const file *f, const opts *o, ceiling *c)
{
    memset(c, 0, sizeof *c);
    c->reader = c->sax = c->textwriter = c->raw = 1e300;
    events e = {0};
    c->ok = reader_loop(f->path, &e); /* the recording pass, untimed */
    c->elements = e.elements;
    c->attributes = e.attributes;
    char *out = scratch_path(o);
    double start = now();
    for (int i = 0; c->ok && (i < o->runs || now() - start < o->min_time); i++) {
        double t0 = now();
        c->ok = reader_loop(f->path, NULL);
        double t1 = now();
        c->ok = c->ok && sax_loop(f->path);
        double t2 = now();
        c->ok = c->ok && textwriter_loop(&e, out);
        double t3 = now();
        c->ok = c->ok && raw_loop(&e, out);
        double t4 = now();
        if (t1 - t0 < c->reader)
            c->reader = t1 - t0;
        if (t2 - t1 < c->sax)
            c->sax = t2 - t1;
        if (t3 - t2 < c->textwriter)
            c->textwriter = t3 - t2;
        if (t4 - t3 < c->raw)
            c->raw = t4 - t3;
    }
    unlink(out);
    free(out);
    free(e.v);
    free(e.pool);
}

/* ------------------------------------------------------------ the report */

static void
machine(void)
{
    char model[256] = "?";
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *p = strchr(line, ':');
            if (p) {
                snprintf(model, sizeof model, "%s", p + 2);
                model[strcspn(model, "\n")] = 0;
            }
            break;
        }
    }
    if (f)
        fclose(f);
    printf("machine: %ld CPUs (%s); libxml2 %s; build %s%s\n\n", sysconf(_SC_NPROCESSORS_ONLN),
           model, LIBXML_DOTTED_VERSION, XF_BENCH_BUILD_TYPE, OPTIMIZED ? "" : " (NOT OPTIMIZED)");
}

static double
mbs(double bytes, double secs)
{
    return secs > 0 ? bytes / 1e6 / secs : 0;
}

int
main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "--peak-child") == 0)
        return peak_child(argv[2], argv[3], strcmp(argv[4], "memory") == 0, argv[5]);

    static const struct option longopts[] = {{"corpus", required_argument, NULL, 'c'},
                                             {"top", required_argument, NULL, 't'},
                                             {"runs", required_argument, NULL, 'n'},
                                             {"outdir", required_argument, NULL, 'o'},
                                             {"write-memory", no_argument, NULL, 'm'},
                                             {"ceiling", no_argument, NULL, 'C'},
                                             {"no-peak", no_argument, NULL, 'P'},
                                             {"force", no_argument, NULL, 'F'},
                                             {"transform", required_argument, NULL, 'x'},
                                             {"help", no_argument, NULL, 'h'},
                                             {0}};
    opts o = {.runs = 3, .top = 5, .min_time = 1.0, .outdir = ".", .peak = true};
    const char *corpus[16];
    int ncorpus = 0;
    int c;
    while ((c = getopt_long(argc, argv, "c:t:n:T:o:x:mCh", longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            if (ncorpus < 16)
                corpus[ncorpus++] = optarg;
            break;
        case 't':
            o.top = atoi(optarg);
            break;
        case 'n':
            o.runs = atoi(optarg);
            break;
        case 'T':
            o.min_time = atof(optarg);
            break;
        case 'o':
            o.outdir = optarg;
            break;
        case 'm':
            o.write_memory = true;
            break;
        case 'C':
            o.ceiling = true;
            break;
        case 'P':
            o.peak = false;
            break;
        case 'F':
            o.force = true;
            break;
        case 'x':
            o.transform = optarg;
            break;
        case 'h':
            fputs(usage, stdout);
            return 0;
        default:
            fputs(usage, stderr);
            return 2;
        }
    }
    if (o.runs < 1 || o.top < 0) {
        fputs("xaiform-bench: --runs must be at least 1 and --top at least 0\n", stderr);
        return 2;
    }
    if (SANITIZED || !OPTIMIZED) {
        fprintf(stderr,
                "xaiform-bench: this is %s build; its figures mean nothing. Use "
                "-DCMAKE_BUILD_TYPE=RelWithDebInfo without XF_SANITIZE%s\n",
                SANITIZED ? "a sanitizer" : "an unoptimized",
                o.force ? " (going on: --force)" : ", or --force");
        if (!o.force)
            return 2;
    }

    if (o.transform && !pipe_load(o.transform))
        return 2;
    scan_front_end = o.transform != NULL;
    files fs = {0};
    bool defaults = ncorpus == 0 && optind == argc;
    if (defaults)
        corpus_files(&fs, XF_BENCH_CORPUS_DIR, o.top);
    for (int i = 0; i < ncorpus; i++)
        corpus_files(&fs, corpus[i], o.top);
    struct stat st;
    if (defaults) {
        if (stat(XF_BENCH_SYNTH_FILE, &st) == 0) {
            add_file(&fs, XF_BENCH_SYNTH_FILE, (double)st.st_size);
            short_name(&fs.v[fs.n - 1]);
        } else
            fprintf(stderr,
                    "xaiform-bench: %s is missing; `cmake --build build --target bench` makes it\n",
                    XF_BENCH_SYNTH_FILE);
    }
    for (int i = optind; i < argc; i++) {
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "xaiform-bench: %s: %s\n", argv[i], strerror(errno));
            free_files(&fs);
            return 1;
        }
        add_file(&fs, argv[i], (double)st.st_size);
        short_name(&fs.v[fs.n - 1]);
    }
    if (!fs.n) {
        fputs("xaiform-bench: no input files\n", stderr);
        free_files(&fs);
        return 1;
    }

    xmlInitParser();
    machine();
    const bool tx = o.transform != NULL;
    printf("engine: xf_read_file (strict)%s%s then %s, best of %d runs (more for small files: "
           "at least %.1f s per file); MB = 10^6 bytes of input; peak = max resident set of one "
           "%s in a fresh process\n\n",
           tx ? ", the passes " : "", tx ? o.transform : "",
           o.write_memory ? "xf_write_memory" : "xf_write_file", o.runs, o.min_time,
           tx ? "read+passes+write" : "read+write");
    if (tx) {
        printf("| file | size MB | read MB/s | passes MB/s | write MB/s | total MB/s | out/in "
               "| peak MB | peak/size |\n");
    } else {
        printf("| file | size MB | read MB/s | write MB/s | read+write MB/s | peak MB | peak/size "
               "| IR MB | IR/size |\n");
    }
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    fflush(stdout);
    int failures = 0;
    bool met_speed = true, met_mem = true;
    double big = 0;
    long base_kb = 0;
    for (size_t i = 0; i < fs.n; i++) {
        const file *f = &fs.v[i];
        result r;
        bench_engine(f, &o, &r);
        if (!r.ok) {
            printf("| %s | %.2f | failed | | | | | | |\n", f->name, f->size / 1e6);
            failures++;
            continue;
        }
        double peak = (double)r.peak_kb * 1024.0;
        char pk[32] = "-", ratio[32] = "-";
        if (r.peak_ok) {
            if (!base_kb || r.base_kb < base_kb)
                base_kb = r.base_kb;
            snprintf(pk, sizeof pk, "%.1f", peak / 1e6);
            snprintf(ratio, sizeof ratio, "%.2f", peak / f->size);
        }
        if (tx)
            printf("| %s | %.2f | %.1f | %.1f | %.1f | %.1f | %.2f | %s | %s |\n", f->name,
                   f->size / 1e6, mbs(f->size, r.read), mbs(f->size, r.passes),
                   mbs(f->size, r.write), mbs(f->size, r.total), r.out_size / f->size, pk, ratio);
        else
            printf("| %s | %.2f | %.1f | %.1f | %.1f | %s | %s | %.1f | %.2f |\n", f->name,
                   f->size / 1e6, mbs(f->size, r.read), mbs(f->size, r.write),
                   mbs(f->size, r.total), pk, ratio, (double)r.ir / 1e6, (double)r.ir / f->size);
        fflush(stdout);
        if (f->size >= big) {
            big = f->size;
            met_speed = mbs(f->size, r.total) >= 50;
            met_mem = r.peak_ok && peak < 4 * f->size;
        }
    }
    if (base_kb)
        printf("\npeak includes the process's baseline of %.1f MB before reading (libc, libxml2, "
               "the program%s)%s\n",
               (double)base_kb * 1024 / 1e6, tx ? ", the catalogues" : "",
               tx ? "; out/in = size written / size read" : "; IR = xf_doc_bytes after reading");
    if (!tx)
        printf("\ntargets on the largest file: read+write >= 50 MB/s: %s; peak < 4x size: %s\n",
               met_speed ? "met" : "NOT met", met_mem ? "met" : "NOT met");

    if (o.ceiling) {
        printf(
            "\nlibxml2 alone on the same files (the ceiling of these APIs), best of %d or more:\n"
            "xmlTextReader = a Read loop visiting every node and attribute (name, value), "
            "building nothing; SAX2 = the push parser with no tree; xmlTextWriter = the same "
            "elements and attributes written as the engine does (indent, to a file); raw = "
            "a hand-written buffered writer of the same text.\n\n",
            o.runs);
        printf("| file | size MB | elements | attributes | xmlTextReader MB/s | SAX2 MB/s | "
               "xmlTextWriter MB/s | raw writer MB/s | reader+xmlTextWriter MB/s |\n");
        printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (size_t i = 0; i < fs.n; i++) {
            const file *f = &fs.v[i];
            ceiling cl;
            bench_ceiling(f, &o, &cl);
            if (!cl.ok) {
                printf("| %s | %.2f | failed | | | | | | |\n", f->name, f->size / 1e6);
                continue;
            }
            printf("| %s | %.2f | %zu | %zu | %.1f | %.1f | %.1f | %.1f | %.1f |\n", f->name,
                   f->size / 1e6, cl.elements, cl.attributes, mbs(f->size, cl.reader),
                   mbs(f->size, cl.sax), mbs(f->size, cl.textwriter), mbs(f->size, cl.raw),
                   mbs(f->size, cl.reader + cl.textwriter));
            fflush(stdout);
        }
    }
    free_files(&fs);
    pipe_free();
    xmlCleanupParser();
    return failures ? 1 : 0;
}
