/* intrinsics.c: the intrinsics and boolean operations of xaif, with
 * Fortran's arithmetic: integer ∘ integer is integer (division truncates),
 * any real operand makes the operation real, arrays work elementwise with
 * scalars broadcast. Real operations are counted, element by element. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef enum op {
    O_ADD,
    O_SUB,
    O_MUL,
    O_DIV,
    O_POW,
    O_MOD,
    O_SIGN,
    O_MIN,
    O_MAX, /* binary numeric */
    O_NEG,
    O_ABS,
    O_INT,
    O_NINT,
    O_REAL,
    O_SIN,
    O_COS,
    O_TAN,
    O_ASIN,
    O_ACOS,
    O_ATAN,
    O_SINH,
    O_COSH,
    O_TANH,
    O_EXP,
    O_LOG,
    O_LOG10,
    O_SQRT, /* unary numeric */
    O_LT,
    O_LE,
    O_GT,
    O_GE,
    O_EQ,
    O_NE, /* comparisons */
    O_AND,
    O_OR,
    O_NOT,
    O_XOR, /* logical */
    O_MAXVAL,
    O_MINVAL,
    O_SUM,
    O_MAXLOC,
    O_MINLOC, /* reductions */
    O_TRANSPOSE,
    O_RESHAPE,
    O_TRANSFER, /* arrays, bits */
    O_LEN,
    O_TRIM,
    O_SCAN,
    O_SEQ,
    O_SNE,
    O_SLT,
    O_SLE,
    O_SGT,
    O_SGE,
    O_ICHAR, /* strings */
    O_COMPLEX
} op;

static const struct {
    const char *name;
    op o;
    int nargs;
} table[] = {
    {"add_scal_scal", O_ADD, 2},
    {"sub_scal_scal", O_SUB, 2},
    {"mul_scal_scal", O_MUL, 2},
    {"div_scal_scal", O_DIV, 2},
    {"pow_scal_scal", O_POW, 2},
    {"mod_scal_scal", O_MOD, 2},
    {"sign_scal_scal", O_SIGN, 2},
    {"nc_min_scal_scal", O_MIN, 2},
    {"nc_max_scal_scal", O_MAX, 2},
    {"minus_scal", O_NEG, 1},
    {"abs_scal", O_ABS, 1},
    {"int_scal", O_INT, 1},
    {"nint_scal", O_NINT, 1},
    {"real_scal", O_REAL, 1},
    {"sin_scal", O_SIN, 1},
    {"cos_scal", O_COS, 1},
    {"tan_scal", O_TAN, 1},
    {"arcsin_scal", O_ASIN, 1},
    {"arccos_scal", O_ACOS, 1},
    {"arctan_scal", O_ATAN, 1},
    {"sinh_scal", O_SINH, 1},
    {"cosh_scal", O_COSH, 1},
    {"tanh_scal", O_TANH, 1},
    {"exp_scal", O_EXP, 1},
    {"ln_scal", O_LOG, 1},
    {"log10", O_LOG10, 1},
    {"sqrt_scal", O_SQRT, 1},
    {"less_than", O_LT, 2},
    {"less_or_equal", O_LE, 2},
    {"greater_than", O_GT, 2},
    {"greater_or_equal", O_GE, 2},
    {"equal", O_EQ, 2},
    {"not_equal", O_NE, 2},
    {"and", O_AND, 2},
    {"or", O_OR, 2},
    {"not", O_NOT, 1},
    {"xor", O_XOR, 2},
    {"nc_maxval", O_MAXVAL, 1},
    {"nc_minval", O_MINVAL, 1},
    {"sum_arr", O_SUM, 1},
    {"maxloc_arr", O_MAXLOC, 1},
    {"minloc_arr", O_MINLOC, 1},
    {"transpose_arr", O_TRANSPOSE, 1},
    {"reshape_arr", O_RESHAPE, 2},
    {"transfer", O_TRANSFER, 2},
    {"len", O_LEN, 1},
    {"trim", O_TRIM, 1},
    {"scan", O_SCAN, 2},
    {"string_eq_scal_scal", O_SEQ, 2},
    {"string_ne_scal_scal", O_SNE, 2},
    {"string_lt_scal_scal", O_SLT, 2},
    {"string_le_scal_scal", O_SLE, 2},
    {"string_gt_scal_scal", O_SGT, 2},
    {"string_ge_scal_scal", O_SGE, 2},
    {"ichar", O_ICHAR, 1},
    {"complex_scal", O_COMPLEX, 2},
    {"imag_scal", O_COMPLEX, 1},
};

/* ------------------------------------------------------------ helpers */

static int64_t
wrap_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t
wrap_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* x**n for an integer n, by binary powering as compiled Fortran does. */
static double
powi(double x, int64_t n, uint64_t *muls)
{
    uint64_t e = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
    double y = e % 2 ? x : 1.0;
    while (e >>= 1) {
        x = x * x;
        ++*muls;
        if (e % 2) {
            y = y * x;
            ++*muls;
        }
    }
    return n < 0 ? 1.0 / y : y;
}

static int64_t
ipow(rt *m, int64_t a, int64_t n)
{
    if (n < 0) {
        if (a == 0)
            rt_fault(m, "0 to a negative power");
        return a == 1 ? 1 : a == -1 ? (n % 2 ? -1 : 1) : 0;
    }
    int64_t y = 1;
    while (n) {
        if (n & 1)
            y = wrap_mul(y, a);
        a = wrap_mul(a, a);
        n >>= 1;
    }
    return y;
}

/* The shape of an elementwise result: the array operand's (they must agree). */
static void
result_shape(rt *m, const rt_val *a, const rt_val *b, int *rank, int64_t *ext, int64_t *n)
{
    const rt_val *s = a->rank || !b ? a : b;
    if (a->rank && b && b->rank && a->n != b->n)
        rt_fault(m, "arrays of %lld and %lld elements in one operation", (long long)a->n,
                 (long long)b->n);
    *rank = s->rank;
    for (int j = 0; j < s->rank; j++)
        ext[j] = s->ext[j];
    *n = s->rank ? s->n : 1;
}

static rt_val
make(rt *m, rt_type t, int rank, const int64_t *ext)
{
    if (rank == 0)
        return (rt_val){.type = t, .n = 1};
    return rt_array(m, t, rank, ext);
}

static void
put_real(rt_val *r, int64_t k, double x)
{
    if (r->rank)
        r->r[k] = x;
    else
        r->sc.r = x;
}

static void
put_int(rt_val *r, int64_t k, int64_t x)
{
    if (r->rank)
        r->iv[k] = x;
    else
        r->sc.i = x;
}

static void
put_bool(rt_val *r, int64_t k, bool x)
{
    if (r->rank)
        r->bv[k] = x;
    else
        r->sc.b = x;
}

/* ------------------------------------------------------------ numeric */

static rt_val
binary(rt *m, op o, const rt_val *a, const rt_val *b)
{
    if (a->type == RT_STR || b->type == RT_STR)
        rt_fault(m, "arithmetic on a string");
    int rank;
    int64_t ext[RT_MAXRANK], n;
    result_shape(m, a, b, &rank, ext, &n);
    bool real = a->type == RT_REAL || b->type == RT_REAL;
    if (o == O_POW && !real) {
        rt_val r = make(m, RT_INT, rank, ext);
        for (int64_t k = 0; k < n; k++)
            put_int(&r, k,
                    ipow(m, rt_int_at(m, a, a->rank ? k : 0), rt_int_at(m, b, b->rank ? k : 0)));
        return r;
    }
    rt_val r = make(m, real ? RT_REAL : RT_INT, rank, ext);
    xf_run_stats *st = &m->stats;
    for (int64_t k = 0; k < n; k++) {
        int64_t ka = a->rank ? k : 0, kb = b->rank ? k : 0;
        if (!real) {
            int64_t x = rt_int_at(m, a, ka), y = rt_int_at(m, b, kb), z = 0;
            switch (o) {
            case O_ADD:
                z = wrap_add(x, y);
                break;
            case O_SUB:
                z = wrap_add(x, (int64_t)((uint64_t)0 - (uint64_t)y));
                break;
            case O_MUL:
                z = wrap_mul(x, y);
                break;
            case O_DIV:
            case O_MOD:
                if (y == 0)
                    rt_fault(m, "integer %s by zero", o == O_DIV ? "division" : "mod");
                if (x == INT64_MIN && y == -1)
                    rt_fault(m, "integer overflow in a division");
                z = o == O_DIV ? x / y : x % y;
                break;
            case O_SIGN:
                z = x < 0 ? -x : x;
                z = y >= 0 ? z : -z;
                break;
            case O_MIN:
                z = y < x ? y : x;
                break;
            case O_MAX:
                z = y > x ? y : x;
                break;
            default:
                break;
            }
            put_int(&r, k, z);
            continue;
        }
        double x = rt_real_at(a, ka), y = rt_real_at(b, kb), z = 0;
        switch (o) {
        case O_ADD:
            z = x + y;
            st->adds++;
            break;
        case O_SUB:
            z = x - y;
            st->adds++;
            break;
        case O_MUL:
            z = x * y;
            st->muls++;
            break;
        case O_DIV:
            z = x / y;
            st->divs++;
            break;
        case O_POW:
            st->intrinsics++;
            if (b->type == RT_INT) {
                uint64_t ignored = 0; /* a power is counted as one call */
                z = powi(x, rt_int_at(m, b, kb), &ignored);
            } else
                z = pow(x, y);
            break;
        case O_MOD:
            st->intrinsics++;
            z = fmod(x, y);
            break;
        case O_SIGN:
            st->intrinsics++;
            z = y >= 0 ? fabs(x) : -fabs(x);
            break;
        case O_MIN:
            st->intrinsics++;
            z = y < x ? y : x;
            break;
        case O_MAX:
            st->intrinsics++;
            z = y > x ? y : x;
            break;
        default:
            break;
        }
        put_real(&r, k, z);
    }
    return r;
}

static double
math1(op o, double x)
{
    switch (o) {
    case O_SIN:
        return sin(x);
    case O_COS:
        return cos(x);
    case O_TAN:
        return tan(x);
    case O_ASIN:
        return asin(x);
    case O_ACOS:
        return acos(x);
    case O_ATAN:
        return atan(x);
    case O_SINH:
        return sinh(x);
    case O_COSH:
        return cosh(x);
    case O_TANH:
        return tanh(x);
    case O_EXP:
        return exp(x);
    case O_LOG:
        return log(x);
    case O_LOG10:
        return log10(x);
    case O_SQRT:
        return sqrt(x);
    default:
        return x;
    }
}

static rt_val
unary(rt *m, op o, const rt_val *a)
{
    if (a->type == RT_STR)
        rt_fault(m, "arithmetic on a string");
    int rank;
    int64_t ext[RT_MAXRANK], n;
    result_shape(m, a, NULL, &rank, ext, &n);
    rt_type t = RT_REAL;
    if (o == O_INT || o == O_NINT || ((o == O_NEG || o == O_ABS) && a->type != RT_REAL))
        t = RT_INT;
    rt_val r = make(m, t, rank, ext);
    xf_run_stats *st = &m->stats;
    for (int64_t k = 0; k < n; k++) {
        if (t == RT_INT) {
            int64_t z;
            if (o == O_INT)
                z = rt_int_at(m, a, k);
            else if (o == O_NINT) {
                double x = rt_real_at(a, k);
                if (!(x > -9.2e18 && x < 9.2e18))
                    rt_fault(m, "nint of %g", x);
                z = llround(x);
            } else {
                int64_t x = rt_int_at(m, a, k);
                z = o == O_NEG || (o == O_ABS && x < 0) ? (int64_t)((uint64_t)0 - (uint64_t)x) : x;
            }
            put_int(&r, k, z);
            continue;
        }
        double x = rt_real_at(a, k);
        if (o == O_NEG) {
            st->adds++;
            x = -x;
        } else if (o == O_ABS) {
            st->intrinsics++;
            x = fabs(x);
        } else if (o != O_REAL) {
            st->intrinsics++;
            x = math1(o, x);
        }
        put_real(&r, k, x);
    }
    return r;
}

/* ------------------------------------------------------------ logical */

static int
str_cmp(rt_str a, rt_str b)
{
    /* the shorter string counts as padded with blanks */
    int64_t n = a.len > b.len ? a.len : b.len;
    for (int64_t k = 0; k < n; k++) {
        unsigned char x = k < a.len ? (unsigned char)a.p[k] : ' ';
        unsigned char y = k < b.len ? (unsigned char)b.p[k] : ' ';
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

static rt_val
compare(rt *m, op o, const rt_val *a, const rt_val *b)
{
    int rank;
    int64_t ext[RT_MAXRANK], n;
    result_shape(m, a, b, &rank, ext, &n);
    rt_val r = make(m, RT_BOOL, rank, ext);
    for (int64_t k = 0; k < n; k++) {
        int64_t ka = a->rank ? k : 0, kb = b->rank ? k : 0;
        int c;
        if (a->type == RT_STR || b->type == RT_STR) {
            if (a->type != b->type)
                rt_fault(m, "comparing a string with a number");
            c = str_cmp(rt_str_at(a, ka), rt_str_at(b, kb));
        } else if (a->type == RT_REAL || b->type == RT_REAL) {
            double x = rt_real_at(a, ka), y = rt_real_at(b, kb);
            c = x < y ? -1 : x > y ? 1 : x == y ? 0 : 2; /* 2: unordered (NaN) */
        } else {
            int64_t x = rt_int_at(m, a, ka), y = rt_int_at(m, b, kb);
            c = x < y ? -1 : x > y;
        }
        bool z = false;
        switch (o) {
        case O_LT:
        case O_SLT:
            z = c == -1;
            break;
        case O_LE:
        case O_SLE:
            z = c == -1 || c == 0;
            break;
        case O_GT:
        case O_SGT:
            z = c == 1;
            break;
        case O_GE:
        case O_SGE:
            z = c == 1 || c == 0;
            break;
        case O_EQ:
        case O_SEQ:
            z = c == 0;
            break;
        case O_NE:
        case O_SNE:
            z = c != 0;
            break;
        default:
            break;
        }
        put_bool(&r, k, z);
    }
    return r;
}

static rt_val
logical(rt *m, op o, const rt_val *a, const rt_val *b)
{
    int rank;
    int64_t ext[RT_MAXRANK], n;
    result_shape(m, a, b, &rank, ext, &n);
    rt_val r = make(m, RT_BOOL, rank, ext);
    for (int64_t k = 0; k < n; k++) {
        bool x = rt_bool_at(m, a, a->rank ? k : 0);
        bool y = b ? rt_bool_at(m, b, b->rank ? k : 0) : false;
        put_bool(&r, k, o == O_AND ? x && y : o == O_OR ? x || y : o == O_XOR ? x != y : !x);
    }
    return r;
}

/* ------------------------------------------------------------ arrays */

static rt_val
reduce(rt *m, op o, const rt_val *a)
{
    if (a->type == RT_STR || a->type == RT_BOOL)
        rt_fault(m, "a reduction over a %s array", a->type == RT_STR ? "string" : "logical");
    bool real = a->type == RT_REAL;
    if (o == O_MAXLOC || o == O_MINLOC) {
        int64_t best = -1;
        for (int64_t k = 0; k < a->n; k++) {
            if (best < 0) {
                best = k;
                continue;
            }
            double x = rt_real_at(a, k), y = rt_real_at(a, best);
            if (o == O_MAXLOC ? x > y : x < y)
                best = k;
        }
        int64_t rk = a->rank ? a->rank : 1;
        rt_val r = rt_array(m, RT_INT, 1, &rk);
        for (int j = 0; j < (int)rk; j++) { /* subscripts of the first extreme, from 1 */
            if (best < 0 || !a->rank) {
                r.iv[j] = best < 0 ? 0 : 1;
                continue;
            }
            r.iv[j] = best % a->ext[j] + 1;
            best /= a->ext[j];
        }
        return r;
    }
    if (real) {
        double z = o == O_SUM ? 0.0 : o == O_MAXVAL ? -HUGE_VAL : HUGE_VAL;
        for (int64_t k = 0; k < a->n; k++) {
            double x = rt_real_at(a, k);
            if (o == O_SUM) {
                if (k)
                    m->stats.adds++;
                z += x;
            } else if (o == O_MAXVAL ? x > z : x < z)
                z = x;
        }
        if (o != O_SUM)
            m->stats.intrinsics++;
        return rt_scalar_real(z);
    }
    int64_t z = o == O_SUM ? 0 : o == O_MAXVAL ? INT64_MIN : INT64_MAX;
    for (int64_t k = 0; k < a->n; k++) {
        int64_t x = rt_int_at(m, a, k);
        if (o == O_SUM)
            z = wrap_add(z, x);
        else if (o == O_MAXVAL ? x > z : x < z)
            z = x;
    }
    return rt_scalar_int(z);
}

static void
copy_elem(rt_val *to, int64_t kt, const rt_val *from, int64_t kf)
{
    switch (to->type) {
    case RT_REAL:
        to->r[kt] = rt_real_at(from, kf);
        break;
    case RT_INT:
        to->iv[kt] = from->rank ? from->iv[kf] : from->sc.i;
        break;
    case RT_BOOL:
        to->bv[kt] = from->rank ? from->bv[kf] : from->sc.b;
        break;
    case RT_STR:
        to->sv[kt] = rt_str_at(from, kf);
        break;
    }
}

static rt_val
transpose(rt *m, const rt_val *a)
{
    if (a->rank != 2)
        rt_fault(m, "transpose of an array of rank %d", a->rank);
    int64_t ext[2] = {a->ext[1], a->ext[0]};
    rt_val r = rt_array(m, a->type, 2, ext);
    for (int64_t i = 0; i < a->ext[0]; i++)
        for (int64_t j = 0; j < a->ext[1]; j++)
            copy_elem(&r, j + i * ext[0], a, i + j * a->ext[0]);
    return r;
}

static rt_val
reshape(rt *m, const rt_val *a, const rt_val *shape)
{
    if (shape->rank != 1 || shape->n < 1 || shape->n > RT_MAXRANK)
        rt_fault(m, "reshape needs a shape vector of 1 to %d extents", RT_MAXRANK);
    int64_t ext[RT_MAXRANK];
    for (int64_t j = 0; j < shape->n; j++)
        ext[j] = rt_int_at(m, shape, j);
    rt_val r = rt_array(m, a->type, (int)shape->n, ext);
    if (r.n > a->n)
        rt_fault(m, "reshape to %lld elements from %lld", (long long)r.n, (long long)a->n);
    for (int64_t k = 0; k < r.n; k++)
        copy_elem(&r, k, a, a->rank ? k : 0);
    return r;
}

static rt_val
transfer(rt *m, const rt_val *a, const rt_val *mold)
{
    if (a->rank || mold->rank)
        rt_fault(m, "transfer of arrays is not supported");
    if (a->type == RT_REAL && mold->type == RT_INT) {
        int64_t i;
        memcpy(&i, &a->sc.r, sizeof i);
        return rt_scalar_int(i);
    }
    if (a->type == RT_INT && mold->type == RT_REAL) {
        double r;
        memcpy(&r, &a->sc.i, sizeof r);
        return rt_scalar_real(r);
    }
    if (a->type == mold->type)
        return *a;
    rt_fault(m, "transfer between these types is not supported");
}

/* ------------------------------------------------------------ strings */

static rt_val
strings(rt *m, op o, const rt_val *a, const rt_val *b)
{
    if (a->type != RT_STR || a->rank || (b && (b->type != RT_STR || b->rank)))
        rt_fault(m, "a string intrinsic needs scalar strings");
    rt_str s = a->sc.s;
    switch (o) {
    case O_LEN:
        return rt_scalar_int(s.len);
    case O_ICHAR:
        return rt_scalar_int(s.len ? (unsigned char)s.p[0] : 0);
    case O_TRIM: {
        while (s.len && s.p[s.len - 1] == ' ')
            s.len--;
        rt_val r = {.type = RT_STR, .n = 1};
        r.sc.s = s;
        return r;
    }
    case O_SCAN: {
        rt_str set = b->sc.s;
        for (int64_t k = 0; k < s.len; k++)
            if (set.len && memchr(set.p, s.p[k], (size_t)set.len))
                return rt_scalar_int(k + 1);
        return rt_scalar_int(0);
    }
    default:
        return compare(m, o, a, b);
    }
}

/* ------------------------------------------------------------ dispatch */

rt_val
rt_intrinsic(rt *m, const char *name, const xf_evertex *v, const xf_expr *x, const uint32_t *ops,
             int nops, rt_val *args)
{
    (void)x;
    (void)ops;
    size_t i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].name, name))
            break;
    rt_val r;
    if (i == sizeof table / sizeof table[0] && rt_libm(m, name, nops, args, &r))
        return r;
    if (i == sizeof table / sizeof table[0])
        rt_fault(m, "unknown intrinsic '%s' (line %u)", name, v->h.line);
    op o = table[i].o;
    if (nops != table[i].nargs)
        rt_fault(m, "%s takes %d arguments, not %d (line %u)", name, table[i].nargs, nops,
                 v->h.line);
    if (o <= O_MAX)
        return binary(m, o, &args[0], &args[1]);
    if (o <= O_SQRT)
        return unary(m, o, &args[0]);
    if (o <= O_NE)
        return compare(m, o, &args[0], &args[1]);
    if (o <= O_XOR)
        return logical(m, o, &args[0], nops > 1 ? &args[1] : NULL);
    if (o <= O_MINLOC)
        return reduce(m, o, &args[0]);
    switch (o) {
    case O_TRANSPOSE:
        return transpose(m, &args[0]);
    case O_RESHAPE:
        return reshape(m, &args[0], &args[1]);
    case O_TRANSFER:
        return transfer(m, &args[0], &args[1]);
    case O_COMPLEX:
        rt_fault(m, "complex arithmetic (%s) is not supported", name);
    default:
        return strings(m, o, &args[0], nops > 1 ? &args[1] : NULL);
    }
}
